/* How well the renderer's ambient occlusion (gn_read_ao) agrees with the ray-traced truth
 * (gn_truth_ao), and the pictures aoref and aocheck write. Pure: no Embree, no Vulkan, no I/O,
 * so tests/cli checks it on made-up images. */
#ifndef GN_CLI_AOCMP_H
#define GN_CLI_AOCMP_H

#include <stdbool.h>
#include <stdint.h>

/* SAO darker than the truth by more than this counts as a halo pixel: over-darkening, such as the
 * dark rims screen-space AO leaves behind thin occluders and around silhouettes. */
#define GN_AO_HALO_MARGIN 0.2

/* Over the counted pixels (the truth's mask) whose SAO is finite; all 0 when there are none. */
typedef struct gn_ao_agreement {
    double mae;         /* mean |sao - truth| */
    double correlation; /* Pearson's r of sao and truth; 0 when either is constant */
    double mean_sao, mean_truth;
    double halo;         /* share of the pixels with sao < truth - GN_AO_HALO_MARGIN */
    uint64_t pixels;     /* pixels compared */
    uint64_t not_finite; /* counted pixels whose SAO is NaN or infinite: left out, and a defect */
} gn_ao_agreement;

/* Compares n values; counted may be NULL (every pixel counts). */
void gn_ao_compare(const float *sao, const float *truth, const uint8_t *counted, uint64_t n,
                   gn_ao_agreement *out);

/* 0..1 (clamped; NaN reads as 0) to a grey level 0..255, rounded: 255 open, 0 occluded. */
uint8_t gn_ao_grey(float ao);
/* Pictures, RGBA8 into rgba (n * 4 bytes): the AO as grey; and the difference sao - truth as
 * grey 128 + 255 (sao - truth), clamped: twice the difference on the full scale (equal is
 * mid-grey, darker where SAO is darker than the truth, brighter where it is brighter; a difference
 * of 0.5 is black or white), with the pixels
 * that do not count (counted[i] == 0, or a SAO that is not finite) in blue (64, 96, 192). */
void gn_ao_grey_rgba(const float *ao, uint64_t n, uint8_t *rgba);
void gn_ao_diff_rgba(const float *sao, const float *truth, const uint8_t *counted, uint64_t n, uint8_t *rgba);

#endif

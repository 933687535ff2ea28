/* The camera's exposure in physical units (docs/POST.md): EV100 from a camera's settings, the
 * exposure that maps luminance (cd/m2) into the HDR target, and eye adaptation, whose GPU
 * passes (shaders/exposure_histogram.comp, exposure_adapt.comp) this is the CPU reference of:
 * the same bins, the same metering, the same step, held equal by gpu_exposure. Pure. */
#ifndef GN_DECIDE_EXPOSURE_H
#define GN_DECIDE_EXPOSURE_H

#include "gnomon.h"
#include "shared/gpu_types.h"

#include <stdint.h>

/* Lagarde and de Rousiers (Moving Frostbite to PBR, 2014): a reflected-light meter's
 * calibration K = 12.5 gives EV100 = log2(L * 100 / 12.5) for the average luminance L, and
 * the saturation-based sensor speed maps luminance 1.2 * 2^EV100 to 1 (78 / (100 * 0.65)). */
#define GN_EXPOSURE_METER_K 12.5f
#define GN_EXPOSURE_SATURATION 1.2f
/* Rec. 709 luminance of linear RGB (the histogram's and the luminance view's). */
#define GN_LUMA_R 0.2126f
#define GN_LUMA_G 0.7152f
#define GN_LUMA_B 0.0722f

/* gn_exposure_desc with its defaults applied (the metered band as fractions). */
typedef struct gn_exposure_params {
    bool automatic;
    float ev100;                /* fixed: the camera's; auto: the first frame's guess */
    float compensation;         /* EV: +1 doubles the image's brightness */
    float min_ev100, max_ev100; /* the histogram's range */
    float low, high;            /* the metered band, fractions of the pixels (0 <= low < high <= 1) */
    float speed_up, speed_down; /* EV a second */
    float transition;           /* EV */
} gn_exposure_params;

void gn_exposure_resolve(const gn_exposure_desc *d, float compensation, gn_exposure_params *out);
/* EV100 of a camera: log2(aperture^2 / shutter * 100 / iso). */
float gn_ev100_from_camera(float aperture, float shutter_s, float iso);
/* The linear multiplier that an exposure of ev100 (compensation included) gives luminance. */
float gn_exposure_from_ev100(float ev100);
/* EV100 at which a reflected-light meter reads a luminance (cd/m2). */
float gn_ev100_from_luminance(float luminance);
/* The histogram bin (0 .. GN_GPU_EXPOSURE_BINS - 1) of a luminance: its EV100 over the range,
 * clamped at both ends (a pixel darker than the range counts in bin 0 and is metered there,
 * never dropped: bevy #25798). */
uint32_t gn_exposure_bin(float luminance, float min_ev100, float max_ev100);
/* What a histogram meters: the mean EV100 (bin centres) of the pixels between the low and high
 * fractions of the pixels ordered by luminance, clamped to the range. An empty histogram
 * meters NAN (the caller keeps its exposure). */
float gn_exposure_meter(const uint32_t bins[GN_GPU_EXPOSURE_BINS], const gn_exposure_params *p);
/* One frame of adaptation from ev towards target over dt seconds: at speed_up EV/s towards a
 * higher EV (a brighter scene), speed_down towards a lower, slowing exponentially within
 * `transition` EV of the target; never past it. dt <= 0 (a still frame, the first) or a NAN
 * ev: the target itself. */
float gn_exposure_adapt(float ev, float target, float dt, const gn_exposure_params *p);
/* The pre-exposure colour is stored with: the power of two nearest an exposure. Scaling by a
 * power of two is exact in floating point, so what a frame meters does not depend on it. */
float gn_exposure_pre(float exposure);

#endif

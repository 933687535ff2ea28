/* Agreement of the renderer's ambient occlusion with the ray-traced truth; see aocmp.h. */
#include "aocmp.h"

#include <math.h>

static bool gn_ao_counts(const float *sao, const uint8_t *counted, uint64_t i)
{
    return (!counted || counted[i]) && isfinite(sao[i]);
}

void gn_ao_compare(const float *sao, const float *truth, const uint8_t *counted, uint64_t n,
                   gn_ao_agreement *out)
{
    *out = (gn_ao_agreement){0};
    double sum_s = 0.0, sum_t = 0.0, abs_err = 0.0;
    uint64_t halo = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (counted && !counted[i]) continue;
        if (!isfinite(sao[i])) {
            out->not_finite++;
            continue;
        }
        out->pixels++;
        sum_s += sao[i];
        sum_t += truth[i];
        abs_err += fabs((double)sao[i] - truth[i]);
        halo += (double)sao[i] < truth[i] - GN_AO_HALO_MARGIN;
    }
    if (!out->pixels) return;
    double m = (double)out->pixels;
    out->mean_sao = sum_s / m;
    out->mean_truth = sum_t / m;
    out->mae = abs_err / m;
    out->halo = (double)halo / m;
    /* about the means, in a second pass: the sums of squares of values near 1 would cancel */
    double ss = 0.0, tt = 0.0, st = 0.0;
    for (uint64_t i = 0; i < n; i++) {
        if (!gn_ao_counts(sao, counted, i)) continue;
        double ds = sao[i] - out->mean_sao, dt = truth[i] - out->mean_truth;
        ss += ds * ds;
        tt += dt * dt;
        st += ds * dt;
    }
    if (ss > 0.0 && tt > 0.0) out->correlation = st / sqrt(ss * tt);
}

uint8_t gn_ao_grey(float ao)
{
    if (!(ao > 0.0f)) return 0; /* NaN too */
    if (ao >= 1.0f) return 255;
    return (uint8_t)lrintf(ao * 255.0f);
}

static void gn_ao_put(uint8_t *rgba, uint64_t i, uint8_t r, uint8_t g, uint8_t b)
{
    rgba[4 * i] = r, rgba[4 * i + 1] = g, rgba[4 * i + 2] = b, rgba[4 * i + 3] = 255;
}

void gn_ao_grey_rgba(const float *ao, uint64_t n, uint8_t *rgba)
{
    for (uint64_t i = 0; i < n; i++) {
        uint8_t v = gn_ao_grey(ao[i]);
        gn_ao_put(rgba, i, v, v, v);
    }
}

void gn_ao_diff_rgba(const float *sao, const float *truth, const uint8_t *counted, uint64_t n, uint8_t *rgba)
{
    for (uint64_t i = 0; i < n; i++) {
        if (!gn_ao_counts(sao, counted, i)) {
            gn_ao_put(rgba, i, 64, 96, 192);
            continue;
        }
        double v = 128.0 + 255.0 * ((double)sao[i] - truth[i]);
        uint8_t g = v <= 0.0 ? 0 : v >= 255.0 ? 255 : (uint8_t)lrint(v);
        gn_ao_put(rgba, i, g, g, g);
    }
}

/* Exposure and eye adaptation: decide/exposure.h. Each function has a GLSL twin in
 * shaders/exposure.glsl, written with the same operations in the same order. */
#include "decide/exposure.h"

#include <math.h>

/* A night is shown dark, as the eye sees one, but readable. Checked on the town at 22:00 under the
 * atmosphere's night sky (its glow GN_NIGHT_SKY_NITS, decide/sun.h), moonless (day 230) and
 * under a full moon (day 240), from the street, the rooftop and the overview: the moonless night
 * meters ~-4.5 and the moonlit ~-3; at -2 the moonless town was black but for its lamps, at -6
 * the sky read grey as an overcast dusk. */
#define GN_EV_MIN_DEFAULT -4.0f
#define GN_EV_MAX_DEFAULT 18.0f  /* snow under a high sun, beyond the brightest scene */
#define GN_LOW_DEFAULT 10.0f     /* percent: the darkest tenth (shadows, the night sky) is not metered */
#define GN_HIGH_DEFAULT 90.0f    /* percent: nor the brightest (the sun, lamps) */
#define GN_SPEED_UP_DEFAULT 3.0f /* EV/s: Bevy's defaults; the eye adapts faster to light than dark */
#define GN_SPEED_DOWN_DEFAULT 1.0f
#define GN_TRANSITION_DEFAULT 1.5f /* EV */

static float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

void gn_exposure_resolve(const gn_exposure_desc *d, float compensation, gn_exposure_params *out)
{
    out->automatic = d->mode != GN_EXPOSURE_FIXED;
    out->compensation = isfinite(compensation) ? compensation : 0.0f;
    float ev = GN_EV100_SUNNY;
    if (d->ev100 != 0.0f && isfinite(d->ev100))
        ev = d->ev100;
    else if (d->aperture > 0.0f && d->shutter > 0.0f && d->iso > 0.0f)
        ev = gn_ev100_from_camera(d->aperture, d->shutter, d->iso);
    out->ev100 = isfinite(ev) ? ev : GN_EV100_SUNNY;
    bool range = isfinite(d->min_ev100) && isfinite(d->max_ev100) && d->min_ev100 < d->max_ev100;
    out->min_ev100 = range ? d->min_ev100 : GN_EV_MIN_DEFAULT;
    out->max_ev100 = range ? d->max_ev100 : GN_EV_MAX_DEFAULT;
    float lo = d->low_percent > 0.0f ? d->low_percent : GN_LOW_DEFAULT;
    float hi = d->high_percent > 0.0f ? d->high_percent : GN_HIGH_DEFAULT;
    lo = clampf(lo, 0.0f, 100.0f), hi = clampf(hi, 0.0f, 100.0f);
    if (!(lo < hi)) lo = GN_LOW_DEFAULT, hi = GN_HIGH_DEFAULT;
    out->low = lo / 100.0f, out->high = hi / 100.0f;
    out->speed_up = d->speed_up > 0.0f ? d->speed_up : GN_SPEED_UP_DEFAULT;
    out->speed_down = d->speed_down > 0.0f ? d->speed_down : GN_SPEED_DOWN_DEFAULT;
    out->transition = d->transition > 0.0f ? d->transition : GN_TRANSITION_DEFAULT;
}

float gn_ev100_from_camera(float aperture, float shutter_s, float iso)
{
    return log2f(aperture * aperture / shutter_s * 100.0f / iso);
}

float gn_exposure_from_ev100(float ev100) { return 1.0f / (GN_EXPOSURE_SATURATION * exp2f(ev100)); }

float gn_ev100_from_luminance(float luminance) { return log2f(luminance * (100.0f / GN_EXPOSURE_METER_K)); }

uint32_t gn_exposure_bin(float luminance, float min_ev100, float max_ev100)
{
    if (!(luminance > 0.0f)) return 0; /* black, and NAN */
    float t = (gn_ev100_from_luminance(luminance) - min_ev100) / (max_ev100 - min_ev100);
    float b = floorf(t * (float)GN_GPU_EXPOSURE_BINS);
    return b <= 0.0f ? 0u : b >= (float)(GN_GPU_EXPOSURE_BINS - 1) ? GN_GPU_EXPOSURE_BINS - 1 : (uint32_t)b;
}

float gn_exposure_meter(const uint32_t bins[GN_GPU_EXPOSURE_BINS], const gn_exposure_params *p)
{
    float total = 0.0f;
    for (uint32_t i = 0; i < GN_GPU_EXPOSURE_BINS; i++) total += (float)bins[i];
    if (total <= 0.0f) return NAN;
    float lo = p->low * total, hi = p->high * total,
          width = (p->max_ev100 - p->min_ev100) / GN_GPU_EXPOSURE_BINS;
    float cum = 0.0f, sum = 0.0f, weight = 0.0f, first = NAN;
    for (uint32_t i = 0; i < GN_GPU_EXPOSURE_BINS; i++) {
        float c = (float)bins[i];
        float centre = p->min_ev100 + ((float)i + 0.5f) * width;
        /* the bin's pixels [cum, cum + c) inside the band [lo, hi) */
        float w = fminf(cum + c, hi) - fmaxf(cum, lo);
        if (c > 0.0f && isnan(first) && cum + c > lo) first = centre; /* the band is thinner than a pixel */
        if (w > 0.0f) sum += w * centre, weight += w;
        cum += c;
    }
    float ev = weight > 0.0f ? sum / weight : first;
    return clampf(ev, p->min_ev100, p->max_ev100);
}

float gn_exposure_adapt(float ev, float target, float dt, const gn_exposure_params *p)
{
    if (!(dt > 0.0f) || isnan(ev)) return target;
    float d = target - ev;
    float speed = d > 0.0f ? p->speed_up : p->speed_down;
    /* exponential within `transition` of the target, linear at `speed` beyond */
    float step = fabsf(d) * (1.0f - expf(-dt * speed / p->transition));
    step = fminf(step, speed * dt);
    return d > 0.0f ? ev + step : ev - step;
}

float gn_exposure_pre(float exposure) { return exp2f(roundf(log2f(exposure))); }

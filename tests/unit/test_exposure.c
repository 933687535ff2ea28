/* Exposure and eye adaptation on the CPU (src/decide/exposure.c): the camera's EV100, the
 * histogram's bins, the metered band, the adaptation's speeds, and the two failures of peers the
 * metering must not have: a dark object coming into view over a bright background must not
 * darken the image (bevy #13446), and a view turning dark must not make the exposure jump
 * (bevy #25798, where the darkest bin was left out of metering). */
#include "check.h"
#include "decide/exposure.h"

#include <math.h>
#include <string.h>

static gn_exposure_params defaults(void)
{
    gn_exposure_desc d = {0};
    gn_exposure_params p;
    gn_exposure_resolve(&d, 0.0f, &p);
    return p;
}

/* The luminance at the centre of bin i. */
static float bin_luminance(const gn_exposure_params *p, uint32_t i)
{
    float ev = p->min_ev100 + ((float)i + 0.5f) * (p->max_ev100 - p->min_ev100) / GN_GPU_EXPOSURE_BINS;
    return exp2f(ev) * GN_EXPOSURE_METER_K / 100.0f;
}

static void test_camera(void)
{
    gn_exposure_params p = defaults();
    CHECK(p.automatic && p.ev100 == GN_EV100_SUNNY && p.min_ev100 == -4.0f && p.max_ev100 == 18.0f,
          "defaults: auto %d ev %g range %g..%g", p.automatic, p.ev100, p.min_ev100, p.max_ev100);
    CHECK(p.low == 0.1f && p.high == 0.9f && p.speed_up == 3.0f && p.speed_down == 1.0f,
          "band %g..%g speeds %g %g", p.low, p.high, p.speed_up, p.speed_down);
    /* sunny 16: f/16, 1/100 s, ISO 100 is EV100 log2(25600) = 14.64 */
    float ev = gn_ev100_from_camera(16.0f, 0.01f, 100.0f);
    CHECK(fabsf(ev - 14.644f) < 1e-3f, "f/16 1/100 ISO 100: EV100 %g", ev);
    gn_exposure_desc d = {.mode = GN_EXPOSURE_FIXED, .aperture = 16.0f, .shutter = 0.01f, .iso = 200.0f};
    gn_exposure_resolve(&d, -1.0f, &p);
    CHECK(!p.automatic && fabsf(p.ev100 - 13.644f) < 1e-3f && p.compensation == -1.0f,
          "ISO 200 is one stop more sensitive: %g", p.ev100);
    /* the calibration: at EV100 15 a luminance of 1.2 * 2^15 maps to 1 */
    CHECK(fabsf(gn_exposure_from_ev100(15.0f) * 1.2f * 32768.0f - 1.0f) < 1e-6f, "EV100 15's exposure");
    /* a meter reading 12.5 / 100 * 2^EV is that EV */
    CHECK(fabsf(gn_ev100_from_luminance(0.125f * 1024.0f) - 10.0f) < 1e-5f, "meter at EV 10");
    /* bad ranges and bands fall back to the defaults */
    d = (gn_exposure_desc){.min_ev100 = 5, .max_ev100 = 2, .low_percent = 95, .high_percent = 20};
    gn_exposure_resolve(&d, NAN, &p);
    CHECK(p.min_ev100 == -4.0f && p.max_ev100 == 18.0f && p.low == 0.1f && p.high == 0.9f &&
              p.compensation == 0.0f,
          "an inverted range or band: %g..%g %g..%g", p.min_ev100, p.max_ev100, p.low, p.high);
    /* the pre-exposure is a power of two within a factor sqrt(2) */
    for (float e = 1e-6f; e < 1e3f; e *= 1.37f) {
        float pre = gn_exposure_pre(e);
        int k;
        float m = frexpf(pre, &k);
        CHECK(m == 0.5f && pre / e <= 1.4143f && e / pre <= 1.4143f, "pre-exposure of %g: %g", e, pre);
    }
}

static void test_bins(void)
{
    gn_exposure_params p = defaults();
    for (uint32_t i = 0; i < GN_GPU_EXPOSURE_BINS; i++) {
        uint32_t b = gn_exposure_bin(bin_luminance(&p, i), p.min_ev100, p.max_ev100);
        CHECK(b == i, "bin %u's centre binned as %u", i, b);
    }
    CHECK(gn_exposure_bin(0.0f, p.min_ev100, p.max_ev100) == 0 && gn_exposure_bin(NAN, -6, 18) == 0 &&
              gn_exposure_bin(-1.0f, -6, 18) == 0,
          "black, NAN and negative luminance count in bin 0");
    CHECK(gn_exposure_bin(1e-12f, -6, 18) == 0 && gn_exposure_bin(1e12f, -6, 18) == GN_GPU_EXPOSURE_BINS - 1,
          "beyond the range: the end bins");
}

static void test_meter(void)
{
    gn_exposure_params p = defaults();
    uint32_t bins[GN_GPU_EXPOSURE_BINS] = {0};
    CHECK(isnan(gn_exposure_meter(bins, &p)), "an empty histogram meters NAN");
    float width = (p.max_ev100 - p.min_ev100) / GN_GPU_EXPOSURE_BINS;
    bins[70] = 1000;
    float ev = gn_exposure_meter(bins, &p);
    CHECK(fabsf(ev - (p.min_ev100 + 70.5f * width)) < 1e-4f, "one bin meters its centre: %g", ev);
    /* the band leaves out the darkest and brightest tenths: 10% black, 10% blinding lamps */
    bins[0] = 125, bins[127] = 125;
    float banded = gn_exposure_meter(bins, &p);
    CHECK(fabsf(banded - ev) < 1e-4f, "the ends outside the band move nothing: %g vs %g", banded, ev);
    /* half in each of two bins: their mean */
    memset(bins, 0, sizeof bins);
    bins[40] = 500, bins[80] = 500;
    ev = gn_exposure_meter(bins, &p);
    CHECK(fabsf(ev - (p.min_ev100 + 60.5f * width)) < 1e-3f, "two bins: %g", ev);
    /* one pixel */
    memset(bins, 0, sizeof bins);
    bins[33] = 1;
    ev = gn_exposure_meter(bins, &p);
    CHECK(fabsf(ev - (p.min_ev100 + 33.5f * width)) < 1e-4f, "one pixel: %g", ev);
}

/* bevy #13446: a dark object grows over a bright background; the metered EV100 never rises
 * (a rise would darken the image), whatever the object's and the background's levels. */
static void test_dark_object(void)
{
    gn_exposure_params p = defaults();
    const uint32_t pixels = 65536;
    uint32_t worst_rises = 0;
    for (uint32_t bg = 60; bg < 128; bg += 7)
        for (uint32_t dark = 0; dark < bg; dark += 9) {
            float prev = INFINITY;
            for (uint32_t k = 0; k <= 64; k++) {
                uint32_t bins[GN_GPU_EXPOSURE_BINS] = {0};
                uint32_t object = pixels * k / 64;
                bins[dark] = object;
                bins[bg] = pixels - object;
                float ev = gn_exposure_meter(bins, &p);
                if (ev > prev + 1e-5f) worst_rises++;
                prev = ev;
            }
        }
    CHECK(worst_rises == 0, "%u steps where a growing dark object raised the metered EV", worst_rises);
}

/* bevy #25798: the whole view sinks below the histogram's range, a little each frame. The
 * target falls monotonically to the range's floor and stays there (never NAN, never back up),
 * and the exposure follows within the darkening speed. */
static void test_turning_dark(void)
{
    gn_exposure_params p = defaults();
    const float dt = 1.0f / 60.0f;
    float ev = NAN, prev_target = INFINITY;
    uint32_t bad_target = 0, bad_step = 0;
    for (uint32_t frame = 0; frame < 1500; frame++) { /* 25 s: 18 EV down at 1 EV/s */
        /* the scene's luminance falls 4 EV a second from EV100 12, far below the floor (-6) */
        float scene_ev = 12.0f - 4.0f * (float)frame * dt;
        uint32_t bins[GN_GPU_EXPOSURE_BINS] = {0};
        float l = exp2f(scene_ev) * GN_EXPOSURE_METER_K / 100.0f;
        bins[gn_exposure_bin(l, p.min_ev100, p.max_ev100)] += 60000;
        bins[gn_exposure_bin(l * 0.1f, p.min_ev100, p.max_ev100)] += 5536; /* its shadows */
        float target = gn_exposure_meter(bins, &p);
        if (isnan(target) || target > prev_target + 1e-5f || target < p.min_ev100) bad_target++;
        prev_target = target;
        float next = gn_exposure_adapt(ev, target, frame ? dt : 0.0f, &p);
        if (frame && (fabsf(next - ev) > p.speed_down * dt + 1e-5f || next > ev + 1e-6f)) bad_step++;
        ev = next;
    }
    CHECK(bad_target == 0 && bad_step == 0, "%u bad targets, %u steps beyond 1 EV/s or upwards", bad_target,
          bad_step);
    CHECK(fabsf(prev_target - p.min_ev100) < 0.2f && fabsf(ev - prev_target) < 0.05f,
          "at the end: target %g, exposure %g (the floor %g)", prev_target, ev, p.min_ev100);
}

static void test_adapt(void)
{
    gn_exposure_params p = defaults();
    CHECK(gn_exposure_adapt(3.0f, 10.0f, 0.0f, &p) == 10.0f && gn_exposure_adapt(NAN, 7.0f, 0.1f, &p) == 7.0f,
          "a still frame or no history: the target");
    /* 0 -> 10 EV brighter at 60 fps: at most 3 EV/s, monotonic, never past; takes >= 10/3 s */
    const float dt = 1.0f / 60.0f;
    float ev = 0.0f;
    uint32_t frames = 0, bad = 0;
    while (ev < 9.99f && frames < 10000) {
        float next = gn_exposure_adapt(ev, 10.0f, dt, &p);
        if (next < ev || next - ev > p.speed_up * dt + 1e-5f || next > 10.0f) bad++;
        ev = next, frames++;
    }
    CHECK(bad == 0 && frames >= 200 && frames < 600, "brightening: %u frames, %u bad steps", frames, bad);
    /* darkening 10 EV at 1 EV/s: at least 10 s */
    ev = 10.0f, frames = 0, bad = 0;
    while (ev > 0.01f && frames < 100000) {
        float next = gn_exposure_adapt(ev, 0.0f, dt, &p);
        if (next > ev || ev - next > p.speed_down * dt + 1e-5f || next < 0.0f) bad++;
        ev = next, frames++;
    }
    CHECK(bad == 0 && frames >= 600 && frames < 1500, "darkening: %u frames, %u bad steps", frames, bad);
    /* smooth near the target: the step shrinks as the distance does */
    float a = gn_exposure_adapt(0.0f, 0.5f, dt, &p) - 0.0f, b = gn_exposure_adapt(0.0f, 0.25f, dt, &p);
    CHECK(a > b && b > 0.0f && fabsf(a / b - 2.0f) < 0.01f, "within the transition: steps %g, %g", a, b);
    /* the frame rate does not change the pace: 30 fps and 120 fps reach the same EV in 1 s */
    float e30 = 0.0f, e120 = 0.0f;
    for (int i = 0; i < 30; i++) e30 = gn_exposure_adapt(e30, 2.0f, 1.0f / 30.0f, &p);
    for (int i = 0; i < 120; i++) e120 = gn_exposure_adapt(e120, 2.0f, 1.0f / 120.0f, &p);
    CHECK(fabsf(e30 - e120) < 0.1f, "1 s at 30 fps %g, at 120 fps %g", e30, e120);
}

int main(void)
{
    test_camera();
    test_bins();
    test_meter();
    test_dark_object();
    test_turning_dark();
    test_adapt();
    return gn_check_exit();
}

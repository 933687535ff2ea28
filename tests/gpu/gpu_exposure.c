/* Eye adaptation on the GPU against its CPU reference (src/decide/exposure.c), and the exposure's
 * calibration:
 *   (1) on recorded frames of the town (noon, sunset, 22:00, 4x MSAA), the GPU's histogram equals
 *       the CPU's binning of the read-back HDR colour (pixels within 1e-3 EV of a bin edge may
 *       land in either neighbour), the EV100 it metered equals gn_exposure_meter of its bins, and
 *       the exposure it shows is that EV100's;
 *   (2) a still shot does not depend on what came before it: its second frame after a night frame
 *       and after a noon frame is the same to the byte (the pre-exposure is a power of two);
 *   (3) at EV100 15 (fixed: sunny 16) the town at noon under the atmosphere's sun and sky is well
 *       exposed: its mean display level mid-range, under 2% of it clipped white or crushed black;
 *   (4) bevy #13446 and #25798 on the GPU: a dark wall slides into a bright noon view over 40
 *       frames at 30 fps and then fills it; the EV100 shown never rises (the image never darkens),
 *       falls at most 1 EV/s, and each frame's metering and step equal the CPU reference's. */
#include "decide/exposure.h"
#include "gpu_util.h"
#include "passes/exposure.h"
#include "scene/scene.h"
#include "scene/town.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256

static uint32_t bin_count(const gn_gpu_exposure *e, uint32_t i) { return e->bins[i / 4][i % 4]; }

/* (1): one recorded frame's histogram and metering against the CPU's */
static void check_frame(gn_renderer *r, const gn_frame_desc *f, const char *name)
{
    gn_error err = {0};
    gn_gpu_exposure e;
    uint16_t *hdr = malloc((size_t)W * H * 8);
    CHECK(gn_exposure_read(r, &e, &err) == GN_OK && gn_exposure_read_hdr(r, hdr, &err) == GN_OK,
          "%s: readback: %s", name, err.message);
    gn_exposure_params p;
    gn_exposure_resolve(&f->camera_exposure, f->exposure, &p);
    uint32_t cpu[GN_GPU_EXPOSURE_BINS] = {0}, near_edge = 0;
    float pre = e.pre[1], width = (p.max_ev100 - p.min_ev100) / GN_GPU_EXPOSURE_BINS;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        float rgb[3] = {gt_half_to_float(hdr[i * 4]), gt_half_to_float(hdr[i * 4 + 1]),
                        gt_half_to_float(hdr[i * 4 + 2])};
        float l = (rgb[0] * GN_LUMA_R + rgb[1] * GN_LUMA_G + rgb[2] * GN_LUMA_B) / pre;
        cpu[gn_exposure_bin(l, p.min_ev100, p.max_ev100)]++;
        float t = (gn_ev100_from_luminance(l) - p.min_ev100) / width;
        if (l > 0.0f && fabsf(t - roundf(t)) < 1e-3f / width) near_edge++;
    }
    uint32_t diff = 0, total = 0;
    for (uint32_t i = 0; i < GN_GPU_EXPOSURE_BINS; i++) {
        diff += (uint32_t)abs((int)cpu[i] - (int)bin_count(&e, i));
        total += bin_count(&e, i);
    }
    float metered = gn_exposure_meter((const uint32_t *)e.bins, &p);
    fprintf(stderr,
            "%s: EV100 %.3f metered %.3f (CPU %.3f), pre-exposure 2^%.0f, %u pixels binned apart (%u near an "
            "edge)\n",
            name, e.state[0], e.state[1], metered, log2f(pre), diff, near_edge);
    CHECK(total == W * H, "%s: the GPU binned %u pixels of %u", name, total, W * H);
    CHECK(diff <= 2 * near_edge, "%s: %u pixels binned apart, %u near a bin edge", name, diff, near_edge);
    CHECK(fabsf(metered - e.state[1]) < 1e-3f, "%s: GPU metered %g, CPU %g from its bins", name, e.state[1],
          metered);
    CHECK(e.state[0] == e.state[1], "%s: a still frame is shown at its target (%g vs %g)", name, e.state[0],
          e.state[1]);
    float want = gn_exposure_from_ev100(e.state[0] - p.compensation);
    CHECK(fabsf(e.state[2] / want - 1.0f) < 1e-4f, "%s: exposure %g, want %g", name, e.state[2], want);
    CHECK(e.pre[0] == gn_exposure_pre(e.state[2]), "%s: next pre-exposure %g, want %g", name, e.pre[0],
          gn_exposure_pre(e.state[2]));
    free(hdr);
}

static void test_town(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    gn_builtin_desc bd = {.name = "town", .seed = 1, .scale = 1};
    if (gn_scene_create_builtin(&bd, &s, &err)) {
        fprintf(stderr, "town: %s\n", err.message);
        exit(1);
    }
    float vps[3][5];
    gn_town_viewpoints(s, vps);
    gn_renderer *r = gt_renderer(W, H, 4);
    static const float hours[3] = {12.0f, 18.5f, 22.0f};
    static const char *names[3] = {"noon", "sunset", "22:00"};
    float ev[3];
    for (int t = 0; t < 3; t++) {
        gn_frame_desc f = gt_at(vps[0], hours[t]);
        free(gt_render(r, s, &f));
        check_frame(r, &f, names[t]);
        gn_frame_stats st = gt_frame(r, s, &f);
        ev[t] = st.exposure_ev100;
    }
    CHECK(ev[0] > ev[1] && ev[1] > ev[2] + 3.0f, "noon %g, sunset %g, night %g: darker scenes, lower EV100",
          ev[0], ev[1], ev[2]);

    /* (2) the same still frame after a night frame and after a noon frame */
    gn_frame_desc sunset = gt_at(vps[1], 18.5f), night = gt_at(vps[1], 22.0f), noon = gt_at(vps[1], 12.0f);
    sunset.shadows = night.shadows = noon.shadows = GN_SHADOWS_NONE; /* no shadow cache to carry over */
    /* the second frame of a still shot: the first after a cut is stored with the last shot's
     * pre-exposure, which may under- or overflow rgba16f (a night's on the sun's disc) */
    free(gt_render(r, s, &night));
    gt_frame(r, s, &sunset);
    gn_frame_stats a = gt_frame(r, s, &sunset);
    uint8_t *after_night = gt_pixels(r);
    free(gt_render(r, s, &noon));
    gt_frame(r, s, &sunset);
    gn_frame_stats b = gt_frame(r, s, &sunset);
    uint8_t *after_noon = gt_pixels(r);
    /* identical but where a pixel so dark that its pre-exposed value is a half-float subnormal
     * rounds differently under the other power of two (measured: 1 pixel of 65,536, 1 level) */
    gt_diff still = gt_compare(after_night, after_noon, W, H, 0);
    fprintf(stderr, "the still frame after night and after noon: %.4f%% of pixels differ, by at most %u\n",
            100.0 * still.over_share, still.max_channel);
    CHECK(still.max_channel <= 1 && still.over_share <= 1e-4 && a.exposure_ev100 == b.exposure_ev100,
          "a still frame depends on the one before it (%.4f%% of pixels, up to %u levels; EV100 %g vs %g)",
          100.0 * still.over_share, still.max_channel, a.exposure_ev100, b.exposure_ev100);
    free(after_night);
    free(after_noon);

    /* (3) the calibration: EV100 15 (sunny 16) exposes the noon street under the physical sun
     * and sky well: its mean display level mid-range, little of it clipped white or crushed black */
    gn_renderer *r2 = gt_renderer(384, 216, 4);
    gn_frame_desc fixed = gt_at(vps[0], 12.0f);
    fixed.camera_exposure = (gn_exposure_desc){.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY};
    fixed.bloom.off = true, fixed.no_dither = true;
    uint8_t *px = gt_render(r2, s, &fixed);
    double mean = 0.0;
    uint32_t white = 0, black = 0, n = 384 * 216;
    for (uint32_t i = 0; i < n; i++) {
        double l = 0.2126 * px[i * 4] + 0.7152 * px[i * 4 + 1] + 0.0722 * px[i * 4 + 2];
        mean += l / n;
        white += l >= 254.5;
        black += l < 8.0;
    }
    fprintf(stderr, "EV100 15 at noon: mean display level %.1f, %.2f%% white, %.2f%% black\n", mean,
            100.0 * white / n, 100.0 * black / n);
    CHECK(mean > 70.0 && mean < 190.0 && white < n / 50 && black < n / 50,
          "EV100 15 at noon: mean level %.1f, %u white, %u black pixels", mean, white, black);
    free(px);
    GT_CHECK_VALIDATION(r, "the town's exposure");
    GT_CHECK_VALIDATION(r2, "the calibration");
    gn_renderer_destroy(r2);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
}

/* (4) a dark wall slides into a bright view, then fills it */
static void test_adaptation(void)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    uint32_t ground = gt_add_box(s, 200, 0.5f, 200), wall = gt_add_box(s, 3, 3, 0.1f);
    gn_material_desc bright = {.base_color = {0.8f, 0.8f, 0.8f, 1}, .roughness = 0.9f};
    gn_material_desc dark = {.base_color = {0.01f, 0.01f, 0.01f, 1}, .roughness = 0.9f};
    uint32_t mb = 0, md = 0, wall_id = 0;
    gn_scene_add_material(s, &bright, &mb, NULL);
    gn_scene_add_material(s, &dark, &md, NULL);
    gn_instance_desc g = {.mesh = ground, .material = mb};
    g.transform[0] = g.transform[5] = g.transform[10] = g.transform[15] = 1;
    g.transform[13] = -0.5f;
    gn_scene_add_instance(s, &g, NULL, NULL);
    gn_instance_desc w = {.mesh = wall, .material = md, .flags = GN_INSTANCE_DYNAMIC};
    w.transform[0] = w.transform[5] = w.transform[10] = w.transform[15] = 1;
    w.transform[12] = 12.0f, w.transform[13] = 1.5f, w.transform[14] = 2.0f;
    gn_scene_add_instance(s, &w, &wall_id, NULL);

    gn_renderer *r = gt_renderer(W, H, 4);
    /* looking south at noon (yaw 180 faces +Z): the wall shows its shaded side */
    gn_frame_desc f = {.camera = {.position = {0, 1.5f, 0}, .yaw = 180, .pitch = 0, .fov_y = 60},
                       .time_of_day = 12.0f,
                       .shadows = GN_SHADOWS_NONE};
    gn_exposure_params p;
    gn_exposure_resolve(&f.camera_exposure, 0.0f, &p);
    const float dt = 1.0f / 30.0f;
    float prev_ev = NAN, prev_target = NAN, first_ev = NAN;
    uint32_t rises = 0, fast = 0, off_ref = 0, target_rises = 0;
    for (uint32_t k = 0; k < 100; k++) {
        /* frames 0..39 slide it from beside the view to its middle; then it stays */
        float x = k < 40 ? 8.0f * (1.0f - (float)k / 39.0f) : 0.0f;
        float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 1.5f, 2.0f, 1};
        gn_scene_set_transform(s, wall_id, m, NULL);
        f.seconds = k * dt;
        gn_frame_stats st = gt_frame(r, s, &f);
        gn_gpu_exposure e;
        gn_exposure_read(r, &e, NULL);
        float metered = gn_exposure_meter((const uint32_t *)e.bins, &p);
        float step = gn_exposure_adapt(prev_ev, e.state[1], k ? dt : 0.0f, &p);
        if (fabsf(metered - e.state[1]) > 1e-3f || fabsf(step - e.state[0]) > 1e-3f) off_ref++;
        if (k) {
            if (st.exposure_ev100 > prev_ev + 1e-4f) rises++;
            if (prev_ev - st.exposure_ev100 > p.speed_down * dt + 1e-4f) fast++;
            if (e.state[1] > prev_target + 0.2f) target_rises++;
        } else {
            first_ev = st.exposure_ev100;
        }
        prev_ev = st.exposure_ev100, prev_target = e.state[1];
    }
    fprintf(stderr, "dark wall: EV100 %.2f -> %.2f (metered %.2f at the end)\n", first_ev, prev_ev,
            prev_target);
    CHECK(rises == 0, "the EV100 shown rose on %u frames as a dark wall came into view (the image darkened)",
          rises);
    CHECK(fast == 0, "the exposure moved faster than 1 EV/s down on %u frames", fast);
    CHECK(target_rises == 0, "the metered EV100 rose on %u frames", target_rises);
    CHECK(off_ref == 0, "%u frames where the GPU's metering or step differ from the CPU reference", off_ref);
    CHECK(first_ev - prev_ev > 2.0f && prev_target < first_ev - 4.0f,
          "the wall darkened the view too little: EV100 %g -> %g, metered %g", first_ev, prev_ev,
          prev_target);
    GT_CHECK_VALIDATION(r, "the adaptation");
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
}

int main(void)
{
    test_town();
    test_adaptation();
    return gn_check_exit();
}

/* Bloom (src/passes/bloom.c, shaders/bloom.comp) on the GPU:
 *   (1) energy: with no threshold the chain's level 0 holds the light of its input; its mean
 *       equals the HDR colour's within 2% on the town at noon (the Karis average of the first
 *       step takes a little from the brightest texels, and clamping at the borders moves some);
 *   (2) stability: the camera slides 2 cm a frame past the town's lit windows at 22:00 for 24
 *       frames (30 fps, adapting); in scene luminance (over each frame's pre-exposure), the bloom's
 *       total changes frame to frame by at most 2 points more than its input's (measured: 4.25%
 *       against 2.96%), and its largest texel step, over its peak, is no larger than the input's
 *       box-filtered to the same size (0.092 against 0.188): no flicker as bright lights cross
 *       texels, which the Karis average of the first step is there to stop;
 *   (3) the chain's levels halve down to a smaller side of 16, and bloom off gives a frame
 *       without the glow: darker around the lit windows at night. */
#include "gpu_util.h"
#include "passes/bloom.h"
#include "passes/exposure.h"
#include "scene/town.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256

/* Sum of a rgba16f image's luminance, and its brightest texel. */
static double total(const uint16_t *px, size_t n, double *peak)
{
    double sum = 0;
    *peak = 0;
    for (size_t i = 0; i < n; i++) {
        double l = 0.2126 * gt_half_to_float(px[i * 4]) + 0.7152 * gt_half_to_float(px[i * 4 + 1]) +
                   0.0722 * gt_half_to_float(px[i * 4 + 2]);
        sum += l;
        if (l > *peak) *peak = l;
    }
    return sum;
}

int main(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    gn_builtin_desc bd = {.name = "town", .seed = 1, .scale = 1};
    if (gn_scene_create_builtin(&bd, &s, &err) || gn_scene_add_builtin_lights(s, 512, 1, &err)) {
        fprintf(stderr, "town: %s\n", err.message);
        return 1;
    }
    float vps[3][5];
    gn_town_viewpoints(s, vps);
    gn_renderer *r = gt_renderer(W, H, 4);
    const gn_bloom_gpu *b = gn_feature_state(r, GN_FEATURE_BLOOM);
    CHECK(b->levels == 4 && b->level[3].width == 16 && b->level[0].width == 128, "%u levels, last %ux%u",
          b->levels, b->level[b->levels - 1].width, b->level[b->levels - 1].height);
    CHECK(gn_bloom_levels_for(3840, 2160) == 7 && gn_bloom_levels_for(1280, 720) == 5,
          "levels at 4K %u, 720p %u", gn_bloom_levels_for(3840, 2160), gn_bloom_levels_for(1280, 720));

    /* (1) energy */
    uint16_t *hdr = malloc((size_t)W * H * 8), *l0 = malloc((size_t)W * H * 2);
    gn_frame_desc noon = gt_at(vps[0], 12.0f);
    free(gt_render(r, s, &noon));
    double peak_in, peak_out;
    CHECK(gn_exposure_read_hdr(r, hdr, &err) == GN_OK && gn_bloom_read(r, 0, l0, &err) == GN_OK,
          "readback: %s", err.message);
    double in = total(hdr, (size_t)W * H, &peak_in) / (W * H);
    double out = total(l0, (size_t)(W / 2) * (H / 2), &peak_out) / ((W / 2) * (H / 2));
    fprintf(stderr, "energy: the colour's mean %.5g, bloom level 0's %.5g (ratio %.4f)\n", in, out, out / in);
    CHECK(fabs(out / in - 1.0) < 0.02, "the chain keeps %.4f of its input's light", out / in);

    /* (2) stability past the lamps at night */
    gn_frame_desc f = gt_at(vps[0], 22.0f);
    const size_t half = (size_t)(W / 2) * (H / 2);
    float *lum[2] = {malloc(half * sizeof(float)), malloc(half * sizeof(float))}; /* bloom, input */
    float *was[2] = {malloc(half * sizeof(float)), malloc(half * sizeof(float))};
    double worst_total[2] = {0, 0}, worst_texel[2] = {0, 0}, prev_total[2] = {0, 0};
    for (int k = 0; k < 24; k++) {
        f.camera.position[0] = vps[0][0] + 0.02f * (float)k;
        f.seconds = k / 30.0;
        gt_frame(r, s, &f);
        gn_exposure_read_hdr(r, hdr, NULL);
        gn_bloom_read(r, 0, l0, NULL);
        gn_gpu_exposure e;
        gn_exposure_read(r, &e, NULL);
        float unstore = 1.0f / e.pre[1]; /* the scene's luminance: the pre-exposure moves in steps of 2 */
        double tot[2] = {0, 0}, peak[2] = {0, 0};
        for (size_t y = 0; y < H / 2; y++)
            for (size_t x = 0; x < W / 2; x++) {
                const uint16_t *bl = l0 + (y * (W / 2) + x) * 4;
                float lb = 0.2126f * gt_half_to_float(bl[0]) + 0.7152f * gt_half_to_float(bl[1]) +
                           0.0722f * gt_half_to_float(bl[2]);
                float li = 0;
                for (int dy = 0; dy < 2; dy++)
                    for (int dx = 0; dx < 2; dx++) {
                        const uint16_t *h = hdr + ((2 * y + dy) * W + 2 * x + dx) * 4;
                        li += 0.25f * (0.2126f * gt_half_to_float(h[0]) + 0.7152f * gt_half_to_float(h[1]) +
                                       0.0722f * gt_half_to_float(h[2]));
                    }
                lum[0][y * (W / 2) + x] = lb * unstore, lum[1][y * (W / 2) + x] = li * unstore;
            }
        for (int q = 0; q < 2; q++)
            for (size_t i = 0; i < half; i++) {
                tot[q] += lum[q][i];
                if (lum[q][i] > peak[q]) peak[q] = lum[q][i];
            }
        if (k >= 2) /* frame 0 is stored with the noon frame's pre-exposure; 1 is the first after */
            for (int q = 0; q < 2; q++) {
                double dt = fabs(tot[q] / prev_total[q] - 1.0), dmax = 0;
                for (size_t i = 0; i < half; i++)
                    if (fabs(lum[q][i] - was[q][i]) > dmax) dmax = fabs(lum[q][i] - was[q][i]);
                if (dt > worst_total[q]) worst_total[q] = dt;
                if (dmax / peak[q] > worst_texel[q]) worst_texel[q] = dmax / peak[q];
            }
        for (int q = 0; q < 2; q++) memcpy(was[q], lum[q], half * sizeof(float)), prev_total[q] = tot[q];
    }
    fprintf(stderr,
            "stability: frame to frame, the bloom's total changed at most %.3f%% (its input's, at half size, "
            "%.3f%%); its largest texel step %.3f of its peak (the input's %.3f)\n",
            worst_total[0] * 100, worst_total[1] * 100, worst_texel[0], worst_texel[1]);
    CHECK(worst_total[0] < worst_total[1] + 0.02,
          "the bloom flickers: its total changed %.3f%%, its input's %.3f%%", worst_total[0] * 100,
          worst_total[1] * 100);
    CHECK(worst_texel[0] <= worst_texel[1],
          "a bloom texel stepped by %.3f of the peak, more than the input's %.3f", worst_texel[0],
          worst_texel[1]);
    for (int q = 0; q < 2; q++) free(lum[q]), free(was[q]);

    /* (3) off: the same frame without the glow */
    gn_frame_desc on = gt_at(vps[1], 22.0f), off = on;
    off.bloom.off = true;
    uint8_t *a = gt_render(r, s, &on), *c = gt_render(r, s, &off);
    gt_diff d = gt_compare(a, c, W, H, 0);
    double mean_on = 0, mean_off = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i++) mean_on += a[i], mean_off += c[i];
    fprintf(stderr, "bloom on and off: %.2f%% of pixels differ, the glow adds %.2f levels on average\n",
            d.over_share * 100, (mean_on - mean_off) / (W * H * 4));
    CHECK(d.over_share > 0.01 && mean_on > mean_off, "bloom on and off: %.2f%% differ, on %.0f off %.0f",
          d.over_share * 100, mean_on, mean_off);
    free(a);
    free(c);
    GT_CHECK_VALIDATION(r, "bloom");
    free(hdr);
    free(l0);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

/* Weighted blended order-independent transparency (issue 20; src/passes/oit.c, McGuire and Bavoil
 * 2013), on lavapipe at 128x128 with 4x MSAA, on gpu_blend_order's six overlapping glass panes in
 * front of a grey wall (one pane in an earlier layer, sort 6).
 *
 * - The scene built in three orders (materials and instances forwards, backwards, shuffled) and on
 *   the CPU-culling path gives the same HDR image, bit for bit; so does the scene with the sixth
 *   pane in the others' layer, which draws it in another place of the list (the sorted path's
 *   image changes there): the accumulation's adds round in another order, so that one is held to
 *   a tolerance (TOL_ORDER), not to the bit.
 * - Against a CPU weighted blended composite: each pane rendered alone (sorted) over the wall gives
 *   its premultiplied contribution p = alone - (1 - a) wall; with w = gn_oit_weight(view depth, a)
 *   (shaders/shared/oit.h, the shader's own) the CPU computes
 *   C = sum(p w) / max(sum(a w), eps) * (1 - prod(1 - a)) + wall * prod(1 - a), and the frame's HDR
 *   colour must lie within 1% + 0.002 of the wall's of it (half-float rounding of the sums) at every
 *   pixel at least 1.5 px inside or outside each pane's edges, at 4x and at 1x.
 * - It is an approximation: where only one pane covers a pixel it equals the sorted path (same
 *   tolerance); where panes overlap it differs from it, the mean and largest differences printed
 *   (and the largest must exceed 5% of the sorted value). */
#include "gpu_util.h"
#include "gt_panes.h"
#include "passes/exposure.h"
#include "shared/oit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 128
#define PANES GT_PANES
#define TOL_ORDER 2e-3f /* relative: the accumulation's fp16 adds in another order */

/* One frame of s (destroyed after) into hdr (floats, rgba); the 8-bit image if ldr. */
static void render(gn_renderer *r, gn_scene *s, bool cpu, gn_transparency mode, float *hdr, uint8_t **ldr,
                   gn_frame_stats *st)
{
    gn_frame_desc f = gt_panes_frame(cpu);
    f.transparency = mode;
    gn_error err = {0};
    gn_frame_stats got = gt_frame(r, s, &f);
    if (st) *st = got;
    uint16_t *half = malloc((size_t)W * H * 8);
    bool ok = half && gn_exposure_read_hdr(r, half, &err) == GN_OK;
    CHECK(ok, "hdr readback: %s", err.message);
    for (size_t i = 0; ok && i < (size_t)W * H * 4; i++) hdr[i] = gt_half_to_float(half[i]);
    free(half);
    if (ldr) *ldr = gt_pixels(r);
    gn_scene_destroy(s);
}

/* The largest relative difference of two HDR images over their colour channels. */
static float max_relative(const float *a, const float *b)
{
    float worst = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i++)
        if (i % 4 != 3) worst = fmaxf(worst, fabsf(a[i] - b[i]) / fmaxf(fabsf(b[i]), 1e-3f));
    return worst;
}

typedef struct verdict {
    uint32_t tested, overlapped, single, bad, bad_single;
    double worst, mean_sorted, max_sorted;
} verdict;

/* oit against the CPU composite of `alone` (alone[PANES]: the wall alone) and against `sorted`. */
static verdict judge(const float *oit, const float *sorted, float (*alone)[W * H * 4])
{
    verdict v = {0};
    double sum_sorted = 0;
    uint32_t n_sorted = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int cover = gt_panes_cover(x, y, W, H);
            if (cover < 0) continue;
            size_t o = ((size_t)y * W + x) * 4;
            double reveal = 1, accum_a = 0, accum[3] = {0};
            for (int i = 0; i < PANES; i++) {
                if (gt_panes_edge_distance(i, x + 0.5f, y + 0.5f, W, H) <= 0) continue;
                float a = gt_panes[i].rgba[3], w = gn_oit_weight(GT_PANES_CAM_Z - gt_panes[i].z, a);
                for (int c = 0; c < 3; c++) accum[c] += (alone[i][o + c] - (1 - a) * alone[PANES][o + c]) * w;
                accum_a += a * w;
                reveal *= 1 - a;
            }
            for (int c = 0; c < 3; c++) {
                float wall = alone[PANES][o + c];
                double want = accum[c] / fmax(accum_a, GN_OIT_EPSILON) * (1 - reveal) + wall * reveal;
                float got = oit[o + c], err = (float)fabs(got - want),
                      tol = 0.01f * (float)fabs(want) + 0.002f * wall;
                v.worst = fmax(v.worst, err / fmax(fabs(want), 1e-6));
                v.bad += err > tol;
                float to_sorted = fabsf(got - sorted[o + c]);
                if (cover == 1) v.bad_single += to_sorted > 0.01f * fabsf(sorted[o + c]) + 0.002f * wall;
                if (cover >= 2) {
                    double rel = to_sorted / fmax(fabs(sorted[o + c]), 1e-6);
                    sum_sorted += rel, n_sorted++;
                    v.max_sorted = fmax(v.max_sorted, rel);
                }
            }
            v.tested++;
            v.overlapped += cover >= 2;
            v.single += cover == 1;
        }
    v.mean_sorted = n_sorted ? sum_sorted / n_sorted : 0;
    return v;
}

int main(void)
{
    gn_renderer *r = gt_renderer(W, H, 4);
    const int backwards[PANES] = {5, 4, 3, 2, 1, 0}, shuffled[PANES] = {3, 0, 5, 2, 4, 1};
    const int *orders[3] = {NULL, backwards, shuffled};
    static float oit[3][W * H * 4], oit_cpu[W * H * 4], oit_layer[W * H * 4], sorted[W * H * 4],
        sorted_layer[W * H * 4], oit_1x[W * H * 4], alone[PANES + 1][W * H * 4];
    uint8_t *ldr = NULL;
    gn_frame_stats st;
    for (int k = 0; k < 3; k++) {
        render(r, gt_panes_build(orders[k], 0x3f, true), false, GN_TRANSPARENCY_OIT, oit[k], k ? NULL : &ldr,
               &st);
        CHECK(st.blended_drawn == PANES, "order %d: %u blended instances drawn", k, st.blended_drawn);
        CHECK(gt_ran(&st, "oit accumulate") && gt_ran(&st, "oit composite") &&
                  !gt_ran(&st, "forward blended"),
              "order %d: the OIT passes did not run in place of the sorted one", k);
    }
    render(r, gt_panes_build(shuffled, 0x3f, true), true, GN_TRANSPARENCY_OIT, oit_cpu, NULL, NULL);
    render(r, gt_panes_build(NULL, 0x3f, false), false, GN_TRANSPARENCY_OIT, oit_layer, NULL, NULL);
    render(r, gt_panes_build(NULL, 0x3f, true), false, GN_TRANSPARENCY_SORTED, sorted, NULL, &st);
    CHECK(gt_ran(&st, "forward blended") && !gt_ran(&st, "oit accumulate"), "sorted: the OIT passes ran");
    render(r, gt_panes_build(NULL, 0x3f, false), false, GN_TRANSPARENCY_SORTED, sorted_layer, NULL, NULL);
    size_t bytes = sizeof oit[0];
    bool same =
        !memcmp(oit[1], oit[0], bytes) && !memcmp(oit[2], oit[0], bytes) && !memcmp(oit_cpu, oit[0], bytes);
    float layer_oit = max_relative(oit_layer, oit[0]), layer_sorted = max_relative(sorted_layer, sorted);
    printf("oit: the three orders and the CPU path %s; pane 5 moved in the draw order: oit off by %.5f "
           "(relative, at most), sorted by %.3f\n",
           same ? "identical to the bit" : "DIFFER", layer_oit, layer_sorted);
    CHECK(same, "the scene's order changed the OIT image");
    CHECK(layer_oit <= TOL_ORDER, "the draw order changed the OIT image by %.5f", layer_oit);
    CHECK(layer_sorted > 0.05f, "the sorted image did not change with the layer (%.3f)", layer_sorted);
    CHECK(gt_golden(r, "oit_panes", ldr, W, H), "the OIT panes differ from their golden image");
    free(ldr);

    /* each pane alone, sorted (one layer: the same as OIT's), and the wall alone */
    for (int i = 0; i <= PANES; i++)
        render(r, gt_panes_build(NULL, i < PANES ? 1u << i : 0u, true), false, GN_TRANSPARENCY_SORTED,
               alone[i], NULL, NULL);
    GT_CHECK_VALIDATION(r, "4x");
    gn_renderer_destroy(r);

    verdict v = judge(oit[0], sorted, alone);
    printf(
        "4x: %u pixels tested (%u overlapped, %u under one pane): worst relative error to the CPU composite "
        "%.4f, %u channels off; under one pane %u channels off the sorted image; where panes overlap the "
        "sorted image differs by %.4f on average, %.4f at most (relative)\n",
        v.tested, v.overlapped, v.single, v.worst, v.bad, v.bad_single, v.mean_sorted, v.max_sorted);
    CHECK(v.tested > W * H / 2 && v.overlapped > 1000 && v.single > 500, "%u pixels tested", v.tested);
    CHECK(v.bad == 0, "%u channels differ from the CPU composite", v.bad);
    CHECK(v.bad_single == 0, "%u channels under one pane differ from the sorted image", v.bad_single);
    CHECK(v.max_sorted > 0.05, "OIT is indistinguishable from the sorted image (%.4f)", v.max_sorted);

    /* single-sampled: the composite's other variant */
    gn_renderer *r1 = gt_renderer(W, H, 1);
    render(r1, gt_panes_build(NULL, 0x3f, true), false, GN_TRANSPARENCY_OIT, oit_1x, NULL, NULL);
    GT_CHECK_VALIDATION(r1, "1x");
    gn_renderer_destroy(r1);
    verdict v1 = judge(oit_1x, sorted, alone);
    printf("1x: worst relative error to the CPU composite %.4f, %u channels off\n", v1.worst, v1.bad);
    CHECK(v1.bad == 0, "1x: %u channels differ from the CPU composite", v1.bad);
    if (!gn_check_failures) printf("gpu_oit: ok\n");
    return gn_check_exit();
}

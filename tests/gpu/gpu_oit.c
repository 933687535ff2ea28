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
#include "passes/exposure.h"
#include "shared/oit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 128
#define PANES 6
#define CAM_Z 3.2f
#define FOV_Y 40.0f
#define TOL_ORDER 2e-3f /* relative: the accumulation's fp16 adds in another order */

typedef struct pane {
    float x, y, z, half;
    float rgba[4];
    float sort;
} pane;

/* gpu_blend_order's panes: far to near by z, but for pane 5 (sort 6: drawn before the others) */
static const pane PANE[PANES] = {
    {-0.30f, 0.10f, -0.9f, 0.75f, {0.9f, 0.1f, 0.1f, 0.5f}, 0},
    {0.25f, -0.15f, -0.5f, 0.7f, {0.1f, 0.9f, 0.1f, 0.4f}, 0},
    {-0.10f, -0.25f, -0.1f, 0.6f, {0.1f, 0.2f, 0.9f, 0.6f}, 0},
    {0.20f, 0.25f, 0.3f, 0.55f, {0.9f, 0.8f, 0.1f, 0.5f}, 0},
    {-0.25f, 0.0f, 0.7f, 0.45f, {0.8f, 0.2f, 0.9f, 0.45f}, 0},
    {0.05f, -0.05f, 0.5f, 0.5f, {0.1f, 0.9f, 0.9f, 0.5f}, 6},
};

static gn_frame_desc frame(bool cpu, gn_transparency mode)
{
    return (gn_frame_desc){
        .camera = {.position = {0, 0, CAM_Z}, .fov_y = FOV_Y, .near_plane = 0.1f},
        .time_of_day = 10.0f,
        .latitude = 45,
        .day_of_year = 172,
        .shadows = GN_SHADOWS_NONE,
        .tonemap = GN_TONEMAP_CLIP,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true},
        .no_dither = true,
        .no_aerial = true,
        .cpu_culling = cpu,
        .transparency = mode,
    };
}

static uint32_t add_material(gn_scene *s, const float rgba[4], float sort)
{
    gn_material_desc md = {.base_color = {rgba[0], rgba[1], rgba[2], rgba[3]},
                           .roughness = 0.9f,
                           .alpha_mode = rgba[3] < 1 ? GN_ALPHA_BLEND : GN_ALPHA_OPAQUE,
                           .sort = sort,
                           .label = "pane"};
    uint32_t id = 0;
    CHECK(gn_scene_add_material(s, &md, &id, NULL) == GN_OK, "material refused");
    return id;
}

static void add_at(gn_scene *s, uint32_t mesh, uint32_t material, float x, float y)
{
    gn_instance_desc in = {.mesh = mesh, .material = material};
    in.transform[0] = in.transform[5] = in.transform[10] = in.transform[15] = 1;
    in.transform[12] = x, in.transform[13] = y;
    CHECK(gn_scene_add_instance(s, &in, NULL, NULL) == GN_OK, "instance refused");
}

/* The wall, then the panes in `order` (mask: which; NULL order: 0..5); layered: pane 5 in its own
 * earlier layer, else in the others'. */
static gn_scene *build(const int *order, unsigned mask, bool layered)
{
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, NULL) == GN_OK, "scene");
    const float grey[4] = {0.5f, 0.5f, 0.5f, 1};
    add_at(s, gt_add_quad(s, 3.0f, -2.0f), add_material(s, grey, 0), 0, 0);
    for (int k = 0; k < PANES; k++) {
        int i = order ? order[k] : k;
        if (!(mask >> i & 1)) continue;
        const pane *p = &PANE[i];
        add_at(s, gt_add_quad(s, p->half, p->z), add_material(s, p->rgba, layered ? p->sort : 0), p->x, p->y);
    }
    return s;
}

/* One frame of s (destroyed after) into hdr (floats, rgba); the 8-bit image if ldr. */
static void render(gn_renderer *r, gn_scene *s, bool cpu, gn_transparency mode, float *hdr, uint8_t **ldr,
                   gn_frame_stats *st)
{
    gn_frame_desc f = frame(cpu, mode);
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

/* Pane i's edge distance in pixels at (px, py) (> 0 inside). */
static float edge_distance(int i, float px, float py)
{
    const pane *p = &PANE[i];
    float d = CAM_Z - p->z, f = (H / 2.0f) / tanf(FOV_Y * 0.5f * 3.14159265f / 180.0f);
    float cx = W / 2.0f + f * p->x / d, cy = H / 2.0f - f * p->y / d, half = f * p->half / d;
    return fminf(half - fabsf(px - cx), half - fabsf(py - cy));
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
            bool clear = true;
            int cover = 0;
            for (int i = 0; i < PANES; i++) {
                float e = edge_distance(i, x + 0.5f, y + 0.5f);
                clear = clear && fabsf(e) > 1.5f;
                cover += e > 0;
            }
            if (!clear) continue;
            size_t o = ((size_t)y * W + x) * 4;
            double reveal = 1, accum_a = 0, accum[3] = {0};
            for (int i = 0; i < PANES; i++) {
                if (edge_distance(i, x + 0.5f, y + 0.5f) <= 0) continue;
                float a = PANE[i].rgba[3], w = gn_oit_weight(CAM_Z - PANE[i].z, a);
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
        render(r, build(orders[k], 0x3f, true), false, GN_TRANSPARENCY_OIT, oit[k], k ? NULL : &ldr, &st);
        CHECK(st.blended_drawn == PANES, "order %d: %u blended instances drawn", k, st.blended_drawn);
        CHECK(gt_ran(&st, "oit accumulate") && gt_ran(&st, "oit composite") &&
                  !gt_ran(&st, "forward blended"),
              "order %d: the OIT passes did not run in place of the sorted one", k);
    }
    render(r, build(shuffled, 0x3f, true), true, GN_TRANSPARENCY_OIT, oit_cpu, NULL, NULL);
    render(r, build(NULL, 0x3f, false), false, GN_TRANSPARENCY_OIT, oit_layer, NULL, NULL);
    render(r, build(NULL, 0x3f, true), false, GN_TRANSPARENCY_SORTED, sorted, NULL, &st);
    CHECK(gt_ran(&st, "forward blended") && !gt_ran(&st, "oit accumulate"), "sorted: the OIT passes ran");
    render(r, build(NULL, 0x3f, false), false, GN_TRANSPARENCY_SORTED, sorted_layer, NULL, NULL);
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
        render(r, build(NULL, i < PANES ? 1u << i : 0u, true), false, GN_TRANSPARENCY_SORTED, alone[i], NULL,
               NULL);
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
    render(r1, build(NULL, 0x3f, true), false, GN_TRANSPARENCY_OIT, oit_1x, NULL, NULL);
    GT_CHECK_VALIDATION(r1, "1x");
    gn_renderer_destroy(r1);
    verdict v1 = judge(oit_1x, sorted, alone);
    printf("1x: worst relative error to the CPU composite %.4f, %u channels off\n", v1.worst, v1.bad);
    CHECK(v1.bad == 0, "1x: %u channels differ from the CPU composite", v1.bad);
    if (!gn_check_failures) printf("gpu_oit: ok\n");
    return gn_check_exit();
}

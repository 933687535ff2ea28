/* Blended surfaces drawn back to front (issue 20; src/decide/drawlist.c's
 * gn_draw_list_back_to_front, src/plan.c's plan_blended), on lavapipe at 128x128 with 4x MSAA.
 *
 * A stack of six overlapping coloured glass panes (half transparent, each its own material) in
 * front of a grey wall, the camera looking through all of them, one pane in an earlier layer
 * (sort 6). The scene is built in three orders (materials and instances made forwards, backwards
 * and shuffled): every order must give the same image, byte for byte, on the GPU-culling path
 * and on the CPU path. The image is also held to a CPU composite: each pane rendered alone over
 * the wall gives its own contribution per pixel (alone = a s + (1 - a) wall), and compositing
 * them on the CPU in the expected order (the earlier layer first, then far to near) must give the
 * stacked frame's HDR colour within 1% + 0.002 relative of it (rgba16f rounding each of six blends)
 * at every pixel at least 1.5 px inside or outside each pane's edges; the composite in the wrong
 * order (near to far) must not. */
#include "gpu_util.h"
#include "gt_panes.h"
#include "passes/exposure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 128
#define PANES GT_PANES

/* the composite's order (the earlier layer first, then far to near) */
static const int ORDER[PANES] = {5, 0, 1, 2, 3, 4};

static bool render(gn_renderer *r, gn_scene *s, bool cpu, uint8_t **ldr, float *hdr, uint32_t *blended)
{
    gn_frame_desc f = gt_panes_frame(cpu);
    gn_error err = {0};
    gn_frame_stats st = gt_frame(r, s, &f);
    *blended = st.blended_drawn;
    uint16_t *half = malloc((size_t)W * H * 8);
    bool ok = half && gn_exposure_read_hdr(r, half, &err) == GN_OK;
    CHECK(ok, "hdr readback: %s", err.message);
    for (size_t i = 0; ok && i < (size_t)W * H * 4; i++) hdr[i] = gt_half_to_float(half[i]);
    free(half);
    *ldr = gt_pixels(r);
    gn_scene_destroy(s);
    return ok && *ldr;
}

int main(void)
{
    gn_renderer *r = gt_renderer(W, H, 4);
    const int backwards[PANES] = {5, 4, 3, 2, 1, 0}, shuffled[PANES] = {3, 0, 5, 2, 4, 1};
    const int *orders[3] = {NULL, backwards, shuffled};
    static float hdr[3][W * H * 4], cpu_hdr[W * H * 4], alone[PANES + 1][W * H * 4];
    uint8_t *ldr[3] = {0}, *cpu_ldr = NULL;
    uint32_t blended = 0;
    for (int k = 0; k < 3; k++) {
        render(r, gt_panes_build(orders[k], 0x3f, true), false, &ldr[k], hdr[k], &blended);
        CHECK(blended == PANES, "order %d: %u blended instances drawn", k, blended);
    }
    render(r, gt_panes_build(shuffled, 0x3f, true), true, &cpu_ldr, cpu_hdr, &blended);
    CHECK(blended == PANES, "CPU path: %u blended instances drawn", blended);
    uint32_t differ[3] = {0};
    for (size_t i = 0; i < (size_t)W * H * 4; i++) {
        differ[0] += ldr[1][i] != ldr[0][i];
        differ[1] += ldr[2][i] != ldr[0][i];
        differ[2] += cpu_ldr[i] != ldr[0][i];
    }
    printf("six panes: backwards differs in %u bytes, shuffled in %u, the CPU path in %u\n", differ[0],
           differ[1], differ[2]);
    CHECK(differ[0] == 0 && differ[1] == 0 && differ[2] == 0, "the order of the scene changed the image");
    CHECK(gt_golden(r, "blend_order_panes", ldr[0], W, H), "the panes differ from their golden image");

    /* the CPU composite from each pane alone (alone[PANES]: the wall alone) */
    for (int i = 0; i <= PANES; i++) {
        uint8_t *px = NULL;
        render(r, gt_panes_build(NULL, i < PANES ? 1u << i : 0u, true), false, &px, alone[i], &blended);
        free(px);
    }
    GT_CHECK_VALIDATION(r, "blend order");
    uint32_t tested = 0, bad = 0, bad_wrong = 0, covered6 = 0;
    double worst = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int cover = gt_panes_cover(x, y, W, H);
            if (cover < 0) continue;
            covered6 += cover == PANES;
            size_t o = ((size_t)y * W + x) * 4;
            for (int c = 0; c < 3; c++) {
                const float *wall = &alone[PANES][o + c];
                float d = *wall, dw = *wall;
                for (int k = 0; k < PANES; k++) {
                    int i = ORDER[k], j = ORDER[PANES - 1 - k];
                    float a = gt_panes[i].rgba[3], aj = gt_panes[j].rgba[3];
                    /* alone = a s + (1 - a) wall where the pane covers, the wall where not */
                    if (gt_panes_edge_distance(i, x + 0.5f, y + 0.5f, W, H) > 0)
                        d = alone[i][o + c] - (1 - a) * *wall + (1 - a) * d;
                    if (gt_panes_edge_distance(j, x + 0.5f, y + 0.5f, W, H) > 0)
                        dw = alone[j][o + c] - (1 - aj) * *wall + (1 - aj) * dw;
                }
                float got = hdr[0][o + c], err = fabsf(got - d),
                      tol = 0.01f * fabsf(d) + 0.002f * fabsf(*wall);
                worst = fmax(worst, err / fmaxf(fabsf(d), 1e-6f));
                bad += err > tol;
                bad_wrong += fabsf(got - dw) > tol;
            }
            tested++;
        }
    printf("CPU composite: %u pixels tested (%u under all six panes), worst relative error %.4f, %u channels "
           "off; near-to-far would put %u channels off\n",
           tested, covered6, worst, bad, bad_wrong);
    CHECK(tested > W * H / 2 && covered6 > 100, "%u pixels tested, %u under all panes", tested, covered6);
    CHECK(bad == 0, "%u channels differ from the CPU composite", bad);
    CHECK(bad_wrong > 1000, "the wrong order is indistinguishable (%u channels off)", bad_wrong);
    for (int k = 0; k < 3; k++) free(ldr[k]);
    free(cpu_ldr);
    gn_renderer_destroy(r);
    if (!gn_check_failures) printf("gpu_blend_order: ok\n");
    return gn_check_exit();
}

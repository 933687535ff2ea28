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
#include "passes/exposure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 128
#define PANES 6
#define CAM_Z 3.2f
#define FOV_Y 40.0f

typedef struct pane {
    float x, y, z, half;
    float rgba[4];
    float sort;
} pane;

/* Far to near by z, but for pane 5 (sort 6: drawn before all the others, though it is nearest
 * but one) */
static const pane PANE[PANES] = {
    {-0.30f, 0.10f, -0.9f, 0.75f, {0.9f, 0.1f, 0.1f, 0.5f}, 0},
    {0.25f, -0.15f, -0.5f, 0.7f, {0.1f, 0.9f, 0.1f, 0.4f}, 0},
    {-0.10f, -0.25f, -0.1f, 0.6f, {0.1f, 0.2f, 0.9f, 0.6f}, 0},
    {0.20f, 0.25f, 0.3f, 0.55f, {0.9f, 0.8f, 0.1f, 0.5f}, 0},
    {-0.25f, 0.0f, 0.7f, 0.45f, {0.8f, 0.2f, 0.9f, 0.45f}, 0},
    {0.05f, -0.05f, 0.5f, 0.5f, {0.1f, 0.9f, 0.9f, 0.5f}, 6},
};
/* the composite's order (the earlier layer first, then far to near) */
static const int ORDER[PANES] = {5, 0, 1, 2, 3, 4};

static gn_frame_desc frame(bool cpu)
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

/* The wall, then the panes in `order` (mask: which panes; NULL order: 0..5): each pane's
 * material and mesh made just before its instance, so the materials' ids follow the order too. */
static gn_scene *build(const int *order, unsigned mask)
{
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, NULL) == GN_OK, "scene");
    const float grey[4] = {0.5f, 0.5f, 0.5f, 1};
    add_at(s, gt_add_quad(s, 3.0f, -2.0f), add_material(s, grey, 0), 0, 0);
    for (int k = 0; k < PANES; k++) {
        int i = order ? order[k] : k;
        if (!(mask >> i & 1)) continue;
        const pane *p = &PANE[i];
        add_at(s, gt_add_quad(s, p->half, p->z), add_material(s, p->rgba, p->sort), p->x, p->y);
    }
    return s;
}

static bool render(gn_renderer *r, gn_scene *s, bool cpu, uint8_t **ldr, float *hdr, uint32_t *blended)
{
    gn_frame_desc f = frame(cpu);
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

/* Pane i's edge distance in pixels at (px, py) (> 0 inside): the quad projected through the
 * camera at the origin's view (+z toward the camera). */
static float edge_distance(int i, float px, float py)
{
    const pane *p = &PANE[i];
    float d = CAM_Z - p->z, f = (H / 2.0f) / tanf(FOV_Y * 0.5f * 3.14159265f / 180.0f);
    float cx = W / 2.0f + f * p->x / d, cy = H / 2.0f - f * p->y / d, half = f * p->half / d;
    return fminf(half - fabsf(px - cx), half - fabsf(py - cy));
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
        render(r, build(orders[k], 0x3f), false, &ldr[k], hdr[k], &blended);
        CHECK(blended == PANES, "order %d: %u blended instances drawn", k, blended);
    }
    render(r, build(shuffled, 0x3f), true, &cpu_ldr, cpu_hdr, &blended);
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
        render(r, build(NULL, i < PANES ? 1u << i : 0u), false, &px, alone[i], &blended);
        free(px);
    }
    GT_CHECK_VALIDATION(r, "blend order");
    uint32_t tested = 0, bad = 0, bad_wrong = 0, covered6 = 0;
    double worst = 0;
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
            covered6 += cover == PANES;
            size_t o = ((size_t)y * W + x) * 4;
            for (int c = 0; c < 3; c++) {
                const float *wall = &alone[PANES][o + c];
                float d = *wall, dw = *wall;
                for (int k = 0; k < PANES; k++) {
                    int i = ORDER[k], j = ORDER[PANES - 1 - k];
                    float a = PANE[i].rgba[3], aj = PANE[j].rgba[3];
                    /* alone = a s + (1 - a) wall where the pane covers, the wall where not */
                    if (edge_distance(i, x + 0.5f, y + 0.5f) > 0)
                        d = alone[i][o + c] - (1 - a) * *wall + (1 - a) * d;
                    if (edge_distance(j, x + 0.5f, y + 0.5f) > 0)
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

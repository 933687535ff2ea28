/* A walking figure's shadow follows it (issue 19), under the virtual shadow map (its dynamic
 * pages) and under the cascades, on lavapipe at 256x192 in the shadow debug view (white lit,
 * black shadowed).
 *
 * The town's figure (src/scene/figure.c) walks a straight line on a 30 m ground box, from x = -4
 * to x = 4 and back, at its walk speed (1.1 m/s, feet planted), under the 15:00 sun; the camera
 * looks down on it from 12 m up. At 1.0 s and 3.0 s the figure stands at x = -2.9 and x = -0.7.
 * In each frame the shadowed pixels' centroid is measured (the figure's own shadowed side counts
 * too; it moves with it). The centroid must move right by the figure's 2.2 m seen from the camera,
 * within 35% (the walk's pose differs between the frames, so its shadow's shape does too), and
 * each frame must have a shadow of at least 40 pixels, their counts within a factor of 2 of each
 * other. Both modes validation-clean. */
#include "gpu_util.h"
#include "scene/figure.h"
#include "scene/rig.h"
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 192

static gn_scene *walker_scene(void)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    gn_material_desc ground = {.base_color = {0.6f, 0.6f, 0.6f, 1}, .roughness = 0.9f, .label = "ground"};
    gn_material_desc cloth = {.base_color = {0.2f, 0.3f, 0.7f, 1}, .roughness = 0.7f, .label = "clothes"};
    gn_material_desc skin = {.base_color = {0.8f, 0.6f, 0.5f, 1}, .roughness = 0.6f, .label = "skin"};
    uint32_t mg = 0, mc = 0, ms = 0, model = 0;
    gn_scene_add_material(s, &ground, &mg, NULL);
    gn_scene_add_material(s, &cloth, &mc, NULL);
    gn_scene_add_material(s, &skin, &ms, NULL);
    gn_instance_desc box = {.mesh = gt_add_box(s, 30, 0.1f, 30), .material = mg};
    box.transform[0] = box.transform[5] = box.transform[10] = box.transform[15] = 1;
    box.transform[13] = -0.05f;
    gn_scene_add_instance(s, &box, NULL, NULL);
    gn_anim_model m;
    gn_error err = {0};
    gn_figure_desc fd = {.clothes = mc, .skin = ms};
    CHECK(gn_figure_model(s, &fd, &m, &err) == GN_OK, "figure: %s", err.message);
    CHECK(gn_scene_add_anim_model(s, &m, &model, &err) == GN_OK, "figure refused: %s", err.message);
    static const float line[6] = {-4, 0, 0, 4, 0, 0};
    gn_rig_desc rd = {
        .clip = GN_FIGURE_CLIP_WALK, .path = line, .path_count = 2, .path_speed = GN_FIGURE_WALK_SPEED};
    CHECK(gn_scene_add_rig(s, model, &rd, NULL, &err) == GN_OK, "rig refused: %s", err.message);
    return s;
}

/* The shadowed pixels' count and centroid (x) in the shadow view at `seconds`. */
static void shadow_at(gn_renderer *r, gn_scene *s, gn_shadows mode, double seconds, uint32_t *count,
                      float *cx)
{
    gn_frame_desc f = {
        .camera = {.position = {-1.8f, 12, 6}, .yaw = 0, .pitch = -63, .fov_y = 45, .near_plane = 0.1f},
        .time_of_day = 15.0f,
        .latitude = 45,
        .day_of_year = 172,
        .shadows = mode,
        .view = GN_VIEW_SHADOW,
        .tonemap = GN_TONEMAP_CLIP,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true},
        .no_dither = true,
        .seconds = seconds,
    };
    uint8_t *px = gt_render(r, s, &f);
    GT_CHECK_VALIDATION(r, mode == GN_SHADOWS_CSM ? "the walker under the cascades"
                                                  : "the walker under the VSM");
    double sx = 0;
    *count = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            if (px[((size_t)y * W + x) * 4] < 128) (*count)++, sx += x;
    *cx = *count ? (float)(sx / *count) : 0;
    if (getenv("GT_WALKER_PNG")) {
        char path[64];
        snprintf(path, sizeof path, "walker_%d_%.0f.png", (int)mode, seconds);
        gt_write_png(path, px, W, H);
    }
    free(px);
}

int main(void)
{
    /* metres to pixels at the ground under the camera: the frame spans 2 d tan(fov/2) vertically
       at distance d along the view; the ground point at the frame's middle is 12 / sin(63) away */
    float d = 12.0f / sinf(63 * 3.14159265f / 180);
    float px_per_m = (float)H / (2 * d * tanf(22.5f * 3.14159265f / 180));
    float expect = 2.2f * px_per_m;
    const gn_shadows modes[2] = {GN_SHADOWS_DEFAULT,
                                 GN_SHADOWS_CSM}; /* default: the VSM, settled (gt_render) */
    for (int m = 0; m < 2; m++) {
        gn_scene *s = walker_scene();
        gn_renderer *r = gt_renderer(W, H, 1);
        uint32_t n0, n1;
        float c0, c1;
        shadow_at(r, s, modes[m], 1.0, &n0, &c0);
        shadow_at(r, s, modes[m], 3.0, &n1, &c1);
        const char *name = m ? "cascades" : "virtual shadow map";
        printf("%s: shadowed pixels %u at 1.0 s, %u at 3.0 s; centroid x %.1f -> %.1f: moved %.1f px, the "
               "figure "
               "%.1f px\n",
               name, n0, n1, (double)c0, (double)c1, (double)(c1 - c0), (double)expect);
        CHECK(n0 >= 40 && n1 >= 40, "%s: no shadow (%u, %u pixels)", name, n0, n1);
        CHECK(n0 < 2 * n1 && n1 < 2 * n0, "%s: the shadow's size changed from %u to %u pixels", name, n0, n1);
        CHECK(fabsf((c1 - c0) - expect) <= 0.35f * expect, "%s: the shadow moved %.1f px, the figure %.1f",
              name, (double)(c1 - c0), (double)expect);
        gn_renderer_destroy(r);
        gn_scene_destroy(s);
    }
    printf("gpu_walker_shadow: %s\n", gn_check_failures ? "FAILED" : "ok");
    return gn_check_failures ? 1 : 0;
}

/* Clustered Forward+ on the GPU:
 * (1) clustered against naive (every light for every fragment): images identical within
 *     1/255 per channel for 16 and 256 lights on the town, and for lights placed exactly on
 *     froxel borders (tile planes and slice depths);
 * (2) the GPU's froxel lists equal the CPU reference gn_cluster_bin bit for bit on those frames,
 *     and the overflow counter equals the reference's;
 * (3) a crafted overflow (100 lights on one spot, 64 a froxel) is counted, not hidden;
 * (4) a golden image of the light heatmap (exact on lavapipe);
 * (5) shadowed spot and point lights: a golden image of a box lit by both, and the region
 *     behind the box is darker than with the same lights unshadowed (by at least 10/255 on
 *     average over the pixels that change), so the shadows are really there.
 * No validation messages. */
#include "decide/camera.h"
#include "decide/clusters.h"
#include "gpu_util.h"
#include "passes/lights.h"
#include "renderer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 384
#define H 216

static gn_frame_desc night(const float vp[5], gn_view view, bool naive)
{
    /* a fixed exposure of 1 (EV100 log2(1 / 1.2)) and two stops more: the lights' intensities
     * (candela) show as they did before light had units, and the shadowed and unshadowed
     * frames compared below share one exposure (auto would meter each its own) */
    gn_frame_desc f = {.time_of_day = 22.0f,
                       .view = view,
                       .naive_lights = naive,
                       .exposure = 2.0f,
                       .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = -0.2630344f}};
    memcpy(f.camera.position, vp, 3 * sizeof(float));
    f.camera.yaw = vp[3];
    f.camera.pitch = vp[4];
    return f;
}

/* The GPU lists of the frame just rendered against gn_cluster_bin over the same lights. */
static void check_lists(gn_renderer *r, const char *what)
{
    gn_lights_gpu *l = gn_lights_of(r);
    gn_cluster_grid g;
    gn_cluster_grid_init(l->s.x, l->s.y, l->s.z, l->s.max_lights, r->in.near_plane, l->s.far_depth,
                         r->in.proj, &g);
    size_t words = (size_t)gn_cluster_count(&g) * (g.max_lights + 1);
    uint32_t *gpu = calloc(words, sizeof *gpu), *cpu = calloc(words, sizeof *cpu), overflow = 0;
    gn_error err = {0};
    CHECK(gn_lights_read_lists(r, gpu, words, &err) == GN_OK, "%s", err.message);
    gn_cluster_bin(&g, l->packed, l->count, r->in.view, cpu, &overflow);
    size_t differ = 0, listed = 0;
    for (uint32_t i = 0; i < gn_cluster_count(&g); i++) {
        size_t base = (size_t)i * (g.max_lights + 1);
        uint32_t n = cpu[base];
        listed += n;
        if (gpu[base] != n || memcmp(&gpu[base + 1], &cpu[base + 1], n * sizeof(uint32_t)) != 0) differ++;
    }
    gn_frame_stats st;
    gn_renderer_wait_idle(r, &err);
    gn_get_frame_stats(r, &st, &err);
    fprintf(stderr, "%s: %zu light-froxel pairs, %zu froxels differ, overflow gpu %u cpu %u\n", what, listed,
            differ, st.light_overflow, overflow);
    CHECK(differ == 0, "%s: %zu froxel lists differ from the CPU reference", what, differ);
    CHECK(listed > 0, "%s: no light reached any froxel", what);
    CHECK(st.light_overflow == overflow, "%s: overflow %u, reference %u", what, st.light_overflow, overflow);
    free(gpu);
    free(cpu);
}

static void ab(gn_renderer *r, gn_scene *s, const float vp[5], const char *what)
{
    gn_frame_desc fc = night(vp, GN_VIEW_FINAL, false), fn = night(vp, GN_VIEW_FINAL, true);
    uint8_t *clustered = gt_render(r, s, &fc);
    check_lists(r, what);
    uint8_t *naive = gt_render(r, s, &fn);
    gt_diff d = gt_compare(clustered, naive, W, H, 1);
    fprintf(stderr, "%s: clustered vs naive: max channel diff %u, %.4f%% over 1/255\n", what, d.max_channel,
            d.over_share * 100);
    CHECK(d.max_channel <= 1, "%s: clustered and naive differ by %u/255", what, d.max_channel);
    free(clustered);
    free(naive);
}

/* A ground plane and lights exactly on froxel borders of the camera's grid. */
static void borders(gn_renderer *r)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    const float ground[] = {-200, 0, -200, 200, 0, -200, 200, 0, 200, -200, 0, 200};
    const uint32_t quad[] = {0, 2, 1, 0, 3, 2};
    uint32_t mesh = 0, mat = 0;
    gn_mesh_desc md = {.positions = ground, .vertex_count = 4, .indices = quad, .index_count = 6};
    CHECK(gn_scene_add_mesh(s, &md, &mesh, NULL) == GN_OK, "ground mesh");
    gn_material_desc m = {.base_color = {0.6f, 0.6f, 0.6f, 1}};
    gn_scene_add_material(s, &m, &mat, NULL);
    gn_instance_desc in = {.mesh = mesh, .material = mat};
    gn_scene_add_instance(s, &in, NULL, NULL);
    const float vp[5] = {0, 6, 30, 0, -15};
    /* the grid this camera will use */
    float proj[16], view[16], inv_view[16];
    gn_camera_projection(60 * 0.017453293f, (float)W / H, 0.1f, proj);
    gn_camera_view(vp, vp[3], vp[4], view);
    gn_mat4_inverse(view, inv_view);
    gn_cluster_grid g;
    gn_cluster_grid_init(GN_CLUSTER_X, GN_CLUSTER_Y, GN_CLUSTER_Z, GN_CLUSTER_MAX_LIGHTS, 0.1f,
                         GN_CLUSTER_DEFAULT_FAR, proj, &g);
    uint32_t placed = 0;
    for (uint32_t k = 4; k < 14; k++) {
        /* slice k's near boundary depth, and the tile planes x = column boundary */
        float depth = exp2f(((float)k - g.bias) / g.scale);
        for (uint32_t c = 2; c < g.x - 2; c += 3) {
            float ndc_x = (float)c / g.x * 2.0f - 1.0f;
            float pv[3] = {ndc_x * depth / g.proj_x, 0.0f, -depth}, pw[4];
            gn_mat4_transform_point(inv_view, pv, pw);
            gn_light_desc ld = {.type = (k + c) % 2 ? GN_LIGHT_SPOT : GN_LIGHT_POINT,
                                .position = {pw[0], fmaxf(pw[1], 0.5f), pw[2]},
                                .direction = {0, -1, 0.2f},
                                .radius = 3.0f + 0.3f * (float)k,
                                .color = {1.0f, 0.8f - 0.04f * (float)c, 0.5f},
                                .intensity = 6.0f};
            if (gn_scene_add_light(s, &ld, NULL, NULL) == GN_OK) placed++;
        }
    }
    CHECK(placed > 30, "placed %u border lights", placed);
    ab(r, s, vp, "froxel borders");
    gn_scene_destroy(s);
}

static void overflow(gn_renderer *r)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    for (int i = 0; i < 100; i++) {
        gn_light_desc ld = {.position = {0.01f * i, 1, 0}, .radius = 5, .intensity = 0.05f};
        gn_scene_add_light(s, &ld, NULL, NULL);
    }
    const float vp[5] = {0, 2, 12, 0, -5};
    gn_frame_desc f = night(vp, GN_VIEW_FINAL, false);
    uint8_t *px = gt_render(r, s, &f);
    free(px);
    gn_frame_stats st;
    gn_error err = {0};
    gn_renderer_wait_idle(r, &err);
    gn_get_frame_stats(r, &st, &err);
    fprintf(stderr, "100 lights on one spot: %u light-froxel pairs dropped\n", st.light_overflow);
    CHECK(st.light_overflow >= 36, "a crafted overflow counted %u dropped pairs (at least 36 expected)",
          st.light_overflow);
    check_lists(r, "crafted overflow");
    gn_scene_destroy(s);
}

/* A ground, a box, a shadowed spot and a shadowed point light; shadows on or off. */
static uint8_t *box_scene(gn_renderer *r, bool shadows)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    const float ground[] = {-30, 0, -30, 30, 0, -30, 30, 0, 30, -30, 0, 30};
    const uint32_t quad[] = {0, 2, 1, 0, 3, 2};
    /* a 2 m cube on the ground: 8 corners, 12 triangles, counter-clockwise from outside */
    const float cube[] = {-1, 0, -1, 1, 0, -1, 1, 2, -1, -1, 2, -1, -1, 0, 1, 1, 0, 1, 1, 2, 1, -1, 2, 1};
    const uint32_t tri[] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 4, 7, 0, 7, 3,
                            1, 2, 6, 1, 6, 5, 3, 7, 6, 3, 6, 2, 0, 1, 5, 0, 5, 4};
    uint32_t g = 0, c = 0, mat = 0;
    gn_mesh_desc gd = {.positions = ground, .vertex_count = 4, .indices = quad, .index_count = 6};
    gn_mesh_desc cd = {.positions = cube, .vertex_count = 8, .indices = tri, .index_count = 36};
    CHECK(gn_scene_add_mesh(s, &gd, &g, NULL) == GN_OK && gn_scene_add_mesh(s, &cd, &c, NULL) == GN_OK,
          "meshes");
    gn_material_desc m = {.base_color = {0.7f, 0.7f, 0.7f, 1}, .roughness = 0.7f};
    gn_scene_add_material(s, &m, &mat, NULL);
    gn_instance_desc in = {.mesh = g, .material = mat};
    gn_scene_add_instance(s, &in, NULL, NULL);
    in.mesh = c;
    gn_scene_add_instance(s, &in, NULL, NULL);
    gn_light_desc spot = {.type = GN_LIGHT_SPOT,
                          .position = {-4, 5, 0},
                          .direction = {0.7f, -1, 0},
                          .radius = 15,
                          .color = {1, 0.8f, 0.6f},
                          .intensity = 40,
                          .outer_angle = 50,
                          .inner_angle = 35,
                          .cast_shadows = shadows};
    gn_light_desc point = {.type = GN_LIGHT_POINT,
                           .position = {2.5f, 1.5f, 2.5f},
                           .radius = 12,
                           .color = {0.5f, 0.7f, 1.0f},
                           .intensity = 20,
                           .cast_shadows = shadows};
    gn_scene_add_light(s, &spot, NULL, NULL);
    gn_scene_add_light(s, &point, NULL, NULL);
    const float vp[5] = {6, 7, 10, 30, -30};
    gn_frame_desc f = night(vp, GN_VIEW_FINAL, false);
    uint8_t *px = gt_render(r, s, &f);
    gn_frame_stats st;
    gn_error err = {0};
    gn_renderer_wait_idle(r, &err);
    gn_get_frame_stats(r, &st, &err);
    CHECK(st.shadowed_lights == (shadows ? 2u : 0u), "%u shadowed lights", st.shadowed_lights);
    gn_scene_destroy(s);
    return px;
}

static void shadowed(gn_renderer *r)
{
    uint8_t *with = box_scene(r, true), *without = box_scene(r, false);
    CHECK(gt_golden(r, "lights_shadowed_box", with, W, H),
          "the shadowed lights differ from their golden image");
    uint32_t changed = 0;
    double darker = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        int d = (without[i * 4] + without[i * 4 + 1] + without[i * 4 + 2]) -
                (with[i * 4] + with[i * 4 + 1] + with[i * 4 + 2]);
        if (d == 0) continue;
        changed++;
        darker += d / 3.0;
    }
    double mean = changed ? darker / changed : 0;
    fprintf(stderr, "shadowed lights: %u pixels change, %.1f/255 darker on average\n", changed, mean);
    CHECK(changed > W * H / 50 && mean >= 10.0, "shadows change %u pixels by %.1f/255", changed, mean);
    free(with);
    free(without);
}

int main(void)
{
    gn_renderer *r = gt_renderer(W, H, 4);
    gn_scene_info info;
    for (int k = 0; k < 2; k++) {
        uint32_t count = k ? 256 : 16;
        gn_scene *town = NULL;
        gn_error err = {0};
        CHECK(gn_scene_create_builtin(&(gn_builtin_desc){.name = "town"}, &town, &err) == GN_OK, "%s",
              err.message);
        CHECK(gn_scene_add_builtin_lights(town, count, 1, &err) == GN_OK, "%s", err.message);
        gn_scene_get_info(town, &info);
        char what[64];
        snprintf(what, sizeof what, "town, %u lights", count);
        ab(r, town, info.viewpoints[1], what);
        if (k == 1) {
            gn_frame_desc f = night(info.viewpoints[1], GN_VIEW_LIGHT_HEATMAP, false);
            uint8_t *px = gt_render(r, town, &f);
            CHECK(gt_golden(r, "lights_heatmap_rooftop", px, W, H),
                  "the heatmap differs from its golden image");
            free(px);
        }
        gn_scene_destroy(town);
    }
    borders(r);
    overflow(r);
    shadowed(r);
    GT_CHECK_VALIDATION(r, "rendering local lights");
    gn_renderer_destroy(r);
    return gn_check_exit();
}

/* Cascaded shadow maps on the GPU:
 * (1) golden images of --view shadow and --view cascades (exact on lavapipe);
 * (2) a caster behind the camera still casts into view: the camera stands past the tower's
 *     foot looking along its shadow with the tower behind it. The tower's own shadow is the
 *     set T of pixels that the ray-traced truth shadows with the tower and leaves lit without
 *     it (a copy of the town minus the tower). The CSM must shadow at least 95% of T
 *     (tolerance: PCF softens T's 1-2 px rim), and T must be large (> 1% of the image) so
 *     the check can fail;
 * (3) the staggered schedule renders cascades 1, 2 every frame, 3 every second and 4 every
 *     fourth frame (counted from the per-pass statistics), and a camera cut re-renders all.
 * No validation messages. */
#include "gpu_util.h"
#include "shadowcmp.h"
#include "truth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 384
#define H 216

static gn_frame_desc at(const float vp[5], float hours, gn_view view)
{
    gn_frame_desc f = {.time_of_day = hours, .view = view, .shadows = GN_SHADOWS_CSM};
    memcpy(f.camera.position, vp, 3 * sizeof(float));
    f.camera.yaw = vp[3];
    f.camera.pitch = vp[4];
    return f;
}

/* World height and footprint of an instance from its mesh's vertices. */
static void instance_extent(const gn_scene *s, uint32_t i, float *height, float *width, float base[3])
{
    gn_instance_desc d;
    gn_mesh_view m;
    gn_scene_get_instance(s, i, &d, NULL);
    gn_scene_get_mesh(s, d.mesh, &m, NULL);
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (uint32_t v = 0; v < m.vertex_count; v++) {
        const float *p = (const float *)((const char *)m.positions + (size_t)v * m.stride);
        for (int r = 0; r < 3; r++) {
            float w = d.transform[r] * p[0] + d.transform[4 + r] * p[1] + d.transform[8 + r] * p[2] +
                      d.transform[12 + r];
            lo[r] = fminf(lo[r], w);
            hi[r] = fmaxf(hi[r], w);
        }
    }
    *height = hi[1] - lo[1];
    *width = fmaxf(hi[0] - lo[0], hi[2] - lo[2]);
    base[0] = 0.5f * (lo[0] + hi[0]);
    base[1] = lo[1];
    base[2] = 0.5f * (lo[2] + hi[2]);
}

/* The town without one instance, through the public API (meshes shared by copy). */
static gn_scene *without(const gn_scene *s, uint32_t skip)
{
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    gn_scene *c = NULL;
    gn_scene_create(&c, NULL);
    for (uint32_t i = 0; i < info.meshes; i++) {
        gn_mesh_view m;
        gn_scene_get_mesh(s, i, &m, NULL);
        float *pos = malloc((size_t)m.vertex_count * 3 * sizeof *pos + 16);
        for (uint32_t v = 0; v < m.vertex_count; v++)
            memcpy(&pos[v * 3], (const char *)m.positions + (size_t)v * m.stride, 3 * sizeof(float));
        gn_mesh_desc md = {.positions = pos,
                           .vertex_count = m.vertex_count,
                           .indices = m.indices,
                           .index_count = m.index_count};
        uint32_t id;
        CHECK(gn_scene_add_mesh(c, &md, &id, NULL) == GN_OK && id == i, "copying mesh %u", i);
        free(pos);
    }
    gn_material_desc mat = {.base_color = {0.5f, 0.5f, 0.5f, 1}};
    uint32_t mid;
    gn_scene_add_material(c, &mat, &mid, NULL);
    for (uint32_t i = 0; i < info.instances; i++) {
        if (i == skip) continue;
        gn_instance_desc d;
        gn_scene_get_instance(s, i, &d, NULL);
        d.material = mid;
        gn_scene_add_instance(c, &d, NULL, NULL);
    }
    return c;
}

static uint8_t *truth_of(const gn_scene *s, gn_renderer *r, const float *depth)
{
    gn_error err = {0};
    gn_frame_view fv;
    gn_get_frame_view(r, &fv, &err);
    gn_truth *t = gn_truth_create(s, &err);
    CHECK(t != NULL, "truth: %s", err.message);
    uint8_t *mask = malloc((size_t)W * H);
    gn_truth_frame tf = {.depth = depth, .width = W, .height = H, .msaa = gn_renderer_msaa(r), .view = &fv};
    CHECK(gn_truth_mask(t, &tf, mask, NULL, &err) == GN_OK, "mask: %s", err.message);
    gn_truth_destroy(t);
    return mask;
}

static void tower_behind_camera(gn_renderer *r, gn_scene *town)
{
    gn_scene_info info;
    gn_scene_get_info(town, &info);
    uint32_t tower = UINT32_MAX;
    float best = 0, base[3] = {0};
    for (uint32_t i = 0; i < info.instances; i++) {
        gn_instance_desc d;
        gn_scene_get_instance(town, i, &d, NULL);
        if (d.flags & GN_INSTANCE_DYNAMIC) continue;
        float h, w, b[3];
        instance_extent(town, i, &h, &w, b);
        if (w < 30.0f && h > best) {
            best = h;
            tower = i;
            memcpy(base, b, sizeof b);
        }
    }
    CHECK(tower != UINT32_MAX && best > 50.0f, "no tower found (tallest %.1f m)", best);
    if (tower == UINT32_MAX) return;

    /* the afternoon sun's shadow direction, on the ground */
    const float hours = 16.0f;
    gn_frame_desc probe = {.time_of_day = hours, .shadows = GN_SHADOWS_CSM};
    uint8_t *px = gt_render(r, town, &probe);
    free(px);
    gn_frame_view fv;
    gn_get_frame_view(r, &fv, NULL);
    float dx = -fv.sun_direction[0], dz = -fv.sun_direction[2], dl = sqrtf(dx * dx + dz * dz);
    dx /= dl, dz /= dl;
    /* yaw: 0 looks down -Z, positive turns towards -X */
    float yaw = atan2f(-dx, -dz) * 57.29578f;
    float cam[5] = {base[0] + dx * 25.0f, base[1] + 45.0f, base[2] + dz * 25.0f, yaw, -40.0f};
    gn_frame_desc f = at(cam, hours, GN_VIEW_SHADOW);
    uint8_t *shadow = gt_render(r, town, &f);
    float *depth = malloc((size_t)W * H * sizeof *depth);
    CHECK(gn_read_depth(r, depth, NULL) == GN_OK, "depth");
    /* the tower is behind the camera: its foot projects with w < 0 */
    gn_get_frame_view(r, &fv, NULL);
    float top[3] = {base[0], base[1] + best * 0.5f, base[2]}, w = 0;
    for (int k = 0; k < 3; k++) w += fv.view_proj[k * 4 + 3] * top[k];
    w += fv.view_proj[15];
    CHECK(w < 0.0f, "the tower is in front of the camera (clip w %.2f)", w);

    uint8_t *with = truth_of(town, r, depth);
    gn_scene *no_tower = without(town, tower);
    uint8_t *without_tower = truth_of(no_tower, r, depth);
    uint32_t t_count = 0, t_shadowed = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        if (with[i] != GN_TRUTH_SHADOWED || without_tower[i] != GN_TRUTH_LIT) continue;
        t_count++;
        t_shadowed += shadow[i * 4] < 128;
    }
    double share = t_count ? (double)t_shadowed / t_count : 0;
    fprintf(stderr, "tower behind the camera: its shadow covers %u pixels, CSM shadows %.2f%% of them\n",
            t_count, share * 100);
    CHECK(t_count > W * H / 100, "the tower's true shadow covers only %u pixels", t_count);
    CHECK(share >= 0.95, "CSM shadows %.2f%% of the tower's shadow", share * 100);
    if (share < 0.95) gt_write_png("gpu_csm_tower.actual.png", shadow, W, H);
    free(with);
    free(without_tower);
    free(depth);
    free(shadow);
    gn_scene_destroy(no_tower);
}

static void schedule(gn_renderer *r, gn_scene *town, const float vp[5])
{
    /* a camera 3 km away, a cut back to the viewpoint (every cascade re-rendered, since its
     * old map no longer covers the view), then 8 frames with the camera still */
    uint32_t counts[4] = {0}, after_cut = 0;
    for (int i = 0; i < 10; i++) {
        float cam[5];
        memcpy(cam, vp, sizeof cam);
        if (i == 0) cam[0] += 3000.0f;
        gn_frame_desc f = at(cam, 15.0f, GN_VIEW_FINAL);
        gn_error err = {0};
        CHECK(gn_render(r, town, &f, &err) == GN_OK, "%s", err.message);
        gn_frame_stats st;
        gn_renderer_wait_idle(r, &err);
        gn_get_frame_stats(r, &st, &err);
        uint32_t updated = 0;
        for (uint32_t p = 0; p < st.pass_count; p++) {
            unsigned c;
            if (sscanf(st.passes[p].name, "csm %u", &c) == 1 && c < 4) {
                updated++;
                if (i >= 2) counts[c]++;
            }
        }
        CHECK(updated == st.shadow_updates, "frame %d: %u csm passes, stats say %u", i, updated,
              st.shadow_updates);
        if (i == 1) after_cut = updated;
    }
    CHECK(after_cut == 4, "the camera cut re-rendered %u of 4 cascades", after_cut);
    fprintf(stderr, "8 still frames: cascade updates %u %u %u %u\n", counts[0], counts[1], counts[2],
            counts[3]);
    CHECK(counts[0] == 8 && counts[1] == 8, "near cascades updated %u and %u times in 8 frames", counts[0],
          counts[1]);
    CHECK(counts[2] == 4, "cascade 3 updated %u times in 8 frames, expected 4", counts[2]);
    CHECK(counts[3] == 2, "cascade 4 updated %u times in 8 frames, expected 2", counts[3]);
}

int main(void)
{
    gn_error err = {0};
    gn_scene *town = NULL;
    if (gn_scene_create_builtin(&(gn_builtin_desc){.name = "town"}, &town, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    gn_scene_info info;
    gn_scene_get_info(town, &info);
    gn_renderer *r = gt_renderer(W, H, 4);

    static const char *names[2] = {"rooftop", "overview"};
    for (int v = 0; v < 2; v++) {
        const float *vp = info.viewpoints[v + 1];
        for (int k = 0; k < 2; k++) {
            gn_view view = k ? GN_VIEW_CASCADES : GN_VIEW_SHADOW;
            gn_frame_desc f = at(vp, 15.0f, view);
            uint8_t *px = gt_render(r, town, &f);
            char name[64];
            snprintf(name, sizeof name, "csm_%s_%s", names[v], k ? "cascades" : "shadow");
            CHECK(gt_golden(r, name, px, W, H), "%s differs from its golden image", name);
            free(px);
        }
    }
    tower_behind_camera(r, town);
    schedule(r, town, info.viewpoints[1]);
    GT_CHECK_VALIDATION(r, "rendering cascaded shadows");
    gn_renderer_destroy(r);
    gn_scene_destroy(town);
    return gn_check_exit();
}

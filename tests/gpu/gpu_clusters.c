/* Clusters (meshlets: src/decide/meshlets.c, the cluster test of shaders/cull_test.comp) on
 * lavapipe, validation and synchronization validation on:
 *   - the same image: with clusters every frame is byte-identical to the frame drawn with whole
 *     meshes — a town walk (seed 9, which no golden test uses) with moving objects and cuts,
 *     its three viewpoints, with and without occlusion culling, with cascades (their views
 *     cull clusters by their spheres), a glTF engine (assimp-testmodels) and oa_dm1;
 *   - the CPU reference: the camera's list is, slot for slot, what gn_frustum_test_sphere,
 *     gn_cluster_world_sphere, gn_cluster_backfacing (and, on a settled view, gn_hzb_occluded
 *     against the GPU's HZB) keep of the static order, and the cluster counters are the
 *     reference's;
 *   - it removes something real: at the street viewpoint the clusters draw fewer triangles
 *     than whole meshes, and some clusters are dropped by their cone;
 *   - caster LODs (src/decide/caster_lod.c): with them the cascades draw fewer triangles (the
 *     far ones most), the image stays within 0.5% of its pixels (by more than 8 levels) of the
 *     image without, validation-clean; their agreement with the ray-traced shadows is
 *     gpu_csm_agreement's (docs/VISIBILITY.md). */
#include "gpu_util.h"
#include "passes/cull.h"
#include "renderer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAKS "/usr/share/games/openarena/baseoa"
#define ENGINE                                                                                               \
    "/usr/share/assimp/models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb" /* assimp-testmodels:   \
                                                                                        121k triangles, 115  \
                                                                                        instances */

static gn_frame_desc at(const float *c, double seconds, gn_shadows shadows)
{
    gn_frame_desc f = {.time_of_day = 15.0f, .shadows = shadows, .seconds = seconds};
    f.camera = (gn_camera){.position = {c[0], c[1], c[2]}, .yaw = c[3], .pitch = c[4], .fov_y = 60.0f};
    return f;
}

static uint64_t pass_triangles(const gn_frame_stats *st, const char *prefix)
{
    uint64_t t = 0;
    for (uint32_t i = 0; i < st->pass_count; i++)
        if (strncmp(st->passes[i].name, prefix, strlen(prefix)) == 0) t += st->passes[i].triangles;
    return t;
}

static uint8_t *image_of(gn_renderer *r, gn_scene *s, gn_frame_desc f, bool clusters, gn_frame_stats *st)
{
    f.clusters = clusters;
    f.no_caster_lod = true; /* a clustered mesh casts whole (its LOD: caster_lods below) */
    *st = gt_frame(r, s, &f);
    return gt_pixels(r);
}

/* One frame on both renderers (each with its own history): the same image and frustum counts.
 * *tris: the camera's prepass and forward triangles with and without clusters. */
static void same_frame(gn_renderer *on, gn_renderer *off, gn_scene *s, const gn_frame_desc *f,
                       const char *what, uint64_t tris[2])
{
    gn_frame_stats a, b;
    uint8_t *x = image_of(on, s, *f, true, &a), *y = image_of(off, s, *f, false, &b);
    uint32_t w, h;
    gn_renderer_size(on, &w, &h);
    CHECK(a.instances_visible == b.instances_visible,
          "%s: %u instances in the frustum with clusters, %u without", what, a.instances_visible,
          b.instances_visible);
    CHECK(b.clusters_tested == 0 &&
              a.clusters_drawn + a.clusters_culled_frustum + a.clusters_culled_cone <= a.clusters_tested,
          "%s: clusters %u tested, %u drawn, %u + %u culled (%u without clusters)", what, a.clusters_tested,
          a.clusters_drawn, a.clusters_culled_frustum, a.clusters_culled_cone, b.clusters_tested);
    uint64_t csm_a = pass_triangles(&a, "csm "), csm_b = pass_triangles(&b, "csm ");
    CHECK(csm_a <= csm_b, "%s: the cascades drew %llu triangles with clusters, %llu without", what,
          (unsigned long long)csm_a, (unsigned long long)csm_b);
    if (tris) {
        tris[0] += pass_triangles(&a, "depth prepass") + pass_triangles(&a, "forward");
        tris[1] += pass_triangles(&b, "depth prepass") + pass_triangles(&b, "forward");
    }
    gt_diff d = gt_compare(x, y, w, h, 0);
    CHECK(memcmp(x, y, (size_t)w * h * 4) == 0, "%s: the image differs with clusters (%.4f%% of pixels)",
          what, d.over_share * 100.0);
    GT_CHECK_VALIDATION(on, what);
    GT_CHECK_VALIDATION(off, what);
    free(x), free(y);
}

/* The camera's list against the reference on the last frame rendered by r (hzb: test against
 * the GPU's HZB, for a settled occlusion-culled frame; NULL: frustum and cone only). */
static void reference(gn_renderer *r, gn_scene *s, const gn_frame_stats *st, const float *hzb,
                      const gn_hzb_layout *l, const char *what)
{
    const gn_draw_list *order;
    const uint32_t *slot_cluster;
    const gn_meshlets *ml;
    gn_cull_order(r, &order, &slot_cluster, &ml);
    gn_frustum fr;
    gn_frustum_from_view_proj(r->in.view_proj, &fr);
    gn_hzb_camera cam;
    memcpy(cam.view, r->in.view, sizeof cam.view);
    cam.p00 = r->in.proj[0], cam.p11 = r->in.proj[5], cam.near_plane = r->in.near_plane;
    uint32_t *gpu = malloc(sizeof(uint32_t) * (order->instance_count + 1)), n = 0;
    gn_error err = {0};
    CHECK(gn_cull_read_visible(r, gpu, order->instance_count, &n, &err) == GN_OK, "%s", err.message);
    uint32_t k = 0, mismatch = 0, tested = 0, by_planes = 0, by_cone = 0;
    for (uint32_t slot = 0; slot < order->instance_count; slot++) {
        const gn_instance *in = &s->instances[order->instances[slot]];
        if (in->sphere[3] < 0.0f || !gn_frustum_test_sphere(&fr, in->sphere, in->sphere[3])) continue;
        float sphere[4];
        memcpy(sphere, in->sphere, sizeof sphere);
        if (slot_cluster[slot] != GN_CULL_WHOLE) {
            const gn_gpu_cluster *c = &ml->clusters[slot_cluster[slot]];
            float rows[3][4];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 4; j++) rows[i][j] = in->transform[j * 4 + i];
            gn_cluster_world_sphere(c, rows, sphere);
            tested++;
            if (!gn_frustum_test_sphere(&fr, sphere, sphere[3])) {
                by_planes++;
                continue;
            }
            if (gn_cluster_backfacing(c, rows, r->in.position)) {
                by_cone++;
                continue;
            }
        }
        if (hzb && gn_hzb_occluded(l, hzb, &cam, sphere)) continue;
        mismatch += k >= n || gpu[k] != order->instances[slot];
        k++;
    }
    CHECK(mismatch == 0 && k == n, "%s: the GPU's list has %u slots, the reference %u (%u out of place)",
          what, n, k, mismatch);
    CHECK(st->clusters_tested == tested && st->clusters_culled_frustum == by_planes &&
              st->clusters_culled_cone == by_cone,
          "%s: clusters tested/frustum/cone %u/%u/%u, the reference %u/%u/%u", what, st->clusters_tested,
          st->clusters_culled_frustum, st->clusters_culled_cone, tested, by_planes, by_cone);
    printf("%s: %u slots drawn of %u (%u clusters tested, %u outside, %u facing away)\n", what, n,
           order->instance_count, tested, by_planes, by_cone);
    free(gpu);
}

/* A settled view with occlusion (phase 2 empty twice, phase 1 steady): the final list is what
 * the GPU's HZB of this frame leaves (its equality with gn_hzb_build: gpu_occlusion). */
static void settled_reference(gn_renderer *r, gn_scene *s, gn_frame_desc f, const char *what)
{
    f.clusters = true;
    gn_frame_stats st = {0}, last = {0};
    int frames = 0;
    for (; frames < 12; frames++) {
        st = gt_frame(r, s, &f);
        if (frames > 0 && st.instances_phase2 == 0 && last.instances_phase2 == 0 &&
            st.instances_phase1 == last.instances_phase1)
            break;
        last = st;
    }
    CHECK(st.occlusion && frames < 12, "%s: not settled after 12 frames", what);
    uint32_t w, h;
    gn_renderer_size(r, &w, &h);
    gn_hzb_layout l;
    gn_hzb_layout_make(w, h, &l);
    float *hzb = malloc(sizeof(float) * l.texels);
    gn_error err = {0};
    CHECK(gn_cull_read_hzb(r, hzb, l.texels, &l, &err) == GN_OK, "%s", err.message);
    reference(r, s, &st, hzb, &l, what);
    free(hzb);
}

/* Caster LODs: a first frame with and without them (fresh renderers: every cascade is due). */
static void caster_lods(gn_scene *s, const float *c, const char *what)
{
    gn_renderer *on = gt_renderer(481, 271, 4), *off = gt_renderer(481, 271, 4);
    gn_frame_desc f = at(c, 0.0, GN_SHADOWS_CSM);
    gn_frame_desc g = f;
    f.no_caster_lod = true;
    gn_frame_stats a = gt_frame(on, s, &g), b = gt_frame(off, s, &f);
    uint32_t w, h;
    gn_renderer_size(on, &w, &h);
    uint8_t *x = gt_pixels(on), *y = gt_pixels(off);
    uint64_t fewer = 0, total_a = 0, total_b = 0;
    for (uint32_t k = 0; k < 4; k++) {
        char name[16];
        snprintf(name, sizeof name, "csm %u", k);
        uint64_t ta = pass_triangles(&a, name), tb = pass_triangles(&b, name);
        CHECK(ta <= tb, "%s: %s drew %llu triangles with LODs, %llu without", what, name,
              (unsigned long long)ta, (unsigned long long)tb);
        fewer += ta < tb;
        total_a += ta, total_b += tb;
    }
    gt_diff d = gt_compare(x, y, w, h, 8);
    printf("%s: cascades %llu triangles with LODs, %llu without (%.1f%%); %.3f%% of pixels differ by more "
           "than 8\n",
           what, (unsigned long long)total_a, (unsigned long long)total_b,
           total_b ? 100.0 * total_a / total_b : 0.0, d.over_share * 100.0);
    CHECK(fewer > 0, "%s: no cascade drew fewer triangles with LODs", what);
    CHECK(d.over_share <= 0.005, "%s: %.3f%% of pixels differ by more than 8 levels with LODs", what,
          d.over_share * 100.0);
    GT_CHECK_VALIDATION(on, what);
    free(x), free(y);
    gn_renderer_destroy(on);
    gn_renderer_destroy(off);
}

int main(void)
{
    gn_error err = {0};
    gn_scene *town = NULL, *map = NULL, *engine = NULL;
    gn_builtin_desc bd = {.name = "town", .seed = 9, .scale = 1};
    CHECK(gn_scene_create_builtin(&bd, &town, &err) == GN_OK, "%s", err.message);
    gn_load_desc md = {.path = "oa_dm1", .paks = PAKS};
    CHECK(gn_scene_load(&md, &map, &err) == GN_OK, "%s", err.message);
    gn_load_desc sd = {.path = ENGINE};
    CHECK(gn_scene_load(&sd, &engine, &err) == GN_OK, "%s", err.message);
    if (!town || !map || !engine) return gn_check_exit();

    gn_renderer *on = gt_renderer(481, 271, 4), *off = gt_renderer(481, 271, 4);
    char what[96];
    gn_scene_info info;
    gn_scene_get_info(town, &info);
    uint64_t street[2] = {0, 0};
    for (uint32_t v = 0; v < info.viewpoint_count; v++) {
        snprintf(what, sizeof what, "town viewpoint %u", v);
        gn_frame_desc f = at(info.viewpoints[v], 0.0, GN_SHADOWS_NONE);
        for (int i = 0; i < 3; i++) same_frame(on, off, town, &f, what, v == 0 && i == 2 ? street : NULL);
        f.no_occlusion = true;
        snprintf(what, sizeof what, "town viewpoint %u, no occlusion", v);
        same_frame(on, off, town, &f, what, NULL);
        gn_frame_stats st = gt_frame(on, town,
                                     &(gn_frame_desc){.camera = f.camera,
                                                      .time_of_day = 15.0f,
                                                      .shadows = GN_SHADOWS_NONE,
                                                      .no_occlusion = true,
                                                      .clusters = true});
        reference(on, town, &st, NULL, NULL, what);
        if (v == 0) {
            CHECK(st.clusters_culled_cone > 0, "%s: no cluster dropped by its cone", what);
            snprintf(what, sizeof what, "town viewpoint %u, settled", v);
            settled_reference(on, town, at(info.viewpoints[v], 0.0, GN_SHADOWS_NONE), what);
        }
    }
    printf(
        "town street: %llu triangles (prepass and forward) with clusters, %llu with whole meshes (%.1f%%)\n",
        (unsigned long long)street[0], (unsigned long long)street[1],
        street[1] ? 100.0 * street[0] / street[1] : 0.0);
    CHECK(street[0] < street[1], "street: clusters draw %llu triangles, whole meshes %llu",
          (unsigned long long)street[0], (unsigned long long)street[1]);
    /* a walk: small steps with moving objects, then cuts; cascades on the last steps */
    for (int i = 0; i < 7; i++) {
        snprintf(what, sizeof what, "town walk step %d", i);
        float c[5] = {i < 4 ? -20.0f + 1.5f * i : 40.0f - 30.0f * (i - 4), 1.8f, 10.0f - 2.0f * i,
                      i < 4 ? 10.0f * i : 120.0f * i, -2.0f};
        gn_frame_desc f = at(c, 0.3 * i, i >= 5 ? GN_SHADOWS_CSM : GN_SHADOWS_NONE);
        same_frame(on, off, town, &f, what, NULL);
    }
    for (uint32_t v = 0; v < info.viewpoint_count; v++) {
        snprintf(what, sizeof what, "town viewpoint %u, caster LODs", v);
        caster_lods(town, info.viewpoints[v], what);
    }
    gn_frame_desc sf = {.shadows = GN_SHADOWS_NONE};
    for (int i = 0; i < 2; i++) same_frame(on, off, engine, &sf, "engine", NULL);
    gn_frame_stats st = gt_frame(
        on, engine, &(gn_frame_desc){.shadows = GN_SHADOWS_NONE, .no_occlusion = true, .clusters = true});
    reference(on, engine, &st, NULL, NULL, "engine, no occlusion");
    for (int i = 0; i < 2; i++) same_frame(on, off, map, &sf, "oa_dm1", NULL);
    gn_renderer_destroy(on);
    gn_renderer_destroy(off);
    gn_scene_destroy(engine);
    gn_scene_destroy(map);
    gn_scene_destroy(town);
    return gn_check_exit();
}

/* A Quake 3 map's visibility against brute force, by surface ids: in oa_dm1 (Debian's
 * openarena-data), from every deathmatch spawn point (all over the map) and from moved, turned
 * and tilted cameras near each, every instance (a face of the map) that a ray-traced render of
 * ALL instances shows in some pixel (tools/gnomon/truth.c: one ray a pixel, back faces culled as
 * the renderer culls them) must be in the set the renderer drew with PVS + frustum culling
 * (gn_get_visible_instances); summed over the cameras that set must be much smaller than the
 * frustum-only set (gn_frame_desc.no_pvs), and both renders must give the same image. So that
 * the check can be seen to fail, one camera's set must miss surfaces another camera sees. (The
 * image comparison alone had missed that brush models' faces were culled in both renders.)
 * Skips (exit 0, with a message) when the archives are absent. */
#include "decide/camera.h"
#include "gpu_util.h"
#include "scene/scene.h"
#include "scene/world.h"
#include "truth.h"

#include <stdlib.h>
#include <string.h>

#define W 320
#define H 180
#define PAKS "/usr/share/games/openarena/baseoa"
#define MAX_SPAWNS 16 /* deathmatch spawn points visited (oa_dm1 has 7, all over the map) */
#define VIEWS 3       /* cameras at each: the spawn's own, then moved, turned and tilted two ways */
#define MAX_RATIO 0.6 /* PVS + frustum set / frustum-only set, summed over the cameras */

typedef struct cam {
    float pos[3], yaw, pitch;
    int32_t cluster;
} cam;

typedef struct view_sets {
    uint32_t *ids, count; /* gn_get_visible_instances */
    uint8_t *in;          /* per instance: 1 when in ids */
} view_sets;

/* The frame's visible set, as ids and as a per-instance membership table. */
static void get_sets(gn_renderer *r, uint32_t instances, view_sets *v)
{
    gn_error err = {0};
    CHECK(gn_get_visible_instances(r, NULL, 0, &v->count, &err) == GN_OK, "%s", err.message);
    v->ids = malloc((v->count ? v->count : 1) * sizeof *v->ids);
    v->in = calloc(instances ? instances : 1, 1);
    if (!v->ids || !v->in) exit(1);
    uint32_t again = 0;
    CHECK(gn_get_visible_instances(r, v->ids, v->count, &again, &err) == GN_OK && again == v->count,
          "%s (%u then %u)", err.message, v->count, again);
    for (uint32_t i = 0; i < v->count; i++) {
        CHECK(v->ids[i] < instances, "visible id %u of %u instances", v->ids[i], instances);
        if (v->ids[i] < instances) v->in[v->ids[i]] = 1;
    }
}

static void free_sets(view_sets *v)
{
    free(v->ids);
    free(v->in);
}

/* Why a face might have been culled: the leaves of the tree that list it and how many of them
 * the PVS row of the camera's cluster marks. */
static void explain(const gn_world *w, uint32_t face, int32_t cluster)
{
    const gn_bsp *b = &w->bsp;
    uint32_t leaves = 0, marked = 0;
    for (uint32_t l = 0; l < b->leaf_count; l++)
        for (uint32_t k = 0; w->vis.leaf_in_tree[l] && k < b->leaves[l].leafface_count; k++)
            if (b->leaffaces[b->leaves[l].first_leafface + k] == face) {
                leaves++;
                marked += gn_bsp_cluster_visible(b, cluster, b->leaves[l].cluster);
            }
    fprintf(stderr,
            "    face %u (%s): listed by %u leaves of the tree, %u of them in the PVS of cluster %d%s\n",
            face, b->textures[b->faces[face].texture].name, leaves, marked, cluster,
            w->vis.face_in_tree[face] ? "" : " (a brush model's face: frustum only)");
}

/* On a failure: the camera's image and its ids (a colour an instance; magenta where the
 * instance seen was culled), world_<camera>.png and world_<camera>_ids.png in the working
 * directory. */
static void write_ids(uint32_t c, const uint32_t *ids, uint32_t instances, const uint8_t *drawn,
                      const uint8_t *image)
{
    uint8_t *pic = malloc(W * H * 4);
    if (!pic) return;
    for (uint32_t p = 0; p < W * H; p++) {
        uint32_t id = ids[p], hash = id * 2654435761u; /* Knuth's multiplicative hash: neighbours differ */
        uint8_t rgba[4] = {(uint8_t)(hash >> 24), (uint8_t)(hash >> 16), (uint8_t)(hash >> 8), 255};
        if (id == GN_TRUTH_NO_INSTANCE) rgba[0] = rgba[1] = rgba[2] = 0;
        if (id < instances && !drawn[id]) rgba[0] = 255, rgba[1] = 0, rgba[2] = 255;
        memcpy(&pic[4 * p], rgba, 4);
    }
    char name[64];
    snprintf(name, sizeof name, "world_%u_ids.png", c);
    gt_write_png(name, pic, W, H);
    snprintf(name, sizeof name, "world_%u.png", c);
    gt_write_png(name, image, W, H);
    free(pic);
}

/* The cameras: every deathmatch spawn point (up to MAX_SPAWNS), each from its own eye, then
 * moved 1.5 m on into the room it faces, raised 0.5 m, and turned 45 degrees left looking down
 * and right looking up; every one must stand in a cluster (inside the map). */
static uint32_t cameras(const gn_world *w, cam *out)
{
    uint32_t spawns = 0;
    gn_bsp_entity e;
    while (gn_bsp_entity_find(&w->bsp, "info_player_deathmatch", spawns, &e)) spawns++;
    if (spawns > MAX_SPAWNS) spawns = MAX_SPAWNS;
    uint32_t n = 0;
    for (uint32_t spawn = 0; spawn < spawns; spawn++) {
        gn_bsp_entity_find(&w->bsp, "info_player_deathmatch", spawn, &e);
        float eye = GN_BSP_EYE_HEIGHT * GN_BSP_UNIT;
        float yaw = e.has_angle ? e.yaw : -90.0f, ahead[3];
        gn_camera_forward(yaw, 0.0f, ahead);
        float on[3] = {e.origin[0] + 1.5f * ahead[0], e.origin[1] + eye + 0.5f,
                       e.origin[2] + 1.5f * ahead[2]};
        cam views[VIEWS] = {
            {{e.origin[0], e.origin[1] + eye, e.origin[2]}, yaw, 0.0f, 0},
            {{on[0], on[1], on[2]}, yaw + 45.0f, -15.0f, 0},
            {{on[0], on[1], on[2]}, yaw - 45.0f, 10.0f, 0},
        };
        for (int v = 0; v < VIEWS; v++) {
            cam c = views[v];
            int32_t leaf = gn_bsp_find_leaf(&w->bsp, c.pos);
            c.cluster = leaf >= 0 ? w->bsp.leaves[leaf].cluster : -1;
            CHECK(c.cluster >= 0, "spawn %u view %d at (%.2f %.2f %.2f) is outside the map (leaf %d)", spawn,
                  v, c.pos[0], c.pos[1], c.pos[2], leaf);
            out[n++] = c;
        }
    }
    return n;
}

int main(void)
{
    FILE *probe = fopen(PAKS "/pak1-maps.pk3", "rb");
    if (!probe) {
        printf("skipped: %s not installed (Debian openarena-data)\n", PAKS);
        return 0;
    }
    fclose(probe);
    gn_error err = {0};
    gn_scene *s = NULL;
    gn_load_desc ld = {.path = "oa_dm1", .paks = PAKS};
    if (gn_scene_load(&ld, &s, &err)) {
        fprintf(stderr, "oa_dm1: %s\n", err.message);
        return 1;
    }
    const gn_world *w = s->world;
    CHECK(w != NULL, "oa_dm1 loaded without its BSP world");
    if (!w) return gn_check_exit();
    uint32_t instances = s->instance_count;
    uint32_t *face_of = malloc(instances * sizeof *face_of); /* instance -> BSP face */
    uint32_t *ids = malloc(W * H * sizeof *ids), *hits = malloc(instances * sizeof *hits);
    uint8_t *ever = calloc(instances, 1); /* seen by some camera's rays */
    if (!face_of || !ids || !hits || !ever) return 1;
    for (uint32_t i = 0; i < instances; i++) face_of[i] = UINT32_MAX;
    for (uint32_t f = 0; f < w->bsp.face_count; f++)
        if (w->face_instance[f] != UINT32_MAX) face_of[w->face_instance[f]] = f;

    cam cams[MAX_SPAWNS * VIEWS];
    uint32_t ncam = cameras(w, cams);
    gn_renderer *r = gt_renderer(W, H, 4);
    gn_truth *t = NULL;
    view_sets first = {0}; /* camera 0's PVS set, against which the others show the check can fail */
    uint64_t pvs_sum = 0, frustum_sum = 0, caught = 0;
    uint32_t seen_all = 0, lost_all = 0;
    for (uint32_t c = 0; c < ncam; c++) {
        /* cascades: a frame that depends on its own inputs alone. The default virtual shadow
         * map blends in the previous frames' mask (temporal accumulation), so the second render
         * of a view differs from the first by a few levels whatever the culling */
        /* the PVS's sets, not occlusion culling's (gpu_occlusion holds that to the truth) */
        gn_frame_desc f = {.time_of_day = 14, .shadows = GN_SHADOWS_CSM, .no_occlusion = true};
        memcpy(f.camera.position, cams[c].pos, sizeof cams[c].pos);
        f.camera.yaw = cams[c].yaw;
        f.camera.pitch = cams[c].pitch;
        uint8_t *with = gt_render(r, s, &f);
        view_sets pvs, all;
        get_sets(r, instances, &pvs);
        gn_frame_view v;
        gn_frame_stats fs = {0};
        CHECK(gn_get_frame_view(r, &v, &err) == GN_OK, "%s", err.message);
        CHECK(gn_renderer_wait_idle(r, &err) == GN_OK && gn_get_frame_stats(r, &fs, &err) == GN_OK, "%s",
              err.message);
        CHECK(fs.instances_visible == pvs.count,
              "camera %u: the frame's statistics count %u visible, the set %u", c, fs.instances_visible,
              pvs.count);
        f.no_pvs = true;
        uint8_t *without = gt_render(r, s, &f);
        get_sets(r, instances, &all);
        if (!t) t = gn_truth_create(s, &err); /* after the first frame, as truth.h asks */
        CHECK(t != NULL, "%s", err.message);
        if (!t) return gn_check_exit();

        /* the brute force: which instance each pixel sees when nothing is culled */
        gn_truth_frame tf = {.width = W, .height = H, .msaa = gn_renderer_msaa(r), .view = &v};
        gn_truth_stats st;
        CHECK(gn_truth_ids(t, &tf, ids, &st, &err) == GN_OK, "%s", err.message);
        uint32_t sky = 0, outside_frustum = 0, other = 0;
        memset(hits, 0, instances * sizeof *hits);
        for (uint32_t p = 0; p < W * H; p++) {
            uint32_t id = ids[p];
            if (id == GN_TRUTH_NO_INSTANCE) {
                sky++;
                continue;
            }
            CHECK(id < instances, "pixel %u sees instance %u of %u", p, id, instances);
            if (id >= instances) continue;
            hits[id]++;
            outside_frustum += !all.in[id];
            other += c > 0 && !first.in[id];
        }
        uint32_t distinct = 0, lost = 0, lost_px = 0;
        for (uint32_t i = 0; i < instances; i++) {
            if (!hits[i]) continue;
            distinct++;
            seen_all += !ever[i];
            ever[i] = 1;
            if (pvs.in[i]) continue;
            lost++;
            lost_px += hits[i];
            fprintf(stderr, "  camera %u: instance %u seen in %u pixels but culled\n", c, i, hits[i]);
            if (face_of[i] != UINT32_MAX) explain(w, face_of[i], cams[c].cluster);
        }
        if (lost) write_ids(c, ids, instances, pvs.in, with);
        gt_diff diff = gt_compare(with, without, W, H, 0);
        fprintf(stderr,
                "camera %u (%.1f %.1f %.1f, yaw %.0f, pitch %.0f, cluster %d): drawn %u with PVS, %u frustum "
                "only (ratio %.2f); %u instances seen by rays (%u sky px, %llu back-face hits passed over, "
                "%.0f ms), %u of them culled (%u px); %u px see surfaces camera 0's set lacks; max diff %u\n",
                c, cams[c].pos[0], cams[c].pos[1], cams[c].pos[2], cams[c].yaw, cams[c].pitch,
                cams[c].cluster, pvs.count, all.count, all.count ? (double)pvs.count / all.count : 0.0,
                distinct, sky, (unsigned long long)st.back_faces, st.ms, lost, lost_px, other,
                diff.max_channel);
        CHECK(lost == 0, "camera %u: %u instances seen by brute force (%u px) were culled", c, lost, lost_px);
        CHECK(outside_frustum == 0, "camera %u: %u pixels see instances the frustum culled", c,
              outside_frustum);
        CHECK(distinct >= 2 && sky < W * H / 2, "camera %u: the rays see only %u instances (%u sky px)", c,
              distinct, sky);
        CHECK(pvs.count <= all.count, "camera %u: the PVS set (%u) is larger than the frustum's (%u)", c,
              pvs.count, all.count);
        CHECK(diff.max_channel == 0, "camera %u: PVS culling changed the image (max diff %u)", c,
              diff.max_channel);
        caught += other;
        lost_all += lost;
        pvs_sum += pvs.count;
        frustum_sum += all.count;
        if (c == 0)
            first = pvs;
        else
            free_sets(&pvs);
        free_sets(&all);
        free(with);
        free(without);
    }
    double ratio = frustum_sum ? (double)pvs_sum / frustum_sum : 1.0;
    fprintf(
        stderr,
        "%u cameras: PVS + frustum drew %llu instances, frustum only %llu (ratio %.2f); the rays saw %u of "
        "the %u instances, %u times one the renderer had culled\n",
        ncam, (unsigned long long)pvs_sum, (unsigned long long)frustum_sum, ratio, seen_all, instances,
        lost_all);
    CHECK(ncam >= 4, "only %u cameras", ncam);
    CHECK(ratio < MAX_RATIO, "the PVS kept %.2f of the frustum's instances (at most %.2f expected)", ratio,
          MAX_RATIO);
    CHECK(caught > 0, "no camera sees a surface camera 0's PVS set lacks: the check could not fail");
    GT_CHECK_VALIDATION(r, "rendering oa_dm1");
    free_sets(&first);
    gn_truth_destroy(t);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    free(face_of);
    free(ids);
    free(hits);
    free(ever);
    return gn_check_exit();
}

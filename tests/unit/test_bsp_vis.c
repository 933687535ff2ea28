/* Leaf finding, PVS bits and the PVS + frustum face walk on the synthetic map of bsp_writer.h. */
#include <math.h>

#include "bsp_writer.h"
#include "check.h"
#include "decide/bsp_vis.h"
#include "decide/camera.h"

#define U GN_BSP_UNIT

/* Quake (x, y, z) in renderer metres, as the parser converts it. */
static void q2r(float x, float y, float z, float out[3]) { out[0] = x * U, out[1] = z * U, out[2] = -y * U; }

typedef struct world {
    gn_bsp b;
    gn_bsp_mesh m;
    gn_bsp_vis v;
    uint32_t faces[8], seen[GN_BSP_VIS_SEEN_WORDS(8)];
    gn_bsp_vis_result r;
} world;

static bool load(world *w)
{
    memset(w, 0, sizeof *w);
    tmap t;
    tm_build(&t, 32.0f);
    size_t size;
    uint8_t *d = tm_serialize(&t, &size);
    gn_error err = {0};
    gn_result r = gn_bsp_parse(d, size, "maps/test.bsp", NULL, &w->b, &err);
    free(d);
    tm_free(&t);
    if (r == GN_OK) r = gn_bsp_triangulate(&w->b, NULL, &w->m, &err);
    if (r == GN_OK) r = gn_bsp_vis_create(&w->b, &w->m, &w->v, &err);
    CHECK(r == GN_OK, "loading the test map: %s", err.message);
    w->r.faces = w->faces;
    w->r.seen = w->seen;
    return r == GN_OK;
}

static void unload(world *w)
{
    gn_bsp_vis_destroy(&w->v);
    gn_bsp_mesh_free(&w->m);
    gn_bsp_free(&w->b);
}

static void test_find_leaf(const world *w)
{
    struct {
        float q[3];
        int32_t leaf;
    } cases[] = {
        {{100, 0, 0}, 0},         {{-100, 50, 10}, 1}, {{600, 0, 0}, 2},
        {{0, 0, 0}, 0}, /* on x = 0: the front */
        {{511.9f, -900, 400}, 0}, {{512, 0, 0}, 2},    {{-5000, 0, 0}, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        float p[3];
        q2r(cases[i].q[0], cases[i].q[1], cases[i].q[2], p);
        int32_t leaf = gn_bsp_find_leaf(&w->b, p);
        CHECK(leaf == cases[i].leaf, "Quake (%g %g %g): leaf %d, want %d", cases[i].q[0], cases[i].q[1],
              cases[i].q[2], leaf, cases[i].leaf);
    }
    gn_bsp empty = {0};
    float o[3] = {0};
    CHECK(gn_bsp_find_leaf(&empty, o) == -1, "a map without leaves has a leaf");
}

static void test_pvs(const world *w)
{
    const gn_bsp *b = &w->b;
    CHECK(gn_bsp_cluster_visible(b, 0, 0) && !gn_bsp_cluster_visible(b, 0, 1), "row 0");
    CHECK(gn_bsp_cluster_visible(b, 1, 0) && gn_bsp_cluster_visible(b, 1, 1), "row 1");
    CHECK(gn_bsp_cluster_visible(b, -1, 1), "outside the map sees everything");
    CHECK(!gn_bsp_cluster_visible(b, 0, -1), "an opaque leaf is visible");
    CHECK(gn_bsp_cluster_visible(b, 7, 0) && gn_bsp_cluster_visible(b, 0, 7) &&
              gn_bsp_cluster_visible(b, INT32_MAX, INT32_MAX),
          "unknown clusters are not conservatively visible");
    gn_bsp novis = *b;
    novis.visdata = NULL;
    CHECK(gn_bsp_cluster_visible(&novis, 0, 1), "no visdata hides something");
}

static void walk(world *w, float qx, float qy, float qz, const gn_frustum *f, bool pvs)
{
    float p[3];
    q2r(qx, qy, qz, p);
    gn_bsp_visible_faces(&w->v, p, f, pvs, &w->r);
}

static bool faces_are(const world *w, const uint32_t *want, uint32_t n)
{
    if (w->r.visible_count != n) return false;
    for (uint32_t i = 0; i < n; i++)
        if (w->r.faces[i] != want[i]) return false;
    return true;
}

static void print_faces(const world *w, const char *what)
{
    fprintf(stderr, "  %s:", what);
    for (uint32_t i = 0; i < w->r.visible_count; i++) fprintf(stderr, " %u", w->r.faces[i]);
    fprintf(stderr, "\n");
}

static void test_walk(world *w)
{
    const gn_bsp_vis_result *r = &w->r;
    /* from room 0 (cluster 0) the PVS keeps leaf 0 only: faces 0 and 2 (texture 0) */
    walk(w, 100, 100, 32, NULL, true);
    uint32_t want0[] = {0, 2};
    CHECK(r->camera_leaf == 0 && r->camera_cluster == 0, "camera leaf %d cluster %d", r->camera_leaf,
          r->camera_cluster);
    CHECK(faces_are(w, want0, 2), "room 0 sees %u faces, want 0 2", r->visible_count);
    CHECK(r->leaves_total == 3 && r->leaves_pvs == 1 && r->leaves_frustum == 1 && r->faces_pvs == 2 &&
              r->faces_frustum == 2 && r->face_total == 4,
          "counts: leaves %u/%u/%u faces %u/%u of %u", r->leaves_total, r->leaves_pvs, r->leaves_frustum,
          r->faces_pvs, r->faces_frustum, r->face_total);

    /* from room 1: both rooms; sorted by (texture, face) = 0 2 | 1 3; face 0, in both leaves, once */
    walk(w, -100, 100, 32, NULL, true);
    uint32_t want1[] = {0, 2, 1, 3};
    CHECK(faces_are(w, want1, 4), "room 1 sees %u faces, want 0 2 1 3", r->visible_count);
    if (!faces_are(w, want1, 4)) print_faces(w, "room 1");
    CHECK(r->leaves_pvs == 2 && r->faces_pvs == 4, "room 1: %u leaves %u faces after PVS", r->leaves_pvs,
          r->faces_pvs);

    /* PVS off from room 0: everything, the billboard (no triangles) never */
    walk(w, 100, 100, 32, NULL, false);
    CHECK(faces_are(w, want1, 4) && r->leaves_pvs == 3, "no PVS: %u faces %u leaves", r->visible_count,
          r->leaves_pvs);

    /* a frustum of one plane, x >= 0.01 m: leaf 1 culled, leaf 0 kept */
    gn_frustum half = {.planes = {{1, 0, 0, -0.01f}}, .count = 1};
    walk(w, -100, 100, 32, &half, true);
    CHECK(faces_are(w, want0, 2) && r->leaves_pvs == 2 && r->leaves_frustum == 1 && r->faces_frustum == 2,
          "x >= 0: %u faces, leaves %u/%u", r->visible_count, r->leaves_pvs, r->leaves_frustum);
    /* z >= -280 units keeps leaf 0 but not the patch (Quake y 300..556, renderer z <= -300 u) */
    gn_frustum near_wall = {.planes = {{0, 0, 1, 280 * U}, {1, 0, 0, -0.01f}}, .count = 2};
    walk(w, 100, 100, 32, &near_wall, true);
    uint32_t want_floor[] = {0};
    CHECK(faces_are(w, want_floor, 1) && r->leaves_frustum == 1 && r->faces_pvs == 2 && r->faces_frustum == 1,
          "face cull: %u faces (%u after frustum)", r->visible_count, r->faces_frustum);

    /* a real camera in room 0 at Quake (256, 290, 100): yaw 0 looks along Quake +Y, at the patch */
    float proj[16], view[16], vp[16], eye[3];
    q2r(256, 290, 100, eye);
    gn_camera_projection(60.0f * 0.017453292f, 1.0f, 0.1f, proj);
    gn_frustum fr;
    gn_camera_view(eye, 0.0f, -20.0f, view);
    gn_mat4_mul(proj, view, vp);
    gn_frustum_from_view_proj(vp, &fr);
    gn_bsp_visible_faces(&w->v, eye, &fr, false, &w->r);
    uint32_t want_patch[] = {2};
    CHECK(faces_are(w, want_patch, 1), "looking at the patch: %u faces", r->visible_count);
    if (!faces_are(w, want_patch, 1)) print_faces(w, "ahead");
    /* turned round (yaw 180, along Quake -Y) and looking down: the floor, not the patch behind */
    gn_camera_view(eye, 180.0f, -30.0f, view);
    gn_mat4_mul(proj, view, vp);
    gn_frustum_from_view_proj(vp, &fr);
    gn_bsp_visible_faces(&w->v, eye, &fr, true, &w->r);
    bool has_patch = false, has_floor = false;
    for (uint32_t i = 0; i < r->visible_count; i++)
        has_patch |= r->faces[i] == 2, has_floor |= r->faces[i] == 0;
    CHECK(has_floor && !has_patch, "looking back: floor %d patch %d", has_floor, has_patch);
}

/* q3map2 writes a leaf per brush model after the world's tree: no node reaches it, its bounds
 * are zero and its cluster 0, and it lists the model's faces (oa_dm1: leaves 1115..1122). Here
 * face 3 moves from leaf 1 into such a leaf. Walking every leaf instead of the tree put face 3
 * in cluster 0's set and, its leaf's box being a point at the origin, culled it by the
 * frustum almost always; it is a brush model's face: never from the walk, and face_in_tree 0
 * so the caller culls it on its own bounds. */
static void test_model_leaf(world *w)
{
    gn_bsp b = w->b;
    gn_bsp_leaf leaves[4];
    uint32_t leaffaces[16], n = 0;
    CHECK(b.leaf_count == 3 && b.leafface_count < 16, "the test map has %u leaves, %u leaf faces",
          b.leaf_count, b.leafface_count);
    if (b.leaf_count != 3 || b.leafface_count >= 16) return;
    for (uint32_t l = 0; l < 3; l++) {
        leaves[l] = b.leaves[l];
        leaves[l].first_leafface = n;
        for (uint32_t k = 0; k < b.leaves[l].leafface_count; k++) {
            uint32_t face = b.leaffaces[b.leaves[l].first_leafface + k];
            if (face != 3) leaffaces[n++] = face;
        }
        leaves[l].leafface_count = n - leaves[l].first_leafface;
    }
    leaves[3] = (gn_bsp_leaf){.cluster = 0, .first_leafface = n, .leafface_count = 1};
    leaffaces[n++] = 3;
    b.leaves = leaves, b.leaf_count = 4, b.leaffaces = leaffaces, b.leafface_count = n;
    gn_bsp_vis v;
    gn_error err = {0};
    gn_result res = gn_bsp_vis_create(&b, &w->m, &v, &err);
    CHECK(res == GN_OK, "%s", err.message);
    if (res != GN_OK) return;
    CHECK(v.leaf_in_tree[0] && v.leaf_in_tree[1] && v.leaf_in_tree[2] && !v.leaf_in_tree[3],
          "leaves in the tree: %u %u %u, model leaf %u", v.leaf_in_tree[0], v.leaf_in_tree[1],
          v.leaf_in_tree[2], v.leaf_in_tree[3]);
    CHECK(v.face_in_tree[0] && v.face_in_tree[1] && v.face_in_tree[2] && !v.face_in_tree[3],
          "faces in the tree: %u %u %u, the model's %u", v.face_in_tree[0], v.face_in_tree[1],
          v.face_in_tree[2], v.face_in_tree[3]);
    /* from room 0 (cluster 0, the model leaf's too) with the PVS, and from room 1 without it */
    float p[3];
    q2r(100, 100, 32, p);
    gn_bsp_visible_faces(&v, p, NULL, true, &w->r);
    uint32_t want0[] = {0, 2}, want1[] = {0, 2, 1};
    CHECK(faces_are(w, want0, 2) && w->r.leaves_total == 3, "room 0 with a model leaf: %u faces, %u leaves",
          w->r.visible_count, w->r.leaves_total);
    q2r(-100, 100, 32, p);
    gn_bsp_visible_faces(&v, p, NULL, false, &w->r);
    CHECK(faces_are(w, want1, 3), "room 1 without PVS, with a model leaf: %u faces", w->r.visible_count);
    if (!faces_are(w, want1, 3)) print_faces(w, "room 1, model leaf");
    gn_bsp_vis_destroy(&v);
}

int main(void)
{
    world w;
    if (load(&w)) {
        test_find_leaf(&w);
        test_pvs(&w);
        test_walk(&w);
        test_model_leaf(&w);
    }
    unload(&w);
    return gn_check_exit();
}

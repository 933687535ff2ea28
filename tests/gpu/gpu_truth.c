/* The ray-traced shadow truth (tools/gnomon/truth.c) against geometry worked out by hand: a
 * 2x10x2 box, placed by an instance transform, stands on a 120x120 ground quad under a
 * morning sun. The render supplies only depth and the frame's camera and sun, so the test
 * does not depend on how the renderer draws shadows.
 * Checks: (a) the box's top is lit; (b) on the ground the mask says shadowed exactly where a
 * ray towards the sun hits the box (this file's own slab test), on more than 99.5% of the
 * ground pixels farther than 2 px from a shadow edge; (c) pixels with
 * no surface are GN_TRUTH_SKY and no others are; (d) the brute-force instance ids
 * (gn_truth_ids) name the ground and the box where the render has them and nothing where it
 * has sky, also from below the ground, whose back face the rays must pass over as the
 * renderer culls it; (e) gn_depth_sample_position names the sample world_point uses; (f) in
 * a room of single-sided walls (check_room), the sides facing away from the sun are shadowed in
 * the truth as in the renderer, and the two agree off the edges. No validation messages. */
#include "gpu_util.h"
#include "shadowcmp.h"
#include "truth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256
#define GROUND 60.0f                                  /* half-size of the ground quad, metres */
static const float box_min[3] = {2.0f, 0.0f, -3.0f};  /* world bounds of the box */
static const float box_max[3] = {4.0f, 10.0f, -1.0f}; /* (mesh centred, moved by the instance) */

static uint32_t add_mesh(gn_scene *s, const float *pos, uint32_t nv, const uint32_t *idx, uint32_t ni)
{
    gn_error err = {0};
    uint32_t id = 0;
    gn_mesh_desc d = {.positions = pos, .vertex_count = nv, .indices = idx, .index_count = ni};
    CHECK(gn_scene_add_mesh(s, &d, &id, &err) == GN_OK, "%s", err.message);
    return id;
}

/* A mesh of count (at most 6) flat quads, four vertices each: quad i is q[i][0] +- q[i][1] +-
 * q[i][2] (centre, u, v), counter-clockwise seen from the side u x v points to, the side drawn. */
static uint32_t add_quads(gn_scene *s, const float q[][3][3], uint32_t count)
{
    static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    float pos[24 * 3];
    uint32_t idx[36];
    for (uint32_t i = 0; i < count && i < 6; i++) {
        for (int k = 0; k < 4; k++)
            for (int a = 0; a < 3; a++)
                pos[(i * 4 + k) * 3 + a] = q[i][0][a] + corner[k][0] * q[i][1][a] + corner[k][1] * q[i][2][a];
        uint32_t b = i * 4, t[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
        memcpy(&idx[i * 6], t, sizeof t);
    }
    count = count < 6 ? count : 6;
    return add_mesh(s, pos, 4 * count, idx, 6 * count);
}

/* A box of half-extents (1, 5, 1) about the origin, four vertices a face so faces stay flat;
 * each face is c +- u +- v with u x v along c, facing outwards. */
static uint32_t add_box(gn_scene *s)
{
    static const float f[6][3][3] = {
        /* n, u, v (scaled by the half-extents) */
        {{1, 0, 0}, {0, 0, -1}, {0, 5, 0}}, {{-1, 0, 0}, {0, 0, 1}, {0, 5, 0}},
        {{0, 5, 0}, {1, 0, 0}, {0, 0, -1}}, {{0, -5, 0}, {1, 0, 0}, {0, 0, 1}},
        {{0, 0, 1}, {1, 0, 0}, {0, 5, 0}},  {{0, 0, -1}, {-1, 0, 0}, {0, 5, 0}},
    };
    return add_quads(s, f, 6);
}

static gn_scene *build_scene(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    if (!s) exit(1);
    const float g = GROUND;
    float ground[12] = {-g, 0, -g, -g, 0, g, g, 0, g, g, 0, -g};
    uint32_t gidx[6] = {0, 1, 2, 0, 2, 3}; /* normal +Y */
    uint32_t ground_mesh = add_mesh(s, ground, 4, gidx, 6);
    uint32_t box_mesh = add_box(s);
    uint32_t mat = 0;
    gn_material_desc md = {.base_color = {0.7f, 0.7f, 0.7f, 1}};
    CHECK(gn_scene_add_material(s, &md, &mat, &err) == GN_OK, "%s", err.message);
    gn_instance_desc gi = {.mesh = ground_mesh, .material = mat}; /* all-zero transform: identity */
    CHECK(gn_scene_add_instance(s, &gi, NULL, &err) == GN_OK, "%s", err.message);
    /* centre of the box at (3, 5, -2): exercises the instance transform path */
    gn_instance_desc bi = {
        .mesh = box_mesh, .material = mat, .transform = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 5, -2, 1}};
    CHECK(gn_scene_add_instance(s, &bi, NULL, &err) == GN_OK, "%s", err.message);
    return s;
}

/* Does the ray o + t d, t > 0, hit the box? Slab test (Kay and Kajiya). */
static bool ray_hits_box(const double o[3], const double d[3])
{
    double t0 = 0.0, t1 = INFINITY;
    for (int a = 0; a < 3; a++) {
        if (fabs(d[a]) < 1e-12) {
            if (o[a] < box_min[a] || o[a] > box_max[a]) return false;
            continue;
        }
        double ta = (box_min[a] - o[a]) / d[a], tb = (box_max[a] - o[a]) / d[a];
        if (ta > tb) {
            double x = ta;
            ta = tb, tb = x;
        }
        t0 = fmax(t0, ta);
        t1 = fmin(t1, tb);
    }
    return t0 <= t1;
}

/* The world point under sample 0 of pixel (x, y) at depth d (reversed-Z, Vulkan clip).
 * gn_read_depth returns sample 0's depth, and sample 0 of the standard 4x pattern sits at
 * (0.375, 0.125) in the pixel: pairing that depth with the pixel centre instead puts far
 * ground points 1% of their distance off (the depth changes 2.4% a pixel there). */
static void world_point(const gn_frame_view *v, uint32_t x, uint32_t y, float d, double p[3])
{
    double c[4] = {(x + 0.375) / W * 2.0 - 1.0, (y + 0.125) / H * 2.0 - 1.0, d, 1.0}, w[4];
    const float *m = v->inv_view_proj;
    for (int r = 0; r < 4; r++) w[r] = m[r] * c[0] + m[4 + r] * c[1] + m[8 + r] * c[2] + m[12 + r] * c[3];
    for (int a = 0; a < 3; a++) p[a] = w[a] / w[3];
}

/* (d): ids against what the depth says is there, for the frame just rendered. From above, a
 * surface point at height 0 is the ground's (instance 0) and any other the box's (instance
 * 1); from below (below true), only the box's bottom can be seen. Edge pixels may differ
 * (the ray and the rasterizer round differently on a silhouette): at most 0.5% of them. */
static void check_ids(gn_renderer *r, const gn_truth *t, bool below, const char *what)
{
    gn_error err = {0};
    float *depth = malloc(W * H * sizeof *depth);
    uint32_t *ids = malloc(W * H * sizeof *ids);
    if (!depth || !ids) exit(1);
    gn_frame_view v;
    CHECK(gn_read_depth(r, depth, &err) == GN_OK, "%s", err.message);
    CHECK(gn_get_frame_view(r, &v, &err) == GN_OK, "%s", err.message);
    gn_truth_frame tf = {.width = W, .height = H, .msaa = gn_renderer_msaa(r), .view = &v};
    gn_truth_stats st;
    CHECK(gn_truth_ids(t, &tf, ids, &st, &err) == GN_OK, "%s", err.message);
    uint32_t wrong = 0, counts[3] = {0, 0, 0}; /* ground, box, nothing */
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            uint32_t want = GN_TRUTH_NO_INSTANCE;
            if (depth[i] > 0.0f) {
                double p[3];
                world_point(&v, x, y, depth[i], p);
                want = !below && fabs(p[1]) < 0.02 ? 0u : 1u;
            }
            wrong += ids[i] != want;
            counts[ids[i] < 2 ? ids[i] : 2]++;
        }
    printf(
        "gpu_truth: ids %s: ground %u, box %u, nothing %u px; %u differ from the render; %llu back-face hits "
        "passed over; %.1f ms\n",
        what, counts[0], counts[1], counts[2], wrong, (unsigned long long)st.back_faces, st.ms);
    CHECK(wrong <= W * H / 200, "ids %s: %u pixels differ from the render", what, wrong);
    CHECK(counts[1] >= 500 && counts[2] >= 500 && (below || counts[0] >= 500),
          "ids %s: ground %u, box %u, nothing %u px: the set-up sees too little", what, counts[0], counts[1],
          counts[2]);
    CHECK(!below || (counts[0] == 0 && st.back_faces > 0),
          "ids %s: the ground seen from below in %u px (%llu back faces passed over)", what, counts[0],
          (unsigned long long)st.back_faces);
    free(depth);
    free(ids);
}

/* After a failed check: <name>.diff.png (truth against render, as gn_shadow_diff_rgba colours
 * them), <name>.mask.png (the truth mask) and <name>.image.png (the render). */
static void write_failure_pngs(const char *name, const uint8_t *truth, const uint8_t *render,
                               const uint8_t *mask, const uint8_t *image)
{
    if (!gn_check_failures) return;
    char path[256];
    uint8_t *pic = malloc(W * H * 4);
    if (pic) {
        gn_shadow_diff_rgba(truth, render, W, H, pic);
        snprintf(path, sizeof path, "%s.diff.png", name);
        gt_write_png(path, pic, W, H);
        gn_shadow_mask_rgba(mask, W, H, pic);
        snprintf(path, sizeof path, "%s.mask.png", name);
        gt_write_png(path, pic, W, H);
        free(pic);
    }
    snprintf(path, sizeof path, "%s.image.png", name);
    gt_write_png(path, image, W, H);
}

/* (f) A room of single-sided walls facing inward, 10 x 10 m and 4 m high, roofed over its north
 * half and open to the sky over the rest, seen from inside under the same morning sun. Its south
 * and east walls and its ceiling face away from the sun (south-east and high), so the renderer
 * has them in their own shadow (N.L <= 0), while a ray from them towards the sun escapes through
 * the zero-thickness wall or roof it starts on: the truth must call them shadowed too. */
static void check_room(gn_renderer *r)
{
    /* centre, u, v of each quad (add_quads): u x v is the side drawn */
    static const float q[6][3][3] = {
        {{0, 0, 0}, {60, 0, 0}, {0, 0, -60}},     /* ground, +Y */
        {{0, 2, 5}, {-5, 0, 0}, {0, 2, 0}},       /* south wall, facing north (-Z) */
        {{0, 2, -5}, {5, 0, 0}, {0, 2, 0}},       /* north wall, +Z */
        {{5, 2, 0}, {0, 0, 5}, {0, 2, 0}},        /* east wall, -X */
        {{-5, 2, 0}, {0, 0, -5}, {0, 2, 0}},      /* west wall, +X */
        {{0, 4, -2.5f}, {5, 0, 0}, {0, 0, 2.5f}}, /* ceiling over z -5..0, facing down */
    };
    gn_error err = {0};
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    if (!s) exit(1);
    uint32_t mesh = add_quads(s, q, 6), mat = 0;
    gn_material_desc md = {.base_color = {0.7f, 0.7f, 0.7f, 1}};
    CHECK(gn_scene_add_material(s, &md, &mat, &err) == GN_OK, "%s", err.message);
    gn_instance_desc in = {.mesh = mesh, .material = mat};
    CHECK(gn_scene_add_instance(s, &in, NULL, &err) == GN_OK, "%s", err.message);

    /* inside, near the north wall, looking south and a little up: the south wall, both side
     * walls' southern parts, the floor, the ceiling overhead and the sky over the open half */
    gn_frame_desc f = {
        .camera = {.position = {0.0f, 1.5f, -4.0f}, .yaw = 180.0f, .pitch = 10.0f, .fov_y = 90.0f},
        .time_of_day = 10.0f,
        .latitude = 45.0f,
        .day_of_year = 172,
        .view = GN_VIEW_SHADOW};
    uint8_t *shadow = gt_render(r, s, &f);
    float *depth = malloc(W * H * sizeof *depth);
    uint8_t *mask = malloc(W * H);
    if (!depth || !mask) exit(1);
    gn_frame_view v;
    CHECK(gn_read_depth(r, depth, &err) == GN_OK, "%s", err.message);
    CHECK(gn_get_frame_view(r, &v, &err) == GN_OK, "%s", err.message);
    gn_truth *t = gn_truth_create(s, &err);
    CHECK(t != NULL, "%s", err.message);
    if (!t) exit(gn_check_exit());
    gn_truth_frame tf = {.depth = depth, .width = W, .height = H, .msaa = gn_renderer_msaa(r), .view = &v};
    CHECK(gn_truth_mask(t, &tf, mask, NULL, &err) == GN_OK, "%s", err.message);

    /* the surfaces facing away from the sun, away from their edges */
    uint32_t away = 0, away_truth_lit = 0, away_render_lit = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            if (depth[i] <= 0.0f) continue;
            double p[3];
            world_point(&v, x, y, depth[i], p);
            bool south = fabs(p[2] - 5.0) < 0.02 && fabs(p[0]) < 4.8 && p[1] > 0.2 && p[1] < 3.8;
            bool east = fabs(p[0] - 5.0) < 0.02 && fabs(p[2]) < 4.8 && p[1] > 0.2 && p[1] < 3.8;
            bool ceiling = fabs(p[1] - 4.0) < 0.02 && fabs(p[0]) < 4.8 && p[2] > -4.8 && p[2] < -0.2;
            if (!south && !east && !ceiling) continue;
            away++;
            away_truth_lit += mask[i] != GN_TRUTH_SHADOWED;
            away_render_lit += shadow[4 * i] >= 128;
        }
    gn_shadow_agreement a;
    CHECK(gn_shadow_compare(mask, shadow, W, H, &a), "out of memory");
    printf("gpu_truth: room: sun (%.2f %.2f %.2f); %u px on walls and ceiling facing away from it, the truth "
           "calls %u of them lit, the render %u; agreement %.4f, off the edges %.4f (false lit %.4f, false "
           "shadow %.4f)\n",
           v.sun_direction[0], v.sun_direction[1], v.sun_direction[2], away, away_truth_lit, away_render_lit,
           a.agreement_all, a.agreement_off_edge, a.false_lit, a.false_shadow);
    CHECK(v.sun_direction[0] > 0.1f && v.sun_direction[2] > 0.1f,
          "sun (%.2f %.2f %.2f): the set-up expects it to the south-east", v.sun_direction[0],
          v.sun_direction[1], v.sun_direction[2]);
    CHECK(away >= 3000, "only %u px facing away from the sun: the set-up sees too little", away);
    CHECK(away_render_lit <= away / 100, "the render lights %u of %u px facing away from the sun",
          away_render_lit, away);
    CHECK(away_truth_lit <= away / 100, "the truth lights %u of %u px facing away from the sun",
          away_truth_lit, away);
    /* and over the whole room, renderer and truth agree (measured 99.9% off the edges) */
    CHECK(a.agreement_off_edge > 0.99,
          "room: agreement off the edges %.4f (false lit %.4f, false shadow %.4f)", a.agreement_off_edge,
          a.false_lit, a.false_shadow);
    GT_CHECK_VALIDATION(r, "rendering the room");
    write_failure_pngs("gpu_truth.room", mask, shadow, mask, shadow);
    gn_truth_destroy(t);
    gn_scene_destroy(s);
    free(shadow);
    free(depth);
    free(mask);
}

int main(void)
{
    gn_renderer *r = gt_renderer(W, H, 4);
    /* world_point's sample 0 is the one gnomon.h reports (and 1 sample: the centre) */
    float sx, sy, cx, cy;
    gn_depth_sample_position(gn_renderer_msaa(r), &sx, &sy);
    gn_depth_sample_position(1, &cx, &cy);
    CHECK(sx == 0.375f && sy == 0.125f && cx == 0.5f && cy == 0.5f,
          "depth sample at (%g, %g) for 4x, (%g, %g) for 1: not the standard sample 0", sx, sy, cx, cy);
    gn_scene *s = build_scene();
    /* At 45 N the sun stands to the south (+Z), so the shadow falls north: the camera stands
     * north of the box, above its top, looking south and down 40 degrees with a 90 degree
     * field, so the top rows see sky past the ground's edge. */
    gn_frame_desc f = {
        .camera = {.position = {3.0f, 16.0f, -16.0f}, .yaw = 180.0f, .pitch = -40.0f, .fov_y = 90.0f},
        .time_of_day = 10.0f,
        .latitude = 45.0f,
        .day_of_year = 172};
    uint8_t *final = gt_render(r, s, &f);
    gn_error err = {0};
    float *depth = malloc(W * H * sizeof *depth);
    uint8_t *mask = malloc(W * H), *kept = malloc(W * H), *expect = malloc(W * H * 4);
    if (!depth || !mask || !kept || !expect) return 1;
    gn_frame_view v;
    CHECK(gn_read_depth(r, depth, &err) == GN_OK, "%s", err.message);
    CHECK(gn_get_frame_view(r, &v, &err) == GN_OK, "%s", err.message);
    CHECK(v.sun_elevation > 30.0f, "sun elevation %.1f: the set-up expects a high morning sun",
          v.sun_elevation);

    gn_truth *t = gn_truth_create(s, &err);
    CHECK(t != NULL, "%s", err.message);
    if (!t) return gn_check_exit();
    gn_truth_frame tf = {.depth = depth, .width = W, .height = H, .msaa = gn_renderer_msaa(r), .view = &v};
    gn_truth_stats st;
    CHECK(gn_truth_mask(t, &tf, mask, &st, &err) == GN_OK, "%s", err.message);

    /* (c) sky exactly where there is no depth; (a) the top; (b) the ground against the slab test */
    uint32_t sky = 0, sky_wrong = 0, top = 0, top_shadowed = 0, ground = 0, ground_shadowed = 0;
    const double sun[3] = {v.sun_direction[0], v.sun_direction[1], v.sun_direction[2]};
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            kept[i] = GN_TRUTH_SKY; /* only ground pixels take part in the agreement */
            memset(&expect[4 * i], 0, 4);
            if (depth[i] <= 0.0f) {
                sky++;
                sky_wrong += mask[i] != GN_TRUTH_SKY;
                continue;
            }
            sky_wrong += mask[i] == GN_TRUTH_SKY;
            double p[3];
            world_point(&v, x, y, depth[i], p);
            bool on_top = fabs(p[1] - box_max[1]) < 0.02 && p[0] > box_min[0] + 0.1 &&
                          p[0] < box_max[0] - 0.1 && p[2] > box_min[2] + 0.1 && p[2] < box_max[2] - 0.1;
            if (on_top) {
                top++;
                top_shadowed += mask[i] != GN_TRUTH_LIT;
            }
            if (fabs(p[1]) > 0.02) continue; /* the box's sides and top */
            p[1] = 0.0;
            bool shadowed = ray_hits_box(p, sun);
            ground++;
            ground_shadowed += shadowed;
            kept[i] = mask[i];
            expect[4 * i] = shadowed ? 0 : 255;
        }
    }
    gn_shadow_agreement a;
    CHECK(gn_shadow_compare(kept, expect, W, H, &a), "out of memory");
    printf("gpu_truth: sun %.1f deg (%.2f %.2f %.2f); %u ground pixels (%u shadowed by geometry), %u top, %u "
           "sky; "
           "agreement %.4f, off the edges %.4f (%llu px); %llu rays in %.1f ms\n",
           v.sun_elevation, sun[0], sun[1], sun[2], ground, ground_shadowed, top, sky, a.agreement_all,
           a.agreement_off_edge, (unsigned long long)a.pixels_off_edge, (unsigned long long)st.rays, st.ms);

    CHECK(sky > W && sky_wrong == 0, "%u sky pixels, %u of all pixels disagree about sky", sky, sky_wrong);
    CHECK(top >= 30 && top_shadowed == 0, "%u of %u pixels on the box's top not lit", top_shadowed, top);
    CHECK(ground_shadowed >= 300, "only %u ground pixels in the box's shadow: the set-up sees too little",
          ground_shadowed);
    CHECK(a.agreement_off_edge > 0.995,
          "ground agreement off the edges %.4f (all: %.4f, false lit %.4f, "
          "false shadow %.4f)",
          a.agreement_off_edge, a.agreement_all, a.false_lit, a.false_shadow);
    CHECK(a.agreement_all > 0.98, "ground agreement %.4f with the edges", a.agreement_all);
    /* (d) from this camera, then from 6 m below the ground looking up at the box's bottom */
    check_ids(r, t, false, "from above");
    gn_frame_desc under = f;
    under.camera = (gn_camera){.position = {3.0f, -6.0f, -8.0f}, .yaw = 180.0f, .pitch = 45.0f};
    free(gt_render(r, s, &under));
    check_ids(r, t, true, "from below");
    GT_CHECK_VALIDATION(r, "rendering the truth test's scene");
    check_room(r);

    write_failure_pngs("gpu_truth", kept, expect, mask, final);
    gn_truth_destroy(t);
    gn_scene_destroy(s);
    gn_renderer_destroy(r);
    free(final);
    free(depth);
    free(mask);
    free(kept);
    free(expect);
    return gn_check_exit();
}

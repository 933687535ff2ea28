/* The froxel grid: exponential slices, index and bounds agreeing with each other, and the
 * reference binning: lights on froxel borders land on both sides, no lit point ever misses its
 * light (unless the froxel's list is full), full lists report their overflow, lists ascend,
 * and the spot cone test does cull. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decide/camera.h"
#include "decide/clusters.h"
#include "decide/lights.h"

#define DEG 0.017453292519943295
#define ASPECT (16.0f / 9.0f)

static uint32_t rng_state = 2024u;
static double rnd(void) /* uniform in [0, 1): a fixed LCG so every run checks the same cases */
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) / 16777216.0;
}

static float g_proj[16], g_view[16], g_inv_view[16];

static void setup_camera(void)
{
    const float pos[3] = {123.5f, 7.25f, -341.0f};
    gn_camera_projection((float)(60 * DEG), ASPECT, 0.1f, g_proj);
    gn_camera_view(pos, 37.0f, -12.0f, g_view);
    gn_mat4_inverse(g_view, g_inv_view);
}

static void to_world(const float v[3], float w[3])
{
    float h[4];
    gn_mat4_transform_point(g_inv_view, v, h);
    w[0] = h[0], w[1] = h[1], w[2] = h[2];
}

static void to_view(const float w[3], float v[3])
{
    float h[4];
    gn_mat4_transform_point(g_view, w, h);
    v[0] = h[0], v[1] = h[1], v[2] = h[2];
}

/* A view-space point's screen position (0..1, y down) and view depth. */
static void to_screen(const gn_cluster_grid *g, const float v[3], float *u, float *s, float *depth)
{
    *depth = -v[2];
    *u = (v[0] * g->proj_x / *depth + 1.0f) * 0.5f;
    *s = (-v[1] * g->proj_y / *depth + 1.0f) * 0.5f;
}

static void from_screen(const gn_cluster_grid *g, double u, double s, double depth, float v[3])
{
    v[0] = (float)((2.0 * u - 1.0) * depth / g->proj_x);
    v[1] = (float)(-(2.0 * s - 1.0) * depth / g->proj_y);
    v[2] = (float)-depth;
}

static int inside(const float p[3], const float mn[3], const float mx[3])
{
    for (int c = 0; c < 3; c++)
        if (!(p[c] >= mn[c] && p[c] <= mx[c])) return 0;
    return 1;
}

static double boundary_depth(const gn_cluster_grid *g, double k) { return exp2((k - g->bias) / g->scale); }

static void test_grid(void)
{
    gn_cluster_grid g;
    gn_cluster_grid_init(0, 0, 0, 0, 0.0f, 0.0f, g_proj, &g);
    CHECK(g.x == GN_CLUSTER_X && g.y == GN_CLUSTER_Y && g.z == GN_CLUSTER_Z &&
              g.max_lights == GN_CLUSTER_MAX_LIGHTS,
          "defaults %ux%ux%u, %u lights", g.x, g.y, g.z, g.max_lights);
    CHECK(g.near_depth == GN_CLUSTER_DEFAULT_NEAR && g.far_depth == GN_CLUSTER_DEFAULT_FAR, "depths %g..%g",
          g.near_depth, g.far_depth);
    CHECK(fabsf(g.proj_x - g_proj[0]) == 0.0f && g.proj_y == -g_proj[5], "proj %g %g", g.proj_x, g.proj_y);
    uint32_t grid[4];
    float depth[4], proj[4];
    gn_cluster_frame_params(&g, grid, depth, proj);
    CHECK(grid[0] == g.x && grid[3] == g.max_lights && depth[0] == g.scale && depth[1] == g.bias &&
              depth[2] == g.near_depth && proj[0] == g.step_x && proj[1] == g.step_y && proj[2] == g.ratio,
          "frame params differ from the grid");
    CHECK(fabs(pow(g.ratio, g.z) * g.near_depth / g.far_depth - 1.0) < 1e-4, "ratio^z = %g, want far/near",
          pow(g.ratio, g.z));

    CHECK(gn_cluster_slice(&g, g.near_depth) == 0, "slice(near) = %u", gn_cluster_slice(&g, g.near_depth));
    CHECK(gn_cluster_slice(&g, g.far_depth) == g.z - 1, "slice(far) = %u", gn_cluster_slice(&g, g.far_depth));
    const float below[] = {0.0f, -1.0f, 1e-20f, 0.01f, 0.0999f, NAN};
    for (int i = 0; i < 6; i++)
        CHECK(gn_cluster_slice(&g, below[i]) == 0, "slice(%g) = %u, want 0", below[i],
              gn_cluster_slice(&g, below[i]));
    const float beyond[] = {1000.1f, 5000.0f, 1e9f, INFINITY};
    for (int i = 0; i < 4; i++)
        CHECK(gn_cluster_slice(&g, beyond[i]) == g.z - 1, "slice(%g) = %u, want %u", beyond[i],
              gn_cluster_slice(&g, beyond[i]), g.z - 1);

    /* Monotonic over 1 mm .. 100 km, every slice reached, each boundary where the bounds put it. */
    uint32_t prev = 0, seen = 0;
    int bad = 0;
    for (int i = 0; i <= 200000; i++) {
        float d = (float)(1e-3 * pow(1e8, i / 200000.0));
        uint32_t s = gn_cluster_slice(&g, d);
        if (s < prev) bad++;
        if (s != prev) seen++;
        prev = s;
    }
    CHECK(bad == 0, "slice decreases with depth at %d samples", bad);
    CHECK(seen == g.z - 1, "%u slice changes, want %u", seen, g.z - 1);
    for (uint32_t k = 1; k < g.z; k++) {
        double b = boundary_depth(&g, k);
        uint32_t lo = gn_cluster_slice(&g, (float)(b * (1 - 1e-5))),
                 hi = gn_cluster_slice(&g, (float)(b * (1 + 1e-5)));
        CHECK(lo == k - 1 && hi == k, "boundary %u at %g m: slices %u | %u", k, b, lo, hi);
    }

    int out_of_range = 0;
    for (int i = 0; i < 100000; i++) {
        uint32_t idx = gn_cluster_index(&g, (float)(rnd() * 2 - 0.5), (float)(rnd() * 2 - 0.5),
                                        (float)(1e-4 * pow(1e9, rnd())));
        if (idx >= gn_cluster_count(&g)) out_of_range++;
    }
    CHECK(out_of_range == 0, "%d indices out of range", out_of_range);
    CHECK(gn_cluster_index(&g, 0.0f, 0.0f, 0.05f) == 0, "top left, nearest: index %u",
          gn_cluster_index(&g, 0.0f, 0.0f, 0.05f));
    CHECK(gn_cluster_index(&g, 1.0f, 1.0f, 1e6f) == gn_cluster_count(&g) - 1,
          "bottom right, farthest: index %u", gn_cluster_index(&g, 1.0f, 1.0f, 1e6f));
}

/* Points sampled inside each froxel (in screen and slice coordinates) lie in its bounds and
 * map back to it; points anywhere, borders included, lie in the bounds of the froxel they map
 * to (what makes a bounds-based binning conservative). */
static void test_bounds(void)
{
    gn_cluster_grid g;
    gn_cluster_grid_init(0, 0, 0, 0, 0.0f, 0.0f, g_proj, &g);
    int outside = 0, wrong = 0, checked = 0;
    for (uint32_t i = 0; i < gn_cluster_count(&g); i++) {
        uint32_t col = i % g.x, row = (i / g.x) % g.y, slice = i / (g.x * g.y);
        float mn[3], mx[3];
        gn_cluster_bounds(&g, i, mn, mx);
        for (int n = 0; n < 16; n++) {
            double u = (col + 0.01 + 0.98 * rnd()) / g.x, s = (row + 0.01 + 0.98 * rnd()) / g.y;
            double k = slice + 0.01 + 0.98 * rnd();
            if (slice == 0 && n % 2) k = -3.0 * rnd();            /* nearer than near */
            if (slice == g.z - 1 && n % 2) k = g.z + 6.0 * rnd(); /* beyond far */
            float v[3], fu, fs, depth;
            from_screen(&g, u, s, boundary_depth(&g, k), v);
            to_screen(&g, v, &fu, &fs, &depth);
            if (!inside(v, mn, mx)) outside++;
            if (gn_cluster_index(&g, fu, fs, depth) != i) wrong++;
            checked++;
        }
    }
    CHECK(outside == 0, "%d of %d points sampled in a froxel lie outside its bounds", outside, checked);
    CHECK(wrong == 0, "%d of %d points sampled in a froxel map to another froxel", wrong, checked);

    outside = 0;
    for (int n = 0; n < 400000; n++) {
        double u = rnd(), s = rnd(), d = 0.05 * pow(1e5, rnd());
        if (n % 4 == 1) u = floor(u * g.x) / g.x;                         /* on a column border */
        if (n % 4 == 2) s = floor(s * g.y) / g.y;                         /* on a row border */
        if (n % 4 == 3) d = boundary_depth(&g, floor(rnd() * (g.z + 1))); /* on a slice border */
        float v[3], fu, fs, depth, mn[3], mx[3];
        from_screen(&g, u, s, d, v);
        to_screen(&g, v, &fu, &fs, &depth);
        gn_cluster_bounds(&g, gn_cluster_index(&g, fu, fs, depth), mn, mx);
        if (!inside(v, mn, mx)) outside++;
    }
    CHECK(outside == 0, "%d of 400000 points lie outside the bounds of the froxel they map to", outside);
}

static uint32_t *slot_of(const gn_cluster_grid *g, uint32_t *lists, uint32_t col, uint32_t row,
                         uint32_t slice)
{
    return lists + (size_t)((slice * g->y + row) * g->x + col) * (g->max_lights + 1);
}

static int list_has(const uint32_t *slot, uint32_t light)
{
    for (uint32_t i = 0; i < slot[0]; i++)
        if (slot[1 + i] == light) return 1;
    return 0;
}

/* A small light centred on a tile border and a slice border reaches into both sides of each. */
static void test_borders(void)
{
    gn_cluster_grid g;
    gn_cluster_grid_init(0, 0, 0, 0, 0.0f, 0.0f, g_proj, &g);
    uint32_t *lists = malloc(sizeof(uint32_t) * gn_cluster_count(&g) * (g.max_lights + 1));
    const uint32_t cases[][3] = {{1, 1, 1}, {8, 4, 10}, {3, 7, 17}, {15, 8, 23}, {12, 2, 5}};
    for (int c = 0; c < 5; c++) {
        uint32_t col = cases[c][0], row = cases[c][1], k = cases[c][2];
        double d = boundary_depth(&g, k);
        for (int type = 0; type < 2; type++) {
            /* On the corner of four tiles (column border col, row border row) at slice border k. */
            float v[3], w[3];
            from_screen(&g, (double)col / g.x, (double)row / g.y, d, v);
            to_world(v, w);
            float fwd[3] = {-g_view[2], -g_view[6], -g_view[10]}; /* the view's -Z in world space */
            gn_light_desc desc = {.type = type ? GN_LIGHT_SPOT : GN_LIGHT_POINT,
                                  .position = {w[0], w[1], w[2]},
                                  .direction = {fwd[0], fwd[1], fwd[2]},
                                  .radius = (float)(1e-3 * d),
                                  .intensity = 1.0f};
            gn_gpu_light l;
            gn_light_pack(&desc, -1, &l);
            uint32_t overflow;
            gn_cluster_bin(&g, &l, 1, g_view, lists, &overflow);
            /* A point light lights all eight froxels around the corner; a spot pointing away from
             * the camera only the four beyond the slice border. */
            for (uint32_t s = (type ? k : k - 1); s <= k && s < g.z; s++)
                for (uint32_t r = row - 1; r <= row && r < g.y; r++)
                    for (uint32_t cc = col - 1; cc <= col && cc < g.x; cc++)
                        CHECK(
                            list_has(slot_of(&g, lists, cc, r, s), 0),
                            "%s on the corner of column %u, row %u, slice %u: missing from froxel (%u %u %u)",
                            type ? "spot" : "point", col, row, k, cc, r, s);
            uint32_t hits = 0;
            for (uint32_t i = 0; i < gn_cluster_count(&g); i++) hits += lists[i * (g.max_lights + 1)];
            CHECK(hits <= 8, "a light of radius %g m binned into %u froxels, want <= 8", desc.radius, hits);
        }
    }
    free(lists);
}

/* Random lights, random lit points: each lit point in view finds its light in its froxel's
 * list unless that list is full. Also: the lists ascend, and the cone test culls. */
static void test_conservative(void)
{
    enum { LIGHTS = 400 };
    gn_cluster_grid g; /* room for every light, so no lit point is excused by a full list */
    gn_cluster_grid_init(0, 0, 0, LIGHTS, 0.0f, 0.0f, g_proj, &g);
    gn_gpu_light lights[LIGHTS];
    for (int i = 0; i < LIGHTS; i++) {
        float v[3], w[3];
        double d = 0.1 * pow(20000.0, rnd());
        from_screen(&g, rnd() * 1.6 - 0.3, rnd() * 1.6 - 0.3, d, v);
        to_world(v, w);
        double th = rnd() * 2 * 3.14159265358979, z = rnd() * 2 - 1, rr = sqrt(1 - z * z);
        float outer = (float)(2 + 85 * rnd());
        gn_light_desc desc = {.type = i % 2 ? GN_LIGHT_SPOT : GN_LIGHT_POINT,
                              .position = {w[0], w[1], w[2]},
                              .direction = {(float)(rr * cos(th)), (float)(rr * sin(th)), (float)z},
                              .radius = (float)(0.05 * pow(400.0, rnd())),
                              .intensity = 1.0f,
                              .outer_angle = outer,
                              .inner_angle = (float)(outer * rnd())};
        gn_light_pack(&desc, -1, &lights[i]);
    }
    size_t words = (size_t)gn_cluster_count(&g) * (g.max_lights + 1);
    uint32_t *lists = malloc(sizeof(uint32_t) * words), overflow;
    gn_cluster_bin(&g, lights, LIGHTS, g_view, lists, &overflow);

    int unordered = 0, full = 0;
    uint32_t per_froxel = 0, scratch[LIGHTS + 1];
    for (uint32_t i = 0; i < gn_cluster_count(&g); i++) {
        const uint32_t *slot = lists + (size_t)i * (g.max_lights + 1);
        for (uint32_t j = 1; j < slot[0]; j++)
            if (slot[1 + j] <= slot[j]) unordered++;
        if (slot[0] == g.max_lights) full++;
        per_froxel += gn_cluster_bin_froxel(&g, i, lights, LIGHTS, g_view, scratch);
        if (memcmp(scratch, slot, sizeof(uint32_t) * (slot[0] + 1)) != 0) unordered += 1000000;
    }
    CHECK(unordered == 0, "%d list entries out of ascending order (or froxel != grid binning)", unordered);
    CHECK(overflow == per_froxel, "overflow %u, per-froxel sum %u", overflow, per_froxel);

    int checked = 0, missed = 0, skipped_full = 0;
    for (int i = 0; i < LIGHTS; i++) {
        const gn_gpu_light *l = &lights[i];
        for (int n = 0; n < 400; n++) {
            /* Uniform in the ball, or just inside its surface, or just inside the cone's edge. */
            double r = l->position_radius[3], dir[3], len;
            do {
                for (int c = 0; c < 3; c++) dir[c] = rnd() * 2 - 1;
                len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            } while (len > 1 || len < 1e-3);
            for (int c = 0; c < 3; c++) dir[c] /= len;
            double dist = r * cbrt(rnd());
            if (n % 4 == 1) dist = r * (1 - pow(10, -1 - 4 * rnd()));
            if (n % 4 >= 2 && l->color_type[3] > 0.5f) {
                /* Rotate the axis towards dir until just inside the outer angle. */
                const float *a = l->direction_cos;
                double dot = dir[0] * a[0] + dir[1] * a[1] + dir[2] * a[2], perp[3], pl;
                for (int c = 0; c < 3; c++) perp[c] = dir[c] - dot * a[c];
                pl = sqrt(perp[0] * perp[0] + perp[1] * perp[1] + perp[2] * perp[2]);
                if (pl < 1e-6) continue;
                double ang = acos(l->direction_cos[3]) * (1 - pow(10, -2 - 4 * rnd()));
                for (int c = 0; c < 3; c++) dir[c] = a[c] * cos(ang) + perp[c] / pl * sin(ang);
            }
            float p[3], rgb[3], to[3], v[3], u, s, depth;
            for (int c = 0; c < 3; c++) p[c] = (float)(l->position_radius[c] + dir[c] * dist);
            gn_light_radiance(l, p, rgb, to);
            if (!(rgb[0] > 0.0f)) continue; /* not lit */
            to_view(p, v);
            to_screen(&g, v, &u, &s, &depth);
            if (!(depth > 0.1f) || u < 0 || u >= 1 || s < 0 || s >= 1) continue; /* not in view */
            const uint32_t *slot = lists + (size_t)gn_cluster_index(&g, u, s, depth) * (g.max_lights + 1);
            if (slot[0] == g.max_lights) {
                skipped_full++;
                continue;
            }
            checked++;
            if (!list_has(slot, (uint32_t)i)) {
                if (missed < 10)
                    fprintf(stderr, "light %d (type %g, r %g) lit point at view (%g %g %g) missed\n", i,
                            l->color_type[3], l->position_radius[3], v[0], v[1], v[2]);
                missed++;
            }
        }
    }
    CHECK(missed == 0, "%d of %d lit points in view miss their light (%d in full froxels skipped)", missed,
          checked, skipped_full);
    CHECK(checked > 20000, "only %d lit points checked", checked);
    CHECK(full == 0 && overflow == 0, "%d froxels full, overflow %u: the test would excuse misses", full,
          overflow);
    printf("conservative: %d lit points checked, %d in full froxels skipped, %d of %u froxels full, overflow "
           "%u\n",
           checked, skipped_full, full, gn_cluster_count(&g), overflow);
    free(lists);
}

/* A spot at the camera looking right lights no froxel on the left half of the screen, though
 * its sphere covers them all. */
static void test_cone_culls(void)
{
    gn_cluster_grid g;
    gn_cluster_grid_init(0, 0, 0, 0, 0.0f, 0.0f, g_proj, &g);
    float v[3] = {0.0f, 0.0f, -0.05f}, w[3], right[3] = {g_view[0], g_view[4], g_view[8]};
    to_world(v, w);
    gn_light_desc desc = {.type = GN_LIGHT_SPOT,
                          .position = {w[0], w[1], w[2]},
                          .direction = {right[0], right[1], right[2]},
                          .radius = 50.0f,
                          .intensity = 1.0f,
                          .outer_angle = 30.0f};
    gn_gpu_light l;
    gn_light_pack(&desc, -1, &l);
    uint32_t *lists = malloc(sizeof(uint32_t) * gn_cluster_count(&g) * (g.max_lights + 1)), overflow;
    gn_cluster_bin(&g, &l, 1, g_view, lists, &overflow);
    uint32_t left = 0, right_hits = 0;
    for (uint32_t i = 0; i < gn_cluster_count(&g); i++) {
        uint32_t col = i % g.x, slice = i / (g.x * g.y);
        if (slice < 2) continue; /* the froxels around the apex touch both sides */
        if (col < g.x / 2 - 1) left += lists[i * (g.max_lights + 1)];
        if (col >= g.x / 2 + 1) right_hits += lists[i * (g.max_lights + 1)];
    }
    CHECK(left == 0, "spot looking right binned into %u froxels on the left", left);
    CHECK(right_hits > 50, "spot looking right binned into only %u froxels on the right", right_hits);
    free(lists);
}

/* 100 lights over one spot, 64 a froxel: every froxel they reach holds exactly the first 64
 * and reports 36 more. */
static void test_overflow(void)
{
    gn_cluster_grid g;
    gn_cluster_grid_init(0, 0, 0, 0, 0.0f, 0.0f, g_proj, &g);
    enum { N = 100 };
    gn_gpu_light lights[N];
    float centre[3] = {0.3f, -0.2f, -10.0f}, cw[3];
    to_world(centre, cw);
    for (int i = 0; i < N; i++) {
        gn_light_desc desc = {.type = GN_LIGHT_POINT, .radius = 1.5f, .intensity = 1.0f};
        for (int c = 0; c < 3; c++) desc.position[c] = cw[c] + (i ? (float)(rnd() - 0.5) * 0.2f : 0.0f);
        gn_light_pack(&desc, -1, &lights[i]);
    }
    uint32_t *lists = malloc(sizeof(uint32_t) * gn_cluster_count(&g) * (g.max_lights + 1)), overflow;
    gn_cluster_bin(&g, lights, N, g_view, lists, &overflow);
    float u, s, depth;
    to_screen(&g, centre, &u, &s, &depth);
    uint32_t at = gn_cluster_index(&g, u, s, depth), scratch[GN_CLUSTER_MAX_LIGHTS + 1];
    const uint32_t *slot = lists + (size_t)at * (g.max_lights + 1);
    uint32_t own = gn_cluster_bin_froxel(&g, at, lights, N, g_view, scratch);
    CHECK(slot[0] == 64 && own == 36, "the froxel under all 100 lights: %u listed, %u overflow; want 64, 36",
          slot[0], own);
    int first = 1;
    for (uint32_t j = 0; j < slot[0]; j++) first &= slot[1 + j] == j;
    CHECK(first, "the full froxel holds lights 0..63 in order");
    uint32_t covered = 0, sum = 0;
    int bad = 0;
    for (uint32_t i = 0; i < gn_cluster_count(&g); i++) {
        uint32_t o = gn_cluster_bin_froxel(&g, i, lights, N, g_view, scratch);
        if (o) covered++, bad += !(scratch[0] == 64 && o + 64 <= 100);
        sum += o;
    }
    CHECK(bad == 0, "%d overflowing froxels without a full list", bad);
    CHECK(covered >= 1 && sum == overflow && overflow >= 36 * covered / 2,
          "%u froxels overflow, %u in all (grid says %u)", covered, sum, overflow);
    free(lists);
}

int main(void)
{
    setup_camera();
    test_grid();
    test_bounds();
    test_borders();
    test_conservative();
    test_cone_culls();
    test_overflow();
    return gn_check_exit();
}

/* The triangle BVH (decide/bvh.c) against what it must equal: (1) on random triangles, on ones
 * whose sizes and places span twelve decades, and on ones that share one centroid, every ray's
 * distance and face equal a loop over all triangles (1e-5 relative); (2) in a closed unit cube
 * wound outwards, rays from inside see back faces at the analytic exit distance, through the faces'
 * diagonals and the corners too, and rays from outside front faces at the entry distance; rays at
 * the cube's edges, and along and at the seams and edges of a wall of quads, hit as the loop does
 * (no ray slips between two triangles or past a box); (3) tmax is respected, a miss and a NULL
 * hierarchy return tmax, bad input and every failed allocation give NULL, degenerate and
 * non-finite triangles are dropped. (4) Times builds over 1.5 M triangles, random ones and a
 * closed room's, and batches of rays in each, and prints the numbers (a benchmark: no time is
 * asserted); checks a few rays against the loop and that no ray leaves the room. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "decide/bvh.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "check.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* splitmix64: fixed seed, the same sequence on every platform */
static float rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)(z >> 40) / 16777216.0f; /* [0, 1) */
}

static float rnd_in(float lo, float hi) { return lo + (hi - lo) * rnd(); }

static void rnd_dir(float d[3])
{
    float l2;
    do {
        for (int a = 0; a < 3; a++) d[a] = rnd_in(-1, 1);
        l2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    } while (l2 > 1.0f || l2 < 1e-4f);
    float l = sqrtf(l2);
    for (int a = 0; a < 3; a++) d[a] /= l;
}

static void aim(const float o[3], const float at[3], float d[3])
{
    float l = sqrtf((at[0] - o[0]) * (at[0] - o[0]) + (at[1] - o[1]) * (at[1] - o[1]) +
                    (at[2] - o[2]) * (at[2] - o[2]));
    for (int a = 0; a < 3; a++) d[a] = (at[a] - o[a]) / l;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Möller-Trumbore over every triangle, the formula and epsilons of bvh.c written out again: a
 * difference is the hierarchy's (its build or its traversal), not the intersection's. */
static float brute_ray(const float *tris, uint32_t n, const float o[3], const float d[3], float tmax,
                       bool *back)
{
    float best = tmax;
    *back = false;
    for (uint32_t i = 0; i < n; i++) {
        const float *t = tris + (size_t)i * 9;
        float e1[3], e2[3], s[3];
        for (int a = 0; a < 3; a++) e1[a] = t[3 + a] - t[a], e2[a] = t[6 + a] - t[a], s[a] = o[a] - t[a];
        float p[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
        float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
        if (fabsf(det) < 1e-18f) continue;
        float inv = 1.0f / det;
        float s1 = fabsf(s[0]) + fabsf(s[1]) + fabsf(s[2]), err = 4.0f * FLT_EPSILON * s1 * fabsf(inv);
        float u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
        float slack_u = 1e-6f + err * (fabsf(p[0]) + fabsf(p[1]) + fabsf(p[2]));
        if (u < -slack_u || u > 1.0f + slack_u) continue;
        float q[3] = {s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]};
        float v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
        float slack_v = 1e-6f + err * (fabsf(e1[0]) + fabsf(e1[1]) + fabsf(e1[2]));
        if (v < -slack_v || u + v > 1.0f + slack_u + slack_v) continue;
        float tt = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
        if (tt > 0.0f && tt < best) best = tt, *back = det < 0.0f;
    }
    return best;
}

static bool same_t(float a, float b) { return a == b || fabsf(a - b) <= 1e-5f * fabsf(b); }

/* Casts `rays` rays (half aimed at a random triangle's inside, a tenth along an axis, the rest
 * random; tmax infinite, 2 x extent or extent / 4 in turn) and returns how many the BVH and the
 * loop disagree on; *hits counts the rays that hit. */
static uint32_t compare_rays(const gn_bvh *b, const float *tris, uint32_t n, float lo, float hi,
                             uint32_t rays, uint32_t *hits)
{
    uint32_t bad = 0;
    *hits = 0;
    for (uint32_t r = 0; r < rays; r++) {
        float o[3], d[3];
        for (int a = 0; a < 3; a++) o[a] = rnd_in(lo, hi);
        if (r % 2 == 0) {
            const float *t = tris + (size_t)(rnd() * (float)n) % n * 9;
            float u = rnd(), v = rnd() * (1.0f - u), at[3];
            for (int a = 0; a < 3; a++) at[a] = t[a] + u * (t[3 + a] - t[a]) + v * (t[6 + a] - t[a]);
            aim(o, at, d);
        } else if (r % 10 == 1) {
            memset(d, 0, sizeof d);
            d[r / 10 % 3] = (r / 30) % 2 ? 1.0f : -1.0f;
        } else {
            rnd_dir(d);
        }
        float tmax = r % 3 == 0 ? INFINITY : r % 3 == 1 ? 2.0f * (hi - lo) : (hi - lo) / 4.0f;
        bool bb = true, wb;
        float tb = gn_bvh_ray(b, o, d, tmax, &bb), tw = brute_ray(tris, n, o, d, tmax, &wb);
        if (tw < tmax) ++*hits;
        if (same_t(tb, tw) && bb == wb) continue;
        if (bad++ < 5)
            fprintf(stderr,
                    "ray %u from (%g %g %g) along (%g %g %g), tmax %g: bvh %.9g back %d, loop %.9g back %d\n",
                    r, o[0], o[1], o[2], d[0], d[1], d[2], tmax, tb, bb, tw, wb);
    }
    return bad;
}

static void test_random(void)
{
    enum { N = 3000, RAYS = 4000 };
    float *tris = malloc(sizeof(float) * 9 * N);
    for (int i = 0; i < N; i++) {
        float *t = tris + i * 9;
        for (int a = 0; a < 3; a++) t[a] = rnd_in(-10, 10);
        for (int a = 0; a < 3; a++) t[3 + a] = t[a] + rnd_in(-2, 2), t[6 + a] = t[a] + rnd_in(-2, 2);
    }
    gn_bvh *b = gn_bvh_build(tris, N);
    CHECK(b && gn_bvh_triangle_count(b) == N, "random: %u of %d triangles kept", gn_bvh_triangle_count(b), N);
    uint32_t hits, bad = compare_rays(b, tris, N, -15, 15, RAYS, &hits);
    CHECK(bad == 0, "random: %u of %d rays differ from the loop", bad, RAYS);
    CHECK(hits > RAYS / 2 && hits < RAYS, "random: %u of %d rays hit (a test that sees both)", hits, RAYS);
    gn_bvh_free(b);

    /* sizes and places growing by 1.15 a triangle, 1e-6 to 1e6 m: binning sees most of them in
     * its first bin, so SAH peels a few at a time and the tree is deep and lopsided */
    enum { M = 200 };
    for (int i = 0; i < M; i++) {
        float *t = tris + i * 9, s = 1e-6f * powf(1.15f, (float)i);
        for (int a = 0; a < 3; a++) t[a] = s * rnd_in(0.5f, 1.5f);
        for (int a = 0; a < 3; a++)
            t[3 + a] = t[a] + s * rnd_in(-0.3f, 0.3f), t[6 + a] = t[a] + s * rnd_in(-0.3f, 0.3f);
    }
    b = gn_bvh_build(tris, M);
    CHECK(b && gn_bvh_triangle_count(b) == M, "scales: %u of %d triangles kept", gn_bvh_triangle_count(b), M);
    /* origins near the small ones, where the scales matter */
    bad = compare_rays(b, tris, M, 0, 1e-3f, RAYS, &hits);
    CHECK(bad == 0, "scales: %u of %d rays differ from the loop", bad, RAYS);
    CHECK(hits > RAYS / 8, "scales: %u of %d rays hit", hits, RAYS);
    gn_bvh_free(b);

    /* 64 triangles whose bounds are all [-1, 1]^3: their centroids (the bounds' centres) are one
     * point, no plane parts them, and the build halves them as they come */
    enum { K = 64 };
    for (int i = 0; i < K; i++) {
        float *t = tris + i * 9;
        const float c[3][3] = {{-1, -1, rnd_in(-1, 1)}, {1, rnd_in(-1, 1), -1}, {rnd_in(-1, 1), 1, 1}};
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++) t[k * 3 + a] = c[k][(a + i) % 3]; /* axes turned by i */
    }
    b = gn_bvh_build(tris, K);
    CHECK(b && gn_bvh_triangle_count(b) == K, "one centroid: %u of %d triangles kept",
          gn_bvh_triangle_count(b), K);
    bad = compare_rays(b, tris, K, -2, 2, RAYS, &hits);
    CHECK(bad == 0, "one centroid: %u of %d rays differ from the loop", bad, RAYS);
    CHECK(hits > RAYS / 2, "one centroid: %u of %d rays hit", hits, RAYS);
    gn_bvh_free(b);
    free(tris);
}

/* The unit cube [0, 1]^3 as 12 triangles, each wound so that (b-a)x(c-a) points out of the cube. */
static void unit_cube(float out[12 * 9])
{
    int k = 0;
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++) {
            /* u x v is +axis a (cyclic order); the face at 0 takes its quad the other way round */
            float q[4][3] = {{0}};
            int u = (a + 1) % 3, v = (a + 2) % 3;
            for (int c = 0; c < 4; c++) q[c][a] = (float)side;
            q[1][u] = 1, q[2][u] = 1, q[2][v] = 1, q[3][v] = 1;
            int order[2][2][3] = {{{0, 2, 1}, {0, 3, 2}}, {{0, 1, 2}, {0, 2, 3}}};
            for (int t = 0; t < 2; t++)
                for (int c = 0; c < 3; c++)
                    memcpy(&out[(k + t) * 9 + c * 3], q[order[side][t][c]], sizeof(float) * 3);
            k += 2;
        }
}

/* Exit (inside) or entry (outside) distance of the unit cube along d, analytic. */
static float cube_exit(const float o[3], const float d[3])
{
    float t = INFINITY;
    for (int a = 0; a < 3; a++) {
        if (d[a] > 0.0f) t = fminf(t, (1.0f - o[a]) / d[a]);
        if (d[a] < 0.0f) t = fminf(t, -o[a] / d[a]);
    }
    return t;
}

static float cube_entry(const float o[3], const float d[3])
{
    float t0 = 0.0f, t1 = INFINITY;
    for (int a = 0; a < 3; a++) {
        float ta = (0.0f - o[a]) / d[a], tb = (1.0f - o[a]) / d[a];
        t0 = fmaxf(t0, fminf(ta, tb)), t1 = fminf(t1, fmaxf(ta, tb));
    }
    return t0 <= t1 ? t0 : INFINITY;
}

static void test_cube(void)
{
    float cube[12 * 9];
    unit_cube(cube);
    for (int i = 0; i < 12; i++) {
        const float *t = cube + i * 9;
        float e1[3], e2[3], n[3], c[3];
        for (int a = 0; a < 3; a++) e1[a] = t[3 + a] - t[a], e2[a] = t[6 + a] - t[a];
        n[0] = e1[1] * e2[2] - e1[2] * e2[1], n[1] = e1[2] * e2[0] - e1[0] * e2[2],
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (int a = 0; a < 3; a++) c[a] = (t[a] + t[3 + a] + t[6 + a]) / 3.0f - 0.5f;
        CHECK(n[0] * c[0] + n[1] * c[1] + n[2] * c[2] > 0.0f, "cube triangle %d wound inwards", i);
    }
    gn_bvh *b = gn_bvh_build(cube, 12);
    CHECK(b && gn_bvh_triangle_count(b) == 12, "cube: %u triangles kept", gn_bvh_triangle_count(b));
    /* from inside: random, then along the axes from the centre (through the diagonals of the
     * faces' quads) and towards the 8 corners (through 3 triangles' shared corner) */
    int bad_in = 0, bad_out = 0;
    for (int r = 0; r < 2000 + 6 + 8; r++) {
        float o[3] = {0.5f, 0.5f, 0.5f}, d[3] = {0, 0, 0};
        if (r < 2000) {
            for (int a = 0; a < 3; a++) o[a] = rnd_in(0.05f, 0.95f);
            rnd_dir(d);
        } else if (r < 2006) {
            d[(r - 2000) % 3] = r < 2003 ? 1.0f : -1.0f;
        } else {
            float at[3] = {(float)((r - 2006) & 1), (float)((r - 2006) >> 1 & 1),
                           (float)((r - 2006) >> 2 & 1)};
            aim(o, at, d);
        }
        bool back = false;
        float t = gn_bvh_ray(b, o, d, 10.0f, &back), want = cube_exit(o, d);
        if (!back || fabsf(t - want) > 1e-5f * want) {
            if (bad_in++ < 5)
                fprintf(stderr,
                        "inside ray %d (%g %g %g) along (%g %g %g): t %.9g back %d, want %.9g back 1\n", r,
                        o[0], o[1], o[2], d[0], d[1], d[2], t, back, want);
        }
    }
    CHECK(bad_in == 0, "cube: %d of 2014 rays from inside wrong", bad_in);
    /* from outside: from a sphere of radius 3 around the centre, at a random point inside */
    for (int r = 0; r < 2000; r++) {
        float o[3], d[3], at[3];
        rnd_dir(d);
        for (int a = 0; a < 3; a++) o[a] = 0.5f + 3.0f * d[a], at[a] = rnd_in(0.02f, 0.98f);
        aim(o, at, d);
        bool back = true;
        float t = gn_bvh_ray(b, o, d, 10.0f, &back), want = cube_entry(o, d);
        if (back || fabsf(t - want) > 1e-5f * want) {
            if (bad_out++ < 5)
                fprintf(stderr,
                        "outside ray %d (%g %g %g) along (%g %g %g): t %.9g back %d, want %.9g back 0\n", r,
                        o[0], o[1], o[2], d[0], d[1], d[2], t, back, want);
        }
    }
    CHECK(bad_out == 0, "cube: %d of 2000 rays from outside wrong", bad_out);
    gn_bvh_free(b);
}

/* Seams, where rounding can put a hit a few ulps outside every triangle that shares the edge (or
 * outside the flat boxes that hold them). From inside the cube, at random points on its 12 edges
 * and its faces' 6 diagonals: each ray hits, at the aim point. And a wall of 8 quads stacked along
 * y, seen from origins on the planes between them and moving along those planes (d.y = 0), where
 * a slab test would take 0 / 0: each ray hits the wall. */
static void test_seams(void)
{
    float cube[12 * 9];
    unit_cube(cube);
    gn_bvh *b = gn_bvh_build(cube, 12);
    int leaks = 0;
    for (int r = 0; r < 18000; r++) {
        float o[3], at[3], d[3], s = rnd();
        for (int a = 0; a < 3; a++) o[a] = rnd_in(0.05f, 0.95f);
        int e = r % 18;
        if (e < 12) { /* an edge along axis e / 4 */
            int a = e / 4;
            at[a] = s, at[(a + 1) % 3] = (float)(e & 1), at[(a + 2) % 3] = (float)(e >> 1 & 1);
        } else { /* a diagonal: from the quad's corner 0 to its corner 2 (unit_cube) */
            int a = (e - 12) / 2;
            at[a] = (float)((e - 12) & 1), at[(a + 1) % 3] = s, at[(a + 2) % 3] = s;
        }
        aim(o, at, d);
        float want = sqrtf((at[0] - o[0]) * (at[0] - o[0]) + (at[1] - o[1]) * (at[1] - o[1]) +
                           (at[2] - o[2]) * (at[2] - o[2]));
        bool back = false;
        float t = gn_bvh_ray(b, o, d, 10.0f, &back);
        if (!back || !(fabsf(t - want) <= 1e-5f * want)) {
            if (leaks++ < 5)
                fprintf(stderr, "seam ray %d (%g %g %g) at (%g %g %g): t %.9g back %d, want %.9g\n", r, o[0],
                        o[1], o[2], at[0], at[1], at[2], t, back, want);
        }
    }
    CHECK(leaks == 0, "cube seams: %d of 18000 rays at edges wrong", leaks);
    gn_bvh_free(b);

    /* a wall at x = 2 of 8 quads stacked along y from -4 to 4, z from 0 to 1 */
    float wall[16 * 9];
    for (int k = 0; k < 8; k++) {
        const float y0 = (float)(k - 4), y1 = (float)(k - 3);
        const float q[2][9] = {{2, y0, 0, 2, y1, 0, 2, y1, 1}, {2, y0, 0, 2, y1, 1, 2, y0, 1}};
        memcpy(&wall[k * 18], q, sizeof q);
    }
    b = gn_bvh_build(wall, 16);
    int wrong = 0, hits = 0;
    for (int r = 0; r < 12000; r++) {
        float o[3], d[3], at[3] = {0, 0, 0},
                          sign = r / 4 % 2 ? -0.0f : 0.0f; /* at: gcc -O3 cannot see it is set where read */
        if (r % 4 == 0) { /* from a plane y = -4..4 (the ends and the seams), along it */
            o[0] = rnd_in(-1, 1), o[1] = (float)(r / 8 % 9 - 4), o[2] = rnd_in(0.2f, 0.8f);
            d[0] = 1, d[1] = sign, d[2] = r % 8 ? rnd_in(-0.05f, 0.05f) : 0.0f;
        } else if (r % 4 == 1) { /* from the plane z = 0 or 1 (the wall's bottom or top), along it */
            o[0] = rnd_in(-1, 1), o[1] = rnd_in(-3.5f, 3.5f), o[2] = (float)(r / 8 % 2);
            d[0] = 1, d[1] = rnd_in(-0.05f, 0.05f), d[2] = sign;
        } else { /* from near or 100-1000 m away, at the bottom or top edge or a seam */
            float far = r % 4 == 3 ? rnd_in(100, 1000) : rnd_in(0.5f, 3);
            rnd_dir(d);
            for (int a = 0; a < 3; a++) o[a] = 0.5f + far * d[a];
            o[0] = 2.0f - fabsf(o[0] - 2.0f) - 0.1f; /* in front of the wall */
            at[0] = 2.0f, at[1] = rnd_in(-4, 4), at[2] = rnd_in(0, 1);
            if (r % 3) /* an edge, else a seam */
                at[2] = (float)(r / 4 % 2);
            else
                at[1] = (float)(r / 4 % 7 - 3);
        }
        if (r % 4 < 2) {
            float l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            for (int a = 0; a < 3; a++) d[a] /= l;
        } else {
            aim(o, at, d);
        }
        bool bb, wb;
        float t = gn_bvh_ray(b, o, d, 2000.0f, &bb), want = brute_ray(wall, 16, o, d, 2000.0f, &wb);
        /* along y's planes the hit is known: they run through the wall's middle */
        if (r % 4 == 0) want = (2.0f - o[0]) / d[0], wb = true;
        hits += t < 2000.0f;
        if (same_t(t, want) && bb == wb) continue;
        if (wrong++ < 5)
            fprintf(stderr, "wall ray %d (%g %g %g) along (%g %g %g): t %.9g back %d, want %.9g back %d\n", r,
                    o[0], o[1], o[2], d[0], d[1], d[2], t, bb, want, wb);
    }
    CHECK(wrong == 0, "wall: %d of 12000 rays along its planes or at its edges and seams differ", wrong);
    CHECK(hits > 11000, "wall: only %d of 12000 rays hit", hits);
    gn_bvh_free(b);
}

static void test_limits(void)
{
    float cube[12 * 9];
    unit_cube(cube);
    gn_bvh *b = gn_bvh_build(cube, 12);
    const float c[3] = {0.5f, 0.5f, 0.5f}, x[3] = {1, 0, 0};
    bool back = true;
    float t = gn_bvh_ray(b, c, x, 0.4f, &back);
    CHECK(t == 0.4f && !back, "tmax 0.4 before the wall at 0.5: t %g back %d", t, back);
    back = true;
    t = gn_bvh_ray(b, c, x, 0.5f, &back);
    CHECK(t == 0.5f && !back, "tmax 0.5, the wall at 0.5 (t < tmax only): t %g back %d", t, back);
    t = gn_bvh_ray(b, c, x, 0.6f, &back);
    CHECK(fabsf(t - 0.5f) < 1e-6f && back, "tmax 0.6: t %g back %d", t, back);
    t = gn_bvh_ray(b, c, x, 0.6f, NULL);
    CHECK(fabsf(t - 0.5f) < 1e-6f, "back NULL: t %g", t);
    /* a miss: outside, looking away, or past the cube */
    const float out[3] = {3, 0.5f, 0.5f}, past[3] = {0, 0, 1};
    back = true;
    t = gn_bvh_ray(b, out, x, 100.0f, &back);
    CHECK(t == 100.0f && !back, "miss: t %g back %d", t, back);
    t = gn_bvh_ray(b, out, past, INFINITY, &back);
    CHECK(isinf(t) && !back, "miss, tmax infinite: t %g back %d", t, back);
    back = true;
    t = gn_bvh_ray(NULL, c, x, 7.0f, &back);
    CHECK(t == 7.0f && !back, "NULL bvh: t %g back %d", t, back);
    CHECK(gn_bvh_triangle_count(NULL) == 0, "NULL bvh: %u triangles", gn_bvh_triangle_count(NULL));
    gn_bvh_free(b);
    gn_bvh_free(NULL);

    CHECK(gn_bvh_build(cube, 0) == NULL, "0 triangles built");
    CHECK(gn_bvh_build(NULL, 12) == NULL, "NULL triangles built");
    /* over the cap: refused before a corner is read (cube holds 12) */
    CHECK(gn_bvh_build(cube, GN_BVH_MAX_TRIANGLES + 1u) == NULL, "over the cap built");

    /* the cube and six bad triangles among its own: a repeated corner, collinear corners (which
     * rounding does not leave exactly collinear), all corners at one point, a NaN, an infinity,
     * and corners so far out that the edges' products overflow */
    float mixed[18 * 9];
    memcpy(mixed, cube, sizeof cube);
    const float bad[6][9] = {
        {0, 0, 0, 1, 1, 0, 1, 1, 0},        {0.1f, 0.2f, 0.3f, 0.3f, 0.6f, 0.9f, 0.7f, 1.4f, 2.1f},
        {2, 2, 2, 2, 2, 2, 2, 2, 2},        {0, 0, 0, 1, 0, 0, 0, NAN, 1},
        {0, 0, 0, 1, 0, 0, 0, INFINITY, 1}, {-3e30f, 0, 0, 3e30f, 0, 0, 0, 3e30f, 0}};
    for (int i = 0; i < 6; i++) memcpy(&mixed[(12 + i) * 9], bad[i], sizeof bad[i]);
    /* interleaved, so dropping is not only at the end */
    for (int i = 0; i < 6; i++) {
        float tmp[9];
        memcpy(tmp, &mixed[i * 2 * 9], sizeof tmp);
        memcpy(&mixed[i * 2 * 9], &mixed[(12 + i) * 9], sizeof tmp);
        memcpy(&mixed[(12 + i) * 9], tmp, sizeof tmp);
    }
    b = gn_bvh_build(mixed, 18);
    CHECK(b && gn_bvh_triangle_count(b) == 12, "cube + 6 degenerate: %u kept", gn_bvh_triangle_count(b));
    t = gn_bvh_ray(b, c, x, 10.0f, &back);
    CHECK(fabsf(t - 0.5f) < 1e-6f && back, "cube + 6 degenerate: t %g back %d", t, back);
    gn_bvh_free(b);
    b = gn_bvh_build(&mixed[0], 1); /* only the repeated corner */
    CHECK(b && gn_bvh_triangle_count(b) == 0, "all dropped: %p, %u kept", (void *)b,
          gn_bvh_triangle_count(b));
    back = true;
    t = gn_bvh_ray(b, c, x, 10.0f, &back);
    CHECK(t == 10.0f && !back, "all dropped: t %g back %d", t, back);
    gn_bvh_free(b);

    /* each allocation failing in turn: NULL, and nothing leaks (the sanitizer build checks) */
    int nulls = 0, n;
    for (n = 1; n < 16; n++) {
        gn_alloc_fail_nth((uint64_t)n);
        b = gn_bvh_build(cube, 12);
        uint64_t failed = gn_alloc_failures();
        gn_alloc_disarm();
        if (!b) nulls++;
        CHECK(!failed || !b, "allocation %d failed, yet a hierarchy was built", n);
        gn_bvh_free(b);
        if (!failed) break;
    }
    CHECK(n > 1 && n < 16 && nulls == n - 1, "%d allocations, %d builds NULL", n - 1, nulls);
}

/* A closed room, w x h x w metres, each face a g x g grid of quads: 12 g^2 triangles wound out. */
static float *room(int g, float w, float h, uint32_t *n)
{
    const float size[3] = {w, h, w};
    float *t = malloc(sizeof(float) * 9 * 12 * (size_t)g * (size_t)g);
    if (!t) return NULL;
    size_t k = 0;
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++) {
            int u = (a + 1) % 3, v = (a + 2) % 3;
            const int order[2][2][3] = {{{0, 2, 1}, {0, 3, 2}}, {{0, 1, 2}, {0, 2, 3}}};
            for (int i = 0; i < g; i++)
                for (int j = 0; j < g; j++) {
                    float q[4][3];
                    for (int c = 0; c < 4; c++) {
                        q[c][a] = (float)side * size[a];
                        q[c][u] = size[u] * (float)(i + (c == 1 || c == 2)) / (float)g;
                        q[c][v] = size[v] * (float)(j + (c >= 2)) / (float)g;
                    }
                    for (int tr = 0; tr < 2; tr++, k++)
                        for (int c = 0; c < 3; c++)
                            memcpy(&t[k * 9 + c * 3], q[order[side][tr][c]], sizeof q[0]);
                }
        }
    *n = (uint32_t)k;
    return t;
}

/* Rays from random points in random directions: prints their rate, hits and mean distance, and
 * returns the misses. */
static int time_rays(const char *what, const gn_bvh *b, const float lo[3], const float hi[3], float tmax,
                     int rays)
{
    int hits = 0;
    double sum = 0.0, t0 = now_s();
    for (int r = 0; r < rays; r++) {
        float o[3], d[3];
        for (int a = 0; a < 3; a++) o[a] = rnd_in(lo[a], hi[a]);
        rnd_dir(d);
        float t = gn_bvh_ray(b, o, d, tmax, NULL);
        if (t < tmax) hits++, sum += t;
    }
    double s = now_s() - t0;
    printf("bvh: %s: %d rays, tmax %g m: %.0f ms, %.2f M rays/s, %.1f%% hit at %.1f m on average\n", what,
           rays, (double)tmax, s * 1e3, (double)rays / s * 1e-6, 100.0 * hits / rays,
           hits ? sum / hits : 0.0);
    return rays - hits;
}

static void bench(void)
{
    enum { N = 1500000, RAYS = 100000, CHECKED = 16 };
    float *tris = malloc(sizeof(float) * 9 * N);
    if (!tris) {
        CHECK(tris, "bench: no memory for %d triangles", N);
        return;
    }
    /* up to 30 cm triangles strewn in a 200 m box: no walls, so a ray crosses a long way of
     * clutter, the hard case; tmax 40 m is the probes' default extent */
    for (int i = 0; i < N; i++) {
        float *t = tris + (size_t)i * 9;
        for (int a = 0; a < 3; a++) t[a] = rnd_in(-100, 100);
        for (int a = 0; a < 3; a++)
            t[3 + a] = t[a] + rnd_in(-0.3f, 0.3f), t[6 + a] = t[a] + rnd_in(-0.3f, 0.3f);
    }
    double t0 = now_s();
    gn_bvh *b = gn_bvh_build(tris, N);
    double build = now_s() - t0;
    CHECK(b && gn_bvh_triangle_count(b) == N, "bench: %u of %d kept", gn_bvh_triangle_count(b), N);
    printf("bvh: build of %d random triangles %.0f ms\n", N, build * 1e3);
    const float lo[3] = {-100, -100, -100}, hi[3] = {100, 100, 100};
    time_rays("clutter", b, lo, hi, INFINITY, RAYS);
    time_rays("clutter", b, lo, hi, 40.0f, RAYS);
    uint32_t hits, bad = compare_rays(b, tris, N, -100, 100, CHECKED, &hits);
    CHECK(bad == 0, "bench: %u of %d rays differ from the loop over 1.5 M triangles", bad, CHECKED);
    gn_bvh_free(b);
    free(tris);

    /* a closed 40 x 10 x 40 m room of 1.5 M triangles (11 x 3 cm): rays from inside end on a
     * wall, and not one slips through a seam (3 cm triangles 30 m off are where rounding bites) */
    uint32_t n;
    tris = room(354, 40, 10, &n);
    if (!tris) {
        CHECK(tris, "bench: no memory for the room");
        return;
    }
    t0 = now_s();
    b = gn_bvh_build(tris, n);
    build = now_s() - t0;
    CHECK(b && gn_bvh_triangle_count(b) == n, "room: %u of %u kept", gn_bvh_triangle_count(b), n);
    printf("bvh: build of a room of %u triangles %.0f ms\n", n, build * 1e3);
    const float in_lo[3] = {0.5f, 0.5f, 0.5f}, in_hi[3] = {39.5f, 9.5f, 39.5f};
    int leaks = time_rays("room", b, in_lo, in_hi, 100.0f, 500000);
    CHECK(leaks == 0, "room: %d of 500000 rays from inside left it", leaks);
    gn_bvh_free(b);
    free(tris);
}

int main(void)
{
    test_random();
    test_cube();
    test_seams();
    test_limits();
    bench();
    return gn_check_exit();
}

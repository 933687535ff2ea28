/* Sun cascades: splits, bounding spheres, texel snapping (no shimmer), the rounded pivot under a
 * turning sun, caster culling, the staggered schedule, cascade selection and the light basis. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "decide/camera.h"
#include "decide/csm.h"

#define DEG 0.017453292519943295
#define FOV (60.0 * DEG)
#define ASPECT (16.0f / 9.0f)

static uint32_t rng_state = 12345u;
static double rnd(void) /* uniform in [0, 1): a fixed LCG so every run checks the same cases */
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) / 16777216.0;
}

static gn_csm_settings defaults(void)
{
    gn_csm_settings s = {.cascades = 4,
                         .resolution = 2048,
                         .near_plane = 0.1f,
                         .shadow_distance = 400.0f,
                         .split_lambda = 0.6f,
                         .overlap = 0.1f,
                         .update_period = {1, 1, 2, 4, 4, 4, 4, 4},
                         .pivot_grid = 4096.0f,
                         .min_caster_texels = 3.0f,
                         .caster_extension = 1000.0f};
    return s;
}

static void sun_at(double elevation_deg, double azimuth_deg, float out[3])
{
    double e = elevation_deg * DEG, a = azimuth_deg * DEG; /* azimuth from north (-Z) towards east */
    out[0] = (float)(cos(e) * sin(a));
    out[1] = (float)sin(e);
    out[2] = (float)(-cos(e) * cos(a));
}

static void compute(const gn_csm_settings *s, const float pos[3], float yaw, float pitch, const float sun[3],
                    gn_csm_cascade out[GN_CSM_MAX])
{
    float view[16];
    gn_camera_view(pos, yaw, pitch, view);
    gn_csm_compute(s, pos, view, (float)FOV, ASPECT, sun, out);
}

static void mul_point(const float m[16], const float p[3], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = (double)m[r] * p[0] + (double)m[4 + r] * p[1] + (double)m[8 + r] * p[2] + m[12 + r];
}

/* The point's position in the shadow map in texels (0..res across), from view_proj, in double so
 * the test measures the matrix and not its own rounding. */
static void texel_pos(const gn_csm_cascade *c, uint32_t res, const float p[3], double uv[2])
{
    double clip[3];
    mul_point(c->view_proj, p, clip);
    uv[0] = (clip[0] * 0.5 + 0.5) * res;
    uv[1] = (clip[1] * 0.5 + 0.5) * res;
}

static double frac_dist(double d) { return fabs(d - floor(d + 0.5)); } /* distance to an integer */

static void light_to_world(const gn_csm_cascade *c, const double l[3], float out[3])
{
    /* light_view = [R | t]: world = R^T (l - t). */
    for (int k = 0; k < 3; k++) {
        double w = 0.0;
        for (int r = 0; r < 3; r++) w += (double)c->light_view[k * 4 + r] * (l[r] - c->light_view[12 + r]);
        out[k] = (float)w;
    }
}

static void test_splits(void)
{
    gn_csm_settings s = defaults();
    float f[GN_CSM_MAX];
    gn_csm_split_distances(&s, f);
    for (uint32_t i = 1; i < s.cascades; i++)
        CHECK(f[i] > f[i - 1], "split %u = %g not above split %u = %g", i, f[i], i - 1, f[i - 1]);
    CHECK(f[3] == 400.0f, "last split %g, want shadow_distance 400 exactly", f[3]);

    s.split_lambda = 0.0f;
    gn_csm_split_distances(&s, f);
    for (uint32_t i = 0; i < 4; i++) {
        float want = 0.1f + (400.0f - 0.1f) * (i + 1) / 4.0f;
        CHECK(fabsf(f[i] - want) < 1e-3f, "uniform split %u = %g, want %g +- 1e-3", i, f[i], want);
    }

    s.split_lambda = 1.0f;
    gn_csm_split_distances(&s, f);
    double ratio = pow(400.0 / 0.1, 0.25); /* log splits: each far is the previous times this */
    double prev = 0.1;
    for (uint32_t i = 0; i < 4; i++) {
        CHECK(fabs(f[i] / prev - ratio) < 1e-4 * ratio, "log split %u ratio %g, want %g (1e-4 rel)", i,
              f[i] / prev, ratio);
        prev = f[i];
    }

    /* A near plane of 1 mm is clamped to 5 cm before the log scheme uses it. */
    s.near_plane = 0.001f;
    gn_csm_split_distances(&s, f);
    CHECK(fabs(f[0] - 0.05 * pow(400.0 / 0.05, 0.25)) < 1e-3, "clamped near: first split %g", f[0]);

    gn_csm_settings e = defaults();
    e.explicit_splits = true;
    float given[4] = {12.5f, 40.0f, 150.0f, 400.0f};
    memcpy(e.splits, given, sizeof given);
    gn_csm_split_distances(&e, f);
    for (uint32_t i = 0; i < 4; i++)
        CHECK(f[i] == given[i], "explicit split %u = %g, want %g exactly", i, f[i], given[i]);
    /* Out of order explicit splits still come out strictly increasing. */
    float bad[4] = {50.0f, 20.0f, 20.0f, 400.0f};
    memcpy(e.splits, bad, sizeof bad);
    gn_csm_split_distances(&e, f);
    CHECK(f[0] < f[1] && f[1] < f[2] && f[2] < f[3] && f[3] == 400.0f,
          "repaired splits %g %g %g %g not strictly increasing to 400", f[0], f[1], f[2], f[3]);
}

/* The camera frustum's 8 corners between view depths n and f, in world space. */
static void slice_corners(const float pos[3], float yaw, float pitch, double n, double f, float out[8][3])
{
    float view[16], inv[16];
    gn_camera_view(pos, yaw, pitch, view);
    gn_mat4_inverse(view, inv);
    double ty = tan(0.5 * FOV), tx = ty * ASPECT;
    for (int i = 0; i < 8; i++) {
        double d = (i & 4) ? f : n;
        float v[3] = {(float)((i & 1 ? 1 : -1) * tx * d), (float)((i & 2 ? 1 : -1) * ty * d), (float)-d};
        double w[3];
        mul_point(inv, v, w);
        for (int k = 0; k < 3; k++) out[i][k] = (float)w[k];
    }
}

/* The minimal enclosing radius by a different route than csm.c: ternary search over the centre's
 * depth on the axis (the max of distances is convex in it). */
static double minimal_radius(double n, double f)
{
    double ty = tan(0.5 * FOV), tx = ty * ASPECT, k = sqrt(tx * tx + ty * ty);
    double lo = 0.0, hi = 2.0 * f;
    for (int it = 0; it < 200; it++) {
        double a = lo + (hi - lo) / 3.0, b = hi - (hi - lo) / 3.0;
        double ga = fmax(hypot(a - n, k * n), hypot(a - f, k * f));
        double gb = fmax(hypot(b - n, k * n), hypot(b - f, k * f));
        if (ga < gb)
            hi = b;
        else
            lo = a;
    }
    double t = 0.5 * (lo + hi);
    return fmax(hypot(t - n, k * n), hypot(t - f, k * f));
}

static void test_spheres(void)
{
    gn_csm_settings s = defaults();
    float pos[3] = {37.0f, 12.0f, -81.0f}, sun[3];
    sun_at(35.0, 140.0, sun);
    gn_csm_cascade ref[GN_CSM_MAX];
    compute(&s, pos, 0.0f, 0.0f, sun, ref);
    for (uint32_t i = 0; i < s.cascades; i++) {
        double rmin = minimal_radius(ref[i].near_depth, ref[i].blend_end);
        CHECK(ref[i].radius >= rmin - 1e-4 && ref[i].radius < 1.05 * rmin,
              "cascade %u radius %g vs minimal %g: want within [1, 1.05)", i, ref[i].radius, rmin);
        CHECK(fabsf(ref[i].texel - 2.0f * ref[i].radius / s.resolution) < 1e-9f, "cascade %u texel %g", i,
              ref[i].texel);
    }
    float worst_out = 0.0f, worst_clip = 0.0f;
    for (int t = 0; t < 100; t++) {
        float yaw = (float)(360.0 * rnd() - 180.0), pitch = (float)(178.0 * rnd() - 89.0);
        gn_csm_cascade c[GN_CSM_MAX];
        compute(&s, pos, yaw, pitch, sun, c);
        for (uint32_t i = 0; i < s.cascades; i++) {
            CHECK(memcmp(&c[i].radius, &ref[i].radius, sizeof(float)) == 0,
                  "yaw %g pitch %g cascade %u: radius %.9g differs from %.9g", yaw, pitch, i, c[i].radius,
                  ref[i].radius);
            float corners[8][3];
            slice_corners(pos, yaw, pitch, c[i].near_depth, c[i].blend_end, corners);
            for (int k = 0; k < 8; k++) {
                float d[3] = {corners[k][0] - c[i].center[0], corners[k][1] - c[i].center[1],
                              corners[k][2] - c[i].center[2]};
                float out = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) - c[i].radius;
                if (out > worst_out) worst_out = out;
                /* After snapping, every corner must still land inside the map and depth range. */
                double clip[3];
                mul_point(c[i].view_proj, corners[k], clip);
                float over =
                    (float)fmax(fmax(fabs(clip[0]), fabs(clip[1])) - 1.0, fmax(-clip[2], clip[2] - 1.0));
                if (over > worst_clip) worst_clip = over;
            }
            /* The whole minimal sphere too, not only these corners: other fovs, aspects and
             * orientations put corners anywhere on it, and the snap moves the box by < 1 texel. */
            double rmin = minimal_radius(c[i].near_depth, c[i].blend_end);
            for (int k = 0; k < 4; k++) {
                const float *axis = &c[i].light_view[k >> 1]; /* row 0 (right) or 1 (up): stride 4 */
                double sgn = (k & 1) ? rmin : -rmin;
                float e[3] = {(float)(c[i].center[0] + sgn * axis[0]),
                              (float)(c[i].center[1] + sgn * axis[4]),
                              (float)(c[i].center[2] + sgn * axis[8])};
                double clip[3];
                mul_point(c[i].view_proj, e, clip);
                float over = (float)(fmax(fabs(clip[0]), fabs(clip[1])) - 1.0);
                if (over > worst_clip) worst_clip = over;
            }
        }
    }
    CHECK(worst_out <= 1e-3f, "a slice corner lies %g m outside its sphere (tolerance 1e-3)", worst_out);
    CHECK(worst_clip <= 1e-6f,
          "a slice corner or sphere edge lies %g outside light clip [-1,1]^2 x [0,1] (1e-6)", worst_clip);
}

/* Moves the camera (sub-texel steps, many metres, turns) and checks that a static point's
 * texel position changes by whole texels only. snapped=false measures the unsnapped projection
 * (relative to the sphere centre), which must show sub-texel changes: the check can fail. */
static double shimmer(const float base[3], bool snapped, int kind)
{
    gn_csm_settings s = defaults();
    float sun[3];
    sun_at(50.0, 200.0, sun);
    float p[3] = {base[0] + 17.3f, base[1] - 1.7f, base[2] - 23.9f};
    gn_csm_cascade c0[GN_CSM_MAX];
    compute(&s, base, 10.0f, -5.0f, sun, c0);
    double worst = 0.0;
    for (int t = 0; t < 200; t++) {
        float pos[3] = {base[0], base[1], base[2]}, yaw = 10.0f, pitch = -5.0f;
        double dir[3] = {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5};
        double dl = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
        if (kind == 0) { /* less than a texel of the finest cascade */
            double step = 0.9 * rnd() * c0[0].texel;
            for (int k = 0; k < 3; k++) pos[k] += (float)(step * dir[k] / dl);
        } else if (kind == 1) { /* up to 1.5 km, inside the same pivot cell */
            for (int k = 0; k < 3; k++) pos[k] += (float)(1500.0 * rnd() * dir[k] / dl);
        } else { /* turns */
            yaw = (float)(360.0 * rnd() - 180.0);
            pitch = (float)(170.0 * rnd() - 85.0);
        }
        gn_csm_cascade c[GN_CSM_MAX];
        compute(&s, pos, yaw, pitch, sun, c);
        for (uint32_t i = 0; i < s.cascades; i++) {
            double a[2], b[2];
            if (snapped) {
                texel_pos(&c0[i], s.resolution, p, a);
                texel_pos(&c[i], s.resolution, p, b);
            } else {
                double lp[3], lc0[3], lc[3];
                mul_point(c[i].light_view, p, lp);
                mul_point(c0[i].light_view, c0[i].center, lc0);
                mul_point(c[i].light_view, c[i].center, lc);
                for (int k = 0; k < 2; k++) {
                    a[k] = (lp[k] - lc0[k]) / c0[i].texel;
                    b[k] = (lp[k] - lc[k]) / c[i].texel;
                }
            }
            for (int k = 0; k < 2; k++) worst = fmax(worst, frac_dist(b[k] - a[k]));
        }
    }
    return worst;
}

static void test_shimmer(void)
{
    static const char *what[3] = {"sub-texel moves", "moves of up to 1.5 km", "yaw/pitch turns"};
    /* Near the origin the pivot is 0 and the matrices' translations are exact: 1e-3 texel. */
    float home[3] = {30.0f, 2.0f, -40.0f};
    for (int kind = 0; kind < 3; kind++) {
        double w = shimmer(home, true, kind);
        CHECK(w < 1e-3, "%s: a static point moved by %g texel off the whole-texel grid (1e-3)", what[kind],
              w);
    }
    /* 6 km out the pivot is (4096, 0, -4096): the float translation entries, ~|pivot| / radius
     * ~ 100, round to ~4e-6 clip, a few 1e-3 texel (0.004 measured): float's limit, not the
     * snapping's. */
    float away[3] = {4096.0f + 300.0f, 25.0f, -4096.0f - 500.0f};
    for (int kind = 0; kind < 3; kind++) {
        double w = shimmer(away, true, kind);
        CHECK(w < 0.01, "6 km out, %s: static point off the texel grid by %g texel (0.01)", what[kind], w);
    }
    double w = shimmer(home, false, 0);
    CHECK(w > 0.1, "unsnapped sub-texel moves changed the fraction by only %g texel: test cannot fail", w);

    /* The grid the map uses is the pivot-anchored light-space grid itself. */
    gn_csm_settings s = defaults();
    float sun[3], p[3] = {41.0f, 1.0f, -52.0f};
    sun_at(50.0, 200.0, sun);
    gn_csm_cascade c[GN_CSM_MAX];
    compute(&s, home, 33.0f, -7.0f, sun, c);
    for (uint32_t i = 0; i < s.cascades; i++) {
        double uv[2], l[3];
        texel_pos(&c[i], s.resolution, p, uv);
        mul_point(c[i].light_view, p, l);
        double dx = frac_dist(uv[0] - l[0] / c[i].texel), dy = frac_dist(uv[1] + l[1] / c[i].texel);
        CHECK(dx < 1e-3 && dy < 1e-3, "cascade %u: map texels %g,%g off the light-space grid (1e-3)", i, dx,
              dy);
    }
}

static void test_pivot(void)
{
    float cam[3] = {8190.0f, 3.0f, 8195.0f}, piv[3];
    gn_csm_pivot(cam, 4096.0f, piv);
    CHECK(piv[0] == 8192.0f && piv[1] == 0.0f && piv[2] == 8192.0f, "pivot (%g,%g,%g), want (8192,0,8192)",
          piv[0], piv[1], piv[2]);
    float neg[3] = {-2049.0f, 2047.0f, -6143.0f};
    gn_csm_pivot(neg, 4096.0f, piv);
    CHECK(piv[0] == -4096.0f && piv[1] == 0.0f && piv[2] == -4096.0f,
          "pivot (%g,%g,%g), want (-4096,0,-4096)", piv[0], piv[1], piv[2]);

    /* The sun rises by 0.01 degrees in the XY plane (a turn about Z). A point 50 m from the camera
     * slides across the map by turn x its distance from the pivot (the part of that motion that
     * crosses the sun's rays). */
    double turn = 0.01 * DEG;
    float sun_a[3] = {(float)cos(40.0 * DEG), (float)sin(40.0 * DEG), 0.0f};
    float sun_b[3] = {(float)cos(40.0 * DEG + turn), (float)sin(40.0 * DEG + turn), 0.0f};
    float p[3] = {cam[0] + 30.0f, cam[1], cam[2] - 40.0f};
    double slide[2], want[2];
    float grids[2] = {4096.0f, 1e9f}; /* the rounded camera; the world origin 11.6 km away */
    for (int g = 0; g < 2; g++) {
        gn_csm_settings s = defaults();
        s.pivot_grid = grids[g];
        gn_csm_cascade a[GN_CSM_MAX], b[GN_CSM_MAX];
        compute(&s, cam, 30.0f, 0.0f, sun_a, a);
        compute(&s, cam, 30.0f, 0.0f, sun_b, b);
        double la[3], lb[3];
        mul_point(a[0].light_view, p, la);
        mul_point(b[0].light_view, p, lb);
        slide[g] = hypot(lb[0] - la[0], lb[1] - la[1]) / a[0].texel;
        gn_csm_pivot(cam, grids[g], piv);
        /* The world-space motion is turn x (Z cross (p - pivot)); the map shows the part of it
         * across the sun's rays (the part along them is depth). */
        double mv[3] = {-turn * (p[1] - piv[1]), turn * (p[0] - piv[0]), 0.0};
        double along = mv[0] * sun_a[0] + mv[1] * sun_a[1];
        want[g] = sqrt(fmax(0.0, mv[0] * mv[0] + mv[1] * mv[1] - along * along)) / a[0].texel;
        CHECK(fabs(slide[g] - want[g]) < 0.02 * want[g] + 2e-3,
              "grid %g: point slid %g texels, want turn x distance across the rays / texel = %g (2%% + 2e-3)",
              grids[g], slide[g], want[g]);
    }
    CHECK(slide[0] < 0.25, "about the rounded camera the point slid %g texels, want < 0.25", slide[0]);
    CHECK(slide[1] > 10.0, "about the origin the point slid %g texels, want > 10 (seed 000's flicker)",
          slide[1]);
    CHECK(slide[1] > 50.0 * slide[0], "origin slide %g not 50x the pivot slide %g", slide[1], slide[0]);
}

static void test_casters(void)
{
    gn_csm_settings s = defaults();
    float pos[3] = {5.0f, 2.0f, 7.0f}, sun[3];
    sun_at(30.0, 100.0, sun);
    gn_csm_cascade cs[GN_CSM_MAX];
    compute(&s, pos, 45.0f, -10.0f, sun, cs);
    const gn_csm_cascade *c = &cs[1];
    double lc[3];
    mul_point(c->light_view, c->center, lc);
    double r = c->radius, ext = s.caster_extension, t = c->texel;
    struct {
        double off[3], radius;
        bool want;
        const char *what;
    } cases[] = {
        {{0, 0, 0}, 1.0, true, "at the centre"},
        {{0.5 * r, -0.5 * r, 0.3 * r}, 1.0, true, "inside, off centre"},
        {{r + 0.5, 0, 0}, 1.0, true, "straddling the +x edge"},
        {{r + 2.0 + 2 * t, 0, 0}, 1.0, false, "beyond +x by 2 m + 2 texels"},
        {{0, -(r + 2.0 + 2 * t), 0}, 1.0, false, "beyond -y"},
        {{0, 0, -(r + 0.5 * ext)}, 1.0, true, "500 m towards the sun"},
        {{0, 0, -(r + ext + 2.0 + 2 * t)}, 1.0, false, "past the caster extension towards the sun"},
        {{0, 0, r + 2.0 + 2 * t}, 1.0, false, "behind the cascade, away from the sun"},
        {{0, 0, 0}, 0.4 * s.min_caster_texels * t, false, "0.8 x min texels across"},
        {{0, 0, 0}, 0.6 * s.min_caster_texels * t, true, "1.2 x min texels across"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double l[3] = {lc[0] + cases[i].off[0], lc[1] + cases[i].off[1], lc[2] + cases[i].off[2]};
        float sph[4];
        light_to_world(c, l, sph);
        sph[3] = (float)cases[i].radius;
        bool got = gn_csm_caster_visible(c, sph, s.min_caster_texels);
        CHECK(got == cases[i].want, "caster %s: visible=%d, want %d", cases[i].what, got, cases[i].want);
    }
    /* Sunward is -z in light space: the caster extension lies along +sun_dir in the world. */
    float far_sun[4] = {c->center[0] + sun[0] * 800.0f, c->center[1] + sun[1] * 800.0f,
                        c->center[2] + sun[2] * 800.0f, 1.0f};
    float far_away[4] = {c->center[0] - sun[0] * 800.0f, c->center[1] - sun[1] * 800.0f,
                         c->center[2] - sun[2] * 800.0f, 1.0f};
    CHECK(gn_csm_caster_visible(c, far_sun, 3.0f), "a caster 800 m towards the sun is culled");
    CHECK(!gn_csm_caster_visible(c, far_away, 3.0f), "a caster 800 m away from the sun is kept");
    double zs[3], za[3];
    mul_point(c->view_proj, c->center, zs);
    mul_point(c->view_proj, far_sun, za);
    CHECK(za[2] < zs[2], "sunward depth %g not below the centre's %g (depth 0 is sunward)", za[2], zs[2]);
}

static void test_schedule(void)
{
    gn_csm_settings s = defaults();
    uint32_t due[4] = {0}, together = 0;
    for (uint64_t f = 0; f < 16; f++) {
        for (uint32_t i = 0; i < 4; i++) due[i] += gn_csm_due(&s, i, f);
        together += gn_csm_due(&s, 2, f) && gn_csm_due(&s, 3, f);
    }
    uint32_t want[4] = {16, 16, 8, 4};
    for (uint32_t i = 0; i < 4; i++)
        CHECK(due[i] == want[i], "cascade %u due %u times in 16 frames, want %u", i, due[i], want[i]);
    CHECK(together < 4, "cascades 2 and 3 due on the same frame %u of 4 times", together);
    /* Also frames far from zero (a 64-bit counter). */
    uint32_t late = 0;
    for (uint64_t f = 0x100000000ull; f < 0x100000000ull + 16; f++) late += gn_csm_due(&s, 3, f);
    CHECK(late == 4, "cascade 3 due %u times in 16 frames past 2^32, want 4", late);
}

static void test_select(void)
{
    gn_csm_settings s = defaults();
    float pos[3] = {0.0f, 2.0f, 0.0f}, sun[3];
    sun_at(45.0, 90.0, sun);
    gn_csm_cascade c[GN_CSM_MAX];
    compute(&s, pos, 0.0f, 0.0f, sun, c);
    float blend;
    for (uint32_t i = 0; i < 4; i++) {
        float lo = i ? c[i - 1].blend_end : c[i].near_depth;
        CHECK(lo < c[i].far_depth, "cascade %u: band end %g of the previous reaches its far %g", i, lo,
              c[i].far_depth);
        float mid = 0.5f * (lo + c[i].far_depth);
        uint32_t got = gn_csm_select(c, 4, mid, &blend);
        CHECK(got == i && blend == 0.0f, "depth %g picked cascade %u blend %g, want %u blend 0", mid, got,
              blend, i);
        if (i < 3) {
            CHECK(c[i].blend_end > c[i].far_depth, "cascade %u has no overlap band", i);
            float band = 0.5f * (c[i].far_depth + c[i].blend_end);
            got = gn_csm_select(c, 4, band, &blend);
            CHECK(got == i && blend > 0.0f && blend < 1.0f && fabsf(blend - 0.5f) < 1e-3f,
                  "mid band depth %g: cascade %u blend %g, want %u blend 0.5 +- 1e-3", band, got, blend, i);
            /* Whatever cascade the band's end reaches, the band covers it. */
            CHECK(fabsf(c[i].blend_end - c[i].far_depth - s.overlap * (c[i].far_depth - c[i].near_depth)) <
                      1e-3f * c[i].far_depth,
                  "cascade %u band [%g, %g] is not overlap x its range", i, c[i].far_depth, c[i].blend_end);
        } else {
            CHECK(c[i].blend_end == c[i].far_depth, "last cascade band end %g, want its far %g",
                  c[i].blend_end, c[i].far_depth);
        }
    }
    CHECK(gn_csm_select(c, 4, 0.01f, &blend) == 0, "a depth before the near plane should use cascade 0");
    CHECK(gn_csm_select(c, 4, 400.0f, &blend) == 3, "depth 400 (the shadow distance) should use cascade 3");
    CHECK(gn_csm_select(c, 4, 400.5f, &blend) == 4, "beyond the shadow distance should return count");
    CHECK(gn_csm_fade(&s, 10.0f) == 1.0f && gn_csm_fade(&s, 359.9f) == 1.0f, "fade below 1 before 360 m");
    CHECK(gn_csm_fade(&s, 400.0f) == 0.0f && gn_csm_fade(&s, 500.0f) == 0.0f, "fade not 0 at/after 400 m");
    float mid = gn_csm_fade(&s, 380.0f);
    CHECK(fabsf(mid - 0.5f) < 1e-4f, "fade at 380 m %g, want 0.5 +- 1e-4 (linear over 360..400)", mid);
}

static double rot_step(const float a[9], const float b[9])
{
    double worst = 0.0;
    for (int r = 0; r < 3; r++)
        worst = fmax(worst, sqrt((double)(a[r * 3] - b[r * 3]) * (a[r * 3] - b[r * 3]) +
                                 (double)(a[r * 3 + 1] - b[r * 3 + 1]) * (a[r * 3 + 1] - b[r * 3 + 1]) +
                                 (double)(a[r * 3 + 2] - b[r * 3 + 2]) * (a[r * 3 + 2] - b[r * 3 + 2])));
    return worst;
}

static void check_orthonormal(const float m[9], const float sun[3], const char *what)
{
    double worst = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = m[i * 3] * m[j * 3] + m[i * 3 + 1] * m[j * 3 + 1] + m[i * 3 + 2] * m[j * 3 + 2];
            worst = fmax(worst, fabs(d - (i == j)));
        }
    /* right x up = forward: a proper rotation. */
    double cx = m[1] * m[5] - m[2] * m[4], cy = m[2] * m[3] - m[0] * m[5], cz = m[0] * m[4] - m[1] * m[3];
    double handed = fabs(cx - m[6]) + fabs(cy - m[7]) + fabs(cz - m[8]);
    double fwd = fabs(m[6] + sun[0]) + fabs(m[7] + sun[1]) + fabs(m[8] + sun[2]);
    CHECK(worst < 1e-5 && handed < 1e-5 && fwd < 1e-5,
          "%s: orthonormal err %g, right x up - fwd %g, fwd + sun %g", what, worst, handed, fwd);
}

static void test_rotation(void)
{
    /* East horizon, over the zenith, to the west horizon in 0.05 degree steps; then a full circle
     * of azimuth 3 degrees above the horizon (a polar day or a winter noon passes due south, where
     * a fixed +Z reference would degenerate). Besides following the sun, the basis twists about
     * it when the sun moves in azimuth: each axis moves up to 1/cos(colatitude / 2) times the
     * sun's turn, 1.38 at 3 degrees elevation. Allow 1.5; a jump or a flip is far beyond it. */
    double step = 0.05 * DEG;
    float prev[9], cur[9], sun[3];
    double worst = 0.0;
    for (int path = 0; path < 2; path++) {
        int steps = path == 0 ? 3600 : 7200;
        for (int i = 0; i <= steps; i++) {
            double a = i * step;
            if (path == 0)
                sun[0] = (float)cos(a), sun[1] = (float)sin(a), sun[2] = 0.0f;
            else
                sun_at(3.0, a / DEG, sun);
            gn_csm_light_rotation(sun, cur);
            check_orthonormal(cur, sun, path == 0 ? "east-zenith-west" : "low circle");
            double turn = path == 0 ? step : step * cos(3.0 * DEG);
            if (i > 0) {
                double d = rot_step(prev, cur) / turn;
                worst = fmax(worst, d);
                CHECK(d < 1.5, "path %d step %d: basis moved %g x the sun's turn, want < 1.5", path, i, d);
            }
            memcpy(prev, cur, sizeof cur);
        }
    }
    CHECK(worst > 0.5, "basis barely moved (%g x the sun's turn): the continuity check cannot fail", worst);
    float odd[3] = {0.0f, -1.0f, 0.0f};
    gn_csm_light_rotation(odd, cur);
    check_orthonormal(cur, odd, "sun at the nadir");
}

/* Coverage: a cascade's own slice is covered; a small move or turn stays covered (so staggering
 * holds); a camera cut far away or a half turn is not (so the cascade is re-rendered). */
static void test_covers(void)
{
    gn_csm_settings s = defaults();
    float sun[3], pos[3] = {10, 20, 30}, view[16];
    sun_at(35, 200, sun);
    gn_csm_cascade a[GN_CSM_MAX], b[GN_CSM_MAX];
    compute(&s, pos, 30, -10, sun, a);
    for (uint32_t i = 0; i < s.cascades; i++) {
        gn_camera_view(pos, 30, -10, view);
        CHECK(gn_csm_covers(&a[i], &a[i], pos, view, (float)FOV, ASPECT, 2.0f),
              "cascade %u misses its own slice", i);
        float moved[3] = {pos[0] + 0.3f, pos[1], pos[2] - 0.2f};
        compute(&s, moved, 30.5f, -10, sun, b);
        gn_camera_view(moved, 30.5f, -10, view);
        CHECK(gn_csm_covers(&a[i], &b[i], moved, view, (float)FOV, ASPECT, 2.0f),
              "cascade %u: a 0.36 m step and a half-degree turn left its map", i);
        float far_away[3] = {pos[0] + 5000.0f, pos[1], pos[2]};
        compute(&s, far_away, 30, -10, sun, b);
        gn_camera_view(far_away, 30, -10, view);
        CHECK(!gn_csm_covers(&a[i], &b[i], far_away, view, (float)FOV, ASPECT, 2.0f),
              "cascade %u: a 5 km cut still counts as covered", i);
        compute(&s, pos, 210, -10, sun, b);
        gn_camera_view(pos, 210, -10, view);
        if (i < 2)
            CHECK(!gn_csm_covers(&a[i], &b[i], pos, view, (float)FOV, ASPECT, 2.0f),
                  "cascade %u: a half turn still counts as covered", i);
    }
}

int main(void)
{
    test_splits();
    test_spheres();
    test_shimmer();
    test_pivot();
    test_casters();
    test_schedule();
    test_select();
    test_rotation();
    test_covers();
    return gn_check_exit();
}

/* Screen-space decals' decisions (src/decide/decal.h), each against a hand-worked answer. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "decide/camera.h"
#include "decide/decal.h"

#define DEG 0.017453292519943295f

static gn_decal with_defaults(void)
{
    gn_decal d;
    memset(&d, 0, sizeof d);
    d.color[0] = d.color[1] = d.color[2] = d.color[3] = 1.0f;
    d.opacity = 1.0f;
    d.fade_start = GN_DECAL_FADE_START;
    d.fade_end = GN_DECAL_FADE_END;
    return d;
}

/* A box 2 x 1 x 0.5 m centred at (1, 2, 3), unrotated. */
static void test_place(void)
{
    const float m[16] = {2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.5f, 0, 1, 2, 3, 1};
    gn_decal d = with_defaults();
    CHECK(gn_decal_place(m, &d), "a 2 x 1 x 0.5 box is placed");
    CHECK(d.axis[0] == 0 && d.axis[1] == 0 && d.axis[2] == 1, "axis (%g %g %g), want +Z", d.axis[0],
          d.axis[1], d.axis[2]);
    CHECK(d.tangent[0] == 1 && d.tangent[1] == 0 && d.tangent[2] == 0, "tangent, want +X");
    float local[3];
    const float centre[3] = {1, 2, 3}, corner[3] = {2, 2.5f, 3.25f}, past[3] = {2.01f, 2.5f, 3.25f};
    CHECK(gn_decal_box_local(&d, centre, local) && fabsf(local[0]) < 1e-6f && fabsf(local[2]) < 1e-6f,
          "the centre is local 0");
    /* the corner: (2 - 1) / 2 = 0.5, (2.5 - 2) / 1 = 0.5, (3.25 - 3) / 0.5 = 0.5: on the faces */
    CHECK(gn_decal_box_local(&d, corner, local), "the corner (%g %g %g) is inside", local[0], local[1],
          local[2]);
    CHECK(fabsf(local[0] - 0.5f) < 1e-6f && fabsf(local[1] - 0.5f) < 1e-6f && fabsf(local[2] - 0.5f) < 1e-6f,
          "corner local (%g %g %g), want (0.5 0.5 0.5)", local[0], local[1], local[2]);
    CHECK(!gn_decal_box_local(&d, past, local), "1 cm past the +X face is outside (local x %g)", local[0]);

    /* a box turned 90 degrees about X: local +Z to world -Y (projecting upwards) */
    const float turned[16] = {1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1};
    CHECK(gn_decal_place(turned, &d) && fabsf(d.axis[1] + 1.0f) < 1e-6f, "turned axis y %g, want -1",
          d.axis[1]);

    const float flat[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    const float sheet[16] = {1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1}; /* z edge = x + y */
    const float proj[16] = {1, 0, 0, 0.1f, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float nan_m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    nan_m[12] = NAN;
    CHECK(!gn_decal_place(flat, &d), "a box of no depth is refused");
    CHECK(!gn_decal_place(sheet, &d), "a box whose edges are coplanar is refused");
    CHECK(!gn_decal_place(proj, &d), "a projective transform is refused");
    CHECK(!gn_decal_place(nan_m, &d), "a NaN translation is refused");
    const float mirror[16] = {-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(!gn_decal_place(mirror, &d), "a mirroring transform is refused");
}

/* Camera at the origin looking down -Z, 90 degrees, square, near 1: a point at distance z has
 * depth 1 / z and ndc x = x / z. */
static void test_world_point(void)
{
    float p[16], inv[16], out[3];
    gn_camera_projection(90.0f * DEG, 1.0f, 1.0f, p);
    CHECK(gn_mat4_inverse(p, inv), "projection inverts");
    CHECK(gn_decal_world_point(inv, 0.0f, 0.0f, 0.25f, out), "depth 0.25 is a point");
    CHECK(fabsf(out[0]) < 1e-5f && fabsf(out[2] + 4.0f) < 1e-4f, "depth 0.25: (%g %g %g), want (0 0 -4)",
          out[0], out[1], out[2]);
    CHECK(gn_decal_world_point(inv, 0.5f, 0.0f, 0.25f, out) && fabsf(out[0] - 2.0f) < 1e-4f,
          "ndc x 0.5 at 4 m: x %g, want 2", out[0]);
    CHECK(!gn_decal_world_point(inv, 0.0f, 0.0f, 0.0f, out), "depth 0 (infinitely far, the sky) is none");
    /* round trip of a point above the axis: y's sign follows Vulkan's clip (y down) */
    const float w[3] = {0.7f, 1.3f, -5.0f};
    float c[4];
    gn_mat4_transform_point(p, w, c);
    CHECK(gn_decal_world_point(inv, c[0] / c[3], c[1] / c[3], c[2] / c[3], out) &&
              fabsf(out[1] - 1.3f) < 1e-4f,
          "round trip y %g, want 1.3 (ndc y %g)", out[1], c[1] / c[3]);
}

static void test_uv_fade_weight(void)
{
    float uv[2];
    gn_decal_uv((const float[3]){0.5f, 0.5f, 0.0f}, uv);
    CHECK(uv[0] == 1.0f && uv[1] == 0.0f, "local (+0.5, +0.5): uv (%g %g), want (1 0): the image's top right",
          uv[0], uv[1]);
    gn_decal_uv((const float[3]){-0.5f, -0.5f, 0.3f}, uv);
    CHECK(uv[0] == 0.0f && uv[1] == 1.0f, "local (-0.5, -0.5): uv (%g %g), want (0 1)", uv[0], uv[1]);

    gn_decal d = with_defaults();
    d.axis[2] = 1.0f; /* start 0.5, end 0.25 */
    CHECK(gn_decal_angle_fade(&d, (const float[3]){0, 0, 1}) == 1.0f, "facing the axis: 1");
    CHECK(gn_decal_angle_fade(&d, (const float[3]){1, 0, 0}) == 0.0f, "along the projection: 0");
    CHECK(gn_decal_angle_fade(&d, (const float[3]){0, 0, -1}) == 0.0f, "facing away: 0");
    /* dot 0.375: u = 0.5, smoothstep 0.5; dot 0.3125: u = 0.25, 0.0625 * 2.5 = 0.15625 */
    float a = 0.375f, b = 0.3125f;
    float fa = gn_decal_angle_fade(&d, (const float[3]){sqrtf(1 - a * a), 0, a});
    float fb = gn_decal_angle_fade(&d, (const float[3]){sqrtf(1 - b * b), 0, b});
    CHECK(fabsf(fa - 0.5f) < 1e-6f, "dot 0.375: fade %g, want 0.5", fa);
    CHECK(fabsf(fb - 0.15625f) < 1e-6f, "dot 0.3125: fade %g, want 0.15625", fb);

    CHECK(gn_decal_weight(&d, 0.49f, 1.0f) == 0.0f, "alpha 0.49 is discarded");
    CHECK(gn_decal_weight(&d, 0.5f, 1.0f) == 0.5f, "alpha 0.5 is kept, weight 0.5");
    d.opacity = 0.5f;
    CHECK(fabsf(gn_decal_weight(&d, 0.6f, 0.5f) - 0.15f) < 1e-6f, "0.6 x opacity 0.5 x fade 0.5 = 0.15");
    d.color[3] = 0.4f;
    CHECK(gn_decal_weight(&d, 1.0f, 1.0f) == 0.0f, "a tint alpha of 0.4 fails the test on an opaque texel");
}

/* A 64 x 64 depth buffer of a camera at (0, 3, 6) looking 20 degrees down -Z, over the ground
 * y = 0 and a wall z = -4 facing +Z: each pixel's depth is sample 0's (4x MSAA), of the nearer
 * plane. */
#define W 64
static float depth_buf[W * W];

static void make_view(gn_decal_depth *v, bool wall)
{
    float p[16], view[16], vp[16], pos[3] = {0, 3, 6};
    gn_camera_projection(60.0f * DEG, 1.0f, 0.1f, p);
    gn_camera_view(pos, 0.0f, -20.0f, view);
    gn_mat4_mul(p, view, vp);
    memset(v, 0, sizeof *v);
    gn_mat4_inverse(vp, v->inv_view_proj);
    gn_msaa_sample0(4, &v->sample0[0], &v->sample0[1]);
    memcpy(v->camera, pos, sizeof pos);
    v->depth = depth_buf;
    v->width = v->height = W;
    for (int y = 0; y < W; y++)
        for (int x = 0; x < W; x++) {
            /* the ray through sample 0: two points on it, at depths 1 and 0.5 */
            float nx = (x + v->sample0[0]) / W * 2 - 1, ny = (y + v->sample0[1]) / W * 2 - 1, a[3], b[3];
            gn_decal_world_point(v->inv_view_proj, nx, ny, 1.0f, a);
            gn_decal_world_point(v->inv_view_proj, nx, ny, 0.5f, b);
            float dir[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, best = INFINITY;
            if (dir[1] < 0) best = -a[1] / dir[1];                                              /* y = 0 */
            if (wall && dir[2] < 0 && (-4 - a[2]) / dir[2] < best) best = (-4 - a[2]) / dir[2]; /* z = -4 */
            float d = 0.0f;
            if (isfinite(best)) {
                float hit[3] = {a[0] + dir[0] * best, a[1] + dir[1] * best, a[2] + dir[2] * best}, c[4];
                gn_mat4_transform_point(vp, hit, c);
                d = c[2] / c[3];
            }
            depth_buf[y * W + x] = d;
        }
}

static void test_surface(void)
{
    gn_decal_depth v;
    make_view(&v, false);
    float pt[3], n[3];
    uint32_t bad = 0, sky = 0;
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++) {
            if (!gn_decal_surface(&v, x, y, pt, n)) {
                sky++;
                continue;
            }
            if (fabsf(pt[1]) > 2e-3f * (1 + fabsf(pt[2])) || n[1] < 0.9999f) bad++;
        }
    CHECK(sky > 0 && sky < W * W, "the horizon splits the view: %u sky pixels", sky);
    CHECK(bad == 0, "ground: %u pixels off the plane y = 0 or with a normal not up (1e-4)", bad);

    /* ground and wall: every pixel's normal is its own plane's, edge pixels included, because
       the slope is taken on the side that stays on the pixel's surface; the one-sided
       difference a quad's derivatives would give gets pixels at the crease wrong */
    make_view(&v, true);
    uint32_t wrong = 0, naive_wrong = 0, walls = 0;
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W - 1; x++) {
            if (!gn_decal_surface(&v, x, y, pt, n)) continue;
            bool on_wall = pt[2] < -4.0f + 1e-2f;
            walls += on_wall;
            float want_y = on_wall ? 0.0f : 1.0f, want_z = on_wall ? 1.0f : 0.0f;
            if (fabsf(n[1] - want_y) > 1e-3f || fabsf(n[2] - want_z) > 1e-3f) wrong++;
            float d0 = depth_buf[y * W + x], d1 = depth_buf[y * W + x + 1],
                  d2 = y + 1 < W ? depth_buf[(y + 1) * W + x] : 0;
            float dy = d2 > 0 ? d2 - d0 : 0;
            /* forward differences only: the normal is wrong at the crease's pixels */
            float a[3], b[3], c[3];
            gn_decal_world_point(v.inv_view_proj, (x + v.sample0[0]) / W * 2 - 1,
                                 (y + v.sample0[1]) / W * 2 - 1, d0, a);
            gn_decal_world_point(v.inv_view_proj, (x + 1 + v.sample0[0]) / W * 2 - 1,
                                 (y + v.sample0[1]) / W * 2 - 1, d1 > 0 ? d1 : d0, b);
            gn_decal_world_point(v.inv_view_proj, (x + v.sample0[0]) / W * 2 - 1,
                                 (y + 1 + v.sample0[1]) / W * 2 - 1, d0 + dy, c);
            float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
                  e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            float cr[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                           e1[0] * e2[1] - e1[1] * e2[0]};
            float len = sqrtf(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
            if (len > 0 &&
                (fabsf(fabsf(cr[1] / len) - want_y) > 1e-3f || fabsf(fabsf(cr[2] / len) - want_z) > 1e-3f))
                naive_wrong++;
        }
    CHECK(walls > 100, "the wall covers %u pixels", walls);
    CHECK(wrong == 0, "ground and wall: %u pixels with their normal off by more than 1e-3", wrong);
    CHECK(naive_wrong > 0, "forward differences miss the crease (%u pixels): the test can tell", naive_wrong);

    /* a decal on the ground under the view's centre: a 2 m square box, 1 m deep, facing up */
    gn_decal d = with_defaults();
    make_view(&v, false);
    const float m[16] = {2, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, -2.0f, 1}; /* +Z up, +Y to -Z */
    CHECK(gn_decal_place(m, &d), "ground decal placed");
    /* pixel (32, 32)'s centre lies half a pixel below the view's centre: its ray dips
       20 + atan(tan 30 / 64) = 20.52 degrees and meets the ground 3 / tan 20.52 = 8.02 m ahead
       of the camera's foot, at z = 6 - 8.02 = -2.02: inside the box (z -2 +- 0.5) */
    float uv[2], fade;
    CHECK(gn_decal_pixel(&d, &v, W / 2, W / 2, uv, &fade), "the centre pixel is in the box");
    CHECK(fabsf(fade - 1.0f) < 1e-6f, "flat ground under an upward decal: fade %g, want 1", fade);
    /* local +Y points to world -Z: local y = -(z + 2) = 0.02, v = 0.5 - local y = 0.48; the
       pixel's centre is half a pixel right of the axis too: x = tan 30 / 64 * 8.5 m = 0.08 m,
       u = 0.5 + 0.08 / 2 (the box is 2 m wide) = 0.54 */
    float dip = 20.0f * DEG + atanf(tanf(30.0f * DEG) / W), want_v = 0.5f + (6.0f - 3.0f / tanf(dip) + 2.0f);
    CHECK(fabsf(uv[1] - want_v) < 1e-3f && fabsf(uv[0] - 0.54f) < 0.005f,
          "uv (%g %g), want (0.54 +- 0.005, %g +- 1e-3)", uv[0], uv[1], want_v);
}

static void test_cull_and_batch(void)
{
    float p[16], view[16], vp[16], pos[3] = {0, 0, 0};
    gn_camera_projection(90.0f * DEG, 1.0f, 0.5f, p);
    gn_camera_view(pos, 0.0f, 0.0f, view);
    gn_mat4_mul(p, view, vp);
    gn_frustum f;
    gn_frustum_from_view_proj(vp, &f);
    /* sets 2, 0, 2, 1, 0; decal 3 behind the camera */
    const uint32_t sets[5] = {2, 0, 2, 1, 0};
    const float z[5] = {-5, -6, -7, 5, -8};
    gn_decal d[5];
    for (int i = 0; i < 5; i++) {
        float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, z[i], 1};
        d[i] = with_defaults();
        gn_decal_place(m, &d[i]);
        d[i].texture_set = sets[i];
    }
    CHECK(gn_decal_visible(&d[0], &f) && !gn_decal_visible(&d[3], &f), "ahead kept, behind culled");
    /* a box 10 m long across the left plane (x = z at z = -5 ... its centre at x = -7 lies 1.4 m
       outside; its half edge of 5 m along x reaches 3.5 m along the plane's normal): kept */
    float wide[16] = {10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -7, 0, -5, 1};
    gn_decal w = with_defaults();
    gn_decal_place(wide, &w);
    CHECK(gn_decal_visible(&w, &f), "a long box reaching into the view is kept");
    wide[0] = 2; /* 1 m half edge: 0.7 m along the normal, 1.4 m outside: culled */
    gn_decal_place(wide, &w);
    CHECK(!gn_decal_visible(&w, &f), "a short box outside the left plane is culled");

    uint32_t order[5], drawn = 0;
    gn_decal_batch b[GN_DECAL_MAX_SETS];
    uint32_t nb = gn_decal_batch_frame(d, 5, &f, order, b, &drawn);
    CHECK(drawn == 4, "drawn %u, want 4", drawn);
    CHECK(nb == 2, "batches %u, want 2 (set 1's one decal is culled)", nb);
    CHECK(order[0] == 1 && order[1] == 4 && order[2] == 0 && order[3] == 2, "order %u %u %u %u, want 1 4 0 2",
          order[0], order[1], order[2], order[3]);
    CHECK(b[0].texture_set == 0 && b[0].first == 0 && b[0].count == 2, "batch 0: set %u first %u count %u",
          b[0].texture_set, b[0].first, b[0].count);
    CHECK(b[1].texture_set == 2 && b[1].first == 2 && b[1].count == 2, "batch 1: set %u first %u count %u",
          b[1].texture_set, b[1].first, b[1].count);
}

int main(void)
{
    test_place();
    test_world_point();
    test_uv_fade_weight();
    test_surface();
    test_cull_and_batch();
    return gn_check_exit();
}

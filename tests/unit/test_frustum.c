/* Frustum planes of a reversed-Z infinite perspective and of an orthographic projection. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "decide/camera.h"
#include "decide/frustum.h"

#define DEG 0.017453292519943295f

/* A camera at (10, 2, 5) looking down -Z: 90 degrees vertical fov, square aspect, so the side
 * planes sit at 45 degrees and a point (x, z) is inside when |x - 10| <= 5 - z. */
static void make_perspective(gn_frustum *f)
{
    float p[16], v[16], vp[16], pos[3] = {10.0f, 2.0f, 5.0f};
    gn_camera_projection(90.0f * DEG, 1.0f, 0.5f, p);
    gn_camera_view(pos, 0.0f, 0.0f, v);
    gn_mat4_mul(p, v, vp);
    gn_frustum_from_view_proj(vp, f);
}

static void test_perspective(void)
{
    gn_frustum f;
    make_perspective(&f);
    CHECK(f.count == 5, "reversed-Z infinite frustum has %u planes, want 5 (far dropped)", f.count);
    for (uint32_t i = 0; i < f.count; i++) {
        float len = sqrtf(f.planes[i][0] * f.planes[i][0] + f.planes[i][1] * f.planes[i][1] +
                          f.planes[i][2] * f.planes[i][2]);
        CHECK(fabsf(len - 1.0f) < 1e-5f, "plane %u normal length %g, want 1 +- 1e-5", i, len);
    }
    struct {
        float c[3], r;
        int inside;
        const char *what;
    } cases[] = {
        {{10.0f, 2.0f, -5.0f}, 1.0f, 1, "10 m ahead"},
        {{10.0f, 2.0f, 15.0f}, 1.0f, 0, "10 m behind"},
        /* The near plane is 0.5 m ahead (z = 4.5); this centre is 0.3 m ahead, 0.2 m before it. */
        {{10.0f, 2.0f, 4.7f}, 0.15f, 0, "just before the near plane"},
        {{10.0f, 2.0f, 4.7f}, 0.25f, 1, "straddling the near plane"},
        {{10.0f, 2.0f, 5.2f}, 0.5f, 0, "around the camera, not reaching the near plane"},
        {{-5.0f, 2.0f, -5.0f}, 1.0f, 0, "far left"},
        {{25.0f, 2.0f, -5.0f}, 1.0f, 0, "far right"},
        {{10.0f, 20.0f, -5.0f}, 1.0f, 0, "far above"},
        {{10.0f, -16.0f, -5.0f}, 1.0f, 0, "far below"},
        /* Left plane x = 10 - (5 - z) = 0 at z = -5: a sphere at x = -0.5 with r 1 straddles it
         * (distance 0.5/sqrt2 ~ 0.35 outside), at x = -2 with r 1 is outside (1.41). */
        {{-0.5f, 2.0f, -5.0f}, 1.0f, 1, "straddling the left plane"},
        {{-2.0f, 2.0f, -5.0f}, 1.0f, 0, "just outside the left plane"},
        {{10.0f, 2.0f, -1e6f}, 1.0f, 1, "1e6 m ahead (no far plane)"},
        {{10.0f - 2e6f, 2.0f, -1e6f}, 1.0f, 0, "1e6 m ahead, 1e6 m outside the left plane"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = gn_frustum_test_sphere(&f, cases[i].c, cases[i].r);
        CHECK(got == cases[i].inside, "sphere %s: inside=%d, want %d", cases[i].what, got, cases[i].inside);
    }
    /* The plane distances are metres: a sphere 3 m outside the right plane is culled with
     * r = 2.9 and kept with r = 3.1. Right plane: x = 10 + (5 - z); point (x0, z) has signed
     * distance (10 + 5 - z - x0) / sqrt2. */
    float z = -5.0f, x0 = 10.0f + 5.0f - z + 3.0f * sqrtf(2.0f);
    float c[3] = {x0, 2.0f, z};
    CHECK(!gn_frustum_test_sphere(&f, c, 2.9f), "sphere 3 m outside with r 2.9 kept");
    CHECK(gn_frustum_test_sphere(&f, c, 3.1f), "sphere 3 m outside with r 3.1 culled");

    float mn1[3] = {9.0f, 1.0f, -6.0f}, mx1[3] = {11.0f, 3.0f, -4.0f};
    CHECK(gn_frustum_test_aabb(&f, mn1, mx1), "box ahead culled");
    float mn2[3] = {9.0f, 1.0f, 6.0f}, mx2[3] = {11.0f, 3.0f, 8.0f};
    CHECK(!gn_frustum_test_aabb(&f, mn2, mx2), "box behind kept");
    float mn3[3] = {-100.0f, -100.0f, -20.0f}, mx3[3] = {100.0f, 100.0f, -10.0f};
    CHECK(gn_frustum_test_aabb(&f, mn3, mx3), "huge box enclosing the view culled");
    float mn4[3] = {-5.0f, 1.0f, -6.0f}, mx4[3] = {-3.0f, 3.0f, -4.0f};
    CHECK(!gn_frustum_test_aabb(&f, mn4, mx4), "box left of the view kept");
    float mn5[3] = {-1.0f, 1.0f, -6.0f}, mx5[3] = {0.5f, 3.0f, -4.0f};
    CHECK(gn_frustum_test_aabb(&f, mn5, mx5), "box straddling the left plane culled");
    float mn6[3] = {9.0f, 1.0f, -1e6f}, mx6[3] = {11.0f, 3.0f, -0.9e6f};
    CHECK(gn_frustum_test_aabb(&f, mn6, mx6), "box 1e6 m ahead culled");
}

static void test_orthographic(void)
{
    /* An orthographic box x in [-4,4], y in [-3,3], view depth 1..21 (view z -1..-21), mapped
     * to Vulkan depth 0..1, hand-built: x' = x/4, y' = -y/3, z' = (-z - 1)/20. */
    float o[16];
    memset(o, 0, sizeof o);
    o[0] = 0.25f;
    o[5] = -1.0f / 3.0f;
    o[10] = -1.0f / 20.0f;
    o[14] = -1.0f / 20.0f;
    o[15] = 1.0f;
    gn_frustum f;
    gn_frustum_from_view_proj(o, &f);
    CHECK(f.count == 6, "orthographic frustum has %u planes, want 6", f.count);
    struct {
        float c[3];
        int inside;
        const char *what;
    } cases[] = {
        {{0.0f, 0.0f, -10.0f}, 1, "centre"},           {{0.0f, 0.0f, -0.4f}, 0, "before near"},
        {{0.0f, 0.0f, -21.6f}, 0, "past far"},         {{0.0f, 0.0f, -21.4f}, 1, "straddling far"},
        {{4.4f, 0.0f, -10.0f}, 1, "straddling right"}, {{4.6f, 0.0f, -10.0f}, 0, "right"},
        {{0.0f, -3.6f, -10.0f}, 0, "below"},           {{0.0f, 3.6f, -10.0f}, 0, "above"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = gn_frustum_test_sphere(&f, cases[i].c, 0.5f);
        CHECK(got == cases[i].inside, "ortho sphere r 0.5 %s: inside=%d, want %d", cases[i].what, got,
              cases[i].inside);
    }
    float mn[3] = {3.9f, -1.0f, -30.0f}, mx[3] = {5.0f, 1.0f, -25.0f};
    CHECK(!gn_frustum_test_aabb(&f, mn, mx), "ortho box past far kept");
    mx[2] = -20.0f;
    CHECK(gn_frustum_test_aabb(&f, mn, mx), "ortho box overlapping corner culled");
}

int main(void)
{
    test_perspective();
    test_orthographic();
    return gn_check_exit();
}

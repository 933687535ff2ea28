/* Camera: reversed-Z infinite projection, Vulkan y-down clip, the yaw/pitch view. */
#include <math.h>

#include "check.h"
#include "decide/camera.h"

#define DEG 0.017453292519943295f

/* Depth (z/w) and clip of a view-space point under P. */
static float depth_of(const float p[16], float x, float y, float z, float clip[4])
{
    float pt[3] = {x, y, z};
    gn_mat4_transform_point(p, pt, clip);
    return clip[2] / clip[3];
}

static void test_projection(void)
{
    float p[16], clip[4];
    const float near_m = 0.1f;
    gn_camera_projection(60.0f * DEG, 16.0f / 9.0f, near_m, p);

    float d_near = depth_of(p, 0.0f, 0.0f, -near_m, clip);
    CHECK(fabsf(d_near - 1.0f) < 1e-6f, "depth at near = %.9g, want 1 +- 1e-6", d_near);
    CHECK(fabsf(clip[0]) < 1e-7f && fabsf(clip[1]) < 1e-7f, "centre clip = (%g, %g), want 0", clip[0],
          clip[1]);

    float d_far = depth_of(p, 0.0f, 0.0f, -1e30f, clip);
    CHECK(fabsf(d_far) < 1e-6f, "depth at 1e30 m = %.9g, want 0 +- 1e-6", d_far);

    float prev = 2.0f;
    for (float dist = near_m; dist < 1e7f; dist *= 1.5f) {
        float d = depth_of(p, 0.3f, -0.2f, -dist, clip);
        CHECK(d < prev && d > 0.0f, "depth at %g m = %.9g, not below %.9g", dist, d, prev);
        prev = d;
    }

    /* Above the axis: Vulkan's y points down the image, so clip y is negative. */
    depth_of(p, 0.0f, 1.0f, -10.0f, clip);
    CHECK(clip[1] / clip[3] < 0.0f, "clip y of a point above the axis = %g, want < 0", clip[1] / clip[3]);
    /* The top edge of the field of view lands exactly at y = -1. */
    depth_of(p, 0.0f, 10.0f * tanf(30.0f * DEG), -10.0f, clip);
    CHECK(fabsf(clip[1] / clip[3] + 1.0f) < 1e-5f, "top of fov at clip y %g, want -1 +- 1e-5",
          clip[1] / clip[3]);
    /* Right is +x, and the aspect scales x. */
    depth_of(p, 10.0f * tanf(30.0f * DEG) * 16.0f / 9.0f, 0.0f, -10.0f, clip);
    CHECK(fabsf(clip[0] / clip[3] - 1.0f) < 1e-5f, "right of fov at clip x %g, want 1 +- 1e-5",
          clip[0] / clip[3]);
}

static void test_view(void)
{
    float pos[3] = {3.0f, 2.0f, -7.0f}, v[16], f[3];
    for (float yaw = -180.0f; yaw <= 180.0f; yaw += 37.0f)
        for (float pitch = -90.0f; pitch <= 90.0f; pitch += 22.5f) {
            gn_camera_view(pos, yaw, pitch, v);
            /* Orthonormal rotation: columns of the 3x3 part have unit length, mutually orthogonal. */
            float worst = 0.0f;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    float s = 0.0f;
                    for (int k = 0; k < 3; k++) s += v[a * 4 + k] * v[b * 4 + k];
                    worst = fmaxf(worst, fabsf(s - (a == b ? 1.0f : 0.0f)));
                }
            CHECK(worst < 1e-5f, "yaw %g pitch %g: |R^T R - I| = %g, want < 1e-5", yaw, pitch, worst);
            /* The camera position maps to the origin; a point ahead maps to -Z on the axis. */
            float o[4], ahead[3], a[4];
            gn_mat4_transform_point(v, pos, o);
            CHECK(fabsf(o[0]) + fabsf(o[1]) + fabsf(o[2]) < 1e-5f, "eye -> (%g,%g,%g), want 0", o[0], o[1],
                  o[2]);
            gn_camera_forward(yaw, pitch, f);
            for (int k = 0; k < 3; k++) ahead[k] = pos[k] + 5.0f * f[k];
            gn_mat4_transform_point(v, ahead, a);
            CHECK(fabsf(a[0]) < 1e-5f && fabsf(a[1]) < 1e-5f && fabsf(a[2] + 5.0f) < 1e-5f,
                  "yaw %g pitch %g: 5 m ahead -> (%g,%g,%g), want (0,0,-5)", yaw, pitch, a[0], a[1], a[2]);
        }
    gn_camera_forward(0.0f, 0.0f, f);
    CHECK(fabsf(f[2] + 1.0f) < 1e-6f, "yaw 0 forward = (%g,%g,%g), want -Z", f[0], f[1], f[2]);
    gn_camera_forward(90.0f, 0.0f, f);
    CHECK(fabsf(f[0] + 1.0f) < 1e-6f && fabsf(f[2]) < 1e-6f, "yaw 90 forward = (%g,%g,%g), want -X", f[0],
          f[1], f[2]);
    gn_camera_forward(0.0f, 30.0f, f);
    CHECK(fabsf(f[1] - 0.5f) < 1e-6f, "pitch 30 forward.y = %g, want 0.5", f[1]);
    /* Pitch up: world up in view space tilts towards the camera's back (+Z view), i.e. a
     * point straight above the camera appears in the upper half of the image. */
    gn_camera_view(pos, 0.0f, 10.0f, v);
    float above[3] = {pos[0], pos[1] + 1.0f, pos[2] - 10.0f}, va[4];
    gn_mat4_transform_point(v, above, va);
    CHECK(va[1] < 0.0f, "pitched up 10 deg, a point 5.7 deg up has view y %g, want < 0", va[1]);
}

static void test_matrix_helpers(void)
{
    float p[16], v[16], vp[16], inv[16], id[16], pos[3] = {1.0f, 2.0f, 3.0f};
    gn_camera_projection(70.0f * DEG, 1.5f, 0.2f, p);
    gn_camera_view(pos, 33.0f, -12.0f, v);
    gn_mat4_mul(p, v, vp);
    CHECK(gn_mat4_inverse(vp, inv), "view-projection reported singular");
    gn_mat4_mul(vp, inv, id);
    float worst = 0.0f;
    for (int i = 0; i < 16; i++) worst = fmaxf(worst, fabsf(id[i] - ((i % 5 == 0) ? 1.0f : 0.0f)));
    CHECK(worst < 1e-4f, "|VP * inverse(VP) - I| = %g, want < 1e-4", worst);
    /* A round trip of a world point through clip space and back. */
    float w[3] = {-4.0f, 1.0f, -20.0f}, c[4], back[4], ndc[3];
    gn_mat4_transform_point(vp, w, c);
    for (int k = 0; k < 3; k++) ndc[k] = c[k] / c[3];
    gn_mat4_transform_point(inv, ndc, back);
    for (int k = 0; k < 3; k++)
        CHECK(fabsf(back[k] / back[3] - w[k]) < 1e-3f, "round trip axis %d: %g, want %g", k,
              back[k] / back[3], w[k]);
    float zero[16] = {0};
    CHECK(!gn_mat4_inverse(zero, inv), "zero matrix reported invertible");
    /* Multiplication order: (A*B) applied to p equals A applied to (B applied to p). */
    float ab[16], t1[4], t2[4], t3[4];
    gn_mat4_mul(v, p, ab);
    gn_mat4_transform_point(ab, w, t1);
    gn_mat4_transform_point(p, w, t2);
    float t2p[3] = {t2[0] / t2[3], t2[1] / t2[3], t2[2] / t2[3]};
    gn_mat4_transform_point(v, t2p, t3);
    for (int k = 0; k < 3; k++)
        CHECK(fabsf(t1[k] / t1[3] - t3[k] / t3[3]) < 1e-3f, "A*B order axis %d: %g vs %g", k, t1[k] / t1[3],
              t3[k] / t3[3]);
}

int main(void)
{
    test_projection();
    test_view();
    test_matrix_helpers();
    return gn_check_exit();
}

/* The CPU math module (src/base/gmath.h): each helper gives bit for bit what the code it
 * replaced computed (the golden images depend on it), cross and product may alias their
 * output, the normalisers keep their fallbacks, and yaw/pitch invert the camera's forward. */
#include "base/gmath.h"
#include "check.h"
#include "decide/camera.h"

#include <string.h>

/* The copies the module replaced (scene.c, meshgen.c, bsp_patch.c, gltf.c), as they were. */
static bool old_normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(l > 1e-20f) || !isfinite(l)) return false;
    v[0] /= l, v[1] /= l, v[2] /= l;
    return true;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

int main(void)
{
    /* a deterministic spread of awkward vectors: tiny, huge, mixed signs */
    uint32_t x = 12345u, same_norm = 0, same_cross = 0, n = 0;
    for (int i = 0; i < 20000; i++) {
        float a[3], b[3];
        for (int k = 0; k < 6; k++) {
            x = x * 1664525u + 1013904223u;
            float f = ((float)(x >> 8) / 16777216.0f - 0.5f) * powf(10.0f, (float)((int)(x & 15u) - 8));
            (k < 3 ? a : b)[k % 3] = f;
        }
        float p[3], q[3];
        memcpy(p, a, sizeof a), memcpy(q, a, sizeof a);
        bool rp = gn_vec3_normalize(p), rq = old_normalize3(q);
        same_norm +=
            rp == rq && bits(p[0]) == bits(q[0]) && bits(p[1]) == bits(q[1]) && bits(p[2]) == bits(q[2]);
        float c[3],
            ref[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
        gn_vec3_cross(c, a, b);
        same_cross += bits(c[0]) == bits(ref[0]) && bits(c[1]) == bits(ref[1]) && bits(c[2]) == bits(ref[2]);
        n++;
    }
    CHECK(same_norm == n, "gn_vec3_normalize differs from the division it replaced in %u of %u",
          n - same_norm, n);
    CHECK(same_cross == n, "gn_vec3_cross differs from the written-out cross product in %u of %u",
          n - same_cross, n);

    /* aliasing: o = a x b with o == a */
    float a[3] = {1, 2, 3}, b[3] = {-2, 0.5f, 4};
    gn_vec3_cross(a, a, b);
    CHECK(a[0] == 6.5f && a[1] == -10.0f && a[2] == 4.5f, "aliased cross (%g %g %g)", a[0], a[1], a[2]);

    /* fallbacks: too short or not finite leaves the vector as it was */
    float z[3] = {0, 0, 0}, inf[3] = {INFINITY, 0, 0}, s[3] = {3, 0, 4};
    CHECK(!gn_vec3_normalize(z) && z[0] == 0 && z[1] == 0 && z[2] == 0, "zero vector changed");
    CHECK(!gn_vec3_normalize(inf) && inf[0] == INFINITY, "infinite vector changed");
    CHECK(gn_vec3_normalize_len(s, 1e-12f) == 5.0f && s[0] == 0.6f && s[2] == 0.8f, "(3, 0, 4) -> %g %g",
          s[0], s[2]);

    /* the product is decide/camera.c's, also when out aliases an input */
    float m1[16], m2[16], want[16], got[16];
    for (int i = 0; i < 16; i++)
        m1[i] = (float)(i * 7 % 11) - 5.25f, m2[i] = (float)(i * 5 % 13) * 0.375f - 2.0f;
    gn_mat4_mul(m1, m2, want);
    gn_mat4_product(m1, m2, got);
    CHECK(memcmp(got, want, sizeof got) == 0, "gn_mat4_product differs from gn_mat4_mul");
    gn_mat4_product(m1, m2, m1);
    CHECK(memcmp(m1, want, sizeof want) == 0, "gn_mat4_product with out == a differs");

    /* an affine point: translation plus columns */
    const float t[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 2, 0, 10, 20, 30, 1}, pt[3] = {1, 2, 3};
    float o[3];
    gn_mat4_point(t, pt, o);
    CHECK(o[0] == 8 && o[1] == 21 && o[2] == 36, "point -> (%g %g %g)", o[0], o[1], o[2]);

    /* yaw and pitch of gn_camera_forward's direction come back */
    const float cams[4][2] = {{0, 0}, {90, 10}, {-135, -40}, {170, 80}};
    for (int i = 0; i < 4; i++) {
        float f[3], yaw, pitch;
        gn_camera_forward(cams[i][0], cams[i][1], f);
        gn_view_yaw_pitch(f, &yaw, &pitch);
        CHECK(fabsf(yaw - cams[i][0]) < 1e-3f && fabsf(pitch - cams[i][1]) < 1e-3f,
              "yaw %g pitch %g -> %g %g", cams[i][0], cams[i][1], yaw, pitch);
    }
    return gn_check_exit();
}

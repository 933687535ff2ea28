/* Camera matrices. Reversed-Z with an infinite far plane spreads float depth precision evenly
 * over distance (floats are densest near 0, which is where far geometry lands), so a town seen
 * from street level to the horizon needs no far plane at all. */
#include "decide/camera.h"

#include <math.h>
#include <string.h>

#define GN_DEG_TO_RAD 0.017453292519943295f

void gn_camera_projection(float fov_y_rad, float aspect, float near_plane, float out[16])
{
    /* f = cot(fov/2) scales the view-space slope y/-z to [-1,1]. */
    float f = 1.0f / tanf(0.5f * fov_y_rad);
    memset(out, 0, 16 * sizeof(float));
    out[0] = f / aspect;
    out[5] = -f;          /* Vulkan's image y points down: flip so +Y view is up on screen */
    out[11] = -1.0f;      /* w_clip = -z_view: distance in front of the camera */
    out[14] = near_plane; /* z_clip = near, so depth = near / distance: 1 at near, 0 at infinity */
}

void gn_camera_forward(float yaw_deg, float pitch_deg, float out[3])
{
    float yaw = yaw_deg * GN_DEG_TO_RAD, pitch = pitch_deg * GN_DEG_TO_RAD;
    /* yaw 0 -> -Z; yaw +90 -> -X (a left turn seen from above, counter-clockwise about +Y). */
    out[0] = -sinf(yaw) * cosf(pitch);
    out[1] = sinf(pitch);
    out[2] = -cosf(yaw) * cosf(pitch);
}

void gn_camera_view(const float pos[3], float yaw_deg, float pitch_deg, float out_view[16])
{
    float yaw = yaw_deg * GN_DEG_TO_RAD;
    float fwd[3];
    gn_camera_forward(yaw_deg, pitch_deg, fwd);
    /* Right comes from yaw alone, so looking straight up or down stays well defined. */
    float right[3] = {cosf(yaw), 0.0f, -sinf(yaw)};
    float up[3] = {right[1] * fwd[2] - right[2] * fwd[1], right[2] * fwd[0] - right[0] * fwd[2],
                   right[0] * fwd[1] - right[1] * fwd[0]};
    /* Rows of the rotation are the camera axes (right, up, -forward); the translation moves
     * the camera position to the origin. */
    const float *rows[3] = {right, up, fwd};
    float sign[3] = {1.0f, 1.0f, -1.0f};
    memset(out_view, 0, 16 * sizeof(float));
    for (int r = 0; r < 3; r++) {
        float t = 0.0f;
        for (int c = 0; c < 3; c++) {
            out_view[c * 4 + r] = sign[r] * rows[r][c];
            t += out_view[c * 4 + r] * pos[c];
        }
        out_view[12 + r] = -t;
    }
    out_view[15] = 1.0f;
}

void gn_mat4_mul(const float a[16], const float b[16], float out[16])
{
    float r[16]; /* a temporary so out may alias a or b */
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++) s += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

bool gn_mat4_inverse(const float m[16], float out[16])
{
    /* Cofactor expansion by 2x2 sub-determinants of the top and bottom row pairs; computed in
     * double because projection matrices mix entries of very different magnitude. */
    double a[16];
    for (int i = 0; i < 16; i++) a[i] = m[i];
#define E(r, c) a[(c)*4 + (r)]
    double s0 = E(0, 0) * E(1, 1) - E(1, 0) * E(0, 1), s1 = E(0, 0) * E(1, 2) - E(1, 0) * E(0, 2);
    double s2 = E(0, 0) * E(1, 3) - E(1, 0) * E(0, 3), s3 = E(0, 1) * E(1, 2) - E(1, 1) * E(0, 2);
    double s4 = E(0, 1) * E(1, 3) - E(1, 1) * E(0, 3), s5 = E(0, 2) * E(1, 3) - E(1, 2) * E(0, 3);
    double c5 = E(2, 2) * E(3, 3) - E(3, 2) * E(2, 3), c4 = E(2, 1) * E(3, 3) - E(3, 1) * E(2, 3);
    double c3 = E(2, 1) * E(3, 2) - E(3, 1) * E(2, 2), c2 = E(2, 0) * E(3, 3) - E(3, 0) * E(2, 3);
    double c1 = E(2, 0) * E(3, 2) - E(3, 0) * E(2, 2), c0 = E(2, 0) * E(3, 1) - E(3, 0) * E(2, 1);
    double det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
    if (det == 0.0 || !isfinite(det)) return false;
    double k = 1.0 / det, r[4][4]; /* r[row][col] */
    r[0][0] = (E(1, 1) * c5 - E(1, 2) * c4 + E(1, 3) * c3) * k;
    r[0][1] = (-E(0, 1) * c5 + E(0, 2) * c4 - E(0, 3) * c3) * k;
    r[0][2] = (E(3, 1) * s5 - E(3, 2) * s4 + E(3, 3) * s3) * k;
    r[0][3] = (-E(2, 1) * s5 + E(2, 2) * s4 - E(2, 3) * s3) * k;
    r[1][0] = (-E(1, 0) * c5 + E(1, 2) * c2 - E(1, 3) * c1) * k;
    r[1][1] = (E(0, 0) * c5 - E(0, 2) * c2 + E(0, 3) * c1) * k;
    r[1][2] = (-E(3, 0) * s5 + E(3, 2) * s2 - E(3, 3) * s1) * k;
    r[1][3] = (E(2, 0) * s5 - E(2, 2) * s2 + E(2, 3) * s1) * k;
    r[2][0] = (E(1, 0) * c4 - E(1, 1) * c2 + E(1, 3) * c0) * k;
    r[2][1] = (-E(0, 0) * c4 + E(0, 1) * c2 - E(0, 3) * c0) * k;
    r[2][2] = (E(3, 0) * s4 - E(3, 1) * s2 + E(3, 3) * s0) * k;
    r[2][3] = (-E(2, 0) * s4 + E(2, 1) * s2 - E(2, 3) * s0) * k;
    r[3][0] = (-E(1, 0) * c3 + E(1, 1) * c1 - E(1, 2) * c0) * k;
    r[3][1] = (E(0, 0) * c3 - E(0, 1) * c1 + E(0, 2) * c0) * k;
    r[3][2] = (-E(3, 0) * s3 + E(3, 1) * s1 - E(3, 2) * s0) * k;
    r[3][3] = (E(2, 0) * s3 - E(2, 1) * s1 + E(2, 2) * s0) * k;
#undef E
    for (int row = 0; row < 4; row++)
        for (int c = 0; c < 4; c++) out[c * 4 + row] = (float)r[row][c];
    return true;
}

void gn_mat4_transform_point(const float m[16], const float p[3], float out_clip[4])
{
    for (int row = 0; row < 4; row++)
        out_clip[row] = m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row];
}

void gn_msaa_sample0(uint32_t msaa, float *x, float *y)
{
    switch (msaa) {
    case 2:
        *x = 0.75f, *y = 0.75f;
        break;
    case 4:
        *x = 0.375f, *y = 0.125f;
        break;
    case 8:
        *x = 0.5625f, *y = 0.3125f;
        break;
    default:
        *x = 0.5f, *y = 0.5f;
        break;
    }
}

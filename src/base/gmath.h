/* CPU vector math on plain float arrays, over cglm (Debian's libcglm-dev, header-only here).
 * One module for the scene, the formats and the BRDF mirror; it adds no state and no I/O.
 *
 * Where cglm computes the same thing the same way, these are thin wrappers of it (they take
 * const arrays, which cglm's vec3 parameters do not). Where its arithmetic differs, the
 * helper here is gnomon's own, with the reason beside it: mesh positions, normals, tangents
 * and transforms feed the golden images, which must stay byte-identical, so a helper keeps
 * exactly the operations (and their order) that the code it replaced had. */
#ifndef GN_BASE_GMATH_H
#define GN_BASE_GMATH_H

#include <cglm/vec3.h>
#include <math.h>
#include <stdbool.h>

#define GN_PI 3.14159265358979323846f

/* ---- cglm, unchanged arithmetic --------------------------------------------------------- */
/* a0 b0 + a1 b1 + a2 b2, left to right, as every copy of this helper wrote it. */
static inline float gn_vec3_dot(const float a[3], const float b[3])
{
    return glm_vec3_dot((float *)a, (float *)b);
}
/* Through a temporary, so o may alias a or b. */
static inline void gn_vec3_cross(float o[3], const float a[3], const float b[3])
{
    glm_vec3_cross((float *)a, (float *)b, o);
}
static inline void gn_vec3_sub(float o[3], const float a[3], const float b[3])
{
    glm_vec3_sub((float *)a, (float *)b, o);
}
static inline void gn_vec3_set(float o[3], float x, float y, float z) { o[0] = x, o[1] = y, o[2] = z; }

/* ---- gnomon's own, where cglm's arithmetic differs ---------------------------------------- */
/* Divides v by its length when that is above min_len and finite (else leaves v as it is) and
 * returns the length. Not glm_vec3_normalize: that multiplies by 1 / length, which rounds
 * differently in the last bit, and it zeroes a zero vector where callers here keep a
 * fallback. */
static inline float gn_vec3_normalize_len(float v[3], float min_len)
{
    float l = sqrtf(gn_vec3_dot(v, v));
    if (l > min_len && isfinite(l)) v[0] /= l, v[1] /= l, v[2] /= l;
    return l;
}
/* Unit length; false (v untouched) when v is shorter than 1e-20 or not finite. */
static inline bool gn_vec3_normalize(float v[3])
{
    float l = gn_vec3_normalize_len(v, 1e-20f);
    return l > 1e-20f && isfinite(l);
}

/* Matrices are column-major float[16] (m[col * 4 + row]), as in gnomon.h. cglm's mat4 type
 * wants 16-byte alignment (its x86 path loads with _mm_load_ps), which plain arrays in
 * structs do not have, and its SIMD sums fuse into FMAs where the compiler targets them:
 * these keep the scalar sums, each row left to right. */
/* m * (p, 1): the affine image of point p (3 floats out; out may not alias p). */
static inline void gn_mat4_point(const float m[16], const float p[3], float out[3])
{
    for (int k = 0; k < 3; k++) out[k] = m[k] * p[0] + m[4 + k] * p[1] + m[8 + k] * p[2] + m[12 + k];
}
/* out = a * b; out may alias a or b. The same loop as decide/camera.c's gn_mat4_mul. */
static inline void gn_mat4_product(const float a[16], const float b[16], float out[16])
{
    float t[16];
    for (int col = 0; col < 4; col++)
        for (int r = 0; r < 4; r++) {
            float s = 0;
            for (int k = 0; k < 4; k++) s += a[k * 4 + r] * b[col * 4 + k];
            t[col * 4 + r] = s;
        }
    for (int i = 0; i < 16; i++) out[i] = t[i];
}

/* A view direction as a gnomon camera's yaw and pitch in degrees (gnomon.h: yaw 0 looks down
 * -Z, positive yaw turns towards -X, positive pitch looks up). d need not be unit. */
static inline void gn_view_yaw_pitch(const float d[3], float *yaw, float *pitch)
{
    float dh = sqrtf(d[0] * d[0] + d[2] * d[2]);
    *yaw = atan2f(-d[0], -d[2]) * 180.0f / GN_PI;
    *pitch = atan2f(d[1], dh) * 180.0f / GN_PI;
}

#endif

/* Animation's pure parts (issue 19): glTF 2.0 animation samplers evaluated at a time exactly as
 * the specification defines them (STEP, LINEAR with spherical interpolation for rotations,
 * CUBICSPLINE's Hermite segments with tangents scaled by the keyframe interval), the check a
 * loader makes of a sampler's input before using it, and dual quaternions for skinning that keeps
 * a twisted joint's volume (the candy-wrapper collapse of linear blending).
 *
 * Quaternions are (x, y, z, w), glTF's order. Pure: nothing allocated, no I/O. */
#ifndef GN_DECIDE_ANIM_H
#define GN_DECIDE_ANIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum gn_anim_interp {
    GN_ANIM_STEP = 0,
    GN_ANIM_LINEAR,
    GN_ANIM_CUBIC, /* CUBICSPLINE: each keyframe holds in-tangent, value, out-tangent */
} gn_anim_interp;

/* A sampler: `count` keyframe times (seconds, strictly increasing) and their values, `width`
 * floats each (3 translation or scale, 4 rotation, the morph target count for weights); a cubic
 * sampler has 3 * width floats a keyframe. `rotation`: the values are unit quaternions (linear:
 * slerp along the shorter arc; cubic: the result normalised, as the specification asks). */
typedef struct gn_anim_sampler {
    const float *times;
    const float *values;
    uint32_t count, width;
    gn_anim_interp interp;
    bool rotation;
} gn_anim_sampler;

/* Why a sampler cannot be evaluated (no keyframe, times not finite or not strictly increasing, a
 * width of 0 or over 1024 (a morph set's targets: an MD3 part's frames), a rotation not 4 wide, a value not
 * finite), or true. */
bool gn_anim_sampler_check(const gn_anim_sampler *s, char *msg, size_t cap);

/* The sampler's value at time t into out (width floats): before the first keyframe its first
 * value, after the last its last (glTF clamps; looping is the caller's: pass t modulo the clip). */
void gn_anim_sample(const gn_anim_sampler *s, float t, float *out);

/* Spherical interpolation from a to b (unit quaternions) by u in [0, 1], along the shorter arc
 * (b negated when a . b < 0); nearly parallel inputs interpolate linearly and normalise. */
void gn_quat_slerp(const float a[4], const float b[4], float u, float out[4]);

/* ---- dual quaternions ------------------------------------------------------------------------ */

/* A rigid transform as a unit dual quaternion: real part the rotation, dual part half the
 * translation times it. */
typedef struct gn_dual_quat {
    float real[4], dual[4];
} gn_dual_quat;

/* From a unit rotation (x, y, z, w) and a translation. */
gn_dual_quat gn_dq_from_rt(const float rotation[4], const float translation[3]);

/* The weighted blend of n transforms (dual quaternion linear blending, normalised): each one
 * turned to the hemisphere of the first, so a 180-degree twist between two joints blends through
 * 90 degrees instead of collapsing. n >= 1, the weights' sum > 0. */
gn_dual_quat gn_dq_blend(const gn_dual_quat *dq, const float *weights, uint32_t n);

/* A point through a unit dual quaternion. */
void gn_dq_transform(const gn_dual_quat *dq, const float p[3], float out[3]);

#endif

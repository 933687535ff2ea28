/* Quake 3 fog volumes (`fogparms`, BSP lump 12): a fog brush as a convex volume and the fog a view
 * ray gathers crossing it. Pure: no Vulkan, no I/O, no globals. shaders/q3_fog.glsl is the twin
 * the fragment shaders run; docs/MATERIALS.md ("Fog volumes") says what is drawn and what is not.
 *
 * The curve (the game's, read from ioquake3's R_InitFogTable and R_FogFactor): a surface seen
 * through L of fog whose shader says `fogparms ( r g b ) D` is covered by the fog colour by
 *     f(L) = sqrt(min(L / D, 1))
 * (D is "distance to opaque": at L = D the surface is gone). The game measures L as the eye-space
 * depth of the surface, scaled by the share of the ray below the fog's visible side when the eye is
 * outside, quantised to 256 steps and shifted by D/64; gnomon measures L as the Euclidean length of
 * the segment eye -> surface inside the brush, so the fog is the same from every view direction and
 * does not depend on which side is "visible". */
#ifndef GN_DECIDE_Q3_FOG_H
#define GN_DECIDE_Q3_FOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GN_Q3_FOG_MAX_PLANES 16 /* slanted sides kept a volume (GN_GPU_Q3_FOG_PLANES: the shader's loop) */
#define GN_Q3_FOG_MAX_SIDES 64  /* sides of a fog brush read: its corners come from every triple (64^3/6) */
#define GN_Q3_FOG_MIN_LENGTH 1e-3f /* metres of fog that count as none (gn_q3_fog_curve) */

/* A fog volume in the renderer's frame (y up, metres): the brush's bounds, and its sides that are
 * not axial (the bounds already are those). Inside: within the box and dot(n, p) <= d for every plane. */
typedef struct gn_q3_fog_volume {
    float box_min[3], box_max[3];
    float planes[GN_Q3_FOG_MAX_PLANES][4]; /* unit outward normal xyz, distance w */
    uint32_t plane_count;
    uint32_t dropped; /* slanted sides past GN_Q3_FOG_MAX_PLANES: the volume is larger than the brush */
    float color[3];   /* linear: fogparms' display values decoded as sRGB (a texel's scale) */
    float opaque;     /* metres of fog to opaque */
} gn_q3_fog_volume;

typedef struct gn_q3_fog_desc {
    const float (*sides)[4]; /* the brush's sides: unit normal out of the brush, distance (metres) */
    uint32_t side_count;
    float color[3];     /* fogparms' ( r g b ) as written: display values 0..1 */
    float opaque_units; /* fogparms' distance to opaque, Quake units */
} gn_q3_fog_desc;

/* Builds a volume; false, with why (cap bytes), when the sides are none, too many, not finite or
 * enclose nothing, or the colour or distance is not finite. */
bool gn_q3_fog_volume_make(const gn_q3_fog_desc *d, gn_q3_fog_volume *out, char *why, size_t cap);
/* Metres of origin + t dir (t in [0, t_max]) inside the volume: slab clipping against the box's
 * three slabs and each plane. dir need not be unit; the length is |dir| times the t inside. */
float gn_q3_fog_inside(const gn_q3_fog_volume *v, const float origin[3], const float dir[3], float t_max);
/* The game's curve: sqrt(min(inside / opaque, 1)); 0 for no fog or under GN_Q3_FOG_MIN_LENGTH. */
float gn_q3_fog_curve(float inside, float opaque);
/* How much of the fog's colour covers a point seen from eye (0..1). */
float gn_q3_fog_factor(const gn_q3_fog_volume *v, const float eye[3], const float point[3]);
/* A display value (sRGB) 0..1 as linear: the fog colour is a framebuffer value in the game, on the
 * same scale as its texels, which gnomon decodes as sRGB. */
float gn_q3_fog_srgb_to_linear(float c);

#endif

/* Local lights (docs/LIGHTING.md): the CPU mirror of shaders/lights.glsl (same formulas, same
 * names with the gn_ prefix), and the one function that packs a gn_light_desc into its GPU
 * twin. Units: a surface point p receives
 *     radiance = brdf(n, v, l) * color * intensity * falloff(|L - p|, radius) * spot
 * so intensity is the radiance scale of the light at about 1 m: falloff(1 m) = 1/2 for a
 * radius well above 1 m, and beyond a few metres it is intensity / d^2 (inverse square).
 * A white Lambert surface facing the light 1 m away shows intensity / (2 pi). */
#ifndef GN_DECIDE_LIGHTS_H
#define GN_DECIDE_LIGHTS_H

#include <stdint.h>

#include "gnomon.h"
#include "shared/gpu_types.h"

#define GN_LIGHT_DEFAULT_INNER_DEG 20.0f /* gn_light_desc.inner_angle 0 */
#define GN_LIGHT_DEFAULT_OUTER_DEG 30.0f /* gn_light_desc.outer_angle 0 */
#define GN_LIGHT_MAX_OUTER_DEG 89.0f     /* the cone culling needs a cone narrower than a half space */
#define GN_LIGHT_MIN_OUTER_DEG 1.0f      /* cos(outer) must stay distinguishable from cos(inner) in float */
#define GN_LIGHT_MIN_EDGE_DEG 0.5f       /* inner stays this far inside outer: smoothstep needs e0 < e1 */
#define GN_LIGHT_MIN_RADIUS 1e-3f        /* metres; keeps d / radius finite in the shader */

/* Windowed inverse square, exactly 0 at and beyond the radius (Karis 2013):
 * clamp(1 - (d/r)^4, 0, 1)^2 / (d^2 + 1). The +1 keeps it finite at d = 0. */
float gn_light_falloff(float dist, float radius);
/* Cone attenuation: smoothstep(cos_outer, cos_inner, cos_angle); 1 inside the inner angle,
 * 0 outside the outer. Needs cos_outer < cos_inner (gn_light_pack guarantees it). */
float gn_light_spot(float cos_angle_to_axis, float cos_outer, float cos_inner);
/* Fills defaults (colour 0 -> white, angles 0 -> 20/30 degrees, direction normalised, zero
 * direction -> straight down) and packs; shadow_layer -1 means unshadowed. */
void gn_light_pack(const gn_light_desc *d, int32_t shadow_layer, gn_gpu_light *out);
/* color * falloff * spot arriving at world point p, and the unit direction from p to the light
 * ((0,0,0) when p is the light's position). The caller multiplies by the BRDF. */
void gn_light_radiance(const gn_gpu_light *l, const float p[3], float out_rgb[3], float out_to_light[3]);

/* gn_lights_desc resolved: the froxel grid and the shadowed-light budget. */
typedef struct gn_lights_settings {
    uint32_t x, y, z, max_lights; /* froxels; light indices a froxel holds */
    float far_depth;              /* view depth of the last slice's far end */
    uint32_t max_shadowed;        /* lights with shadow maps a frame */
    uint32_t shadow_resolution;   /* texels a side of a light's layer */
    uint32_t max_layers;          /* layers: room for every shadowed light to be a point light */
} gn_lights_settings;
/* Every default of gn_lights_desc, resolved here and nowhere else. */
gn_lights_settings gn_lights_resolve(const gn_lights_desc *d);

#endif

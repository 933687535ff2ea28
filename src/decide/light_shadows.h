/* Shadowed local lights: which lights get shadow maps this frame (nearest to the camera
 * first, within a budget of lights and of layers: a spot takes one layer, a point light six,
 * one per cube face) and each layer's view-projection. Pure: plain structs in and out.
 * Depth in the layers is standard (0 at the light's near plane, 1 at its radius), like the
 * sun's cascades, so the same caster pipeline and comparison sampler serve both. */
#ifndef GN_DECIDE_LIGHT_SHADOWS_H
#define GN_DECIDE_LIGHT_SHADOWS_H

#include "decide/frustum.h"
#include "gnomon.h"

#include <stdint.h>

#define GN_LIGHT_SHADOW_NEAR 0.05f /* metres: the light's near plane; casters closer are clamped */

typedef struct gn_light_shadow {
    uint32_t light;       /* index into the scene's lights */
    uint32_t first_layer; /* its layers: first_layer .. first_layer + layer_count - 1 */
    uint32_t layer_count; /* 1 (spot) or 6 (point: +X, -X, +Y, -Y, +Z, -Z) */
} gn_light_shadow;

/* Picks up to max_lights shadowed lights among those with cast_shadows whose sphere reaches
 * the camera frustum (NULL: all), nearest first (ties by index), while their layers fit in
 * max_layers. Returns how many were picked; *candidates is how many wanted a shadow (the rest
 * light unshadowed). Night lights (gn_light_desc.night) are not candidates while the night
 * level is 0: they give no light. out holds max_lights entries. */
typedef struct gn_light_shadow_candidate {
    float distance;
    uint32_t light;
} gn_light_shadow_candidate;

uint32_t
gn_light_shadows_choose(const gn_light_desc *lights, uint32_t count, float night_level,
                        const float camera_pos[3], const gn_frustum *camera, uint32_t max_lights,
                        uint32_t max_layers, gn_light_shadow *out, uint32_t *candidates,
                        gn_light_shadow_candidate *scratch /* count entries: no allocation a frame */);

/* World -> clip of one layer: a spot's cone (field of view twice the outer angle, widened
 * so the filter never reads past the edge), or cube face `face` of a point light (90 degrees
 * widened the same way). resolution: texels per side of a layer. */
void gn_light_shadow_matrix(const gn_light_desc *l, uint32_t face, uint32_t resolution, float out[16]);

/* The cube face whose layer holds direction d from the light (the major axis: 0 +X, 1 -X,
 * 2 +Y, 3 -Y, 4 +Z, 5 -Z), as the shader picks it. */
uint32_t gn_light_shadow_face(const float d[3]);

#endif

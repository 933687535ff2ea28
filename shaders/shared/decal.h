/* Screen-space decals (docs/EFFECTS.md, "Decals"): one record a drawn decal, written by
 * src/passes/decals.c from src/decide/decal.h's gn_decal, read by shaders/decal.vert and
 * shaders/decal.glsl. Valid C11 and GLSL 4.50 like gpu_types.h (only vec4 and mat4 members, so
 * std430 and C agree); src/decide/decal.c _Static_asserts the size. */
#ifndef GN_SHARED_DECAL_H
#define GN_SHARED_DECAL_H

#include "shared/gpu_types.h"

#define GN_GPU_DECAL_ALPHA_TEST 0.5 /* seed 000: texels below this tinted alpha are discarded */

/* params.w bits */
#define GN_GPU_DECAL_NORMAL_MAP 1u /* the texture set has a normal map */

GN_STRUCT(gn_gpu_decal)
{
    gn_mat4 box_to_world; /* the unit cube [-0.5, 0.5]^3 into the world (the box drawn) */
    gn_mat4 world_to_box; /* its inverse: where a surface point lies in the box */
    gn_vec4 axis;         /* xyz the box's local +Z in the world, unit (the decal faces it;
                             it projects along -axis); w the fade's start (a cosine) */
    gn_vec4 tangent;      /* xyz local +X, unit (the texture's u); w the fade's end (a cosine) */
    gn_vec4 color;        /* the texture's tint: linear rgb, alpha */
    gn_vec4 params;       /* x opacity, y roughness, z metallic, w GN_GPU_DECAL_* bits */
};

/* The decal pass's push constants: where sample 0 lies in its pixel (the resolved depth holds
 * that sample's depth), xy in 0..1, y down. */
GN_STRUCT(gn_gpu_decal_push) { gn_vec4 sample0; };

#endif

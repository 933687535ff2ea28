// The key light's shadow under the variant's technique (GN_SUN_CSM, GN_SUN_VSM or neither: the
// forward pass's and the volumetric fog's variants define one), and a point's shadow for the air,
// which has no surface: no normal offset, the pages or cascades as they are.
#ifndef GN_SUN_SHADOW_GLSL
#define GN_SUN_SHADOW_GLSL
#if defined(GN_SUN_CSM)
#include "shadow.glsl"
#else
// no cascades: what shadow.glsl answers when frame.csm.x is 0
float gn_sun_shadow(vec3 world, vec3 n) { return 1.0; }
vec3 gn_cascade_colour(vec3 world) { return vec3(0.1); }
#endif
#if defined(GN_SUN_VSM)
#define GN_VSM_SET GN_SET_SUN
#define GN_VSM_BIND_TABLE GN_BIND_VSM_TABLE
#define GN_VSM_BIND_VERSIONS GN_BIND_VSM_VERSIONS
#define GN_VSM_BIND_ATLAS GN_BIND_VSM_ATLAS
#include "vsm.glsl"
#include "vsm_resolve.glsl"
// VSM RESOLVE's masks (frame.vsm_resolve.x says which one is this frame's; the other is history)
layout(set = GN_SET_SUN, binding = GN_BIND_VSM_MASK0) uniform usampler2D vsm_mask0;
layout(set = GN_SET_SUN, binding = GN_BIND_VSM_MASK1) uniform usampler2D vsm_mask1;
#endif


// 1 lit .. 0 shadowed at a point in the air.
float gn_key_shadow_point(vec3 world)
{
#if defined(GN_SUN_VSM)
    if (frame.vsm.x > 0.0) {
        uint level;
        bool now;
        return gn_vsm_shadow(world, vec3(0.0), level, now);
    }
#endif
    return gn_sun_shadow(world, vec3(0.0));
}
#endif

// The atmosphere's tables as the forward pass and the sky pass read them (set 5, beside the
// image-based light: src/passes/ibl.c), with what reads them: the sky, the discs, the stars
// and the air in front of surfaces. Needs `frame`.
#ifndef GN_SKY_SET_GLSL
#define GN_SKY_SET_GLSL
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_SKYVIEW) uniform sampler2D sky_view;
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_TRANSMITTANCE) uniform sampler2D transmittance_table;
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_AERIAL) uniform sampler2D aerial_atlas;
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_MS) uniform sampler2D ms_table;
// volumetric fog's integrated froxels (src/passes/volumetric.c)
layout(set = GN_SET_VOLUME, binding = GN_BIND_VOLUME_INTEGRATED) uniform sampler2D volume_integrated;
#include "octa.glsl"
#include "atmosphere.glsl"
#include "sky.glsl"
#include "volumetric.glsl"
#include "air.glsl"

// The sky-lut view over the whole frame (screen uv, y down): the sky view on the top 60%, the
// transmittance (scaled by the zenith's luminance) and the multiple scattering (by the sun's
// illuminance) side by side below.
vec3 gn_sky_lut_view(vec2 uv)
{
    if (uv.y < 0.6) return textureLod(sky_view, vec2(uv.x, uv.y / 0.6), 0.0).rgb;
    vec2 t = vec2(fract(uv.x * 2.0), (uv.y - 0.6) / 0.4);
    float zenith = dot(frame.sky_zenith.rgb, vec3(0.2126, 0.7152, 0.0722));
    if (uv.x < 0.5) return textureLod(transmittance_table, t, 0.0).rgb * 2.0 * zenith;
    return textureLod(ms_table, t, 0.0).rgb * frame.sky_light[0].w;
}

// The fog view's colour: the air's in-scattering, with what it hides in blue.
vec3 gn_fog_view(vec3 added, float hidden) { return added + vec3(0.0, 0.0, hidden) * dot(frame.sky_zenith.rgb, vec3(0.33)); }
#endif

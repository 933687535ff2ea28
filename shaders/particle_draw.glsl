// A GPU particle's fragment (src/passes/particles.c; docs/EFFECTS.md, "GPU particles"): a soft
// round sprite (the atlas cell's own disc: there is no atlas texture yet), faded in front of the
// opaque scene (gn_particle_soft_fade against the resolved depth, sample 0; behind it: 0, which
// is the depth test), lit as thin translucent matter: the ambient (the hemisphere's average), the
// key light with its shadow at the particle at half strength from behind (seed 000's smoke), the
// clustered local lights, plus the particle's emission. Written (c, a) blended SRC_ALPHA,
// ONE_MINUS_SRC_ALPHA over, or (c a, 0) blended ONE, ONE (additive). One body, compiled per sun
// technique like decal.glsl.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "shared/particle_pass.h"
#include "brdf.glsl"
#include "lights.glsl"
#include "clusters.glsl"
#include "light_shadow.glsl"
#include "surface_lights.glsl"
#include "sun_shadow.glsl"
#include "particles.glsl"

layout(set = GN_SET_PARTICLE, binding = GN_BIND_PARTICLE_DEPTH) uniform sampler2D depth_tex;

layout(location = 0) in vec2 in_uv;
layout(location = 1) in vec4 in_color;
layout(location = 2) in vec3 in_emit;
layout(location = 3) in vec3 in_world;
layout(location = 4) flat in float in_soft;
layout(location = 0) out vec4 out_color;

void main()
{
    // the sprite: a disc falling smoothly to 0 at the cell's edge
    float r2 = dot(in_uv, in_uv); // the quad's corner coordinates, -1..1
    float shape = clamp(1.0 - r2, 0.0, 1.0);
    shape *= shape;
    float depth = texelFetch(depth_tex, ivec2(gl_FragCoord.xy), 0).r;
    float w = 1.0 / gl_FragCoord.w; // the clip w: view distance along the axis (m)
    float soft = gn_particle_soft_fade(frame.camera_pos.w, depth, w, in_soft);
    float a = in_color.a * shape * soft;
    if (a <= 1.0 / 1024.0) discard;
    vec3 base = in_color.rgb;
    vec3 v = normalize(frame.camera_pos.xyz - in_world);
    // the key light: full from the front, half from behind
    float facing = dot(v, frame.sun_dir.xyz);
    vec3 color = base * (1.0 / 3.14159265) * frame.sun_color.rgb * gn_key_shadow_point(in_world) *
                 (facing > 0.0 ? 0.5 + 0.5 * facing : 0.5);
    color += base * 0.5 * (frame.ambient_sky.rgb + frame.ambient_ground.rgb);
    gn_add_fragment_lights(color, in_world, v, v, v, base, 0.0, 1.0, GN_BRDF_DIELECTRIC);
    color += in_emit;
    vec3 stored = gn_stored_colour(color);
#if defined(GN_PARTICLE_ADDITIVE)
    out_color = vec4(stored * a, 0.0);
#else
    out_color = vec4(stored, a);
#endif
}

// Screen-space decals (docs/EFFECTS.md, "Decals"; seed 000's "Decals"): a fragment of a decal
// box's back face finds the opaque surface behind its pixel in the resolved depth
// (depth_surface.glsl), keeps it only where it lies inside the box, samples the decal's texture
// there, turns the surface's normal by the decal's normal map, lights it as the forward pass
// lights a surface (the key light with its shadow, the local lights, the ambient or the
// image-based light with ambient occlusion, the air in front) and blends it by alpha, faded
// where the surface runs along the projection. src/decide/decal.c is the CPU reference of every
// decision here. One body, compiled once per sun technique like forward.glsl (decal_csm.frag,
// decal_vsm.frag, decal_none.frag).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "shared/decal.h"
#include "brdf.glsl"
#include "lights.glsl"
#include "clusters.glsl"
#include "light_shadow.glsl"
#include "surface_lights.glsl"
#include "octa.glsl"
#include "ibl_levels.glsl"
#include "sun_shadow.glsl"

layout(set = GN_SET_DECAL, binding = GN_BIND_DECAL_DEPTH) uniform sampler2D depth_tex;
layout(std430, set = GN_SET_DECAL, binding = GN_BIND_DECAL_RECORDS) readonly buffer DecalBlock { gn_gpu_decal decals[]; };
layout(set = GN_SET_DECAL, binding = GN_BIND_DECAL_BASE) uniform sampler2D base_tex;
layout(set = GN_SET_DECAL, binding = GN_BIND_DECAL_NORMAL) uniform sampler2D normal_tex;
layout(push_constant) uniform Push { gn_gpu_decal_push pc; };
// the forward pass's image-based light (set 5) and ambient occlusion (set 4)
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_LEVEL0) uniform sampler2D ibl_level0;
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_ATLAS) uniform sampler2D ibl_atlas;
layout(std430, set = GN_SET_IBL, binding = GN_BIND_IBL_SH) readonly buffer ShBlock { vec4 ibl_sh[GN_GPU_IBL_SH]; };
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_DFG) uniform sampler2D ibl_dfg;
#include "sky_set.glsl" // the atmosphere's tables: the air in front of the surface
layout(std430, set = GN_SET_SCREEN, binding = GN_BIND_SCREEN_AO) readonly buffer AoBlock { float ao_buffer[]; };
#include "depth_surface.glsl"

layout(location = 0) flat in uint in_decal;
layout(location = 0) out vec4 out_color;

// The key light's visibility at the surface under pixel px. Under VSM with RESOLVE the pixel's
// mask word is exactly this surface's (RESOLVE read the same depth and normal); otherwise the
// technique's own lookup, offset along the geometric normal as the forward pass does.
float gn_decal_sun(ivec2 px, vec3 p, vec3 n_geo)
{
    float facing = dot(n_geo, frame.sun_dir.xyz) > 0.0 ? 1.0 : 0.0;
#if defined(GN_SUN_VSM)
    if (frame.vsm.x > 0.0) {
        if (frame.vsm_resolve.x != 0u) {
            uint w = frame.vsm_resolve.x == 1u ? texelFetch(vsm_mask0, px, 0).r : texelFetch(vsm_mask1, px, 0).r;
            return gn_mask_visible(w) * facing;
        }
        uint level;
        bool now;
        return gn_vsm_shadow(p, n_geo, level, now) * facing;
    }
#endif
    return gn_sun_shadow(p, n_geo) * facing;
}

// The decal's texel lit as a surface at p with normal n (n_geo the surface's own): the subset of
// forward.glsl's lighting a surface known only by its depth can take. Left out: lightmaps and a
// map's light grid (they belong to the instance under the decal, which the depth does not
// name: the hemisphere or the environment's irradiance stands in), reflection probes (chosen
// per instance likewise) and Quake 3 fog volumes.
vec3 gn_decal_light(ivec2 px, vec3 p, vec3 n, vec3 n_geo, vec3 base, float metallic, float roughness)
{
    vec3 v = normalize(frame.camera_pos.xyz - p);
    vec4 spec = GN_BRDF_DIELECTRIC;
    vec3 color = gn_brdf_eval_dielectric(base, metallic, roughness, spec, n, v, frame.sun_dir.xyz) *
                 frame.sun_color.rgb * gn_decal_sun(px, p, n_geo);
    gn_add_fragment_lights(color, p, n, n_geo, v, base, metallic, roughness, spec);
    // the ambient occlusion of the surface under the pixel (the AO pass read the same depth)
    float ao = frame.ao.z > 0.0 ? ao_buffer[px.y * int(frame.mode.z) + px.x] : 1.0;
    if (frame.ibl.x > 0.5) {
        vec3 irradiance = gn_sh9_irradiance(ibl_sh, n) * (1.0 / 3.14159265);
        float n_dot_v = max(dot(n, v), 1e-4);
        vec3 prefiltered = gn_ibl_specular(ibl_level0, ibl_atlas, reflect(-v, n), roughness);
        vec2 dfg = textureLod(ibl_dfg, vec2(n_dot_v, roughness), 0.0).rg;
        color += gn_shade_ambient_ibl(base, metallic, roughness, spec, n_dot_v, irradiance, prefiltered, dfg, ao);
    } else {
        vec3 irradiance = mix(frame.ambient_ground.rgb, frame.ambient_sky.rgb, n.y * 0.5 + 0.5);
        color += gn_shade_ambient_occluded(base, metallic, roughness, spec, n, v, irradiance, frame.ambient_sky.rgb,
                                           frame.ambient_ground.rgb, ao);
    }
    vec3 added;
    float hidden;
    return gn_air_apply(color, p, gl_FragCoord.xy / vec2(frame.mode.zw), added, hidden);
}

void main()
{
    gn_gpu_decal dc = decals[in_decal];
    ivec2 px = ivec2(gl_FragCoord.xy);
    vec3 p, p_x, p_y, n_geo;
    if (!gn_surface_at(px, pc.sample0.xy, p, p_x, p_y, n_geo)) discard; // the sky
    vec3 local = (dc.world_to_box * vec4(p, 1.0)).xyz;
    if (any(greaterThan(abs(local), vec3(0.5)))) discard; // the surface is not in the box
    // the texture's coordinates, and their change a pixel right and down on the same plane: the
    // gradients for the mip level, which the quad's derivatives would take across depth edges
    // (where the uv jumps) and after the discards above (where they are undefined)
    vec2 uv = vec2(local.x + 0.5, 0.5 - local.y);
    vec3 lx = (dc.world_to_box * vec4(p_x, 1.0)).xyz, ly = (dc.world_to_box * vec4(p_y, 1.0)).xyz;
    vec2 duv_x = vec2(lx.x - local.x, local.y - lx.y), duv_y = vec2(ly.x - local.x, local.y - ly.y);
    vec4 texel = textureGrad(base_tex, uv, duv_x, duv_y) * dc.color;
    if (texel.a < GN_GPU_DECAL_ALPHA_TEST) discard;
    // the angle fade (gn_decal_angle_fade): axis.w is its start, tangent.w its end (cosines)
    float fade = smoothstep(dc.tangent.w, dc.axis.w, dot(n_geo, dc.axis.xyz));
    if (fade <= 0.0) discard;
    vec3 n = n_geo;
    if ((uint(dc.params.w) & GN_GPU_DECAL_NORMAL_MAP) != 0u) {
        // the decal's frame on the surface: u along the box's local X, the image's up along
        // cross(n, t) (the glTF convention the scene's tangents follow)
        vec3 tn = textureGrad(normal_tex, uv, duv_x, duv_y).xyz * 2.0 - 1.0;
        vec3 t = normalize(dc.tangent.xyz - n_geo * dot(n_geo, dc.tangent.xyz));
        vec3 b = cross(n_geo, t);
        n = normalize(t * tn.x + b * tn.y + n_geo * tn.z);
    }
    vec3 color = gn_decal_light(px, p, n, n_geo, texel.rgb, dc.params.z, dc.params.y);
    // blended by alpha (gn_decal_weight): the tinted alpha, the opacity, the fade
    out_color = vec4(gn_stored_colour(color), texel.a * dc.params.x * fade);
}

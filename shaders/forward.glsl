// The opaque forward pass: PBR (shaders/brdf.glsl, mirrored by src/decide/brdf.c) lit by
// the key light (the sun or the moon), the local lights and the sky's ambient, plus emission,
// seen through the air (shaders/air.glsl). Debug views replace the colour.
// One body, compiled once per sun technique (forward_csm.frag, forward_vsm.frag,
// forward_none.frag define GN_SUN_CSM, GN_SUN_VSM or neither): each variant declares only the
// receiver set (set 2) of its technique.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "brdf.glsl"
#include "lights.glsl"
#include "clusters.glsl"
#include "light_shadow.glsl"
#include "surface_lights.glsl"
#include "octa.glsl"
#include "ibl_levels.glsl"
#include "sun_shadow.glsl"

layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_BASE) uniform sampler2D base_tex;
layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_NORMAL) uniform sampler2D normal_tex;
layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_LIGHTMAP) uniform sampler2D lightmap_tex; // RGB9E5, linear
layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_METAL_ROUGH) uniform sampler2D metal_rough_tex;
layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_OCCLUSION) uniform sampler2D occlusion_tex;
layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_EMISSIVE) uniform sampler2D emissive_tex; // sRGB
layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_SPECULAR) uniform sampler2D specular_tex; // alpha, linear
layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_SPECULAR_COLOR) uniform sampler2D specular_color_tex; // sRGB
layout(push_constant) uniform Push { uint material; } pc;
// The image-based light (src/passes/ibl.c): the sky's environment, its prefiltered levels and
// harmonics, and the split sum's DFG table
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_LEVEL0) uniform sampler2D ibl_level0;
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_ATLAS) uniform sampler2D ibl_atlas;
layout(std430, set = GN_SET_IBL, binding = GN_BIND_IBL_SH) readonly buffer ShBlock { vec4 ibl_sh[GN_GPU_IBL_SH]; };
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_DFG) uniform sampler2D ibl_dfg;
#include "sky_set.glsl" // the atmosphere's tables: the air in front of the surface
#include "probes.glsl"
#include "q3_stages.glsl"
#include "q3_fog.glsl"
// Ambient occlusion at each pixel (src/passes/ao.c), from the prepass depth's sample 0
layout(std430, set = GN_SET_SCREEN, binding = GN_BIND_SCREEN_AO) readonly buffer AoBlock { float ao_buffer[]; };

// The ambient occlusion of this fragment: the pixel's, for the opaque surfaces the prepass drew
// (blended ones were not in its depth: 1); 1 when the frame has none.
float gn_fragment_ao(bool blended)
{
    if (frame.ao.z <= 0.0 || blended) return 1.0;
    uvec2 p = uvec2(gl_FragCoord.xy);
    return ao_buffer[p.y * frame.mode.z + p.x];
}

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_tangent;
layout(location = 3) in vec2 in_uv;
layout(location = 4) in vec2 in_uv2;
layout(location = 5) flat in uvec3 in_grid;
#if defined(GN_OIT)
// Weighted blended OIT (forward_*_oit.frag; src/passes/oit.c): the body below is the forward
// shader as it is, its colour and alpha (as alpha blending would take them) kept in a variable;
// the main() at the end turns them into the two targets' values.
#include "shared/oit.h"
vec4 out_color;
layout(location = 0) out vec4 out_accum;  // (c a w, a w), added
layout(location = 1) out vec4 out_reveal; // a: the target is multiplied by 1 - a
#define main gn_forward_body
#else
layout(location = 0) out vec4 out_color;
#endif
#if defined(GN_Q3_DUAL_SOURCE)
layout(location = 0, index = 1) out vec4 out_d; // the blend's second source: what lies behind is kept by
#endif

// RGB9E5 as src/decide/atlas.c packs it.
vec3 gn_rgb9e5(uint p)
{
    float scale = exp2(float(int(p >> 27u) - 24));
    return vec3(float(p & 511u), float((p >> 9u) & 511u), float((p >> 18u) & 511u)) * scale;
}

// The octahedral direction of src/scene/world.c (12 bits a coordinate; y is up).
vec3 gn_oct_decode12(uint p)
{
    vec2 e = vec2(float(p & 4095u), float((p >> 12u) & 4095u)) / 4095.0 * 2.0 - 1.0;
    vec3 d = vec3(e.x, 1.0 - abs(e.x) - abs(e.y), e.y);
    if (d.y < 0.0) {
        vec2 s = vec2(d.x >= 0.0 ? 1.0 : -1.0, d.z >= 0.0 ? 1.0 : -1.0);
        d.xz = (1.0 - abs(d.zx)) * s;
    }
    return normalize(d);
}

void main()
{
#if defined(GN_Q3_DUAL_SOURCE)
    out_d = vec4(0.0); // debug views return early: they cover what lies behind
#endif
    gn_gpu_material m = materials[pc.material];
    vec4 base = m.base_color;
    if (m.pbr.z > 0.5) base *= texture(base_tex, gn_material_uv(m, GN_GPU_UV_BASE, in_uv, in_uv2));
    // KHR_materials_specular's maps scale the CPU's F0 and F90 (gn_brdf_dielectric) at the
    // vertex's uv: specularTexture's alpha both, specularColorTexture's rgb F0. Exact unless the
    // CPU's min(F0 colour, 1) clamped (docs/MATERIALS.md). Without the maps' bits spec is the
    // material's, so other materials shade as before.
    vec4 spec = m.specular;
    if ((uint(m.lighting.w) & GN_GPU_MAP_SPECULAR) != 0u) spec *= texture(specular_tex, in_uv).a;
    if ((uint(m.lighting.w) & GN_GPU_MAP_SPECULAR_COLOR) != 0u)
        spec.rgb *= texture(specular_color_tex, in_uv).rgb;
    vec3 n = normalize(in_normal);
    if (m.pbr.w > 0.5) {
        // tangent-space normal map, +Z out of the surface; Gram-Schmidt the interpolated tangent
        vec3 tn = texture(normal_tex, gn_material_uv(m, GN_GPU_UV_NORMAL, in_uv, in_uv2)).xyz * 2.0 - 1.0;
        vec3 t = normalize(in_tangent.xyz - n * dot(n, in_tangent.xyz));
        vec3 b = cross(n, t) * (in_tangent.w < 0.0 ? -1.0 : 1.0);
        n = normalize(t * tn.x + b * tn.y + n * tn.z);
    }
    // A face seen from behind (a double-sided material's, the only ones not culled) is lit from
    // the side it shows: its normals reversed, as glTF's doubleSided asks
    float side = gl_FrontFacing ? 1.0 : -1.0;
    n *= side;
    // A Quake 3 shader: its stages make the albedo (their lit part), an emission (the rest) and,
    // blended, the map of what lies behind (q3_stages.glsl)
    bool q3 = (uint(m.lighting.w) & GN_GPU_MAP_STAGES) != 0u;
    gn_q3_result q3r;
    q3r.pb = vec3(0.0);
    q3r.d = vec3(0.0);
    if (q3) {
        vec3 to_eye = normalize(frame.camera_pos.xyz - in_world);
        q3r = gn_q3_compose(pc.material, in_uv, in_uv2, gn_q3_env_uv(n, to_eye), in_world,
                            gn_q3_specular(n, to_eye, frame.sun_dir.xyz));
        base = vec4(q3r.pa, q3r.alpha);
    }
    uint view = frame.mode.x;
    if (view == GN_GPU_VIEW_NORMALS) { out_color = vec4(n * 0.5 + 0.5, 1.0); return; }
    if (view == GN_GPU_VIEW_ALBEDO) { out_color = vec4(base.rgb, 1.0); return; }
    if (view == GN_GPU_VIEW_CASCADES) { out_color = vec4(gn_cascade_colour(in_world), 1.0); return; }
    bool blended = uint(m.lighting.y) == GN_GPU_ALPHA_BLEND;
    float ao = gn_fragment_ao(blended);
    if (view == GN_GPU_VIEW_AO) { out_color = vec4(vec3(ao), 1.0); return; }

    // The sun's shadow: offset along the geometric normal (normal maps would move receivers
    // inside their own casters); surfaces facing away from the sun are in their own shadow.
    vec3 n_geo = normalize(in_normal) * side;
    float facing = dot(n_geo, frame.sun_dir.xyz) > 0.0 ? 1.0 : 0.0;
    float sun_visible;
    // how far this fragment's depth may be from the depth under the pixel's sample 0 on the same
    // surface (sample 0 is within half a pixel of the centre), plus the mask's half float
    // (derivatives taken here, in uniform control flow)
    float same_surface = 0.5 * fwidth(gl_FragCoord.z) + 2e-3 * gl_FragCoord.z;
    // A Quake 3 shader none of whose stages is lit (flares, smoke, lava's glow, sprites: the game
    // draws them fullbright) is its emission alone: no sun, lights or ambient (a dielectric's
    // specular would otherwise light a black albedo). One flag a material: uniform in a draw.
    bool unlit = q3 && (q3_stages[pc.material * uint(GN_GPU_Q3_STAGES)].mode.w & GN_GPU_Q3_UNLIT) != 0u;
    vec3 color = vec3(0.0);
    uint maps = uint(m.lighting.w);
    sun_visible = 0.0;
    if (!unlit) {
    #if defined(GN_SUN_VSM)
        if (frame.vsm.x > 0.0) {
            uint vsm_level;
            bool vsm_now;
            // RESOLVE's mask holds the surface under sample 0. Blended surfaces are not in the depth
            // it read, and at an MSAA edge another surface's fragment may cover the pixel: those look
            // the pages up themselves, as the mask would have.
            bool from_mask = false;
            if (frame.vsm_resolve.x != 0u && uint(m.lighting.y) != GN_GPU_ALPHA_BLEND) {
                ivec2 px = ivec2(gl_FragCoord.xy);
                uint w = frame.vsm_resolve.x == 1u ? texelFetch(vsm_mask0, px, 0).r : texelFetch(vsm_mask1, px, 0).r;
                // the same surface: the same depth, and the same side to the sun (where two
                // surfaces meet at a corner their depths agree, but one may face away)
                if (abs(gn_mask_depth(w) - gl_FragCoord.z) <= same_surface && gn_mask_facing(w) == (facing > 0.0)) {
                    from_mask = true;
                    sun_visible = gn_mask_visible(w);
                    vsm_level = gn_mask_level(w) == GN_GPU_VSM_MASK_NO_PAGE ? uint(frame.vsm.x) : gn_mask_level(w);
                    vsm_now = gn_mask_rendered_now(w);
                }
            }
            if (!from_mask) sun_visible = gn_vsm_shadow(in_world, n_geo, vsm_level, vsm_now) * facing;
            if (view == GN_GPU_VIEW_VSM_PAGES) {
                // a colour per level; pages rendered this frame bright; no page (beyond the
                // clipmap, or waiting for the budget with no coarser page) dark grey
                const vec3 colours[8] = vec3[8](vec3(1, 0.25, 0.25), vec3(0.25, 1, 0.25), vec3(0.3, 0.45, 1),
                                                vec3(1, 1, 0.25), vec3(1, 0.3, 1), vec3(0.3, 1, 1), vec3(1, 0.6, 0.2),
                                                vec3(0.7, 0.7, 0.7));
                vec3 c = vsm_level >= uint(frame.vsm.x) ? vec3(0.08) : colours[vsm_level % 8u] * (vsm_now ? 1.0 : 0.45);
                out_color = vec4(c * (0.55 + 0.45 * sun_visible), 1.0);
                return;
            }
        } else
    #endif
        {
            sun_visible = gn_sun_shadow(in_world, n_geo) * facing;
            if (view == GN_GPU_VIEW_VSM_PAGES) { out_color = vec4(vec3(0.08), 1.0); return; }
        }
        if (view == GN_GPU_VIEW_SHADOW) { out_color = vec4(vec3(sun_visible), 1.0); return; }

        float metallic = m.pbr.x, roughness = m.pbr.y;
        if ((maps & GN_GPU_MAP_METAL_ROUGH) != 0u) {
            vec4 mr = texture(metal_rough_tex, gn_material_uv(m, GN_GPU_UV_METAL_ROUGH, in_uv, in_uv2));
            roughness *= mr.g;
            metallic *= mr.b;
        }
        vec3 v = normalize(frame.camera_pos.xyz - in_world);
        vec3 l = frame.sun_dir.xyz;
        color = gn_brdf_eval_dielectric(base.rgb, metallic, roughness, spec, n, v, l) * frame.sun_color.rgb *
                     sun_visible;

        // Local lights: the froxel's list, or every light on the naive A/B path. Both visit the
        // lights that reach this point in ascending order, so their sums match.
        uint light_count = frame.lights.x;
        if (light_count > 0u || view == GN_GPU_VIEW_LIGHT_HEATMAP) {
            float view_depth = dot(in_world - frame.camera_pos.xyz, frame.camera_forward.xyz);
            uint froxel = gn_cluster_index_frag(gl_FragCoord.xy / vec2(frame.mode.zw), view_depth);
            uint slot = froxel * (frame.cluster_grid.w + 1u);
            bool naive = frame.lights.y != 0u;
            uint listed = naive ? light_count : cluster_lists[slot];
            if (view == GN_GPU_VIEW_LIGHT_HEATMAP) {
                // blue (none) .. green .. red (full list); white: the list is full, lights may be dropped
                float t = float(cluster_lists[slot]) / float(max(frame.cluster_grid.w, 1u));
                vec3 heat = cluster_lists[slot] >= frame.cluster_grid.w ? vec3(1.0)
                            : mix(mix(vec3(0.05, 0.1, 0.6), vec3(0.1, 0.9, 0.2), clamp(t * 2.0, 0.0, 1.0)),
                                  vec3(1.0, 0.15, 0.05), clamp(t * 2.0 - 1.0, 0.0, 1.0));
                out_color = vec4(light_count == 0u ? vec3(0.05, 0.1, 0.6) : heat, 1.0);
                return;
            }
            gn_add_local_lights(color, slot, listed, naive, in_world, n, n_geo, v, base.rgb, metallic, roughness, spec);
        }
        // Baked light is the surface's diffuse irradiance (1 = its base colour) in place of the
        // hemisphere's diffuse term (the ambient's specular stays): a lightmap, or for objects
        // without one in a BSP world the map's light grid (ambient plus one directed light).
        // (the hemisphere's: its two colours; the environment's: its harmonics' irradiance over pi,
        // the radiance a white Lambertian surface returns)
        bool ibl = frame.ibl.x > 0.5;
        vec3 irradiance = ibl ? gn_sh9_irradiance(ibl_sh, n) * (1.0 / 3.14159265)
                              : mix(frame.ambient_ground.rgb, frame.ambient_sky.rgb, n.y * 0.5 + 0.5);
        if (m.lighting.x > 0.5) {
            irradiance = texture(lightmap_tex, in_uv2).rgb;
        } else if ((in_grid.x & GN_GPU_INSTANCE_GRID_LIT) != 0u) {
            vec3 to_light = gn_oct_decode12(in_grid.x >> 8u);
            irradiance = gn_rgb9e5(in_grid.y) + gn_rgb9e5(in_grid.z) * max(dot(n, to_light), 0.0);
        }
        // ambient occlusion darkens the ambient's diffuse part, and its specular by the specular
        // occlusion it implies (brdf.glsl); the sun, the lights and emission are not ambient
        // a local reflection probe, where the instance has one: its radiance box-projected in place
        // of the sky's, and its irradiance where no baked light is, faded at its box
        vec3 reflected_dir = reflect(-v, n);
        float probe_w = 0.0;
        uint probe = ibl && frame.ibl.z > 0.5 ? gn_probe_at(gn_probe_index(in_grid.x), in_world, probe_w) : 0u;
        vec3 probe_dir = probe_w > 0.0 ? gn_probe_parallax(probes[probe - 1u], in_world, reflected_dir) : reflected_dir;
        if (probe_w > 0.0 && m.lighting.x <= 0.5 && (in_grid.x & GN_GPU_INSTANCE_GRID_LIT) == 0u)
            irradiance = mix(irradiance, gn_sh9_irradiance(probes[probe - 1u].sh, n) * (1.0 / 3.14159265), probe_w);
        if (view == GN_GPU_VIEW_PROBES) {
            vec3 mirror = gn_ibl_sample0(ibl_level0, reflected_dir);
            if (probe_w > 0.0) mirror = mix(mirror, gn_probe_level(int(probe - 1u), 0, probe_dir), probe_w);
            vec3 tint = probe > 0u ? mix(vec3(1.0), gn_probe_tint(probe - 1u), 0.3 + 0.5 * probe_w) : vec3(0.6);
            out_color = vec4(gn_stored_colour(mirror * tint), 1.0);
            return;
        }
        vec3 ambient;
        if (ibl) {
            // the split sum: the environment prefiltered for the roughness along the reflection,
            // times the DFG table's F0 A + B at (n.v, roughness)
            float n_dot_v = max(dot(n, v), 1e-4);
            vec3 prefiltered = gn_ibl_specular(ibl_level0, ibl_atlas, reflected_dir, roughness);
            if (probe_w > 0.0)
                prefiltered = mix(prefiltered, gn_probe_specular(int(probe - 1u), probe_dir, roughness), probe_w);
            vec2 dfg = textureLod(ibl_dfg, vec2(n_dot_v, roughness), 0.0).rg;
            ambient = gn_shade_ambient_ibl(base.rgb, metallic, roughness, spec, n_dot_v, irradiance, prefiltered,
                                           dfg, ao);
        } else {
            ambient = gn_shade_ambient_occluded(base.rgb, metallic, roughness, spec, n, v, irradiance,
                                                frame.ambient_sky.rgb, frame.ambient_ground.rgb, ao);
        }
        if (view == GN_GPU_VIEW_IBL) {
            out_color = vec4(gn_stored_colour(ambient), 1.0);
            return;
        }
        if ((maps & GN_GPU_MAP_OCCLUSION) != 0u)
            ambient *= texture(occlusion_tex, gn_material_uv(m, GN_GPU_UV_OCCLUSION, in_uv, in_uv2)).r;
        color += ambient;
    }
    vec3 emitted = m.emissive.rgb * (m.emissive.w > 0.5 ? frame.night.x : 1.0);
    if ((maps & GN_GPU_MAP_EMISSIVE) != 0u)
        emitted *= texture(emissive_tex, gn_material_uv(m, GN_GPU_UV_EMISSIVE, in_uv, in_uv2)).rgb;
    color += emitted + q3r.pb * GN_Q3_NITS;
    // a Quake 3 map's fog volumes between the eye and the surface (q3_fog.glsl): a blended shader's
    // d (what it lets through) kept, its colour fogged as fb * d + p asks
    color = gn_q3_fog_surface(color, q3 && blended ? q3r.d : vec3(0.0), in_world);
    // the air between the eye and the surface: the aerial perspective and the height fogs
    vec2 screen_uv = gl_FragCoord.xy / vec2(frame.mode.zw);
    vec3 added;
    float hidden;
    color = gn_air_apply(color, in_world, screen_uv, added, hidden);
    if (view == GN_GPU_VIEW_FOG) {
        out_color = vec4(gn_stored_colour(gn_fog_view(added, hidden)), 1.0);
        return;
    }
    if (view == GN_GPU_VIEW_SKY_LUT) {
        out_color = vec4(gn_stored_colour(gn_sky_lut_view(screen_uv)), 1.0);
        return;
    }
    // stored pre-exposed (common.glsl); blended materials carry their alpha to the blend,
    // everything else is opaque
    // the first stage's alpha test (after every derivative was taken: the quad stays whole); an
    // alpha-tested material under alpha to coverage is not tested again: the prepass covered the
    // samples its alpha asked for, and the EQUAL depth test keeps exactly those
    bool covered = frame.coverage.x != 0u && uint(m.lighting.y) == GN_GPU_ALPHA_MASK;
    if (q3 && q3r.discard_it && !covered) discard;
#if defined(GN_Q3_DUAL_SOURCE)
    // blended by (one, src1 colour): fb * d + colour, every stage's blend at once
    out_color = vec4(gn_stored_colour(color), 1.0);
    out_d = vec4(q3r.d, 1.0);
#else
    if (q3 && blended) {
        // without dual-source blending: fb * (1 - alpha) + colour, d's mean as 1 - alpha
        float a = clamp(1.0 - (q3r.d.r + q3r.d.g + q3r.d.b) / 3.0, 1e-3, 1.0);
        out_color = vec4(gn_stored_colour(color) / a, a);
        return;
    }
    out_color = vec4(gn_stored_colour(color), blended ? base.a : 1.0);
#endif
}

#if defined(GN_OIT)
#undef main
void main()
{
    gn_forward_body();
    // premultiplied: c a, where c is the stored (pre-exposed) colour
    float a = clamp(out_color.a, 0.0, 1.0);
    float w = gn_oit_weight(dot(in_world - frame.camera_pos.xyz, frame.camera_forward.xyz), a);
    out_accum = vec4(min(out_color.rgb * (a * w), vec3(GN_OIT_MAX_ACCUM)), a * w);
    out_reveal = vec4(a);
}
#endif

// Virtual shadow maps (docs/SHADOWS.md; the CPU half in src/decide/vsm.c). Light space is the
// sun's rotation about a pivot; each light version's world -> light rows are in vsm_versions.
// MARK's page choice (gn_vsm_mark) mirrors gn_vsm_mark_point exactly. A lookup starts at that
// level and falls back to coarser ones until the page table holds the page, and samples it
// with the light version the page was rendered with.
#ifndef GN_VSM_GLSL
#define GN_VSM_GLSL

// The page table, the light versions and the atlas: the includer names their set and bindings
// (shared/bindings.h): the forward pass's sun set, or RESOLVE's own set.
layout(std430, set = GN_VSM_SET, binding = GN_VSM_BIND_TABLE) readonly buffer VsmTable { gn_gpu_vsm_page vsm_table[]; };
layout(std430, set = GN_VSM_SET, binding = GN_VSM_BIND_VERSIONS) readonly buffer VsmVersions { vec4 vsm_versions[]; };
layout(set = GN_VSM_SET, binding = GN_VSM_BIND_ATLAS) uniform sampler2DShadow vsm_atlas;

#include "vsm_mark.glsl"

// A point in the light space of a page's version (rows and pivot from vsm_versions).
vec3 gn_vsm_to_light(uint version, vec3 p)
{
    uint k = version * 4u;
    return gn_vsm_rotate(vsm_versions[k], vsm_versions[k + 1u], vsm_versions[k + 2u], vsm_versions[k + 3u].xyz, p);
}

// 3x3 PCF with hardware (bilinear) comparison in one tile of the atlas, at a tile-local texel
// position moved by jitter (RESOLVE's sub-texel offset of the frame; 0 for the forward pass) and
// kept 1.5 texels inside the tile, so no neighbouring page is ever read. The taps are 0.75 texel
// apart: a 3.5-texel kernel, against the ray-traced truth's hard edge better than 4 texels
// (taps 1 apart) or 3 (0.5 apart) on the town at three times of day (docs/SHADOWS.md).
float gn_vsm_pcf(uint tile, vec2 local, vec2 jitter, float depth)
{
    uint per_row = uint(frame.vsm_params.z);
    float atlas = float(frame.vsm_info.z);
    float texels = float(frame.vsm_info.y); // a page's side
    vec2 origin = vec2(float(tile % per_row), float(tile / per_row)) * texels;
    local = clamp(local + jitter, vec2(1.5), vec2(texels - 1.5));
    float lit = 0.0;
    for (int y = -1; y <= 1; y++)
        for (int x = -1; x <= 1; x++) lit += texture(vsm_atlas, vec3((origin + local + 0.75 * vec2(x, y)) / atlas, depth));
    return lit / 9.0;
}

// A light-space point's tile-local texel position in page ij (rows run down from the page's
// top, as its matrix flips y) and its depth.
vec3 gn_vsm_page_texel(vec3 q, ivec2 ij, float size)
{
    vec2 local = vec2(q.x / size - float(ij.x), 1.0 - (q.y / size - float(ij.y))) * float(frame.vsm_info.y);
    return vec3(local, (q.z + frame.vsm_params.x) / (2.0 * frame.vsm_params.x));
}

// The page a point samples: MARK's level, falling back coarser until the table holds the page.
// False (level = levels) where none does or the point is beyond the clipmap.
bool gn_vsm_find(vec3 world, out uint level, out ivec2 ij, out uvec4 e)
{
    uint levels = uint(frame.vsm.x);
    uint n = frame.vsm_info.x;
    vec3 lp = gn_vsm_to_light_now(world);
    uint slot;
    ij = ivec2(0);
    e = uvec4(GN_GPU_VSM_NONE, 0u, 0u, 0u);
    if (!gn_vsm_mark(world, lp, level, slot)) {
        level = levels;
        return false;
    }
    for (uint l = level; l < levels; l++) {
        float size = gn_vsm_page_size(l);
        ij = ivec2(floor(lp.xy / size));
        e = vsm_table[l * n * n + gn_vsm_slot(ij)].entry;
        if (e.x == GN_GPU_VSM_NONE || ivec2(e.zw) != ij) continue; // not resident: coarser
        level = l;
        return true;
    }
    level = levels;
    return false;
}

// 1 lit .. 0 shadowed at a point, in the page gn_vsm_find chose, the PCF moved by jitter texels.
float gn_vsm_sample(vec3 world, vec3 n_geo, uint level, ivec2 ij, uvec4 e, vec2 jitter)
{
    float size = gn_vsm_page_size(level);
    uint version = e.y & 0xffu;
    float texel = size / float(frame.vsm_info.y);
    vec3 offset = n_geo * (frame.vsm_params.w * texel);
    vec3 t = gn_vsm_page_texel(gn_vsm_to_light(version, world + offset), ij, size);
    float lit = gn_vsm_pcf(e.x, t.xy, jitter, t.z);
    // the dynamic layer over this page (this frame's light): the darker of the two wins
    uint dyn = (e.y >> 8u) & 0xffffu;
    if (dyn != 0u) {
        vec3 td = gn_vsm_page_texel(gn_vsm_to_light_now(world + offset), ij, size);
        lit = min(lit, gn_vsm_pcf(frame.vsm_info.w + dyn - 1u, td.xy, jitter, td.z));
    }
    return lit;
}

// 1 lit .. 0 shadowed; level_used gets the level sampled (levels: no page, lit).
float gn_vsm_shadow(vec3 world, vec3 n_geo, out uint level_used, out bool rendered_now)
{
    ivec2 ij;
    uvec4 e;
    rendered_now = false;
    if (!gn_vsm_find(world, level_used, ij, e)) return 1.0;
    rendered_now = (e.y & GN_GPU_VSM_RENDERED_NOW) != 0u;
    return gn_vsm_sample(world, n_geo, level_used, ij, e, vec2(0.0));
}

#endif

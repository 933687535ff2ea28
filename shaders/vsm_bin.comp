#version 450
// VSM BIN (docs/SHADOWS.md), after ALLOC: one thread a caster tests its sphere (in this frame's
// light) against every page RENDER draws this frame and appends an indirect draw command and
// an (instance, page) pair for each page it touches, into its draw group's region (opaque, or
// one alpha-tested material), so RENDER records one indirect-count draw a group however many
// casters there are. Static pages take static casters of at least half a texel; dynamic-layer
// pages take dynamic casters only; blended surfaces are not casters at all. The CPU reference
// is gn_vsm_bins_page in src/decide/vsm.c (tests/gpu/gpu_vsm.c compares the pairs). The order
// of the commands depends on thread timing; the depth they rasterise does not (the nearest
// wins).
#extension GL_GOOGLE_include_directive : require
#include "shared/gpu_types.h"

layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = 1) readonly buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };
layout(std430, set = 0, binding = 2) readonly buffer Casters { gn_gpu_vsm_caster casters[]; };
layout(std430, set = 0, binding = 3) readonly buffer Regions { uvec4 regions[]; }; // x first command, y capacity
layout(std430, set = 0, binding = 4) writeonly buffer Commands { uint commands[]; }; // VkDrawIndexedIndirectCommand
layout(std430, set = 0, binding = 5) writeonly buffer Pairs { uvec2 pairs[]; };     // instance, render entry
layout(std430, set = 0, binding = 6) buffer Indirect { uvec4 clear_draw; uint group_counts[]; };
layout(std430, set = 0, binding = 7) buffer Stats { gn_gpu_vsm_stats stats; };
layout(push_constant) uniform Push { uint caster_count; } pc;

#include "vsm_mark.glsl"

void main()
{
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.caster_count) return;
    gn_gpu_vsm_caster c = casters[k];
    uint group = c.info.x;
    vec3 lp = gn_vsm_to_light_now(c.sphere.xyz);
    float r = c.sphere.w;
    uint count = render_head.x;
    for (uint e = 0u; e < count; e++) {
        gn_gpu_vsm_render page = entries[e];
        if (page.page.w != c.info.y) continue; // static casters to static pages, dynamic to dynamic
        float x0 = page.rect.x, y0 = page.rect.y, size = page.rect.z;
        // a static caster under half a texel of this level casts nothing visible
        if (page.page.w == 0u && r < 0.5 * size / 128.0) continue;
        if (lp.x + r < x0 || lp.x - r > x0 + size || lp.y + r < y0 || lp.y - r > y0 + size) continue;
        uint slot = atomicAdd(group_counts[group], 1u);
        if (slot >= regions[group].y) {
            atomicAdd(stats.misc.y, 1u); // counted as overflow: the region is full
            continue;
        }
        uint at = regions[group].x + slot;
        commands[at * 5u] = c.draw.x;
        commands[at * 5u + 1u] = 1u;
        commands[at * 5u + 2u] = c.draw.y;
        commands[at * 5u + 3u] = c.draw.z;
        commands[at * 5u + 4u] = at;
        pairs[at] = uvec2(c.draw.w, e);
    }
}

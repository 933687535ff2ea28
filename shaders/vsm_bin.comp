#version 450
// VSM BIN (docs/SHADOWS.md), after ALLOC, in three dispatches (push constant `phase`):
//   0 COUNT: one thread a caster tests its sphere (in this frame's light) against every page
//     RENDER draws this frame and counts the (caster, page) pairs it makes, per draw slot (one
//     mesh of one draw group: opaque, or one alpha-tested material) and page;
//   1 OFFSETS: one workgroup turns the counts into runs of the pair list, slot by slot and
//     within a slot page by page (prefix sums; what passes the list's end is cut and counted as
//     overflow), and writes each slot's indirect command: its mesh, instanceCount = its pairs,
//     firstInstance = its run;
//   2 FILL: the same tests again, each pair written into its (slot, page) run.
// RENDER then draws each group's slots with one vkCmdDrawIndexedIndirect (empty slots have
// instanceCount 0), so the CPU records a handful of draws however many casters there are; a
// draw instances one mesh over the pages it falls in, a page after another (the depth tiles
// stay warm in the caches). Static pages take static casters of at least half a texel;
// dynamic-layer pages take dynamic casters only. The CPU reference is gn_vsm_bins_page in
// src/decide/vsm.c (tests/gpu/gpu_vsm.c compares the pairs). The order of pairs within a run
// depends on thread timing; the depth they rasterise does not.
#extension GL_GOOGLE_include_directive : require
#include "shared/gpu_types.h"

layout(local_size_x = 256) in;
layout(set = 0, binding = 0) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = 1) readonly buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };
layout(std430, set = 0, binding = 2) readonly buffer Casters { gn_gpu_vsm_caster casters[]; };
layout(std430, set = 0, binding = 3) readonly buffer Slots { uvec4 slots[]; }; // index count, first index, vertex offset
layout(std430, set = 0, binding = 4) buffer Commands { uint commands[]; }; // VkDrawIndexedIndirectCommand a slot
layout(std430, set = 0, binding = 5) writeonly buffer Pairs { uvec2 pairs[]; };     // instance, render entry
// per (slot, page): the pairs, then (after OFFSETS) the run's first pair and its fill cursor
layout(std430, set = 0, binding = 6) buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = 7) buffer Stats { gn_gpu_vsm_stats stats; };
layout(push_constant) uniform Push {
    uint phase, caster_count, slot_count, pair_capacity, pages; // pages: the render list's capacity
} pc;

#include "vsm_mark.glsl"

shared uint s_scan[256];
shared uint s_base;

// COUNT or FILL for one caster: every page of this frame's list it falls in.
void each_pair(uint k)
{
    gn_gpu_vsm_caster c = casters[k];
    uint slot = c.info.z;
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
        uint run = 3u * (slot * pc.pages + e); // pairs, first, cursor
        if (pc.phase == 0u) {
            atomicAdd(counts[run], 1u);
        } else {
            uint at = atomicAdd(counts[run + 2u], 1u); // the cursor starts at the run's first pair
            if (at < counts[run + 1u] + counts[run]) pairs[at] = uvec2(c.draw.w, e);
        }
    }
}

void main()
{
    if (pc.phase != 1u) {
        uint k = gl_GlobalInvocationID.x;
        if (k < pc.caster_count) each_pair(k);
        return;
    }
    // OFFSETS: one workgroup over the (slot, page) runs in chunks of 256, a running base
    uint t = gl_LocalInvocationIndex, runs = pc.slot_count * pc.pages;
    if (t == 0u) s_base = 0u;
    barrier();
    for (uint base = 0u; base < runs; base += 256u) {
        uint q = base + t;
        uint n = q < runs ? counts[3u * q] : 0u;
        s_scan[t] = n;
        barrier();
        for (uint off = 1u; off < 256u; off <<= 1u) {
            uint add = t >= off ? s_scan[t - off] : 0u;
            barrier();
            s_scan[t] += add;
            barrier();
        }
        uint first = s_base + s_scan[t] - n, total = s_scan[255];
        if (q < runs) {
            uint start = min(first, pc.pair_capacity), fit = min(n, pc.pair_capacity - start);
            if (fit < n) atomicAdd(stats.misc.y, n - fit); // counted as overflow: the list is full
            counts[3u * q] = fit;
            counts[3u * q + 1u] = start;
            counts[3u * q + 2u] = start;
        }
        barrier();
        if (t == 0u) s_base += total;
        barrier();
    }
    // a command a slot: its runs are consecutive, page 0 first
    for (uint slot = t; slot < pc.slot_count; slot += 256u) {
        uint q0 = slot * pc.pages, q1 = q0 + pc.pages - 1u;
        uint first = counts[3u * q0 + 1u], end = counts[3u * q1 + 1u] + counts[3u * q1];
        uvec4 m = slots[slot];
        commands[5u * slot] = m.x;
        commands[5u * slot + 1u] = end - first;
        commands[5u * slot + 2u] = m.y;
        commands[5u * slot + 3u] = m.z;
        commands[5u * slot + 4u] = first;
    }
}

#version 450
// VSM BIN (docs/SHADOWS.md), after ALLOC, in three dispatches (push constant `phase`):
//   0 COUNT: one thread a caster tests its sphere (in this frame's light) against every page
//     RENDER draws this frame and counts, per draw slot (one mesh of one draw group: opaque, or
//     one alpha-tested material), the (caster, page) pairs it makes;
//   1 OFFSETS: one workgroup turns the counts into each slot's run of the pair list (prefix
//     sums; a run past the list's end is cut and the cut pairs counted as overflow) and writes
//     the slot's indirect command: its mesh, instanceCount = its pairs, firstInstance = its run;
//   2 FILL: the same tests again, each pair written into its slot's run.
// RENDER then draws each group's slots with one vkCmdDrawIndexedIndirect (empty slots have
// instanceCount 0), so the CPU records a handful of draws however many casters there are, and
// each draw instances one mesh over every page it falls in. Static pages take static casters
// of at least half a texel; dynamic-layer pages take dynamic casters only. The CPU reference is
// gn_vsm_bins_page in src/decide/vsm.c (tests/gpu/gpu_vsm.c compares the pairs). The order of
// pairs within a run depends on thread timing; the depth they rasterise does not.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 256) in;
layout(set = 0, binding = GN_BIND_BINV_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = GN_BIND_BINV_RENDER) readonly buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };
layout(std430, set = 0, binding = GN_BIND_BINV_CASTERS) readonly buffer Casters { gn_gpu_vsm_caster casters[]; };
layout(std430, set = 0, binding = GN_BIND_BINV_SLOTS) readonly buffer Slots { uvec4 slots[]; }; // index count, first index, vertex offset
layout(std430, set = 0, binding = GN_BIND_BINV_COMMANDS) buffer Commands { uint commands[]; }; // VkDrawIndexedIndirectCommand a slot
layout(std430, set = 0, binding = GN_BIND_BINV_PAIRS) writeonly buffer Pairs { uvec2 pairs[]; };     // instance, render entry
layout(std430, set = 0, binding = GN_BIND_BINV_COUNTS) buffer Counts { uint counts[]; };              // a count, then a cursor, a slot
layout(std430, set = 0, binding = GN_BIND_BINV_STATS) buffer Stats { gn_gpu_vsm_stats stats; };
layout(push_constant) uniform Push {
    uint phase, caster_count, slot_count, pair_capacity;
} pc;

#include "vsm_mark.glsl"

shared uint s_scan[256];
shared uint s_base;

// Calls back for every page of this frame's list the caster's pairs go to.
void each_pair(uint k)
{
    gn_gpu_vsm_caster c = casters[k];
    vec3 lp = gn_vsm_to_light_now(c.sphere.xyz);
    float r = c.sphere.w;
    uint count = render_head.x;
    for (uint e = 0u; e < count; e++) {
        gn_gpu_vsm_render page = entries[e];
        if (page.page.w != c.info.y) continue; // static casters to static pages, dynamic to dynamic
        float x0 = page.rect.x, y0 = page.rect.y, size = page.rect.z;
        // a static caster under half a texel of this level casts nothing visible
        if (page.page.w == 0u && r < 0.5 * size / float(frame.vsm_info.y)) continue;
        if (lp.x + r < x0 || lp.x - r > x0 + size || lp.y + r < y0 || lp.y - r > y0 + size) continue;
        // its LOD where that errs by at most a texel of this page's level (src/decide/caster_lod.h)
        uint slot = c.draw.x != 0u && uintBitsToFloat(c.draw.y) <= size / float(frame.vsm_info.y) ? c.draw.x - 1u : c.info.z;
        if (pc.phase == 0u) {
            atomicAdd(counts[2u * slot], 1u);
        } else {
            uint i = atomicAdd(counts[2u * slot + 1u], 1u);
            if (i < commands[5u * slot + 1u]) pairs[commands[5u * slot + 4u] + i] = uvec2(c.draw.w, e);
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
    // OFFSETS: one workgroup, the slots in chunks of 256, a running base
    uint t = gl_LocalInvocationIndex;
    if (t == 0u) s_base = 0u;
    barrier();
    for (uint base = 0u; base < pc.slot_count; base += 256u) {
        uint s = base + t;
        uint n = s < pc.slot_count ? counts[2u * s] : 0u;
        s_scan[t] = n;
        barrier();
        for (uint off = 1u; off < 256u; off <<= 1u) {
            uint add = t >= off ? s_scan[t - off] : 0u;
            barrier();
            s_scan[t] += add;
            barrier();
        }
        uint first = s_base + s_scan[t] - n, total = s_scan[255];
        if (s < pc.slot_count) {
            uint fit = first >= pc.pair_capacity ? 0u : min(n, pc.pair_capacity - first);
            if (fit < n) atomicAdd(stats.misc.y, n - fit); // counted as overflow: the list is full
            uvec4 m = slots[s];
            commands[5u * s] = m.x;
            commands[5u * s + 1u] = fit;
            commands[5u * s + 2u] = m.y;
            commands[5u * s + 3u] = m.z;
            commands[5u * s + 4u] = min(first, pc.pair_capacity);
        }
        barrier();
        if (t == 0u) s_base += total;
        barrier();
    }
}

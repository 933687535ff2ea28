#version 450
// VSM BIN (docs/SHADOWS.md), after ALLOC, in three dispatches (push constant `phase`), and a
// fourth with occlusion culling:
//   0 COUNT: one thread a caster tests its sphere (in this frame's light) against every page
//     RENDER draws this frame and counts, per draw slot (one mesh of one draw group: opaque, or
//     one alpha-tested material), the (caster, page) pairs it makes;
//   1 OFFSETS: one workgroup turns the counts into each slot's run of the pair list (prefix
//     sums; a run past the list's end is cut and the cut pairs counted as overflow) and writes
//     the slot's indirect command: its mesh, instanceCount = its pairs, firstInstance = its run;
//   2 FILL: the same tests again, each pair written into its slot's run;
//   3 TEST (occlusion culling, docs/VISIBILITY.md): with `occlusion`, COUNT and FILL send a
//     pair whose page's tile still holds the page's older depth, and which that depth's pyramid
//     hides (vsm_hidden.glsl), to the slot's second-phase twin (slot + slot_count) as
//     (caster, page); RENDER draws the first phase, vsm_hzb_staging.comp builds each layer's
//     pyramid, and TEST, one workgroup a slot, tests the waiting pairs against it and compacts
//     the survivors, as (instance, page), to the front of the twin's run in their order, its
//     command's instanceCount their count; RENDER then draws the twins over the same layers.
// RENDER draws each group's slots with one vkCmdDrawIndexedIndirect (empty slots have
// instanceCount 0), so the CPU records a handful of draws however many casters there are, and
// each draw instances one mesh over every page it falls in. Static pages take static casters
// of at least half a texel; dynamic-layer pages take dynamic casters only. The CPU reference is
// gn_vsm_bins_page in src/decide/vsm.c (tests/gpu/gpu_vsm.c compares the pairs) and, for TEST,
// gn_vsm_hidden in src/decide/vsm_hzb.c (tests/gpu/gpu_vsm_occlusion.c). The order of pairs
// within a run depends on thread timing; the depth they rasterise does not.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 256) in;
layout(set = 0, binding = GN_BIND_BINV_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = GN_BIND_BINV_RENDER) readonly buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };
layout(std430, set = 0, binding = GN_BIND_BINV_CASTERS) readonly buffer Casters { gn_gpu_vsm_caster casters[]; };
layout(std430, set = 0, binding = GN_BIND_BINV_SLOTS) readonly buffer Slots { uvec4 slots[]; }; // index count, first index, vertex offset
layout(std430, set = 0, binding = GN_BIND_BINV_COMMANDS) buffer Commands { uint commands[]; }; // VkDrawIndexedIndirectCommand a slot
layout(std430, set = 0, binding = GN_BIND_BINV_PAIRS) buffer Pairs { uvec2 pairs[]; }; // instance (caster while waiting), render entry
layout(std430, set = 0, binding = GN_BIND_BINV_COUNTS) buffer Counts { uint counts[]; };              // a count, then a cursor, a slot
layout(std430, set = 0, binding = GN_BIND_BINV_STATS) buffer Stats { gn_gpu_vsm_stats stats; };
layout(std430, set = 0, binding = GN_BIND_BINV_HZB) readonly buffer Hzb { float hzb[]; };
layout(push_constant) uniform Push {
    uint phase, caster_count, slot_count, pair_capacity;
    uint occlusion, hzb_stride; // occlusion culling on; a page's pyramid's texels
} pc;

#include "vsm_mark.glsl"
#include "vsm_hidden.glsl"

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
        uint dynamic = page.page.w & GN_GPU_VSM_RENDER_DYNAMIC;
        if (dynamic != c.info.y) continue; // static casters to static pages, dynamic to dynamic
        float x0 = page.rect.x, y0 = page.rect.y, size = page.rect.z;
        // a static caster under half a texel of this level casts nothing visible
        if (dynamic == 0u && r < 0.5 * size / float(frame.vsm_info.y)) continue;
        if (lp.x + r < x0 || lp.x - r > x0 + size || lp.y + r < y0 || lp.y - r > y0 + size) continue;
        // its LOD where that errs by at most a texel of this page's level (src/decide/caster_lod.h)
        uint slot = c.draw.x != 0u && uintBitsToFloat(c.draw.y) <= size / float(frame.vsm_info.y) ? c.draw.x - 1u : c.info.z;
        // hidden by the page's older depth: waits for the second phase, named by its caster
        bool wait = pc.occlusion != 0u && (page.page.w & GN_GPU_VSM_RENDER_HELD) != 0u &&
                    gn_vsm_hidden(e * pc.hzb_stride, page.rect, lp, r);
        if (wait) slot += pc.slot_count;
        if (pc.phase == 0u) {
            atomicAdd(counts[2u * slot], 1u);
        } else {
            uint i = atomicAdd(counts[2u * slot + 1u], 1u);
            if (i < commands[5u * slot + 1u]) pairs[commands[5u * slot + 4u] + i] = uvec2(wait ? k : c.draw.w, e);
        }
    }
}

// An inclusive prefix sum over the workgroup's 256 threads; total: all of them.
uint scan(uint v, out uint total)
{
    uint t = gl_LocalInvocationIndex;
    s_scan[t] = v;
    barrier();
    for (uint off = 1u; off < 256u; off <<= 1u) {
        uint add = t >= off ? s_scan[t - off] : 0u;
        barrier();
        s_scan[t] += add;
        barrier();
    }
    total = s_scan[255];
    return s_scan[t];
}

// OFFSETS: one workgroup, the slots (and with occlusion their twins) in chunks of 256, a
// running base.
void offsets()
{
    uint t = gl_LocalInvocationIndex;
    uint all_slots = pc.slot_count * (pc.occlusion != 0u ? 2u : 1u);
    if (t == 0u) s_base = 0u;
    barrier();
    for (uint base = 0u; base < all_slots; base += 256u) {
        uint s = base + t;
        uint n = s < all_slots ? counts[2u * s] : 0u, total;
        uint first = s_base + scan(n, total) - n;
        if (s < all_slots) {
            uint fit = first >= pc.pair_capacity ? 0u : min(n, pc.pair_capacity - first);
            if (fit < n) atomicAdd(stats.misc.y, n - fit); // counted as overflow: the list is full
            if (fit > 0u && s < pc.slot_count) atomicAdd(stats.pairs.x, fit);
            if (fit > 0u && s >= pc.slot_count) atomicAdd(stats.pairs.y, fit);
            uvec4 m = slots[s % pc.slot_count];
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

// TEST: one workgroup a slot's twin, its waiting pairs in chunks of 256 against this frame's
// first-phase pyramids; the survivors move to the front of the run, in order (a chunk is read
// before the scan's barriers and written after them, never past where it was read).
void test()
{
    uint t = gl_LocalInvocationIndex, cmd = 5u * (pc.slot_count + gl_WorkGroupID.x);
    uint n = commands[cmd + 1u], first = commands[cmd + 4u];
    if (t == 0u) s_base = 0u;
    barrier();
    for (uint base = 0u; base < n; base += 256u) {
        uint i = base + t;
        bool keep = false;
        uvec2 pair = uvec2(0u);
        if (i < n) {
            pair = pairs[first + i];
            gn_gpu_vsm_caster c = casters[pair.x];
            keep = !gn_vsm_hidden(pair.y * pc.hzb_stride, entries[pair.y].rect, gn_vsm_to_light_now(c.sphere.xyz), c.sphere.w);
            pair.x = c.draw.w;
        }
        uint total, at = s_base + scan(keep ? 1u : 0u, total) - 1u;
        if (keep) pairs[first + at] = pair;
        barrier();
        if (t == 0u) s_base += total;
        barrier();
    }
    if (t == 0u) {
        commands[cmd + 1u] = s_base;
        if (s_base > 0u) atomicAdd(stats.pairs.z, s_base);
    }
}

void main()
{
    if (pc.phase == 1u) {
        offsets();
    } else if (pc.phase == 3u) {
        test();
    } else {
        uint k = gl_GlobalInvocationID.x;
        if (k < pc.caster_count) each_pair(k);
    }
}

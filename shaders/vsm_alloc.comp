#version 450
// VSM ALLOC (docs/SHADOWS.md), right after MARK in the same frame. One workgroup walks every
// virtual page in chunks of 4096 (4 consecutive pages a thread), so that each choice that
// depends on order (which pages return to the free stack and where, which free page a request
// pops, which dynamic pages get tiles, which candidates fit the page budget) is made in page
// index order through prefix sums, exactly as the CPU reference does it: gn_vsm_alloc,
// gn_vsm_dynamic_pages, gn_vsm_select and gn_vsm_commit in src/decide/vsm.c. tests/gpu/gpu_vsm.c
// holds the two equal on recorded frames. Only integer atomics, whose results do not depend on
// the order threads run in. It writes the page table the lookups read, the list of pages
// RENDER draws (BIN culls their casters) and the frame's statistics.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

#define THREADS 1024u // the most a workgroup may have: fewer chunks, so fewer serial steps
#define CHUNK (4u * THREADS)
layout(local_size_x = 1024) in;
layout(set = 0, binding = GN_BIND_ALLOC_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = GN_BIND_ALLOC_REQUESTS) readonly buffer Requests { uint requests[]; };
layout(std430, set = 0, binding = GN_BIND_ALLOC_STATE) buffer State { gn_gpu_vsm_state pages[]; };
// x free pages; y dynamic pages last rendered (~0u: none valid). lists: the free stack
// [0, pool), the dynamic pages last rendered [pool, pool + cap), this frame's [pool + cap, ..)
layout(std430, set = 0, binding = GN_BIND_ALLOC_POOL) buffer Pool { uvec4 pool_head; uint lists[]; };
layout(std430, set = 0, binding = GN_BIND_ALLOC_RENDER) buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };
layout(std430, set = 0, binding = GN_BIND_ALLOC_TABLE) writeonly buffer Table { gn_gpu_vsm_page table[]; };
layout(std430, set = 0, binding = GN_BIND_ALLOC_VERSIONS) readonly buffer Versions { vec4 versions[]; };
layout(std430, set = 0, binding = GN_BIND_ALLOC_STATS) buffer Stats { gn_gpu_vsm_stats stats; };
// this frame's invalidation spheres, then the dynamic casters' spheres (world xyz, radius)
layout(std430, set = 0, binding = GN_BIND_ALLOC_INPUTS) readonly buffer Inputs { vec4 spheres[]; };
layout(std430, set = 0, binding = GN_BIND_ALLOC_INDIRECT) buffer Indirect { uvec4 copy_draw; }; // RENDER's tile copy: 6 vertices a page

layout(push_constant) uniform Push {
    uvec4 a; // x frame, y current light version id, z page budget, w evict_frames
    uvec4 b; // x pool pages, y dynamic tiles at most, z invalidation spheres, w dynamic spheres
    uvec4 c; // x GN_ALLOC_* flags, y pages in all levels
} pc;

#define GN_ALLOC_INVALIDATE_ALL 1u // the scene changed under the cache: every page is dirty
#define GN_ALLOC_DYNAMIC_CHANGED 2u // a dynamic caster moved, or the light or their count changed
#define VERSIONS 256u               // GN_VSM_VERSIONS
#define RETURN_GAP 2u               // GN_VSM_RETURN_GAP
#define BUCKETS 288u                // 16 new + 16 dirty levels, 256 light-version ages
#define NONE GN_GPU_VSM_NONE

#include "vsm_mark.glsl"

shared uint s_scan[THREADS];
shared uint s_hist[BUCKETS];
shared uint s_ages[VERSIONS / 32u];
shared uint s_level_req[16], s_level_ren[16];
shared uint s_free, s_requested, s_resident, s_evicted, s_overflow, s_candidates;
shared uint s_dyn_needed, s_dyn_diff, s_lag, s_cut, s_quota, s_static, s_in_cut, s_fresh;

// Exclusive prefix sum of v over the workgroup, in thread order; *total gets the sum.
uint scan(uint v, out uint total)
{
    uint t = gl_LocalInvocationIndex;
    s_scan[t] = v;
    barrier();
    for (uint off = 1u; off < THREADS; off <<= 1u) {
        uint add = t >= off ? s_scan[t - off] : 0u;
        barrier();
        s_scan[t] += add;
        barrier();
    }
    total = s_scan[THREADS - 1u];
    uint before = s_scan[t] - v;
    barrier();
    return before;
}

// The window page a level's table slot holds this frame (gn_vsm_slot_page).
ivec2 slot_page(uint level, uint slot)
{
    int n = int(frame.vsm_info.x);
    ivec2 s = ivec2(int(slot) % n, int(slot) / n), o = gn_vsm_origin(level);
    return o + (((s - o) % n) + n) % n;
}

// A light-space disc's bounding square against page (i, j) of a page size: gn_vsm_bins_page's test.
bool touches(vec3 lp, float r, ivec2 ij, float size)
{
    float x0 = float(ij.x) * size, y0 = float(ij.y) * size;
    return !(lp.x + r < x0 || lp.x - r > x0 + size || lp.y + r < y0 || lp.y - r > y0 + size);
}

bool rendered(gn_gpu_vsm_state s) { return (s.b.y & GN_GPU_VSM_STATE_RENDERED) != 0u; }
bool dirty(gn_gpu_vsm_state s) { return (s.b.y & GN_GPU_VSM_STATE_DIRTY) != 0u; }

// A page a static object's sphere touches in the light version the page was rendered with
// (gn_vsm_invalidate_sphere).
bool invalidated(gn_gpu_vsm_state s, uint level)
{
    uint k = (s.a.w % VERSIONS) * 4u;
    float size = gn_vsm_page_size(level);
    for (uint q = 0u; q < pc.b.z; q++) {
        vec4 sp = spheres[q];
        vec3 lp = gn_vsm_rotate(versions[k], versions[k + 1u], versions[k + 2u], versions[k + 3u].xyz, sp.xyz);
        if (touches(lp, sp.w, ivec2(s.a.xy), size)) return true;
    }
    return false;
}

// Render priority as a bucket, smaller first (gn_vsm_priority): new pages by level, dirty ones
// by level, then the oldest light version first. Within a bucket, page index order.
uint bucket(gn_gpu_vsm_state s, uint level)
{
    if (!rendered(s)) return level;
    if (dirty(s)) return 16u + level;
    return 32u + (VERSIONS - 1u) - (pc.a.y - s.a.w);
}

bool candidate(gn_gpu_vsm_state s)
{
    return s.a.z != NONE && s.b.x == pc.a.x && (!rendered(s) || dirty(s) || s.a.w != pc.a.y);
}

void main()
{
    uint t = gl_LocalInvocationIndex, total = pc.c.y, n = frame.vsm_info.x, per_level = n * n;
    uint frame_id = pc.a.x, current = pc.a.y, pool = pc.b.x, cap = pc.b.y;
    for (uint k = t; k < BUCKETS; k += THREADS) s_hist[k] = 0u;
    if (t < VERSIONS / 32u) s_ages[t] = 0u;
    if (t < 16u) s_level_req[t] = s_level_ren[t] = 0u;
    if (t == 0u) {
        s_free = pool_head.x;
        s_requested = s_resident = s_evicted = s_overflow = s_candidates = 0u;
        s_dyn_needed = s_dyn_diff = s_lag = 0u;
    }
    barrier();

    // 1. Invalidation, then release: pages that left their slot's window, went unrequested
    //    for evict_frames frames or whose light version left the ring go back to the free
    //    stack, pushed in page index order.
    for (uint base = 0u; base < total; base += CHUNK) {
        uint freed[4], count = 0u;
        for (uint k = 0u; k < 4u; k++) {
            uint p = base + t * 4u + k;
            freed[k] = NONE;
            if (p >= total) continue;
            gn_gpu_vsm_state s = pages[p];
            uint level = p / per_level;
            s.b.y &= GN_GPU_VSM_STATE_RENDERED | GN_GPU_VSM_STATE_DIRTY;
            s.b.z = 0u;
            if ((pc.c.x & GN_ALLOC_INVALIDATE_ALL) != 0u)
                s.b.y = rendered(s) ? GN_GPU_VSM_STATE_RENDERED | GN_GPU_VSM_STATE_DIRTY : 0u;
            else if (rendered(s) && !dirty(s) && invalidated(s, level))
                s.b.y |= GN_GPU_VSM_STATE_DIRTY;
            if (s.a.z != NONE) {
                bool moved_out = ivec2(s.a.xy) != slot_page(level, p % per_level);
                bool stale = frame_id - s.b.x > pc.a.w;
                bool too_old = rendered(s) && current - s.a.w >= VERSIONS;
                if (moved_out || stale || too_old) {
                    freed[k] = s.a.z;
                    count++;
                    s.a.z = NONE;
                    s.b.y = 0u;
                }
            }
            pages[p] = s;
        }
        uint sum, at = scan(count, sum) + s_free;
        for (uint k = 0u; k < 4u; k++)
            if (freed[k] != NONE) lists[at++] = freed[k];
        barrier();
        if (t == 0u) {
            s_free += sum;
            s_evicted += sum;
        }
        barrier();
    }

    // 2. Requests: a requested page keeps its physical page or pops the top of the free stack
    //    (in page index order); with the stack empty it overflows and a coarser level stands
    //    in. Candidates for rendering are counted in their priority buckets.
    for (uint base = 0u; base < total; base += CHUNK) {
        uint need = 0u;
        bool req[4];
        for (uint k = 0u; k < 4u; k++) {
            uint p = base + t * 4u + k;
            req[k] = p < total && (requests[p >> 5u] & (1u << (p & 31u))) != 0u;
            if (req[k] && pages[p].a.z == NONE) need++;
        }
        uint sum, rank = scan(need, sum);
        uint avail = s_free;
        for (uint k = 0u; k < 4u; k++) {
            uint p = base + t * 4u + k;
            if (!req[k]) continue;
            uint level = p / per_level;
            atomicAdd(s_requested, 1u);
            atomicAdd(s_level_req[level], 1u);
            gn_gpu_vsm_state s = pages[p];
            if (s.a.z == NONE) {
                uint r = rank++;
                if (r >= avail) {
                    atomicAdd(s_overflow, 1u);
                    continue;
                }
                s.a.xy = uvec2(slot_page(level, p % per_level));
                s.a.z = lists[avail - 1u - r];
                s.b.y = 0u;
            }
            // back in view after a gap under an older sun: waits to be rendered again
            if (rendered(s) && s.a.w != current && frame_id - s.b.x > RETURN_GAP)
                s.b.y &= ~GN_GPU_VSM_STATE_RENDERED;
            s.b.x = frame_id;
            if (candidate(s)) {
                atomicAdd(s_hist[bucket(s, level)], 1u);
                atomicAdd(s_candidates, 1u);
            }
            if (rendered(s)) {
                uint age = current - s.a.w;
                atomicOr(s_ages[age >> 5u], 1u << (age & 31u));
            }
            pages[p] = s;
        }
        barrier();
        if (t == 0u) s_free -= min(sum, avail);
        barrier();
    }

    // 3. The dynamic layer: requested, rendered pages a dynamic caster's sphere touches (in
    //    this frame's light) get tiles after the pool's, in page index order, up to cap.
    for (uint base = 0u; pc.b.w > 0u && base < total; base += CHUNK) {
        uint hit = 0u;
        bool dyn[4];
        for (uint k = 0u; k < 4u; k++) {
            uint p = base + t * 4u + k;
            dyn[k] = false;
            if (p >= total) continue;
            gn_gpu_vsm_state s = pages[p];
            if (s.a.z == NONE || !rendered(s) || s.b.x != frame_id) continue;
            float size = gn_vsm_page_size(p / per_level);
            for (uint q = 0u; q < pc.b.w && !dyn[k]; q++) {
                vec4 sp = spheres[pc.b.z + q];
                dyn[k] = touches(gn_vsm_to_light_now(sp.xyz), sp.w, ivec2(s.a.xy), size);
            }
            hit += dyn[k] ? 1u : 0u;
        }
        uint sum, rank = scan(hit, sum) + s_dyn_needed;
        for (uint k = 0u; k < 4u; k++) {
            uint p = base + t * 4u + k;
            if (!dyn[k]) continue;
            uint r = rank++;
            if (r >= cap) continue;
            lists[pool + cap + r] = p;
            pages[p].b.z = r + 1u;
        }
        barrier();
        if (t == 0u) s_dyn_needed += sum;
        barrier();
    }
    uint dyn_count = min(s_dyn_needed, cap);
    // rendered again when a caster or the light changed, or the set of pages did
    for (uint k = t; k < dyn_count; k += THREADS)
        if (lists[pool + k] != lists[pool + cap + k]) atomicOr(s_dyn_diff, 1u);
    barrier();
    bool changed = (pc.c.x & GN_ALLOC_DYNAMIC_CHANGED) != 0u;
    bool dyn_render = dyn_count > 0u && (changed || s_dyn_diff != 0u || pool_head.y != dyn_count);
    if (dyn_render)
        for (uint k = t; k < dyn_count; k += THREADS) lists[pool + k] = lists[pool + cap + k];
    barrier(); // every thread has read pool_head.y

    // 4. The render choice: the budget left by the dynamic layer goes to the candidates in
    //    bucket order; the cut bucket's candidates in page index order. Chosen pages are
    //    committed to this frame's light version.
    if (t == 0u) {
        if (dyn_render)
            pool_head.y = dyn_count;
        else if (changed)
            pool_head.y = ~0u; // the tiles are out of date: render once pages appear again
        uint budget = pc.a.z - (dyn_render ? dyn_count : 0u), sum = 0u, b = 0u;
        while (b < BUCKETS && sum + s_hist[b] <= budget) sum += s_hist[b++];
        s_cut = b;
        s_quota = budget - sum;
        s_static = s_in_cut = s_fresh = 0u;
    }
    barrier();
    uint cut = s_cut, quota = s_quota;
    for (uint base = 0u; base < total; base += CHUNK) {
        uint in_cut = 0u;
        for (uint k = 0u; k < 4u; k++) {
            uint p = base + t * 4u + k;
            if (p < total && candidate(pages[p]) && bucket(pages[p], p / per_level) == cut) in_cut++;
        }
        uint sum, rank = scan(in_cut, sum) + s_in_cut; // the cut bucket's rank over all chunks
        uint chosen = 0u;
        bool pick[4];
        for (uint k = 0u; k < 4u; k++) {
            uint p = base + t * 4u + k;
            pick[k] = false;
            if (p >= total || !candidate(pages[p])) continue;
            uint b = bucket(pages[p], p / per_level);
            pick[k] = b < cut || (b == cut && rank < quota);
            if (b == cut) rank++;
            chosen += pick[k] ? 1u : 0u;
        }
        uint chosen_sum, at = scan(chosen, chosen_sum) + s_static;
        for (uint k = 0u; k < 4u; k++) {
            uint p = base + t * 4u + k;
            if (!pick[k]) continue;
            uint level = p / per_level;
            gn_gpu_vsm_state s = pages[p];
            if (bucket(s, level) < 32u) atomicAdd(s_fresh, 1u); // new, back in view or dirty
            // a kept page rendered before: its tile holds its depth under an older light
            uint held = rendered(s) ? GN_GPU_VSM_RENDER_HELD : 0u;
            s.a.w = current;
            s.b.y = GN_GPU_VSM_STATE_RENDERED | GN_GPU_VSM_STATE_NOW;
            pages[p] = s;
            float size = gn_vsm_page_size(level);
            entries[at++] = gn_gpu_vsm_render(uvec4(p, s.a.z, level, held),
                                              vec4(float(int(s.a.x)) * size, float(int(s.a.y)) * size, size, 2.0 / size));
            atomicAdd(s_level_ren[level], 1u);
        }
        barrier();
        if (t == 0u) {
            s_static += chosen_sum;
            s_in_cut += sum;
        }
        barrier();
    }
    uint statics = s_static;
    for (uint k = t; dyn_render && k < dyn_count; k += THREADS) {
        uint p = lists[pool + cap + k], level = p / per_level;
        float size = gn_vsm_page_size(level);
        ivec2 ij = ivec2(pages[p].a.xy);
        entries[statics + k] = gn_gpu_vsm_render(uvec4(p, pool + k, level, GN_GPU_VSM_RENDER_DYNAMIC),
                                                 vec4(float(ij.x) * size, float(ij.y) * size, size, 2.0 / size));
    }

    // 5. The page table the lookups read: rendered pages only (one waiting for the budget
    //    reads as missing, so a coarser level stands in).
    for (uint p = t; p < total; p += THREADS) {
        gn_gpu_vsm_state s = pages[p];
        if (s.a.z != NONE) atomicAdd(s_resident, 1u);
        if (s.a.z == NONE || !rendered(s)) {
            table[p].entry = uvec4(NONE, 0u, 0u, 0u);
            continue;
        }
        bool now = (s.b.y & GN_GPU_VSM_STATE_NOW) != 0u || (dyn_render && s.b.z != 0u);
        uint y = (s.a.w % VERSIONS) | (s.b.z << 8u) | (now ? GN_GPU_VSM_RENDERED_NOW : 0u);
        table[p].entry = uvec4(s.a.z, y, s.a.xy);
    }

    // 6. The largest angle between the sun of a requested, shown page and this frame's
    //    (the light's forward row is minus the sun direction)
    uint age = t;
    if (age < VERSIONS && (s_ages[age >> 5u] & (1u << (age & 31u))) != 0u) {
        uint k = ((current - age) % VERSIONS) * 4u + 2u;
        vec3 a = versions[k].xyz, b = frame.vsm_light[2].xyz;
        float deg = degrees(atan(length(cross(a, b)), dot(a, b)));
        atomicMax(s_lag, floatBitsToUint(max(deg, 0.0)));
    }
    barrier();
    if (t == 0u) {
        uint count = statics + (dyn_render ? dyn_count : 0u);
        render_head = uvec4(count, statics, dyn_render ? dyn_count : 0u, 0u);
        copy_draw = uvec4(6u, count, 0u, 0u);
        pool_head.x = s_free;
        stats.pages = uvec4(s_requested, s_resident, statics, dyn_render ? dyn_count : 0u);
        stats.pool = uvec4(s_evicted, s_overflow + (s_dyn_needed - dyn_count), s_candidates - statics, pool - s_free);
        stats.misc = uvec4(s_lag, 0u, s_dyn_needed, s_free);
    }
    if (t < 4u) {
        stats.requested_level[t] = uvec4(s_level_req[4u * t], s_level_req[4u * t + 1u], s_level_req[4u * t + 2u],
                                         s_level_req[4u * t + 3u]);
        stats.rendered_level[t] = uvec4(s_level_ren[4u * t], s_level_ren[4u * t + 1u], s_level_ren[4u * t + 2u],
                                        s_level_ren[4u * t + 3u]);
        if (t == 0u) stats.fresh = uvec4(s_fresh, 0u, 0u, 0u);
        if (t == 0u) stats.pairs = uvec4(0u); // BIN's to count
    }
}

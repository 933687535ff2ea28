#version 450
// WRITE: thread i of view v scatters slot i's instance (when visible) to its place in the
// view's window of the visible list, and writes the view's command for group i (when i is a
// group): its first instance is the window's start plus the visible slots before the group's
// first slot, its count those within it. Integer sums only: the counts are the same whatever
// order the atomics land in.
#include "cull.glsl"

layout(local_size_x = 256) in;

// visible slots of view v before slot k (k == slots: all of them)
uint rank_of(uint v, uint k)
{
    return k >= pc.sizes.x ? counts[total_at(v)]
                           : blocks[v * pc.sizes.w + k / GN_CULL_BLOCK] + (local_rank[v * pc.sizes.x + k] & 0x7fffffffu);
}

void main()
{
    uint i = gl_GlobalInvocationID.x, v = view_index(), window = v * pc.sizes.x;
    if (i < pc.sizes.x && (local_rank[window + i] >> 31) != 0u) visible_ids[window + rank_of(v, i)] = order[i];
    if (i < pc.sizes.y) {
        gn_gpu_cull_group g = groups[i];
        uint first = rank_of(v, g.range.x), count = rank_of(v, g.range.x + g.range.y) - first;
        uint at = (v * pc.sizes.y + i) * 5u;
        // a shadow view whose texels are coarser than the group's caster LOD errs draws the LOD
        gn_gpu_cull_view vw = the_view();
        bool lod = (vw.info.x & GN_CULL_LOD) != 0u && g.vertex.y != 0u && uintBitsToFloat(g.vertex.w) <= vw.size.y;
        uint index_count = lod ? g.vertex.y : g.range.z;
        commands[at + 0u] = index_count;                 // indexCount
        commands[at + 1u] = count;                       // instanceCount
        commands[at + 2u] = lod ? g.vertex.z : g.range.w; // firstIndex
        commands[at + 3u] = g.vertex.x;     // vertexOffset (an int's bits)
        commands[at + 4u] = window + first; // firstInstance: visible_ids[] is every view's windows
        if (count > 0u) {
            uint tag = vw.info.w * 4u;
            atomicAdd(counts[tag + 0u], count);
            atomicAdd(counts[tag + 1u], (index_count / 3u) * count);
            atomicAdd(counts[tag + 2u], 1u);
        }
    }
}

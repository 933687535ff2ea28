#version 450
// WRITE: thread i scatters slot i's instance (when visible) to its place in the visible list,
// and writes group i's indirect command (when i is a group): its first instance is the visible
// slots before its first slot, its count those within it. Integer sums only: the
// triangle and group counts are the same whatever order the atomics land in.
#include "cull.glsl"

layout(local_size_x = 256) in;

// visible slots before slot k (k == slots: all of them)
uint rank_of(uint k)
{
    return k >= pc.sizes.x ? counts[0] : blocks[k / GN_CULL_BLOCK] + (local_rank[k] & 0x7fffffffu);
}

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.sizes.x && (local_rank[i] >> 31) != 0u) visible_ids[rank_of(i)] = order[i];
    if (i < pc.sizes.y) {
        gn_gpu_cull_group g = groups[i];
        uint first = rank_of(g.range.x), count = rank_of(g.range.x + g.range.y) - first;
        uint at = i * 5u;
        commands[at + 0u] = g.range.z;  // indexCount
        commands[at + 1u] = count;      // instanceCount
        commands[at + 2u] = g.range.w;  // firstIndex
        commands[at + 3u] = g.vertex.x; // vertexOffset (an int's bits)
        commands[at + 4u] = first;      // firstInstance
        if (count > 0u) {
            atomicAdd(counts[1], (g.range.z / 3u) * count);
            atomicAdd(counts[2], 1u);
        }
    }
}

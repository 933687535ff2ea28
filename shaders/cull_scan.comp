#version 450
// SCAN: one workgroup a view turns its blocks' visible counts into exclusive prefixes, each
// thread summing a run of consecutive blocks (at most 256 a thread for 16M slots), then a scan
// of the runs' sums. Writes the view's visible total for WRITE.
#include "cull.glsl"

layout(local_size_x = 256) in;
shared uint s_runs[256];

void main()
{
    uint lane = gl_LocalInvocationID.x, nb = pc.sizes.w, base = view_index() * nb;
    uint per = (nb + 255u) / 256u, first = lane * per, last = min(first + per, nb);
    uint sum = 0u;
    for (uint b = first; b < last; b++) sum += blocks[base + b];
    s_runs[lane] = sum;
    barrier();
    for (uint step = 1u; step < 256u; step <<= 1) {
        uint add = lane >= step ? s_runs[lane - step] : 0u;
        barrier();
        s_runs[lane] += add;
        barrier();
    }
    uint prefix = s_runs[lane] - sum;
    for (uint b = first; b < last; b++) {
        uint count = blocks[base + b];
        blocks[base + b] = prefix;
        prefix += count;
    }
    if (lane == 255u) counts[total_at(view_index())] = s_runs[255];
}

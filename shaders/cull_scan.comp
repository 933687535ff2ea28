#version 450
// SCAN: one workgroup turns the blocks' visible counts into exclusive prefixes, each thread
// summing a run of consecutive blocks (at most 256 a thread for 16M slots), then a scan of the
// runs' sums. Writes the visible total and clears the other counts for WRITE.
#include "cull.glsl"

layout(local_size_x = 256) in;
shared uint s_runs[256];

void main()
{
    uint lane = gl_LocalInvocationID.x, nb = pc.sizes.w;
    uint per = (nb + 255u) / 256u, first = lane * per, last = min(first + per, nb);
    uint sum = 0u;
    for (uint b = first; b < last; b++) sum += blocks[b];
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
        uint count = blocks[b];
        blocks[b] = prefix;
        prefix += count;
    }
    if (lane == 255u) {
        counts[0] = s_runs[255];
        counts[1] = 0u;
        counts[2] = 0u;
        counts[3] = 0u;
    }
}

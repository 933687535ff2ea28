#version 450
// TEST: one thread a slot. Visible when the instance is not removed, the world's keep mask (a
// BSP map's PVS and leaf frustum, decided on the CPU) keeps it, and its bounding sphere is not
// wholly outside any frustum plane, computed as gn_frustum_test_sphere does, term by term and
// without fused multiply-adds (precise), so that both sides agree on every float.
#include "cull.glsl"

layout(local_size_x = 256) in;
shared uint s_scan[GN_CULL_BLOCK];

bool in_frustum(vec4 b)
{
    for (uint p = 0u; p < pc.sizes.z; p++) {
        vec4 pl = pc.planes[p];
        precise float d = pl.x * b.x;
        d = d + pl.y * b.y;
        d = d + pl.z * b.z;
        d = d + pl.w;
        if (d < -b.w) return false;
    }
    return true;
}

void main()
{
    uint slot = gl_GlobalInvocationID.x, lane = gl_LocalInvocationID.x;
    uint visible = 0u;
    if (slot < pc.sizes.x) {
        uint inst = order[slot];
        vec4 b = instances[inst].sphere;
        bool kept = pc.mask.x == 0xffffffffu || (ring[pc.mask.x + inst / 32u] & (1u << (inst % 32u))) != 0u;
        visible = b.w >= 0.0 && kept && in_frustum(b) ? 1u : 0u;
    }
    // inclusive scan of the block (Hillis-Steele: 8 steps)
    s_scan[lane] = visible;
    barrier();
    for (uint step = 1u; step < GN_CULL_BLOCK; step <<= 1) {
        uint add = lane >= step ? s_scan[lane - step] : 0u;
        barrier();
        s_scan[lane] += add;
        barrier();
    }
    if (slot < pc.sizes.x) local_rank[slot] = (s_scan[lane] - visible) | (visible << 31);
    if (lane == GN_CULL_BLOCK - 1u) blocks[gl_WorkGroupID.x] = s_scan[lane];
}

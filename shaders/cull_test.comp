#version 450
// TEST: one thread a slot and view. In the view when the instance is not removed, lies in the
// slots the view tests (a shadow view: the casters), the world's keep mask (a BSP map's PVS and
// leaf frustum, decided on the CPU) keeps it, it is not smaller than the view's smallest
// diameter, and its bounding sphere is not wholly outside any frustum plane, computed as
// gn_frustum_test_sphere does, term by term and without fused multiply-adds (precise), so that
// both sides agree on every float. The camera's two-phase occlusion adds the history (drawn
// last frame) and the HZB (hzb_test.glsl) to that, by the view's mode (GN_CULL_MODE_*).
#include "cull.glsl"
#include "hzb_test.glsl"

layout(local_size_x = 256) in;
shared uint s_scan[GN_CULL_BLOCK];
shared uint s_in_view;

bool in_frustum(gn_gpu_cull_view v, vec4 b)
{
    for (uint p = 0u; p < (v.info.x & 0xffu); p++) {
        vec4 pl = v.planes[p];
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
    uint slot = gl_GlobalInvocationID.x, lane = gl_LocalInvocationID.x, view = view_index();
    gn_gpu_cull_view v = the_view();
    uint mode = v.info.x >> 8u, visible = 0u;
    bool in_view = false;
    if (lane == 0u) s_in_view = 0u;
    if (slot < v.info.y) {
        uint inst = order[slot];
        vec4 b = instances[inst].sphere;
        bool kept = v.info.z == 0xffffffffu || (ring[v.info.z + inst / 32u] & (1u << (inst % 32u))) != 0u;
        precise float diameter = 2.0 * b.w;
        in_view = b.w >= 0.0 && kept && !(diameter < v.size.x) && in_frustum(v, b);
        bool seen = pc.where.w != 0u && (history[pc.where.z + slot] & 1u) != 0u;
        bool shown = in_view;
        if (mode == GN_CULL_MODE_PHASE1) shown = in_view && seen;
        if (mode >= GN_CULL_MODE_PHASE2) {
            bool occluded = in_view && hzb_occluded(b);
            shown = mode == GN_CULL_MODE_PHASE2 ? in_view && !seen && !occluded : in_view && (seen || !occluded);
            // the final list's test leaves the next frame's history in the other half: bit 0
            // what the HZB of this frame's phase 1 does not hide, bit 1 in the view (for
            // --view occlusion)
            if (mode == GN_CULL_MODE_FINAL)
                history[(pc.where.z == 0u ? pc.sizes.x : 0u) + slot] = (in_view && !occluded ? 1u : 0u) | (in_view ? 2u : 0u);
        }
        visible = shown ? 1u : 0u;
    }
    // inclusive scan of the block (Hillis-Steele: 8 steps), and the block's instances in the view
    s_scan[lane] = visible;
    barrier();
    if (in_view) atomicAdd(s_in_view, 1u);
    for (uint step = 1u; step < GN_CULL_BLOCK; step <<= 1) {
        uint add = lane >= step ? s_scan[lane - step] : 0u;
        barrier();
        s_scan[lane] += add;
        barrier();
    }
    if (slot < pc.sizes.x) local_rank[view * pc.sizes.x + slot] = (s_scan[lane] - visible) | (visible << 31);
    if (lane == GN_CULL_BLOCK - 1u) blocks[view * pc.sizes.w + gl_WorkGroupID.x] = s_scan[lane];
    if (lane == 0u && s_in_view != 0u) atomicAdd(counts[v.info.w * 4u + 3u], s_in_view);
}

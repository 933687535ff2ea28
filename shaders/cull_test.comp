#version 450
// TEST: one thread a slot and view. In the view when the instance is not removed, lies in the
// slots the view tests (a shadow view: the casters), the world's keep mask (a BSP map's PVS and
// leaf frustum, decided on the CPU) keeps it, it is not smaller than the view's smallest
// diameter, and its bounding sphere is not wholly outside any frustum plane, computed as
// gn_frustum_test_sphere does, term by term and without fused multiply-adds (precise), so that
// both sides agree on every float. The camera's two-phase occlusion adds the history (drawn
// last frame) and the HZB (hzb_test.glsl) to that, by the view's mode (GN_CULL_MODE_*).
// A slot may be one cluster of a large mesh's instance (src/decide/meshlets.h): then, once the
// instance is in the view, the cluster's own sphere is tested against the planes and the HZB,
// and for the camera its normal cone against the eye; the functions below are
// gn_cluster_world_sphere and gn_cluster_backfacing, operation for operation.
#include "cull.glsl"
#include "hzb_test.glsl"

layout(local_size_x = 256) in;
shared uint s_scan[GN_CULL_BLOCK];
shared uint s_in_view;
shared uint s_clusters[4]; // the camera's: of instances in the view, culled by the planes, by the cone, drawn

float dot3(vec3 a, vec3 b)
{
    precise float d = a.x * b.x;
    d = d + a.y * b.y;
    d = d + a.z * b.z;
    return d;
}

vec3 transform_point(gn_gpu_instance t, vec3 p)
{
    precise float x = t.row0.x * p.x, y = t.row1.x * p.x, z = t.row2.x * p.x;
    x = x + t.row0.y * p.y, y = y + t.row1.y * p.y, z = z + t.row2.y * p.y;
    x = x + t.row0.z * p.z, y = y + t.row1.z * p.z, z = z + t.row2.z * p.z;
    x = x + t.row0.w, y = y + t.row1.w, z = z + t.row2.w;
    return vec3(x, y, z);
}

vec4 cluster_world_sphere(gn_gpu_cluster c, gn_gpu_instance t)
{
    vec3 a0 = vec3(t.row0.x, t.row1.x, t.row2.x), a1 = vec3(t.row0.y, t.row1.y, t.row2.y),
         a2 = vec3(t.row0.z, t.row1.z, t.row2.z);
    precise float l = max(max(dot3(a0, a0), dot3(a1, a1)), dot3(a2, a2));
    precise float r = c.sphere.w * sqrt(l);
    return vec4(transform_point(t, c.sphere.xyz), r);
}

bool cluster_backfacing(gn_gpu_cluster c, gn_gpu_instance t, vec3 eye)
{
    precise float k = c.apex.w + GN_CLUSTER_CONE_MARGIN;
    if (!(c.apex.w > 0.0) || !(k < 1.0)) return false;
    vec3 a0 = vec3(t.row0.x, t.row1.x, t.row2.x), a1 = vec3(t.row0.y, t.row1.y, t.row2.y),
         a2 = vec3(t.row0.z, t.row1.z, t.row2.z);
    precise float l0 = dot3(a0, a0);
    precise float tol = l0 * GN_CLUSTER_UNIFORM_TOLERANCE;
    precise float e1 = dot3(a1, a1) - l0, e2 = dot3(a2, a2) - l0;
    if (abs(e1) > tol || abs(e2) > tol || abs(dot3(a0, a1)) > tol || abs(dot3(a0, a2)) > tol ||
        abs(dot3(a1, a2)) > tol)
        return false;
    precise float cx = a0.y * a1.z - a0.z * a1.y, cy = a0.z * a1.x - a0.x * a1.z, cz = a0.x * a1.y - a0.y * a1.x;
    if (!(dot3(vec3(cx, cy, cz), a2) > 0.0)) return false;
    precise vec3 v = transform_point(t, c.apex.xyz) - eye;
    precise float nx = t.row0.x * c.axis.x, ny = t.row1.x * c.axis.x, nz = t.row2.x * c.axis.x;
    nx = nx + t.row0.y * c.axis.y, ny = ny + t.row1.y * c.axis.y, nz = nz + t.row2.y * c.axis.y;
    nx = nx + t.row0.z * c.axis.z, ny = ny + t.row1.z * c.axis.z, nz = nz + t.row2.z * c.axis.z;
    precise float d = dot3(v, vec3(nx, ny, nz));
    if (!(d > 0.0)) return false;
    precise float lhs = d * d, kk = k * k, vv = dot3(v, v);
    precise float rhs = kk * vv;
    rhs = rhs * l0;
    return lhs >= rhs;
}

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
    uint mode = (v.info.x >> 8u) & 0xffu, visible = 0u;
    bool in_view = false, counted = false, cluster = false, by_planes = false, by_cone = false;
    if (lane == 0u) {
        s_in_view = 0u;
        for (uint k = 0u; k < 4u; k++) s_clusters[k] = 0u;
    }
    barrier();
    if (slot < v.info.y) {
        uint inst = order[slot];
        vec4 b = instances[inst].sphere;
        bool kept = v.info.z == 0xffffffffu || (ring[v.info.z + inst / 32u] & (1u << (inst % 32u))) != 0u;
        precise float diameter = 2.0 * b.w;
        in_view = b.w >= 0.0 && kept && !(diameter < v.size.x) && in_frustum(v, b);
        uint sc = slot_clusters[slot];
        cluster = sc != GN_CULL_WHOLE;
        counted = in_view && (!cluster || clusters[sc].range.z != 0u); // an instance once, at its first cluster
        if (cluster && in_view) {
            gn_gpu_cluster cl = clusters[sc];
            gn_gpu_instance t = instances[inst];
            b = cluster_world_sphere(cl, t);
            by_planes = !in_frustum(v, b);
            by_cone = !by_planes && (v.info.x & GN_CULL_CONES) != 0u && cluster_backfacing(cl, t, v.size.yzw);
            if (v.info.w == GN_CULL_TAG_CAMERA) {
                atomicAdd(s_clusters[0], 1u);
                if (by_planes) atomicAdd(s_clusters[1], 1u);
                if (by_cone) atomicAdd(s_clusters[2], 1u);
            }
            in_view = !by_planes && !by_cone;
        }
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
        if (cluster && shown && v.info.w == GN_CULL_TAG_CAMERA) atomicAdd(s_clusters[3], 1u);
    }
    // inclusive scan of the block (Hillis-Steele: 8 steps), and the block's instances in the view
    s_scan[lane] = visible;
    barrier();
    if (counted) atomicAdd(s_in_view, 1u);
    for (uint step = 1u; step < GN_CULL_BLOCK; step <<= 1) {
        uint add = lane >= step ? s_scan[lane - step] : 0u;
        barrier();
        s_scan[lane] += add;
        barrier();
    }
    if (slot < pc.sizes.x) local_rank[view * pc.sizes.x + slot] = (s_scan[lane] - visible) | (visible << 31);
    if (lane == GN_CULL_BLOCK - 1u) blocks[view * pc.sizes.w + gl_WorkGroupID.x] = s_scan[lane];
    if (lane == 0u && s_in_view != 0u) atomicAdd(counts[v.info.w * 4u + 3u], s_in_view);
    if (lane == 0u)
        for (uint k = 0u; k < 4u; k++)
            if (s_clusters[k] != 0u) atomicAdd(counts[GN_CULL_TAG_CLUSTERS * 4u + k], s_clusters[k]);
}

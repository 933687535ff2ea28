// The froxel grid of Forward+ (docs/LIGHTING.md): the fragment's froxel, and the binning of
// lights into froxels, one compute thread per froxel, no atomics within a froxel. Mirrored on
// the CPU by src/decide/clusters.c, which the GPU's lists must match bit for bit: keep every
// operation identical, in the same order, and `precise` (so nothing is fused or reordered).
// The inputs come from gn_cluster_frame_params:
//   frame.cluster_grid  x, y, z froxels, w max lights a froxel holds
//   frame.cluster_depth x scale, y bias (slice = floor(log2(depth) * x + y)), z near depth
//   frame.cluster_proj  x, y view-space slope one froxel column / row spans, z depth ratio
//                       of consecutive slice boundaries
//
// The includer declares, before including this file:
//   shared/gpu_types.h, and the frame: `gn_gpu_frame frame` (a uniform block member);
//   for gn_cluster_bin_froxel only, with GN_CLUSTER_BINNING defined:
//     readonly buffer  { gn_gpu_light lights[]; }       the frame.lights.x lights
//     writeonly buffer { uint cluster_lists[]; }       froxel i's slot at i * (max lights + 1):
//                                                       count, then the indices ascending
// Included by other shaders; no #version.
#ifndef GN_CLUSTERS_GLSL
#define GN_CLUSTERS_GLSL

#define GN_CLUSTER_HORIZON 1.0e7                // metres: the last slice's bounds reach this far
#define GN_CLUSTER_PAD_TILE (1.0 / 1024.0)      // bounds grow by this much of a tile ...
#define GN_CLUSTER_PAD_DEPTH (1.0 / 2048.0)     // ... and of their depth, covering rounding
#define GN_CLUSTER_MIN_DEPTH 1e-30              // log2 of a depth <= 0 would be -inf or NaN
#define GN_CLUSTER_CONE_SLACK (1.0 / 4096.0)    // cone test slack, relative to the distance
#define GN_CLUSTER_RADIUS_SLACK (1.0 / 64.0)    // the sqrt-free bounding radius's own slack

// floor(v) clamped to 0..n-1 (NaN gives 0 on the CPU; here whatever clamp makes of it).
uint gn_cluster_cell(float v, uint n)
{
    return uint(clamp(floor(v), 0.0, float(n - 1u)));
}

uint gn_cluster_slice(float view_depth)
{
    return gn_cluster_cell(log2(max(view_depth, GN_CLUSTER_MIN_DEPTH)) * frame.cluster_depth.x +
                               frame.cluster_depth.y,
                           frame.cluster_grid.z);
}

// frag_coord_01: gl_FragCoord.xy / the framebuffer size (0..1, y down); view_depth > 0 metres.
uint gn_cluster_index_frag(vec2 frag_coord_01, float view_depth)
{
    uvec4 g = frame.cluster_grid;
    uint col = gn_cluster_cell(frag_coord_01.x * float(g.x), g.x);
    uint row = gn_cluster_cell(frag_coord_01.y * float(g.y), g.y);
    return (gn_cluster_slice(view_depth) * g.y + row) * g.x + col;
}

// One froxel: the slopes (x / depth, y / depth) of its tile's edges and its depth range, padded
// (gn_froxel in clusters.h).
struct gn_froxel {
    float x0, x1, y0, y1; // left, right, bottom, top
    float near_depth, far_depth; // view depth
};

gn_froxel gn_cluster_froxel(uint index)
{
    uvec4 g = frame.cluster_grid;
    uint col = index % g.x, row = (index / g.x) % g.y, slice = index / (g.x * g.y);
    precise float d0 = frame.cluster_depth.z;
    for (uint k = 0u; k < slice; k++) d0 = d0 * frame.cluster_proj.z;
    precise float d1 = d0 * frame.cluster_proj.z;
    gn_froxel f;
    // Depths below near fall in slice 0 and beyond far in the last: their froxels reach on.
    precise float d_near = slice == 0u ? 0.0 : d0 * (1.0 - GN_CLUSTER_PAD_DEPTH);
    precise float d_far = slice + 1u >= g.z ? GN_CLUSTER_HORIZON : d1 * (1.0 + GN_CLUSTER_PAD_DEPTH);
    precise float x0 = (float(col) - 0.5 * float(g.x) - GN_CLUSTER_PAD_TILE) * frame.cluster_proj.x;
    precise float x1 = (float(col) + 1.0 - 0.5 * float(g.x) + GN_CLUSTER_PAD_TILE) * frame.cluster_proj.x;
    precise float y0 = (0.5 * float(g.y) - float(row) - 1.0 - GN_CLUSTER_PAD_TILE) * frame.cluster_proj.y;
    precise float y1 = (0.5 * float(g.y) - float(row) + GN_CLUSTER_PAD_TILE) * frame.cluster_proj.y;
    f.x0 = x0;
    f.x1 = x1;
    f.y0 = y0;
    f.y1 = y1;
    f.near_depth = d_near;
    f.far_depth = d_far;
    return f;
}

// The view-space AABB of the part of the froxel between view depths d_near and d_far.
void gn_cluster_froxel_bounds(gn_froxel f, float d_near, float d_far, out vec3 mn, out vec3 mx)
{
    // A slope reaches furthest from the axis at the far depth, closest at the near one.
    precise vec3 lo, hi;
    lo.x = f.x0 * (f.x0 < 0.0 ? d_far : d_near);
    hi.x = f.x1 * (f.x1 > 0.0 ? d_far : d_near);
    lo.y = f.y0 * (f.y0 < 0.0 ? d_far : d_near);
    hi.y = f.y1 * (f.y1 > 0.0 ? d_far : d_near);
    lo.z = -d_far;
    hi.z = -d_near;
    mn = lo;
    mx = hi;
}

// Conservative light vs froxel: cut the froxel to the depths the sphere spans, then sphere vs
// that AABB, then for spots the AABB's bounding sphere vs the cone (gn_cluster_light_hits in
// clusters.c says why each step is safe).
bool gn_cluster_light_hits(gn_froxel f, gn_gpu_light l)
{
    mat4 m = frame.view;
    vec3 p = l.position_radius.xyz;
    precise vec3 c = ((m[0].xyz * p.x + m[1].xyz * p.y) + m[2].xyz * p.z) + m[3].xyz * 1.0;
    float r = l.position_radius.w;

    precise float reach = r * (1.0 + GN_CLUSTER_PAD_DEPTH);
    precise float d_near = max(f.near_depth, -c.z - reach);
    precise float d_far = min(f.far_depth, -c.z + reach);
    if (!(d_near <= d_far)) return false;
    vec3 mn, mx;
    gn_cluster_froxel_bounds(f, d_near, d_far, mn, mx);

    precise vec3 q = min(max(c, mn), mx) - c;
    precise float dist2 = q.x * q.x + q.y * q.y + q.z * q.z;
    precise float r2 = r * r;
    if (!(dist2 <= r2)) return false;
    if (!(l.color_type.w > 0.5)) return true; // a point light

    vec3 d = l.direction_cos.xyz;
    precise vec3 a = ((m[0].xyz * d.x + m[1].xyz * d.y) + m[2].xyz * d.z) + m[3].xyz * 0.0;
    precise vec3 e = (mx - mn) * 0.5;
    precise vec3 v = (mn + mx) * 0.5 - c;
    precise float big = max(max(e.x, e.y), e.z);
    precise float radius = (big + ((e.x + e.y + e.z) - big) * 0.5) * (1.0 + GN_CLUSTER_RADIUS_SLACK);
    precise float h = v.x * a.x + v.y * a.y + v.z * a.z;
    precise vec3 w = v - h * a;
    precise float slack = (abs(v.x) + abs(v.y) + abs(v.z)) * GN_CLUSTER_CONE_SLACK;
    precise float s = (radius + slack) + h * l.params.z;
    if (s < 0.0) return false; // wholly behind the apex
    float cos_outer = l.direction_cos.w;
    precise float lhs = cos_outer * cos_outer * (w.x * w.x + w.y * w.y + w.z * w.z);
    precise float rhs = s * s;
    return !(lhs > rhs);
}

#ifdef GN_CLUSTER_BINNING
// One froxel's list, the lights in order; returns how many did not fit (the includer sums
// them with one atomicAdd).
uint gn_cluster_bin_froxel(uint index)
{
    gn_froxel f = gn_cluster_froxel(index);
    uint max_lights = frame.cluster_grid.w;
    uint base = index * (max_lights + 1u);
    uint n = 0u, overflow = 0u;
    for (uint i = 0u; i < frame.lights.x; i++) {
        if (!gn_cluster_light_hits(f, lights[i])) continue;
        if (n < max_lights) {
            cluster_lists[base + 1u + n] = i;
            n++;
        } else {
            overflow++;
        }
    }
    cluster_lists[base] = n;
    return overflow;
}
#endif

#endif // GN_CLUSTERS_GLSL

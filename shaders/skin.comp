#version 450
// Skinning (src/passes/skin.c): a thread a vertex of one job (workgroup y: the job, x: the
// vertices in groups of GN_GPU_SKIN_GROUP). From the model's bind pose to the rig's own copy:
// morph targets first, then linear blend or dual-quaternion skinning over the frame's palette.
// The same arithmetic, in the same order, as gn_skin_vertex (src/decide/skin.c), the reference
// gpu_skin holds this to. A workgroup's vertices are one contiguous run of the source and of the
// destination: it reads the run whole into shared memory, skins there, and writes the run whole
// back (the uvs as they were copied when the rig was made), so every global load and store is a
// warp's consecutive words instead of a word every 56 bytes.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = GN_GPU_SKIN_GROUP) in;
layout(std430, set = 0, binding = GN_BIND_SKIN_VERTICES) buffer VertexBlock { float vertices[]; };
layout(std430, set = 0, binding = GN_BIND_SKIN_INFLUENCES) readonly buffer InfluenceBlock
{
    gn_gpu_skin_influence influences[];
};
layout(std430, set = 0, binding = GN_BIND_SKIN_MORPHS) readonly buffer MorphBlock { gn_gpu_skin_delta deltas[]; };
layout(std430, set = 0, binding = GN_BIND_SKIN_PALETTES) readonly buffer PaletteBlock { vec4 palette[]; };
layout(std430, set = 0, binding = GN_BIND_SKIN_JOBS) readonly buffer JobBlock { gn_gpu_skin_job jobs[]; };
layout(push_constant) uniform Push { uint first_job; };

shared float stage[GN_GPU_SKIN_GROUP * GN_GPU_VERTEX_FLOATS];

vec3 load3(uint at) { return vec3(stage[at], stage[at + 1u], stage[at + 2u]); }

// q's rotation of v (unit quaternion x, y, z, w), as gn_skin_vertex's quat_rotate
vec3 quat_rotate(vec4 q, vec3 v)
{
    vec3 c = vec3(q.y * v.z - q.z * v.y + q.w * v.x, q.z * v.x - q.x * v.z + q.w * v.y,
                  q.x * v.y - q.y * v.x + q.w * v.z);
    return vec3(v.x + 2.0 * (q.y * c.z - q.z * c.y), v.y + 2.0 * (q.z * c.x - q.x * c.z),
                v.z + 2.0 * (q.x * c.y - q.y * c.x));
}

vec4 quat_mul(vec4 a, vec4 b)
{
    return vec4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

vec3 safe_normalize(vec3 v)
{
    float len = length(v);
    return len > 0.0 ? v / len : v;
}

void skin(uint j, uvec4 range, uvec4 pal, uint i, uint at);

void main()
{
    // the job's fields read where they are used: a copy of the whole record (its arrays indexed by
    // a loop counter) would sit in each thread's local memory, written and read every vertex
    uint j = first_job + gl_WorkGroupID.y;
    uvec4 range = jobs[j].range, pal = jobs[j].palette;
    uint first = gl_WorkGroupID.x * GN_GPU_SKIN_GROUP;
    if (first >= range.z) return; // the whole workgroup: no barrier is skipped by some threads only
    uint run = min(range.z - first, GN_GPU_SKIN_GROUP) * GN_GPU_VERTEX_FLOATS, lid = gl_LocalInvocationID.x;
    uint src_run = (range.x + first) * GN_GPU_VERTEX_FLOATS, dst_run = (range.y + first) * GN_GPU_VERTEX_FLOATS;
    for (uint k = lid; k < run; k += GN_GPU_SKIN_GROUP) stage[k] = vertices[src_run + k];
    barrier();
    uint i = first + lid, at = lid * GN_GPU_VERTEX_FLOATS;
    if (i < range.z) skin(j, range, pal, i, at);
    barrier();
    for (uint k = lid; k < run; k += GN_GPU_SKIN_GROUP) vertices[dst_run + k] = stage[k];
}

// Vertex i of the job (its words at stage[at]): morphed, skinned, written back in place.
void skin(uint j, uvec4 range, uvec4 pal, uint i, uint at)
{
    vec3 p = load3(at), n = load3(at + 3u), t = load3(at + 6u);
    uint targets_on = jobs[j].morph.x;
    for (uint a = 0u; a < targets_on; a++) {
        float w = jobs[j].weights[a >> 2u][a & 3u];
        gn_gpu_skin_delta d = deltas[pal.z + jobs[j].targets[a >> 2u][a & 3u] * pal.w + i];
        p += w * d.position.xyz;
        n += w * d.normal.xyz;
    }
    vec3 op = p, on = n, ot = t;
    if (range.w != GN_GPU_SKIN_NONE) {
        gn_gpu_skin_influence inf = influences[range.w + i];
        if (pal.y == 1u) { // dual quaternions, each in the first's hemisphere
            vec4 real = vec4(0.0), dual = vec4(0.0), first = vec4(0.0);
            bool have_first = false;
            for (uint k = 0u; k < 8u; k++) {
                float w = inf.weights[k >> 2u][k & 3u];
                if (!(w > 0.0)) continue;
                uint joint = (inf.joints[k >> 1u] >> (16u * (k & 1u))) & 0xffffu;
                vec4 r = palette[pal.x + joint * 2u], d = palette[pal.x + joint * 2u + 1u];
                if (!have_first) first = r, have_first = true;
                float s = dot(first, r) < 0.0 ? -1.0 : 1.0;
                real += w * s * r;
                dual += w * s * d;
            }
            float len = length(real);
            if (len > 0.0) real /= len, dual /= len;
            else real = vec4(0.0, 0.0, 0.0, 1.0);
            vec4 tq = quat_mul(dual, vec4(-real.xyz, real.w));
            op = quat_rotate(real, p) + 2.0 * tq.xyz;
            on = quat_rotate(real, n);
            ot = quat_rotate(real, t);
        } else { // linear blend of 3x4 rows
            vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
            for (uint k = 0u; k < 8u; k++) {
                float w = inf.weights[k >> 2u][k & 3u];
                if (!(w > 0.0)) continue;
                uint joint = (inf.joints[k >> 1u] >> (16u * (k & 1u))) & 0xffffu;
                uint at = pal.x + joint * 3u;
                r0 += w * palette[at], r1 += w * palette[at + 1u], r2 += w * palette[at + 2u];
            }
            op = vec3(dot(r0.xyz, p) + r0.w, dot(r1.xyz, p) + r1.w, dot(r2.xyz, p) + r2.w);
            on = vec3(dot(r0.xyz, n), dot(r1.xyz, n), dot(r2.xyz, n));
            ot = vec3(dot(r0.xyz, t), dot(r1.xyz, t), dot(r2.xyz, t));
        }
        ot = safe_normalize(ot);
    }
    on = safe_normalize(on);
    stage[at] = op.x, stage[at + 1u] = op.y, stage[at + 2u] = op.z;
    stage[at + 3u] = on.x, stage[at + 4u] = on.y, stage[at + 5u] = on.z;
    stage[at + 6u] = ot.x, stage[at + 7u] = ot.y, stage[at + 8u] = ot.z; // [9]: the sign, unchanged
}

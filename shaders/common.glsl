// The frame set shared by the scene passes (depth prepass, forward, shadow casters): set 0.
#ifndef GN_COMMON_GLSL
#define GN_COMMON_GLSL
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"
#include "exposure.glsl"

layout(set = GN_SET_FRAME, binding = GN_BIND_FRAME_CONSTANTS) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = GN_SET_FRAME, binding = GN_BIND_FRAME_INSTANCES) readonly buffer InstanceBlock
{
    gn_gpu_instance instances[];
};
layout(std430, set = GN_SET_FRAME, binding = GN_BIND_FRAME_MATERIALS) readonly buffer MaterialBlock
{
    gn_gpu_material materials[];
};

// A texture slot's uv (GN_GPU_UV_*): its uv set, through its KHR_texture_transform matrix (packed
// by gn_pack_material; the CPU twin is gn_uv_transform_apply). Affine, so a vertex shader may
// apply it before interpolation and get what the fragment shader would. Without a transform the
// varying goes to the sampler untouched: lavapipe picks a texture's level differently for a
// computed coordinate, and untransformed materials render bit for bit as before (gpu_maps).
vec2 gn_material_uv(gn_gpu_material m, uint slot, vec2 uv0, vec2 uv1)
{
    vec4 r0 = m.uv_transform[2u * slot], r1 = m.uv_transform[2u * slot + 1u];
    if (r1.w < 0.5) return r0.w > 0.5 ? uv1 : uv0;
    vec3 p = vec3(r0.w > 0.5 ? uv1 : uv0, 1.0);
    return vec2(dot(r0.xyz, p), dot(r1.xyz, p));
}
// Sorted ids of this frame's visible instances; gl_InstanceIndex (which includes the
// indirect command's firstInstance) indexes it.
layout(std430, set = GN_SET_FRAME, binding = GN_BIND_FRAME_VISIBLE) readonly buffer VisibleBlock { uint visible[]; };
// Eye adaptation's state: the pre-exposure this frame's colour is stored with (passes/exposure.c).
layout(std430, set = GN_SET_FRAME, binding = GN_BIND_FRAME_EXPOSURE) readonly buffer ExposureBlock
{
    gn_gpu_exposure exposure_state;
};

// What the HDR target stores is luminance times this: the fixed exposure, or under eye
// adaptation the power of two nearest the last frame's (rgba16f then holds noon and night
// alike; shaders/exposure.glsl says why a power of two).
float gn_pre_exposure() { return gn_stored_exposure(frame.exposure, exposure_state.pre.x); }

// Colour as the HDR target stores it: pre-exposed, and below rgba16f's largest value (65504),
// which the first frame after a cut from night to noon could pass before adapting.
vec3 gn_stored_colour(vec3 c) { return min(c * gn_pre_exposure(), vec3(60000.0)); }

vec3 gn_to_world(gn_gpu_instance inst, vec3 p)
{
    vec4 h = vec4(p, 1.0);
    return vec3(dot(inst.row0, h), dot(inst.row1, h), dot(inst.row2, h));
}

// Normals under non-uniform scale: the cofactor matrix (inverse transpose up to scale).
vec3 gn_normal_to_world(gn_gpu_instance inst, vec3 n)
{
    vec3 c0 = vec3(inst.row0.x, inst.row1.x, inst.row2.x);
    vec3 c1 = vec3(inst.row0.y, inst.row1.y, inst.row2.y);
    vec3 c2 = vec3(inst.row0.z, inst.row1.z, inst.row2.z);
    mat3 cof = mat3(cross(c1, c2), cross(c2, c0), cross(c0, c1));
    return cof * n;
}

vec3 gn_dir_to_world(gn_gpu_instance inst, vec3 d)
{
    return vec3(dot(inst.row0.xyz, d), dot(inst.row1.xyz, d), dot(inst.row2.xyz, d));
}
// The clip position of both scene passes. The forward pass tests depth EQUAL against the
// prepass, so the two must agree to the bit: one function, and `precise` forbids the
// compiler from fusing or reordering its arithmetic differently in the two shaders. (The
// `invariant` qualifier would say the same, but glslang puts it on a gl_PerVertex member,
// which the validation layer's SPIR-V checker rejects.)
vec4 gn_clip_position(gn_gpu_instance inst, vec3 p)
{
    precise vec3 world = gn_to_world(inst, p);
    precise vec4 clip = frame.view_proj * vec4(world, 1.0);
    return clip;
}

#include "q3_deform.glsl"

// A vertex's world position and unit normal after its material's deforms (a Quake 3 shader's
// deformVertexes); vertex: gl_VertexIndex, its index in the scene's vertices; first: gl_BaseVertex,
// its mesh's first.
void gn_deformed_vertex(gn_gpu_instance inst, vec3 p, uint vertex, uint first, out vec3 world, out vec3 n)
{
    precise vec3 w = gn_to_world(inst, p);
    uint base = vertex * uint(GN_GPU_VERTEX_FLOATS);
    n = normalize(gn_normal_to_world(
        inst, vec3(vertex_floats[base + 3u], vertex_floats[base + 4u], vertex_floats[base + 5u])));
    gn_q3_deform(inst, vertex, first, w, n);
    world = w;
}

// The world position after the material's deforms (the shadow casters' vertex shaders).
vec3 gn_world_at(gn_gpu_instance inst, vec3 p, uint vertex, uint first)
{
    if (!gn_q3_deforms(inst.info.x)) return gn_to_world(inst, p);
    vec3 world, n;
    gn_deformed_vertex(inst, p, vertex, first, world, n);
    return world;
}

// gn_clip_position with the material's deforms: every scene pass's vertex shader calls this, so a
// deformed vertex lands where the prepass put it; one without deforms takes gn_clip_position's
// exact path.
vec4 gn_clip_position_at(gn_gpu_instance inst, vec3 p, uint vertex, uint first)
{
    if (!gn_q3_deforms(inst.info.x)) return gn_clip_position(inst, p);
    vec3 world, n;
    gn_deformed_vertex(inst, p, vertex, first, world, n);
    precise vec4 clip = frame.view_proj * vec4(world, 1.0);
    return clip;
}
#endif

#version 450
// A decal's box (src/passes/decals.c): the unit cube's 12 triangles from the vertex index,
// counter-clockwise seen from outside like every mesh, placed by the instance's record. The
// pipeline culls front faces, so each pixel behind the box is drawn once, by a back face, even
// with the camera inside the box.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "shared/decal.h"

layout(std430, set = GN_SET_DECAL, binding = GN_BIND_DECAL_RECORDS) readonly buffer DecalBlock { gn_gpu_decal decals[]; };
layout(location = 0) flat out uint out_decal;

// corner i of the cube is (i & 1, i >> 1 & 1, i >> 2 & 1) - 0.5; two triangles a face:
// -X, +X, -Y, +Y, -Z, +Z
const uint GN_DECAL_CUBE[36] = uint[36](0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                                        2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6);

void main()
{
    uint c = GN_DECAL_CUBE[gl_VertexIndex];
    vec3 corner = vec3(float(c & 1u), float((c >> 1u) & 1u), float((c >> 2u) & 1u)) - 0.5;
    // gl_InstanceIndex includes the batch's firstInstance: its records' place in the frame's list
    out_decal = uint(gl_InstanceIndex);
    gl_Position = frame.view_proj * (decals[gl_InstanceIndex].box_to_world * vec4(corner, 1.0));
}

#version 450
// A texel of a page's staging layer into its atlas tile (vsm_copy.vert).
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"

layout(set = GN_SET_VSM_DRAW, binding = GN_BIND_VSM_DRAW_STAGING) uniform sampler2DArray staging;
layout(location = 0) flat in ivec3 in_origin;

void main()
{
    gl_FragDepth = texelFetch(staging, ivec3(ivec2(gl_FragCoord.xy) - in_origin.xy, in_origin.z), 0).r;
}

#version 450
// A texel of a page's staging layer into its atlas tile (vsm_copy.vert).
layout(set = 2, binding = 2) uniform sampler2DArray staging;
layout(location = 0) flat in ivec3 in_origin;

void main()
{
    gl_FragDepth = texelFetch(staging, ivec3(ivec2(gl_FragCoord.xy) - in_origin.xy, in_origin.z), 0).r;
}

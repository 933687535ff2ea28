#version 450
// HZB level 0 from a single-sampled depth image.
#include "hzb.glsl"
layout(set = 0, binding = GN_BIND_HZB_DEPTH) uniform sampler2D depth;
#define FETCH(p, s) texelFetch(depth, p, 0).r
#include "hzb_depth.glsl"

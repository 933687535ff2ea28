#version 450
// HZB level 0 from a multisampled depth image: every sample (an edge pixel's far sample may
// be the one a thin or distant instance shows through).
#include "hzb.glsl"
layout(set = 0, binding = GN_BIND_HZB_DEPTH) uniform sampler2DMS depth;
#define FETCH(p, s) texelFetch(depth, p, s).r
#include "hzb_depth.glsl"

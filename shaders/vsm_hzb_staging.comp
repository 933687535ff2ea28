#version 450
// The pyramids of what RENDER's first phase drew (vsm_hzb.glsl): every page's staging layer,
// for the waiting pairs' test (vsm_bin.comp's phase 3).
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
layout(set = 0, binding = GN_BIND_VSM_HZB_DEPTH) uniform sampler2DArray staging;
#define SKIP(e) false
#define FETCH(e, p) texelFetch(staging, ivec3(p, int(e)), 0).r
#include "vsm_hzb.glsl"

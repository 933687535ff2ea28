#version 450
// The forward pass's Quake 3 blended surfaces (dual-source blending) under the csm sun technique.
#define GN_Q3_DUAL_SOURCE
#define GN_SUN_CSM
#extension GL_GOOGLE_include_directive : require
#include "forward.glsl"

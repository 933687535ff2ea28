#version 450
// The forward pass under virtual shadow maps (shaders/forward.glsl).
#define GN_SUN_VSM
#extension GL_GOOGLE_include_directive : require
#include "forward.glsl"

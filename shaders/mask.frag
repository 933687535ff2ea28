#version 450
// The alpha test of the depth-only passes (shaders/mask.glsl).
#extension GL_GOOGLE_include_directive : require
#include "mask.glsl"

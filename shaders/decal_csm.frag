#version 450
// The decals under csm (shaders/decal.glsl).
#define GN_SUN_CSM
#extension GL_GOOGLE_include_directive : require
#include "decal.glsl"

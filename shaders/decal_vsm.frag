#version 450
// The decals under vsm (shaders/decal.glsl).
#define GN_SUN_VSM
#extension GL_GOOGLE_include_directive : require
#include "decal.glsl"

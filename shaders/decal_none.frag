#version 450
// The decals under no sun shadows (shaders/decal.glsl).
#extension GL_GOOGLE_include_directive : require
#include "decal.glsl"

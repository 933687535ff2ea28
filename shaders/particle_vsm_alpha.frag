#version 450
// GPU particles under vsm, blended over (shaders/particle_draw.glsl).
#define GN_SUN_VSM
#extension GL_GOOGLE_include_directive : require
#include "particle_draw.glsl"

#version 450
// GPU particles under csm, blended over (shaders/particle_draw.glsl).
#define GN_SUN_CSM
#extension GL_GOOGLE_include_directive : require
#include "particle_draw.glsl"

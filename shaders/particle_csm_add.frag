#version 450
// GPU particles under csm, additive (shaders/particle_draw.glsl).
#define GN_SUN_CSM
#define GN_PARTICLE_ADDITIVE
#extension GL_GOOGLE_include_directive : require
#include "particle_draw.glsl"

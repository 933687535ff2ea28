#version 450
// GPU particles under none, additive (shaders/particle_draw.glsl).
#define GN_PARTICLE_ADDITIVE
#extension GL_GOOGLE_include_directive : require
#include "particle_draw.glsl"

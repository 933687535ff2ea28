#version 450
// GPU particles under none, blended over (shaders/particle_draw.glsl).
#extension GL_GOOGLE_include_directive : require
#include "particle_draw.glsl"

#version 450
// Weighted blended OIT's composite, single-sampled targets (shaders/oit_composite.glsl).
#extension GL_GOOGLE_include_directive : require
#include "oit_composite.glsl"

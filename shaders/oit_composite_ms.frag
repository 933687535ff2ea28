#version 450
// Weighted blended OIT's composite, multisampled targets (shaders/oit_composite.glsl).
#define GN_OIT_MS
#extension GL_GOOGLE_include_directive : require
#include "oit_composite.glsl"

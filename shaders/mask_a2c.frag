#version 450
// The depth prepass's alpha-tested surfaces under MSAA with alpha to coverage (shaders/mask.glsl).
#define GN_MASK_A2C
#extension GL_GOOGLE_include_directive : require
#include "mask.glsl"

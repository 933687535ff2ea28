#version 450
// The forward pass under cascaded shadow maps (shaders/forward.glsl).
#define GN_SUN_CSM
#extension GL_GOOGLE_include_directive : require
#include "forward.glsl"

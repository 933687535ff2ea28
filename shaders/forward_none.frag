#version 450
// The forward pass under no sun shadows (shaders/forward.glsl).
#extension GL_GOOGLE_include_directive : require
#include "forward.glsl"

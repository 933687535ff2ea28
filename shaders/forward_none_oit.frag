#version 450
// The forward pass's blended surfaces into weighted blended OIT's two targets under the none sun
// technique (shaders/forward.glsl, src/passes/oit.c).
#define GN_OIT
#extension GL_GOOGLE_include_directive : require
#include "forward.glsl"

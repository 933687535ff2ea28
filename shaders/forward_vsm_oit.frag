#version 450
// The forward pass's blended surfaces into weighted blended OIT's two targets under the vsm sun
// technique (shaders/forward.glsl, src/passes/oit.c).
#define GN_OIT
#define GN_SUN_VSM
#extension GL_GOOGLE_include_directive : require
#include "forward.glsl"

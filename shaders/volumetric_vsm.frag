#version 450
// Volumetric fog's inject pass under the vsm sun technique (shaders/volumetric_inject.glsl).
#define GN_SUN_VSM
#extension GL_GOOGLE_include_directive : require
#include "volumetric_inject.glsl"

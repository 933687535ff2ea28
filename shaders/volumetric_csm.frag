#version 450
// Volumetric fog's inject pass under the csm sun technique (shaders/volumetric_inject.glsl).
#define GN_SUN_CSM
#extension GL_GOOGLE_include_directive : require
#include "volumetric_inject.glsl"

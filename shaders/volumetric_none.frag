#version 450
// Volumetric fog's inject pass under the none sun technique (shaders/volumetric_inject.glsl).
#extension GL_GOOGLE_include_directive : require
#include "volumetric_inject.glsl"

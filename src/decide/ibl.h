/* Image-based light's decisions, the CPU reference of shaders/octa.glsl and shaders/ibl_sh.comp
 * (docs/SKY.md): the octahedral map of directions the environment is stored in, and its
 * radiance as 9 spherical-harmonic coefficients with the irradiance they give. */
#ifndef GN_DECIDE_IBL_H
#define GN_DECIDE_IBL_H

#include <stdint.h>

#define GN_SH9 9

/* uv in [0, 1]^2 of a unit direction (y up: the upper hemisphere is the centre diamond). */
void gn_oct_encode(const float d[3], float uv[2]);
/* The point of the octahedron |x| + |y| + |z| = 1 at uv; normalized, the direction. */
void gn_oct_point(const float uv[2], float p[3]);

/* The 9 real spherical harmonics of bands 0..2 at a unit direction. */
void gn_sh9_basis(const float d[3], float out[GN_SH9]);

/* The radiance of an octahedral map (size x size texels, rgba floats, row by row) projected on
 * the harmonics: each texel weighted by its solid angle, out[i][rgb]. */
void gn_sh9_project(const float *rgba, uint32_t size, float out[GN_SH9][3]);

/* The irradiance at normal n (Ramamoorthi and Hanrahan 2001), clamped at 0. */
void gn_sh9_irradiance(const float sh[GN_SH9][3], const float n[3], float out[3]);

#endif

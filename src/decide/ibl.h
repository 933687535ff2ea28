/* Image-based light's decisions, the CPU reference of shaders/octa.glsl, shaders/ibl_sh.comp and
 * shaders/ibl_prefilter.comp (docs/SKY.md): the octahedral map of directions the environment is
 * stored in, that map built from six rendered faces (local reflection probes), its GGX
 * prefilter, and its radiance as 9 spherical-harmonic coefficients with the irradiance they
 * give. */
#ifndef GN_DECIDE_IBL_H
#define GN_DECIDE_IBL_H

#include <stdint.h>

#define GN_SH9 9
/* GGX importance samples per prefiltered texel; must agree with GN_PREFILTER_SAMPLES in
 * shaders/ibl_prefilter.comp, whose CPU twin gn_ibl_prefilter is. */
#define GN_IBL_PREFILTER_SAMPLES 64

/* uv in [0, 1]^2 of a unit direction (y up: the upper hemisphere is the centre diamond). */
void gn_oct_encode(const float d[3], float uv[2]);
/* The point of the octahedron |x| + |y| + |z| = 1 at uv; normalized, the direction. */
void gn_oct_point(const float uv[2], float p[3]);

/* An octahedral map (size x size rgba floats, row by row, texel centres; as gn_oct_point) from
 * six square views of a point (face_size^2 rgba floats each, top row first), each seen through
 * its world->clip matrix (column-major, Vulkan clip: x right, y down, reversed-Z w = distance; as
 * gn_camera_projection(fov 90 deg, aspect 1) times gn_camera_view). Each texel's direction is
 * looked up bilinearly (clamped to the face's edge) in the face that holds it most centrally (the
 * smallest max(|ndc.x|, |ndc.y|) with clip w > 0); a direction no face sees is 0. */
void gn_oct_from_faces(const float *const faces[6], uint32_t face_size, const float view_proj[6][16],
                       uint32_t size, float *out);
/* One level of the environment's GGX prefilter, the CPU twin of shaders/ibl_prefilter.comp: each
 * out texel (out_size^2 octahedral, rgba, alpha 1) the n.l-weighted mean of
 * GN_IBL_PREFILTER_SAMPLES GGX importance samples (n = v = r, the shader's Hammersley sequence and
 * tangent frame) for perceptual roughness `roughness` (alpha = roughness^2), each read bilinearly
 * from the source map (src_size^2 rgba floats) as gn_ibl_sample0 does. */
void gn_ibl_prefilter(const float *src, uint32_t src_size, float roughness, uint32_t out_size, float *out);

/* The 9 real spherical harmonics of bands 0..2 at a unit direction. */
void gn_sh9_basis(const float d[3], float out[GN_SH9]);

/* The radiance of an octahedral map (size x size texels, rgba floats, row by row) projected on
 * the harmonics: each texel weighted by its solid angle, out[i][rgb]. */
void gn_sh9_project(const float *rgba, uint32_t size, float out[GN_SH9][3]);

/* The irradiance at normal n (Ramamoorthi and Hanrahan 2001), clamped at 0. */
void gn_sh9_irradiance(const float sh[GN_SH9][3], const float n[3], float out[3]);

#endif

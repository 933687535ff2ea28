/* The CPU mirror of shaders/brdf.glsl: the same Cook-Torrance BRDF (GGX distribution,
 * height-correlated Smith visibility, Schlick Fresnel) plus a Lambert diffuse coupled to the
 * specular (Shirley et al. 1997) so the sum never reflects more than it receives; the same
 * names with the gn_ prefix, so its properties can be unit-tested. All vectors unit length. */
#ifndef GN_DECIDE_BRDF_H
#define GN_DECIDE_BRDF_H

#include <stdbool.h>
#include <stdint.h>

/* Keeps alpha^2 (4e-6) far from 0, so a mirror-smooth surface still has a finite, visible
 * highlight from a point-like sun. */
#define GN_BRDF_MIN_ROUGHNESS 0.045f

/* The dielectric's Fresnel when nothing else is given: glTF's ior 1.5, specular 1. */
#define GN_BRDF_DIELECTRIC_F0 0.04f

typedef struct gn_brdf_material {
    float base_color[3];       /* linear */
    float metallic, roughness; /* 0..1; perceptual roughness, alpha = roughness^2 */
    /* The dielectric's F0 (rgb) and F90 from gn_brdf_dielectric; specular_set false: F0 0.04,
     * F90 1 (so a material written as {base, metallic, roughness} is the plain dielectric). */
    bool specular_set;
    float specular[4];
} gn_brdf_material;

/* KHR_materials_specular with KHR_materials_ior, the dielectric's Fresnel: out rgb F0 =
 * min(((ior - 1) / (ior + 1))^2 color, 1) specular, out[3] F90 = specular. ior 0 is the
 * extension's "infinite" (a specular-glossiness conversion): the reflectance 1 times the colour.
 * The shaders read the result (gn_gpu_material.specular); metals ignore it (F0 their base
 * colour, F90 1, mixed by metallic). */
void gn_brdf_dielectric(float ior, const float color[3], float specular, float out[4]);

float gn_brdf_d_ggx(float n_dot_h, float alpha);                  /* GGX / Trowbridge-Reitz NDF, 1/sr */
float gn_brdf_v_smith(float n_dot_v, float n_dot_l, float alpha); /* G2 / (4 NoV NoL), height-correlated */
void gn_brdf_f_schlick(const float f0[3], float v_dot_h, float out[3]); /* Schlick's Fresnel */
/* Schlick's Fresnel towards f90 at grazing angles (KHR_materials_specular's F90). */
void gn_brdf_f_schlick90(const float f0[3], float f90, float v_dot_h, float out[3]);
/* BRDF * max(n.l, 0): reflected radiance per unit irradiance from l, seen from v. */
void gn_brdf_eval(const gn_brdf_material *m, const float n[3], const float v[3], const float l[3],
                  float out[3]);
/* Fraction of light reflected towards n.v (mean over RGB), integrated over the hemisphere with
 * `samples` deterministic Hammersley samples per lobe (visible-GGX- and cosine-sampled). */
float gn_brdf_directional_albedo(const gn_brdf_material *m, float n_dot_v, uint32_t samples);

/* The split-sum DFG term (Karis 2013) at n.v and perceptual roughness: out[0] A, out[1] B, the
 * specular lobe's directional albedo being F0 A + B (so A + B <= 1: a white furnace reflects
 * at most what arrives, and a mirror exactly that). `samples` visible-GGX Hammersley samples;
 * the CPU mirror of shaders/dfg.comp. */
void gn_brdf_dfg(float n_dot_v, float roughness, uint32_t samples, float out[2]);

/* The shader's hemisphere ambient (gn_shade_ambient in shaders/brdf.glsl), mirrored. */
void gn_shade_ambient(const gn_brdf_material *m, const float n[3], const float v[3], const float amb_sky[3],
                      const float amb_ground[3], float out[3]);

#endif

/* Cook-Torrance microfacet BRDF as in Karis, "Real Shading in Unreal Engine 4" (2013), with
 * Heitz's height-correlated Smith visibility, "Understanding the Masking-Shadowing Function"
 * (2014). Keep every formula identical to shaders/brdf.glsl. */
#include "decide/brdf.h"
#include "base/gmath.h"

#include <math.h>

/* n.v is clamped away from 0 so grazing views do not divide by zero (same in the GLSL). */
#define GN_BRDF_MIN_N_DOT_V 1e-4f

float gn_brdf_d_ggx(float n_dot_h, float alpha)
{
    float a2 = alpha * alpha;
    float t = n_dot_h * n_dot_h * (a2 - 1.0f) + 1.0f;
    return a2 / (GN_PI * t * t);
}

float gn_brdf_v_smith(float n_dot_v, float n_dot_l, float alpha)
{
    float a2 = alpha * alpha;
    float gv = n_dot_l * sqrtf(n_dot_v * n_dot_v * (1.0f - a2) + a2);
    float gl = n_dot_v * sqrtf(n_dot_l * n_dot_l * (1.0f - a2) + a2);
    return 0.5f / (gv + gl);
}

void gn_brdf_f_schlick(const float f0[3], float v_dot_h, float out[3])
{
    float x = 1.0f - v_dot_h, x5 = x * x * x * x * x;
    for (int c = 0; c < 3; c++) out[c] = f0[c] + (1.0f - f0[c]) * x5;
}

void gn_brdf_f_schlick90(const float f0[3], float f90, float v_dot_h, float out[3])
{
    float x = 1.0f - v_dot_h, x5 = x * x * x * x * x;
    for (int c = 0; c < 3; c++) out[c] = f0[c] + (f90 - f0[c]) * x5;
}

void gn_brdf_dielectric(float ior, const float color[3], float specular, float out[4])
{
    /* reflectance at normal incidence from air; ior 0 the extension's infinite one */
    float r = ior == 0.0f ? 1.0f : (ior - 1.0f) / (ior + 1.0f);
    for (int c = 0; c < 3; c++) out[c] = fminf(r * r * color[c], 1.0f) * specular;
    out[3] = specular;
}

static float gn_brdf_alpha(const gn_brdf_material *m)
{
    float r = m->roughness < GN_BRDF_MIN_ROUGHNESS ? GN_BRDF_MIN_ROUGHNESS : m->roughness;
    return r * r;
}

/* F0 and F90: the dielectric's (~4% at normal incidence, or KHR_materials_specular's) mixed by
 * metalness with the metal's, which tints its reflection by its colour and reaches 1 at grazing
 * angles whatever the dielectric's specular says. */
static float gn_brdf_f0(const gn_brdf_material *m, float f0[3])
{
    for (int c = 0; c < 3; c++) {
        float d = m->specular_set ? m->specular[c] : GN_BRDF_DIELECTRIC_F0;
        f0[c] = d + (m->base_color[c] - d) * m->metallic;
    }
    float d90 = m->specular_set ? m->specular[3] : 1.0f;
    return d90 + (1.0f - d90) * m->metallic;
}

/* The two lobes without the n.l factor. Specular: D V F. Diffuse: Lambert coupled to the
 * specular by Shirley et al.'s factor (Shirley, Smits, Hu, Lafortune, "A Practitioners'
 * Assessment of Light Reflection Models", 1997):
 *   21/(20 pi) (1-F0) (1-(1-n.l)^5) (1-(1-n.v)^5) (1-metallic) base.
 * Why not the simpler (1 - F(v.h)) base / pi: at grazing views the specular lobe reflects up
 * to ~90% (F(v.h) -> 1 at the mirror half vector) while (1 - F(v.h)) at the other half vectors
 * stays near 0.96, so a white dielectric reflected up to 1.8x the light it received (measured
 * by tests/unit/test_brdf.c). The coupled form integrates to exactly (1 - F(n.v)) base,
 * leaves the specular's share to it, and stays reciprocal; 21/20 restores the energy the
 * (1-n.l)^5 factor removes, so head-on it matches Lambert within 1%. */
static void gn_brdf_lobes(const gn_brdf_material *m, float n_dot_v, float n_dot_l, float n_dot_h,
                          float v_dot_h, float spec[3], float diffuse[3])
{
    float alpha = gn_brdf_alpha(m), f0[3], f[3];
    float f90 = gn_brdf_f0(m, f0);
    gn_brdf_f_schlick90(f0, f90, v_dot_h, f);
    float dv = gn_brdf_d_ggx(n_dot_h, alpha) * gn_brdf_v_smith(n_dot_v, n_dot_l, alpha);
    float xl = 1.0f - n_dot_l, xv = 1.0f - n_dot_v;
    float coupling =
        21.0f / (20.0f * GN_PI) * (1.0f - xl * xl * xl * xl * xl) * (1.0f - xv * xv * xv * xv * xv);
    for (int c = 0; c < 3; c++) {
        spec[c] = dv * f[c];
        diffuse[c] = coupling * (1.0f - f0[c]) * (1.0f - m->metallic) * m->base_color[c];
    }
}

void gn_brdf_eval(const gn_brdf_material *m, const float n[3], const float v[3], const float l[3],
                  float out[3])
{
    float n_dot_l = gn_vec3_dot(n, l);
    out[0] = out[1] = out[2] = 0.0f;
    if (n_dot_l <= 0.0f) return; /* light from below the surface adds nothing */
    float n_dot_v = fmaxf(gn_vec3_dot(n, v), GN_BRDF_MIN_N_DOT_V);
    float h[3] = {v[0] + l[0], v[1] + l[1], v[2] + l[2]};
    if (!(gn_vec3_normalize_len(h, 0.0f) > 0.0f)) return; /* v = -l: only with v below the horizon */
    float spec[3], diffuse[3];
    gn_brdf_lobes(m, n_dot_v, n_dot_l, fmaxf(gn_vec3_dot(n, h), 0.0f), fmaxf(gn_vec3_dot(v, h), 0.0f), spec,
                  diffuse);
    for (int c = 0; c < 3; c++) out[c] = (spec[c] + diffuse[c]) * n_dot_l;
}

/* Van der Corput radical inverse in base 2: the second Hammersley coordinate. */
static float gn_radical_inverse(uint32_t i)
{
    i = (i << 16) | (i >> 16);
    i = ((i & 0x55555555u) << 1) | ((i & 0xaaaaaaaau) >> 1);
    i = ((i & 0x33333333u) << 2) | ((i & 0xccccccccu) >> 2);
    i = ((i & 0x0f0f0f0fu) << 4) | ((i & 0xf0f0f0f0u) >> 4);
    i = ((i & 0x00ff00ffu) << 8) | ((i & 0xff00ff00u) >> 8);
    return (float)i * 2.3283064365386963e-10f;
}

/* Smith masking of one direction for GGX, G1 = 2 n.w / (n.w + sqrt(a2 + (1 - a2) (n.w)^2)). */
static float gn_brdf_g1(float n_dot_w, float a2)
{
    return 2.0f * n_dot_w / (n_dot_w + sqrtf(a2 + (1.0f - a2) * n_dot_w * n_dot_w));
}

/* A half vector drawn from the GGX distribution of normals visible from v (v in the tangent
 * frame, n = +z), after Heitz, "Sampling the GGX Distribution of Visible Normals" (JCGT 2018).
 * Its pdf for the reflected l is G1(v) D / (4 n.v), so the specular estimator reduces to
 * F G2 / G1(v) <= 1: low variance even at grazing views, where plain D sampling is noisy. */
static void gn_brdf_sample_vndf(const float v[3], float alpha, float u1, float u2, float h[3])
{
    float vh[3] = {alpha * v[0], alpha * v[1], v[2]}; /* stretch to the hemisphere configuration */
    gn_vec3_normalize_len(vh, 0.0f);
    float lensq = vh[0] * vh[0] + vh[1] * vh[1];
    float t1v[3] = {1.0f, 0.0f, 0.0f};
    if (lensq > 0.0f) t1v[0] = -vh[1] / sqrtf(lensq), t1v[1] = vh[0] / sqrtf(lensq);
    float t2v[3] = {vh[1] * t1v[2] - vh[2] * t1v[1], vh[2] * t1v[0] - vh[0] * t1v[2],
                    vh[0] * t1v[1] - vh[1] * t1v[0]};
    float r = sqrtf(u1), phi = 2.0f * GN_PI * u2;
    float t1 = r * cosf(phi), t2 = r * sinf(phi), s = 0.5f * (1.0f + vh[2]);
    t2 = (1.0f - s) * sqrtf(fmaxf(1.0f - t1 * t1, 0.0f)) + s * t2;
    float tz = sqrtf(fmaxf(1.0f - t1 * t1 - t2 * t2, 0.0f));
    float nh[3];
    for (int c = 0; c < 3; c++) nh[c] = t1 * t1v[c] + t2 * t2v[c] + tz * vh[c];
    h[0] = alpha * nh[0], h[1] = alpha * nh[1], h[2] = fmaxf(nh[2], 0.0f); /* unstretch */
    gn_vec3_normalize_len(h, 0.0f);
}

float gn_brdf_directional_albedo(const gn_brdf_material *m, float n_dot_v, uint32_t samples)
{
    /* Tangent frame n = +z, v in the xz plane. Each lobe is importance-sampled by its own shape
     * so that both a mirror-like specular peak and the broad diffuse lobe converge: the
     * specular by visible GGX normals, the diffuse by cosine. */
    if (samples == 0) return 0.0f;
    n_dot_v = fmaxf(n_dot_v, GN_BRDF_MIN_N_DOT_V);
    float v[3] = {sqrtf(fmaxf(1.0f - n_dot_v * n_dot_v, 0.0f)), 0.0f, n_dot_v};
    float alpha = gn_brdf_alpha(m), a2 = alpha * alpha, g1_v = gn_brdf_g1(n_dot_v, a2);
    double sum = 0.0;
    for (uint32_t i = 0; i < samples; i++) {
        float u1 = ((float)i + 0.5f) / (float)samples, u2 = gn_radical_inverse(i);
        float spec[3], diffuse[3], h[3];

        /* Specular: spec n.l / pdf_l with pdf_l = G1(v) D / (4 n.v). */
        gn_brdf_sample_vndf(v, alpha, u1, u2, h);
        float v_dot_h = gn_vec3_dot(v, h), l_z = 2.0f * v_dot_h * h[2] - v[2];
        if (l_z > 0.0f && v_dot_h > 0.0f) {
            gn_brdf_lobes(m, n_dot_v, l_z, h[2], v_dot_h, spec, diffuse);
            float w = 4.0f * n_dot_v * l_z / (g1_v * gn_brdf_d_ggx(h[2], alpha));
            sum += (spec[0] + spec[1] + spec[2]) / 3.0 * w;
        }

        /* Diffuse: with a cosine pdf n.l / pi the estimator is diffuse * pi. */
        float cl = sqrtf(1.0f - u1), sl = sqrtf(u1), phi = 2.0f * GN_PI * u2;
        float l[3] = {sl * cosf(phi), sl * sinf(phi), cl};
        float hv[3] = {v[0] + l[0], v[1] + l[1], v[2] + l[2]};
        gn_vec3_normalize_len(hv, 0.0f);
        gn_brdf_lobes(m, n_dot_v, cl, hv[2], fmaxf(gn_vec3_dot(v, hv), 0.0f), spec, diffuse);
        sum += (diffuse[0] + diffuse[1] + diffuse[2]) / 3.0 * GN_PI;
    }
    return (float)(sum / samples);
}

void gn_brdf_dfg(float n_dot_v, float roughness, uint32_t samples, float out[2])
{
    /* The split sum's second factor (Karis 2013): the specular lobe's directional albedo with
     * F0 factored out, F = F0 (1 - Fc) + Fc, Fc = (1 - v.h)^5, so albedo = F0 A + B. Visible-GGX
     * sampling makes each sample's weight G2 / G1(v) (gn_brdf_directional_albedo says why). */
    out[0] = out[1] = 0.0f;
    if (samples == 0) return;
    n_dot_v = fmaxf(n_dot_v, GN_BRDF_MIN_N_DOT_V);
    float r = roughness < GN_BRDF_MIN_ROUGHNESS ? GN_BRDF_MIN_ROUGHNESS : roughness;
    float alpha = r * r, a2 = alpha * alpha, g1_v = gn_brdf_g1(n_dot_v, a2);
    float v[3] = {sqrtf(fmaxf(1.0f - n_dot_v * n_dot_v, 0.0f)), 0.0f, n_dot_v};
    double a = 0.0, b = 0.0;
    for (uint32_t i = 0; i < samples; i++) {
        float h[3];
        gn_brdf_sample_vndf(v, alpha, ((float)i + 0.5f) / (float)samples, gn_radical_inverse(i), h);
        float v_dot_h = gn_vec3_dot(v, h), l_z = 2.0f * v_dot_h * h[2] - v[2];
        if (!(l_z > 0.0f && v_dot_h > 0.0f)) continue;
        float g = 4.0f * n_dot_v * l_z * gn_brdf_v_smith(n_dot_v, l_z, alpha) / g1_v;
        float x = 1.0f - v_dot_h, fc = x * x * x * x * x;
        a += (1.0f - fc) * g;
        b += fc * g;
    }
    out[0] = (float)(a / samples);
    out[1] = (float)(b / samples);
}

void gn_shade_ambient(const gn_brdf_material *m, const float n[3], const float v[3], const float amb_sky[3],
                      const float amb_ground[3], float out[3])
{
    /* r = reflect(-v, n) = 2 (n.v) n - v */
    float nv = gn_vec3_dot(n, v);
    float ry = 2.0f * nv * n[1] - v[1];
    float up = n[1] * 0.5f + 0.5f, rup = ry * 0.5f + 0.5f;
    float gloss = 1.0f - m->roughness;
    float spec_w = 0.25f + 0.75f * gloss * gloss, f0[3];
    gn_brdf_f0(m, f0);
    for (int c = 0; c < 3; c++) {
        float hemi = amb_ground[c] + (amb_sky[c] - amb_ground[c]) * up;
        float hemi_r = amb_ground[c] + (amb_sky[c] - amb_ground[c]) * rup;
        out[c] = hemi * m->base_color[c] * (1.0f - m->metallic) + hemi_r * f0[c] * spec_w;
    }
}

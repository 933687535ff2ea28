// The shading BRDF: Cook-Torrance with GGX distribution, height-correlated Smith visibility and
// Schlick Fresnel (Karis 2013; Heitz 2014), plus Lambert diffuse coupled to the specular
// (Shirley et al. 1997; why: see gn_brdf_lobes in src/decide/brdf.c). Mirrored on the CPU by
// src/decide/brdf.c, which unit-tests its properties: keep the two identical.
// Included by other shaders; no #version here.
#ifndef GN_BRDF_GLSL
#define GN_BRDF_GLSL

#ifndef GN_PI
#define GN_PI 3.14159265358979323846
#endif
#define GN_BRDF_MIN_ROUGHNESS 0.045 // alpha^2 (4e-6) stays far from 0: a finite, visible highlight
#define GN_BRDF_MIN_N_DOT_V 1e-4    // grazing views must not divide by zero

// GGX / Trowbridge-Reitz normal distribution (1/sr); alpha = roughness^2.
float gn_brdf_d_ggx(float n_dot_h, float alpha)
{
    float a2 = alpha * alpha;
    float t = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (GN_PI * t * t);
}

// Height-correlated Smith visibility: G2 / (4 n.v n.l).
float gn_brdf_v_smith(float n_dot_v, float n_dot_l, float alpha)
{
    float a2 = alpha * alpha;
    float gv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
    float gl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
    return 0.5 / (gv + gl);
}

vec3 gn_brdf_f_schlick(vec3 f0, float v_dot_h)
{
    float x = 1.0 - v_dot_h;
    float x5 = x * x * x * x * x;
    return f0 + (1.0 - f0) * x5;
}

// Schlick's Fresnel towards f90 at grazing angles (KHR_materials_specular's F90).
vec3 gn_brdf_f_schlick90(vec3 f0, float f90, float v_dot_h)
{
    float x = 1.0 - v_dot_h;
    float x5 = x * x * x * x * x;
    return f0 + (f90 - f0) * x5;
}

// The dielectric's Fresnel when the material gives none: glTF's ior 1.5, specular 1.
#define GN_BRDF_DIELECTRIC vec4(0.04, 0.04, 0.04, 1.0)

// F0 (returned) and F90: the dielectric's (rgb F0, a F90: gn_gpu_material.specular, from
// gn_brdf_dielectric in brdf.c) mixed by metalness with the metal's (its colour, and 1).
vec3 gn_brdf_f0(vec3 base_color, float metallic, vec4 dielectric, out float f90)
{
    f90 = mix(dielectric.a, 1.0, metallic);
    return mix(dielectric.rgb, base_color, metallic);
}

// BRDF * max(n.l, 0): reflected radiance per unit irradiance from l, seen from v (all unit).
vec3 gn_brdf_eval_dielectric(vec3 base_color, float metallic, float roughness, vec4 dielectric, vec3 n, vec3 v,
                             vec3 l)
{
    float n_dot_l = dot(n, l);
    if (n_dot_l <= 0.0) return vec3(0.0); // light from below the surface adds nothing
    float n_dot_v = max(dot(n, v), GN_BRDF_MIN_N_DOT_V);
    vec3 hs = v + l;
    float hl = length(hs);
    if (hl <= 0.0) return vec3(0.0);
    vec3 h = hs / hl;
    float n_dot_h = max(dot(n, h), 0.0);
    float v_dot_h = max(dot(v, h), 0.0);
    float r = max(roughness, GN_BRDF_MIN_ROUGHNESS);
    float alpha = r * r;
    float f90;
    vec3 f0 = gn_brdf_f0(base_color, metallic, dielectric, f90);
    vec3 f = gn_brdf_f_schlick90(f0, f90, v_dot_h);
    vec3 spec = gn_brdf_d_ggx(n_dot_h, alpha) * gn_brdf_v_smith(n_dot_v, n_dot_l, alpha) * f;
    // Coupled diffuse: integrates to (1 - F(n.v)) base, so diffuse + specular never exceed 1.
    float xl = 1.0 - n_dot_l, xv = 1.0 - n_dot_v;
    float coupling = 21.0 / (20.0 * GN_PI) * (1.0 - xl * xl * xl * xl * xl) * (1.0 - xv * xv * xv * xv * xv);
    vec3 diffuse = coupling * (1.0 - f0) * (1.0 - metallic) * base_color;
    return (spec + diffuse) * n_dot_l;
}

// ... of the plain dielectric (F0 0.04, F90 1) and metals.
vec3 gn_brdf_eval(vec3 base_color, float metallic, float roughness, vec3 n, vec3 v, vec3 l)
{
    return gn_brdf_eval_dielectric(base_color, metallic, roughness, GN_BRDF_DIELECTRIC, n, v, l);
}

// Hemisphere ambient: sky radiance from above, bounced ground light from below; the
// specular part sees the same hemisphere along the reflection, weighted by F0 and gloss
// (a cheap stand-in for a pre-filtered environment). Mirrored by gn_shade_ambient in brdf.c.
// The ambient with a given diffuse irradiance (a lightmap's, or the hemisphere's below).
// Specular occlusion from ambient occlusion (Lagarde and de Rousiers 2014; gn_specular_occlusion
// in src/decide/ao.c): 1 with ao 1.
float gn_specular_occlusion(float n_dot_v, float ao, float roughness)
{
    return clamp(pow(max(n_dot_v + ao, 0.0), exp2(-16.0 * roughness - 1.0)) - 1.0 + ao, 0.0, 1.0);
}

// ... occluded by ao: the diffuse part times ao, the specular by its specular occlusion.
vec3 gn_shade_ambient_occluded(vec3 base_color, float metallic, float roughness, vec4 dielectric, vec3 n, vec3 v,
                               vec3 irradiance, vec3 amb_sky, vec3 amb_ground, float ao)
{
    vec3 diffuse = irradiance * base_color * (1.0 - metallic);
    float f90;
    vec3 f0 = gn_brdf_f0(base_color, metallic, dielectric, f90);
    vec3 r = reflect(-v, n);
    float gloss = 1.0 - roughness;
    vec3 spec = mix(amb_ground, amb_sky, r.y * 0.5 + 0.5) * f0 * (0.25 + 0.75 * gloss * gloss);
    if (ao >= 1.0) return diffuse + spec; // exactly the unoccluded ambient (brdf.c mirrors it)
    return diffuse * ao + spec * gn_specular_occlusion(max(dot(n, v), 0.0), ao, roughness);
}

// The environment's ambient (image-based light): the diffuse irradiance (as the radiance a white
// Lambertian surface returns) times the diffuse colour and ao, and the split sum's specular: the
// prefiltered radiance times F0 A + F90 B (the DFG table), times the specular occlusion.
vec3 gn_shade_ambient_ibl(vec3 base_color, float metallic, float roughness, vec4 dielectric, float n_dot_v,
                          vec3 irradiance, vec3 prefiltered, vec2 dfg, float ao)
{
    vec3 diffuse = irradiance * base_color * (1.0 - metallic);
    float f90;
    vec3 f0 = gn_brdf_f0(base_color, metallic, dielectric, f90);
    vec3 spec = prefiltered * (f0 * dfg.x + f90 * dfg.y);
    return diffuse * ao + spec * gn_specular_occlusion(n_dot_v, ao, roughness);
}

vec3 gn_shade_ambient_irradiance(vec3 base_color, float metallic, float roughness, vec3 n, vec3 v,
                                 vec3 irradiance, vec3 amb_sky, vec3 amb_ground)
{
    return gn_shade_ambient_occluded(base_color, metallic, roughness, GN_BRDF_DIELECTRIC, n, v, irradiance,
                                     amb_sky, amb_ground, 1.0);
}

vec3 gn_shade_ambient(vec3 base_color, float metallic, float roughness, vec3 n, vec3 v, vec3 amb_sky,
                      vec3 amb_ground)
{
    return gn_shade_ambient_irradiance(base_color, metallic, roughness, n, v,
                                       mix(amb_ground, amb_sky, n.y * 0.5 + 0.5), amb_sky, amb_ground);
}

#endif // GN_BRDF_GLSL

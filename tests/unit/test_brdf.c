/* BRDF properties: a normalised distribution, Fresnel limits, energy conservation, reciprocity,
 * and the albedo integrator checked against brute-force integration of gn_brdf_eval. */
#include <math.h>

#include "check.h"
#include "decide/brdf.h"
#include "gnomon.h"

#define PI 3.14159265358979323846

static void test_distribution(void)
{
    /* The projected area of the microfacets equals the macro surface:
     * integral of D(h) (n.h) over the hemisphere = 2 pi int_0^{pi/2} D(cos t) cos t sin t dt = 1.
     * Midpoint rule with 2e6 steps: a step of 8e-7 rad resolves the alpha = 0.01 peak. */
    const float roughness[] = {0.1f, 0.3f, 0.6f, 1.0f};
    const int steps = 2000000;
    for (int r = 0; r < 4; r++) {
        float alpha = roughness[r] * roughness[r];
        double sum = 0.0, dt = (PI / 2) / steps;
        for (int i = 0; i < steps; i++) {
            double t = (i + 0.5) * dt;
            sum += gn_brdf_d_ggx((float)cos(t), alpha) * cos(t) * sin(t);
        }
        double projected = 2.0 * PI * sum * dt;
        CHECK(fabs(projected - 1.0) < 0.01, "roughness %g: integral D (n.h) = %.5f, want 1 +- 1%%",
              roughness[r], projected);
    }
}

static void test_fresnel(void)
{
    const float f0[3] = {0.04f, 0.5f, 0.95f};
    float f[3], prev[3];
    gn_brdf_f_schlick(f0, 1.0f, f);
    for (int c = 0; c < 3; c++)
        CHECK(fabsf(f[c] - f0[c]) < 1e-6f, "F(v.h=1)[%d] = %g, want F0 %g", c, f[c], f0[c]);
    gn_brdf_f_schlick(f0, 0.0f, f);
    for (int c = 0; c < 3; c++) CHECK(fabsf(f[c] - 1.0f) < 1e-6f, "F(v.h=0)[%d] = %g, want 1", c, f[c]);
    gn_brdf_f_schlick(f0, 0.0f, prev);
    for (int i = 1; i <= 1000; i++) {
        gn_brdf_f_schlick(f0, (float)i / 1000.0f, f);
        for (int c = 0; c < 3; c++)
            CHECK(f[c] <= prev[c] && f[c] >= f0[c] - 1e-7f, "F not monotonic at v.h %g: %g after %g",
                  i / 1000.0, f[c], prev[c]);
        for (int c = 0; c < 3; c++) prev[c] = f[c];
    }
}

static void dir(float theta, float phi, float out[3])
{
    out[0] = sinf(theta) * cosf(phi), out[1] = sinf(theta) * sinf(phi), out[2] = cosf(theta);
}

static void test_eval(void)
{
    const float n[3] = {0, 0, 1};
    gn_brdf_material m = {{0.9f, 0.6f, 0.3f}, 0.3f, 0.4f};
    float v[3], l[3], out[3], back[3];
    dir(0.6f, 0.2f, v);
    /* Light at or below the horizon contributes exactly nothing. */
    const float below[][3] = {{0.3f, 0.0f, -0.95393920f}, {1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}};
    for (int i = 0; i < 3; i++) {
        gn_brdf_eval(&m, n, v, below[i], out);
        CHECK(out[0] == 0.0f && out[1] == 0.0f && out[2] == 0.0f, "light %d below horizon gave (%g,%g,%g)", i,
              out[0], out[1], out[2]);
    }
    /* Reciprocity: f(v,l) = f(l,v), so eval(v,l)/n.l = eval(l,v)/n.v (relative 1e-4). */
    for (float t = 0.1f; t < 1.5f; t += 0.35f) {
        dir(t, 2.5f, l);
        gn_brdf_eval(&m, n, v, l, out);
        gn_brdf_eval(&m, n, l, v, back);
        for (int c = 0; c < 3; c++) {
            float a = out[c] / l[2], b = back[c] / v[2];
            CHECK(fabsf(a - b) <= 1e-4f * fmaxf(a, b), "reciprocity channel %d at theta_l %g: %g vs %g", c, t,
                  a, b);
        }
    }
    /* Rough dielectric, normal view and light: D, V and F by hand. alpha = 0.16, n.h = 1:
     * D = 1/(pi a^2); V = 0.5/(2 * 1) = 0.25; F = F0; diffuse 21/(20 pi) (1 - F0) base. */
    gn_brdf_material w = {{0.5f, 0.5f, 0.5f}, 0.0f, 0.4f};
    gn_brdf_eval(&w, n, n, n, out);
    double a2 = 0.16 * 0.16, want = 1.0 / (PI * a2) * 0.25 * 0.04 + 21.0 / (20.0 * PI) * 0.96 * 0.5;
    CHECK(fabs(out[0] - want) < 1e-4 * want, "normal-incidence eval %g, want %g", out[0], want);
}

/* Brute force: integral of gn_brdf_eval over the hemisphere on a (cos theta, phi) grid, which
 * has equal solid angle per cell. Independent of the importance sampling in the library. */
static double brute_albedo(const gn_brdf_material *m, float n_dot_v)
{
    const int nt = 1024, np = 512;
    const float n[3] = {0, 0, 1}, v[3] = {sqrtf(1.0f - n_dot_v * n_dot_v), 0.0f, n_dot_v};
    double sum = 0.0;
    for (int i = 0; i < nt; i++)
        for (int j = 0; j < np; j++) {
            float ct = (i + 0.5f) / nt, st = sqrtf(1.0f - ct * ct), phi = 2.0f * (float)PI * (j + 0.5f) / np;
            float l[3] = {st * cosf(phi), st * sinf(phi), ct}, out[3];
            gn_brdf_eval(m, n, v, l, out);
            sum += (out[0] + out[1] + out[2]) / 3.0;
        }
    return sum * 2.0 * PI / ((double)nt * np);
}

static void test_albedo(void)
{
    /* Energy conservation: with a white base no configuration reflects more than it receives.
     * Tolerance 2e-3: the integration error is below 5e-4 (4096 vs 16384 samples, checked
     * next), and the model itself exceeds 1 by up to 1.3e-3 near roughness 0.3, n.v 0.6, where
     * Schlick's F averaged over the specular lobe slightly exceeds F(n.v), the share the
     * coupled diffuse leaves to the specular. Grid: roughness 0..1 by 0.05, n.v 0.02..1. */
    float worst = 0.0f, worst_r = 0.0f, worst_nv = 0.0f;
    for (int metal = 0; metal <= 1; metal++)
        for (int r = 0; r <= 20; r++)
            for (int k = 1; k <= 50; k++) {
                gn_brdf_material m = {{1, 1, 1}, (float)metal, r / 20.0f};
                float e = gn_brdf_directional_albedo(&m, k / 50.0f, 4096);
                if (e > worst) worst = e, worst_r = r / 20.0f, worst_nv = k / 50.0f;
                CHECK(e > 0.1f, "metal %d roughness %g n.v %g: albedo %.5f implausibly dark", metal, r / 20.0,
                      k / 50.0, e);
            }
    CHECK(worst <= 1.0f + 2e-3f, "white albedo reaches %.5f at roughness %g n.v %g, want <= 1 + 2e-3", worst,
          worst_r, worst_nv);
    /* Convergence, so the bound above measures the model rather than the integrator. */
    const float roughness[] = {0.0f, 0.1f, 0.3f, 0.6f, 1.0f}, n_dot_v[] = {1.0f, 0.7f, 0.3f, 0.1f, 0.02f};
    for (int metal = 0; metal <= 1; metal++)
        for (int r = 0; r < 5; r++)
            for (int k = 0; k < 5; k++) {
                gn_brdf_material m = {{1, 1, 1}, (float)metal, roughness[r]};
                float e = gn_brdf_directional_albedo(&m, n_dot_v[k], 4096);
                float e_fine = gn_brdf_directional_albedo(&m, n_dot_v[k], 16384);
                CHECK(fabsf(e - e_fine) < 5e-4f,
                      "metal %d roughness %g n.v %g: albedo %.5f (4096) vs %.5f (16384) not converged", metal,
                      roughness[r], n_dot_v[k], e, e_fine);
            }
    /* A smooth mirror at normal incidence reflects nearly everything. A rough one loses much:
     * single-scattering GGX drops the light that bounces between microfacets, ~60% at
     * alpha = 1 (Kulla & Conty, "Revisiting Physically Based Shading at Imageworks", 2017). */
    gn_brdf_material mirror = {{1, 1, 1}, 1.0f, 0.1f}, rough = {{1, 1, 1}, 1.0f, 1.0f};
    float em = gn_brdf_directional_albedo(&mirror, 1.0f, 4096),
          er = gn_brdf_directional_albedo(&rough, 1.0f, 4096);
    CHECK(em > 0.98f, "smooth white metal albedo %.4f, want > 0.98", em);
    CHECK(er > 0.25f && er < 0.6f, "alpha 1 white metal albedo %.4f, want in (0.25, 0.6)", er);
    /* The importance-sampled integrator agrees with brute force (1% relative). */
    const gn_brdf_material cases[] = {
        {{1, 1, 1}, 0.0f, 0.6f}, {{0.8f, 0.5f, 0.2f}, 1.0f, 0.5f}, {{0.3f, 0.6f, 0.9f}, 0.4f, 0.8f}};
    for (int i = 0; i < 3; i++)
        for (float nv = 0.2f; nv <= 1.0f; nv += 0.4f) {
            double brute = brute_albedo(&cases[i], nv);
            float sampled = gn_brdf_directional_albedo(&cases[i], nv, 4096);
            CHECK(fabs(sampled - brute) < 0.01 * brute,
                  "case %d n.v %g: sampled %.5f vs brute force %.5f (1%%)", i, nv, sampled, brute);
        }
}

/* The split sum's DFG term: a white furnace (F0 = 1) reflects at most what arrives and a mirror
 * exactly that; F0 A + B is the specular lobe's own directional albedo (the same integral two
 * ways); rougher surfaces at grazing views lose the most (single scattering). */
static void test_dfg(void)
{
    float worst_sum = 0.0f, mirror_low = 1.0f;
    for (int i = 1; i <= 16; i++)
        for (int j = 0; j <= 16; j++) {
            float nv = i / 16.0f, rough = j / 16.0f, ab[2];
            gn_brdf_dfg(nv, rough, 1024, ab);
            worst_sum = fmaxf(worst_sum, ab[0] + ab[1]);
            if (j == 0 && nv >= 0.25f) mirror_low = fminf(mirror_low, ab[0] + ab[1]);
            CHECK(ab[0] >= 0.0f && ab[1] >= 0.0f, "dfg(%g, %g) = %g, %g", nv, rough, ab[0], ab[1]);
        }
    CHECK(worst_sum <= 1.0005f, "a white furnace reflects more than arrives: %g", worst_sum);
    CHECK(mirror_low > 0.995f, "a mirror reflects %g of what arrives", mirror_low);
    /* F0 A + B against the specular lobe's albedo: a metal of base colour 0.6 (F0 0.6, no diffuse) */
    gn_brdf_material metal = {{0.6f, 0.6f, 0.6f}, 1.0f, 0.5f};
    float ab[2];
    gn_brdf_dfg(0.5f, 0.5f, 4096, ab);
    float albedo = gn_brdf_directional_albedo(&metal, 0.5f, 4096);
    CHECK(fabsf(0.6f * ab[0] + ab[1] - albedo) < 2e-3f, "F0 A + B %g, the lobe's albedo %g",
          0.6f * ab[0] + ab[1], albedo);
    float rough_grazing[2], smooth_head_on[2];
    gn_brdf_dfg(0.1f, 1.0f, 1024, rough_grazing);
    gn_brdf_dfg(1.0f, 0.1f, 1024, smooth_head_on);
    CHECK(rough_grazing[0] + rough_grazing[1] < smooth_head_on[0] + smooth_head_on[1] - 0.2f,
          "rough grazing %g, smooth head-on %g", rough_grazing[0] + rough_grazing[1],
          smooth_head_on[0] + smooth_head_on[1]);
}

/* KHR_materials_specular and _ior (gn_brdf_dielectric): F0 and F90 against hand-computed values,
 * the defaults reproducing the plain dielectric, and metals untouched by the dielectric's
 * specular (a gold rim of specular 0 and ior 1 must shade as gold, not black). */
static void test_dielectric(void)
{
    const float white[3] = {1, 1, 1}, tint[3] = {1.0f, 0.5f, 0.25f}, hot[3] = {40, 1, 0};
    float d[4];
    /* ior 1.5: ((1.5 - 1) / (1.5 + 1))^2 = 0.04 */
    gn_brdf_dielectric(1.5f, white, 1.0f, d);
    for (int c = 0; c < 3; c++) CHECK(fabsf(d[c] - 0.04f) < 1e-6f, "ior 1.5: F0[%d] %g, want 0.04", c, d[c]);
    CHECK(d[3] == 1.0f, "specular 1: F90 %g", d[3]);
    /* ior 2, colour (1, .5, .25), specular 0.5: (1/3)^2 = 1/9 times each, times 0.5; F90 0.5 */
    gn_brdf_dielectric(2.0f, tint, 0.5f, d);
    const float want[3] = {1.0f / 18, 1.0f / 36, 1.0f / 72};
    for (int c = 0; c < 3; c++)
        CHECK(fabsf(d[c] - want[c]) < 1e-6f, "ior 2: F0[%d] %g, want %g", c, d[c], want[c]);
    CHECK(d[3] == 0.5f, "specular 0.5: F90 %g", d[3]);
    /* the colour can push F0 past 1: clamped before the specular weight (ior 3: 0.25 x 40 -> 1) */
    gn_brdf_dielectric(3.0f, hot, 0.8f, d);
    CHECK(fabsf(d[0] - 0.8f) < 1e-6f && fabsf(d[1] - 0.2f) < 1e-6f && d[2] == 0.0f,
          "clamped F0 (%g, %g, %g), want (0.8, 0.2, 0)", d[0], d[1], d[2]);
    /* ior 1: no reflection at normal incidence; ior 0: the infinite ior, F0 the colour */
    gn_brdf_dielectric(1.0f, white, 1.0f, d);
    CHECK(d[0] == 0.0f, "ior 1: F0 %g", d[0]);
    gn_brdf_dielectric(0.0f, tint, 1.0f, d);
    CHECK(d[0] == 1.0f && d[1] == 0.5f && d[2] == 0.25f, "ior 0: F0 (%g, %g, %g)", d[0], d[1], d[2]);

    const float n[3] = {0, 0, 1};
    float v[3], l[3];
    dir(0.7f, 0.3f, v);
    dir(1.2f, 2.5f, l); /* a rim: both far from the normal */
    /* the default dielectric, given explicitly, shades as the unset one */
    gn_brdf_material plain = {{0.7f, 0.3f, 0.2f}, 0.0f, 0.4f}, given = plain;
    given.specular_set = true;
    gn_brdf_dielectric(1.5f, white, 1.0f, given.specular);
    float a[3], b[3];
    gn_brdf_eval(&plain, n, v, l, a);
    gn_brdf_eval(&given, n, v, l, b);
    for (int c = 0; c < 3; c++)
        CHECK(fabsf(a[c] - b[c]) <= 1e-6f * a[c] + 1e-9f, "default [%d] %g vs %g", c, a[c], b[c]);
    /* specular 0 on a dielectric: no specular lobe, so the mirror direction adds nothing over the
     * diffuse (the eval at the mirror equals one far from it, up to the diffuse's n.l) */
    gn_brdf_material matte = plain;
    matte.specular_set = true;
    gn_brdf_dielectric(1.5f, white, 0.0f, matte.specular);
    float mirror[3] = {-v[0], -v[1], v[2]}, m0[3], p0[3];
    gn_brdf_eval(&matte, n, v, mirror, m0);
    gn_brdf_eval(&plain, n, v, mirror, p0);
    float diffuse_only = 21.0f / (20.0f * (float)PI) * (1.0f - powf(1.0f - mirror[2], 5)) *
                         (1.0f - powf(1.0f - v[2], 5)) * 0.7f * mirror[2];
    CHECK(fabsf(m0[0] - diffuse_only) < 1e-5f, "specular 0: %g at the mirror, want the diffuse alone %g",
          m0[0], diffuse_only);
    CHECK(p0[0] > m0[0] * 1.05f, "specular 1 must add a lobe: %g vs %g", p0[0], m0[0]);
    /* gold (metallic 1) with the dielectric switched off: exactly gold */
    gn_brdf_material gold = {{1.0f, 0.766f, 0.336f}, 1.0f, 0.3f}, gold_off = gold;
    gold_off.specular_set = true;
    gn_brdf_dielectric(1.0f, white, 0.0f, gold_off.specular);
    float g0[3], g1[3], amb0[3], amb1[3];
    const float sky[3] = {1, 1, 1}, ground[3] = {0.2f, 0.2f, 0.2f};
    gn_brdf_eval(&gold, n, v, l, g0);
    gn_brdf_eval(&gold_off, n, v, l, g1);
    gn_shade_ambient(&gold, n, v, sky, ground, amb0);
    gn_shade_ambient(&gold_off, n, v, sky, ground, amb1);
    for (int c = 0; c < 3; c++) {
        CHECK(fabsf(g0[c] - g1[c]) <= 1e-6f * g0[c], "gold rim [%d]: %g with specular 0, %g without", c,
              g1[c], g0[c]);
        CHECK(fabsf(amb0[c] - amb1[c]) <= 1e-6f * amb0[c], "gold ambient [%d]: %g vs %g", c, amb1[c],
              amb0[c]);
    }
    /* and its highlight stays gold's: the mirror direction reflects over a tenth of the light */
    gn_brdf_eval(&gold_off, n, v, mirror, g1);
    CHECK(g1[0] > 0.1f && g1[1] > g1[2], "gold's highlight is near black or not gold: (%g, %g, %g)", g1[0],
          g1[1], g1[2]);
    /* F90 below 1 lowers the grazing Fresnel: F(0) = F90 */
    const float f0[3] = {0.1f, 0.1f, 0.1f};
    float f[3];
    gn_brdf_f_schlick90(f0, 0.3f, 0.0f, f);
    CHECK(fabsf(f[0] - 0.3f) < 1e-6f, "F(v.h = 0) %g, want F90 0.3", f[0]);
    gn_brdf_f_schlick90(f0, 0.3f, 1.0f, f);
    CHECK(fabsf(f[0] - 0.1f) < 1e-6f, "F(v.h = 1) %g, want F0 0.1", f[0]);
}

int main(void)
{
    /* the public API documents the BRDF's clamp: the two must be one number */
    CHECK(GN_MATERIAL_MIN_ROUGHNESS == GN_BRDF_MIN_ROUGHNESS, "gnomon.h says %g, the BRDF clamps at %g",
          (double)GN_MATERIAL_MIN_ROUGHNESS, (double)GN_BRDF_MIN_ROUGHNESS);
    test_distribution();
    test_fresnel();
    test_eval();
    test_albedo();
    test_dfg();
    test_dielectric();
    return gn_check_exit();
}

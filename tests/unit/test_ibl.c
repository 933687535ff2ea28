/* Image-based light on the CPU (decide/ibl.c): an octahedral map built from six 90-degree faces
 * rendered analytically (each texel a smooth function of its direction, or one face a marker
 * colour) looks up the right direction in the right face, and the GGX prefilter keeps a uniform
 * map uniform, is the identity at roughness 0, keeps the sphere's mean radiance at roughness 1,
 * and gives finite weighted means of its source. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decide/camera.h"
#include "decide/ibl.h"

#define PI_F 3.14159265358979f
#define FACE 64u /* face side, texels */
#define OCT 64u  /* octahedral map side, texels */

/* The six cube faces of a probe: yaw 0, 90, 180, 270 around the horizon, then up and down. */
static const float FACE_YAW[6] = {0, 90, 180, 270, 0, 0}, FACE_PITCH[6] = {0, 0, 0, 0, 90, -90};
static const float ORIGIN[3] = {3.0f, -1.0f, 2.0f}; /* off the origin: the faces' translation must drop out */

static void smooth_f(const float d[3], float out[4])
{
    for (int k = 0; k < 3; k++) out[k] = 0.5f + 0.5f * d[k];
    out[3] = 1.0f;
}

static void oct_dir(uint32_t x, uint32_t y, uint32_t size, float d[3])
{
    float uv[2] = {((float)x + 0.5f) / (float)size, ((float)y + 0.5f) / (float)size};
    gn_oct_point(uv, d);
    float l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3; k++) d[k] /= l;
}

/* The texel's solid angle, up to a constant: 1 / |p|^3 of its octahedron point. */
static double oct_weight(uint32_t x, uint32_t y, uint32_t size)
{
    float uv[2] = {((float)x + 0.5f) / (float)size, ((float)y + 0.5f) / (float)size}, p[3];
    gn_oct_point(uv, p);
    double l = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
    return 1.0 / (l * l * l);
}

static void face_matrices(float vp[6][16])
{
    float proj[16], view[16];
    gn_camera_projection(0.5f * PI_F, 1.0f, 0.1f, proj);
    for (int f = 0; f < 6; f++) {
        gn_camera_view(ORIGIN, FACE_YAW[f], FACE_PITCH[f], view);
        gn_mat4_mul(proj, view, vp[f]);
    }
}

/* Each face texel filled with smooth_f of its pixel centre's direction, unprojected through the
 * inverse of the face's matrix (row 0 the top, ndc.y = -1). */
static void render_faces(const float vp[6][16], float *faces[6])
{
    for (int f = 0; f < 6; f++) {
        float inv[16];
        CHECK(gn_mat4_inverse(vp[f], inv), "face %d's matrix is singular", f);
        for (uint32_t y = 0; y < FACE; y++)
            for (uint32_t x = 0; x < FACE; x++) {
                float ndc[3] = {((float)x + 0.5f) / FACE * 2.0f - 1.0f,
                                ((float)y + 0.5f) / FACE * 2.0f - 1.0f, 0.5f},
                      w[4], d[3];
                gn_mat4_transform_point(inv, ndc, w);
                for (int k = 0; k < 3; k++) d[k] = w[k] / w[3] - ORIGIN[k];
                float l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                for (int k = 0; k < 3; k++) d[k] /= l;
                smooth_f(d, faces[f] + ((size_t)y * FACE + x) * 4);
            }
    }
}

static void test_from_faces(void)
{
    float vp[6][16], *faces[6], *oct = malloc(sizeof(float) * 4 * OCT * OCT);
    for (int f = 0; f < 6; f++) faces[f] = malloc(sizeof(float) * 4 * FACE * FACE);
    face_matrices(vp);
    render_faces(vp, faces);

    /* (1) a smooth function of the direction: bilinear within a face, clamped at its edge */
    gn_oct_from_faces((const float *const *)faces, FACE, (const float(*)[16])vp, OCT, oct);
    float worst = 0.0f, worst_alpha = 0.0f;
    for (uint32_t y = 0; y < OCT; y++)
        for (uint32_t x = 0; x < OCT; x++) {
            float d[3], want[4];
            const float *got = oct + ((size_t)y * OCT + x) * 4;
            oct_dir(x, y, OCT, d);
            smooth_f(d, want);
            for (int k = 0; k < 3; k++) worst = fmaxf(worst, fabsf(got[k] - want[k]));
            worst_alpha = fmaxf(worst_alpha, fabsf(got[3] - 1.0f));
        }
    printf("oct from %u^2 faces, %u^2 map: max |error| of 0.5 + 0.5 d = %.3g\n", FACE, OCT, worst);
    CHECK(worst < 0.01f, "max |error| %.4g of 0.5 + 0.5 d over the map, want < 0.01", worst);
    CHECK(worst_alpha < 1e-6f, "alpha off 1 by %.3g", worst_alpha);

    /* A marker: face 0 (yaw 0, looking down -Z) all red, the rest blue. Directions where -Z
     * dominates by a margin must be red, those where another axis does blue. */
    for (int f = 0; f < 6; f++)
        for (uint32_t i = 0; i < FACE * FACE; i++) {
            float *t = faces[f] + (size_t)i * 4;
            t[0] = f == 0 ? 1.0f : 0.0f, t[1] = 0.0f, t[2] = f == 0 ? 0.0f : 1.0f, t[3] = 1.0f;
        }
    gn_oct_from_faces((const float *const *)faces, FACE, (const float(*)[16])vp, OCT, oct);
    uint32_t wrong = 0, red = 0;
    for (uint32_t y = 0; y < OCT; y++)
        for (uint32_t x = 0; x < OCT; x++) {
            float d[3];
            const float *got = oct + ((size_t)y * OCT + x) * 4;
            oct_dir(x, y, OCT, d);
            float lead = -d[2] - fmaxf(fabsf(d[0]), fabsf(d[1]));
            if (fabsf(lead) < 1e-4f) continue; /* on the cube's edge: either face is right */
            int want_red = lead > 0.0f, is_red = got[0] == 1.0f && got[2] == 0.0f;
            int is_blue = got[0] == 0.0f && got[2] == 1.0f;
            red += (uint32_t)is_red;
            if (want_red ? !is_red : !is_blue) wrong++;
        }
    CHECK(wrong == 0, "%u texels took the wrong face for the -Z marker", wrong);
    CHECK(red > OCT * OCT / 12, "only %u of %u texels red, want about 1/6", red, OCT * OCT);

    for (int f = 0; f < 6; f++) free(faces[f]);
    free(oct);
}

/* Solid-angle mean of channel c over an octahedral map. */
static double sphere_mean(const float *rgba, uint32_t size, int c)
{
    double s = 0.0, w = 0.0;
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            double t = oct_weight(x, y, size);
            s += t * rgba[((size_t)y * size + x) * 4 + c], w += t;
        }
    return s / w;
}

/* Red of the texel of an octahedral map that holds direction (x, y, z). */
static float oct_at(const float *rgba, uint32_t size, float x, float y, float z)
{
    float d[3] = {x, y, z}, uv[2];
    gn_oct_encode(d, uv);
    uint32_t tx = (uint32_t)fminf(uv[0] * (float)size, (float)(size - 1));
    uint32_t ty = (uint32_t)fminf(uv[1] * (float)size, (float)(size - 1));
    return rgba[((size_t)ty * size + tx) * 4];
}

static void test_prefilter(void)
{
    const uint32_t n = OCT;
    float *src = malloc(sizeof(float) * 4 * n * n), *out = malloc(sizeof(float) * 4 * n * n);

    /* (2a) a uniform map stays uniform at every roughness */
    const float c[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    for (uint32_t i = 0; i < n * n; i++) memcpy(src + (size_t)i * 4, c, sizeof c);
    const float rough[4] = {0.0f, 0.2f, 0.6f, 1.0f};
    for (int r = 0; r < 4; r++) {
        gn_ibl_prefilter(src, n, rough[r], 32, out);
        float worst = 0.0f;
        for (uint32_t i = 0; i < 32 * 32; i++)
            for (int k = 0; k < 4; k++) worst = fmaxf(worst, fabsf(out[(size_t)i * 4 + k] - c[k]));
        CHECK(worst < 1e-5f, "uniform map prefiltered at roughness %g: off by %.3g, want < 1e-5", rough[r],
              worst);
    }

    /* (2b) bright above the horizon, dim below: roughness 0 samples only the mirror direction, so
     * the level is its source texel by texel */
    const float hi[3] = {2.0f, 1.0f, 0.5f}, lo[3] = {0.1f, 0.2f, 0.3f};
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            float d[3], *t = src + ((size_t)y * n + x) * 4;
            oct_dir(x, y, n, d);
            for (int k = 0; k < 3; k++) t[k] = d[1] > 0.0f ? hi[k] : lo[k];
            t[3] = 1.0f;
        }
    gn_ibl_prefilter(src, n, 0.0f, n, out);
    float worst = 0.0f;
    for (uint32_t i = 0; i < n * n; i++)
        for (int k = 0; k < 3; k++)
            worst = fmaxf(worst, fabsf(out[(size_t)i * 4 + k] - src[(size_t)i * 4 + k]));
    printf("prefilter roughness 0, %u^2 from %u^2: max |out - src| = %.3g\n", n, n, worst);
    CHECK(worst < 1e-4f, "roughness 0 differs from its source by %.3g, want < 1e-4", worst);

    /* Energy: the solid-angle mean of the sphere is kept at roughness 1 (and a middle one) */
    const float er[2] = {0.5f, 1.0f};
    for (int r = 0; r < 2; r++) {
        gn_ibl_prefilter(src, n, er[r], n, out);
        double worst_rel = 0.0;
        for (int k = 0; k < 3; k++) {
            double ms = sphere_mean(src, n, k), mo = sphere_mean(out, n, k), rel = fabs(mo / ms - 1.0);
            worst_rel = fmax(worst_rel, rel);
            CHECK(rel < 0.03,
                  "roughness %g, channel %d: sphere mean %.5f against the source's %.5f (%.2f%%, want < 3%%)",
                  er[r], k, mo, ms, rel * 100.0);
        }
        printf("prefilter roughness %g: sphere mean off the source's by %.2f%% at most\n", er[r],
               worst_rel * 100.0);
        /* A blur of a step: 20 degrees above and below the horizon stay on their side of the
         * middle, and at roughness 1 the lobe reaches across, pulling both towards it by > 1% of
         * the step (only the n.l > 0 half of a sample's reflections count, so the poles, 90
         * degrees away, keep their values). */
        float step = hi[0] - lo[0], mid = 0.5f * (hi[0] + lo[0]), in = er[r] == 1.0f ? 0.01f * step : 0.0f;
        float e = 20.0f * PI_F / 180.0f, above = oct_at(out, n, cosf(e), sinf(e), 0.0f);
        float below = oct_at(out, n, cosf(e), -sinf(e), 0.0f);
        printf("prefilter roughness %g: red 20 degrees above the horizon %.4f, below %.4f (step %g to %g)\n",
               er[r], above, below, lo[0], hi[0]);
        CHECK(above <= hi[0] - in && above > mid, "roughness %g: %.4f above the horizon, want in (%g, %g]",
              er[r], above, mid, hi[0] - in);
        CHECK(below >= lo[0] + in && below < mid, "roughness %g: %.4f below the horizon, want in [%g, %g)",
              er[r], below, lo[0] + in, mid);
    }

    /* (3) finite and within the source's range at any roughness (each texel a weighted mean),
     * alpha 1, for a map with a sharp, uneven pattern and every size from 1 texel up */
    for (uint32_t i = 0; i < n * n; i++)
        for (int k = 0; k < 4; k++)
            src[(size_t)i * 4 + k] = (float)((i * 2654435761u + (uint32_t)k * 40503u) % 1000u) / 100.0f;
    float smin = INFINITY, smax = -INFINITY;
    for (uint32_t i = 0; i < n * n; i++)
        for (int k = 0; k < 3; k++)
            smin = fminf(smin, src[(size_t)i * 4 + k]), smax = fmaxf(smax, src[(size_t)i * 4 + k]);
    const float sr[6] = {0.0f, 1e-4f, 0.05f, 0.3f, 0.8f, 1.0f};
    const uint32_t so[3] = {1, 7, 32};
    uint32_t bad = 0;
    for (int r = 0; r < 6; r++)
        for (int s = 0; s < 3; s++) {
            gn_ibl_prefilter(src, n, sr[r], so[s], out);
            for (uint32_t i = 0; i < so[s] * so[s]; i++) {
                const float *t = out + (size_t)i * 4;
                for (int k = 0; k < 3; k++)
                    bad += !(isfinite(t[k]) && t[k] >= smin - 1e-5f && t[k] <= smax + 1e-5f);
                bad += t[3] != 1.0f;
            }
        }
    CHECK(bad == 0, "%u prefiltered channels not finite, out of [%g, %g] or alpha not 1", bad, smin, smax);

    free(src);
    free(out);
}

int main(void)
{
    test_from_faces();
    test_prefilter();
    return gn_check_exit();
}

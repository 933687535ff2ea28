/* The VSM pages' pyramid (each texel the maximum of the page texels it covers) and the pair
 * test (hidden only when every texel the sphere's footprint touches is nearer the sun than
 * the sphere; hidden under a roof, not beside it). */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "decide/vsm_hzb.h"

static uint32_t rng_state = 777u;
static float rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 16777216.0f;
}

#define T 128u

static void test_build(void)
{
    float *depth = malloc(sizeof(float) * T * T);
    for (uint32_t i = 0; i < T * T; i++) depth[i] = rnd();
    gn_hzb_layout l;
    gn_hzb_layout_make(T, T, &l);
    float *hzb = malloc(sizeof(float) * l.texels);
    gn_hzb_build_max(&l, depth, hzb);
    uint32_t wrong = 0;
    for (uint32_t k = 0; k < l.levels; k++)
        for (uint32_t y = 0; y < l.h[k]; y++)
            for (uint32_t x = 0; x < l.w[k]; x++) {
                uint32_t span = 1u << (k + 1);
                float m = -INFINITY;
                for (uint32_t py = y * span; py < (y + 1) * span && py < T; py++)
                    for (uint32_t px = x * span; px < (x + 1) * span && px < T; px++)
                        m = fmaxf(m, depth[py * T + px]);
                wrong += hzb[l.offset[k] + y * l.w[k] + x] != m;
            }
    CHECK(l.texels == 5461, "a 128^2 page's pyramid has %u texels, want 5461", l.texels);
    CHECK(wrong == 0, "%u texels are not the maximum of the texels they cover", wrong);
    free(depth), free(hzb);
}

/* A page 16 m a side at (32, 48) m; a roof at depth 0.3 over its left half (u < 64), the
 * ground at 0.6 elsewhere; depth range +-100 m: depth = (z + 100) / 200. */
static void test_pairs(void)
{
    const float range = 100.0f;
    gn_vsm_page_rect p = {32.0f, 48.0f, 16.0f, 2.0f / 16.0f};
    float *depth = malloc(sizeof(float) * T * T);
    for (uint32_t v = 0; v < T; v++)
        for (uint32_t u = 0; u < T; u++) depth[v * T + u] = u < 64 ? 0.3f : 0.6f;
    gn_hzb_layout l;
    gn_hzb_layout_make(T, T, &l);
    float *hzb = malloc(sizeof(float) * l.texels);
    gn_hzb_build_max(&l, depth, hzb);
    /* under the roof (x in 32..40 m), below it in depth (z = 0: depth 0.5): hidden */
    float under[3] = {35.0f, 55.0f, 0.0f};
    CHECK(gn_vsm_hidden(&l, hzb, &p, under, 1.0f, range), "a caster under the roof is drawn");
    /* the same but above the roof (z = -50 m: depth 0.25): drawn */
    float above[3] = {35.0f, 55.0f, -50.0f};
    CHECK(!gn_vsm_hidden(&l, hzb, &p, above, 1.0f, range), "a caster above the roof is culled");
    /* beside the roof, over the ground: drawn */
    float beside[3] = {44.0f, 55.0f, 0.0f};
    CHECK(!gn_vsm_hidden(&l, hzb, &p, beside, 1.0f, range), "a caster over open ground is culled");
    /* straddling the roof's edge: drawn */
    float edge[3] = {39.9f, 55.0f, 0.0f};
    CHECK(!gn_vsm_hidden(&l, hzb, &p, edge, 0.5f, range), "a caster over the roof's edge is culled");
    /* random depths and spheres: hidden only when every texel whose centre the sphere's
     * square covers is strictly nearer than its nearest depth */
    for (uint32_t i = 0; i < T * T; i++) depth[i] = 0.2f + 0.6f * rnd() * rnd();
    for (uint32_t v = 40; v < 90; v++)
        for (uint32_t u = 30; u < 100; u++) depth[v * T + u] = 0.35f + 0.01f * rnd();
    gn_hzb_build_max(&l, depth, hzb);
    uint32_t hidden = 0, wrong = 0;
    for (int n = 0; n < 20000; n++) {
        float lp[3] = {30.0f + 20.0f * rnd(), 46.0f + 20.0f * rnd(), -100.0f + 200.0f * rnd()};
        float r = 0.05f + 2.0f * rnd();
        if (!gn_vsm_hidden(&l, hzb, &p, lp, r, range)) continue;
        hidden++;
        float nearest = (lp[2] - r + range) / (2.0f * range);
        float k = T / p.size;
        for (uint32_t v = 0; v < T; v++)
            for (uint32_t u = 0; u < T; u++) {
                float x = p.x0 + (u + 0.5f) / k, y = p.y0 + p.size - (v + 0.5f) / k;
                if (fabsf(x - lp[0]) <= r && fabsf(y - lp[1]) <= r) wrong += !(depth[v * T + u] < nearest);
            }
    }
    CHECK(hidden > 1000, "only %u of 20000 random casters hidden below a flat roof", hidden);
    CHECK(wrong == 0, "%u texels under hidden casters were not nearer than them", wrong);
    free(depth), free(hzb);
}

int main(void)
{
    test_build();
    test_pairs();
    return gn_check_exit();
}

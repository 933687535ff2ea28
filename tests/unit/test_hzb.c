/* The HZB's layout and build (every texel the farthest depth of exactly the pixels it covers,
 * at sizes that are not powers of two) and the sphere test (never "occluded" while a pixel of
 * the sphere's rectangle is as near as the sphere; "occluded" behind a wall). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decide/camera.h"
#include "decide/hzb.h"

static uint32_t rng_state = 12345u;
static float rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 16777216.0f;
}

static void test_layout(void)
{
    static const uint32_t sizes[][2] = {{481, 271}, {960, 540}, {3840, 2160}, {1, 1},
                                        {2, 3},     {257, 1},   {1920, 1080}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        gn_hzb_layout l;
        gn_hzb_layout_make(sizes[i][0], sizes[i][1], &l);
        CHECK(l.w[l.levels - 1] == 1 && l.h[l.levels - 1] == 1, "%ux%u: the last level is %ux%u", sizes[i][0],
              sizes[i][1], l.w[l.levels - 1], l.h[l.levels - 1]);
        uint32_t at = 0;
        for (uint32_t k = 0; k < l.levels; k++) {
            /* level k covers 2^(k+1) pixels a texel: ceil(size / 2^(k+1)) texels, none dropped */
            uint32_t span = 1u << (k + 1);
            CHECK(l.w[k] == (sizes[i][0] + span - 1) / span || (l.w[k] == 1 && sizes[i][0] <= span),
                  "%ux%u level %u: %u texels across", sizes[i][0], sizes[i][1], k, l.w[k]);
            CHECK(l.h[k] == (sizes[i][1] + span - 1) / span || (l.h[k] == 1 && sizes[i][1] <= span),
                  "%ux%u level %u: %u texels down", sizes[i][0], sizes[i][1], k, l.h[k]);
            CHECK(l.offset[k] == at, "level %u at %u, want %u", k, l.offset[k], at);
            at += l.w[k] * l.h[k];
        }
        CHECK(l.texels == at, "%u texels, want %u", l.texels, at);
    }
}

static void test_build(void)
{
    const uint32_t w = 37, h = 23, samples = 4;
    float *depth = malloc(sizeof(float) * w * h * samples);
    for (uint32_t i = 0; i < w * h * samples; i++) depth[i] = rnd();
    gn_hzb_layout l;
    gn_hzb_layout_make(w, h, &l);
    float *hzb = malloc(sizeof(float) * l.texels);
    gn_hzb_build(&l, depth, samples, hzb);
    uint32_t wrong = 0;
    for (uint32_t k = 0; k < l.levels; k++)
        for (uint32_t y = 0; y < l.h[k]; y++)
            for (uint32_t x = 0; x < l.w[k]; x++) {
                uint32_t span = 1u << (k + 1);
                float m = INFINITY;
                for (uint32_t py = y * span; py < (y + 1) * span && py < h; py++)
                    for (uint32_t px = x * span; px < (x + 1) * span && px < w; px++)
                        for (uint32_t s = 0; s < samples; s++)
                            m = fminf(m, depth[(py * w + px) * samples + s]);
                wrong += hzb[l.offset[k] + y * l.w[k] + x] != m;
            }
    CHECK(wrong == 0, "%u texels are not the minimum of the pixels they cover", wrong);
    free(depth), free(hzb);
}

/* A camera at the origin looking down -z at a wall at distance `wall` over the left part of
 * the image (x < split), open sky (depth 0) elsewhere. */
static void test_spheres(void)
{
    const uint32_t w = 481, h = 271;
    const float near_plane = 0.1f, wall = 20.0f;
    float proj[16], pos[3] = {0, 0, 0};
    gn_hzb_camera cam;
    gn_camera_projection(1.0471976f, (float)w / h, near_plane, proj);
    gn_camera_view(pos, 0.0f, 0.0f, cam.view);
    cam.p00 = proj[0], cam.p11 = proj[5], cam.near_plane = near_plane;
    float *depth = malloc(sizeof(float) * w * h);
    uint32_t split = 300;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) depth[y * w + x] = x < split ? near_plane / wall : 0.0f;
    gn_hzb_layout l;
    gn_hzb_layout_make(w, h, &l);
    float *hzb = malloc(sizeof(float) * l.texels);
    gn_hzb_build(&l, depth, 1, hzb);
    /* behind the wall, well inside its part of the image: occluded */
    float behind[4] = {-5.0f, 0.0f, -60.0f, 1.0f};
    CHECK(gn_hzb_occluded(&l, hzb, &cam, behind), "a sphere behind the wall is not culled");
    /* in front of the wall: not */
    float front[4] = {-2.0f, 0.0f, -10.0f, 1.0f};
    CHECK(!gn_hzb_occluded(&l, hzb, &cam, front), "a sphere before the wall is culled");
    /* reaching the near plane: never */
    float at_eye[4] = {0.0f, 0.0f, -0.5f, 1.0f};
    CHECK(!gn_hzb_occluded(&l, hzb, &cam, at_eye), "a sphere around the eye is culled");
    /* conservative over random spheres: culled only when every pixel of its rectangle is
     * strictly farther than its nearest point */
    uint32_t culled = 0, wrong = 0;
    for (int i = 0; i < 20000; i++) {
        float s[4] = {(rnd() - 0.5f) * 80.0f, (rnd() - 0.5f) * 40.0f, -(rnd() * 80.0f), 0.05f + rnd() * 4.0f};
        if (!gn_hzb_occluded(&l, hzb, &cam, s)) continue;
        culled++;
        uint32_t rect[4];
        float nearest;
        CHECK(gn_hzb_sphere_rect(&l, &cam, s, rect, &nearest), "culled without a rectangle");
        for (uint32_t y = rect[1]; y <= rect[3]; y++)
            for (uint32_t x = rect[0]; x <= rect[2]; x++) wrong += !(depth[y * w + x] > nearest);
        /* and the sphere's centre projects inside the rectangle */
        float vz = -s[2];
        float px = (proj[0] * s[0] / vz + 1.0f) * 0.5f * w, py = (proj[5] * s[1] / vz + 1.0f) * 0.5f * h;
        wrong += px >= 0 && px < w && py >= 0 && py < h &&
                 (px < rect[0] || px >= rect[2] + 1 || py < rect[1] || py >= rect[3] + 1);
    }
    CHECK(culled > 1000, "only %u of 20000 random spheres culled behind a wall over 60%% of the view",
          culled);
    CHECK(wrong == 0, "%u pixels of culled spheres' rectangles were as near as the sphere", wrong);
    free(depth), free(hzb);
}

int main(void)
{
    test_layout();
    test_build();
    test_spheres();
    return gn_check_exit();
}

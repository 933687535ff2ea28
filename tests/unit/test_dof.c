/* Depth of field's blend per pixel on the CPU (src/decide/dof.c): the back, front and both modes
 * and the strength; off at strength 0; the sky rule (open sky sharp, sky beside geometry blurred by
 * the geometry's distance at half strength for the ring's sky share; blur_sky: as at infinity). */
#include "check.h"
#include "decide/dof.h"

#include <math.h>

static void test_modes(void)
{
    gn_dof_params p = {.focus = 10.0f, .range = 20.0f, .strength = 0.8f, .mode = GN_DOF_BACK};
    CHECK(gn_dof_coc(&p, 5.0f) == 0.0f && fabsf(gn_dof_coc(&p, 20.0f) - 0.4f) < 1e-6f &&
              fabsf(gn_dof_coc(&p, 100.0f) - 0.8f) < 1e-6f,
          "back: %g %g %g", gn_dof_coc(&p, 5.0f), gn_dof_coc(&p, 20.0f), gn_dof_coc(&p, 100.0f));
    p.mode = GN_DOF_FRONT;
    CHECK(fabsf(gn_dof_coc(&p, 5.0f) - 0.2f) < 1e-6f && gn_dof_coc(&p, 30.0f) == 0.0f &&
              gn_dof_coc(&p, INFINITY) == 0.0f,
          "front: %g %g", gn_dof_coc(&p, 5.0f), gn_dof_coc(&p, 30.0f));
    p.mode = GN_DOF_BOTH;
    CHECK(fabsf(gn_dof_coc(&p, 5.0f) - 0.2f) < 1e-6f && fabsf(gn_dof_coc(&p, 20.0f) - 0.4f) < 1e-6f &&
              gn_dof_coc(&p, 10.0f) == 0.0f,
          "both: %g %g", gn_dof_coc(&p, 5.0f), gn_dof_coc(&p, 20.0f));
    p.strength = 0.0f;
    CHECK(gn_dof_coc(&p, 100.0f) == 0.0f, "off: %g", gn_dof_coc(&p, 100.0f));
}

static void test_sky(void)
{
    enum { W = 16, H = 16 };
    float z[W * H];
    /* geometry 50 m away in the bottom half, sky above */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) z[y * W + x] = y >= 8 ? 50.0f : 0.0f;
    gn_dof_params p = {.focus = 10.0f, .range = 20.0f, .strength = 1.0f, .mode = GN_DOF_BACK};
    CHECK(gn_dof_pixel(&p, z, W, H, 5, 2) == 0.0f, "open sky stays sharp: %g",
          gn_dof_pixel(&p, z, W, H, 5, 2));
    /* just above the horizon: 3 of the 8 ring taps (below, and the two diagonals) are geometry */
    float t = gn_dof_pixel(&p, z, W, H, 5, 7);
    CHECK(fabsf(t - 1.0f * (1.0f - 0.5f * 5.0f / 8.0f)) < 1e-6f, "beside geometry: %g", t);
    CHECK(gn_dof_pixel(&p, z, W, H, 5, 12) == 1.0f, "geometry: %g", gn_dof_pixel(&p, z, W, H, 5, 12));
    p.blur_sky = true;
    CHECK(gn_dof_pixel(&p, z, W, H, 5, 2) == 1.0f, "blur_sky: %g", gn_dof_pixel(&p, z, W, H, 5, 2));
}

int main(void)
{
    test_modes();
    test_sky();
    return gn_check_exit();
}

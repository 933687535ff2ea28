/* Shadowed local lights: the choice (nearest first, budgets of lights and layers, only lights
 * that cast and reach the view) and the layer matrices (a spot's cone and the six cube faces
 * cover what the shader looks up there; depth 0 at the near plane, 1 at the radius). */
#include "check.h"
#include "decide/camera.h"
#include "decide/light_shadows.h"

#include <math.h>
#include <stdlib.h>

static void project(const float m[16], const float p[3], float ndc[3])
{
    float c[4];
    gn_mat4_transform_point(m, p, c);
    for (int i = 0; i < 3; i++) ndc[i] = c[i] / c[3];
}

int main(void)
{
    gn_light_desc l[6] = {
        {.type = GN_LIGHT_POINT, .position = {0, 2, -30}, .radius = 10, .cast_shadows = true},
        {.type = GN_LIGHT_SPOT,
         .position = {0, 5, -10},
         .direction = {0, -1, 0},
         .radius = 12,
         .outer_angle = 40,
         .cast_shadows = true},
        {.type = GN_LIGHT_POINT, .position = {0, 2, -5}, .radius = 8, .cast_shadows = false},
        {.type = GN_LIGHT_POINT, .position = {0, 2, -20}, .radius = 8, .cast_shadows = true},
        {.type = GN_LIGHT_SPOT,
         .position = {0, 2, 500},
         .direction = {0, -1, 0},
         .radius = 8,
         .cast_shadows = true},
        {.type = GN_LIGHT_SPOT,
         .position = {0, 3, -60},
         .direction = {1, 0, 0},
         .radius = 8,
         .cast_shadows = true},
    };
    float cam[3] = {0, 2, 0}, view[16], proj[16], vp[16];
    gn_camera_view(cam, 0, 0, view);
    gn_camera_projection(1.0f, 1.5f, 0.1f, proj);
    gn_mat4_mul(proj, view, vp);
    gn_frustum f;
    gn_frustum_from_view_proj(vp, &f);
    gn_light_shadow out[8];
    uint32_t candidates = 0;
    gn_light_shadow_candidate scratch[6];
    uint32_t n = gn_light_shadows_choose(l, 6, 1.0f, cam, &f, 8, 64, out, &candidates, scratch);
    /* light 2 does not cast, light 4 is behind the camera: 4 candidates, nearest first */
    CHECK(candidates == 4 && n == 4, "candidates %u picked %u", candidates, n);
    CHECK(out[0].light == 1 && out[1].light == 3 && out[2].light == 0 && out[3].light == 5,
          "order %u %u %u %u", out[0].light, out[1].light, out[2].light, out[3].light);
    CHECK(out[0].layer_count == 1 && out[1].layer_count == 6 && out[1].first_layer == 1 &&
              out[2].first_layer == 7,
          "layers %u/%u %u/%u", out[0].layer_count, out[1].layer_count, out[1].first_layer,
          out[2].first_layer);
    /* budgets: two lights at most; or 8 layers: the spot, one point light, and the far spot */
    n = gn_light_shadows_choose(l, 6, 1.0f, cam, &f, 2, 64, out, &candidates, scratch);
    CHECK(n == 2 && out[1].light == 3, "light budget: %u picked", n);
    n = gn_light_shadows_choose(l, 6, 1.0f, cam, &f, 8, 8, out, &candidates, scratch);
    CHECK(n == 3 && out[2].light == 5 && out[2].first_layer == 7, "layer budget: %u picked, third %u", n,
          out[2].light);
    /* night lights are no candidates by day (the night level 0), and are at any level above it */
    l[1].night = true;
    n = gn_light_shadows_choose(l, 6, 0.0f, cam, &f, 8, 64, out, &candidates, scratch);
    CHECK(candidates == 3 && n == 3 && out[0].light == 3, "by day: %u candidates, first %u", candidates,
          out[0].light);
    n = gn_light_shadows_choose(l, 6, 0.01f, cam, &f, 8, 64, out, &candidates, scratch);
    CHECK(candidates == 4 && out[0].light == 1, "at dusk: %u candidates, first %u", candidates, out[0].light);
    l[1].night = false;

    /* a spot's matrix: the axis maps to the centre, depth 0..1 from near to radius */
    float m[16], ndc[3];
    gn_light_shadow_matrix(&l[1], 0, 512, m);
    float below[3] = {0, 0, -10};
    project(m, below, ndc);
    CHECK(fabsf(ndc[0]) < 1e-4f && fabsf(ndc[1]) < 1e-4f && ndc[2] > 0 && ndc[2] < 1, "spot axis %g %g %g",
          ndc[0], ndc[1], ndc[2]);
    float edge[3] = {0 + 5 * tanf(39.0f * 0.017453293f), 0, -10};
    project(m, edge, ndc);
    CHECK(fabsf(ndc[0]) < 1.0f && fabsf(ndc[0]) > 0.9f,
          "39 degrees off the axis at x %g (inside, near the edge)", ndc[0]);
    float near_pt[3] = {0, 5 - GN_LIGHT_SHADOW_NEAR, -10}, far_pt[3] = {0, 5 - 12, -10};
    project(m, near_pt, ndc);
    CHECK(fabsf(ndc[2]) < 1e-4f, "near plane depth %g", ndc[2]);
    project(m, far_pt, ndc);
    CHECK(fabsf(ndc[2] - 1) < 1e-4f, "radius depth %g", ndc[2]);

    /* cube faces: random directions land inside the face the shader picks */
    srand(7);
    uint32_t inside = 0;
    for (int i = 0; i < 2000; i++) {
        float d[3] = {(float)rand() / RAND_MAX * 2 - 1, (float)rand() / RAND_MAX * 2 - 1,
                      (float)rand() / RAND_MAX * 2 - 1};
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (len < 1e-3f) continue;
        float p[3] = {l[0].position[0] + d[0] / len * 5, l[0].position[1] + d[1] / len * 5,
                      l[0].position[2] + d[2] / len * 5};
        gn_light_shadow_matrix(&l[0], gn_light_shadow_face(d), 512, m);
        project(m, p, ndc);
        inside += fabsf(ndc[0]) <= 1 && fabsf(ndc[1]) <= 1 && ndc[2] > 0 && ndc[2] < 1;
    }
    CHECK(inside >= 1999, "%u of ~2000 directions inside their face", inside);
    return gn_check_exit();
}

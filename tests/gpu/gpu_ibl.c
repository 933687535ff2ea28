/* Image-based light (src/passes/ibl.c, shaders/ibl_*.comp, the ambient in shaders/forward.glsl):
 *   (1) the environment's harmonics equal gn_sh9_project (src/decide/ibl.c) of its read-back
 *       level 0 within 0.2% of the largest coefficient; the irradiance of a uniform sky is
 *       exactly pi times its radiance;
 *   (2) a white furnace: a white metal sphere (base colour 1, metallic 1) under a uniform sky of
 *       L nits, the sun down, reflects at most L at any roughness, and a mirror-smooth one
 *       between 0.97 L and L;
 *   (5) a moving sun refreshes one prefiltered level a frame, and they catch up with a whole making;
 *   (3) the environment is made again only when the sky changed: not on a second frame at the
 *       same time of day, on a frame at another;
 *   (4) metals reflect the sky: a smooth metal sphere under the night sky (the sun down: the
 *       ambient alone) is brighter with the environment than under the hemisphere (the old
 *       ambient's specular) on its upper half, and the two ambients' diffuse parts agree
 *       within 25% on a rough dielectric (the hemisphere was made from the same sky). */
#include "decide/ibl.h"
#include "gpu_util.h"
#include "passes/exposure.h"
#include "passes/ibl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 128

static gn_scene *sphere_scene(float base, float metallic, float roughness)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    uint32_t mesh = gt_add_sphere(s, 128, 64), mat = 0;
    gn_material_desc md = {.base_color = {base, base, base, 1}, .metallic = metallic, .roughness = roughness};
    gn_scene_add_material(s, &md, &mat, NULL);
    gn_instance_desc inst = {.mesh = mesh, .material = mat};
    gn_scene_add_instance(s, &inst, NULL, NULL);
    return s;
}

static gn_frame_desc sphere_frame(float hours)
{
    return (gn_frame_desc){
        .camera = {.position = {0, 0, 3.2f}, .fov_y = 40, .near_plane = 0.1f},
        .time_of_day = hours,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = 10.0f},
        .bloom = {.off = true},
        .ao = {.off = true},
        .no_dither = true,
        .shadows = GN_SHADOWS_NONE,
    };
}

/* The sphere's radiance (nits, luminance) at pixel (x, y): the HDR colour over its exposure. */
static float radiance_at(const uint16_t *hdr, uint32_t x, uint32_t y, float exposure)
{
    const uint16_t *p = &hdr[((size_t)y * W + x) * 4];
    return (0.2126f * gt_half_to_float(p[0]) + 0.7152f * gt_half_to_float(p[1]) +
            0.0722f * gt_half_to_float(p[2])) /
           exposure;
}

int main(void)
{
    gn_error err = {0};
    gn_renderer *r = gt_renderer(W, H, 1);
    const float exposure = 1.0f / (1.2f * exp2f(10.0f));
    uint16_t *hdr = malloc((size_t)W * H * 8),
             *level0 = malloc((size_t)GN_GPU_IBL_SIZE * GN_GPU_IBL_SIZE * 8);
    float *rgba = malloc((size_t)GN_GPU_IBL_SIZE * GN_GPU_IBL_SIZE * 16), sh_gpu[GN_GPU_IBL_SH * 4],
          sh_cpu[GN_SH9][3];

    /* (1) the harmonics of the noon sky against the CPU's projection of the same map */
    gn_scene *rough = sphere_scene(0.8f, 0.0f, 1.0f);
    gn_frame_desc noon = sphere_frame(12.0f);
    free(gt_render(r, rough, &noon));
    CHECK(gn_ibl_read_env(r, level0, sh_gpu, &err) == GN_OK, "read: %s", err.message);
    for (size_t i = 0; i < (size_t)GN_GPU_IBL_SIZE * GN_GPU_IBL_SIZE * 4; i++)
        rgba[i] = gt_half_to_float(level0[i]);
    gn_sh9_project(rgba, GN_GPU_IBL_SIZE, sh_cpu);
    float worst = 0.0f, largest = 0.0f;
    for (int i = 0; i < GN_SH9; i++)
        for (int c = 0; c < 3; c++) {
            worst = fmaxf(worst, fabsf(sh_gpu[i * 4 + c] - sh_cpu[i][c]));
            largest = fmaxf(largest, fabsf(sh_cpu[i][c]));
        }
    fprintf(stderr, "harmonics: GPU within %.3g of the CPU's (largest coefficient %.4g)\n", worst, largest);
    CHECK(worst <= 2e-3f * largest, "harmonics off by %g of %g", worst, largest);
    float uniform[GN_SH9][3] = {{0}}, up[3] = {0, 1, 0}, e[3];
    for (int c = 0; c < 3; c++) uniform[0][c] = 100.0f * 2.0f * sqrtf(3.14159265f); /* L = 100 nits */
    gn_sh9_irradiance(uniform, up, e);
    CHECK(fabsf(e[0] - 100.0f * 3.14159265f) < 0.01f * e[0], "uniform irradiance %g, expected %g", e[0],
          100.0f * 3.14159265f);

    /* (3) made again only when the sky changed */
    gn_frame_stats st = gt_frame(r, rough, &noon);
    bool same = gt_ran(&st, "ibl env");
    gn_frame_desc later = sphere_frame(15.0f);
    st = gt_frame(r, rough, &later);
    bool moved = gt_ran(&st, "ibl env");
    CHECK(!same && moved, "the environment was made on a frame at the same time (%d), not on one later (%d)",
          same, moved);

    /* (5) a moving sun (0.01 h: 0.15 degrees, under a cut) refreshes one prefiltered level a frame,
     * in turn, until all five were made from the new level 0; the result is the environment a
     * fresh renderer makes whole at that time, bit for bit */
    {
        const size_t at = (size_t)GN_GPU_IBL_ATLAS_W * GN_GPU_IBL_ATLAS_H * 4;
        uint16_t *before = malloc(at * 2), *now = malloc(at * 2), *fresh = malloc(at * 2);
        static const int rect[6][4] = {
            {0}, {0, 0, 64, 64}, {64, 0, 32, 32}, {64, 32, 16, 16}, {80, 32, 8, 8}, {88, 32, 4, 4}};
        CHECK(gn_ibl_read_atlas(r, before, &err) == GN_OK, "atlas: %s", err.message);
        gn_frame_desc drift = sphere_frame(15.01f);
        uint32_t made = 0, runs = 0;
        for (int frame = 0; frame < 7; frame++) {
            gn_frame_stats fs = gt_frame(r, rough, &drift);
            runs += gt_ran(&fs, "ibl env");
            CHECK(gn_ibl_read_atlas(r, now, &err) == GN_OK, "atlas: %s", err.message);
            uint32_t changed = 0;
            for (int k = 1; k < 6; k++) {
                bool differs = false;
                for (int y = rect[k][1]; y < rect[k][1] + rect[k][3] && !differs; y++)
                    differs = memcmp(&before[((size_t)y * GN_GPU_IBL_ATLAS_W + rect[k][0]) * 4],
                                     &now[((size_t)y * GN_GPU_IBL_ATLAS_W + rect[k][0]) * 4],
                                     (size_t)rect[k][2] * 8) != 0;
                if (differs) changed |= 1u << k, made |= 1u << k;
            }
            CHECK(changed == 0 || (changed & (changed - 1)) == 0, "frame %d changed levels 0x%x at once",
                  frame, changed);
            memcpy(before, now, at * 2);
        }
        CHECK(made == 0x3e && runs == 5, "levels made 0x%x over %u frames of the pass, want all five in five",
              made, runs);
        gn_renderer *r2 = gt_renderer(W, H, 1);
        free(gt_render(r2, rough, &drift));
        CHECK(gn_ibl_read_atlas(r2, fresh, &err) == GN_OK, "atlas: %s", err.message);
        CHECK(memcmp(fresh, now, at * 2) == 0,
              "the refreshed levels differ from a whole making at that time");
        GT_CHECK_VALIDATION(r2, "the fresh renderer");
        gn_renderer_destroy(r2);
        free(before), free(now), free(fresh);
    }

    /* (4) a smooth metal reflects the sky; a rough white dielectric's diffuse agrees */
    gn_scene *metal = sphere_scene(0.9f, 1.0f, 0.1f);
    float lit[2], matte[2];
    for (int mode = 0; mode < 2; mode++) {
        gn_frame_desc f = sphere_frame(12.0f);
        f.no_ibl = mode == 1;
        f.time_of_day = 0.5f; /* the sun down: the ambient alone */
        free(gt_render(r, metal, &f));
        gn_exposure_read_hdr(r, hdr, NULL);
        lit[mode] = radiance_at(hdr, W / 2, H / 2 - 20, exposure);
        free(gt_render(r, rough, &f));
        gn_exposure_read_hdr(r, hdr, NULL);
        matte[mode] = radiance_at(hdr, W / 2, H / 2, exposure);
    }
    fprintf(
        stderr,
        "metal's upper half: %.4g nits with the environment, %.4g under the hemisphere; matte %.4g vs %.4g\n",
        lit[0], lit[1], matte[0], matte[1]);
    CHECK(lit[0] > lit[1], "the metal reflects %g with the environment, %g without", lit[0], lit[1]);
    CHECK(fabsf(matte[0] - matte[1]) < 0.25f * matte[1], "matte: %g vs %g", matte[0], matte[1]);

    /* (2) the white furnace */
    const float L = 1000.0f;
    gn_ibl_test_uniform_sky(r, L);
    const float roughs[4] = {0.05f, 0.3f, 0.6f, 1.0f};
    for (int k = 0; k < 4; k++) {
        gn_scene *white = sphere_scene(1.0f, 1.0f, roughs[k]);
        gn_frame_desc f = sphere_frame(0.5f);
        free(gt_render(r, white, &f));
        CHECK(gn_exposure_read_hdr(r, hdr, &err) == GN_OK, "hdr: %s", err.message);
        float most = 0.0f, centre = radiance_at(hdr, W / 2, H / 2, exposure);
        for (uint32_t y = H / 4; y < 3 * H / 4; y++)
            for (uint32_t x = W / 4; x < 3 * W / 4; x++) most = fmaxf(most, radiance_at(hdr, x, y, exposure));
        fprintf(stderr, "furnace, roughness %.2f: centre %.4f L, brightest %.4f L\n", roughs[k], centre / L,
                most / L);
        CHECK(most <= 1.005f * L, "roughness %g reflects %g of what arrives", roughs[k], most / L);
        if (k == 0) CHECK(centre >= 0.97f * L, "a mirror reflects %g of what arrives", centre / L);
        gn_scene_destroy(white);
    }
    gn_ibl_test_uniform_sky(r, 0.0f);
    GT_CHECK_VALIDATION(r, "at the end");
    free(hdr), free(level0), free(rgba);
    gn_scene_destroy(rough);
    gn_scene_destroy(metal);
    gn_renderer_destroy(r);
    return gn_check_exit();
}

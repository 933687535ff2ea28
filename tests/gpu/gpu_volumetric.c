/* Volumetric fog on the GPU (src/passes/volumetric.c, shaders/volumetric*.glsl):
 *   (1) in the open (an empty scene, nothing to shadow, no local lights) the integrated froxels
 *       equal the height fogs' closed form (src/decide/fog.c) over the volume's depth range, column
 *       by column: the transmittance and the light the key light and the sky's ambient send to the
 *       eye, after the history has settled (a still camera);
 *   (2) under a roof beside the eye the key light's shadow takes its light out of the air: the
 *       columns through the shadowed air lose most of the key light's share of their light with the
 *       virtual shadow map and with the cascades (against shadows off), the columns beside the
 *       roof nothing;
 *   (3) at night a street lamp's light in the fog: the columns towards it hold more light than
 *       without it;
 *   (4) the passes run only with a fog, and not with gn_frame_desc.no_volumetric. */
#include "decide/camera.h"
#include "decide/fog.h"
#include "decide/frame_inputs.h"
#include "gpu_util.h"
#include "passes/volumetric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 96
#define H 64

static gn_atmosphere atmo;

/* The integrated froxel of column (x, y) at slice k: rgb light, a transmittance. */
static void slice_at(const uint16_t *atlas, uint32_t x, uint32_t y, uint32_t k, float out[4])
{
    uint32_t tx = (k % GN_GPU_VOL_TILES_X) * GN_GPU_VOL_X + x,
             ty = (k / GN_GPU_VOL_TILES_X) * GN_GPU_VOL_Y + y;
    const uint16_t *t = &atlas[((size_t)ty * GN_VOL_ATLAS_W + tx) * 4];
    for (int c = 0; c < 4; c++) out[c] = gt_half_to_float(t[c]);
}

static void last_slice(const uint16_t *atlas, uint32_t x, uint32_t y, float out[4])
{
    slice_at(atlas, x, y, GN_GPU_VOL_Z - 1, out);
}

static uint16_t *settle(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, uint32_t frames)
{
    for (uint32_t i = 0; i < frames; i++) gt_frame(r, s, f);
    uint16_t *atlas = malloc((size_t)GN_VOL_ATLAS_W * GN_VOL_ATLAS_H * 8);
    gn_error err = {0};
    CHECK(atlas && gn_volumetric_read(r, atlas, &err) == GN_OK, "read: %s", err.message);
    return atlas;
}

/* A column's world ray and metres per metre of view depth, from the frame's own matrix. */
static void column_ray(const gn_frame_view *v, uint32_t x, uint32_t y, float dir[3], float *per_depth)
{
    float ndc[3] = {((float)x + 0.5f) / GN_GPU_VOL_X * 2.0f - 1.0f,
                    ((float)y + 0.5f) / GN_GPU_VOL_Y * 2.0f - 1.0f, 1e-7f};
    float p[4], len = 0.0f;
    gn_mat4_transform_point(v->inv_view_proj, ndc, p);
    for (int c = 0; c < 3; c++) dir[c] = p[c] / p[3] - v->camera_position[c], len += dir[c] * dir[c];
    for (int c = 0; c < 3; c++) dir[c] /= sqrtf(len);
    float fwd[3];
    gn_camera_forward(0.0f, 0.0f, fwd); /* the tests' camera looks along yaw 0, pitch 0 */
    *per_depth = 1.0f / (dir[0] * fwd[0] + dir[1] * fwd[1] + dir[2] * fwd[2]);
}

static void test_open(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_renderer *r = gt_renderer(W, H, 1);
    gn_frame_desc f = {
        .camera = {.position = {0, 2, 0}, .fov_y = 60},
        .time_of_day = 9.0f,
        .fog = {{.density = 0.01f, .base = 0.0f, .falloff = 20.0f}, {.density = 0.002f, .base = 30.0f}},
        .shadows = GN_SHADOWS_NONE};
    gn_frame_stats st = gt_frame(r, s, &f);
    CHECK(gt_ran(&st, "volumetric inject") && gt_ran(&st, "volumetric integrate"), "a fog runs the volume");
    uint16_t *atlas = settle(r, s, &f, 24);
    gn_frame_view v;
    CHECK(gn_get_frame_view(r, &v, &err) == GN_OK, "%s", err.message);
    gn_frame_inputs in;
    const float cam[6] = {0};
    gn_frame_inputs_resolve(&f, cam, W, H, &atmo, &in);
    gn_fog_layer layers[2];
    for (int k = 0; k < 2; k++)
        layers[k] = (gn_fog_layer){in.fog[k].density, in.fog[k].base, in.fog[k].falloff};
    float key_rgb[3], ambient[3];
    for (int c = 0; c < 3; c++) {
        key_rgb[c] = in.key.color[c] * in.key.illuminance;
        ambient[c] = 0.5f * (in.sky.ambient_sky[c] + in.sky.ambient_ground[c]);
    }
    double worst_t = 0.0, worst_l = 0.0, sum_l = 0.0;
    uint32_t n = 0;
    for (uint32_t y = 2; y < GN_GPU_VOL_Y; y += 5)
        for (uint32_t x = 3; x < GN_GPU_VOL_X; x += 9) {
            float dir[3], per_depth, got[4];
            column_ray(&v, x, y, dir, &per_depth);
            last_slice(atlas, x, y, got);
            /* the volume's range: view depth GN_VOL_NEAR .. 128 m */
            float near = GN_VOL_NEAR * per_depth, far = 128.0f * per_depth;
            float tau = gn_fog_depth(layers, v.camera_position, dir, far) -
                        gn_fog_depth(layers, v.camera_position, dir, near);
            float T = expf(-tau), light[3], t_full;
            gn_fog_inscatter(layers, v.camera_position, dir, far, in.fog_albedo, in.fog_anisotropy,
                             in.key.direction, key_rgb, ambient, light, &t_full);
            double et = fabs(got[3] - T);
            worst_t = fmax(worst_t, et);
            for (int c = 0; c < 3; c++) {
                /* the closed form from the eye, less the half metre before the volume begins */
                float want = light[c] * (1.0f - T) / fmaxf(1.0f - t_full, 1e-6f);
                double el = fabs(got[c] - want) / fmax(want, 1e-3);
                worst_l = fmax(worst_l, el);
                sum_l += el;
                n++;
            }
        }
    fprintf(stderr,
            "open air: transmittance within %.4f of the closed form, light within %.2f%% (mean %.2f%%) over "
            "%u values\n",
            worst_t, 100 * worst_l, 100 * sum_l / n, n);
    CHECK(worst_t < 0.01 && worst_l < 0.05 && sum_l / n < 0.02,
          "open air: transmittance %g, light %g (mean %g)", worst_t, worst_l, sum_l / n);
    free(atlas);
    /* (4) no fog, or volumetric off: no volume */
    gn_frame_desc none = f;
    memset(none.fog, 0, sizeof none.fog);
    st = gt_frame(r, s, &none);
    CHECK(!gt_ran(&st, "volumetric inject") && !gt_ran(&st, "volumetric integrate"), "no fog, no volume");
    gn_frame_desc off = f;
    off.no_volumetric = true;
    st = gt_frame(r, s, &off);
    CHECK(!gt_ran(&st, "volumetric inject"), "no_volumetric: no volume");
    GT_CHECK_VALIDATION(r, "the open air");
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
}

/* The light of the columns that run under the roof (to the right of the eye: the roof covers
 * x > 0) and of those that never do (to the left), each from the eye to slice 50 (41.7 m of
 * view depth); and the key light's share of the in-scattering along the right-hand ones (the rest
 * is the sky's ambient, which the roof does not shadow: the air has no ambient occlusion). */
static void split(const uint16_t *atlas, const gn_frame_view *v, const gn_frame_inputs *in, double *under,
                  double *open, double *key_share)
{
    *under = *open = *key_share = 0.0;
    uint32_t n = 0;
    float amb = 0.0f;
    const float w[3] = {0.2126f, 0.7152f, 0.0722f};
    for (int c = 0; c < 3; c++) amb += w[c] * 0.5f * (in->sky.ambient_sky[c] + in->sky.ambient_ground[c]);
    for (uint32_t y = 0; y < GN_GPU_VOL_Y; y++)
        for (uint32_t x = 0; x < GN_GPU_VOL_X; x++) {
            float dir[3], per_depth, got[4];
            column_ray(v, x, y, dir, &per_depth);
            slice_at(atlas, x, y, 50, got);
            float top = v->camera_position[1] + dir[1] * 41.7f * per_depth;
            float l = w[0] * got[0] + w[1] * got[1] + w[2] * got[2];
            if (top > 7.5f) continue; /* rises to the roof */
            if (dir[0] > 0.25f) {
                *under += l;
                float c = dir[0] * in->key.direction[0] + dir[1] * in->key.direction[1] +
                          dir[2] * in->key.direction[2];
                float key = in->key.illuminance * gn_fog_phase(in->fog_anisotropy, c);
                *key_share += key / (key + amb);
                n++;
            } else if (dir[0] < -0.05f) {
                *open += l;
            }
        }
    if (n) *key_share /= n;
}

static void test_shadow(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    uint32_t roof = gt_add_box(s, 40.0f, 0.5f, 65.0f);
    gn_material_desc grey = {.base_color = {0.5f, 0.5f, 0.5f, 1}, .roughness = 0.9f};
    uint32_t mat = 0;
    gn_scene_add_material(s, &grey, &mat, NULL);
    gn_instance_desc inst = {.mesh = roof, .material = mat};
    /* a roof 8 m up over x 0 .. 80, z -130 .. 0, beside the eye: the noon sun (3 degrees from the
     * zenith) shadows the air below it */
    float t[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 40.0f, 8.5f, -65.0f, 1};
    memcpy(inst.transform, t, sizeof t);
    gn_scene_add_instance(s, &inst, NULL, NULL);
    gn_renderer *r = gt_renderer(W, H, 1);
    gn_frame_desc f = {.camera = {.position = {-2, 2, 0}, .pitch = 0, .fov_y = 70},
                       .time_of_day = 12.0f,
                       .latitude = 20.0f,
                       .day_of_year = 172,
                       .fog = {{.density = 0.01f, .base = 0.0f, .falloff = 5.0f}}};
    double under[3], open[3], share = 0.0;
    const gn_shadows tech[3] = {GN_SHADOWS_NONE, GN_SHADOWS_VSM, GN_SHADOWS_CSM};
    gn_frame_view v;
    gn_frame_inputs in;
    const float cam[6] = {0};
    for (int i = 0; i < 3; i++) {
        f.shadows = tech[i];
        uint16_t *atlas = settle(r, s, &f, 16);
        CHECK(gn_get_frame_view(r, &v, &err) == GN_OK, "%s", err.message);
        gn_frame_inputs_resolve(&f, cam, W, H, &atmo, &in);
        split(atlas, &v, &in, &under[i], &open[i], &share);
        free(atlas);
    }
    double drop_vsm = 1.0 - under[1] / under[0], drop_csm = 1.0 - under[2] / under[0];
    fprintf(stderr,
            "under the roof: the light drops by %.1f%% with the VSM and %.1f%% with the cascades (the key "
            "light's "
            "share there %.1f%%); beside it %.2f%% and %.2f%%\n",
            100 * drop_vsm, 100 * drop_csm, 100 * share, 100 * (1.0 - open[1] / open[0]),
            100 * (1.0 - open[2] / open[0]));
    /* most of the key light's share goes (the first metres to the roof's edge stay lit) */
    CHECK(drop_vsm > 0.6 * share && drop_csm > 0.6 * share && drop_vsm <= share + 0.02 &&
              drop_csm <= share + 0.02,
          "the roof's shadow: drops %g, %g; the key light's share %g", drop_vsm, drop_csm, share);
    CHECK(fabs(open[1] - open[0]) < 0.02 * open[0] && fabs(open[2] - open[0]) < 0.02 * open[0],
          "beside the roof: %g, %g vs %g", open[1], open[2], open[0]);
    GT_CHECK_VALIDATION(r, "the roof");
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
}

static void test_lamp(void)
{
    gn_error err = {0};
    gn_scene *s = NULL, *lit = NULL;
    CHECK(gn_scene_create(&s, &err) == GN_OK && gn_scene_create(&lit, &err) == GN_OK, "%s", err.message);
    gn_light_desc lamp = {.type = GN_LIGHT_POINT,
                          .position = {0, 3, -15},
                          .radius = 15,
                          .intensity = 250,
                          .color = {1, 0.8f, 0.6f}};
    CHECK(gn_scene_add_light(lit, &lamp, NULL, &err) == GN_OK, "%s", err.message);
    gn_renderer *r = gt_renderer(W, H, 1);
    gn_frame_desc f = {.camera = {.position = {0, 2, 0}, .fov_y = 60},
                       .time_of_day = 1.0f,
                       .day_of_year = 225, /* a new moon: no moonlight */
                       .fog = {{.density = 0.02f, .base = 0.0f, .falloff = 10.0f}}};
    float dark[4], bright[4];
    uint16_t *a = settle(r, s, &f, 12);
    last_slice(a, GN_GPU_VOL_X / 2, GN_GPU_VOL_Y / 2, dark);
    free(a);
    a = settle(r, lit, &f, 12);
    last_slice(a, GN_GPU_VOL_X / 2, GN_GPU_VOL_Y / 2, bright);
    free(a);
    fprintf(stderr, "towards the lamp: %.4g nits of fog light with it, %.4g without\n", bright[1], dark[1]);
    CHECK(bright[1] > 3.0f * dark[1] && bright[1] > 0.0f, "the lamp's light in the fog: %g vs %g", bright[1],
          dark[1]);
    GT_CHECK_VALIDATION(r, "the lamp");
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    gn_scene_destroy(lit);
}

int main(void)
{
    gn_atmo_params earth;
    gn_atmo_earth(&earth);
    gn_atmo_build(&earth, &atmo);
    test_open();
    test_shadow();
    test_lamp();
    return gn_check_exit();
}

/* The shader BRDF against its CPU mirror: a sphere lit by a fixed sun, rendered without MSAA
 * and tone-mapped with the clip curve, compared pixel by pixel with src/decide/brdf.c
 * evaluated at the same points.
 * Tolerance: 3/255 per channel on 99% of the sphere's interior pixels and a mean error under
 * 1/255 — the rgba16f target (relative error 5e-4), the mesh's interpolated normals (a
 * 256x128 sphere, < 0.5 degree off) and 8-bit rounding stay well inside it. The third case
 * has KHR_materials_specular and _ior's F0 and F90 (gn_brdf_dielectric). */
#include "decide/brdf.h"
#include "decide/camera.h"
#include "decide/exposure.h"
#include "decide/sun.h"
#include "gpu_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256
#define SEG_U 256
#define SEG_V 128

static float srgb(float c)
{
    c = c < 0 ? 0 : c > 1 ? 1 : c;
    return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

/* KHR_materials_specular's and _ior's values of the third case: the material gets them, the CPU
 * side the F0 and F90 gn_brdf_dielectric makes of them. */
static const float spec_color[3] = {1.0f, 0.5f, 0.25f};
#define SPEC_IOR 2.0f
#define SPEC_FACTOR 0.7f

static void run_case(const gn_brdf_material *bm, const char *name)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    uint32_t mesh = gt_add_sphere(s, SEG_U, SEG_V), mat = 0;
    gn_material_desc mdesc = {
        .base_color = {bm->base_color[0], bm->base_color[1], bm->base_color[2], 1},
        .metallic = bm->metallic,
        .roughness = bm->roughness, /* 0.4 and 0.3: never 0, which would read as 0.5 */
    };
    if (bm->specular_set) {
        mdesc.specular_set = true, mdesc.specular = SPEC_FACTOR, mdesc.ior = SPEC_IOR;
        memcpy(mdesc.specular_color, spec_color, sizeof spec_color);
    }
    gn_scene_add_material(s, &mdesc, &mat, NULL);
    gn_instance_desc inst = {.mesh = mesh, .material = mat};
    gn_scene_add_instance(s, &inst, NULL, NULL);

    gn_renderer *r = gt_renderer(W, H, 1);
    gn_frame_desc f = {
        .camera = {.position = {0, 0, 3.2f}, .yaw = 0, .pitch = 0, .fov_y = 40, .near_plane = 0.1f},
        .time_of_day = 10.0f,
        .latitude = 45,
        .day_of_year = 172,
        .tonemap = GN_TONEMAP_CLIP,
        /* a fixed exposure: the CPU side multiplies the luminance by the same number */
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true}, /* the shading alone, */
        .no_dither = true,      /* to the level, */
        .no_ibl = true,         /* under the hemisphere ambient gn_shade_ambient mirrors, */
        .no_aerial = true,      /* with no air in front */
    };
    uint8_t *px = gt_render(r, s, &f);
    GT_CHECK_VALIDATION(r, "rendering the BRDF sphere");

    /* the same frame on the CPU */
    gn_sun sun, moon;
    gn_sky sky;
    gn_sun_compute(10.0f, 45, 172, &sun);
    gn_moon_compute(10.0f, 45, 172, GN_MOON_YEAR, &moon);
    static gn_atmosphere atmo;
    gn_atmo_params earth;
    gn_atmo_earth(&earth);
    gn_atmo_build(&earth, &atmo);
    /* the eye at y = 0 is 1 m above the ground (GN_ATMO_MIN_ALTITUDE_KM), as the renderer has it */
    gn_sky_compute(&atmo, earth.bottom_km + GN_ATMO_MIN_ALTITUDE_KM, &sun, &moon, &sky);
    float proj[16], view[16], vp[16], inv[16];
    gn_camera_projection(40 * 0.017453293f, (float)W / H, 0.1f, proj);
    gn_camera_view(f.camera.position, 0, 0, view);
    gn_mat4_mul(proj, view, vp);
    gn_mat4_inverse(vp, inv);
    const float exposure = gn_exposure_from_ev100(GN_EV100_SUNNY);
    uint32_t compared = 0, over = 0, worst = 0;
    double sum = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            float ndc[3] = {(x + 0.5f) / W * 2 - 1, (y + 0.5f) / H * 2 - 1, 0.5f}, far4[4];
            gn_mat4_transform_point(inv, ndc, far4);
            float d[3], len = 0;
            for (int c = 0; c < 3; c++) {
                d[c] = far4[c] / far4[3] - f.camera.position[c];
                len += d[c] * d[c];
            }
            len = sqrtf(len);
            for (int c = 0; c < 3; c++) d[c] /= len;
            /* ray-sphere (unit, at the origin) */
            const float *o = f.camera.position;
            float b = o[0] * d[0] + o[1] * d[1] + o[2] * d[2];
            float cc = o[0] * o[0] + o[1] * o[1] + o[2] * o[2] - 1;
            float disc = b * b - cc;
            if (disc <= 0) continue;
            float t = -b - sqrtf(disc);
            float n[3] = {o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]};
            float v[3] = {-d[0], -d[1], -d[2]};
            if (n[0] * v[0] + n[1] * v[1] + n[2] * v[2] < 0.3f) continue; /* stay off the silhouette */
            float lit[3], amb[3];
            gn_brdf_eval(bm, n, v, sun.direction, lit);
            gn_shade_ambient(bm, n, v, sky.ambient_sky, sky.ambient_ground, amb);
            bool bad = false;
            for (int c = 0; c < 3; c++) {
                float radiance = (lit[c] * sun.color[c] * sun.illuminance + amb[c]) * exposure;
                int want = (int)(srgb(radiance) * 255.0f + 0.5f), got = px[(y * W + x) * 4 + c];
                uint32_t diff = (uint32_t)abs(want - got);
                if (diff > worst) worst = diff;
                if (diff > 3) bad = true;
                sum += diff;
            }
            over += bad;
            compared++;
        }
    double share = compared ? (double)over / compared : 1.0, mean = compared ? sum / (compared * 3.0) : 99;
    fprintf(stderr, "%s: %u pixels compared, worst %u/255, %.3f%% over 3/255, mean %.3f/255\n", name,
            compared, worst, share * 100, mean);
    CHECK(compared > W * H / 5, "%s: only %u sphere pixels", name, compared);
    CHECK(share <= 0.01, "%s: %.3f%% of pixels differ by more than 3/255", name, share * 100);
    CHECK(mean < 1.0, "%s: mean difference %.3f/255", name, mean);
    if (share > 0.01) gt_write_png("gpu_brdf.actual.png", px, W, H);
    free(px);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
}

int main(void)
{
    gn_brdf_material dielectric = {{0.7f, 0.3f, 0.2f}, 0.0f, 0.4f};
    gn_brdf_material metal = {{0.9f, 0.7f, 0.3f}, 1.0f, 0.3f};
    run_case(&dielectric, "dielectric r=0.4");
    run_case(&metal, "metal r=0.3");
    gn_brdf_material tinted = {{0.2f, 0.3f, 0.8f}, 0.0f, 0.35f, true, {0}};
    gn_brdf_dielectric(SPEC_IOR, spec_color, SPEC_FACTOR, tinted.specular);
    run_case(&tinted, "dielectric r=0.35, specular 0.7 colour (1, .5, .25) ior 2");
    return gn_check_exit();
}

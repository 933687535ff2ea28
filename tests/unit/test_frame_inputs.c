/* The door: every default of the frame, renderer, cascade, virtual-shadow and light descs,
 * resolved once (decide/frame_inputs.c, csm.c, vsm.c, lights.c), and the zero-means-default
 * conventions that replaced the *_set flags (an all-zero camera, midnight as 24, the equator
 * and uniform splits as tiny values). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "decide/csm.h"
#include "decide/frame_inputs.h"
#include "decide/lights.h"
#include "decide/vsm.h"

static const float SCENE_CAMERA[6] = {10.0f, 2.0f, -3.0f, 45.0f, -5.0f, 0.0f};
static gn_atmosphere atmo; /* the tables the sky's summary is read from (built in main) */

static void frame_defaults(void)
{
    gn_frame_desc f = {0};
    gn_frame_inputs in;
    gn_frame_inputs_resolve(&f, SCENE_CAMERA, 1280, 720, &atmo, &in);
    CHECK(in.position[0] == 10.0f && in.position[1] == 2.0f && in.position[2] == -3.0f,
          "all-zero camera: the scene's");
    CHECK(in.yaw == 45.0f && in.pitch == -5.0f, "yaw %g pitch %g", in.yaw, in.pitch);
    CHECK(fabsf(in.fov_y - 60.0f * 0.017453293f) < 1e-6f, "fov %g rad", in.fov_y);
    CHECK(in.near_plane == GN_DEFAULT_NEAR && fabsf(in.aspect - 1280.0f / 720.0f) < 1e-6f,
          "near %g aspect %g", in.near_plane, in.aspect);
    CHECK(in.hours == 18.5f && in.latitude == 45.0f && in.day_of_year == 230, "%g h, %g deg, day %u",
          in.hours, in.latitude, in.day_of_year);
    CHECK(in.exposure.automatic && in.exposure.compensation == 0.0f && in.tonemap == GN_TONEMAP_ACES &&
              in.shadows == GN_SHADOWS_VSM,
          "exposure auto %d %g, tonemap %d, shadows %d", in.exposure.automatic, in.exposure.compensation,
          in.tonemap, in.shadows);
    /* the default at sunset: the night lights a little on (the sun ~4 degrees up) */
    CHECK(in.night_level > 0.0f && in.night_level < 0.5f, "night level %g at 18.5 h", in.night_level);
    CHECK(in.debug_view == GN_VIEW_FINAL && !in.naive_lights && !in.no_pvs, "settings");
    CHECK(in.transparency == GN_TRANSPARENCY_SORTED && !in.alpha_to_coverage, "transparency %d, a2c %d",
          in.transparency, in.alpha_to_coverage);
    /* the air: aerial perspective and stars on, no fog, the moon's year; the eye 2 m up */
    CHECK(in.aerial && in.stars && in.fog[0].density == 0.0f && in.fog[1].density == 0.0f && in.year == 2026,
          "air: aerial %d stars %d fog %g %g year %d", in.aerial, in.stars, in.fog[0].density,
          in.fog[1].density, in.year);
    CHECK(fabsf(in.camera_r_km - (atmo.p.bottom_km + 0.002f)) < 1e-3f, "eye radius %g km", in.camera_r_km);
    CHECK(in.fog_albedo == 0.9f && in.fog_anisotropy == 0.6f, "fog albedo %g g %g", in.fog_albedo,
          in.fog_anisotropy);
    /* by day the key light is the sun */
    CHECK(in.key.illuminance == in.sun.illuminance && in.key.direction[1] == in.sun.direction[1],
          "key light");
    /* a scene camera with its own field of view (a glTF file's) keeps it */
    const float gltf_camera[6] = {0, 1, 0, 0, 0, 45.0f};
    gn_frame_inputs gin;
    gn_frame_inputs_resolve(&f, gltf_camera, 1280, 720, &atmo, &gin);
    CHECK(fabsf(gin.fov_y - 45.0f * 0.017453293f) < 1e-6f, "a scene camera's fov: %g rad", gin.fov_y);
    /* the matrices agree: view_proj = proj * view, and its inverse undoes it */
    float p[4] = {0.3f, -0.2f, 0.5f, 1.0f}, q[4] = {0};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++) q[i] += in.inv_view_proj[k * 4 + i] * p[k];
    float back[4] = {0};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++) back[i] += in.view_proj[k * 4 + i] * q[k];
    for (int i = 0; i < 4; i++)
        CHECK(fabsf(back[i] - p[i]) < 1e-4f, "inverse: component %d %g vs %g", i, back[i], p[i]);
    /* the view axis is the camera's forward (yaw 45 turns left, towards -X) */
    CHECK(in.forward[0] < 0.0f && in.forward[2] < 0.0f && in.forward[1] < 0.0f, "forward (%g %g %g)",
          in.forward[0], in.forward[1], in.forward[2]);
}

static void frame_given(void)
{
    /* a camera at the origin is asked for with a field of view: it is not the default */
    gn_frame_desc f = {.camera = {.fov_y = 90.0f},
                       .time_of_day = 12.0f,
                       .latitude = 1e-4f,
                       .day_of_year = 80,
                       .exposure = -2.0f,
                       .tonemap = GN_TONEMAP_CLIP,
                       .shadows = GN_SHADOWS_CSM,
                       .view = GN_VIEW_DISTANCE};
    gn_frame_inputs in;
    gn_frame_inputs_resolve(&f, SCENE_CAMERA, 640, 640, &atmo, &in);
    CHECK(in.position[0] == 0.0f && in.position[1] == 0.0f && in.yaw == 0.0f, "the origin, looking north");
    CHECK(fabsf(in.fov_y - 90.0f * 0.017453293f) < 1e-6f && in.aspect == 1.0f, "fov %g aspect %g", in.fov_y,
          in.aspect);
    CHECK(in.exposure.compensation == -2.0f && in.tonemap == GN_TONEMAP_CLIP && in.shadows == GN_SHADOWS_CSM,
          "settings");
    CHECK(in.night_level == 0.0f, "noon: night level %g", in.night_level);
    CHECK(in.debug_view == GN_VIEW_DISTANCE, "view %d", in.debug_view);
    /* noon at the equator near the equinox: the sun close to the zenith */
    CHECK(in.sun.elevation_deg > 85.0f, "equinox noon at the equator: elevation %g", in.sun.elevation_deg);
    /* midnight is 24, and it is the same sun as hour 0 would be: below the horizon */
    f = (gn_frame_desc){.time_of_day = 24.0f};
    gn_frame_inputs_resolve(&f, SCENE_CAMERA, 640, 640, &atmo, &in);
    gn_sun zero;
    gn_sun_compute(0.0f, 45.0f, 230, &zero);
    CHECK(in.hours == 24.0f && in.sun.elevation_deg < -20.0f, "midnight: elevation %g", in.sun.elevation_deg);
    CHECK(fabsf(in.sun.elevation_deg - zero.elevation_deg) < 1e-3f, "24 h %g vs 0 h %g", in.sun.elevation_deg,
          zero.elevation_deg);
    /* a fog as given, a bad one off; the falloff's default */
    f = (gn_frame_desc){.fog = {{.density = 0.01f, .base = 5.0f}, {.density = NAN, .base = 1.0f}},
                        .fog_anisotropy = 2.0f,
                        .no_aerial = true};
    gn_frame_inputs_resolve(&f, SCENE_CAMERA, 640, 640, &atmo, &in);
    CHECK(in.fog[0].density == 0.01f && in.fog[0].base == 5.0f && in.fog[0].falloff == 100.0f &&
              in.fog[1].density == 0.0f && in.fog_anisotropy == 0.6f && !in.aerial,
          "fog %g %g %g, second %g, g %g", in.fog[0].density, in.fog[0].base, in.fog[0].falloff,
          in.fog[1].density, in.fog_anisotropy);
    /* an out-of-range view reads as the final image (gn_render refuses it before this) */
    f = (gn_frame_desc){.view = GN_VIEW_COUNT};
    gn_frame_inputs_resolve(&f, SCENE_CAMERA, 640, 640, &atmo, &in);
    CHECK(in.debug_view == GN_VIEW_FINAL, "view %d", in.debug_view);
}

static void renderer_defaults(void)
{
    gn_renderer_desc d = gn_renderer_desc_resolve(NULL, NULL);
    CHECK(d.width == 1280 && d.height == 720 && d.msaa == 4, "%ux%u msaa %u", d.width, d.height, d.msaa);
    CHECK(d.validation == GN_VALIDATION_OFF && d.log_level == GN_LOG_WARN, "validation %d log %d",
          d.validation, d.log_level);
    CHECK(d.gpu_timeout_ms == 0, "gpu_timeout_ms %u: 0, the device's default", d.gpu_timeout_ms);
    d = gn_renderer_desc_resolve(&(gn_renderer_desc){.width = 64, .msaa = 1, .gpu_timeout_ms = 250}, "1");
    CHECK(d.width == 64 && d.height == 720 && d.msaa == 1 && d.validation == GN_VALIDATION_ON &&
              d.gpu_timeout_ms == 250,
          "given values kept");
    d = gn_renderer_desc_resolve(&(gn_renderer_desc){.validation = GN_VALIDATION_OFF}, "1");
    CHECK(d.validation == GN_VALIDATION_OFF, "an explicit OFF beats the environment");
}

static void sub_descs(void)
{
    gn_csm_settings s;
    float offset, bias_c, bias_s;
    gn_csm_resolve(&(gn_csm_desc){0}, &s, &offset, &bias_c, &bias_s);
    CHECK(s.cascades == 4 && s.resolution == 2048 && s.shadow_distance == 600.0f && s.split_lambda == 0.6f,
          "csm defaults: %u x %u, %g m, lambda %g", s.cascades, s.resolution, s.shadow_distance,
          s.split_lambda);
    CHECK(s.update_period[0] == 1 && s.update_period[2] == 2 && s.update_period[3] == 4,
          "the staggered schedule");
    CHECK(offset == 1.5f && bias_c == 1.0f && bias_s == 1.5f, "offset %g, bias %g %g", offset, bias_c,
          bias_s);
    gn_csm_resolve(&(gn_csm_desc){.split_lambda = 1e-9f, .splits = {10, 50}, .cascades = 2}, &s, &offset,
                   &bias_c, &bias_s);
    CHECK(s.split_lambda < 1e-6f && s.explicit_splits && s.shadow_distance == 50.0f,
          "uniform, explicit splits");

    gn_vsm_settings v = gn_vsm_resolve(&(gn_vsm_desc){0});
    CHECK(v.levels == 8 && v.virtual_res == 4096 && v.page_texels == 128 && v.pool_pages == 2048 &&
              v.page_budget == 64 && v.dynamic_pages == 64,
          "vsm defaults: %u levels, %u texels, pool %u, budget %u, dynamic %u", v.levels, v.virtual_res,
          v.pool_pages, v.page_budget, v.dynamic_pages);
    v = gn_vsm_resolve(&(gn_vsm_desc){.page_budget = 512, .dynamic_pages = 100});
    CHECK(v.dynamic_pages == 100, "dynamic pages %u", v.dynamic_pages);

    gn_lights_settings l = gn_lights_resolve(&(gn_lights_desc){0});
    CHECK(l.x == 16 && l.y == 9 && l.z == 24 && l.max_lights == 64 && l.far_depth == 1000.0f, "grid");
    CHECK(l.max_shadowed == 16 && l.shadow_resolution == 512 && l.max_layers == 96, "shadow budget");
}

int main(void)
{
    gn_atmo_params earth;
    gn_atmo_earth(&earth);
    gn_atmo_build(&earth, &atmo);
    frame_defaults();
    frame_given();
    renderer_defaults();
    sub_descs();
    return gn_check_exit();
}

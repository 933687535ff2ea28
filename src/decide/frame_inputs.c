/* Every default of the frame and renderer descs, resolved here and nowhere else. */
#include "decide/frame_inputs.h"

#include "decide/camera.h"

#include <math.h>
#include <string.h>

void gn_frame_inputs_resolve(const gn_frame_desc *f, const float scene_camera[6], uint32_t width,
                             uint32_t height, const gn_atmosphere *atmosphere, gn_frame_inputs *out)
{
    memset(out, 0, sizeof *out);
    gn_camera cam = f->camera;
    static const gn_camera unset;
    if (memcmp(&cam, &unset, sizeof cam) == 0) {
        memcpy(cam.position, scene_camera, sizeof cam.position);
        cam.yaw = scene_camera[3];
        cam.pitch = scene_camera[4];
        cam.fov_y = scene_camera[5]; /* a glTF file's camera brings its own */
    }
    float fov = cam.fov_y > 0 ? cam.fov_y : GN_DEFAULT_FOV_Y;
    memcpy(out->position, cam.position, sizeof out->position);
    out->yaw = cam.yaw;
    out->pitch = cam.pitch;
    out->fov_y = fov * 0.017453293f; /* degrees to radians */
    out->aspect = (float)width / (float)height;
    out->near_plane = cam.near_plane > 0 ? cam.near_plane : GN_DEFAULT_NEAR;
    gn_camera_projection(out->fov_y, out->aspect, out->near_plane, out->proj);
    gn_camera_view(cam.position, cam.yaw, cam.pitch, out->view);
    gn_camera_forward(cam.yaw, cam.pitch, out->forward);
    gn_mat4_mul(out->proj, out->view, out->view_proj);
    if (!gn_mat4_inverse(out->view_proj, out->inv_view_proj))
        memset(out->inv_view_proj, 0, sizeof out->inv_view_proj);

    /* gnomon.h: 0 reads as the default; 24 is midnight, a tiny latitude the equator */
    out->hours = f->time_of_day != 0.0f ? f->time_of_day : GN_DEFAULT_HOURS;
    out->latitude = f->latitude != 0.0f ? f->latitude : GN_DEFAULT_LATITUDE;
    out->day_of_year = f->day_of_year ? f->day_of_year : GN_DEFAULT_DAY;
    out->year = f->year ? f->year : GN_MOON_YEAR;
    gn_sun_compute(out->hours, out->latitude, out->day_of_year, &out->sun);
    gn_moon_compute(out->hours, out->latitude, out->day_of_year, out->year, &out->moon);
    out->key = *gn_key_light(&out->sun, &out->moon);
    gn_sky_lights(&out->sun, &out->moon, out->lights);
    /* the world's y = 0 is the ground: the eye's height in km above the planet's surface */
    out->camera_r_km = atmosphere->p.bottom_km + fmaxf(out->position[1] * 1e-3f, GN_ATMO_MIN_ALTITUDE_KM);
    if (!isfinite(out->camera_r_km)) out->camera_r_km = atmosphere->p.bottom_km + GN_ATMO_MIN_ALTITUDE_KM;
    out->camera_r_km = fminf(out->camera_r_km, atmosphere->p.top_km - GN_ATMO_MIN_ALTITUDE_KM);
    gn_sky_compute(atmosphere, out->camera_r_km, &out->sun, &out->moon, &out->sky);
    out->night_level = gn_night_level(out->sun.elevation_deg);
    for (int k = 0; k < 2; k++) {
        const gn_fog_desc *fd = &f->fog[k];
        bool on = fd->density > 0.0f && isfinite(fd->density) && isfinite(fd->base);
        out->fog[k].density = on ? fminf(fd->density, 10.0f) : 0.0f;
        out->fog[k].base = on ? fd->base : 0.0f;
        out->fog[k].falloff = fd->falloff > 0.0f && isfinite(fd->falloff) ? fd->falloff : 100.0f;
    }
    out->fog_albedo = f->fog_albedo > 0.0f && f->fog_albedo <= 1.0f ? f->fog_albedo : 0.9f;
    out->fog_anisotropy = f->fog_anisotropy > 0.0f && f->fog_anisotropy < 0.95f ? f->fog_anisotropy : 0.6f;
    out->aerial = !f->no_aerial;
    out->volumetric.on = !f->no_volumetric;
    out->volumetric.far =
        f->volumetric_far > 1.0f && f->volumetric_far <= 10000.0f ? f->volumetric_far : 128.0f;
    out->stars = !f->no_stars;

    gn_exposure_resolve(&f->camera_exposure, f->exposure, &out->exposure);
    const gn_bloom_desc *b = &f->bloom;
    /* Jimenez's (Call of Duty) blend is ~0.04; scatter 0.7 gives a glow ~1/8 of the frame wide */
    out->bloom.intensity = b->off ? 0.0f : b->intensity > 0.0f && b->intensity <= 1.0f ? b->intensity : 0.04f;
    out->bloom.threshold = b->threshold > 0.0f && isfinite(b->threshold) ? b->threshold : 0.0f;
    out->bloom.knee = b->knee > 0.0f && isfinite(b->knee) ? b->knee : 0.5f * out->bloom.threshold;
    out->bloom.scatter = b->scatter > 0.0f && b->scatter <= 1.0f ? b->scatter : 0.7f;
    out->debug_view = f->view < GN_VIEW_COUNT ? f->view : GN_VIEW_FINAL;
    const gn_ao_desc *ao = &f->ao;
    out->ao.radius = ao->radius > 0.0f && isfinite(ao->radius) ? ao->radius : GN_AO_DEFAULT_RADIUS;
    out->ao.bias = ao->bias > 0.0f && isfinite(ao->bias) ? ao->bias : GN_AO_DEFAULT_BIAS;
    /* the AO view shows it even when the frame has it off */
    bool ao_on = !ao->off || out->debug_view == GN_VIEW_AO;
    out->ao.intensity = !ao_on                                            ? 0.0f
                        : ao->intensity > 0.0f && isfinite(ao->intensity) ? ao->intensity
                                                                          : GN_AO_DEFAULT_INTENSITY;
    const gn_dof_desc *dof = &f->dof;
    bool dof_on =
        dof->strength > 0.0f && isfinite(dof->strength) && dof->focus >= 0.0f && isfinite(dof->focus);
    out->dof.strength = dof_on ? fminf(dof->strength, 1.0f) : 0.0f;
    out->dof.focus = dof_on ? dof->focus : 0.0f;
    out->dof.range = dof->range > 0.0f && isfinite(dof->range) ? dof->range : fmaxf(out->dof.focus, 1.0f);
    out->dof.radius = dof->radius > 0.0f && dof->radius <= 32.0f ? dof->radius : 4.0f;
    out->dof.mode = dof->mode <= GN_DOF_BOTH ? dof->mode : GN_DOF_BACK;
    out->dof.blur_sky = dof->blur_sky;
    out->tonemap = f->tonemap ? f->tonemap : GN_TONEMAP_ACES;
    out->dither = !f->no_dither;
    out->ibl = !f->no_ibl;
    out->probes = !f->no_probes;
    /* virtual shadow maps met the targets against cascades (bench/RESULTS.md) */
    out->shadows = f->shadows == GN_SHADOWS_DEFAULT ? GN_SHADOWS_VSM : f->shadows;
    out->transparency = f->transparency == GN_TRANSPARENCY_OIT ? GN_TRANSPARENCY_OIT : GN_TRANSPARENCY_SORTED;
    out->alpha_to_coverage = f->alpha_to_coverage;
    out->naive_lights = f->naive_lights;
    out->no_pvs = f->no_pvs;
    out->cpu_culling = f->cpu_culling;
    out->occlusion = !f->cpu_culling && !f->no_occlusion;
    out->clusters = !f->cpu_culling && f->clusters;
    /* the casters' LODs: built with the GPU path's order, for the cascades and the VSM's pages */
    out->caster_lod = !f->cpu_culling && !f->no_caster_lod && out->shadows != GN_SHADOWS_NONE;
    out->vsm_occlusion = f->vsm_occlusion && out->shadows == GN_SHADOWS_VSM;
    out->seconds = f->seconds;
    out->overlay = f->overlay;
}

gn_renderer_desc gn_renderer_desc_resolve(const gn_renderer_desc *in, const char *validation_env)
{
    gn_renderer_desc d = in ? *in : (gn_renderer_desc){0};
    if (!d.width) d.width = 1280;
    if (!d.height) d.height = 720;
    if (!d.msaa) d.msaa = 4;
    if (d.validation == GN_VALIDATION_DEFAULT)
        d.validation =
            validation_env && strcmp(validation_env, "1") == 0 ? GN_VALIDATION_ON : GN_VALIDATION_OFF;
    if (!d.log_level) d.log_level = GN_LOG_WARN;
    /* gpu_timeout_ms 0 stays 0: the device's default, chosen with the device (src/vk/device.c) */
    return d;
}

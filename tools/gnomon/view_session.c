/* The viewer's renderer and scene; see view_session.h. */
#include "view_session.h"
#include "canvas.h"
#include "cli.h"
#include "cli_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A renderer's counts join the session's before it goes. */
static void gn_view_session_drop(gn_view_session *s)
{
    if (!s->r) return;
    s->validation_before += gn_renderer_validation_messages(s->r);
    gn_present_stats p;
    gn_renderer_present_stats(s->r, &p);
    s->present_before.presented += p.presented;
    s->present_before.skipped += p.skipped;
    s->present_before.recreated += p.recreated;
    gn_renderer_destroy(s->r);
    s->r = NULL;
}

gn_result gn_view_session_renderer(gn_view_session *s, const gn_view_opts *o, uint32_t width, uint32_t height,
                                   gn_error *err)
{
    gn_renderer_desc rd = {.width = width,
                           .height = height,
                           .msaa = o->frame.msaa,
                           .device = gn_cli_device_env(),
                           .presentable = true,
                           .instance_extensions = s->instance_extensions,
                           .instance_extension_count = s->instance_extension_count};
    gn_light_opts_apply(&o->light, &rd.lights);
    gn_post_opts_probes(&o->post, &rd.probes);
    gn_shadows mode;
    char msg[256];
    if (!gn_shadow_opts_apply(&o->shadow, "view", &rd.csm, &rd.vsm, &mode, msg, sizeof msg))
        return gn_cli_error(err, GN_ERROR_INVALID_ARGUMENT, "%s", msg);
    gn_view_session_drop(s); /* one device at a time: the old renderer (and its surface) goes first */
    gn_result res = gn_renderer_create(&rd, &s->r, err);
    uint64_t surface = 0;
    if (!res) res = s->make_surface(gn_renderer_vk_instance(s->r), s->surface_user, &surface, err);
    gn_surface_desc sd = {.surface = surface, .vsync = o->vsync == 1};
    if (!res) res = gn_renderer_attach_surface(s->r, &sd, err);
    if (!res && o->post.lut) res = gn_renderer_set_color_lut(s->r, o->post.lut, err);
    if (res) {
        gn_view_session_drop(s);
        return res;
    }
    s->made_with.frame.msaa = o->frame.msaa;
    s->made_with.shadow = o->shadow;
    s->made_with.light.shadowed = o->light.shadowed;
    s->made_with.light.cluster_max = o->light.cluster_max;
    return GN_OK;
}

gn_result gn_view_session_scene(gn_view_session *s, const gn_view_opts *o, gn_error *err)
{
    gn_scene *scene = NULL;
    gn_result res =
        gn_cli_load_scene(o->frame.scene, o->frame.paks, o->frame.map_lights, o->frame.single_image,
                          o->frame.seed, o->frame.scale, &o->frame.anim, &scene, err);
    if (!res && o->light.lights)
        res = gn_scene_add_builtin_lights(scene, o->light.lights, o->frame.seed, err);
    if (res) {
        gn_scene_destroy(scene);
        return res;
    }
    /* the renderer's caches know the old scene by its address: nothing may still use it */
    if (s->r) gn_renderer_wait_idle(s->r, NULL);
    gn_scene_destroy(s->scene);
    s->scene = scene;
    s->made_with.frame.scene = o->frame.scene;
    s->made_with.frame.paks = o->frame.paks;
    s->made_with.frame.map_lights = o->frame.map_lights;
    s->made_with.frame.seed = o->frame.seed;
    s->made_with.frame.scale = o->frame.scale;
    s->made_with.light.lights = o->light.lights;
    return GN_OK;
}

void gn_view_session_camera(const gn_view_session *s, const gn_view_opts *o, float out[5])
{
    if (o->frame.camera_set) {
        memcpy(out, o->frame.camera, 5 * sizeof(float));
        return;
    }
    gn_scene_info info;
    gn_scene_get_info(s->scene, &info);
    memcpy(out, info.default_camera, 5 * sizeof(float));
}

gn_result gn_view_session_screenshot(gn_view_session *s, const char *path, const uint8_t *overlay,
                                     gn_error *err)
{
    char msg[512];
    if (!gn_cli_make_parent_dirs(path, msg, sizeof msg)) return gn_cli_error(err, GN_ERROR_IO, "%s", msg);
    uint32_t w, h;
    gn_renderer_size(s->r, &w, &h);
    uint8_t *pixels = malloc((size_t)w * h * 4);
    if (!pixels)
        return gn_cli_error(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for a %ux%u screenshot", w, h);
    gn_result res = gn_read_pixels(s->r, pixels, err);
    for (size_t i = 0; overlay && !res && i < (size_t)w * h; i++) {
        const uint8_t *o = overlay + i * 4;
        uint8_t *p = pixels + i * 4;
        for (int c = 0; c < 3; c++) p[c] = (uint8_t)((p[c] * (255 - o[3]) + o[c] * o[3] + 127) / 255);
    }
    if (!res && !gn_png_write(path, (int)w, (int)h, 4, pixels, (int)w * 4))
        res = gn_cli_error(err, GN_ERROR_IO, "cannot write %s: %s", path, strerror(errno));
    free(pixels);
    return res;
}

uint32_t gn_view_session_validation(const gn_view_session *s)
{
    return s->validation_before + (s->r ? gn_renderer_validation_messages(s->r) : 0);
}

void gn_view_session_present_stats(const gn_view_session *s, gn_present_stats *out)
{
    gn_renderer_present_stats(s->r, out); /* the current renderer's; zero without one */
    out->presented += s->present_before.presented;
    out->skipped += s->present_before.skipped;
    out->recreated += s->present_before.recreated;
}

void gn_view_session_end(gn_view_session *s)
{
    gn_view_session_drop(s);
    gn_scene_destroy(s->scene);
    s->scene = NULL;
}

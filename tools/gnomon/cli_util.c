/* Helpers shared by the commands: exit codes, folders for output files, a clock. */
#define _POSIX_C_SOURCE 200809L /* mkdir, stat, clock_gettime under -std=c11 */

#include "cli.h"
#include "cmd_opts.h"
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int gn_cli_open(const char *command, const struct gn_frame_opts *fo, const gn_renderer_desc *rd,
                gn_renderer **r, gn_scene **out)
{
    gn_error err = {0};
    gn_renderer_desc own = {
        .width = fo->size[0], .height = fo->size[1], .msaa = fo->msaa, .device = gn_cli_device_env()};
    if (gn_renderer_create(rd ? rd : &own, r, &err) != GN_OK) return gn_cli_fail(command, &err);
    if (gn_cli_load_scene(fo->scene, fo->paks, fo->map_lights, fo->single_image, fo->seed, fo->scale,
                          &fo->anim, out, &err) != GN_OK)
        return gn_cli_fail(command, &err);
    return GN_EXIT_OK;
}

int gn_cli_validation_verdict(const char *command, gn_renderer *r)
{
    uint32_t n = gn_renderer_validation_messages(r);
    if (!n) return GN_EXIT_OK;
    fprintf(stderr, "gnomon %s: %u validation message(s)\n", command, n);
    return GN_EXIT_RUNTIME;
}

int gn_cli_exit_code(gn_result r)
{
    if (r == GN_OK) return GN_EXIT_OK;
    return r == GN_ERROR_NO_DEVICE ? GN_EXIT_NO_DEVICE : GN_EXIT_RUNTIME;
}

int gn_cli_fail(const char *command, const gn_error *err)
{
    const char *msg = err->message[0] ? err->message : gn_result_name(err->code);
    fprintf(stderr, "gnomon %s: %s\n", command, msg);
    return gn_cli_exit_code(err->code == GN_OK ? GN_ERROR_VULKAN : err->code);
}

static bool gn_cli_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool gn_cli_make_parent_dirs(const char *path, char *msg, size_t msg_size)
{
    char dir[4096];
    size_t len = strlen(path);
    if (len >= sizeof dir) {
        snprintf(msg, msg_size, "cannot write %.200s...: path too long", path);
        return false;
    }
    memcpy(dir, path, len + 1);
    char *slash = strrchr(dir, '/');
    if (!slash) return true; /* the current folder exists */
    *slash = '\0';
    if (dir[0] == '\0' || gn_cli_is_dir(dir)) return true;

    /* Walk the prefixes left to right so "a/b/c" creates a, then a/b, then a/b/c. */
    for (char *p = dir + 1;; p++) {
        bool end = *p == '\0';
        if (*p != '/' && !end) continue;
        *p = '\0';
        if (!gn_cli_is_dir(dir) && mkdir(dir, 0777) != 0) {
            int e = errno;                              /* saved: the stat below may overwrite it */
            if (!(e == EEXIST && gn_cli_is_dir(dir))) { /* EEXIST: another process made it */
                snprintf(msg, msg_size, "cannot write %s: cannot create folder '%s': %s", path, dir,
                         strerror(e));
                return false;
            }
        }
        if (end) break;
        *p = '/';
    }
    return true;
}

double gn_cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

const char *gn_cli_device_env(void)
{
    const char *d = getenv("GNOMON_DEVICE");
    return d && d[0] ? d : NULL;
}

int gn_cli_after_parse(int status, const char *msg, void (*help)(FILE *f))
{
    switch ((gn_parse_status)status) {
    case GN_PARSE_HELP:
        help(stdout);
        return GN_EXIT_OK;
    case GN_PARSE_ERROR:
        fprintf(stderr, "%s\n", msg);
        return GN_EXIT_USAGE;
    case GN_PARSE_OK:
        break;
    }
    return GN_CLI_GO_ON;
}

/* --emitters FILE.json: every emitter of the file in a row 4 m apart along +X, starting 8 m in
 * front of the scene's default camera at its feet (1.6 m below it). */
static gn_result add_emitters(gn_scene *s, const gn_anim_opts *anim, gn_error *err)
{
    if (!anim->emitters) return GN_OK;
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    float yaw = info.default_camera[3] * 0.017453293f;
    gn_emitter_desc d = {.file = anim->emitters,
                         .position = {info.default_camera[0] - 8.0f * sinf(yaw),
                                      info.default_camera[1] - 1.6f,
                                      info.default_camera[2] - 8.0f * cosf(yaw)}};
    return gn_scene_add_emitter(s, &d, NULL, err);
}

gn_result gn_cli_load_scene(const char *scene, const char *paks, bool map_lights, bool single_image,
                            uint32_t seed, uint32_t scale, const gn_anim_opts *anim, gn_scene **out,
                            gn_error *err)
{
    if (strcmp(scene, "town") == 0) {
        gn_builtin_desc bd = {.name = scene,
                              .seed = seed,
                              .scale = scale,
                              .people = anim->people,
                              .people_detail = anim->people_detail,
                              .decals = anim->decals,
                              .particles = anim->particles};
        gn_result res = gn_scene_create_builtin(&bd, out, err);
        if (!res) res = add_emitters(*out, anim, err);
        return res;
    }
    gn_load_desc ld = {.path = scene,
                       .paks = paks,
                       .map_lights = map_lights,
                       .no_shader_scripts = single_image,
                       .animation = anim->animation,
                       .time_in_clip = anim->time_in_clip,
                       .skinning = (gn_skinning)anim->skinning,
                       .characters = anim->characters != 0};
    gn_result res = gn_scene_load(&ld, out, err);
    if (!res) res = add_emitters(*out, anim, err);
    return res;
}

gn_result gn_cli_render_settled(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, uint32_t *frames,
                                gn_frame_stats *stats, gn_error *err)
{
    gn_result res = gn_render(r, s, f, err);
    *frames = 1;
    memset(stats, 0, sizeof *stats);
    /* The occlusion view shows what occlusion culling hid, which needs a history: the first
     * frame of a still camera draws everything in view (it has no last frame), the next ones
     * settle on what the last frame's depth hides. */
    for (uint32_t i = 1; !res && f->view == GN_VIEW_OCCLUSION && i < GN_CLI_OCCLUSION_FRAMES;
         i++, (*frames)++)
        res = gn_render(r, s, f, err);
    if (res || (f->shadows != GN_SHADOWS_VSM && f->shadows != GN_SHADOWS_DEFAULT)) return res;
    for (; *frames < GN_CLI_SETTLE_FRAMES; (*frames)++) {
        res = gn_renderer_wait_idle(r, err);
        if (!res) res = gn_get_frame_stats(r, stats, err);
        if (res) return res;
        /* A cache with nothing to request is settled too: with the sun down the VSM does not run
         * (its pool counts zero) and a view of sky asks for no page; waiting for a request
         * there ran every night render to the limit. */
        bool idle = !stats->vsm_pages_waiting && !stats->vsm_pages_rendered_static &&
                    !stats->vsm_pages_rendered_dynamic;
        if (idle && (*frames > 2 || !stats->vsm_pool_pages)) return GN_OK;
        if ((res = gn_render(r, s, f, err)) != GN_OK) return res;
    }
    return GN_OK;
}

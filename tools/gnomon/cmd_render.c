/* gnomon render: one frame of a scene to a PNG, then the frame's per-pass GPU timings. */
#include "canvas.h"
#include "cli.h"
#include "cmd_opts.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes the --stats JSON; false with a message on stderr. */
static bool gn_render_write_stats(const gn_render_opts *o, const gn_frame_report_meta *m,
                                  const gn_frame_stats *s)
{
    FILE *f = fopen(o->stats, "w");
    bool ok = f && gn_frame_report_json(f, m, s);
    if (f && fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "gnomon render: cannot write %s\n", o->stats);
    return ok;
}

/* Everything after parsing; r and scene are released by the caller. */
static int gn_render_run(const gn_render_opts *o, gn_renderer **r, gn_scene **scene)
{
    gn_error err = {0};
    gn_renderer_desc rd = {.width = o->frame.size[0],
                           .height = o->frame.size[1],
                           .msaa = o->frame.msaa,
                           .device = gn_cli_device_env()};
    gn_light_opts_apply(&o->light, &rd.lights);
    gn_post_opts_probes(&o->post, &rd.probes);
    gn_shadows shadow_mode;
    char shadow_err[256];
    if (!gn_shadow_opts_apply(&o->shadow, "render", &rd.csm, &rd.vsm, &shadow_mode, shadow_err,
                              sizeof shadow_err)) {
        fprintf(stderr, "%s\n", shadow_err);
        return GN_EXIT_USAGE;
    }
    if (gn_renderer_create(&rd, r, &err) != GN_OK) return gn_cli_fail("render", &err);
    if (o->post.lut && gn_renderer_set_color_lut(*r, o->post.lut, &err) != GN_OK)
        return gn_cli_fail("render", &err);

    double t0 = gn_cli_now_ms();
    if (gn_cli_load_scene(o->frame.scene, o->frame.paks, o->frame.map_lights, o->frame.single_image,
                          o->frame.seed, o->frame.scale, &o->frame.anim, scene, &err) != GN_OK)
        return gn_cli_fail("render", &err);
    if (o->light.lights && gn_scene_add_builtin_lights(*scene, o->light.lights, o->frame.seed, &err) != GN_OK)
        return gn_cli_fail("render", &err);
    double build_ms = gn_cli_now_ms() - t0;
    gn_scene_info info;
    gn_scene_get_info(*scene, &info);
    printf("scene %s: %u instances, %llu triangles, built in %.1f ms\n", o->frame.scene, info.instances,
           (unsigned long long)info.triangles, build_ms);

    gn_frame_desc frame;
    gn_render_opts_frame(o, &frame);
    if (o->viewpoint) {
        float vp[5];
        char vp_err[160];
        if (!gn_opts_viewpoint("render", o->viewpoint, &info, vp, vp_err, sizeof vp_err)) {
            fprintf(stderr, "%s\n", vp_err);
            return GN_EXIT_USAGE;
        }
        memcpy(frame.camera.position, vp, 3 * sizeof(float));
        frame.camera.yaw = vp[3];
        frame.camera.pitch = vp[4];
        frame.camera.fov_y = info.default_fov_y > 0 ? info.default_fov_y : GN_CLI_FOV_Y;
    }
    frame.shadows = shadow_mode;
    frame.naive_lights = !o->light.clustered;
    uint32_t settled = 0;
    gn_frame_stats vs;
    if (gn_cli_render_settled(*r, *scene, &frame, &settled, &vs, &err) != GN_OK)
        return gn_cli_fail("render", &err);
    if (shadow_mode == GN_SHADOWS_VSM)
        printf("vsm: the page cache settled after %u frame%s (%u pages requested)\n", settled,
               settled == 1 ? "" : "s", vs.vsm_pages_requested);

    size_t bytes = (size_t)o->frame.size[0] * o->frame.size[1] * 4;
    uint8_t *pixels = malloc(bytes);
    if (!pixels) {
        fprintf(stderr, "gnomon render: out of memory for a %ux%u image\n", o->frame.size[0],
                o->frame.size[1]);
        return GN_EXIT_RUNTIME;
    }
    gn_result res = gn_read_pixels(*r, pixels, &err);
    bool wrote = res == GN_OK && gn_png_write(o->out, (int)o->frame.size[0], (int)o->frame.size[1], 4, pixels,
                                              (int)o->frame.size[0] * 4);
    int write_errno = errno;
    free(pixels);
    if (res != GN_OK) return gn_cli_fail("render", &err);
    if (!wrote) {
        fprintf(stderr, "gnomon render: cannot write %s: %s\n", o->out, strerror(write_errno));
        return GN_EXIT_RUNTIME;
    }

    /* Statistics come from timestamp queries read back once the frame has finished. */
    gn_frame_stats stats;
    if (gn_renderer_wait_idle(*r, &err) != GN_OK || gn_get_frame_stats(*r, &stats, &err) != GN_OK)
        return gn_cli_fail("render", &err);
    const char *device = gn_renderer_device_name(*r);
    printf("%s: %ux%u, msaa %u, view %s -> %s\n", device, o->frame.size[0], o->frame.size[1], o->frame.msaa,
           gn_render_view_name(o->view), o->out);
    gn_frame_report_print(stdout, &stats);
    gn_probes_info pi;
    gn_renderer_probes(*r, &pi);
    if (pi.count)
        printf("reflection probes      %u placed (rays against %u triangles), rendered in %.0f ms (%u faces "
               "of %u^2)\n",
               pi.count, pi.ray_triangles, pi.made_ms, pi.count * 6, GN_PROBES_FACE);
    /* with GNOMON_VALIDATION=1 any validation message is a failure (the tests rely on it) */
    uint32_t vmsgs = gn_renderer_validation_messages(*r);
    if (vmsgs) {
        fprintf(stderr, "gnomon render: %u validation message(s)\n", vmsgs);
        return GN_EXIT_RUNTIME;
    }

    gn_frame_report_meta meta = {.device = device,
                                 .scene = o->frame.scene,
                                 .view = gn_render_view_name(o->view),
                                 .width = o->frame.size[0],
                                 .height = o->frame.size[1],
                                 .msaa = o->frame.msaa,
                                 .scene_build_ms = build_ms};
    if (o->stats && !gn_render_write_stats(o, &meta, &stats)) return GN_EXIT_RUNTIME;
    return GN_EXIT_OK;
}

int gn_cmd_render(int argc, char **argv)
{
    gn_render_opts o;
    char msg[1024];
    int parsed =
        gn_cli_after_parse(gn_render_opts_parse(argc, argv, &o, msg, sizeof msg), msg, gn_render_opts_help);
    if (parsed != GN_CLI_GO_ON) return parsed;
    /* Folders first: a typo in --out should not cost a device start and a scene build. */
    if (!gn_cli_make_parent_dirs(o.out, msg, sizeof msg) ||
        (o.stats && !gn_cli_make_parent_dirs(o.stats, msg, sizeof msg))) {
        fprintf(stderr, "gnomon render: %s\n", msg);
        return GN_EXIT_RUNTIME;
    }
    gn_renderer *r = NULL;
    gn_scene *scene = NULL;
    int code = gn_render_run(&o, &r, &scene);
    gn_scene_destroy(scene);
    gn_renderer_destroy(r);
    return code;
}

/* gnomon aoref: one frame, then its ray-traced ambient occlusion as a grey PNG (truth.h,
 * gn_truth_ao). */
#include "aocmp.h"
#include "canvas.h"
#include "cli.h"
#include "cmd_opts.h"
#include "truth.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The truth's radius: --ao-radius, else the one the renderer resolved for the frame, else the
 * library's default (a frame with AO off reports 0). */
static float gn_aoref_radius(const gn_aoref_opts *o, const gn_frame_view *v)
{
    if (o->ao.radius > 0.0f) return o->ao.radius;
    if (v->ao_radius > 0.0f && isfinite(v->ao_radius)) return v->ao_radius;
    return GN_AO_DEFAULT_RADIUS;
}

static void gn_aoref_print(const gn_aoref_opts *o, gn_renderer *r, const gn_truth *t,
                           const gn_truth_stats *st, const float *ao, const uint8_t *counted, float radius)
{
    size_t n = (size_t)o->frame.size[0] * o->frame.size[1];
    double sum = 0.0;
    uint64_t pixels = 0;
    for (size_t i = 0; i < n; i++)
        if (counted[i]) sum += ao[i], pixels++;
    printf("%s: %ux%u, radius %.2f m, %u rays a pixel -> %s\n", gn_renderer_device_name(r), o->frame.size[0],
           o->frame.size[1], radius, o->rays, o->out);
    printf("rays: %llu in %.1f ms on %u threads (bvh %.1f ms), %.2f Mrays/s; %llu surface pixels "
           "(%llu unconfirmed, left out), mean AO %.4f\n",
           (unsigned long long)st->rays, st->ms, st->threads, gn_truth_build_ms(t),
           st->ms > 0 ? (double)st->rays / st->ms * 1e-3 : 0.0, (unsigned long long)pixels,
           (unsigned long long)st->unconfirmed, pixels ? sum / (double)pixels : 1.0);
}

/* Everything after parsing; the caller releases r, scene and t. */
static int gn_aoref_run(const gn_aoref_opts *o, gn_renderer **r, gn_scene **scene, gn_truth **t)
{
    const gn_frame_opts *fo = &o->frame;
    gn_error err = {0};
    int opened = gn_cli_open("aoref", fo, NULL, r, scene);
    if (opened != GN_EXIT_OK) return opened;

    /* Only the depth, the camera and the AO's radius matter here, so one frame of the final view
     * will do. */
    gn_frame_desc frame;
    gn_frame_opts_frame(fo, fo->camera_set ? fo->camera : NULL, GN_VIEW_FINAL, &frame);
    gn_ao_frame_opts_apply(&o->ao, &frame.ao);
    if (gn_render(*r, *scene, &frame, &err) != GN_OK) return gn_cli_fail("aoref", &err);

    size_t n = (size_t)fo->size[0] * fo->size[1];
    float *depth = malloc(n * sizeof *depth), *ao = malloc(n * sizeof *ao);
    uint8_t *counted = malloc(n), *grey = malloc(n);
    gn_frame_view view = {0};
    int code = GN_EXIT_OK;
    if (!depth || !ao || !counted || !grey) {
        fprintf(stderr, "gnomon aoref: out of memory for a %ux%u image\n", fo->size[0], fo->size[1]);
        code = GN_EXIT_RUNTIME;
    } else if (gn_read_depth(*r, depth, &err) != GN_OK || gn_get_frame_view(*r, &view, &err) != GN_OK) {
        code = gn_cli_fail("aoref", &err);
    } else if (!(*t = gn_truth_create(*scene, &err))) { /* after gn_render: dynamic objects moved */
        code = gn_cli_fail("aoref", &err);
    } else {
        gn_truth_frame tf = {.depth = depth,
                             .width = fo->size[0],
                             .height = fo->size[1],
                             .msaa = gn_renderer_msaa(*r),
                             .view = &view};
        gn_truth_ao_desc d = {.radius = gn_aoref_radius(o, &view), .rays = o->rays};
        gn_truth_stats st;
        if (gn_truth_ao(*t, &tf, &d, ao, counted, &st, &err) != GN_OK) {
            code = gn_cli_fail("aoref", &err);
        } else {
            for (size_t i = 0; i < n; i++) grey[i] = gn_ao_grey(ao[i]); /* skipped pixels are 1: white */
            if (!gn_png_write(o->out, (int)fo->size[0], (int)fo->size[1], 1, grey, (int)fo->size[0])) {
                fprintf(stderr, "gnomon aoref: cannot write %s: %s\n", o->out, strerror(errno));
                code = GN_EXIT_RUNTIME;
            } else {
                gn_aoref_print(o, *r, *t, &st, ao, counted, d.radius);
            }
        }
    }
    if (code == GN_EXIT_OK) code = gn_cli_validation_verdict("aoref", *r);
    free(depth);
    free(ao);
    free(counted);
    free(grey);
    return code;
}

int gn_cmd_aoref(int argc, char **argv)
{
    gn_aoref_opts o;
    char msg[1024];
    int parsed =
        gn_cli_after_parse(gn_aoref_opts_parse(argc, argv, &o, msg, sizeof msg), msg, gn_aoref_opts_help);
    if (parsed != GN_CLI_GO_ON) return parsed;
    if (!gn_cli_make_parent_dirs(o.out, msg, sizeof msg)) {
        fprintf(stderr, "gnomon aoref: %s\n", msg);
        return GN_EXIT_RUNTIME;
    }
    gn_renderer *r = NULL;
    gn_scene *scene = NULL;
    gn_truth *t = NULL;
    int code = gn_aoref_run(&o, &r, &scene, &t);
    gn_truth_destroy(t); /* before the scene: it shares the scene's vertex positions */
    gn_scene_destroy(scene);
    gn_renderer_destroy(r);
    return code;
}

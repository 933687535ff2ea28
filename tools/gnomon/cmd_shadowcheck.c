/* gnomon shadowcheck: the rendered shadow view against the ray-traced truth, over one or more
 * views; a table, optional JSON and images, and an optional pass/fail threshold. */
#include "canvas.h"
#include "cli.h"
#include "cmd_opts.h"
#include "json.h"
#include "shadowcmp.h"
#include "truth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gn_check_view {
    float camera[5];
    gn_shadow_agreement a;
} gn_check_view;

typedef struct gn_check_run {
    const gn_shadowcheck_opts *o;
    gn_renderer *r;
    gn_scene *scene;
    gn_truth *truth;
    uint32_t views;
    gn_check_view v[GN_SHADOWCHECK_MAX_VIEWS];
    gn_shadow_agreement mean;
    /* per-frame buffers, width*height pixels */
    uint8_t *rgba, *mask, *picture;
    float *depth;
} gn_check_run;

/* The shadow view (the sun's shadow factor alone) with the technique under test; none draws
 * everything lit, so it should score exactly the truth's shadowed share as false lit. */
static void gn_check_frame(const gn_shadowcheck_opts *o, const float *camera, gn_frame_desc *f)
{
    gn_frame_opts_frame(&o->frame, camera, GN_VIEW_SHADOW, f);
    f->shadows = o->shadow.shadows == GN_SHADOWCHECK_NONE  ? GN_SHADOWS_NONE
                 : o->shadow.shadows == GN_SHADOWCHECK_VSM ? GN_SHADOWS_VSM
                                                           : GN_SHADOWS_CSM;
}

static bool gn_check_write_png(const char *dir, uint32_t view, const char *what, const uint8_t *rgba,
                               uint32_t w, uint32_t h)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/view%u_%s.png", dir, view, what);
    if (gn_png_write(path, (int)w, (int)h, 4, rgba, (int)w * 4)) return true;
    fprintf(stderr, "gnomon shadowcheck: cannot write %s: %s\n", path, strerror(errno));
    return false;
}

/* Renders, reads back and compares view i. */
static int gn_check_view_run(gn_check_run *c, uint32_t i)
{
    const gn_shadowcheck_opts *o = c->o;
    uint32_t w = o->frame.size[0], h = o->frame.size[1];
    gn_error err = {0};
    gn_frame_desc f;
    gn_check_frame(o, c->v[i].camera, &f);
    gn_frame_view fv;
    uint32_t settled;
    gn_frame_stats vs;
    if (gn_cli_render_settled(c->r, c->scene, &f, &settled, &vs, &err) != GN_OK ||
        gn_read_pixels(c->r, c->rgba, &err) != GN_OK || gn_read_depth(c->r, c->depth, &err) != GN_OK ||
        gn_get_frame_view(c->r, &fv, &err) != GN_OK)
        return gn_cli_fail("shadowcheck", &err);
    /* Built after the first gn_render, which moves dynamic objects to the frame's time; every
     * view renders the same time, so one build serves them all. */
    if (!c->truth && !(c->truth = gn_truth_create(c->scene, &err))) return gn_cli_fail("shadowcheck", &err);
    gn_truth_frame tf = {
        .depth = c->depth, .width = w, .height = h, .msaa = gn_renderer_msaa(c->r), .view = &fv};
    gn_truth_stats st;
    if (gn_truth_mask(c->truth, &tf, c->mask, &st, &err) != GN_OK) return gn_cli_fail("shadowcheck", &err);
    if (!gn_shadow_compare(c->mask, c->rgba, w, h, &c->v[i].a)) {
        fprintf(stderr, "gnomon shadowcheck: out of memory comparing a %ux%u image\n", w, h);
        return GN_EXIT_RUNTIME;
    }
    if (o->out_dir) {
        bool ok = gn_check_write_png(o->out_dir, i, "shadow", c->rgba, w, h);
        gn_shadow_mask_rgba(c->mask, w, h, c->picture);
        ok = ok && gn_check_write_png(o->out_dir, i, "truth", c->picture, w, h);
        gn_shadow_diff_rgba(c->mask, c->rgba, w, h, c->picture);
        ok = ok && gn_check_write_png(o->out_dir, i, "diff", c->picture, w, h);
        if (!ok) return GN_EXIT_RUNTIME;
    }
    char cache[64] = ""; /* how long the VSM's page cache took, as gnomon render says it */
    if (f.shadows == GN_SHADOWS_VSM)
        snprintf(cache, sizeof cache, ", the page cache settled after %u frame%s", settled,
                 settled == 1 ? "" : "s");
    fprintf(stderr, "view %u: sun %.1f deg%s, %llu rays in %.0f ms (%.2f Mrays/s)\n", i, fv.sun_elevation,
            cache, (unsigned long long)st.rays, st.ms, st.ms > 0 ? (double)st.rays / st.ms * 1e-3 : 0.0);
    return GN_EXIT_OK;
}

static void gn_check_print_row(const char *name, const gn_shadow_agreement *a)
{
    printf("%-6s %10.2f%% %10.2f%% %10.2f%% %12.2f%%\n", name, 100.0 * a->agreement_all,
           100.0 * a->agreement_off_edge, 100.0 * a->false_lit, 100.0 * a->false_shadow);
}

static void gn_check_json_agreement(gn_json *j, const gn_shadow_agreement *a)
{
    gn_json_number(j, "agreement_all", a->agreement_all);
    gn_json_number(j, "agreement_off_edge", a->agreement_off_edge);
    gn_json_number(j, "false_lit", a->false_lit);
    gn_json_number(j, "false_shadow", a->false_shadow);
}

static bool gn_check_write_json(const gn_check_run *c)
{
    const gn_shadowcheck_opts *o = c->o;
    FILE *f = fopen(o->json, "w");
    if (!f) {
        fprintf(stderr, "gnomon shadowcheck: cannot write %s\n", o->json);
        return false;
    }
    gn_json j;
    gn_json_begin(&j, f);
    gn_json_object_begin(&j, NULL);
    gn_json_run_header(&j, gn_renderer_device_name(c->r), o->frame.scene, o->frame.size[0], o->frame.size[1],
                       gn_renderer_msaa(c->r));
    gn_json_string(&j, "shadows", gn_shadowcheck_mode_name(o->shadow.shadows));
    gn_json_number(&j, "time", gn_frame_opts_time(&o->frame));
    gn_check_json_agreement(&j, &c->mean);
    gn_json_array_begin(&j, "views");
    for (uint32_t i = 0; i < c->views; i++) {
        gn_json_object_begin(&j, NULL);
        gn_json_array_begin(&j, "camera");
        for (int k = 0; k < 5; k++) gn_json_number(&j, NULL, c->v[i].camera[k]);
        gn_json_array_end(&j);
        gn_check_json_agreement(&j, &c->v[i].a);
        gn_json_uint(&j, "pixels", c->v[i].a.pixels);
        gn_json_uint(&j, "pixels_off_edge", c->v[i].a.pixels_off_edge);
        gn_json_object_end(&j);
    }
    gn_json_array_end(&j);
    gn_json_object_end(&j);
    bool ok = gn_json_end(&j);
    if (fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "gnomon shadowcheck: cannot write %s\n", o->json);
    return ok;
}

/* The cameras of the views: the given or default camera, then the scene's viewpoints. */
static int gn_check_cameras(gn_check_run *c)
{
    const gn_shadowcheck_opts *o = c->o;
    gn_scene_info info;
    gn_scene_get_info(c->scene, &info);
    uint32_t available = 1 + info.viewpoint_count;
    if (o->views > available) {
        fprintf(stderr,
                "gnomon shadowcheck: --views %u: scene '%s' has %u view(s) (its camera and %u viewpoints)\n",
                o->views, o->frame.scene, available, info.viewpoint_count);
        return GN_EXIT_USAGE;
    }
    c->views = o->views;
    memcpy(c->v[0].camera, o->frame.camera_set ? o->frame.camera : info.default_camera,
           sizeof c->v[0].camera);
    for (uint32_t i = 1; i < c->views; i++)
        memcpy(c->v[i].camera, info.viewpoints[i - 1], sizeof c->v[i].camera);
    return GN_EXIT_OK;
}

static int gn_check_run_all(gn_check_run *c)
{
    const gn_shadowcheck_opts *o = c->o;
    const gn_frame_opts *fo = &o->frame;
    gn_renderer_desc rd = {
        .width = fo->size[0], .height = fo->size[1], .msaa = fo->msaa, .device = gn_cli_device_env()};
    gn_shadows shadow_mode;
    char shadow_err[256];
    if (!gn_shadow_opts_apply(&o->shadow, "shadowcheck", &rd.csm, &rd.vsm, &shadow_mode, shadow_err,
                              sizeof shadow_err)) {
        fprintf(stderr, "%s\n", shadow_err);
        return GN_EXIT_USAGE;
    }
    int code = gn_cli_open("shadowcheck", fo, &rd, &c->r, &c->scene);
    if (code == GN_EXIT_OK) code = gn_check_cameras(c);
    if (code != GN_EXIT_OK) return code;

    size_t n = (size_t)fo->size[0] * fo->size[1];
    c->rgba = malloc(n * 4);
    c->picture = malloc(n * 4);
    c->mask = malloc(n);
    c->depth = malloc(n * sizeof *c->depth);
    if (!c->rgba || !c->picture || !c->mask || !c->depth) {
        fprintf(stderr, "gnomon shadowcheck: out of memory for a %ux%u image\n", fo->size[0], fo->size[1]);
        return GN_EXIT_RUNTIME;
    }
    for (uint32_t i = 0; i < c->views; i++) {
        code = gn_check_view_run(c, i);
        if (code != GN_EXIT_OK) return code;
        c->mean.agreement_all += c->v[i].a.agreement_all / c->views;
        c->mean.agreement_off_edge += c->v[i].a.agreement_off_edge / c->views;
        c->mean.false_lit += c->v[i].a.false_lit / c->views;
        c->mean.false_shadow += c->v[i].a.false_shadow / c->views;
    }

    printf("%s: %s, %ux%u, msaa %u, shadows %s, time %.2f h\n", gn_renderer_device_name(c->r), fo->scene,
           fo->size[0], fo->size[1], gn_renderer_msaa(c->r), gn_shadowcheck_mode_name(o->shadow.shadows),
           gn_frame_opts_time(fo));
    printf("%-6s %11s %11s %11s %13s\n", "view", "agree all", "off-edge", "false lit", "false shadow");
    for (uint32_t i = 0; i < c->views; i++) {
        char name[16];
        snprintf(name, sizeof name, "%u", i);
        gn_check_print_row(name, &c->v[i].a);
    }
    gn_check_print_row("mean", &c->mean);
    if (gn_cli_validation_verdict("shadowcheck", c->r) != GN_EXIT_OK) return GN_EXIT_RUNTIME;

    if (o->json && !gn_check_write_json(c)) return GN_EXIT_RUNTIME;
    /* every view must meet the bar, not just their mean: one bad viewpoint is a defect */
    for (uint32_t i = 0; o->min_off_edge_set && i < c->views; i++) {
        if (c->v[i].a.agreement_off_edge >= o->min_off_edge) continue;
        fflush(stdout); /* the table first, then the verdict, when both go to one terminal */
        fprintf(stderr,
                "gnomon shadowcheck: view %u off-edge agreement %.2f%% is below --min-off-edge %.2f%%\n", i,
                100.0 * c->v[i].a.agreement_off_edge, 100.0 * o->min_off_edge);
        return GN_EXIT_CHECK_FAILED;
    }
    return GN_EXIT_OK;
}

int gn_cmd_shadowcheck(int argc, char **argv)
{
    gn_shadowcheck_opts o;
    char msg[1024];
    int parsed = gn_cli_after_parse(gn_shadowcheck_opts_parse(argc, argv, &o, msg, sizeof msg), msg,
                                    gn_shadowcheck_opts_help);
    if (parsed != GN_CLI_GO_ON) return parsed;
    /* Folders first: a typo should not cost a device start and a scene build. */
    char probe[4096];
    if (o.out_dir) snprintf(probe, sizeof probe, "%s/x.png", o.out_dir);
    if ((o.json && !gn_cli_make_parent_dirs(o.json, msg, sizeof msg)) ||
        (o.out_dir && !gn_cli_make_parent_dirs(probe, msg, sizeof msg))) {
        fprintf(stderr, "gnomon shadowcheck: %s\n", msg);
        return GN_EXIT_RUNTIME;
    }
    gn_check_run c = {.o = &o};
    int code = gn_check_run_all(&c);
    gn_truth_destroy(c.truth); /* before the scene: it shares the scene's vertex positions */
    gn_scene_destroy(c.scene);
    gn_renderer_destroy(c.r);
    free(c.rgba);
    free(c.picture);
    free(c.mask);
    free(c.depth);
    return code;
}

/* gnomon aocheck: the renderer's ambient occlusion (gn_read_ao) against the ray-traced truth
 * (gn_truth_ao), over one or more views; a table, optional JSON and images, and optional
 * pass/fail thresholds. */
#include "aocmp.h"
#include "canvas.h"
#include "cli.h"
#include "cmd_opts.h"
#include "json.h"
#include "truth.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gn_aocheck_view {
    float camera[5];
    float radius; /* the frame's, which the truth used */
    gn_ao_agreement a;
} gn_aocheck_view;

typedef struct gn_aocheck_run {
    const gn_aocheck_opts *o;
    gn_renderer *r;
    gn_scene *scene;
    gn_truth *truth;
    uint32_t views;
    gn_aocheck_view v[GN_SHADOWCHECK_MAX_VIEWS];
    gn_ao_agreement mean; /* of the views' figures; pixels and not_finite summed */
    /* per-frame buffers, width*height pixels */
    uint8_t *rgba, *picture, *counted;
    float *depth, *sao, *truth_ao;
} gn_aocheck_run;

static bool gn_aocheck_png(const char *dir, uint32_t view, const char *what, const uint8_t *rgba, uint32_t w,
                           uint32_t h)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/view%u_%s.png", dir, view, what);
    if (gn_png_write(path, (int)w, (int)h, 4, rgba, (int)w * 4)) return true;
    fprintf(stderr, "gnomon aocheck: cannot write %s: %s\n", path, strerror(errno));
    return false;
}

static bool gn_aocheck_pictures(gn_aocheck_run *c, uint32_t i)
{
    const char *dir = c->o->out_dir;
    uint32_t w = c->o->frame.size[0], h = c->o->frame.size[1];
    uint64_t n = (uint64_t)w * h;
    bool ok = gn_aocheck_png(dir, i, "final", c->rgba, w, h);
    gn_ao_grey_rgba(c->sao, n, c->picture);
    ok = ok && gn_aocheck_png(dir, i, "sao", c->picture, w, h);
    gn_ao_grey_rgba(c->truth_ao, n, c->picture);
    ok = ok && gn_aocheck_png(dir, i, "truth", c->picture, w, h);
    gn_ao_diff_rgba(c->sao, c->truth_ao, c->counted, n, c->picture);
    return ok && gn_aocheck_png(dir, i, "diff", c->picture, w, h);
}

/* Renders (settled, as shadowcheck does), reads back and compares view i. */
static int gn_aocheck_view_run(gn_aocheck_run *c, uint32_t i)
{
    const gn_aocheck_opts *o = c->o;
    uint32_t w = o->frame.size[0], h = o->frame.size[1];
    gn_error err = {0};
    gn_frame_desc f;
    gn_frame_opts_frame(&o->frame, c->v[i].camera, GN_VIEW_FINAL, &f);
    gn_ao_frame_opts_apply(&o->ao, &f.ao);
    gn_frame_view fv = {0};
    uint32_t settled;
    gn_frame_stats vs;
    if (gn_cli_render_settled(c->r, c->scene, &f, &settled, &vs, &err) != GN_OK ||
        gn_read_pixels(c->r, c->rgba, &err) != GN_OK || gn_read_depth(c->r, c->depth, &err) != GN_OK ||
        gn_get_frame_view(c->r, &fv, &err) != GN_OK)
        return gn_cli_fail("aocheck", &err);
    if (!(fv.ao_radius > 0.0f)) {
        fprintf(stderr, "gnomon aocheck: view %u: the frame had ambient occlusion off (no radius)\n", i);
        return GN_EXIT_RUNTIME;
    }
    if (gn_read_ao(c->r, c->sao, &err) != GN_OK) return gn_cli_fail("aocheck", &err);
    /* Built after the first gn_render, which moves dynamic objects to the frame's time; every
     * view renders the same time, so one build serves them all. */
    if (!c->truth && !(c->truth = gn_truth_create(c->scene, &err))) return gn_cli_fail("aocheck", &err);
    gn_truth_frame tf = {
        .depth = c->depth, .width = w, .height = h, .msaa = gn_renderer_msaa(c->r), .view = &fv};
    gn_truth_ao_desc d = {.radius = fv.ao_radius, .rays = o->rays};
    gn_truth_stats st;
    if (gn_truth_ao(c->truth, &tf, &d, c->truth_ao, c->counted, &st, &err) != GN_OK)
        return gn_cli_fail("aocheck", &err);
    c->v[i].radius = fv.ao_radius;
    gn_ao_compare(c->sao, c->truth_ao, c->counted, (uint64_t)w * h, &c->v[i].a);
    if (o->out_dir && !gn_aocheck_pictures(c, i)) return GN_EXIT_RUNTIME;
    fprintf(stderr, "view %u: radius %.2f m, rendered %u frame%s, %llu rays in %.0f ms (%.2f Mrays/s)\n", i,
            fv.ao_radius, settled, settled == 1 ? "" : "s", (unsigned long long)st.rays, st.ms,
            st.ms > 0 ? (double)st.rays / st.ms * 1e-3 : 0.0);
    return GN_EXIT_OK;
}

static void gn_aocheck_row(const char *name, const gn_ao_agreement *a)
{
    printf("%-6s %8.4f %8.4f %9.4f %10.4f %7.2f%% %9llu\n", name, a->mae, a->correlation, a->mean_sao,
           a->mean_truth, 100.0 * a->halo, (unsigned long long)a->pixels);
}

static void gn_aocheck_json_figures(gn_json *j, const gn_ao_agreement *a)
{
    gn_json_number(j, "mae", a->mae);
    gn_json_number(j, "correlation", a->correlation);
    gn_json_number(j, "mean_sao", a->mean_sao);
    gn_json_number(j, "mean_truth", a->mean_truth);
    gn_json_number(j, "halo", a->halo);
    gn_json_uint(j, "pixels", a->pixels);
    gn_json_uint(j, "not_finite", a->not_finite);
}

static void gn_aocheck_json_write(const gn_aocheck_run *c, gn_json *j)
{
    const gn_aocheck_opts *o = c->o;
    gn_json_object_begin(j, NULL);
    gn_json_run_header(j, gn_renderer_device_name(c->r), o->frame.scene, o->frame.size[0], o->frame.size[1],
                       gn_renderer_msaa(c->r));
    gn_json_number(j, "time", gn_frame_opts_time(&o->frame));
    gn_json_uint(j, "rays", o->rays);
    /* as given; null: the renderer's default */
    gn_json_number(j, "ao_intensity", o->ao.intensity > 0.0f ? o->ao.intensity : NAN);
    gn_json_number(j, "ao_bias", o->ao.bias > 0.0f ? o->ao.bias : NAN);
    gn_json_number(j, "halo_margin", GN_AO_HALO_MARGIN);
    gn_aocheck_json_figures(j, &c->mean);
    gn_json_array_begin(j, "views");
    for (uint32_t i = 0; i < c->views; i++) {
        gn_json_object_begin(j, NULL);
        gn_json_array_begin(j, "camera");
        for (int k = 0; k < 5; k++) gn_json_number(j, NULL, c->v[i].camera[k]);
        gn_json_array_end(j);
        gn_json_number(j, "radius", c->v[i].radius);
        gn_aocheck_json_figures(j, &c->v[i].a);
        gn_json_object_end(j);
    }
    gn_json_array_end(j);
    gn_json_object_end(j);
}

/* --json: one object, the mean figures then each view's. */
static bool gn_aocheck_json(const gn_aocheck_run *c)
{
    FILE *f = fopen(c->o->json, "w");
    bool ok = f != NULL;
    if (ok) {
        gn_json j;
        gn_json_begin(&j, f);
        gn_aocheck_json_write(c, &j);
        ok = gn_json_end(&j);
        ok = fclose(f) == 0 && ok;
    }
    if (!ok) fprintf(stderr, "gnomon aocheck: cannot write %s\n", c->o->json);
    return ok;
}

/* Exit 1 naming the first view that misses a bar: every view must meet it, not just the mean. */
static int gn_aocheck_verdict(const gn_aocheck_run *c)
{
    const gn_aocheck_opts *o = c->o;
    for (uint32_t i = 0; i < c->views; i++) {
        const gn_ao_agreement *a = &c->v[i].a;
        char why[160] = "";
        if (a->not_finite)
            snprintf(why, sizeof why, "SAO is not finite at %llu pixels", (unsigned long long)a->not_finite);
        else if (o->max_mae_set && a->mae > o->max_mae)
            snprintf(why, sizeof why, "mean absolute error %.4f is above --max-mae %.4f", a->mae, o->max_mae);
        else if (o->min_correlation_set && a->correlation < o->min_correlation)
            snprintf(why, sizeof why, "correlation %.4f is below --min-correlation %.4f", a->correlation,
                     o->min_correlation);
        if (!why[0]) continue;
        fflush(stdout); /* the table first, then the verdict, when both go to one terminal */
        fprintf(stderr, "gnomon aocheck: view %u %s\n", i, why);
        return GN_EXIT_CHECK_FAILED;
    }
    return GN_EXIT_OK;
}

static int gn_aocheck_all(gn_aocheck_run *c)
{
    const gn_aocheck_opts *o = c->o;
    const gn_frame_opts *fo = &o->frame;
    int opened = gn_cli_open("aocheck", fo, NULL, &c->r, &c->scene);
    if (opened != GN_EXIT_OK) return opened;
    /* the views: the given or default camera, then the scene's viewpoints */
    gn_scene_info info;
    gn_scene_get_info(c->scene, &info);
    if (o->views > 1 + info.viewpoint_count) {
        fprintf(stderr,
                "gnomon aocheck: --views %u: scene '%s' has %u view(s) (its camera and %u viewpoints)\n",
                o->views, fo->scene, 1 + info.viewpoint_count, info.viewpoint_count);
        return GN_EXIT_USAGE;
    }
    char msg[256];
    for (c->views = 0; c->views < o->views; c->views++) {
        float *cam = c->v[c->views].camera;
        if (c->views == 0 && fo->camera_set)
            memcpy(cam, fo->camera, 5 * sizeof *cam);
        else
            gn_opts_viewpoint("aocheck", c->views, &info, cam, msg, sizeof msg); /* within the count */
    }

    size_t n = (size_t)fo->size[0] * fo->size[1];
    c->rgba = malloc(n * 4);
    c->picture = malloc(n * 4);
    c->counted = malloc(n);
    c->depth = malloc(n * sizeof *c->depth);
    c->sao = malloc(n * sizeof *c->sao);
    c->truth_ao = malloc(n * sizeof *c->truth_ao);
    if (!c->rgba || !c->picture || !c->counted || !c->depth || !c->sao || !c->truth_ao) {
        fprintf(stderr, "gnomon aocheck: out of memory for a %ux%u image\n", fo->size[0], fo->size[1]);
        return GN_EXIT_RUNTIME;
    }
    for (uint32_t i = 0; i < c->views; i++) {
        int code = gn_aocheck_view_run(c, i);
        if (code != GN_EXIT_OK) return code;
        const gn_ao_agreement *a = &c->v[i].a;
        c->mean.mae += a->mae / c->views;
        c->mean.correlation += a->correlation / c->views;
        c->mean.mean_sao += a->mean_sao / c->views;
        c->mean.mean_truth += a->mean_truth / c->views;
        c->mean.halo += a->halo / c->views;
        c->mean.pixels += a->pixels;
        c->mean.not_finite += a->not_finite;
    }

    char intensity[32] = "default";
    if (o->ao.intensity > 0.0f) snprintf(intensity, sizeof intensity, "%.3g", o->ao.intensity);
    printf("%s: %s, %ux%u, msaa %u, time %.2f h, AO intensity %s, %u rays a pixel\n",
           gn_renderer_device_name(c->r), fo->scene, fo->size[0], fo->size[1], gn_renderer_msaa(c->r),
           gn_frame_opts_time(fo), intensity, o->rays);
    printf("%-6s %8s %8s %9s %10s %8s %9s\n", "view", "MAE", "corr", "mean SAO", "mean truth", "halo",
           "pixels");
    for (uint32_t i = 0; i < c->views; i++) {
        char name[16];
        snprintf(name, sizeof name, "%u", i);
        gn_aocheck_row(name, &c->v[i].a);
    }
    gn_aocheck_row("mean", &c->mean);
    if (gn_cli_validation_verdict("aocheck", c->r) != GN_EXIT_OK) return GN_EXIT_RUNTIME;
    if (o->json && !gn_aocheck_json(c)) return GN_EXIT_RUNTIME;
    return gn_aocheck_verdict(c);
}

int gn_cmd_aocheck(int argc, char **argv)
{
    gn_aocheck_opts o;
    char msg[1024];
    int parsed =
        gn_cli_after_parse(gn_aocheck_opts_parse(argc, argv, &o, msg, sizeof msg), msg, gn_aocheck_opts_help);
    if (parsed != GN_CLI_GO_ON) return parsed;
    /* Folders first: a typo should not cost a device start and a scene build. */
    bool folders = !o.json || gn_cli_make_parent_dirs(o.json, msg, sizeof msg);
    if (folders && o.out_dir) {
        char inside[4096]; /* a file in it: its parents are the folder itself */
        snprintf(inside, sizeof inside, "%s/view0_final.png", o.out_dir);
        folders = gn_cli_make_parent_dirs(inside, msg, sizeof msg);
    }
    if (!folders) {
        fprintf(stderr, "gnomon aocheck: %s\n", msg);
        return GN_EXIT_RUNTIME;
    }
    gn_aocheck_run c = {.o = &o};
    int code = gn_aocheck_all(&c);
    gn_truth_destroy(c.truth); /* before the scene: it shares the scene's vertex positions */
    gn_scene_destroy(c.scene);
    gn_renderer_destroy(c.r);
    free(c.rgba);
    free(c.picture);
    free(c.counted);
    free(c.depth);
    free(c.sao);
    free(c.truth_ao);
    return code;
}

/* gnomon bench: frames along a scripted path, then per-pass GPU time statistics, a JSON
 * summary and a chart; with --floors, the device's floors around the run and each pass against
 * its floor. */
#include "bench_data.h"
#include "bench_floors.h"
#include "bench_path.h"
#include "cli.h"
#include "cmd_opts.h"
#include "plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_BENCH_PROGRESS_MS 100.0 /* progress line at most ten times a second */

typedef struct gn_bench_run {
    const gn_bench_opts *o;
    gn_renderer *r;
    gn_scene *scene;
    gn_bench_data data;
    const char *device;
    gn_shadows shadows;
    gn_bench_floors floors; /* with --floors */
} gn_bench_run;

/* Takes the statistics of every frame that finished since the last call; the data keeps
 * those after its watermark (the warm-up). *last is set to the newest one kept. */
/* Takes the finished frames' statistics; during the warm-up (record false) they are dropped,
 * so the first frames (which upload the scene) never reach the samples. */
static gn_result gn_bench_take(gn_bench_run *b, bool record, gn_frame_stats *last, bool *have, gn_error *err)
{
    gn_frame_stats batch[GN_STATS_QUEUE];
    uint32_t n = 0;
    gn_result res = gn_take_frame_stats(b->r, batch, GN_STATS_QUEUE, &n, err);
    if (res != GN_OK || !record) return res;
    for (uint32_t i = 0; i < n; i++) {
        if (!gn_bench_data_add(&b->data, &batch[i])) continue;
        *last = batch[i];
        *have = true;
    }
    return GN_OK;
}

static int gn_bench_frames(gn_bench_run *b)
{
    const gn_bench_opts *o = b->o;
    gn_error err = {0};
    gn_scene_info info;
    gn_scene_get_info(b->scene, &info);
    if (o->camera_set) memcpy(info.default_camera, o->camera, sizeof o->camera);
    if (o->viewpoint) {
        char vp_err[160];
        if (!gn_opts_viewpoint("bench", o->viewpoint, &info, info.default_camera, vp_err, sizeof vp_err)) {
            fprintf(stderr, "%s\n", vp_err);
            return GN_EXIT_USAGE;
        }
    }
    uint32_t total = o->warmup + o->frames;
    gn_bench_walker walker;
    gn_bench_walker_start(&walker, (gn_bench_path)o->path, &info, total);
    walker.sun_speed = o->sun_speed;
    gn_frame_stats s = {0};
    bool have = false;
    double last_print = -1e9;
    for (uint32_t i = 0; i < total; i++) {
        gn_frame_desc frame;
        gn_bench_walker_next(&walker, &frame);
        gn_post_opts_frame(&o->post, &frame);
        frame.shadows = b->shadows;
        frame.naive_lights = !o->light.clustered;
        frame.no_pvs = !o->pvs;
        frame.cpu_culling = !o->gpu_culling;
        frame.no_occlusion = !o->occlusion;
        frame.clusters = o->clusters != 0;
        frame.no_caster_lod = !o->caster_lod;
        frame.vsm_occlusion = o->vsm_occlusion != 0;
        if (gn_render(b->r, b->scene, &frame, &err) != GN_OK) return gn_cli_fail("bench", &err);
        /* frames up to the last warm-up frame's index are not measured */
        if (i + 1 == o->warmup) gn_bench_data_skip_through(&b->data, gn_renderer_frame_index(b->r));
        if (gn_bench_take(b, i + 1 >= o->warmup, &s, &have, &err) != GN_OK) return gn_cli_fail("bench", &err);
        double now = gn_cli_now_ms();
        if (i >= o->warmup && (now - last_print >= GN_BENCH_PROGRESS_MS || i + 1 == total)) {
            last_print = now;
            fprintf(stderr, "\rbench: frame %u/%u  gpu %.2f ms  cpu %.2f ms ", i + 1 - o->warmup, o->frames,
                    have ? s.gpu_ms : 0.0, have ? s.cpu_ms : 0.0);
        }
    }
    fprintf(stderr, "\n");
    /* The last frames finish after the loop: wait for them, then take them. */
    if (gn_renderer_wait_idle(b->r, &err) != GN_OK || gn_bench_take(b, true, &s, &have, &err) != GN_OK)
        return gn_cli_fail("bench", &err);
    return GN_EXIT_OK;
}

static bool gn_bench_json(const gn_bench_run *b, const gn_bench_summary *sum)
{
    const gn_bench_opts *o = b->o;
    gn_bench_meta m = {.device = b->device,
                       .scene = o->scene,
                       .path = gn_bench_path_name(o->path),
                       .width = o->size[0],
                       .height = o->size[1],
                       .msaa = o->msaa,
                       .frames = o->frames,
                       .floors = o->floors ? &b->floors : NULL};
    gn_renderer_probes(b->r, &m.probes);
    FILE *f = fopen(o->json, "w");
    bool ok = f && gn_bench_write_json(f, &m, sum, &b->data);
    if (f && fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "gnomon bench: cannot write %s\n", o->json);
    return ok;
}

/* One line a pass, the frame total first in the palette's first colour, then the sun shadows' sum. */
static bool gn_bench_plot(const gn_bench_run *b)
{
    const gn_bench_opts *o = b->o;
    gn_plot_series series[GN_BENCH_MAX_PASSES + 2];
    uint32_t n = 0;
    series[n++] = (gn_plot_series){"frame total", b->data.frame_ms, b->data.count};
    series[n++] = (gn_plot_series){"sun shadows (all passes)", b->data.shadow_ms, b->data.count};
    for (uint32_t i = 0; i < b->data.pass_count; i++)
        series[n++] = (gn_plot_series){b->data.pass_names[i], b->data.pass_ms[i], b->data.count};
    char title[512], err[512];
    snprintf(title, sizeof title, "%s %ux%u msaa %u, path %s - %s", o->scene, o->size[0], o->size[1], o->msaa,
             gn_bench_path_name(o->path), b->device);
    gn_plot_desc d = {
        .title = title, .x_label = "frame", .y_label = "GPU ms", .series = series, .series_count = n};
    if (gn_plot_write_png(o->plot, &d, err, sizeof err)) return true;
    fprintf(stderr, "gnomon bench: %s\n", err);
    return false;
}

/* The floors at the run's size and MSAA (the renderer's), between frames: nothing else runs then. */
static int gn_bench_measure_floors(gn_bench_run *b, gn_floors *out, const char *when)
{
    gn_error err = {0};
    fprintf(stderr, "bench: measuring the floors %s the run\n", when);
    if (gn_measure_floors(b->r, 0, out, &err) != GN_OK) return gn_cli_fail("bench", &err);
    return GN_EXIT_OK;
}

static int gn_bench_run_all(gn_bench_run *b)
{
    const gn_bench_opts *o = b->o;
    gn_error err = {0};
    gn_renderer_desc rd = {
        .width = o->size[0], .height = o->size[1], .msaa = o->msaa, .device = gn_cli_device_env()};
    gn_light_opts_apply(&o->light, &rd.lights);
    gn_post_opts_probes(&o->post, &rd.probes);
    gn_shadows shadow_mode;
    char shadow_err[256];
    if (!gn_shadow_opts_apply(&o->shadow, "bench", &rd.csm, &rd.vsm, &shadow_mode, shadow_err,
                              sizeof shadow_err)) {
        fprintf(stderr, "%s\n", shadow_err);
        return GN_EXIT_USAGE;
    }
    b->shadows = shadow_mode;
    if (gn_renderer_create(&rd, &b->r, &err) != GN_OK) return gn_cli_fail("bench", &err);
    if (o->post.lut && gn_renderer_set_color_lut(b->r, o->post.lut, &err) != GN_OK)
        return gn_cli_fail("bench", &err);
    b->device = gn_renderer_device_name(b->r);

    double t0 = gn_cli_now_ms();
    if (gn_cli_load_scene(o->scene, o->paks, o->map_lights, o->single_image, o->seed, o->scale, &o->anim,
                          &b->scene, &err) != GN_OK)
        return gn_cli_fail("bench", &err);
    if (o->light.lights && gn_scene_add_builtin_lights(b->scene, o->light.lights, o->seed, &err) != GN_OK)
        return gn_cli_fail("bench", &err);
    printf("%s: %s %ux%u, msaa %u, path %s, %u frames (+%u warm-up); scene built in %.1f ms\n", b->device,
           o->scene, o->size[0], o->size[1], o->msaa, gn_bench_path_name(o->path), o->frames, o->warmup,
           gn_cli_now_ms() - t0);

    int code = o->floors ? gn_bench_measure_floors(b, &b->floors.before, "before") : GN_EXIT_OK;
    if (code == GN_EXIT_OK) code = gn_bench_frames(b);
    if (code == GN_EXIT_OK && o->floors) code = gn_bench_measure_floors(b, &b->floors.after, "after");
    if (code != GN_EXIT_OK) return code;
    if (o->floors) b->floors.best = gn_bench_floors_best(&b->floors.before, &b->floors.after);
    if (b->data.count == 0) {
        fprintf(stderr, "gnomon bench: no frame statistics were returned\n");
        return GN_EXIT_RUNTIME;
    }
    gn_bench_summary sum;
    if (!gn_bench_summarize(&b->data, &sum)) {
        fprintf(stderr, "gnomon bench: out of memory\n");
        return GN_EXIT_RUNTIME;
    }
    if (sum.samples < o->frames)
        printf("statistics of %u of %u frames (statistics of older frames were dropped from the renderer "
               "queue)\n",
               sum.samples, o->frames);
    gn_bench_print_table(stdout, &sum);
    gn_probes_info pi;
    gn_renderer_probes(b->r, &pi);
    if (pi.count)
        printf("%-22s %u placed (rays against %u triangles), all rendered in %.0f ms; %llu renders in all\n",
               "reflection probes", pi.count, pi.ray_triangles, pi.made_ms, (unsigned long long)pi.rendered);
    if (o->floors) gn_bench_floors_print(stdout, &b->floors, &sum);
    /* with GNOMON_VALIDATION=1 any validation message is a failure, as in render (the tests rely on it) */
    uint32_t vmsgs = gn_renderer_validation_messages(b->r);
    if (vmsgs) {
        fprintf(stderr, "gnomon bench: %u validation message(s)\n", vmsgs);
        return GN_EXIT_RUNTIME;
    }
    if (o->json && !gn_bench_json(b, &sum)) return GN_EXIT_RUNTIME;
    if (o->plot && !gn_bench_plot(b)) return GN_EXIT_RUNTIME;
    return GN_EXIT_OK;
}

int gn_cmd_bench(int argc, char **argv)
{
    gn_bench_opts o;
    char msg[1024];
    int parsed =
        gn_cli_after_parse(gn_bench_opts_parse(argc, argv, &o, msg, sizeof msg), msg, gn_bench_opts_help);
    if (parsed != GN_CLI_GO_ON) return parsed;
    if ((o.json && !gn_cli_make_parent_dirs(o.json, msg, sizeof msg)) ||
        (o.plot && !gn_cli_make_parent_dirs(o.plot, msg, sizeof msg))) {
        fprintf(stderr, "gnomon bench: %s\n", msg);
        return GN_EXIT_RUNTIME;
    }
    gn_bench_run b = {.o = &o};
    /* One slot per measured frame, plus the one read after the loop. */
    if (!gn_bench_data_init(&b.data, o.frames + 1)) {
        fprintf(stderr, "gnomon bench: out of memory for %u frames\n", o.frames);
        return GN_EXIT_RUNTIME;
    }
    int code = gn_bench_run_all(&b);
    gn_scene_destroy(b.scene);
    gn_renderer_destroy(b.r);
    gn_bench_data_free(&b.data);
    return code;
}

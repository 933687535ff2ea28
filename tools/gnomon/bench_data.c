/* Bench samples and their summary; see bench_data.h. Percentiles come from
 * gn_series_stats_compute (series_stats.c: nearest rank on a sorted copy). */
#include "bench_data.h"

#include "bench_floors.h"
#include "json.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool gn_bench_data_init(gn_bench_data *d, uint32_t capacity)
{
    *d = (gn_bench_data){.capacity = capacity};
    d->frame_index = calloc(capacity ? capacity : 1, sizeof *d->frame_index);
    double **cols[] = {&d->frame_ms,     &d->cpu_ms,        &d->vis_ms,         &d->draws,
                       &d->triangles,    &d->visible,       &d->drawn,          &d->phase1,
                       &d->phase2,       &d->draw_groups,   &d->lights,         &d->overflow,
                       &d->clusters,     &d->probes_ms,     &d->materials_ms,   &d->animation_ms,
                       &d->decals_drawn, &d->decals_culled, &d->particles_live, &d->particles_spawned};
    d->shadow = calloc(capacity ? capacity : 1, sizeof *d->shadow);
    d->shadow_ms = calloc(capacity ? capacity : 1, sizeof *d->shadow_ms);
    bool ok = d->frame_index != NULL && d->shadow && d->shadow_ms;
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        *cols[i] = calloc(capacity ? capacity : 1, sizeof(double));
        ok = ok && *cols[i];
    }
    if (!ok) gn_bench_data_free(d);
    return ok;
}

void gn_bench_data_free(gn_bench_data *d)
{
    free(d->frame_index);
    free(d->frame_ms);
    free(d->cpu_ms);
    free(d->vis_ms);
    free(d->probes_ms);
    free(d->materials_ms);
    free(d->animation_ms);
    free(d->shadow);
    free(d->shadow_ms);
    free(d->draws);
    free(d->triangles);
    free(d->visible);
    free(d->drawn);
    free(d->phase1);
    free(d->phase2);
    free(d->clusters);
    free(d->draw_groups);
    free(d->lights);
    free(d->overflow);
    free(d->decals_drawn);
    free(d->decals_culled);
    free(d->particles_live);
    free(d->particles_spawned);
    for (uint32_t i = 0; i < d->pass_count; i++) {
        free(d->pass_ms[i]);
        free(d->pass_triangles[i]);
    }
    *d = (gn_bench_data){0};
}

void gn_bench_data_skip_through(gn_bench_data *d, uint64_t frame_index)
{
    if (!d->any || frame_index > d->last_index) d->last_index = frame_index;
    d->any = true;
}

/* The columns (GPU ms and triangles) of a pass: its index, created (NAN for the frames before it
 * appeared) on first sight; -1 when there is no room. */
static int gn_bench_pass_column(gn_bench_data *d, const char *name)
{
    for (uint32_t i = 0; i < d->pass_count; i++)
        if (strncmp(d->pass_names[i], name, 31) == 0) return (int)i;
    if (d->pass_count == GN_BENCH_MAX_PASSES) return -1;
    size_t n = d->capacity ? d->capacity : 1;
    double *ms = malloc(n * sizeof *ms), *tris = malloc(n * sizeof *tris);
    if (!ms || !tris) {
        free(ms);
        free(tris);
        return -1;
    }
    for (uint32_t i = 0; i < d->capacity; i++) ms[i] = tris[i] = NAN;
    snprintf(d->pass_names[d->pass_count], sizeof d->pass_names[0], "%.31s", name);
    d->pass_ms[d->pass_count] = ms;
    d->pass_triangles[d->pass_count] = tris;
    return (int)d->pass_count++;
}

bool gn_bench_data_add(gn_bench_data *d, const gn_frame_stats *s)
{
    if ((d->any && s->frame_index <= d->last_index) || d->count == d->capacity) return false;
    d->any = true;
    d->last_index = s->frame_index;
    uint32_t k = d->count++;
    d->frame_index[k] = s->frame_index;
    d->frame_ms[k] = s->gpu_ms;
    d->cpu_ms[k] = s->cpu_ms;
    d->vis_ms[k] = s->visibility_ms;
    d->probes_ms[k] = s->probes_ms;
    d->materials_ms[k] = s->materials_evaluated ? s->materials_ms : 0.0;
    d->animation_ms[k] = s->rigs ? s->animation_ms : 0.0;
    d->draws[k] = s->draws;
    d->triangles[k] = (double)s->triangles;
    d->visible[k] = s->instances_visible;
    d->drawn[k] = s->instances_drawn;
    d->phase1[k] = s->instances_phase1;
    d->phase2[k] = s->instances_phase2;
    d->clusters[k] = s->clusters_drawn;
    d->draw_groups[k] = s->draw_groups;
    d->lights[k] = s->lights;
    d->overflow[k] = s->light_overflow;
    d->decals_drawn[k] = s->decals_drawn;
    d->decals_culled[k] = s->decals_culled;
    d->particles_live[k] = s->particles_live;
    d->particles_spawned[k] = s->particles_spawned;
    d->instances_total = s->instances_total;
    uint32_t n = s->pass_count < GN_STATS_PASSES ? s->pass_count : GN_STATS_PASSES;
    for (uint32_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "%.31s", s->passes[i].name);
        int col = gn_bench_pass_column(d, name);
        if (col < 0) continue;
        d->pass_ms[col][k] = s->passes[i].gpu_ms;
        d->pass_triangles[col][k] = (double)s->passes[i].triangles;
    }
    gn_bench_shadow_frame *sf = &d->shadow[k];
    *sf = (gn_bench_shadow_frame){.requested = s->vsm_pages_requested,
                                  .resident = s->vsm_pages_resident,
                                  .rendered_static = s->vsm_pages_rendered_static,
                                  .rendered_dynamic = s->vsm_pages_rendered_dynamic,
                                  .rendered_fresh = s->vsm_pages_rendered_fresh,
                                  .evicted = s->vsm_pages_evicted,
                                  .overflow = s->vsm_overflow,
                                  .waiting = s->vsm_pages_waiting,
                                  .pairs_phase1 = s->vsm_pairs_phase1,
                                  .pairs_waiting = s->vsm_pairs_waiting,
                                  .pairs_phase2 = s->vsm_pairs_phase2,
                                  .sun_lag_deg = s->vsm_sun_lag_deg,
                                  .exposure_ev100 = s->exposure_ev100};
    for (uint32_t i = 0; i < n; i++)
        if (strncmp(s->passes[i].name, "csm ", 4) == 0 || strncmp(s->passes[i].name, "vsm ", 4) == 0)
            sf->shadow_ms += s->passes[i].gpu_ms;
    d->shadow_ms[k] = sf->shadow_ms;
    return true;
}

/* Statistics of the finite values of v (a pass is NAN in frames that lacked it). */
static void gn_bench_series(const double *v, uint32_t n, double *tmp, double *scratch, gn_series_stats *out)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (isfinite(v[i])) tmp[m++] = v[i];
    if (m == 0) {
        *out = (gn_series_stats){NAN, NAN, NAN, NAN, NAN};
        return;
    }
    gn_series_stats_compute(tmp, m, scratch, out);
}

bool gn_bench_summarize(const gn_bench_data *d, gn_bench_summary *out)
{
    memset(out, 0, sizeof *out);
    size_t n = d->count ? d->count : 1;
    double *tmp = malloc(n * sizeof *tmp), *scratch = malloc(n * sizeof *scratch);
    if (!tmp || !scratch) {
        free(tmp);
        free(scratch);
        return false;
    }
    out->samples = d->count;
    out->pass_count = d->pass_count;
    out->instances_total = d->instances_total;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        memcpy(out->pass_names[i], d->pass_names[i], sizeof out->pass_names[i]);
        gn_bench_series(d->pass_ms[i], d->count, tmp, scratch, &out->pass[i]);
        gn_series_stats t;
        gn_bench_series(d->pass_triangles[i], d->count, tmp, scratch, &t);
        out->pass_triangles[i] = t.median;
    }
    gn_bench_series(d->frame_ms, d->count, tmp, scratch, &out->frame);
    gn_bench_series(d->cpu_ms, d->count, tmp, scratch, &out->cpu);
    gn_bench_series(d->vis_ms, d->count, tmp, scratch, &out->visibility);
    gn_bench_series(d->probes_ms, d->count, tmp, scratch, &out->probes);
    gn_bench_series(d->materials_ms, d->count, tmp, scratch, &out->materials);
    gn_bench_series(d->animation_ms, d->count, tmp, scratch, &out->animation);
    gn_bench_series(d->shadow_ms, d->count, tmp, scratch, &out->shadow);
    out->frame_spike = out->frame.median > 0 ? out->frame.max / out->frame.median : 0.0;
    double *col = malloc(n * sizeof *col);
    if (col) {
        gn_series_stats st;
        for (uint32_t i = 0; i < d->count; i++)
            col[i] = (double)d->shadow[i].rendered_static + d->shadow[i].rendered_dynamic;
        gn_bench_series(col, d->count, tmp, scratch, &st);
        out->vsm_rendered_median = st.median, out->vsm_rendered_max = st.max;
        for (uint32_t i = 0; i < d->count; i++) col[i] = d->shadow[i].requested;
        gn_bench_series(col, d->count, tmp, scratch, &st);
        out->vsm_requested_median = st.median;
        for (uint32_t i = 0; i < d->count; i++) col[i] = d->shadow[i].sun_lag_deg;
        gn_bench_series(col, d->count, tmp, scratch, &st);
        out->vsm_lag_max = st.max;
        for (uint32_t i = 0; i < d->count; i++) col[i] = d->shadow[i].overflow;
        gn_bench_series(col, d->count, tmp, scratch, &st);
        out->vsm_overflow_max = st.max;
        free(col);
    }
    /* the counters' medians */
    struct {
        const double *col;
        double *median;
    } medians[] = {{d->draws, &out->draws},
                   {d->triangles, &out->triangles},
                   {d->visible, &out->visible},
                   {d->drawn, &out->drawn},
                   {d->phase1, &out->phase1},
                   {d->phase2, &out->phase2},
                   {d->clusters, &out->clusters},
                   {d->draw_groups, &out->draw_groups},
                   {d->lights, &out->lights},
                   {d->decals_drawn, &out->decals_drawn},
                   {d->decals_culled, &out->decals_culled},
                   {d->particles_live, &out->particles_live},
                   {d->particles_spawned, &out->particles_spawned}};
    gn_series_stats c;
    for (size_t i = 0; i < sizeof medians / sizeof medians[0]; i++) {
        gn_bench_series(medians[i].col, d->count, tmp, scratch, &c);
        *medians[i].median = c.median;
    }
    gn_bench_series(d->overflow, d->count, tmp, scratch, &c);
    out->overflow_max = c.max;
    free(tmp);
    free(scratch);
    return true;
}

static void gn_bench_row(FILE *f, const char *name, const gn_series_stats *s)
{
    fprintf(f, "%-22.31s %9.3f %9.3f %9.3f %9.3f\n", name, s->min, s->median, s->p99, s->max);
}

/* A nearest-rank median is one frame's value, so a count's median prints as an integer. */
static uint64_t gn_bench_count(double v) { return isfinite(v) && v > 0 ? (uint64_t)llround(v) : 0; }

void gn_bench_print_table(FILE *f, const gn_bench_summary *s)
{
    char a[32], b[32];
    fprintf(f, "%-22s %9s %9s %9s %9s\n", "pass (GPU ms)", "min", "median", "p99", "max");
    for (uint32_t i = 0; i < s->pass_count; i++) gn_bench_row(f, s->pass_names[i], &s->pass[i]);
    gn_bench_row(f, "frame GPU", &s->frame);
    gn_bench_row(f, "frame CPU", &s->cpu);
    gn_bench_row(f, "visibility CPU", &s->visibility);
    if (s->probes.max > 0.0) gn_bench_row(f, "probes (wall)", &s->probes);
    if (s->materials.max > 0.0) gn_bench_row(f, "materials CPU", &s->materials);
    if (s->animation.max > 0.0) gn_bench_row(f, "animation CPU", &s->animation);
    gn_bench_row(f, "shadow GPU", &s->shadow);
    fprintf(f, "%-22s %.2fx\n", "frame spike max/med", s->frame_spike);
    if (s->vsm_requested_median > 0 || s->vsm_rendered_max > 0)
        fprintf(f,
                "%-22s requested %.0f (median), rendered %.0f median / %.0f max, overflow max %.0f, sun lag "
                "max %.4f deg\n",
                "vsm pages", s->vsm_requested_median, s->vsm_rendered_median, s->vsm_rendered_max,
                s->vsm_overflow_max, s->vsm_lag_max);
    fprintf(f, "%-22s %s\n", "draws (median)", gn_report_count(gn_bench_count(s->draws), a, sizeof a));
    fprintf(f, "%-22s %s\n", "triangles (median)",
            gn_report_count(gn_bench_count(s->triangles), a, sizeof a));
    fprintf(f, "%-22s %s / %s\n", "instances visible",
            gn_report_count(gn_bench_count(s->visible), a, sizeof a),
            gn_report_count(s->instances_total, b, sizeof b));
    fprintf(f, "%-22s %s (phase 1 %.0f, phase 2 %.0f: medians)\n", "instances drawn",
            gn_report_count(gn_bench_count(s->drawn), a, sizeof a), s->phase1, s->phase2);
    if (s->clusters > 0)
        fprintf(f, "%-22s %s (median; instances drawn counts them)\n", "clusters drawn",
                gn_report_count(gn_bench_count(s->clusters), a, sizeof a));
    fprintf(f, "%-22s %s\n", "draw groups (median)",
            gn_report_count(gn_bench_count(s->draw_groups), a, sizeof a));
    fprintf(f, "%-22s %s (most dropped in a frame: %s)\n", "lights (median)",
            gn_report_count(gn_bench_count(s->lights), a, sizeof a),
            gn_report_count(gn_bench_count(s->overflow_max), b, sizeof b));
    if (s->decals_drawn > 0 || s->decals_culled > 0)
        fprintf(f, "%-22s %s drawn, %s culled by the frustum (medians)\n", "decals",
                gn_report_count(gn_bench_count(s->decals_drawn), a, sizeof a),
                gn_report_count(gn_bench_count(s->decals_culled), b, sizeof b));
    if (s->particles_live > 0 || s->particles_spawned > 0)
        fprintf(f, "%-22s %s live, %s spawned a frame (medians)\n", "particles",
                gn_report_count(gn_bench_count(s->particles_live), a, sizeof a),
                gn_report_count(gn_bench_count(s->particles_spawned), b, sizeof b));
}

static void gn_bench_json_stats(gn_json *j, const char *key, const gn_series_stats *s)
{
    gn_json_object_begin(j, key);
    gn_json_number(j, "min_ms", s->min);
    gn_json_number(j, "median_ms", s->median);
    gn_json_number(j, "p99_ms", s->p99);
    gn_json_number(j, "max_ms", s->max);
    gn_json_object_end(j);
}

bool gn_bench_write_json(FILE *f, const gn_bench_meta *m, const gn_bench_summary *s, const gn_bench_data *d)
{
    gn_json j;
    gn_json_begin(&j, f);
    gn_json_object_begin(&j, NULL);
    gn_json_run_header(&j, m->device, m->scene, m->width, m->height, m->msaa);
    gn_json_string(&j, "path", m->path);
    gn_json_uint(&j, "frames", m->frames);
    gn_json_object_begin(&j, "probes");
    gn_json_uint(&j, "count", m->probes.count);
    gn_json_uint(&j, "rendered", (uint32_t)m->probes.rendered);
    gn_json_number(&j, "made_ms", m->probes.made_ms);
    gn_json_uint(&j, "ray_triangles", m->probes.ray_triangles);
    gn_json_object_end(&j);
    gn_json_uint(&j, "frames_timed", s->samples); /* frames whose statistics were seen */
    gn_json_object_begin(&j, "passes");
    for (uint32_t i = 0; i < s->pass_count; i++) gn_bench_json_stats(&j, s->pass_names[i], &s->pass[i]);
    gn_json_object_end(&j);
    gn_bench_json_stats(&j, "frame", &s->frame);
    gn_bench_json_stats(&j, "cpu", &s->cpu);
    gn_bench_json_stats(&j, "visibility_cpu", &s->visibility);
    gn_bench_json_stats(&j, "materials_cpu", &s->materials);
    gn_bench_json_stats(&j, "animation_cpu", &s->animation);
    gn_bench_json_stats(&j, "probes_wall", &s->probes);
    gn_bench_json_stats(&j, "shadow", &s->shadow);
    gn_json_number(&j, "frame_spike", s->frame_spike);
    gn_json_object_begin(&j, "counters");
    gn_json_number(&j, "draws", s->draws);
    gn_json_number(&j, "triangles", s->triangles);
    gn_json_number(&j, "instances_visible", s->visible);
    gn_json_number(&j, "instances_drawn", s->drawn);
    gn_json_number(&j, "instances_phase1", s->phase1);
    gn_json_number(&j, "instances_phase2", s->phase2);
    gn_json_number(&j, "clusters_drawn", s->clusters);
    gn_json_uint(&j, "instances_total", s->instances_total);
    gn_json_number(&j, "draw_groups", s->draw_groups);
    gn_json_number(&j, "lights", s->lights);
    gn_json_number(&j, "light_overflow_max", s->overflow_max);
    gn_json_number(&j, "decals_drawn", s->decals_drawn);
    gn_json_number(&j, "decals_culled", s->decals_culled);
    gn_json_number(&j, "particles_live", s->particles_live);
    gn_json_number(&j, "particles_spawned", s->particles_spawned);
    gn_json_number(&j, "vsm_pages_rendered_median", s->vsm_rendered_median);
    gn_json_number(&j, "vsm_pages_rendered_max", s->vsm_rendered_max);
    gn_json_number(&j, "vsm_sun_lag_max_deg", s->vsm_lag_max);
    gn_json_object_end(&j);
    if (m->floors) gn_bench_floors_json(&j, m->floors, s);
    if (d) {
        gn_json_array_begin(&j, "per_frame");
        for (uint32_t i = 0; i < d->count; i++) {
            const gn_bench_shadow_frame *sf = &d->shadow[i];
            gn_json_object_begin(&j, NULL);
            gn_json_uint(&j, "frame", (uint32_t)d->frame_index[i]);
            gn_json_number(&j, "gpu_ms", d->frame_ms[i]);
            gn_json_number(&j, "cpu_ms", d->cpu_ms[i]);
            gn_json_number(&j, "probes_ms", d->probes_ms[i]);
            gn_json_number(&j, "materials_ms", d->materials_ms[i]);
            gn_json_number(&j, "animation_ms", d->animation_ms[i]);
            gn_json_number(&j, "shadow_ms", sf->shadow_ms);
            gn_json_uint(&j, "vsm_pages_requested", sf->requested);
            gn_json_uint(&j, "vsm_pages_resident", sf->resident);
            gn_json_uint(&j, "vsm_pages_rendered_static", sf->rendered_static);
            gn_json_uint(&j, "vsm_pages_rendered_dynamic", sf->rendered_dynamic);
            gn_json_uint(&j, "vsm_pages_rendered_fresh", sf->rendered_fresh);
            gn_json_uint(&j, "vsm_pages_evicted", sf->evicted);
            gn_json_uint(&j, "vsm_overflow", sf->overflow);
            gn_json_uint(&j, "vsm_pages_waiting", sf->waiting);
            gn_json_uint(&j, "vsm_pairs_phase1", sf->pairs_phase1);
            gn_json_uint(&j, "vsm_pairs_waiting", sf->pairs_waiting);
            gn_json_uint(&j, "vsm_pairs_phase2", sf->pairs_phase2);
            gn_json_number(&j, "vsm_sun_lag_deg", sf->sun_lag_deg);
            gn_json_number(&j, "exposure_ev100", sf->exposure_ev100);
            gn_json_object_end(&j);
        }
        gn_json_array_end(&j);
    }
    gn_json_object_end(&j);
    return gn_json_end(&j);
}

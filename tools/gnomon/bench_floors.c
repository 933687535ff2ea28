/* The floors of gnomon bench --floors; see bench_floors.h. */
#include "bench_floors.h"

#include "report.h"

#include <math.h>
#include <string.h>

/* Which floor each pass of the frame (src/frame.c's pass table) is held against, by name. */
typedef struct gn_floor_rule {
    const char *name;
    bool prefix; /* a family of passes: "csm 0", "csm 1", ... */
    gn_floor_kind kind;
    bool per_sample;
} gn_floor_rule;

static const gn_floor_rule gn_floor_rules[] = {
    /* the scene's triangles into a depth target, as the triangle floor draws them */
    {"depth prepass", true, GN_FLOOR_TRIANGLES, false}, /* and occlusion culling's "depth prepass 2" */
    {"csm ", true, GN_FLOOR_TRIANGLES, false},
    {"vsm pages", false, GN_FLOOR_TRIANGLES, false},
    {"light shadows", false, GN_FLOOR_TRIANGLES, false},
    /* the screen written once: every sample by the forward pass (shaded once a pixel, stored a
     * sample, as the fill floor's constant colour is), every pixel by the compute passes */
    {"forward", false, GN_FLOOR_FILL, true},
    {"tonemap", false, GN_FLOOR_FILL, false},
    {"vsm resolve", false, GN_FLOOR_FILL, false},
    {"distance view", false, GN_FLOOR_FILL, false},
    {"vsm atlas view", false, GN_FLOOR_FILL, false},
    {"occlusion view", false, GN_FLOOR_FILL, false},
    {"overlay", false, GN_FLOOR_FILL, false},
};

gn_floor_kind gn_bench_floor_kind(const char *pass, bool *per_sample)
{
    *per_sample = false;
    for (size_t i = 0; i < sizeof gn_floor_rules / sizeof gn_floor_rules[0]; i++) {
        const gn_floor_rule *r = &gn_floor_rules[i];
        bool match = r->prefix ? strncmp(pass, r->name, strlen(r->name)) == 0 : strcmp(pass, r->name) == 0;
        if (!match) continue;
        *per_sample = r->per_sample;
        return r->kind;
    }
    return GN_FLOOR_NONE;
}

static double gn_floor_min(double a, double b) { return a < b ? a : b; }
static double gn_floor_max(double a, double b) { return a > b ? a : b; }

gn_floors gn_bench_floors_best(const gn_floors *a, const gn_floors *b)
{
    gn_floors f = *a;
    f.triangles_ms = gn_floor_min(a->triangles_ms, b->triangles_ms);
    f.triangles_per_second = gn_floor_max(a->triangles_per_second, b->triangles_per_second);
    f.ms_per_million_triangles = gn_floor_min(a->ms_per_million_triangles, b->ms_per_million_triangles);
    f.fill_ms = gn_floor_min(a->fill_ms, b->fill_ms);
    f.samples_per_second = gn_floor_max(a->samples_per_second, b->samples_per_second);
    f.clear_depth_ms = gn_floor_min(a->clear_depth_ms, b->clear_depth_ms);
    f.clear_color_ms = gn_floor_min(a->clear_color_ms, b->clear_color_ms);
    f.resolve_color_ms = gn_floor_min(a->resolve_color_ms, b->resolve_color_ms);
    f.resolve_depth_ms = gn_floor_min(a->resolve_depth_ms, b->resolve_depth_ms);
    return f;
}

gn_bench_floor_row gn_bench_floor_row_of(const gn_floors *f, const char *pass, double median_ms,
                                         double triangles)
{
    gn_bench_floor_row row = {.floor_ms = NAN, .multiple = NAN};
    row.kind = gn_bench_floor_kind(pass, &row.per_sample);
    double rate = 0;
    if (row.kind == GN_FLOOR_TRIANGLES) {
        row.work = isfinite(triangles) && triangles > 0 ? triangles : NAN; /* none counted */
        rate = f->triangles_per_second;
    } else if (row.kind == GN_FLOOR_FILL) {
        row.work = (double)f->width * f->height * (row.per_sample ? f->msaa : 1);
        rate = f->samples_per_second;
    }
    if (row.work > 0 && isfinite(rate) && rate > 0) row.floor_ms = row.work / rate * 1e3;
    if (isfinite(row.floor_ms) && isfinite(median_ms)) row.multiple = median_ms / row.floor_ms;
    return row;
}

/* ---- the table -------------------------------------------------------------------------------- */

/* One figure's three columns, with `decimals` (rates in M/s: 1, times in ms: 4); "-" where it
 * does not exist (a resolve without MSAA). */
static void gn_floors_figure(FILE *out, const char *name, int decimals, double before, double after,
                             double best, bool exists)
{
    if (!exists) {
        fprintf(out, "%-28s %12s %12s %12s\n", name, "-", "-", "-");
        return;
    }
    fprintf(out, "%-28s %12.*f %12.*f %12.*f\n", name, decimals, before, decimals, after, decimals, best);
}

/* What a pass is held against, in words: the floor, its count and the rate. */
static void gn_floors_against(char *buf, size_t size, const gn_floors *f, const gn_bench_floor_row *row)
{
    char n[32];
    uint32_t samples = row->per_sample ? f->msaa : 1;
    switch (row->kind) {
    case GN_FLOOR_TRIANGLES:
        if (row->work > 0)
            snprintf(buf, size, "triangles: %s at %.1f M/s",
                     gn_report_count((uint64_t)llround(row->work), n, sizeof n),
                     f->triangles_per_second * 1e-6);
        else
            snprintf(buf, size, "triangles: none counted (vsm pages: the GPU decides the draws)");
        return;
    case GN_FLOOR_FILL:
        snprintf(buf, size, "fill: %ux%u x %u sample%s at %.1f M/s", f->width, f->height, samples,
                 samples > 1 ? "s" : "", f->samples_per_second * 1e-6);
        return;
    case GN_FLOOR_NONE:
        break;
    }
    snprintf(buf, size, "-");
}

void gn_bench_floors_print(FILE *out, const gn_bench_floors *fl, const gn_bench_summary *s)
{
    const gn_floors *a = &fl->before, *b = &fl->after, *f = &fl->best;
    char n[32];
    fprintf(out,
            "\nfloors at %ux%u, %ux MSAA (medians of %u runs before and after the run; floor: the better; "
            "a %s-triangle grid, %u fill layers)\n",
            f->width, f->height, f->msaa, f->repeats, gn_report_count(f->triangles, n, sizeof n),
            f->fill_layers);
    fprintf(out, "%-28s %12s %12s %12s\n", "figure", "before", "after", "floor");
    gn_floors_figure(out, "triangles (M/s)", 1, a->triangles_per_second * 1e-6,
                     b->triangles_per_second * 1e-6, f->triangles_per_second * 1e-6, true);
    gn_floors_figure(out, "ms per million triangles", 4, a->ms_per_million_triangles,
                     b->ms_per_million_triangles, f->ms_per_million_triangles, true);
    gn_floors_figure(out, "fill (M samples/s)", 1, a->samples_per_second * 1e-6, b->samples_per_second * 1e-6,
                     f->samples_per_second * 1e-6, true);
    gn_floors_figure(out, "fill, one layer (ms)", 4, a->fill_ms, b->fill_ms, f->fill_ms, true);
    gn_floors_figure(out, "clear depth (ms)", 4, a->clear_depth_ms, b->clear_depth_ms, f->clear_depth_ms,
                     true);
    gn_floors_figure(out, "clear colour (ms)", 4, a->clear_color_ms, b->clear_color_ms, f->clear_color_ms,
                     true);
    gn_floors_figure(out, "resolve colour (ms)", 4, a->resolve_color_ms, b->resolve_color_ms,
                     f->resolve_color_ms, f->msaa > 1);
    gn_floors_figure(out, "resolve depth (ms)", 4, a->resolve_depth_ms, b->resolve_depth_ms,
                     f->resolve_depth_ms, f->msaa > 1);

    fprintf(out, "\n%-22s %10s %10s %9s  %s\n", "pass (GPU median)", "ms", "floor ms", "x floor",
            "held against");
    for (uint32_t i = 0; i < s->pass_count; i++) {
        const char *name = s->pass_names[i];
        gn_bench_floor_row row = gn_bench_floor_row_of(f, name, s->pass[i].median, s->pass_triangles[i]);
        char against[128], floor_ms[32] = "-", multiple[32] = "-";
        gn_floors_against(against, sizeof against, f, &row);
        if (isfinite(row.floor_ms)) snprintf(floor_ms, sizeof floor_ms, "%.4f", row.floor_ms);
        if (isfinite(row.multiple)) snprintf(multiple, sizeof multiple, "%.2fx", row.multiple);
        fprintf(out, "%-22.31s %10.4f %10s %9s  %s\n", name, s->pass[i].median, floor_ms, multiple, against);
    }
}

/* ---- JSON ------------------------------------------------------------------------------------ */

static void gn_floors_json_figures(gn_json *j, const char *key, const gn_floors *f)
{
    bool ms = f->msaa > 1;
    gn_json_object_begin(j, key);
    gn_json_number(j, "triangles_ms", f->triangles_ms);
    gn_json_number(j, "triangles_per_second", f->triangles_per_second);
    gn_json_number(j, "ms_per_million_triangles", f->ms_per_million_triangles);
    gn_json_number(j, "fill_ms", f->fill_ms);
    gn_json_number(j, "samples_per_second", f->samples_per_second);
    gn_json_number(j, "clear_depth_ms", f->clear_depth_ms);
    gn_json_number(j, "clear_color_ms", f->clear_color_ms);
    /* no resolve at msaa 1: null, not a time of 0 */
    gn_json_number(j, "resolve_color_ms", ms ? f->resolve_color_ms : NAN);
    gn_json_number(j, "resolve_depth_ms", ms ? f->resolve_depth_ms : NAN);
    gn_json_object_end(j);
}

static const char *gn_floor_kind_name(gn_floor_kind k)
{
    return k == GN_FLOOR_TRIANGLES ? "triangles" : k == GN_FLOOR_FILL ? "fill" : NULL;
}

void gn_bench_floors_json(gn_json *j, const gn_bench_floors *fl, const gn_bench_summary *s)
{
    const gn_floors *f = &fl->best;
    gn_json_object_begin(j, "floors");
    gn_json_uint(j, "grid_triangles", f->triangles);
    gn_json_uint(j, "fill_layers", f->fill_layers);
    gn_json_uint(j, "repeats", f->repeats);
    gn_json_array_begin(j, "size");
    gn_json_uint(j, NULL, f->width);
    gn_json_uint(j, NULL, f->height);
    gn_json_array_end(j);
    gn_json_uint(j, "msaa", f->msaa);
    gn_floors_json_figures(j, "before", &fl->before);
    gn_floors_json_figures(j, "after", &fl->after);
    gn_floors_json_figures(j, "floor", f);
    gn_json_object_end(j);
    gn_json_object_begin(j, "floor_multiples");
    for (uint32_t i = 0; i < s->pass_count; i++) {
        gn_bench_floor_row row =
            gn_bench_floor_row_of(f, s->pass_names[i], s->pass[i].median, s->pass_triangles[i]);
        gn_json_object_begin(j, s->pass_names[i]);
        gn_json_string(j, "floor", gn_floor_kind_name(row.kind));
        gn_json_number(j, "work", row.kind == GN_FLOOR_NONE ? NAN : row.work);
        gn_json_number(j, "median_ms", s->pass[i].median);
        gn_json_number(j, "floor_ms", row.floor_ms);
        gn_json_number(j, "multiple", row.multiple);
        gn_json_object_end(j);
    }
    gn_json_object_end(j);
}

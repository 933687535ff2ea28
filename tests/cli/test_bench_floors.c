/* Unit tests of gnomon bench --floors' pure parts (bench_floors.c) with made-up floors: which
 * floor each pass of the frame is held against, the floor's time and the multiple, the better of
 * two measurements figure by figure, and the table (a "-" where there is no floor, or no resolve
 * without MSAA). */
#include "bench_floors.h"
#include "check.h"

#include <math.h>
#include <string.h>

/* A device of round numbers: 1 G triangles/s, 100 G samples/s, at 1920x1080 with 4x MSAA. */
static gn_floors gn_made_up(double scale)
{
    return (gn_floors){.width = 1920,
                       .height = 1080,
                       .msaa = 4,
                       .repeats = 5,
                       .triangles = 2097152,
                       .triangles_ms = 2.097152 * scale,
                       .triangles_per_second = 1e9 / scale,
                       .ms_per_million_triangles = 1.0 * scale,
                       .fill_layers = 5,
                       .fill_ms = 0.082944 * scale,
                       .samples_per_second = 1e11 / scale,
                       .clear_depth_ms = 0.01 * scale,
                       .clear_color_ms = 0.02 * scale,
                       .resolve_color_ms = 0.03 * scale,
                       .resolve_depth_ms = 0.04 * scale};
}

static void test_kinds(void)
{
    bool per_sample = true;
    static const char *const triangles[] = {"depth prepass", "csm 0", "csm 7", "vsm pages", "light shadows"};
    for (size_t i = 0; i < sizeof triangles / sizeof triangles[0]; i++) {
        GN_CHECK(gn_bench_floor_kind(triangles[i], &per_sample) == GN_FLOOR_TRIANGLES);
        GN_CHECK(!per_sample);
    }
    GN_CHECK(gn_bench_floor_kind("forward", &per_sample) == GN_FLOOR_FILL && per_sample);
    static const char *const fills[] = {"tonemap", "vsm resolve", "distance view", "vsm atlas view",
                                        "overlay"};
    for (size_t i = 0; i < sizeof fills / sizeof fills[0]; i++) {
        GN_CHECK(gn_bench_floor_kind(fills[i], &per_sample) == GN_FLOOR_FILL);
        GN_CHECK(!per_sample);
    }
    /* compute, copies and the blit: no floor; names are matched whole ("csm" alone is no cascade) */
    static const char *const none[] = {"cull",    "vsm mark",   "vsm alloc",  "vsm bin",       "vsm copy",
                                       "present", "noop 0",     "csm",        "light binning", "forwards",
                                       "",        "depth prep", "tonemap (x)"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        GN_CHECK(gn_bench_floor_kind(none[i], &per_sample) == GN_FLOOR_NONE);
        if (gn_bench_floor_kind(none[i], &per_sample) != GN_FLOOR_NONE) fprintf(stderr, "  '%s'\n", none[i]);
    }
}

static void test_rows(void)
{
    gn_floors f = gn_made_up(1.0);
    /* 841,482 triangles at 1 G/s: 0.841482 ms; a median of 2.87 ms is 3.41x that */
    gn_bench_floor_row row = gn_bench_floor_row_of(&f, "depth prepass", 2.87, 841482);
    GN_CHECK(row.kind == GN_FLOOR_TRIANGLES && row.work == 841482);
    GN_CHECK_NEAR(row.floor_ms, 0.841482, 1e-12);
    GN_CHECK_NEAR(row.multiple, 2.87 / 0.841482, 1e-9);
    /* the forward pass: every sample, 1920 x 1080 x 4 at 100 G/s = 0.082944 ms */
    row = gn_bench_floor_row_of(&f, "forward", 4.27, 841483);
    GN_CHECK(row.kind == GN_FLOOR_FILL && row.per_sample && row.work == 1920.0 * 1080 * 4);
    GN_CHECK_NEAR(row.floor_ms, 0.082944, 1e-12);
    GN_CHECK_NEAR(row.multiple, 4.27 / 0.082944, 1e-9);
    /* the tone map: a pixel each */
    row = gn_bench_floor_row_of(&f, "tonemap", 0.026, 0);
    GN_CHECK(row.kind == GN_FLOOR_FILL && !row.per_sample && row.work == 1920.0 * 1080);
    GN_CHECK_NEAR(row.floor_ms, 0.020736, 1e-12);
    /* no triangles counted (the GPU decides the VSM's page draws), or none drawn: no floor */
    row = gn_bench_floor_row_of(&f, "vsm pages", 0.62, 0);
    GN_CHECK(row.kind == GN_FLOOR_TRIANGLES && isnan(row.work) && isnan(row.floor_ms) && isnan(row.multiple));
    row = gn_bench_floor_row_of(&f, "csm 2", 0.5, NAN);
    GN_CHECK(isnan(row.floor_ms) && isnan(row.multiple));
    /* no sensible floor */
    row = gn_bench_floor_row_of(&f, "cull", 0.1, 1000);
    GN_CHECK(row.kind == GN_FLOOR_NONE && isnan(row.floor_ms) && isnan(row.multiple));
    /* a pass missing from every frame (NAN median) has a floor but no multiple */
    row = gn_bench_floor_row_of(&f, "depth prepass", NAN, 1000);
    GN_CHECK(isfinite(row.floor_ms) && isnan(row.multiple));
}

static void test_best(void)
{
    gn_floors a = gn_made_up(1.0), b = gn_made_up(2.0);
    b.clear_depth_ms = 0.001; /* after the run, one figure was better */
    gn_floors best = gn_bench_floors_best(&b, &a);
    GN_CHECK(best.triangles_per_second == 1e9 && best.triangles_ms == a.triangles_ms);
    GN_CHECK(best.ms_per_million_triangles == 1.0 && best.samples_per_second == 1e11);
    GN_CHECK(best.fill_ms == a.fill_ms && best.clear_color_ms == a.clear_color_ms);
    GN_CHECK(best.clear_depth_ms == 0.001);
    GN_CHECK(best.resolve_color_ms == a.resolve_color_ms && best.resolve_depth_ms == a.resolve_depth_ms);
    GN_CHECK(best.width == 1920 && best.msaa == 4 && best.triangles == 2097152 && best.fill_layers == 5);
}

static bool gn_line_has_digit(const char *s)
{
    for (; *s && *s != '\n'; s++)
        if (*s >= '0' && *s <= '9') return true;
    return false;
}

/* The table of a made-up run: the figures, each pass's multiple or a "-". */
static void test_table(void)
{
    gn_bench_summary s = {.pass_count = 4};
    static const char *const names[] = {"cull", "depth prepass", "forward", "vsm pages"};
    static const double ms[] = {0.1, 2.87, 4.27, 0.62}, tris[] = {0, 841482, 841483, 0};
    for (uint32_t i = 0; i < 4; i++) {
        snprintf(s.pass_names[i], sizeof s.pass_names[i], "%s", names[i]);
        s.pass[i].median = ms[i];
        s.pass_triangles[i] = tris[i];
    }
    gn_bench_floors fl = {.before = gn_made_up(1.0), .after = gn_made_up(1.25)};
    fl.best = gn_bench_floors_best(&fl.before, &fl.after);
    char text[8192];
    for (int msaa1 = 0; msaa1 < 2; msaa1++) {
        if (msaa1) fl.before.msaa = fl.after.msaa = fl.best.msaa = 1;
        FILE *f = tmpfile();
        GN_CHECK(f != NULL);
        if (!f) return;
        gn_bench_floors_print(f, &fl, &s);
        rewind(f);
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
        GN_CHECK(strstr(text, "triangles (M/s)") && strstr(text, "fill (M samples/s)"));
        GN_CHECK(strstr(text, "x floor") && strstr(text, "held against"));
        GN_CHECK(strstr(text, "triangles: 841,482 at 1000.0 M/s"));
        GN_CHECK(strstr(text, "3.41x"));
        GN_CHECK(strstr(text, "triangles: none counted"));
        const char *cull = strstr(text, "\ncull ");
        GN_CHECK(cull && strstr(cull, "-  -\n") && strstr(cull, "-  -\n") < strstr(cull, "depth prepass"));
        const char *resolve = strstr(text, "resolve colour (ms)");
        GN_CHECK(resolve != NULL);
        if (!msaa1) {
            GN_CHECK(strstr(text, "fill: 1920x1080 x 4 samples at 100000.0 M/s"));
            GN_CHECK(resolve && gn_line_has_digit(strchr(resolve, ')') + 1));
        } else {
            GN_CHECK(strstr(text, "fill: 1920x1080 x 1 sample at"));
            GN_CHECK(resolve && !gn_line_has_digit(strchr(resolve, ')') + 1)); /* "-" "-" "-" */
        }
        if (gn_test_failures) fprintf(stderr, "%s", text);
    }
}

int main(void)
{
    test_kinds();
    test_rows();
    test_best();
    test_table();
    return gn_test_result("cli_bench_floors");
}

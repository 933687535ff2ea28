/* Unit tests of the JSON writer and the two documents built on it (render --stats, bench
 * --json). With a folder argument it also writes those documents there, for
 * json_parses.sh to read back with python's json module. */
#include "bench_data.h"
#include "bench_floors.h"
#include "check.h"
#include "json.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Runs fn into a temporary file and returns what it wrote (static buffer). */
static const char *gn_capture(void (*fn)(FILE *f, bool *ok), bool *ok)
{
    static char text[16384];
    FILE *f = tmpfile();
    text[0] = '\0';
    if (!f) return text;
    fn(f, ok);
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* Structure check without a parser: braces and brackets balance outside strings, and no
 * raw control character sits inside a string. */
static bool gn_balanced(const char *s)
{
    int depth = 0;
    bool in_str = false;
    for (const char *p = s; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_str = false;
            else if ((unsigned char)*p < 0x20)
                return false;
            continue;
        }
        if (*p == '"')
            in_str = true;
        else if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']')
            depth--;
        if (depth < 0) return false;
    }
    return depth == 0 && !in_str;
}

static void gn_write_escapes(FILE *f, bool *ok)
{
    gn_json j;
    gn_json_begin(&j, f);
    gn_json_object_begin(&j, NULL);
    gn_json_string(&j, "s",
                   "a\"b\\c\nd\te\x01"
                   "f");
    gn_json_number(&j, "nan", NAN);
    gn_json_number(&j, "inf", INFINITY);
    gn_json_number(&j, "x", 0.125);
    gn_json_uint(&j, "big", 18446744073709551615ull);
    gn_json_bool(&j, "t", true);
    gn_json_string(&j, "null", NULL);
    gn_json_array_begin(&j, "a");
    gn_json_uint(&j, NULL, 1);
    gn_json_uint(&j, NULL, 2);
    gn_json_array_end(&j);
    gn_json_object_begin(&j, "empty");
    gn_json_object_end(&j);
    gn_json_object_end(&j);
    *ok = gn_json_end(&j);
}

static void test_writer(void)
{
    bool ok = false;
    const char *t = gn_capture(gn_write_escapes, &ok);
    GN_CHECK(ok);
    GN_CHECK(gn_balanced(t));
    GN_CHECK(strstr(t, "\"s\": \"a\\\"b\\\\c\\nd\\te\\u0001f\""));
    GN_CHECK(strstr(t, "\"nan\": null"));
    GN_CHECK(strstr(t, "\"inf\": null"));
    GN_CHECK(strstr(t, "\"x\": 0.125"));
    GN_CHECK(strstr(t, "\"big\": 18446744073709551615"));
    GN_CHECK(strstr(t, "\"t\": true"));
    GN_CHECK(strstr(t, "\"null\": null"));
    GN_CHECK(strstr(t, "\"a\": [1, 2]"));
    GN_CHECK(strstr(t, "\"empty\": {}"));
    GN_CHECK(t[0] == '{' && t[strlen(t) - 1] == '\n');
    if (gn_test_failures) fprintf(stderr, "writer output:\n%s", t);
}

static void test_misuse(void)
{
    FILE *f = tmpfile();
    if (!f) return;
    gn_json j;
    gn_json_begin(&j, f);
    gn_json_object_begin(&j, NULL);
    GN_CHECK(!gn_json_end(&j)); /* unclosed */
    gn_json_begin(&j, f);
    gn_json_object_begin(&j, NULL);
    gn_json_uint(&j, NULL, 1); /* a member without a key */
    gn_json_object_end(&j);
    GN_CHECK(!gn_json_end(&j));
    gn_json_begin(&j, f);
    gn_json_array_begin(&j, NULL);
    gn_json_uint(&j, "k", 1); /* an array item with a key */
    gn_json_array_end(&j);
    GN_CHECK(!gn_json_end(&j));
    gn_json_begin(&j, f);
    gn_json_array_begin(&j, NULL);
    gn_json_object_end(&j); /* mismatched close */
    GN_CHECK(!gn_json_end(&j));
    fclose(f);
}

static gn_frame_stats gn_sample_frame(uint64_t index, double scale)
{
    gn_frame_stats s = {.frame_index = index,
                        .pass_count = 3,
                        .gpu_ms = 6.0 * scale,
                        .cpu_ms = 1.25,
                        .instances_total = 5000,
                        .instances_visible = 1200,
                        .draw_groups = 40,
                        .draws = 90,
                        .triangles = 1234567};
    static const char *const names[] = {"shadow \"csm\"", "gbuffer", "lighting"};
    for (int i = 0; i < 3; i++) {
        snprintf(s.passes[i].name, sizeof s.passes[i].name, "%s", names[i]);
        s.passes[i].gpu_ms = (i + 1) * scale;
        s.passes[i].draws = 30;
        s.passes[i].triangles = 411522;
    }
    return s;
}

static void gn_write_render(FILE *f, bool *ok)
{
    gn_frame_stats s = gn_sample_frame(7, 1.0);
    gn_frame_report_meta m = {.device = "GPU \"test\"",
                              .scene = "town",
                              .view = "final",
                              .width = 1280,
                              .height = 720,
                              .msaa = 4,
                              .scene_build_ms = 321.5};
    *ok = gn_frame_report_json(f, &m, &s);
}

static void gn_write_bench(FILE *f, bool *ok)
{
    gn_bench_data d;
    *ok = gn_bench_data_init(&d, 16);
    for (uint64_t i = 0; i < 9 && *ok; i++) {
        gn_frame_stats s = gn_sample_frame(i, 1.0 + 0.1 * (double)i);
        gn_bench_data_add(&d, &s);
    }
    gn_bench_summary sum;
    gn_bench_meta m = {.device = "GPU",
                       .scene = "town",
                       .path = "walk-sun",
                       .width = 1920,
                       .height = 1080,
                       .msaa = 4,
                       .frames = 9};
    *ok = *ok && gn_bench_summarize(&d, &sum) && gn_bench_write_json(f, &m, &sum, &d);
    gn_bench_data_free(&d);
}

/* bench.json again, as --floors writes it: the floors and each pass against its floor. */
static void gn_write_bench_floors(FILE *f, bool *ok)
{
    gn_bench_data d;
    *ok = gn_bench_data_init(&d, 16);
    for (uint64_t i = 0; i < 9 && *ok; i++) {
        gn_frame_stats s = gn_sample_frame(i, 1.0 + 0.1 * (double)i);
        snprintf(s.passes[1].name, sizeof s.passes[1].name, "depth prepass"); /* held against the triangles */
        snprintf(s.passes[2].name, sizeof s.passes[2].name, "forward");       /* ... and the fill floor */
        gn_bench_data_add(&d, &s);
    }
    gn_floors before = {.width = 1920,
                        .height = 1080,
                        .msaa = 4,
                        .repeats = 5,
                        .triangles = 2097152,
                        .triangles_ms = 2.097152,
                        .triangles_per_second = 1e9,
                        .ms_per_million_triangles = 1.0,
                        .fill_layers = 5,
                        .fill_ms = 0.082944,
                        .samples_per_second = 1e11,
                        .clear_depth_ms = 0.01,
                        .clear_color_ms = 0.02,
                        .resolve_color_ms = 0.03,
                        .resolve_depth_ms = 0.04};
    gn_floors after = before;
    after.triangles_ms *= 2, after.triangles_per_second /= 2, after.ms_per_million_triangles *= 2;
    after.clear_depth_ms = 0.005;
    gn_bench_floors fl = {.before = before, .after = after, .best = gn_bench_floors_best(&before, &after)};
    gn_bench_summary sum;
    gn_bench_meta m = {.device = "GPU",
                       .scene = "town",
                       .path = "static",
                       .width = 1920,
                       .height = 1080,
                       .msaa = 4,
                       .frames = 9,
                       .floors = &fl};
    *ok = *ok && gn_bench_summarize(&d, &sum) && gn_bench_write_json(f, &m, &sum, &d);
    gn_bench_data_free(&d);
}

static void test_documents(void)
{
    bool ok = false;
    const char *t = gn_capture(gn_write_render, &ok);
    GN_CHECK(ok && gn_balanced(t));
    GN_CHECK(strstr(t, "\"device\": \"GPU \\\"test\\\"\""));
    GN_CHECK(strstr(t, "\"size\": [1280, 720]"));
    GN_CHECK(strstr(t, "\"shadow \\\"csm\\\"\": {"));
    GN_CHECK(strstr(t, "\"triangles\": 1234567"));
    GN_CHECK(strstr(t, "\"instances_visible\": 1200"));
    t = gn_capture(gn_write_bench, &ok);
    GN_CHECK(ok && gn_balanced(t));
    static const char *const keys[] = {"\"device\"",
                                       "\"scene\"",
                                       "\"size\"",
                                       "\"msaa\"",
                                       "\"path\": \"walk-sun\"",
                                       "\"frames\": 9",
                                       "\"passes\"",
                                       "\"frame\"",
                                       "\"cpu\"",
                                       "\"counters\"",
                                       "\"min_ms\"",
                                       "\"median_ms\"",
                                       "\"p99_ms\"",
                                       "\"max_ms\"",
                                       "\"draws\"",
                                       "\"triangles\"",
                                       "\"instances_visible\"",
                                       "\"instances_total\": 5000",
                                       "\"draw_groups\""};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        GN_CHECK(strstr(t, keys[i]));
        if (!strstr(t, keys[i])) fprintf(stderr, "  missing %s\n", keys[i]);
    }
}

static bool gn_write_file(const char *dir, const char *name, void (*fn)(FILE *f, bool *ok))
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) return false;
    bool ok = false;
    fn(f, &ok);
    return fclose(f) == 0 && ok;
}

int main(int argc, char **argv)
{
    test_writer();
    test_misuse();
    test_documents();
    if (argc > 1) {
        GN_CHECK(gn_write_file(argv[1], "escapes.json", gn_write_escapes));
        GN_CHECK(gn_write_file(argv[1], "render_stats.json", gn_write_render));
        GN_CHECK(gn_write_file(argv[1], "bench.json", gn_write_bench));
        GN_CHECK(gn_write_file(argv[1], "bench_floors.json", gn_write_bench_floors));
    }
    return gn_test_result("cli_json");
}

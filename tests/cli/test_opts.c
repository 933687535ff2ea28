/* Unit tests of gnomon's option parsing: defaults, every kind of value, every range, and
 * that each error message names the option and the bad value. */
#include "check.h"
#include "cmd_opts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* argc, argv of a literal list: GN_ARGS("--size", "abc") */
#define GN_ARGS(...)                                                                                         \
    (int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *)), (char *[]) { __VA_ARGS__ }

static char gn_err[1024];

static gn_parse_status parse_render(int argc, char **argv, gn_render_opts *o)
{
    return gn_render_opts_parse(argc, argv, o, gn_err, sizeof gn_err);
}

static gn_parse_status parse_bench(int argc, char **argv, gn_bench_opts *o)
{
    return gn_bench_opts_parse(argc, argv, o, gn_err, sizeof gn_err);
}

/* A render parse that must fail with a message containing each of the given pieces. */
static void render_fails(int argc, char **argv, const char *piece1, const char *piece2)
{
    gn_render_opts o;
    gn_parse_status s = parse_render(argc, argv, &o);
    GN_CHECK(s == GN_PARSE_ERROR);
    GN_CHECK(strncmp(gn_err, "gnomon render: ", 15) == 0);
    GN_CHECK(strstr(gn_err, piece1) != NULL);
    GN_CHECK(!piece2 || strstr(gn_err, piece2) != NULL);
    if (s != GN_PARSE_ERROR || !strstr(gn_err, piece1) || (piece2 && !strstr(gn_err, piece2)))
        fprintf(stderr, "  message was: %s\n", gn_err);
}

static void bench_fails(int argc, char **argv, const char *piece1, const char *piece2)
{
    gn_bench_opts o;
    GN_CHECK(parse_bench(argc, argv, &o) == GN_PARSE_ERROR);
    GN_CHECK(strncmp(gn_err, "gnomon bench: ", 14) == 0);
    GN_CHECK(strstr(gn_err, piece1) != NULL);
    GN_CHECK(!piece2 || strstr(gn_err, piece2) != NULL);
}

static void test_render_defaults(void)
{
    gn_render_opts o;
    GN_CHECK(parse_render(GN_ARGS("--out", "out/town.png"), &o) == GN_PARSE_OK);
    GN_CHECK(strcmp(o.frame.scene, "town") == 0);
    GN_CHECK(o.frame.size[0] == 1280 && o.frame.size[1] == 720);
    GN_CHECK(o.frame.msaa == 4 && o.frame.seed == 1 && o.frame.scale == 1);
    GN_CHECK(!o.frame.time_set && !o.frame.camera_set && !o.frame.latitude_set && o.stats == NULL);
    GN_CHECK(strcmp(o.out, "out/town.png") == 0);
    gn_frame_desc f;
    gn_render_opts_frame(&o, &f);
    GN_CHECK(f.camera.fov_y == 0.0f && f.time_of_day == 18.5f && f.view == GN_VIEW_FINAL &&
             f.tonemap == GN_TONEMAP_ACES);
    GN_CHECK(f.latitude == 0.0f && f.day_of_year == 0 && f.exposure == 0.0f);
    GN_CHECK(f.camera_exposure.mode == GN_EXPOSURE_AUTO && f.camera_exposure.ev100 == 0.0f);
}

static void test_exposure_values(void)
{
    gn_render_opts e;
    gn_frame_desc g;
    /* a camera's settings make a fixed exposure; EV100 0 stays a value, not the default */
    GN_CHECK(parse_render(GN_ARGS("--aperture", "16", "--shutter", "0.01", "--iso", "100", "--out", "a.png"),
                          &e) == GN_PARSE_OK);
    gn_render_opts_frame(&e, &g);
    GN_CHECK(g.camera_exposure.mode == GN_EXPOSURE_FIXED && g.camera_exposure.aperture == 16.0f);
    GN_CHECK(parse_render(GN_ARGS("--exposure", "0", "--out", "a.png"), &e) == GN_PARSE_OK);
    gn_render_opts_frame(&e, &g);
    GN_CHECK(g.camera_exposure.mode == GN_EXPOSURE_FIXED && g.camera_exposure.ev100 != 0.0f &&
             fabsf(g.camera_exposure.ev100) < 1e-6f);
    GN_CHECK(parse_render(GN_ARGS("--exposure", "auto", "--out", "a.png"), &e) == GN_PARSE_OK);
    gn_render_opts_frame(&e, &g);
    GN_CHECK(g.camera_exposure.mode == GN_EXPOSURE_AUTO);
}

static void test_render_values(void)
{
    gn_render_opts o;
    GN_CHECK(
        parse_render(GN_ARGS("--scene", "town", "--size", "640x480", "--time", "0", "--camera",
                             "1.5,-2,3e1,45,-89", "--msaa", "8", "--view", "normals", "--tonemap", "clip",
                             "--exposure", "-1.5", "--ev-comp", "0.5", "--seed", "4294967295", "--scale",
                             "64", "--latitude", "0", "--day", "365", "--out=a.png", "--stats", "s.json"),
                     &o) == GN_PARSE_OK);
    GN_CHECK(o.frame.size[0] == 640 && o.frame.size[1] == 480);
    GN_CHECK(o.frame.time_set && o.frame.time == 0.0f);
    GN_CHECK(o.frame.camera_set && o.frame.camera[0] == 1.5f && o.frame.camera[1] == -2.0f &&
             o.frame.camera[2] == 30.0f);
    GN_CHECK(o.frame.camera[3] == 45.0f && o.frame.camera[4] == -89.0f);
    GN_CHECK(o.frame.msaa == 8 && o.view == GN_VIEW_NORMALS && o.frame.seed == 4294967295u &&
             o.frame.scale == 64);
    GN_CHECK(o.post.ev100 == -1.5f && o.frame.day == 365 && o.frame.latitude_set);
    GN_CHECK(strcmp(o.out, "a.png") == 0 && strcmp(o.stats, "s.json") == 0);
    gn_frame_desc f;
    gn_render_opts_frame(&o, &f);
    GN_CHECK(f.camera_exposure.mode == GN_EXPOSURE_FIXED && f.camera_exposure.ev100 == -1.5f &&
             f.exposure == 0.5f);
    GN_CHECK(f.camera.fov_y == GN_CLI_FOV_Y && f.camera.position[2] == 30.0f && f.camera.yaw == 45.0f &&
             f.camera.pitch == -89.0f);
    GN_CHECK(f.time_of_day == 24.0f); /* --time 0: midnight, which gnomon.h spells 24 */
    GN_CHECK(f.tonemap == GN_TONEMAP_CLIP && f.view == GN_VIEW_NORMALS && f.day_of_year == 365);
    /* Latitude 0 must not read as the default 45: the equator is a latitude under 1e-3 there. */
    GN_CHECK(f.latitude != 0.0f && fabsf(f.latitude) < 1e-3f);

    GN_CHECK(parse_render(
                 GN_ARGS("--out", "a.png", "--size", "16X16384", "--tonemap", "reinhard", "--size", "32x32"),
                 &o) == GN_PARSE_OK);
    GN_CHECK(o.frame.size[0] == 32 && o.frame.size[1] == 32); /* a later repeat wins */
    gn_render_opts_frame(&o, &f);
    GN_CHECK(f.tonemap == GN_TONEMAP_REINHARD);
    GN_CHECK(parse_render(GN_ARGS("--out", "a.png", "--time", "24", "--latitude", "-90", "--msaa", "1"),
                          &o) == GN_PARSE_OK);
    GN_CHECK(o.frame.time == 24.0f && o.frame.latitude == -90.0f && o.frame.msaa == 1);
}

static void test_render_errors(void)
{
    gn_render_opts o;
    GN_CHECK(parse_render(GN_ARGS("--size", "abc", "--out", "/tmp/x.png"), &o) == GN_PARSE_ERROR);
    GN_CHECK(strcmp(gn_err, "gnomon render: --size expects WxH, got 'abc'") == 0);
    render_fails(GN_ARGS("--size", "100x", "--out", "a.png"), "--size", "'100x'");
    render_fails(GN_ARGS("--size", "x100", "--out", "a.png"), "--size", "'x100'");
    render_fails(GN_ARGS("--size", "-5x5", "--out", "a.png"), "--size", "'-5x5'");
    render_fails(GN_ARGS("--size", "8x8", "--out", "a.png"), "--size", "16..16384");
    render_fails(GN_ARGS("--size", "16x16385", "--out", "a.png"), "--size", "16..16384");
    render_fails(GN_ARGS("--size", "99999999999999999999x5", "--out", "a.png"), "--size", NULL);
    render_fails(GN_ARGS("--msaa", "3", "--out", "a.png"), "--msaa", "1, 2, 4, 8");
    render_fails(GN_ARGS("--msaa", "16", "--out", "a.png"), "--msaa", "'16'");
    render_fails(GN_ARGS("--msaa", "0", "--out", "a.png"), "--msaa", "'0'");
    render_fails(GN_ARGS("--time", "25", "--out", "a.png"), "--time", "0..24");
    render_fails(GN_ARGS("--time", "-1", "--out", "a.png"), "--time", "'-1'");
    render_fails(GN_ARGS("--time", "noon", "--out", "a.png"), "--time", "'noon'");
    render_fails(GN_ARGS("--time", "nan", "--out", "a.png"), "--time", NULL);
    render_fails(GN_ARGS("--time", "12abc", "--out", "a.png"), "--time", NULL);
    render_fails(GN_ARGS("--camera", "1,2,3", "--out", "a.png"), "--camera", "x,y,z,yaw,pitch");
    render_fails(GN_ARGS("--camera", "1,2,3,4,5,6", "--out", "a.png"), "--camera", NULL);
    render_fails(GN_ARGS("--camera", "1,2,,4,5", "--out", "a.png"), "--camera", NULL);
    render_fails(GN_ARGS("--camera", "0,0,0,0,90", "--out", "a.png"), "--camera", "-89..89");
    render_fails(GN_ARGS("--view", "wireframe", "--out", "a.png"), "--view", "final, depth, normals, albedo");
    render_fails(GN_ARGS("--tonemap", "filmic", "--out", "a.png"), "--tonemap", "'filmic'");
    render_fails(GN_ARGS("--exposure", "100", "--out", "a.png"), "--exposure", "auto or a number");
    render_fails(GN_ARGS("--exposure", "bright", "--out", "a.png"), "--exposure", "'bright'");
    render_fails(GN_ARGS("--seed", "-1", "--out", "a.png"), "--seed", "'-1'");
    render_fails(GN_ARGS("--seed", "4294967296", "--out", "a.png"), "--seed", NULL);
    render_fails(GN_ARGS("--scale", "0", "--out", "a.png"), "--scale", "1..64");
    render_fails(GN_ARGS("--scale", "65", "--out", "a.png"), "--scale", NULL);
    render_fails(GN_ARGS("--latitude", "91", "--out", "a.png"), "--latitude", "-90..90");
    render_fails(GN_ARGS("--day", "0", "--out", "a.png"), "--day", "1..365");
    render_fails(GN_ARGS("--day", "366", "--out", "a.png"), "--day", NULL);
    render_fails(GN_ARGS("--frobnicate", "--out", "a.png"), "unknown option '--frobnicate'", NULL);
    render_fails(GN_ARGS("--out", "a.png", "--size=abc"), "--size", "'abc'");
    render_fails(GN_ARGS("--out", "a.png", "--sizes=1x1"), "unknown option '--sizes'", NULL);
    render_fails(GN_ARGS("--out", "a.png", "extra"), "unexpected argument 'extra'", NULL);
    render_fails(GN_ARGS("--out"), "--out", "expects a value");
    render_fails(GN_ARGS("--out="), "--out", "empty");
    render_fails(GN_ARGS("--size", "64x64"), "--out", "required");
    render_fails(GN_ARGS("--scene", "moon", "--out", "a.png"), "unknown scene 'moon'", "town");
}

static void test_help(void)
{
    gn_render_opts o;
    GN_CHECK(parse_render(GN_ARGS("--help"), &o) == GN_PARSE_HELP);
    GN_CHECK(parse_render(GN_ARGS("--size", "abc", "-h"), &o) == GN_PARSE_HELP); /* help wins */
    gn_bench_opts b;
    GN_CHECK(parse_bench(GN_ARGS("--help"), &b) == GN_PARSE_HELP);
    GN_CHECK(gn_info_opts_parse(GN_ARGS("--help"), gn_err, sizeof gn_err) == GN_PARSE_HELP);

    /* The help text is generated from the option tables: every option must appear. */
    static const char *const render_names[] = {"--scene",    "--size",    "--time",     "--camera", "--msaa",
                                               "--view",     "--tonemap", "--exposure", "--seed",   "--scale",
                                               "--latitude", "--day",     "--out",      "--stats",  "--help"};
    static const char *const bench_names[] = {"--scene", "--size", "--frames", "--warmup",
                                              "--path",  "--msaa", "--seed",   "--scale",
                                              "--json",  "--plot", "--floors", "--help"};
    char text[32768];
    FILE *f = tmpfile();
    GN_CHECK(f != NULL);
    if (!f) return;
    gn_render_opts_help(f);
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    for (size_t i = 0; i < sizeof render_names / sizeof render_names[0]; i++)
        GN_CHECK(strstr(text, render_names[i]));
    GN_CHECK(strstr(text, "usage: gnomon render"));
    fclose(f);
    f = tmpfile();
    if (!f) return;
    gn_bench_opts_help(f);
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    for (size_t i = 0; i < sizeof bench_names / sizeof bench_names[0]; i++)
        GN_CHECK(strstr(text, bench_names[i]));
    fclose(f);
}

static void test_bench(void)
{
    gn_bench_opts o;
    GN_CHECK(parse_bench(GN_ARGS("--msaa", "4"), &o) == GN_PARSE_OK);
    GN_CHECK(o.size[0] == 1920 && o.size[1] == 1080 && o.frames == 300 && o.warmup == 10);
    GN_CHECK(o.path == GN_PATH_STATIC && o.msaa == 4 && o.json == NULL && o.plot == NULL);
    GN_CHECK(
        parse_bench(GN_ARGS("--path", "walk-sun", "--frames", "100000", "--warmup", "0", "--json", "b.json",
                            "--plot", "b.png", "--scale", "8", "--seed", "3", "--size", "800x600"),
                    &o) == GN_PARSE_OK);
    GN_CHECK(o.path == GN_PATH_WALK_SUN && o.frames == 100000 && o.warmup == 0 && o.scale == 8 &&
             o.seed == 3);
    GN_CHECK(strcmp(o.json, "b.json") == 0 && strcmp(o.plot, "b.png") == 0 && o.size[0] == 800);
    GN_CHECK(!o.floors);
    /* --floors is a flag: it takes no value, so the next argument is an option again */
    GN_CHECK(parse_bench(GN_ARGS("--floors", "--frames", "5"), &o) == GN_PARSE_OK && o.floors &&
             o.frames == 5);
    GN_CHECK(parse_bench(GN_ARGS("--frames", "5", "--floors"), &o) == GN_PARSE_OK && o.floors);
    bench_fails(GN_ARGS("--floors=off"), "--floors takes no value, got 'off'", NULL);
    bench_fails(GN_ARGS("--floors", "1"), "unexpected argument '1'", NULL);
    GN_CHECK(strcmp(gn_bench_path_name(GN_PATH_SUN), "sun") == 0);
    GN_CHECK(strcmp(gn_bench_path_name(GN_PATH_WALK_SUN), "walk-sun") == 0);
    bench_fails(GN_ARGS("--frames", "0"), "--frames", "1..100000");
    bench_fails(GN_ARGS("--frames", "100001"), "--frames", NULL);
    bench_fails(GN_ARGS("--warmup", "x"), "--warmup", "'x'");
    bench_fails(GN_ARGS("--path", "run"), "--path", "static, sun, walk, walk-sun");
    bench_fails(GN_ARGS("--msaa", "3"), "--msaa", "'3'");
    bench_fails(GN_ARGS("--out", "x.png"), "unknown option '--out'", NULL); /* render's, not bench's */
    bench_fails(GN_ARGS("--scene", "moon"), "unknown scene 'moon'", NULL);
    GN_CHECK(gn_info_opts_parse(GN_ARGS("--verbose"), gn_err, sizeof gn_err) == GN_PARSE_ERROR);
    GN_CHECK(strstr(gn_err, "gnomon info: unknown option '--verbose'"));
    GN_CHECK(gn_info_opts_parse(0, NULL, gn_err, sizeof gn_err) == GN_PARSE_OK);
}

int main(void)
{
    test_render_defaults();
    test_render_values();
    test_exposure_values();
    test_render_errors();
    test_help();
    test_bench();
    return gn_test_result("cli_opts");
}

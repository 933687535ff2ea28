/* Unit tests of the ambient occlusion comparison (aocmp.c) on made-up images, and of the aoref /
 * aocheck option tables. */
#include "aocmp.h"
#include "check.h"
#include "cmd_opts.h"
#include "truth.h"

#include <math.h>
#include <string.h>

#define GN_ARGS(...)                                                                                         \
    (int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *)), (char *[]) { __VA_ARGS__ }

#define N 1000

static float sao[N], truth[N];
static uint8_t counted[N];

static void test_equal(void)
{
    for (int i = 0; i < N; i++) truth[i] = sao[i] = 0.5f + 0.5f * (float)i / N;
    gn_ao_agreement a;
    gn_ao_compare(sao, truth, NULL, N, &a);
    GN_CHECK(a.pixels == N && a.not_finite == 0);
    GN_CHECK(a.mae == 0.0 && a.halo == 0.0);
    GN_CHECK_NEAR(a.correlation, 1.0, 1e-12);
    GN_CHECK_NEAR(a.mean_sao, a.mean_truth, 1e-12);
    GN_CHECK_NEAR(a.mean_truth, 0.75 - 0.25 / N, 1e-6);
}

/* A constant offset: the error is the offset, the correlation still 1; darker by more than the
 * margin everywhere: every pixel a halo. */
static void test_offset(void)
{
    for (int i = 0; i < N; i++) truth[i] = 0.5f + 0.4f * (float)i / N, sao[i] = truth[i] - 0.25f;
    gn_ao_agreement a;
    gn_ao_compare(sao, truth, NULL, N, &a);
    GN_CHECK_NEAR(a.mae, 0.25, 1e-6);
    GN_CHECK_NEAR(a.correlation, 1.0, 1e-9);
    GN_CHECK_NEAR(a.mean_truth - a.mean_sao, 0.25, 1e-6);
    GN_CHECK(a.halo == 1.0);
    /* brighter instead: no halo at all */
    for (int i = 0; i < N; i++) sao[i] = truth[i] + 0.25f;
    gn_ao_compare(sao, truth, NULL, N, &a);
    GN_CHECK(a.halo == 0.0);
    GN_CHECK_NEAR(a.mae, 0.25, 1e-6);
    /* reversed: correlation -1 */
    for (int i = 0; i < N; i++) sao[i] = 1.4f - truth[i];
    gn_ao_compare(sao, truth, NULL, N, &a);
    GN_CHECK_NEAR(a.correlation, -1.0, 1e-9);
}

/* Pearson's r of a worked example: x = 1, 2, 3, 4, 5 and y = 2, 4, 5, 4, 5 has r = 0.7746 (6 /
 * sqrt(10 * 6)), whatever the offset and scale of either; the halo margin is a gap over 0.2. */
static void test_worked(void)
{
    float x[5] = {0.2f, 0.3f, 0.4f, 0.5f, 0.6f}, y[5] = {0.2f, 0.4f, 0.5f, 0.4f, 0.5f};
    gn_ao_agreement a;
    gn_ao_compare(x, y, NULL, 5, &a);
    GN_CHECK_NEAR(a.correlation, 6.0 / sqrt(60.0), 1e-6);
    GN_CHECK_NEAR(a.mae, (0.0 + 0.1 + 0.1 + 0.1 + 0.1) / 5.0, 1e-6);
    GN_CHECK(a.halo == 0.0);
    float s2[2] = {0.5f, 0.29f}, t2[2] = {0.5f, 0.5f};
    gn_ao_compare(s2, t2, NULL, 2, &a);
    GN_CHECK(a.halo == 0.5);
    GN_CHECK(a.correlation == 0.0); /* the truth is constant: no correlation to speak of */
}

/* Pixels that do not count are left out, NaN SAO is counted apart. */
static void test_mask(void)
{
    for (int i = 0; i < N; i++) {
        truth[i] = 0.8f, sao[i] = 0.8f, counted[i] = i % 2 == 0;
        if (i % 2) sao[i] = 0.0f; /* wildly wrong, but not counted */
    }
    sao[10] = NAN;
    sao[12] = INFINITY;
    sao[11] = NAN; /* not counted either way */
    gn_ao_agreement a;
    gn_ao_compare(sao, truth, counted, N, &a);
    GN_CHECK(a.pixels == N / 2 - 2 && a.not_finite == 2);
    GN_CHECK(a.mae == 0.0 && a.halo == 0.0);
    gn_ao_compare(sao, truth, counted, 0, &a);
    GN_CHECK(a.pixels == 0 && a.mae == 0.0 && a.correlation == 0.0);
    for (int i = 0; i < N; i++) counted[i] = 0;
    gn_ao_compare(sao, truth, counted, N, &a);
    GN_CHECK(a.pixels == 0 && a.mean_sao == 0.0 && a.mean_truth == 0.0);
}

static void test_pictures(void)
{
    GN_CHECK(gn_ao_grey(1.0f) == 255 && gn_ao_grey(0.0f) == 0 && gn_ao_grey(2.0f) == 255);
    GN_CHECK(gn_ao_grey(-1.0f) == 0 && gn_ao_grey(NAN) == 0 && gn_ao_grey(0.5f) == 128);
    float s[4] = {0.5f, 0.2f, 0.9f, NAN}, t[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    uint8_t c[4] = {1, 1, 1, 1}, rgba[16];
    gn_ao_diff_rgba(s, t, c, 4, rgba);
    GN_CHECK(rgba[0] == 128 && rgba[1] == 128 && rgba[2] == 128 && rgba[3] == 255); /* equal */
    GN_CHECK(rgba[4] >= 51 && rgba[4] <= 52 && rgba[5] == rgba[4]); /* 0.3 darker: 128 - 76.5 */
    GN_CHECK(rgba[8] == 230);                                       /* 0.4 brighter */
    GN_CHECK(rgba[12] == 64 && rgba[13] == 96 && rgba[14] == 192);  /* not finite */
    c[0] = 0;
    gn_ao_diff_rgba(s, t, c, 1, rgba);
    GN_CHECK(rgba[0] == 64 && rgba[2] == 192); /* not counted */
    gn_ao_grey_rgba(s, 3, rgba);
    GN_CHECK(rgba[0] == 128 && rgba[4] == 51 && rgba[8] == 230 && rgba[11] == 255);
}

static void test_opts(void)
{
    char err[512];
    gn_aocheck_opts c;
    GN_CHECK(gn_aocheck_opts_parse(0, NULL, &c, err, sizeof err) == GN_PARSE_OK);
    GN_CHECK(c.views == 1 && c.rays == GN_TRUTH_AO_DEFAULT_RAYS && !c.max_mae_set && !c.min_correlation_set);
    GN_CHECK(c.ao.radius == 0.0f && c.ao.bias == 0.0f && c.ao.intensity == 0.0f && !c.json && !c.out_dir);
    GN_CHECK(gn_aocheck_opts_parse(GN_ARGS("--views", "3", "--max-mae", "0.08", "--min-correlation", "0.7",
                                           "--ao-radius", "2", "--ao-intensity", "1.5", "--ao-bias", "0.05",
                                           "--rays", "256", "--json", "a.json", "--out-dir", "d"),
                                   &c, err, sizeof err) == GN_PARSE_OK);
    GN_CHECK(c.views == 3 && c.rays == 256 && c.max_mae_set && c.min_correlation_set);
    GN_CHECK_NEAR(c.max_mae, 0.08, 1e-6);
    GN_CHECK_NEAR(c.min_correlation, 0.7, 1e-6);
    GN_CHECK(strcmp(c.json, "a.json") == 0 && strcmp(c.out_dir, "d") == 0);
    gn_ao_desc d = {0};
    gn_ao_frame_opts_apply(&c.ao, &d);
    GN_CHECK(d.radius == 2.0f && d.intensity == 1.5f && d.bias == 0.05f && !d.off);
    GN_CHECK(gn_aocheck_opts_parse(GN_ARGS("--views", "5"), &c, err, sizeof err) == GN_PARSE_ERROR);
    GN_CHECK(strstr(err, "gnomon aocheck: --views") != NULL);
    GN_CHECK(gn_aocheck_opts_parse(GN_ARGS("--min-correlation", "-2"), &c, err, sizeof err) ==
             GN_PARSE_ERROR);
    GN_CHECK(gn_aocheck_opts_parse(GN_ARGS("--rays", "0"), &c, err, sizeof err) == GN_PARSE_ERROR);
    GN_CHECK(gn_aocheck_opts_parse(GN_ARGS("--out", "x.png"), &c, err, sizeof err) == GN_PARSE_ERROR);
    GN_CHECK(gn_aocheck_opts_parse(GN_ARGS("--help"), &c, err, sizeof err) == GN_PARSE_HELP);

    gn_aoref_opts r;
    GN_CHECK(gn_aoref_opts_parse(GN_ARGS("--size", "64x32"), &r, err, sizeof err) == GN_PARSE_ERROR);
    GN_CHECK(strstr(err, "gnomon aoref: --out") != NULL);
    GN_CHECK(gn_aoref_opts_parse(GN_ARGS("--out", "t.png", "--rays", "8", "--ao-radius", "0.5"), &r, err,
                                 sizeof err) == GN_PARSE_OK);
    GN_CHECK(r.rays == 8 && r.ao.radius == 0.5f && strcmp(r.out, "t.png") == 0);
    GN_CHECK(gn_aoref_opts_parse(GN_ARGS("--out", "t.png", "--ao-radius", "0"), &r, err, sizeof err) ==
             GN_PARSE_ERROR);
    GN_CHECK(strstr(err, "--ao-radius") != NULL);
    GN_CHECK(gn_aoref_opts_parse(GN_ARGS("--out", "t.png", "--scene", "moon"), &r, err, sizeof err) ==
             GN_PARSE_ERROR);
}

int main(void)
{
    test_equal();
    test_offset();
    test_worked();
    test_mask();
    test_pictures();
    test_opts();
    return gn_test_result("test_aocmp");
}

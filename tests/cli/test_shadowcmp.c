/* Unit tests of the shadow agreement metrics (shadowcmp.c) on made-up masks and renders, and
 * of the shadowref / shadowcheck option tables. */
#include "check.h"
#include "cmd_opts.h"
#include "shadowcmp.h"
#include "truth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GN_ARGS(...)                                                                                         \
    (int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *)), (char *[]) { __VA_ARGS__ }

#define W 32
#define H 16

static uint8_t truth[W * H];
static uint8_t render[W * H * 4];

/* A render whose R channel is r everywhere. */
static void render_fill(uint8_t r)
{
    for (int i = 0; i < W * H; i++) render[4 * i] = r, render[4 * i + 1] = 7, render[4 * i + 2] = 7;
}

/* Truth: columns x < split shadowed, the rest lit. */
static void truth_split(int split)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) truth[y * W + x] = x < split ? GN_TRUTH_SHADOWED : GN_TRUTH_LIT;
}

static void render_split(int split)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) render[4 * (y * W + x)] = x < split ? 0 : 255;
}

static void test_sky_only(void)
{
    memset(truth, GN_TRUTH_SKY, sizeof truth);
    render_fill(0);
    gn_shadow_agreement a;
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK(a.pixels == 0 && a.pixels_off_edge == 0);
    GN_CHECK(a.agreement_all == 0.0 && a.false_lit == 0.0 && a.false_shadow == 0.0);
}

static void test_split(void)
{
    gn_shadow_agreement a;
    truth_split(16);
    render_split(16);
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK(a.pixels == W * H);
    /* edge pixels are columns 15 and 16; within 2 px: columns 13..18 */
    GN_CHECK(a.pixels_off_edge == (W - 6) * H);
    GN_CHECK(a.agreement_all == 1.0 && a.agreement_off_edge == 1.0);
    GN_CHECK(a.false_lit == 0.0 && a.false_shadow == 0.0);

    /* --shadows none: everything rendered lit; false lit is exactly the truth's shadow share */
    render_fill(255);
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK_NEAR(a.false_lit, 0.5, 1e-12);
    GN_CHECK(a.false_shadow == 0.0);
    GN_CHECK_NEAR(a.agreement_all, 0.5, 1e-12);
    GN_CHECK_NEAR(a.agreement_off_edge, 0.5, 1e-12); /* 13 columns either side */

    render_fill(0);
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK_NEAR(a.false_shadow, 0.5, 1e-12);
    GN_CHECK(a.false_lit == 0.0);

    /* an edge one pixel off: wrong on the edge, right off it */
    render_split(17);
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK_NEAR(a.agreement_all, 1.0 - (double)H / (W * H), 1e-12);
    GN_CHECK_NEAR(a.false_shadow, (double)H / (W * H), 1e-12);
    GN_CHECK(a.agreement_off_edge == 1.0);

    /* four columns off: columns 16..19 wrong, and 19 is outside the edge band, so it counts */
    render_split(20);
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK_NEAR(a.agreement_off_edge, 1.0 - (double)H / ((W - 6) * H), 1e-12);
}

/* Lit means R >= 128, whatever G and B say. */
static void test_threshold(void)
{
    gn_shadow_agreement a;
    truth_split(0); /* all lit */
    render_fill(128);
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK(a.agreement_all == 1.0);
    render_fill(127);
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK(a.false_shadow == 1.0 && a.agreement_all == 0.0);
}

/* Sky neither counts nor makes edges, whatever the render shows there. */
static void test_sky_ignored(void)
{
    gn_shadow_agreement a;
    truth_split(0);
    for (int x = 0; x < W; x++) truth[5 * W + x] = GN_TRUTH_SKY;
    for (int x = 0; x < W; x++) truth[6 * W + x] = GN_TRUTH_SHADOWED; /* a shadowed row under the sky */
    render_fill(255);
    for (int x = 0; x < W; x++) render[4 * (6 * W + x)] = 0;
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK(a.pixels == (uint64_t)(W * (H - 1)));
    GN_CHECK(a.agreement_all == 1.0);
    /* row 6 touches lit row 7 (an edge) but not row 5 (sky): rows 4..9 are near an edge, row 4
     * only through row 6 at distance 2 */
    GN_CHECK(a.pixels_off_edge == (uint64_t)(W * (H - 6)));
}

/* The band is a Euclidean disc: next to a one-pixel shadow in a corner, (2,2) is 2.24 px from
 * the nearest edge pixel and counts; (2,1) is 2 px away and does not. */
static void test_disc(void)
{
    gn_shadow_agreement a;
    truth_split(0);
    truth[0] = GN_TRUTH_SHADOWED; /* edge pixels: (0,0), (1,0), (0,1) */
    render_fill(255);
    render[4 * 0] = 0;
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    const int edges[3][2] = {{0, 0}, {1, 0}, {0, 1}};
    uint64_t near = 0;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            bool n = false;
            for (int e = 0; e < 3; e++) {
                int dx = x - edges[e][0], dy = y - edges[e][1];
                n |= dx * dx + dy * dy <= 4;
            }
            near += n;
        }
    }
    GN_CHECK(near == 10); /* by hand: rows 0..3 hold 4, 3, 2 and 1 such pixels */
    GN_CHECK(a.pixels_off_edge == (uint64_t)(W * H) - near);
    render[4 * (2 * W + 2)] = 0; /* (2,2) wrong: off the edge, so it counts */
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK(a.agreement_off_edge < 1.0);
    render[4 * (2 * W + 2)] = 255;
    render[4 * (1 * W + 2)] = 0; /* (2,1) wrong: within the band */
    GN_CHECK(gn_shadow_compare(truth, render, W, H, &a));
    GN_CHECK(a.agreement_off_edge == 1.0);
}

static void test_pictures(void)
{
    uint8_t t[4] = {GN_TRUTH_LIT, GN_TRUTH_SHADOWED, GN_TRUTH_LIT, GN_TRUTH_SHADOWED};
    uint8_t r[16] = {255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 0, 0, 255};
    uint8_t out[16];
    gn_shadow_diff_rgba(t, r, 4, 1, out);
    GN_CHECK(out[1] > out[0] && out[1] > out[2]);               /* agree lit: green */
    GN_CHECK(out[4] < 64 && out[5] < 64 && out[6] < 64);        /* agree shadowed: dark */
    GN_CHECK(out[10] > out[8] && out[10] > out[9]);             /* false shadow: blue */
    GN_CHECK(out[12] > out[13] && out[12] > out[14]);           /* false lit: red */
    GN_CHECK(out[3] == 255 && out[7] == 255 && out[15] == 255); /* opaque */
    uint8_t sky = GN_TRUTH_SKY;
    gn_shadow_mask_rgba(&sky, 1, 1, out);
    GN_CHECK(out[0] == 128 && out[1] == 128 && out[2] == 128 && out[3] == 255);
}

static void test_opts(void)
{
    char err[1024];
    gn_shadowcheck_opts c;
    GN_CHECK(gn_shadowcheck_opts_parse(0, NULL, &c, err, sizeof err) == GN_PARSE_OK);
    GN_CHECK(c.views == 1 && c.shadow.shadows == GN_SHADOWCHECK_VSM && !c.min_off_edge_set);
    GN_CHECK(c.frame.size[0] == 1280 && c.frame.size[1] == 720 && c.frame.msaa == 4);
    GN_CHECK(strcmp(c.frame.scene, "town") == 0 && c.json == NULL && c.out_dir == NULL);
    GN_CHECK(gn_shadowcheck_opts_parse(GN_ARGS("--shadows", "none", "--views", "4", "--min-off-edge", "0.97",
                                               "--time", "10", "--camera", "1,2,3,45,-10"),
                                       &c, err, sizeof err) == GN_PARSE_OK);
    GN_CHECK(c.shadow.shadows == GN_SHADOWCHECK_NONE && c.views == 4 && c.min_off_edge_set);
    GN_CHECK_NEAR(c.min_off_edge, 0.97, 1e-6);
    GN_CHECK(strcmp(gn_shadowcheck_mode_name(c.shadow.shadows), "none") == 0);
    gn_frame_desc f;
    gn_frame_opts_frame(&c.frame, c.frame.camera, GN_VIEW_SHADOW, &f);
    GN_CHECK(f.view == GN_VIEW_SHADOW && f.camera.fov_y > 0.0f && f.time_of_day == 10.0f);
    GN_CHECK(f.camera.position[2] == 3.0f && f.camera.yaw == 45.0f && f.camera.pitch == -10.0f);
    GN_CHECK(gn_frame_opts_time(&c.frame) == 10.0f);
    gn_frame_opts_frame(&c.frame, NULL, GN_VIEW_SHADOW, &f);
    GN_CHECK(f.camera.fov_y == 0.0f); /* all zero: the scene's default camera */

    GN_CHECK(gn_shadowcheck_opts_parse(GN_ARGS("--views", "0"), &c, err, sizeof err) == GN_PARSE_ERROR);
    GN_CHECK(strstr(err, "gnomon shadowcheck: --views") != NULL);
    GN_CHECK(gn_shadowcheck_opts_parse(GN_ARGS("--min-off-edge", "-0.1"), &c, err, sizeof err) ==
             GN_PARSE_ERROR);
    GN_CHECK(gn_shadowcheck_opts_parse(GN_ARGS("--out", "x.png"), &c, err, sizeof err) == GN_PARSE_ERROR);

    gn_shadowref_opts r;
    GN_CHECK(gn_shadowref_opts_parse(GN_ARGS("--size", "64x32"), &r, err, sizeof err) == GN_PARSE_ERROR);
    GN_CHECK(strstr(err, "gnomon shadowref: --out") != NULL);
    GN_CHECK(gn_shadowref_opts_parse(GN_ARGS("--out", "t.png", "--day", "172", "--latitude", "0"), &r, err,
                                     sizeof err) == GN_PARSE_OK);
    GN_CHECK(r.frame.day == 172 && r.frame.latitude_set && strcmp(r.out, "t.png") == 0);
    GN_CHECK(gn_frame_opts_time(&r.frame) == 18.5f);
}

int main(void)
{
    test_sky_only();
    test_split();
    test_threshold();
    test_sky_ignored();
    test_disc();
    test_pictures();
    test_opts();
    return gn_test_result("cli_shadowcmp");
}

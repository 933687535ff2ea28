/* Unit tests of the chart: tick steps, text rasterisation, and a PNG of the requested size
 * whose lines are drawn in the legend's colours. Reads the PNG back with stb_image. */
#include "canvas.h"
#include "check.h"
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

static void test_nice_step(void)
{
    GN_CHECK_NEAR(gn_plot_nice_step(10, 5), 2, 1e-12);
    GN_CHECK_NEAR(gn_plot_nice_step(1, 5), 0.2, 1e-12);
    GN_CHECK_NEAR(gn_plot_nice_step(7.3, 5), 1, 1e-12);
    GN_CHECK_NEAR(gn_plot_nice_step(300, 8), 50, 1e-9);
    GN_CHECK_NEAR(gn_plot_nice_step(0, 5), 1, 0); /* degenerate ranges still give a step */
}

static int gn_count_colour(const uint8_t *rgb, int w, int h, int x0, int y0, int x1, int y1, gn_rgb c)
{
    int n = 0;
    for (int y = y0; y < y1 && y < h; y++)
        for (int x = x0; x < x1 && x < w; x++) {
            const uint8_t *p = rgb + ((size_t)y * (size_t)w + (size_t)x) * 3;
            n += p[0] == c.r && p[1] == c.g && p[2] == c.b;
        }
    return n;
}

static void test_canvas(void)
{
    gn_canvas c;
    const gn_rgb white = {255, 255, 255}, black = {0, 0, 0};
    GN_CHECK(gn_canvas_init(&c, 64, 32, white));
    gn_canvas_text(&c, 2, 2, "8", black, 2);
    int inked = gn_count_colour(c.rgb, 64, 32, 0, 0, 64, 32, black);
    GN_CHECK(inked > 20 && inked < 200); /* an "8" at twice size: strokes, not a block */
    GN_CHECK(gn_canvas_text_width("abc", 2) > gn_canvas_text_width("abc", 1));
    GN_CHECK(gn_canvas_text_width("", 1) == 0);
    gn_canvas_text(&c, 40, 2, "\x01\xc3\xa9", black, 1);  /* unprintable bytes draw as '?', safely */
    gn_canvas_line(&c, -100, -100, 1e9f, 1e9f, black, 3); /* clipped, bounded work */
    gn_canvas_rect(&c, -5, -5, 3, 3, black);
    GN_CHECK(gn_count_colour(c.rgb, 64, 32, 0, 0, 3, 3, black) == 9);
    gn_canvas_free(&c);
}

static bool gn_png_header(const char *path, uint32_t *w, uint32_t *h)
{
    uint8_t b[24];
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n != sizeof b || memcmp(b, sig, 8) != 0 || memcmp(b + 12, "IHDR", 4) != 0) return false;
    *w = (uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 | (uint32_t)b[18] << 8 | b[19];
    *h = (uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 | (uint32_t)b[22] << 8 | b[23];
    return true;
}

static void test_plot(const char *dir)
{
    enum { N = 300 };
    static double frame[N], a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = 2.0 + 0.5 * sin(i * 0.1);
        b[i] = i % 50 == 7 ? NAN : 1.0 + 0.002 * i; /* gaps where a pass skipped a frame */
        frame[i] = a[i] + (isnan(b[i]) ? 0 : b[i]);
    }
    gn_plot_series series[] = {{"frame total", frame, N}, {"gbuffer", a, N}, {"lighting", b, N}};
    gn_plot_desc d = {.width = 1200,
                      .height = 500,
                      .title = "town 1920x1080 msaa 4 - test GPU",
                      .x_label = "frame",
                      .y_label = "GPU ms",
                      .series = series,
                      .series_count = 3};
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/cli_plot.png", dir);
    GN_CHECK(gn_plot_write_png(path, &d, err, sizeof err));

    uint32_t w = 0, h = 0;
    GN_CHECK(gn_png_header(path, &w, &h) && w == 1200 && h == 500);
    int iw, ih, comp;
    GN_CHECK(stbi_info(path, &iw, &ih, &comp) && iw == 1200 && ih == 500 && comp == 3);
    uint8_t *px = stbi_load(path, &iw, &ih, &comp, 3);
    GN_CHECK(px != NULL);
    if (px) {
        /* Every series is drawn: its colour (the palette's first three) fills many pixels
         * of the plot area. */
        const gn_rgb colours[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44}};
        for (int i = 0; i < 3; i++) GN_CHECK(gn_count_colour(px, iw, ih, 80, 60, 970, 440, colours[i]) > 500);
        /* Title, tick labels and legend put black text outside the plot area. */
        GN_CHECK(gn_count_colour(px, iw, ih, 0, 0, 1200, 50, (gn_rgb){0, 0, 0}) > 100);
        GN_CHECK(gn_count_colour(px, iw, ih, 0, 60, 75, 440, (gn_rgb){0, 0, 0}) > 50);
        GN_CHECK(gn_count_colour(px, iw, ih, 990, 60, 1200, 200, (gn_rgb){0, 0, 0}) > 100);
        stbi_image_free(px);
    }

    /* Default size, one sample, no series: still a valid chart. cli_plot.png is kept for
     * a person to look at. */
    snprintf(path, sizeof path, "%s/cli_plot_small.png", dir);
    double one = 3.0;
    gn_plot_series single = {"only", &one, 1};
    gn_plot_desc d2 = {.series = &single, .series_count = 1};
    GN_CHECK(gn_plot_write_png(path, &d2, err, sizeof err));
    GN_CHECK(gn_png_header(path, &w, &h) && w == 1200 && h == 500);
    gn_plot_desc d3 = {.width = 300, .height = 200};
    GN_CHECK(gn_plot_write_png(path, &d3, err, sizeof err));
    GN_CHECK(gn_png_header(path, &w, &h) && w == 300 && h == 200);

    gn_plot_desc bad = {.width = 10, .height = 10};
    GN_CHECK(!gn_plot_write_png(path, &bad, err, sizeof err) && strstr(err, "10x10"));
    GN_CHECK(!gn_plot_write_png("/nonexistent-folder/x.png", &d, err, sizeof err) &&
             strstr(err, "cannot write"));
}

int main(int argc, char **argv)
{
    test_nice_step();
    test_canvas();
    test_plot(argc > 1 ? argv[1] : ".");
    return gn_test_result("cli_plot");
}

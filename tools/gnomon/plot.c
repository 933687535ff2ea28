/* The bench chart; see plot.h. Layout: title on top, y ticks on the left, x ticks below,
 * legend right of the plot area so it never hides a line. */
#include "plot.h"

#include "canvas.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Ten colours that stay distinct on white; series past ten reuse them. */
static const gn_rgb gn_plot_palette[] = {
    {31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
    {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207},
};
static const gn_rgb gn_white = {255, 255, 255}, gn_black = {0, 0, 0}, gn_grid = {225, 225, 225};

double gn_plot_nice_step(double range, int target)
{
    if (!(range > 0) || target < 1) return 1.0;
    double raw = range / target;
    double mag = pow(10.0, floor(log10(raw)));
    double norm = raw / mag;
    return (norm < 1.5 ? 1.0 : norm < 3.0 ? 2.0 : norm < 7.0 ? 5.0 : 10.0) * mag;
}

/* Decimals that show a tick step exactly: 0.25 -> 2, 5 -> 0. */
static int gn_plot_decimals(double step)
{
    int d = 0;
    while (d < 6 && fabs(step * pow(10.0, d) - round(step * pow(10.0, d))) > 1e-6) d++;
    return d;
}

typedef struct gn_plot_area {
    int x0, y0, x1, y1;
    double xmax, ymax;
} gn_plot_area;

static float gn_plot_x(const gn_plot_area *a, double v)
{
    return (float)(a->x0 + v / a->xmax * (a->x1 - a->x0));
}
static float gn_plot_y(const gn_plot_area *a, double v)
{
    return (float)(a->y1 - v / a->ymax * (a->y1 - a->y0));
}

static void gn_plot_axes(gn_canvas *c, const gn_plot_area *a, const gn_plot_desc *d)
{
    char label[32];
    int th = gn_canvas_text_height(2);
    double ystep = gn_plot_nice_step(a->ymax, 5);
    int yd = gn_plot_decimals(ystep);
    for (int i = 0; i * ystep <= a->ymax * (1 + 1e-9); i++) {
        int y = (int)lroundf(gn_plot_y(a, i * ystep));
        gn_canvas_rect(c, a->x0, y, a->x1, y + 1, gn_grid);
        snprintf(label, sizeof label, "%.*f", yd, i * ystep);
        gn_canvas_text(c, a->x0 - 8 - gn_canvas_text_width(label, 2), y - th / 2 + 1, label, gn_black, 2);
    }
    double xstep = gn_plot_nice_step(a->xmax, 8);
    if (xstep < 1) xstep = 1; /* frames are whole */
    for (int i = 0; i * xstep <= a->xmax * (1 + 1e-9); i++) {
        int x = (int)lroundf(gn_plot_x(a, i * xstep));
        gn_canvas_rect(c, x, a->y1, x + 1, a->y1 + 5, gn_black);
        snprintf(label, sizeof label, "%.0f", i * xstep);
        gn_canvas_text(c, x - gn_canvas_text_width(label, 2) / 2, a->y1 + 8, label, gn_black, 2);
    }
    gn_canvas_rect(c, a->x0, a->y0, a->x0 + 1, a->y1 + 1, gn_black);
    gn_canvas_rect(c, a->x0, a->y1, a->x1 + 1, a->y1 + 1, gn_black);
    if (d->x_label)
        gn_canvas_text(c, (a->x0 + a->x1 - gn_canvas_text_width(d->x_label, 2)) / 2, a->y1 + 34, d->x_label,
                       gn_black, 2);
    if (d->y_label) gn_canvas_text(c, 8, a->y0 - 38, d->y_label, gn_black, 2);
}

static void gn_plot_legend(gn_canvas *c, const gn_plot_desc *d, int x, int y0, int y1)
{
    /* Two-times text while the names fit in the height, one-times past that. */
    int scale = d->series_count * 24 <= (uint32_t)(y1 - y0) ? 2 : 1;
    int row = scale == 2 ? 24 : 13;
    for (uint32_t i = 0; i < d->series_count; i++) {
        int y = y0 + (int)i * row;
        if (y + row > c->height) break;
        gn_rgb col = gn_plot_palette[i % (sizeof gn_plot_palette / sizeof gn_plot_palette[0])];
        gn_canvas_rect(c, x, y + 2, x + 6 * scale, y + 2 + 4 * scale, col);
        gn_canvas_text(c, x + 9 * scale, y, d->series[i].name ? d->series[i].name : "?", gn_black, scale);
    }
}

bool gn_plot_write_png(const char *path, const gn_plot_desc *d, char *err, size_t err_size)
{
    int w = d->width ? d->width : 1200, h = d->height ? d->height : 500;
    if (w < 200 || h < 120 || w > 16384 || h > 16384) {
        snprintf(err, err_size, "plot size %dx%d outside 200x120..16384x16384", w, h);
        return false;
    }
    double ymax = 0;
    uint32_t n = 0;
    for (uint32_t s = 0; s < d->series_count; s++) {
        n = d->series[s].count > n ? d->series[s].count : n;
        for (uint32_t i = 0; i < d->series[s].count; i++)
            if (isfinite(d->series[s].values[i]) && d->series[s].values[i] > ymax)
                ymax = d->series[s].values[i];
    }
    /* Round the top up to a tick so the highest line never touches the frame. */
    double step = gn_plot_nice_step(ymax > 0 ? ymax * 1.05 : 1.0, 5);
    gn_plot_area a = {.x0 = 90,
                      .y0 = 60,
                      .x1 = w - 230,
                      .y1 = h - 64,
                      .xmax = n > 1 ? n - 1 : 1,
                      .ymax = ceil((ymax > 0 ? ymax * 1.05 : 1.0) / step) * step};
    if (a.x1 - a.x0 < 50) a.x1 = w - 20; /* too narrow for a legend column: draw lines only */

    gn_canvas c;
    if (!gn_canvas_init(&c, w, h, gn_white)) {
        snprintf(err, err_size, "out of memory for a %dx%d plot", w, h);
        return false;
    }
    if (d->title) gn_canvas_text(&c, (w - gn_canvas_text_width(d->title, 2)) / 2, 16, d->title, gn_black, 2);
    gn_plot_axes(&c, &a, d);
    for (uint32_t s = 0; s < d->series_count; s++) {
        gn_rgb col = gn_plot_palette[s % (sizeof gn_plot_palette / sizeof gn_plot_palette[0])];
        const gn_plot_series *ser = &d->series[s];
        for (uint32_t i = 0; i + 1 < ser->count; i++) {
            double v0 = ser->values[i], v1 = ser->values[i + 1];
            if (!isfinite(v0) || !isfinite(v1)) continue;
            gn_canvas_line(&c, gn_plot_x(&a, i), gn_plot_y(&a, v0), gn_plot_x(&a, i + 1), gn_plot_y(&a, v1),
                           col, 2);
        }
        if (ser->count == 1 && isfinite(ser->values[0]))
            gn_canvas_rect(&c, a.x0 - 2, (int)gn_plot_y(&a, ser->values[0]) - 2, a.x0 + 3,
                           (int)gn_plot_y(&a, ser->values[0]) + 3, col);
    }
    if (a.x1 < w - 100) gn_plot_legend(&c, d, a.x1 + 20, a.y0, h - 10);
    bool ok = gn_canvas_write_png(&c, path);
    int write_errno = errno;
    gn_canvas_free(&c);
    if (!ok) snprintf(err, err_size, "cannot write %s: %s", path, strerror(write_errno));
    return ok;
}

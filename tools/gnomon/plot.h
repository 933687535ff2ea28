/* gnomon bench's chart: one coloured line per series (GPU ms per frame), axes with tick
 * labels, a legend and a title, written as PNG. Pure apart from the file it writes. */
#ifndef GN_CLI_PLOT_H
#define GN_CLI_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gn_plot_series {
    const char *name;
    const double *values; /* one a frame; NAN leaves a gap */
    uint32_t count;
} gn_plot_series;

typedef struct gn_plot_desc {
    int width, height; /* 0: 1200x500 */
    const char *title;
    const char *x_label, *y_label;
    const gn_plot_series *series;
    uint32_t series_count;
} gn_plot_desc;

/* On failure writes one line into err and returns false. */
bool gn_plot_write_png(const char *path, const gn_plot_desc *d, char *err, size_t err_size);

/* A "nice" tick step (1, 2 or 5 times a power of ten) giving about target ticks over range. */
double gn_plot_nice_step(double range, int target);

#endif

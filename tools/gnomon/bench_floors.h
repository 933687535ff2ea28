/* gnomon bench --floors: the floors (gn_measure_floors) measured before and after the timed run,
 * which floor each pass is held against, its GPU median as a multiple of that floor, and the
 * table and JSON of both. Pure, so tests/cli feeds it made-up floors and summaries. */
#ifndef GN_CLI_BENCH_FLOORS_H
#define GN_CLI_BENCH_FLOORS_H

#include "bench_data.h"
#include "gnomon.h"
#include "json.h"

#include <stdio.h>

typedef enum gn_floor_kind {
    GN_FLOOR_NONE,      /* no sensible floor: culling, binning, copies, the blit */
    GN_FLOOR_TRIANGLES, /* depth-only passes: their triangles at the triangle rate */
    GN_FLOOR_FILL,      /* full-screen passes: a write a sample (or a pixel) at the fill rate */
} gn_floor_kind;

struct gn_bench_floors {
    gn_floors before, after; /* measured before and after the timed run */
    gn_floors best;          /* figure by figure the better of the two: what the device was seen to do */
};

/* The higher rate and the shorter time of each figure; the rest (size, counts) from a. */
gn_floors gn_bench_floors_best(const gn_floors *a, const gn_floors *b);

/* A pass held against its floor. */
typedef struct gn_bench_floor_row {
    gn_floor_kind kind;
    bool per_sample; /* fill: every MSAA sample of the screen (the forward pass), else every pixel */
    double work;     /* the floor's count: triangles (the pass's median) or samples (the screen's);
                        NAN with no floor, or no triangles counted */
    double floor_ms; /* work at the floor's rate; NAN when there is none, or no work counted */
    double multiple; /* the pass's median GPU ms over floor_ms; NAN likewise */
} gn_bench_floor_row;

/* Which floor a pass (by its name in the frame statistics) is held against; *per_sample: its
 * work is every MSAA sample of the screen (the forward pass), else a sample a pixel. */
gn_floor_kind gn_bench_floor_kind(const char *pass, bool *per_sample);
/* The pass's row: median_ms its GPU median, triangles its median triangles (0 or NAN: not counted,
 * as for passes whose draws the GPU decides). */
gn_bench_floor_row gn_bench_floor_row_of(const gn_floors *f, const char *pass, double median_ms,
                                         double triangles);

/* The floors table (before, after, the better), then every pass of s against its floor. */
void gn_bench_floors_print(FILE *f, const gn_bench_floors *fl, const gn_bench_summary *s);
/* Members "floors" (grid, layers, size, repeats and the three sets of figures) and
 * "floor_multiples" (each pass: floor, work, median_ms, floor_ms, multiple; null for none). */
void gn_bench_floors_json(gn_json *j, const gn_bench_floors *fl, const gn_bench_summary *s);

#endif

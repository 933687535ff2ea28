/* Per-frame samples collected by gnomon bench, their summary (min, median, p99, max) and the
 * summary's table and JSON. Pure, so tests/cli feeds it made-up frames. */
#ifndef GN_CLI_BENCH_DATA_H
#define GN_CLI_BENCH_DATA_H

#include "gnomon.h"
#include "series_stats.h"

#include <stdio.h>

/* Pass names seen over a whole run; a frame has at most GN_STATS_PASSES, but passes may come
 * and go (a shadow cache that skips a frame), so allow twice that. */
#define GN_BENCH_MAX_PASSES (2 * GN_STATS_PASSES)

/* What one frame's shadows did: their GPU time (the passes named "csm ..." and "vsm ...")
 * and the virtual shadow map's page counts (zero under CSM). */
typedef struct gn_bench_shadow_frame {
    double shadow_ms;
    uint32_t requested, resident, rendered_static, rendered_dynamic, rendered_fresh, evicted, overflow,
        waiting;
    uint32_t pairs_phase1, pairs_waiting, pairs_phase2; /* BIN's (caster, page) pairs */
    float sun_lag_deg;
    float exposure_ev100; /* the frame's exposure (auto: adapted) */
} gn_bench_shadow_frame;

typedef struct gn_bench_data {
    uint32_t capacity, count;
    uint64_t *frame_index;
    double *frame_ms, *cpu_ms, *vis_ms, *probes_ms, *materials_ms, *animation_ms, *draws, *triangles,
        *visible, *draw_groups, *lights, *overflow;
    double *drawn, *phase1, *phase2;            /* after occlusion culling; its two phases */
    double *clusters;                           /* clusters drawn (with --clusters 1) */
    double *decals_drawn, *decals_culled;       /* screen-space decals in the view, and culled by it */
    double *particles_live, *particles_spawned; /* GPU particles alive after the frame, spawned in it */
    uint32_t instances_total;                   /* of the newest sample */
    gn_bench_shadow_frame *shadow;              /* per frame */
    double *shadow_ms; /* per frame, the same as shadow[].shadow_ms (for the summary) */
    uint32_t pass_count;
    char pass_names[GN_BENCH_MAX_PASSES][32];
    double *pass_ms[GN_BENCH_MAX_PASSES];        /* NAN where a frame lacked the pass */
    double *pass_triangles[GN_BENCH_MAX_PASSES]; /* likewise: the triangles it submitted */
    uint64_t last_index;                         /* samples at or below it are duplicates */
    bool any;
} gn_bench_data;

bool gn_bench_data_init(gn_bench_data *d, uint32_t capacity); /* false: out of memory */
void gn_bench_data_free(gn_bench_data *d);

/* Frames at or before frame_index (warm-up frames) will not be recorded. */
void gn_bench_data_skip_through(gn_bench_data *d, uint64_t frame_index);

/* Records s unless its frame was recorded or skipped already, or the data is full. Frames
 * finish asynchronously and gn_get_frame_stats returns the newest, so the same frame is seen
 * repeatedly and some frames may never be seen. Returns true if recorded. */
bool gn_bench_data_add(gn_bench_data *d, const gn_frame_stats *s);

typedef struct gn_bench_summary {
    uint32_t samples;
    uint32_t pass_count;
    char pass_names[GN_BENCH_MAX_PASSES][32];
    gn_series_stats pass[GN_BENCH_MAX_PASSES];
    double pass_triangles[GN_BENCH_MAX_PASSES]; /* median over the frames that had the pass */
    gn_series_stats frame, cpu, visibility;     /* visibility: the CPU's culling and draw list */
    gn_series_stats probes;                     /* reflection probes' wall time (gn_frame_stats.probes_ms) */
    gn_series_stats materials;                  /* Quake 3 shaders' evaluation, CPU (materials_ms) */
    gn_series_stats animation;                  /* the rigs' posing, CPU (animation_ms) */
    gn_series_stats shadow;                     /* GPU time of the sun's shadow passes */
    double vsm_rendered_median, vsm_rendered_max, vsm_requested_median, vsm_lag_max, vsm_overflow_max;
    double frame_spike;                            /* max / median frame GPU time */
    double draws, triangles, visible, draw_groups; /* medians */
    double drawn, phase1, phase2;                  /* medians: after occlusion culling, its phases */
    double clusters;                               /* median clusters drawn */
    double lights;                                 /* median */
    double decals_drawn, decals_culled;            /* medians */
    double particles_live, particles_spawned;      /* medians */
    double overflow_max;                           /* the most light-froxel pairs dropped in a frame */
    uint32_t instances_total;
} gn_bench_summary;

bool gn_bench_summarize(const gn_bench_data *d, gn_bench_summary *out); /* false: out of memory */

typedef struct gn_bench_floors gn_bench_floors; /* bench_floors.h */

typedef struct gn_bench_meta {
    const char *device, *scene, *path;
    uint32_t width, height, msaa, frames;
    const gn_bench_floors *floors; /* --floors: written as "floors" and "floor_multiples"; NULL: none */
    gn_probes_info probes;         /* the reflection probes the run made (written as "probes") */
} gn_bench_meta;

void gn_bench_print_table(FILE *f, const gn_bench_summary *s);
/* The summary, and with d a `per_frame` array: each frame's gpu_ms, cpu_ms, shadow_ms and the
 * vsm_* page counts and sun lag. */
bool gn_bench_write_json(FILE *f, const gn_bench_meta *m, const gn_bench_summary *s, const gn_bench_data *d);

#endif

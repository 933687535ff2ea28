/* The scripted camera and sun of gnomon bench: where frame i looks from and at what time of
 * day. Pure, deterministic and stepped one frame at a time, so a run is repeatable and
 * tests/cli checks speeds and bounds without a GPU. */
#ifndef GN_CLI_BENCH_PATH_H
#define GN_CLI_BENCH_PATH_H

#include "cmd_opts.h"
#include "gnomon.h"

#define GN_BENCH_DT (1.0 / 60.0)   /* seconds a frame: the animation runs at 60 fps */
#define GN_BENCH_WALK_SPEED 10.0f  /* m/s: between walking and driving */
#define GN_BENCH_SWAY_DEG 20.0f    /* yaw swings this far either side of the heading */
#define GN_BENCH_SWAY_PERIOD 12.0f /* seconds per swing: gentle enough to read as a walk */
#define GN_BENCH_TURN_DEG_S 45.0f  /* turn rate back towards the scene when leaving it */
#define GN_BENCH_SUN_START 17.0f   /* hours: the sun sweeps through sunset */
#define GN_BENCH_SUN_END 19.5f
#define GN_BENCH_STATIC_TIME 18.5f

typedef struct gn_bench_walker {
    gn_bench_path path;
    uint32_t frame, total;
    float pos[3];
    float heading, pitch;         /* degrees; the camera's yaw is heading plus the sway */
    float box_min[2], box_max[2]; /* x, z the walk stays inside */
    double seconds;
} gn_bench_walker;

/* total: frames in the run, warm-up included; the sun sweep spans all of them. */
void gn_bench_walker_start(gn_bench_walker *w, gn_bench_path path, const gn_scene_info *info, uint32_t total);

/* Fills this frame's camera, time of day and animation seconds, then steps to the next. */
void gn_bench_walker_next(gn_bench_walker *w, gn_frame_desc *frame);

#endif

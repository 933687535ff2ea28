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
#define GN_BENCH_SUN_START 16.0f   /* hours: the sun paths start here and run towards sunset */
#define GN_BENCH_SUN_SPEED 20.0f   /* default: the day passes 20x faster than real time */
#define GN_BENCH_STATIC_TIME 18.5f

typedef struct gn_bench_walker {
    gn_bench_path path;
    uint32_t frame, total;
    float pos[3];
    float heading, pitch;         /* degrees; the camera's yaw is heading plus the sway */
    float box_min[2], box_max[2]; /* x, z the walk stays inside */
    double seconds;
    float sun_speed; /* simulated seconds of the day per animation second */
} gn_bench_walker;

/* total: frames in the run, warm-up included. The sun paths advance the time of day by
 * sun_speed (GN_BENCH_SUN_SPEED unless changed after start) times the animation time. */
void gn_bench_walker_start(gn_bench_walker *w, gn_bench_path path, const gn_scene_info *info, uint32_t total);

/* Fills this frame's camera, time of day and animation seconds, then steps to the next. */
void gn_bench_walker_next(gn_bench_walker *w, gn_frame_desc *frame);

#endif

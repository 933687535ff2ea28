/* The scripted bench paths; see bench_path.h. Yaw follows gn_camera: 0 looks down -Z and
 * positive yaw turns left (towards -X), so the forward vector is (-sin yaw, 0, -cos yaw). */
#include "bench_path.h"

#include <math.h>
#include <string.h>

#define GN_PI 3.14159265358979323846

static float gn_rad(float deg) { return deg * (float)(GN_PI / 180.0); }

void gn_bench_walker_start(gn_bench_walker *w, gn_bench_path path, const gn_scene_info *info, uint32_t total)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    w->total = total;
    w->sun_speed = GN_BENCH_SUN_SPEED;
    memcpy(w->pos, info->default_camera, sizeof w->pos);
    w->heading = info->default_camera[3];
    w->pitch = info->default_camera[4];
    /* Keep 10% of the scene's extent as a margin so the walk turns before the edge. */
    for (int a = 0; a < 2; a++) {
        int axis = a == 0 ? 0 : 2;
        float lo = info->bounds_min[axis], hi = info->bounds_max[axis];
        float margin = 0.1f * (hi - lo);
        w->box_min[a] = lo + margin;
        w->box_max[a] = hi - margin;
    }
}

static bool gn_bench_walks(gn_bench_path p) { return p == GN_PATH_WALK || p == GN_PATH_WALK_SUN; }

/* Outside the box, the heading turns towards the box's centre at a bounded rate; inside it
 * stays, so the path is straight with a sway and bends only at the edges. */
static void gn_bench_steer(gn_bench_walker *w, float dt)
{
    float x = w->pos[0], z = w->pos[2];
    bool inside = x >= w->box_min[0] && x <= w->box_max[0] && z >= w->box_min[1] && z <= w->box_max[1];
    if (inside) return;
    float cx = 0.5f * (w->box_min[0] + w->box_max[0]), cz = 0.5f * (w->box_min[1] + w->box_max[1]);
    float want = (float)(atan2(-(cx - x), -(cz - z)) * 180.0 / GN_PI);
    float diff = fmodf(want - w->heading + 540.0f, 360.0f) - 180.0f; /* -180..180 */
    float step = GN_BENCH_TURN_DEG_S * dt;
    w->heading += diff > step ? step : (diff < -step ? -step : diff);
}

void gn_bench_walker_next(gn_bench_walker *w, gn_frame_desc *frame)
{
    float dt = (float)GN_BENCH_DT;
    float sway = gn_bench_walks(w->path)
                     ? GN_BENCH_SWAY_DEG * sinf((float)(2.0 * GN_PI * w->seconds / GN_BENCH_SWAY_PERIOD))
                     : 0.0f;
    float yaw = w->heading + sway;

    *frame = (gn_frame_desc){.camera.fov_y = GN_CLI_FOV_Y, .seconds = w->seconds};
    memcpy(frame->camera.position, w->pos, sizeof w->pos);
    frame->camera.yaw = yaw;
    frame->camera.pitch = w->pitch;
    frame->time_of_day = GN_BENCH_STATIC_TIME;
    if (w->path == GN_PATH_SUN || w->path == GN_PATH_WALK_SUN) {
        /* a day passing at sun_speed: slow enough per frame that the shadows' texel grid
         * slides by fractions of a texel, the case where cached cascades would "tick" */
        double hours = GN_BENCH_SUN_START + w->seconds * w->sun_speed / 3600.0;
        frame->time_of_day = gn_cli_hours((float)fmod(hours, 24.0));
    }

    if (gn_bench_walks(w->path)) {
        w->pos[0] += -sinf(gn_rad(yaw)) * GN_BENCH_WALK_SPEED * dt;
        w->pos[2] += -cosf(gn_rad(yaw)) * GN_BENCH_WALK_SPEED * dt;
        gn_bench_steer(w, dt);
    }
    w->frame++;
    w->seconds += GN_BENCH_DT;
}

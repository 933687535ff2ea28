/* The viewer's fly camera: where it is, where it looks and how fast it flies, moved by one
 * frame's input over dt seconds. Pure (no GLFW, no Vulkan) and tested in tests/cli. The angles
 * follow gn_camera: yaw 0 looks down -Z, positive yaw turns left; pitch up is positive. */
#ifndef GN_CLI_VIEW_CAMERA_H
#define GN_CLI_VIEW_CAMERA_H

#include <stdbool.h>

#define GN_FLY_SPEED_DEFAULT 10.0f /* m/s: a brisk walk through the town takes seconds */
#define GN_FLY_SPEED_MIN 0.25f     /* scroll stops here and ... */
#define GN_FLY_SPEED_MAX 1000.0f   /* ... here: a map crossed in a second */
#define GN_FLY_FAST 5.0f           /* Shift multiplies the speed */
#define GN_FLY_SCROLL_STEP 1.25f   /* one scroll notch multiplies or divides the speed */
#define GN_FLY_DEG_PER_PIXEL 0.15f /* mouse look */
#define GN_FLY_PITCH_LIMIT 89.0f   /* degrees: straight up or down has no yaw */

typedef struct gn_fly_camera {
    float position[3]; /* metres */
    float yaw, pitch;  /* degrees */
    float speed;       /* m/s; 0 reads as GN_FLY_SPEED_DEFAULT */
} gn_fly_camera;

typedef struct gn_fly_input {
    bool forward, back, left, right, up, down; /* W S A D, E Q */
    bool fast;                                 /* Shift */
    float look_dx, look_dy;                    /* pixels the mouse moved (y down) */
    float scroll;                              /* notches, up positive */
} gn_fly_input;

/* Turns by the mouse, changes the speed by the scroll, then moves along the new view for dt
 * seconds: forward and back along the look direction (pitch included), left and right level,
 * up and down along world Y. Diagonals are no faster than straight lines. */
void gn_fly_camera_update(gn_fly_camera *c, const gn_fly_input *in, float dt);

#endif

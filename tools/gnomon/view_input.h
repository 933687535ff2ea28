/* The viewer's state and what keys, the mouse and the console do to it: the settings, the fly
 * camera, the clock, the keys held. Everything here is decided without GLFW or Vulkan, so the
 * real callbacks and --script feed the same functions and tests/cli checks them. */
#ifndef GN_CLI_VIEW_INPUT_H
#define GN_CLI_VIEW_INPUT_H

#include "cmd_opts.h"
#include "view_camera.h"
#include "view_console.h"
#include "view_keys.h"

#include <stdbool.h>
#include <stdint.h>

#define GN_SUN_HOURS_PER_SECOND 0.25f /* F: the sun follows a clock that runs a day in 96 s */
#define GN_TIME_STEP_HOURS 1.0f       /* [ and ] */

/* What the caller must do after an input, besides the next frame (bits). */
enum {
    GN_REQUEST_SCREENSHOT = 1u << 8, /* P */
    GN_REQUEST_QUIT = 1u << 9,       /* Esc with the console closed */
    GN_REQUEST_NEXT_CLIP = 1u << 10, /* N: every rig to its model's next clip */
    /* the low bits are the GN_EFFECT_* of settings changed (view_console.h) */
};

typedef struct gn_view_state {
    gn_view_opts opts; /* every setting, as the console names them */
    gn_console console;
    gn_fly_camera camera;
    float time_of_day; /* hours */
    bool sun_follows;  /* F */
    bool show_stats;   /* H */
    double seconds;    /* the viewer's clock: animation, and the sun when it follows */
    bool held[GN_KEY_LAST + 1];
    float look_dx, look_dy, scroll; /* gathered until the next frame */
} gn_view_state;

/* The state for opts, with the camera at `camera` (x, y, z, yaw, pitch). */
void gn_view_state_init(gn_view_state *s, const gn_view_opts *opts, const float camera[5]);

/* A key went down (pressed) or up. Returns GN_REQUEST_* and GN_EFFECT_* bits. */
uint32_t gn_view_key(gn_view_state *s, int key, bool pressed);
void gn_view_char(gn_view_state *s, uint32_t codepoint);  /* typed text, for the console */
void gn_view_mouse(gn_view_state *s, float dx, float dy); /* mouse look: turns by the next frame */
void gn_view_scroll(gn_view_state *s, float notches);
/* A console command, as typed or from a script's set; its answer goes to the console's log. */
bool gn_view_set(gn_view_state *s, const char *line, uint32_t *effects, char *msg, size_t msg_size);

/* Advances by dt seconds (the camera by the keys held and the mouse gathered, the clock) and
 * fills the frame to render. */
void gn_view_advance(gn_view_state *s, float dt, gn_frame_desc *out);

/* One line of the current settings for the overlay and screenshot names. */
void gn_view_settings_line(const gn_view_state *s, char *buf, size_t size);
/* A screenshot's file name with the settings in it, e.g.
 * "gnomon-town-final-csm-msaa4-t18.50-f000042.png". */
void gn_view_screenshot_name(const gn_view_state *s, uint64_t frame, char *buf, size_t size);

#endif

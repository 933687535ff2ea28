/* The viewer's overlay, drawn by gnomon itself on the CPU into an RGBA canvas that the
 * library blends over the frame on its way to the window (gn_frame_desc.overlay): the
 * settings, frame and per-pass GPU times, draws and triangles, shadow work, lights and their
 * overflow, a graph of recent frame times, and the console. No GLFW, no Vulkan. */
#ifndef GN_CLI_VIEW_OVERLAY_H
#define GN_CLI_VIEW_OVERLAY_H

#include "canvas.h"
#include "gnomon.h"
#include "view_console.h"

#define GN_OVERLAY_HISTORY 120 /* frames the graph shows */

typedef struct gn_overlay_info {
    const gn_frame_stats *stats; /* the newest finished frame's; NULL before one finished */
    const float *frame_ms;       /* wall time of recent frames, oldest first */
    uint32_t frame_count;
    const char *settings; /* one line: scene, view, shadows, msaa, time ... */
    bool show_stats;      /* H hides the statistics (the console still shows) */
    const gn_console *console;
} gn_overlay_info;

/* Clears c (transparent) and draws the overlay; c must be an RGBA canvas. */
void gn_overlay_draw(gn_canvas *c, const gn_overlay_info *info);

#endif

/* The viewer's console: settings read and set by the names of gnomon view's flags, through
 * the same option table (cmd_opts.c) and checks as the command line, plus the line being typed
 * and the last answers. Pure: no GLFW, no Vulkan; tested in tests/cli. */
#ifndef GN_CLI_VIEW_CONSOLE_H
#define GN_CLI_VIEW_CONSOLE_H

#include "cmd_opts.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a changed setting asks of the viewer, cheapest first. */
enum {
    GN_EFFECT_FRAME = 1u << 0,    /* only the next frames' gn_frame_desc */
    GN_EFFECT_TIME = 1u << 1,     /* the clock: time of day */
    GN_EFFECT_CAMERA = 1u << 2,   /* move the fly camera there */
    GN_EFFECT_SIZE = 1u << 3,     /* the window's size */
    GN_EFFECT_VSYNC = 1u << 4,    /* the swapchain's present mode */
    GN_EFFECT_RENDERER = 1u << 5, /* a renderer setting (msaa, shadow maps, froxel grid): a new renderer */
    GN_EFFECT_SCENE = 1u << 6,    /* another scene, or its lights: a new scene */
};

#define GN_CONSOLE_LINE 192
#define GN_CONSOLE_LOG 6
#define GN_CONSOLE_MSG 192

/* Strings the console set (scene, paks, lut, csm-schedule): gn_view_opts points into these. */
typedef struct gn_console_strings {
    char slot[8][GN_CONSOLE_LINE];
} gn_console_strings;

typedef struct gn_console {
    bool open;
    char line[GN_CONSOLE_LINE]; /* being typed */
    uint32_t len;
    char log[GN_CONSOLE_LOG][GN_CONSOLE_MSG]; /* the last answers, oldest first */
    uint32_t log_count;
    gn_console_strings strings;
} gn_console;

/* Runs one command on o: "NAME" answers its value, "NAME VALUE" sets it, "help" lists the
 * names. Returns false for an unknown name or a bad value, leaving o as it was. msg gets the
 * answer or the error; *effects the GN_EFFECT_* bits of what changed (0 when nothing did).
 * strings holds the text of string settings (their values must outlive the call). */
bool gn_console_exec(gn_view_opts *o, gn_console_strings *strings, const char *line, char *msg,
                     size_t msg_size, uint32_t *effects);

/* Completes the setting name being typed (the line's first word) to the longest prefix the
 * matching names share, adding a space when just one matches. Returns how many names match
 * and lists them, comma-separated, in list. */
uint32_t gn_console_complete(char *line, size_t line_size, char *list, size_t list_size);

/* Line editing: printable ASCII is typed, other characters ignored. */
void gn_console_type(gn_console *c, uint32_t codepoint);
void gn_console_backspace(gn_console *c);
void gn_console_log(gn_console *c, const char *msg); /* appends, dropping the oldest */
void gn_console_tab(gn_console *c); /* completes the line; logs the candidates when several */

#endif

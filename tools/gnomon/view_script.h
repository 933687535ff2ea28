/* The viewer's --script: one command a line, parsed whole before the window opens so that a
 * typo fails at once with its line number. Pure: no GLFW, no Vulkan; tested in tests/cli.
 *
 *   frames N          render N frames (1..100000)
 *   key K             press and release key K (GLFW's name: W, F, GRAVE_ACCENT, LEFT_SHIFT)
 *   hold K N          hold key K down for N frames
 *   mouse DX DY       move the mouse by DX, DY pixels (y down) before the next frame
 *   set NAME VALUE    as the console: a setting by the name of its command-line flag
 *   screenshot FILE   the last rendered frame (no overlay) as a PNG
 *   quit              stop here and exit 0
 * Blank lines and lines starting with # are skipped. */
#ifndef GN_CLI_VIEW_SCRIPT_H
#define GN_CLI_VIEW_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GN_SCRIPT_MAX_FRAMES 100000u /* ~28 minutes at 60 fps: a typo, not a plan */
#define GN_SCRIPT_MAX_LINES 100000u
#define GN_SCRIPT_MAX_MOUSE 100000.0f /* pixels */

typedef enum gn_script_op {
    GN_SCRIPT_FRAMES,
    GN_SCRIPT_KEY,
    GN_SCRIPT_HOLD,
    GN_SCRIPT_MOUSE,
    GN_SCRIPT_SET,
    GN_SCRIPT_SCREENSHOT,
    GN_SCRIPT_QUIT,
} gn_script_op;

typedef struct gn_script_cmd {
    gn_script_op op;
    uint32_t line;   /* 1-based, for messages */
    int key;         /* KEY, HOLD: a GLFW key code */
    uint32_t frames; /* FRAMES, HOLD */
    float dx, dy;    /* MOUSE */
    char name[64];   /* SET */
    char value[256]; /* SET: the rest of the line; SCREENSHOT: the file */
} gn_script_cmd;

typedef struct gn_script {
    gn_script_cmd *cmds;
    uint32_t count;
} gn_script;

/* Parses text; on failure err holds "<path>:<line>: <what is wrong>" and out is empty. */
bool gn_script_parse(const char *text, const char *path, gn_script *out, char *err, size_t err_size);
/* Reads and parses a file; false with "<path>: ..." for a file that cannot be read. */
bool gn_script_load(const char *path, gn_script *out, char *err, size_t err_size);
void gn_script_free(gn_script *s);

#endif

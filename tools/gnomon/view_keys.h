/* Key names and codes for the viewer's script and key bindings. The codes are GLFW's
 * (GLFW_KEY_*, fixed by its ABI), so GLFW's callbacks pass theirs straight through, and the
 * names are GLFW's without the GLFW_KEY_ prefix ("W", "GRAVE_ACCENT", "LEFT_SHIFT"). Pure: no
 * GLFW here; cmd_view.c checks the codes against glfw3.h at compile time. */
#ifndef GN_CLI_VIEW_KEYS_H
#define GN_CLI_VIEW_KEYS_H

enum {
    GN_KEY_UNKNOWN = -1,
    GN_KEY_SPACE = 32,
    GN_KEY_0 = 48,
    GN_KEY_1 = 49,
    GN_KEY_9 = 57,
    GN_KEY_A = 65,
    GN_KEY_C = 67,
    GN_KEY_D = 68,
    GN_KEY_E = 69,
    GN_KEY_F = 70,
    GN_KEY_H = 72,
    GN_KEY_L = 76,
    GN_KEY_N = 78,
    GN_KEY_P = 80,
    GN_KEY_Q = 81,
    GN_KEY_S = 83,
    GN_KEY_V = 86,
    GN_KEY_W = 87,
    GN_KEY_LEFT_BRACKET = 91,
    GN_KEY_RIGHT_BRACKET = 93,
    GN_KEY_GRAVE_ACCENT = 96,
    GN_KEY_ESCAPE = 256,
    GN_KEY_ENTER = 257,
    GN_KEY_TAB = 258,
    GN_KEY_BACKSPACE = 259,
    GN_KEY_DOWN = 264,
    GN_KEY_UP = 265,
    GN_KEY_F1 = 290,
    GN_KEY_LEFT_SHIFT = 340,
    GN_KEY_RIGHT_SHIFT = 344,
    GN_KEY_LAST = 348, /* GLFW_KEY_LAST: every code is at most this */
};

/* The code of a GLFW key name, case-insensitive; GN_KEY_UNKNOWN for none. */
int gn_key_from_name(const char *name);
/* The name of a code ("W", "F5", "GRAVE_ACCENT"); NULL for a code with no name. */
const char *gn_key_name(int key);

#endif

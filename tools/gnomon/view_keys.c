/* GLFW's key names and codes; see view_keys.h. */
#include "view_keys.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

typedef struct gn_key_entry {
    const char *name;
    int code;
} gn_key_entry;

/* GLFW_KEY_* apart from the letters, digits, function and keypad digit keys, whose names
 * follow from their codes (below). */
static const gn_key_entry gn_named_keys[] = {
    {"SPACE", 32},        {"APOSTROPHE", 39},     {"COMMA", 44},         {"MINUS", 45},
    {"PERIOD", 46},       {"SLASH", 47},          {"SEMICOLON", 59},     {"EQUAL", 61},
    {"LEFT_BRACKET", 91}, {"BACKSLASH", 92},      {"RIGHT_BRACKET", 93}, {"GRAVE_ACCENT", 96},
    {"WORLD_1", 161},     {"WORLD_2", 162},       {"ESCAPE", 256},       {"ENTER", 257},
    {"TAB", 258},         {"BACKSPACE", 259},     {"INSERT", 260},       {"DELETE", 261},
    {"RIGHT", 262},       {"LEFT", 263},          {"DOWN", 264},         {"UP", 265},
    {"PAGE_UP", 266},     {"PAGE_DOWN", 267},     {"HOME", 268},         {"END", 269},
    {"CAPS_LOCK", 280},   {"SCROLL_LOCK", 281},   {"NUM_LOCK", 282},     {"PRINT_SCREEN", 283},
    {"PAUSE", 284},       {"KP_DECIMAL", 330},    {"KP_DIVIDE", 331},    {"KP_MULTIPLY", 332},
    {"KP_SUBTRACT", 333}, {"KP_ADD", 334},        {"KP_ENTER", 335},     {"KP_EQUAL", 336},
    {"LEFT_SHIFT", 340},  {"LEFT_CONTROL", 341},  {"LEFT_ALT", 342},     {"LEFT_SUPER", 343},
    {"RIGHT_SHIFT", 344}, {"RIGHT_CONTROL", 345}, {"RIGHT_ALT", 346},    {"RIGHT_SUPER", 347},
    {"MENU", 348},
};
#define GN_NAMED_COUNT (sizeof gn_named_keys / sizeof gn_named_keys[0])

static const char *const gn_letters[] = {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M",
                                         "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z"};
static const char *const gn_digits[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
static const char *const gn_fkeys[] = {"F1",  "F2",  "F3",  "F4",  "F5",  "F6",  "F7",  "F8",  "F9",
                                       "F10", "F11", "F12", "F13", "F14", "F15", "F16", "F17", "F18",
                                       "F19", "F20", "F21", "F22", "F23", "F24", "F25"};
static const char *const gn_keypad[] = {"KP_0", "KP_1", "KP_2", "KP_3", "KP_4",
                                        "KP_5", "KP_6", "KP_7", "KP_8", "KP_9"};

int gn_key_from_name(const char *name)
{
    if (!name || !*name) return GN_KEY_UNKNOWN;
    for (int k = 0; k <= GN_KEY_LAST; k++) {
        const char *n = gn_key_name(k);
        if (n && strcasecmp(n, name) == 0) return k;
    }
    return GN_KEY_UNKNOWN;
}

const char *gn_key_name(int key)
{
    for (size_t i = 0; i < GN_NAMED_COUNT; i++)
        if (gn_named_keys[i].code == key) return gn_named_keys[i].name;
    if (key >= 65 && key <= 90) return gn_letters[key - 65];
    if (key >= 48 && key <= 57) return gn_digits[key - 48];
    if (key >= 290 && key <= 314) return gn_fkeys[key - 290];
    if (key >= 320 && key <= 329) return gn_keypad[key - 320];
    return NULL;
}

/* A small streaming JSON writer for --stats and --json. Objects are written one member a
 * line, arrays on one line; strings are escaped; NaN and infinities become null, since JSON
 * has no spelling for them. Pure: tests/cli checks that python's json module reads it. */
#ifndef GN_CLI_JSON_H
#define GN_CLI_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define GN_JSON_MAX_DEPTH 16

typedef struct gn_json {
    FILE *f;
    uint32_t depth;
    bool has_items[GN_JSON_MAX_DEPTH]; /* a comma goes before the next item */
    bool inline_[GN_JSON_MAX_DEPTH];   /* arrays, and everything inside them, on one line */
    bool object_[GN_JSON_MAX_DEPTH];   /* members need keys; array items must have none */
    bool misuse;                       /* too deep, or a key where none belongs */
} gn_json;

/* key names the member inside an object; pass NULL at the top level and inside arrays. */
void gn_json_begin(gn_json *j, FILE *f);
void gn_json_object_begin(gn_json *j, const char *key);
void gn_json_object_end(gn_json *j);
void gn_json_array_begin(gn_json *j, const char *key);
void gn_json_array_end(gn_json *j);
void gn_json_string(gn_json *j, const char *key, const char *value); /* NULL writes null */
void gn_json_number(gn_json *j, const char *key, double value);
void gn_json_uint(gn_json *j, const char *key, uint64_t value);
void gn_json_bool(gn_json *j, const char *key, bool value);
bool gn_json_end(gn_json *j); /* ends the line; false if misused or the stream failed */

void gn_json_write_escaped(FILE *f, const char *s); /* "s" with quotes, escapes applied */

/* The keys every gnomon result object opens with, so render's --stats and bench's --json
 * read alike: device, scene, size [w, h], msaa. */
void gn_json_run_header(gn_json *j, const char *device, const char *scene, uint32_t width, uint32_t height,
                        uint32_t msaa);

#endif

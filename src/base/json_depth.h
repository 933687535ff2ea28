/* JSON's bracket nesting, counted before a parser (cJSON recurses once a level) sees the text:
 * a file of 200,000 nested arrays then costs one loop, not a stack. */
#ifndef GN_BASE_JSON_DEPTH_H
#define GN_BASE_JSON_DEPTH_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the n bytes of s nest '[' and '{' (outside strings) deeper than max; if so, *at is the
 * byte where the nesting passes max. */
bool gn_json_too_deep(const char *s, size_t n, unsigned max, size_t *at);

#endif

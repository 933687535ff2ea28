/* The scene tests' log capture: every line a load logs, kept (up to 64 KiB) and counted, for
 * tests that check what a loader warned about. */
#ifndef GN_TESTS_SCENE_LOG_CAPTURE_H
#define GN_TESTS_SCENE_LOG_CAPTURE_H

#include "gnomon.h"

#include <stdint.h>
#include <stdio.h>

typedef struct captured {
    char text[1 << 16];
    size_t len;
    uint32_t lines;
} captured;

static inline void capture(gn_log_level level, const char *message, void *user)
{
    (void)level;
    captured *c = user;
    c->lines++;
    int n = snprintf(c->text + c->len, sizeof c->text - c->len, "%s\n", message);
    if (n > 0 && c->len + (size_t)n < sizeof c->text) c->len += (size_t)n;
}

#endif

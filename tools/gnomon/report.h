/* The render command's frame report: a table of passes on stdout and the same numbers as
 * JSON for --stats. Pure, so tests/cli checks it with made-up statistics. */
#ifndef GN_CLI_REPORT_H
#define GN_CLI_REPORT_H

#include "gnomon.h"

#include <stdio.h>

typedef struct gn_frame_report_meta {
    const char *device, *scene, *view;
    uint32_t width, height, msaa;
    double scene_build_ms;
} gn_frame_report_meta;

void gn_frame_report_print(FILE *f, const gn_frame_stats *s);
bool gn_frame_report_json(FILE *f, const gn_frame_report_meta *m, const gn_frame_stats *s);

/* Writes n with thousands separators ("1,234,567") into buf; returns buf. */
char *gn_report_count(uint64_t n, char *buf, size_t size);

#endif

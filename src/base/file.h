/* Files a reader is about to open: only regular ones. Opening a FIFO for reading blocks until
 * a writer comes (forever, from a script's mistake), and a directory or a device is no scene,
 * archive or image; so every path gnomon reads is checked here first (docs/RELIABILITY.md). */
#ifndef GN_BASE_FILE_H
#define GN_BASE_FILE_H

#include "gnomon.h"

#include <stdint.h>

/* GN_OK when path is a regular file (after following links), its size in *size (may be
 * NULL). Otherwise GN_ERROR_IO with one line naming the path and what it is ("is a FIFO (a
 * named pipe), not a regular file") or why stat failed ("cannot open the file: No such file
 * or directory"). */
gn_result gn_file_check_regular(const char *path, uint64_t *size, gn_error *err);

/* A regular file's whole contents, NUL-terminated, into *text (gn_malloc'd; free() it), its size
 * in *len; refused with GN_ERROR_BAD_DATA when over cap bytes (the message names `what`, e.g. "an
 * emitter file (GN_EMITTER_MAX_BYTES)"), GN_ERROR_IO when it cannot be read or its size changes
 * while it is read. */
gn_result gn_file_read_text(const char *path, uint64_t cap, const char *what, char **text, size_t *len,
                            gn_error *err);

#endif

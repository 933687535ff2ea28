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

#endif

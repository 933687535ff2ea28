/* Error reporting shared by every layer: one line naming the file, object and problem. */
#ifndef GN_BASE_ERROR_H
#define GN_BASE_ERROR_H

#include "gnomon.h"

/* Fills err (may be NULL) with code and a printf-style message; returns code. */
gn_result gn_fail(gn_error *err, gn_result code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

/* Filling a gn_error from the CLI's own code (GLFW, Embree, files) as the library fills it: the
 * CLI sees only gnomon.h, not the library's internal helper. */
#ifndef GN_CLI_ERROR_H
#define GN_CLI_ERROR_H

#include "gnomon.h"

/* Fills err (may be NULL) with code and a printf-style message; returns code. */
gn_result gn_cli_error(gn_error *err, gn_result code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

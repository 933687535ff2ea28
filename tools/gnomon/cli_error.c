/* See cli_error.h. */
#include "cli_error.h"

#include <stdarg.h>
#include <stdio.h>

gn_result gn_cli_error(gn_error *err, gn_result code, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* Errors of every layer: one line naming the file, object and problem (see error.h). */
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>

gn_result gn_fail(gn_error *err, gn_result code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

const char *gn_result_name(gn_result r)
{
    switch (r) {
    case GN_OK:
        return "GN_OK";
    case GN_ERROR_INVALID_ARGUMENT:
        return "GN_ERROR_INVALID_ARGUMENT";
    case GN_ERROR_NO_DEVICE:
        return "GN_ERROR_NO_DEVICE";
    case GN_ERROR_VULKAN:
        return "GN_ERROR_VULKAN";
    case GN_ERROR_OUT_OF_MEMORY:
        return "GN_ERROR_OUT_OF_MEMORY";
    case GN_ERROR_IO:
        return "GN_ERROR_IO";
    case GN_ERROR_BAD_DATA:
        return "GN_ERROR_BAD_DATA";
    case GN_ERROR_DEVICE_LOST:
        return "GN_ERROR_DEVICE_LOST";
    }
    return "GN_ERROR_UNKNOWN";
}

/* Decimal numbers in text files (base/number.h). */
#include "base/number.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

const char *gn_parse_float(const char *s, const char *end, float *out)
{
    double sign = 1.0, v = 0.0;
    if (s < end && (*s == '-' || *s == '+')) sign = *s++ == '-' ? -1.0 : 1.0;
    int digits = 0, exp10 = 0;
    for (; s < end && *s >= '0' && *s <= '9'; s++, digits++) v = v * 10.0 + (*s - '0');
    if (s < end && *s == '.')
        for (s++; s < end && *s >= '0' && *s <= '9'; s++, digits++) v = v * 10.0 + (*s - '0'), exp10--;
    if (!digits || !isfinite(v)) return NULL;
    if (s < end && (*s == 'e' || *s == 'E')) {
        int es = 1, e = 0, ed = 0;
        s++;
        if (s < end && (*s == '-' || *s == '+')) es = *s++ == '-' ? -1 : 1;
        for (; s < end && *s >= '0' && *s <= '9'; s++, ed++)
            if (e < 1000) e = e * 10 + (*s - '0');
        if (!ed) return NULL;
        exp10 += es * e;
    }
    /* scaled a power of ten at a time: overflow stops at infinity, underflow at 0 */
    for (; exp10 > 0 && isfinite(v); exp10--) v *= 10.0;
    for (; exp10 < 0 && v != 0.0; exp10++) v /= 10.0;
    v *= sign;
    if (!isfinite(v) || fabs(v) > FLT_MAX) return NULL;
    *out = (float)v;
    return s;
}

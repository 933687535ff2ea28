/* IEEE 754 half floats (rgba16f images) to and from float, rounding to nearest even; values
 * beyond the half's range become infinity, NaN stays NaN. */
#ifndef GN_BASE_HALF_H
#define GN_BASE_HALF_H

#include <stdint.h>
#include <string.h>

static inline float gn_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 1023u, bits;
    if (e == 0) { /* zero or subnormal: m 2^-24 */
        float f = (float)m * (1.0f / 16777216.0f);
        return sign ? -f : f;
    }
    bits = e == 31 ? sign | 0x7f800000u | (m << 13) : sign | ((e + 112u) << 23) | (m << 13);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline uint16_t gn_half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t e = (x >> 23) & 255u, m = x & 0x7fffffu;
    if (e == 255) return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0u));
    int32_t he = (int32_t)e - 112; /* the half's biased exponent */
    if (he >= 31) return (uint16_t)(sign | 0x7c00u);
    if (he <= 0) { /* subnormal or zero: the mantissa with its implicit bit, shifted, rounded */
        if (he < -10) return sign;
        uint32_t mm = m | 0x800000u, shift = (uint32_t)(14 - he);
        uint32_t v = mm >> shift, rest = mm & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
        if (rest > halfway || (rest == halfway && (v & 1u))) v++;
        return (uint16_t)(sign | v);
    }
    uint32_t v = ((uint32_t)he << 10) | (m >> 13), rest = m & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (v & 1u))) v++; /* may carry into the exponent: right */
    return (uint16_t)(sign | v);
}

#endif

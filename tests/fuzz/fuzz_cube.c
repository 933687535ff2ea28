/* libFuzzer target: arbitrary bytes as .cube text (gn_cube_lut_parse, from memory: libFuzzer's
 * buffer is exactly size bytes with no NUL after it, so a read past the end is a report), then,
 * when they parse, samples at the corners, inside, outside the domain and at NaN. Whatever the
 * bytes, the result must be GN_OK or a clean error, never a crash or a sanitizer report; a table
 * that parses must hold what the header promises and sample to finite values within its range.
 * Seeds: scripts/fuzz.sh writes a few small valid .cube files. */
#include "formats/cube_lut.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gn_cube_lut l;
    gn_error err;
    if (gn_cube_lut_parse((const char *)data, size, "fuzz.cube", &l, &err) != GN_OK) {
        static const gn_cube_lut zero;
        if (memcmp(&l, &zero, sizeof l) != 0) abort(); /* a failure leaves the table zeroed */
        return 0;
    }
    if (l.size < 2 || l.size > GN_CUBE_LUT_MAX_SIZE || !l.rgb || !memchr(l.title, '\0', sizeof l.title))
        abort();
    static const float points[][3] = {
        {0, 0, 0},          {1, 1, 1},        {0.5f, 0.25f, 0.75f},    {-3, 7, 0.5f},
        {1e30f, -1e30f, 2}, {NAN, 0.5f, NAN}, {INFINITY, -INFINITY, 0}};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        float out[3];
        gn_cube_lut_sample(&l, points[i], out);
        for (int c = 0; c < 3; c++)
            if (!(fabsf(out[c]) <= 1e4f)) abort(); /* a blend of entries, each within [-1e4, 1e4] */
    }
    gn_cube_lut_free(&l);
    return 0;
}

/* libFuzzer target: arbitrary bytes as a .dds file (gn_dds_parse, from memory: libFuzzer's
 * buffer is exactly size bytes, so a read past the end is a report), then, when they parse,
 * every level decoded to RGBA8 into a buffer of exactly its size. Whatever the bytes, the
 * result must be GN_OK or a clean error, never a crash or a sanitizer report; a file that
 * parses must hold what its header promises (levels inside the buffer, sides within the cap).
 * Seeds: scripts/fuzz.sh writes a few small valid files (BC1, BC4, BC7 with mips, RGBA8). */
#include "formats/dds.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gn_dds_image im;
    gn_error err;
    if (gn_dds_parse(data, size, "fuzz.dds", &im, &err) != GN_OK) {
        static const gn_dds_image zero;
        if (memcmp(&im, &zero, sizeof im) != 0) abort(); /* a failure leaves the image zeroed */
        return 0;
    }
    if (im.width < 1 || im.height < 1 || im.width > GN_DDS_MAX_SIDE || im.height > GN_DDS_MAX_SIDE ||
        im.levels < 1 || im.levels > GN_DDS_MAX_LEVELS || im.data < data || im.data + im.size > data + size)
        abort();
    /* large images decode slowly under the sanitizers: the first levels of up to 256K texels */
    for (uint32_t l = 0; l < im.levels; l++) {
        uint32_t w = im.width >> l ? im.width >> l : 1, h = im.height >> l ? im.height >> l : 1;
        if ((uint64_t)w * h > (1u << 18)) continue;
        uint8_t *px = malloc((size_t)w * h * 4);
        if (!px) return 0;
        if (!gn_dds_decode(im.format, im.data + im.level_offset[l], w, h, px)) abort();
        free(px);
    }
    return 0;
}

/* Mip generation: level counts, box filtering, and sRGB colour averaged in linear light. */
#include "base/image.h"
#include "check.h"

#include <math.h>

int main(void)
{
    CHECK(gn_mip_levels(1, 1) == 1, "1x1: %u", gn_mip_levels(1, 1));
    CHECK(gn_mip_levels(256, 256) == 9, "256: %u", gn_mip_levels(256, 256));
    CHECK(gn_mip_levels(256, 64) == 9, "256x64: %u", gn_mip_levels(256, 64));
    CHECK(gn_mip_levels(5, 3) == 3, "5x3: %u", gn_mip_levels(5, 3));

    /* a 2x2 checker of black and white: linear data averages to 128, sRGB colour to the
     * sRGB encoding of linear 0.5 (188), which keeps a distant checker as bright as it is */
    uint8_t src[16] = {0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0}, dst[4];
    gn_mip_down(src, 2, 2, false, dst);
    CHECK(dst[0] == 128 && dst[3] == 128, "linear average %u alpha %u", dst[0], dst[3]);
    gn_mip_down(src, 2, 2, true, dst);
    CHECK(dst[0] == 188 && dst[1] == 188 && dst[2] == 188, "srgb average %u", dst[0]);
    CHECK(dst[3] == 128, "alpha is linear: %u", dst[3]);

    /* odd sizes clamp at the edge: a 3x1 row halves to 1x1 from its first two texels */
    uint8_t row[12] = {10, 10, 10, 10, 30, 30, 30, 30, 200, 200, 200, 200}, one[4];
    gn_mip_down(row, 3, 1, false, one);
    CHECK(one[0] == 20, "3x1 -> %u", one[0]);

    /* a constant image stays constant through the whole chain */
    uint8_t img[8 * 8 * 4], a[4 * 4 * 4];
    for (int i = 0; i < 8 * 8 * 4; i++) img[i] = 77;
    gn_mip_down(img, 8, 8, true, a);
    int same = 1;
    for (int i = 0; i < 4 * 4 * 4; i++) same &= a[i] == 77;
    CHECK(same, "constant sRGB image changed under filtering");
    return gn_check_exit();
}

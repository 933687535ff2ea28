#include "base/image.h"

#include <math.h>

uint32_t gn_mip_levels(uint32_t w, uint32_t h)
{
    uint32_t n = 1, m = w > h ? w : h;
    while (m > 1) {
        m >>= 1;
        n++;
    }
    return n;
}

static float to_linear(uint8_t v)
{
    float c = v / 255.0f;
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static uint8_t to_srgb(float c)
{
    c = c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    int v = (int)(c * 255.0f + 0.5f);
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

void gn_mip_down(const uint8_t *src, uint32_t w, uint32_t h, bool srgb, uint8_t *dst)
{
    uint32_t dw = w > 1 ? w / 2 : 1, dh = h > 1 ? h / 2 : 1;
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++) {
            uint32_t x0 = x * 2 < w ? x * 2 : w - 1, x1 = x * 2 + 1 < w ? x * 2 + 1 : w - 1;
            uint32_t y0 = y * 2 < h ? y * 2 : h - 1, y1 = y * 2 + 1 < h ? y * 2 + 1 : h - 1;
            const uint8_t *p[4] = {&src[(y0 * w + x0) * 4], &src[(y0 * w + x1) * 4], &src[(y1 * w + x0) * 4],
                                   &src[(y1 * w + x1) * 4]};
            uint8_t *o = &dst[(y * dw + x) * 4];
            for (int c = 0; c < 4; c++) {
                if (srgb && c < 3) {
                    float sum =
                        to_linear(p[0][c]) + to_linear(p[1][c]) + to_linear(p[2][c]) + to_linear(p[3][c]);
                    o[c] = to_srgb(sum * 0.25f);
                } else {
                    o[c] = (uint8_t)((p[0][c] + p[1][c] + p[2][c] + p[3][c] + 2) / 4);
                }
            }
        }
}

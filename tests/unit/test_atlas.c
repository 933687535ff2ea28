/* The lightmap atlas packer and RGB9E5: no overlaps (padding included), inside the atlas,
 * deterministic, a half-texel inset for filtering; RGB9E5 round trips within its precision. */
#include "check.h"
#include "decide/atlas.h"

#include <math.h>
#include <string.h>

int main(void)
{
    gn_atlas_rect r[40], again[40];
    uint32_t scratch[40], w = 0, h = 0, w2 = 0, h2 = 0;
    for (uint32_t i = 0; i < 40; i++) r[i] = (gn_atlas_rect){.w = 128, .h = i % 3 ? 128 : 64};
    memcpy(again, r, sizeof r);
    CHECK(gn_atlas_pack(r, 40, 1, 4096, &w, &h, scratch), "40 lightmaps do not fit 4096");
    CHECK(gn_atlas_pack(again, 40, 1, 4096, &w2, &h2, scratch), "second pack failed");
    CHECK(w == w2 && h == h2 && memcmp(r, again, sizeof r) == 0, "packing is not deterministic");
    CHECK(w <= 1024 && h <= 1024, "atlas %ux%u is larger than needed", w, h);
    for (uint32_t i = 0; i < 40; i++) {
        CHECK(r[i].x >= 1 && r[i].y >= 1 && r[i].x + r[i].w + 1 <= w && r[i].y + r[i].h + 1 <= h,
              "rect %u at %u,%u leaves the %ux%u atlas (with padding)", i, r[i].x, r[i].y, w, h);
        for (uint32_t j = 0; j < i; j++) {
            bool apart = r[i].x + r[i].w + 2 <= r[j].x || r[j].x + r[j].w + 2 <= r[i].x ||
                         r[i].y + r[i].h + 2 <= r[j].y || r[j].y + r[j].h + 2 <= r[i].y;
            CHECK(apart, "rects %u and %u overlap or share padding", i, j);
        }
    }
    float uv[2];
    gn_atlas_uv(&r[0], w, h, 0.0f, 0.0f, uv);
    CHECK(fabsf(uv[0] * w - (r[0].x + 0.5f)) < 1e-3f && fabsf(uv[1] * h - (r[0].y + 0.5f)) < 1e-3f,
          "corner uv %g %g not on the first texel centre", uv[0] * w, uv[1] * h);
    gn_atlas_uv(&r[0], w, h, 1.0f, 1.0f, uv);
    CHECK(fabsf(uv[0] * w - (r[0].x + r[0].w - 0.5f)) < 1e-3f, "far uv %g not on the last texel centre",
          uv[0] * w);
    gn_atlas_uv(&r[0], w, h, 0.5f, 0.25f, uv); /* inside: texel edges map 1:1 (no rescaling) */
    CHECK(fabsf(uv[0] * w - (r[0].x + r[0].w * 0.5f)) < 1e-3f &&
              fabsf(uv[1] * h - (r[0].y + r[0].h * 0.25f)) < 1e-3f,
          "mid uv %g %g is not the rectangle's point", uv[0] * w, uv[1] * h);
    gn_atlas_rect big = {.w = 5000, .h = 10};
    CHECK(!gn_atlas_pack(&big, 1, 1, 4096, &w, &h, scratch), "a 5000-wide rect fit a 4096 atlas");

    /* RGB9E5: 9 bits of mantissa: relative error below 2^-9 of the largest channel */
    const float tests[][3] = {
        {1, 0.5f, 0.25f}, {0, 0, 0}, {3.7f, 0.01f, 100}, {60000, 1, 1e-5f}, {-1, NAN, 2}};
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        float back[3], m = 0;
        gn_rgb9e5_decode(gn_rgb9e5_encode(tests[i]), back);
        for (int c = 0; c < 3; c++) m = fmaxf(m, tests[i][c] > 0 ? tests[i][c] : 0);
        for (int c = 0; c < 3; c++) {
            float want = tests[i][c] > 0 ? tests[i][c] : 0;
            CHECK(fabsf(back[c] - want) <= m / 256.0f + 1e-30f, "rgb9e5 case %zu channel %d: %g back as %g",
                  i, c, want, back[c]);
        }
    }
    return gn_check_exit();
}

/* Procedural textures: deterministic, unit tangent-space normals facing out, green = up,
 * and no seam where the image wraps. */
#include "scene/texgen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_check.h"

enum { S = 256 };

static float col_diff(const uint8_t *img, int a, int b)
{
    double d = 0;
    for (int y = 0; y < S; y++)
        for (int k = 0; k < 3; k++) d += abs((int)img[(y * S + a) * 4 + k] - (int)img[(y * S + b) * 4 + k]);
    return (float)(d / (S * 3));
}

static int check_kind(gn_texgen_kind kind, uint8_t *c, uint8_t *n, uint8_t *c2, uint8_t *n2)
{
    const char *name = gn_texgen_name(kind);
    CHECK(gn_texgen(kind, S, 5, c, n), "%s: generation failed", name);
    CHECK(gn_texgen(kind, S, 5, c2, n2), "%s: generation failed", name);
    CHECK(memcmp(c, c2, S * S * 4) == 0 && memcmp(n, n2, S * S * 4) == 0, "%s: not deterministic", name);
    double lum = 0;
    for (int i = 0; i < S * S; i++) {
        float x = n[i * 4] / 127.5f - 1, y = n[i * 4 + 1] / 127.5f - 1, z = n[i * 4 + 2] / 127.5f - 1;
        float len = sqrtf(x * x + y * y + z * z);
        CHECK(z > 0.2f && fabsf(len - 1) < 0.03f, "%s: normal texel %d = %g %g %g", name, i, x, y, z);
        lum += (c[i * 4] + c[i * 4 + 1] + c[i * 4 + 2]) / (3.0 * 255.0);
    }
    lum /= S * S;
    CHECK(lum > 0.08 && lum < 0.95, "%s: mean brightness %g", name, lum);
    /* The wrap seam differs from its neighbours no more than neighbouring columns do. */
    float inner = 0;
    for (int x = 1; x < S; x++) inner += col_diff(c, x - 1, x);
    inner /= S - 1;
    float seam = col_diff(c, S - 1, 0);
    CHECK(seam < 4.0f * inner + 2.0f, "%s: seam %g vs typical %g", name, seam, inner);
    return 0;
}

int main(void)
{
    uint8_t *c = malloc(S * S * 4), *n = malloc(S * S * 4), *c2 = malloc(S * S * 4), *n2 = malloc(S * S * 4);
    if (!c || !n || !c2 || !n2) return 1;
    int f = 0;
    for (int k = 0; k < GN_TEX_KIND_COUNT; k++) f += check_kind((gn_texgen_kind)k, c, n, c2, n2);
    /* Convention: a brick's top bevel (just below a mortar line, rows 16k + 2) tilts
     * towards image up, so its green is above 0.5; the bottom bevel's is below. */
    if (!f && gn_texgen(GN_TEX_BRICK, S, 5, c, n)) {
        double top = 0, bottom = 0;
        for (int k = 0; k < 16; k++)
            for (int x = 0; x < S; x++) {
                top += n[((16 * k + 2) * S + x) * 4 + 1] / 255.0;
                bottom += n[((16 * k + 13) * S + x) * 4 + 1] / 255.0;
            }
        top /= 16 * S, bottom /= 16 * S;
        if (!(top > 0.55 && bottom < 0.45)) {
            fprintf(stderr, "%s:%d: brick bevel green top %g bottom %g\n", __FILE__, __LINE__, top, bottom);
            f++;
        }
    }
    free(c), free(n), free(c2), free(n2);
    if (!f) printf("scene_texgen: ok\n");
    return f ? 1 : 0;
}

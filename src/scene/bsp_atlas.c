/* The lightmap atlas (bsp_atlas.h). */
#include "scene/bsp_atlas.h"
#include "base/alloc.h"
#include "base/error.h"
#include "formats/bsp_light.h"

#include <stdlib.h>
#include <string.h>

void gn_bsp_atlas_free(gn_bsp_atlas *a)
{
    if (!a) return;
    free(a->texels);
    free(a->rects);
    memset(a, 0, sizeof *a);
}

/* Lightmap l's texel (x, y), clamped to its edges: the padding repeats the nearest texel so
 * that a lookup that strays into it (it cannot with the inset, but a coarser filter could)
 * still sees this lightmap's light. */
static uint32_t lightmap_texel(const gn_bsp *b, uint32_t l, int x, int y)
{
    const int n = GN_BSP_LIGHTMAP_SIZE;
    x = x < 0 ? 0 : x >= n ? n - 1 : x;
    y = y < 0 ? 0 : y >= n ? n - 1 : y;
    const uint8_t *p = b->lightmaps + (size_t)l * GN_BSP_LIGHTMAP_BYTES + ((size_t)y * n + (size_t)x) * 3;
    float rgb[3];
    gn_bsp_light_to_linear(p, rgb);
    return gn_rgb9e5_encode(rgb);
}

gn_result gn_bsp_lightmap_atlas(const gn_bsp *b, gn_bsp_atlas *out, gn_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t n = b->lightmap_count;
    if (!n) return GN_OK;
    out->rects = gn_calloc(n, sizeof *out->rects);
    uint32_t *scratch = gn_malloc((size_t)n * sizeof *scratch);
    if (!out->rects || !scratch) {
        free(scratch);
        gn_bsp_atlas_free(out);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %u lightmaps", b->name, n);
    }
    for (uint32_t i = 0; i < n; i++) out->rects[i].w = out->rects[i].h = GN_BSP_LIGHTMAP_SIZE;
    bool fits = gn_atlas_pack(out->rects, n, 1, GN_BSP_ATLAS_MAX_SIDE, &out->width, &out->height, scratch);
    free(scratch);
    if (!fits) {
        gn_bsp_atlas_free(out);
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %u lightmaps do not fit a %u^2 atlas", b->name, n,
                       GN_BSP_ATLAS_MAX_SIDE);
    }
    out->count = n;
    out->texels = gn_calloc((size_t)out->width * out->height, sizeof *out->texels);
    if (!out->texels) {
        gn_bsp_atlas_free(out);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for the lightmap atlas", b->name);
    }
    for (uint32_t l = 0; l < n; l++) {
        const gn_atlas_rect *r = &out->rects[l];
        /* the rectangle and its one-texel frame (the packer keeps the frame inside the atlas) */
        for (int y = -1; y <= (int)r->h; y++)
            for (int x = -1; x <= (int)r->w; x++)
                out->texels[(size_t)((int)r->y + y) * out->width + (size_t)((int)r->x + x)] =
                    lightmap_texel(b, l, x, y);
    }
    return GN_OK;
}

void gn_bsp_lightmap_uv(const gn_bsp_atlas *a, uint32_t index, const float lm_uv[2], float out[2])
{
    gn_atlas_uv(&a->rects[index], a->width, a->height, lm_uv[0], lm_uv[1], out);
}

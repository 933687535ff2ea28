#include "base/bsp_light.h"
#include "base/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gn_bsp_light_to_linear(const uint8_t rgb[3], float out[3])
{
    for (int c = 0; c < 3; c++) out[c] = powf(4.0f * (float)rgb[c] / 255.0f, GN_BSP_LIGHT_GAMMA);
}

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
    out->rects = calloc(n, sizeof *out->rects);
    uint32_t *scratch = malloc((size_t)n * sizeof *scratch);
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
    out->texels = calloc((size_t)out->width * out->height, sizeof *out->texels);
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

/* One cell's light; false when it has none (a cell inside a wall). */
static bool grid_cell(const gn_bsp *b, const uint32_t c[3], float amb[3], float dirl[3], float dir[3])
{
    size_t i = c[0] + (size_t)c[1] * b->grid_dims[0] + (size_t)c[2] * b->grid_dims[0] * b->grid_dims[1];
    const uint8_t *p = b->lightvols + i * 8;
    if (!(p[0] | p[1] | p[2] | p[3] | p[4] | p[5])) return false;
    gn_bsp_light_to_linear(p, amb);
    gn_bsp_light_to_linear(p + 3, dirl);
    /* Q3's encoding: byte 6 the longitude, byte 7 the latitude, each 256 steps a turn */
    float lng = (float)p[6] * (2.0f * 3.14159265f / 256.0f),
          lat = (float)p[7] * (2.0f * 3.14159265f / 256.0f);
    float q[3] = {cosf(lat) * sinf(lng), sinf(lat) * sinf(lng), cosf(lng)};
    gn_bsp_dir_from_quake(q, dir);
    return true;
}

bool gn_bsp_light_grid_sample(const gn_bsp *b, const float p[3], float ambient[3], float directed[3],
                              float dir[3])
{
    memset(ambient, 0, 3 * sizeof *ambient);
    memset(directed, 0, 3 * sizeof *directed);
    memset(dir, 0, 3 * sizeof *dir);
    if (!b->has_grid) return false;
    float q[3], f[3];
    uint32_t base[3];
    gn_bsp_point_to_quake(p, q);
    for (int k = 0; k < 3; k++) {
        float g = (q[k] - b->grid_origin[k]) / b->grid_size[k];
        float top = (float)(b->grid_dims[k] - 1);
        g = !(g > 0.0f) ? 0.0f : g > top ? top : g; /* outside the grid: its edge (NaN: 0) */
        float fl = floorf(g);
        base[k] = (uint32_t)fl;
        f[k] = g - fl;
    }
    float total = 0.0f, d[3] = {0, 0, 0};
    for (uint32_t corner = 0; corner < 8; corner++) {
        uint32_t c[3];
        float w = 1.0f;
        for (int k = 0; k < 3; k++) {
            uint32_t bit = (corner >> k) & 1u;
            c[k] = base[k] + bit < b->grid_dims[k] ? base[k] + bit : base[k];
            w *= bit ? f[k] : 1.0f - f[k];
        }
        float a[3], l[3], dd[3];
        if (w <= 0.0f || !grid_cell(b, c, a, l, dd)) continue;
        total += w;
        for (int k = 0; k < 3; k++) {
            ambient[k] += w * a[k];
            directed[k] += w * l[k];
            d[k] += w * dd[k] * (l[0] + l[1] + l[2]); /* brighter cells steer the direction more */
        }
    }
    if (total <= 0.0f) return false;
    for (int k = 0; k < 3; k++) ambient[k] /= total, directed[k] /= total;
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (len > 0.0f)
        for (int k = 0; k < 3; k++) dir[k] = d[k] / len;
    else
        dir[1] = 1.0f;
    return true;
}

uint32_t gn_bsp_light_entities(const gn_bsp *b, float scale, gn_light_desc *out, uint32_t max,
                               uint32_t *total)
{
    uint32_t n = 0, all = 0;
    gn_bsp_entity e;
    for (uint32_t i = 0; gn_bsp_entity_find(b, "light", i, &e); i++) {
        if (!e.has_origin || !(e.light > 0.0f)) continue;
        all++;
        if (n >= max) continue;
        /* Q3's point lights reach about `light` units; a floor of 2 m keeps tiny ones visible */
        float radius = fmaxf(e.light * GN_BSP_UNIT, 2.0f);
        out[n++] = (gn_light_desc){
            .type = GN_LIGHT_POINT,
            .position = {e.origin[0], e.origin[1], e.origin[2]},
            .radius = radius,
            .color = {e.color[0], e.color[1], e.color[2]},
            .intensity = scale * 3.0f * e.light / 300.0f,
        };
    }
    if (total) *total = all;
    return n;
}

#include "formats/bsp_light.h"
#include "base/gmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gn_bsp_light_to_linear(const uint8_t rgb[3], float out[3])
{
    for (int c = 0; c < 3; c++)
        out[c] = GN_BSP_LIGHT_NITS * powf(4.0f * (float)rgb[c] / 255.0f, GN_BSP_LIGHT_GAMMA);
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
    memcpy(dir, d, sizeof d);
    if (!(gn_vec3_normalize_len(dir, 0.0f) > 0.0f)) gn_vec3_set(dir, 0.0f, 1.0f, 0.0f);
    return true;
}

uint32_t gn_bsp_light_entities(const gn_bsp *b, float scale, gn_light_desc *out, uint32_t max,
                               uint32_t *total)
{
    uint32_t n = 0, all = 0;
    gn_bsp_entity e;
    gn_bsp_entity_cursor cursor = {0};
    while (gn_bsp_entity_next(b, "light", &cursor, &e)) { /* one pass over the lump */
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
            /* in the lightmaps' units (GN_BSP_LIGHT_NITS a level): candela */
            .intensity = scale * GN_BSP_LIGHT_NITS * 3.0f * e.light / 300.0f,
        };
    }
    if (total) *total = all;
    return n;
}

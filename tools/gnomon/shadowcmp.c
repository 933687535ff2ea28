/* Agreement of a rendered shadow view with the truth mask; see shadowcmp.h. */
#include "shadowcmp.h"

#include "truth.h"

#include <stdlib.h>
#include <string.h>

static bool gn_shadow_rendered_lit(const uint8_t *rgba, size_t i) { return rgba[4 * i] >= 128; }

/* 1 where a counted surface pixel touches (4-neighbourhood) one of the other state. */
static void gn_shadow_edges(const uint8_t *m, uint32_t w, uint32_t h, uint8_t *edge)
{
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            uint8_t v = m[i];
            edge[i] = 0;
            if (!GN_TRUTH_COUNTS(v)) continue;
            size_t nb[4];
            int n = 0;
            if (x > 0) nb[n++] = i - 1;
            if (x + 1 < w) nb[n++] = i + 1;
            if (y > 0) nb[n++] = i - w;
            if (y + 1 < h) nb[n++] = i + w;
            for (int k = 0; k < n; k++)
                if (GN_TRUTH_COUNTS(m[nb[k]]) && m[nb[k]] != v) edge[i] = 1;
        }
    }
}

/* near[i] = 1 when an edge pixel lies within GN_SHADOW_EDGE_RADIUS (Euclidean) of i: the
 * edge map dilated by a disc. */
static void gn_shadow_near_edges(const uint8_t *edge, uint32_t w, uint32_t h, uint8_t *near)
{
    const int r = GN_SHADOW_EDGE_RADIUS;
    memset(near, 0, (size_t)w * h);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            if (!edge[(size_t)y * w + x]) continue;
            for (int dy = -r; dy <= r; dy++) {
                for (int dx = -r; dx <= r; dx++) {
                    long nx = (long)x + dx, ny = (long)y + dy;
                    if (dx * dx + dy * dy > r * r || nx < 0 || ny < 0 || nx >= (long)w || ny >= (long)h)
                        continue;
                    near[(size_t)ny * w + (size_t)nx] = 1;
                }
            }
        }
    }
}

bool gn_shadow_compare(const uint8_t *truth_mask, const uint8_t *rendered_rgba, uint32_t w, uint32_t h,
                       gn_shadow_agreement *out)
{
    *out = (gn_shadow_agreement){0};
    size_t n = (size_t)w * h;
    uint8_t *edge = malloc(n ? n : 1), *near = malloc(n ? n : 1);
    if (!edge || !near) {
        free(edge);
        free(near);
        return false;
    }
    gn_shadow_edges(truth_mask, w, h, edge);
    gn_shadow_near_edges(edge, w, h, near);

    uint64_t agree = 0, agree_off = 0, false_lit = 0, false_shadow = 0;
    for (size_t i = 0; i < n; i++) {
        if (!GN_TRUTH_COUNTS(truth_mask[i])) continue; /* sky, or edge-on to the sun */
        bool truth_lit = truth_mask[i] == GN_TRUTH_LIT;
        bool lit = gn_shadow_rendered_lit(rendered_rgba, i);
        out->pixels++;
        agree += truth_lit == lit;
        false_lit += !truth_lit && lit;
        false_shadow += truth_lit && !lit;
        if (!near[i]) {
            out->pixels_off_edge++;
            agree_off += truth_lit == lit;
        }
    }
    free(edge);
    free(near);
    if (out->pixels) {
        out->agreement_all = (double)agree / (double)out->pixels;
        out->false_lit = (double)false_lit / (double)out->pixels;
        out->false_shadow = (double)false_shadow / (double)out->pixels;
    }
    if (out->pixels_off_edge) out->agreement_off_edge = (double)agree_off / (double)out->pixels_off_edge;
    return true;
}

static void gn_shadow_put(uint8_t *rgba, size_t i, uint8_t r, uint8_t g, uint8_t b)
{
    rgba[4 * i] = r, rgba[4 * i + 1] = g, rgba[4 * i + 2] = b, rgba[4 * i + 3] = 255;
}

void gn_shadow_mask_rgba(const uint8_t *truth_mask, uint32_t w, uint32_t h, uint8_t *rgba)
{
    for (size_t i = 0; i < (size_t)w * h; i++)
        gn_shadow_put(rgba, i, truth_mask[i], truth_mask[i], truth_mask[i]);
}

void gn_shadow_diff_rgba(const uint8_t *truth_mask, const uint8_t *rendered_rgba, uint32_t w, uint32_t h,
                         uint8_t *rgba)
{
    for (size_t i = 0; i < (size_t)w * h; i++) {
        if (!GN_TRUTH_COUNTS(truth_mask[i])) {
            gn_shadow_put(rgba, i, 128, 128, 128);
            continue;
        }
        bool truth_lit = truth_mask[i] == GN_TRUTH_LIT;
        bool lit = gn_shadow_rendered_lit(rendered_rgba, i);
        if (truth_lit && lit)
            gn_shadow_put(rgba, i, 40, 170, 60);
        else if (!truth_lit && !lit)
            gn_shadow_put(rgba, i, 32, 32, 32);
        else if (lit)
            gn_shadow_put(rgba, i, 230, 40, 40); /* false lit: a missing shadow */
        else
            gn_shadow_put(rgba, i, 50, 90, 240); /* false shadow: acne or a wrong caster */
    }
}

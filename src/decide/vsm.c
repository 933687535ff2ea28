#include "decide/vsm.h"
#include "base/alloc.h"
#include "decide/csm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t gn_vsm_n(const gn_vsm_settings *s) { return s->virtual_res / s->page_texels; }

int32_t gn_vsm_floor_index(float x)
{
    if (isnan(x)) return 0;
    float f = floorf(x);
    if (f >= (float)GN_VSM_INDEX_LIMIT) return GN_VSM_INDEX_LIMIT;
    if (f <= -(float)GN_VSM_INDEX_LIMIT) return -GN_VSM_INDEX_LIMIT;
    return (int32_t)f;
}

void gn_vsm_view_compute(const gn_vsm_settings *s, const float sun_dir[3], const float camera_pos[3],
                         float pixel_angle, gn_vsm_view *out)
{
    memset(out, 0, sizeof *out);
    gn_csm_light_rotation(sun_dir, out->rot);
    gn_csm_pivot(camera_pos, s->pivot_grid, out->pivot);
    memcpy(out->sun_dir, sun_dir, sizeof out->sun_dir);
    memcpy(out->camera, camera_pos, sizeof out->camera);
    out->levels = s->levels;
    out->pages_per_side = gn_vsm_n(s);
    out->footprint_scale = pixel_angle;
    out->texel0 = s->level0_size / (float)s->virtual_res;
    float c[3];
    gn_vsm_to_light(out, camera_pos, c);
    int32_t half = (int32_t)out->pages_per_side / 2;
    for (uint32_t l = 0; l < s->levels; l++) {
        /* powers of two times a page: exact in float, so every level's grid nests in the next */
        out->page_size[l] = ldexpf(s->level0_size / (float)out->pages_per_side, (int)l);
        out->origin[l][0] = gn_vsm_floor_index(c[0] / out->page_size[l]) - half;
        out->origin[l][1] = gn_vsm_floor_index(c[1] / out->page_size[l]) - half;
    }
}

void gn_vsm_to_light(const gn_vsm_view *v, const float p[3], float out[3])
{
    float d[3] = {p[0] - v->pivot[0], p[1] - v->pivot[1], p[2] - v->pivot[2]};
    for (int r = 0; r < 3; r++)
        out[r] = v->rot[r * 3] * d[0] + v->rot[r * 3 + 1] * d[1] + v->rot[r * 3 + 2] * d[2];
}

bool gn_vsm_mark_point(const gn_vsm_view *v, const float p[3], uint32_t *level, uint32_t *slot)
{
    float dx = p[0] - v->camera[0], dy = p[1] - v->camera[1], dz = p[2] - v->camera[2];
    float footprint = sqrtf(dx * dx + dy * dy + dz * dz) * v->footprint_scale;
    float lp[3];
    gn_vsm_to_light(v, p, lp);
    int32_t n = (int32_t)v->pages_per_side;
    for (uint32_t l = 0; l < v->levels; l++) {
        /* the level whose texel best matches the footprint: the finest with texel * sqrt 2 >= it */
        if (footprint > ldexpf(v->texel0, (int)l) * GN_VSM_MATCH && l + 1 < v->levels) continue;
        int32_t i = gn_vsm_floor_index(lp[0] / v->page_size[l]),
                j = gn_vsm_floor_index(lp[1] / v->page_size[l]);
        int32_t a = i - v->origin[l][0], b = j - v->origin[l][1];
        if (a < 0 || b < 0 || a >= n || b >= n) continue; /* outside this level's window */
        *level = l;
        *slot = (uint32_t)(((i % n) + n) % n) + (uint32_t)(((j % n) + n) % n) * (uint32_t)n;
        return true;
    }
    return false;
}

void gn_vsm_slot_page(const gn_vsm_view *v, uint32_t level, uint32_t slot, int32_t *i, int32_t *j)
{
    /* the window's page whose coordinates are congruent to the slot */
    int32_t n = (int32_t)v->pages_per_side, sx = (int32_t)slot % n, sy = (int32_t)slot / n;
    int32_t ox = v->origin[level][0], oy = v->origin[level][1];
    *i = ox + (((sx - ox) % n) + n) % n;
    *j = oy + (((sy - oy) % n) + n) % n;
}

bool gn_vsm_state_init(gn_vsm_state *st, const gn_vsm_settings *s)
{
    memset(st, 0, sizeof *st);
    st->s = *s;
    uint32_t n = gn_vsm_n(s), total = s->levels * n * n;
    st->pages = gn_calloc(total, sizeof *st->pages);
    st->free_list = gn_malloc((s->pool_pages ? s->pool_pages : 1) * sizeof *st->free_list);
    st->render = gn_malloc(total * sizeof *st->render);
    st->scratch = gn_malloc(total * sizeof *st->scratch);
    if (!st->pages || !st->free_list || !st->render || !st->scratch) {
        gn_vsm_state_free(st);
        return false;
    }
    for (uint32_t k = 0; k < total; k++) st->pages[k].physical = GN_VSM_NONE;
    /* handed out from the end: page 0 first */
    for (uint32_t k = 0; k < s->pool_pages; k++) st->free_list[k] = s->pool_pages - 1 - k;
    st->free_count = s->pool_pages;
    return true;
}

void gn_vsm_state_free(gn_vsm_state *st)
{
    free(st->pages);
    free(st->free_list);
    free(st->render);
    free(st->scratch);
    memset(st, 0, sizeof *st);
}

uint32_t gn_vsm_version_update(gn_vsm_versions *vv, const gn_vsm_view *v)
{
    uint32_t k = vv->current % GN_VSM_VERSIONS;
    bool same = vv->any && memcmp(vv->rot[k], v->rot, sizeof v->rot) == 0 &&
                memcmp(vv->pivot[k], v->pivot, sizeof v->pivot) == 0;
    if (same) return vv->current;
    if (vv->any) vv->current++;
    vv->any = true;
    k = vv->current % GN_VSM_VERSIONS;
    memcpy(vv->rot[k], v->rot, sizeof v->rot);
    memcpy(vv->pivot[k], v->pivot, sizeof v->pivot);
    memcpy(vv->sun[k], v->sun_dir, sizeof v->sun_dir);
    return vv->current;
}

float gn_vsm_angle_deg(const float a[3], const float b[3])
{
    double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
    double c[3] = {(double)a[1] * b[2] - (double)a[2] * b[1], (double)a[2] * b[0] - (double)a[0] * b[2],
                   (double)a[0] * b[1] - (double)a[1] * b[0]};
    return (float)(atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), d) * 180.0 / 3.14159265358979323846);
}

/* Render priority, smaller first: new (never rendered) pages, finest level first; then dirty
 * ones; then by light version, oldest first. Ties by index: deterministic. The GPU's ALLOC
 * (shaders/vsm_alloc.comp) orders the same way by buckets: 0 + level, 16 + level, then
 * 32 + 255 - the version's age. */
static uint64_t gn_vsm_priority(const gn_vsm_state *st, uint32_t index, uint32_t per_level)
{
    const gn_vsm_page *pg = &st->pages[index];
    uint64_t level = index / per_level;
    if (!pg->rendered) return (0ull << 62) | (level << 32) | index;
    if (pg->dirty) return (1ull << 62) | (level << 32) | index;
    return (2ull << 62) | ((uint64_t)pg->version << 30) | index;
}

static void gn_vsm_sort(gn_vsm_state *st, uint32_t *idx, uint32_t n, uint32_t per_level)
{
    for (uint32_t a = 1; a < n; a++) { /* insertion sort: the lists are short */
        uint32_t k = idx[a], b = a;
        uint64_t key = gn_vsm_priority(st, k, per_level);
        while (b > 0 && gn_vsm_priority(st, idx[b - 1], per_level) > key) {
            idx[b] = idx[b - 1];
            b--;
        }
        idx[b] = k;
    }
}

void gn_vsm_alloc(gn_vsm_state *st, const gn_vsm_view *v, const uint32_t *request, gn_vsm_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    st->frame++;
    uint32_t n = v->pages_per_side, per_level = n * n, total = st->s.levels * per_level;
    uint32_t current = gn_vsm_version_update(&st->versions, v);
    /* pages that left their slot's window (another page now maps there) or were not requested
     * for evict_frames frames go back to the pool first, in index order, so requests can
     * reuse them */
    for (uint32_t k = 0; k < total; k++) {
        gn_vsm_page *pg = &st->pages[k];
        if (pg->physical == GN_VSM_NONE) continue;
        int32_t i, j;
        gn_vsm_slot_page(v, k / per_level, k % per_level, &i, &j);
        bool moved_out = pg->i != i || pg->j != j;
        bool stale = st->frame - pg->last_requested > st->s.evict_frames;
        bool too_old = pg->rendered && current - pg->version >= GN_VSM_VERSIONS;
        if (moved_out || stale || too_old) {
            st->free_list[st->free_count++] = pg->physical;
            pg->physical = GN_VSM_NONE;
            pg->rendered = pg->dirty = false;
            stats->evicted++;
        }
    }
    /* requested pages: keep theirs, or take the top of the free stack in index order; when it
     * is empty the page overflows (counted) and the lookup falls back to a coarser level */
    uint32_t candidates = 0;
    for (uint32_t k = 0; k < total; k++) {
        if (!(request[k >> 5] & (1u << (k & 31)))) continue;
        gn_vsm_page *pg = &st->pages[k];
        uint32_t level = k / per_level;
        stats->requested++;
        stats->requested_level[level]++;
        if (pg->physical == GN_VSM_NONE) {
            if (!st->free_count) {
                stats->overflow++;
                continue;
            }
            gn_vsm_slot_page(v, level, k % per_level, &pg->i, &pg->j);
            pg->physical = st->free_list[--st->free_count];
            pg->rendered = pg->dirty = false;
        }
        /* back in view after a gap under an older sun: not shown until rendered again (a coarser
         * page stands in), so that the lag of what is shown stays within the refresh cycle */
        if (pg->rendered && pg->version != current && st->frame - pg->last_requested > GN_VSM_RETURN_GAP)
            pg->rendered = false;
        pg->last_requested = st->frame;
        if (!pg->rendered || pg->dirty || pg->version != current) st->scratch[candidates++] = k;
        if (pg->rendered) {
            uint32_t vk = pg->version % GN_VSM_VERSIONS;
            float lag = gn_vsm_angle_deg(st->versions.sun[vk], v->sun_dir);
            if (lag > stats->sun_lag_deg) stats->sun_lag_deg = lag;
        }
    }
    st->candidate_count = candidates;
    st->render_count = 0;
    for (uint32_t k = 0; k < total; k++) stats->resident += st->pages[k].physical != GN_VSM_NONE;
    stats->pool_used = st->s.pool_pages - st->free_count;
}

void gn_vsm_select(gn_vsm_state *st, uint32_t budget, gn_vsm_stats *stats)
{
    uint32_t per_level = st->s.virtual_res / st->s.page_texels;
    per_level *= per_level;
    gn_vsm_sort(st, st->scratch, st->candidate_count, per_level);
    st->render_count = st->candidate_count < budget ? st->candidate_count : budget;
    memcpy(st->render, st->scratch, st->render_count * sizeof *st->render);
    stats->waiting = st->candidate_count - st->render_count;
    for (uint32_t r = 0; r < st->render_count; r++) {
        const gn_vsm_page *pg = &st->pages[st->render[r]];
        stats->rendered_level[st->render[r] / per_level]++;
        stats->rendered_fresh += !pg->rendered || pg->dirty;
    }
    stats->rendered_static = st->render_count;
}

void gn_vsm_commit(gn_vsm_state *st)
{
    for (uint32_t r = 0; r < st->render_count; r++) {
        gn_vsm_page *pg = &st->pages[st->render[r]];
        pg->rendered = true;
        pg->dirty = false;
        pg->version = st->versions.current;
    }
}

uint32_t gn_vsm_invalidate_sphere(gn_vsm_state *st, const float sphere[4])
{
    uint32_t n = gn_vsm_n(&st->s), per_level = n * n, total = st->s.levels * per_level, hits = 0;
    for (uint32_t k = 0; k < total; k++) {
        gn_vsm_page *pg = &st->pages[k];
        if (!pg->rendered || pg->dirty) continue;
        uint32_t vk = pg->version % GN_VSM_VERSIONS;
        gn_vsm_view v = {.levels = st->s.levels};
        memcpy(v.rot, st->versions.rot[vk], sizeof v.rot);
        memcpy(v.pivot, st->versions.pivot[vk], sizeof v.pivot);
        float lp[3], size = ldexpf(st->s.level0_size / (float)n, (int)(k / per_level));
        gn_vsm_to_light(&v, sphere, lp);
        float x0 = (float)pg->i * size, y0 = (float)pg->j * size;
        /* the sphere's shadow runs away from the sun (light z): only x, y matter */
        if (lp[0] + sphere[3] < x0 || lp[0] - sphere[3] > x0 + size || lp[1] + sphere[3] < y0 ||
            lp[1] - sphere[3] > y0 + size)
            continue;
        pg->dirty = true;
        hits++;
    }
    return hits;
}

void gn_vsm_page_matrix(const gn_vsm_state *st, uint32_t version, uint32_t level, int32_t i, int32_t j,
                        float out[16])
{
    uint32_t vk = version % GN_VSM_VERSIONS;
    const float *r = st->versions.rot[vk], *pv = st->versions.pivot[vk];
    double size = ldexp((double)st->s.level0_size / gn_vsm_n(&st->s), (int)level);
    double cx = ((double)i + 0.5) * size, cy = ((double)j + 0.5) * size, half = 0.5 * size;
    double range = st->s.depth_range;
    /* clip = S * (R * (p - pivot) - c): x, y scaled to [-1, 1] (y flipped), z to [0, 1] */
    double sx = 1.0 / half, sy = -1.0 / half, sz = 0.5 / range;
    double row[3][4];
    for (int k = 0; k < 3; k++) {
        double s = k == 0 ? sx : k == 1 ? sy : sz;
        double t = 0.0;
        for (int c = 0; c < 3; c++) {
            row[k][c] = s * r[k * 3 + c];
            t -= row[k][c] * pv[c];
        }
        row[k][3] = t - s * (k == 0 ? cx : k == 1 ? cy : -range);
    }
    memset(out, 0, 16 * sizeof *out);
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 4; c++) out[c * 4 + k] = (float)row[k][c];
    out[15] = 1.0f;
}

bool gn_vsm_bins_reserve(gn_vsm_bins *b, uint32_t cells, uint32_t casters)
{
    if (cells + 1 > b->cell_cap) {
        uint32_t *p = gn_realloc(b->start, (cells + 1) * sizeof *p);
        if (!p) return false;
        b->start = p, b->cell_cap = cells + 1;
    }
    if (4 * casters > b->item_cap) {
        uint32_t *p = gn_realloc(b->items, (size_t)4 * casters * sizeof *p);
        if (!p) return false;
        b->items = p, b->item_cap = 4 * casters;
    }
    if (casters > b->big_cap) {
        uint32_t *p = gn_realloc(b->big, (size_t)casters * sizeof *p);
        if (!p) return false;
        b->big = p, b->big_cap = casters;
    }
    return true;
}

void gn_vsm_bins_free(gn_vsm_bins *b)
{
    free(b->start);
    free(b->items);
    free(b->big);
    memset(b, 0, sizeof *b);
}

/* The cells [x0, x1] x [y0, y1] a disc's bounding square meets, clamped to the grid; false
 * when it misses the grid. */
static bool gn_vsm_cells(const gn_vsm_bins *b, float x, float y, float r, int32_t c[4])
{
    int32_t n = (int32_t)b->n;
    c[0] = gn_vsm_floor_index((x - r) / b->cell) - b->origin[0];
    c[1] = gn_vsm_floor_index((x + r) / b->cell) - b->origin[0];
    c[2] = gn_vsm_floor_index((y - r) / b->cell) - b->origin[1];
    c[3] = gn_vsm_floor_index((y + r) / b->cell) - b->origin[1];
    if (c[1] < 0 || c[0] >= n || c[3] < 0 || c[2] >= n) return false;
    c[0] = c[0] < 0 ? 0 : c[0], c[1] = c[1] >= n ? n - 1 : c[1];
    c[2] = c[2] < 0 ? 0 : c[2], c[3] = c[3] >= n ? n - 1 : c[3];
    return true;
}

void gn_vsm_bins_build(gn_vsm_bins *b, const gn_vsm_view *v, const float *xy, const float *radius,
                       uint32_t count)
{
    uint32_t last = v->levels - 1, n = v->pages_per_side, cells = n * n;
    b->n = n;
    b->cell = v->page_size[last];
    b->origin[0] = v->origin[last][0], b->origin[1] = v->origin[last][1];
    b->item_count = b->big_count = 0;
    memset(b->start, 0, (cells + 1) * sizeof *b->start);
    /* counting sort: count, prefix sums, fill (start[c + 1] runs ahead as the fill cursor) */
    for (uint32_t k = 0; k < count; k++) {
        int32_t c[4];
        if (!gn_vsm_cells(b, xy[2 * k], xy[2 * k + 1], radius[k], c)) continue;
        if ((c[1] - c[0] + 1) * (c[3] - c[2] + 1) > 4) continue;
        for (int32_t y = c[2]; y <= c[3]; y++)
            for (int32_t x = c[0]; x <= c[1]; x++) b->start[(uint32_t)y * n + (uint32_t)x + 1]++;
    }
    for (uint32_t c = 0; c < cells; c++) b->start[c + 1] += b->start[c];
    for (uint32_t k = 0; k < count; k++) {
        int32_t c[4];
        if (!gn_vsm_cells(b, xy[2 * k], xy[2 * k + 1], radius[k], c)) continue;
        if ((c[1] - c[0] + 1) * (c[3] - c[2] + 1) > 4) {
            b->big[b->big_count++] = k;
            continue;
        }
        for (int32_t y = c[2]; y <= c[3]; y++)
            for (int32_t x = c[0]; x <= c[1]; x++) b->items[b->start[(uint32_t)y * n + (uint32_t)x]++] = k;
    }
    /* the fill advanced each start to its cell's end: shift back */
    for (uint32_t c = cells; c > 0; c--) b->start[c] = b->start[c - 1];
    b->start[0] = 0;
    b->item_count = b->start[cells];
}

uint32_t gn_vsm_bins_page(const gn_vsm_bins *b, const gn_vsm_view *v, const float *xy, const float *radius,
                          uint32_t level, int32_t i, int32_t j, float min_radius, uint32_t *out)
{
    float size = v->page_size[level], x0 = (float)i * size, y0 = (float)j * size;
    /* the cell holding the page: the coarsest page containing its centre */
    int32_t cx = gn_vsm_floor_index((x0 + 0.5f * size) / b->cell) - b->origin[0];
    int32_t cy = gn_vsm_floor_index((y0 + 0.5f * size) / b->cell) - b->origin[1];
    uint32_t m = 0;
    for (int pass = 0; pass < 2; pass++) {
        const uint32_t *list;
        uint32_t count;
        if (pass == 0) {
            if (cx < 0 || cy < 0 || cx >= (int32_t)b->n || cy >= (int32_t)b->n) continue;
            uint32_t c = (uint32_t)cy * b->n + (uint32_t)cx;
            list = b->items + b->start[c], count = b->start[c + 1] - b->start[c];
        } else {
            list = b->big, count = b->big_count;
        }
        for (uint32_t q = 0; q < count; q++) {
            uint32_t k = list[q];
            float r = radius[k], x = xy[2 * k], y = xy[2 * k + 1];
            if (r < min_radius || x + r < x0 || x - r > x0 + size || y + r < y0 || y - r > y0 + size)
                continue;
            out[m++] = k;
        }
    }
    return m;
}

uint32_t gn_vsm_dynamic_pages(const gn_vsm_state *st, const gn_vsm_view *v, const float (*spheres)[4],
                              uint32_t count, float (*lxy)[3], uint32_t *out, uint32_t max)
{
    if (!count) return 0;
    uint32_t n = v->pages_per_side, per_level = n * n, total = st->s.levels * per_level, found = 0;
    for (uint32_t k = 0; k < count; k++) gn_vsm_to_light(v, spheres[k], lxy[k]);
    for (uint32_t idx = 0; idx < total; idx++) {
        const gn_vsm_page *pg = &st->pages[idx];
        if (pg->physical == GN_VSM_NONE || !pg->rendered || pg->last_requested != st->frame) continue;
        float size = v->page_size[idx / per_level], x0 = (float)pg->i * size, y0 = (float)pg->j * size;
        for (uint32_t k = 0; k < count; k++) {
            float r = spheres[k][3], x = lxy[k][0], y = lxy[k][1];
            if (x + r < x0 || x - r > x0 + size || y + r < y0 || y - r > y0 + size) continue;
            if (found < max) out[found] = idx;
            found++;
            break;
        }
    }
    return found;
}

/* Every default of gn_vsm_desc, resolved here and nowhere else. */
gn_vsm_settings gn_vsm_resolve(const gn_vsm_desc *d)
{
    gn_vsm_settings s = {
        .levels = d->levels ? d->levels : 8, /* level 7 spans 2 km: the town's far side from any view */
        .virtual_res = d->virtual_res ? d->virtual_res : 4096,
        .page_texels = 128,
        /* 16 m over 4096 texels: a 3.9 mm texel, about a 1080p pixel at 3.6 m with a 60 degree
         * field of view; each further level doubles both */
        .level0_size = d->level0_size > 0 ? d->level0_size : 16.0f,
        .pool_pages = d->pool_pages ? d->pool_pages : 2048, /* 128 MiB of D32 */
        .page_budget = d->page_budget ? d->page_budget : 64,
        .evict_frames = d->evict_frames ? d->evict_frames : 60,
        .pivot_grid = d->pivot_grid > 0 ? d->pivot_grid : 128.0f,
        .depth_range = 1000.0f,
    };
    /* the dynamic layer shares the budget, so it never needs more tiles than that */
    uint32_t dyn = d->dynamic_pages ? d->dynamic_pages : 256;
    s.dynamic_pages = dyn < s.page_budget ? dyn : s.page_budget;
    return s;
}

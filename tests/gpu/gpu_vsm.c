/* Virtual shadow maps on lavapipe, under validation:
 * (1) MARK and ALLOC on the GPU equal their CPU references: MARK's bits against
 *     gn_vsm_mark_point over the read-back depth (world positions reconstructed in the same
 *     order); ALLOC's page state, free stack, dynamic pages and render choice against
 *     gn_vsm_alloc / gn_vsm_dynamic_pages / gn_vsm_select / gn_vsm_commit replayed on the
 *     same request masks, frame after frame with a walking camera and a moving sun; BIN's
 *     (caster, page) pairs against gn_vsm_bins_page;
 * (2) a still sun: once settled a still camera renders no page; a walking, turning camera
 *     renders only pages it never had (no cached page is rendered again), and returning to
 *     where it started gives the identical shadow image (the page grid does not crawl);
 *     dynamic objects that move re-render only pages under them (counted as dynamic), and a
 *     static object added, moved or removed re-renders only the pages its bounds (before and
 *     after) touch, and once removed its shadow is gone;
 * (3) a moving sun (a day at 20x real time): pages rendered a frame never exceed the budget,
 *     and the reported sun lag stays under the bound the budget gives;
 * (4) a deliberately small pool: overflow is counted, coarser pages stand in, the frame
 *     renders, no validation message. */
#include "gpu_util.h"
#include "passes/cull.h"
#include "passes/vsm.h"
#include "renderer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 320
#define H 180

static gn_renderer *vsm_renderer(uint32_t pool, uint32_t budget)
{
    gn_renderer_desc d = {.width = W,
                          .height = H,
                          .msaa = 4,
                          .validation = GN_VALIDATION_ON,
                          .vsm = {.pool_pages = pool, .page_budget = budget}};
    gn_renderer *r = NULL;
    gn_error err = {0};
    if (gn_renderer_create(&d, &r, &err) != GN_OK) {
        fprintf(stderr, "renderer: %s\n", err.message);
        exit(1);
    }
    return r;
}

static uint32_t *read_mask(gn_renderer *r);

static int test_mark(gn_renderer *r, gn_scene *s)
{
    gn_frame_desc f = gt_vsm_at(20, 30, 30, 15.0f);
    CHECK(gt_vsm_settle(r, s, &f), "the cache did not settle");
    gt_frame(r, s, &f);
    gn_error err = {0};
    float *depth = malloc(W * H * sizeof *depth);
    gn_frame_view fv;
    CHECK(depth && gn_read_depth(r, depth, &err) == GN_OK && gn_get_frame_view(r, &fv, &err) == GN_OK, "%s",
          err.message);
    const gn_vsm_view *v = &gn_vsm_of(r)->view;
    uint32_t n = v->pages_per_side, words = GN_VSM_MASK_WORDS(v->levels, n);
    uint32_t *gpu = read_mask(r);
    uint32_t *cpu = calloc(words, sizeof *cpu);
    const float *m = fv.inv_view_proj;
    uint32_t surface = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            float d = depth[y * W + x];
            if (d <= 0.0f) continue;
            surface++;
            /* the shader's order: pixel centre to NDC, then each row of the inverse summed left
             * to right, then the divide */
            float nx = ((float)x + 0.5f) / (float)W * 2.0f - 1.0f,
                  ny = ((float)y + 0.5f) / (float)H * 2.0f - 1.0f;
            float wx = m[0] * nx + m[4] * ny + m[8] * d + m[12];
            float wy = m[1] * nx + m[5] * ny + m[9] * d + m[13];
            float wz = m[2] * nx + m[6] * ny + m[10] * d + m[14];
            float ww = m[3] * nx + m[7] * ny + m[11] * d + m[15];
            float p[3] = {wx / ww, wy / ww, wz / ww};
            uint32_t level, slot;
            if (!gn_vsm_mark_point(v, p, &level, &slot)) continue;
            uint32_t bit = level * n * n + slot;
            cpu[bit >> 5] |= 1u << (bit & 31);
        }
    uint32_t differ = 0, set = 0;
    for (uint32_t k = 0; k < words; k++) {
        differ += (uint32_t)__builtin_popcount(cpu[k] ^ gpu[k]);
        set += (uint32_t)__builtin_popcount(cpu[k]);
    }
    printf("MARK: %u surface pixels request %u pages; GPU and CPU differ in %u bits\n", surface, set, differ);
    CHECK(set > 20, "only %u pages requested", set);
    CHECK(differ == 0, "GPU MARK differs from the CPU reference in %u of %u page bits", differ, set);
    free(cpu);
    free(gpu);
    free(depth);
    return 0;
}

static uint32_t total_pages(const gn_renderer *r)
{
    uint32_t n = gn_vsm_of(r)->s.virtual_res / 128;
    return gn_vsm_of(r)->s.levels * n * n;
}

static void read_gpu(gn_renderer *r, gn_vsm_buffer which, void *out, size_t size)
{
    gn_error err = {0};
    if (gn_vsm_read(r, which, out, size, &err) != GN_OK) {
        fprintf(stderr, "vsm read: %s\n", err.message);
        exit(1);
    }
}

/* MARK's request mask of the frame just drawn */
static uint32_t *read_mask(gn_renderer *r)
{
    size_t size =
        GN_VSM_MASK_WORDS(gn_vsm_of(r)->view.levels, gn_vsm_of(r)->view.pages_per_side) * sizeof(uint32_t);
    uint32_t *m = malloc(size);
    read_gpu(r, GN_VSM_REQUESTS, m, size);
    return m;
}

/* ALLOC's state of every page, the render list (header, then entries). */
static gn_gpu_vsm_state *read_state(gn_renderer *r)
{
    gn_gpu_vsm_state *p = malloc(total_pages(r) * sizeof *p);
    read_gpu(r, GN_VSM_STATE, p, total_pages(r) * sizeof *p);
    return p;
}

static gn_gpu_vsm_render *read_render(gn_renderer *r, uint32_t head[4])
{
    size_t size = 16 + (size_t)gn_vsm_of(r)->s.page_budget * sizeof(gn_gpu_vsm_render);
    uint8_t *raw = malloc(size);
    read_gpu(r, GN_VSM_RENDER, raw, size);
    memcpy(head, raw, 16);
    gn_gpu_vsm_render *e = malloc(gn_vsm_of(r)->s.page_budget * sizeof *e);
    memcpy(e, raw + 16, gn_vsm_of(r)->s.page_budget * sizeof *e);
    free(raw);
    return e;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The CPU side of the replay: the reference state and the dynamic layer's last list. */
typedef struct replay {
    gn_vsm_state st;
    uint32_t *dyn, *dyn_prev, dyn_prev_count;
    float (*scratch)[3];
    float (*spheres)[4];
} replay;

/* One frame of the CPU reference on the GPU's request mask of that frame, then the GPU's state
 * compared with it; returns the differences (printing the first few). */
static uint32_t replay_frame(gn_renderer *r, replay *rp)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    uint32_t n = v->s.virtual_res / 128, total = total_pages(r), per_level = n * n;
    uint32_t *mask = read_mask(r);
    gn_vsm_stats stats;
    gn_vsm_alloc(&rp->st, &v->view, mask, &stats);
    free(mask);
    /* the dynamic layer: the casters ALLOC was given (they follow the static ones) */
    uint32_t nd = v->push[7], cap = v->dyn_capacity;
    for (uint32_t q = 0; q < nd; q++)
        memcpy(rp->spheres[q], v->casters_cpu[v->static_casters + q].sphere, 16);
    uint32_t needed = gn_vsm_dynamic_pages(&rp->st, &v->view, (const float(*)[4])rp->spheres, nd, rp->scratch,
                                           rp->dyn, cap);
    uint32_t dyn_count = needed < cap ? needed : cap;
    bool changed = (v->alloc_flags & 2u) != 0;
    bool dyn_render = dyn_count > 0 && (changed || rp->dyn_prev_count != dyn_count ||
                                        memcmp(rp->dyn, rp->dyn_prev, dyn_count * 4) != 0);
    if (dyn_render) {
        memcpy(rp->dyn_prev, rp->dyn, dyn_count * 4);
        rp->dyn_prev_count = dyn_count;
    } else if (changed) {
        rp->dyn_prev_count = ~0u;
    }
    gn_vsm_select(&rp->st, v->s.page_budget - (dyn_render ? dyn_count : 0), &stats);
    gn_vsm_commit(&rp->st);

    gn_gpu_vsm_state *gpu = read_state(r);
    uint32_t head[4], differ = 0;
    gn_gpu_vsm_render *entries = read_render(r, head);
    for (uint32_t k = 0; k < total; k++) {
        const gn_vsm_page *c = &rp->st.pages[k];
        const gn_gpu_vsm_state *g = &gpu[k];
        bool g_rendered = (g->b[1] & GN_GPU_VSM_STATE_RENDERED) != 0,
             g_dirty = (g->b[1] & GN_GPU_VSM_STATE_DIRTY) != 0;
        bool same = c->physical == g->a[2];
        if (same && c->physical != GN_VSM_NONE)
            same = (int32_t)g->a[0] == c->i && (int32_t)g->a[1] == c->j && g_rendered == c->rendered &&
                   g_dirty == c->dirty && g->b[0] == c->last_requested &&
                   (!c->rendered || g->a[3] == c->version);
        if (!same && differ++ < 5)
            printf("  page %u (level %u): GPU physical %u (%d, %d) rendered %d dirty %d version %u frame %u; "
                   "CPU %u "
                   "(%d, %d) %d %d %u %u\n",
                   k, k / per_level, g->a[2], (int32_t)g->a[0], (int32_t)g->a[1], g_rendered, g_dirty,
                   g->a[3], g->b[0], c->physical, c->i, c->j, c->rendered, c->dirty, c->version,
                   c->last_requested);
    }
    /* the free stack, in order */
    size_t pool_words = 4 + v->s.pool_pages;
    uint32_t *pool = malloc(pool_words * 4);
    read_gpu(r, GN_VSM_POOL, pool, pool_words * 4);
    if (pool[0] != rp->st.free_count || memcmp(pool + 4, rp->st.free_list, rp->st.free_count * 4) != 0) {
        differ++;
        printf("  free stack: GPU %u pages, CPU %u\n", pool[0], rp->st.free_count);
    }
    /* the render choice: the same static pages (the GPU lists them in page order), then the
     * same dynamic pages in order */
    uint32_t statics = head[1];
    uint32_t *gs = malloc((statics + 1) * 4), *cs = malloc((rp->st.render_count + 1) * 4);
    for (uint32_t k = 0; k < statics; k++) gs[k] = entries[k].page[0];
    memcpy(cs, rp->st.render, rp->st.render_count * 4);
    qsort(cs, rp->st.render_count, 4, cmp_u32);
    if (statics != rp->st.render_count || memcmp(gs, cs, statics * 4) != 0) {
        differ++;
        printf("  render list: GPU %u static pages, CPU %u\n", statics, rp->st.render_count);
    }
    uint32_t gdyn = head[2], cdyn = dyn_render ? dyn_count : 0;
    bool dyn_same = gdyn == cdyn;
    for (uint32_t k = 0; dyn_same && k < gdyn; k++) dyn_same = entries[statics + k].page[0] == rp->dyn[k];
    if (!dyn_same) {
        differ++;
        printf("  dynamic pages: GPU %u, CPU %u\n", gdyn, cdyn);
    }
    gn_frame_stats fs = {0};
    gn_error err = {0};
    gn_get_frame_stats(r, &fs, &err);
    if (fs.vsm_pages_requested != stats.requested || fs.vsm_pages_resident != stats.resident ||
        fs.vsm_pages_evicted != stats.evicted || fs.vsm_pages_waiting != stats.waiting ||
        fs.vsm_pages_rendered_fresh != stats.rendered_fresh ||
        fabsf(fs.vsm_sun_lag_deg - stats.sun_lag_deg) > 1e-3f) {
        differ++;
        printf("  stats: GPU requested %u resident %u evicted %u waiting %u fresh %u lag %g; CPU %u %u %u %u "
               "%u %g\n",
               fs.vsm_pages_requested, fs.vsm_pages_resident, fs.vsm_pages_evicted, fs.vsm_pages_waiting,
               fs.vsm_pages_rendered_fresh, fs.vsm_sun_lag_deg, stats.requested, stats.resident,
               stats.evicted, stats.waiting, stats.rendered_fresh, stats.sun_lag_deg);
    }
    free(gpu);
    free(entries);
    free(pool);
    free(gs);
    free(cs);
    return differ;
}

/* BIN's pairs of this frame against the CPU's binned caster lookup for the same pages. */
static uint32_t check_bin(gn_renderer *r, const gn_scene *s, uint32_t *pairs_seen, uint32_t *lods_seen)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    uint32_t head[4];
    gn_gpu_vsm_render *entries = read_render(r, head);
    uint32_t slots = v->slot_count;
    uint32_t *commands = malloc(((size_t)slots + 1) * 20);
    read_gpu(r, GN_VSM_COMMANDS, commands, (size_t)slots * 20);
    size_t pair_bytes = (size_t)v->pair_capacity * 8;
    uint32_t *pairs = malloc(pair_bytes);
    read_gpu(r, GN_VSM_PAIRS, pairs, pair_bytes);
    /* GPU: a 64-bit key (page entry, instance) per pair, each slot's run; the slot's command
     * must name the mesh of every caster in it */
    uint64_t *gpu = NULL, *cpu = NULL;
    size_t ng = 0, nc = 0, cap = 0;
    uint32_t wrong_mesh = 0, lod_pairs = 0;
    for (uint32_t q = 0; q < slots; q++) cap += commands[5 * q + 1];
    gpu = malloc((cap + 1) * sizeof *gpu);
    /* a caster's LOD stands in on a page whose texel its error fits (src/decide/caster_lod.h) */
    uint32_t *caster_of = malloc((s->instance_count + 1) * sizeof *caster_of);
    for (uint32_t k = 0; k < v->caster_count; k++) caster_of[v->casters_cpu[k].draw[3]] = k;
    const gn_vk_buffer *lod_indices;
    uint32_t generation;
    const gn_caster_lods *lods = gn_cull_caster_lods(r, &lod_indices, &generation);
    for (uint32_t q = 0; q < slots; q++)
        for (uint32_t i = 0; i < commands[5 * q + 1]; i++) {
            const uint32_t *p = &pairs[2 * (commands[5 * q + 4] + i)];
            gpu[ng++] = (uint64_t)p[1] << 32 | p[0];
            const gn_gpu_vsm_caster *c = &v->casters_cpu[caster_of[p[0]]];
            float lod_error, texel = entries[p[1]].rect[2] / 128.0f;
            memcpy(&lod_error, &c->draw[1], sizeof lod_error);
            bool lod = v->lods && c->draw[0] != 0 && gn_caster_lod_fits(lod_error, texel);
            const gn_mesh *mesh = &s->meshes[s->instances[p[0]].mesh];
            uint32_t want_count = mesh->index_count, want_first = mesh->first_index;
            if (lod && lods) {
                want_count = lods->meshes[s->instances[p[0]].mesh].index_count;
                want_first = lods->meshes[s->instances[p[0]].mesh].first_index;
            }
            lod_pairs += lod;
            wrong_mesh += want_count != commands[5 * q] || want_first != commands[5 * q + 2];
        }
    free(caster_of);
    *lods_seen += lod_pairs;
    /* CPU: the casters binned as decide/vsm.c does, one lookup a static page; the dynamic
     * casters tested one by one for a dynamic page */
    uint32_t m = v->caster_count;
    float *xy = malloc((m + 1) * 2 * sizeof *xy), *rad = malloc((m + 1) * sizeof *rad);
    uint32_t *list = malloc((m + 1) * sizeof *list);
    for (uint32_t k = 0; k < m; k++) {
        float lp[3];
        gn_vsm_to_light(&v->view, v->casters_cpu[k].sphere, lp);
        xy[2 * k] = lp[0], xy[2 * k + 1] = lp[1];
        rad[k] = v->casters_cpu[k].info[1] ? -1.0f : v->casters_cpu[k].sphere[3];
    }
    gn_vsm_bins bins = {0};
    uint32_t n = v->s.virtual_res / 128;
    CHECK(gn_vsm_bins_reserve(&bins, n * n, m ? m : 1), "bins");
    gn_vsm_bins_build(&bins, &v->view, xy, rad, m);
    size_t ccap = 1024;
    cpu = malloc(ccap * sizeof *cpu);
    for (uint32_t e = 0; e < head[0]; e++) {
        const gn_gpu_vsm_render *page = &entries[e];
        float size = page->rect[2];
        int32_t i = (int32_t)floorf(page->rect[0] / size + 0.5f),
                j = (int32_t)floorf(page->rect[1] / size + 0.5f);
        uint32_t found = 0;
        if (!(page->page[3] & GN_GPU_VSM_RENDER_DYNAMIC)) {
            found =
                gn_vsm_bins_page(&bins, &v->view, xy, rad, page->page[2], i, j, 0.5f * size / 128.0f, list);
        } else {
            for (uint32_t k = v->static_casters; k < m; k++) {
                float r2 = v->casters_cpu[k].sphere[3], x = xy[2 * k], y = xy[2 * k + 1];
                float x0 = page->rect[0], y0 = page->rect[1];
                if (x + r2 < x0 || x - r2 > x0 + size || y + r2 < y0 || y - r2 > y0 + size) continue;
                list[found++] = k;
            }
        }
        for (uint32_t q = 0; q < found; q++) {
            if (nc == ccap) cpu = realloc(cpu, (ccap *= 2) * sizeof *cpu);
            cpu[nc++] = (uint64_t)e << 32 | v->casters_cpu[list[q]].draw[3];
        }
    }
    /* sort both */
    for (int pass = 0; pass < 2; pass++) {
        uint64_t *a = pass ? cpu : gpu;
        size_t len = pass ? nc : ng;
        for (size_t x = 1; x < len; x++) { /* insertion sort: small lists */
            uint64_t key = a[x];
            size_t y = x;
            while (y > 0 && a[y - 1] > key) a[y] = a[y - 1], y--;
            a[y] = key;
        }
    }
    uint32_t differ = (ng != nc) + wrong_mesh;
    for (size_t k = 0; !differ && k < ng; k++) differ += gpu[k] != cpu[k];
    if (differ) printf("  BIN: GPU %zu pairs, CPU %zu; %u in a slot of another mesh\n", ng, nc, wrong_mesh);
    *pairs_seen += (uint32_t)ng;
    gn_vsm_bins_free(&bins);
    free(xy);
    free(rad);
    free(list);
    free(gpu);
    free(cpu);
    free(pairs);
    free(commands);
    free(entries);
    return differ;
}

/* Frames on a fresh renderer: a walk with a moving sun and moving objects; every frame's ALLOC
 * and BIN against the CPU replay. */
static int test_alloc_reference(gn_scene *s)
{
    gn_renderer *r = vsm_renderer(0, 24);
    replay rp = {0};
    CHECK(gn_vsm_state_init(&rp.st, &gn_vsm_of(r)->s), "reference state");
    uint32_t cap = s->instance_count + 1;
    rp.dyn = malloc(cap * 4), rp.dyn_prev = malloc(cap * 4), rp.scratch = malloc(cap * sizeof *rp.scratch);
    rp.spheres = malloc(cap * sizeof *rp.spheres);
    rp.dyn_prev_count = ~0u;
    uint32_t differ = 0, rendered = 0, pairs = 0, lod_pairs = 0, frames = 24;
    for (uint32_t k = 0; k < frames; k++) {
        gn_frame_desc f = gt_vsm_at(-30.0f + 0.8f * (float)k, 12.0f, -20.0f + 3.0f * (float)k,
                                    9.0f + 0.01f * (float)(k / 4));
        f.seconds = 0.1 * k; /* the town's carts and balloons move */
        gn_frame_stats st = gt_frame(r, s, &f);
        rendered += st.vsm_pages_rendered_static + st.vsm_pages_rendered_dynamic;
        uint32_t d = replay_frame(r, &rp) + check_bin(r, s, &pairs, &lod_pairs);
        if (d) printf("frame %u: %u differences\n", k, d);
        differ += d;
    }
    printf("ALLOC and BIN against the CPU: %u frames, %u pages rendered, %u caster pairs (%u of LODs), %u "
           "differences\n",
           frames, rendered, pairs, lod_pairs, differ);
    CHECK(rendered > 50 && pairs > 100, "too little happened: %u pages, %u pairs", rendered, pairs);
    CHECK(differ == 0, "the GPU's ALLOC or BIN differs from the CPU reference");
    GT_CHECK_VALIDATION(r, "replaying ALLOC");
    gn_vsm_state_free(&rp.st);
    free(rp.dyn);
    free(rp.dyn_prev);
    free(rp.scratch);
    free(rp.spheres);
    gn_renderer_destroy(r);
    return 0;
}

/* Pages rendered this frame (the GPU's list) that already held a page of the current light
 * version and were not dirty before it: the cache failing. */
static uint32_t rerendered(gn_renderer *r, const gn_gpu_vsm_state *before, uint32_t before_version)
{
    uint32_t head[4], bad = 0;
    gn_gpu_vsm_render *entries = read_render(r, head);
    gn_gpu_vsm_state *now = read_state(r);
    for (uint32_t k = 0; k < head[1]; k++) {
        const gn_gpu_vsm_state *b = &before[entries[k].page[0]], *a = &now[entries[k].page[0]];
        bool was_valid = b->a[2] != GN_VSM_NONE && (b->b[1] & GN_GPU_VSM_STATE_RENDERED) &&
                         !(b->b[1] & GN_GPU_VSM_STATE_DIRTY) && b->a[3] == before_version &&
                         b->a[0] == a->a[0] && b->a[1] == a->a[1];
        bad += was_valid;
    }
    free(entries);
    free(now);
    return bad;
}

static int test_still_sun(gn_renderer *r, gn_scene *s)
{
    gn_frame_desc f = gt_vsm_at(-40, 10, -20, 10.0f);
    CHECK(gt_vsm_settle(r, s, &f), "the cache did not settle");
    uint8_t *first = NULL;
    f.view = GN_VIEW_SHADOW;
    /* the page grid alone: RESOLVE's history (which softens edges the walk crossed, then fades
     * over frames; tests/gpu/gpu_vsm_resolve.c) is dropped for both images */
    gn_vsm_of(r)->resolve.have_prev = false;
    first = gt_render(r, s, &f);
    gn_frame_stats st = gt_frame(r, s, &f);
    CHECK(st.vsm_pages_rendered_static == 0 && st.vsm_pages_rendered_dynamic == 0,
          "a still camera rendered %u + %u pages", st.vsm_pages_rendered_static,
          st.vsm_pages_rendered_dynamic);
    const gn_vsm_versions *vs = &gn_vsm_of(r)->versions;
    uint32_t rendered = 0, bad = 0, frames = 20, start_version = vs->current;
    /* walk 0.4 m a frame and turn 2 degrees a frame, then come back the same way */
    for (uint32_t k = 0; k < 2 * frames; k++) {
        float t = (float)(k < frames ? k + 1 : 2 * frames - k - 1);
        gn_frame_desc g = gt_vsm_at(-40.0f + 0.4f * t, 10.0f, -20.0f + 2.0f * t, 10.0f);
        g.view = GN_VIEW_SHADOW;
        gn_gpu_vsm_state *before = read_state(r);
        uint32_t version = vs->current;
        gn_frame_stats fs = gt_frame(r, s, &g);
        bad += rerendered(r, before, version);
        free(before);
        rendered += fs.vsm_pages_rendered_static + fs.vsm_pages_rendered_dynamic;
    }
    printf("still sun, walking camera: %u pages rendered over %u frames, %u of them cached already\n",
           rendered, 2 * frames, bad);
    CHECK(bad == 0, "%u cached pages of the current sun were rendered again", bad);
    CHECK(rendered > 0, "walking and turning requested no new page");
    CHECK(vs->current == start_version, "the light version changed under a still sun (%u to %u)",
          start_version, vs->current);
    /* back where it started, once the pages it needs there are back */
    gt_vsm_settle(r, s, &f);
    gn_vsm_of(r)->resolve.have_prev = false;
    uint8_t *again = gt_render(r, s, &f);
    gt_diff diff = gt_compare(first, again, W, H, 0);
    printf("back at the start: shadow image max difference %u\n", diff.max_channel);
    CHECK(diff.max_channel == 0,
          "the shadow image changed after a walk and back (max diff %u): the grid crawls", diff.max_channel);
    /* dynamic objects move: only pages they touch are rendered, counted as dynamic. The camera
     * looks down at the lowest dynamic object (a cart on a street) from 12 m away. */
    const float *low = NULL;
    for (uint32_t i = 0; i < s->instance_count; i++)
        if ((s->instances[i].flags & GN_INSTANCE_DYNAMIC) && (!low || s->instances[i].sphere[1] < low[1]))
            low = s->instances[i].sphere;
    CHECK(low != NULL, "the town has no dynamic object");
    gn_frame_desc d = {.time_of_day = 10.0f, .shadows = GN_SHADOWS_VSM};
    d.camera.position[0] = low[0], d.camera.position[1] = low[1] + 8.0f,
    d.camera.position[2] = low[2] + 12.0f;
    d.camera.pitch = -30.0f;
    gt_vsm_settle(r, s, &d);
    uint32_t dynamic = 0, fixed = 0;
    for (int k = 1; k <= 4; k++) {
        d.seconds = 0.25 * k;
        gn_frame_stats moved = gt_frame(r, s, &d);
        dynamic += moved.vsm_pages_rendered_dynamic;
        fixed += moved.vsm_pages_rendered_static;
    }
    printf("moving objects: %u dynamic pages, %u static over 4 frames\n", dynamic, fixed);
    CHECK(dynamic > 0, "moving objects in view re-rendered no page");
    CHECK(fixed == 0, "%u static pages rendered while only objects moved", fixed);
    free(first);
    free(again);
    return 0;
}

/* A static object added to a settled scene: only the pages its bounds touch are rendered
 * again, and its shadow appears. */
static int test_added_object(gn_renderer *r, gn_scene *s)
{
    gn_frame_desc f = gt_vsm_at(-40, 10, -20, 10.0f);
    f.view = GN_VIEW_SHADOW;
    CHECK(gt_vsm_settle(r, s, &f), "the cache did not settle");
    uint8_t *before = gt_render(r, s, &f);
    gn_frame_stats st = gt_frame(r, s, &f);
    uint32_t requested = st.vsm_pages_requested;
    /* a 3 m cube 12 m in front of the camera, on the ground (yaw -20: forward is (-sin, 0, -cos)) */
    float cx = -40.0f + 12.0f * sinf(20.0f * 3.14159265f / 180.0f),
          cz = 10.0f - 12.0f * cosf(20.0f * 3.14159265f / 180.0f);
    float pos[24];
    for (int k = 0; k < 8; k++) {
        pos[k * 3 + 0] = cx + ((k & 1) ? 1.5f : -1.5f);
        pos[k * 3 + 1] = (k & 2) ? 3.0f : 0.0f;
        pos[k * 3 + 2] = cz + ((k & 4) ? 1.5f : -1.5f);
    }
    static const uint32_t idx[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                                     2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
    gn_mesh_desc md = {
        .positions = pos, .vertex_count = 8, .indices = idx, .index_count = 36, .label = "cube"};
    gn_error err = {0};
    uint32_t mesh, id;
    CHECK(gn_scene_add_mesh(s, &md, &mesh, &err) == GN_OK, "%s", err.message);
    gn_instance_desc in = {.mesh = mesh, .material = 0};
    CHECK(gn_scene_add_instance(s, &in, &id, &err) == GN_OK, "%s", err.message);
    uint32_t rendered = 0;
    for (int k = 0; k < 4; k++) {
        gn_frame_stats fs = gt_frame(r, s, &f);
        rendered += fs.vsm_pages_rendered_static;
    }
    uint8_t *after = gt_render(r, s, &f);
    gt_diff d = gt_compare(before, after, W, H, 0);
    printf("added object: %u static pages rendered again of %u requested; shadow image changed on %.2f%% of "
           "pixels\n",
           rendered, requested, d.over_share * 100.0);
    CHECK(rendered > 0 && rendered * 4 < requested, "%u pages rendered for one added cube (%u requested)",
          rendered, requested);
    CHECK(d.over_share > 0.001, "the added cube's shadow did not appear");

    /* moved 6 m sideways: the pages its old and new bounds touch, no more; its shadow moves */
    float t[16] = {1,
                   0,
                   0,
                   0,
                   0,
                   1,
                   0,
                   0,
                   0,
                   0,
                   1,
                   0,
                   6.0f * cosf(20.0f * 3.14159265f / 180.0f),
                   0,
                   -6.0f * sinf(20.0f * 3.14159265f / 180.0f),
                   1}; /* the camera's right */
    CHECK(gn_scene_set_transform(s, id, t, &err) == GN_OK, "%s", err.message);
    uint32_t moved = 0;
    for (int k = 0; k < 4; k++) moved += gt_frame(r, s, &f).vsm_pages_rendered_static;
    uint8_t *shifted = gt_render(r, s, &f);
    /* shadow changes only: lit (255) against shadowed, not the temporal filter's few levels */
    gt_diff dm = gt_compare(after, shifted, W, H, 96);
    /* removed: its pages once more, and the shadow image back to the one without the cube */
    CHECK(gn_scene_remove_instance(s, id, &err) == GN_OK, "%s", err.message);
    CHECK(gn_scene_remove_instance(s, id, &err) == GN_ERROR_INVALID_ARGUMENT, "removed twice");
    uint32_t removed = 0;
    for (int k = 0; k < 4; k++) removed += gt_frame(r, s, &f).vsm_pages_rendered_static;
    uint8_t *gone = gt_render(r, s, &f);
    gt_diff dg = gt_compare(before, gone, W, H, 96), da = gt_compare(before, after, W, H, 96);
    printf("moved object: %u pages rendered again, shadow moved on %.2f%% of pixels; removed: %u pages, "
           "%.3f%% of "
           "pixels differ from before it was added (%.3f%% with it)\n",
           moved, dm.over_share * 100.0, removed, dg.over_share * 100.0, da.over_share * 100.0);
    /* two sets of bounds (before and after) touch twice the pages an added cube's do */
    CHECK(moved > 0 && moved * 2 < requested, "%u pages rendered for one moved cube (%u requested)", moved,
          requested);
    CHECK(dm.over_share > 0.001, "the moved cube's shadow did not move");
    CHECK(removed > 0 && removed * 2 < requested, "%u pages rendered for one removed cube (%u requested)",
          removed, requested);
    CHECK(da.over_share > 0.001 && dg.over_share * 10.0 < da.over_share,
          "the removed cube's shadow stayed (%.3f%% of pixels against %.3f%%)", dg.over_share * 100.0,
          da.over_share * 100.0);
    free(before);
    free(after);
    free(shifted);
    free(gone);
    return 0;
}

static int test_moving_sun(gn_renderer *r, gn_scene *s)
{
    /* 20x real time at 60 frames a second: the hour angle turns 15 deg/h * 20 / 216000 a frame */
    double hours = 11.0, step = 20.0 / 60.0 / 3600.0;
    gn_frame_desc f = gt_vsm_at(0, 0, 45, (float)hours);
    CHECK(gt_vsm_settle(r, s, &f), "the cache did not settle");
    gn_error err = {0};
    gn_frame_view prev, now;
    gn_get_frame_view(r, &prev, &err);
    float worst_lag = 0.0f, worst_bound = 0.0f, max_step = 0.0f;
    uint32_t budget = gn_vsm_of(r)->s.page_budget, over = 0, max_rendered = 0, max_req = 0, max_other = 0;
    for (int k = 0; k < 50; k++) {
        hours += step;
        f.time_of_day = (float)hours;
        gn_frame_stats st = gt_frame(r, s, &f);
        gn_get_frame_view(r, &now, &err);
        float d = gn_vsm_angle_deg(prev.sun_direction, now.sun_direction);
        max_step = d > max_step ? d : max_step;
        prev = now;
        uint32_t n = st.vsm_pages_rendered_static + st.vsm_pages_rendered_dynamic;
        max_rendered = n > max_rendered ? n : max_rendered;
        over += n > budget;
        /* the budget left for refreshes: less dynamic tiles and new or dirty pages */
        uint32_t other = st.vsm_pages_rendered_dynamic + st.vsm_pages_rendered_fresh;
        max_other = other > max_other ? other : max_other;
        max_req = st.vsm_pages_requested > max_req ? st.vsm_pages_requested : max_req;
        if (k < 10) continue;
        /* every shown page is refreshed within ceil(R / (B - D - E)) frames of the sun leaving
         * it, and shown one frame more (docs/SHADOWS.md) */
        CHECK(max_other < budget, "no budget left for refreshes (%u of %u)", max_other, budget);
        uint32_t left = budget - max_other;
        float bound = max_step * (float)((max_req + left - 1) / left + 1);
        if (st.vsm_sun_lag_deg > worst_lag) worst_lag = st.vsm_sun_lag_deg, worst_bound = bound;
        CHECK(st.vsm_sun_lag_deg <= bound, "frame %d: lag %g deg over the bound %g", k, st.vsm_sun_lag_deg,
              bound);
    }
    printf("moving sun: %.5f deg a frame, at most %u pages a frame (budget %u), worst lag %.5f deg (bound "
           "%.5f)\n",
           max_step, max_rendered, budget, worst_lag, worst_bound);
    CHECK(over == 0, "%u frames rendered more pages than the budget", over);
    CHECK(worst_lag > 0.0f, "no lag at all: are pages versioned?");
    return 0;
}

static int test_small_pool(gn_scene *s)
{
    gn_renderer *r = vsm_renderer(16, 64);
    gn_frame_desc f = gt_vsm_at(10, -20, 180, 14.0f);
    gn_frame_stats st = {0};
    for (int k = 0; k < 8; k++) st = gt_frame(r, s, &f);
    printf("small pool: %u requested, %u resident, overflow %u, pool %u of %u\n", st.vsm_pages_requested,
           st.vsm_pages_resident, st.vsm_overflow, st.vsm_pool_used, st.vsm_pool_pages);
    CHECK(st.vsm_overflow > 0 && st.vsm_pages_resident <= 16 && st.vsm_pool_used <= 16,
          "overflow %u, resident %u", st.vsm_overflow, st.vsm_pages_resident);
    uint8_t *px = gt_render(r, s, &f);
    free(px);
    GT_CHECK_VALIDATION(r, "with a small VSM pool");
    gn_renderer_destroy(r);
    return 0;
}

int main(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    gn_builtin_desc bd = {.name = "town"};
    CHECK(gn_scene_create_builtin(&bd, &s, &err) == GN_OK, "%s", err.message);
    if (test_alloc_reference(s)) return 1;
    gn_renderer *r = vsm_renderer(0, 32);
    if (test_mark(r, s) || test_still_sun(r, s) || test_added_object(r, s) || test_moving_sun(r, s)) return 1;
    GT_CHECK_VALIDATION(r, "rendering virtual shadow maps");
    gn_renderer_destroy(r);
    if (test_small_pool(s)) return 1;
    gn_scene_destroy(s);
    return gn_check_exit();
}

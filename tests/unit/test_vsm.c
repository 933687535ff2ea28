/* Virtual shadow maps, the CPU half (decide/vsm.c): MARK's level choice and toroidal slots,
 * ALLOC (keep, allocate, evict, overflow), the render budget under a moving sun and the lag
 * bound that follows from it, invalidation by a moving object, and page matrices. */
#include "check.h"
#include "decide/vsm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static gn_vsm_settings settings(void)
{
    return (gn_vsm_settings){.levels = 6,
                             .virtual_res = 4096,
                             .page_texels = 128,
                             .level0_size = 16.0f,
                             .pool_pages = 4096,
                             .page_budget = 32,
                             .evict_frames = 30,
                             .pivot_grid = 128.0f,
                             .depth_range = 1000.0f};
}

static void sun_at(float elev_deg, float azim_deg, float out[3])
{
    float e = elev_deg * 3.14159265f / 180.0f, a = azim_deg * 3.14159265f / 180.0f;
    out[0] = cosf(e) * sinf(a), out[1] = sinf(e), out[2] = -cosf(e) * cosf(a);
}

/* MARK over a grid of ground points around the camera, as a depth buffer would give them. */
static uint32_t mark_ground(const gn_vsm_view *v, uint32_t *mask, float extent, float step)
{
    uint32_t n = 0, level, slot, per = v->pages_per_side * v->pages_per_side;
    memset(mask, 0, GN_VSM_MASK_WORDS(v->levels, v->pages_per_side) * 4);
    for (float x = -extent; x <= extent; x += step)
        for (float z = -extent; z <= extent; z += step) {
            float p[3] = {v->camera[0] + x, 0.0f, v->camera[2] + z};
            if (!gn_vsm_mark_point(v, p, &level, &slot)) continue;
            uint32_t bit = level * per + slot;
            if (!(mask[bit >> 5] & (1u << (bit & 31)))) n++;
            mask[bit >> 5] |= 1u << (bit & 31);
        }
    return n;
}

static void test_mark(void)
{
    gn_vsm_settings s = settings();
    gn_vsm_view v;
    float sun[3], cam[3] = {10.0f, 2.0f, -5.0f};
    sun_at(40, 200, sun);
    float pixel = 2.0f * tanf(0.5f * 60.0f * 3.14159265f / 180.0f) / 1080.0f;
    gn_vsm_view_compute(&s, sun, cam, pixel, &v);
    uint32_t level, slot, prev = 0;
    /* the finest level near the camera; coarser with distance, never finer */
    for (float d = 1.0f; d < 250.0f; d *= 1.3f) /* level 5 spans 512 m */ {
        float p[3] = {cam[0] + d, 0.0f, cam[2]};
        bool ok = gn_vsm_mark_point(&v, p, &level, &slot);
        CHECK(ok, "no level holds a point %g m away", d);
        CHECK(level >= prev, "level %u at %g m after %u nearer", level, d, prev);
        /* the chosen level's texel matches the footprint (within sqrt 2), unless it is the
         * last level; the level below it would have been too fine */
        float texel = ldexpf(v.texel0, (int)level);
        float dist = sqrtf(d * d + 4.0f);
        CHECK(texel * GN_VSM_MATCH >= dist * pixel || level + 1 == s.levels,
              "level %u texel %g below footprint %g", level, texel, dist * pixel);
        CHECK(level == 0 || ldexpf(v.texel0, (int)level - 1) * GN_VSM_MATCH < dist * pixel,
              "level %u chosen at %g m where level %u matched", level, d, level - 1);
        prev = level;
    }
    float near[3] = {cam[0] + 1.0f, 0.0f, cam[2]};
    gn_vsm_mark_point(&v, near, &level, &slot);
    CHECK(level == 0, "a point 1 m away is on level %u", level);
    float far[3] = {cam[0] + 5000.0f, 0.0f, cam[2]};
    CHECK(!gn_vsm_mark_point(&v, far, &level, &slot), "a point 5 km away found level %u", level);
    /* slots and window pages round-trip */
    uint32_t n = v.pages_per_side, bad = 0;
    for (uint32_t l = 0; l < s.levels; l++)
        for (uint32_t k = 0; k < n * n; k++) {
            int32_t i, j;
            gn_vsm_slot_page(&v, l, k, &i, &j);
            bool in = i >= v.origin[l][0] && i < v.origin[l][0] + (int32_t)n && j >= v.origin[l][1] &&
                      j < v.origin[l][1] + (int32_t)n;
            uint32_t back = (uint32_t)(((i % (int32_t)n) + (int32_t)n) % (int32_t)n) +
                            (uint32_t)(((j % (int32_t)n) + (int32_t)n) % (int32_t)n) * n;
            bad += !in || back != k;
        }
    CHECK(bad == 0, "%u slots do not round-trip to a window page", bad);
}

static void test_cache_still_sun(void)
{
    gn_vsm_settings s = settings();
    gn_vsm_state st;
    CHECK(gn_vsm_state_init(&st, &s), "init");
    uint32_t *mask = malloc(GN_VSM_MASK_WORDS(6, 32) * 4);
    float sun[3], pixel = 0.001f;
    sun_at(35, 120, sun);
    gn_vsm_view v;
    gn_vsm_stats stats;
    float cam[3] = {0.0f, 2.0f, 0.0f};
    gn_vsm_view_compute(&s, sun, cam, pixel, &v);
    uint32_t requested = mark_ground(&v, mask, 60.0f, 0.5f);
    uint32_t frames = 0, total_rendered = 0;
    do {
        gn_vsm_alloc(&st, &v, mask, &stats);
        gn_vsm_select(&st, s.page_budget, &stats);
        CHECK(st.render_count <= s.page_budget, "rendered %u over the budget", st.render_count);
        total_rendered += st.render_count;
        gn_vsm_commit(&st);
        frames++;
    } while (st.render_count && frames < 100);
    CHECK(total_rendered == requested, "rendered %u pages for %u requested", total_rendered, requested);
    CHECK(frames == (requested + s.page_budget - 1) / s.page_budget + 1, "%u frames to fill %u pages", frames,
          requested);
    /* a still camera and sun: nothing more */
    gn_vsm_alloc(&st, &v, mask, &stats);
    gn_vsm_select(&st, s.page_budget, &stats);
    CHECK(st.render_count == 0 && stats.requested == requested && stats.sun_lag_deg == 0.0f,
          "still frame rendered %u, requested %u, lag %g", st.render_count, stats.requested,
          stats.sun_lag_deg);
    gn_vsm_commit(&st);
    /* the camera walks and turns: only pages never seen before are rendered */
    uint32_t seen_new = 0;
    for (int f = 0; f < 40; f++) {
        cam[0] += 0.7f;
        gn_vsm_view_compute(&s, sun, cam, pixel, &v);
        uint32_t before_new = 0;
        mark_ground(&v, mask, 60.0f, 0.5f);
        uint32_t per = 32 * 32;
        for (uint32_t k = 0; k < 6 * per; k++)
            if ((mask[k >> 5] >> (k & 31)) & 1u)
                before_new += st.pages[k].physical == GN_VSM_NONE || !st.pages[k].rendered;
        gn_vsm_alloc(&st, &v, mask, &stats);
        gn_vsm_select(&st, s.page_budget, &stats);
        CHECK(st.render_count <= before_new, "frame %d rendered %u pages, only %u were new", f,
              st.render_count, before_new);
        seen_new += st.render_count;
        gn_vsm_commit(&st);
    }
    CHECK(seen_new > 0, "walking 28 m rendered no new page");
    CHECK(v.pivot[0] == 0.0f, "the pivot moved (test setup)");
    free(mask);
    gn_vsm_state_free(&st);
}

static void test_moving_sun(void)
{
    gn_vsm_settings s = settings();
    s.page_budget = 24;
    gn_vsm_state st;
    CHECK(gn_vsm_state_init(&st, &s), "init");
    uint32_t *mask = malloc(GN_VSM_MASK_WORDS(6, 32) * 4);
    float cam[3] = {3.0f, 2.0f, 4.0f}, pixel = 0.001f, sun[3];
    gn_vsm_view v;
    gn_vsm_stats stats;
    /* a day at 20x real time at 60 fps: 15 deg/h * 20 / 3600 / 60 = 0.00139 deg a frame */
    float step = 15.0f * 20.0f / 3600.0f / 60.0f, az = 100.0f;
    sun_at(30, az, sun);
    gn_vsm_view_compute(&s, sun, cam, pixel, &v);
    uint32_t requested = mark_ground(&v, mask, 50.0f, 0.5f);
    for (int f = 0; f < 60; f++) { /* converge first */
        gn_vsm_alloc(&st, &v, mask, &stats);
        gn_vsm_select(&st, s.page_budget, &stats);
        gn_vsm_commit(&st);
    }
    /* every requested page is refreshed within ceil(R / B) frames, so the lag is at most
     * that many frames of sun motion (the bound docs/SHADOWS.md states) */
    uint32_t cycle = (requested + s.page_budget - 1) / s.page_budget;
    float bound = step * (float)(cycle + 1), worst = 0.0f, max_rendered = 0;
    for (int f = 0; f < 600; f++) {
        az += step;
        sun_at(30, az, sun);
        gn_vsm_view_compute(&s, sun, cam, pixel, &v);
        mark_ground(&v, mask, 50.0f, 0.5f);
        gn_vsm_alloc(&st, &v, mask, &stats);
        gn_vsm_select(&st, s.page_budget, &stats);
        CHECK(st.render_count <= s.page_budget, "frame %d rendered %u > budget", f, st.render_count);
        max_rendered = fmaxf(max_rendered, (float)st.render_count);
        if (f > (int)cycle) worst = fmaxf(worst, stats.sun_lag_deg);
        gn_vsm_commit(&st);
    }
    printf("moving sun: %u pages requested, budget %u: lag %.5f deg (bound %.5f = %u frames x %.5f), "
           "at most %.0f rendered a frame\n",
           requested, s.page_budget, worst, bound, cycle + 1, step, max_rendered);
    CHECK(worst <= bound * 1.01f, "lag %g over the bound %g", worst, bound);
    CHECK(worst > 0.0f, "a moving sun showed no lag at all (pages not versioned?)");
    free(mask);
    gn_vsm_state_free(&st);
}

static void test_overflow_and_evict(void)
{
    gn_vsm_settings s = settings();
    s.pool_pages = 20;
    s.evict_frames = 3;
    gn_vsm_state st;
    CHECK(gn_vsm_state_init(&st, &s), "init");
    uint32_t *mask = malloc(GN_VSM_MASK_WORDS(6, 32) * 4);
    float cam[3] = {0, 2, 0}, sun[3];
    sun_at(50, 180, sun);
    gn_vsm_view v;
    gn_vsm_stats stats;
    gn_vsm_view_compute(&s, sun, cam, 0.001f, &v);
    uint32_t requested = mark_ground(&v, mask, 60.0f, 0.5f);
    gn_vsm_alloc(&st, &v, mask, &stats);
    gn_vsm_select(&st, s.page_budget, &stats);
    CHECK(requested > 20 && stats.overflow == requested - 20 && stats.resident == 20 && stats.pool_used == 20,
          "requested %u, overflow %u, resident %u", requested, stats.overflow, stats.resident);
    /* physical pages are distinct */
    uint8_t used[20] = {0};
    uint32_t dup = 0;
    for (uint32_t k = 0; k < 6 * 1024; k++)
        if (st.pages[k].physical != GN_VSM_NONE) dup += used[st.pages[k].physical]++ > 0;
    CHECK(dup == 0, "%u physical pages handed out twice", dup);
    gn_vsm_commit(&st);
    /* nothing requested: after evict_frames the pool is whole again */
    memset(mask, 0, GN_VSM_MASK_WORDS(6, 32) * 4);
    for (int f = 0; f < 5; f++) {
        gn_vsm_alloc(&st, &v, mask, &stats);
        gn_vsm_select(&st, s.page_budget, &stats);
    }
    CHECK(st.free_count == 20, "after 5 unrequested frames %u of 20 pool pages are free", st.free_count);
    free(mask);
    gn_vsm_state_free(&st);
}

static void test_invalidate_and_matrix(void)
{
    gn_vsm_settings s = settings();
    gn_vsm_state st;
    CHECK(gn_vsm_state_init(&st, &s), "init");
    uint32_t *mask = malloc(GN_VSM_MASK_WORDS(6, 32) * 4);
    float cam[3] = {0, 2, 0}, sun[3];
    sun_at(60, 30, sun);
    gn_vsm_view v;
    gn_vsm_stats stats;
    gn_vsm_view_compute(&s, sun, cam, 0.001f, &v);
    mark_ground(&v, mask, 40.0f, 0.5f);
    for (int f = 0; f < 400; f++) { /* until settled */
        gn_vsm_alloc(&st, &v, mask, &stats);
        gn_vsm_select(&st, s.page_budget, &stats);
        gn_vsm_commit(&st);
        if (!st.render_count) break;
    }
    /* a 1 m object moved near the camera: a handful of pages on each level it overlaps */
    float sphere[4] = {2.0f, 0.5f, 1.0f, 1.0f};
    uint32_t hits = gn_vsm_invalidate_sphere(&st, sphere);
    gn_vsm_alloc(&st, &v, mask, &stats);
    gn_vsm_select(&st, s.page_budget, &stats);
    CHECK(hits > 0 && hits < 40 && st.render_count == hits, "invalidated %u pages, rendering %u", hits,
          st.render_count);
    gn_vsm_commit(&st);
    /* a page's matrix maps its rectangle to [-1, 1] and its centre to 0 */
    float m[16], lp[3];
    gn_vsm_page_matrix(&st, st.versions.current, 2, 5, -3, m);
    float size = ldexpf(16.0f / 32.0f, 2);
    float local[3] = {5.5f * size, -2.5f * size, 0.0f}; /* the centre in light space */
    /* invert the rotation: world = pivot + R^T * local */
    float w[3];
    for (int c = 0; c < 3; c++)
        w[c] = v.pivot[c] + v.rot[c] * local[0] + v.rot[3 + c] * local[1] + v.rot[6 + c] * local[2];
    float clip[3];
    for (int r = 0; r < 3; r++) clip[r] = m[r] * w[0] + m[4 + r] * w[1] + m[8 + r] * w[2] + m[12 + r];
    CHECK(fabsf(clip[0]) < 1e-4f && fabsf(clip[1]) < 1e-4f && fabsf(clip[2] - 0.5f) < 1e-6f,
          "page centre at clip %g %g %g", clip[0], clip[1], clip[2]);
    gn_vsm_to_light(&v, w, lp);
    CHECK(fabsf(lp[0] - local[0]) < 1e-3f, "light space round trip %g vs %g", lp[0], local[0]);
    free(mask);
    gn_vsm_state_free(&st);
}

/* The binned caster lookup finds exactly the casters a brute-force test over all finds. */
static void test_bins(void)
{
    gn_vsm_settings s = settings();
    gn_vsm_view v;
    float sun[3], cam[3] = {37.0f, 2.0f, -11.0f};
    sun_at(25, 290, sun);
    gn_vsm_view_compute(&s, sun, cam, 0.001f, &v);
    enum { COUNT = 3000 };
    float *xy = malloc(COUNT * 2 * sizeof *xy), *radius = malloc(COUNT * sizeof *radius);
    uint32_t *out = malloc(COUNT * sizeof *out);
    uint32_t seed = 12345;
    for (uint32_t k = 0; k < COUNT; k++) {
        seed = seed * 1664525u + 1013904223u;
        float a = (float)(seed >> 8) / 16777216.0f;
        seed = seed * 1664525u + 1013904223u;
        float b = (float)(seed >> 8) / 16777216.0f;
        seed = seed * 1664525u + 1013904223u;
        float c = (float)(seed >> 8) / 16777216.0f;
        float lc[3];
        gn_vsm_to_light(&v, cam, lc);
        xy[2 * k] = lc[0] + (a - 0.5f) * 700.0f, xy[2 * k + 1] = lc[1] + (b - 0.5f) * 700.0f;
        radius[k] = k % 50 == 0 ? 40.0f * c : 3.0f * c * c; /* a few big ones */
    }
    gn_vsm_bins bins = {0};
    CHECK(gn_vsm_bins_reserve(&bins, 32 * 32, COUNT), "reserve");
    gn_vsm_bins_build(&bins, &v, xy, radius, COUNT);
    uint32_t pages = 0, wrong = 0, found = 0;
    for (uint32_t l = 0; l < s.levels; l++)
        for (uint32_t slot = 0; slot < 32 * 32; slot += 7) {
            int32_t i, j;
            gn_vsm_slot_page(&v, l, slot, &i, &j);
            float size = v.page_size[l], x0 = (float)i * size, y0 = (float)j * size, min_r = 0.01f;
            uint32_t m = gn_vsm_bins_page(&bins, &v, xy, radius, l, i, j, min_r, out);
            uint32_t brute = 0;
            uint8_t *hit = calloc(COUNT, 1);
            for (uint32_t q = 0; q < m; q++) hit[out[q]]++;
            for (uint32_t k = 0; k < COUNT; k++) {
                float r = radius[k], x = xy[2 * k], y = xy[2 * k + 1];
                bool in = !(r < min_r || x + r < x0 || x - r > x0 + size || y + r < y0 || y - r > y0 + size);
                brute += in;
                wrong += in ? hit[k] != 1 : hit[k] != 0;
            }
            free(hit);
            found += m;
            pages++;
            (void)brute;
        }
    printf("bins: %u pages, %u casters found, %u differences from brute force (%u in cells, %u big)\n", pages,
           found, wrong, bins.item_count, bins.big_count);
    CHECK(wrong == 0 && found > 0, "binned lookup differs from brute force in %u cases", wrong);
    gn_vsm_bins_free(&bins);
    free(xy);
    free(radius);
    free(out);
}

/* Huge or NaN positions (a scene whose bounds reach 3e38, a node scaled by 1e38): every page
 * index is clamped, never a float converted out of int32_t's range (undefined behaviour). */
static void test_huge_and_nan(void)
{
    CHECK(gn_vsm_floor_index(3.7f) == 3, "floor 3.7: %d", gn_vsm_floor_index(3.7f));
    CHECK(gn_vsm_floor_index(-0.5f) == -1, "floor -0.5: %d", gn_vsm_floor_index(-0.5f));
    CHECK(gn_vsm_floor_index(NAN) == 0, "NaN: %d", gn_vsm_floor_index(NAN));
    CHECK(gn_vsm_floor_index(3e38f) == GN_VSM_INDEX_LIMIT, "3e38: %d", gn_vsm_floor_index(3e38f));
    CHECK(gn_vsm_floor_index(-INFINITY) == -GN_VSM_INDEX_LIMIT, "-inf: %d", gn_vsm_floor_index(-INFINITY));
    CHECK(gn_vsm_floor_index(1e30f * 1e30f) == GN_VSM_INDEX_LIMIT, "inf: %d",
          gn_vsm_floor_index(1e30f * 1e30f));

    gn_vsm_settings s = settings();
    float sun[3], pixel = 1e-3f;
    sun_at(40, 200, sun);
    const float cams[3][3] = {{3e38f, 0.0f, -3e38f}, {NAN, 1.0f, 2.0f}, {-1e38f, 1e38f, 1e38f}};
    for (int k = 0; k < 3; k++) {
        gn_vsm_view v;
        gn_vsm_view_compute(&s, sun, cams[k], pixel, &v);
        for (uint32_t l = 0; l < v.levels; l++)
            for (int a = 0; a < 2; a++) {
                int32_t o = v.origin[l][a];
                CHECK(o >= -GN_VSM_INDEX_LIMIT - (int32_t)v.pages_per_side && o <= GN_VSM_INDEX_LIMIT,
                      "camera %d level %u origin[%d] %d", k, l, a, o);
            }
        uint32_t level, slot;
        float p[3] = {NAN, 0.0f, 0.0f};
        CHECK(!gn_vsm_mark_point(&v, p, &level, &slot) || slot < v.pages_per_side * v.pages_per_side,
              "camera %d: a NaN point marks slot %u", k, slot);
    }
}

int main(void)
{
    test_huge_and_nan();
    test_bins();
    test_mark();
    test_cache_still_sun();
    test_moving_sun();
    test_overflow_and_evict();
    test_invalidate_and_matrix();
    return gn_check_exit();
}

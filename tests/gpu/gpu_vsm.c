/* Virtual shadow maps on lavapipe, under validation:
 * (1) MARK on the GPU equals its CPU reference (gn_vsm_mark_point over the read-back depth,
 *     world positions reconstructed in the same order) bit for bit;
 * (2) a still sun: once settled a still camera renders no page; a walking, turning camera
 *     renders only pages it never had (no cached page is rendered again), and returning to
 *     where it started gives the identical shadow image (the page grid does not crawl);
 *     dynamic objects that move re-render only pages under them (counted as dynamic), and a
 *     static object added re-renders only the pages its bounds touch;
 * (3) a moving sun (a day at 20x real time): pages rendered a frame never exceed the budget,
 *     and the reported sun lag stays under the bound the budget gives;
 * (4) a deliberately small pool: overflow is counted, coarser pages stand in, the frame
 *     renders, no validation message. */
#include "gpu_util.h"
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

static gn_frame_desc at(float x, float z, float yaw, float hours)
{
    gn_frame_desc f = {.camera_set = true, .time_of_day = hours, .time_set = true, .shadows = GN_SHADOWS_VSM};
    f.camera.position[0] = x, f.camera.position[1] = 6.0f, f.camera.position[2] = z;
    f.camera.yaw = yaw;
    f.camera.pitch = -12.0f;
    return f;
}

static gn_frame_stats frame(gn_renderer *r, gn_scene *s, const gn_frame_desc *f)
{
    gn_error err = {0};
    gn_frame_stats st = {0};
    if (gn_render(r, s, f, &err) != GN_OK || gn_renderer_wait_idle(r, &err) != GN_OK ||
        gn_get_frame_stats(r, &st, &err) != GN_OK) {
        fprintf(stderr, "frame: %s\n", err.message);
        exit(1);
    }
    return st;
}

/* Renders until a frame renders no page and none waits; returns the frames it took. */
static uint32_t settle(gn_renderer *r, gn_scene *s, const gn_frame_desc *f)
{
    for (uint32_t k = 1; k <= 200; k++) {
        gn_frame_stats st = frame(r, s, f);
        if (k > 2 && st.vsm_pages_requested && !st.vsm_pages_waiting && !st.vsm_pages_rendered_static &&
            !st.vsm_pages_rendered_dynamic)
            return k;
    }
    return 0;
}

static int test_mark(gn_renderer *r, gn_scene *s)
{
    gn_frame_desc f = at(20, 30, 30, 15.0f);
    CHECK(settle(r, s, &f), "the cache did not settle");
    frame(r, s, &f);
    gn_error err = {0};
    float *depth = malloc(W * H * sizeof *depth);
    gn_frame_view fv;
    CHECK(depth && gn_read_depth(r, depth, &err) == GN_OK && gn_get_frame_view(r, &fv, &err) == GN_OK, "%s",
          err.message);
    const gn_vsm_view *v = &r->vsm.view;
    uint32_t n = v->pages_per_side, words = GN_VSM_MASK_WORDS(v->levels, n);
    const uint32_t *gpu = r->vsm.requests[r->vk.frame_number % GN_FRAMES_IN_FLIGHT].alloc.mapped;
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
            float nx = ((float)x + 0.5f) / (float)W * 2.0f - 1.0f, ny = ((float)y + 0.5f) / (float)H * 2.0f - 1.0f;
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
    free(depth);
    return 0;
}

/* Pages rendered this frame that already held a page of the current light version and were
 * not dirty: the cache failing. Needs the state before the frame. */
static uint32_t rerendered(const gn_vsm_state *st, const gn_vsm_page *before, uint32_t before_version)
{
    uint32_t bad = 0;
    for (uint32_t k = 0; k < st->render_count; k++) {
        const gn_vsm_page *b = &before[st->render[k]];
        const gn_vsm_page *now = &st->pages[st->render[k]];
        bool was_valid = b->physical != GN_VSM_NONE && b->rendered && !b->dirty && b->version == before_version &&
                         b->i == now->i && b->j == now->j;
        bad += was_valid;
    }
    return bad;
}

static int test_still_sun(gn_renderer *r, gn_scene *s)
{
    gn_frame_desc f = at(-40, 10, -20, 10.0f);
    CHECK(settle(r, s, &f), "the cache did not settle");
    uint8_t *first = NULL;
    f.view = GN_VIEW_SHADOW;
    first = gt_render(r, s, &f);
    gn_frame_stats st = frame(r, s, &f);
    CHECK(st.vsm_pages_rendered_static == 0 && st.vsm_pages_rendered_dynamic == 0,
          "a still camera rendered %u + %u pages", st.vsm_pages_rendered_static, st.vsm_pages_rendered_dynamic);
    const gn_vsm_state *vs = &r->vsm.state;
    uint32_t slots = vs->s.levels * (vs->s.virtual_res / 128) * (vs->s.virtual_res / 128);
    gn_vsm_page *before = malloc(slots * sizeof *before);
    uint32_t rendered = 0, bad = 0, frames = 20, start_version = vs->versions.current;
    /* walk 0.4 m a frame and turn 2 degrees a frame, then come back the same way */
    for (uint32_t k = 0; k < 2 * frames; k++) {
        float t = (float)(k < frames ? k + 1 : 2 * frames - k - 1);
        gn_frame_desc g = at(-40.0f + 0.4f * t, 10.0f, -20.0f + 2.0f * t, 10.0f);
        g.view = GN_VIEW_SHADOW;
        memcpy(before, vs->pages, slots * sizeof *before);
        uint32_t version = vs->versions.current;
        gn_frame_stats fs = frame(r, s, &g);
        bad += rerendered(vs, before, version);
        rendered += fs.vsm_pages_rendered_static + fs.vsm_pages_rendered_dynamic;
    }
    printf("still sun, walking camera: %u pages rendered over %u frames, %u of them cached already\n", rendered,
           2 * frames, bad);
    CHECK(bad == 0, "%u cached pages of the current sun were rendered again", bad);
    CHECK(rendered > 0, "walking and turning requested no new page");
    CHECK(vs->versions.current == start_version, "the light version changed under a still sun (%u to %u)",
          start_version, vs->versions.current);
    /* back where it started, once the pages it needs there are back */
    settle(r, s, &f);
    uint8_t *again = gt_render(r, s, &f);
    gt_diff diff = gt_compare(first, again, W, H, 0);
    printf("back at the start: shadow image max difference %u\n", diff.max_channel);
    CHECK(diff.max_channel == 0, "the shadow image changed after a walk and back (max diff %u): the grid crawls",
          diff.max_channel);
    /* dynamic objects move: only pages they touch are rendered, counted as dynamic. The camera
     * looks down at the lowest dynamic object (a cart on a street) from 12 m away. */
    const float *low = NULL;
    for (uint32_t i = 0; i < s->instance_count; i++)
        if ((s->instances[i].flags & GN_INSTANCE_DYNAMIC) && (!low || s->instances[i].sphere[1] < low[1]))
            low = s->instances[i].sphere;
    CHECK(low != NULL, "the town has no dynamic object");
    gn_frame_desc d = {.camera_set = true, .time_of_day = 10.0f, .time_set = true, .shadows = GN_SHADOWS_VSM};
    d.camera.position[0] = low[0], d.camera.position[1] = low[1] + 8.0f, d.camera.position[2] = low[2] + 12.0f;
    d.camera.pitch = -30.0f;
    settle(r, s, &d);
    uint32_t dynamic = 0, fixed = 0;
    for (int k = 1; k <= 4; k++) {
        d.seconds = 0.25 * k;
        gn_frame_stats moved = frame(r, s, &d);
        dynamic += moved.vsm_pages_rendered_dynamic;
        fixed += moved.vsm_pages_rendered_static;
    }
    printf("moving objects: %u dynamic pages, %u static over 4 frames\n", dynamic, fixed);
    CHECK(dynamic > 0, "moving objects in view re-rendered no page");
    CHECK(fixed == 0, "%u static pages rendered while only objects moved", fixed);
    free(first);
    free(again);
    free(before);
    return 0;
}

/* A static object added to a settled scene: only the pages its bounds touch are rendered
 * again, and its shadow appears. */
static int test_added_object(gn_renderer *r, gn_scene *s)
{
    gn_frame_desc f = at(-40, 10, -20, 10.0f);
    f.view = GN_VIEW_SHADOW;
    CHECK(settle(r, s, &f), "the cache did not settle");
    uint8_t *before = gt_render(r, s, &f);
    gn_frame_stats st = frame(r, s, &f);
    uint32_t requested = st.vsm_pages_requested;
    /* a 3 m cube 12 m in front of the camera, on the ground (yaw -20: forward is (-sin, 0, -cos)) */
    float cx = -40.0f + 12.0f * sinf(20.0f * 3.14159265f / 180.0f), cz = 10.0f - 12.0f * cosf(20.0f * 3.14159265f / 180.0f);
    float pos[24];
    for (int k = 0; k < 8; k++) {
        pos[k * 3 + 0] = cx + ((k & 1) ? 1.5f : -1.5f);
        pos[k * 3 + 1] = (k & 2) ? 3.0f : 0.0f;
        pos[k * 3 + 2] = cz + ((k & 4) ? 1.5f : -1.5f);
    }
    static const uint32_t idx[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                                     2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
    gn_mesh_desc md = {.positions = pos, .vertex_count = 8, .indices = idx, .index_count = 36, .label = "cube"};
    gn_error err = {0};
    uint32_t mesh, id;
    CHECK(gn_scene_add_mesh(s, &md, &mesh, &err) == GN_OK, "%s", err.message);
    gn_instance_desc in = {.mesh = mesh, .material = 0};
    CHECK(gn_scene_add_instance(s, &in, &id, &err) == GN_OK, "%s", err.message);
    uint32_t rendered = 0;
    for (int k = 0; k < 4; k++) {
        gn_frame_stats fs = frame(r, s, &f);
        rendered += fs.vsm_pages_rendered_static;
    }
    uint8_t *after = gt_render(r, s, &f);
    gt_diff d = gt_compare(before, after, W, H, 0);
    printf("added object: %u static pages rendered again of %u requested; shadow image changed on %.2f%% of "
           "pixels\n",
           rendered, requested, d.over_share * 100.0);
    CHECK(rendered > 0 && rendered * 4 < requested, "%u pages rendered for one added cube (%u requested)", rendered,
          requested);
    CHECK(d.over_share > 0.001, "the added cube's shadow did not appear");
    free(before);
    free(after);
    return 0;
}

static int test_moving_sun(gn_renderer *r, gn_scene *s)
{
    /* 20x real time at 60 frames a second: the hour angle turns 15 deg/h * 20 / 216000 a frame */
    double hours = 11.0, step = 20.0 / 60.0 / 3600.0;
    gn_frame_desc f = at(0, 0, 45, (float)hours);
    CHECK(settle(r, s, &f), "the cache did not settle");
    gn_error err = {0};
    gn_frame_view prev, now;
    gn_get_frame_view(r, &prev, &err);
    float worst_lag = 0.0f, worst_bound = 0.0f, max_step = 0.0f;
    uint32_t budget = r->vsm.state.s.page_budget, over = 0, max_rendered = 0;
    for (int k = 0; k < 50; k++) {
        hours += step;
        f.time_of_day = (float)hours;
        gn_frame_stats st = frame(r, s, &f);
        gn_get_frame_view(r, &now, &err);
        float d = gn_vsm_angle_deg(prev.sun_direction, now.sun_direction);
        max_step = d > max_step ? d : max_step;
        prev = now;
        uint32_t n = st.vsm_pages_rendered_static + st.vsm_pages_rendered_dynamic;
        max_rendered = n > max_rendered ? n : max_rendered;
        over += n > budget;
        if (k < 10) continue;
        /* every requested page is refreshed within ceil(R / B) frames, plus the two frames
         * MARK's requests take to arrive */
        float bound = max_step * (float)((st.vsm_pages_requested + budget - 1) / budget + 3);
        if (st.vsm_sun_lag_deg > worst_lag) worst_lag = st.vsm_sun_lag_deg, worst_bound = bound;
        CHECK(st.vsm_sun_lag_deg <= bound, "frame %d: lag %g deg over the bound %g", k, st.vsm_sun_lag_deg, bound);
    }
    printf("moving sun: %.5f deg a frame, at most %u pages a frame (budget %u), worst lag %.5f deg (bound %.5f)\n",
           max_step, max_rendered, budget, worst_lag, worst_bound);
    CHECK(over == 0, "%u frames rendered more pages than the budget", over);
    CHECK(worst_lag > 0.0f, "no lag at all: are pages versioned?");
    return 0;
}

static int test_small_pool(gn_scene *s)
{
    gn_renderer *r = vsm_renderer(16, 64);
    gn_frame_desc f = at(10, -20, 180, 14.0f);
    gn_frame_stats st = {0};
    for (int k = 0; k < 8; k++) st = frame(r, s, &f);
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
    gn_renderer *r = vsm_renderer(0, 32);
    if (test_mark(r, s) || test_still_sun(r, s) || test_added_object(r, s) || test_moving_sun(r, s)) return 1;
    GT_CHECK_VALIDATION(r, "rendering virtual shadow maps");
    gn_renderer_destroy(r);
    if (test_small_pool(s)) return 1;
    gn_scene_destroy(s);
    return gn_check_exit();
}

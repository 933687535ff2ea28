/* VSM RESOLVE on lavapipe, under validation (docs/SHADOWS.md, "RESOLVE"):
 * (1) without history the mask is the forward pass's own lookup: the shadow view of a frame
 *     resolved without history agrees with the same frame looked up per fragment (the A/B
 *     switch the renderer keeps for this) on >= 99.5% of the surface pixels;
 * (2) a still camera under a still sun converges: four frames apart (the offsets' period) the
 *     shadow view is the same to 1/255, and consecutive frames differ little on average;
 * (3) a camera move rejects history where the surface changed: the first frame after a step
 *     sideways agrees with the same frame resolved without history wherever the shadow differs
 *     by more than half (a ghost of the old surface); accepting all history (the A/B switch)
 *     shows such ghosts, so the check can fail. */
#include "gpu_util.h"
#include "passes/vsm.h"
#include "renderer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 320
#define H 192

/* The shadow view of a VSM frame. */
static gn_frame_desc at(float x, float z, float yaw, float hours)
{
    gn_frame_desc f = gt_vsm_at(x, z, yaw, hours);
    f.view = GN_VIEW_SHADOW;
    return f;
}

/* The shadow view's visibility (red channel, 0..255) of pixels with a surface (depth > 0). */
typedef struct shot {
    uint8_t *rgba;
    float *depth;
} shot;

static shot take(gn_renderer *r, gn_scene *s, const gn_frame_desc *f)
{
    shot o = {gt_render(r, s, f), malloc(W * H * sizeof(float))};
    gn_error err = {0};
    gn_frame_stats st = {0};
    CHECK(o.depth && gn_read_depth(r, o.depth, &err) == GN_OK && gn_get_frame_stats(r, &st, &err) == GN_OK,
          "depth: %s", err.message);
    /* the frames compared must see the same pages */
    CHECK(st.vsm_pages_rendered_static == 0 && st.vsm_pages_rendered_dynamic == 0,
          "a compared frame rendered %u + %u pages", st.vsm_pages_rendered_static,
          st.vsm_pages_rendered_dynamic);
    return o;
}

static void drop(shot *o)
{
    free(o->rgba);
    free(o->depth);
}

typedef struct cmp {
    uint32_t surface;  /* pixels with a surface in both */
    uint32_t same_bin; /* on the same side of 0.5 */
    uint32_t over;     /* differing by more than the tolerance */
    uint32_t max;      /* largest difference (0..255) */
    double mean;       /* mean absolute difference (0..255) */
} cmp;

static cmp compare(const shot *a, const shot *b, uint32_t tolerance)
{
    cmp c = {0};
    double sum = 0.0;
    for (uint32_t i = 0; i < W * H; i++) {
        if (a->depth[i] <= 0.0f || b->depth[i] <= 0.0f) continue;
        int va = a->rgba[4 * i], vb = b->rgba[4 * i];
        uint32_t d = (uint32_t)abs(va - vb);
        c.surface++;
        c.same_bin += (va >= 128) == (vb >= 128);
        c.over += d > tolerance;
        c.max = d > c.max ? d : c.max;
        sum += d;
    }
    c.mean = c.surface ? sum / c.surface : 0.0;
    return c;
}

/* GNOMON_TEST_IMAGES=1 keeps the images (in the working directory) for a look */
static void save(const char *name, float hours, const shot *o)
{
    char path[64];
    snprintf(path, sizeof path, "resolve_%02.0f_%s.png", hours, name);
    if (getenv("GNOMON_TEST_IMAGES")) gt_write_png(path, o->rgba, W, H);
}

/* (1) and (2) from one still camera; returns nonzero on failure. */
static int test_still(gn_renderer *r, gn_scene *s, float hours)
{
    gn_frame_desc f = at(-40.0f, 10.0f, -20.0f, hours);
    CHECK(gt_vsm_settle(r, s, &f), "the cache did not settle");
    /* the forward pass's own lookup, then the same frame resolved without history */
    gn_vsm_of(r)->resolve.per_fragment = true;
    shot before = take(r, s, &f);
    gn_vsm_of(r)->resolve.per_fragment = false;
    shot fresh = take(r, s, &f);
    cmp c = compare(&before, &fresh, 2);
    printf(
        "%.1f h, no history against the per-fragment lookup: %u surface pixels, %.3f%% on the same side of "
        "0.5, %.3f%% off by more than 2/255, mean %.3f/255, max %u/255\n",
        hours, c.surface, 100.0 * c.same_bin / c.surface, 100.0 * c.over / c.surface, c.mean, c.max);
    CHECK(c.surface > W * H / 2, "only %u surface pixels", c.surface);
    CHECK(c.same_bin >= 0.995 * c.surface,
          "the mask without history agrees with the per-fragment lookup on "
          "%.3f%% of the surface pixels (>= 99.5%% required)",
          100.0 * c.same_bin / c.surface);
    save("before", hours, &before);
    save("fresh", hours, &fresh);

    /* (2) accumulate: then four frames apart the same, consecutive frames close */
    for (int k = 0; k < 40; k++) gt_frame(r, s, &f);
    shot seq[5];
    for (int k = 0; k < 5; k++) seq[k] = take(r, s, &f);
    cmp period = compare(&seq[0], &seq[4], 1), next = compare(&seq[0], &seq[1], 1);
    cmp gained = compare(&fresh, &seq[4], 1);
    printf("%.1f h, still camera after 45 frames: 4 frames apart max %u/255 (%u pixels off by > 1); "
           "consecutive frames mean %.4f/255, max %u/255; against no history mean %.3f/255, max %u/255, "
           "%.3f%% on the same side of 0.5\n",
           hours, period.max, period.over, next.mean, next.max, gained.mean, gained.max,
           100.0 * gained.same_bin / gained.surface);
    CHECK(period.max <= 1, "the accumulated mask still changes after 45 still frames (max %u/255)",
          period.max);
    CHECK(next.mean < 0.5, "consecutive frames differ by %.3f/255 on average", next.mean);
    save("accumulated", hours, &seq[4]);
    drop(&before);
    drop(&fresh);
    for (int k = 0; k < 5; k++) drop(&seq[k]);
    return 0;
}

/* (3) a step sideways after accumulating: ghosts counted against the same frame without history */
static uint32_t ghosts(gn_renderer *r, gn_scene *s, bool accept_all, uint32_t *surface)
{
    gn_frame_desc a = at(-40.0f, 10.0f, -20.0f, 10.0f), b = a;
    b.camera.position[0] += 2.5f; /* well under a cut */
    b.camera.position[2] += 1.0f;
    gt_vsm_settle(r, s, &a);
    for (int k = 0; k < 8; k++) gt_frame(r, s, &a);
    gn_vsm_of(r)->resolve.accept_all = accept_all;
    shot moved = take(r, s, &b);
    gn_vsm_of(r)->resolve.accept_all = false;
    /* the same frame again, without history: the page table is the same (ALLOC reads MARK's
     * mask of two frames ago, which was still at a) */
    gn_vsm_of(r)->resolve.have_prev = false;
    shot fresh = take(r, s, &b);
    cmp c = compare(&moved, &fresh, 127);
    *surface = c.surface;
    save(accept_all ? "moved_accept_all" : "moved", 10.0f, &moved);
    save("moved_fresh", 10.0f, &fresh);
    drop(&moved);
    drop(&fresh);
    return c.over;
}

static int test_move(gn_renderer *r, gn_scene *s)
{
    uint32_t surface = 0, surface_ab = 0;
    uint32_t bad = ghosts(r, s, false, &surface);
    uint32_t bad_ab = ghosts(r, s, true, &surface_ab);
    printf("a step sideways: %u of %u surface pixels off by more than 0.5 from no history (%.3f%%); "
           "accepting all history: %u (%.3f%%)\n",
           bad, surface, 100.0 * bad / surface, bad_ab, 100.0 * bad_ab / surface_ab);
    CHECK(bad <= surface / 1000, "%u ghost pixels after a camera move (at most 0.1%% allowed)", bad);
    CHECK(bad_ab > 4 * bad + 10,
          "accepting all history made no more ghosts (%u against %u): the move "
          "disoccludes too little for this test to mean anything",
          bad_ab, bad);
    return 0;
}

int main(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    gn_builtin_desc bd = {.name = "town"};
    CHECK(gn_scene_create_builtin(&bd, &s, &err) == GN_OK, "%s", err.message);
    gn_renderer *r = gt_renderer(W, H, 4);
    if (test_still(r, s, 10.0f) || test_still(r, s, 15.0f) || test_move(r, s)) return 1;
    GT_CHECK_VALIDATION(r, "resolving virtual shadow maps");
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

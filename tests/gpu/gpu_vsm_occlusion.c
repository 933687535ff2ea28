/* The VSM's casters culled against the pages' own depth (docs/VISIBILITY.md,
 * src/decide/vsm_hzb.h), on lavapipe under validation and synchronization validation:
 * (1) exact: along a walk under a fast-moving sun, every frame's image with culling is
 *     byte-identical to the same frame without it (two renderers side by side);
 * (2) it removes something real: pairs wait and most of them stay culled (the share printed);
 * (3) the GPU's decisions equal the CPU reference: on the last frame (its second phase left
 *     out, so the staging layers hold the first phase's depth), each page's pyramid equals
 *     gn_hzb_build_max of its layer, and every waiting pair -- a pair of the renderer without
 *     culling that the first phase did not draw -- is drawn in the second phase exactly when
 *     gn_vsm_hidden over that pyramid says it is not hidden. */
#include "decide/vsm_hzb.h"
#include "gpu_util.h"
#include "passes/vsm.h"
#include "renderer.h"

#include <stdlib.h>
#include <string.h>

#define W 320
#define H 180
#define FRAMES 24

static gn_renderer *make(void)
{
    gn_renderer_desc d = {
        .width = W, .height = H, .msaa = 4, .validation = GN_VALIDATION_ON, .vsm = {.page_budget = 32}};
    gn_renderer *r = NULL;
    gn_error err = {0};
    if (gn_renderer_create(&d, &r, &err) != GN_OK) {
        fprintf(stderr, "renderer: %s\n", err.message);
        exit(1);
    }
    return r;
}

static void *read_gpu(gn_renderer *r, gn_vsm_buffer which, size_t size)
{
    void *out = malloc(size);
    gn_error err = {0};
    if (!out || gn_vsm_read(r, which, out, size, &err) != GN_OK) {
        fprintf(stderr, "vsm read: %s\n", err.message);
        exit(1);
    }
    return out;
}

/* A pair as a sortable key: slot, instance, render entry. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Every pair a slot's command draws (the twins' too when `twins`), as keys sorted. */
static uint64_t *read_pairs(gn_renderer *r, bool twins, bool second_only, uint32_t *count)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    uint32_t slots = v->slot_count, ncmd = slots * 2;
    uint32_t *cmd = read_gpu(r, GN_VSM_COMMANDS, (size_t)ncmd * 20);
    uint32_t *pairs = read_gpu(r, GN_VSM_PAIRS, (size_t)v->pair_capacity * 8);
    uint32_t n = 0;
    for (uint32_t c = second_only ? slots : 0; c < (twins ? ncmd : slots); c++) n += cmd[5 * c + 1];
    uint64_t *keys = malloc(((size_t)n + 1) * sizeof *keys);
    n = 0;
    for (uint32_t c = second_only ? slots : 0; c < (twins ? ncmd : slots); c++)
        for (uint32_t i = 0; i < cmd[5 * c + 1]; i++) {
            const uint32_t *p = &pairs[2 * (cmd[5 * c + 4] + i)];
            keys[n++] = (uint64_t)(c % slots) << 44 | (uint64_t)p[0] << 12 | p[1];
        }
    qsort(keys, n, sizeof *keys, cmp_u64);
    free(cmd), free(pairs);
    *count = n;
    return keys;
}

static bool has(const uint64_t *keys, uint32_t n, uint64_t k)
{
    return bsearch(&k, keys, n, sizeof k, cmp_u64) != NULL;
}

/* (3) on the frame just drawn by `on` (second phase left out) and `off` */
static int check_reference(gn_renderer *on, gn_renderer *off)
{
    gn_vsm_gpu *v = gn_vsm_of(on);
    uint32_t T = v->s.page_texels, budget = v->s.page_budget, stride = v->occlusion.stride;
    size_t rsize = 16 + (size_t)budget * sizeof(gn_gpu_vsm_render);
    uint8_t *raw = read_gpu(on, GN_VSM_RENDER, rsize);
    uint32_t head[4];
    memcpy(head, raw, 16);
    const gn_gpu_vsm_render *entries = (const gn_gpu_vsm_render *)(raw + 16);
    float *hzb = read_gpu(on, GN_VSM_HZB, (size_t)budget * stride * 4);
    float *layers = read_gpu(on, GN_VSM_STAGING, (size_t)budget * T * T * 4);
    gn_hzb_layout l;
    gn_hzb_layout_make(T, T, &l);
    CHECK(l.texels == stride, "pyramid of %u texels, the GPU's %u", l.texels, stride);
    float *mine = malloc((size_t)stride * 4);
    uint32_t wrong_pyramids = 0;
    for (uint32_t e = 0; e < head[0]; e++) {
        gn_hzb_build_max(&l, layers + (size_t)e * T * T, mine);
        wrong_pyramids += memcmp(mine, hzb + (size_t)e * stride, (size_t)stride * 4) != 0;
    }
    CHECK(wrong_pyramids == 0, "%u of %u pages' pyramids differ from gn_hzb_build_max", wrong_pyramids,
          head[0]);
    /* the instances' casters, for their spheres */
    uint32_t instances = 0;
    for (uint32_t k = 0; k < v->caster_count; k++)
        if (v->casters_cpu[k].draw[3] + 1 > instances) instances = v->casters_cpu[k].draw[3] + 1;
    int32_t *caster_of = malloc((size_t)instances * sizeof *caster_of);
    for (uint32_t k = 0; k < instances; k++) caster_of[k] = -1;
    for (uint32_t k = 0; k < v->caster_count; k++) caster_of[v->casters_cpu[k].draw[3]] = (int32_t)k;
    uint32_t n_all, n_first, n_second;
    uint64_t *all = read_pairs(off, false, false, &n_all);
    uint64_t *first = read_pairs(on, false, false, &n_first);
    uint64_t *second = read_pairs(on, true, true, &n_second);
    uint32_t waiting = 0, agree = 0, disagree = 0, lost = 0;
    for (uint32_t i = 0; i < n_all; i++) {
        if (has(first, n_first, all[i])) continue;
        waiting++;
        uint32_t inst = (uint32_t)(all[i] >> 12 & 0xffffffffu), e = (uint32_t)(all[i] & 0xfffu);
        if (inst >= instances || caster_of[inst] < 0 || e >= head[0]) {
            lost++;
            continue;
        }
        const gn_gpu_vsm_caster *c = &v->casters_cpu[caster_of[inst]];
        float lp[3];
        gn_vsm_to_light(&v->view, c->sphere, lp);
        gn_vsm_page_rect rect = {entries[e].rect[0], entries[e].rect[1], entries[e].rect[2],
                                 entries[e].rect[3]};
        bool hidden = gn_vsm_hidden(&l, hzb + (size_t)e * stride, &rect, lp, c->sphere[3], v->s.depth_range);
        bool drawn = has(second, n_second, all[i]);
        if (hidden != drawn)
            agree++;
        else
            disagree++;
    }
    /* nothing is drawn twice or out of nowhere: the two phases are a subset of the pairs */
    uint32_t extra = 0;
    for (uint32_t i = 0; i < n_second; i++)
        extra += !has(all, n_all, second[i]) || has(first, n_first, second[i]);
    printf("reference: %u pairs, %u in the first phase, %u waited, %u drawn in the second; %u agree with "
           "gn_vsm_hidden, %u do not\n",
           n_all, n_first, waiting, n_second, agree, disagree);
    CHECK(lost == 0 && extra == 0, "%u waiting pairs of no caster, %u second-phase pairs not waiting", lost,
          extra);
    CHECK(disagree == 0, "%u waiting pairs where the GPU and gn_vsm_hidden disagree", disagree);
    CHECK(waiting > 0, "no pair waited on the reference frame");
    free(raw), free(hzb), free(layers), free(mine), free(caster_of), free(all), free(first), free(second);
    return 0;
}

int main(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    gn_builtin_desc bd = {.name = "town"};
    CHECK(gn_scene_create_builtin(&bd, &s, &err) == GN_OK, "%s", err.message);
    gn_renderer *on = make(), *off = make();
    gn_frame_desc f = gt_vsm_at(-30.0f, -10.0f, 40.0f, 9.0f);
    f.vsm_occlusion = true;
    gn_frame_desc g = f;
    g.vsm_occlusion = false;
    CHECK(gt_vsm_settle(on, s, &f) && gt_vsm_settle(off, s, &g), "the caches did not settle");
    /* a walk under a sun turning 0.03 degrees a frame (about 300x real time): pages re-render
     * every frame from tiles that still hold their older depth */
    uint32_t differ = 0, waited = 0, drawn2 = 0, first = 0;
    for (int k = 0; k < FRAMES; k++) {
        float hours = 9.0f + 0.002f * (float)k;
        f = gt_vsm_at(-30.0f + 0.5f * (float)k, -10.0f + 0.3f * (float)k, 40.0f + 1.5f * (float)k, hours);
        f.vsm_occlusion = true;
        g = f;
        g.vsm_occlusion = false;
        bool last = k == FRAMES - 1;
        gn_vsm_of(on)->occlusion.skip_second = last;
        gn_frame_stats a = gt_frame(on, s, &f), b = gt_frame(off, s, &g);
        CHECK(a.vsm_pairs_waiting <= b.vsm_pairs_phase1 && b.vsm_pairs_waiting == 0,
              "frame %d: %u waiting of %u pairs; %u waiting without culling", k, a.vsm_pairs_waiting,
              b.vsm_pairs_phase1, b.vsm_pairs_waiting);
        CHECK(a.vsm_pairs_phase1 + a.vsm_pairs_waiting == b.vsm_pairs_phase1,
              "frame %d: %u + %u pairs with culling, %u without", k, a.vsm_pairs_phase1, a.vsm_pairs_waiting,
              b.vsm_pairs_phase1);
        waited += a.vsm_pairs_waiting, drawn2 += a.vsm_pairs_phase2, first += a.vsm_pairs_phase1;
        if (last) break;
        uint8_t *pa = gt_pixels(on), *pb = gt_pixels(off);
        differ += memcmp(pa, pb, (size_t)W * H * 4) != 0;
        free(pa), free(pb);
    }
    printf("walk: %d frames, %u pairs drawn in the first phase, %u waited (%.1f%% of all), %u of those drawn "
           "in the second (%.1f%% of the waiting); %u frames differ\n",
           FRAMES, first, waited, 100.0 * waited / (double)(first + waited), drawn2,
           waited ? 100.0 * drawn2 / (double)waited : 0.0, differ);
    CHECK(differ == 0, "%u of %d frames differ with the VSM's occlusion culling", differ, FRAMES - 1);
    CHECK(waited > 0 && drawn2 < waited, "%u pairs waited, %u drawn after all", waited, drawn2);
    if (check_reference(on, off)) return 1;
    GT_CHECK_VALIDATION(on, "with the VSM's occlusion culling");
    GT_CHECK_VALIDATION(off, "without it");
    gn_renderer_destroy(on), gn_renderer_destroy(off);
    gn_scene_destroy(s);
    return gn_check_exit();
}

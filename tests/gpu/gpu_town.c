/* The town on the GPU: golden images from three viewpoints at four times of day (dawn, noon, sunset, 22:00:
 * the atmosphere, the exposure, bloom and night lights), a second render byte-identical to the first, the
 * debug views, and draw calls that scale with materials rather than objects. Every render runs under
 * validation (zero messages). Golden tolerance: see gpu_util.h (exact on lavapipe). */
#include "gpu_util.h"
#include "passes/bloom.h"
#include "scene/scene.h"
#include "scene/town.h" /* gn_town_viewpoints */

#include <stdlib.h>
#include <string.h>

#define W 384
#define H 216

static double variance(const uint8_t *px)
{
    double sum = 0, sq = 0, n = (double)W * H * 3;
    for (size_t i = 0; i < (size_t)W * H; i++)
        for (int c = 0; c < 3; c++) {
            sum += px[i * 4 + c];
            sq += (double)px[i * 4 + c] * px[i * 4 + c];
        }
    return sq / n - (sum / n) * (sum / n);
}

int main(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    gn_builtin_desc bd = {.name = "town", .seed = 1, .scale = 1};
    if (gn_scene_create_builtin(&bd, &s, &err)) {
        fprintf(stderr, "town: %s\n", err.message);
        return 1;
    }
    float vps[3][5];
    gn_town_viewpoints(s, vps);
    static const char *vp_names[3] = {"street", "rooftop", "overview"};
    /* noon last: the checks below read its frame; dawn is 5.5 h, the sun ~2 degrees up in August */
    static const float hours[4] = {22.0f, 18.5f, 5.5f, 12.0f};
    static const char *hour_names[4] = {"night", "sunset", "dawn", "noon"};

    gn_renderer *r = gt_renderer(W, H, 4);
    uint8_t *first = NULL;
    for (int v = 0; v < 3; v++)
        for (int t = 0; t < 4; t++) {
            gn_frame_desc f = gt_at(vps[v], hours[t]);
            uint8_t *px = gt_render(r, s, &f);
            char name[64];
            snprintf(name, sizeof name, "town_%s_%s", vp_names[v], hour_names[t]);
            CHECK(gt_golden(r, name, px, W, H), "%s differs from its golden image", name);
            CHECK(variance(px) > 100.0, "%s is nearly flat (variance %.1f)", name, variance(px));
            if (!first)
                first = px;
            else
                free(px);
        }
    GT_CHECK_VALIDATION(r, "rendering the golden images");

    /* draws scale with materials: the prepass is one indirect call, the forward pass one a
     * material batch (+ the sky) */
    gn_frame_stats st;
    CHECK(gn_renderer_wait_idle(r, &err) == GN_OK && gn_get_frame_stats(r, &st, &err) == GN_OK, "%s",
          err.message);
    /* the default sun shadows are the virtual shadow map's six passes: mark, alloc, bin, pages,
     * copy, resolve; besides them the views' GPU culling, the prepass, forward and tone map, and
     * occlusion culling's HZB, second cull and the prepass's second phase */
    uint32_t vsm_passes = 0;
    for (uint32_t p = 0; p < st.pass_count; p++) vsm_passes += strncmp(st.passes[p].name, "vsm ", 4) == 0;
    /* and the post chain: ambient occlusion's three passes, the exposure's histogram and
     * adaptation, bloom down and up its levels (depth of field is off by default) */
    uint32_t post = 3 + 2 + 2 * gn_bloom_levels_for(W, H) - 1;
    CHECK(st.occlusion && vsm_passes == 6 && st.pass_count == 7 + vsm_passes + post && st.shadow_updates == 0,
          "%u passes, %u of them VSM's, %u shadow cascades (occlusion %d)", st.pass_count, vsm_passes,
          st.shadow_updates, st.occlusion);
    const gn_pass_stats *prepass = NULL, *forward = NULL;
    for (uint32_t p = 0; p < st.pass_count; p++) {
        if (strcmp(st.passes[p].name, "depth prepass") == 0) prepass = &st.passes[p];
        if (strcmp(st.passes[p].name, "forward") == 0) forward = &st.passes[p];
    }
    CHECK(prepass && forward, "the depth prepass and forward pass are timed");
    if (prepass && forward) {
        CHECK(prepass->draws == 1, "depth prepass: %u draw calls", prepass->draws);
        CHECK(forward->draws <= s->material_count + 1, "forward: %u draw calls for %u materials",
              forward->draws, s->material_count);
    }
    CHECK(st.instances_visible > 0 && st.instances_visible < st.instances_total, "%u of %u instances visible",
          st.instances_visible, st.instances_total);
    CHECK(st.draw_groups < st.instances_visible / 4, "%u groups for %u visible instances", st.draw_groups,
          st.instances_visible);
    fprintf(stderr, "last frame: %u/%u instances visible, %u groups, %u draws, %llu triangles\n",
            st.instances_visible, st.instances_total, st.draw_groups, st.draws,
            (unsigned long long)st.triangles);

    /* determinism: a second renderer, the same frame, the same bytes */
    gn_renderer *r2 = gt_renderer(W, H, 4);
    gn_frame_desc f0 = gt_at(vps[0], hours[0]);
    uint8_t *again = gt_render(r2, s, &f0);
    CHECK(memcmp(first, again, (size_t)W * H * 4) == 0 || !gt_is_lavapipe(r2),
          "two renders of the same frame differ (hash %016llx vs %016llx)",
          (unsigned long long)gt_hash(first, (size_t)W * H * 4),
          (unsigned long long)gt_hash(again, (size_t)W * H * 4));
    gt_diff d = gt_compare(first, again, W, H, GT_GOLDEN_TOLERANCE);
    CHECK(d.over_share <= GT_GOLDEN_SHARE, "repeat render: %.3f%% of pixels differ", d.over_share * 100);
    GT_CHECK_VALIDATION(r2, "rendering the repeat");
    free(again);
    gn_renderer_destroy(r2);

    /* debug views: each an image of its own, with structure */
    uint64_t hashes[GN_VIEW_COUNT];
    for (int v = 0; v < GN_VIEW_COUNT; v++) {
        gn_frame_desc f = gt_at(vps[0], 18.5f); /* sunset: sun shadows and a sky */
        f.view = (gn_view)v;
        if (v == GN_VIEW_DOF_COC) f.dof = (gn_dof_desc){.focus = 10.0f, .range = 30.0f, .strength = 1.0f};
        if (v == GN_VIEW_VSM_PAGES || v == GN_VIEW_VSM_ATLAS) {
            /* the virtual shadow map's views: its pages first (requests arrive two frames late) */
            f.shadows = GN_SHADOWS_VSM;
            for (int k = 0; k < 6; k++) free(gt_render(r, s, &f));
        }
        uint8_t *px = gt_render(r, s, &f);
        hashes[v] = gt_hash(px, (size_t)W * H * 4);
        CHECK(variance(px) > 50.0, "view %d is nearly flat (variance %.1f)", v, variance(px));
        for (int u = 0; u < v; u++) CHECK(hashes[u] != hashes[v], "views %d and %d are the same image", u, v);
        free(px);
    }
    GT_CHECK_VALIDATION(r, "rendering the debug views");
    free(first);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

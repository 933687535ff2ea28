/* The VSM's casters culled against the pages' own depth (docs/VISIBILITY.md; the decisions and
 * why they are exact: decide/vsm_hzb.h). Four passes around BIN and RENDER:
 *   vsm hzb prior: the pyramid of every tile ALLOC flagged as still holding its page's depth
 *     (vsm_hzb_atlas.comp), read by BIN's COUNT and FILL, which send the pairs it hides to
 *     their slot's second-phase twin;
 *   vsm pages: RENDER's first phase (every slot's command);
 *   vsm hzb: the pyramid of every staging layer as the first phase left it
 *     (vsm_hzb_staging.comp);
 *   vsm occlusion: BIN's TEST (vsm_bin.comp, phase 3): the waiting pairs against it;
 *   vsm pages 2: RENDER's second phase over the same layers (the twins' commands).
 * A page without the flag (new, or of the dynamic layer) puts all its pairs in the first phase. */
#include "passes/vsm.h"

#include "decide/vsm_hzb.h"

#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

gn_result gn_vsm_occlusion_create(gn_renderer *r, gn_vsm_gpu *vsm, gn_error *err)
{
    gn_vsm_occlusion_gpu *o = &vsm->occlusion;
    gn_vk *vk = &r->vk;
    gn_hzb_layout l;
    gn_hzb_layout_make(vsm->s.page_texels, vsm->s.page_texels, &l);
    o->stride = l.texels;
    gn_vk_buffer_desc bd = {.size = (VkDeviceSize)vsm->s.page_budget * l.texels * sizeof(float),
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                            .name = "vsm page pyramids"};
    gn_result res = gn_vk_buffer_create(vk, &bd, &o->hzb, err);
    const gn_vk_binding b[GN_BIND_VSM_HZB_COUNT] = {
        [GN_BIND_VSM_HZB_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
        [GN_BIND_VSM_HZB_RENDER] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_VSM_HZB_DEPTH] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_VSM_HZB_TEXELS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
    };
    if (!res) res = gn_vk_set_layout(vk, b, GN_BIND_VSM_HZB_COUNT, "vsm hzb set", &o->layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &o->layout, 1, 4, "vsm hzb", &o->pipeline_layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 2, "vsm hzb", &o->pool, err);
    static const char *const shaders[2] = {"vsm_hzb_atlas.comp", "vsm_hzb_staging.comp"};
    static const char *const names[2] = {"vsm hzb of the tiles", "vsm hzb of the layers"};
    for (uint32_t k = 0; !res && k < 2; k++) {
        res = gn_vk_alloc_set(vk, o->pool, o->layout, names[k], &o->sets[k], err);
        if (!res)
            res = gn_vk_compute_pipeline(vk, shaders[k], o->pipeline_layout, names[k], &o->pipelines[k], err);
    }
    for (uint32_t k = 0; !res && k < 2; k++) {
        gn_vk_write w[GN_BIND_VSM_HZB_COUNT] = {
            gn_write_frame(r, GN_BIND_VSM_HZB_FRAME),
            gn_write_storage(GN_BIND_VSM_HZB_RENDER, &vsm->render),
            gn_write_sampled(GN_BIND_VSM_HZB_DEPTH, k ? &vsm->staging : &vsm->atlas, r->pipes.clamp),
            gn_write_storage(GN_BIND_VSM_HZB_TEXELS, &o->hzb),
        };
        gn_vk_write_set(vk, o->sets[k], w, GN_BIND_VSM_HZB_COUNT);
    }
    return res;
}

void gn_vsm_occlusion_release(gn_renderer *r, gn_vsm_gpu *vsm)
{
    gn_vsm_occlusion_gpu *o = &vsm->occlusion;
    gn_vk *vk = &r->vk;
    for (uint32_t k = 0; k < 2; k++)
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)o->pipelines[k]);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)o->pipeline_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)o->layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)o->pool);
    gn_vk_buffer_release(vk, &o->hzb);
}

uint32_t gn_vsm_occlusion_runs(const gn_renderer *r, const void *self)
{
    const gn_vsm_gpu *v = self;
    return gn_vsm_runs(r, self) && v->occlusion.on ? 1 : 0;
}

/* One workgroup a page of the budget (those past ALLOC's list, or unflagged, leave at once). */
static void pyramids(gn_renderer *r, gn_vsm_gpu *v, uint32_t which)
{
    gn_vk *vk = &r->vk;
    gn_vsm_occlusion_gpu *o = &v->occlusion;
    gn_vk_cmd_bind_pipeline(vk, true, o->pipelines[which]);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, o->pipeline_layout, 0, 1, &o->sets[which], 1, &dyn);
    gn_vk_cmd_push(vk, o->pipeline_layout, sizeof o->stride, &o->stride);
    gn_vk_cmd_dispatch(vk, v->s.page_budget, 1, 1);
}

uint32_t gn_vsm_hzb_prior_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_vsm_gpu *v = self;
    out[0] = (gn_vk_use){.image = &v->atlas, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &v->render, .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.buffer = &v->occlusion.hzb, .access = GN_ACCESS_COMPUTE_WRITE};
    return 3;
}

gn_pass_work gn_vsm_hzb_prior_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    pyramids(r, self, 0);
    return (gn_pass_work){0, 0};
}

uint32_t gn_vsm_hzb_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_vsm_gpu *v = self;
    out[0] = (gn_vk_use){.image = &v->staging, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &v->render, .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.buffer = &v->occlusion.hzb, .access = GN_ACCESS_COMPUTE_WRITE};
    return 3;
}

gn_pass_work gn_vsm_hzb_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    pyramids(r, self, 1);
    return (gn_pass_work){0, 0};
}

/* TEST: BIN's fourth dispatch, a workgroup a slot; the frame's statistics again after it. */
uint32_t gn_vsm_occlusion_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_vsm_gpu *v = self;
    gn_vk_use uses[] = {
        {.buffer = &v->occlusion.hzb, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &v->render, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &v->casters, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &v->commands, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->pairs, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->stats, .access = GN_ACCESS_COMPUTE_WRITE},
    };
    memcpy(out, uses, sizeof uses);
    return sizeof uses / sizeof uses[0];
}

gn_pass_work gn_vsm_occlusion_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_vsm_gpu *v = self;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_bind_pipeline(vk, true, v->bin_pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, v->bin_pipeline_layout, 0, 1, &v->bin_set, 1, &dyn);
    uint32_t push[6] = {3, v->caster_count, v->slot_count, v->pair_capacity, 1, v->occlusion.stride};
    gn_vk_cmd_push(vk, v->bin_pipeline_layout, sizeof push, push);
    if (v->slot_count) gn_vk_cmd_dispatch(vk, v->slot_count, 1, 1);
    gn_frame_count(r, GN_FEATURE_VSM, &v->stats, sizeof(gn_gpu_vsm_stats));
    return (gn_pass_work){0, 0};
}

uint32_t gn_vsm_pages2_runs(const gn_renderer *r, const void *self)
{
    return gn_vsm_occlusion_runs(r, self) && !((const gn_vsm_gpu *)self)->occlusion.skip_second;
}

uint32_t gn_vsm_pages2_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    return gn_vsm_pages_uses(r, self, run, out);
}

gn_pass_work gn_vsm_pages2_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    return gn_vsm_draw_pages(r, self, true);
}

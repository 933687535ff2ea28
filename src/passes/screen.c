/* A compute pass over the output (the tone map, the debug views): one set of its own, one
 * pipeline, 8x8 threads a tile. What each such feature would otherwise repeat. */
#include "passes/passes.h"

gn_result gn_screen_pass_create(gn_renderer *r, gn_screen_pass *p, const char *shader, const char *name,
                                const gn_vk_binding *bindings, uint32_t count, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_result res = gn_vk_set_layout(vk, bindings, count, name, &p->set_layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &p->set_layout, 1, 0, name, &p->layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 1, name, &p->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, p->pool, p->set_layout, name, &p->set, err);
    if (!res) res = gn_vk_compute_pipeline(vk, shader, p->layout, name, &p->pipeline, err);
    return res;
}

void gn_screen_pass_release(gn_renderer *r, gn_screen_pass *p)
{
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p->pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)p->layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)p->set_layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)p->pool);
}

void gn_screen_pass_dispatch(gn_renderer *r, const gn_screen_pass *p)
{
    gn_vk *vk = &r->vk;
    gn_vk_cmd_bind_pipeline(vk, true, p->pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, p->layout, 0, 1, &p->set, 1, &dyn);
    gn_vk_cmd_dispatch(vk, (r->width + 7) / 8, (r->height + 7) / 8, 1);
}

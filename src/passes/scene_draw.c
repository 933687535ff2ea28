/* Draws the frame plan's visible instances. Every group (one mesh, one material) is one
 * instanced indirect command; a batch (a run of groups of one material) is one
 * vkCmdDrawIndexedIndirect with drawCount > 1, so draws scale with materials, not objects. */
#include "renderer.h"

void gn_scene_draw(gn_renderer *r, bool materials, uint32_t *draws)
{
    gn_vk *vk = &r->vk;
    const gn_draw_list *list = &r->plan.list;
    const VkDeviceSize stride = sizeof(VkDrawIndexedIndirectCommand);
    uint32_t max_count = vk->props.limits.maxDrawIndirectCount;
    *draws = 0;
    if (!list->group_count) return;
    gn_vk_cmd_bind_geometry(vk, &r->scene.vertices, &r->scene.indices);
    if (!materials) {
        /* depth only: no per-material state, so every group goes in as few calls as the
         * device's maxDrawIndirectCount allows */
        for (uint32_t first = 0; first < list->group_count; first += max_count) {
            uint32_t n = list->group_count - first < max_count ? list->group_count - first : max_count;
            gn_vk_cmd_draw_indexed_indirect(vk, vk->ring.buffer, r->plan.indirect_offset + first * stride, n);
            (*draws)++;
        }
        return;
    }
    for (uint32_t b = 0; b < list->batch_count; b++) {
        const gn_draw_batch *batch = &list->batches[b];
        gn_vk_cmd_bind_sets(vk, false, r->pipes.scene_layout, 1, 1, &r->scene.material_sets[batch->material],
                            0, NULL);
        gn_vk_cmd_push(vk, r->pipes.scene_layout, sizeof batch->material, &batch->material);
        for (uint32_t first = 0; first < batch->group_count; first += max_count) {
            uint32_t n = batch->group_count - first < max_count ? batch->group_count - first : max_count;
            gn_vk_cmd_draw_indexed_indirect(
                vk, vk->ring.buffer, r->plan.indirect_offset + (batch->first_group + first) * stride, n);
            (*draws)++;
        }
    }
}

/* Timestamps of one's own, apart from the frame's pass timings: the floors (src/floors.c) time
 * many short pieces of work in one command buffer, more than a frame slot's queries hold, and
 * must not show up as a frame in the statistics. */
#include "vk/fault.h"
#include "vk/vk.h"

gn_result gn_vk_timer_create(gn_vk *vk, uint32_t count, const char *name, gn_vk_timer *out, gn_error *err)
{
    *out = (gn_vk_timer){0};
    VkQueryPoolCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = count,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateQueryPool(vk->device, &ci, NULL, &out->pool));
    if (r) return gn_vk_check(vk, r, name, err);
    out->count = count;
    /* a counter of fewer than 64 bits wraps: intervals are taken modulo its width */
    uint32_t families = 0, bits = 64;
    VkQueueFamilyProperties q[16];
    vkGetPhysicalDeviceQueueFamilyProperties(vk->physical, &families, NULL);
    if (families > 16) families = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(vk->physical, &families, q);
    if (vk->queue_family < families) bits = q[vk->queue_family].timestampValidBits;
    out->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    gn_vk_name(vk, VK_OBJECT_TYPE_QUERY_POOL, (uint64_t)(uintptr_t)out->pool, name);
    return GN_OK;
}

void gn_vk_timer_release(gn_vk *vk, gn_vk_timer *t)
{
    gn_vk_release(vk, VK_OBJECT_TYPE_QUERY_POOL, (uint64_t)(uintptr_t)t->pool);
    *t = (gn_vk_timer){0};
}

void gn_vk_cmd_timer_reset(gn_vk *vk, gn_vk_timer *t)
{
    vkCmdResetQueryPool(vk->cur->cmd, t->pool, 0, t->count);
}

void gn_vk_cmd_timestamp(gn_vk *vk, gn_vk_timer *t, uint32_t index)
{
    /* all commands: written once everything recorded before it has finished, as the passes' are */
    vkCmdWriteTimestamp2(vk->cur->cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, t->pool, index);
}

gn_result gn_vk_timer_read(gn_vk *vk, gn_vk_timer *t, uint32_t pairs, double *ms, gn_error *err)
{
    uint64_t ts[2];
    for (uint32_t i = 0; i < pairs && 2 * i + 1 < t->count; i++) {
        VkResult r = vkGetQueryPoolResults(vk->device, t->pool, 2 * i, 2, sizeof ts, ts, sizeof ts[0],
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (r) return gn_vk_check(vk, r, "vkGetQueryPoolResults", err);
        ms[i] = (double)((ts[1] - ts[0]) & t->mask) * vk->props.limits.timestampPeriod * 1e-6;
    }
    return GN_OK;
}

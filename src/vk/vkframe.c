/* Frame slots: begin waits for the slot's previous frame (GN_FRAMES_IN_FLIGHT ago) and
 * harvests its timestamps into statistics; submit hands the command buffer to the queue. */
#include "vk/vk.h"

#include <stdio.h>
#include <string.h>

gn_result gn_vk_frame_harvest(gn_vk *vk, gn_vk_frame *f, gn_error *err)
{
    if (!f->pending) return GN_OK;
    VkResult r = vkWaitForFences(vk->device, 1, &f->fence, VK_TRUE, UINT64_MAX);
    if (r) return gn_vk_check(vk, r, "vkWaitForFences", err);
    f->pending = false;
    if (f->number > vk->frames_done) vk->frames_done = f->number;
    if (f->ring_end > vk->ring_tail) vk->ring_tail = f->ring_end;
    if (f->utility || f->pass_count == 0) return GN_OK;

    uint64_t ts[GN_MAX_PASS_QUERIES];
    r = vkGetQueryPoolResults(vk->device, f->queries, 0, f->pass_count * 2, sizeof ts, ts, sizeof ts[0],
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r) return gn_vk_check(vk, r, "vkGetQueryPoolResults", err);
    if (f->number < vk->last_stats.frame_index) return GN_OK;
    gn_frame_stats *s = &vk->last_stats;
    memset(s, 0, sizeof *s);
    double ns = vk->props.limits.timestampPeriod;
    s->frame_index = f->number;
    s->pass_count = f->pass_count;
    uint64_t first = ts[0], last = ts[1];
    for (uint32_t i = 0; i < f->pass_count; i++) {
        gn_pass_stats *p = &s->passes[i];
        snprintf(p->name, sizeof p->name, "%s", f->pass_names[i]);
        uint64_t a = ts[2 * i], b = ts[2 * i + 1];
        p->gpu_ms = b > a ? (double)(b - a) * ns * 1e-6 : 0.0;
        p->draws = f->pass_draws[i];
        p->triangles = f->pass_triangles[i];
        s->draws += p->draws;
        s->triangles += p->triangles;
        if (a < first) first = a;
        if (b > last) last = b;
    }
    s->gpu_ms = last > first ? (double)(last - first) * ns * 1e-6 : 0.0;
    s->cpu_ms = f->cpu_ms;
    s->instances_total = f->instances_total;
    s->instances_visible = f->instances_visible;
    s->draw_groups = f->draw_groups;
    s->shadow_updates = f->shadow_updates;
    s->shadow_casters = f->shadow_casters;
    s->lights = f->lights;
    s->shadowed_lights = f->shadowed_lights;
    s->unshadowed_lights = f->unshadowed_lights;
    s->world_leaves = f->world[0], s->world_leaves_pvs = f->world[1], s->world_leaves_frustum = f->world[2];
    s->world_faces = f->world[3], s->world_faces_pvs = f->world[4], s->world_faces_frustum = f->world[5];
    s->visibility_ms = f->visibility_ms;
    if (f->vsm.counted) { /* ALLOC and BIN counted on the GPU */
        gn_gpu_vsm_stats g;
        memcpy(&g, (const uint8_t *)f->counters.alloc.mapped + GN_VK_COUNTERS_VSM, sizeof g);
        f->vsm.requested = g.pages[0], f->vsm.resident = g.pages[1];
        f->vsm.rendered_static = g.pages[2], f->vsm.rendered_dynamic = g.pages[3];
        f->vsm.evicted = g.pool[0], f->vsm.overflow = g.pool[1] + g.misc[1], f->vsm.waiting = g.pool[2];
        f->vsm.pool_used = g.pool[3], f->vsm.rendered_fresh = g.fresh[0];
        memcpy(&f->vsm.sun_lag_deg, &g.misc[0], sizeof f->vsm.sun_lag_deg);
        memcpy(f->vsm.requested_level, g.requested_level, sizeof f->vsm.requested_level);
        memcpy(f->vsm.rendered_level, g.rendered_level, sizeof f->vsm.rendered_level);
    }
    s->vsm_pages_requested = f->vsm.requested, s->vsm_pages_resident = f->vsm.resident;
    s->vsm_pages_rendered_static = f->vsm.rendered_static,
    s->vsm_pages_rendered_dynamic = f->vsm.rendered_dynamic;
    s->vsm_pages_rendered_fresh = f->vsm.rendered_fresh;
    s->vsm_pages_evicted = f->vsm.evicted, s->vsm_overflow = f->vsm.overflow,
    s->vsm_pages_waiting = f->vsm.waiting;
    s->vsm_pool_used = f->vsm.pool_used, s->vsm_pool_pages = f->vsm.pool_pages;
    s->vsm_sun_lag_deg = f->vsm.sun_lag_deg;
    memcpy(s->vsm_requested_level, f->vsm.requested_level, sizeof s->vsm_requested_level);
    memcpy(s->vsm_rendered_level, f->vsm.rendered_level, sizeof s->vsm_rendered_level);
    s->light_overflow = ((const uint32_t *)f->counters.alloc.mapped)[0];
    vk->have_stats = true;
    /* the queue drops its oldest entry when full */
    if (vk->finished_count == GN_STATS_QUEUE) {
        vk->finished_head = (vk->finished_head + 1) % GN_STATS_QUEUE;
        vk->finished_count--;
    }
    vk->finished[(vk->finished_head + vk->finished_count++) % GN_STATS_QUEUE] = *s;
    return GN_OK;
}

gn_result gn_vk_frame_begin(gn_vk *vk, gn_error *err)
{
    vk->frame_number++;
    gn_vk_frame *f = &vk->frames[vk->frame_number % GN_FRAMES_IN_FLIGHT];
    gn_result res = gn_vk_frame_harvest(vk, f, err);
    if (res) return res;
    gn_vk_collect_garbage(vk, false);
    VkResult r = vkResetFences(vk->device, 1, &f->fence);
    if (!r) r = vkResetCommandPool(vk->device, f->pool, 0);
    if (r) return gn_vk_check(vk, r, "frame begin", err);
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    r = vkBeginCommandBuffer(f->cmd, &bi);
    if (r) return gn_vk_check(vk, r, "vkBeginCommandBuffer", err);
    vkCmdResetQueryPool(f->cmd, f->queries, 0, GN_MAX_PASS_QUERIES);
    f->number = vk->frame_number;
    f->pass_count = 0;
    f->utility = false;
    f->cpu_ms = 0;
    f->shadow_updates = f->shadow_casters = f->lights = f->shadowed_lights = f->unshadowed_lights = 0;
    memset(f->world, 0, sizeof f->world);
    f->visibility_ms = 0;
    memset(&f->vsm, 0, sizeof f->vsm);
    ((uint32_t *)f->counters.alloc.mapped)[0] = 0; /* a frame with no light binning overflows nothing */
    vk->cur = f;
    return GN_OK;
}

gn_result gn_vk_frame_submit(gn_vk *vk, gn_error *err)
{
    gn_vk_frame *f = vk->cur;
    VkResult r = vkEndCommandBuffer(f->cmd);
    if (r) return gn_vk_check(vk, r, "vkEndCommandBuffer", err);
    VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                     .commandBuffer = f->cmd};
    VkSubmitInfo2 si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1, .pCommandBufferInfos = &cbi};
    /* A presenting frame waits for its swapchain image only where the blit writes it (the
     * image's barrier starts at that stage: gn_vk_swapchain_acquire), so the rest of the frame
     * need not wait for the window. */
    VkSemaphoreSubmitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                  .semaphore = f->wait_semaphore,
                                  .stageMask = VK_PIPELINE_STAGE_2_BLIT_BIT};
    VkSemaphoreSubmitInfo signal = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                    .semaphore = f->signal_semaphore,
                                    .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
    if (f->wait_semaphore) si.waitSemaphoreInfoCount = 1, si.pWaitSemaphoreInfos = &wait;
    if (f->signal_semaphore) si.signalSemaphoreInfoCount = 1, si.pSignalSemaphoreInfos = &signal;
    f->wait_semaphore = f->signal_semaphore = VK_NULL_HANDLE;
    r = vkQueueSubmit2(vk->queue, 1, &si, f->fence);
    if (r) return gn_vk_check(vk, r, "vkQueueSubmit2", err);
    f->ring_end = vk->ring_head;
    f->pending = true;
    vk->cur = NULL;
    return GN_OK;
}

gn_result gn_vk_wait_idle(gn_vk *vk, gn_error *err)
{
    /* oldest first, so the newest frame's statistics win */
    for (;;) {
        gn_vk_frame *oldest = NULL;
        for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++)
            if (vk->frames[i].pending && (!oldest || vk->frames[i].number < oldest->number))
                oldest = &vk->frames[i];
        if (!oldest) break;
        gn_result r = gn_vk_frame_harvest(vk, oldest, err);
        if (r) return r;
    }
    gn_vk_collect_garbage(vk, false);
    return GN_OK;
}

gn_result gn_vk_run_once(gn_vk *vk, void (*record)(gn_vk *vk, VkCommandBuffer cmd, void *user), void *user,
                         gn_error *err)
{
    gn_result r = gn_vk_frame_begin(vk, err);
    if (r) return r;
    vk->cur->utility = true;
    record(vk, vk->cur->cmd, user);
    r = gn_vk_frame_submit(vk, err);
    if (r) return r;
    return gn_vk_wait_idle(vk, err);
}

void gn_vk_poll(gn_vk *vk)
{
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++) {
        gn_vk_frame *f = &vk->frames[i];
        if (f->pending && vkGetFenceStatus(vk->device, f->fence) == VK_SUCCESS)
            gn_vk_frame_harvest(vk, f, NULL);
    }
}

/* Frame slots: begin waits for the slot's previous frame (GN_FRAMES_IN_FLIGHT ago) and
 * harvests its timestamps into statistics; submit hands the command buffer to the queue. */
#include "vk/fault.h"
#include "vk/vk.h"

#include <stdio.h>
#include <string.h>

gn_result gn_vk_timed_out(gn_vk *vk, uint64_t frame, gn_error *err)
{
    return gn_fail(
        err, GN_ERROR_DEVICE_LOST,
        "the GPU did not finish frame %llu within %llu ms (gpu_timeout_ms): treating the device as lost",
        (unsigned long long)frame, (unsigned long long)(vk->timeout_ns / 1000000u));
}

bool gn_vk_drain(gn_vk *vk)
{
    VkFence fences[GN_FRAMES_IN_FLIGHT];
    uint32_t count = 0;
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++)
        if (vk->frames[i].pending) fences[count++] = vk->frames[i].fence;
    /* one wait for them all: a hung GPU costs one timeout here, not one a frame */
    return count == 0 || vkWaitForFences(vk->device, count, fences, VK_TRUE, vk->timeout_ns) == VK_SUCCESS;
}

gn_result gn_vk_frame_harvest(gn_vk *vk, gn_vk_frame *f, gn_error *err)
{
    if (!f->pending) return GN_OK;
    VkResult r =
        GN_VK_FAULT(GN_VK_FAULT_WAIT, vkWaitForFences(vk->device, 1, &f->fence, VK_TRUE, vk->timeout_ns));
    if (r == VK_TIMEOUT) return gn_vk_timed_out(vk, f->number, err);
    if (r) return gn_vk_check(vk, r, "vkWaitForFences", err);
    f->pending = false;
    if (f->number > vk->frames_done) vk->frames_done = f->number;
    if (f->ring_end > vk->ring_tail) vk->ring_tail = f->ring_end;
    if (f->utility || f->pass_count == 0 || !vk->harvested) return GN_OK;

    /* the slot's arrays hold pass_capacity passes (gn_vk_pass_capacity): no allocation a frame */
    uint64_t *ts = f->timestamps;
    double *ms = f->pass_ms;
    r = vkGetQueryPoolResults(vk->device, f->queries, 0, f->pass_count * 2, f->pass_count * 2 * sizeof *ts,
                              ts, sizeof ts[0], VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r) return gn_vk_check(vk, r, "vkGetQueryPoolResults", err);
    double ns = vk->props.limits.timestampPeriod;
    uint64_t first = ts[0], last = ts[1];
    for (uint32_t i = 0; i < f->pass_count; i++) {
        uint64_t a = ts[2 * i], b = ts[2 * i + 1];
        ms[i] = b > a ? (double)(b - a) * ns * 1e-6 : 0.0;
        if (a < first) first = a;
        if (b > last) last = b;
    }
    gn_vk_timings t = {
        .frame = f, .pass_ms = ms, .gpu_ms = last > first ? (double)(last - first) * ns * 1e-6 : 0.0};
    vk->harvested(vk->harvest_user, &t);
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
    vkCmdResetQueryPool(f->cmd, f->queries, 0, vk->pass_capacity * 2);
    f->number = vk->frame_number;
    f->pass_count = 0;
    f->utility = false;
    /* a counter a frame does not write reads zero */
    memset(f->counters.alloc.mapped, 0, (size_t)vk->counters_size);
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
    r = GN_VK_FAULT(GN_VK_FAULT_SUBMIT, vkQueueSubmit2(vk->queue, 1, &si, f->fence));
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

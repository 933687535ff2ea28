/* A window's swapchain on the caller's surface: made on the first acquire, remade when the
 * window's size changes or the surface says it is out of date, left empty while the window
 * has no area. Semaphores: one per frame slot for the acquire (its slot's fence proves the
 * last wait on it finished) and one per image for present, because the presentation engine
 * gives no signal when it is done with a semaphore until that image is acquired again. */
#include "vk/fault.h"
#include "vk/vk.h"

#include <stdio.h>
#include <string.h>

gn_result gn_vk_swapchain_attach(gn_vk *vk, gn_vk_swapchain *sc, VkSurfaceKHR surface, bool vsync,
                                 gn_error *err)
{
    gn_vk_swapchain_destroy(vk, sc);
    VkBool32 ok = VK_FALSE;
    VkResult r = vkGetPhysicalDeviceSurfaceSupportKHR(vk->physical, vk->queue_family, surface, &ok);
    if (r || !ok) {
        vkDestroySurfaceKHR(vk->instance, surface, NULL);
        if (r) return gn_vk_check(vk, r, "vkGetPhysicalDeviceSurfaceSupportKHR", err);
        return gn_fail(err, GN_ERROR_NO_DEVICE, "%s cannot present to this window from queue family %u",
                       vk->props.deviceName, vk->queue_family);
    }
    sc->surface = surface;
    sc->vsync = vsync;
    sc->stale = true;
    VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++) {
        r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateSemaphore(vk->device, &si, NULL, &sc->acquired[i]));
        if (r) return gn_vk_check(vk, r, "vkCreateSemaphore", err);
        gn_vk_name(vk, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)sc->acquired[i], "swapchain image acquired");
    }
    return GN_OK;
}

void gn_vk_surface_destroy(gn_vk *vk, VkSurfaceKHR surface)
{
    if (surface) vkDestroySurfaceKHR(vk->instance, surface, NULL);
}

static void destroy_images(gn_vk *vk, gn_vk_swapchain *sc)
{
    for (uint32_t i = 0; i < sc->image_count; i++) {
        if (sc->images[i].view) vkDestroyImageView(vk->device, sc->images[i].view, NULL);
        if (sc->ready[i]) vkDestroySemaphore(vk->device, sc->ready[i], NULL);
        sc->ready[i] = VK_NULL_HANDLE;
        memset(&sc->images[i], 0, sizeof sc->images[i]);
    }
    sc->image_count = 0;
}

void gn_vk_swapchain_destroy(gn_vk *vk, gn_vk_swapchain *sc)
{
    if (!vk->device) return;
    if ((sc->surface || sc->swapchain) && gn_vk_drain(vk)) vkDeviceWaitIdle(vk->device); /* gn_vk_destroy */
    destroy_images(vk, sc);
    if (sc->swapchain) vkDestroySwapchainKHR(vk->device, sc->swapchain, NULL);
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++)
        if (sc->acquired[i]) vkDestroySemaphore(vk->device, sc->acquired[i], NULL);
    if (sc->surface) vkDestroySurfaceKHR(vk->instance, sc->surface, NULL);
    uint64_t presented = sc->presented, skipped = sc->skipped;
    uint32_t created = sc->created;
    memset(sc, 0, sizeof *sc);
    sc->presented = presented, sc->skipped = skipped, sc->created = created;
}

/* The window's bytes are the output's bytes: the output holds sRGB-encoded values in a UNORM
 * image, so a UNORM swapchain shows them as they are (an _SRGB one would encode them twice). */
static VkSurfaceFormatKHR choose_format(gn_vk *vk, VkSurfaceKHR surface)
{
    VkSurfaceFormatKHR formats[64];
    uint32_t n = 64;
    VkResult r = vkGetPhysicalDeviceSurfaceFormatsKHR(vk->physical, surface, &n, formats);
    if ((r && r != VK_INCOMPLETE) || n == 0) return (VkSurfaceFormatKHR){VK_FORMAT_B8G8R8A8_UNORM, 0};
    for (uint32_t i = 0; i < n; i++)
        if ((formats[i].format == VK_FORMAT_B8G8R8A8_UNORM ||
             formats[i].format == VK_FORMAT_R8G8B8A8_UNORM) &&
            formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
            return formats[i];
    gn_vk_log(vk, GN_LOG_WARN, "no UNORM swapchain format; the window shows %d (colours may be off)",
              (int)formats[0].format);
    return formats[0];
}

static VkPresentModeKHR choose_mode(gn_vk *vk, VkSurfaceKHR surface, bool vsync)
{
    if (vsync) return VK_PRESENT_MODE_FIFO_KHR; /* every implementation has it */
    VkPresentModeKHR modes[16];
    uint32_t n = 16;
    VkResult r = vkGetPhysicalDeviceSurfacePresentModesKHR(vk->physical, surface, &n, modes);
    if (r && r != VK_INCOMPLETE) return VK_PRESENT_MODE_FIFO_KHR;
    bool mailbox = false, immediate = false;
    for (uint32_t i = 0; i < n; i++) {
        mailbox |= modes[i] == VK_PRESENT_MODE_MAILBOX_KHR;
        immediate |= modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR;
    }
    return mailbox     ? VK_PRESENT_MODE_MAILBOX_KHR
           : immediate ? VK_PRESENT_MODE_IMMEDIATE_KHR
                       : VK_PRESENT_MODE_FIFO_KHR;
}

static uint32_t clamp_u32(uint32_t v, uint32_t lo, uint32_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* (Re)makes the swapchain. The old one is passed as oldSwapchain and destroyed once the
 * device is idle, since its images may still be on screen or in flight. */
static gn_result recreate(gn_vk *vk, gn_vk_swapchain *sc, uint32_t width, uint32_t height, gn_error *err)
{
    VkSurfaceCapabilitiesKHR caps;
    VkResult r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(vk->physical, sc->surface, &caps);
    if (r) return gn_vk_check(vk, r, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR", err);
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) /* the surface takes the swapchain's size: the output's */
        extent = (VkExtent2D){clamp_u32(width, caps.minImageExtent.width, caps.maxImageExtent.width),
                              clamp_u32(height, caps.minImageExtent.height, caps.maxImageExtent.height)};
    if (!gn_vk_drain(vk)) return gn_vk_timed_out(vk, vk->frame_number, err);
    vkDeviceWaitIdle(vk->device); /* the frames have finished: only presentation is left */
    destroy_images(vk, sc);
    VkSwapchainKHR old = sc->swapchain;
    sc->swapchain = VK_NULL_HANDLE;
    sc->extent = extent;
    if (extent.width == 0 || extent.height == 0) { /* minimised: try again next frame */
        if (old) vkDestroySwapchainKHR(vk->device, old, NULL);
        return GN_OK;
    }
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) {
        if (old) vkDestroySwapchainKHR(vk->device, old, NULL);
        return gn_fail(err, GN_ERROR_VULKAN,
                       "the window's swapchain images cannot be a transfer destination");
    }
    VkSurfaceFormatKHR format = choose_format(vk, sc->surface);
    uint32_t count = caps.minImageCount + 1; /* one more than the minimum: no wait on the window */
    if (caps.maxImageCount && count > caps.maxImageCount) count = caps.maxImageCount;
    if (count > GN_VK_MAX_SWAPCHAIN_IMAGES) count = GN_VK_MAX_SWAPCHAIN_IMAGES;
    VkSwapchainCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = sc->surface,
        .minImageCount = count,
        .imageFormat = format.format,
        .imageColorSpace = format.colorSpace,
        .imageExtent = extent,
        .imageArrayLayers = 1,
        .imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha =
            (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                : (VkCompositeAlphaFlagBitsKHR)(caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha),
        .presentMode = choose_mode(vk, sc->surface, sc->vsync),
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateSwapchainKHR(vk->device, &ci, NULL, &sc->swapchain));
    if (old) vkDestroySwapchainKHR(vk->device, old, NULL);
    if (r) {
        sc->swapchain = VK_NULL_HANDLE;
        return gn_vk_check(vk, r, "vkCreateSwapchainKHR", err);
    }
    gn_vk_name(vk, VK_OBJECT_TYPE_SWAPCHAIN_KHR, (uint64_t)sc->swapchain, "window swapchain");
    VkImage images[GN_VK_MAX_SWAPCHAIN_IMAGES];
    uint32_t n = GN_VK_MAX_SWAPCHAIN_IMAGES;
    r = vkGetSwapchainImagesKHR(vk->device, sc->swapchain, &n, images);
    if (r && r != VK_INCOMPLETE) return gn_vk_check(vk, r, "vkGetSwapchainImagesKHR", err);
    VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    for (uint32_t i = 0; i < n; i++) {
        gn_vk_image *img = &sc->images[i];
        *img = (gn_vk_image){.image = images[i],
                             .format = format.format,
                             .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                             .width = extent.width,
                             .height = extent.height,
                             .samples = 1,
                             .mips = 1,
                             .layers = 1};
        sc->image_count = i + 1;
        r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateSemaphore(vk->device, &si, NULL, &sc->ready[i]));
        if (r) return gn_vk_check(vk, r, "vkCreateSemaphore", err);
        char name[48];
        snprintf(name, sizeof name, "swapchain image %u", i);
        gn_vk_name(vk, VK_OBJECT_TYPE_IMAGE, (uint64_t)images[i], name);
        snprintf(name, sizeof name, "swapchain image %u ready", i);
        gn_vk_name(vk, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)sc->ready[i], name);
    }
    sc->format = format.format;
    sc->created++;
    sc->stale = false;
    return GN_OK;
}

gn_result gn_vk_swapchain_acquire(gn_vk *vk, gn_vk_swapchain *sc, uint32_t width, uint32_t height,
                                  gn_vk_image **image, gn_error *err)
{
    *image = NULL;
    if (!sc->surface) return GN_OK;
    gn_vk_frame *f = vk->cur;
    VkSemaphore acquired = sc->acquired[f - vk->frames];
    for (int attempt = 0; attempt < 2; attempt++) {
        /* no swapchain: minimised last time, or never made */
        if (sc->stale || !sc->swapchain) {
            gn_result res = recreate(vk, sc, width, height, err);
            if (res) return res;
        }
        if (!sc->swapchain) {
            sc->skipped++;
            return GN_OK;
        }
        uint32_t index = 0;
        VkResult r =
            GN_VK_FAULT(GN_VK_FAULT_WAIT, vkAcquireNextImageKHR(vk->device, sc->swapchain, vk->timeout_ns,
                                                                acquired, VK_NULL_HANDLE, &index));
        if (r == VK_TIMEOUT || r == VK_NOT_READY) return gn_vk_timed_out(vk, vk->frame_number, err);
        if (r == VK_ERROR_OUT_OF_DATE_KHR) { /* resized under us: remake and try once more */
            sc->stale = true;
            continue;
        }
        if (r == VK_SUBOPTIMAL_KHR)
            sc->stale = true; /* still presentable; remade next frame */
        else if (r)
            return gn_vk_check(vk, r, "vkAcquireNextImageKHR", err);
        sc->current = index;
        sc->have_image = true;
        gn_vk_image *img = &sc->images[index];
        /* Its contents are gone and its first write waits on the semaphore at the blit:
         * starting the barrier at that stage chains the two (gn_vk_frame_submit). */
        img->state =
            (gn_vk_state){.write_stage = VK_PIPELINE_STAGE_2_BLIT_BIT, .layout = VK_IMAGE_LAYOUT_UNDEFINED};
        f->wait_semaphore = acquired;
        f->signal_semaphore = sc->ready[index];
        *image = img;
        return GN_OK;
    }
    sc->skipped++;
    return GN_OK;
}

gn_result gn_vk_swapchain_present(gn_vk *vk, gn_vk_swapchain *sc, gn_error *err)
{
    if (!sc->have_image) return GN_OK;
    sc->have_image = false;
    VkPresentInfoKHR pi = {
        .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &sc->ready[sc->current],
        .swapchainCount = 1,
        .pSwapchains = &sc->swapchain,
        .pImageIndices = &sc->current,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_SUBMIT, vkQueuePresentKHR(vk->queue, &pi));
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
        sc->stale = true; /* the image is not shown (out of date) or shown scaled: remake */
        r = VK_SUCCESS;
    }
    if (r) return gn_vk_check(vk, r, "vkQueuePresentKHR", err);
    sc->presented++;
    return GN_OK;
}

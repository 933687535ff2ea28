/* Render targets: multisampled D32 depth and rgba16f colour, their resolves, the 8-bit
 * output and its readback buffer, and VSM RESOLVE's two masks. */
#include "renderer.h"

#include <string.h>

gn_result gn_targets_create(gn_renderer *r, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_targets *t = &r->targets;
    bool ms = r->msaa > 1;
    /* the depth that later passes read is also copied out by gn_read_depth */
    VkImageUsageFlags depth_usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                    (ms ? 0 : VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    VkImageUsageFlags hdr_usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (ms ? 0 : VK_IMAGE_USAGE_SAMPLED_BIT);
    gn_vk_image_desc d = {r->width, r->height, r->msaa, 1, VK_FORMAT_D32_SFLOAT, depth_usage, "depth (msaa)"};
    gn_result res = gn_vk_image_create(vk, &d, &t->depth_ms, err);
    if (!res) {
        d = (gn_vk_image_desc){r->width,  r->height,          r->msaa, 1, VK_FORMAT_R16G16B16A16_SFLOAT,
                               hdr_usage, "hdr colour (msaa)"};
        res = gn_vk_image_create(vk, &d, &t->hdr_ms, err);
    }
    if (!res && ms) {
        d = (gn_vk_image_desc){r->width,
                               r->height,
                               1,
                               1,
                               VK_FORMAT_D32_SFLOAT,
                               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                               "depth (resolved, sample 0)"};
        res = gn_vk_image_create(vk, &d, &t->depth_resolved, err);
    }
    if (!res && ms) {
        d = (gn_vk_image_desc){r->width,
                               r->height,
                               1,
                               1,
                               VK_FORMAT_R16G16B16A16_SFLOAT,
                               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                               "hdr colour (resolved)"};
        res = gn_vk_image_create(vk, &d, &t->hdr_resolved, err);
    }
    if (!res) {
        d = (gn_vk_image_desc){r->width, r->height, 1, 1, VK_FORMAT_R8G8B8A8_UNORM,
                               /* sampled: PRESENT blends the overlay over it */
                               VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                   VK_IMAGE_USAGE_SAMPLED_BIT,
                               "output (rgba8 srgb-encoded)"};
        res = gn_vk_image_create(vk, &d, &t->ldr, err);
    }
    /* VSM RESOLVE's mask and its history: a word a pixel, written as storage, read by texelFetch */
    for (uint32_t k = 0; k < 2 && !res; k++) {
        d = (gn_vk_image_desc){r->width,
                               r->height,
                               1,
                               1,
                               VK_FORMAT_R32_UINT,
                               VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                               k ? "vsm resolve mask 1" : "vsm resolve mask 0"};
        res = gn_vk_image_create(vk, &d, &t->vsm_mask[k], err);
    }
    if (!res) {
        gn_vk_buffer_desc bd = {(VkDeviceSize)r->width * r->height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                true, "readback"};
        res = gn_vk_buffer_create(vk, &bd, &t->readback, err);
    }
    if (res) {
        gn_targets_release(r);
        return res;
    }
    t->depth = ms ? &t->depth_resolved : &t->depth_ms;
    t->hdr = ms ? &t->hdr_resolved : &t->hdr_ms;
    r->vsm_resolve.have_prev = false; /* new masks hold no history */
    return GN_OK;
}

void gn_targets_release(gn_renderer *r)
{
    gn_targets *t = &r->targets;
    gn_vk_image_release(&r->vk, &t->depth_ms);
    gn_vk_image_release(&r->vk, &t->depth_resolved);
    gn_vk_image_release(&r->vk, &t->hdr_ms);
    gn_vk_image_release(&r->vk, &t->hdr_resolved);
    gn_vk_image_release(&r->vk, &t->ldr);
    gn_vk_image_release(&r->vk, &t->vsm_mask[0]);
    gn_vk_image_release(&r->vk, &t->vsm_mask[1]);
    gn_vk_buffer_release(&r->vk, &t->readback);
    memset(t, 0, sizeof *t);
}

/* Buffers and images: created with memory from the sub-allocator and a debug name, and
 * destroyed only after every frame that may still use them has finished. */
#include "base/alloc.h"
#include "vk/fault.h"
#include "vk/vk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Puts what was being made in front of a failure's message ("image 'hdr' (1920x1080, 1 layer,
 * 1 mip): vkAllocateMemory failed: ..."), so that an out-of-memory names the object. */
static gn_result __attribute__((format(printf, 3, 4)))
gn_vk_context(gn_result res, gn_error *err, const char *fmt, ...)
{
    if (!err || res == GN_OK) return res;
    char head[160], tail[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    snprintf(tail, sizeof tail, "%s", err->message);
    snprintf(err->message, sizeof err->message, "%s: %s", head, tail);
    return res;
}

gn_result gn_vk_buffer_create(gn_vk *vk, const gn_vk_buffer_desc *d, gn_vk_buffer *out, gn_error *err)
{
    memset(out, 0, sizeof *out);
    VkBufferCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = d->size ? d->size : 16,
        .usage = d->usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateBuffer(vk->device, &ci, NULL, &out->buffer));
    const char *label = d->name ? d->name : "unnamed";
    if (r)
        return gn_vk_context(gn_vk_check(vk, r, "vkCreateBuffer", err), err, "buffer '%s' (%llu bytes)",
                             label, (unsigned long long)ci.size);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(vk->device, out->buffer, &req);
    VkMemoryPropertyFlags want =
        d->host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                        : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    gn_result res = gn_vk_alloc_memory(vk, req, want, true, &out->alloc, err);
    if (!res) {
        r = GN_VK_FAULT(GN_VK_FAULT_MEMORY,
                        vkBindBufferMemory(vk->device, out->buffer, vk->blocks[out->alloc.block - 1].memory,
                                           out->alloc.offset));
        res = gn_vk_check(vk, r, "vkBindBufferMemory", err);
    }
    if (res) {
        vkDestroyBuffer(vk->device, out->buffer, NULL);
        gn_vk_free_memory(vk, &out->alloc);
        memset(out, 0, sizeof *out);
        return gn_vk_context(res, err, "buffer '%s' (%llu bytes)", label, (unsigned long long)ci.size);
    }
    out->size = ci.size;
    gn_vk_name(vk, VK_OBJECT_TYPE_BUFFER, (uint64_t)(uintptr_t)out->buffer, d->name);
    return GN_OK;
}

gn_result gn_vk_image_create(gn_vk *vk, const gn_vk_image_desc *d, gn_vk_image *out, gn_error *err)
{
    memset(out, 0, sizeof *out);
    bool depth = d->format == VK_FORMAT_D32_SFLOAT;
    out->format = d->format;
    out->aspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    out->width = d->width;
    out->height = d->height;
    out->samples = d->samples ? d->samples : 1;
    out->mips = d->mips ? d->mips : 1;
    out->layers = d->layers > 1 ? d->layers : 1;
    if (out->layers > GN_VK_MAX_LAYERS)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: %u layers, at most %u",
                       d->name ? d->name : "image", out->layers, GN_VK_MAX_LAYERS);
    out->state.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = d->format,
        .extent = {d->width, d->height, 1},
        .mipLevels = out->mips,
        .arrayLayers = out->layers,
        .samples = (VkSampleCountFlagBits)out->samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = d->usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateImage(vk->device, &ci, NULL, &out->image));
    const char *label = d->name ? d->name : "unnamed";
    if (r)
        return gn_vk_context(gn_vk_check(vk, r, "vkCreateImage", err), err,
                             "image '%s' (%ux%u, %u layers, %u mips)", label, d->width, d->height,
                             out->layers, out->mips);
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(vk->device, out->image, &req);
    gn_result res = gn_vk_alloc_memory(vk, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, false, &out->alloc, err);
    if (!res) {
        r = GN_VK_FAULT(GN_VK_FAULT_MEMORY,
                        vkBindImageMemory(vk->device, out->image, vk->blocks[out->alloc.block - 1].memory,
                                          out->alloc.offset));
        res = gn_vk_check(vk, r, "vkBindImageMemory", err);
    }
    if (!res) {
        VkImageViewCreateInfo vi = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = out->image,
            .viewType = d->array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
            .format = d->format,
            .components = d->swizzle,
            .subresourceRange = {out->aspect, 0, out->mips, 0, out->layers},
        };
        r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateImageView(vk->device, &vi, NULL, &out->view));
        res = gn_vk_check(vk, r, "vkCreateImageView", err);
        if (!res && d->array) {
            out->layer_views = gn_calloc(out->layers, sizeof *out->layer_views);
            if (!out->layer_views)
                res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for layer views");
        }
        for (uint32_t l = 0; !res && d->array && l < out->layers; l++) {
            vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
            vi.subresourceRange = (VkImageSubresourceRange){out->aspect, 0, 1, l, 1};
            r = GN_VK_FAULT(GN_VK_FAULT_CREATE,
                            vkCreateImageView(vk->device, &vi, NULL, &out->layer_views[l]));
            res = gn_vk_check(vk, r, "vkCreateImageView (layer)", err);
            gn_vk_name(vk, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)(uintptr_t)out->layer_views[l], d->name);
        }
    }
    if (res) {
        for (uint32_t l = 0; out->layer_views && l < out->layers; l++)
            if (out->layer_views[l]) vkDestroyImageView(vk->device, out->layer_views[l], NULL);
        free(out->layer_views);
        if (out->view) vkDestroyImageView(vk->device, out->view, NULL);
        vkDestroyImage(vk->device, out->image, NULL);
        gn_vk_free_memory(vk, &out->alloc);
        uint32_t layers = out->layers, mips = out->mips;
        memset(out, 0, sizeof *out);
        return gn_vk_context(res, err, "image '%s' (%ux%u, %u layers, %u mips)", label, d->width, d->height,
                             layers, mips);
    }
    gn_vk_name(vk, VK_OBJECT_TYPE_IMAGE, (uint64_t)(uintptr_t)out->image, d->name);
    gn_vk_name(vk, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)(uintptr_t)out->view, d->name);
    return GN_OK;
}

/* Block-compressed textures need both: the formats are optional even with textureCompressionBC
 * reported per format, and the material samplers filter linearly. */
bool gn_vk_format_samples(gn_vk *vk, VkFormat format)
{
    VkFormatProperties p;
    vkGetPhysicalDeviceFormatProperties(vk->physical, format, &p);
    VkFormatFeatureFlags need =
        VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    return (p.optimalTilingFeatures & need) == need;
}

static void destroy_now(gn_vk *vk, const gn_vk_garbage *g);

static void push_garbage(gn_vk *vk, VkObjectType type, uint64_t handle, gn_vk_alloc alloc)
{
    if (vk->garbage_count == vk->garbage_cap) {
        uint32_t cap = vk->garbage_cap ? vk->garbage_cap * 2 : 64;
        gn_vk_garbage *g = gn_realloc(vk->garbage, cap * sizeof *g);
        if (!g) {
            /* No room to defer: wait for the GPU instead so the object can go now (bounded:
             * on a timeout the device counts as lost and the object goes anyway). */
            gn_vk_drain(vk);
            destroy_now(vk, &(gn_vk_garbage){0, type, handle, alloc});
            return;
        }
        vk->garbage = g;
        vk->garbage_cap = cap;
    }
    vk->garbage[vk->garbage_count++] = (gn_vk_garbage){vk->frame_number, type, handle, alloc};
}

void gn_vk_release(gn_vk *vk, VkObjectType type, uint64_t handle)
{
    if (handle) push_garbage(vk, type, handle, (gn_vk_alloc){0});
}

void gn_vk_buffer_release(gn_vk *vk, gn_vk_buffer *b)
{
    if (b->buffer) push_garbage(vk, VK_OBJECT_TYPE_BUFFER, (uint64_t)(uintptr_t)b->buffer, b->alloc);
    memset(b, 0, sizeof *b);
}

void gn_vk_image_release(gn_vk *vk, gn_vk_image *img)
{
    if (img->view)
        push_garbage(vk, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)(uintptr_t)img->view, (gn_vk_alloc){0});
    for (uint32_t l = 0; img->layer_views && l < img->layers; l++)
        if (img->layer_views[l])
            push_garbage(vk, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)(uintptr_t)img->layer_views[l],
                         (gn_vk_alloc){0});
    free(img->layer_views);
    if (img->image) push_garbage(vk, VK_OBJECT_TYPE_IMAGE, (uint64_t)(uintptr_t)img->image, img->alloc);
    memset(img, 0, sizeof *img);
}

static void destroy_now(gn_vk *vk, const gn_vk_garbage *g)
{
    VkDevice d = vk->device;
    switch (g->type) {
    case VK_OBJECT_TYPE_BUFFER:
        vkDestroyBuffer(d, (VkBuffer)(uintptr_t)g->handle, NULL);
        break;
    case VK_OBJECT_TYPE_IMAGE:
        vkDestroyImage(d, (VkImage)(uintptr_t)g->handle, NULL);
        break;
    case VK_OBJECT_TYPE_IMAGE_VIEW:
        vkDestroyImageView(d, (VkImageView)(uintptr_t)g->handle, NULL);
        break;
    case VK_OBJECT_TYPE_PIPELINE:
        vkDestroyPipeline(d, (VkPipeline)(uintptr_t)g->handle, NULL);
        break;
    case VK_OBJECT_TYPE_PIPELINE_LAYOUT:
        vkDestroyPipelineLayout(d, (VkPipelineLayout)(uintptr_t)g->handle, NULL);
        break;
    case VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT:
        vkDestroyDescriptorSetLayout(d, (VkDescriptorSetLayout)(uintptr_t)g->handle, NULL);
        break;
    case VK_OBJECT_TYPE_DESCRIPTOR_POOL:
        vkDestroyDescriptorPool(d, (VkDescriptorPool)(uintptr_t)g->handle, NULL);
        break;
    case VK_OBJECT_TYPE_SAMPLER:
        vkDestroySampler(d, (VkSampler)(uintptr_t)g->handle, NULL);
        break;
    case VK_OBJECT_TYPE_QUERY_POOL:
        vkDestroyQueryPool(d, (VkQueryPool)(uintptr_t)g->handle, NULL);
        break;
    default:
        break;
    }
    gn_vk_alloc a = g->alloc;
    gn_vk_free_memory(vk, &a);
}

/* Destroys what no unfinished frame can use; all = everything (the device is idle). */
void gn_vk_collect_garbage(gn_vk *vk, bool all)
{
    uint32_t keep = 0;
    for (uint32_t i = 0; i < vk->garbage_count; i++) {
        if (all || vk->garbage[i].frame <= vk->frames_done)
            destroy_now(vk, &vk->garbage[i]);
        else
            vk->garbage[keep++] = vk->garbage[i];
    }
    vk->garbage_count = keep;
}

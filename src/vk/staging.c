/* The staging ring: one persistently mapped buffer that per-frame data (frame constants,
 * visible-instance lists, indirect commands, dynamic transforms) is written into. Positions
 * grow monotonically; a frame's space is reclaimed when its fence has signalled, so the CPU
 * never waits on the queue per upload, only when the ring is full. */
#include "vk/vk.h"

#include <string.h>

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

gn_result gn_vk_ring_alloc(gn_vk *vk, VkDeviceSize size, VkDeviceSize align, VkDeviceSize *offset, void **ptr,
                           gn_error *err)
{
    return gn_vk_ring_alloc_window(vk, size, size, align, offset, ptr, err);
}

gn_result gn_vk_ring_alloc_window(gn_vk *vk, VkDeviceSize size, VkDeviceSize window, VkDeviceSize align,
                                  VkDeviceSize *offset, void **ptr, gn_error *err)
{
    VkDeviceSize cap = vk->ring.size;
    if (size > cap / 2)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "staging ring: %llu bytes requested, ring holds %llu",
                       (unsigned long long)size, (unsigned long long)cap);
    for (;;) {
        VkDeviceSize pos = align_up(vk->ring_head, align);
        /* never straddle the end: the whole window a descriptor may address stays inside */
        if (pos % cap + (window > size ? window : size) > cap) pos = align_up(pos, cap);
        if (pos + size - vk->ring_tail <= cap) {
            vk->ring_head = pos + size;
            *offset = pos % cap;
            *ptr = (char *)vk->ring.alloc.mapped + *offset;
            return GN_OK;
        }
        /* Full: wait for the oldest frame in flight (not the one being recorded). */
        gn_vk_frame *oldest = NULL;
        for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++) {
            gn_vk_frame *f = &vk->frames[i];
            if (f->pending && f != vk->cur && (!oldest || f->number < oldest->number)) oldest = f;
        }
        if (!oldest)
            return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "staging ring (%llu bytes) too small for one frame",
                           (unsigned long long)cap);
        gn_result r = gn_vk_frame_harvest(vk, oldest, err);
        if (r) return r;
    }
}

/* Ring space for a one-off upload, without waiting: false when the ring cannot take it now
 * (a scene's worth of textures in one frame), and the caller uses a temporary buffer. */
static bool ring_try(gn_vk *vk, VkDeviceSize size, VkDeviceSize *offset, void **ptr)
{
    VkDeviceSize cap = vk->ring.size;
    if (size > cap / 4) return false;
    VkDeviceSize pos = (vk->ring_head + 15) / 16 * 16;
    if (pos % cap + size > cap) pos = (pos + cap - 1) / cap * cap;
    if (pos + size - vk->ring_tail > cap / 2) return false; /* half stays for the frame's own data */
    vk->ring_head = pos + size;
    *offset = pos % cap;
    *ptr = (char *)vk->ring.alloc.mapped + *offset;
    return true;
}

gn_result gn_vk_upload_buffer(gn_vk *vk, gn_vk_buffer *dst, VkDeviceSize dst_offset, const void *data,
                              VkDeviceSize size, gn_error *err)
{
    if (!size) return GN_OK;
    VkCommandBuffer cmd = vk->cur->cmd;
    gn_vk_use use = {.buffer = dst, .access = GN_ACCESS_TRANSFER_WRITE};
    gn_vk_barriers(vk, cmd, &use, 1);
    VkDeviceSize off;
    void *p;
    if (ring_try(vk, size, &off, &p)) {
        memcpy(p, data, size);
        vkCmdCopyBuffer(cmd, vk->ring.buffer, dst->buffer, 1, &(VkBufferCopy){off, dst_offset, size});
        return GN_OK;
    }
    /* Too big for the ring (a whole scene): a temporary buffer, freed after this frame. */
    gn_vk_buffer tmp;
    gn_vk_buffer_desc d = {.size = size,
                           .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                           .host_visible = true,
                           .name = "upload (temporary)"};
    gn_result r = gn_vk_buffer_create(vk, &d, &tmp, err);
    if (r) return r;
    memcpy(tmp.alloc.mapped, data, size);
    vkCmdCopyBuffer(cmd, tmp.buffer, dst->buffer, 1, &(VkBufferCopy){0, dst_offset, size});
    gn_vk_buffer_release(vk, &tmp);
    return GN_OK;
}

/* One level of every layer from data (layer after layer, texel_bytes a block of side x side
 * texels: 1 for plain formats, 4 for BC), through the ring or a temporary buffer. */
static gn_result upload_level(gn_vk *vk, gn_vk_image *dst, uint32_t level, uint32_t layers, const void *data,
                              uint32_t texel_bytes, uint32_t side, gn_error *err)
{
    uint32_t w = dst->width >> level ? dst->width >> level : 1,
             h = dst->height >> level ? dst->height >> level : 1;
    VkDeviceSize size =
        (VkDeviceSize)((w + side - 1) / side) * ((h + side - 1) / side) * texel_bytes * layers;
    VkCommandBuffer cmd = vk->cur->cmd;
    gn_vk_buffer tmp = {0};
    VkBuffer src;
    VkDeviceSize src_off = 0;
    void *p;
    if (ring_try(vk, size, &src_off, &p)) {
        src = vk->ring.buffer;
    } else {
        gn_vk_buffer_desc d = {.size = size,
                               .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                               .host_visible = true,
                               .name = "texture upload (temporary)"};
        gn_result r = gn_vk_buffer_create(vk, &d, &tmp, err);
        if (r) return r;
        src = tmp.buffer;
        p = tmp.alloc.mapped;
    }
    memcpy(p, data, size);
    gn_vk_use use = {.image = dst, .access = GN_ACCESS_TRANSFER_WRITE};
    gn_vk_barriers(vk, cmd, &use, 1);
    VkBufferImageCopy region = {
        .bufferOffset = src_off,
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, layers},
        .imageExtent = {w, h, 1},
    };
    vkCmdCopyBufferToImage(cmd, src, dst->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    if (tmp.buffer) gn_vk_buffer_release(vk, &tmp);
    return GN_OK;
}

gn_result gn_vk_upload_image(gn_vk *vk, gn_vk_image *dst, uint32_t level, const void *rgba8, gn_error *err)
{
    return upload_level(vk, dst, level, 1, rgba8, 4, 1, err);
}

gn_result gn_vk_upload_image_layers(gn_vk *vk, gn_vk_image *dst, uint32_t level, const void *rgba8,
                                    gn_error *err)
{
    return upload_level(vk, dst, level, dst->layers ? dst->layers : 1, rgba8, 4, 1, err);
}

gn_result gn_vk_upload_layers(gn_vk *vk, gn_vk_image *dst, const void *data, uint32_t texel_bytes,
                              gn_error *err)
{
    return upload_level(vk, dst, 0, dst->layers ? dst->layers : 1, data, texel_bytes, 1, err);
}

/* The copy's extent is the level's in texels (a partial edge block is allowed there); the
 * buffer is read as whole blocks, and the ring's 16-byte alignment suits 8- and 16-byte ones. */
gn_result gn_vk_upload_blocks(gn_vk *vk, gn_vk_image *dst, uint32_t level, const void *blocks,
                              uint32_t block_bytes, gn_error *err)
{
    return upload_level(vk, dst, level, 1, blocks, block_bytes, 4, err);
}

typedef struct upload_now {
    const gn_vk_upload *regions;
    uint32_t count;
    gn_result res;
    gn_error *err;
} upload_now;

static void record_upload_now(gn_vk *vk, VkCommandBuffer cmd, void *user)
{
    (void)cmd;
    upload_now *u = user;
    for (uint32_t i = 0; i < u->count && !u->res; i++)
        u->res =
            gn_vk_upload_buffer(vk, u->regions[i].dst, 0, u->regions[i].data, u->regions[i].size, u->err);
}

gn_result gn_vk_upload_now(gn_vk *vk, const gn_vk_upload *regions, uint32_t count, gn_error *err)
{
    upload_now u = {regions, count, GN_OK, err};
    gn_result res = gn_vk_run_once(vk, record_upload_now, &u, err);
    return res ? res : u.res;
}

typedef struct readback {
    gn_vk_buffer *src, *dst;
    gn_vk_image *image; /* the source when not NULL (then src is) */
} readback;

static void record_readback(gn_vk *vk, VkCommandBuffer cmd, void *user)
{
    readback *rb = user;
    gn_vk_use uses[] = {{.buffer = rb->src, .image = rb->image, .access = GN_ACCESS_TRANSFER_READ},
                        {.buffer = rb->dst, .access = GN_ACCESS_TRANSFER_WRITE}};
    gn_vk_barriers(vk, cmd, uses, 2);
    if (rb->image)
        gn_vk_cmd_copy_image_to_buffer(vk, rb->image, rb->dst);
    else
        gn_vk_cmd_copy_buffer(vk, rb->src, rb->dst, rb->dst->size);
    gn_vk_use host = {.buffer = rb->dst, .access = GN_ACCESS_HOST_READ};
    gn_vk_barriers(vk, cmd, &host, 1);
}

gn_result gn_vk_read_buffer(gn_vk *vk, gn_vk_buffer *src, void *out, VkDeviceSize size, const char *name,
                            gn_error *err)
{
    if (size > src->size)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: %llu bytes of a %llu-byte buffer", name,
                       (unsigned long long)size, (unsigned long long)src->size);
    if (!size) return GN_OK;
    gn_vk_buffer dst = {0};
    gn_vk_buffer_desc d = {
        .size = size, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT, .host_visible = true, .name = name};
    gn_result res = gn_vk_buffer_create(vk, &d, &dst, err);
    readback rb = {src, &dst, NULL};
    if (!res) res = gn_vk_run_once(vk, record_readback, &rb, err);
    if (!res) memcpy(out, dst.alloc.mapped, (size_t)size);
    if (dst.buffer) gn_vk_buffer_release(vk, &dst);
    return res;
}

gn_result gn_vk_read_image(gn_vk *vk, gn_vk_image *src, VkDeviceSize image_bytes, void *out,
                           VkDeviceSize size, const char *name, gn_error *err)
{
    if (size > image_bytes)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: %llu bytes of a %llu-byte image", name,
                       (unsigned long long)size, (unsigned long long)image_bytes);
    gn_vk_buffer dst = {0};
    gn_vk_buffer_desc d = {
        .size = image_bytes, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT, .host_visible = true, .name = name};
    gn_result res = gn_vk_buffer_create(vk, &d, &dst, err);
    readback rb = {NULL, &dst, src};
    if (!res) res = gn_vk_run_once(vk, record_readback, &rb, err);
    if (!res) memcpy(out, dst.alloc.mapped, (size_t)size);
    if (dst.buffer) gn_vk_buffer_release(vk, &dst);
    return res;
}

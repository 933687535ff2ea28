/* Device memory sub-allocation: a few large vkAllocateMemory blocks, carved first-fit.
 * Free ranges are kept sorted by offset and merged with their neighbours on free, so long
 * runs (scene reloads, resizes) do not fragment the blocks. */
#include "base/alloc.h"
#include "vk/fault.h"
#include "vk/vk.h"

#include <stdlib.h>
#include <string.h>

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

static int find_type(const gn_vk *vk, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < vk->mem_props.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (vk->mem_props.memoryTypes[i].propertyFlags & want) == want) return (int)i;
    return -1;
}

/* Room in b->free for every range the block can hold after one more allocation. Adjacent free
 * ranges are always merged, so they number at most one more than the live allocations; with
 * that room reserved before each carve, neither the carve's splits nor a later
 * gn_vk_free_memory (which cannot fail) has to grow the array. */
static bool ranges_reserve(gn_vk_block *b)
{
    uint32_t need = b->allocations + 2;
    if (b->free_cap >= need) return true;
    uint32_t cap = b->free_cap ? b->free_cap : 16;
    while (cap < need) cap *= 2;
    gn_vk_range *n = gn_realloc(b->free, cap * sizeof *n);
    if (!n) return false;
    b->free = n;
    b->free_cap = cap;
    return true;
}

static void range_insert(gn_vk_block *b, uint32_t at, gn_vk_range r)
{
    memmove(&b->free[at + 1], &b->free[at], (b->free_count - at) * sizeof *b->free);
    b->free[at] = r;
    b->free_count++;
}

static void range_remove(gn_vk_block *b, uint32_t at)
{
    memmove(&b->free[at], &b->free[at + 1], (b->free_count - at - 1) * sizeof *b->free);
    b->free_count--;
}

/* Carves size bytes aligned to align out of b (its ranges reserved); false when nothing fits. */
static bool block_carve(gn_vk_block *b, VkDeviceSize size, VkDeviceSize align, VkDeviceSize *out)
{
    for (uint32_t i = 0; i < b->free_count; i++) {
        gn_vk_range r = b->free[i];
        VkDeviceSize start = align_up(r.offset, align);
        if (start + size > r.offset + r.size) continue;
        VkDeviceSize tail_start = start + size, tail_size = r.offset + r.size - tail_start;
        range_remove(b, i);
        /* keep the alignment gap before and the rest after as free ranges */
        uint32_t at = i;
        if (start > r.offset) range_insert(b, at++, (gn_vk_range){r.offset, start - r.offset});
        if (tail_size > 0) range_insert(b, at, (gn_vk_range){tail_start, tail_size});
        b->used += size;
        b->allocations++;
        *out = start;
        return true;
    }
    return false;
}

gn_result gn_vk_alloc_memory(gn_vk *vk, VkMemoryRequirements req, VkMemoryPropertyFlags want, bool linear,
                             gn_vk_alloc *out, gn_error *err)
{
    memset(out, 0, sizeof *out);
    int type = find_type(vk, req.memoryTypeBits, want);
    if (type < 0) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "no memory type with properties 0x%x", want);
    for (uint32_t i = 0; i < vk->block_count; i++) {
        gn_vk_block *b = &vk->blocks[i];
        if (b->type_index != (uint32_t)type || b->linear != linear || b->size - b->used < req.size) continue;
        if (!ranges_reserve(b))
            return gn_fail(err, GN_ERROR_OUT_OF_MEMORY,
                           "out of host memory for device memory block %u's ranges", i);
        VkDeviceSize off;
        if (block_carve(b, req.size, req.alignment, &off)) {
            *out = (gn_vk_alloc){.block = i + 1,
                                 .offset = off,
                                 .size = req.size,
                                 .mapped = b->mapped ? (char *)b->mapped + off : NULL};
            return GN_OK;
        }
    }
    if (vk->block_count == GN_VK_MAX_BLOCKS)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "device memory: all %u blocks in use", GN_VK_MAX_BLOCKS);
    gn_vk_block *b = &vk->blocks[vk->block_count];
    memset(b, 0, sizeof *b);
    b->size = req.size > GN_VK_BLOCK_SIZE ? align_up(req.size, 1u << 20) : GN_VK_BLOCK_SIZE;
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = b->size,
        .memoryTypeIndex = (uint32_t)type,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_MEMORY, vkAllocateMemory(vk->device, &ai, NULL, &b->memory));
    if (r != VK_SUCCESS) return gn_vk_check(vk, r, "vkAllocateMemory", err);
    b->type_index = (uint32_t)type;
    b->linear = linear;
    if (vk->mem_props.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        r = GN_VK_FAULT(GN_VK_FAULT_MEMORY,
                        vkMapMemory(vk->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped));
        if (r != VK_SUCCESS) {
            vkFreeMemory(vk->device, b->memory, NULL);
            return gn_vk_check(vk, r, "vkMapMemory", err);
        }
    }
    if (!ranges_reserve(b)) {
        vkFreeMemory(vk->device, b->memory, NULL);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of host memory for a device memory block's ranges");
    }
    range_insert(b, 0, (gn_vk_range){0, b->size});
    vk->block_count++;
    VkDeviceSize off;
    block_carve(b, req.size, req.alignment, &off); /* cannot fail: the block is empty and big enough */
    *out = (gn_vk_alloc){.block = vk->block_count,
                         .offset = off,
                         .size = req.size,
                         .mapped = b->mapped ? (char *)b->mapped + off : NULL};
    return GN_OK;
}

void gn_vk_free_memory(gn_vk *vk, gn_vk_alloc *a)
{
    if (!a->block) return;
    gn_vk_block *b = &vk->blocks[a->block - 1];
    uint32_t at = 0;
    while (at < b->free_count && b->free[at].offset < a->offset) at++;
    gn_vk_range r = {a->offset, a->size};
    /* merge with the neighbours so free space stays in as few ranges as possible */
    if (at > 0 && b->free[at - 1].offset + b->free[at - 1].size == r.offset) {
        r.offset = b->free[at - 1].offset;
        r.size += b->free[at - 1].size;
        range_remove(b, --at);
    }
    if (at < b->free_count && r.offset + r.size == b->free[at].offset) {
        r.size += b->free[at].size;
        range_remove(b, at);
    }
    range_insert(b, at, r); /* room reserved by the allocation's carve */
    b->used -= a->size;
    b->allocations--;
    memset(a, 0, sizeof *a);
}

void gn_vk_memory_destroy(gn_vk *vk)
{
    for (uint32_t i = 0; i < vk->block_count; i++) {
        vkFreeMemory(vk->device, vk->blocks[i].memory, NULL);
        free(vk->blocks[i].free);
    }
    vk->block_count = 0;
}

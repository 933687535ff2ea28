/* Barriers derived in one place. Each buffer and image remembers its last write and the
 * reads since; a pass declares what it uses and gn_vk_barriers emits exactly the
 * dependencies (and layout transitions) that this requires, in one vkCmdPipelineBarrier2. */
#include "vk/vk.h"

#include <stdio.h>
#include <string.h>

typedef struct access_info {
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    VkImageLayout layout;
    bool write;
} access_info;

#define SHADER_STAGES                                                                                        \
    (VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |                       \
     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT)
#define FRAGMENT_TESTS                                                                                       \
    (VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT)

static const access_info ACCESS[GN_ACCESS_COUNT] = {
    [GN_ACCESS_NONE] = {0, 0, VK_IMAGE_LAYOUT_UNDEFINED, false},
    [GN_ACCESS_VERTEX_INPUT] = {VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT,
                                VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT,
                                VK_IMAGE_LAYOUT_UNDEFINED, false},
    [GN_ACCESS_INDIRECT] = {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT,
                            VK_IMAGE_LAYOUT_UNDEFINED, false},
    [GN_ACCESS_UNIFORM] = {SHADER_STAGES, VK_ACCESS_2_UNIFORM_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED, false},
    [GN_ACCESS_SHADER_READ] = {SHADER_STAGES,
                               VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, false},
    [GN_ACCESS_COMPUTE_WRITE] = {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                                 VK_IMAGE_LAYOUT_GENERAL, true},
    [GN_ACCESS_COLOR_WRITE] = {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                               VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT,
                               VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, true},
    [GN_ACCESS_DEPTH_WRITE] = {FRAGMENT_TESTS,
                               VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT,
                               VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, true},
    [GN_ACCESS_DEPTH_TEST] = {FRAGMENT_TESTS, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT,
                              VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, false},
    /* Resolves run at the end of the rendering scope; the spec places depth resolves in
     * the colour-output stage with colour-attachment access, so both are declared. */
    [GN_ACCESS_DEPTH_RESOLVE] = {FRAGMENT_TESTS | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                 VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, true},
    [GN_ACCESS_TRANSFER_READ] = {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, false},
    [GN_ACCESS_TRANSFER_WRITE] = {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, true},
    [GN_ACCESS_HOST_READ] = {VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT,
                             VK_IMAGE_LAYOUT_UNDEFINED, false},
    /* The presentation engine reads after the submit's semaphore signal (all commands), so the
     * transition only has to finish before the end of the command buffer. */
    [GN_ACCESS_PRESENT] = {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, false},
};

/* Updates *s for one use and says which dependency (if any) it needs. */
static bool transition(gn_vk_state *s, const access_info *a, bool image, VkPipelineStageFlags2 *src_stage,
                       VkAccessFlags2 *src_access, VkImageLayout *old_layout)
{
    *old_layout = s->layout;
    bool layout_change = image && s->layout != a->layout;
    bool need = false;
    if (layout_change || a->write) {
        /* A write (and a layout transition, which is a write) waits for the last write and
         * for every read since it. */
        *src_stage = s->write_stage | s->read_stages;
        *src_access = s->write_access;
        need = layout_change || *src_stage != 0;
        s->write_stage = a->stage;
        s->write_access = a->write
                              ? (a->access & ~(VkAccessFlags2)(VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                                               VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                                               VK_ACCESS_2_SHADER_STORAGE_READ_BIT))
                              : 0;
        s->read_stages = a->write ? 0 : a->stage;
        s->read_access = a->write ? 0 : a->access;
        if (image) s->layout = a->layout;
    } else {
        /* A read waits for the last write unless an earlier barrier already covered its
         * stage and access. */
        bool covered = (s->read_stages & a->stage) == a->stage && (s->read_access & a->access) == a->access;
        *src_stage = s->write_stage;
        *src_access = s->write_access;
        need = s->write_stage != 0 && !covered;
        s->read_stages |= a->stage;
        s->read_access |= a->access;
    }
    return need;
}

void gn_vk_barriers(gn_vk *vk, VkCommandBuffer cmd, const gn_vk_use *uses, uint32_t count)
{
    /* at most 16 uses a batch, so the arrays below never fill: every transition recorded in
     * a resource's state gets its barrier */
    if (count > 16) {
        gn_vk_barriers(vk, cmd, uses, 16);
        gn_vk_barriers(vk, cmd, uses + 16, count - 16);
        return;
    }
    VkBufferMemoryBarrier2 bb[16];
    VkImageMemoryBarrier2 ib[16];
    uint32_t nb = 0, ni = 0;
    for (uint32_t i = 0; i < count; i++) {
        const access_info *a = &ACCESS[uses[i].access];
        VkPipelineStageFlags2 ss = 0;
        VkAccessFlags2 sa = 0;
        VkImageLayout old;
        if (uses[i].buffer && uses[i].buffer->buffer) {
            gn_vk_buffer *b = uses[i].buffer;
            if (!transition(&b->state, a, false, &ss, &sa, &old)) continue;
            bb[nb++] = (VkBufferMemoryBarrier2){
                .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
                .srcStageMask = ss ? ss : VK_PIPELINE_STAGE_2_NONE,
                .srcAccessMask = sa,
                .dstStageMask = a->stage,
                .dstAccessMask = a->access,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .buffer = b->buffer,
                .offset = 0,
                .size = VK_WHOLE_SIZE,
            };
        } else if (uses[i].image && uses[i].image->image) {
            gn_vk_image *img = uses[i].image;
            if (!transition(&img->state, a, true, &ss, &sa, &old)) continue;
            ib[ni++] = (VkImageMemoryBarrier2){
                .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
                .srcStageMask = ss ? ss : VK_PIPELINE_STAGE_2_NONE,
                .srcAccessMask = sa,
                .dstStageMask = a->stage,
                .dstAccessMask = a->access,
                .oldLayout = old,
                .newLayout = a->layout,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .image = img->image,
                .subresourceRange = {img->aspect, 0, img->mips, 0, img->layers},
            };
        }
    }
    if (!nb && !ni) return;
    VkDependencyInfo dep = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .bufferMemoryBarrierCount = nb,
        .pBufferMemoryBarriers = bb,
        .imageMemoryBarrierCount = ni,
        .pImageMemoryBarriers = ib,
    };
    vkCmdPipelineBarrier2(cmd, &dep);
}

static void label_begin(gn_vk *vk, VkCommandBuffer cmd, const char *name)
{
    VkDebugUtilsLabelEXT label = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = name};
    if (vk->label_begin) vk->label_begin(cmd, &label);
}

static void label_end(gn_vk *vk, VkCommandBuffer cmd)
{
    if (vk->label_end) vk->label_end(cmd);
}

gn_result gn_vk_pass_begin(gn_vk *vk, const char *name, const gn_vk_use *uses, uint32_t count, uint32_t *pass,
                           gn_error *err)
{
    gn_vk_frame *f = vk->cur;
    if (f->pass_count >= vk->pass_capacity)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "pass \"%s\": this frame has already timed %u passes, all its query pool holds", name,
                       vk->pass_capacity);
    *pass = f->pass_count++;
    snprintf(f->pass_names[*pass], sizeof f->pass_names[*pass], "%s", name);
    label_begin(vk, f->cmd, name);
    gn_vk_barriers(vk, f->cmd, uses, count);
    vkCmdWriteTimestamp2(f->cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, f->queries, *pass * 2);
    return GN_OK;
}

void gn_vk_pass_end(gn_vk *vk, uint32_t pass, uint32_t draws, uint64_t triangles)
{
    gn_vk_frame *f = vk->cur;
    vkCmdWriteTimestamp2(f->cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, f->queries, pass * 2 + 1);
    f->pass_draws[pass] = draws;
    f->pass_triangles[pass] = triangles;
    label_end(vk, f->cmd);
}

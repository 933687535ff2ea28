/* Thin command recording for the passes, so that only src/vk/ calls Vulkan. Every call
 * records into the frame being built (vk->cur). */
#include "vk/vk.h"

static VkRenderingAttachmentInfo attachment(const gn_vk_attachment *a, bool depth)
{
    VkRenderingAttachmentInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = a->image->view,
        .imageLayout =
            depth ? VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = a->clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD,
        .storeOp = a->discard ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
    };
    if (depth)
        info.clearValue.depthStencil.depth = a->clear_value[0];
    else
        for (int i = 0; i < 4; i++) info.clearValue.color.float32[i] = a->clear_value[i];
    if (a->resolve) {
        /* depth: sample 0 (the only mode every device has); colour: the average */
        info.resolveMode = depth ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT : VK_RESOLVE_MODE_AVERAGE_BIT;
        info.resolveImageView = a->resolve->view;
        info.resolveImageLayout = info.imageLayout;
    }
    return info;
}

void gn_vk_cmd_begin_rendering(gn_vk *vk, const gn_vk_rendering *r)
{
    VkRenderingAttachmentInfo color[GN_VK_MAX_COLOR], depth;
    uint32_t colors = 0;
    if (r->color.image) color[colors++] = attachment(&r->color, false);
    if (r->color.image && r->color1.image) color[colors++] = attachment(&r->color1, false);
    if (r->depth.image) depth = attachment(&r->depth, true);
    VkRenderingInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{0, 0}, {r->width, r->height}},
        .layerCount = r->layers ? r->layers : 1,
        .colorAttachmentCount = colors,
        .pColorAttachments = colors ? color : NULL,
        .pDepthAttachment = r->depth.image ? &depth : NULL,
    };
    VkCommandBuffer cmd = vk->cur->cmd;
    vkCmdBeginRendering(cmd, &info);
    VkViewport vp = {0, 0, (float)r->width, (float)r->height, 0.0f, 1.0f};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &info.renderArea);
}

void gn_vk_cmd_end_rendering(gn_vk *vk) { vkCmdEndRendering(vk->cur->cmd); }

void gn_vk_cmd_bind_pipeline(gn_vk *vk, bool compute, VkPipeline p)
{
    vkCmdBindPipeline(vk->cur->cmd,
                      compute ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS, p);
}

void gn_vk_cmd_bind_sets(gn_vk *vk, bool compute, VkPipelineLayout layout, uint32_t first, uint32_t count,
                         const VkDescriptorSet *sets, uint32_t dynamic_count, const uint32_t *dynamic_offsets)
{
    vkCmdBindDescriptorSets(vk->cur->cmd,
                            compute ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS,
                            layout, first, count, sets, dynamic_count, dynamic_offsets);
}

void gn_vk_cmd_bind_geometry(gn_vk *vk, const gn_vk_buffer *vertices, const gn_vk_buffer *indices)
{
    VkDeviceSize zero = 0;
    vkCmdBindVertexBuffers(vk->cur->cmd, 0, 1, &vertices->buffer, &zero);
    vkCmdBindIndexBuffer(vk->cur->cmd, indices->buffer, 0, VK_INDEX_TYPE_UINT32);
}

void gn_vk_cmd_push(gn_vk *vk, VkPipelineLayout layout, uint32_t size, const void *data)
{
    vkCmdPushConstants(vk->cur->cmd, layout, VK_SHADER_STAGE_ALL, 0, size, data);
}

void gn_vk_cmd_set_raster(gn_vk *vk, VkCullModeFlags cull, float bias_constant, float bias_slope)
{
    vkCmdSetCullMode(vk->cur->cmd, cull);
    vkCmdSetDepthBias(vk->cur->cmd, bias_constant, 0.0f, bias_slope);
}

void gn_vk_cmd_set_depth(gn_vk *vk, bool write, VkCompareOp compare)
{
    vkCmdSetDepthWriteEnable(vk->cur->cmd, write ? VK_TRUE : VK_FALSE);
    vkCmdSetDepthCompareOp(vk->cur->cmd, compare);
}

void gn_vk_cmd_draw_indexed_indirect(gn_vk *vk, VkBuffer buffer, VkDeviceSize offset, uint32_t count)
{
    vkCmdDrawIndexedIndirect(vk->cur->cmd, buffer, offset, count, sizeof(VkDrawIndexedIndirectCommand));
}

void gn_vk_cmd_draw_indirect(gn_vk *vk, const gn_vk_buffer *command, VkDeviceSize offset)
{
    vkCmdDrawIndirect(vk->cur->cmd, command->buffer, offset, 1, sizeof(VkDrawIndirectCommand));
}

void gn_vk_cmd_draw(gn_vk *vk, uint32_t vertex_count) { vkCmdDraw(vk->cur->cmd, vertex_count, 1, 0, 0); }

void gn_vk_cmd_draw_instances(gn_vk *vk, uint32_t vertex_count, uint32_t instance_count,
                              uint32_t first_instance)
{
    vkCmdDraw(vk->cur->cmd, vertex_count, instance_count, 0, first_instance);
}

void gn_vk_cmd_draw_indexed(gn_vk *vk, uint32_t index_count)
{
    vkCmdDrawIndexed(vk->cur->cmd, index_count, 1, 0, 0, 0);
}

void gn_vk_cmd_dispatch(gn_vk *vk, uint32_t x, uint32_t y, uint32_t z)
{
    vkCmdDispatch(vk->cur->cmd, x, y, z);
}

void gn_vk_cmd_copy_image_to_buffer(gn_vk *vk, gn_vk_image *src, gn_vk_buffer *dst)
{
    VkBufferImageCopy region = {
        .imageSubresource = {src->aspect, 0, 0, src->layers ? src->layers : 1}, /* every layer, in order */
        .imageExtent = {src->width, src->height, 1},
    };
    vkCmdCopyImageToBuffer(vk->cur->cmd, src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst->buffer, 1,
                           &region);
}

void gn_vk_cmd_copy_ring(gn_vk *vk, gn_vk_buffer *dst, const VkBufferCopy *regions, uint32_t count)
{
    if (count) vkCmdCopyBuffer(vk->cur->cmd, vk->ring.buffer, dst->buffer, count, regions);
}

void gn_vk_cmd_fill(gn_vk *vk, gn_vk_buffer *dst, uint32_t value)
{
    vkCmdFillBuffer(vk->cur->cmd, dst->buffer, 0, VK_WHOLE_SIZE, value);
}

void gn_vk_cmd_fill_at(gn_vk *vk, gn_vk_buffer *dst, VkDeviceSize offset, VkDeviceSize size, uint32_t value)
{
    vkCmdFillBuffer(vk->cur->cmd, dst->buffer, offset, size, value);
}

void gn_vk_cmd_copy_buffer(gn_vk *vk, gn_vk_buffer *src, gn_vk_buffer *dst, VkDeviceSize size)
{
    gn_vk_cmd_copy_buffer_at(vk, src, 0, dst, 0, size);
}

void gn_vk_cmd_copy_buffer_at(gn_vk *vk, gn_vk_buffer *src, VkDeviceSize src_offset, gn_vk_buffer *dst,
                              VkDeviceSize dst_offset, VkDeviceSize size)
{
    vkCmdCopyBuffer(vk->cur->cmd, src->buffer, dst->buffer, 1, &(VkBufferCopy){src_offset, dst_offset, size});
}

void gn_vk_cmd_set_region(gn_vk *vk, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    VkCommandBuffer cmd = vk->cur->cmd;
    VkViewport vp = {(float)x, (float)y, (float)w, (float)h, 0.0f, 1.0f};
    VkRect2D rect = {{(int32_t)x, (int32_t)y}, {w, h}};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &rect);
}

void gn_vk_cmd_clear_depth_rect(gn_vk *vk, uint32_t x, uint32_t y, uint32_t w, uint32_t h, float depth)
{
    VkClearAttachment a = {.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT, .clearValue.depthStencil = {depth, 0}};
    VkClearRect rect = {.rect = {{(int32_t)x, (int32_t)y}, {w, h}}, .baseArrayLayer = 0, .layerCount = 1};
    vkCmdClearAttachments(vk->cur->cmd, 1, &a, 1, &rect);
}

void gn_vk_cmd_blit(gn_vk *vk, gn_vk_image *src, gn_vk_image *dst)
{
    VkImageBlit2 region = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_BLIT_2,
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .srcOffsets = {{0, 0, 0}, {(int32_t)src->width, (int32_t)src->height, 1}},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstOffsets = {{0, 0, 0}, {(int32_t)dst->width, (int32_t)dst->height, 1}},
    };
    VkBlitImageInfo2 info = {
        .sType = VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2,
        .srcImage = src->image,
        .srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .dstImage = dst->image,
        .dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .regionCount = 1,
        .pRegions = &region,
        .filter = VK_FILTER_LINEAR,
    };
    vkCmdBlitImage2(vk->cur->cmd, &info);
}

void gn_vk_cmd_copy_image(gn_vk *vk, gn_vk_image *src, gn_vk_image *dst)
{
    VkImageCopy2 region = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_COPY_2,
        .srcSubresource = {src->aspect, 0, 0, 1},
        .dstSubresource = {dst->aspect, 0, 0, 1},
        .extent = {src->width, src->height, 1},
    };
    VkCopyImageInfo2 info = {
        .sType = VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2,
        .srcImage = src->image,
        .srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .dstImage = dst->image,
        .dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .regionCount = 1,
        .pRegions = &region,
    };
    vkCmdCopyImage2(vk->cur->cmd, &info);
}

void gn_vk_cmd_label_begin(gn_vk *vk, const char *name)
{
    VkDebugUtilsLabelEXT label = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = name};
    if (vk->label_begin) vk->label_begin(vk->cur->cmd, &label);
}

void gn_vk_cmd_label_end(gn_vk *vk)
{
    if (vk->label_end) vk->label_end(vk->cur->cmd);
}

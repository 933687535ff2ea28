/* Descriptor set layouts, pools, sets and samplers, named for captures. */
#include "vk/fault.h"
#include "vk/vk.h"

#include <stdio.h>

gn_result gn_vk_set_layout(gn_vk *vk, const gn_vk_binding *b, uint32_t count, const char *name,
                           VkDescriptorSetLayout *out, gn_error *err)
{
    VkDescriptorSetLayoutBinding bindings[GN_VK_MAX_BINDINGS];
    if (count > GN_VK_MAX_BINDINGS)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: %u bindings, over the cap of %u", name, count,
                       GN_VK_MAX_BINDINGS);
    for (uint32_t i = 0; i < count; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){i, b[i].type, 1, b[i].stages, NULL};
    VkDescriptorSetLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = count,
                                          .pBindings = bindings};
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateDescriptorSetLayout(vk->device, &ci, NULL, out));
    if (r) return gn_vk_check(vk, r, name, err);
    gn_vk_name(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)*out, name);
    return GN_OK;
}

gn_result gn_vk_pipeline_layout(gn_vk *vk, const VkDescriptorSetLayout *sets, uint32_t count,
                                uint32_t push_bytes, const char *name, VkPipelineLayout *out, gn_error *err)
{
    VkPushConstantRange push = {VK_SHADER_STAGE_ALL, 0, push_bytes};
    VkPipelineLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = count,
        .pSetLayouts = sets,
        .pushConstantRangeCount = push_bytes ? 1 : 0,
        .pPushConstantRanges = &push,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreatePipelineLayout(vk->device, &ci, NULL, out));
    if (r) return gn_vk_check(vk, r, name, err);
    gn_vk_name(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)*out, name);
    return GN_OK;
}

gn_result gn_vk_descriptor_pool(gn_vk *vk, uint32_t max_sets, const char *name, VkDescriptorPool *out,
                                gn_error *err)
{
    /* Generous per-type counts: every set gnomon makes has at most eight of each type, but for
     * the material set's combined image samplers (nine: shaders/shared/bindings.h), given a
     * set's most. lavapipe does not enforce these counts; a short one fails on other drivers. */
    VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, max_sets * 8},
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, max_sets * 8},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, max_sets * 8},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, max_sets * 8},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, max_sets * GN_VK_MAX_BINDINGS},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, max_sets * 8},
    };
    VkDescriptorPoolCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = max_sets,
        .poolSizeCount = sizeof sizes / sizeof sizes[0],
        .pPoolSizes = sizes,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateDescriptorPool(vk->device, &ci, NULL, out));
    if (r) return gn_vk_check(vk, r, name, err);
    gn_vk_name(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)*out, name);
    return GN_OK;
}

gn_result gn_vk_alloc_set(gn_vk *vk, VkDescriptorPool pool, VkDescriptorSetLayout layout, const char *name,
                          VkDescriptorSet *out, gn_error *err)
{
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &layout,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkAllocateDescriptorSets(vk->device, &ai, out));
    if (r) return gn_vk_check(vk, r, name, err);
    gn_vk_name(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET, (uint64_t)(uintptr_t)*out, name);
    return GN_OK;
}

void gn_vk_write_set(gn_vk *vk, VkDescriptorSet set, const gn_vk_write *w, uint32_t count)
{
    VkWriteDescriptorSet writes[GN_VK_MAX_BINDINGS];
    VkDescriptorBufferInfo bi[GN_VK_MAX_BINDINGS];
    VkDescriptorImageInfo ii[GN_VK_MAX_BINDINGS];
    if (count > GN_VK_MAX_BINDINGS)
        count = GN_VK_MAX_BINDINGS; /* a layout has no more (set_layout refuses) */
    for (uint32_t i = 0; i < count; i++) {
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = set,
            .dstBinding = w[i].binding,
            .descriptorCount = 1,
            .descriptorType = w[i].type,
        };
        if (w[i].image) {
            ii[i] = (VkDescriptorImageInfo){w[i].sampler, w[i].image->view, w[i].layout};
            writes[i].pImageInfo = &ii[i];
        } else {
            bi[i] =
                (VkDescriptorBufferInfo){w[i].buffer, w[i].offset, w[i].range ? w[i].range : VK_WHOLE_SIZE};
            writes[i].pBufferInfo = &bi[i];
        }
    }
    vkUpdateDescriptorSets(vk->device, count, writes, 0, NULL);
}

gn_result gn_vk_sampler(gn_vk *vk, bool repeat, bool linear, const char *name, VkSampler *out, gn_error *err)
{
    return gn_vk_sampler_compare(vk, repeat, linear, false, name, out, err);
}

gn_result gn_vk_sampler_compare(gn_vk *vk, bool repeat, bool linear, bool compare, const char *name,
                                VkSampler *out, gn_error *err)
{
    VkSamplerAddressMode mode =
        repeat ? VK_SAMPLER_ADDRESS_MODE_REPEAT : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VkFilter filter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    VkSamplerCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = filter,
        .minFilter = filter,
        .mipmapMode = linear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = mode,
        .addressModeV = mode,
        .addressModeW = mode,
        .maxLod = VK_LOD_CLAMP_NONE,
        /* shadow maps: the sample is 1 where the reference (the receiver's depth) is at or
         * before the stored caster depth; linear filtering makes it 2x2 PCF in hardware */
        .compareEnable = compare,
        .compareOp = VK_COMPARE_OP_LESS_OR_EQUAL,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateSampler(vk->device, &ci, NULL, out));
    if (r) return gn_vk_check(vk, r, name, err);
    gn_vk_name(vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)*out, name);
    return GN_OK;
}

VkDeviceSize gn_vk_storage_align(const gn_vk *vk)
{
    VkDeviceSize a = vk->props.limits.minStorageBufferOffsetAlignment;
    VkDeviceSize b = vk->props.limits.minUniformBufferOffsetAlignment;
    return a > b ? a : b;
}

/* Pipelines from embedded SPIR-V, for dynamic rendering (no render pass objects). */
#include "scene/scene.h"
#include "vk/fault.h"
#include "vk/shaders.h"
#include "vk/vk.h"

#include <stddef.h>

static gn_result module(gn_vk *vk, const char *name, VkShaderModule *out, gn_error *err)
{
    const gn_spirv *s = gn_shader_find(name);
    if (!s) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "shader '%s' is not embedded", name);
    VkShaderModuleCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = s->size, .pCode = s->code};
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateShaderModule(vk->device, &ci, NULL, out));
    if (r) return gn_vk_check(vk, r, name, err);
    gn_vk_name(vk, VK_OBJECT_TYPE_SHADER_MODULE, (uint64_t)(uintptr_t)*out, name);
    return GN_OK;
}

/* One attachment's blend state (gn_vk_blend). */
static VkPipelineColorBlendAttachmentState attachment_blend(gn_vk_blend mode)
{
    VkPipelineColorBlendAttachmentState b = {
        .colorWriteMask = 0xf, .colorBlendOp = VK_BLEND_OP_ADD, .alphaBlendOp = VK_BLEND_OP_ADD};
    switch (mode) {
    case GN_VK_BLEND_NONE:
        break;
    case GN_VK_BLEND_ALPHA:
        b.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
        b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        break;
    case GN_VK_BLEND_DUAL_SOURCE:
        b.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
        b.dstColorBlendFactor = VK_BLEND_FACTOR_SRC1_COLOR;
        b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
        b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        break;
    case GN_VK_BLEND_ADD:
        b.srcColorBlendFactor = b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
        b.srcAlphaBlendFactor = b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        break;
    case GN_VK_BLEND_REVEAL:
        b.srcColorBlendFactor = b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
        b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
        b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        break;
    }
    b.blendEnable = mode != GN_VK_BLEND_NONE;
    return b;
}

gn_result gn_vk_graphics_pipeline(gn_vk *vk, const gn_vk_graphics_desc *d, VkPipeline *out, gn_error *err)
{
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
    gn_result res = module(vk, d->vert, &vs, err);
    if (!res && d->frag) res = module(vk, d->frag, &fs, err);
    if (res) {
        if (vs) vkDestroyShaderModule(vk->device, vs, NULL);
        return res;
    }
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = vs,
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = fs,
         .pName = "main"},
    };
    VkVertexInputBindingDescription binding = {0, sizeof(gn_vertex), VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription all[5] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(gn_vertex, pos)},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(gn_vertex, normal)},
        {2, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(gn_vertex, tangent)},
        {3, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(gn_vertex, uv)},
        {4, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(gn_vertex, uv2)},
    };
    /* only what the shader reads: an attribute it does not consume is a validation warning */
    VkVertexInputAttributeDescription attrs[5];
    uint32_t n_attrs = 0, mask = d->attributes ? d->attributes : 0x1fu;
    for (uint32_t a = 0; a < 5; a++)
        if (mask & (1u << a)) attrs[n_attrs++] = all[a];
    VkPipelineVertexInputStateCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = d->vertex_input ? 1 : 0,
        .pVertexBindingDescriptions = &binding,
        .vertexAttributeDescriptionCount = d->vertex_input ? n_attrs : 0,
        .pVertexAttributeDescriptions = attrs,
    };
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                            .viewportCount = 1,
                                            .scissorCount = 1};
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .depthClampEnable = d->depth_clamp && vk->depth_clamp,
        .cullMode = d->cull,
        .depthBiasEnable = d->dynamic_raster || d->bias_constant != 0.0f || d->bias_slope != 0.0f,
        .depthBiasConstantFactor = d->bias_constant,
        .depthBiasSlopeFactor = d->bias_slope,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = (VkSampleCountFlagBits)(d->samples ? d->samples : 1),
        .alphaToCoverageEnable = d->alpha_to_coverage,
    };
    VkPipelineDepthStencilStateCreateInfo ds = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = d->depth_format != VK_FORMAT_UNDEFINED,
        .depthWriteEnable = d->depth_write,
        .depthCompareOp = d->depth_compare,
    };
    VkPipelineColorBlendAttachmentState blend[GN_VK_MAX_COLOR];
    const VkFormat formats[GN_VK_MAX_COLOR] = {d->color_format, d->color_format1};
    uint32_t colors = d->color_format == VK_FORMAT_UNDEFINED    ? 0
                      : d->color_format1 == VK_FORMAT_UNDEFINED ? 1
                                                                : 2;
    for (uint32_t i = 0; i < colors; i++) blend[i] = attachment_blend(d->blend[i]);
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = colors,
        .pAttachments = blend,
    };
    /* cull mode, depth write and depth compare are core dynamic state in Vulkan 1.3 (extended
       dynamic state), depth bias since 1.0 */
    VkDynamicState dyn[6] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    uint32_t dyn_count = 2;
    if (d->dynamic_raster)
        dyn[dyn_count++] = VK_DYNAMIC_STATE_CULL_MODE, dyn[dyn_count++] = VK_DYNAMIC_STATE_DEPTH_BIAS;
    if (d->dynamic_depth)
        dyn[dyn_count++] = VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
        dyn[dyn_count++] = VK_DYNAMIC_STATE_DEPTH_COMPARE_OP;
    VkPipelineDynamicStateCreateInfo dy = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                           .dynamicStateCount = dyn_count,
                                           .pDynamicStates = dyn};
    VkPipelineRenderingCreateInfo ri = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = cb.attachmentCount,
        .pColorAttachmentFormats = formats,
        .depthAttachmentFormat = d->depth_format,
    };
    VkGraphicsPipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &ri,
        .stageCount = d->frag ? 2 : 1,
        .pStages = stages,
        .pVertexInputState = &vi,
        .pInputAssemblyState = &ia,
        .pViewportState = &vp,
        .pRasterizationState = &rs,
        .pMultisampleState = &ms,
        .pDepthStencilState = &ds,
        .pColorBlendState = &cb,
        .pDynamicState = &dy,
        .layout = d->layout,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE,
                             vkCreateGraphicsPipelines(vk->device, VK_NULL_HANDLE, 1, &ci, NULL, out));
    vkDestroyShaderModule(vk->device, vs, NULL);
    if (fs) vkDestroyShaderModule(vk->device, fs, NULL);
    if (r) return gn_vk_check(vk, r, d->name ? d->name : "vkCreateGraphicsPipelines", err);
    gn_vk_name(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)*out, d->name);
    return GN_OK;
}

gn_result gn_vk_compute_pipeline(gn_vk *vk, const char *shader, VkPipelineLayout layout, const char *name,
                                 VkPipeline *out, gn_error *err)
{
    VkShaderModule cs;
    gn_result res = module(vk, shader, &cs, err);
    if (res) return res;
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = cs,
                  .pName = "main"},
        .layout = layout,
    };
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE,
                             vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &ci, NULL, out));
    vkDestroyShaderModule(vk->device, cs, NULL);
    if (r) return gn_vk_check(vk, r, name, err);
    gn_vk_name(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)*out, name);
    return GN_OK;
}

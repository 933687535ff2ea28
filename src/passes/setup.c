/* Descriptor layouts, samplers and the pipelines of every pass, made once per renderer
 * (pipelines depend on the sample count and formats, both fixed for a renderer). */
#include "renderer.h"

#include <string.h>

#define VS VK_SHADER_STAGE_VERTEX_BIT
#define FS VK_SHADER_STAGE_FRAGMENT_BIT
#define CS VK_SHADER_STAGE_COMPUTE_BIT

static gn_result layouts(gn_renderer *r, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_pipelines *p = &r->pipes;
    const gn_vk_binding frame[] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, VS | FS}, /* gn_gpu_frame, in the ring */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VS | FS},         /* instances */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VS | FS},         /* materials */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, VS},      /* visible instance ids, in the ring */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},      /* the sun's cascades, comparison sampler */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, FS},              /* lights */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, FS},              /* froxel light lists */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* shadowed lights' layers, comparison sampler */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, FS},         /* their layers' matrices */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, FS},         /* VSM page table */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, FS},         /* VSM light versions */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* VSM page atlas, comparison sampler */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* VSM RESOLVE's mask 0 */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* mask 1 (this frame's: in the constants) */
    };
    const gn_vk_binding material[] = {
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* base colour */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* normal map */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* lightmap (atlas), clamped linear */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* metallic-roughness */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* occlusion */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}, /* emissive */
    };
    const gn_vk_binding tonemap[] = {
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}, /* resolved hdr */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}, /* resolved depth */
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},          /* rgba8 output */
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS}, /* gn_gpu_frame */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}, /* the VSM atlas (the vsm-atlas view) */
    };
    gn_result res = gn_vk_set_layout(vk, frame, 14, "set 0: frame", &p->frame_layout, err);
    if (!res) res = gn_vk_set_layout(vk, material, 6, "set 1: material", &p->material_layout, err);
    if (!res) res = gn_vk_set_layout(vk, tonemap, 5, "tonemap set", &p->tonemap_layout, err);
    VkDescriptorSetLayout scene[2] = {p->frame_layout, p->material_layout};
    if (!res)
        res = gn_vk_pipeline_layout(vk, scene, 2, sizeof(uint32_t), "scene passes", &p->scene_layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &p->tonemap_layout, 1, 0, "tonemap", &p->tonemap_layout_p, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 4, "renderer sets", &p->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, p->pool, p->frame_layout, "frame set", &p->frame_set, err);
    if (!res) res = gn_vk_alloc_set(vk, p->pool, p->tonemap_layout, "tonemap set", &p->tonemap_set, err);
    if (!res) res = gn_vk_sampler(vk, true, true, "repeat linear", &p->repeat, err);
    if (!res) res = gn_vk_sampler(vk, false, false, "clamp nearest", &p->clamp, err);
    if (!res) res = gn_vk_sampler(vk, false, true, "clamp linear", &p->clamp_linear, err);
    return res;
}

static gn_result pipelines(gn_renderer *r, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_pipelines *p = &r->pipes;
    gn_vk_graphics_desc d = {
        .vert = "depth.vert",
        .layout = p->scene_layout,
        .vertex_input = true,
        .attributes = 1u << 0, /* positions only */
        .depth_format = VK_FORMAT_D32_SFLOAT,
        .samples = r->msaa,
        .depth_compare = VK_COMPARE_OP_GREATER, /* reversed-Z: nearer is larger */
        .depth_write = true,
        .cull = VK_CULL_MODE_BACK_BIT,
        .name = "depth prepass",
    };
    gn_result res = gn_vk_graphics_pipeline(vk, &d, &p->depth, err);
    if (res) return res;
    /* alpha-tested surfaces: uvs in, and a fragment shader that discards below the cutoff */
    d.vert = "depth_mask.vert";
    d.frag = "mask.frag";
    d.attributes = 1u << 0 | 1u << 3; /* positions and uvs */
    d.name = "depth prepass, alpha-tested";
    res = gn_vk_graphics_pipeline(vk, &d, &p->depth_mask, err);
    if (res) return res;
    d = (gn_vk_graphics_desc){
        .vert = "forward.vert",
        .frag = "forward.frag",
        .layout = p->scene_layout,
        .vertex_input = true,
        .color_format = VK_FORMAT_R16G16B16A16_SFLOAT,
        .depth_format = VK_FORMAT_D32_SFLOAT,
        .samples = r->msaa,
        .depth_compare = VK_COMPARE_OP_EQUAL, /* shade each visible sample exactly once */
        .depth_write = false,
        .cull = VK_CULL_MODE_BACK_BIT,
        .name = "forward opaque",
    };
    res = gn_vk_graphics_pipeline(vk, &d, &p->forward, err);
    if (res) return res;
    /* blended surfaces: in front of what the prepass left (reversed-Z: greater is nearer),
     * writing no depth */
    d.depth_compare = VK_COMPARE_OP_GREATER_OR_EQUAL;
    d.alpha_blend = true;
    d.name = "forward blended";
    res = gn_vk_graphics_pipeline(vk, &d, &p->forward_blend, err);
    if (res) return res;
    d.alpha_blend = false;
    d.depth_compare = VK_COMPARE_OP_EQUAL;
    d.vert = "sky.vert";
    d.frag = "sky.frag";
    d.vertex_input = false;
    d.cull = VK_CULL_MODE_NONE;
    d.name = "sky";
    res = gn_vk_graphics_pipeline(vk, &d, &p->sky, err);
    if (res) return res;
    return gn_vk_compute_pipeline(vk, "tonemap.comp", p->tonemap_layout_p, "tonemap", &p->tonemap, err);
}

gn_vk_write gn_write_frame(const gn_renderer *r, uint32_t binding)
{
    return (gn_vk_write){.binding = binding,
                         .type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                         .buffer = r->vk.ring.buffer,
                         .range = sizeof(gn_gpu_frame)};
}

gn_vk_write gn_write_sampled(uint32_t binding, gn_vk_image *image, VkSampler sampler)
{
    return (gn_vk_write){.binding = binding,
                         .type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                         .image = image,
                         .layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         .sampler = sampler};
}

/* The tonemap set reads the targets and the VSM atlas (its debug view); written once both
 * exist (gn_renderer_create). */
void gn_pipelines_write_tonemap_set(gn_renderer *r)
{
    gn_pipelines *p = &r->pipes;
    gn_vk_write w[5] = {
        gn_write_sampled(0, r->targets.hdr, p->clamp),
        gn_write_sampled(1, r->targets.depth, p->clamp),
        {.binding = 2,
         .type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
         .image = &r->targets.ldr,
         .layout = VK_IMAGE_LAYOUT_GENERAL},
        gn_write_frame(r, 3),
        gn_write_sampled(4, &r->vsm.atlas, p->clamp),
    };
    gn_vk_write_set(&r->vk, p->tonemap_set, w, 5);
}

gn_result gn_pipelines_create(gn_renderer *r, gn_error *err)
{
    gn_result res = layouts(r, err);
    if (!res) res = pipelines(r, err);
    return res;
}

void gn_pipelines_release(gn_renderer *r)
{
    gn_vk *vk = &r->vk;
    gn_pipelines *p = &r->pipes;
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p->depth);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p->forward);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p->depth_mask);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p->forward_blend);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p->sky);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p->tonemap);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)p->scene_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)p->tonemap_layout_p);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)p->frame_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)p->material_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)p->tonemap_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)p->pool);
    gn_vk_release(vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)p->repeat);
    gn_vk_release(vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)p->clamp);
    gn_vk_release(vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)p->clamp_linear);
    memset(p, 0, sizeof *p);
}

/* What the scene passes share, made once per renderer: the frame set (set 0: the frame
 * constants, instances, materials and a view's visible ids), the material set's layout (set 1),
 * an empty layout (a set number a pipeline does not use), the samplers, and the depth-only
 * caster pipelines that every shadow feature makes for its own layout. Each feature makes its
 * own other sets and pipelines. */
#include "decide/tfx.h"
#include "passes/passes.h"
#include "renderer.h"

#include <stdio.h>
#include <string.h>

#define VS VK_SHADER_STAGE_VERTEX_BIT
#define FS VK_SHADER_STAGE_FRAGMENT_BIT

gn_result gn_pipelines_create(gn_renderer *r, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_pipelines *p = &r->pipes;
    const gn_vk_binding frame[GN_BIND_FRAME_COUNT] = {
        [GN_BIND_FRAME_CONSTANTS] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, VS | FS},
        [GN_BIND_FRAME_INSTANCES] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VS | FS},
        [GN_BIND_FRAME_MATERIALS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VS | FS},
        [GN_BIND_FRAME_VISIBLE] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, VS},
        [GN_BIND_FRAME_EXPOSURE] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, FS},
        [GN_BIND_FRAME_FOGS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, FS},     /* the forward and sky passes */
        [GN_BIND_FRAME_DEFORMS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VS},  /* every scene pass's vertices */
        [GN_BIND_FRAME_VERTICES] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VS}, /* a deformed vertex's own */
    };
    gn_vk_binding material[GN_BIND_MATERIAL_COUNT];
    for (uint32_t i = 0; i < GN_BIND_MATERIAL_COUNT; i++)
        material[i] = (gn_vk_binding){VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS};
    material[GN_BIND_MATERIAL_STAGE_DATA] = (gn_vk_binding){VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VS | FS};
    gn_result res = gn_vk_set_layout(vk, frame, GN_BIND_FRAME_COUNT, "set 0: frame", &p->frame_layout, err);
    if (!res)
        res = gn_vk_set_layout(vk, material, GN_BIND_MATERIAL_COUNT, "set 1: material", &p->material_layout,
                               err);
    if (!res) res = gn_vk_set_layout(vk, NULL, 0, "empty set", &p->empty_layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 1, "frame set", &p->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, p->pool, p->frame_layout, "frame set", &p->frame_set, err);
    if (!res) res = gn_vk_sampler(vk, true, true, "repeat linear", &p->repeat, err);
    if (!res) res = gn_vk_sampler(vk, false, false, "clamp nearest", &p->clamp, err);
    if (!res) res = gn_vk_sampler(vk, false, true, "clamp linear", &p->clamp_linear, err);
    gn_vk_buffer_desc ed = {.size = sizeof(gn_gpu_exposure),
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                            .name = "exposure state"};
    if (!res) res = gn_vk_buffer_create(vk, &ed, &p->exposure, err); /* zeroed by its first frame */
    return res;
}

void gn_pipelines_release(gn_renderer *r)
{
    gn_vk *vk = &r->vk;
    gn_pipelines *p = &r->pipes;
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)p->frame_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)p->material_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)p->empty_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)p->pool);
    gn_vk_release(vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)p->repeat);
    gn_vk_release(vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)p->clamp);
    gn_vk_release(vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)p->clamp_linear);
    gn_vk_buffer_release(vk, &p->exposure);
    memset(p, 0, sizeof *p);
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

gn_vk_write gn_write_storage(uint32_t binding, const gn_vk_buffer *buffer)
{
    return (gn_vk_write){
        .binding = binding, .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .buffer = buffer->buffer};
}

gn_vk_write gn_write_storage_image(uint32_t binding, gn_vk_image *image)
{
    return (gn_vk_write){.binding = binding,
                         .type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                         .image = image,
                         .layout = VK_IMAGE_LAYOUT_GENERAL};
}

uint32_t gn_scene_uses(gn_renderer *r, gn_vk_use *out)
{
    out[0] = (gn_vk_use){.buffer = &r->scene.vertices, .access = GN_ACCESS_VERTEX_INPUT};
    out[1] = (gn_vk_use){.buffer = &r->scene.indices, .access = GN_ACCESS_VERTEX_INPUT};
    out[2] = (gn_vk_use){.buffer = &r->scene.instances, .access = GN_ACCESS_SHADER_READ};
    out[3] = (gn_vk_use){.buffer = &r->scene.materials, .access = GN_ACCESS_SHADER_READ}; /* alpha-tested */
    /* Quake 3 deforms: this frame's values, and the vertices' normals and uvs they read */
    out[4] = (gn_vk_use){.buffer = &r->scene.deforms, .access = GN_ACCESS_SHADER_READ};
    out[5] = (gn_vk_use){.buffer = &r->scene.vertices, .access = GN_ACCESS_SHADER_READ};
    return 6 + gn_cull_list_uses(r, out + 6); /* the views' lists and commands, when the GPU culled them */
}

gn_pass_state gn_caster_pass_state(float bias_constant, float bias_slope)
{
    /* thin and open casters (fences, leaves) cast from both sides, whatever their material says,
       and every caster takes the pass's slope-scaled bias */
    return (gn_pass_state){.pass = 0,
                           .forced =
                               GN_STATE_PACK(0, 0, GN_STATE_OVERRIDE | GN_STATE_RASTER(GN_CULL_TWO_SIDED, 0),
                                             GN_STATE_OVERRIDE | GN_STATE_BIAS_CASTER),
                           .caster_constant = bias_constant,
                           .caster_slope = bias_slope};
}

gn_result gn_caster_pipelines(gn_renderer *r, VkPipelineLayout layout, const char *name, VkPipeline *opaque,
                              VkPipeline *masked, gn_error *err)
{
    char label[64];
    snprintf(label, sizeof label, "%s casters", name);
    gn_vk_graphics_desc g = {
        .vert = "csm.vert",
        .layout = layout,
        .vertex_input = true,
        .attributes = 1u << 0, /* positions only */
        .depth_format = VK_FORMAT_D32_SFLOAT,
        .samples = 1,
        .depth_compare = VK_COMPARE_OP_LESS, /* depth 0 is nearest the light */
        .depth_write = true,
        /* culling and bias per material from gn_caster_pass_state: two-sided and the casters'
           slope-scaled bias, forced over every material */
        .dynamic_raster = true,
        .name = label,
        /* casters in front of the view's near plane still cast: depth clamp pancakes them onto it
         * (the sun's caster range also reaches caster_extension towards it) */
        .depth_clamp = true,
    };
    gn_result res = gn_vk_graphics_pipeline(&r->vk, &g, opaque, err);
    /* alpha-tested casters: their uvs and a fragment shader that discards by alpha */
    g.vert = "shadow_mask.vert";
    g.frag = "mask.frag";
    g.attributes = 1u << 0 | 1u << 3 | 1u << 4; /* positions and both uv sets */
    snprintf(label, sizeof label, "%s casters, alpha-tested", name);
    if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, masked, err);
    return res;
}

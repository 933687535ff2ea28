/* PRESENT: the tone-mapped output into the window's swapchain image. Without an overlay it
 * is one blit (scaled when the window and the output differ for a frame during a resize);
 * with one, a compute pass first blends the overlay over the output into `composed`, so the
 * output itself (what gn_read_pixels returns) never holds the overlay. */
#include "renderer.h"

#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

/* The images and buffers sized like the output; remade by gn_renderer_resize. */
static gn_result make_targets(gn_renderer *r, gn_error *err)
{
    gn_present_gpu *p = &r->present;
    gn_vk_image_desc d = {.width = r->width,
                          .height = r->height,
                          .samples = 1,
                          .mips = 1,
                          .format = VK_FORMAT_R8G8B8A8_UNORM,
                          .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                          .name = "present: output with overlay"};
    gn_result res = gn_vk_image_create(&r->vk, &d, &p->composed, err);
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT && !res; i++) {
        /* written by the CPU each frame, read once by the GPU: host-visible, no upload */
        gn_vk_buffer_desc bd = {.size = (VkDeviceSize)r->width * r->height * 4,
                                .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                .host_visible = true,
                                .name = "present: overlay"};
        res = gn_vk_buffer_create(&r->vk, &bd, &p->overlay[i], err);
    }
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT && !res; i++) {
        gn_vk_write w[3] = {
            gn_write_sampled(0, &r->targets.ldr, r->pipes.clamp),
            {.binding = 1,
             .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
             .buffer = p->overlay[i].buffer,
             .range = VK_WHOLE_SIZE},
            {.binding = 2,
             .type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
             .image = &p->composed,
             .layout = VK_IMAGE_LAYOUT_GENERAL},
        };
        gn_vk_write_set(&r->vk, p->sets[i], w, 3);
    }
    return res;
}

static void release_targets(gn_renderer *r)
{
    gn_present_gpu *p = &r->present;
    gn_vk_image_release(&r->vk, &p->composed);
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++) gn_vk_buffer_release(&r->vk, &p->overlay[i]);
}

static gn_result present_create(gn_renderer *r, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_present_gpu *p = &r->present;
    const gn_vk_binding b[] = {
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}, /* the output */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},         /* the overlay, a word a pixel */
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},          /* composed */
    };
    gn_result res = gn_vk_set_layout(vk, b, 3, "present set", &p->layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &p->layout, 1, 2 * sizeof(uint32_t), "present", &p->pipeline_layout,
                                    err);
    if (!res) res = gn_vk_descriptor_pool(vk, GN_FRAMES_IN_FLIGHT, "present sets", &p->pool, err);
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT && !res; i++)
        res = gn_vk_alloc_set(vk, p->pool, p->layout, "present set", &p->sets[i], err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "present.comp", p->pipeline_layout, "present", &p->pipeline, err);
    if (!res) res = make_targets(r, err);
    p->created = !res;
    return res;
}

gn_result gn_present_attach(gn_renderer *r, VkSurfaceKHR surface, bool vsync, gn_error *err)
{
    gn_result res = GN_OK;
    if (!r->present.created) res = present_create(r, err);
    if (res) {
        gn_vk_surface_destroy(&r->vk, surface); /* ours from the call on, even when it fails */
        return res;
    }
    return gn_vk_swapchain_attach(&r->vk, &r->present.swapchain, surface, vsync, err);
}

gn_result gn_present_resize(gn_renderer *r, gn_error *err)
{
    if (!r->present.created) return GN_OK;
    release_targets(r);
    r->present.swapchain.stale = true;
    return make_targets(r, err);
}

void gn_present_release(gn_renderer *r)
{
    gn_vk *vk = &r->vk;
    gn_present_gpu *p = &r->present;
    gn_vk_swapchain_destroy(vk, &p->swapchain);
    if (p->created) {
        release_targets(r);
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p->pipeline);
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)p->pipeline_layout);
        gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)p->layout);
        gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)p->pool);
    }
    memset(p, 0, sizeof *p);
}

gn_result gn_pass_present(gn_renderer *r, const uint8_t *overlay, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_present_gpu *p = &r->present;
    gn_vk_image *target = NULL;
    gn_result res = gn_vk_swapchain_acquire(vk, &p->swapchain, r->width, r->height, &target, err);
    if (res || !target) return res;
    gn_vk_image *src = &r->targets.ldr;
    if (overlay) {
        uint32_t slot = (uint32_t)(vk->cur - vk->frames);
        memcpy(p->overlay[slot].alloc.mapped, overlay, (size_t)r->width * r->height * 4);
        gn_vk_use uses[] = {
            {.image = &r->targets.ldr, .access = GN_ACCESS_SHADER_READ},
            {.buffer = &p->overlay[slot], .access = GN_ACCESS_SHADER_READ},
            {.image = &p->composed, .access = GN_ACCESS_COMPUTE_WRITE},
        };
        uint32_t pass = gn_vk_pass_begin(vk, "overlay", uses, 3);
        gn_vk_cmd_bind_pipeline(vk, true, p->pipeline);
        gn_vk_cmd_bind_sets(vk, true, p->pipeline_layout, 0, 1, &p->sets[slot], 0, NULL);
        uint32_t size[2] = {r->width, r->height};
        gn_vk_cmd_push(vk, p->pipeline_layout, sizeof size, size);
        gn_vk_cmd_dispatch(vk, (r->width + 7) / 8, (r->height + 7) / 8, 1);
        gn_vk_pass_end(vk, pass, 0, 0);
        src = &p->composed;
    }
    gn_vk_use uses[] = {
        {.image = src, .access = GN_ACCESS_TRANSFER_READ},
        {.image = target, .access = GN_ACCESS_TRANSFER_WRITE},
    };
    uint32_t pass = gn_vk_pass_begin(vk, "present", uses, 2);
    gn_vk_cmd_blit(vk, src, target);
    gn_vk_use hand_over = {.image = target, .access = GN_ACCESS_PRESENT};
    gn_vk_barriers(vk, vk->cur->cmd, &hand_over, 1);
    gn_vk_pass_end(vk, pass, 0, 0);
    return GN_OK;
}

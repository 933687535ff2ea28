/* PRESENT: the tone-mapped output into the window's swapchain image. Without an overlay it
 * is one blit (scaled when the window and the output differ for a frame during a resize);
 * with one, a compute pass first blends the overlay over the output into `composed`, so the
 * output itself (what gn_read_pixels returns) never holds the overlay. */
#include "passes/present.h"

#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

/* The images and buffers sized like the output; remade by gn_renderer_resize. */
static gn_result make_targets(gn_renderer *r, gn_error *err)
{
    gn_present_gpu *p = gn_present_of(r);
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
        gn_vk_write w[GN_BIND_PRESENT_COUNT] = {
            gn_write_sampled(GN_BIND_PRESENT_OUTPUT, gn_target(r, GN_TARGET_OUTPUT), r->pipes.clamp),
            gn_write_storage(GN_BIND_PRESENT_OVERLAY, &p->overlay[i]),
            gn_write_storage_image(GN_BIND_PRESENT_COMPOSED, &p->composed),
        };
        gn_vk_write_set(&r->vk, p->sets[i], w, GN_BIND_PRESENT_COUNT);
    }
    return res;
}

static void release_targets(gn_renderer *r)
{
    gn_present_gpu *p = gn_present_of(r);
    gn_vk_image_release(&r->vk, &p->composed);
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++) gn_vk_buffer_release(&r->vk, &p->overlay[i]);
}

static gn_result present_create(gn_renderer *r, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_present_gpu *p = gn_present_of(r);
    const gn_vk_binding b[GN_BIND_PRESENT_COUNT] = {
        [GN_BIND_PRESENT_OUTPUT] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_PRESENT_OVERLAY] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS}, /* a word a pixel */
        [GN_BIND_PRESENT_COMPOSED] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
    };
    gn_result res = gn_vk_set_layout(vk, b, GN_BIND_PRESENT_COUNT, "present set", &p->layout, err);
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
    if (!gn_present_of(r)->created) res = present_create(r, err);
    if (res) {
        gn_vk_surface_destroy(&r->vk, surface); /* ours from the call on, even when it fails */
        return res;
    }
    return gn_vk_swapchain_attach(&r->vk, &gn_present_of(r)->swapchain, surface, vsync, err);
}

static gn_result resize(gn_renderer *r, void *self, gn_error *err)
{
    (void)self;
    if (!gn_present_of(r)->created) return GN_OK;
    release_targets(r);
    gn_present_of(r)->swapchain.stale = true;
    return make_targets(r, err);
}

static void release(gn_renderer *r, void *self)
{
    (void)self;
    gn_vk *vk = &r->vk;
    gn_present_gpu *p = gn_present_of(r);
    gn_vk_swapchain_destroy(vk, &p->swapchain);
    if (p->created) {
        release_targets(r);
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p->pipeline);
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)p->pipeline_layout);
        gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)p->layout);
        gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)p->pool);
    }
}

/* Acquires the window's next image (none when no surface is attached or the window has no
 * area) and copies the frame's overlay into this slot's buffer. */
static gn_result plan(gn_renderer *r, void *self, const gn_scene *s, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)s, (void)g;
    gn_present_gpu *p = self;
    gn_vk *vk = &r->vk;
    p->target = NULL;
    p->overlay_now = false;
    if (!p->created) return GN_OK;
    gn_result res = gn_vk_swapchain_acquire(vk, &p->swapchain, r->width, r->height, &p->target, err);
    if (res || !p->target) return res;
    if (in->overlay) {
        uint32_t slot = (uint32_t)(vk->cur - vk->frames);
        memcpy(p->overlay[slot].alloc.mapped, in->overlay, (size_t)r->width * r->height * 4);
        p->overlay_now = true;
    }
    return GN_OK;
}

static gn_result submitted(gn_renderer *r, void *self, gn_error *err)
{
    return gn_vk_swapchain_present(&r->vk, &((gn_present_gpu *)self)->swapchain, err);
}

const gn_feature gn_feature_present = {.name = "present",
                                       .size = sizeof(gn_present_gpu),
                                       .resize = resize,
                                       .plan = plan,
                                       .submitted = submitted,
                                       .release = release};

uint32_t gn_overlay_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_present_gpu *)self)->overlay_now ? 1 : 0;
}

uint32_t gn_overlay_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_present_gpu *p = self;
    uint32_t slot = (uint32_t)(r->vk.cur - r->vk.frames);
    out[0] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OUTPUT), .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &p->overlay[slot], .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.image = &p->composed, .access = GN_ACCESS_COMPUTE_WRITE};
    return 3;
}

gn_pass_work gn_overlay_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_present_gpu *p = self;
    gn_vk *vk = &r->vk;
    uint32_t slot = (uint32_t)(vk->cur - vk->frames);
    gn_vk_cmd_bind_pipeline(vk, true, p->pipeline);
    gn_vk_cmd_bind_sets(vk, true, p->pipeline_layout, 0, 1, &p->sets[slot], 0, NULL);
    uint32_t size[2] = {r->width, r->height};
    gn_vk_cmd_push(vk, p->pipeline_layout, sizeof size, size);
    gn_vk_cmd_dispatch(vk, (r->width + 7) / 8, (r->height + 7) / 8, 1);
    return (gn_pass_work){0, 0};
}

uint32_t gn_present_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_present_gpu *)self)->target ? 1 : 0;
}

uint32_t gn_present_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_present_gpu *p = self;
    gn_vk_image *src = p->overlay_now ? &p->composed : gn_target(r, GN_TARGET_OUTPUT);
    out[0] = (gn_vk_use){.image = src, .access = GN_ACCESS_TRANSFER_READ};
    out[1] = (gn_vk_use){.image = p->target, .access = GN_ACCESS_TRANSFER_WRITE};
    return 2;
}

gn_pass_work gn_present_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_present_gpu *p = self;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_blit(vk, p->overlay_now ? &p->composed : gn_target(r, GN_TARGET_OUTPUT), p->target);
    gn_vk_use hand_over = {.image = p->target, .access = GN_ACCESS_PRESENT};
    gn_vk_barriers(vk, vk->cur->cmd, &hand_over, 1);
    return (gn_pass_work){0, 0};
}

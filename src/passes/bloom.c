/* Bloom (a feature; docs/POST.md): the HDR colour down a chain of half-size rgba16f levels and
 * back up (shaders/bloom.comp), in the HDR domain before the tone map, which blends level 0 in.
 * The levels are this feature's own images, made at create and again at every resize; one set
 * a step of the chain names its source and destination. "bloom down" runs once a level, "bloom
 * up" once a level but the coarsest. */
#include "passes/bloom.h"
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT
#define BLOOM_MIN_SIDE 16u /* texels: the coarsest level's smaller side is at least this */

typedef struct bloom_push {
    uint32_t p[4];
    float texel[4];
} bloom_push;

static const gn_vk_binding BINDINGS[GN_BIND_BLOOM_COUNT] = {
    [GN_BIND_BLOOM_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
    [GN_BIND_BLOOM_SRC] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
    [GN_BIND_BLOOM_DST] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
    [GN_BIND_BLOOM_EXPOSURE] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
};

uint32_t gn_bloom_levels_for(uint32_t width, uint32_t height)
{
    uint32_t side = width < height ? width : height, n = 0;
    while (n < GN_GPU_BLOOM_MAX_LEVELS && (side >> (n + 1)) >= BLOOM_MIN_SIDE) n++;
    return n ? n : 1;
}

static void release_levels(gn_renderer *r, gn_bloom_gpu *b)
{
    for (uint32_t k = 0; k < GN_GPU_BLOOM_MAX_LEVELS; k++) gn_vk_image_release(&r->vk, &b->level[k]);
}

/* The levels at the renderer's size, and the sets that name them (down k reads level k - 1 or
 * the HDR colour; up k reads level k + 1 and writes level k). All or nothing: on a failure the
 * levels in use stay (a failed resize goes back to the old size), their sets rewritten. */
static gn_result make_levels(gn_renderer *r, void *self, gn_error *err)
{
    gn_bloom_gpu *b = self;
    gn_vk_image made[GN_GPU_BLOOM_MAX_LEVELS] = {0};
    uint32_t levels = gn_bloom_levels_for(r->width, r->height);
    gn_result res = GN_OK;
    for (uint32_t k = 0; k < levels && !res; k++) {
        uint32_t w = r->width >> (k + 1), h = r->height >> (k + 1);
        gn_vk_image_desc d = {.width = w ? w : 1,
                              .height = h ? h : 1,
                              .samples = 1,
                              .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                              .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                       VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                              .name = "bloom level"};
        res = gn_vk_image_create(&r->vk, &d, &made[k], err);
    }
    if (res) {
        for (uint32_t k = 0; k < levels; k++) gn_vk_image_release(&r->vk, &made[k]);
    } else {
        release_levels(r, b); /* deferred: frames in flight keep theirs */
        memcpy(b->level, made, sizeof made);
        b->levels = levels;
    }
    /* the sets, also after a failure: the first names the HDR colour, which a resize changes */
    for (uint32_t k = 0; k < b->levels; k++) {
        gn_vk_image *src = k ? &b->level[k - 1] : r->targets.hdr;
        gn_vk_write w[GN_BIND_BLOOM_COUNT] = {
            gn_write_frame(r, GN_BIND_BLOOM_FRAME),
            gn_write_sampled(GN_BIND_BLOOM_SRC, src, r->pipes.clamp_linear),
            gn_write_storage_image(GN_BIND_BLOOM_DST, &b->level[k]),
            gn_write_storage(GN_BIND_BLOOM_EXPOSURE, &r->pipes.exposure),
        };
        gn_vk_write_set(&r->vk, b->down_set[k], w, GN_BIND_BLOOM_COUNT);
        if (k + 1 < b->levels) {
            w[GN_BIND_BLOOM_SRC] =
                gn_write_sampled(GN_BIND_BLOOM_SRC, &b->level[k + 1], r->pipes.clamp_linear);
            gn_vk_write_set(&r->vk, b->up_set[k], w, GN_BIND_BLOOM_COUNT);
        }
    }
    return res;
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    gn_bloom_gpu *b = self;
    gn_vk *vk = &r->vk;
    gn_result res = gn_vk_set_layout(vk, BINDINGS, GN_BIND_BLOOM_COUNT, "bloom", &b->set_layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &b->set_layout, 1, sizeof(bloom_push), "bloom", &b->layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 2 * GN_GPU_BLOOM_MAX_LEVELS, "bloom", &b->pool, err);
    for (uint32_t k = 0; k < GN_GPU_BLOOM_MAX_LEVELS && !res; k++) {
        res = gn_vk_alloc_set(vk, b->pool, b->set_layout, "bloom down", &b->down_set[k], err);
        if (!res) res = gn_vk_alloc_set(vk, b->pool, b->set_layout, "bloom up", &b->up_set[k], err);
    }
    if (!res) res = gn_vk_compute_pipeline(vk, "bloom.comp", b->layout, "bloom", &b->pipeline, err);
    if (!res) res = make_levels(r, self, err);
    return res;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)r, (void)scene, (void)err;
    gn_bloom_gpu *b = self;
    b->on = in->bloom.intensity > 0.0f;
    g->bloom[0] = b->on ? in->bloom.intensity : 0.0f;
    g->bloom[1] = in->bloom.threshold;
    g->bloom[2] = in->bloom.knee;
    g->bloom[3] = in->bloom.scatter;
    return GN_OK;
}

static void release(gn_renderer *r, void *self)
{
    gn_bloom_gpu *b = self;
    release_levels(r, b);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)b->pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)b->layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)b->set_layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)b->pool);
}

const gn_feature gn_feature_bloom = {.name = "bloom",
                                     .size = sizeof(gn_bloom_gpu),
                                     .create = create,
                                     .resize = make_levels,
                                     .plan = plan,
                                     .release = release};

uint32_t gn_bloom_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    const gn_bloom_gpu *b = self;
    return b->on ? b->levels : 0;
}

uint32_t gn_bloom_up_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    const gn_bloom_gpu *b = self;
    return b->on ? b->levels - 1 : 0;
}

uint32_t gn_bloom_max_runs(const gn_renderer *r, const void *self)
{
    (void)r, (void)self;
    return GN_GPU_BLOOM_MAX_LEVELS;
}

uint32_t gn_bloom_down_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    gn_bloom_gpu *b = self;
    out[0] = (gn_vk_use){.image = run ? &b->level[run - 1] : r->targets.hdr, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = &b->level[run], .access = GN_ACCESS_COMPUTE_WRITE};
    out[2] = (gn_vk_use){.buffer = &r->pipes.exposure, .access = GN_ACCESS_SHADER_READ};
    return 3;
}

static void dispatch(gn_renderer *r, gn_bloom_gpu *b, VkDescriptorSet set, uint32_t mode, uint32_t dst,
                     const gn_vk_image *src)
{
    gn_vk *vk = &r->vk;
    const gn_vk_image *d = &b->level[dst];
    bloom_push push = {{mode, d->width, d->height, 0},
                       {1.0f / (float)src->width, 1.0f / (float)src->height, 0, 0}};
    gn_vk_cmd_bind_pipeline(vk, true, b->pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, b->layout, 0, 1, &set, 1, &dyn);
    gn_vk_cmd_push(vk, b->layout, sizeof push, &push);
    gn_vk_cmd_dispatch(vk, (d->width + 7) / 8, (d->height + 7) / 8, 1);
}

gn_pass_work gn_bloom_down_record(gn_renderer *r, void *self, uint32_t run)
{
    gn_bloom_gpu *b = self;
    dispatch(r, b, b->down_set[run], run ? GN_GPU_BLOOM_DOWN : GN_GPU_BLOOM_FIRST, run,
             run ? &b->level[run - 1] : r->targets.hdr);
    return (gn_pass_work){0, 0};
}

/* Up run i blends level levels - 1 - i into level levels - 2 - i: coarsest first. */
static uint32_t up_level(const gn_bloom_gpu *b, uint32_t run) { return b->levels - 2 - run; }

uint32_t gn_bloom_up_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r;
    gn_bloom_gpu *b = self;
    uint32_t k = up_level(b, run);
    out[0] = (gn_vk_use){.image = &b->level[k + 1], .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = &b->level[k], .access = GN_ACCESS_COMPUTE_WRITE};
    return 2;
}

gn_pass_work gn_bloom_up_record(gn_renderer *r, void *self, uint32_t run)
{
    gn_bloom_gpu *b = self;
    uint32_t k = up_level(b, run);
    dispatch(r, b, b->up_set[k], GN_GPU_BLOOM_UP, k, &b->level[k + 1]);
    return (gn_pass_work){0, 0};
}

const char *gn_bloom_up_name(const gn_renderer *r, uint32_t run, char *buf, size_t size)
{
    snprintf(buf, size, "bloom up %u", up_level(gn_feature_state(r, GN_FEATURE_BLOOM), run));
    return buf;
}

gn_vk_image *gn_bloom_output(gn_renderer *r)
{
    return &((gn_bloom_gpu *)gn_feature_state(r, GN_FEATURE_BLOOM))->level[0];
}

gn_result gn_bloom_read(gn_renderer *r, uint32_t level, uint16_t *out, gn_error *err)
{
    gn_bloom_gpu *b = gn_feature_state(r, GN_FEATURE_BLOOM);
    if (level >= b->levels)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_bloom_read: level %u of %u", level, b->levels);
    gn_vk_image *img = &b->level[level];
    VkDeviceSize bytes = (VkDeviceSize)img->width * img->height * 8;
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    return res ? res : gn_vk_read_image(&r->vk, img, bytes, out, bytes, "bloom readback", err);
}

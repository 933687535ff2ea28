/* Render targets: one table, one entry a target (its format, usage, sample count and when it
 * exists), created and resized in one loop. A mip chain or a ping-pong pair (a bloom chain, the
 * VSM masks) is one more entry each. */
#include "renderer.h"

#include <string.h>

#define ATTACH_DEPTH VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
#define ATTACH_COLOR VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT
#define SAMPLED VK_IMAGE_USAGE_SAMPLED_BIT
#define STORAGE VK_IMAGE_USAGE_STORAGE_BIT
#define COPY_SRC VK_IMAGE_USAGE_TRANSFER_SRC_BIT
#define COPY_DST VK_IMAGE_USAGE_TRANSFER_DST_BIT

typedef struct target_def {
    const char *name;
    VkFormat format;
    VkImageUsageFlags usage;
    bool multisampled; /* the renderer's msaa samples, else 1 */
    bool resolve;      /* exists only with msaa > 1 (else the multisampled one is read) */
    /* usage it gains when msaa is 1 and it is the one later passes read */
    VkImageUsageFlags single_sample_usage;
    uint32_t mips; /* 0 is 1 */
    /* not made with the others: by gn_target_ensure, the first time a frame needs it (weighted
       OIT's two: 10 bytes a sample, 330 MiB at 3840x2160 with 4x MSAA, for an A/B option) */
    bool on_demand;
} target_def;

static const target_def TARGETS[GN_TARGET_COUNT] = {
    /* the depth later passes read is also copied out by gn_read_depth */
    /* sampled at every msaa: occlusion culling's HZB reads every sample */
    [GN_TARGET_DEPTH_MS] = {"depth (msaa)", VK_FORMAT_D32_SFLOAT, ATTACH_DEPTH | SAMPLED, true, false,
                            COPY_SRC},
    [GN_TARGET_DEPTH_RESOLVED] = {"depth (resolved, sample 0)", VK_FORMAT_D32_SFLOAT,
                                  ATTACH_DEPTH | SAMPLED | COPY_SRC, false, true},
    /* the HDR colour later passes read is also copied out for tests (gn_exposure_read_hdr) */
    [GN_TARGET_HDR_MS] = {"hdr colour (msaa)", VK_FORMAT_R16G16B16A16_SFLOAT, ATTACH_COLOR, true, false,
                          SAMPLED | COPY_SRC},
    [GN_TARGET_HDR_RESOLVED] = {"hdr colour (resolved)", VK_FORMAT_R16G16B16A16_SFLOAT,
                                ATTACH_COLOR | SAMPLED | COPY_SRC, false, true},
    /* sampled: PRESENT blends the overlay over it */
    [GN_TARGET_OUTPUT] = {"output (rgba8 srgb-encoded)", VK_FORMAT_R8G8B8A8_UNORM,
                          STORAGE | COPY_SRC | SAMPLED},
    /* VSM RESOLVE's mask and its history: a word a pixel, written as storage, read by texelFetch */
    [GN_TARGET_VSM_MASK0] = {"vsm resolve mask 0", VK_FORMAT_R32_UINT, STORAGE | SAMPLED},
    [GN_TARGET_VSM_MASK1] = {"vsm resolve mask 1", VK_FORMAT_R32_UINT, STORAGE | SAMPLED},
    /* the opaque scene's copies: written by a copy, sampled by later passes, read back by tests */
    [GN_TARGET_OPAQUE_COLOR] = {"opaque colour (copy)", VK_FORMAT_R16G16B16A16_SFLOAT,
                                COPY_DST | SAMPLED | COPY_SRC},
    [GN_TARGET_OPAQUE_DEPTH] = {"opaque depth (copy)", VK_FORMAT_D32_SFLOAT, COPY_DST | SAMPLED | COPY_SRC},
    /* weighted blended OIT: drawn with the multisampled depth, so at its samples (one rendering's
       attachments share a sample count); the composite reads every sample (texelFetch) */
    [GN_TARGET_OIT_ACCUM] = {"oit accumulation (msaa)", VK_FORMAT_R16G16B16A16_SFLOAT, ATTACH_COLOR | SAMPLED,
                             true, .on_demand = true},
    /* 16 bits: 8 (the paper's) would band a product of many layers */
    [GN_TARGET_OIT_REVEAL] = {"oit revealage (msaa)", VK_FORMAT_R16_SFLOAT, ATTACH_COLOR | SAMPLED, true,
                              .on_demand = true},
};

/* The image a target is at the renderer's size and samples. */
static gn_vk_image_desc target_desc(const gn_renderer *r, const target_def *def)
{
    bool ms = r->msaa > 1;
    return (gn_vk_image_desc){
        .width = r->width,
        .height = r->height,
        .samples = def->multisampled ? r->msaa : 1,
        .mips = def->mips ? def->mips : 1,
        .format = def->format,
        .usage = def->usage | (ms ? 0 : def->single_sample_usage),
        .name = def->name,
    };
}

gn_result gn_targets_create(gn_renderer *r, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_targets *t = &r->targets;
    bool ms = r->msaa > 1;
    gn_result res = GN_OK;
    for (uint32_t i = 0; i < GN_TARGET_COUNT && !res; i++) {
        const target_def *def = &TARGETS[i];
        if ((def->resolve && !ms) || def->on_demand) continue;
        gn_vk_image_desc d = target_desc(r, def);
        res = gn_vk_image_create(vk, &d, &t->image[i], err);
    }
    if (!res) {
        gn_vk_buffer_desc bd = {(VkDeviceSize)r->width * r->height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                true, "readback"};
        res = gn_vk_buffer_create(vk, &bd, &t->readback, err);
    }
    if (res) {
        gn_targets_release(r);
        return res;
    }
    t->depth = &t->image[ms ? GN_TARGET_DEPTH_RESOLVED : GN_TARGET_DEPTH_MS];
    t->hdr = &t->image[ms ? GN_TARGET_HDR_RESOLVED : GN_TARGET_HDR_MS];
    return GN_OK;
}

gn_result gn_target_ensure(gn_renderer *r, gn_target_id id, bool *made, gn_error *err)
{
    *made = false;
    if (r->targets.image[id].image) return GN_OK;
    gn_vk_image_desc d = target_desc(r, &TARGETS[id]);
    gn_result res = gn_vk_image_create(&r->vk, &d, &r->targets.image[id], err);
    *made = !res;
    return res;
}

void gn_targets_release(gn_renderer *r) { gn_targets_release_set(r, &r->targets); }

void gn_targets_release_set(gn_renderer *r, gn_targets *t)
{
    for (uint32_t i = 0; i < GN_TARGET_COUNT; i++) gn_vk_image_release(&r->vk, &t->image[i]);
    gn_vk_buffer_release(&r->vk, &t->readback);
    memset(t, 0, sizeof *t);
}

gn_result gn_target_create_like(gn_renderer *r, gn_target_id id, const char *name, gn_vk_image *out,
                                gn_error *err)
{
    gn_vk_image_desc d = target_desc(r, &TARGETS[id]);
    d.name = name;
    return gn_vk_image_create(&r->vk, &d, out, err);
}

/* Tone mapping (a feature): exposure and a curve (ACES, Reinhard or clip) into the 8-bit
 * output, in 8x8 compute tiles. Debug views drawn by the forward pass pass through here; the
 * depth view is drawn here from the resolved depth. */
#include "passes/passes.h"

#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

typedef struct tonemap_state {
    gn_screen_pass pass;
} tonemap_state;

/* The set names the targets: written at create and after a resize. */
static gn_result write_set(gn_renderer *r, void *self, gn_error *err)
{
    (void)err;
    tonemap_state *s = self;
    gn_vk_write w[GN_BIND_TONEMAP_COUNT] = {
        gn_write_sampled(GN_BIND_TONEMAP_HDR, r->targets.hdr, r->pipes.clamp),
        gn_write_sampled(GN_BIND_TONEMAP_DEPTH, r->targets.depth, r->pipes.clamp),
        gn_write_storage_image(GN_BIND_TONEMAP_OUTPUT, gn_target(r, GN_TARGET_OUTPUT)),
        gn_write_frame(r, GN_BIND_TONEMAP_FRAME),
    };
    gn_vk_write_set(&r->vk, s->pass.set, w, GN_BIND_TONEMAP_COUNT);
    return GN_OK;
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    tonemap_state *s = self;
    const gn_vk_binding b[GN_BIND_TONEMAP_COUNT] = {
        [GN_BIND_TONEMAP_HDR] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_TONEMAP_DEPTH] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_TONEMAP_OUTPUT] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_TONEMAP_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
    };
    gn_result res =
        gn_screen_pass_create(r, &s->pass, "tonemap.comp", "tonemap", b, GN_BIND_TONEMAP_COUNT, err);
    if (!res) res = write_set(r, self, err);
    return res;
}

static void release(gn_renderer *r, void *self) { gn_screen_pass_release(r, &((tonemap_state *)self)->pass); }

const gn_feature gn_feature_tonemap = {.name = "tonemap",
                                       .size = sizeof(tonemap_state),
                                       .create = create,
                                       .resize = write_set,
                                       .release = release};

uint32_t gn_tonemap_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)self, (void)run;
    out[0] = (gn_vk_use){.image = r->targets.hdr, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OUTPUT), .access = GN_ACCESS_COMPUTE_WRITE};
    return 3;
}

gn_pass_work gn_tonemap_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_screen_pass_dispatch(r, &((tonemap_state *)self)->pass);
    return (gn_pass_work){0, 0};
}

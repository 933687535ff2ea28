/* Tone mapping (a feature): the exposure (the HDR colour is stored pre-exposed; under eye
 * adaptation scaled to this frame's adapted exposure) and a curve (ACES, Reinhard or clip)
 * into the 8-bit output, in 8x8 compute tiles, bloom and depth of field's blurred copy blended
 * in first. Debug views drawn by the forward pass pass through here; the depth, luminance and
 * depth of field's views are drawn here. */
#include "base/alloc.h"
#include "base/error.h"
#include "formats/cube_lut.h"
#include "passes/bloom.h"
#include "passes/dof.h"
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

typedef struct tonemap_state {
    gn_screen_pass pass;
    gn_vk_buffer lut; /* the grading table (header, entries); a header alone while there is none */
    bool lut_on;
} tonemap_state;

#define LUT_HEADER_BYTES 32u

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
        gn_write_storage(GN_BIND_TONEMAP_EXPOSURE, &r->pipes.exposure),
        gn_write_sampled(GN_BIND_TONEMAP_BLOOM, gn_bloom_output(r), r->pipes.clamp_linear),
        gn_write_storage(GN_BIND_TONEMAP_LUT, &s->lut),
        gn_write_sampled(GN_BIND_TONEMAP_DOF, gn_dof_output(r), r->pipes.clamp_linear),
    };
    gn_vk_write_set(&r->vk, s->pass.set, w, GN_BIND_TONEMAP_COUNT);
    return GN_OK;
}

static gn_result lut_buffer(gn_renderer *r, tonemap_state *s, VkDeviceSize bytes, gn_error *err)
{
    gn_vk_buffer_desc d = {.size = bytes,
                           .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .name = "colour lookup table"};
    return gn_vk_buffer_create(&r->vk, &d, &s->lut, err);
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
        [GN_BIND_TONEMAP_EXPOSURE] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_TONEMAP_BLOOM] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_TONEMAP_LUT] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_TONEMAP_DOF] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
    };
    gn_result res =
        gn_screen_pass_create(r, &s->pass, "tonemap.comp", "tonemap", b, GN_BIND_TONEMAP_COUNT, err);
    if (!res) res = lut_buffer(r, s, LUT_HEADER_BYTES, err); /* unread until a table is set */
    if (!res) res = write_set(r, self, err);
    return res;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)r, (void)scene, (void)err;
    tonemap_state *s = self;
    g->grade[0] = in->dither ? 1.0f : 0.0f;
    g->grade[1] = s->lut_on ? 1.0f : 0.0f;
    return GN_OK;
}

gn_result gn_renderer_set_color_lut(gn_renderer *r, const char *cube_path, gn_error *err)
{
    if (!r)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_renderer_set_color_lut: a renderer is required");
    tonemap_state *s = gn_feature_state(r, GN_FEATURE_TONEMAP);
    gn_cube_lut l = {0};
    gn_result res = cube_path ? gn_cube_lut_load(cube_path, &l, err) : GN_OK;
    if (res) return res;
    /* every frame that names the old table has finished before the set changes */
    res = gn_vk_wait_idle(&r->vk, err);
    size_t n = cube_path ? (size_t)l.size * l.size * l.size : 0;
    size_t bytes = LUT_HEADER_BYTES + n * 16;
    float *data = res ? NULL : gn_calloc(bytes / 4, sizeof(float));
    if (!res && !data)
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: %zu bytes for the table", cube_path, bytes);
    if (!res) {
        for (int c = 0; c < 3; c++) data[c] = l.domain_min[c], data[4 + c] = l.domain_max[c];
        data[3] = (float)l.size;
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 3; c++) data[8 + i * 4 + c] = l.rgb[i * 3 + c];
        gn_vk_buffer_release(&r->vk, &s->lut);
        res = lut_buffer(r, s, (VkDeviceSize)bytes, err);
    }
    gn_vk_upload up = {&s->lut, data, (VkDeviceSize)bytes};
    if (!res && n) res = gn_vk_upload_now(&r->vk, &up, 1, err);
    if (!res) res = write_set(r, s, err);
    s->lut_on = !res && n > 0;
    free(data);
    gn_cube_lut_free(&l);
    return res;
}

static void release(gn_renderer *r, void *self)
{
    tonemap_state *s = self;
    gn_screen_pass_release(r, &s->pass);
    gn_vk_buffer_release(&r->vk, &s->lut);
}

const gn_feature gn_feature_tonemap = {.name = "tonemap",
                                       .size = sizeof(tonemap_state),
                                       .create = create,
                                       .resize = write_set,
                                       .plan = plan,
                                       .release = release};

uint32_t gn_tonemap_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    out[0] = (gn_vk_use){.image = r->targets.hdr, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OUTPUT), .access = GN_ACCESS_COMPUTE_WRITE};
    out[3] = (gn_vk_use){.buffer = &r->pipes.exposure, .access = GN_ACCESS_SHADER_READ};
    /* level 0 of the chain, also when bloom is off (not read then; its layout stays valid) */
    out[4] = (gn_vk_use){.image = gn_bloom_output(r), .access = GN_ACCESS_SHADER_READ};
    out[5] = (gn_vk_use){.buffer = &((tonemap_state *)self)->lut, .access = GN_ACCESS_SHADER_READ};
    /* depth of field's copy, also when it is off (likewise) */
    out[6] = (gn_vk_use){.image = gn_dof_output(r), .access = GN_ACCESS_SHADER_READ};
    return 7;
}

gn_pass_work gn_tonemap_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_screen_pass_dispatch(r, &((tonemap_state *)self)->pass);
    return (gn_pass_work){0, 0};
}

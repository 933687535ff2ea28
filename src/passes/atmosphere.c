/* The atmosphere (a feature; docs/SKY.md, "The atmosphere"): Hillaire's tables in compute, the
 * GPU twins of src/decide/atmosphere.c. The transmittance and the multiple scattering depend on
 * the medium only and are made once ("atmosphere luts"); the sky view (the sky's radiance by
 * direction from the eye's altitude, both sky lights in) and the aerial perspective's froxels
 * (the air's in-scattering and transmittance from the eye to each slice) follow the sun, the
 * moon and the camera, and are made every frame ("atmosphere"). The sky pass, the forward
 * pass's aerial perspective and the image-based light's environment read them through the
 * image-based light's sets (src/passes/ibl.c). */
#include "passes/atmosphere.h"
#include "passes/passes.h"

#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

static const struct {
    uint32_t w, h;
    const char *name;
} IMAGES[GN_ATMO_IMAGES] = {
    [GN_ATMO_IMAGE_T] = {GN_GPU_ATMO_T_W, GN_GPU_ATMO_T_H, "atmosphere transmittance"},
    [GN_ATMO_IMAGE_MS] = {GN_GPU_ATMO_MS, GN_GPU_ATMO_MS, "atmosphere multiple scattering"},
    [GN_ATMO_IMAGE_SKYVIEW] = {GN_GPU_ATMO_SKYVIEW_W, GN_GPU_ATMO_SKYVIEW_H, "atmosphere sky view"},
    [GN_ATMO_IMAGE_AERIAL] = {GN_GPU_ATMO_AERIAL * GN_GPU_ATMO_AERIAL, GN_GPU_ATMO_AERIAL,
                              "aerial perspective"},
};

/* The CPU twin's sizes are the GPU's. */
_Static_assert(GN_GPU_ATMO_T_W == GN_ATMO_TRANSMITTANCE_W && GN_GPU_ATMO_T_H == GN_ATMO_TRANSMITTANCE_H &&
                   GN_GPU_ATMO_MS == GN_ATMO_MS_SIZE && GN_GPU_ATMO_SKYVIEW_W == GN_ATMO_SKYVIEW_W &&
                   GN_GPU_ATMO_SKYVIEW_H == GN_ATMO_SKYVIEW_H && GN_GPU_ATMO_AERIAL == GN_ATMO_AERIAL_SIZE &&
                   GN_GPU_ATMO_T_STEPS == GN_ATMO_TRANSMITTANCE_STEPS &&
                   GN_GPU_ATMO_MS_DIRS == GN_ATMO_MS_DIRS && GN_GPU_ATMO_MS_STEPS == GN_ATMO_MS_STEPS &&
                   GN_GPU_ATMO_SKY_STEPS == GN_ATMO_SKY_STEPS,
               "the atmosphere's GPU tables and sample counts are the CPU twin's");

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    gn_atmosphere_gpu *a = self;
    gn_vk *vk = &r->vk;
    const gn_vk_binding b[GN_BIND_ATMO_COUNT] = {
        [GN_BIND_ATMO_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
        [GN_BIND_ATMO_T_OUT] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_ATMO_MS_OUT] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_ATMO_SKYVIEW_OUT] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_ATMO_AERIAL_OUT] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_ATMO_T] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_ATMO_MS] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}};
    gn_result res = gn_vk_set_layout(vk, b, GN_BIND_ATMO_COUNT, "atmosphere", &a->set_layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &a->set_layout, 1, 0, "atmosphere", &a->layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 1, "atmosphere", &a->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, a->pool, a->set_layout, "atmosphere", &a->set, err);
    const char *shaders[4] = {"atmo_transmittance.comp", "atmo_ms.comp", "atmo_skyview.comp",
                              "atmo_aerial.comp"};
    VkPipeline *pipes[4] = {&a->transmittance, &a->ms, &a->skyview, &a->aerial};
    for (int i = 0; i < 4 && !res; i++)
        res = gn_vk_compute_pipeline(vk, shaders[i], a->layout, shaders[i], pipes[i], err);
    for (uint32_t i = 0; i < GN_ATMO_IMAGES && !res; i++) {
        gn_vk_image_desc id = {.width = IMAGES[i].w,
                               .height = IMAGES[i].h,
                               .samples = 1,
                               .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                               .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                        VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                               .name = IMAGES[i].name};
        res = gn_vk_image_create(vk, &id, &a->image[i], err);
    }
    if (res) return res;
    gn_vk_write w[GN_BIND_ATMO_COUNT] = {
        gn_write_frame(r, GN_BIND_ATMO_FRAME),
        gn_write_storage_image(GN_BIND_ATMO_T_OUT, &a->image[GN_ATMO_IMAGE_T]),
        gn_write_storage_image(GN_BIND_ATMO_MS_OUT, &a->image[GN_ATMO_IMAGE_MS]),
        gn_write_storage_image(GN_BIND_ATMO_SKYVIEW_OUT, &a->image[GN_ATMO_IMAGE_SKYVIEW]),
        gn_write_storage_image(GN_BIND_ATMO_AERIAL_OUT, &a->image[GN_ATMO_IMAGE_AERIAL]),
        gn_write_sampled(GN_BIND_ATMO_T, &a->image[GN_ATMO_IMAGE_T], r->pipes.clamp_linear),
        gn_write_sampled(GN_BIND_ATMO_MS, &a->image[GN_ATMO_IMAGE_MS], r->pipes.clamp_linear)};
    gn_vk_write_set(vk, a->set, w, GN_BIND_ATMO_COUNT);
    return GN_OK;
}

/* What the sky view and the aerial volume are made from: the lights, the eye's altitude and
 * the view's rays (the fogs are applied where they are read, not in the tables). */
static void inputs(const gn_gpu_frame *g, float out[GN_ATMO_INPUTS])
{
    memcpy(out, g->sky_light, sizeof g->sky_light);
    out[8] = g->atmo_body[3];
    out[9] = g->atmo_aerial[1];
    memcpy(out + 10, g->inv_view_proj, sizeof g->inv_view_proj);
    memcpy(out + 26, g->camera_pos, sizeof(float) * 3);
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *s, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)r, (void)s, (void)in, (void)err;
    gn_atmosphere_gpu *a = self;
    inputs(g, a->want);
    return GN_OK;
}

static gn_result submitted(gn_renderer *r, void *self, gn_error *err)
{
    (void)r, (void)err;
    gn_atmosphere_gpu *a = self;
    if (a->luts_recorded) a->luts_built = true;
    if (a->frame_recorded) {
        a->frame_built = true;
        memcpy(a->built, a->want, sizeof a->built);
    }
    a->luts_recorded = a->frame_recorded = false;
    return GN_OK;
}

static void abandon(gn_renderer *r, void *self)
{
    (void)r;
    gn_atmosphere_gpu *a = self;
    a->luts_recorded = a->frame_recorded = false; /* the next frame makes them */
}

static void release(gn_renderer *r, void *self)
{
    gn_atmosphere_gpu *a = self;
    gn_vk *vk = &r->vk;
    for (uint32_t i = 0; i < GN_ATMO_IMAGES; i++) gn_vk_image_release(vk, &a->image[i]);
    VkPipeline pipes[4] = {a->transmittance, a->ms, a->skyview, a->aerial};
    for (int i = 0; i < 4; i++) gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)pipes[i]);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)a->layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)a->set_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)a->pool);
}

const gn_feature gn_feature_atmosphere = {.name = "atmosphere",
                                          .size = sizeof(gn_atmosphere_gpu),
                                          .create = create,
                                          .plan = plan,
                                          .submitted = submitted,
                                          .abandon = abandon,
                                          .release = release};

gn_vk_image *gn_atmosphere_image(gn_renderer *r, uint32_t which)
{
    return &((gn_atmosphere_gpu *)gn_feature_state(r, GN_FEATURE_ATMOSPHERE))->image[which];
}

static void dispatch(gn_renderer *r, gn_atmosphere_gpu *a, VkPipeline pipe, uint32_t which)
{
    gn_vk *vk = &r->vk;
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_pipeline(vk, true, pipe);
    gn_vk_cmd_bind_sets(vk, true, a->layout, 0, 1, &a->set, 1, &dyn);
    gn_vk_cmd_dispatch(vk, (IMAGES[which].w + 7) / 8, (IMAGES[which].h + 7) / 8, 1);
}

/* The medium's tables: once, the first submitted frame makes them. */
uint32_t gn_atmosphere_luts_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_atmosphere_gpu *)self)->luts_built ? 0 : 1;
}

uint32_t gn_atmosphere_luts_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_atmosphere_gpu *a = self;
    out[0] = (gn_vk_use){.image = &a->image[GN_ATMO_IMAGE_T], .access = GN_ACCESS_COMPUTE_WRITE};
    out[1] = (gn_vk_use){.image = &a->image[GN_ATMO_IMAGE_MS], .access = GN_ACCESS_COMPUTE_WRITE};
    return 2;
}

/* The transmittance, then (it read) the multiple scattering from it. */
gn_pass_work gn_atmosphere_luts_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_atmosphere_gpu *a = self;
    dispatch(r, a, a->transmittance, GN_ATMO_IMAGE_T);
    gn_vk_use read = {.image = &a->image[GN_ATMO_IMAGE_T], .access = GN_ACCESS_SHADER_READ};
    gn_vk_barriers(&r->vk, r->vk.cur->cmd, &read, 1);
    dispatch(r, a, a->ms, GN_ATMO_IMAGE_MS);
    a->luts_recorded = true;
    return (gn_pass_work){0, 0};
}

/* The sky view and the aerial volume: when what they are made from changed (a still camera
 * under a still sky reuses them). */
uint32_t gn_atmosphere_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    const gn_atmosphere_gpu *a = self;
    return !a->frame_built || memcmp(a->built, a->want, sizeof a->built) != 0 ? 1 : 0;
}

uint32_t gn_atmosphere_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_atmosphere_gpu *a = self;
    out[0] = (gn_vk_use){.image = &a->image[GN_ATMO_IMAGE_T], .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = &a->image[GN_ATMO_IMAGE_MS], .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.image = &a->image[GN_ATMO_IMAGE_SKYVIEW], .access = GN_ACCESS_COMPUTE_WRITE};
    out[3] = (gn_vk_use){.image = &a->image[GN_ATMO_IMAGE_AERIAL], .access = GN_ACCESS_COMPUTE_WRITE};
    return 4;
}

gn_pass_work gn_atmosphere_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_atmosphere_gpu *a = self;
    dispatch(r, a, a->skyview, GN_ATMO_IMAGE_SKYVIEW);
    dispatch(r, a, a->aerial, GN_ATMO_IMAGE_AERIAL);
    a->frame_recorded = true;
    return (gn_pass_work){0, 0};
}

gn_result gn_atmosphere_read(gn_renderer *r, uint32_t which, uint16_t *out, size_t bytes, gn_error *err)
{
    gn_atmosphere_gpu *a = gn_feature_state(r, GN_FEATURE_ATMOSPHERE);
    VkDeviceSize need = which < GN_ATMO_IMAGES ? (VkDeviceSize)IMAGES[which].w * IMAGES[which].h * 8 : 0;
    if (which >= GN_ATMO_IMAGES || bytes < need)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_atmosphere_read: table %u needs %llu bytes", which,
                       (unsigned long long)need);
    if (!a->luts_built || !a->frame_built)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_atmosphere_read: no frame has made the tables");
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    return res ? res
               : gn_vk_read_image(&r->vk, &a->image[which], need, out, need, "atmosphere readback", err);
}

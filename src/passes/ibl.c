/* Image-based light (a feature; docs/SKY.md): the split sum's DFG table (Karis 2013), made once
 * by shaders/dfg.comp (the twin of gn_brdf_dfg, src/decide/brdf.c), and the environment the
 * ambient light comes from: the sky's radiance (the atmosphere's sky view) in an octahedral map
 * (ibl_sky.comp), its levels
 * prefiltered for GGX roughness (ibl_prefilter.comp) and its 9 spherical harmonics
 * (ibl_sh.comp, the twin of gn_sh9_project, src/decide/ibl.c). The environment is made again
 * only when the sky changed (the sun moved); the forward pass reads all of it through set 5, with
 * the local reflection probes src/probes.c renders and filters (uploaded here, by a frame's plan). */
#include "passes/ibl.h"
#include "base/alloc.h"
#include "passes/atmosphere.h"
#include "passes/passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT
#define FS VK_SHADER_STAGE_FRAGMENT_BIT

typedef struct dfg_push {
    uint32_t p[4];
} dfg_push;

/* The atlas rectangles of levels 1..5 (shaders/ibl_levels.glsl's GN_IBL_RECT), and the whole. */
static const int32_t LEVEL_RECT[GN_GPU_IBL_LEVELS][4] = {{0, 0, GN_GPU_IBL_ATLAS_W, GN_GPU_IBL_ATLAS_H},
                                                         {0, 0, 64, 64},
                                                         {64, 0, 32, 32},
                                                         {64, 32, 16, 16},
                                                         {80, 32, 8, 8},
                                                         {88, 32, 4, 4}};

static gn_result image(gn_renderer *r, uint32_t w, uint32_t h, const char *name, gn_vk_image *out,
                       gn_error *err)
{
    gn_vk_image_desc id = {.width = w,
                           .height = h,
                           .samples = 1,
                           .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                           .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                           .name = name};
    return gn_vk_image_create(&r->vk, &id, out, err);
}

static gn_result layouts(gn_renderer *r, gn_ibl_gpu *b, gn_error *err)
{
    gn_vk *vk = &r->vk;
    const gn_vk_binding dfg[GN_BIND_DFG_COUNT] = {
        [GN_BIND_DFG_TABLE] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS}};
    const gn_vk_binding sky[GN_BIND_ENV_COUNT] = {
        [GN_BIND_ENV_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
        [GN_BIND_ENV_LEVEL0] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_ENV_SKYVIEW] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}};
    const gn_vk_binding pre[GN_BIND_PREFILTER_COUNT] = {
        [GN_BIND_PREFILTER_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
        [GN_BIND_PREFILTER_SOURCE] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_PREFILTER_ATLAS] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_PREFILTER_SH] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS}};
    const gn_vk_binding rec[GN_BIND_IBL_COUNT] = {
        [GN_BIND_IBL_LEVEL0] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_IBL_ATLAS] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_IBL_SH] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, FS},
        [GN_BIND_IBL_DFG] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_IBL_SKYVIEW] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_IBL_TRANSMITTANCE] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_IBL_AERIAL] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_IBL_MS] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_IBL_PROBE_LEVEL0] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_IBL_PROBE_ATLAS] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_IBL_PROBES] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, FS}};
    gn_result res = gn_vk_set_layout(vk, dfg, GN_BIND_DFG_COUNT, "dfg", &b->set_layout, err);
    if (!res) res = gn_vk_set_layout(vk, sky, GN_BIND_ENV_COUNT, "ibl sky", &b->sky_layout, err);
    if (!res)
        res = gn_vk_set_layout(vk, pre, GN_BIND_PREFILTER_COUNT, "ibl prefilter", &b->prefilter_layout, err);
    if (!res) res = gn_vk_set_layout(vk, rec, GN_BIND_IBL_COUNT, "set 5: ibl", &b->receiver_layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &b->set_layout, 1, sizeof(dfg_push), "dfg", &b->layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &b->sky_layout, 1, 0, "ibl sky", &b->sky_pipeline_layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &b->prefilter_layout, 1, sizeof(int32_t) * 4, "ibl prefilter",
                                    &b->prefilter_pipeline_layout, err);
    return res;
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    gn_ibl_gpu *b = self;
    gn_vk *vk = &r->vk;
    b->next_level = 1;
    gn_result res = layouts(r, b, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 4, "ibl", &b->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, b->pool, b->set_layout, "dfg", &b->set, err);
    if (!res) res = gn_vk_alloc_set(vk, b->pool, b->sky_layout, "ibl sky", &b->sky_set, err);
    if (!res)
        res = gn_vk_alloc_set(vk, b->pool, b->prefilter_layout, "ibl prefilter", &b->prefilter_set, err);
    if (!res) res = gn_vk_alloc_set(vk, b->pool, b->receiver_layout, "set 5: ibl", &b->receiver, err);
    if (!res) res = gn_vk_compute_pipeline(vk, "dfg.comp", b->layout, "dfg", &b->dfg_pipeline, err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "ibl_sky.comp", b->sky_pipeline_layout, "ibl sky", &b->sky_pipeline,
                                     err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "ibl_prefilter.comp", b->prefilter_pipeline_layout, "ibl prefilter",
                                     &b->prefilter_pipeline, err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "ibl_sh.comp", b->prefilter_pipeline_layout, "ibl sh",
                                     &b->sh_pipeline, err);
    if (!res) res = image(r, GN_IBL_DFG_SIZE, GN_IBL_DFG_SIZE, "dfg table", &b->dfg, err);
    if (!res) res = image(r, GN_GPU_IBL_SIZE, GN_GPU_IBL_SIZE, "ibl environment", &b->level0, err);
    if (!res) res = image(r, GN_GPU_IBL_ATLAS_W, GN_GPU_IBL_ATLAS_H, "ibl prefiltered", &b->atlas, err);
    gn_vk_image_desc pd = {.width = GN_GPU_PROBE_SIZE,
                           .height = GN_GPU_PROBE_SIZE,
                           .samples = 1,
                           .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                           .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                           .name = "probes level 0",
                           .layers = GN_GPU_PROBES,
                           .array = true};
    if (!res) res = gn_vk_image_create(vk, &pd, &b->probe_level0, err);
    pd.width = GN_GPU_PROBE_ATLAS_W, pd.height = GN_GPU_PROBE_ATLAS_H, pd.name = "probes prefiltered";
    if (!res) res = gn_vk_image_create(vk, &pd, &b->probe_atlas, err);
    gn_vk_buffer_desc bd = {.size = sizeof(gn_gpu_probe) * GN_GPU_PROBES,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            .name = "probes"};
    if (!res) res = gn_vk_buffer_create(vk, &bd, &b->probe_buffer, err);
    gn_vk_buffer_desc sd = {.size = GN_GPU_IBL_SH * 16,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                            .name = "ibl harmonics"};
    if (!res) res = gn_vk_buffer_create(vk, &sd, &b->sh, err);
    if (res) return res;
    gn_vk_write dw = gn_write_storage_image(GN_BIND_DFG_TABLE, &b->dfg);
    gn_vk_write_set(vk, b->set, &dw, 1);
    VkSampler lin = r->pipes.clamp_linear;
    gn_vk_write sw[GN_BIND_ENV_COUNT] = {
        gn_write_frame(r, GN_BIND_ENV_FRAME), gn_write_storage_image(GN_BIND_ENV_LEVEL0, &b->level0),
        gn_write_sampled(GN_BIND_ENV_SKYVIEW, gn_atmosphere_image(r, GN_ATMO_IMAGE_SKYVIEW), lin)};
    gn_vk_write_set(vk, b->sky_set, sw, GN_BIND_ENV_COUNT);
    gn_vk_write pw[GN_BIND_PREFILTER_COUNT] = {
        gn_write_frame(r, GN_BIND_PREFILTER_FRAME),
        gn_write_sampled(GN_BIND_PREFILTER_SOURCE, &b->level0, r->pipes.clamp_linear),
        gn_write_storage_image(GN_BIND_PREFILTER_ATLAS, &b->atlas),
        gn_write_storage(GN_BIND_PREFILTER_SH, &b->sh)};
    gn_vk_write_set(vk, b->prefilter_set, pw, GN_BIND_PREFILTER_COUNT);
    gn_vk_write rw[GN_BIND_IBL_COUNT] = {
        gn_write_sampled(GN_BIND_IBL_LEVEL0, &b->level0, r->pipes.clamp_linear),
        gn_write_sampled(GN_BIND_IBL_ATLAS, &b->atlas, r->pipes.clamp_linear),
        gn_write_storage(GN_BIND_IBL_SH, &b->sh),
        gn_write_sampled(GN_BIND_IBL_DFG, &b->dfg, r->pipes.clamp_linear),
        gn_write_sampled(GN_BIND_IBL_SKYVIEW, gn_atmosphere_image(r, GN_ATMO_IMAGE_SKYVIEW), lin),
        gn_write_sampled(GN_BIND_IBL_TRANSMITTANCE, gn_atmosphere_image(r, GN_ATMO_IMAGE_T), lin),
        gn_write_sampled(GN_BIND_IBL_AERIAL, gn_atmosphere_image(r, GN_ATMO_IMAGE_AERIAL), lin),
        gn_write_sampled(GN_BIND_IBL_MS, gn_atmosphere_image(r, GN_ATMO_IMAGE_MS), lin),
        gn_write_sampled(GN_BIND_IBL_PROBE_LEVEL0, &b->probe_level0, lin),
        gn_write_sampled(GN_BIND_IBL_PROBE_ATLAS, &b->probe_atlas, lin),
        gn_write_storage(GN_BIND_IBL_PROBES, &b->probe_buffer)};
    gn_vk_write_set(vk, b->receiver, rw, GN_BIND_IBL_COUNT);
    return GN_OK;
}

/* The probes src/probes.c handed over, into their images and buffer (every layer: what no probe
 * uses is zero), readable by the forward pass from this frame on. */
static gn_result upload_probes(gn_renderer *r, gn_ibl_gpu *b, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_result res = gn_vk_upload_layers(vk, &b->probe_level0, b->upload.level0, 8, err);
    if (!res) res = gn_vk_upload_layers(vk, &b->probe_atlas, b->upload.atlas, 8, err);
    if (!res)
        res = gn_vk_upload_buffer(vk, &b->probe_buffer, 0, b->upload.probes, sizeof b->upload.probes, err);
    if (res) return res;
    gn_vk_use read[2] = {{.image = &b->probe_level0, .access = GN_ACCESS_SHADER_READ},
                         {.image = &b->probe_atlas, .access = GN_ACCESS_SHADER_READ}};
    gn_vk_barriers(vk, vk->cur->cmd, read, 2);
    b->probe_count = b->upload.count;
    b->upload.pending = false;
    return GN_OK;
}

gn_result gn_ibl_set_probes(gn_renderer *r, uint32_t count, const uint16_t *level0, const uint16_t *atlas,
                            const gn_gpu_probe *probes, gn_error *err)
{
    gn_ibl_gpu *b = gn_feature_state(r, GN_FEATURE_IBL);
    if (count > GN_GPU_PROBES)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%u probes, at most %u", count, GN_GPU_PROBES);
    size_t l0 = (size_t)GN_GPU_PROBE_SIZE * GN_GPU_PROBE_SIZE * 4,
           at = (size_t)GN_GPU_PROBE_ATLAS_W * GN_GPU_PROBE_ATLAS_H * 4;
    if (!b->upload.level0) b->upload.level0 = gn_calloc(l0 * GN_GPU_PROBES, sizeof(uint16_t));
    if (!b->upload.atlas) b->upload.atlas = gn_calloc(at * GN_GPU_PROBES, sizeof(uint16_t));
    if (!b->upload.level0 || !b->upload.atlas)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for the probes' maps");
    memset(b->upload.level0, 0, l0 * GN_GPU_PROBES * sizeof(uint16_t));
    memset(b->upload.atlas, 0, at * GN_GPU_PROBES * sizeof(uint16_t));
    memset(b->upload.probes, 0, sizeof b->upload.probes);
    if (count) {
        memcpy(b->upload.level0, level0, l0 * count * sizeof(uint16_t));
        memcpy(b->upload.atlas, atlas, at * count * sizeof(uint16_t));
        memcpy(b->upload.probes, probes, count * sizeof *probes);
    }
    b->upload.count = count;
    b->upload.pending = true;
    return GN_OK;
}

uint32_t gn_ibl_probe_count(const gn_renderer *r)
{
    return ((const gn_ibl_gpu *)gn_feature_state(r, GN_FEATURE_IBL))->probe_count;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)scene;
    gn_ibl_gpu *b = self;
    if (b->upload.pending) {
        gn_result res = upload_probes(r, b, err);
        if (res) return res;
    }
    b->probes_on = in->ibl && in->probes && b->probe_count > 0;
    g->ibl[2] = b->probes_on ? 1.0f : 0.0f;
    g->ibl[3] = b->probes_on ? (float)b->probe_count : 0.0f;
    /* the ambient needs the environment and the table: the first frame makes both */
    b->on = in->ibl;
    memcpy(b->sun_dir, in->lights[0].dir, sizeof b->sun_dir);
    g->ibl[0] = b->on ? 1.0f : 0.0f;
    /* a test's uniform sky replaces the atmosphere's everywhere the sky is read */
    g->ibl[1] = b->test_uniform;
    if (b->test_uniform > 0.0f)
        for (int c = 0; c < 3; c++) g->sky_zenith[c] = g->sky_horizon[c] = g->sky_ground[c] = b->test_uniform;
    for (int c = 0; c < 3; c++)
        b->sky[c] = g->sky_zenith[c], b->sky[3 + c] = g->sky_horizon[c], b->sky[6 + c] = g->sky_ground[c];
    return GN_OK;
}

void gn_ibl_test_uniform_sky(gn_renderer *r, float nits)
{
    ((gn_ibl_gpu *)gn_feature_state(r, GN_FEATURE_IBL))->test_uniform = nits;
}

static gn_result submitted(gn_renderer *r, void *self, gn_error *err)
{
    (void)r, (void)err;
    gn_ibl_gpu *b = self;
    b->dfg_built |= b->dfg_recorded;
    if (b->env_recorded) {
        b->env_built = true;
        memcpy(b->built_sky, b->sky, sizeof b->sky);
        b->stale = b->recorded_stale;
        b->next_level = b->recorded_next;
        memcpy(b->built_sun_dir, b->sun_dir, sizeof b->built_sun_dir);
    }
    b->dfg_recorded = b->env_recorded = false;
    return GN_OK;
}

static void abandon(gn_renderer *r, void *self)
{
    (void)r;
    gn_ibl_gpu *b = self;
    b->dfg_recorded = b->env_recorded = false; /* the next frame makes them */
}

static void receiver(gn_renderer *r, void *self, gn_receiver *out)
{
    gn_ibl_gpu *b = self;
    *out = (gn_receiver){.layout = b->receiver_layout, .set = b->receiver, .use_count = 7 + GN_ATMO_IMAGES};
    out->uses[0] = (gn_vk_use){.image = &b->level0, .access = GN_ACCESS_SHADER_READ};
    out->uses[1] = (gn_vk_use){.image = &b->atlas, .access = GN_ACCESS_SHADER_READ};
    out->uses[2] = (gn_vk_use){.buffer = &b->sh, .access = GN_ACCESS_SHADER_READ};
    out->uses[3] = (gn_vk_use){.image = &b->dfg, .access = GN_ACCESS_SHADER_READ};
    for (uint32_t i = 0; i < GN_ATMO_IMAGES; i++)
        out->uses[4 + i] = (gn_vk_use){.image = gn_atmosphere_image(r, i), .access = GN_ACCESS_SHADER_READ};
    out->uses[4 + GN_ATMO_IMAGES] = (gn_vk_use){.image = &b->probe_level0, .access = GN_ACCESS_SHADER_READ};
    out->uses[5 + GN_ATMO_IMAGES] = (gn_vk_use){.image = &b->probe_atlas, .access = GN_ACCESS_SHADER_READ};
    out->uses[6 + GN_ATMO_IMAGES] = (gn_vk_use){.buffer = &b->probe_buffer, .access = GN_ACCESS_SHADER_READ};
}

static void release(gn_renderer *r, void *self)
{
    gn_ibl_gpu *b = self;
    gn_vk *vk = &r->vk;
    gn_vk_image_release(vk, &b->dfg);
    gn_vk_image_release(vk, &b->level0);
    gn_vk_image_release(vk, &b->atlas);
    gn_vk_buffer_release(vk, &b->sh);
    gn_vk_image_release(vk, &b->probe_level0);
    gn_vk_image_release(vk, &b->probe_atlas);
    gn_vk_buffer_release(vk, &b->probe_buffer);
    free(b->upload.level0);
    free(b->upload.atlas);
    VkPipeline pipes[4] = {b->dfg_pipeline, b->sky_pipeline, b->prefilter_pipeline, b->sh_pipeline};
    for (int i = 0; i < 4; i++) gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)pipes[i]);
    VkPipelineLayout pl[3] = {b->layout, b->sky_pipeline_layout, b->prefilter_pipeline_layout};
    for (int i = 0; i < 3; i++) gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)pl[i]);
    VkDescriptorSetLayout sl[4] = {b->set_layout, b->sky_layout, b->prefilter_layout, b->receiver_layout};
    for (int i = 0; i < 4; i++)
        gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)sl[i]);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)b->pool);
}

const gn_feature gn_feature_ibl = {.name = "image-based light",
                                   .size = sizeof(gn_ibl_gpu),
                                   .create = create,
                                   .plan = plan,
                                   .receiver = receiver,
                                   .submitted = submitted,
                                   .abandon = abandon,
                                   .release = release};

uint32_t gn_ibl_dfg_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_ibl_gpu *)self)->dfg_built ? 0 : 1;
}

uint32_t gn_ibl_dfg_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    out[0] = (gn_vk_use){.image = &((gn_ibl_gpu *)self)->dfg, .access = GN_ACCESS_COMPUTE_WRITE};
    return 1;
}

gn_pass_work gn_ibl_dfg_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_ibl_gpu *b = self;
    gn_vk *vk = &r->vk;
    dfg_push push = {{GN_IBL_DFG_SIZE, GN_IBL_DFG_SAMPLES, 0, 0}};
    gn_vk_cmd_bind_pipeline(vk, true, b->dfg_pipeline);
    gn_vk_cmd_bind_sets(vk, true, b->layout, 0, 1, &b->set, 0, NULL);
    gn_vk_cmd_push(vk, b->layout, sizeof push, &push);
    gn_vk_cmd_dispatch(vk, (GN_IBL_DFG_SIZE + 7) / 8, (GN_IBL_DFG_SIZE + 7) / 8, 1);
    b->dfg_recorded = true;
    return (gn_pass_work){0, 0};
}

/* The environment is made when the frame's ambient comes from it and the sky is not the one it
 * was made from (the first frame, and whenever the sun, and with it the sky, moved), and while
 * levels made from an older level 0 remain (a moving sun's refresh: below). */
static bool sky_changed(const gn_ibl_gpu *b) { return memcmp(b->built_sky, b->sky, sizeof b->sky) != 0; }

/* Whether the sky changed by a moving sun, which the budget spreads over frames, rather than by a
 * cut: the sun still (the sky changed with the camera's height, a test's sky: made whole, so an
 * environment never depends on the frames before it unless the sun moves), or since the
 * environment was last made the sun jumped by GN_IBL_FULL_DEG or a colour of the sky by
 * GN_IBL_FULL_SKY of itself (a new time of day). */
static bool sky_cut(const gn_ibl_gpu *b)
{
    float cos_moved = b->sun_dir[0] * b->built_sun_dir[0] + b->sun_dir[1] * b->built_sun_dir[1] +
                      b->sun_dir[2] * b->built_sun_dir[2];
    bool sun_still = memcmp(b->sun_dir, b->built_sun_dir, sizeof b->sun_dir) == 0;
    if (sky_changed(b) && sun_still) return true;
    if (cos_moved < cosf(GN_IBL_FULL_DEG * 0.017453293f)) return true;
    for (int i = 0; i < 9; i++)
        if (fabsf(b->sky[i] - b->built_sky[i]) > GN_IBL_FULL_SKY * fmaxf(fabsf(b->built_sky[i]), 1e-6f))
            return true;
    return false;
}

uint32_t gn_ibl_env_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    const gn_ibl_gpu *b = self;
    return b->on && (!b->env_built || sky_changed(b) || b->stale) ? 1 : 0;
}

uint32_t gn_ibl_env_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_ibl_gpu *b = self;
    out[0] = (gn_vk_use){.image = &b->level0, .access = GN_ACCESS_COMPUTE_WRITE};
    out[1] = (gn_vk_use){.image = &b->atlas, .access = GN_ACCESS_COMPUTE_WRITE};
    out[2] = (gn_vk_use){.buffer = &b->sh, .access = GN_ACCESS_COMPUTE_WRITE};
    out[3] =
        (gn_vk_use){.image = gn_atmosphere_image(r, GN_ATMO_IMAGE_SKYVIEW), .access = GN_ACCESS_SHADER_READ};
    return 4;
}

/* Level 0 from the sky and the harmonics from it, then the prefiltered levels. A first frame, or
 * a cut (the sun moved GN_IBL_FULL_DEG since the last whole making: a new time of day), makes
 * every level; a moving sun makes level 0 and the harmonics each frame the sky changed and one
 * prefiltered level a frame, the next of those made from an older level 0, so it never costs
 * the whole prefilter in one frame and the levels catch up five frames after the sun stops. */
gn_pass_work gn_ibl_env_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_ibl_gpu *b = self;
    gn_vk *vk = &r->vk;
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    bool full = !b->env_built || sky_cut(b);
    uint32_t stale = b->stale;
    b->recorded_next = b->next_level;
    if (full || sky_changed(b)) {
        gn_vk_cmd_bind_pipeline(vk, true, b->sky_pipeline);
        gn_vk_cmd_bind_sets(vk, true, b->sky_pipeline_layout, 0, 1, &b->sky_set, 1, &dyn);
        gn_vk_cmd_dispatch(vk, GN_GPU_IBL_SIZE / 8, GN_GPU_IBL_SIZE / 8, 1);
        stale = GN_IBL_ALL_LEVELS; /* every level was made from the old level 0 */
    }
    gn_vk_use read = {.image = &b->level0, .access = GN_ACCESS_SHADER_READ};
    gn_vk_barriers(vk, vk->cur->cmd, &read, 1);
    /* the whole atlas, or the next stale level after the last one made (in turn: a sun that
     * moves every frame leaves every level stale every frame, and each is made every fifth) */
    uint32_t k = full ? 0u : GN_GPU_IBL_LEVELS;
    for (uint32_t i = 0; !full && i < GN_GPU_IBL_LEVELS - 1; i++) {
        uint32_t level = 1u + (b->next_level - 1u + i) % (GN_GPU_IBL_LEVELS - 1u);
        if (stale & (1u << level)) {
            k = level;
            break;
        }
    }
    if (k < GN_GPU_IBL_LEVELS) {
        const int32_t *rect = LEVEL_RECT[k];
        gn_vk_cmd_bind_pipeline(vk, true, b->prefilter_pipeline);
        gn_vk_cmd_bind_sets(vk, true, b->prefilter_pipeline_layout, 0, 1, &b->prefilter_set, 1, &dyn);
        gn_vk_cmd_push(vk, b->prefilter_pipeline_layout, sizeof(int32_t) * 4, rect);
        gn_vk_cmd_dispatch(vk, ((uint32_t)rect[2] + 7) / 8, ((uint32_t)rect[3] + 7) / 8, 1);
        stale = full ? 0u : stale & ~(1u << k);
        b->recorded_next = k ? 1u + k % (GN_GPU_IBL_LEVELS - 1u) : 1u;
    }
    if (full || sky_changed(b)) {
        gn_vk_cmd_bind_pipeline(vk, true, b->sh_pipeline);
        gn_vk_cmd_dispatch(vk, 1, 1, 1);
    }
    b->recorded_stale = stale;
    b->env_recorded = true;
    return (gn_pass_work){0, 0};
}

gn_result gn_ibl_read_env(gn_renderer *r, uint16_t *level0, float *sh, gn_error *err)
{
    gn_ibl_gpu *b = gn_feature_state(r, GN_FEATURE_IBL);
    if (!b->env_built)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_ibl_read_env: no frame has made the environment");
    VkDeviceSize bytes = (VkDeviceSize)GN_GPU_IBL_SIZE * GN_GPU_IBL_SIZE * 8;
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    if (!res && level0) res = gn_vk_read_image(&r->vk, &b->level0, bytes, level0, bytes, "ibl readback", err);
    if (!res && sh)
        res = gn_vk_read_buffer(&r->vk, &b->sh, sh, GN_GPU_IBL_SH * 16, "ibl harmonics readback", err);
    return res;
}

gn_result gn_ibl_read_atlas(gn_renderer *r, uint16_t *atlas, gn_error *err)
{
    gn_ibl_gpu *b = gn_feature_state(r, GN_FEATURE_IBL);
    if (!b->env_built)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "gn_ibl_read_atlas: no frame has made the environment");
    VkDeviceSize bytes = (VkDeviceSize)GN_GPU_IBL_ATLAS_W * GN_GPU_IBL_ATLAS_H * 8;
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    return res ? res : gn_vk_read_image(&r->vk, &b->atlas, bytes, atlas, bytes, "ibl atlas readback", err);
}

gn_result gn_ibl_read_dfg(gn_renderer *r, uint16_t *out, gn_error *err)
{
    gn_ibl_gpu *b = gn_feature_state(r, GN_FEATURE_IBL);
    if (!b->dfg_built)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_ibl_read_dfg: no frame has made the table");
    VkDeviceSize bytes = (VkDeviceSize)GN_IBL_DFG_SIZE * GN_IBL_DFG_SIZE * 8;
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    return res ? res : gn_vk_read_image(&r->vk, &b->dfg, bytes, out, bytes, "dfg readback", err);
}

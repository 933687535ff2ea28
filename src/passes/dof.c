/* Depth of field (a feature; docs/POST.md, decide/dof.h): the HDR colour copied into half size
 * and blurred (shaders/dof.comp: down, then a Gaussian along x and along y); the tone map turns
 * each pixel into it by the pixel's blur. The copies are this feature's own images, made at
 * create and again at every resize. */
#include "passes/dof.h"
#include "passes/passes.h"

#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

typedef struct dof_push {
    uint32_t p[4];
    float texel[4];
} dof_push;

static const gn_vk_binding BINDINGS[GN_BIND_DOF_COUNT] = {
    [GN_BIND_DOF_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
    [GN_BIND_DOF_SRC] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
    [GN_BIND_DOF_DST] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
};

/* Step k reads SRC[k] and writes DST[k]: the HDR colour into copy 0, copy 0 into 1, 1 into 0. */
static gn_vk_image *step_src(gn_renderer *r, gn_dof_gpu *d, uint32_t k)
{
    return k == 0 ? r->targets.hdr : &d->copy[k == 1 ? 0 : 1];
}
static gn_vk_image *step_dst(gn_dof_gpu *d, uint32_t k) { return &d->copy[k == 1 ? 1 : 0]; }

/* The copies at the renderer's size and the sets that name them; all or nothing (bloom.c). */
static gn_result make_copies(gn_renderer *r, void *self, gn_error *err)
{
    gn_dof_gpu *d = self;
    gn_vk_image made[2] = {0};
    gn_result res = GN_OK;
    for (uint32_t i = 0; i < 2 && !res; i++) {
        uint32_t w = r->width / 2, h = r->height / 2;
        gn_vk_image_desc id = {.width = w ? w : 1,
                               .height = h ? h : 1,
                               .samples = 1,
                               .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                               .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                               .name = i ? "dof blur x" : "dof copy"};
        res = gn_vk_image_create(&r->vk, &id, &made[i], err);
    }
    if (res) {
        for (uint32_t i = 0; i < 2; i++) gn_vk_image_release(&r->vk, &made[i]);
    } else {
        for (uint32_t i = 0; i < 2; i++) gn_vk_image_release(&r->vk, &d->copy[i]); /* deferred */
        memcpy(d->copy, made, sizeof made);
    }
    for (uint32_t k = 0; k < GN_DOF_STEPS; k++) {
        gn_vk_write w[GN_BIND_DOF_COUNT] = {
            gn_write_frame(r, GN_BIND_DOF_FRAME),
            gn_write_sampled(GN_BIND_DOF_SRC, step_src(r, d, k), r->pipes.clamp_linear),
            gn_write_storage_image(GN_BIND_DOF_DST, step_dst(d, k)),
        };
        gn_vk_write_set(&r->vk, d->set[k], w, GN_BIND_DOF_COUNT);
    }
    return res;
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *desc, gn_error *err)
{
    (void)desc;
    gn_dof_gpu *d = self;
    gn_vk *vk = &r->vk;
    gn_result res = gn_vk_set_layout(vk, BINDINGS, GN_BIND_DOF_COUNT, "dof", &d->set_layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &d->set_layout, 1, sizeof(dof_push), "dof", &d->layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, GN_DOF_STEPS, "dof", &d->pool, err);
    for (uint32_t k = 0; k < GN_DOF_STEPS && !res; k++)
        res = gn_vk_alloc_set(vk, d->pool, d->set_layout, "dof", &d->set[k], err);
    if (!res) res = gn_vk_compute_pipeline(vk, "dof.comp", d->layout, "dof", &d->pipeline, err);
    if (!res) res = make_copies(r, self, err);
    return res;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)r, (void)scene, (void)err;
    gn_dof_gpu *d = self;
    d->on = in->dof.strength > 0.0f;
    g->dof[0] = in->dof.focus, g->dof[1] = in->dof.range;
    g->dof[2] = d->on ? in->dof.strength : 0.0f, g->dof[3] = (float)in->dof.mode;
    g->dof_params[0] = in->dof.radius, g->dof_params[1] = in->dof.blur_sky ? 1.0f : 0.0f;
    return GN_OK;
}

static void release(gn_renderer *r, void *self)
{
    gn_dof_gpu *d = self;
    for (uint32_t i = 0; i < 2; i++) gn_vk_image_release(&r->vk, &d->copy[i]);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)d->pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)d->layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)d->set_layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)d->pool);
}

const gn_feature gn_feature_dof = {.name = "depth of field",
                                   .size = sizeof(gn_dof_gpu),
                                   .create = create,
                                   .resize = make_copies,
                                   .plan = plan,
                                   .release = release};

uint32_t gn_dof_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_dof_gpu *)self)->on ? 1 : 0;
}

uint32_t gn_dof_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_dof_gpu *d = self;
    out[0] = (gn_vk_use){.image = r->targets.hdr, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = &d->copy[0], .access = GN_ACCESS_COMPUTE_WRITE};
    out[2] = (gn_vk_use){.image = &d->copy[1], .access = GN_ACCESS_COMPUTE_WRITE};
    return 3;
}

/* The three steps, each image moving between read and write as the next step needs it. */
gn_pass_work gn_dof_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_dof_gpu *d = self;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_bind_pipeline(vk, true, d->pipeline);
    for (uint32_t k = 0; k < GN_DOF_STEPS; k++) {
        if (k) {
            gn_vk_use u[2] = {{.image = step_src(r, d, k), .access = GN_ACCESS_SHADER_READ},
                              {.image = step_dst(d, k), .access = GN_ACCESS_COMPUTE_WRITE}};
            gn_vk_barriers(vk, vk->cur->cmd, u, 2);
        }
        const gn_vk_image *src = step_src(r, d, k), *dst = step_dst(d, k);
        dof_push push = {{k, dst->width, dst->height, 0},
                         {1.0f / (float)src->width, 1.0f / (float)src->height, 0, 0}};
        uint32_t dyn = (uint32_t)r->plan.frame_offset;
        gn_vk_cmd_bind_sets(vk, true, d->layout, 0, 1, &d->set[k], 1, &dyn);
        gn_vk_cmd_push(vk, d->layout, sizeof push, &push);
        gn_vk_cmd_dispatch(vk, (dst->width + 7) / 8, (dst->height + 7) / 8, 1);
    }
    return (gn_pass_work){0, 0};
}

gn_vk_image *gn_dof_output(gn_renderer *r)
{
    return &((gn_dof_gpu *)gn_feature_state(r, GN_FEATURE_DOF))->copy[0];
}

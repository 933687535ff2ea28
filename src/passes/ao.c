/* Ambient occlusion (a feature; docs/POST.md, decide/ao.h): Scalable Ambient Obscurance from the
 * prepass's resolved depth, before the forward pass, which reads the result at its pixel (set 4)
 * and darkens its ambient and environment light by it. Three passes: "ao z" (camera-space Z and
 * its levels, a dispatch a level), "ao" (the estimate), "ao blur" (x, then y). Everything is a
 * storage buffer a float a texel, made at create and again at every resize. */
#include "passes/ao.h"
#include "passes/passes.h"

#include "decide/camera.h"

#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

static const gn_vk_binding BINDINGS[GN_BIND_AO_COUNT] = {
    [GN_BIND_AO_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
    [GN_BIND_AO_DEPTH] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
    [GN_BIND_AO_Z] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
    [GN_BIND_AO_RAW] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
    [GN_BIND_AO_TMP] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
};
static const gn_vk_binding RECEIVER[GN_BIND_SCREEN_COUNT] = {
    [GN_BIND_SCREEN_AO] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_FRAGMENT_BIT},
};

static gn_result device_buffer(gn_renderer *r, VkDeviceSize size, const char *name, gn_vk_buffer *out,
                               gn_error *err)
{
    gn_vk_buffer_desc d = {.size = size,
                           .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                           .name = name};
    return gn_vk_buffer_create(&r->vk, &d, out, err);
}

/* The buffers at the renderer's size, and the sets that name them (and the depth target, which a
 * resize replaces). All or nothing: on a failure the buffers in use stay, the sets rewritten. */
static gn_result make_buffers(gn_renderer *r, void *self, gn_error *err)
{
    gn_ao_gpu *a = self;
    gn_ao_layout l;
    gn_ao_layout_make(r->width, r->height, &l);
    VkDeviceSize pixels = (VkDeviceSize)r->width * r->height * sizeof(float);
    gn_vk_buffer z = {0}, raw = {0}, tmp = {0};
    gn_result res = device_buffer(r, (VkDeviceSize)l.texels * sizeof(float), "ao z", &z, err);
    if (!res) res = device_buffer(r, pixels, "ao result", &raw, err);
    if (!res) res = device_buffer(r, pixels, "ao blur x", &tmp, err);
    if (res) {
        gn_vk_buffer_release(&r->vk, &z);
        gn_vk_buffer_release(&r->vk, &raw);
        gn_vk_buffer_release(&r->vk, &tmp);
    } else {
        gn_vk_buffer_release(&r->vk, &a->z); /* deferred: frames in flight keep theirs */
        gn_vk_buffer_release(&r->vk, &a->raw);
        gn_vk_buffer_release(&r->vk, &a->tmp);
        a->z = z, a->raw = raw, a->tmp = tmp, a->levels = l;
    }
    gn_vk_write w[GN_BIND_AO_COUNT] = {
        gn_write_frame(r, GN_BIND_AO_FRAME),
        gn_write_sampled(GN_BIND_AO_DEPTH, r->targets.depth, r->pipes.clamp),
        gn_write_storage(GN_BIND_AO_Z, &a->z),
        gn_write_storage(GN_BIND_AO_RAW, &a->raw),
        gn_write_storage(GN_BIND_AO_TMP, &a->tmp),
    };
    gn_vk_write_set(&r->vk, a->set, w, GN_BIND_AO_COUNT);
    gn_vk_write rw = gn_write_storage(GN_BIND_SCREEN_AO, &a->raw);
    gn_vk_write_set(&r->vk, a->receiver, &rw, 1);
    return res;
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    gn_ao_gpu *a = self;
    gn_vk *vk = &r->vk;
    gn_result res = gn_vk_set_layout(vk, BINDINGS, GN_BIND_AO_COUNT, "ao", &a->set_layout, err);
    if (!res)
        res = gn_vk_set_layout(vk, RECEIVER, GN_BIND_SCREEN_COUNT, "set 4: screen", &a->receiver_layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &a->set_layout, 1, sizeof(gn_gpu_ao_push), "ao", &a->layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 2, "ao", &a->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, a->pool, a->set_layout, "ao", &a->set, err);
    if (!res) res = gn_vk_alloc_set(vk, a->pool, a->receiver_layout, "set 4: screen", &a->receiver, err);
    if (!res) res = gn_vk_compute_pipeline(vk, "ao_z.comp", a->layout, "ao z", &a->z_pipeline, err);
    if (!res) res = gn_vk_compute_pipeline(vk, "ao.comp", a->layout, "ao", &a->estimate, err);
    if (!res) res = gn_vk_compute_pipeline(vk, "ao_blur.comp", a->layout, "ao blur", &a->blur, err);
    if (!res) res = make_buffers(r, self, err);
    return res;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)scene, (void)err;
    gn_ao_gpu *a = self;
    a->on = in->ao.intensity > 0.0f;
    float sx, sy;
    gn_msaa_sample0(r->msaa, &sx, &sy);
    gn_ao_params p;
    gn_ao_params_make(in->proj, in->near_plane, r->width, r->height, in->ao.radius, in->ao.bias,
                      in->ao.intensity, sx, sy, &p);
    g->ao[0] = p.radius, g->ao[1] = p.bias, g->ao[2] = a->on ? p.intensity : 0.0f, g->ao[3] = p.proj_scale;
    g->ao_proj[0] = p.inv_p00, g->ao_proj[1] = p.inv_p11, g->ao_proj[2] = sx, g->ao_proj[3] = sy;
    return GN_OK;
}

static void receiver(gn_renderer *r, void *self, gn_receiver *out)
{
    (void)r;
    gn_ao_gpu *a = self;
    /* declared even when off: the forward pass's pipelines name the buffer either way */
    *out = (gn_receiver){.layout = a->receiver_layout, .set = a->receiver, .use_count = 1};
    out->uses[0] = (gn_vk_use){.buffer = &a->raw, .access = GN_ACCESS_SHADER_READ};
}

static void release(gn_renderer *r, void *self)
{
    gn_ao_gpu *a = self;
    gn_vk *vk = &r->vk;
    gn_vk_buffer_release(vk, &a->z);
    gn_vk_buffer_release(vk, &a->raw);
    gn_vk_buffer_release(vk, &a->tmp);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)a->z_pipeline);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)a->estimate);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)a->blur);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)a->layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)a->set_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)a->receiver_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)a->pool);
}

const gn_feature gn_feature_ao = {.name = "ambient occlusion",
                                  .size = sizeof(gn_ao_gpu),
                                  .create = create,
                                  .resize = make_buffers,
                                  .plan = plan,
                                  .receiver = receiver,
                                  .release = release};

uint32_t gn_ao_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_ao_gpu *)self)->on ? 1 : 0;
}

uint32_t gn_ao_blur_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    const gn_ao_gpu *a = self;
    return a->on && !a->skip_blur ? 1 : 0;
}

static void begin(gn_renderer *r, gn_ao_gpu *a, VkPipeline pipeline, gn_gpu_ao_push *push, uint32_t pass)
{
    gn_vk *vk = &r->vk;
    memset(push, 0, sizeof *push);
    for (uint32_t k = 0; k < GN_AO_LEVELS; k++) {
        push->level[k][0] = a->levels.w[k];
        push->level[k][1] = a->levels.h[k];
        push->level[k][2] = a->levels.offset[k];
    }
    push->pass[0] = pass;
    gn_vk_cmd_bind_pipeline(vk, true, pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, a->layout, 0, 1, &a->set, 1, &dyn);
    gn_vk_cmd_push(vk, a->layout, sizeof *push, push);
}

uint32_t gn_ao_z_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_ao_gpu *a = self;
    out[0] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &a->z, .access = GN_ACCESS_COMPUTE_WRITE};
    return 2;
}

/* Level 0 from the depth, then each level from the one below (a barrier between). */
gn_pass_work gn_ao_z_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_ao_gpu *a = self;
    gn_vk *vk = &r->vk;
    gn_gpu_ao_push push;
    for (uint32_t k = 0; k < GN_AO_LEVELS; k++) {
        if (k) {
            gn_vk_use level = {.buffer = &a->z, .access = GN_ACCESS_COMPUTE_WRITE}; /* the level below */
            gn_vk_barriers(vk, vk->cur->cmd, &level, 1);
        }
        begin(r, a, a->z_pipeline, &push, k);
        gn_vk_cmd_dispatch(vk, (a->levels.w[k] + 7) / 8, (a->levels.h[k] + 7) / 8, 1);
    }
    return (gn_pass_work){0, 0};
}

uint32_t gn_ao_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_ao_gpu *a = self;
    out[0] = (gn_vk_use){.buffer = &a->z, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &a->raw, .access = GN_ACCESS_COMPUTE_WRITE};
    return 2;
}

gn_pass_work gn_ao_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_ao_gpu *a = self;
    gn_gpu_ao_push push;
    begin(r, a, a->estimate, &push, 0);
    gn_vk_cmd_dispatch(&r->vk, (r->width + 7) / 8, (r->height + 7) / 8, 1);
    return (gn_pass_work){0, 0};
}

uint32_t gn_ao_blur_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_ao_gpu *a = self;
    out[0] = (gn_vk_use){.buffer = &a->z, .access = GN_ACCESS_SHADER_READ};
    out[1] =
        (gn_vk_use){.buffer = &a->raw, .access = GN_ACCESS_COMPUTE_WRITE}; /* read along x, written along y */
    out[2] = (gn_vk_use){.buffer = &a->tmp, .access = GN_ACCESS_COMPUTE_WRITE};
    return 3;
}

gn_pass_work gn_ao_blur_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_ao_gpu *a = self;
    gn_vk *vk = &r->vk;
    gn_gpu_ao_push push;
    for (uint32_t dir = 0; dir < 2; dir++) {
        if (dir) {
            gn_vk_use both[2] = {{.buffer = &a->raw, .access = GN_ACCESS_COMPUTE_WRITE},
                                 {.buffer = &a->tmp, .access = GN_ACCESS_COMPUTE_WRITE}};
            gn_vk_barriers(vk, vk->cur->cmd, both, 2);
        }
        begin(r, a, a->blur, &push, dir);
        gn_vk_cmd_dispatch(vk, (r->width + 7) / 8, (r->height + 7) / 8, 1);
    }
    return (gn_pass_work){0, 0};
}

gn_result gn_ao_read(gn_renderer *r, float *z, float *result, gn_error *err)
{
    gn_ao_gpu *a = gn_feature_state(r, GN_FEATURE_AO);
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    if (!res && z)
        res = gn_vk_read_buffer(&r->vk, &a->z, z, (VkDeviceSize)a->levels.texels * sizeof(float),
                                "ao z readback", err);
    if (!res && result)
        res = gn_vk_read_buffer(&r->vk, &a->raw, result, (VkDeviceSize)r->width * r->height * sizeof(float),
                                "ao readback", err);
    return res;
}

void gn_ao_skip_blur(gn_renderer *r, bool skip)
{
    ((gn_ao_gpu *)gn_feature_state(r, GN_FEATURE_AO))->skip_blur = skip;
}

bool gn_ao_was_on(const gn_renderer *r)
{
    return ((const gn_ao_gpu *)gn_feature_state(r, GN_FEATURE_AO))->on;
}

/* Volumetric fog (a feature; docs/SKY.md, "Volumetric fog"): the frame's height fogs as a froxel
 * volume over the view (GN_GPU_VOL_X x _Y x _Z, slices exponential in view depth out to
 * gn_frame_desc.volumetric_far), so that the key light's shadows and the local lights show in the
 * air: light shafts. Two passes: "volumetric inject" shades every froxel once (a full-screen
 * draw over the atlas with the forward pass's layout and sets, so it reads the same shadows and
 * clustered lights the surfaces do), at a depth jittered within its slice and blended with the
 * last frame's froxel at the same world point; "volumetric integrate" accumulates each column
 * front to back. The forward pass and the sky read the integrated froxels through set 6; the
 * fogs beyond the volume stay analytic (shaders/air.glsl). */
#include "passes/volumetric.h"
#include "passes/passes.h"

#include <math.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT
#define FS VK_SHADER_STAGE_FRAGMENT_BIT

static const char *const INJECT_SHADER[GN_VOL_TECHNIQUES] = {"volumetric_none.frag", "volumetric_csm.frag",
                                                             "volumetric_vsm.frag"};

static gn_result image(gn_renderer *r, VkImageUsageFlags usage, const char *name, gn_vk_image *out,
                       gn_error *err)
{
    gn_vk_image_desc d = {.width = GN_VOL_ATLAS_W,
                          .height = GN_VOL_ATLAS_H,
                          .samples = 1,
                          .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                          .usage = usage | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                          .name = name};
    return gn_vk_image_create(&r->vk, &d, out, err);
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    gn_volumetric_gpu *v = self;
    gn_vk *vk = &r->vk;
    const gn_vk_binding rec[GN_BIND_VOLUME_COUNT] = {
        [GN_BIND_VOLUME_INTEGRATED] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_VOLUME_HISTORY] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}};
    const gn_vk_binding integ[GN_BIND_VOLINT_COUNT] = {
        [GN_BIND_VOLINT_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
        [GN_BIND_VOLINT_INJECT] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_VOLINT_INTEGRATED] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS}};
    gn_result res =
        gn_vk_set_layout(vk, rec, GN_BIND_VOLUME_COUNT, "set 6: volumetric fog", &v->receiver_layout, err);
    if (!res)
        res = gn_vk_set_layout(vk, integ, GN_BIND_VOLINT_COUNT, "volumetric integrate", &v->integrate_layout,
                               err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &v->integrate_layout, 1, 0, "volumetric integrate",
                                    &v->integrate_pipeline_layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 4, "volumetric", &v->pool, err);
    for (int i = 0; i < 2 && !res; i++) {
        res = gn_vk_alloc_set(vk, v->pool, v->receiver_layout, "set 6: volumetric fog", &v->receiver[i], err);
        if (!res)
            res = gn_vk_alloc_set(vk, v->pool, v->integrate_layout, "volumetric integrate",
                                  &v->integrate_set[i], err);
    }
    if (!res)
        res = gn_vk_compute_pipeline(vk, "volumetric_integrate.comp", v->integrate_pipeline_layout,
                                     "volumetric integrate", &v->integrate, err);
    if (!res)
        res = image(r, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, "volumetric injected 0", &v->injected[0], err);
    if (!res)
        res = image(r, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, "volumetric injected 1", &v->injected[1], err);
    if (!res) res = image(r, 0, "volumetric integrated", &v->integrated, err);
    if (res) return res;
    for (int i = 0; i < 2; i++) {
        gn_vk_write rw[GN_BIND_VOLUME_COUNT] = {
            gn_write_sampled(GN_BIND_VOLUME_INTEGRATED, &v->integrated, r->pipes.clamp_linear),
            gn_write_sampled(GN_BIND_VOLUME_HISTORY, &v->injected[1 - i], r->pipes.clamp_linear)};
        gn_vk_write_set(vk, v->receiver[i], rw, GN_BIND_VOLUME_COUNT);
        gn_vk_write iw[GN_BIND_VOLINT_COUNT] = {
            gn_write_frame(r, GN_BIND_VOLINT_FRAME),
            gn_write_sampled(GN_BIND_VOLINT_INJECT, &v->injected[i], r->pipes.clamp),
            gn_write_storage_image(GN_BIND_VOLINT_INTEGRATED, &v->integrated)};
        gn_vk_write_set(vk, v->integrate_set[i], iw, GN_BIND_VOLINT_COUNT);
    }
    return res;
}

/* The inject pass of one sun technique, made the first frame that needs it (the air is shaded
 * with the forward pass's sets, its layout one a technique; the shader is the forward pass's
 * lighting: a renderer without fog never compiles it). */
static gn_result ensure_inject(gn_renderer *r, gn_volumetric_gpu *v, uint32_t t, gn_error *err)
{
    if (v->inject[t]) return GN_OK;
    gn_result res = GN_OK;
    if (!v->layout[t]) res = gn_forward_layout(r, t, "volumetric inject", &v->layout[t], err);
    gn_vk_graphics_desc g = {.vert = "sky.vert",
                             .frag = INJECT_SHADER[t],
                             .layout = v->layout[t],
                             .color_format = VK_FORMAT_R16G16B16A16_SFLOAT,
                             .samples = 1,
                             .depth_compare = VK_COMPARE_OP_ALWAYS,
                             .cull = VK_CULL_MODE_NONE,
                             .name = "volumetric inject"};
    if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &v->inject[t], err);
    return res;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *s, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)s;
    gn_volumetric_gpu *v = self;
    v->on = in->volumetric.on && (in->fog[0].density > 0.0f || in->fog[1].density > 0.0f);
    v->technique = gn_forward_technique(in->shadows);
    memset(g->volumetric, 0, sizeof g->volumetric);
    memset(g->volumetric_params, 0, sizeof g->volumetric_params);
    memcpy(v->view_proj, in->view_proj, sizeof v->view_proj);
    if (!v->on) {
        v->history = false;
        return GN_OK;
    }
    gn_result res = ensure_inject(r, v, v->technique, err);
    if (res) return res;
    /* the jitter walks the slice by the golden ratio: any run of frames covers it evenly */
    v->frame++;
    float jitter = (float)fmod(0.5 + 0.6180339887 * v->frame, 1.0);
    g->volumetric[0] = 1.0f;
    g->volumetric[1] = GN_VOL_NEAR;
    g->volumetric[2] = in->volumetric.far;
    g->volumetric[3] = jitter;
    g->volumetric_params[0] = v->history ? GN_VOL_HISTORY : 0.0f;
    g->volumetric_params[1] = (float)v->cur;
    memcpy(g->volumetric_prev, v->history ? v->prev_view_proj : in->view_proj, sizeof g->volumetric_prev);
    return GN_OK;
}

static void receiver(gn_renderer *r, void *self, gn_receiver *out)
{
    (void)r;
    gn_volumetric_gpu *v = self;
    *out = (gn_receiver){.layout = v->receiver_layout, .set = v->receiver[v->cur], .use_count = 2};
    out->uses[0] = (gn_vk_use){.image = &v->integrated, .access = GN_ACCESS_SHADER_READ};
    out->uses[1] = (gn_vk_use){.image = &v->injected[1 - v->cur], .access = GN_ACCESS_SHADER_READ};
}

static gn_result submitted(gn_renderer *r, void *self, gn_error *err)
{
    (void)r, (void)err;
    gn_volumetric_gpu *v = self;
    /* the next frame's history is this one's froxels, where this frame's camera saw them */
    v->history = v->recorded;
    if (v->recorded) {
        memcpy(v->prev_view_proj, v->view_proj, sizeof v->prev_view_proj);
        v->cur = 1 - v->cur;
    }
    v->recorded = false;
    return GN_OK;
}

static void abandon(gn_renderer *r, void *self)
{
    (void)r;
    gn_volumetric_gpu *v = self;
    v->recorded = v->history = false;
}

static void release(gn_renderer *r, void *self)
{
    gn_volumetric_gpu *v = self;
    gn_vk *vk = &r->vk;
    for (int i = 0; i < 2; i++) gn_vk_image_release(vk, &v->injected[i]);
    gn_vk_image_release(vk, &v->integrated);
    for (uint32_t t = 0; t < GN_VOL_TECHNIQUES; t++) {
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)v->inject[t]);
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)v->layout[t]);
    }
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)v->integrate);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)v->integrate_pipeline_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)v->receiver_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)v->integrate_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)v->pool);
}

const gn_feature gn_feature_volumetric = {.name = "volumetric fog",
                                          .size = sizeof(gn_volumetric_gpu),
                                          .create = create,
                                          .plan = plan,
                                          .receiver = receiver,
                                          .submitted = submitted,
                                          .abandon = abandon,
                                          .release = release};

uint32_t gn_volumetric_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_volumetric_gpu *)self)->on ? 1 : 0;
}

/* The inject pass reads what the forward pass reads (its sets) but the volume's own set: the
 * history; it writes this frame's froxels. */
uint32_t gn_volumetric_inject_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_volumetric_gpu *v = self;
    uint32_t n = 0;
    out[n++] = (gn_vk_use){.image = &v->injected[v->cur], .access = GN_ACCESS_COLOR_WRITE};
    out[n++] = (gn_vk_use){.buffer = &r->pipes.exposure, .access = GN_ACCESS_SHADER_READ};
    n += gn_forward_receiver_uses(r, v->technique, out + n);
    return n;
}

gn_pass_work gn_volumetric_inject_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_volumetric_gpu *v = self;
    gn_vk *vk = &r->vk;
    gn_vk_rendering ri = {.color = {.image = &v->injected[v->cur], .clear = false},
                          .width = GN_VOL_ATLAS_W,
                          .height = GN_VOL_ATLAS_H};
    gn_vk_cmd_begin_rendering(vk, &ri);
    VkPipelineLayout layout = v->layout[v->technique];
    gn_vk_cmd_bind_pipeline(vk, false, v->inject[v->technique]);
    gn_bind_view_frame(r, layout, &r->plan.camera);
    gn_forward_bind_receivers(r, v->technique, layout);
    gn_vk_cmd_draw(vk, 3);
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){1, 1};
}

uint32_t gn_volumetric_integrate_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_volumetric_gpu *v = self;
    out[0] = (gn_vk_use){.image = &v->injected[v->cur], .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = &v->integrated, .access = GN_ACCESS_COMPUTE_WRITE};
    return 2;
}

gn_pass_work gn_volumetric_integrate_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_volumetric_gpu *v = self;
    gn_vk *vk = &r->vk;
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_pipeline(vk, true, v->integrate);
    gn_vk_cmd_bind_sets(vk, true, v->integrate_pipeline_layout, 0, 1, &v->integrate_set[v->cur], 1, &dyn);
    gn_vk_cmd_dispatch(vk, (GN_GPU_VOL_X + 7) / 8, (GN_GPU_VOL_Y + 7) / 8, 1);
    v->recorded = true;
    return (gn_pass_work){0, 0};
}

gn_result gn_volumetric_read(gn_renderer *r, uint16_t *out, gn_error *err)
{
    gn_volumetric_gpu *v = gn_feature_state(r, GN_FEATURE_VOLUMETRIC);
    if (!v->history)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_volumetric_read: the last frame had no volume");
    VkDeviceSize bytes = (VkDeviceSize)GN_VOL_ATLAS_W * GN_VOL_ATLAS_H * 8;
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    return res ? res
               : gn_vk_read_image(&r->vk, &v->integrated, bytes, out, bytes, "volumetric readback", err);
}

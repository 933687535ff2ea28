/* Sun shadows I: cascaded shadow maps (a feature). Each cascade due this frame (plan decides
 * which, and its casters) is rendered depth-only into its layer of one D32 array, from the
 * light's orthographic view around its slice of the camera frustum. The forward pass reads
 * every layer with the matrix it was rendered with (shaders/shadow.glsl), through the receiver
 * set this feature lends it. */
#include "passes/csm.h"
#include "passes/cull.h"
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

#define FS VK_SHADER_STAGE_FRAGMENT_BIT

void gn_csm_caster_bias(const gn_csm_desc *d, float *constant, float *slope)
{
    gn_csm_settings s;
    float normal_offset;
    gn_csm_resolve(d, &s, &normal_offset, constant, slope);
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *rd, gn_error *err)
{
    gn_csm_gpu *c = self;
    float bias_const, bias_slope;
    gn_csm_resolve(&rd->csm, &c->settings, &c->normal_offset_texels, &bias_const, &bias_slope);
    c->bias_constant = bias_const, c->bias_slope = bias_slope;
    const gn_csm_settings *s = &c->settings;
    if (s->cascades > GN_CSM_MAX)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "csm: %u cascades, at most %u", s->cascades,
                       GN_CSM_MAX);
    if (s->resolution < 64 || s->resolution > r->vk.props.limits.maxImageDimension2D)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "csm: resolution %u outside 64..%u", s->resolution,
                       r->vk.props.limits.maxImageDimension2D);
    if (s->explicit_splits)
        for (uint32_t i = 0; i < s->cascades; i++)
            if (s->splits[i] <= (i ? s->splits[i - 1] : 0.0f))
                return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                               "csm: split %u (%g m) is not beyond the previous one", i, s->splits[i]);
    gn_vk_image_desc d = {
        .width = s->resolution,
        .height = s->resolution,
        .samples = 1,
        .format = VK_FORMAT_D32_SFLOAT,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
        .name = "sun cascades",
        .layers = s->cascades,
        .array = true,
    };
    gn_result res = gn_vk_image_create(&r->vk, &d, &c->map, err);
    if (!res) res = gn_vk_sampler_compare(&r->vk, false, true, true, "shadow compare", &c->sampler, err);
    /* set 1 (the material) is read by the alpha-tested casters' pipeline only */
    VkDescriptorSetLayout sets[2] = {r->pipes.frame_layout, r->pipes.material_layout};
    if (!res) res = gn_vk_pipeline_layout(&r->vk, sets, 2, 64, "csm", &c->layout, err);
    if (!res) res = gn_caster_pipelines(r, c->layout, "csm", &c->pipeline, &c->mask_pipeline, err);
    const gn_vk_binding b[GN_BIND_CSM_COUNT] = {
        [GN_BIND_CSM_MAP] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS}};
    if (!res)
        res = gn_vk_set_layout(&r->vk, b, GN_BIND_CSM_COUNT, "set 2: sun (csm)", &c->receiver_layout, err);
    if (!res) res = gn_vk_descriptor_pool(&r->vk, 1, "csm receiver", &c->pool, err);
    if (!res)
        res = gn_vk_alloc_set(&r->vk, c->pool, c->receiver_layout, "set 2: sun (csm)", &c->receiver, err);
    if (!res) {
        gn_vk_write w = gn_write_sampled(GN_BIND_CSM_MAP, &c->map, c->sampler);
        gn_vk_write_set(&r->vk, c->receiver, &w, 1);
    }
    return res;
}

static void release(gn_renderer *r, void *self)
{
    gn_csm_gpu *c = self;
    gn_vk_image_release(&r->vk, &c->map);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->mask_pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)c->layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)c->sampler);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)c->receiver_layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)c->pool);
}

/* Cascades fitted to the old aspect ratio would be reused by the schedule: a resize is a cut,
 * like a camera jump, and every cascade renders again on the next frame. */
static gn_result resize(gn_renderer *r, void *self, gn_error *err)
{
    (void)r, (void)err;
    gn_csm_gpu *c = self;
    memset(c->rendered, 0, sizeof c->rendered);
    return GN_OK;
}

/* Cascades: their matrices for this camera and sun, which are due (the staggered schedule;
 * a layer never rendered is always due), each due one's casters culled against its box, and
 * the matrices every layer was rendered with into the frame constants, so that a stale
 * cascade is never read with a newer matrix. */
static gn_result plan(gn_renderer *r, void *self, const gn_scene *s, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    gn_csm_gpu *c = self;
    const gn_csm_settings *cs = &c->settings;
    c->due_count = 0;
    bool on = in->shadows == GN_SHADOWS_CSM && in->key.illuminance > 0.0f;
    g->csm[0] = 0.0f;
    if (!on) return GN_OK;

    gn_csm_settings per_frame = *cs;
    per_frame.near_plane = in->near_plane;
    gn_csm_compute(&per_frame, in->position, in->view, in->fov_y, in->aspect, in->key.direction, c->next);
    gn_frame_stats *rec = gn_frame_record(r);
    for (uint32_t i = 0; i < cs->cascades; i++) {
        /* due: never rendered, its turn in the schedule, or its old map no longer covers
         * the slice (2 texels spare for the 3x3 filter) */
        bool due =
            !c->rendered[i] || gn_csm_due(cs, i, c->counter) ||
            !gn_csm_covers(&c->cascades[i], &c->next[i], in->position, in->view, in->fov_y, in->aspect, 2.0f);
        if (!due) continue;
        /* casters: every instance whose sphere reaches the cascade's box and is big enough, on
         * the GPU with the camera when it culls there, else here (the same test) */
        gn_frustum box;
        gn_csm_caster_frustum(&c->next[i], &box);
        float min_diameter = cs->min_caster_texels * c->next[i].texel;
        bool on_gpu;
        gn_result res = gn_cull_add_view(r, &box, min_diameter, c->next[i].texel, GN_CULL_TAG_CASCADE + i,
                                         &c->draws[i], &on_gpu, err);
        if (!res && !on_gpu) {
            uint32_t n = 0;
            for (uint32_t k = 0; k < s->instance_count; k++)
                if (GN_DRAW_CASTS(r->plan.items[k].pipeline) &&
                    gn_csm_caster_in(&box, min_diameter, r->plan.items[k].sphere))
                    r->plan.subset[n++] = r->plan.items[k];
            gn_draw_list_build(r->plan.subset, n, NULL, &r->plan.shadow_list);
            res = gn_plan_write(r, s, &r->plan.shadow_list, &c->draws[i], err);
            rec->shadow_casters += c->draws[i].instance_count; /* on the GPU: its counts */
        }
        if (res) return res;
        c->due[c->due_count++] = i;
        c->cascades[i] = c->next[i];
        c->rendered[i] = true;
    }
    rec->shadow_updates = c->due_count;
    c->counter++;
    g->csm[0] = (float)cs->cascades;
    g->csm[1] = cs->shadow_distance;
    g->csm[2] = c->normal_offset_texels;
    g->csm[3] = cs->shadow_distance * 0.9f; /* the last tenth fades out */
    for (uint32_t i = 0; i < cs->cascades; i++) {
        /* the matrix each layer holds; the selection bands follow this frame's splits,
         * which do not depend on the camera's pose */
        memcpy(g->cascade_view_proj[i], c->cascades[i].view_proj, sizeof g->cascade_view_proj[i]);
        g->cascade[i][0] = c->next[i].far_depth;
        g->cascade[i][1] = c->next[i].blend_end;
        g->cascade[i][2] = c->cascades[i].texel;
        g->cascade[i][3] = 0.0f;
    }
    return GN_OK;
}

static void receiver(gn_renderer *r, void *self, gn_receiver *out)
{
    (void)r;
    gn_csm_gpu *c = self;
    *out = (gn_receiver){.layout = c->receiver_layout, .set = c->receiver, .use_count = 1};
    out->uses[0] = (gn_vk_use){.image = &c->map, .access = GN_ACCESS_SHADER_READ};
}

const gn_feature gn_feature_csm = {.name = "csm",
                                   .size = sizeof(gn_csm_gpu),
                                   .create = create,
                                   .resize = resize,
                                   .plan = plan,
                                   .receiver = receiver,
                                   .release = release};

uint32_t gn_csm_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_csm_gpu *)self)->due_count;
}

uint32_t gn_csm_max_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_csm_gpu *)self)->settings.cascades;
}

uint32_t gn_csm_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_csm_gpu *c = self;
    out[0] = (gn_vk_use){.image = &c->map, .access = GN_ACCESS_DEPTH_WRITE};
    return 1 + gn_scene_uses(r, out + 1);
}

/* The pass's name carries the cascade, not the run: "csm 2" is cascade 2 whatever else is due. */
const char *gn_csm_name(const gn_renderer *r, uint32_t run, char *buf, size_t size)
{
    const gn_csm_gpu *c = gn_feature_state(r, GN_FEATURE_CSM);
    snprintf(buf, size, "csm %u", c->due[run]);
    return buf;
}

gn_pass_work gn_csm_record(gn_renderer *r, void *self, uint32_t run)
{
    gn_vk *vk = &r->vk;
    gn_csm_gpu *c = self;
    uint32_t i = c->due[run];
    /* one layer of the array: a 2D depth target of its own */
    gn_vk_image layer = c->map;
    layer.view = c->map.layer_views[i];
    gn_vk_rendering ri = {
        .depth = {.image = &layer, .clear = true, .clear_value = {1.0f}},
        .width = c->settings.resolution,
        .height = c->settings.resolution,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    gn_vk_cmd_bind_pipeline(vk, false, c->pipeline);
    gn_bind_view_frame(r, c->layout, &c->draws[i]);
    gn_vk_cmd_push(vk, c->layout, 64, c->cascades[i].view_proj);
    gn_pass_state ps = gn_caster_pass_state(c->bias_constant, c->bias_slope);
    uint32_t draws = gn_draw_depth_only(r, &c->draws[i], c->mask_pipeline, c->layout, &ps);
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){draws, c->draws[i].triangles};
}

/* Sun shadows I: cascaded shadow maps. Each cascade due this frame (src/plan.c decides
 * which, and its casters) is rendered depth-only into its layer of one D32 array, from the
 * light's orthographic view around its slice of the camera frustum. The forward pass reads
 * every layer with the matrix it was rendered with (shaders/shadow.glsl). */
#include "renderer.h"

#include <stdio.h>
#include <string.h>

/* Every default of gn_csm_desc, resolved here and nowhere else. */
static void resolve(const gn_csm_desc *d, gn_csm_settings *s, float *normal_offset, float *bias_const,
                    float *bias_slope)
{
    memset(s, 0, sizeof *s);
    s->cascades = d->cascades ? d->cascades : 4;
    s->resolution = d->resolution ? d->resolution : 2048;
    s->near_plane = 0.1f;
    /* the town at scale 1 is ~640 m across: 600 m of view depth shadows all of it from the
     * overview (400 m left its far side unshadowed at sunset: 95.9% agreement, not 99.6%) */
    s->shadow_distance = d->shadow_distance > 0 ? d->shadow_distance : 600.0f;
    /* 0.6, as one shipped engine uses: log enough to give the near cascade ~10 m, uniform
     * enough that the far ones do not stretch over hundreds of metres each */
    s->split_lambda = d->split_lambda > 0.0f ? d->split_lambda : 0.6f;
    for (uint32_t i = 0; i < s->cascades; i++) {
        s->splits[i] = d->splits[i];
        s->explicit_splits |= d->splits[i] > 0.0f;
    }
    if (s->explicit_splits) s->shadow_distance = s->splits[s->cascades - 1]; /* the last split ends shadows */
    s->overlap = d->overlap > 0 ? d->overlap : 0.1f;
    /* near cascades every frame, the third every second, the rest every fourth frame */
    static const uint32_t periods[GN_CSM_MAX] = {1, 1, 2, 4, 4, 4, 4, 4};
    for (uint32_t i = 0; i < GN_CSM_MAX; i++)
        s->update_period[i] = d->update_period[i] ? d->update_period[i] : periods[i];
    s->pivot_grid = d->pivot_grid > 0 ? d->pivot_grid : 4096.0f;
    s->min_caster_texels = d->min_caster_texels > 0 ? d->min_caster_texels : 3.0f;
    s->caster_extension = d->caster_extension > 0 ? d->caster_extension : 1000.0f;
    *normal_offset = d->normal_offset_texels > 0 ? d->normal_offset_texels : 1.5f;
    *bias_const = d->depth_bias_constant > 0 ? d->depth_bias_constant : 1.0f;
    *bias_slope = d->depth_bias_slope > 0 ? d->depth_bias_slope : 1.5f;
}

gn_result gn_csm_create(gn_renderer *r, const gn_csm_desc *desc, gn_error *err)
{
    gn_csm_gpu *c = &r->csm;
    gn_csm_desc zero = {0};
    float bias_const, bias_slope;
    resolve(desc ? desc : &zero, &c->settings, &c->normal_offset_texels, &bias_const, &bias_slope);
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
    if (!res) {
        gn_vk_graphics_desc g = {
            .vert = "csm.vert",
            .layout = c->layout,
            .vertex_input = true,
            .attributes = 1u << 0, /* positions only */
            .depth_format = VK_FORMAT_D32_SFLOAT,
            .samples = 1,
            .depth_compare = VK_COMPARE_OP_LESS, /* depth 0 is nearest the sun */
            .depth_write = true,
            .cull = VK_CULL_MODE_NONE, /* thin and open casters (fences, leaves) cast from both sides */
            .name = "csm casters",
            /* casters in front of the slice's near plane still cast: depth clamp pancakes
             * them onto it (the caster range also reaches caster_extension towards the sun) */
            .depth_clamp = true,
            .bias_constant = bias_const,
            .bias_slope = bias_slope,
        };
        res = gn_vk_graphics_pipeline(&r->vk, &g, &c->pipeline, err);
        /* alpha-tested casters: their uvs and a fragment shader that discards by alpha */
        g.vert = "shadow_mask.vert";
        g.frag = "mask.frag";
        g.attributes = 1u << 0 | 1u << 3; /* positions and uvs */
        g.name = "csm casters, alpha-tested";
        if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &c->mask_pipeline, err);
    }
    return res;
}

void gn_csm_release(gn_renderer *r)
{
    gn_csm_gpu *c = &r->csm;
    gn_vk_image_release(&r->vk, &c->map);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->mask_pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)c->layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)c->sampler);
    memset(c, 0, sizeof *c);
}

void gn_pass_csm(gn_renderer *r)
{
    gn_vk *vk = &r->vk;
    gn_csm_gpu *c = &r->csm;
    for (uint32_t k = 0; k < c->due_count; k++) {
        uint32_t i = c->due[k];
        gn_vk_use uses[] = {
            {.image = &c->map, .access = GN_ACCESS_DEPTH_WRITE},
            {.buffer = &r->scene.vertices, .access = GN_ACCESS_VERTEX_INPUT},
            {.buffer = &r->scene.indices, .access = GN_ACCESS_VERTEX_INPUT},
            {.buffer = &r->scene.instances, .access = GN_ACCESS_SHADER_READ},
            {.buffer = &r->scene.materials, .access = GN_ACCESS_SHADER_READ},
        };
        char name[32];
        snprintf(name, sizeof name, "csm %u", i);
        uint32_t pass = gn_vk_pass_begin(vk, name, uses, sizeof uses / sizeof uses[0]);
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
        uint32_t dyn[2] = {(uint32_t)r->plan.frame_offset, (uint32_t)c->draws[i].visible_offset};
        gn_vk_cmd_bind_sets(vk, false, c->layout, 0, 1, &r->pipes.frame_set, 2, dyn);
        gn_vk_cmd_push(vk, c->layout, 64, c->cascades[i].view_proj);
        uint32_t draws = gn_draw_depth_only(r, &c->draws[i], c->mask_pipeline, c->layout);
        gn_vk_cmd_end_rendering(vk);
        gn_vk_pass_end(vk, pass, draws, c->draws[i].triangles);
    }
}

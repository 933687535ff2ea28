/* Shadowed local lights: the nearest lights that cast shadows (src/decide/light_shadows.c
 * chooses them) get layers of one D32 array — a spot one, a point light six — each rendered
 * from the light with its own frustum culling of casters, through the sun cascades' caster
 * pipeline (slope-scaled bias, depth clamp). The forward pass reads them with 4-tap hardware
 * PCF (shaders/light_shadow.glsl); the other lights light unshadowed, and are counted. */
#include "base/alloc.h"
#include "passes/cull.h"
#include "passes/lights.h"

#include <stdlib.h>
#include <string.h>

gn_result gn_light_shadows_create(gn_renderer *r, gn_lights_gpu *l, const gn_renderer_desc *rd, gn_error *err)
{
    if (l->s.max_layers > r->vk.props.limits.maxImageArrayLayers)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "lights: %u shadowed lights need %u layers, the device has %u", l->s.max_shadowed,
                       l->s.max_layers, r->vk.props.limits.maxImageArrayLayers);
    gn_vk_image_desc d = {
        .width = l->s.shadow_resolution,
        .height = l->s.shadow_resolution,
        .samples = 1,
        .format = VK_FORMAT_D32_SFLOAT,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
        .name = "light shadow layers",
        .layers = l->s.max_layers,
        .array = true,
    };
    gn_result res = gn_vk_image_create(&r->vk, &d, &l->shadow_map, err);
    gn_vk_buffer_desc b = {.size = (VkDeviceSize)l->s.max_layers * 16 * sizeof(float),
                           .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .name = "light shadow matrices"};
    if (!res) res = gn_vk_buffer_create(&r->vk, &b, &l->shadow_matrices, err);
    l->chosen = gn_calloc(l->s.max_shadowed, sizeof *l->chosen);
    l->layer_vp = gn_calloc((size_t)l->s.max_layers * 16, sizeof *l->layer_vp);
    l->layer_draws = gn_calloc(l->s.max_layers, sizeof *l->layer_draws);
    if (!res && (!l->chosen || !l->layer_vp || !l->layer_draws))
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u shadowed lights", l->s.max_shadowed);
    if (!res)
        res =
            gn_vk_sampler_compare(&r->vk, false, true, true, "light shadow compare", &l->shadow_sampler, err);
    /* the casters: the sun cascades' bias (slope-scaled, depth clamp), in pipelines of their own */
    VkDescriptorSetLayout sets[2] = {r->pipes.frame_layout, r->pipes.material_layout};
    if (!res) res = gn_vk_pipeline_layout(&r->vk, sets, 2, 64, "light shadows", &l->caster_layout, err);
    float bias_constant, bias_slope;
    gn_csm_caster_bias(&rd->csm, &bias_constant, &bias_slope);
    l->caster_state = gn_caster_pass_state(bias_constant, bias_slope);
    if (!res)
        res = gn_caster_pipelines(r, l->caster_layout, "light shadow", &l->caster_pipeline,
                                  &l->caster_mask_pipeline, err);
    return res;
}

void gn_light_shadows_release(gn_renderer *r, gn_lights_gpu *l)
{
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)l->shadow_sampler);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)l->caster_pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)l->caster_mask_pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)l->caster_layout);
    gn_vk_image_release(&r->vk, &l->shadow_map);
    gn_vk_buffer_release(&r->vk, &l->shadow_matrices);
    free(l->chosen);
    free(l->layer_vp);
    free(l->layer_draws);
    free(l->layer_of);
    free(l->candidate_scratch);
    l->candidate_scratch = NULL;
    l->chosen = NULL, l->layer_vp = NULL, l->layer_draws = NULL, l->layer_of = NULL;
}

gn_result gn_light_shadows_plan(gn_renderer *r, gn_lights_gpu *l, const gn_scene *s, const gn_frustum *camera,
                                gn_error *err)
{
    uint32_t n = gn_scene_light_count(s);
    if (n > l->layer_of_capacity) {
        int32_t *p = gn_realloc(l->layer_of, n * sizeof *p);
        gn_light_shadow_candidate *c = p ? gn_realloc(l->candidate_scratch, n * sizeof *c) : NULL;
        if (!p || !c) {
            if (p) l->layer_of = p; /* keep what realloc moved; the capacity stays the old one */
            return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u lights' layers", n);
        }
        l->candidate_scratch = c;
        for (uint32_t i = l->layer_of_capacity; i < n; i++) p[i] = -1;
        l->layer_of = p;
        l->layer_of_capacity = n;
    }
    const float *cam = r->in.position;
    l->chosen_count =
        gn_light_shadows_choose(s->lights, n, r->in.night_level, cam, camera, l->s.max_shadowed,
                                l->s.max_layers, l->chosen, &l->candidates, l->candidate_scratch);
    /* which light holds which layer; a change re-uploads the lights (gn_lights_sync) */
    for (uint32_t i = 0; i < n; i++) {
        int32_t layer = -1;
        for (uint32_t k = 0; k < l->chosen_count; k++)
            if (l->chosen[k].light == i) layer = (int32_t)l->chosen[k].first_layer;
        if (l->layer_of[i] != layer) l->layers_changed = true;
        l->layer_of[i] = layer;
    }
    l->layers_used = 0;
    for (uint32_t k = 0; k < l->chosen_count; k++) {
        const gn_light_shadow *c = &l->chosen[k];
        for (uint32_t f = 0; f < c->layer_count; f++) {
            uint32_t layer = c->first_layer + f;
            float *vp = &l->layer_vp[(size_t)layer * 16];
            gn_light_shadow_matrix(&s->lights[c->light], f, l->s.shadow_resolution, vp);
            gn_frustum fr;
            gn_frustum_from_view_proj(vp, &fr);
            /* its casters on the GPU with the camera when it culls there, else here */
            bool on_gpu;
            gn_result res = gn_cull_add_view(r, &fr, 0.0f, 0.0f, GN_CULL_TAG_LIGHTS, &l->layer_draws[layer],
                                             &on_gpu, err);
            if (!res && !on_gpu) {
                uint32_t m = 0;
                for (uint32_t i = 0; i < s->instance_count; i++)
                    if (GN_DRAW_CASTS(r->plan.items[i].pipeline) &&
                        gn_frustum_test_sphere(&fr, r->plan.items[i].sphere, r->plan.items[i].sphere[3]))
                        r->plan.subset[m++] = r->plan.items[i];
                gn_draw_list_build(r->plan.subset, m, NULL, &r->plan.shadow_list);
                res = gn_plan_write(r, s, &r->plan.shadow_list, &l->layer_draws[layer], err);
            }
            if (res) return res;
        }
        l->layers_used += c->layer_count;
    }
    if (l->layers_used)
        return gn_vk_upload_buffer(&r->vk, &l->shadow_matrices, 0, l->layer_vp,
                                   (VkDeviceSize)l->layers_used * 16 * sizeof(float), err);
    return GN_OK;
}

uint32_t gn_light_shadows_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_lights_gpu *)self)->layers_used ? 1 : 0;
}

uint32_t gn_light_shadows_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_lights_gpu *l = self;
    out[0] = (gn_vk_use){.image = &l->shadow_map, .access = GN_ACCESS_DEPTH_WRITE};
    return 1 + gn_scene_uses(r, out + 1);
}

gn_pass_work gn_light_shadows_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_vk *vk = &r->vk;
    gn_lights_gpu *l = self;
    gn_pass_work w = {0, 0};
    for (uint32_t layer = 0; layer < l->layers_used; layer++) {
        gn_vk_image target = l->shadow_map;
        target.view = l->shadow_map.layer_views[layer];
        gn_vk_rendering ri = {
            .depth = {.image = &target, .clear = true, .clear_value = {1.0f}},
            .width = l->s.shadow_resolution,
            .height = l->s.shadow_resolution,
        };
        gn_vk_cmd_begin_rendering(vk, &ri);
        gn_vk_cmd_bind_pipeline(vk, false, l->caster_pipeline);
        gn_bind_view_frame(r, l->caster_layout, &l->layer_draws[layer]);
        gn_vk_cmd_push(vk, l->caster_layout, 64, &l->layer_vp[(size_t)layer * 16]);
        w.draws += gn_draw_depth_only(r, &l->layer_draws[layer], l->caster_mask_pipeline, l->caster_layout,
                                      &l->caster_state);
        w.triangles += l->layer_draws[layer].triangles;
        gn_vk_cmd_end_rendering(vk);
    }
    return w;
}

/* Local lights: the feature's state, for it and its tests. */
#ifndef GN_PASSES_LIGHTS_H
#define GN_PASSES_LIGHTS_H

#include "decide/light_shadows.h"
#include "decide/lights.h"
#include "passes/passes.h"

/* Local lights (a feature): the froxel grid (src/passes/clusters.c) and the shadowed lights'
 * layers (src/passes/light_shadows.c). */
typedef struct gn_lights_gpu {
    gn_lights_settings s; /* the froxel grid and the shadow budget, resolved from gn_lights_desc */
    gn_vk_buffer lights, lists, overflow;
    uint32_t capacity, count; /* lights the buffer holds / the frame has */
    gn_gpu_light *packed;     /* CPU staging of the packed lights */
    uint32_t packed_capacity;
    gn_scene_stamp source; /* the scene (and its light generation) the buffer holds */
    bool set_written;
    bool binning; /* the froxel lists are made this frame */
    VkDescriptorSetLayout layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline pipeline;
    /* the forward pass's set 3: lights, lists, shadow layers and their matrices */
    VkDescriptorSetLayout receiver_layout;
    VkDescriptorSet receiver;
    /* the shadowed lights' casters (their own pipelines: the sun's bias is the sun's) */
    VkPipelineLayout caster_layout;
    VkPipeline caster_pipeline, caster_mask_pipeline;
    gn_pass_state caster_state; /* two-sided, the sun cascades' slope-scaled bias */
    /* shadowed lights (src/passes/light_shadows.c) */
    gn_vk_image shadow_map;       /* D32 array: a layer a spot, six a point light */
    VkSampler shadow_sampler;     /* comparison, linear: 4-tap hardware PCF */
    gn_vk_buffer shadow_matrices; /* mat4 a layer, read by the forward pass */
    gn_light_shadow *chosen;      /* this frame's shadowed lights */
    uint32_t chosen_count, candidates, layers_used;
    float *layer_vp;                              /* 16 floats a layer */
    gn_view_draws *layer_draws;                   /* casters of each layer, in the ring */
    int32_t *layer_of;                            /* per light: its first layer this frame, or -1 */
    bool layers_changed;                          /* layer_of differs from what the light buffer holds */
    gn_light_shadow_candidate *candidate_scratch; /* layer_of_capacity entries: no allocation a frame */
    uint32_t layer_of_capacity;
} gn_lights_gpu;

static inline gn_lights_gpu *gn_lights_of(const gn_renderer *r)
{
    return gn_feature_state(r, GN_FEATURE_LIGHTS);
}

/* light_shadows.c, the feature's shadow half */
gn_result gn_light_shadows_create(gn_renderer *r, gn_lights_gpu *l, const gn_renderer_desc *rd,
                                  gn_error *err);
void gn_light_shadows_release(gn_renderer *r, gn_lights_gpu *l);
/* Chooses this frame's shadowed lights, culls each layer's casters into the ring and marks the
 * lights' layers in the light buffer. */
gn_result gn_light_shadows_plan(gn_renderer *r, gn_lights_gpu *l, const gn_scene *s, const gn_frustum *camera,
                                gn_error *err);
/* Tests: the froxel lists of the last frame (words >= x*y*z*(max_lights+1)). */
gn_result gn_lights_read_lists(gn_renderer *r, uint32_t *out, size_t words, gn_error *err);

#endif

/* The features (the files of src/passes) and their passes, for the two tables that name them: the
 * features' (src/features.c) and the frame's passes (src/frame.c). Nothing else calls these. */
#ifndef GN_PASSES_H
#define GN_PASSES_H

#include "renderer.h"

/* ---- a compute pass over the output, shared by the tone map and the debug views ---------- */
typedef struct gn_screen_pass {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set; /* its one set; the feature writes it */
    VkPipeline pipeline;
} gn_screen_pass;
gn_result gn_screen_pass_create(gn_renderer *r, gn_screen_pass *p, const char *shader, const char *name,
                                const gn_vk_binding *bindings, uint32_t count, gn_error *err);
void gn_screen_pass_release(gn_renderer *r, gn_screen_pass *p);
void gn_screen_pass_dispatch(gn_renderer *r, const gn_screen_pass *p); /* 8x8 tiles, set 0 at the frame */

/* ---- the features ------------------------------------------------------------------------ */
extern const gn_feature gn_feature_skin, gn_feature_cull, gn_feature_depth, gn_feature_csm, gn_feature_vsm,
    gn_feature_lights, gn_feature_ao, gn_feature_atmosphere, gn_feature_ibl, gn_feature_volumetric,
    gn_feature_forward, gn_feature_decals, gn_feature_particles, gn_feature_oit, gn_feature_exposure,
    gn_feature_bloom, gn_feature_dof, gn_feature_tonemap, gn_feature_depth_view, gn_feature_occlusion_view,
    gn_feature_present, gn_feature_noop;

/* The forward family's pipeline layout (set 0 the frame, 1 the material, 2 the sun technique's
 * receiver, 3 the local lights', 4 the screen passes', 5 the sky's light, 6 volumetric fog's),
 * shared with volumetric fog's inject pass, which shades the air as the forward pass shades
 * surfaces. technique: gn_forward_technique of the frame's shadows. */
#define GN_FORWARD_SETS 7
#define GN_FORWARD_TECHNIQUES 3 /* none, csm, vsm: the values of gn_forward_technique */
uint32_t gn_forward_technique(gn_shadows shadows);
void gn_forward_receivers(gn_renderer *r, uint32_t technique, gn_receiver rc[GN_FORWARD_SETS - 2]);
gn_result gn_forward_layout(gn_renderer *r, uint32_t technique, const char *name, VkPipelineLayout *out,
                            gn_error *err);
void gn_forward_bind_receivers(gn_renderer *r, uint32_t technique, VkPipelineLayout layout); /* sets 2..6 */
uint32_t gn_forward_receiver_uses(gn_renderer *r, uint32_t technique, gn_vk_use *out);
/* Whether blended material m draws with the forward pass's Quake 3 dual-source pipeline this frame
 * (then weighted OIT leaves it to the sorted pass). */
bool gn_forward_q3_dual(const gn_renderer *r, uint32_t material);
/* Whether this frame's blended surfaces go through weighted blended OIT (src/passes/oit.c). */
bool gn_oit_on(const gn_renderer *r);

/* The depth prepass's render state (depth_prepass.c), which the forward pass's opaque draws
 * share: they test EQUAL against its depth, so they must cull and bias as it did. */
extern const gn_pass_state gn_depth_pass_state;

/* The sun cascades' caster bias (gn_csm_desc resolved), which the local lights' casters share. */
void gn_csm_caster_bias(const gn_csm_desc *d, float *constant, float *slope);
/* Test-only: the noop feature records `runs` empty passes a frame; the query pools grow to hold
 * `reserve` of them beside the rest of the table. */
gn_result gn_noop_set(gn_renderer *r, uint32_t runs, uint32_t reserve, gn_error *err);

/* ---- the passes: for each, [runs,] uses and record (gn_pass in src/feature.h) ------------- */
#define GN_PASS_FNS(p)                                                                                       \
    uint32_t p##_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out);                             \
    gn_pass_work p##_record(gn_renderer *r, void *self, uint32_t run)
#define GN_PASS_RUNS(p) uint32_t p##_runs(const gn_renderer *r, const void *self)

GN_PASS_RUNS(gn_skin); /* with rigs in the scene */
GN_PASS_FNS(gn_skin);
GN_PASS_RUNS(gn_cull);
/* The views' lists and commands when the GPU culled them (gn_scene_uses declares them). */
uint32_t gn_cull_list_uses(gn_renderer *r, gn_vk_use *out);
GN_PASS_FNS(gn_cull);
GN_PASS_RUNS(gn_cull_occlusion); /* the HZB's and the second cull's runs */
GN_PASS_FNS(gn_cull_occlusion);
GN_PASS_FNS(gn_hzb);
GN_PASS_FNS(gn_depth_prepass);
GN_PASS_RUNS(gn_depth_prepass2);
GN_PASS_FNS(gn_depth_prepass2);
GN_PASS_RUNS(gn_csm);
GN_PASS_FNS(gn_csm);
uint32_t gn_csm_max_runs(const gn_renderer *r, const void *self);
const char *gn_csm_name(const gn_renderer *r, uint32_t run, char *buf, size_t size);
GN_PASS_RUNS(gn_vsm);
GN_PASS_FNS(gn_vsm_mark);
GN_PASS_FNS(gn_vsm_alloc);
GN_PASS_FNS(gn_vsm_bin);
GN_PASS_FNS(gn_vsm_pages);
GN_PASS_RUNS(gn_vsm_occlusion); /* the casters culled against the pages' depth: these four */
GN_PASS_FNS(gn_vsm_hzb_prior);
GN_PASS_FNS(gn_vsm_hzb);
GN_PASS_FNS(gn_vsm_occlusion);
GN_PASS_RUNS(gn_vsm_pages2);
GN_PASS_FNS(gn_vsm_pages2);
GN_PASS_FNS(gn_vsm_copy);
GN_PASS_RUNS(gn_vsm_resolve);
GN_PASS_FNS(gn_vsm_resolve);
GN_PASS_RUNS(gn_vsm_atlas_view);
GN_PASS_FNS(gn_vsm_atlas_view);
GN_PASS_RUNS(gn_light_shadows);
GN_PASS_FNS(gn_light_shadows);
GN_PASS_RUNS(gn_clusters);
GN_PASS_FNS(gn_clusters);
GN_PASS_RUNS(gn_ao); /* the Z pyramid's and the estimate's */
GN_PASS_FNS(gn_ao_z);
GN_PASS_FNS(gn_ao);
GN_PASS_RUNS(gn_ao_blur);
GN_PASS_FNS(gn_ao_blur);
GN_PASS_RUNS(gn_atmosphere_luts); /* once: the medium's tables */
GN_PASS_FNS(gn_atmosphere_luts);
GN_PASS_RUNS(gn_atmosphere); /* the sky view and the aerial volume, when their inputs changed */
GN_PASS_FNS(gn_atmosphere);
GN_PASS_RUNS(gn_ibl_dfg); /* once: the first submitted frame makes the table */
GN_PASS_FNS(gn_ibl_dfg);
GN_PASS_RUNS(gn_ibl_env); /* when the sky changed */
GN_PASS_FNS(gn_ibl_env);
GN_PASS_RUNS(gn_volumetric); /* with a fog and volumetric fog on */
GN_PASS_FNS(gn_volumetric_inject);
GN_PASS_FNS(gn_volumetric_integrate);
GN_PASS_FNS(gn_forward);
GN_PASS_RUNS(gn_decals); /* with decals in the view */
GN_PASS_FNS(gn_decals);
GN_PASS_RUNS(gn_particles); /* with emitters in the scene, in the final image */
GN_PASS_FNS(gn_particles_simulate);
GN_PASS_FNS(gn_particles_sort);
GN_PASS_FNS(gn_particles_draw);
/* Test-only: after the frames submitted so far (waits for the GPU), the alive particles (at most
 * cap, in the alive list's order) and the blended ones in their drawn order, back to front. */
gn_result gn_particles_read(gn_renderer *r, gn_gpu_particle *alive, uint32_t cap, uint32_t *alive_count,
                            gn_gpu_particle *sorted, uint32_t *sorted_count, gn_error *err);
GN_PASS_RUNS(gn_scene_copy); /* with blended surfaces in view */
GN_PASS_FNS(gn_scene_copy);
GN_PASS_RUNS(gn_forward_blended); /* sorted, or with OIT the dual-source Quake 3 shaders */
GN_PASS_FNS(gn_forward_blended);
GN_PASS_RUNS(gn_oit); /* --transparency oit with blended surfaces: accumulate and composite */
GN_PASS_FNS(gn_oit_accumulate);
GN_PASS_FNS(gn_oit_composite);
GN_PASS_RUNS(gn_dof);
GN_PASS_FNS(gn_dof);
GN_PASS_RUNS(gn_exposure); /* auto, or the luminance view */
GN_PASS_FNS(gn_exposure_histogram);
GN_PASS_FNS(gn_exposure_adapt);
GN_PASS_RUNS(gn_bloom);
GN_PASS_FNS(gn_bloom_down);
GN_PASS_RUNS(gn_bloom_up);
GN_PASS_FNS(gn_bloom_up);
uint32_t gn_bloom_max_runs(const gn_renderer *r, const void *self);
const char *gn_bloom_up_name(const gn_renderer *r, uint32_t run, char *buf, size_t size);
GN_PASS_FNS(gn_tonemap);
GN_PASS_RUNS(gn_depth_view);
GN_PASS_FNS(gn_depth_view);
GN_PASS_RUNS(gn_occlusion_view);
GN_PASS_FNS(gn_occlusion_view);
GN_PASS_RUNS(gn_overlay);
GN_PASS_FNS(gn_overlay);
GN_PASS_RUNS(gn_present);
GN_PASS_FNS(gn_present);
GN_PASS_RUNS(gn_noop);
GN_PASS_FNS(gn_noop);
uint32_t gn_noop_max_runs(const gn_renderer *r, const void *self);

#endif

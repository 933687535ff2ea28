/* The renderer's private state: the Vulkan context, render targets, the uploaded scene,
 * the passes, and the CPU decisions of the frame being built. */
#ifndef GN_RENDERER_H
#define GN_RENDERER_H

#include "decide/csm.h"
#include "decide/drawlist.h"
#include "decide/frustum.h"
#include "decide/light_shadows.h"
#include "decide/vsm.h"
#include "scene/scene.h"
#include "vk/vk.h"

/* The scene as the GPU holds it (src/gpu_scene.c). */
typedef struct gn_gpu_scene {
    bool uploaded;           /* a scene is on the GPU */
    uint64_t source_uid;     /* gn_scene.uid: which scene it is (an address can be reused) */
    uint32_t instance_count; /* its instances when uploaded (the visible-id list's size) */
    uint32_t edit_count;     /* gn_scene.edit_count the instance buffer has caught up with */
    uint32_t generation, dynamic_generation;
    gn_vk_buffer vertices, indices, instances, materials;
    gn_vk_image *textures;
    uint32_t texture_count;
    gn_vk_image white, flat_normal, black_light; /* bound where a material has no texture */
    VkDescriptorPool pool;
    VkDescriptorSet *material_sets;
    uint32_t material_count;
    uint32_t *dynamic_ids; /* instances whose transforms are re-uploaded when they move */
    uint32_t dynamic_count;
} gn_gpu_scene;

/* Render targets (src/targets.c). With msaa 1 the resolved targets alias the others. */
typedef struct gn_targets {
    gn_vk_image depth_ms, depth_resolved, hdr_ms, hdr_resolved, ldr;
    gn_vk_image *depth, *hdr; /* what later passes sample: resolved, or the single-sample one */
    gn_vk_image vsm_mask[2];  /* VSM RESOLVE's words (R32_UINT): this frame's and the previous one's */
    gn_vk_buffer readback;
} gn_targets;

/* One view's draws as written into the ring: visible instance ids and one indirect command
 * per group (src/plan.c). */
typedef struct gn_view_draws {
    VkDeviceSize visible_offset, indirect_offset;
    uint32_t group_count, instance_count;
    uint64_t triangles;
    /* Depth-only passes: groups [0, opaque_groups) draw in one call; alpha-tested batches
     * mask_batches[mask_first .. + mask_count) of the frame plan bind their material each;
     * blended groups (the rest) draw in the forward pass only. */
    uint32_t opaque_groups, mask_first, mask_count;
} gn_view_draws;

/* What the CPU decided for this frame (src/frame.c, src/plan.c). */
typedef struct gn_frame_plan {
    gn_draw_list list;           /* the camera's, kept for its material batches */
    bool list_submitted;         /* list is the last submitted frame's (gn_get_visible_instances) */
    gn_draw_list shadow_list;    /* scratch for one cascade at a time (its draws are in the ring) */
    gn_draw_batch *mask_batches; /* every view's alpha-tested batches this frame (gn_view_draws) */
    uint32_t mask_batch_count, mask_batch_cap;
    gn_cull_item *items;
    gn_cull_item *subset; /* scratch: the items one shadow cascade (or a world's PVS) keeps */
    uint8_t *keep;        /* scratch: per instance, 1 when the world's visibility keeps it */
    uint32_t capacity;
    VkDeviceSize frame_offset;
    gn_view_draws camera;
} gn_frame_plan;

/* This frame's camera as decided (src/frame.c), for the passes that derive views from it. */
typedef struct gn_camera_state {
    float view[16]; /* world -> view */
    float proj[16]; /* view -> clip (reversed-Z, infinite) */
    float near_plane;
    float fov_y, aspect; /* radians; width / height */
} gn_camera_state;

/* The sun's cascaded shadow maps (src/passes/csm.c). */
typedef struct gn_csm_gpu {
    gn_csm_settings settings; /* resolved from gn_csm_desc */
    float normal_offset_texels;
    float bias_constant, bias_slope;    /* depth bias of its casters' pipelines (VSM's too) */
    gn_vk_image map;                    /* D32 array, a layer per cascade */
    VkPipeline pipeline, mask_pipeline; /* opaque and alpha-tested casters (local lights' too) */
    VkPipelineLayout layout;
    VkSampler sampler;                   /* linear, with comparison: hardware PCF */
    gn_csm_cascade cascades[GN_CSM_MAX]; /* as each layer was last rendered */
    bool rendered[GN_CSM_MAX];
    uint64_t counter; /* frames rendered with CSM: the schedule's clock */
    /* this frame */
    uint32_t due_count, due[GN_CSM_MAX];
    gn_csm_cascade next[GN_CSM_MAX]; /* the matrices of the cascades due now */
    gn_view_draws draws[GN_CSM_MAX];
} gn_csm_gpu;

typedef struct gn_pipelines {
    VkDescriptorSetLayout frame_layout, material_layout, tonemap_layout;
    VkPipelineLayout scene_layout, tonemap_layout_p;
    VkDescriptorPool pool;
    VkDescriptorSet frame_set, tonemap_set;
    VkSampler repeat, clamp, clamp_linear;
    VkPipeline depth, depth_mask, forward, forward_blend, sky, tonemap;
} gn_pipelines;

/* Sun shadows II: virtual shadow maps (src/passes/vsm.c; the decisions in decide/vsm.h, made
 * on the GPU by MARK, ALLOC and BIN in the frame that uses them). */
typedef struct gn_vsm_gpu {
    gn_vsm_settings s;            /* resolved from gn_vsm_desc */
    gn_vsm_versions versions;     /* the ring of light versions (CPU: the sun is the CPU's) */
    gn_vsm_view view;             /* this frame's light and windows */
    uint32_t frame;               /* ALLOC's clock: frames with VSM */
    uint32_t dyn_capacity;        /* dynamic-layer tiles (after the pool's), at most the budget */
    uint32_t atlas_pages_per_row; /* the pool and the dynamic layer: a square atlas of pages */
    gn_vk_image atlas;            /* D32, the physical pages */
    gn_vk_image staging;          /* D32 array, a 128^2 layer a page rendered this frame */
    gn_vk_buffer table;           /* gn_gpu_vsm_page, levels * N * N: what lookups read */
    gn_vk_buffer versions_buf;    /* 4 vec4 a version slot: rows (world -> light), pivot */
    gn_vk_buffer requests[GN_FRAMES_IN_FLIGHT]; /* MARK's bits, one a frame slot (device-local: MARK's atomics
                                                   stay on the GPU) */
    gn_vk_buffer state;                         /* gn_gpu_vsm_state, levels * N * N: ALLOC's pages */
    gn_vk_buffer pool;                          /* free stack and dynamic page lists (vsm_alloc.comp) */
    gn_vk_buffer render;                        /* header and the pages RENDER draws this frame */
    gn_vk_buffer stats;                         /* gn_gpu_vsm_stats, copied into the frame's counters */
    gn_vk_buffer indirect;                      /* RENDER's tile copy draw (ALLOC writes its count) */
    gn_vk_buffer casters;                       /* gn_gpu_vsm_caster: static ones, then dynamic ones */
    gn_vk_buffer slots;  /* per draw slot (a mesh of a draw group): index count, first index, vertex offset */
    gn_vk_buffer counts; /* BIN's pairs a slot, then its fill cursor */
    gn_vk_buffer commands, pairs; /* an indirect command a slot; the (instance, page) pairs */
    bool initialized;             /* state and pool hold their first contents */
    uint32_t versions_uploaded;   /* newest version id in versions_buf (+1; 0: none) */
    bool active;                  /* this frame uses VSM */
    /* the casters as BIN sees them, rebuilt when the scene changes */
    gn_gpu_vsm_caster *casters_cpu;
    uint32_t caster_count, static_casters, caster_cap;
    uint32_t group_count, group_material[GN_GPU_VSM_MAX_GROUPS]; /* group k > 0: a masked material */
    uint32_t group_first[GN_GPU_VSM_MAX_GROUPS], group_slots[GN_GPU_VSM_MAX_GROUPS]; /* its slots */
    uint32_t slot_count, pair_capacity;                  /* draw slots; pairs the list holds */
    uint32_t dyn_sphere_count, dyn_version, alloc_flags; /* as last given to ALLOC */
    uint64_t source_uid; /* the scene the cache holds (gn_scene.uid), its generation and instances */
    uint32_t source_generation, source_instances;
    uint32_t source_edits;      /* gn_scene.edit_count the pages have caught up with */
    float bias_texels;          /* normal offset */
    uint32_t push[12];          /* ALLOC's push constants this frame */
    VkDeviceSize inputs_offset; /* this frame's invalidation and dynamic spheres in the ring */
    VkDescriptorSetLayout mark_layout, alloc_layout, bin_layout, draw_layout;
    VkPipelineLayout mark_pipeline_layout, alloc_pipeline_layout, bin_pipeline_layout, draw_pipeline_layout;
    VkDescriptorPool set_pool;
    VkDescriptorSet mark_sets[GN_FRAMES_IN_FLIGHT], alloc_sets[GN_FRAMES_IN_FLIGHT], bin_set, draw_set;
    VkPipeline mark_pipeline, alloc_pipeline, bin_pipeline, copy_pipeline, page_pipeline, page_mask_pipeline;
    VkSampler atlas_sampler; /* comparison, linear: hardware 2x2 PCF inside a page */
} gn_vsm_gpu;

/* VSM RESOLVE (src/passes/vsm_resolve.c): the sun's visibility per pixel into
 * targets.vsm_mask[current], accumulated over frames with the other mask as history. */
typedef struct gn_vsm_resolve_gpu {
    VkDescriptorSetLayout layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet sets[2]; /* set k writes mask k and reads mask 1 - k */
    VkPipeline pipeline;
    bool run;         /* RESOLVE runs this frame */
    uint32_t current; /* the mask it writes */
    uint64_t counter; /* frames resolved: the masks' parity and the offsets' phase */
    /* the last frame that ran RESOLVE, for reprojection and the history rules */
    bool have_prev;
    float prev_view_proj[16], prev_camera[3], prev_forward[3];
    const gn_scene *prev_scene;
    uint32_t prev_generation;
    /* A/B for tests: skip RESOLVE (the forward pass looks pages up per fragment, as before it);
     * accept any history (no rejection) */
    bool per_fragment, accept_all;
} gn_vsm_resolve_gpu;

/* Local lights and the froxel grid (src/passes/clusters.c). */
typedef struct gn_lights_gpu {
    uint32_t x, y, z, max_lights; /* the froxel grid, resolved from gn_lights_desc */
    float far_depth;
    gn_vk_buffer lights, lists, overflow;
    uint32_t capacity, count; /* lights the buffer holds / the frame has */
    gn_gpu_light *packed;     /* CPU staging of the packed lights */
    uint32_t packed_capacity;
    uint64_t source_uid; /* the scene the lists were made for (gn_scene.uid) */
    uint32_t generation;
    bool set_written;
    VkDescriptorSetLayout layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline pipeline;
    /* shadowed lights (src/passes/light_shadows.c) */
    uint32_t max_shadowed, shadow_resolution, max_layers;
    gn_vk_image shadow_map;       /* D32 array: a layer a spot, six a point light */
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

/* Presenting to a window (src/passes/present.c, src/vk/swapchain.c). */
typedef struct gn_present_gpu {
    bool created; /* the pipeline and targets below exist (a surface was attached once) */
    gn_vk_swapchain swapchain;
    gn_vk_image composed;                      /* the output with the overlay blended over it */
    gn_vk_buffer overlay[GN_FRAMES_IN_FLIGHT]; /* the frame's overlay, a word a pixel, a slot each */
    VkDescriptorSetLayout layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet sets[GN_FRAMES_IN_FLIGHT];
    VkPipeline pipeline;
} gn_present_gpu;

struct gn_renderer {
    gn_vk vk;
    uint32_t width, height, msaa;
    gn_targets targets;
    gn_pipelines pipes;
    gn_gpu_scene scene;
    gn_frame_plan plan;
    gn_camera_state camera;
    gn_csm_gpu csm;
    gn_vsm_gpu vsm;
    gn_vsm_resolve_gpu vsm_resolve;
    gn_lights_gpu lights;
    gn_present_gpu present;
    bool frame_set_written;
    bool rendered;      /* a frame has been submitted since the targets were made */
    gn_frame_view view; /* camera and sun of the last frame (gn_get_frame_view) */
};

/* gpu_scene.c */
gn_result gn_gpu_scene_sync(gn_renderer *r, const gn_scene *s, gn_error *err);
void gn_gpu_scene_write_frame_set(gn_renderer *r); /* after any buffer it names changed */
void gn_gpu_scene_release(gn_renderer *r);

/* targets.c */
gn_result gn_targets_create(gn_renderer *r, gn_error *err);
void gn_targets_release(gn_renderer *r);

/* passes/setup.c: layouts, samplers and pipelines of every pass */
gn_result gn_pipelines_create(gn_renderer *r, gn_error *err);
void gn_pipelines_write_tonemap_set(gn_renderer *r); /* once the targets and the VSM atlas exist */
/* Descriptor writes many sets share: the frame constants (gn_gpu_frame in the ring, at a
 * dynamic offset) and an image sampled in a shader (shader-read layout). */
gn_vk_write gn_write_frame(const gn_renderer *r, uint32_t binding);
gn_vk_write gn_write_sampled(uint32_t binding, gn_vk_image *image, VkSampler sampler);
void gn_pipelines_release(gn_renderer *r);

/* the passes (src/passes/) */
void gn_pass_depth_prepass(gn_renderer *r);
void gn_pass_forward(gn_renderer *r);
void gn_pass_tonemap(gn_renderer *r);
void gn_pass_csm(gn_renderer *r);
/* passes/scene_draw.c: a view's draws; both return the number of draw calls */
/* A depth-only view: its opaque groups with the pipeline the caller bound, then its
 * alpha-tested batches with mask_pipeline (same layout, whose set 1 is the material), each
 * binding its material. Blended groups are left out. Returns the draw calls recorded. */
uint32_t gn_draw_depth_only(gn_renderer *r, const gn_view_draws *d, VkPipeline mask_pipeline,
                            VkPipelineLayout layout);
/* The list's batches [first, first + count), each binding its material (set 1, push). */
uint32_t gn_draw_materials(gn_renderer *r, const gn_view_draws *d, const gn_draw_list *list, uint32_t first,
                           uint32_t count);

/* passes/vsm.c */
gn_result gn_vsm_create(gn_renderer *r, const gn_vsm_desc *desc, gn_error *err);
void gn_vsm_release(gn_renderer *r);
/* ALLOC and the pages to render from the request mask MARK wrote two frames ago, the casters
 * of each, the page table and light versions uploaded; frame constants filled. */
gn_result gn_plan_vsm(gn_renderer *r, const gn_scene *s, const gn_frame_desc *f, gn_gpu_frame *g,
                      gn_error *err);
void gn_pass_vsm_mark(gn_renderer *r);   /* MARK over the resolved depth into this slot's mask */
void gn_pass_vsm_alloc(gn_renderer *r);  /* ALLOC and BIN: the pages to render and their casters */
void gn_pass_vsm_render(gn_renderer *r); /* the chosen pages into the atlas */
/* The GPU's VSM buffers, for tests: waits for the GPU and copies size bytes from the start.
 * GN_VSM_REQUESTS is the request mask of the frame slot vk.frame_number names. */
typedef enum gn_vsm_buffer {
    GN_VSM_STATE,
    GN_VSM_POOL,
    GN_VSM_RENDER,
    GN_VSM_TABLE,
    GN_VSM_PAIRS,
    GN_VSM_COMMANDS,
    GN_VSM_STATS,
    GN_VSM_REQUESTS
} gn_vsm_buffer;
gn_result gn_vsm_read(gn_renderer *r, gn_vsm_buffer which, void *out, size_t size, gn_error *err);
void gn_vsm_write_mark_sets(gn_renderer *r); /* after the targets change */

/* passes/vsm_resolve.c */
gn_result gn_vsm_resolve_create(gn_renderer *r, gn_error *err); /* after the targets and gn_vsm_create */
void gn_vsm_resolve_release(gn_renderer *r);
void gn_vsm_resolve_write_sets(gn_renderer *r); /* after the targets change */
/* Whether RESOLVE runs, whether history may be used, the previous view-projection and this
 * frame's offset into the frame constants (after gn_plan_vsm). */
void gn_plan_vsm_resolve(gn_renderer *r, const gn_scene *s, gn_gpu_frame *g);
void gn_pass_vsm_resolve(gn_renderer *r); /* the mask, after MARK and the pages, before forward */

/* passes/present.c */
gn_result gn_present_attach(gn_renderer *r, VkSurfaceKHR surface, bool vsync, gn_error *err);
gn_result gn_present_resize(gn_renderer *r, gn_error *err); /* after the targets were remade */
void gn_present_release(gn_renderer *r);
/* Acquires the window's next image and records the output (and overlay) into it; nothing when
 * no surface is attached or the window has no area. */
gn_result gn_pass_present(gn_renderer *r, const uint8_t *overlay, gn_error *err);

/* passes/csm.c */
gn_result gn_csm_create(gn_renderer *r, const gn_csm_desc *desc, gn_error *err);
void gn_csm_release(gn_renderer *r);

/* passes/clusters.c */
gn_result gn_lights_create(gn_renderer *r, const gn_lights_desc *desc, gn_error *err);
void gn_lights_release(gn_renderer *r);
/* Uploads the scene's lights when they changed; *sets_changed when the buffer was replaced. */
gn_result gn_lights_sync(gn_renderer *r, const gn_scene *s, bool *sets_changed, gn_error *err);
/* The froxel grid and light count into the frame constants. */
void gn_lights_frame(const gn_renderer *r, const float proj[16], float near_plane, bool naive,
                     gn_gpu_frame *g);
void gn_pass_clusters(gn_renderer *r);
/* passes/light_shadows.c */
gn_result gn_light_shadows_create(gn_renderer *r, gn_error *err);
void gn_light_shadows_release(gn_renderer *r);
/* Chooses this frame's shadowed lights, culls each layer's casters into the ring and marks the
 * lights' layers in the light buffer. */
gn_result gn_plan_light_shadows(gn_renderer *r, const gn_scene *s, const gn_frustum *camera, gn_error *err);
void gn_pass_light_shadows(gn_renderer *r);
/* Tests: the froxel lists of the last frame (words >= x*y*z*(max_lights+1)). */
gn_result gn_lights_read_lists(gn_renderer *r, uint32_t *out, size_t words, gn_error *err);

/* plan.c: the frame's visibility decisions, written into the ring */
gn_result gn_plan_reserve(gn_frame_plan *p, uint32_t n, gn_error *err);
gn_result gn_plan_write(gn_renderer *r, const gn_scene *s, const gn_draw_list *list, gn_view_draws *out,
                        gn_error *err);
gn_result gn_plan_camera(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs,
                         gn_error *err);
double gn_plan_now_ms(void);
gn_result gn_plan_shadows(gn_renderer *r, const gn_scene *s, const gn_frame_desc *f,
                          const gn_frame_view *view, gn_gpu_frame *g, gn_error *err);
gn_shadows gn_frame_shadows(const gn_frame_desc *f); /* the technique a frame uses: DEFAULT read as VSM */

/* frame.c */
void gn_frame_plan_free(gn_frame_plan *p);
gn_result gn_frame_run(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err);

#endif

/* The renderer's core: the Vulkan context, the render targets, the uploaded scene, the CPU's
 * visibility decisions and the frame's inputs, and the table of features (src/feature.h) whose
 * states it holds but does not know. A feature's state is declared in its own header
 * (src/passes/<feature>.h), which only that feature and its tests include. */
#ifndef GN_RENDERER_H
#define GN_RENDERER_H

#include "decide/drawlist.h"
#include "decide/frustum.h"
#include "feature.h"
#include "scene/scene.h"
#include "scene/stamp.h"
#include "vk/vk.h"

/* The scene as the GPU holds it (src/gpu_scene.c). */
typedef struct gn_gpu_scene {
    bool uploaded;           /* a scene is on the GPU */
    gn_scene_stamp stamp;    /* which scene, and how far its buffers have caught up with it */
    uint32_t instance_count; /* its instances when uploaded (the visible-id list's size) */
    gn_vk_buffer vertices, indices, instances, materials;
    gn_vk_image *textures;
    uint32_t texture_count;
    gn_vk_image white, flat_normal, black_light; /* bound where a material has no texture */
    VkDescriptorPool pool;
    VkDescriptorSet *material_sets;
    uint32_t material_count;
    uint32_t *dynamic_ids; /* instances whose transforms are re-uploaded when they move */
    uint32_t dynamic_count;
    uint32_t probe_generation; /* the reflection probes' choice the instances were packed with */
    gn_vk_buffer stages;       /* Quake 3 stages (gn_gpu_stage), GN_GPU_Q3_STAGES a material */
    gn_vk_buffer deforms;      /* Quake 3 vertex deforms (gn_gpu_deform), one a material */
    uint32_t *deform_ids;      /* the materials that have deforms: evaluated every frame */
    uint32_t deform_count;
    gn_gpu_deform *deform_frame; /* scratch: this frame's deforms of those in view */
    gn_vk_buffer fogs;           /* a Quake 3 map's fog volumes: a uvec4 count, gn_gpu_q3_fog[] */
    uint32_t sky_material;       /* the material the sky pass draws a map's sky with, or UINT32_MAX */
    uint8_t *stage_flags;        /* a byte a material: 1 when a Quake 3 shader's stages draw it */
    uint32_t *material_state;    /* each material's render state (gn_material.state), for the passes
                                    that set raster state per material (scene_draw.c) */
    uint32_t *material_rank;     /* each material's layer among blended surfaces (gn_blend_rank of its
                                    sort: given, or its Quake 3 shader's) */
    uint8_t *stage_listed;       /* a byte a material: scratch for the frame's materials in view */
    gn_vk_image q3_array;        /* every Quake 3 shader's images, a layer a slot, shader after shader */
    bool q3_array_made;
    gn_vk_image white_array; /* one white layer: the slots of every other material */
} gn_gpu_scene;

/* Render targets, named (src/targets.c holds their table: format, usage, samples, when each
 * exists). With msaa 1 the resolved targets alias the multisampled ones. */
typedef enum gn_target_id {
    GN_TARGET_DEPTH_MS,       /* D32, msaa samples: the prepass writes, the forward pass tests */
    GN_TARGET_DEPTH_RESOLVED, /* sample 0 of it (msaa > 1 only) */
    GN_TARGET_HDR_MS,         /* rgba16f colour, msaa samples */
    GN_TARGET_HDR_RESOLVED,   /* its resolve (msaa > 1 only) */
    GN_TARGET_OUTPUT,         /* rgba8, sRGB-encoded: the tone map's output, read back and presented */
    GN_TARGET_VSM_MASK0,      /* VSM RESOLVE's words (R32_UINT), ping-pong: this frame's ... */
    GN_TARGET_VSM_MASK1,      /* ... and the previous one's */
    GN_TARGET_OPAQUE_COLOR,   /* a copy of the resolved HDR colour before blended surfaces ... */
    GN_TARGET_OPAQUE_DEPTH,   /* ... and of the resolved depth (src/passes/forward.c): for passes
                                 that read the opaque scene behind what they draw */
    GN_TARGET_OIT_ACCUM,      /* weighted blended OIT (src/passes/oit.c): sum(c a w), sum(a w), rgba16f,
                                 msaa samples ... */
    GN_TARGET_OIT_REVEAL,     /* ... and prod(1 - a), r16f; both made by the first frame that needs them */
    GN_TARGET_COUNT
} gn_target_id;

typedef struct gn_targets {
    gn_vk_image image[GN_TARGET_COUNT];
    gn_vk_image *depth, *hdr; /* what later passes sample: resolved, or the single-sample one */
    gn_vk_buffer readback;
} gn_targets;

/* One view's draws as written into the ring: visible instance ids and one indirect command
 * per group (src/plan.c). */
typedef struct gn_view_draws {
    /* Where the visible ids and the commands are: the ring at these offsets (the CPU wrote
     * them), or, on the GPU-culling path, the cull feature's own buffers (offsets 0): then
     * `set` is the frame set whose visible-id binding names its list, `indirect` its commands. */
    VkDeviceSize visible_offset, indirect_offset;
    VkDescriptorSet set;          /* VK_NULL_HANDLE: the renderer's frame set (the ring) */
    const gn_vk_buffer *indirect; /* NULL: the ring */
    const gn_vk_buffer *indices;  /* NULL: the scene's; with clusters, the cull feature's (the
                                     scene's indices, then the clusters') */
    uint32_t group_count, instance_count;
    uint64_t triangles;
    /* Depth-only passes: groups [0, opaque_groups) draw in one call; alpha-tested batches
     * mask_batches[mask_first .. + mask_count) of the frame plan bind their material each;
     * blended groups (the rest) draw in the forward pass only. The opaque batches whose material
     * rasters otherwise than the default (double-sided, Quake 3's cull none, its polygonOffset)
     * are listed again at mask_batches[sided_first .. + sided_count): a pass that takes each
     * material's raster state redraws them with their own. */
    uint32_t opaque_groups, mask_first, mask_count, sided_first, sided_count;
} gn_view_draws;

/* What the CPU decided for this frame (src/frame.c, src/plan.c). */
typedef struct gn_frame_plan {
    gn_draw_list list; /* the camera's on the CPU path, kept for its material batches */
    const gn_draw_list
        *camera_list;            /* the camera's groups and batches: list, or the GPU path's static order */
    bool camera_gpu;             /* this frame's camera list is culled on the GPU (passes/cull.c) */
    bool list_submitted;         /* list is the last submitted frame's (gn_get_visible_instances) */
    gn_draw_list shadow_list;    /* scratch for one cascade at a time (its draws are in the ring) */
    gn_draw_batch *mask_batches; /* every view's alpha-tested batches this frame (gn_view_draws) */
    uint32_t mask_batch_count, mask_batch_cap;
    gn_cull_item *items;        /* every instance's, kept between frames (items_stamp): see gn_plan_camera */
    gn_scene_stamp items_stamp; /* uid 0: not made for any scene yet (a reserve starts it over) */
    gn_cull_item *subset;       /* scratch: the items one shadow cascade (or a world's PVS) keeps */
    uint8_t *keep;              /* scratch: per instance, 1 when the world's visibility keeps it */
    uint32_t capacity;
    VkDeviceSize frame_offset;
    gn_view_draws
        camera; /* the frame's list: the forward pass's (the depth prepass's too without occlusion) */
    /* Two-phase occlusion culling (passes/cull.c): the depth prepass draws phase[0] (last
     * frame's, still in view), the HZB is built from it, then it draws phase[1] (what the HZB
     * does not hide); camera is both. */
    bool occlusion;
    gn_view_draws phase[2];
    /* The camera's blended surfaces back to front (gn_draw_list_back_to_front), on either path:
     * the forward pass's blended draws. blend_ids lists every blended instance (made with items);
     * blend_items is scratch for those in view. */
    uint32_t *blend_ids, blend_id_count;
    gn_cull_item *blend_items;
    gn_blend_entry *blend_scratch;
    gn_draw_list blend_list;
    gn_view_draws blend_view;
    /* the decal pass draws this frame (passes/decals.c): the forward pass keeps its multisampled
       colour for it */
    bool decals;
} gn_frame_plan;

/* Shared by every pass that draws the scene (src/passes/setup.c): the frame set (set 0) and
 * the material set layout (set 1), and the samplers. */
typedef struct gn_pipelines {
    VkDescriptorSetLayout frame_layout, material_layout, empty_layout;
    VkDescriptorPool pool;
    VkDescriptorSet frame_set;
    VkSampler repeat, clamp, clamp_linear;
    /* Eye adaptation's state (gn_gpu_exposure, zeroed by the first frame): the frame set names it, for
     * the pre-exposure the forward pass stores colour with; passes/exposure.c writes it. */
    gn_vk_buffer exposure;
} gn_pipelines;

struct gn_renderer {
    gn_vk vk;
    uint32_t width, height, msaa;
    gn_targets targets;
    gn_pipelines pipes;
    gn_gpu_scene scene;
    uint32_t q3_evaluated; /* Quake 3 materials whose stages this frame evaluated */
    double q3_ms;          /* and the CPU time it took (evaluation and the ring's copies) */
    gn_frame_plan plan;
    gn_frame_inputs in;        /* this frame's inputs, every default resolved: the one camera, the sun */
    gn_atmosphere *atmosphere; /* the air's tables on the CPU (the sky's summary; the GPU makes its own) */
    void *state[GN_FEATURE_COUNT];             /* each feature's, opaque here */
    uint32_t counter_offset[GN_FEATURE_COUNT]; /* its GPU counters in a frame slot's block */
    /* statistics (src/stats.c): what a frame counted on the CPU, kept with its slot until the
     * GPU has finished it; then its timings and GPU counters join them */
    gn_frame_stats record[GN_FRAMES_IN_FLIGHT];
    gn_frame_stats last_stats;
    bool have_stats;
    gn_frame_stats finished[GN_STATS_QUEUE]; /* finished frames not yet taken, oldest first */
    uint32_t finished_head, finished_count;
    bool rendered; /* a frame has been submitted since the targets were made */
    /* Local reflection probes (src/probes.c): placed, rendered by a second renderer of this
     * device and chosen per instance when a scene is first drawn; NULL until then. */
    struct gn_probes *probes;
    gn_renderer_desc desc;     /* as resolved at creation: the probes' renderer copies it */
    bool capture;              /* this renderer renders probes' faces: no probes of its own, no discs */
    uint32_t extra_validation; /* validation messages of the probes' renderers, gone now */
    double probes_ms;          /* the next frame's gn_frame_stats.probes_ms and probes_rendered */
    uint32_t probes_rendered;
};

/* A feature's state (the renderer allocates it; only the feature knows its type). */
static inline void *gn_feature_state(const gn_renderer *r, gn_feature_id id) { return r->state[id]; }
/* This frame's statistics record, which features fill as they plan and record. */
gn_frame_stats *gn_frame_record(gn_renderer *r);
/* Copies size bytes of a feature's GPU counters (from the start of src) into its slice of
 * this frame's counters block, read when the frame is harvested (src/stats.c). */
void gn_frame_count(gn_renderer *r, gn_feature_id id, gn_vk_buffer *src, VkDeviceSize size);

/* gpu_scene.c */
gn_result gn_gpu_scene_sync(gn_renderer *r, const gn_scene *s, gn_error *err);
void gn_gpu_scene_write_frame_set(gn_renderer *r); /* after any buffer it names changed */
void gn_gpu_scene_release(gn_renderer *r);

/* targets.c */
gn_result gn_targets_create(gn_renderer *r, gn_error *err);
/* Makes an on-demand target (the table's `on_demand`) when it does not exist yet; *made: whether it
 * was made now (the sets that name it must be written). */
gn_result gn_target_ensure(gn_renderer *r, gn_target_id id, bool *made, gn_error *err);
void gn_targets_release(gn_renderer *r);
/* Releases a set of targets that is not (or no longer) the renderer's: the old size's after a resize. */
void gn_targets_release_set(gn_renderer *r, gn_targets *t);
static inline gn_vk_image *gn_target(gn_renderer *r, gn_target_id id) { return &r->targets.image[id]; }
/* A new image made as target id is (format, usage, samples, size), not one of the renderer's:
 * the floors' stand-ins (src/floors.c), which must not overwrite a frame's targets. */
gn_result gn_target_create_like(gn_renderer *r, gn_target_id id, const char *name, gn_vk_image *out,
                                gn_error *err);

/* passes/setup.c: the scene passes' shared layouts, the frame set and the samplers */
gn_result gn_pipelines_create(gn_renderer *r, gn_error *err);
void gn_pipelines_release(gn_renderer *r);
/* Descriptor writes many sets share: the frame constants (gn_gpu_frame in the ring, at a
 * dynamic offset) and an image sampled in a shader (shader-read layout). */
gn_vk_write gn_write_frame(const gn_renderer *r, uint32_t binding);
gn_vk_write gn_write_sampled(uint32_t binding, gn_vk_image *image, VkSampler sampler);
gn_vk_write gn_write_storage(uint32_t binding, const gn_vk_buffer *buffer);
gn_vk_write gn_write_storage_image(uint32_t binding, gn_vk_image *image);
/* The uses every scene-drawing pass declares: vertices, indices, instances, materials, and the
 * GPU-culled views' lists and commands. */
uint32_t gn_scene_uses(gn_renderer *r, gn_vk_use *out);
/* A depth-only caster pipeline pair (opaque, alpha-tested) for a pass's layout, with depth
 * clamp; their culling and bias are dynamic, set per material from gn_caster_pass_state (the sun
 * cascades and the local lights' layers make their own). */
gn_result gn_caster_pipelines(gn_renderer *r, VkPipelineLayout layout, const char *name, VkPipeline *opaque,
                              VkPipeline *masked, gn_error *err);

/* passes/scene_draw.c: a view's draws; both return the number of draw calls */
/* Binds set 0 (the frame) for drawing a view's list: its set and dynamic offsets. */
void gn_bind_view_frame(gn_renderer *r, VkPipelineLayout layout, const gn_view_draws *d);
/* A pass's render state where its pipelines leave the raster state dynamic
 * (gn_vk_graphics_desc.dynamic_raster): its own bytes and the bytes it forces over every
 * material's (src/decide/tfx.h; gn_state_resolve), resolved against each material's state. */
typedef struct gn_pass_state {
    uint32_t pass, forced;
    float caster_constant, caster_slope; /* the depth bias of GN_STATE_BIAS_CASTER */
    /* its pipelines leave depth write and test dynamic too (gn_vk_graphics_desc.dynamic_depth):
       the resolved depth byte sets them per material (reversed-Z: Quake 3's lequal is >=) */
    bool depth;
} gn_pass_state;
/* A shadow caster pass's state: two-sided and the given slope-scaled bias, forced over every
 * material (passes/setup.c). */
gn_pass_state gn_caster_pass_state(float bias_constant, float bias_slope);
/* A depth-only view: its opaque groups with the pipeline the caller bound, then (with a pass
 * state: dynamic raster) its opaque batches that cull otherwise again with their own culling, then
 * its alpha-tested batches with mask_pipeline (same layout, whose set 1 is the material), each
 * binding its material. Blended groups are left out. ps NULL: the pipelines' raster is static. */
uint32_t gn_draw_depth_only(gn_renderer *r, const gn_view_draws *d, VkPipeline mask_pipeline,
                            VkPipelineLayout layout, const gn_pass_state *ps);
/* The list's batches [first, first + count), each binding its material (set 1, push) and setting
 * its resolved raster state (ps: the pipeline's raster is dynamic; NULL: static). */
uint32_t gn_draw_materials(gn_renderer *r, const gn_view_draws *d, const gn_draw_list *list, uint32_t first,
                           uint32_t count, VkPipelineLayout layout, const gn_pass_state *ps);

/* q3_stages.c: Quake 3 shaders' stages (src/decide/q3_material.h). The stage buffer and the sky's
 * material at upload; a material set's stage writes (two, from binding
 * GN_BIND_MATERIAL_STAGE_DATA); each frame, the programs of the materials in the camera's list and
 * the sky's evaluated for `seconds` into the buffer through the ring (r->q3_evaluated counts them). */
gn_result gn_q3_stages_upload(gn_renderer *r, const gn_scene *s, gn_error *err);
uint32_t gn_q3_stages_writes(gn_renderer *r, const gn_scene *s, uint32_t material, gn_vk_write *out);
gn_result gn_q3_stages_update(gn_renderer *r, const gn_scene *s, double seconds, gn_error *err);

/* plan.c: the frame's visibility decisions, written into the ring */
gn_result gn_plan_reserve(gn_frame_plan *p, uint32_t n, gn_error *err);
gn_result gn_plan_write(gn_renderer *r, const gn_scene *s, const gn_draw_list *list, gn_view_draws *out,
                        gn_error *err);
gn_result gn_plan_camera(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs,
                         gn_error *err);
/* Every instance as a cull item (its sphere, mesh, material, pipeline: GN_DRAW_NONE when removed). */
void gn_plan_items(const gn_scene *s, gn_cull_item *items);
/* A BSP world's visibility: per instance, 1 when the PVS and the leaves' frustum keep it (other
 * instances: 1); into the plan's keep array (reserved), counts into the frame's statistics. */
const uint8_t *gn_plan_world_keep(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs);
/* A list's counts and alpha-tested batches into a view, without its ids or commands (the GPU
 * path writes those into its own buffers; gn_plan_write, the CPU path, into the ring). */
gn_result gn_plan_layout(gn_renderer *r, const gn_draw_list *list, gn_view_draws *out, gn_error *err);
double gn_plan_now_ms(void);

/* frame.c */
void gn_frame_plan_free(gn_frame_plan *p);

/* probes.c: the scene's reflection probes, made (placed, rendered, filtered) when the scene or
 * the key light changed enough; before a frame begins, as it renders with another renderer */
gn_result gn_probes_sync(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err);
void gn_probes_free(gn_renderer *r);
/* The probe instance i reflects, plus one (0: none); and a count bumped whenever that changes. */
uint32_t gn_probe_of(const gn_renderer *r, uint32_t instance);
uint32_t gn_probe_generation(const gn_renderer *r);
/* The probes placed (tests, tools): copies them into out (GN_PROBES_MAX), returns their count. */
struct gn_probe;
uint32_t gn_probes_placed(const gn_renderer *r, struct gn_probe *out);
/* Probes rendered so far (each a probe's six faces; tests), and the probes' renderer's
 * validation messages (counted with this renderer's). */
uint64_t gn_probes_rendered(const gn_renderer *r);
uint32_t gn_probes_validation_messages(const gn_renderer *r);
gn_result gn_frame_run(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err);
/* The most passes a frame of this renderer can time: the pass table's, summed over entries. */
uint32_t gn_frame_max_passes(const gn_renderer *r);

/* stats.c: a finished frame's statistics (gn_vk.harvested) */
void gn_stats_harvested(void *renderer, const gn_vk_timings *t);

#endif

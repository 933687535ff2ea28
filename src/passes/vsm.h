/* Virtual shadow maps with their RESOLVE: the feature's state (src/passes/vsm.c,
 * src/passes/vsm_resolve.c), for it and its tests. */
#ifndef GN_PASSES_VSM_H
#define GN_PASSES_VSM_H

#include "decide/vsm.h"
#include "passes/passes.h"

/* VSM RESOLVE (src/passes/vsm_resolve.c): the sun's visibility per pixel into
 * the target GN_TARGET_VSM_MASK0 + current, accumulated over frames with the other mask as
 * history. Part of the VSM feature. */
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
    gn_scene_stamp prev_scene; /* the scene it resolved (one stamp type for every cache) */
    /* A/B for tests: skip RESOLVE (the forward pass looks pages up per fragment, as before it);
     * accept any history (no rejection) */
    bool per_fragment, accept_all;
} gn_vsm_resolve_gpu;

/* The casters culled against the pages' depth (src/passes/vsm_occlusion.c, decide/vsm_hzb.h):
 * each page's depth pyramid, built from its tile before BIN (the predictor) and from its
 * staging layer after RENDER's first phase. Part of the VSM feature. */
typedef struct gn_vsm_occlusion_gpu {
    bool on;          /* this frame culls (gn_frame_desc.vsm_occlusion) */
    uint32_t stride;  /* a page's pyramid's texels (gn_hzb_layout_make of its texels^2) */
    gn_vk_buffer hzb; /* page_budget pyramids, entry e's at e * stride */
    VkDescriptorSetLayout layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet sets[2]; /* 0 reads the atlas, 1 the staging layers */
    VkPipeline pipelines[2];
    bool skip_second; /* tests: RENDER's second phase left out, so the layers hold the first's */
} gn_vsm_occlusion_gpu;

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
    uint32_t slot_count, pair_capacity; /* draw slots; pairs the list holds */
    /* the casters' LODs the slots name (the cull feature's: gn_cull_caster_lods), its order's
     * generation when the casters were made, and the index buffer that holds them */
    bool lods;
    uint32_t lod_generation;
    const gn_vk_buffer *lod_indices;
    uint32_t dyn_sphere_count, dyn_version, alloc_flags; /* as last given to ALLOC */
    gn_scene_stamp source;      /* the scene the cache holds, and the edits its pages have caught up with */
    float bias_texels;          /* normal offset */
    uint32_t push[12];          /* ALLOC's push constants this frame */
    VkDeviceSize inputs_offset; /* this frame's invalidation and dynamic spheres in the ring */
    VkDescriptorSetLayout mark_layout, alloc_layout, bin_layout, draw_layout;
    VkPipelineLayout mark_pipeline_layout, alloc_pipeline_layout, bin_pipeline_layout, draw_pipeline_layout;
    VkDescriptorPool set_pool;
    VkDescriptorSet mark_sets[GN_FRAMES_IN_FLIGHT], alloc_sets[GN_FRAMES_IN_FLIGHT], bin_set, draw_set;
    VkPipeline mark_pipeline, alloc_pipeline, bin_pipeline, copy_pipeline, page_pipeline, page_mask_pipeline;
    VkSampler atlas_sampler; /* comparison, linear: hardware 2x2 PCF inside a page */
    /* the forward pass's set 2 (table, versions, atlas, both masks) */
    VkDescriptorSetLayout receiver_layout;
    VkDescriptorSet receiver;
    gn_screen_pass atlas_view; /* the vsm-atlas debug view over the output */
    bool atlas_view_run;
    gn_vsm_resolve_gpu resolve;
    gn_vsm_occlusion_gpu occlusion;
} gn_vsm_gpu;

static inline gn_vsm_gpu *gn_vsm_of(const gn_renderer *r) { return gn_feature_state(r, GN_FEATURE_VSM); }

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
    GN_VSM_REQUESTS,
    GN_VSM_HZB,    /* the pages' pyramids: after a frame, those of its first phase's layers */
    GN_VSM_STAGING /* the staging layers' depth, page_budget * page_texels^2 floats */
} gn_vsm_buffer;
gn_result gn_vsm_read(gn_renderer *r, gn_vsm_buffer which, void *out, size_t size, gn_error *err);

/* RENDER's casters into the staging layers: the first phase clears them and draws each slot's
 * command; the second (occlusion culling) loads them and draws the slots' twins. */
gn_pass_work gn_vsm_draw_pages(gn_renderer *r, gn_vsm_gpu *v, bool second);

/* vsm_occlusion.c */
gn_result gn_vsm_occlusion_create(gn_renderer *r, gn_vsm_gpu *v, gn_error *err); /* after the VSM's images */
void gn_vsm_occlusion_release(gn_renderer *r, gn_vsm_gpu *v);

/* vsm_resolve.c, the feature's RESOLVE half */
gn_result gn_vsm_resolve_create(gn_renderer *r, gn_vsm_gpu *v, gn_error *err); /* after the VSM's buffers */
void gn_vsm_resolve_release(gn_renderer *r, gn_vsm_gpu *v);
void gn_vsm_resolve_write_sets(gn_renderer *r, gn_vsm_gpu *v); /* after the targets change */
/* Whether RESOLVE runs, whether history may be used, the previous view-projection and this
 * frame's offset into the frame constants (after the VSM's plan). */
void gn_vsm_resolve_plan(gn_renderer *r, gn_vsm_gpu *v, const gn_scene *s, gn_gpu_frame *g);

#endif

/* A feature: one capability of the frame (the depth prepass, the sun's cascades, virtual shadow
 * maps with their RESOLVE, local lights, the forward pass, the tone map, a debug view, presenting)
 * as a module with opaque state behind one small interface. The renderer walks the table of
 * features (src/features.c) to create, resize, plan, harvest and release them, and the frame
 * walks the table of passes (src/frame.c), each pass an entry recorded with its feature's state.
 * docs/ARCHITECTURE.md, "Adding a pass", says how a new one is added. */
#ifndef GN_FEATURE_H
#define GN_FEATURE_H

#include "decide/frame_inputs.h"
#include "vk/vk.h"

typedef struct gn_scene gn_scene;

/* In the order they are created (a feature may use what an earlier one made: the forward pass
 * takes the shadow techniques' and the lights' receiver sets) and planned. */
typedef enum gn_feature_id {
    GN_FEATURE_SKIN,           /* rigs' skinned and morphed vertices, before anything draws (skin.c) */
    GN_FEATURE_CULL,           /* the camera's draw list culled on the GPU (src/passes/cull.c) */
    GN_FEATURE_DEPTH,          /* depth prepass and its resolve (src/passes/depth_prepass.c) */
    GN_FEATURE_CSM,            /* the sun's cascaded shadow maps (src/passes/csm.c) */
    GN_FEATURE_VSM,            /* virtual shadow maps: MARK, ALLOC, BIN, pages, copy, RESOLVE (vsm.c) */
    GN_FEATURE_LIGHTS,         /* local lights: shadowed lights' layers, froxel binning (clusters.c) */
    GN_FEATURE_AO,             /* ambient occlusion from the prepass depth (src/passes/ao.c) */
    GN_FEATURE_ATMOSPHERE,     /* the atmosphere's tables: transmittance, multiple scattering, sky view,
                                  aerial perspective (src/passes/atmosphere.c) */
    GN_FEATURE_IBL,            /* image-based light: the split sum's DFG table (src/passes/ibl.c) */
    GN_FEATURE_VOLUMETRIC,     /* volumetric fog's froxels: inject, integrate (src/passes/volumetric.c) */
    GN_FEATURE_FORWARD,        /* the forward pass and the sky (src/passes/forward.c) */
    GN_FEATURE_DECALS,         /* screen-space decals over the opaque scene (src/passes/decals.c) */
    GN_FEATURE_PARTICLES,      /* GPU particles: simulate, sort, draw (src/passes/particles.c) */
    GN_FEATURE_OIT,            /* weighted blended OIT: accumulate, composite (src/passes/oit.c) */
    GN_FEATURE_EXPOSURE,       /* eye adaptation: histogram and adaptation (src/passes/exposure.c) */
    GN_FEATURE_BLOOM,          /* the HDR colour's glow: a mip chain down and up (src/passes/bloom.c) */
    GN_FEATURE_DOF,            /* depth of field's blurred half-size copy (src/passes/dof.c) */
    GN_FEATURE_TONEMAP,        /* exposure and tone curve into the output (src/passes/tonemap.c) */
    GN_FEATURE_DEPTH_VIEW,     /* the distance debug view (src/passes/depth_view.c) */
    GN_FEATURE_OCCLUSION_VIEW, /* the occlusion debug view (src/passes/occlusion_view.c) */
    GN_FEATURE_PRESENT,        /* into a window's swapchain (src/passes/present.c) */
    GN_FEATURE_NOOP,           /* test-only: empty passes, to fill the pass table (src/passes/noop.c) */
    GN_FEATURE_COUNT
} gn_feature_id;

/* What a feature lends the passes that read its results: a descriptor set (whose layout exists
 * from create on) and the uses a reader declares for it. */
#define GN_RECEIVER_MAX_USES 16
typedef struct gn_receiver {
    VkDescriptorSetLayout layout;
    VkDescriptorSet set;
    gn_vk_use uses[GN_RECEIVER_MAX_USES];
    uint32_t use_count;
} gn_receiver;

/* The interface. Every function may be NULL (nothing to do). `self` is the
 * feature's state, `size` bytes zeroed by the renderer before create. */
typedef struct gn_feature {
    const char *name;
    size_t size;
    uint32_t counters; /* bytes of GPU counters the feature writes a frame (16-byte aligned) */
    gn_result (*create)(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err);
    /* The render targets were made again at a new size: rewrite the sets that name them. */
    gn_result (*resize)(gn_renderer *r, void *self, gn_error *err);
    /* This frame's decisions: its part of the frame constants and of the ring, its CPU counts
     * into gn_frame_record; may fail (the frame then draws nothing). */
    gn_result (*plan)(gn_renderer *r, void *self, const gn_scene *s, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err);
    /* The set its readers bind this frame (e.g. the forward pass's set 2 from the sun technique). */
    void (*receiver)(gn_renderer *r, void *self, gn_receiver *out);
    /* A finished frame: its GPU counters (counter_offset into the slot's block) into the stats. */
    void (*harvest)(const void *self, const uint8_t *counters, gn_frame_stats *out);
    /* The frame was submitted (presenting hands the window its image here); may fail. */
    gn_result (*submitted)(gn_renderer *r, void *self, gn_error *err);
    /* The frame failed after planning and draws nothing more: forget what it would have left
     * (RESOLVE's history). */
    void (*abandon)(gn_renderer *r, void *self);
    void (*release)(gn_renderer *r, void *self);
} gn_feature;

/* The table of features, indexed by gn_feature_id (src/features.c). */
extern const gn_feature *const gn_features[GN_FEATURE_COUNT];

/* ---- passes ------------------------------------------------------------------------------ */
typedef struct gn_pass_work {
    uint32_t draws;     /* vkCmdDraw* calls recorded */
    uint64_t triangles; /* triangles submitted */
} gn_pass_work;

#define GN_PASS_MAX_USES 48 /* resources one pass declares (the forward pass: 31) */

/* One entry of the frame's pass table. The generic loop (src/frame.c) asks runs (NULL: once)
 * how many times the pass records this frame (0: not at all; cascades: one a due cascade),
 * declares uses for each (barriers and layouts follow from them), opens a debug label and a
 * timestamp, calls record (which cannot fail), and closes both. max_runs (NULL: 1) bounds runs,
 * to size the timestamp queries. name may hold one %u: the run's index. */
typedef struct gn_pass {
    const char *name;
    gn_feature_id feature;
    uint32_t (*runs)(const gn_renderer *r, const void *self);
    uint32_t (*max_runs)(const gn_renderer *r, const void *self);
    uint32_t (*uses)(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out);
    gn_pass_work (*record)(gn_renderer *r, void *self, uint32_t run);
    /* The run's name when the index is not the run's (cascades: "csm 2" is cascade 2). */
    const char *(*label)(const gn_renderer *r, uint32_t run, char *buf, size_t size);
} gn_pass;

#endif

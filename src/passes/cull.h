/* GPU culling of every view's draw list: the feature's state (src/passes/cull.c). */
#ifndef GN_PASSES_CULL_H
#define GN_PASSES_CULL_H

#include "decide/caster_lod.h"
#include "decide/hzb.h"
#include "decide/meshlets.h"
#include "passes/passes.h"
#include "scene/stamp.h"

/* Views a frame may cull on the GPU (the camera, the cascades, the local lights' layers); a
 * view past them is culled on the CPU (gn_cull_add_view says so). */
#define GN_CULL_MAX_VIEWS 128u

typedef struct gn_cull_gpu {
    VkDescriptorSetLayout layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline pipelines[3]; /* TEST, SCAN, WRITE */
    VkBuffer set_instances;  /* the instance buffer the set names */
    gn_vk_buffer counts;     /* the tags' counts, then each view's visible total (host-visible) */
    /* the scene's static draw order, built once a scene */
    bool built;
    gn_scene_stamp stamp;
    gn_cull_item *items;
    gn_draw_list all; /* every instance not removed, in draw-key order: its groups and batches */
    gn_vk_buffer order, groups;
    uint32_t slots, caster_slots,
        block_count; /* casters (opaque, alpha-tested) are slots [0, caster_slots) */
    /* Clusters (gn_frame_desc.clusters): the large meshes' clusters, a slot an instance and
     * cluster (slot_cluster: its cluster or GN_CULL_WHOLE, on both sides), and an index buffer
     * of the scene's indices followed by the clusters' that the views' draws bind. */
    bool clusters, clusters_asked; /* built with clusters; what the frames asked for */
    bool lods_asked;               /* built with the casters' LODs (gn_frame_desc.caster_lod) */
    uint32_t generation;           /* bumped with every build of the order (the VSM's casters follow) */
    gn_meshlets meshlets;
    gn_caster_lods lods;
    uint32_t *slot_cluster;
    gn_vk_buffer slot_clusters, cluster_bounds, indices; /* indices: with clusters or LODs only */
    /* per view (view_cap of them): a window of `slots` ids, a command a group, the scratch */
    gn_vk_buffer local, blocks, visible, commands;
    uint32_t view_cap;
    VkDescriptorSet frame_set; /* the scene passes' set 0 with `visible` as its list */
    /* this frame: the views, in the ring (GN_CULL_MAX_VIEWS places) */
    gn_gpu_cull_view *views;
    uint32_t views_index; /* the first view's index in the ring, as gn_gpu_cull_view[] */
    uint32_t view_count;
    /* The camera's two-phase occlusion culling: views 0, 1, 2 are its final list, phase 2 and
     * phase 1 (the shadow views follow), so that the first dispatch culls views [2, count)
     * and the one after the HZB views [0, 2). The HZB (a buffer of every level) is built from
     * the prepass's depth; the history (two halves, a word a slot) says what was drawn. */
    bool occlusion;
    gn_gpu_cull_push camera; /* the occlusion test's camera and HZB size, this frame */
    VkDescriptorSetLayout hzb_set_layout;
    VkPipelineLayout hzb_pipeline_layout;
    VkDescriptorSet hzb_set;
    VkPipeline hzb_first, hzb_down; /* level 0 from the depth (every sample), a level from the last */
    gn_hzb_layout hzb_levels;
    gn_vk_buffer hzb;
    VkImageView hzb_depth; /* the depth view the set names */
    gn_vk_buffer history;
    uint32_t history_half; /* the half this frame reads */
    bool history_valid;    /* it holds the last frame's (else nothing counts as seen) */
} gn_cull_gpu;

/* The camera's plan on the GPU path (gn_plan_camera calls it): the static order (re)built when
 * the scene changed, the frame's views begun with the camera's, a world's keep mask. */
gn_result gn_cull_plan_camera(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs,
                              gn_error *err);
/* The last frame's HZB (tests: held to gn_hzb_build), *layout its levels; waits for the GPU. */
gn_result gn_cull_read_hzb(gn_renderer *r, float *out, size_t max, gn_hzb_layout *layout, gn_error *err);
/* A shadow view (casters only) culled on the GPU this frame, when the frame culls on the GPU
 * and a place is left: its frustum, the smallest sphere diameter it draws (0: all), its texel
 * in metres (with gn_frame_desc.caster_lod, casters whose LOD errs by at most that draw the LOD;
 * 0: never), the tag its counts go to; *out laid out for its draws and *added set. Otherwise
 * *added is false and the caller culls the view on the CPU. */
gn_result gn_cull_add_view(gn_renderer *r, const gn_frustum *f, float min_diameter, float lod_texel,
                           uint32_t tag, gn_view_draws *out, bool *added, gn_error *err);
/* The static order the GPU culls (its slots' instances, groups and batches), the cluster of
 * each slot (GN_CULL_WHOLE: none) and the clusters: for tests' references. */
void gn_cull_order(gn_renderer *r, const gn_draw_list **order, const uint32_t **slot_cluster,
                   const gn_meshlets **meshlets);
/* The casters' LODs of the GPU path's order (NULL: none built), the index buffer that holds
 * them, and the order's generation: the VSM's caster slots name them (src/passes/vsm.c). */
const gn_caster_lods *gn_cull_caster_lods(gn_renderer *r, const gn_vk_buffer **indices, uint32_t *generation);
/* The last submitted frame's camera list, as the GPU wrote it (waits for the GPU). */
gn_result gn_cull_read_visible(gn_renderer *r, uint32_t *out, uint32_t max, uint32_t *count, gn_error *err);

#endif

/* Per-frame draw list: frustum-cull instances by bounding sphere, sort them by a packed key,
 * and group them into instanced indirect draws and multi-draw batches. */
#ifndef GN_DECIDE_DRAWLIST_H
#define GN_DECIDE_DRAWLIST_H

#include <stdint.h>

#include "decide/frustum.h"

/* Bit widths of the sort key, most significant first. Sorting by the key orders draws
 * lexicographically by (pipeline, material, mesh, instance): state changes are rarest for the
 * most expensive switch. Values at or beyond 1 << width are a programmer error (asserted). */
#define GN_SORT_PIPELINE_BITS 4u  /* bits 60..63 */
#define GN_SORT_MATERIAL_BITS 12u /* bits 48..59 */
#define GN_SORT_MESH_BITS 20u     /* bits 28..47 */
#define GN_SORT_INSTANCE_BITS 28u /* bits 0..27 */

/* Pipelines of the scene passes, in the order a view draws them (the sort key's top bits):
 * opaque, then alpha-tested, then blended (gn_alpha_mode's values). */
#define GN_DRAW_OPAQUE 0u
#define GN_DRAW_MASK 1u
#define GN_DRAW_BLEND 2u
#define GN_DRAW_NONE 3u /* a removed instance: never drawn, casts nothing */
/* Whether an item is drawn into shadow maps (blended surfaces cast no shadow). */
#define GN_DRAW_CASTS(pipeline) ((pipeline) == GN_DRAW_OPAQUE || (pipeline) == GN_DRAW_MASK)

typedef struct gn_cull_item {
    float sphere[4]; /* world centre xyz, radius w (metres) */
    uint32_t mesh, material, pipeline, instance;
} gn_cull_item;

/* One instanced indirect draw: instances[first .. first+count) of the sorted visible list. */
typedef struct gn_draw_group {
    uint32_t pipeline, material, mesh, first, count;
} gn_draw_group;

/* groups[first_group .. +group_count) share pipeline and material: ONE vkCmdDrawIndexedIndirect
 * with drawCount = group_count. */
typedef struct gn_draw_batch {
    uint32_t pipeline, material, first_group, group_count;
} gn_draw_batch;

/* Every array is caller-allocated with capacity >= the item count (scratch_keys included). */
typedef struct gn_draw_list {
    uint32_t *instances; /* visible items' `instance` values, in key order */
    uint32_t instance_count;
    gn_draw_group *groups;
    uint32_t group_count;
    gn_draw_batch *batches;
    uint32_t batch_count;
    uint64_t *scratch_keys;
} gn_draw_list;

/* The batches [*first, *first + *count) whose pipeline is in lo..hi (batches are sorted by
 * pipeline, so they are one run); *first_group is the first group of that run (or the
 * group count when the run is empty). */
void gn_draw_list_range(const gn_draw_list *list, uint32_t lo, uint32_t hi, uint32_t *first, uint32_t *count,
                        uint32_t *first_group);

/* Blended surfaces back to front (issue 20). Each is drawn in turn over what is behind it, so the
 * order is not the material's but the distance's: layer by layer (a Quake 3 shader's `sort`, kept
 * to 1/1024: banners before additive effects before `nearest`), then the farthest bounding sphere
 * centre first (seed 000's rule: the centre's distance to the eye, which no turn of the camera
 * changes), then the instance id, so equal distances keep one order whatever the input's. */
#define GN_BLEND_RANK_SCALE 1024u
/* A material without a shader's sort ranks as Quake 3's blend0 (9): after the banners (6), with
 * most blended shaders; Quake 3 infers the same for a blended shader that says nothing. */
#define GN_BLEND_RANK_DEFAULT (9u * GN_BLEND_RANK_SCALE)

/* A sort number's rank: sort x 1024 rounded down, 0 (or not a number) the default, capped at 1e6. */
uint32_t gn_blend_rank(float sort);

typedef struct gn_blend_entry {
    uint32_t rank;
    float distance2; /* squared metres from the eye to the sphere's centre */
    uint32_t instance;
    uint32_t item; /* index into the items given */
} gn_blend_entry;

/* The items (blended ones; the caller has culled them) into out in draw order: instances back to
 * front within each rank (material_rank[m], GN_BLEND_RANK_DEFAULT where rank is NULL or m is past
 * rank_count), a group for each run of one material and mesh (an instanced draw keeps the order:
 * its instances draw in turn) and a batch for each run of one material. scratch holds count
 * entries; out's arrays hold count each. Deterministic: the output depends only on the multiset
 * of items. */
void gn_draw_list_back_to_front(const gn_cull_item *items, uint32_t count, const float eye[3],
                                const uint32_t *material_rank, uint32_t rank_count, gn_blend_entry *scratch,
                                gn_draw_list *out);

/* The packed key, bit widths above. */
uint64_t gn_sort_key(uint32_t pipeline, uint32_t material, uint32_t mesh, uint32_t instance);
/* Deterministic: the output depends only on the multiset of visible items. f NULL: no culling. */
void gn_draw_list_build(const gn_cull_item *items, uint32_t count, const gn_frustum *f, gn_draw_list *out);

#endif

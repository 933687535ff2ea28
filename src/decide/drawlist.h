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

/* The packed key, bit widths above. */
uint64_t gn_sort_key(uint32_t pipeline, uint32_t material, uint32_t mesh, uint32_t instance);
/* Deterministic: the output depends only on the multiset of visible items. f NULL: no culling. */
void gn_draw_list_build(const gn_cull_item *items, uint32_t count, const gn_frustum *f, gn_draw_list *out);

#endif

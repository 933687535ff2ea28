/* Draw list building, the front end's "sorted draw surfaces": cull, key, sort, then cut the
 * sorted run into groups (same mesh: one instanced draw) and batches (same pipeline and
 * material: one multi-draw indirect). */
#include "decide/drawlist.h"

#include <assert.h>
#include <stdlib.h>

#define GN_SORT_INSTANCE_SHIFT 0u
#define GN_SORT_MESH_SHIFT (GN_SORT_INSTANCE_SHIFT + GN_SORT_INSTANCE_BITS)
#define GN_SORT_MATERIAL_SHIFT (GN_SORT_MESH_SHIFT + GN_SORT_MESH_BITS)
#define GN_SORT_PIPELINE_SHIFT (GN_SORT_MATERIAL_SHIFT + GN_SORT_MATERIAL_BITS)
_Static_assert(GN_SORT_PIPELINE_SHIFT + GN_SORT_PIPELINE_BITS == 64, "sort key fills 64 bits");

static uint32_t gn_key_field(uint64_t key, uint32_t shift, uint32_t bits)
{
    return (uint32_t)((key >> shift) & ((1ull << bits) - 1u));
}

uint64_t gn_sort_key(uint32_t pipeline, uint32_t material, uint32_t mesh, uint32_t instance)
{
    assert(pipeline < (1u << GN_SORT_PIPELINE_BITS));
    assert(material < (1u << GN_SORT_MATERIAL_BITS));
    assert(mesh < (1u << GN_SORT_MESH_BITS));
    assert(instance < (1u << GN_SORT_INSTANCE_BITS));
    return (uint64_t)pipeline << GN_SORT_PIPELINE_SHIFT | (uint64_t)material << GN_SORT_MATERIAL_SHIFT |
           (uint64_t)mesh << GN_SORT_MESH_SHIFT | (uint64_t)instance << GN_SORT_INSTANCE_SHIFT;
}

static int gn_key_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void gn_draw_list_build(const gn_cull_item *items, uint32_t count, const gn_frustum *f, gn_draw_list *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++) {
        const gn_cull_item *it = &items[i];
        if (it->pipeline == GN_DRAW_NONE || (f && !gn_frustum_test_sphere(f, it->sphere, it->sphere[3])))
            continue;
        out->scratch_keys[n++] = gn_sort_key(it->pipeline, it->material, it->mesh, it->instance);
    }
    /* The key carries every field the output needs, so sorting keys alone is enough, and since
     * equal keys are indistinguishable, qsort's instability cannot change the result. */
    qsort(out->scratch_keys, n, sizeof(uint64_t), gn_key_cmp);

    out->instance_count = n;
    out->group_count = 0;
    out->batch_count = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t key = out->scratch_keys[i];
        out->instances[i] = gn_key_field(key, GN_SORT_INSTANCE_SHIFT, GN_SORT_INSTANCE_BITS);
        uint64_t draw = key >> GN_SORT_MESH_SHIFT; /* (pipeline, material, mesh) */
        if (i > 0 && draw == out->scratch_keys[i - 1] >> GN_SORT_MESH_SHIFT) {
            out->groups[out->group_count - 1].count++;
            continue;
        }
        gn_draw_group g = {
            .pipeline = gn_key_field(key, GN_SORT_PIPELINE_SHIFT, GN_SORT_PIPELINE_BITS),
            .material = gn_key_field(key, GN_SORT_MATERIAL_SHIFT, GN_SORT_MATERIAL_BITS),
            .mesh = gn_key_field(key, GN_SORT_MESH_SHIFT, GN_SORT_MESH_BITS),
            .first = i,
            .count = 1,
        };
        gn_draw_batch *last = out->batch_count ? &out->batches[out->batch_count - 1] : NULL;
        if (last && last->pipeline == g.pipeline && last->material == g.material) {
            last->group_count++;
        } else {
            out->batches[out->batch_count++] = (gn_draw_batch){g.pipeline, g.material, out->group_count, 1};
        }
        out->groups[out->group_count++] = g;
    }
}

void gn_draw_list_range(const gn_draw_list *list, uint32_t lo, uint32_t hi, uint32_t *first, uint32_t *count,
                        uint32_t *first_group)
{
    uint32_t b = 0;
    while (b < list->batch_count && list->batches[b].pipeline < lo) b++;
    uint32_t e = b;
    while (e < list->batch_count && list->batches[e].pipeline <= hi) e++;
    *first = b;
    *count = e - b;
    *first_group = b < list->batch_count ? list->batches[b].first_group : list->group_count;
}

static int gn_blend_cmp(const void *pa, const void *pb)
{
    const gn_blend_entry *a = pa, *b = pb;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (a->distance2 != b->distance2) return a->distance2 > b->distance2 ? -1 : 1; /* farthest first */
    return (a->instance > b->instance) - (a->instance < b->instance);
}

void gn_draw_list_back_to_front(const gn_cull_item *items, uint32_t count, const float eye[3],
                                const uint32_t *material_rank, uint32_t rank_count, gn_blend_entry *scratch,
                                gn_draw_list *out)
{
    for (uint32_t i = 0; i < count; i++) {
        const gn_cull_item *it = &items[i];
        float d[3] = {it->sphere[0] - eye[0], it->sphere[1] - eye[1], it->sphere[2] - eye[2]};
        uint32_t rank =
            material_rank && it->material < rank_count ? material_rank[it->material] : GN_BLEND_RANK_DEFAULT;
        scratch[i] = (gn_blend_entry){rank, d[0] * d[0] + d[1] * d[1] + d[2] * d[2], it->instance, i};
    }
    /* a total order (instance ids are unique), so qsort's instability changes nothing */
    qsort(scratch, count, sizeof *scratch, gn_blend_cmp);
    out->instance_count = count;
    out->group_count = out->batch_count = 0;
    for (uint32_t i = 0; i < count; i++) {
        const gn_cull_item *it = &items[scratch[i].item];
        out->instances[i] = it->instance;
        gn_draw_group *last = out->group_count ? &out->groups[out->group_count - 1] : NULL;
        if (last && last->material == it->material && last->mesh == it->mesh) {
            last->count++;
            continue;
        }
        gn_draw_batch *batch = out->batch_count ? &out->batches[out->batch_count - 1] : NULL;
        if (batch && batch->material == it->material)
            batch->group_count++;
        else
            out->batches[out->batch_count++] =
                (gn_draw_batch){it->pipeline, it->material, out->group_count, 1};
        out->groups[out->group_count++] = (gn_draw_group){it->pipeline, it->material, it->mesh, i, 1};
    }
}

uint32_t gn_blend_rank(float sort)
{
    if (!(sort > 0.0f)) return GN_BLEND_RANK_DEFAULT;
    return (uint32_t)((sort < 1e6f ? sort : 1e6f) * (float)GN_BLEND_RANK_SCALE);
}

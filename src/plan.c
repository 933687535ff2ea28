/* The frame's visibility decisions, written into the staging ring: for the camera and for
 * every shadow cascade due this frame, the sorted visible-instance ids and one indirect
 * command per draw group. The decisions themselves are pure (src/decide/); this file only
 * feeds them the scene and lays their answers out for the GPU. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "base/alloc.h"
#include "decide/tfx.h"
#include "passes/cull.h"
#include "renderer.h"
#include "scene/world.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double gn_plan_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

void gn_frame_plan_free(gn_frame_plan *p)
{
    free(p->items);
    free(p->subset);
    free(p->keep);
    free(p->list.instances);
    free(p->list.groups);
    free(p->list.batches);
    free(p->list.scratch_keys);
    free(p->shadow_list.instances);
    free(p->shadow_list.groups);
    free(p->shadow_list.batches);
    free(p->shadow_list.scratch_keys);
    free(p->mask_batches);
    free(p->blend_ids);
    free(p->blend_items);
    free(p->blend_scratch);
    free(p->blend_list.instances);
    free(p->blend_list.groups);
    free(p->blend_list.batches);
    memset(p, 0, sizeof *p);
}

gn_result gn_plan_reserve(gn_frame_plan *p, uint32_t n, gn_error *err)
{
    if (n <= p->capacity) return GN_OK;
    /* the frame's constants are already in the ring (a scene grew mid-run): keep their place */
    VkDeviceSize frame_offset = p->frame_offset;
    gn_frame_plan_free(p);
    p->frame_offset = frame_offset;
    p->items = gn_malloc(n * sizeof *p->items);
    p->subset = gn_malloc(n * sizeof *p->subset);
    p->keep = gn_malloc(n);
    p->list.instances = gn_malloc(n * sizeof *p->list.instances);
    p->list.groups = gn_malloc(n * sizeof *p->list.groups);
    p->list.batches = gn_malloc(n * sizeof *p->list.batches);
    p->list.scratch_keys = gn_malloc(n * sizeof *p->list.scratch_keys);
    p->shadow_list.instances = gn_malloc(n * sizeof *p->shadow_list.instances);
    p->shadow_list.groups = gn_malloc(n * sizeof *p->shadow_list.groups);
    p->shadow_list.batches = gn_malloc(n * sizeof *p->shadow_list.batches);
    p->shadow_list.scratch_keys = gn_malloc(n * sizeof *p->shadow_list.scratch_keys);
    p->blend_ids = gn_malloc(n * sizeof *p->blend_ids);
    p->blend_items = gn_malloc(n * sizeof *p->blend_items);
    p->blend_scratch = gn_malloc(n * sizeof *p->blend_scratch);
    p->blend_list.instances = gn_malloc(n * sizeof *p->blend_list.instances);
    p->blend_list.groups = gn_malloc(n * sizeof *p->blend_list.groups);
    p->blend_list.batches = gn_malloc(n * sizeof *p->blend_list.batches);
    if (!p->items || !p->subset || !p->keep || !p->list.instances || !p->list.groups || !p->list.batches ||
        !p->list.scratch_keys || !p->shadow_list.instances || !p->shadow_list.groups ||
        !p->shadow_list.batches || !p->shadow_list.scratch_keys || !p->blend_ids || !p->blend_items ||
        !p->blend_scratch || !p->blend_list.instances || !p->blend_list.groups || !p->blend_list.batches)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for a draw list of %u instances", n);
    p->capacity = n;
    return GN_OK;
}

/* Room for `count` more batches in the frame plan's per-material batches. */
static gn_result grow_batches(gn_frame_plan *p, uint32_t count, gn_error *err)
{
    if (p->mask_batch_count + count <= p->mask_batch_cap) return GN_OK;
    uint32_t cap = (p->mask_batch_count + count) * 2;
    gn_draw_batch *grown = gn_realloc(p->mask_batches, cap * sizeof *grown);
    if (!grown) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u per-material batches", cap);
    p->mask_batches = grown;
    p->mask_batch_cap = cap;
    return GN_OK;
}

/* Whether a material rasters otherwise than a depth-only pass's default (front faces, no depth
 * bias): its opaque groups are drawn again with its own culling and bias (gn_draw_depth_only). */
static bool rasters_otherwise(const gn_renderer *r, uint32_t material)
{
    if (!r->scene.material_state || material >= r->scene.material_count) return false;
    uint32_t state = gn_state_resolve(0, r->scene.material_state[material], 0);
    return GN_STATE_RASTER_CULL(state >> GN_STATE_RASTER_SHIFT) != GN_CULL_FRONT_SIDED ||
           (state >> GN_STATE_BIAS_SHIFT) != GN_STATE_BIAS_NONE;
}

/* A list's counts, its alpha-tested batches and its opaque batches that raster otherwise, kept for
 * the depth-only passes (the list may be scratch), without its ids or commands (see renderer.h). */
gn_result gn_plan_layout(gn_renderer *r, const gn_draw_list *list, gn_view_draws *out, gn_error *err)
{
    out->triangles = 0;
    out->group_count = list->group_count;
    out->instance_count = list->instance_count;
    uint32_t first, count, opaque_first, opaque_count, unused;
    gn_draw_list_range(list, GN_DRAW_MASK, GN_DRAW_MASK, &first, &count, &out->opaque_groups);
    gn_draw_list_range(list, GN_DRAW_OPAQUE, GN_DRAW_OPAQUE, &opaque_first, &opaque_count, &unused);
    gn_frame_plan *p = &r->plan;
    uint32_t sided = 0;
    for (uint32_t b = opaque_first; b < opaque_first + opaque_count; b++)
        sided += rasters_otherwise(r, list->batches[b].material);
    gn_result res = grow_batches(p, count + sided, err);
    if (res) return res;
    if (count) /* with none, both pointers may be NULL: memcpy from NULL is undefined even for 0 bytes */
        memcpy(p->mask_batches + p->mask_batch_count, list->batches + first, count * sizeof *list->batches);
    out->mask_first = p->mask_batch_count;
    out->mask_count = count;
    p->mask_batch_count += count;
    out->sided_first = p->mask_batch_count;
    out->sided_count = sided;
    for (uint32_t b = opaque_first; sided && b < opaque_first + opaque_count; b++)
        if (rasters_otherwise(r, list->batches[b].material))
            p->mask_batches[p->mask_batch_count++] = list->batches[b];
    return GN_OK;
}

/* The visible ids and the indirect commands of one list, into the ring. */
gn_result gn_plan_write(gn_renderer *r, const gn_scene *s, const gn_draw_list *list, gn_view_draws *out,
                        gn_error *err)
{
    void *visible, *indirect;
    /* the descriptor addresses every instance's slot (its range is fixed), but only this list's
     * entries are written: the ring gives up just those bytes */
    uint32_t window = (s->instance_count ? s->instance_count : 4) * sizeof(uint32_t);
    uint32_t used = (list->instance_count ? list->instance_count : 1) * sizeof(uint32_t);
    gn_result res = gn_vk_ring_alloc_window(&r->vk, used, window, gn_vk_storage_align(&r->vk),
                                            &out->visible_offset, &visible, err);
    if (!res)
        res = gn_vk_ring_alloc(
            &r->vk, (list->group_count ? list->group_count : 1) * sizeof(VkDrawIndexedIndirectCommand), 16,
            &out->indirect_offset, &indirect, err);
    if (!res) res = gn_plan_layout(r, list, out, err);
    if (res) return res;
    out->set = VK_NULL_HANDLE;
    out->indirect = NULL;
    out->indices = NULL;
    if (list->instance_count) memcpy(visible, list->instances, list->instance_count * sizeof(uint32_t));
    VkDrawIndexedIndirectCommand *cmds = indirect;
    for (uint32_t g = 0; g < list->group_count; g++) {
        const gn_draw_group *grp = &list->groups[g];
        const gn_mesh *m = &s->meshes[grp->mesh];
        cmds[g] = (VkDrawIndexedIndirectCommand){m->index_count, grp->count, m->first_index,
                                                 (int32_t)m->first_vertex, grp->first};
        out->triangles += (uint64_t)m->index_count / 3 * grp->count;
    }
    return GN_OK;
}

/* A BSP world's faces that the PVS (unless no_pvs) and the frustum let through become the
 * only world instances the camera draws; other instances (and brush models' faces, which no
 * leaf of the tree lists) pass to the frustum test as usual. Counts go to the frame's
 * statistics. */
const uint8_t *gn_plan_world_keep(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs)
{
    const gn_world *w = s->world;
    gn_frame_plan *p = &r->plan;
    gn_bsp_vis_result vr = {.faces = w->vis_faces, .seen = w->vis_seen};
    gn_bsp_visible_faces(&w->vis, r->in.position, frustum, !no_pvs, &vr);
    uint8_t *keep = p->keep;
    memset(keep, 1, s->instance_count);
    for (uint32_t i = 0; i < w->instance_count; i++) keep[w->first_instance + i] = 0;
    for (uint32_t f = 0; f < w->bsp.face_count; f++)
        if (!w->vis.face_in_tree[f] && w->face_instance[f] != UINT32_MAX) keep[w->face_instance[f]] = 1;
    for (uint32_t k = 0; k < vr.visible_count; k++) {
        uint32_t inst = w->face_instance[vr.faces[k]];
        if (inst != UINT32_MAX) keep[inst] = 1;
    }
    gn_frame_stats *rec = gn_frame_record(r);
    rec->world_leaves = vr.leaves_total, rec->world_leaves_pvs = vr.leaves_pvs;
    rec->world_leaves_frustum = vr.leaves_frustum;
    rec->world_faces = vr.face_total, rec->world_faces_pvs = vr.faces_pvs,
    rec->world_faces_frustum = vr.faces_frustum;
    return keep;
}

static uint32_t world_filter(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs)
{
    gn_frame_plan *p = &r->plan;
    const uint8_t *keep = gn_plan_world_keep(r, s, frustum, no_pvs);
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->instance_count; i++)
        if (keep[i]) p->subset[n++] = p->items[i];
    return n;
}

void gn_plan_items(const gn_scene *s, gn_cull_item *items)
{
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const gn_instance *in = &s->instances[i];
        /* the pipeline is the material's alpha mode: opaque, alpha-tested, blended */
        uint32_t pipeline =
            in->flags & GN_INSTANCE_REMOVED ? GN_DRAW_NONE : s->materials[in->material].alpha_mode;
        items[i] = (gn_cull_item){{in->sphere[0], in->sphere[1], in->sphere[2], in->sphere[3]},
                                  in->mesh,
                                  in->material,
                                  pipeline,
                                  i};
    }
}

/* The camera's blended surfaces back to front, into the ring as a view of their own. The CPU
 * path's are its list's visible blended instances; the GPU path's the blended instances that the
 * frustum (and a world's PVS) keep, tested here: blended surfaces are few (the town has none, a
 * Quake 3 map some hundreds) and each draw needs its material bound from the command buffer (no
 * bindless textures), so the order is decided on the CPU on both paths and the GPU's occlusion
 * culling does not thin them. */
static gn_result plan_blended(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, gn_error *err)
{
    gn_frame_plan *p = &r->plan;
    uint32_t n = 0;
    if (!p->camera_gpu) {
        const gn_draw_list *l = &p->list;
        uint32_t first, count, first_group;
        gn_draw_list_range(l, GN_DRAW_BLEND, GN_DRAW_BLEND, &first, &count, &first_group);
        for (uint32_t g = first_group; count && g < l->group_count; g++)
            for (uint32_t k = 0; k < l->groups[g].count; k++)
                p->blend_items[n++] = p->items[l->instances[l->groups[g].first + k]];
    } else {
        const uint8_t *keep = s->world ? p->keep : NULL;
        for (uint32_t k = 0; k < p->blend_id_count; k++) {
            const gn_cull_item *it = &p->items[p->blend_ids[k]];
            if ((!keep || keep[it->instance]) && gn_frustum_test_sphere(frustum, it->sphere, it->sphere[3]))
                p->blend_items[n++] = *it;
        }
    }
    gn_draw_list_back_to_front(p->blend_items, n, r->in.position, r->scene.material_rank,
                               r->scene.material_count, p->blend_scratch, &p->blend_list);
    gn_frame_record(r)->blended_drawn = n;
    return gn_plan_write(r, s, &p->blend_list, &p->blend_view, err);
}

/* Frustum culling and the sorted draw list of the camera: on the GPU (passes/cull.c) unless
 * the frame asks for the CPU path, which builds the same list here every frame. */
gn_result gn_plan_camera(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs,
                         gn_error *err)
{
    gn_frame_plan *p = &r->plan;
    p->mask_batch_count = 0; /* the camera is planned first each frame: the views' batches start over */
    gn_result res = gn_plan_reserve(p, s->instance_count ? s->instance_count : 1, err);
    if (res) return res;
    p->camera_list = &p->list; /* after the reserve, which may start the plan over */
    p->camera_gpu = false;
    p->occlusion = false; /* the GPU path's, when it is on */
    double t0 = gn_plan_now_ms();
    /* every instance as a cull item: the shadow views (cascades, the VSM's casters, the local
     * lights' layers) still cull on the CPU from these, on either path. They change only with
     * the scene: made again for new geometry or an edit (a static instance moved or removed:
     * rare), and each frame only the dynamic instances' spheres (they move every frame), so
     * that the frame does not walk every instance. */
    if (!gn_scene_stamp_same_geometry(&p->items_stamp, s) || p->items_stamp.edit_count != s->edit_count) {
        gn_plan_items(s, p->items);
        p->blend_id_count = 0;
        for (uint32_t i = 0; i < s->instance_count; i++)
            if (p->items[i].pipeline == GN_DRAW_BLEND) p->blend_ids[p->blend_id_count++] = i;
        p->items_stamp = gn_scene_stamp_of(s);
    } else if (p->items_stamp.dynamic_generation != s->dynamic_generation) {
        for (uint32_t i = 0; i < r->scene.dynamic_count; i++) {
            uint32_t id = r->scene.dynamic_ids[i];
            memcpy(p->items[id].sphere, s->instances[id].sphere, sizeof p->items[id].sphere);
        }
        p->items_stamp.dynamic_generation = s->dynamic_generation;
    }
    if (!r->in.cpu_culling) {
        res = gn_cull_plan_camera(r, s, frustum, no_pvs, err);
        if (!res) res = plan_blended(r, s, frustum, err);
        gn_frame_record(r)->visibility_ms = gn_plan_now_ms() - t0; /* the items above included */
        return res;
    }
    if (s->world) {
        uint32_t n = world_filter(r, s, frustum, no_pvs);
        gn_draw_list_build(p->subset, n, frustum, &p->list);
    } else {
        gn_draw_list_build(p->items, s->instance_count, frustum, &p->list);
    }
    res = plan_blended(r, s, frustum, err);
    gn_frame_record(r)->visibility_ms = gn_plan_now_ms() - t0;
    if (!res) res = gn_plan_write(r, s, &p->list, &p->camera, err);
    return res;
}

/* GPU culling of every view's draw list (a feature; shaders/cull.glsl): the camera's, each due
 * cascade's and each shadowed local light's layers. Once a scene, the CPU sorts every instance
 * by its draw key (gn_draw_list_build without a frustum): the order, its draw groups and
 * material batches are static. Each frame the CPU only writes one small record a view (its
 * planes, which slots it tests, the tag its counts go to) and, for a BSP world, uploads the
 * PVS's keep mask; three dispatches over slots x views then test every slot, scan the counts
 * and write each view's list and commands into its window of this feature's buffers. Each list
 * is the CPU path's exactly (same ids, same order: gpu_cull holds them to it), so the images
 * are too. The CPU frame no longer grows with the instances (but for a world's keep mask, one
 * bit an instance). Memory: 8 bytes an instance a view (the list and the ranks). */
#include "passes/cull.h"

#include "base/alloc.h"
#include "decide/caster_lod.h"
#include "decide/csm.h"
#include "scene/rig.h"
#include "scene/world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT
#define GN_CULL_BLOCK 256u
#define TAG_BYTES (GN_CULL_TAGS * 16u)
#define COUNTS_BYTES (TAG_BYTES + GN_CULL_MAX_VIEWS * 4u)
_Static_assert(GN_CULL_TAG_LIGHTS == GN_CULL_TAG_CASCADE + GN_CSM_MAX, "a tag for every cascade");
_Static_assert(sizeof(gn_gpu_cull_view) == 128, "gn_gpu_cull_view: 8 vec4s");

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    gn_cull_gpu *c = self;
    gn_vk *vk = &r->vk;
    const gn_vk_binding b[GN_BIND_CULL_COUNT] = {
        [GN_BIND_CULL_INSTANCES] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_ORDER] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_GROUPS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_LOCAL] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_BLOCKS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_COUNTS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_RING] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_VISIBLE] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_COMMANDS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_VIEWS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_HZB] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_HISTORY] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_SLOT_CLUSTERS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
        [GN_BIND_CULL_CLUSTERS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
    };
    gn_result res = gn_vk_set_layout(vk, b, GN_BIND_CULL_COUNT, "cull set", &c->layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &c->layout, 1, sizeof(gn_gpu_cull_push), "cull", &c->pipeline_layout,
                                    err);
    /* three sets: the dispatches', a frame set (the scene passes' set 0) whose visible-id
     * binding names this feature's lists instead of the ring, and the HZB build's */
    if (!res) res = gn_vk_descriptor_pool(vk, 3, "cull sets", &c->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, c->pool, c->layout, "cull set", &c->set, err);
    if (!res)
        res = gn_vk_alloc_set(vk, c->pool, r->pipes.frame_layout, "frame set (GPU list)", &c->frame_set, err);
    static const char *const shaders[3] = {"cull_test.comp", "cull_scan.comp", "cull_write.comp"};
    for (int i = 0; i < 3 && !res; i++)
        res = gn_vk_compute_pipeline(vk, shaders[i], c->pipeline_layout, shaders[i], &c->pipelines[i], err);
    const gn_vk_binding hb[GN_BIND_HZB_COUNT] = {
        [GN_BIND_HZB_DEPTH] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_HZB_TEXELS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
    };
    if (!res) res = gn_vk_set_layout(vk, hb, GN_BIND_HZB_COUNT, "hzb set", &c->hzb_set_layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &c->hzb_set_layout, 1, sizeof(gn_gpu_hzb_push), "hzb",
                                    &c->hzb_pipeline_layout, err);
    if (!res) res = gn_vk_alloc_set(vk, c->pool, c->hzb_set_layout, "hzb set", &c->hzb_set, err);
    const char *first = r->msaa > 1 ? "hzb_depth_ms.comp" : "hzb_depth.comp";
    if (!res) res = gn_vk_compute_pipeline(vk, first, c->hzb_pipeline_layout, first, &c->hzb_first, err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "hzb_down.comp", c->hzb_pipeline_layout, "hzb_down.comp",
                                     &c->hzb_down, err);
    gn_vk_buffer_desc cd = {.size = COUNTS_BYTES,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            .host_visible = true,
                            .name = "cull counts"};
    if (!res) res = gn_vk_buffer_create(vk, &cd, &c->counts, err);
    return res;
}

static void release_views(gn_renderer *r, gn_cull_gpu *c)
{
    gn_vk *vk = &r->vk;
    gn_vk_buffer_release(vk, &c->local);
    gn_vk_buffer_release(vk, &c->blocks);
    gn_vk_buffer_release(vk, &c->visible);
    gn_vk_buffer_release(vk, &c->commands);
    c->view_cap = 0;
}

static void release_scene(gn_renderer *r, gn_cull_gpu *c)
{
    release_views(r, c);
    gn_vk_buffer_release(&r->vk, &c->order);
    gn_vk_buffer_release(&r->vk, &c->groups);
    gn_vk_buffer_release(&r->vk, &c->history);
    gn_vk_buffer_release(&r->vk, &c->slot_clusters);
    gn_vk_buffer_release(&r->vk, &c->cluster_bounds);
    gn_vk_buffer_release(&r->vk, &c->indices);
    c->history_valid = false;
    free(c->all.instances), free(c->all.groups), free(c->all.batches), free(c->all.scratch_keys);
    free(c->items), free(c->slot_cluster);
    gn_meshlets_free(&c->meshlets);
    gn_caster_lods_free(&c->lods);
    memset(&c->all, 0, sizeof c->all);
    c->items = NULL;
    c->slot_cluster = NULL;
    c->clusters = false;
    c->built = false;
}

static void release(gn_renderer *r, void *self)
{
    gn_cull_gpu *c = self;
    gn_vk *vk = &r->vk;
    release_scene(r, c);
    gn_vk_buffer_release(vk, &c->counts);
    gn_vk_buffer_release(vk, &c->hzb);
    for (int i = 0; i < 3; i++)
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->pipelines[i]);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->hzb_first);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->hzb_down);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)c->hzb_pipeline_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)c->hzb_set_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)c->pipeline_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)c->layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)c->pool);
}

static gn_result device_buffer(gn_renderer *r, gn_vk_buffer *b, VkDeviceSize size, const void *data,
                               const char *name, gn_error *err)
{
    gn_vk_buffer_desc d = {.size = size ? size : 16,
                           .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                           .name = name};
    gn_result res = gn_vk_buffer_create(&r->vk, &d, b, err);
    if (!res && data && size) res = gn_vk_upload_buffer(&r->vk, b, 0, data, size, err);
    return res;
}

/* Slots the culling takes: SCAN's single workgroup ranks at most 256 blocks a thread. */
#define GN_CULL_MAX_SLOTS (1u << 24)

/* The static order with clusters (gn_meshlets_expand): the meshes its opaque and alpha-tested
 * groups draw cut into clusters, each such group a group a cluster; the index buffer the views
 * then bind (the scene's indices, the clusters' after them). *group_cluster: each group's
 * cluster. An order that would pass GN_CULL_MAX_SLOTS stays whole (a warning says so). */
static gn_result cluster_order(gn_renderer *r, gn_cull_gpu *c, const gn_scene *s, const gn_meshlet_mesh *mm,
                               uint32_t **group_cluster, gn_error *err)
{
    bool *want = gn_malloc((s->mesh_count ? s->mesh_count : 1) * sizeof *want);
    gn_result res = GN_OK;
    if (!want) {
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for the clusters of %u meshes",
                      s->mesh_count);
        goto done;
    }
    gn_meshlets_wanted(&c->all, s->mesh_count, want);
    /* a rig's own meshes change shape every frame: their clusters' bounds and cones would be the
       bind pose's, so they are drawn whole (their instance's sphere follows the pose) */
    for (uint32_t g = 0; g < s->rig_count; g++) {
        const gn_anim_model *am = &s->anims[s->rigs[g].model].model;
        for (uint32_t p = 0; p < am->part_count; p++)
            if ((am->parts[p].influences || am->parts[p].morph >= 0) && s->rigs[g].mesh[p] < s->mesh_count)
                want[s->rigs[g].mesh[p]] = false;
    }
    res = gn_meshlets_build(mm, want, s->mesh_count, GN_MESHLET_MIN_TRIANGLES, s->index_count, &c->meshlets,
                            err);
    if (res) goto done;
    uint32_t slots, groups;
    if (!gn_meshlets_expanded_size(&c->all, &c->meshlets, GN_CULL_MAX_SLOTS, &slots, &groups)) {
        gn_vk_log(&r->vk, GN_LOG_WARN,
                  "clusters: %u slots would pass the %u GPU culling takes; meshes drawn whole", slots,
                  GN_CULL_MAX_SLOTS);
        gn_meshlets_free(&c->meshlets);
        goto done;
    }
    gn_draw_list ex = {.instances = gn_malloc((slots ? slots : 1) * sizeof(uint32_t)),
                       .groups = gn_malloc((groups ? groups : 1) * sizeof(gn_draw_group)),
                       .batches =
                           gn_malloc((c->all.batch_count ? c->all.batch_count : 1) * sizeof(gn_draw_batch))};
    uint32_t *sc = gn_malloc((slots ? slots : 1) * sizeof *sc);
    *group_cluster = gn_malloc((groups ? groups : 1) * sizeof **group_cluster);
    if (!ex.instances || !ex.groups || !ex.batches || !sc || !*group_cluster) {
        free(ex.instances), free(ex.groups), free(ex.batches), free(sc);
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for a draw order of %u clusters' slots",
                      slots);
        goto done;
    }
    gn_meshlets_expand(&c->all, &c->meshlets, &ex, sc, *group_cluster);
    free(c->all.instances), free(c->all.groups), free(c->all.batches), free(c->slot_cluster);
    ex.scratch_keys = c->all.scratch_keys;
    c->all = ex;
    c->slot_cluster = sc;
    res =
        device_buffer(r, &c->cluster_bounds, (VkDeviceSize)c->meshlets.cluster_count * sizeof(gn_gpu_cluster),
                      c->meshlets.clusters, "clusters", err);
    if (!res) c->clusters = true;
done:
    free(want);
    return res;
}

/* Shadow casters' LODs (src/decide/caster_lod.h) of the meshes the order's whole opaque groups
 * draw; their indices follow the clusters'. */
static gn_result caster_lods(gn_cull_gpu *c, const gn_scene *s, const gn_meshlet_mesh *mm,
                             const uint32_t *group_cluster, gn_error *err)
{
    bool *want = gn_calloc(s->mesh_count ? s->mesh_count : 1, sizeof *want);
    if (!want)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for the LODs of %u meshes", s->mesh_count);
    for (uint32_t g = 0; g < c->all.group_count; g++) {
        const gn_draw_group *grp = &c->all.groups[g];
        if (grp->pipeline == GN_DRAW_OPAQUE && (!group_cluster || group_cluster[g] == GN_CULL_WHOLE))
            want[grp->mesh] = true;
    }
    gn_result res = gn_caster_lods_build(mm, want, s->mesh_count, GN_LOD_MIN_TRIANGLES,
                                         s->index_count + c->meshlets.index_count, &c->lods, err);
    free(want);
    return res;
}

/* The views' index buffer when clusters or LODs need one: the scene's indices, then the
 * clusters', then the LODs'. */
static gn_result make_indices(gn_renderer *r, gn_cull_gpu *c, const gn_scene *s, gn_error *err)
{
    if (!c->clusters && !c->lods.index_count) return GN_OK;
    const struct {
        const uint32_t *data;
        uint32_t count;
    } parts[3] = {{s->indices, s->index_count},
                  {c->meshlets.indices, c->meshlets.index_count},
                  {c->lods.indices, c->lods.index_count}};
    VkDeviceSize bytes = 0;
    for (int i = 0; i < 3; i++) bytes += parts[i].count * 4ull;
    gn_vk_buffer_desc d = {.size = bytes ? bytes : 16,
                           .usage = VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .name = "indices with clusters and LODs"};
    gn_result res = gn_vk_buffer_create(&r->vk, &d, &c->indices, err);
    VkDeviceSize at = 0;
    for (int i = 0; i < 3 && !res; i++) {
        if (parts[i].count)
            res = gn_vk_upload_buffer(&r->vk, &c->indices, at, parts[i].data, parts[i].count * 4ull, err);
        at += parts[i].count * 4ull;
    }
    return res;
}

/* The largest scale of a group's instances' transforms: a LOD's error in the world. */
static float group_scale(const gn_scene *s, const gn_draw_list *all, const gn_draw_group *grp)
{
    float most = 0.0f;
    for (uint32_t i = grp->first; i < grp->first + grp->count; i++) {
        float scale = gn_caster_lod_scale(s->instances[all->instances[i]].transform);
        most = scale > most ? scale : most;
    }
    return most;
}

/* The scene's static draw order: every instance not removed, sorted by draw key (the CPU path's
 * gn_draw_list_build, without a frustum), and its groups as GPU records. Once a scene (a new
 * geometry stamp). */
static gn_result build_scene(gn_renderer *r, gn_cull_gpu *c, const gn_scene *s, bool clusters, bool lods,
                             gn_error *err)
{
    release_scene(r, c);
    uint32_t n = s->instance_count ? s->instance_count : 1;
    gn_draw_list *all = &c->all;
    c->items = gn_malloc(n * sizeof *c->items);
    all->instances = gn_malloc(n * sizeof *all->instances);
    all->groups = gn_malloc(n * sizeof *all->groups);
    all->batches = gn_malloc(n * sizeof *all->batches);
    all->scratch_keys = gn_malloc(n * sizeof *all->scratch_keys);
    if (!c->items || !all->instances || !all->groups || !all->batches || !all->scratch_keys)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for the draw order of %u instances", n);
    gn_plan_items(s, c->items);
    gn_draw_list_build(c->items, s->instance_count, NULL, all);
    uint32_t *group_cluster = NULL;
    gn_result res = GN_OK;
    if (clusters || lods) {
        gn_meshlet_mesh *mm = gn_malloc((s->mesh_count ? s->mesh_count : 1) * sizeof *mm);
        if (!mm) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u meshes", s->mesh_count);
        for (uint32_t i = 0; i < s->mesh_count; i++) {
            const gn_mesh *m = &s->meshes[i];
            mm[i] = (gn_meshlet_mesh){s->vertices[m->first_vertex].pos, sizeof(gn_vertex), m->vertex_count,
                                      s->indices + m->first_index, m->index_count};
        }
        if (clusters) res = cluster_order(r, c, s, mm, &group_cluster, err);
        if (!res && lods) res = caster_lods(c, s, mm, group_cluster, err);
        free(mm);
        if (!res) res = make_indices(r, c, s, err);
        if (res) {
            free(group_cluster);
            return res;
        }
    }
    if (!c->slot_cluster) { /* whole meshes: every slot an instance */
        c->slot_cluster =
            gn_malloc((all->instance_count ? all->instance_count : 1) * sizeof *c->slot_cluster);
        if (!c->slot_cluster) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u slots", n);
        for (uint32_t i = 0; i < all->instance_count; i++) c->slot_cluster[i] = GN_CULL_WHOLE;
    }
    gn_gpu_cull_group *groups = gn_calloc(all->group_count ? all->group_count : 1, sizeof *groups);
    if (!groups) {
        free(group_cluster);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u draw groups", all->group_count);
    }
    c->caster_slots = 0;
    for (uint32_t g = 0; g < all->group_count; g++) {
        const gn_draw_group *grp = &all->groups[g];
        const gn_mesh *m = &s->meshes[grp->mesh];
        uint32_t cl = group_cluster ? group_cluster[g] : GN_CULL_WHOLE;
        const gn_gpu_cluster *k = cl != GN_CULL_WHOLE ? &c->meshlets.clusters[cl] : NULL;
        groups[g] = (gn_gpu_cull_group){
            {grp->first, grp->count, k ? k->range[1] : m->index_count, k ? k->range[0] : m->first_index},
            {(uint32_t)(int32_t)m->first_vertex, 0, 0, 0}};
        const gn_caster_lod *lod =
            c->lods.meshes && !k && grp->pipeline == GN_DRAW_OPAQUE ? &c->lods.meshes[grp->mesh] : NULL;
        if (lod && lod->index_count) {
            float e = lod->error * group_scale(s, all, grp);
            groups[g].vertex[1] = lod->index_count, groups[g].vertex[2] = lod->first_index;
            memcpy(&groups[g].vertex[3], &e, sizeof e);
        }
        /* groups are sorted by pipeline: the casters' run comes first */
        if (GN_DRAW_CASTS(grp->pipeline)) c->caster_slots = grp->first + grp->count;
    }
    free(group_cluster);
    c->slots = all->instance_count;
    c->block_count = (c->slots + GN_CULL_BLOCK - 1) / GN_CULL_BLOCK;
    res = device_buffer(r, &c->order, (VkDeviceSize)c->slots * 4, all->instances, "cull order", err);
    if (!res)
        res = device_buffer(r, &c->groups, (VkDeviceSize)all->group_count * sizeof *groups, groups,
                            "cull groups", err);
    free(groups);
    if (!res)
        res = device_buffer(r, &c->slot_clusters, (VkDeviceSize)c->slots * 4, c->slot_cluster,
                            "cull slot clusters", err);
    if (!res && !c->cluster_bounds.buffer) /* none: bound, never read */
        res = device_buffer(r, &c->cluster_bounds, sizeof(gn_gpu_cluster), NULL, "clusters (none)", err);
    /* the history: two halves of a word a slot, none seen yet */
    if (!res)
        res = device_buffer(r, &c->history, (VkDeviceSize)(c->slots ? c->slots : 1) * 8, NULL, "cull history",
                            err);
    if (res) return res;
    c->history_valid = false;
    c->stamp = gn_scene_stamp_of(s);
    c->built = true;
    c->generation++;
    return GN_OK;
}

/* The views' buffers for `cap` views: each a window of every slot (the lists), a command a
 * group, and TEST's ranks and blocks. */
static gn_result make_views(gn_renderer *r, gn_cull_gpu *c, uint32_t cap, gn_error *err)
{
    release_views(r, c);
    VkDeviceSize slots = c->slots ? c->slots : 1, groups = c->all.group_count ? c->all.group_count : 1;
    gn_result res = device_buffer(r, &c->local, cap * slots * 4, NULL, "cull ranks", err);
    if (!res)
        res = device_buffer(r, &c->blocks, cap * (VkDeviceSize)(c->block_count ? c->block_count : 1) * 4,
                            NULL, "cull blocks", err);
    if (!res) res = device_buffer(r, &c->visible, cap * slots * 4, NULL, "view lists (GPU)", err);
    if (!res)
        res = device_buffer(r, &c->commands, cap * groups * sizeof(VkDrawIndexedIndirectCommand), NULL,
                            "view commands (GPU)", err);
    if (res) return res;
    c->view_cap = cap;
    return GN_OK;
}

/* The set names the scene's instance buffer (remade with every upload of a whole scene), the
 * ring and this feature's buffers: written when any changed. */
static void write_set(gn_renderer *r, gn_cull_gpu *c)
{
    gn_vk_write w[GN_BIND_CULL_COUNT] = {
        gn_write_storage(GN_BIND_CULL_INSTANCES, &r->scene.instances),
        gn_write_storage(GN_BIND_CULL_ORDER, &c->order),
        gn_write_storage(GN_BIND_CULL_GROUPS, &c->groups),
        gn_write_storage(GN_BIND_CULL_LOCAL, &c->local),
        gn_write_storage(GN_BIND_CULL_BLOCKS, &c->blocks),
        gn_write_storage(GN_BIND_CULL_COUNTS, &c->counts),
        gn_write_storage(GN_BIND_CULL_RING, &r->vk.ring),
        gn_write_storage(GN_BIND_CULL_VISIBLE, &c->visible),
        gn_write_storage(GN_BIND_CULL_COMMANDS, &c->commands),
        gn_write_storage(GN_BIND_CULL_VIEWS, &r->vk.ring),
        gn_write_storage(GN_BIND_CULL_HZB, c->hzb.buffer ? &c->hzb : &c->counts), /* none yet: unread */
        gn_write_storage(GN_BIND_CULL_HISTORY, &c->history),
        gn_write_storage(GN_BIND_CULL_SLOT_CLUSTERS, &c->slot_clusters),
        gn_write_storage(GN_BIND_CULL_CLUSTERS, &c->cluster_bounds),
    };
    gn_vk_write_set(&r->vk, c->set, w, GN_BIND_CULL_COUNT);
    /* the frame set as gn_gpu_scene_write_frame_set writes it, the lists from this feature: the
     * commands' first instances address every view's window, so the offset stays 0 */
    gn_vk_write f[GN_BIND_FRAME_COUNT] = {
        gn_write_frame(r, GN_BIND_FRAME_CONSTANTS),
        gn_write_storage(GN_BIND_FRAME_INSTANCES, &r->scene.instances),
        gn_write_storage(GN_BIND_FRAME_MATERIALS, &r->scene.materials),
        {.binding = GN_BIND_FRAME_VISIBLE,
         .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
         .buffer = c->visible.buffer,
         .range = c->visible.size},
        gn_write_storage(GN_BIND_FRAME_EXPOSURE, &r->pipes.exposure),
        gn_write_storage(GN_BIND_FRAME_FOGS, &r->scene.fogs),
        gn_write_storage(GN_BIND_FRAME_DEFORMS, &r->scene.deforms),
        gn_write_storage(GN_BIND_FRAME_VERTICES, &r->scene.vertices),
    };
    gn_vk_write_set(&r->vk, c->frame_set, f, GN_BIND_FRAME_COUNT);
    c->set_instances = r->scene.instances.buffer;
}

/* A new view of the frame: its record in the ring, its draws laid out over the static order
 * (the commands at its window), the views' buffers grown when it is past their capacity. */
static gn_result add_view(gn_renderer *r, gn_cull_gpu *c, const gn_frustum *f, uint32_t slots, uint32_t mask,
                          float min_diameter, uint32_t mode, uint32_t tag, const float *eye, float lod_texel,
                          gn_view_draws *out, gn_error *err)
{
    uint32_t v = c->view_count;
    if (v >= c->view_cap) {
        /* the buffers may still be read by a frame in flight; rare: a frame with more views */
        gn_result res = c->view_cap ? gn_vk_wait_idle(&r->vk, err) : GN_OK;
        if (!res) res = make_views(r, c, c->view_cap * 2 > v + 1 ? c->view_cap * 2 : v + 1, err);
        if (res) {
            release_views(r, c);
            return res;
        }
        write_set(r, c);
    }
    gn_gpu_cull_view *gv = &c->views[v];
    memset(gv, 0, sizeof *gv);
    memcpy(gv->planes, f->planes, sizeof(float) * 4 * f->count);
    gv->info[0] = f->count | mode << 8, gv->info[1] = slots, gv->info[2] = mask, gv->info[3] = tag;
    gv->size[0] = min_diameter;
    if (eye) { /* the camera's: its clusters that face away from the eye are dropped */
        gv->info[0] |= GN_CULL_CONES;
        memcpy(&gv->size[1], eye, 3 * sizeof(float));
    } else if (lod_texel > 0.0f) { /* a shadow view that draws casters' LODs within a texel */
        gv->info[0] |= GN_CULL_LOD;
        gv->size[1] = lod_texel;
    }
    gn_result res = gn_plan_layout(r, &c->all, out, err);
    if (res) return res;
    out->visible_offset = 0;
    out->indirect_offset = (VkDeviceSize)v * c->all.group_count * sizeof(VkDrawIndexedIndirectCommand);
    out->set = c->frame_set;
    out->indirect = &c->commands;
    out->indices = c->indices.buffer ? &c->indices : NULL;
    c->view_count = v + 1;
    return GN_OK;
}

/* The HZB for the render size (made again when it changed) and its set naming the prepass's
 * depth (a new image after a resize). */
static gn_result ensure_hzb(gn_renderer *r, gn_cull_gpu *c, gn_error *err)
{
    gn_vk_image *depth = gn_target(r, GN_TARGET_DEPTH_MS);
    if (c->hzb.buffer && c->hzb_levels.width == r->width && c->hzb_levels.height == r->height &&
        c->hzb_depth == depth->view)
        return GN_OK;
    if (!c->hzb.buffer || c->hzb_levels.width != r->width || c->hzb_levels.height != r->height) {
        gn_result res = c->hzb.buffer ? gn_vk_wait_idle(&r->vk, err) : GN_OK; /* a frame may read it */
        if (res) return res;
        gn_vk_buffer_release(&r->vk, &c->hzb);
        gn_hzb_layout_make(r->width, r->height, &c->hzb_levels);
        res = device_buffer(r, &c->hzb, (VkDeviceSize)c->hzb_levels.texels * 4, NULL, "hzb", err);
        if (res) return res;
        write_set(r, c);
    }
    gn_vk_write w[GN_BIND_HZB_COUNT] = {gn_write_sampled(GN_BIND_HZB_DEPTH, depth, r->pipes.clamp),
                                        gn_write_storage(GN_BIND_HZB_TEXELS, &c->hzb)};
    gn_vk_write_set(&r->vk, c->hzb_set, w, GN_BIND_HZB_COUNT);
    c->hzb_depth = depth->view;
    c->history_valid = false; /* a new size: last frame's visibility is another image's */
    return GN_OK;
}

gn_result gn_cull_plan_camera(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs,
                              gn_error *err)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    gn_frame_plan *p = &r->plan;
    gn_result res = GN_OK;
    c->view_count = 0;
    bool clusters = r->in.clusters, lods = r->in.caster_lod;
    if (!c->built || !gn_scene_stamp_same_geometry(&c->stamp, s) || c->clusters_asked != clusters ||
        c->lods_asked != lods) {
        /* the order buffers may still be read by a frame in flight */
        res = c->built ? gn_vk_wait_idle(&r->vk, err) : GN_OK;
        if (!res) res = build_scene(r, c, s, clusters, lods, err);
        c->clusters_asked = clusters, c->lods_asked = lods;
        if (!res) res = make_views(r, c, 2, err);
        if (res) {
            release_scene(r, c);
            return res;
        }
        write_set(r, c);
    } else if (c->set_instances != r->scene.instances.buffer) {
        write_set(r, c);
    }
    /* the frame's views, in the ring: the camera's first, the shadow views' as they are planned */
    VkDeviceSize off;
    res = gn_vk_ring_alloc(&r->vk, GN_CULL_MAX_VIEWS * sizeof(gn_gpu_cull_view), sizeof(gn_gpu_cull_view),
                           &off, (void **)&c->views, err);
    if (res) return res;
    c->views_index = (uint32_t)(off / sizeof(gn_gpu_cull_view));
    /* A BSP world: the PVS and the leaves' frustum decide its faces on the CPU, as on the CPU
     * path; they go up as one bit an instance, in the ring. */
    uint32_t mask_word = UINT32_MAX;
    if (s->world) {
        const uint8_t *keep = gn_plan_world_keep(r, s, frustum, no_pvs);
        uint32_t words = (s->instance_count + 31) / 32;
        uint32_t *mask;
        res = gn_vk_ring_alloc(&r->vk, (words ? words : 1) * 4ull, 16, &off, (void **)&mask, err);
        if (res) return res;
        memset(mask, 0, (words ? words : 1) * 4ull);
        for (uint32_t i = 0; i < s->instance_count; i++)
            if (keep[i]) mask[i / 32] |= 1u << (i % 32);
        mask_word = (uint32_t)(off / 4);
    }
    p->camera_list = &c->all;
    p->camera_gpu = true;
    gn_frame_record(r)->visibility_gpu = true;
    c->occlusion = p->occlusion = r->in.occlusion;
    if (!c->occlusion)
        return add_view(r, c, frustum, c->slots, mask_word, 0.0f, GN_CULL_MODE_VIEW, GN_CULL_TAG_CAMERA,
                        r->in.position, 0.0f, &p->camera, err);
    res = ensure_hzb(r, c, err);
    if (!res)
        res = add_view(r, c, frustum, c->slots, mask_word, 0.0f, GN_CULL_MODE_FINAL, GN_CULL_TAG_CAMERA,
                       r->in.position, 0.0f, &p->camera, err);
    if (!res)
        res = add_view(r, c, frustum, c->slots, mask_word, 0.0f, GN_CULL_MODE_PHASE2, GN_CULL_TAG_PHASE2,
                       r->in.position, 0.0f, &p->phase[1], err);
    if (!res)
        res = add_view(r, c, frustum, c->slots, mask_word, 0.0f, GN_CULL_MODE_PHASE1, GN_CULL_TAG_PHASE1,
                       r->in.position, 0.0f, &p->phase[0], err);
    if (res) return res;
    /* the occlusion test's camera: the rows of world -> view, the projection's scales */
    gn_gpu_cull_push *cam = &c->camera;
    memset(cam, 0, sizeof *cam);
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 4; col++) cam->view[row][col] = r->in.view[col * 4 + row];
    cam->proj[0] = r->in.proj[0], cam->proj[1] = r->in.proj[5], cam->proj[2] = r->in.near_plane;
    cam->hzb[0] = c->hzb_levels.width, cam->hzb[1] = c->hzb_levels.height, cam->hzb[2] = c->hzb_levels.levels;
    gn_frame_record(r)->occlusion = true;
    return GN_OK;
}

gn_result gn_cull_add_view(gn_renderer *r, const gn_frustum *f, float min_diameter, float lod_texel,
                           uint32_t tag, gn_view_draws *out, bool *added, gn_error *err)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    *added = r->plan.camera_gpu && c->view_count < GN_CULL_MAX_VIEWS;
    if (!*added) return GN_OK;
    return add_view(r, c, f, c->caster_slots, UINT32_MAX, min_diameter, GN_CULL_MODE_VIEW, tag, NULL,
                    r->in.caster_lod ? lod_texel : 0.0f, out, err);
}

uint32_t gn_cull_list_uses(gn_renderer *r, gn_vk_use *out)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    if (!r->plan.camera_gpu || !c->built) return 0;
    out[0] = (gn_vk_use){.buffer = &c->visible, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &c->commands, .access = GN_ACCESS_INDIRECT};
    if (!c->indices.buffer) return 2;
    out[2] = (gn_vk_use){.buffer = &c->indices, .access = GN_ACCESS_VERTEX_INPUT};
    return 3;
}

/* The passes that drew a view learn its triangles only now: the pass named `name` (one
 * cascade's "csm 2", the lights' layers) adds the tag's to what it counted when it recorded
 * (a GPU view counts 0 there; a view past GN_CULL_MAX_VIEWS was culled on the CPU and counted). */
static void pass_triangles(gn_frame_stats *out, const char *name, uint64_t tris)
{
    for (uint32_t i = 0; i < out->pass_count; i++) {
        gn_pass_stats *ps = &out->passes[i];
        if (strcmp(ps->name, name) != 0) continue;
        out->triangles += tris;
        ps->triangles += tris;
    }
}

static void harvest(const void *self, const uint8_t *counters, gn_frame_stats *out)
{
    (void)self;
    if (!out->visibility_gpu) return;
    uint32_t counts[GN_CULL_TAGS][4];
    memcpy(counts, counters, sizeof counts);
    const uint32_t *cam = counts[GN_CULL_TAG_CAMERA];
    out->instances_visible = cam[3]; /* in the view: before occlusion */
    out->instances_drawn = cam[0];
    out->draw_groups = cam[2];
    out->instances_phase1 = counts[GN_CULL_TAG_PHASE1][0];
    out->instances_phase2 = counts[GN_CULL_TAG_PHASE2][0];
    const uint32_t *cl = counts[GN_CULL_TAG_CLUSTERS];
    out->clusters_tested = cl[0], out->clusters_culled_frustum = cl[1];
    out->clusters_culled_cone = cl[2], out->clusters_drawn = cl[3];
    pass_triangles(out, "depth prepass", out->occlusion ? counts[GN_CULL_TAG_PHASE1][1] : cam[1]);
    pass_triangles(out, "depth prepass 2", counts[GN_CULL_TAG_PHASE2][1]);
    pass_triangles(out, "forward", cam[1]); /* besides the sky's, counted when recorded */
    /* the cascades' casters culled on the GPU, besides any culled on the CPU (counted then) */
    for (uint32_t i = 0; i < GN_CSM_MAX; i++) {
        char name[16];
        snprintf(name, sizeof name, "csm %u", i);
        pass_triangles(out, name, counts[GN_CULL_TAG_CASCADE + i][1]);
        out->shadow_casters += counts[GN_CULL_TAG_CASCADE + i][0];
    }
    pass_triangles(out, "light shadows", counts[GN_CULL_TAG_LIGHTS][1]);
}

const gn_feature gn_feature_cull = {.name = "cull",
                                    .size = sizeof(gn_cull_gpu),
                                    .counters = TAG_BYTES,
                                    .create = create,
                                    .harvest = harvest,
                                    .release = release};

uint32_t gn_cull_runs(const gn_renderer *r, const void *self)
{
    const gn_cull_gpu *c = self;
    return r->plan.camera_gpu && c->slots > 0 && c->view_count > 0 ? 1 : 0;
}

/* The second dispatch, the HZB's: with occlusion culling only. */
uint32_t gn_cull_occlusion_runs(const gn_renderer *r, const void *self)
{
    return gn_cull_runs(r, self) && ((const gn_cull_gpu *)self)->occlusion ? 1 : 0;
}

uint32_t gn_cull_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_cull_gpu *c = self;
    out[0] = (gn_vk_use){.buffer = &r->scene.instances, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &c->order, .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.buffer = &c->groups, .access = GN_ACCESS_SHADER_READ};
    out[3] = (gn_vk_use){.buffer = &c->local, .access = GN_ACCESS_COMPUTE_WRITE};
    out[4] = (gn_vk_use){.buffer = &c->blocks, .access = GN_ACCESS_COMPUTE_WRITE};
    out[5] = (gn_vk_use){.buffer = &c->counts, .access = GN_ACCESS_COMPUTE_WRITE};
    out[6] = (gn_vk_use){.buffer = &c->visible, .access = GN_ACCESS_COMPUTE_WRITE};
    out[7] = (gn_vk_use){.buffer = &c->commands, .access = GN_ACCESS_COMPUTE_WRITE};
    /* phase 1 reads the history, the final list writes it */
    out[8] = (gn_vk_use){.buffer = &c->history, .access = GN_ACCESS_COMPUTE_WRITE};
    out[9] = (gn_vk_use){.buffer = &c->slot_clusters, .access = GN_ACCESS_SHADER_READ};
    out[10] = (gn_vk_use){.buffer = &c->cluster_bounds, .access = GN_ACCESS_SHADER_READ};
    /* TEST's set names the HZB, which its occlusion modes read (statically, in every dispatch) */
    if (!c->hzb.buffer) return 11;
    out[11] = (gn_vk_use){.buffer = &c->hzb, .access = GN_ACCESS_SHADER_READ};
    return 12;
}

uint32_t gn_cull_occlusion_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    return gn_cull_uses(r, self, run, out); /* the HZB among them */
}

/* TEST, SCAN, WRITE over views [first, first + count), each after the previous one's writes. */
static void dispatch_views(gn_renderer *r, gn_cull_gpu *c, uint32_t first, uint32_t count)
{
    gn_vk *vk = &r->vk;
    gn_gpu_cull_push push = c->camera;
    push.sizes[0] = c->slots, push.sizes[1] = c->all.group_count, push.sizes[2] = count;
    push.sizes[3] = c->block_count;
    push.where[0] = c->views_index, push.where[1] = first;
    push.where[2] = c->history_half ? c->slots : 0, push.where[3] = c->history_valid;
    gn_vk_cmd_bind_sets(vk, true, c->pipeline_layout, 0, 1, &c->set, 0, NULL);
    gn_vk_cmd_push(vk, c->pipeline_layout, sizeof push, &push);
    gn_vk_cmd_bind_pipeline(vk, true, c->pipelines[0]);
    gn_vk_cmd_dispatch(vk, c->block_count, count, 1);
    gn_vk_use scan[] = {{.buffer = &c->blocks, .access = GN_ACCESS_COMPUTE_WRITE},
                        {.buffer = &c->counts, .access = GN_ACCESS_COMPUTE_WRITE}};
    gn_vk_barriers(vk, vk->cur->cmd, scan, 2);
    gn_vk_cmd_bind_pipeline(vk, true, c->pipelines[1]);
    gn_vk_cmd_dispatch(vk, 1, count, 1);
    gn_vk_use write[] = {{.buffer = &c->local, .access = GN_ACCESS_SHADER_READ},
                         {.buffer = &c->blocks, .access = GN_ACCESS_SHADER_READ},
                         {.buffer = &c->counts, .access = GN_ACCESS_COMPUTE_WRITE}};
    gn_vk_barriers(vk, vk->cur->cmd, write, 3);
    uint32_t threads = c->slots > c->all.group_count ? c->slots : c->all.group_count;
    gn_vk_cmd_bind_pipeline(vk, true, c->pipelines[2]);
    gn_vk_cmd_dispatch(vk, (threads + GN_CULL_BLOCK - 1) / GN_CULL_BLOCK, count, 1);
}

/* The first dispatch: every view but, with occlusion, the camera's final list and phase 2
 * (views 0 and 1: they need the HZB). The counts start from zero. */
gn_pass_work gn_cull_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_cull_gpu *c = self;
    gn_vk *vk = &r->vk;
    gn_vk_use fill = {.buffer = &c->counts, .access = GN_ACCESS_TRANSFER_WRITE};
    gn_vk_barriers(vk, vk->cur->cmd, &fill, 1);
    gn_vk_cmd_fill(vk, &c->counts, 0);
    gn_vk_use counts = {.buffer = &c->counts, .access = GN_ACCESS_COMPUTE_WRITE};
    gn_vk_barriers(vk, vk->cur->cmd, &counts, 1);
    uint32_t first = c->occlusion ? 2 : 0;
    dispatch_views(r, c, first, c->view_count - first);
    if (!c->occlusion) gn_frame_count(r, GN_FEATURE_CULL, &c->counts, TAG_BYTES);
    return (gn_pass_work){0, 0};
}

/* After the HZB: phase 2 and the final list, which leaves the next frame's history; then the
 * tags' counts into the frame's. */
gn_pass_work gn_cull_occlusion_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_cull_gpu *c = self;
    dispatch_views(r, c, 0, 2);
    gn_frame_count(r, GN_FEATURE_CULL, &c->counts, TAG_BYTES);
    c->history_half ^= 1u;
    c->history_valid = true;
    return (gn_pass_work){0, 0};
}

uint32_t gn_hzb_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_cull_gpu *c = self;
    out[0] = (gn_vk_use){.image = gn_target(r, GN_TARGET_DEPTH_MS), .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &c->hzb, .access = GN_ACCESS_COMPUTE_WRITE};
    return 2;
}

/* The HZB from phase 1's depth: level 0 from every sample, then a dispatch a level. */
gn_pass_work gn_hzb_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_cull_gpu *c = self;
    gn_vk *vk = &r->vk;
    const gn_hzb_layout *l = &c->hzb_levels;
    gn_vk_cmd_bind_sets(vk, true, c->hzb_pipeline_layout, 0, 1, &c->hzb_set, 0, NULL);
    for (uint32_t k = 0; k < l->levels; k++) {
        gn_gpu_hzb_push push = {.dst = {l->w[k], l->h[k], l->offset[k], 0}};
        if (k == 0) {
            push.src[0] = l->width, push.src[1] = l->height, push.src[3] = r->msaa;
        } else {
            push.src[0] = l->w[k - 1], push.src[1] = l->h[k - 1], push.src[2] = l->offset[k - 1];
            gn_vk_use level = {.buffer = &c->hzb, .access = GN_ACCESS_COMPUTE_WRITE}; /* the level below */
            gn_vk_barriers(vk, vk->cur->cmd, &level, 1);
        }
        gn_vk_cmd_bind_pipeline(vk, true, k == 0 ? c->hzb_first : c->hzb_down);
        gn_vk_cmd_push(vk, c->hzb_pipeline_layout, sizeof push, &push);
        gn_vk_cmd_dispatch(vk, (l->w[k] + 7) / 8, (l->h[k] + 7) / 8, 1);
    }
    return (gn_pass_work){0, 0};
}

gn_result gn_cull_read_visible(gn_renderer *r, uint32_t *out, uint32_t max, uint32_t *count, gn_error *err)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    gn_result res = gn_vk_wait_idle(&r->vk, err); /* the last frame's list and counts */
    if (res) return res;
    /* the camera's (final) list is view 0: its window starts the list, its total follows the
     * tags' counts */
    uint32_t n = gn_cull_runs(r, c) ? ((const uint32_t *)c->counts.alloc.mapped)[GN_CULL_TAGS * 4] : 0;
    *count = n;
    return gn_vk_read_buffer(&r->vk, &c->visible, out, (VkDeviceSize)(n < max ? n : max) * sizeof *out,
                             "camera list readback", err);
}

const gn_caster_lods *gn_cull_caster_lods(gn_renderer *r, const gn_vk_buffer **indices, uint32_t *generation)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    *generation = c->generation;
    *indices = &c->indices;
    return c->built && c->lods.index_count ? &c->lods : NULL;
}

void gn_cull_order(gn_renderer *r, const gn_draw_list **order, const uint32_t **slot_cluster,
                   const gn_meshlets **meshlets)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    *order = &c->all, *slot_cluster = c->slot_cluster, *meshlets = &c->meshlets;
}

gn_result gn_cull_read_hzb(gn_renderer *r, float *out, size_t max, gn_hzb_layout *layout, gn_error *err)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    if (!c->hzb.buffer) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "no frame has built an HZB");
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    if (res) return res;
    *layout = c->hzb_levels;
    size_t n = c->hzb_levels.texels < max ? c->hzb_levels.texels : max;
    return gn_vk_read_buffer(&r->vk, &c->hzb, out, (VkDeviceSize)n * sizeof *out, "hzb readback", err);
}

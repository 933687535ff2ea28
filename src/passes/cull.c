/* GPU culling of the camera's draw list (a feature; shaders/cull.glsl). Once a scene, the CPU
 * sorts every instance by its draw key (gn_draw_list_build without a frustum): the order, its
 * draw groups and material batches are static. Each frame the CPU only lays out the ring
 * (the visible list's window, one indirect command a static group, the alpha-tested batches)
 * and, for a BSP world, uploads the PVS's keep mask; three dispatches then test every slot,
 * scan the counts and write the list and the commands where the CPU path would have. The draw
 * passes read the same ring ranges either way, and the list is the CPU's exactly (same ids,
 * same order: gpu_cull holds them to it), so the images are too. The CPU frame no longer grows
 * with the instances (but for a world's keep mask, one bit an instance). */
#include "passes/cull.h"

#include "base/alloc.h"
#include "scene/world.h"

#include <stdlib.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT
#define GN_CULL_BLOCK 256u

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
    };
    gn_result res = gn_vk_set_layout(vk, b, GN_BIND_CULL_COUNT, "cull set", &c->layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &c->layout, 1, sizeof(gn_gpu_cull_push), "cull", &c->pipeline_layout,
                                    err);
    /* two sets: the dispatches', and a frame set (the scene passes' set 0) whose visible-id
     * binding names this feature's list instead of the ring */
    if (!res) res = gn_vk_descriptor_pool(vk, 2, "cull sets", &c->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, c->pool, c->layout, "cull set", &c->set, err);
    if (!res)
        res = gn_vk_alloc_set(vk, c->pool, r->pipes.frame_layout, "frame set (GPU list)", &c->frame_set, err);
    static const char *const shaders[3] = {"cull_test.comp", "cull_scan.comp", "cull_write.comp"};
    for (int i = 0; i < 3 && !res; i++)
        res = gn_vk_compute_pipeline(vk, shaders[i], c->pipeline_layout, shaders[i], &c->pipelines[i], err);
    gn_vk_buffer_desc cd = {.size = 16,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                            .host_visible = true,
                            .name = "cull counts"};
    if (!res) res = gn_vk_buffer_create(vk, &cd, &c->counts, err);
    return res;
}

static void release_scene(gn_renderer *r, gn_cull_gpu *c)
{
    gn_vk *vk = &r->vk;
    gn_vk_buffer_release(vk, &c->order);
    gn_vk_buffer_release(vk, &c->groups);
    gn_vk_buffer_release(vk, &c->local);
    gn_vk_buffer_release(vk, &c->blocks);
    gn_vk_buffer_release(vk, &c->visible);
    gn_vk_buffer_release(vk, &c->commands);
    free(c->all.instances), free(c->all.groups), free(c->all.batches), free(c->all.scratch_keys);
    free(c->items);
    memset(&c->all, 0, sizeof c->all);
    c->items = NULL;
    c->built = false;
}

static void release(gn_renderer *r, void *self)
{
    gn_cull_gpu *c = self;
    gn_vk *vk = &r->vk;
    release_scene(r, c);
    gn_vk_buffer_release(vk, &c->counts);
    for (int i = 0; i < 3; i++)
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->pipelines[i]);
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

/* The scene's static draw order: every instance not removed, sorted by draw key (the CPU path's
 * gn_draw_list_build, without a frustum), its groups as GPU records, and the scratch the
 * dispatches need. Once a scene (a new geometry stamp). */
static gn_result build_scene(gn_renderer *r, gn_cull_gpu *c, const gn_scene *s, gn_error *err)
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
    gn_gpu_cull_group *groups = gn_calloc(all->group_count ? all->group_count : 1, sizeof *groups);
    if (!groups)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u draw groups", all->group_count);
    for (uint32_t g = 0; g < all->group_count; g++) {
        const gn_draw_group *grp = &all->groups[g];
        const gn_mesh *m = &s->meshes[grp->mesh];
        groups[g] = (gn_gpu_cull_group){{grp->first, grp->count, m->index_count, m->first_index},
                                        {(uint32_t)(int32_t)m->first_vertex, 0, 0, 0}};
    }
    c->slots = all->instance_count;
    c->block_count = (c->slots + GN_CULL_BLOCK - 1) / GN_CULL_BLOCK;
    gn_result res =
        device_buffer(r, &c->order, (VkDeviceSize)c->slots * 4, all->instances, "cull order", err);
    if (!res)
        res = device_buffer(r, &c->groups, (VkDeviceSize)all->group_count * sizeof *groups, groups,
                            "cull groups", err);
    free(groups);
    if (!res) res = device_buffer(r, &c->local, (VkDeviceSize)c->slots * 4, NULL, "cull ranks", err);
    if (!res) res = device_buffer(r, &c->blocks, (VkDeviceSize)c->block_count * 4, NULL, "cull blocks", err);
    /* the visible list is as long as the frame set's binding (every instance's slot) */
    if (!res)
        res = device_buffer(r, &c->visible, (VkDeviceSize)(s->instance_count ? s->instance_count : 4) * 4,
                            NULL, "camera list (GPU)", err);
    if (!res)
        res = device_buffer(r, &c->commands,
                            (VkDeviceSize)(all->group_count ? all->group_count : 1) *
                                sizeof(VkDrawIndexedIndirectCommand),
                            NULL, "camera commands (GPU)", err);
    if (res) return res;
    c->stamp = gn_scene_stamp_of(s);
    c->built = true;
    return GN_OK;
}

/* The set names the scene's instance buffer (remade with every upload of a whole scene) and
 * this feature's buffers: written when either changed. */
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
    };
    gn_vk_write_set(&r->vk, c->set, w, GN_BIND_CULL_COUNT);
    /* the frame set as gn_gpu_scene_write_frame_set writes it, the list from this feature */
    gn_vk_write f[GN_BIND_FRAME_COUNT] = {
        gn_write_frame(r, GN_BIND_FRAME_CONSTANTS),
        gn_write_storage(GN_BIND_FRAME_INSTANCES, &r->scene.instances),
        gn_write_storage(GN_BIND_FRAME_MATERIALS, &r->scene.materials),
        {.binding = GN_BIND_FRAME_VISIBLE,
         .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
         .buffer = c->visible.buffer,
         .range = c->visible.size},
    };
    gn_vk_write_set(&r->vk, c->frame_set, f, GN_BIND_FRAME_COUNT);
    c->set_instances = r->scene.instances.buffer;
}

gn_result gn_cull_plan_camera(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs,
                              gn_error *err)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    gn_frame_plan *p = &r->plan;
    gn_result res = GN_OK;
    if (!c->built || !gn_scene_stamp_same_geometry(&c->stamp, s)) {
        /* the order buffers may still be read by a frame in flight */
        res = c->built ? gn_vk_wait_idle(&r->vk, err) : GN_OK;
        if (!res) res = build_scene(r, c, s, err);
        if (res) {
            release_scene(r, c);
            return res;
        }
        write_set(r, c);
    } else if (c->set_instances != r->scene.instances.buffer) {
        write_set(r, c);
    }
    /* A BSP world: the PVS and the leaves' frustum decide its faces on the CPU, as on the CPU
     * path; they go up as one bit an instance, in the ring. */
    c->mask_words = UINT32_MAX;
    if (s->world) {
        const uint8_t *keep = gn_plan_world_keep(r, s, frustum, no_pvs);
        uint32_t words = (s->instance_count + 31) / 32;
        VkDeviceSize off;
        uint32_t *mask;
        res = gn_vk_ring_alloc(&r->vk, (words ? words : 1) * 4ull, 16, &off, (void **)&mask, err);
        if (res) return res;
        memset(mask, 0, (words ? words : 1) * 4ull);
        for (uint32_t i = 0; i < s->instance_count; i++)
            if (keep[i]) mask[i / 32] |= 1u << (i % 32);
        c->mask_words = (uint32_t)(off / 4);
    }
    /* the camera's view: the static groups and batches, the list and commands in our buffers */
    res = gn_plan_layout(r, &c->all, &p->camera, err);
    if (res) return res;
    p->camera.visible_offset = 0;
    p->camera.indirect_offset = 0;
    p->camera.set = c->frame_set;
    p->camera.indirect = &c->commands;
    p->camera_list = &c->all;
    p->camera_gpu = true;
    c->frustum = *frustum;
    c->run = c->slots > 0;
    gn_frame_record(r)->visibility_gpu = true;
    return GN_OK;
}

uint32_t gn_camera_list_uses(gn_renderer *r, gn_vk_use *out)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    if (!r->plan.camera_gpu || !c->built) return 0;
    out[0] = (gn_vk_use){.buffer = &c->visible, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &c->commands, .access = GN_ACCESS_INDIRECT};
    return 2;
}

static void harvest(const void *self, const uint8_t *counters, gn_frame_stats *out)
{
    (void)self;
    if (!out->visibility_gpu) return;
    uint32_t counts[4];
    memcpy(counts, counters, sizeof counts);
    out->instances_visible = counts[0];
    out->draw_groups = counts[2];
    /* the passes that drew the camera's list learn its triangles only now */
    for (uint32_t i = 0; i < out->pass_count; i++) {
        gn_pass_stats *ps = &out->passes[i];
        uint64_t tris = strcmp(ps->name, "depth prepass") == 0 ? counts[1]
                        : strcmp(ps->name, "forward") == 0     ? (uint64_t)counts[1] + 1 /* the sky */
                                                               : ps->triangles;
        out->triangles += tris - ps->triangles;
        ps->triangles = tris;
    }
}

const gn_feature gn_feature_cull = {.name = "cull",
                                    .size = sizeof(gn_cull_gpu),
                                    .counters = 16,
                                    .create = create,
                                    .harvest = harvest,
                                    .release = release};

uint32_t gn_cull_runs(const gn_renderer *r, const void *self)
{
    return r->plan.camera_gpu && ((const gn_cull_gpu *)self)->run ? 1 : 0;
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
    return 8;
}

/* TEST, SCAN, WRITE, each after the previous one's writes; then the counts into the frame's. */
gn_pass_work gn_cull_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_cull_gpu *c = self;
    gn_vk *vk = &r->vk;
    gn_gpu_cull_push push = {.sizes = {c->slots, c->all.group_count, c->frustum.count, c->block_count},
                             .mask = {c->mask_words, 0, 0, 0}};
    memcpy(push.planes, c->frustum.planes, sizeof(float) * 4 * c->frustum.count);
    gn_vk_cmd_bind_sets(vk, true, c->pipeline_layout, 0, 1, &c->set, 0, NULL);
    gn_vk_cmd_push(vk, c->pipeline_layout, sizeof push, &push);
    gn_vk_cmd_bind_pipeline(vk, true, c->pipelines[0]);
    gn_vk_cmd_dispatch(vk, c->block_count, 1, 1);
    gn_vk_use scan[] = {{.buffer = &c->blocks, .access = GN_ACCESS_COMPUTE_WRITE},
                        {.buffer = &c->counts, .access = GN_ACCESS_COMPUTE_WRITE}};
    gn_vk_barriers(vk, vk->cur->cmd, scan, 2);
    gn_vk_cmd_bind_pipeline(vk, true, c->pipelines[1]);
    gn_vk_cmd_dispatch(vk, 1, 1, 1);
    gn_vk_use write[] = {{.buffer = &c->local, .access = GN_ACCESS_SHADER_READ},
                         {.buffer = &c->blocks, .access = GN_ACCESS_SHADER_READ},
                         {.buffer = &c->counts, .access = GN_ACCESS_COMPUTE_WRITE}};
    gn_vk_barriers(vk, vk->cur->cmd, write, 3);
    uint32_t threads = c->slots > c->all.group_count ? c->slots : c->all.group_count;
    gn_vk_cmd_bind_pipeline(vk, true, c->pipelines[2]);
    gn_vk_cmd_dispatch(vk, (threads + GN_CULL_BLOCK - 1) / GN_CULL_BLOCK, 1, 1);
    gn_frame_count(r, GN_FEATURE_CULL, &c->counts, sizeof(uint32_t) * 4);
    return (gn_pass_work){0, 0};
}

typedef struct list_readback {
    gn_cull_gpu *c;
    gn_vk_buffer *dst;
} list_readback;

static void record_readback(gn_vk *vk, VkCommandBuffer cmd, void *user)
{
    list_readback *rb = user;
    gn_vk_use uses[] = {{.buffer = &rb->c->visible, .access = GN_ACCESS_TRANSFER_READ},
                        {.buffer = rb->dst, .access = GN_ACCESS_TRANSFER_WRITE}};
    gn_vk_barriers(vk, cmd, uses, 2);
    gn_vk_cmd_copy_buffer(vk, &rb->c->visible, rb->dst, rb->dst->size);
    gn_vk_use host = {.buffer = rb->dst, .access = GN_ACCESS_HOST_READ};
    gn_vk_barriers(vk, cmd, &host, 1);
}

gn_result gn_cull_read_visible(gn_renderer *r, uint32_t *out, uint32_t max, uint32_t *count, gn_error *err)
{
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    gn_result res = gn_vk_wait_idle(&r->vk, err); /* the last frame's list and counts */
    if (res) return res;
    uint32_t n = c->run ? ((const uint32_t *)c->counts.alloc.mapped)[0] : 0;
    *count = n;
    if (!n || !max) return GN_OK;
    gn_vk_buffer tmp;
    gn_vk_buffer_desc d = {.size = (VkDeviceSize)n * 4,
                           .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .host_visible = true,
                           .name = "camera list readback"};
    res = gn_vk_buffer_create(&r->vk, &d, &tmp, err);
    if (res) return res;
    list_readback rb = {c, &tmp};
    res = gn_vk_run_once(&r->vk, record_readback, &rb, err);
    if (!res) memcpy(out, tmp.alloc.mapped, (n < max ? n : max) * sizeof *out);
    gn_vk_buffer_release(&r->vk, &tmp);
    return res;
}

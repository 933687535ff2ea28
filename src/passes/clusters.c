/* Local lights, clustered Forward+: the scene's lights in a storage buffer, and one compute
 * dispatch (one thread per froxel of a screen-independent grid) that writes each froxel's
 * lights into its own fixed slot — no atomics for the lists; only the count of lights that
 * did not fit is summed with one atomic add, copied out and reported with the frame's
 * statistics. The CPU reference of the binning is gn_cluster_bin (src/decide/clusters.c). */
#include "decide/clusters.h"
#include "base/alloc.h"
#include "decide/lights.h"
#include "passes/lights.h"

#include <stdlib.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT
#define FS VK_SHADER_STAGE_FRAGMENT_BIT

static gn_result make_lights_buffer(gn_renderer *r, uint32_t capacity, gn_error *err)
{
    gn_lights_gpu *l = gn_lights_of(r);
    gn_vk_buffer_release(&r->vk, &l->lights);
    gn_vk_buffer_desc d = {.size = (VkDeviceSize)(capacity ? capacity : 1) * sizeof(gn_gpu_light),
                           .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .name = "lights"};
    gn_result res = gn_vk_buffer_create(&r->vk, &d, &l->lights, err);
    l->capacity = res ? 0 : (capacity ? capacity : 1);
    return res;
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *rd, gn_error *err)
{
    gn_lights_gpu *l = self;
    l->s = gn_lights_resolve(&rd->lights);
    if (l->s.x * l->s.y * l->s.z > (1u << 20) || l->s.max_lights > 1023)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "lights: grid %ux%ux%u with %u a froxel is too large",
                       l->s.x, l->s.y, l->s.z, l->s.max_lights);
    uint32_t froxels = l->s.x * l->s.y * l->s.z;
    gn_vk_buffer_desc lists = {.size = (VkDeviceSize)froxels * (l->s.max_lights + 1) * sizeof(uint32_t),
                               /* transfer source: the tests read the lists back */
                               .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                               .name = "froxel light lists"};
    gn_vk_buffer_desc overflow = {.size = 16,
                                  .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                           VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                           VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  .name = "froxel overflow counter"};
    gn_result res = gn_vk_buffer_create(&r->vk, &lists, &l->lists, err);
    if (!res) res = gn_vk_buffer_create(&r->vk, &overflow, &l->overflow, err);
    if (!res) res = make_lights_buffer(r, 64, err);
    const VkDescriptorType SSBO = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                           IMG = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    const gn_vk_binding b[GN_BIND_BIN_COUNT] = {
        [GN_BIND_BIN_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
        [GN_BIND_BIN_LIGHTS] = {SSBO, CS},
        [GN_BIND_BIN_LISTS] = {SSBO, CS}, /* written */
        [GN_BIND_BIN_OVERFLOW] = {SSBO, CS},
    };
    const gn_vk_binding rb[GN_BIND_LIGHTS_COUNT] = {
        [GN_BIND_LIGHTS_LIGHTS] = {SSBO, FS},
        [GN_BIND_LIGHTS_LISTS] = {SSBO, FS},
        [GN_BIND_LIGHTS_SHADOW_MAP] = {IMG, FS}, /* comparison sampler */
        [GN_BIND_LIGHTS_SHADOW_MATRIX] = {SSBO, FS},
    };
    if (!res) res = gn_vk_set_layout(&r->vk, b, GN_BIND_BIN_COUNT, "light binning set", &l->layout, err);
    if (!res)
        res = gn_vk_set_layout(&r->vk, rb, GN_BIND_LIGHTS_COUNT, "set 3: lights", &l->receiver_layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(&r->vk, &l->layout, 1, 0, "light binning", &l->pipeline_layout, err);
    if (!res) res = gn_vk_descriptor_pool(&r->vk, 2, "light binning", &l->pool, err);
    if (!res) res = gn_vk_alloc_set(&r->vk, l->pool, l->layout, "light binning", &l->set, err);
    if (!res) res = gn_vk_alloc_set(&r->vk, l->pool, l->receiver_layout, "set 3: lights", &l->receiver, err);
    if (!res)
        res = gn_vk_compute_pipeline(&r->vk, "cluster_bin.comp", l->pipeline_layout, "light binning",
                                     &l->pipeline, err);
    if (!res) res = gn_light_shadows_create(r, l, rd, err);
    return res;
}

static void release(gn_renderer *r, void *self)
{
    gn_lights_gpu *l = self;
    gn_light_shadows_release(r, l);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)l->receiver_layout);
    gn_vk_buffer_release(&r->vk, &l->lights);
    gn_vk_buffer_release(&r->vk, &l->lists);
    gn_vk_buffer_release(&r->vk, &l->overflow);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)l->pipeline);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)l->pipeline_layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)l->layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)l->pool);
    free(l->packed);
}

/* The binning set and the forward pass's set point at the buffers; rewritten when the light
 * buffer is replaced. */
static void write_set(gn_renderer *r)
{
    gn_lights_gpu *l = gn_lights_of(r);
    gn_vk_write w[GN_BIND_BIN_COUNT] = {
        gn_write_frame(r, GN_BIND_BIN_FRAME),
        gn_write_storage(GN_BIND_BIN_LIGHTS, &l->lights),
        gn_write_storage(GN_BIND_BIN_LISTS, &l->lists),
        gn_write_storage(GN_BIND_BIN_OVERFLOW, &l->overflow),
    };
    gn_vk_write_set(&r->vk, l->set, w, GN_BIND_BIN_COUNT);
    gn_vk_write f[GN_BIND_LIGHTS_COUNT] = {
        gn_write_storage(GN_BIND_LIGHTS_LIGHTS, &l->lights),
        gn_write_storage(GN_BIND_LIGHTS_LISTS, &l->lists),
        gn_write_sampled(GN_BIND_LIGHTS_SHADOW_MAP, &l->shadow_map, l->shadow_sampler),
        gn_write_storage(GN_BIND_LIGHTS_SHADOW_MATRIX, &l->shadow_matrices),
    };
    gn_vk_write_set(&r->vk, l->receiver, f, GN_BIND_LIGHTS_COUNT);
}

/* Uploads the scene's lights when they changed (or their shadow layers did). */
static gn_result sync(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_lights_gpu *l = gn_lights_of(r);
    uint32_t n = gn_scene_light_count(s);
    if (gn_scene_stamp_same_lights(&l->source, s) && l->count == n && l->set_written && !l->layers_changed)
        return GN_OK;
    if (n > l->capacity || !l->set_written) {
        /* a bigger buffer: the sets that point at the old one are rewritten, so no frame may
         * still use them (rare: growth doubles) */
        gn_result res = gn_vk_wait_idle(&r->vk, err);
        if (!res && n > l->capacity) {
            uint32_t cap = l->capacity;
            while (cap < n) cap *= 2;
            res = make_lights_buffer(r, cap, err);
        }
        if (res) return res;
        write_set(r);
        l->set_written = true;
    }
    if (n > l->packed_capacity) {
        free(l->packed);
        l->packed = gn_malloc((size_t)n * sizeof *l->packed);
        l->packed_capacity = l->packed ? n : 0;
        if (!l->packed) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory packing %u lights", n);
    }
    for (uint32_t i = 0; i < n; i++) {
        gn_light_desc d;
        gn_scene_get_light(s, i, &d, NULL);
        gn_light_pack(&d, l->layer_of && i < l->layer_of_capacity ? l->layer_of[i] : -1, &l->packed[i]);
    }
    gn_result res =
        gn_vk_upload_buffer(&r->vk, &l->lights, 0, l->packed, (VkDeviceSize)n * sizeof *l->packed, err);
    if (res) return res;
    l->source = gn_scene_stamp_of(s);
    l->layers_changed = false;
    l->count = n;
    return GN_OK;
}

/* The shadowed lights and their layers' casters, then the light buffer (re-uploaded when lights
 * moved or changed layers), then the froxel grid and the light count into the frame constants. */
static gn_result plan(gn_renderer *r, void *self, const gn_scene *s, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    gn_lights_gpu *l = self;
    gn_frustum frustum;
    gn_frustum_from_view_proj(g->view_proj, &frustum);
    gn_result res = gn_light_shadows_plan(r, l, s, &frustum, err);
    if (!res) res = sync(r, s, err);
    if (res) return res;
    gn_cluster_grid grid;
    gn_cluster_grid_init(l->s.x, l->s.y, l->s.z, l->s.max_lights, in->near_plane, l->s.far_depth, in->proj,
                         &grid);
    gn_cluster_frame_params(&grid, g->cluster_grid, g->cluster_depth, g->cluster_proj);
    g->lights[0] = l->count;
    g->lights[1] = in->naive_lights ? 1u : 0u;
    g->lights[2] = g->lights[3] = 0;
    l->binning = l->count && !in->naive_lights; /* the naive A/B path reads no lists */
    gn_frame_stats *rec = gn_frame_record(r);
    rec->lights = l->count;
    rec->shadowed_lights = l->chosen_count;
    rec->unshadowed_lights = l->candidates - l->chosen_count;
    return GN_OK;
}

static void receiver(gn_renderer *r, void *self, gn_receiver *out)
{
    (void)r;
    gn_lights_gpu *l = self;
    *out = (gn_receiver){.layout = l->receiver_layout, .set = l->receiver, .use_count = 4};
    out->uses[0] = (gn_vk_use){.buffer = &l->lights, .access = GN_ACCESS_SHADER_READ};
    out->uses[1] = (gn_vk_use){.buffer = &l->lists, .access = GN_ACCESS_SHADER_READ};
    out->uses[2] = (gn_vk_use){.image = &l->shadow_map, .access = GN_ACCESS_SHADER_READ};
    out->uses[3] = (gn_vk_use){.buffer = &l->shadow_matrices, .access = GN_ACCESS_SHADER_READ};
}

static void harvest(const void *self, const uint8_t *counters, gn_frame_stats *out)
{
    (void)self;
    memcpy(&out->light_overflow, counters, sizeof out->light_overflow);
}

const gn_feature gn_feature_lights = {.name = "lights",
                                      .size = sizeof(gn_lights_gpu),
                                      .counters = 16,
                                      .create = create,
                                      .plan = plan,
                                      .receiver = receiver,
                                      .harvest = harvest,
                                      .release = release};

uint32_t gn_clusters_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_lights_gpu *)self)->binning ? 1 : 0;
}

uint32_t gn_clusters_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_lights_gpu *l = self;
    out[0] = (gn_vk_use){.buffer = &l->lights, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &l->lists, .access = GN_ACCESS_COMPUTE_WRITE};
    out[2] = (gn_vk_use){.buffer = &l->overflow, .access = GN_ACCESS_TRANSFER_WRITE};
    return 3;
}

/* The binning, from a zeroed overflow count; the count into this frame's counters. */
gn_pass_work gn_clusters_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_lights_gpu *l = self;
    gn_vk *vk = &r->vk;
    uint32_t froxels = l->s.x * l->s.y * l->s.z;
    gn_vk_cmd_fill(vk, &l->overflow, 0);
    gn_vk_use write = {.buffer = &l->overflow, .access = GN_ACCESS_COMPUTE_WRITE};
    gn_vk_barriers(vk, vk->cur->cmd, &write, 1);
    gn_vk_cmd_bind_pipeline(vk, true, l->pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, l->pipeline_layout, 0, 1, &l->set, 1, &dyn);
    gn_vk_cmd_dispatch(vk, (froxels + 63) / 64, 1, 1);
    gn_frame_count(r, GN_FEATURE_LIGHTS, &l->overflow, sizeof(uint32_t));
    return (gn_pass_work){0, 0};
}

gn_result gn_lights_read_lists(gn_renderer *r, uint32_t *out, size_t words, gn_error *err)
{
    gn_vk_buffer *lists = &gn_lights_of(r)->lists;
    if (words * sizeof(uint32_t) < lists->size)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "froxel lists: %zu words, need %llu", words,
                       (unsigned long long)(lists->size / sizeof(uint32_t)));
    return gn_vk_read_buffer(&r->vk, lists, out, lists->size, "froxel lists readback", err);
}

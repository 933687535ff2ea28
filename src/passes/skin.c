/* Skinning (a feature; docs/ANIMATION.md): once a frame, before anything draws, a compute pass
 * writes every rig's skinned or morphed parts into the rig's own vertices in the scene's vertex
 * buffer, so the depth prepass, the shadow casters (the VSM's dynamic layer, the cascades, the
 * local lights' layers) and the forward pass all draw the posed shape. The CPU decided the pose
 * (gn_scene_animate: palettes, active morphs, bounds; src/scene/rig.c); this pass only applies it.
 * Its pipeline and buffers are made the first frame a scene has rigs: a renderer without them
 * pays nothing. CPU reference: gn_skin_vertex (src/decide/skin.c), held by gpu_skin. */
#include "base/alloc.h"
#include "passes/passes.h"
#include "scene/rig.h"
#include "scene/scene.h"

#include <stdlib.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

typedef struct skin_state {
    gn_screen_pass pass; /* its set: the scene's vertices, the influences, deltas, palettes, jobs */
    bool made;
    /* the models' data on the GPU (remade when rigs are added) and the frame's, copied in */
    gn_vk_buffer influences, deltas, palettes, jobs;
    uint32_t *part_influence; /* each model part's first influence record (GN_GPU_SKIN_NONE: none) */
    uint32_t *set_delta;      /* each model's morph sets' first delta record, model by model */
    uint32_t *model_first;    /* each model's first entry in the two arrays above */
    uint32_t stamp_rigs;
    uint64_t stamp_uid;
    VkBuffer stamp_vertices;
    uint32_t palette_vec4s, job_cap;
    uint32_t job_count, max_vertices; /* this frame's */
} skin_state;

static const gn_vk_binding BINDINGS[GN_BIND_SKIN_COUNT] = {
    [GN_BIND_SKIN_VERTICES] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
    [GN_BIND_SKIN_INFLUENCES] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
    [GN_BIND_SKIN_MORPHS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
    [GN_BIND_SKIN_PALETTES] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
    [GN_BIND_SKIN_JOBS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
};

static void release_data(gn_renderer *r, skin_state *s)
{
    gn_vk_buffer_release(&r->vk, &s->influences);
    gn_vk_buffer_release(&r->vk, &s->deltas);
    gn_vk_buffer_release(&r->vk, &s->palettes);
    gn_vk_buffer_release(&r->vk, &s->jobs);
    free(s->part_influence), free(s->set_delta), free(s->model_first);
    s->part_influence = s->set_delta = s->model_first = NULL;
}

static void release(gn_renderer *r, void *self)
{
    skin_state *s = self;
    release_data(r, s);
    if (s->made) gn_screen_pass_release(r, &s->pass);
}

static bool written(const gn_anim_part *p) { return p->influences || p->morph >= 0; }

static gn_result device_buffer(gn_renderer *r, gn_vk_buffer *b, VkDeviceSize size, const char *name,
                               gn_error *err)
{
    gn_vk_buffer_desc d = {.size = size ? size : 64,
                           .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .name = name};
    return gn_vk_buffer_create(&r->vk, &d, b, err);
}

/* The models' influences and deltas packed for the GPU, and the frame buffers sized for the
 * scene's rigs. */
static gn_result make_data(gn_renderer *r, skin_state *s, const gn_scene *sc, gn_error *err)
{
    release_data(r, s);
    uint64_t influences = 0, deltas = 0, entries = 0, palette = 0, jobs = 0;
    for (uint32_t m = 0; m < sc->anim_count; m++) {
        const gn_anim_model *am = &sc->anims[m].model;
        entries += am->part_count + am->morph_count;
        for (uint32_t p = 0; p < am->part_count; p++)
            if (am->parts[p].influences) influences += am->parts[p].vertex_count;
        for (uint32_t k = 0; k < am->morph_count; k++)
            deltas += (uint64_t)am->morphs[k].target_count * am->morphs[k].vertex_count;
    }
    for (uint32_t g = 0; g < sc->rig_count; g++) {
        const gn_scene_rig *rig = &sc->rigs[g];
        const gn_anim_model *am = &sc->anims[rig->model].model;
        palette += (uint64_t)am->skeleton.joint_count * (rig->d.mode == GN_SKIN_DUAL_QUAT ? 2 : 3);
        for (uint32_t p = 0; p < am->part_count; p++) jobs += written(&am->parts[p]);
    }
    if (influences > UINT32_MAX / 2 || deltas > UINT32_MAX / 2 || palette > UINT32_MAX / 2)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "skinning: %llu influences, %llu deltas: too many",
                       (unsigned long long)influences, (unsigned long long)deltas);
    /* each is bound whole as one storage buffer: past the device's range it could not be read
       (Vulkan promises 128 MiB; lavapipe gives exactly that, NVIDIA 4 GiB) */
    uint64_t range = r->vk.props.limits.maxStorageBufferRange;
    const struct {
        uint64_t bytes;
        const char *what;
    } sizes[] = {{influences * sizeof(gn_gpu_skin_influence), "skin influences"},
                 {deltas * sizeof(gn_gpu_skin_delta), "morph deltas"},
                 {palette * 16, "palettes"},
                 {jobs * sizeof(gn_gpu_skin_job), "skin jobs"}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i].bytes > range)
            return gn_fail(
                err, GN_ERROR_OUT_OF_MEMORY,
                "skinning: the scene's %s take %.1f MiB, over the device's storage buffer range of "
                "%.1f MiB",
                sizes[i].what, (double)sizes[i].bytes / (1 << 20), (double)range / (1 << 20));
    s->part_influence = gn_malloc((entries + 1) * sizeof *s->part_influence);
    s->set_delta = gn_malloc((entries + 1) * sizeof *s->set_delta);
    s->model_first = gn_malloc((sc->anim_count + 1) * sizeof *s->model_first);
    gn_gpu_skin_influence *pi = gn_malloc((influences + 1) * sizeof *pi);
    gn_gpu_skin_delta *pd = gn_malloc((deltas + 1) * sizeof *pd);
    gn_result res = GN_OK;
    if (!s->part_influence || !s->set_delta || !s->model_first || !pi || !pd)
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "skinning: out of memory packing %llu influences",
                      (unsigned long long)influences);
    uint32_t ni = 0, nd = 0, e = 0;
    for (uint32_t m = 0; !res && m < sc->anim_count; m++) {
        const gn_anim_model *am = &sc->anims[m].model;
        s->model_first[m] = e;
        for (uint32_t p = 0; p < am->part_count; p++, e++) {
            const gn_anim_part *part = &am->parts[p];
            s->part_influence[e] = part->influences ? ni : GN_GPU_SKIN_NONE;
            for (uint32_t v = 0; part->influences && v < part->vertex_count; v++, ni++) {
                const gn_skin_influence *in = &part->influences[v];
                for (int k = 0; k < 4; k++)
                    pi[ni].joints[k] = (uint32_t)in->joint[2 * k] | (uint32_t)in->joint[2 * k + 1] << 16;
                memcpy(pi[ni].weights, in->weight, sizeof in->weight);
            }
        }
        for (uint32_t k = 0; k < am->morph_count; k++, e++) {
            const gn_morph_set *set = &am->morphs[k];
            s->set_delta[e] = nd; /* a set's entry follows its model's parts' */
            size_t n = (size_t)set->target_count * set->vertex_count;
            for (size_t i = 0; i < n; i++, nd++) {
                memcpy(pd[nd].position, set->deltas + i * 6, 3 * sizeof(float));
                memcpy(pd[nd].normal, set->deltas + i * 6 + 3, 3 * sizeof(float));
                pd[nd].position[3] = pd[nd].normal[3] = 0;
            }
        }
    }
    if (!res) res = device_buffer(r, &s->influences, (VkDeviceSize)ni * sizeof *pi, "skin influences", err);
    if (!res && ni)
        res = gn_vk_upload_buffer(&r->vk, &s->influences, 0, pi, (VkDeviceSize)ni * sizeof *pi, err);
    if (!res) res = device_buffer(r, &s->deltas, (VkDeviceSize)nd * sizeof *pd, "morph deltas", err);
    if (!res && nd) res = gn_vk_upload_buffer(&r->vk, &s->deltas, 0, pd, (VkDeviceSize)nd * sizeof *pd, err);
    free(pi);
    free(pd);
    s->palette_vec4s = (uint32_t)palette, s->job_cap = (uint32_t)jobs;
    if (!res) res = device_buffer(r, &s->palettes, palette * 16, "skin palettes", err);
    if (!res) res = device_buffer(r, &s->jobs, jobs * sizeof(gn_gpu_skin_job), "skin jobs", err);
    if (!res) {
        gn_vk_write w[GN_BIND_SKIN_COUNT] = {
            gn_write_storage(GN_BIND_SKIN_VERTICES, &r->scene.vertices),
            gn_write_storage(GN_BIND_SKIN_INFLUENCES, &s->influences),
            gn_write_storage(GN_BIND_SKIN_MORPHS, &s->deltas),
            gn_write_storage(GN_BIND_SKIN_PALETTES, &s->palettes),
            gn_write_storage(GN_BIND_SKIN_JOBS, &s->jobs),
        };
        gn_vk_write_set(&r->vk, s->pass.set, w, GN_BIND_SKIN_COUNT);
    }
    return res;
}

/* This frame's palettes and jobs from the rigs' poses, through the ring. */
static gn_result upload_frame(gn_renderer *r, skin_state *s, const gn_scene *sc, gn_error *err)
{
    VkDeviceSize poff, joff;
    float *pal;
    gn_gpu_skin_job *jobs;
    gn_result res =
        gn_vk_ring_alloc(&r->vk, (VkDeviceSize)s->palette_vec4s * 16 + 16, 16, &poff, (void **)&pal, err);
    if (!res)
        res = gn_vk_ring_alloc(&r->vk, (VkDeviceSize)s->job_cap * sizeof *jobs + 16, 16, &joff,
                               (void **)&jobs, err);
    if (res) return res;
    uint32_t vec4s = 0, n = 0;
    uint64_t skinned = 0;
    s->max_vertices = 0;
    for (uint32_t g = 0; g < sc->rig_count; g++) {
        const gn_scene_rig *rig = &sc->rigs[g];
        const gn_anim_model *am = &sc->anims[rig->model].model;
        bool dq = rig->d.mode == GN_SKIN_DUAL_QUAT;
        uint32_t joints = am->skeleton.joint_count, first = vec4s;
        /* rows: 12 floats a joint, 3 vec4; dual quaternions: 8 floats after the rows, 2 vec4 */
        const float *src = dq ? rig->palette + (size_t)joints * 12 : rig->palette;
        memcpy(pal + (size_t)vec4s * 4, src, (size_t)joints * (dq ? 8 : 12) * sizeof(float));
        vec4s += joints * (dq ? 2 : 3);
        uint32_t e = s->model_first[rig->model];
        for (uint32_t p = 0; p < am->part_count; p++) {
            const gn_anim_part *part = &am->parts[p];
            if (!written(part)) continue;
            gn_gpu_skin_job *j = &jobs[n++];
            memset(j, 0, sizeof *j);
            j->range[0] = sc->meshes[part->mesh].first_vertex;
            j->range[1] = sc->meshes[rig->mesh[p]].first_vertex;
            j->range[2] = part->vertex_count;
            j->range[3] = s->part_influence[e + p];
            j->palette[0] = first;
            j->palette[1] = dq ? 1u : 0u;
            if (part->morph >= 0) {
                j->palette[2] = s->set_delta[e + am->part_count + (uint32_t)part->morph];
                j->palette[3] = am->morphs[part->morph].vertex_count;
                uint32_t active = rig->morph_active[p];
                j->morph[0] = active;
                for (uint32_t k = 0; k < active; k++) {
                    j->targets[k >> 2][k & 3] = rig->morph_targets[p * GN_MORPH_MAX_ACTIVE + k];
                    j->weights[k >> 2][k & 3] = rig->morph_weights[p * GN_MORPH_MAX_ACTIVE + k];
                }
            }
            if (part->vertex_count > s->max_vertices) s->max_vertices = part->vertex_count;
            skinned += part->vertex_count;
        }
    }
    s->job_count = n;
    gn_frame_record(r)->skinned_vertices = skinned;
    gn_vk_use use[2] = {{.buffer = &s->palettes, .access = GN_ACCESS_TRANSFER_WRITE},
                        {.buffer = &s->jobs, .access = GN_ACCESS_TRANSFER_WRITE}};
    gn_vk_barriers(&r->vk, r->vk.cur->cmd, use, 2);
    if (vec4s)
        gn_vk_cmd_copy_ring(&r->vk, &s->palettes, &(VkBufferCopy){poff, 0, (VkDeviceSize)vec4s * 16}, 1);
    if (n) gn_vk_cmd_copy_ring(&r->vk, &s->jobs, &(VkBufferCopy){joff, 0, (VkDeviceSize)n * sizeof *jobs}, 1);
    return GN_OK;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *sc, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)in, (void)g;
    skin_state *s = self;
    s->job_count = 0;
    if (!sc->rig_count) return GN_OK;
    gn_result res = GN_OK;
    if (!s->made) { /* the first frame with rigs: a screen pass's parts, and the first job pushed */
        gn_screen_pass *p = &s->pass;
        res = gn_vk_set_layout(&r->vk, BINDINGS, GN_BIND_SKIN_COUNT, "skin", &p->set_layout, err);
        if (!res)
            res = gn_vk_pipeline_layout(&r->vk, &p->set_layout, 1, sizeof(uint32_t), "skin", &p->layout, err);
        if (!res) res = gn_vk_descriptor_pool(&r->vk, 1, "skin", &p->pool, err);
        if (!res) res = gn_vk_alloc_set(&r->vk, p->pool, p->set_layout, "skin", &p->set, err);
        if (!res) res = gn_vk_compute_pipeline(&r->vk, "skin.comp", p->layout, "skin", &p->pipeline, err);
        s->made = true; /* what was made is released with the feature either way */
        if (res) return res;
    }
    /* a new scene, new rigs, or the scene's buffers made again: the models' data and the set */
    if (s->stamp_uid != sc->uid || s->stamp_rigs != sc->rig_generation ||
        s->stamp_vertices != r->scene.vertices.buffer || !s->model_first) {
        res = make_data(r, s, sc, err);
        if (res) return res;
        s->stamp_uid = sc->uid, s->stamp_rigs = sc->rig_generation,
        s->stamp_vertices = r->scene.vertices.buffer;
    }
    return upload_frame(r, s, sc, err);
}

const gn_feature gn_feature_skin = {
    .name = "skin", .size = sizeof(skin_state), .plan = plan, .release = release};

uint32_t gn_skin_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const skin_state *)self)->job_count ? 1 : 0;
}

uint32_t gn_skin_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    skin_state *s = self;
    out[0] = (gn_vk_use){.buffer = &r->scene.vertices, .access = GN_ACCESS_COMPUTE_WRITE};
    out[1] = (gn_vk_use){.buffer = &s->influences, .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.buffer = &s->deltas, .access = GN_ACCESS_SHADER_READ};
    out[3] = (gn_vk_use){.buffer = &s->palettes, .access = GN_ACCESS_SHADER_READ};
    out[4] = (gn_vk_use){.buffer = &s->jobs, .access = GN_ACCESS_SHADER_READ};
    return 5;
}

/* Every job at once: workgroups x over the largest part's vertices, y over the jobs (at most
 * 65,535 a dispatch, the least maxComputeWorkGroupCount[1] Vulkan allows). */
gn_pass_work gn_skin_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    skin_state *s = self;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_bind_pipeline(vk, true, s->pass.pipeline);
    gn_vk_cmd_bind_sets(vk, true, s->pass.layout, 0, 1, &s->pass.set, 0, NULL);
    uint32_t groups = (s->max_vertices + GN_GPU_SKIN_GROUP - 1) / GN_GPU_SKIN_GROUP;
    for (uint32_t first = 0; first < s->job_count; first += 65535) {
        uint32_t n = s->job_count - first < 65535 ? s->job_count - first : 65535;
        gn_vk_cmd_push(vk, s->pass.layout, sizeof first, &first);
        gn_vk_cmd_dispatch(vk, groups, n, 1);
    }
    return (gn_pass_work){0, 0};
}

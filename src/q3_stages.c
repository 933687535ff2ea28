/* Quake 3 shaders on the GPU (src/decide/q3_material.h): the stage buffer every material set
 * names, each material's image slots, and the per-frame evaluation of the stages' programs for the
 * materials the camera's list may draw (and the sky), written through the staging ring. */
#include "base/alloc.h"
#include "decide/q3_material.h"
#include "renderer.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(GN_GPU_Q3_STAGES == GN_Q3_MAT_STAGES, "one stage count on both sides");
_Static_assert(GN_GPU_Q3_SLOTS == GN_Q3_MAT_SLOTS, "one slot count on both sides");
_Static_assert(GN_GPU_Q3_DEFORMS == GN_Q3_MAT_DEFORMS && GN_Q3_MAT_DEFORM_OUTPUTS == 2,
               "a deform's two vectors on both sides");
_Static_assert(GN_GPU_VERTEX_FLOATS * sizeof(float) == sizeof(gn_vertex), "the vertex as floats");
_Static_assert(sizeof(((gn_scene_q3 *)0)->slot_texture) / sizeof(uint32_t) == GN_Q3_MAT_SLOTS,
               "gn_scene_q3 holds a texture a slot");

/* A stage's fixed fields (gn_gpu_stage.mode). */
static void pack_mode(const gn_q3_material *m, uint32_t base, uint32_t k, gn_gpu_stage *out)
{
    const gn_q3_mat_stage *st = &m->stages[k];
    uint32_t frames = st->frames > 255 ? 255 : st->frames;
    out->mode[0] = (st->slot & 255u) | frames << 8 | (st->source & 15u) << 16 | (st->tc & 15u) << 20 |
                   (st->lit ? 1u : 0u) << 24 | (st->has_turb ? 1u : 0u) << 25 | (st->clamp ? 1u : 0u) << 26 |
                   (st->specular_alpha ? 1u : 0u) << 27 | (m->no_mipmaps ? 1u : 0u) << 28;
    out->mode[1] = st->blend | (uint32_t)st->alpha << 8;
    out->mode[2] = m->stage_count | base << 8;
    float h = m->cloud_height < 0 ? 0 : m->cloud_height > 1e6f ? 1e6f : m->cloud_height;
    out->mode[3] =
        (m->has_box ? GN_GPU_Q3_SKY_BOX : 0u) | (m->unlit ? GN_GPU_Q3_UNLIT : 0u) | (uint32_t)h << 8;
}

/* Material q's program evaluated at `seconds`: its stages' outputs, then its deforms'. */
static void eval_material(const gn_scene_q3 *q, float seconds, gn_tfx_vec4 v[GN_Q3_MAT_OUTPUT_MAX])
{
    memset(v, 0, sizeof(gn_tfx_vec4) * GN_Q3_MAT_OUTPUT_MAX);
    gn_q3_material_eval(q->mat, seconds, NULL, v);
}

/* Material q's records: the mode, and its evaluated outputs v. Record 0 is written even with no
 * stage (its count 0 and the sky's flags); base: its first layer in the array. */
static void pack_records(const gn_scene_q3 *q, uint32_t base, const gn_tfx_vec4 *v,
                         gn_gpu_stage out[GN_Q3_MAT_STAGES])
{
    memset(out, 0, sizeof(gn_gpu_stage) * GN_Q3_MAT_STAGES);
    for (uint32_t k = 0; k < GN_Q3_MAT_STAGES; k++) {
        if (k < q->mat->stage_count) {
            memcpy(out[k].tex0, v[k * 4 + 0].v, 16);
            memcpy(out[k].tex1, v[k * 4 + 1].v, 16);
            memcpy(out[k].color, v[k * 4 + 2].v, 16);
            memcpy(out[k].extra, v[k * 4 + 3].v, 16);
            pack_mode(q->mat, base, k, &out[k]);
        }
    }
    if (!q->mat->stage_count) pack_mode(q->mat, base, 0, &out[0]);
}

/* Material q's vertex deforms from its evaluated outputs v (zeros past its last: the shader stops
 * there). */
static void pack_deforms(const gn_scene_q3 *q, const gn_tfx_vec4 *v, gn_gpu_deform *out)
{
    memset(out, 0, sizeof *out);
    uint32_t first = q->mat->stage_count * GN_Q3_MAT_OUTPUTS;
    for (uint32_t k = 0; k < q->mat->deform_count * GN_Q3_MAT_DEFORM_OUTPUTS; k++)
        memcpy(out->v[k], v[first + k].v, 16);
}

/* The deform buffer (one record a material, zeros where none) and the list of the materials
 * that have deforms, at time 0. */
static gn_result make_deforms(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    uint32_t n = s->material_count ? s->material_count : 1;
    gn_gpu_deform *packed = gn_calloc(n, sizeof *packed);
    g->deform_ids = gn_calloc(n, sizeof *g->deform_ids);
    g->deform_frame = gn_calloc(n, sizeof *g->deform_frame);
    if (!packed || !g->deform_ids || !g->deform_frame) {
        free(packed);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u materials' deforms", n);
    }
    for (uint32_t i = 0; i < s->material_count; i++) {
        uint32_t q = s->materials[i].q3;
        if (q == GN_NO_Q3 || q >= s->q3_count || !s->q3[q].mat->deform_count) continue;
        gn_tfx_vec4 v[GN_Q3_MAT_OUTPUT_MAX];
        eval_material(&s->q3[q], 0.0f, v);
        pack_deforms(&s->q3[q], v, &packed[i]);
        g->deform_ids[g->deform_count++] = i;
    }
    gn_vk_buffer_desc d = {.size = (VkDeviceSize)n * sizeof *packed,
                           .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .name = "Quake 3 deforms"};
    gn_result res = gn_vk_buffer_create(&r->vk, &d, &g->deforms, err);
    if (!res) res = gn_vk_upload_buffer(&r->vk, &g->deforms, 0, packed, d.size, err);
    free(packed);
    return res;
}

/* This frame's deforms: every material that has them, in view or not (a shadow may show one).
 * A material in view was evaluated for its stages this frame (evaluated[i] set, its outputs at
 * outputs[i's deform index]); the others are evaluated here. */
static gn_result update_deforms(gn_renderer *r, const gn_scene *s, float seconds, const uint8_t *evaluated,
                                gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    if (!g->deform_count) return GN_OK;
    VkDeviceSize off;
    void *p;
    gn_result res =
        gn_vk_ring_alloc(&r->vk, (VkDeviceSize)g->deform_count * sizeof(gn_gpu_deform), 16, &off, &p, err);
    if (res) return res;
    gn_vk_use use = {.buffer = &g->deforms, .access = GN_ACCESS_TRANSFER_WRITE};
    gn_vk_barriers(&r->vk, r->vk.cur->cmd, &use, 1);
    VkBufferCopy regions[64];
    uint32_t nr = 0;
    for (uint32_t k = 0; k < g->deform_count; k++) {
        uint32_t i = g->deform_ids[k];
        if (evaluated[i]) {
            memcpy((gn_gpu_deform *)p + k, &g->deform_frame[k], sizeof(gn_gpu_deform));
        } else {
            gn_tfx_vec4 v[GN_Q3_MAT_OUTPUT_MAX];
            eval_material(&s->q3[s->materials[i].q3], seconds, v);
            pack_deforms(&s->q3[s->materials[i].q3], v, (gn_gpu_deform *)p + k);
        }
        regions[nr++] = (VkBufferCopy){off + (VkDeviceSize)k * sizeof(gn_gpu_deform),
                                       (VkDeviceSize)i * sizeof(gn_gpu_deform), sizeof(gn_gpu_deform)};
        if (nr == 64 || k + 1 == g->deform_count) {
            gn_vk_cmd_copy_ring(&r->vk, &g->deforms, regions, nr);
            nr = 0;
        }
    }
    return GN_OK;
}

/* The scene's shader image array (scene/q3_array.c) on the GPU: copied level by level. */
static gn_result make_array(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    const gn_scene_q3_array *a = &s->q3_array;
    if (!a->texels) return GN_OK;
    gn_vk_image_desc d = {.width = a->side,
                          .height = a->side,
                          .samples = 1,
                          .mips = a->levels,
                          .format = VK_FORMAT_R8G8B8A8_SRGB,
                          .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                          .name = "Quake 3 shaders' images",
                          .layers = a->layers,
                          .array = true};
    gn_result res = gn_vk_image_create(&r->vk, &d, &g->q3_array, err);
    g->q3_array_made = !res;
    const uint8_t *level = a->texels;
    for (uint32_t l = 0; !res && l < a->levels; l++) {
        res = gn_vk_upload_image_layers(&r->vk, &g->q3_array, l, level, err);
        level += (size_t)(a->side >> l) * (a->side >> l) * 4 * a->layers;
    }
    if (!res) {
        gn_vk_use use = {.image = &g->q3_array, .access = GN_ACCESS_SHADER_READ};
        gn_vk_barriers(&r->vk, r->vk.cur->cmd, &use, 1);
    }
    return res;
}

static bool scene_has_q3(const gn_scene *s)
{
    for (uint32_t i = 0; i < s->material_count; i++)
        if (s->materials[i].q3 != GN_NO_Q3 && s->materials[i].q3 < s->q3_count) return true;
    return false;
}

gn_result gn_q3_stages_upload(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    g->sky_material = UINT32_MAX;
    bool any = scene_has_q3(s);
    /* one record when there is no Quake 3 material: every set names the buffer */
    uint32_t records = any ? s->material_count * GN_Q3_MAT_STAGES : 1;
    gn_gpu_stage *packed = gn_calloc(records, sizeof *packed);
    g->stage_flags = gn_calloc(s->material_count ? s->material_count : 1, 1);
    g->stage_listed = gn_calloc(s->material_count ? s->material_count : 1, 1);
    if (!packed || !g->stage_flags || !g->stage_listed) {
        free(packed);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u Quake 3 stages", records);
    }
    /* the images: the shaders' array, and one white layer for every other material */
    static const uint8_t white[4] = {255, 255, 255, 255};
    gn_vk_image_desc wd = {.width = 1,
                           .height = 1,
                           .samples = 1,
                           .mips = 1,
                           .format = VK_FORMAT_R8G8B8A8_SRGB,
                           .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                           .name = "white array",
                           .layers = 1,
                           .array = true};
    gn_result res = gn_vk_image_create(&r->vk, &wd, &g->white_array, err);
    if (!res) res = gn_vk_upload_image_layers(&r->vk, &g->white_array, 0, white, err);
    if (!res) {
        gn_vk_use use = {.image = &g->white_array, .access = GN_ACCESS_SHADER_READ};
        gn_vk_barriers(&r->vk, r->vk.cur->cmd, &use, 1);
    }
    if (!res) res = make_array(r, s, err);
    if (!res) res = make_deforms(r, s, err);
    if (res) {
        free(packed);
        return res;
    }
    for (uint32_t i = 0; any && i < s->material_count; i++) {
        uint32_t q = s->materials[i].q3;
        if (q == GN_NO_Q3 || q >= s->q3_count) continue;
        g->stage_flags[i] = 1;
        gn_tfx_vec4 v[GN_Q3_MAT_OUTPUT_MAX];
        eval_material(&s->q3[q], 0.0f, v);
        pack_records(&s->q3[q], s->q3[q].first_layer, v, &packed[i * GN_Q3_MAT_STAGES]);
        if (q == s->sky_q3 && g->sky_material == UINT32_MAX) g->sky_material = i;
    }
    gn_vk_buffer_desc d = {.size = (VkDeviceSize)records * sizeof *packed,
                           .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .name = "Quake 3 stages"};
    res = gn_vk_buffer_create(&r->vk, &d, &g->stages, err);
    if (!res) res = gn_vk_upload_buffer(&r->vk, &g->stages, 0, packed, d.size, err);
    free(packed);
    return res;
}

uint32_t gn_q3_stages_writes(gn_renderer *r, const gn_scene *s, uint32_t material, gn_vk_write *out)
{
    gn_gpu_scene *g = &r->scene;
    uint32_t q = material < s->material_count ? s->materials[material].q3 : GN_NO_Q3;
    const gn_scene_q3 *sq = q != GN_NO_Q3 && q < s->q3_count ? &s->q3[q] : NULL;
    uint32_t n = 0;
    out[n++] = gn_write_storage(GN_BIND_MATERIAL_STAGE_DATA, &g->stages);
    /* repeat: a clampMap stage clamps its coordinates in the shader */
    out[n++] = gn_write_sampled(GN_BIND_MATERIAL_SLOTS,
                                sq && g->q3_array_made ? &g->q3_array : &g->white_array, r->pipes.repeat);
    return n;
}

/* Whether material i is one whose records this frame writes: a Quake 3 material in the camera's
 * list, or the sky's. */
static bool in_view(const gn_renderer *r, const gn_scene *s, const uint8_t *listed, uint32_t i)
{
    uint32_t q = s->materials[i].q3;
    if (q == GN_NO_Q3 || q >= s->q3_count) return false;
    return listed[i] || i == r->scene.sky_material;
}

gn_result gn_q3_stages_update(gn_renderer *r, const gn_scene *s, double seconds, gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    r->q3_evaluated = 0;
    r->q3_ms = 0.0;
    if (!s->q3_count || g->material_count != s->material_count) return GN_OK;
    const gn_draw_list *list = r->plan.camera_list;
    uint8_t *listed = g->stage_listed; /* scratch made at upload: no allocation a frame */
    memset(listed, 0, s->material_count);
    for (uint32_t b = 0; list && b < list->batch_count; b++)
        if (list->batches[b].material < s->material_count) listed[list->batches[b].material] = 1;
    double t0 = gn_plan_now_ms();
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->material_count; i++) n += in_view(r, s, listed, i);
    gn_result res = GN_OK;
    if (n) {
        VkDeviceSize off;
        void *p;
        VkDeviceSize bytes = (VkDeviceSize)n * GN_Q3_MAT_STAGES * sizeof(gn_gpu_stage);
        res = gn_vk_ring_alloc(&r->vk, bytes, 16, &off, &p, err);
        if (!res) {
            gn_vk_use use = {.buffer = &g->stages, .access = GN_ACCESS_TRANSFER_WRITE};
            gn_vk_barriers(&r->vk, r->vk.cur->cmd, &use, 1);
            VkBufferCopy regions[64];
            uint32_t nr = 0, k = 0;
            /* the clock the waves read: seconds since the frame's epoch, in float as the game's */
            float t = (float)seconds;
            uint32_t d = 0; /* the cursor in deform_ids (ascending, as i) */
            for (uint32_t i = 0; i < s->material_count; i++) {
                if (!in_view(r, s, listed, i)) continue;
                gn_gpu_stage *rec = (gn_gpu_stage *)p + (size_t)k * GN_Q3_MAT_STAGES;
                uint32_t q = s->materials[i].q3;
                gn_tfx_vec4 v[GN_Q3_MAT_OUTPUT_MAX];
                eval_material(&s->q3[q], t, v);
                pack_records(&s->q3[q], s->q3[q].first_layer, v, rec);
                /* its deforms from the same outputs: evaluated once a frame (listed[i] = 2) */
                while (d < g->deform_count && g->deform_ids[d] < i) d++;
                if (d < g->deform_count && g->deform_ids[d] == i) {
                    pack_deforms(&s->q3[q], v, &g->deform_frame[d]);
                    listed[i] = 2;
                }
                regions[nr++] =
                    (VkBufferCopy){off + (VkDeviceSize)k * GN_Q3_MAT_STAGES * sizeof(gn_gpu_stage),
                                   (VkDeviceSize)i * GN_Q3_MAT_STAGES * sizeof(gn_gpu_stage),
                                   GN_Q3_MAT_STAGES * sizeof(gn_gpu_stage)};
                k++;
                if (nr == 64 || k == n) {
                    gn_vk_cmd_copy_ring(&r->vk, &g->stages, regions, nr);
                    nr = 0;
                }
            }
            r->q3_evaluated = n;
        }
    }
    for (uint32_t i = 0; i < s->material_count; i++) listed[i] = listed[i] == 2;
    if (!res) res = update_deforms(r, s, (float)seconds, listed, err);
    r->q3_ms = gn_plan_now_ms() - t0;
    return res;
}

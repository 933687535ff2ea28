/* Uploads a gn_scene: one vertex and one index buffer for every mesh, instance and
 * material storage buffers, textures and a descriptor set per material (lavapipe has no
 * descriptor indexing, so textures are bound per material batch). Dynamic instances are
 * re-uploaded through the staging ring when they move. */
#include "base/alloc.h"
#include "base/image.h"
#include "decide/q3_fog.h"
#include "decide/q3_material.h"
#include "formats/dds.h"
#include "renderer.h"

#include <stdlib.h>
#include <string.h>

void gn_pack_instance(const gn_instance *in, uint32_t probe, gn_gpu_instance *out);
void gn_pack_material(const gn_material *in, gn_gpu_material *out);

/* The affine transform's three rows, so the shader needs three dot products; probe: the
 * reflection probe it reflects, plus one (0: the sky's environment). */
void gn_pack_instance(const gn_instance *in, uint32_t probe, gn_gpu_instance *out)
{
    const float *m = in->transform;
    for (int c = 0; c < 4; c++) {
        out->row0[c] = m[c * 4 + 0];
        out->row1[c] = m[c * 4 + 1];
        out->row2[c] = m[c * 4 + 2];
    }
    out->info[0] = in->material;
    out->info[1] = (in->flags & GN_INSTANCE_DYNAMIC ? GN_GPU_INSTANCE_DYNAMIC : 0u) | in->grid_light[2] |
                   (probe & GN_GPU_INSTANCE_PROBE_MASK) << GN_GPU_INSTANCE_PROBE_SHIFT;
    out->info[2] = in->grid_light[0];
    out->info[3] = in->grid_light[1];
    /* the world bounding sphere, for GPU culling; a removed instance is never visible */
    memcpy(out->sphere, in->sphere, sizeof out->sphere);
    if (in->flags & GN_INSTANCE_REMOVED) out->sphere[3] = -1.0f;
}

void gn_pack_material(const gn_material *in, gn_gpu_material *out)
{
    memcpy(out->base_color, in->base_color, sizeof out->base_color);
    out->emissive[0] = in->emissive[0];
    out->emissive[1] = in->emissive[1];
    out->emissive[2] = in->emissive[2];
    out->emissive[3] = in->night_emissive ? 1.0f : 0.0f;
    out->pbr[0] = in->metallic;
    out->pbr[1] = in->roughness;
    out->pbr[2] = in->base_color_texture != GN_NO_TEXTURE ? 1.0f : 0.0f;
    out->pbr[3] = in->normal_texture != GN_NO_TEXTURE ? 1.0f : 0.0f;
    out->lighting[0] = in->lightmap_texture != GN_NO_TEXTURE ? 1.0f : 0.0f;
    out->lighting[1] = (float)in->alpha_mode;
    out->lighting[2] = in->alpha_cutoff;
    out->lighting[3] =
        (float)((in->metallic_roughness_texture != GN_NO_TEXTURE ? GN_GPU_MAP_METAL_ROUGH : 0u) |
                (in->occlusion_texture != GN_NO_TEXTURE ? GN_GPU_MAP_OCCLUSION : 0u) |
                (in->emissive_texture != GN_NO_TEXTURE ? GN_GPU_MAP_EMISSIVE : 0u) |
                (in->specular_texture != GN_NO_TEXTURE ? GN_GPU_MAP_SPECULAR : 0u) |
                (in->specular_color_texture != GN_NO_TEXTURE ? GN_GPU_MAP_SPECULAR_COLOR : 0u) |
                (in->q3 != GN_NO_Q3 ? GN_GPU_MAP_STAGES : 0u));
    memcpy(out->specular, in->specular, sizeof out->specular);
    /* gn_material_map's order is GN_GPU_UV_*'s */
    for (int k = 0; k < GN_GPU_UV_SLOTS; k++) {
        const float *t = in->uv_transform[k];
        float *r0 = out->uv_transform[2 * k], *r1 = out->uv_transform[2 * k + 1];
        r0[0] = t[0], r0[1] = t[1], r0[2] = t[2], r0[3] = (float)in->uv_set[k];
        bool identity =
            t[0] == 1.0f && t[1] == 0.0f && t[2] == 0.0f && t[3] == 0.0f && t[4] == 1.0f && t[5] == 0.0f;
        r1[0] = t[3], r1[1] = t[4], r1[2] = t[5], r1[3] = identity ? 0.0f : 1.0f;
    }
}

void gn_gpu_scene_release(gn_renderer *r)
{
    gn_gpu_scene *g = &r->scene;
    gn_vk *vk = &r->vk;
    gn_vk_buffer_release(vk, &g->vertices);
    gn_vk_buffer_release(vk, &g->indices);
    gn_vk_buffer_release(vk, &g->instances);
    gn_vk_buffer_release(vk, &g->materials);
    gn_vk_buffer_release(vk, &g->stages);
    gn_vk_buffer_release(vk, &g->deforms);
    free(g->deform_ids);
    free(g->deform_frame);
    gn_vk_buffer_release(vk, &g->fogs);
    free(g->stage_flags);
    free(g->material_state);
    free(g->material_rank);
    free(g->stage_listed);
    gn_vk_image_release(vk, &g->q3_array); /* a zeroed or half-made image is fine */
    gn_vk_image_release(vk, &g->white_array);
    for (uint32_t i = 0; i < g->texture_count; i++) gn_vk_image_release(vk, &g->textures[i]);
    gn_vk_image_release(vk, &g->white);
    gn_vk_image_release(vk, &g->flat_normal);
    gn_vk_image_release(vk, &g->black_light);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)g->pool);
    free(g->textures);
    free(g->material_sets);
    free(g->dynamic_ids);
    memset(g, 0, sizeof *g);
}

static gn_result make_buffer(gn_renderer *r, gn_vk_buffer *b, VkBufferUsageFlags usage, const void *data,
                             VkDeviceSize size, const char *name, gn_error *err)
{
    gn_vk_buffer_desc d = {
        .size = size ? size : 16, .usage = usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, .name = name};
    gn_result res = gn_vk_buffer_create(&r->vk, &d, b, err);
    if (!res && size) res = gn_vk_upload_buffer(&r->vk, b, 0, data, size, err);
    return res;
}

/* A texture: RGBA8 with its full mip chain, built on the CPU (gn_mip_down) so that lavapipe
 * and every GPU filter the same way; RGB9E5 light (lightmap atlases) as one level. */
static gn_result make_texture(gn_renderer *r, gn_vk_image *img, uint32_t w, uint32_t h, uint32_t format,
                              bool srgb, const uint8_t *rgba, const char *name, gn_error *err)
{
    bool hdr = format == GN_TEXTURE_RGB9E5;
    uint32_t levels = hdr ? 1 : gn_mip_levels(w, h);
    gn_vk_image_desc d = {w,
                          h,
                          1,
                          levels,
                          hdr    ? VK_FORMAT_E5B9G9R9_UFLOAT_PACK32
                          : srgb ? VK_FORMAT_R8G8B8A8_SRGB
                                 : VK_FORMAT_R8G8B8A8_UNORM,
                          VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                          name};
    gn_result res = gn_vk_image_create(&r->vk, &d, img, err);
    uint8_t *a = NULL, *b = NULL;
    if (!res && levels > 1) {
        a = gn_malloc((size_t)(w / 2 ? w / 2 : 1) * (h / 2 ? h / 2 : 1) * 4);
        b = gn_malloc((size_t)(w / 2 ? w / 2 : 1) * (h / 2 ? h / 2 : 1) * 4);
        if (!a || !b) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for mips of %ux%u", w, h);
    }
    if (!res) res = gn_vk_upload_image(&r->vk, img, 0, rgba, err);
    const uint8_t *src = rgba;
    for (uint32_t level = 1; !res && level < levels; level++) {
        uint32_t sw = w >> (level - 1) ? w >> (level - 1) : 1, sh = h >> (level - 1) ? h >> (level - 1) : 1;
        gn_mip_down(src, sw, sh, srgb, a);
        res = gn_vk_upload_image(&r->vk, img, level, a, err);
        src = a;
        uint8_t *t = a; /* ping-pong: the level just made is the next one's source */
        a = b;
        b = t;
    }
    free(a);
    free(b);
    if (!res) {
        /* the upload is this texture's only writer: make it readable by the shaders now */
        gn_vk_use use = {.image = img, .access = GN_ACCESS_SHADER_READ};
        gn_vk_barriers(&r->vk, r->vk.cur->cmd, &use, 1);
    }
    return res;
}

/* The Vulkan format of a block texture (gn_texture.blocks); BC1 with its 1-bit alpha. */
static VkFormat block_format(uint32_t blocks, bool srgb)
{
    switch (blocks) {
    case GN_DDS_BC1:
        return srgb ? VK_FORMAT_BC1_RGBA_SRGB_BLOCK : VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
    case GN_DDS_BC2:
        return srgb ? VK_FORMAT_BC2_SRGB_BLOCK : VK_FORMAT_BC2_UNORM_BLOCK;
    case GN_DDS_BC3:
        return srgb ? VK_FORMAT_BC3_SRGB_BLOCK : VK_FORMAT_BC3_UNORM_BLOCK;
    case GN_DDS_BC4:
        return VK_FORMAT_BC4_UNORM_BLOCK;
    case GN_DDS_BC5:
        return VK_FORMAT_BC5_UNORM_BLOCK;
    case GN_DDS_BC6H_UF16: /* linear floats: no sRGB form, whatever the slot */
        return VK_FORMAT_BC6H_UFLOAT_BLOCK;
    case GN_DDS_BC6H_SF16:
        return VK_FORMAT_BC6H_SFLOAT_BLOCK;
    case GN_DDS_BC7:
        return srgb ? VK_FORMAT_BC7_SRGB_BLOCK : VK_FORMAT_BC7_UNORM_BLOCK;
    default:
        return VK_FORMAT_UNDEFINED;
    }
}

static VkComponentSwizzle block_swizzle(char c)
{
    switch (c) {
    case 'r':
        return VK_COMPONENT_SWIZZLE_R;
    case 'g':
        return VK_COMPONENT_SWIZZLE_G;
    case 'b':
        return VK_COMPONENT_SWIZZLE_B;
    case 'a':
        return VK_COMPONENT_SWIZZLE_A;
    case '0':
        return VK_COMPONENT_SWIZZLE_ZERO;
    case '1':
        return VK_COMPONENT_SWIZZLE_ONE;
    default:
        return VK_COMPONENT_SWIZZLE_IDENTITY;
    }
}

/* A block-compressed texture (gn_texture.blocks): its levels copied as they are where the
 * device samples the format (textureCompressionBC and the format's own support), else level 0
 * decoded to RGBA8 here, swizzled, with the CPU mip chain of every RGBA8 texture. */
static gn_result make_block_texture(gn_renderer *r, gn_vk_image *img, const gn_texture *t, gn_error *err)
{
    VkFormat vf = block_format(t->blocks, t->srgb);
    if (r->vk.texture_bc && gn_vk_format_samples(&r->vk, vf)) {
        const char *sw = t->swizzle;
        gn_vk_image_desc d = {
            t->width,
            t->height,
            1,
            t->levels,
            vf,
            VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
            "scene texture (blocks)",
            0,
            false,
            {block_swizzle(sw[0]), block_swizzle(sw[1]), block_swizzle(sw[2]), block_swizzle(sw[3])}};
        gn_result res = gn_vk_image_create(&r->vk, &d, img, err);
        uint64_t at = 0;
        for (uint32_t l = 0; !res && l < t->levels; l++) {
            uint32_t w = t->width >> l ? t->width >> l : 1, h = t->height >> l ? t->height >> l : 1;
            res = gn_vk_upload_blocks(&r->vk, img, l, t->texels + at, gn_dds_block_bytes(t->blocks), err);
            at += gn_dds_level_bytes(t->blocks, w, h);
        }
        if (!res) {
            gn_vk_use use = {.image = img, .access = GN_ACCESS_SHADER_READ};
            gn_vk_barriers(&r->vk, r->vk.cur->cmd, &use, 1);
        }
        return res;
    }
    uint8_t *px = gn_malloc((size_t)t->width * t->height * 4);
    if (!px)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory decoding %ux%u blocks", t->width,
                       t->height);
    gn_dds_decode(t->blocks, t->texels, t->width, t->height, px);
    if (t->swizzle[0]) gn_dds_swizzle(px, (size_t)t->width * t->height, t->swizzle);
    /* BC6H decodes to linear values clamped to 0..1 (dds.h): UNORM, never sRGB */
    bool hdr = t->blocks == GN_DDS_BC6H_UF16 || t->blocks == GN_DDS_BC6H_SF16;
    gn_result res = make_texture(r, img, t->width, t->height, GN_TEXTURE_RGBA8, t->srgb && !hdr, px,
                                 "scene texture (decoded blocks)", err);
    free(px);
    return res;
}

static gn_result upload_materials(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    uint32_t n = s->material_count ? s->material_count : 1;
    gn_gpu_material *packed = gn_calloc(n, sizeof *packed);
    g->material_sets = gn_calloc(n, sizeof *g->material_sets);
    if (!packed || !g->material_sets) {
        free(packed);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory packing %u materials", n);
    }
    g->material_state = gn_calloc(n, sizeof *g->material_state);
    g->material_rank = gn_calloc(n, sizeof *g->material_rank);
    if (!g->material_state || !g->material_rank) {
        free(packed);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u materials' states", n);
    }
    for (uint32_t i = 0; i < s->material_count; i++) {
        gn_pack_material(&s->materials[i], &packed[i]);
        g->material_state[i] = s->materials[i].state;
        g->material_rank[i] = gn_blend_rank(s->materials[i].sort);
    }
    gn_result res = make_buffer(r, &g->materials, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, packed,
                                (VkDeviceSize)s->material_count * sizeof *packed, "materials", err);
    free(packed);
    if (!res) res = gn_q3_stages_upload(r, s, err);
    if (!res) res = gn_vk_descriptor_pool(&r->vk, n, "material sets", &g->pool, err);
    /* a scene without materials still gets one set of defaults: the sky pass binds set 1 */
    static const gn_material none = {.base_color_texture = GN_NO_TEXTURE,
                                     .normal_texture = GN_NO_TEXTURE,
                                     .lightmap_texture = GN_NO_TEXTURE,
                                     .metallic_roughness_texture = GN_NO_TEXTURE,
                                     .occlusion_texture = GN_NO_TEXTURE,
                                     .emissive_texture = GN_NO_TEXTURE,
                                     .specular_texture = GN_NO_TEXTURE,
                                     .specular_color_texture = GN_NO_TEXTURE,
                                     .q3 = GN_NO_Q3};
    for (uint32_t i = 0; !res && i < n; i++) {
        const gn_material *m = i < s->material_count ? &s->materials[i] : &none;
        res =
            gn_vk_alloc_set(&r->vk, g->pool, r->pipes.material_layout, "material", &g->material_sets[i], err);
        if (res) break;
        gn_vk_image *base =
            m->base_color_texture != GN_NO_TEXTURE ? &g->textures[m->base_color_texture] : &g->white;
        gn_vk_image *nrm =
            m->normal_texture != GN_NO_TEXTURE ? &g->textures[m->normal_texture] : &g->flat_normal;
        /* no lightmap: any image fills the slot (the shader does not read it) */
        gn_vk_image *lm =
            m->lightmap_texture != GN_NO_TEXTURE ? &g->textures[m->lightmap_texture] : &g->black_light;
        /* the other maps: white where absent (the shader does not read them then) */
        const uint32_t maps[3] = {m->metallic_roughness_texture, m->occlusion_texture, m->emissive_texture};
        const uint32_t spec[2] = {m->specular_texture, m->specular_color_texture};
        gn_vk_write w[GN_BIND_MATERIAL_COUNT] = {
            gn_write_sampled(GN_BIND_MATERIAL_BASE, base, r->pipes.repeat),
            gn_write_sampled(GN_BIND_MATERIAL_NORMAL, nrm, r->pipes.repeat),
            gn_write_sampled(GN_BIND_MATERIAL_LIGHTMAP, lm, r->pipes.clamp_linear),
        };
        /* the other maps follow in the order of maps[]: metallic-roughness, occlusion, emissive */
        for (int k = 0; k < 3; k++)
            w[GN_BIND_MATERIAL_METAL_ROUGH + k] = gn_write_sampled(
                (uint32_t)(GN_BIND_MATERIAL_METAL_ROUGH + k),
                maps[k] != GN_NO_TEXTURE ? &g->textures[maps[k]] : &g->white, r->pipes.repeat);
        /* KHR_materials_specular's: specular (alpha), then specular colour */
        for (int k = 0; k < 2; k++)
            w[GN_BIND_MATERIAL_SPECULAR + k] = gn_write_sampled(
                (uint32_t)(GN_BIND_MATERIAL_SPECULAR + k),
                spec[k] != GN_NO_TEXTURE ? &g->textures[spec[k]] : &g->white, r->pipes.repeat);
        /* a Quake 3 shader's stages and image slots (white in every slot for other materials) */
        gn_q3_stages_writes(r, s, i, &w[GN_BIND_MATERIAL_STAGE_DATA]);
        gn_vk_write_set(&r->vk, g->material_sets[i], w, GN_BIND_MATERIAL_COUNT);
    }
    g->material_count = s->material_count;
    return res;
}

/* A Quake 3 map's fog volumes (shaders/q3_fog.glsl): the count, then each volume; a scene without
 * fog gets the header alone (count 0: the shaders' loop does not run). Made readable by the
 * shaders at once: the upload is its only writer. */
_Static_assert(GN_Q3_FOG_MAX_PLANES == GN_GPU_Q3_FOG_PLANES, "the shader's loop reads every plane kept");
static gn_result upload_fogs(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    uint32_t n = s->q3_fog_count < GN_GPU_Q3_FOGS ? s->q3_fog_count : GN_GPU_Q3_FOGS;
    size_t bytes = sizeof(gn_uvec4) + (size_t)n * sizeof(gn_gpu_q3_fog);
    uint8_t *p = gn_calloc(1, bytes);
    if (!p) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u fog volumes", n);
    ((uint32_t *)p)[0] = n;
    gn_gpu_q3_fog *out = (gn_gpu_q3_fog *)(p + sizeof(gn_uvec4));
    for (uint32_t i = 0; i < n; i++) {
        const gn_q3_fog_volume *v = &s->q3_fogs[i];
        memcpy(out[i].color, v->color, sizeof v->color);
        out[i].color[3] = 1.0f / v->opaque;
        memcpy(out[i].box_min, v->box_min, sizeof v->box_min);
        out[i].box_min[3] = (float)v->plane_count;
        memcpy(out[i].box_max, v->box_max, sizeof v->box_max);
        memcpy(out[i].planes, v->planes, (size_t)v->plane_count * sizeof v->planes[0]);
    }
    gn_result res =
        make_buffer(r, &r->scene.fogs, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, p, bytes, "fog volumes", err);
    free(p);
    if (!res) {
        gn_vk_use use = {.buffer = &r->scene.fogs, .access = GN_ACCESS_SHADER_READ};
        gn_vk_barriers(&r->vk, r->vk.cur->cmd, &use, 1);
    }
    return res;
}

static gn_result upload_all(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    /* also a storage buffer: a deformed vertex reads its normal and uv there (q3_deform.glsl), and
       the skinning pass writes the rigs' own (skin.comp); a copy source for reading them back */
    gn_result res =
        make_buffer(r, &g->vertices,
                    VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    s->vertices, (VkDeviceSize)s->vertex_count * sizeof(gn_vertex), "vertices", err);
    if (!res)
        res = make_buffer(r, &g->indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, s->indices,
                          (VkDeviceSize)s->index_count * sizeof(uint32_t), "indices", err);
    if (res) return res;

    gn_gpu_instance *packed = gn_calloc(s->instance_count ? s->instance_count : 1, sizeof *packed);
    g->dynamic_ids = gn_calloc(s->instance_count ? s->instance_count : 1, sizeof *g->dynamic_ids);
    if (!packed || !g->dynamic_ids) {
        free(packed);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory packing %u instances", s->instance_count);
    }
    for (uint32_t i = 0; i < s->instance_count; i++) {
        gn_pack_instance(&s->instances[i], gn_probe_of(r, i), &packed[i]);
        if (s->instances[i].flags & GN_INSTANCE_DYNAMIC) g->dynamic_ids[g->dynamic_count++] = i;
    }
    res = make_buffer(r, &g->instances, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, packed,
                      (VkDeviceSize)s->instance_count * sizeof *packed, "instances", err);
    free(packed);
    if (res) return res;

    static const uint8_t white[4] = {255, 255, 255, 255}, flat[4] = {128, 128, 255, 255};
    res = make_texture(r, &g->white, 1, 1, GN_TEXTURE_RGBA8, true, white, "default white", err);
    if (!res)
        res =
            make_texture(r, &g->flat_normal, 1, 1, GN_TEXTURE_RGBA8, false, flat, "default flat normal", err);
    static const uint32_t no_light = 0;
    if (!res)
        res = make_texture(r, &g->black_light, 1, 1, GN_TEXTURE_RGB9E5, false, (const uint8_t *)&no_light,
                           "default no lightmap", err);
    g->textures = gn_calloc(s->texture_count ? s->texture_count : 1, sizeof *g->textures);
    if (!g->textures)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u textures", s->texture_count);
    /* images only Quake 3 shaders' stages read live in their array (q3_stages.c): not uploaded twice */
    uint8_t *stage_only = res || !s->q3_count ? NULL : gn_calloc(s->texture_count ? s->texture_count : 1, 1);
    if (!res && s->q3_count && !stage_only)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u textures", s->texture_count);
    for (uint32_t q = 0; stage_only && q < s->q3_count; q++)
        for (uint32_t k = 0; k < s->q3[q].mat->slot_count; k++)
            if (s->q3[q].slot_texture[k] < s->texture_count) stage_only[s->q3[q].slot_texture[k]] = 1;
    for (uint32_t m = 0; stage_only && m < s->material_count; m++) {
        const gn_material *mt = &s->materials[m];
        const uint32_t maps[8] = {mt->base_color_texture, mt->normal_texture,
                                  mt->lightmap_texture,   mt->metallic_roughness_texture,
                                  mt->occlusion_texture,  mt->emissive_texture,
                                  mt->specular_texture,   mt->specular_color_texture};
        for (int k = 0; k < 8; k++)
            if (maps[k] < s->texture_count) stage_only[maps[k]] = 0;
    }
    for (uint32_t i = 0; !res && i < s->texture_count; i++) {
        const gn_texture *t = &s->textures[i];
        g->texture_count = i + 1; /* counted first: a half-made texture is released with the rest */
        if (stage_only && stage_only[i]) continue;
        if (t->blocks) {
            res = make_block_texture(r, &g->textures[i], t, err);
            continue;
        }
        res = make_texture(r, &g->textures[i], t->width, t->height, t->format, t->srgb, t->texels,
                           t->format == GN_TEXTURE_RGB9E5 ? "scene lightmap" : "scene texture", err);
    }
    free(stage_only);
    if (!res) res = upload_materials(r, s, err);
    if (!res) res = upload_fogs(r, s, err);
    return res;
}

/* Dynamic transforms go through the ring: one copy command with a region per instance. */
static gn_result upload_dynamic(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    if (!g->dynamic_count) return GN_OK;
    VkDeviceSize off;
    void *p;
    gn_result res =
        gn_vk_ring_alloc(&r->vk, (VkDeviceSize)g->dynamic_count * sizeof(gn_gpu_instance), 16, &off, &p, err);
    if (res) return res;
    VkBufferCopy regions[64];
    uint32_t nr = 0;
    gn_vk_use use = {.buffer = &g->instances, .access = GN_ACCESS_TRANSFER_WRITE};
    gn_vk_barriers(&r->vk, r->vk.cur->cmd, &use, 1);
    for (uint32_t i = 0; i < g->dynamic_count; i++) {
        uint32_t id = g->dynamic_ids[i];
        gn_pack_instance(&s->instances[id], gn_probe_of(r, id), (gn_gpu_instance *)p + i);
        regions[nr++] = (VkBufferCopy){off + i * sizeof(gn_gpu_instance), id * sizeof(gn_gpu_instance),
                                       sizeof(gn_gpu_instance)};
        if (nr == 64 || i + 1 == g->dynamic_count) {
            gn_vk_cmd_copy_ring(&r->vk, &g->instances, regions, nr);
            nr = 0;
        }
    }
    return GN_OK;
}

/* The static instances moved or removed since the last frame (the scene's edit ring), each
 * written through the ring into its slot of the instance buffer. */
static gn_result upload_edited(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    uint32_t n = s->edit_count - g->stamp.edit_count;
    VkDeviceSize off;
    void *p;
    gn_result res = gn_vk_ring_alloc(&r->vk, (VkDeviceSize)n * sizeof(gn_gpu_instance), 16, &off, &p, err);
    if (res) return res;
    VkBufferCopy regions[GN_SCENE_EDITS];
    gn_vk_use use = {.buffer = &g->instances, .access = GN_ACCESS_TRANSFER_WRITE};
    gn_vk_barriers(&r->vk, r->vk.cur->cmd, &use, 1);
    uint32_t nr = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t id = s->edits[(g->stamp.edit_count + k) % GN_SCENE_EDITS].instance;
        bool again = false; /* an instance edited twice is written once: regions may not overlap */
        for (uint32_t q = k + 1; q < n && !again; q++)
            again = s->edits[(g->stamp.edit_count + q) % GN_SCENE_EDITS].instance == id;
        if (again) continue;
        gn_pack_instance(&s->instances[id], gn_probe_of(r, id), (gn_gpu_instance *)p + nr);
        regions[nr] = (VkBufferCopy){off + nr * sizeof(gn_gpu_instance), id * sizeof(gn_gpu_instance),
                                     sizeof(gn_gpu_instance)};
        nr++;
    }
    gn_vk_cmd_copy_ring(&r->vk, &g->instances, regions, nr);
    g->stamp.edit_count = s->edit_count;
    return GN_OK;
}

void gn_gpu_scene_write_frame_set(gn_renderer *r)
{
    uint32_t n = r->scene.instance_count;
    uint32_t visible_bytes = (n ? n : 4) * sizeof(uint32_t);
    gn_vk_write w[GN_BIND_FRAME_COUNT] = {
        gn_write_frame(r, GN_BIND_FRAME_CONSTANTS),
        gn_write_storage(GN_BIND_FRAME_INSTANCES, &r->scene.instances),
        gn_write_storage(GN_BIND_FRAME_MATERIALS, &r->scene.materials),
        {.binding = GN_BIND_FRAME_VISIBLE,
         .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
         .buffer = r->vk.ring.buffer,
         .range = visible_bytes},
        gn_write_storage(GN_BIND_FRAME_EXPOSURE, &r->pipes.exposure),
        gn_write_storage(GN_BIND_FRAME_FOGS, &r->scene.fogs),
        gn_write_storage(GN_BIND_FRAME_DEFORMS, &r->scene.deforms),
        gn_write_storage(GN_BIND_FRAME_VERTICES, &r->scene.vertices),
    };
    gn_vk_write_set(&r->vk, r->pipes.frame_set, w, GN_BIND_FRAME_COUNT);
}

gn_result gn_gpu_scene_sync(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_gpu_scene *g = &r->scene;
    bool edits_lost = s->edit_count - g->stamp.edit_count > GN_SCENE_EDITS; /* fell behind the ring */
    if (!gn_scene_stamp_same_geometry(&g->stamp, s) || edits_lost) {
        /* A new or changed scene: the frame set is rewritten, so no frame may still use it. */
        gn_result res = gn_vk_wait_idle(&r->vk, err);
        if (res) return res;
        gn_gpu_scene_release(r);
        res = upload_all(r, s, err);
        if (res) {
            gn_gpu_scene_release(r);
            return res;
        }
        g->uploaded = true;
        g->instance_count = s->instance_count;
        g->stamp = gn_scene_stamp_of(s);
        g->probe_generation = gn_probe_generation(r);
        gn_gpu_scene_write_frame_set(r);
        return GN_OK;
    }
    if (g->probe_generation != gn_probe_generation(r)) { /* new probes: every instance's choice */
        g->probe_generation = gn_probe_generation(r);
        gn_gpu_instance *packed = gn_calloc(s->instance_count ? s->instance_count : 1, sizeof *packed);
        if (!packed)
            return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory packing %u instances",
                           s->instance_count);
        for (uint32_t i = 0; i < s->instance_count; i++)
            gn_pack_instance(&s->instances[i], gn_probe_of(r, i), &packed[i]);
        gn_result res = gn_vk_upload_buffer(&r->vk, &g->instances, 0, packed,
                                            (VkDeviceSize)s->instance_count * sizeof *packed, err);
        free(packed);
        if (res) return res;
    }
    if (g->stamp.edit_count != s->edit_count) {
        gn_result res = upload_edited(r, s, err);
        if (res) return res;
    }
    if (g->stamp.dynamic_generation != s->dynamic_generation) {
        g->stamp.dynamic_generation = s->dynamic_generation;
        return upload_dynamic(r, s, err);
    }
    return GN_OK;
}

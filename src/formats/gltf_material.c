/* glTF materials and their images: metallic-roughness factors, base colour and normal
 * textures into the scene, emissive and metallic-roughness textures folded into factors
 * (gltf.h says why). Images come from files next to the glTF or from the .glb itself. */
#include "base/alloc.h"
#include "formats/gltf_check.h"
#include "formats/gltf_ctx.h"
#include "formats/gltf_dds.h"
#include "formats/gltf_ext.h"

#include "base/array.h"
#include "base/error.h"
#include "base/image.h"

#include <assimp/GltfMaterial.h>
#include <assimp/material.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

/* ---- decoding ---------------------------------------------------------------------------- */

/* An embedded image: "*N" (assimp's reference by index), or one whose file name matches. */
static const struct aiTexture *gn_gltf_embedded(const gn_gltf_ctx *c, const char *key)
{
    const struct aiScene *ai = c->ai;
    if (!ai->mTextures || ai->mNumTextures == 0) return NULL;
    if (key[0] == '*') {
        char *end;
        unsigned long i = strtoul(key + 1, &end, 10);
        if (*end || end == key + 1 || i >= ai->mNumTextures) return NULL;
        return ai->mTextures[i];
    }
    for (unsigned i = 0; i < ai->mNumTextures; i++) {
        const struct aiTexture *t = ai->mTextures[i];
        if (t && t->mFilename.length && strcmp(t->mFilename.data, key) == 0) return t;
    }
    return NULL;
}

/* glTF URIs are percent-encoded ("my%20file.png"); assimp may hand them over as written. */
static void gn_gltf_uri_decode(char *s)
{
    char *o = s;
    for (const char *p = s; *p; p++) {
        unsigned v;
        if (p[0] == '%' && p[1] && p[2] && sscanf(p + 1, "%2x", &v) == 1) {
            *o++ = (char)v;
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
}

static bool gn_gltf_file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fclose(f);
    return true;
}

/* Decoded RGBA8 pixels; stb's allocations go back to stb, ours to free(). */
typedef struct gn_gltf_pixels {
    uint8_t *px;
    int w, h;
    bool from_stb;
} gn_gltf_pixels;

static void gn_gltf_pixels_free(gn_gltf_pixels *p)
{
    if (p->from_stb)
        stbi_image_free(p->px);
    else
        free(p->px);
    p->px = NULL;
}

/* The reason given when our own allocation fails, told apart by its address: out of memory
 * fails the load, where an image that does not decode is only a warning. */
static const char gn_gltf_oom[] = "out of memory";

/* Out of memory: ours, or stb_image's (its failure reason "outofmem"; its allocations are
 * libstb's own, not gnomon's hook). */
static bool gn_gltf_is_oom(const char *why) { return why == gn_gltf_oom || strcmp(why, "outofmem") == 0; }

/* The reason given when the file's images together pass GN_GLTF_MAX_DECODED: fails the load. */
static const char gn_gltf_over_budget[] = "over the decoded-images cap";

/* An image's header size against the caps, before it is decoded: each side, its pixels (an
 * image over them is skipped with a warning, as one that does not decode), and the file's
 * decoded total, which it is charged first (past that the load fails). NULL when it may decode. */
static const char *gn_gltf_charge(gn_gltf_ctx *c, const char *key, uint64_t w, uint64_t h)
{
    char *why = c->cap_line;
    if (w > GN_GLTF_MAX_IMAGE_SIDE || h > GN_GLTF_MAX_IMAGE_SIDE || w * h > GN_GLTF_MAX_IMAGE_PIXELS) {
        snprintf(why, sizeof c->cap_line, "%llux%llu, over the cap of %u a side and %llu pixels",
                 (unsigned long long)w, (unsigned long long)h, GN_GLTF_MAX_IMAGE_SIDE,
                 (unsigned long long)GN_GLTF_MAX_IMAGE_PIXELS);
        return why;
    }
    c->decoded += w * h * 4;
    if (c->decoded > GN_GLTF_MAX_DECODED) {
        snprintf(c->budget_line, sizeof c->budget_line,
                 "the images decode to over %llu MiB (the cap): %llu MiB with '%s' (%llux%llu)",
                 (unsigned long long)(GN_GLTF_MAX_DECODED >> 20), (unsigned long long)(c->decoded >> 20), key,
                 (unsigned long long)w, (unsigned long long)h);
        return gn_gltf_over_budget;
    }
    return NULL;
}

/* Decodes an image to RGBA8; returns the reason on failure, NULL on success. */
static const char *gn_gltf_decode(gn_gltf_ctx *c, const char *key, gn_gltf_pixels *out)
{
    *out = (gn_gltf_pixels){0};
    out->from_stb = true;
    int *w = &out->w, *h = &out->h;
    int n, iw = 0, ih = 0;
    const struct aiTexture *t = gn_gltf_embedded(c, key);
    if (t) {
        if (!t->pcData) return "embedded image has no data";
        if (t->mHeight == 0) { /* compressed bytes (PNG, JPEG) of mWidth bytes */
            if (t->mWidth == 0 || t->mWidth > INT32_MAX) return "embedded image size is invalid";
            const stbi_uc *bytes = (const stbi_uc *)t->pcData;
            if (!stbi_info_from_memory(bytes, (int)t->mWidth, &iw, &ih, &n)) return stbi_failure_reason();
            const char *cap = gn_gltf_charge(c, key, (uint64_t)iw, (uint64_t)ih);
            if (cap) return cap;
            out->px = stbi_load_from_memory(bytes, (int)t->mWidth, w, h, &n, 4);
            return out->px ? NULL : stbi_failure_reason();
        }
        /* Uncompressed aiTexels, stored b, g, r, a. */
        const char *cap = gn_gltf_charge(c, key, t->mWidth, t->mHeight);
        if (cap) return cap;
        size_t count = (size_t)t->mWidth * t->mHeight;
        out->from_stb = false;
        if (!(out->px = gn_malloc(count * 4))) return gn_gltf_oom;
        for (size_t i = 0; i < count; i++) {
            const struct aiTexel *s = &t->pcData[i];
            out->px[i * 4 + 0] = s->r, out->px[i * 4 + 1] = s->g;
            out->px[i * 4 + 2] = s->b, out->px[i * 4 + 3] = s->a;
        }
        *w = (int)t->mWidth, *h = (int)t->mHeight;
        return NULL;
    }
    if (!c->dir) return "not embedded, and the scene came from memory";
    char path[4096 + 1024];
    snprintf(path, sizeof path, "%s%s", c->dir, key);
    if (!gn_gltf_file_exists(path)) {
        char dec[1024];
        snprintf(dec, sizeof dec, "%s", key);
        gn_gltf_uri_decode(dec);
        snprintf(path, sizeof path, "%s%s", c->dir, dec);
        if (!gn_gltf_file_exists(path)) return "file not found";
    }
    if (!stbi_info(path, &iw, &ih, &n)) return stbi_failure_reason();
    const char *cap = gn_gltf_charge(c, key, (uint64_t)iw, (uint64_t)ih);
    if (cap) return cap;
    out->px = stbi_load(path, w, h, &n, 4);
    return out->px ? NULL : stbi_failure_reason();
}

/* Halves an image until it fits GN_GLTF_MAX_TEXTURE_SIDE; the scene refuses larger ones. */
static const char *gn_gltf_fit(gn_gltf_pixels *p, bool srgb)
{
    while ((uint32_t)p->w > GN_GLTF_MAX_TEXTURE_SIDE || (uint32_t)p->h > GN_GLTF_MAX_TEXTURE_SIDE) {
        int nw = p->w > 1 ? p->w / 2 : 1, nh = p->h > 1 ? p->h / 2 : 1;
        uint8_t *half = gn_malloc((size_t)nw * nh * 4);
        if (!half) return gn_gltf_oom;
        gn_mip_down(p->px, (uint32_t)p->w, (uint32_t)p->h, srgb, half);
        gn_gltf_pixels_free(p);
        *p = (gn_gltf_pixels){half, nw, nh, false};
    }
    return NULL;
}

/* The image `key` for `use`, read once. Returns the cached entry (ok false after a failure,
 * which was warned about once), or NULL when the scene refused a texture (c->err is set). */
static gn_gltf_image *gn_gltf_image_get(gn_gltf_ctx *c, const char *key, gn_gltf_use use, gn_result *r)
{
    *r = GN_OK;
    for (uint32_t i = 0; i < c->image_count; i++)
        if (c->images[i].use == use && strcmp(c->images[i].key, key) == 0) return &c->images[i];
    if (!gn_grow((void **)&c->images, &c->image_cap, (uint64_t)c->image_count + 1, sizeof *c->images,
                 UINT32_MAX / 2)) {
        *r = gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for the image list", c->name);
        return NULL;
    }
    gn_gltf_image *im = &c->images[c->image_count++];
    memset(im, 0, sizeof *im);
    snprintf(im->key, sizeof im->key, "%s", key);
    im->use = use;
    im->texture = 0; /* none (public ids start at 1) */

    bool srgb =
        use == GN_GLTF_USE_BASE_COLOR || use == GN_GLTF_USE_EMISSIVE || use == GN_GLTF_USE_SPECULAR_COLOR;
    if (gn_gltf_dds_key(key)) { /* blocks, uploaded as they are (gltf_dds.h) */
        char line[sizeof c->err->message];
        const char *dds_why = gn_gltf_dds_add(c, key, srgb, use == GN_GLTF_USE_ROUGHNESS ? "rr11" : NULL,
                                              &im->texture, r, line, sizeof line);
        if (*r != GN_OK) return NULL;
        if (dds_why) {
            c->st.textures_missing++;
            gn_gltf_log(c, GN_LOG_WARN, "image '%s' not loaded (%s); its material keeps its factors", key,
                        dds_why);
        }
        im->ok = !dds_why;
        c->st.textures += im->ok;
        return im;
    }
    gn_gltf_pixels p;
    const char *why = gn_gltf_decode(c, key, &p);
    if (!why) why = gn_gltf_fit(&p, srgb);
    if (why) {
        gn_gltf_pixels_free(&p);
        if (gn_gltf_is_oom(why)) {
            *r = gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: image '%s': out of memory", c->name, key);
            return NULL;
        }
        if (why == gn_gltf_over_budget) {
            *r = gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: %s", c->name, c->budget_line);
            return NULL;
        }
        c->st.textures_missing++;
        gn_gltf_log(c, GN_LOG_WARN, "image '%s' not loaded (%s); its material keeps its factors", key, why);
        return im;
    }
    gn_texture_desc td = {(uint32_t)p.w, (uint32_t)p.h, p.px, srgb, key};
    *r = gn_scene_add_texture(c->s, &td, &im->texture, c->err);
    im->ok = *r == GN_OK;
    if (im->ok) c->st.textures++;
    gn_gltf_pixels_free(&p);
    return *r == GN_OK ? im : NULL;
}

/* ---- materials --------------------------------------------------------------------------- */

/* The material's first texture of any of `types` (assimp files glTF slots under several). */
static bool gn_gltf_tex_path(const struct aiMaterial *m, const enum aiTextureType *types, int n,
                             struct aiString *path)
{
    for (int i = 0; i < n; i++)
        if (aiGetMaterialTextureCount(m, types[i]) > 0 &&
            aiGetMaterialTexture(m, types[i], 0, path, NULL, NULL, NULL, NULL, NULL, NULL) ==
                aiReturn_SUCCESS &&
            path->length > 0)
            return true;
    return false;
}

static float gn_gltf_clamp01(float v, float fallback)
{
    if (!isfinite(v)) return fallback;
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

/* A texture slot's image for `use`; false when there is none or it failed to load. */
static gn_result gn_gltf_slot(gn_gltf_ctx *c, const struct aiMaterial *m, const enum aiTextureType *types,
                              int n, gn_gltf_use use, gn_gltf_image **out)
{
    *out = NULL;
    struct aiString path;
    if (c->d.skip_textures || !gn_gltf_tex_path(m, types, n, &path)) return GN_OK;
    gn_result r;
    gn_gltf_image *im = gn_gltf_image_get(c, path.data, use, &r);
    if (r != GN_OK) return r;
    if (im && im->ok) *out = im;
    return GN_OK;
}

/* KHR_materials_specular, _ior and KHR_texture_transform, read from the JSON (gltf_ext.h), of
 * the file's material of assimp's `name` ("" when it has none), and KHR_materials_specular's two
 * images. Warns once a material for what is not used; fails only when the scene refuses. */
static gn_result gn_gltf_material_apply_ext(gn_gltf_ctx *c, uint32_t index, const char *name,
                                            const char *label, gn_material_desc *md)
{
    const gn_gltf_material_ext *e = gn_gltf_ext_find(c->d.material_ext, c->d.material_ext_count, name, index);
    if (!e) return GN_OK;
    md->specular_set = e->specular_set;
    md->specular = e->specular, md->ior = e->ior;
    memcpy(md->specular_color, e->specular_color, sizeof md->specular_color);
    memcpy(md->uv_transform, e->uv, sizeof md->uv_transform);
    if (e->specular_set) c->st.specular++;
    for (int k = 0; k < GN_MATERIAL_MAPS; k++) {
        const gn_uv_transform *t = &e->uv[k];
        if (t->offset[0] != 0 || t->offset[1] != 0 || t->rotation != 0 || t->scale[0] != 0 ||
            t->scale[1] != 0 || t->uv_set != 0) {
            c->st.uv_transformed++;
            break;
        }
    }
    static const char *const what[2] = {"specularTexture", "specularColorTexture"};
    static const gn_gltf_use uses[2] = {GN_GLTF_USE_SPECULAR, GN_GLTF_USE_SPECULAR_COLOR};
    uint32_t *slots[2] = {&md->specular_texture, &md->specular_color_texture};
    for (int k = 0; k < 2; k++) {
        if (e->specular_why[k])
            gn_gltf_log(c, GN_LOG_WARN, "material '%s': KHR_materials_specular's %s not read (%s)", label,
                        what[k], e->specular_why[k]);
        if (!e->specular_key[k][0] || c->d.skip_textures) continue;
        gn_result r;
        gn_gltf_image *im = gn_gltf_image_get(c, e->specular_key[k], uses[k], &r);
        if (r != GN_OK) return r;
        if (im && im->ok) *slots[k] = im->texture, c->st.specular_mapped++;
    }
    if (e->specular_uv_ignored)
        gn_gltf_log(c, GN_LOG_WARN,
                    "material '%s': KHR_materials_specular's maps read the vertex's uv set 0, untransformed "
                    "(their texCoord and KHR_texture_transform are not applied)",
                    label);
    if (e->uv_sets_dropped)
        gn_gltf_log(c, GN_LOG_WARN, "material '%s': %u maps name uv set 2 or more; they read set 0", label,
                    e->uv_sets_dropped);
    if (e->fixed)
        gn_gltf_log(
            c, GN_LOG_WARN,
            "material '%s': %u extension values out of range or malformed, read as the default or clamped",
            label, e->fixed);
    return GN_OK;
}

static gn_result gn_gltf_material(gn_gltf_ctx *c, const struct aiMaterial *m, uint32_t index, uint32_t *out)
{
    struct aiString name = {0};
    char label[256];
    if (aiGetMaterialString(m, AI_MATKEY_NAME, &name) == aiReturn_SUCCESS && name.length)
        snprintf(label, sizeof label, "%s", name.data);
    else
        snprintf(label, sizeof label, "material %u", index);

    gn_material_desc md = {.label = label}; /* texture ids 0: none */
    struct aiColor4D col = {1, 1, 1, 1};
    if (aiGetMaterialColor(m, AI_MATKEY_BASE_COLOR, &col) != aiReturn_SUCCESS)
        aiGetMaterialColor(m, AI_MATKEY_COLOR_DIFFUSE, &col);
    md.base_color[0] = gn_gltf_clamp01(col.r, 1), md.base_color[1] = gn_gltf_clamp01(col.g, 1);
    md.base_color[2] = gn_gltf_clamp01(col.b, 1), md.base_color[3] = gn_gltf_clamp01(col.a, 1);
    /* glTF's defaults for absent factors are 1 (fully metallic, fully rough). */
    ai_real metallic = 1, roughness = 1, strength = 1;
    aiGetMaterialFloatArray(m, AI_MATKEY_METALLIC_FACTOR, &metallic, NULL);
    aiGetMaterialFloatArray(m, AI_MATKEY_ROUGHNESS_FACTOR, &roughness, NULL);
    md.metallic = gn_gltf_clamp01((float)metallic, 1);
    md.roughness = gn_gltf_clamp01((float)roughness, 1);
    /* 0 would read as gnomon's default 0.5; the file means perfectly smooth */
    if (md.roughness == 0.0f) md.roughness = GN_MATERIAL_MIN_ROUGHNESS;
    struct aiColor4D em = {0, 0, 0, 1};
    aiGetMaterialColor(m, AI_MATKEY_COLOR_EMISSIVE, &em);
    aiGetMaterialFloatArray(m, AI_MATKEY_EMISSIVE_INTENSITY, &strength,
                            NULL); /* KHR_materials_emissive_strength */
    float e[3] = {em.r * strength, em.g * strength, em.b * strength};
    for (int k = 0; k < 3; k++) md.emissive[k] = isfinite(e[k]) && e[k] > 0 ? e[k] : 0.0f;

    static const enum aiTextureType base_t[] = {aiTextureType_BASE_COLOR, aiTextureType_DIFFUSE};
    static const enum aiTextureType normal_t[] = {aiTextureType_NORMALS, aiTextureType_NORMAL_CAMERA};
    static const enum aiTextureType emissive_t[] = {aiTextureType_EMISSIVE, aiTextureType_EMISSION_COLOR};
    static const enum aiTextureType mr_t[] = {aiTextureType_UNKNOWN, aiTextureType_METALNESS,
                                              aiTextureType_DIFFUSE_ROUGHNESS};
    static const enum aiTextureType ao_t[] = {aiTextureType_LIGHTMAP, aiTextureType_AMBIENT_OCCLUSION};
    gn_gltf_image *im;
    gn_result r;
    if ((r = gn_gltf_slot(c, m, base_t, 2, GN_GLTF_USE_BASE_COLOR, &im)) != GN_OK) return r;
    if (im) md.base_color_texture = im->texture;
    if ((r = gn_gltf_slot(c, m, normal_t, 2, GN_GLTF_USE_NORMAL, &im)) != GN_OK) return r;
    if (im) md.normal_texture = im->texture, c->st.normal_mapped++;
    /* emission: the texture scales the factor (sRGB); a black factor needs no texture */
    if (md.emissive[0] + md.emissive[1] + md.emissive[2] > 0) {
        if ((r = gn_gltf_slot(c, m, emissive_t, 2, GN_GLTF_USE_EMISSIVE, &im)) != GN_OK) return r;
        if (im) md.emissive_texture = im->texture, c->st.emissive_mapped++;
    }
    /* roughness from green and metallic from blue, each scaling its factor (linear) */
    if ((r = gn_gltf_slot(c, m, mr_t, 3, GN_GLTF_USE_METAL_ROUGH, &im)) != GN_OK) return r;
    if (im) md.metallic_roughness_texture = im->texture, c->st.metal_rough_mapped++;
    /* else AMD_split_roughnessMetallic's roughness map (red; read as green, metallic 1: the factor) */
    if (!md.metallic_roughness_texture && index < c->dds_roughness_count && c->dds_roughness[index]) {
        im = gn_gltf_image_get(c, c->dds_roughness[index], GN_GLTF_USE_ROUGHNESS, &r);
        if (r != GN_OK) return r;
        if (im && im->ok) md.metallic_roughness_texture = im->texture, c->st.metal_rough_mapped++;
    }
    /* occlusion in red, darkening the ambient light */
    if ((r = gn_gltf_slot(c, m, ao_t, 2, GN_GLTF_USE_OCCLUSION, &im)) != GN_OK) return r;
    if (im) md.occlusion_texture = im->texture, c->st.occlusion_mapped++;
    if ((r = gn_gltf_material_apply_ext(c, index, name.data, label, &md)) != GN_OK) return r;
    struct aiString mode = {0};
    if (aiGetMaterialString(m, AI_MATKEY_GLTF_ALPHAMODE, &mode) == aiReturn_SUCCESS) {
        if (strcmp(mode.data, "MASK") == 0) {
            c->st.alpha_mask++;
            ai_real cutoff = 0.5f; /* glTF's default, where the file has none */
            aiGetMaterialFloatArray(m, AI_MATKEY_GLTF_ALPHACUTOFF, &cutoff, NULL);
            md.alpha_cutoff = gn_gltf_clamp01((float)cutoff, 0.5f);
            /* glTF keeps a fragment whose alpha is >= the cutoff, so a cutoff of 0 keeps them
             * all: that is GN_ALPHA_OPAQUE exactly (a tiny positive cutoff would cut alpha 0) */
            md.alpha_mode = md.alpha_cutoff > 0.0f ? GN_ALPHA_MASK : GN_ALPHA_OPAQUE;
        }
        if (strcmp(mode.data, "BLEND") == 0) {
            c->st.alpha_blend++;
            md.alpha_mode = GN_ALPHA_BLEND;
        }
    }
    /* assimp reads glTF's doubleSided into the two-sided key */
    int two_sided = 0;
    if (aiGetMaterialIntegerArray(m, AI_MATKEY_TWOSIDED, &two_sided, NULL) == aiReturn_SUCCESS && two_sided) {
        md.double_sided = true;
        c->st.double_sided++;
    }
    return gn_scene_add_material(c->s, &md, out, c->err);
}

gn_result gn_gltf_materials(gn_gltf_ctx *c)
{
    const struct aiScene *ai = c->ai;
    if (ai->mNumMaterials > GN_GLTF_MAX_MATERIALS)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: %u materials, more than the cap of %u", c->name,
                       ai->mNumMaterials, GN_GLTF_MAX_MATERIALS);
    if (ai->mNumMaterials && !ai->mMaterials)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: material list is missing", c->name);
    /* Only materials some mesh uses: assimp appends an unused "DefaultMaterial" to glTF
     * imports, and an unused material would only cost its images. */
    for (uint32_t i = 0; i < ai->mNumMaterials; i++) c->mat_map[i] = GN_GLTF_NONE;
    for (uint32_t i = 0; i < ai->mNumMeshes; i++) {
        const struct aiMesh *m = ai->mMeshes[i];
        if (!m) return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh %u is missing", c->name, i);
        if (m->mMaterialIndex >= ai->mNumMaterials)
            return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh %u uses material %u of %u", c->name, i,
                           m->mMaterialIndex, ai->mNumMaterials);
        c->mat_map[m->mMaterialIndex] = 0; /* used: filled below */
    }
    gn_result r = gn_gltf_dds_roughness_read(c);
    for (uint32_t i = 0; r == GN_OK && i < ai->mNumMaterials; i++) {
        if (c->mat_map[i] == GN_GLTF_NONE) continue;
        if (!ai->mMaterials[i])
            r = gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: material %u is missing", c->name, i);
        if (r == GN_OK) r = gn_gltf_material(c, ai->mMaterials[i], i, &c->mat_map[i]);
        if (r == GN_OK) c->st.materials++;
    }
    gn_gltf_dds_roughness_free(c);
    return r;
}

/* glTF images in DirectDraw Surface files (gltf_dds.h): MSFT_texture_dds, and
 * AMD_split_roughnessMetallic's separate roughness map, which Sponza gives only as a .dds.
 * assimp 5.2 passes neither on (it reads a texture's "source" only and knows neither
 * extension), so the roughness map's image is found in the file's JSON here; the .dds itself
 * is read by formats/dds.c and added to the scene as blocks (gn_scene_add_blocks), uploaded as
 * they are or decoded where the device cannot sample them. */
#include "formats/gltf_dds.h"

#include "base/alloc.h"
#include "base/error.h"
#include "base/file.h"
#include "formats/dds.h"
#include "formats/gltf_check.h"
#include "scene/scene.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GN_GLTF_DDS_MAX_BYTES (400ull << 20) /* a .dds read whole: 8192² RGBA8 with its chain is 342 MiB */

bool gn_gltf_dds_key(const char *key)
{
    size_t n = strlen(key);
    return n > 4 && strcasecmp(key + n - 4, ".dds") == 0;
}

/* The whole regular file at path (gn_malloc'd), at most cap bytes; NULL with a reason. */
static uint8_t *read_file(const char *path, uint64_t cap, size_t *size, const char **why)
{
    uint64_t n;
    gn_error e;
    if (gn_file_check_regular(path, &n, &e) != GN_OK)
        return *why = "file not found or not a regular file", NULL;
    if (n > cap) return *why = "file over the size cap", NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return *why = "cannot open the file", NULL;
    uint8_t *data = gn_malloc(n ? (size_t)n : 1);
    if (!data) {
        fclose(f);
        return *why = NULL, NULL; /* out of memory: the caller fails the load */
    }
    size_t got = fread(data, 1, (size_t)n, f);
    fclose(f);
    if (got != n) {
        free(data);
        return *why = "short read", NULL;
    }
    *size = (size_t)n;
    return data;
}

/* ---- AMD_split_roughnessMetallic through MSFT_texture_dds --------------------------------- */

static const cJSON *get(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

/* The uri of the image textures[t] shows: MSFT_texture_dds's source, else its own. */
static const char *texture_uri(const cJSON *root, const cJSON *ref)
{
    const cJSON *idx = get(ref, "index"), *textures = get(root, "textures"), *images = get(root, "images");
    if (!cJSON_IsNumber(idx) || !cJSON_IsArray(textures) || !cJSON_IsArray(images)) return NULL;
    const cJSON *tex = cJSON_GetArrayItem(textures, idx->valueint);
    const cJSON *src = get(get(get(tex, "extensions"), "MSFT_texture_dds"), "source");
    if (!cJSON_IsNumber(src)) src = get(tex, "source");
    if (!cJSON_IsNumber(src) || idx->valuedouble < 0 || src->valuedouble < 0) return NULL;
    const cJSON *uri = get(cJSON_GetArrayItem(images, src->valueint), "uri");
    return cJSON_IsString(uri) && strncmp(uri->valuestring, "data:", 5) != 0 ? uri->valuestring : NULL;
}

gn_result gn_gltf_dds_roughness_read(gn_gltf_ctx *c)
{
    c->dds_roughness = NULL, c->dds_roughness_count = 0;
    if (!c->dir || c->d.skip_textures) return GN_OK; /* from memory: no file to read again */
    size_t size;
    const char *why;
    uint8_t *file = read_file(c->name, GN_GLTF_DDS_MAX_BYTES, &size, &why);
    if (!file) return why ? GN_OK : gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
    /* a .glb's JSON chunk (gn_gltf_check validated the lengths), else the whole text */
    const char *json = (const char *)file;
    size_t len = size;
    if (size >= 20 && memcmp(file, "glTF", 4) == 0) {
        uint32_t n = (uint32_t)file[12] | (uint32_t)file[13] << 8 | (uint32_t)file[14] << 16 |
                     (uint32_t)file[15] << 24;
        json = (const char *)file + 20, len = n <= size - 20 ? n : size - 20;
    }
    gn_result r = GN_OK;
    cJSON *root = cJSON_ParseWithLength(json, len);
    /* gn_gltf_check parsed this text already: cJSON failing now means it ran out of memory */
    if (!root)
        r = gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory reading its materials again", c->name);
    const cJSON *materials = get(root, "materials");
    int n = cJSON_IsArray(materials) ? cJSON_GetArraySize(materials) : 0;
    if (n > 0 && !(c->dds_roughness = gn_calloc((size_t)n, sizeof *c->dds_roughness)))
        r = gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
    for (int i = 0; r == GN_OK && i < n; i++) {
        const cJSON *ref =
            get(get(get(cJSON_GetArrayItem(materials, i), "extensions"), "AMD_split_roughnessMetallic"),
                "roughnessTexture");
        const char *uri = ref ? texture_uri(root, ref) : NULL;
        c->dds_roughness_count = (uint32_t)i + 1;
        if (uri && !(c->dds_roughness[i] = gn_strdup(uri)))
            r = gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
    }
    cJSON_Delete(root);
    free(file);
    return r;
}

void gn_gltf_dds_roughness_free(gn_gltf_ctx *c)
{
    for (uint32_t i = 0; i < c->dds_roughness_count; i++) free(c->dds_roughness[i]);
    free(c->dds_roughness);
    c->dds_roughness = NULL, c->dds_roughness_count = 0;
}

/* ---- the image ---------------------------------------------------------------------------- */

const char *gn_gltf_dds_add(gn_gltf_ctx *c, const char *key, bool srgb, const char *swizzle,
                            uint32_t *texture, gn_result *r, char *why, size_t why_size)
{
    *r = GN_OK;
    *texture = 0;
    char path[4096 + 1024];
    snprintf(path, sizeof path, "%s%s", c->dir ? c->dir : "", key);
    if (!c->dir) return "not embedded, and the scene came from memory";
    size_t size;
    const char *fail;
    uint8_t *file = read_file(path, GN_GLTF_DDS_MAX_BYTES, &size, &fail);
    if (!file) {
        if (!fail)
            *r = gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: image '%s': out of memory", c->name, key);
        return fail ? fail : "out of memory";
    }
    gn_dds_image im;
    gn_error e = {0};
    if (gn_dds_parse(file, size, key, &im, &e) != GN_OK) {
        free(file);
        snprintf(why, why_size, "%s", e.message);
        return why;
    }
    /* charged to the decoded-images cap as RGBA, as the fallback may decode it */
    c->decoded += (uint64_t)im.width * im.height * 4;
    if (c->decoded > GN_GLTF_MAX_DECODED) {
        free(file);
        *r = gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: the images decode to over %llu MiB (the cap) with '%s'",
                     c->name, (unsigned long long)(GN_GLTF_MAX_DECODED >> 20), key);
        return "over the decoded-images cap";
    }
    if (im.format == GN_DDS_RGBA8) { /* level 0 as any RGBA8 image; the CPU makes its chain */
        uint8_t *px = gn_malloc((size_t)im.width * im.height * 4);
        if (!px) {
            free(file);
            *r = gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: image '%s': out of memory", c->name, key);
            return "out of memory";
        }
        memcpy(px, im.data, (size_t)im.width * im.height * 4);
        if (swizzle) gn_dds_swizzle(px, (size_t)im.width * im.height, swizzle);
        gn_texture_desc td = {im.width, im.height, px, srgb || im.srgb, key};
        *r = gn_scene_add_texture(c->s, &td, texture, c->err);
        free(px);
    } else {
        gn_texture_blocks b = {im.width, im.height, im.levels, im.format, srgb || im.srgb,
                               im.data,  im.size,   swizzle,   key};
        *r = gn_scene_add_blocks(c->s, &b, texture, c->err);
    }
    free(file);
    return *r == GN_OK ? NULL : "refused by the scene";
}

/* glTF material extensions read from the JSON (formats/gltf_ext.h says why not from assimp).
 * gltf_check.c has already validated the file's structure; these values are read leniently: a
 * value of the wrong type or out of range falls back to the extension's default (or is clamped)
 * and is counted, so the loader warns once for the material. */
#include "formats/gltf_ext.h"
#include "base/alloc.h"
#include "base/error.h"
#include "formats/gltf.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A finite number at key, or fallback (counting a present but unusable one in *fixed). */
static float gn_ext_number(const cJSON *o, const char *key, float fallback, uint32_t *fixed)
{
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    if (!v) return fallback;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || fabs(v->valuedouble) > 1e30) {
        (*fixed)++;
        return fallback;
    }
    return (float)v->valuedouble;
}

/* n numbers of an array at key into out (left as they are when absent or malformed). */
static void gn_ext_numbers(const cJSON *o, const char *key, int n, float *out, uint32_t *fixed)
{
    const cJSON *a = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    if (!a) return;
    float v[4];
    bool ok = cJSON_IsArray(a) && cJSON_GetArraySize(a) == n;
    for (int k = 0; ok && k < n; k++) {
        const cJSON *e = cJSON_GetArrayItem(a, k);
        ok = cJSON_IsNumber(e) && isfinite(e->valuedouble) && fabs(e->valuedouble) <= 1e30;
        if (ok) v[k] = (float)e->valuedouble;
    }
    if (!ok) {
        (*fixed)++;
        return;
    }
    memcpy(out, v, (size_t)n * sizeof *v);
}

/* A textureInfo's uv set and KHR_texture_transform (texCoord: the extension's overrides the
 * textureInfo's; glTF's default is set 0 and the identity). */
static void gn_ext_texture(const cJSON *info, gn_uv_transform *t, gn_gltf_material_ext *e)
{
    if (!cJSON_IsObject(info)) return;
    float set = gn_ext_number(info, "texCoord", 0.0f, &e->fixed);
    const cJSON *exts = cJSON_GetObjectItemCaseSensitive(info, "extensions");
    const cJSON *x =
        cJSON_IsObject(exts) ? cJSON_GetObjectItemCaseSensitive(exts, "KHR_texture_transform") : NULL;
    if (cJSON_IsObject(x)) {
        t->scale[0] = t->scale[1] = 1.0f;
        gn_ext_numbers(x, "offset", 2, t->offset, &e->fixed);
        gn_ext_numbers(x, "scale", 2, t->scale, &e->fixed);
        t->rotation = gn_ext_number(x, "rotation", 0.0f, &e->fixed);
        set = gn_ext_number(x, "texCoord", set, &e->fixed);
        /* (0, 0) would read as "none" (gn_uv_transform); the nearest scale that still squashes
         * the texture to one texel row and column */
        if (t->scale[0] == 0.0f && t->scale[1] == 0.0f) t->scale[0] = t->scale[1] = 1e-30f;
    }
    if (set == 1.0f) {
        t->uv_set = 1;
    } else if (set != 0.0f) {
        e->uv_sets_dropped++; /* gnomon's vertices carry two uv sets */
    }
}

/* A textureInfo's image as the loader keys it: its uri (an external file; MSFT_texture_dds's
 * source first, as gltf_dds.c reads it). Every index is checked against the file's arrays; an
 * embedded image (a bufferView or a data: uri) is not reachable by name, as assimp loads only the
 * images its own slots reference. Returns why it can't be used, or NULL with key set. */
static const char *gn_ext_image_key(const cJSON *root, const cJSON *info, char *key, size_t key_size)
{
    const cJSON *idx = cJSON_GetObjectItemCaseSensitive(info, "index");
    const cJSON *textures = cJSON_GetObjectItemCaseSensitive(root, "textures");
    const cJSON *images = cJSON_GetObjectItemCaseSensitive(root, "images");
    int nt = cJSON_IsArray(textures) ? cJSON_GetArraySize(textures) : 0;
    int ni = cJSON_IsArray(images) ? cJSON_GetArraySize(images) : 0;
    if (!cJSON_IsNumber(idx) || idx->valuedouble != floor(idx->valuedouble) || idx->valuedouble < 0 ||
        idx->valuedouble >= nt)
        return "its texture index is not one of the file's textures";
    const cJSON *tex = cJSON_GetArrayItem(textures, (int)idx->valuedouble);
    const cJSON *exts = cJSON_GetObjectItemCaseSensitive(tex, "extensions");
    const cJSON *dds =
        cJSON_IsObject(exts) ? cJSON_GetObjectItemCaseSensitive(exts, "MSFT_texture_dds") : NULL;
    const cJSON *src = cJSON_IsObject(dds) ? cJSON_GetObjectItemCaseSensitive(dds, "source") : NULL;
    if (!cJSON_IsNumber(src)) src = cJSON_GetObjectItemCaseSensitive(tex, "source");
    if (!cJSON_IsNumber(src) || src->valuedouble != floor(src->valuedouble) || src->valuedouble < 0 ||
        src->valuedouble >= ni)
        return "its texture's source is not one of the file's images";
    const cJSON *uri =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(images, (int)src->valuedouble), "uri");
    if (!cJSON_IsString(uri) || !uri->valuestring[0] || strncmp(uri->valuestring, "data:", 5) == 0)
        return "its image is embedded, which gnomon reads only through assimp's slots";
    if (strlen(uri->valuestring) >= key_size) return "its image's uri is too long";
    snprintf(key, key_size, "%s", uri->valuestring);
    return NULL;
}

static void gn_ext_specular_textures(const cJSON *root, const cJSON *spec, gn_gltf_material_ext *e)
{
    static const char *const names[2] = {"specularTexture", "specularColorTexture"};
    for (int k = 0; k < 2; k++) {
        const cJSON *info = cJSON_GetObjectItemCaseSensitive(spec, names[k]);
        if (!info) continue;
        if (!cJSON_IsObject(info)) {
            e->specular_why[k] = "it is not an object";
            continue;
        }
        e->specular_why[k] = gn_ext_image_key(root, info, e->specular_key[k], sizeof e->specular_key[k]);
        if (e->specular_why[k]) e->specular_key[k][0] = '\0';
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(info, "extensions");
        const cJSON *set = cJSON_GetObjectItemCaseSensitive(info, "texCoord");
        if ((cJSON_IsObject(x) && cJSON_GetObjectItemCaseSensitive(x, "KHR_texture_transform")) ||
            (cJSON_IsNumber(set) && set->valuedouble != 0))
            e->specular_uv_ignored = true;
    }
}

static void gn_ext_material(const cJSON *root, const cJSON *m, gn_gltf_material_ext *e)
{
    e->specular = 1.0f, e->ior = 1.5f;
    e->specular_color[0] = e->specular_color[1] = e->specular_color[2] = 1.0f;
    if (!cJSON_IsObject(m)) return;
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(m, "name");
    if (cJSON_IsString(nm)) snprintf(e->name, sizeof e->name, "%s", nm->valuestring);
    const cJSON *exts = cJSON_GetObjectItemCaseSensitive(m, "extensions");
    const cJSON *spec =
        cJSON_IsObject(exts) ? cJSON_GetObjectItemCaseSensitive(exts, "KHR_materials_specular") : NULL;
    const cJSON *ior =
        cJSON_IsObject(exts) ? cJSON_GetObjectItemCaseSensitive(exts, "KHR_materials_ior") : NULL;
    if (cJSON_IsObject(spec)) {
        e->specular_set = true;
        float f = gn_ext_number(spec, "specularFactor", 1.0f, &e->fixed);
        if (f < 0.0f || f > 1.0f) e->fixed++;
        e->specular = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
        gn_ext_numbers(spec, "specularColorFactor", 3, e->specular_color, &e->fixed);
        for (int k = 0; k < 3; k++)
            if (e->specular_color[k] < 0.0f) e->specular_color[k] = 0.0f, e->fixed++;
        gn_ext_specular_textures(root, spec, e);
    }
    if (cJSON_IsObject(ior)) {
        e->specular_set = true;
        float v = gn_ext_number(ior, "ior", 1.5f, &e->fixed);
        if (v != 0.0f && !(v >= 1.0f)) v = 1.5f, e->fixed++; /* the schema: >= 1, or exactly 0 */
        e->ior = v;
    }
    const cJSON *pbr = cJSON_GetObjectItemCaseSensitive(m, "pbrMetallicRoughness");
    gn_ext_texture(cJSON_GetObjectItemCaseSensitive(pbr, "baseColorTexture"),
                   &e->uv[GN_MATERIAL_MAP_BASE_COLOR], e);
    gn_ext_texture(cJSON_GetObjectItemCaseSensitive(m, "normalTexture"), &e->uv[GN_MATERIAL_MAP_NORMAL], e);
    gn_ext_texture(cJSON_GetObjectItemCaseSensitive(pbr, "metallicRoughnessTexture"),
                   &e->uv[GN_MATERIAL_MAP_METALLIC_ROUGHNESS], e);
    gn_ext_texture(cJSON_GetObjectItemCaseSensitive(m, "occlusionTexture"), &e->uv[GN_MATERIAL_MAP_OCCLUSION],
                   e);
    gn_ext_texture(cJSON_GetObjectItemCaseSensitive(m, "emissiveTexture"), &e->uv[GN_MATERIAL_MAP_EMISSIVE],
                   e);
}

gn_result gn_gltf_ext_read(const cJSON *root, const char *name, gn_gltf_material_ext **out, uint32_t *count,
                           gn_error *err)
{
    *out = NULL, *count = 0;
    const cJSON *mats = cJSON_GetObjectItemCaseSensitive(root, "materials");
    int n = cJSON_IsArray(mats) ? cJSON_GetArraySize(mats) : 0;
    if (n <= 0) return GN_OK;
    /* the loader refuses these files anyway (gn_gltf_materials); checked first here, as each
     * material's extensions hold two image uris */
    if ((uint32_t)n > GN_GLTF_MAX_MATERIALS)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %d materials, more than the cap of %u", name, n,
                       GN_GLTF_MAX_MATERIALS);
    gn_gltf_material_ext *e = gn_calloc((size_t)n, sizeof *e);
    if (!e)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %d materials' extensions", name,
                       n);
    int i = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, mats) gn_ext_material(root, m, &e[i++]);
    *out = e, *count = (uint32_t)n;
    return GN_OK;
}

const gn_gltf_material_ext *gn_gltf_ext_find(const gn_gltf_material_ext *e, uint32_t count, const char *name,
                                             uint32_t index)
{
    if (!e) return NULL;
    if (!name || !name[0]) return index < count && !e[index].name[0] ? &e[index] : NULL;
    const gn_gltf_material_ext *found = NULL;
    for (uint32_t i = 0; i < count; i++)
        if (strcmp(e[i].name, name) == 0) {
            if (found) return NULL; /* two of that name: which is which is unknown */
            found = &e[i];
        }
    return found;
}

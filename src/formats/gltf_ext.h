/* The material extensions gnomon reads from a glTF file's JSON itself: KHR_materials_specular,
 * KHR_materials_ior and KHR_texture_transform. Why not through assimp: Debian 12's assimp 5.2.5
 * does not import KHR_materials_specular at all (its AI_MATKEY_SPECULAR_FACTOR is the
 * specular-glossiness workflow's, and the library holds no "KHR_materials_specular" string), and
 * it turns KHR_texture_transform into its own aiUVTransform with a changed centre and sign, from
 * which the extension's matrix and texCoord override can't be read back exactly. assimp's post-
 * processing may reorder the materials (TextureTransformTest's come out in another order), so the
 * loader finds a material's extensions by its name (gn_gltf_ext_find). */
#ifndef GN_FORMATS_GLTF_EXT_H
#define GN_FORMATS_GLTF_EXT_H

#include "gnomon.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct gn_gltf_material_ext {
    char name[256];          /* the material's "name" ("" when none) */
    bool specular_set;       /* either extension is on the material: the four below apply */
    float specular;          /* specularFactor, 0..1 (1) */
    float specular_color[3]; /* specularColorFactor (1, 1, 1) */
    float ior;               /* KHR_materials_ior's ior, >= 1 or 0 (1.5) */
    /* KHR_materials_specular's specularTexture [0] and specularColorTexture [1]: the image's uri
     * as assimp names external images (the loader's image key), "" when absent or unusable; then
     * why a present one is unusable (NULL: it is fine or absent) */
    char specular_key[2][1024];
    const char *specular_why[2];
    bool specular_uv_ignored; /* either names a texCoord or KHR_texture_transform: not applied */
    uint32_t fixed;           /* values out of range the reader replaced by the default or clamped */
    uint32_t uv_sets_dropped; /* maps whose texCoord was 2 or more: read from set 0 */
    gn_uv_transform uv[GN_MATERIAL_MAPS]; /* each map's transform and uv set (gn_material_map) */
} gn_gltf_material_ext;

struct cJSON;
/* Reads every material's extensions from the file's root object; *out (count materials, NULL
 * when there are none) is the caller's to free(). Only out of memory fails. */
gn_result gn_gltf_ext_read(const struct cJSON *root, const char *name, gn_gltf_material_ext **out,
                           uint32_t *count, gn_error *err);

/* The extensions of the material assimp calls `name` (its name unique in the file), or, when the
 * name is empty (assimp then has none either), of the file's material `index`; NULL: none. */
const gn_gltf_material_ext *gn_gltf_ext_find(const gn_gltf_material_ext *e, uint32_t count, const char *name,
                                             uint32_t index);

#endif

/* A glTF file's JSON and buffers as the animated model loader reads them (skinned_gltf_data.c)
 * and what it takes from them (skinned_gltf.c). Internal to src/formats/skinned*.c. The file has
 * passed gltf_check.c, so every index and accessor range is known good; each is checked again
 * here all the same, as this code reads values gltf_check.c only bounds. */
#ifndef GN_FORMATS_SKINNED_GLTF_H
#define GN_FORMATS_SKINNED_GLTF_H

#include "formats/skinned_ctx.h"

#include <cjson/cJSON.h>

/* JOINTS_n/WEIGHTS_n sets a primitive may have: 8 sets are 32 influences a vertex, of which the
 * model keeps the 8 largest (GN_SKIN_INFLUENCES); exporters write 1 or 2. */
#define GN_SK_MAX_JOINT_SETS 8

/* One of the file's top-level arrays, indexed (cJSON_GetArrayItem walks a list). */
typedef struct gn_sk_jarr {
    const cJSON **at;
    int n;
} gn_sk_jarr;

typedef struct gn_sk_gltf {
    cJSON *root;
    gn_sk_jarr nodes, meshes, skins, accessors, views, buffers, animations;
    /* where the buffers come from */
    const uint8_t *bin; /* a .glb's BIN chunk in memory, or NULL */
    uint64_t bin_len;   /* its length (in memory or in the file) */
    uint64_t bin_at;    /* a file-backed .glb: where the BIN chunk's bytes start; 0: none */
    const char *path;   /* the file; NULL: in memory, external buffers refused */
    char dir[4096];     /* its folder, with a trailing '/' */
    uint8_t **buf;      /* each buffer's bytes once loaded (owned unless they are the BIN in memory) */
    uint64_t *buf_len;
    /* the model: glTF node <-> model node (-1 where the scene assimp imported lacks it) */
    int32_t *model_of;      /* nodes.n */
    int32_t *gltf_of;       /* the model's node count */
    uint32_t **skin_joints; /* each skin's joints as model nodes, or NULL */
    uint32_t *skin_joint_count;
    float **node_weights; /* each model node's default morph weights, or NULL */
    uint32_t *node_weight_count;
    uint32_t *prim_first; /* meshes.n + 1: assimp's first aiMesh of each mesh (one a primitive) */
} gn_sk_gltf;

/* Parses the JSON (the file's, or a .glb's chunk) and indexes the arrays used here. */
gn_result gn_sk_json_open(gn_sk_ctx *c, gn_sk_gltf *g, const gn_sk_gltf_src *src);
void gn_sk_json_close(gn_sk_gltf *g);

/* Accessor a as floats (count x comps): integer components scaled as normalised when `norm`
 * (an animation's outputs, weights) or read as they are (joint indices); a sparse accessor's
 * substitutions applied. want_comps: the components its type must have (0: any). *out is the
 * caller's to free. what names it in messages. */
gn_result gn_sk_accessor(gn_sk_ctx *c, gn_sk_gltf *g, int a, int want_comps, bool norm, const char *what,
                         float **out, uint32_t *count, uint32_t *comps);
/* Accessor a's count, components a value (MAT4: 16; 0 for another matrix or none) and
 * componentType, without reading it. */
void gn_sk_accessor_shape(const gn_sk_gltf *g, int a, uint32_t *count, int *comps, int *ctype);
/* Accessor a's componentType (5120..5126), or 0. */
int gn_sk_accessor_type(const gn_sk_gltf *g, int a);

/* obj[key] as an index into an array of n entries; -1 when absent (never out of range: refused). */
gn_result gn_sk_json_index(gn_sk_ctx *c, const cJSON *obj, const char *key, int n, const char *what,
                           int *out);

#endif

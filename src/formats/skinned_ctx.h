/* State shared by the animated model loader's files (skinned.c: the load and the node tree;
 * skinned_skin.c: parts, palette, influences, morph sets; skinned_anim.c: assimp's clips;
 * skinned_gltf*.c: what glTF files give from their JSON; skinned_iqm.c: IQM's joints and
 * animations). Not part of any interface outside src/formats/skinned*.c. */
#ifndef GN_FORMATS_SKINNED_CTX_H
#define GN_FORMATS_SKINNED_CTX_H

#include "formats/skinned.h"

#include <assimp/scene.h>

#define GN_SK_NONE 0xffffffffu /* gn_gltf_desc's maps: a mesh skipped, a material unused */

struct gn_sk_gltf; /* skinned_gltf.c */

/* A model node's name for a lookup (assimp's full name, not the model's 64-byte copy). */
typedef struct gn_sk_name {
    const char *name;
    uint32_t node;
} gn_sk_name;

typedef struct gn_sk_ctx {
    const struct aiScene *ai;
    const char *name; /* the file, for messages */
    gn_skinned_desc d;
    gn_error *err;
    gn_skinned_stats *st;
    gn_anim_model *m;
    gn_skinned_format format;
    const uint32_t *mesh_map; /* assimp mesh -> scene mesh (GN_SK_NONE: skipped) */
    const uint32_t *mat_map;  /* assimp material -> scene material */
    /* the model's nodes: the aiNode of each (NULL for IQM's joints, added after the tree) */
    const struct aiNode **ai_node;
    uint32_t node_cap;
    gn_sk_name *names; /* the tree's nodes sorted by name, first in the walk first among equals */
    uint32_t name_count;
    uint32_t joint_cap;  /* palette capacity */
    uint32_t *part_mesh; /* each part's assimp mesh (an index of ai->mMeshes) */
    uint32_t part_cap, morph_cap, clip_cap;
    struct gn_sk_gltf *gltf; /* a glTF file's JSON (skinned_gltf.c), or NULL */
    bool gltf_unjoined;      /* imported without JoinIdenticalVertices: skinned glTF primitives'
                              * influences from the file's JOINTS_n/WEIGHTS_n (skinned_gltf.c) */
    const uint8_t *iqm;      /* an IQM file's bytes, checked (skinned_iqm.c), or NULL */
    size_t iqm_size;
} gn_sk_ctx;

/* Warning (or info) to the desc's log, else warnings to stderr; prefixed with the file. */
void gn_sk_log(gn_sk_ctx *c, gn_log_level level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Refuses the model: "FILE: " and the formatted fault (GN_ERROR_BAD_DATA). */
gn_result gn_sk_bad(gn_sk_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
gn_result gn_sk_oom(gn_sk_ctx *c);

/* The model's nodes from assimp's tree, parent first, and the lookup by name. */
gn_result gn_sk_nodes(gn_sk_ctx *c);
/* The model node whose aiNode is named `name` (the first in the walk among equals), or -1. */
int32_t gn_sk_find_node(const gn_sk_ctx *c, const char *name);
/* Appends a node (parent earlier or -1) with a rest transform from a column-major matrix;
 * its index in *out. ai may be NULL. */
gn_result gn_sk_add_node(gn_sk_ctx *c, int32_t parent, const char *name, const float m[16],
                         const struct aiNode *ai, uint32_t *out);
/* A column-major matrix decomposed into translation, rotation (x, y, z, w) and scale; false when
 * it holds a shear or projection that T * R * S cannot give (the closest TRS is still given). */
bool gn_sk_decompose(const float m[16], float t[3], float r[4], float s[3]);
/* assimp's row-major aiMatrix4x4 as a column-major float[16]. */
void gn_sk_matrix(const struct aiMatrix4x4 *a, float out[16]);
/* The inverse of a column-major matrix; false when it is singular. */
bool gn_sk_invert(const float m[16], float out[16]);

/* The palette entry of node with inverse bind ib (an existing one when both match). */
gn_result gn_sk_joint(gn_sk_ctx *c, uint32_t node, const float ib[16], uint16_t *out);
/* The model's parts from the node tree: each mesh reference of a node that the scene kept, with
 * its influences (aiMesh bones; a glTF node's skin joints from its JSON) and morph set (aiMesh
 * anim meshes; default weights from a glTF's JSON or aiAnimMesh::mWeight). */
gn_result gn_sk_parts(gn_sk_ctx *c);
/* Appends part for assimp mesh ai_mesh on node (rigid, no morph); its index in *out. */
gn_result gn_sk_add_part(gn_sk_ctx *c, uint32_t node, uint32_t ai_mesh, uint32_t *out);
/* A vertex's influences made final (n held, `seen` offered): one with none bound to joint
 * `rigid` (its mesh's node), the weights scaled to sum to one, sorted largest first; counts what
 * was changed in the stats. */
void gn_sk_finish_influence(gn_sk_ctx *c, gn_skin_influence *in, uint32_t n, uint32_t seen, uint16_t rigid);
/* Adds one (joint, weight) to a vertex's list of up to GN_SKIN_INFLUENCES, keeping the largest
 * (a joint met twice adds up); *n is how many it holds, *seen how many were offered. */
void gn_sk_add_influence(gn_skin_influence *in, uint32_t *n, uint32_t *seen, uint16_t joint, float w);

/* A clip being built (skinned_anim.c): its floats grow in one array, each channel keeps the
 * offsets of its times and values until the clip is finished and they become pointers. */
typedef struct gn_sk_clip_build {
    float *data;
    size_t floats, float_cap;
    gn_anim_channel *ch;
    size_t *times_at, *values_at;
    uint32_t count, cap;
    uint64_t keys;
} gn_sk_clip_build;
/* Room for n more floats: their offset in *at (b->data moves with every call). */
gn_result gn_sk_cb_floats(gn_sk_ctx *c, gn_sk_clip_build *b, size_t n, size_t *at);
/* A channel: proto's target, path and sampler (count, width, interp, rotation) with its times
 * and values at those offsets. */
gn_result gn_sk_cb_channel(gn_sk_ctx *c, gn_sk_clip_build *b, const gn_anim_channel *proto, size_t times_at,
                           size_t values_at);
/* Checks each channel's sampler, appends the clip (named `name`, or "clip N" when empty) to the
 * model, its duration the last keyframe; b is emptied either way. */
gn_result gn_sk_cb_finish(gn_sk_ctx *c, gn_sk_clip_build *b, const char *name);
void gn_sk_cb_free(gn_sk_clip_build *b);
/* Clips from ai->mAnimations (skinned_anim.c). */
gn_result gn_sk_assimp_clips(gn_sk_ctx *c);

/* glTF (skinned_gltf.c): parses the JSON (text, or a .glb's chunk) with its buffers found
 * through src: the .glb's BIN chunk in memory, or in the file at path; external buffers next
 * to path (NULL path: refused). Then maps glTF nodes onto the model's (assimp keeps the tree),
 * reads skins and checks JOINTS/WEIGHTS values. */
typedef struct gn_sk_gltf_src {
    const uint8_t *data; /* the whole file in memory, or NULL: read from path */
    size_t size;
    const char *path; /* the file, for external buffers and a file-backed .glb */
} gn_sk_gltf_src;
gn_result gn_sk_gltf_open(gn_sk_ctx *c, const gn_sk_gltf_src *src);
/* Before assimp (skinned_gltf_check.c): what its glTF importer indexes without checking (an
 * inverse bind matrix a joint, every JOINTS_n/WEIGHTS_n set and targets a POSITION, outputs per
 * time). *unjoined: some skinned primitive has JOINTS_1, so the file is to be imported without
 * JoinIdenticalVertices and its influences read from the file (gn_sk_gltf_influences). */
gn_result gn_sk_gltf_precheck(gn_sk_ctx *c, const gn_sk_gltf_src *src, bool *unjoined);
void gn_sk_gltf_close(gn_sk_ctx *c);
/* The model nodes of the joints of the skin on model node n (its count in *count), or NULL. */
const uint32_t *gn_sk_gltf_skin(const gn_sk_ctx *c, uint32_t n, uint32_t *count);
/* Part p's influences from its primitive's JOINTS_n/WEIGHTS_n sets, every set (an import without
 * JoinIdenticalVertices: assimp 5.2.5 keeps one aiMesh a primitive with the POSITION accessor's
 * vertices in order, checked here). palette[j]: joint j of the part's skin as a palette entry.
 * Each value of weight > 0 goes to gn_sk_add_influence; in, held and seen are per vertex. */
gn_result gn_sk_gltf_influences(gn_sk_ctx *c, uint32_t p, const uint16_t *palette, uint32_t joint_count,
                                gn_skin_influence *in, uint8_t *held, uint32_t *seen);
/* The default morph weights of model node n's mesh (node's "weights", else its mesh's), or NULL. */
const float *gn_sk_gltf_weights(const gn_sk_ctx *c, uint32_t n, uint32_t *count);
/* The file's animations as clips, sampled as the specification says (STEP, LINEAR, CUBICSPLINE). */
gn_result gn_sk_gltf_clips(gn_sk_ctx *c);

/* MD5 (skinned_md5.c): an .md5mesh (anim false) or .md5anim checked whole against the grammar. */
gn_result gn_sk_md5_check(const uint8_t *data, size_t size, bool anim, const char *name, gn_error *err);

/* COLLADA (skinned_dae.c): the numbers, arrays and accessors of the XML text checked whole. */
gn_result gn_sk_dae_check(const uint8_t *data, size_t size, const char *name, gn_error *err);

/* FBX and COLLADA (skinned_sandbox.c): assimp's import tried first in a forked child; GN_OK when
 * it ended cleanly (imported or refused), else why the file is refused (a crash, a loop). */
typedef struct gn_sk_trial {
    gn_skinned_format format;
    const char *path;    /* the file, or NULL: from memory */
    const uint8_t *data; /* in memory */
    size_t size;
    const char *hint; /* assimp's extension hint for memory */
    unsigned int flags;
} gn_sk_trial;
gn_result gn_sk_trial_import(const gn_sk_trial *t, const char *name, gn_error *err);

/* IQM (skinned_iqm.c): the file checked whole (gn_skinned_check's IQM part). */
gn_result gn_sk_iqm_check(const uint8_t *data, size_t size, const char *name, gn_error *err);
/* Its joints as nodes under assimp's root, their palette, the parts' influences from the blend
 * arrays, and the animations as clips. After gn_sk_parts. */
gn_result gn_sk_iqm_model(gn_sk_ctx *c);

#endif

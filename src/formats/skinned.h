/* Animated models (issue 19): a file's node tree, skins, morph targets and clips read into
 * src/decide/skin.h's gn_anim_model, and its meshes, materials and textures added to a scene in
 * their bind pose through the glTF loader's conversion (gn_gltf_convert, which reads any assimp
 * scene) without an instance: rigs place them (scene/rig.h).
 *
 * Every format is imported by assimp 5.2.5 for its meshes; what each takes from where:
 *   glTF 2.0 (.gltf, .glb): validated whole by gltf_check.c first, then what assimp indexes
 *     unchecked in skins, skinned attributes, targets and samplers (skinned_gltf_check.c). Bones'
 *     weights and morph targets through assimp; the skins' joints, the default morph weights,
 *     the influences where a skinned primitive has JOINTS_1 (every JOINTS_n/WEIGHTS_n set, the
 *     file imported without JoinIdenticalVertices) and the animations from the file's own JSON
 *     and buffers (skinned_gltf.c), because assimp 5.2.5 reads STEP samplers as if LINEAR,
 *     keeps only the values of CUBICSPLINE ones (their tangents dropped), names bones
 *     ambiguously and joins vertices whose weights differ. The JOINTS and WEIGHTS values are
 *     checked there too: assimp drops a joint index past the skin or a NaN weight without a word.
 *   IQM (.iqm): every count and offset of the header checked against the file (assimp checks
 *     none); assimp for the meshes only (it reads no joints, blend weights or animations), the
 *     joints, blend indexes and weights and the animations from the file (skinned_iqm.c).
 *   MD5 (.md5mesh, and the .md5anim of the same name next to it): both checked whole against
 *     the format's grammar, every index against its count (skinned_md5.c: assimp trusts them).
 *   FBX (.fbx, binary 7100 to 7700 or ASCII): its head (skinned_check.c); COLLADA (.dae): its
 *     number lists, arrays and accessors (skinned_dae.c). Both then imported first by a forked
 *     child (skinned_sandbox.c): their readers crash on what no narrow check catches.
 *   MD5, FBX and COLLADA then come through assimp whole: aiMesh bones, aiMesh anim meshes and
 *     aiAnimation channels (skinned_anim.c).
 * docs/ANIMATION.md "Loading skins, animations and morphs" lists the checks and caps. */
#ifndef GN_FORMATS_SKINNED_H
#define GN_FORMATS_SKINNED_H

#include "decide/skin.h"
#include "formats/gltf.h"
#include "gnomon.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every format but glTF (which keeps GN_GLTF_MAX_FILE_BYTES): IQM, MD5 and COLLADA files are read
 * whole into memory here, and assimp reads each whole too; the test models are under 1 MB. */
#define GN_SKINNED_MAX_FILE_BYTES (512ull << 20)
/* How far in a COLLADA or ASCII FBX file its signature ("<COLLADA", "FBXHeaderExtension") may be:
 * an XML declaration and comments come first, never more than a few hundred bytes of them. */
#define GN_SKINNED_HEAD_BYTES (64u << 10)

typedef enum gn_skinned_format {
    GN_SKINNED_UNKNOWN = 0,
    GN_SKINNED_GLTF, /* .gltf (JSON) or .glb */
    GN_SKINNED_IQM,
    GN_SKINNED_MD5,
    GN_SKINNED_FBX,
    GN_SKINNED_DAE,
} gn_skinned_format;

/* What a load made and what it had to change or leave out. */
typedef struct gn_skinned_stats {
    gn_skinned_format format;
    const char *clips_from;    /* "glTF JSON", "IQM file", "assimp" or "none" */
    uint32_t nodes;            /* the model's nodes */
    uint32_t joints;           /* palette entries */
    uint32_t parts;            /* drawn parts (mesh references of nodes) */
    uint32_t skinned_parts;    /* parts with influences */
    uint64_t skinned_vertices; /* their vertices */
    uint32_t morph_sets;       /* parts with morph targets */
    uint32_t morph_targets;    /* summed over the sets */
    uint32_t clips, channels;  /* channels summed over the clips */
    uint32_t max_influences;   /* the most influences a vertex had in the file (8 kept at most) */
    uint32_t truncated;        /* vertices with more than GN_SKIN_INFLUENCES: the largest kept */
    uint32_t renormalised;     /* vertices whose weights summed outside 1 +- the tolerance */
    uint32_t unweighted;       /* vertices of a skinned mesh with no weight: bound to its node */
    uint32_t keys_dropped;     /* assimp keys at a time not after the previous key's: dropped */
    uint32_t channels_skipped; /* channels whose node or morph set was not found */
    uint32_t sheared;          /* nodes whose matrix is no translation-rotation-scale */
    gn_gltf_stats meshes;      /* what the mesh conversion added to the scene */
} gn_skinned_stats;

/* Zero means default throughout. */
typedef struct gn_skinned_desc {
    gn_log_fn log; /* warnings (and info lines); default: warnings to stderr */
    void *log_user;
    bool skip_textures; /* geometry and factors only: no image is decoded */
} gn_skinned_desc;

/* A file already in memory (the fuzz target's input). */
typedef struct gn_skinned_source {
    const uint8_t *data;
    size_t size;
    const char *name;         /* labels messages */
    gn_skinned_format format; /* GN_SKINNED_UNKNOWN: from the bytes (gn_skinned_detect) */
} gn_skinned_source;

/* Loads an animated model: the file's meshes, materials and textures into s (no instance), the
 * model into *out (owned by the caller: gn_anim_model_free, or gn_scene_add_anim_model takes it).
 * The format comes from the extension (.gltf .glb .iqm .md5mesh .fbx .dae) and must agree with
 * the file's head. A file with no skin, no animation and no morph still loads: rigid parts and
 * no clips. All or nothing: on failure the scene is as before and *out is zeroed; the message
 * names the file and the fault (GN_ERROR_IO, GN_ERROR_BAD_DATA, GN_ERROR_INVALID_ARGUMENT,
 * GN_ERROR_OUT_OF_MEMORY). stats (optional) is filled, also on failure as far as it went. */
gn_result gn_skinned_load(gn_scene *s, const char *path, const gn_skinned_desc *d, gn_anim_model *out,
                          gn_skinned_stats *stats, gn_error *err);

/* The same from memory: nothing outside the bytes is read (a glTF's external buffers and
 * images are refused or missing, an .md5mesh has no .md5anim). */
gn_result gn_skinned_load_memory(gn_scene *s, const gn_skinned_source *src, const gn_skinned_desc *d,
                                 gn_anim_model *out, gn_skinned_stats *stats, gn_error *err);

/* The format the first bytes say (head_len of them, up to GN_SKINNED_HEAD_BYTES), or
 * GN_SKINNED_UNKNOWN. */
gn_skinned_format gn_skinned_detect(const uint8_t *head, size_t head_len);
/* The format an extension names (".iqm", case-insensitive), or GN_SKINNED_UNKNOWN. */
gn_skinned_format gn_skinned_format_of_path(const char *path);
const char *gn_skinned_format_name(gn_skinned_format f); /* "glTF", "IQM", "MD5", "FBX", "COLLADA" */

/* The narrow check before assimp sees a file of format f: its head (head_len bytes; the whole
 * file for IQM, MD5 and COLLADA, whose every offset, index or number list is checked) against the
 * file's size and the format's signature. GN_OK or GN_ERROR_BAD_DATA with one line naming the file
 * and the fault. (FBX and COLLADA also get a trial import in a child at load: not done here.) */
gn_result gn_skinned_check(gn_skinned_format f, const uint8_t *head, size_t head_len, uint64_t size,
                           const char *name, gn_error *err);

/* The assimp post-processing steps for format f: gltf.h's, without JoinIdenticalVertices for IQM
 * (its vertices must stay in the file's order: the blend arrays are read from the file; a load
 * drops it too for a glTF whose skinned primitives have JOINTS_1, read from the file the same
 * way). No LimitBoneWeights: every weight comes through, and the loader keeps the largest 8. */
unsigned int gn_skinned_import_flags(gn_skinned_format f);

#endif

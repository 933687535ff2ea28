/* Animated models (skinned.h): the file checks, assimp's import, the meshes into the scene and
 * the model built from the import and, for glTF and IQM, from the file itself. */
#include "formats/skinned.h"

#include "base/alloc.h"
#include "base/error.h"
#include "base/file.h"
#include "formats/gltf_check.h"
#include "formats/skinned_ctx.h"
#include "scene/scene.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What a load reads besides assimp's import. */
typedef struct gn_sk_input {
    gn_skinned_format format;
    const char *base_dir;                /* images next to the file; NULL: embedded only */
    const gn_gltf_check_info *gltf_info; /* material extensions gltf_check.c read, or NULL */
    gn_sk_gltf_src gltf;                 /* where the glTF JSON is */
    const uint8_t *iqm;                  /* an IQM file's checked bytes */
    size_t iqm_size;
    bool gltf_unjoined; /* imported without JoinIdenticalVertices (gn_sk_import_flags) */
} gn_sk_input;

/* The model from an import whose meshes are already in the scene (c->mesh_map). */
static gn_result gn_sk_model(gn_sk_ctx *c, const gn_sk_input *in)
{
    gn_result r = gn_sk_nodes(c);
    if (r == GN_OK && in->format == GN_SKINNED_GLTF) r = gn_sk_gltf_open(c, &in->gltf);
    if (r == GN_OK) r = gn_sk_parts(c);
    if (r == GN_OK && in->format == GN_SKINNED_IQM) {
        c->iqm = in->iqm, c->iqm_size = in->iqm_size;
        r = gn_sk_iqm_model(c);
        c->st->clips_from = "IQM file";
    } else if (r == GN_OK && in->format == GN_SKINNED_GLTF) {
        r = gn_sk_gltf_clips(c);
        c->st->clips_from = "glTF JSON";
    } else if (r == GN_OK) {
        r = gn_sk_assimp_clips(c);
        c->st->clips_from = "assimp";
    }
    char why[400];
    if (r == GN_OK && !gn_anim_model_check(c->m, why, sizeof why)) r = gn_sk_bad(c, "%s", why);
    gn_sk_gltf_close(c);
    return r;
}

static void gn_sk_count(const gn_anim_model *m, gn_skinned_stats *st)
{
    st->nodes = m->skeleton.node_count, st->joints = m->skeleton.joint_count, st->parts = m->part_count;
    st->clips = m->clip_count, st->morph_sets = m->morph_count;
    for (uint32_t p = 0; p < m->part_count; p++)
        if (m->parts[p].influences) st->skinned_parts++, st->skinned_vertices += m->parts[p].vertex_count;
    for (uint32_t k = 0; k < m->morph_count; k++) st->morph_targets += m->morphs[k].target_count;
    for (uint32_t k = 0; k < m->clip_count; k++) st->channels += m->clips[k].channel_count;
}

/* assimp's import into the scene and the model: all or nothing. */
static gn_result gn_sk_build(gn_scene *s, const struct aiScene *ai, const char *name, const gn_sk_input *in,
                             const gn_skinned_desc *d, gn_anim_model *out, gn_skinned_stats *st,
                             gn_error *err)
{
    gn_sk_ctx c = {.ai = ai,
                   .name = name,
                   .err = err,
                   .st = st,
                   .m = out,
                   .format = in->format,
                   .gltf_unjoined = in->gltf_unjoined};
    if (d) c.d = *d;
    gn_scene_mark mark = gn_scene_mark_now(s);
    size_t nm = ai->mNumMeshes ? ai->mNumMeshes : 1, nmat = ai->mNumMaterials ? ai->mNumMaterials : 1;
    uint32_t *mesh_map = gn_malloc(nm * sizeof *mesh_map), *mat_map = gn_malloc(nmat * sizeof *mat_map);
    gn_result r = mesh_map && mat_map ? GN_OK : gn_sk_oom(&c);
    if (r == GN_OK) {
        gn_gltf_desc gd = {.log = c.d.log,
                           .log_user = c.d.log_user,
                           .skip_textures = c.d.skip_textures,
                           .stats = &st->meshes,
                           .no_instances = true,
                           .mesh_map_out = mesh_map,
                           .material_map_out = mat_map};
        if (in->gltf_info)
            gd.material_ext = in->gltf_info->materials, gd.material_ext_count = in->gltf_info->material_count;
        /* the glTF conversion reads any assimp scene: materials fall back from glTF's keys to
         * the diffuse colour and texture other formats give, and the v flip it undoes is
         * assimp's own convention for every importer. But with a folder for images it reads the
         * file named by its label again as glTF JSON (gltf_dds.c, AMD_split_roughnessMetallic),
         * which another format's file is not: it is given a label naming no file (the path and
         * the format), which that reader skips as it skips a file it cannot open. */
        char label[4200];
        snprintf(label, sizeof label, in->format == GN_SKINNED_GLTF ? "%s" : "%s (%s)", name,
                 gn_skinned_format_name(in->format));
        r = gn_gltf_convert(s, ai, in->base_dir, label, &gd, err);
    }
    if (r == GN_OK && (!ai->mRootNode || (ai->mNumMeshes && !ai->mMeshes)))
        r = gn_sk_bad(&c, "assimp's import has no node tree or no mesh list");
    c.mesh_map = mesh_map, c.mat_map = mat_map;
    if (r == GN_OK) {
        snprintf(out->name, sizeof out->name, "%s", strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
        r = gn_sk_model(&c, in);
    }
    gn_sk_count(out, st);
    free(mesh_map), free(mat_map);
    free(c.ai_node), free(c.names), free(c.part_mesh);
    if (r != GN_OK) {
        gn_anim_model_free(out);
        gn_scene_rollback(s, &mark);
    }
    return r;
}

/* assimp's steps for a file: gn_skinned_import_flags', and for a glTF whose skinned primitives
 * have a second JOINTS_n set no JoinIdenticalVertices, so that assimp's vertices stay the
 * primitive's, in order, for the influences read from the file (skinned_gltf.c). (assimp 5.2.5
 * reads every set itself, but its JoinIdenticalVertices joins vertices of one position, normal
 * and texture coordinates whatever their weights, adding both's up.) */
static unsigned int gn_sk_import_flags(gn_skinned_format f, bool unjoined)
{
    unsigned int flags = gn_skinned_import_flags(f);
    return unjoined ? flags & ~(unsigned)aiProcess_JoinIdenticalVertices : flags;
}

static gn_result gn_sk_import_failed(const char *name, gn_skinned_format f, gn_error *err)
{
    const char *why = aiGetErrorString();
    return gn_fail(err, GN_ERROR_BAD_DATA, "%s: assimp's %s reader does not take it%s%s", name,
                   gn_skinned_format_name(f), why && *why ? ": " : "", why ? why : "");
}

/* Reads up to cap bytes of the file from its start. */
static gn_result gn_sk_read(const char *path, size_t cap, uint8_t **out, size_t *len, gn_error *err)
{
    *out = gn_malloc(cap ? cap : 1);
    if (!*out) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    FILE *f = fopen(path, "rb");
    if (!f) return gn_fail(err, GN_ERROR_IO, "%s: cannot open the file: %s", path, strerror(errno));
    *len = fread(*out, 1, cap, f);
    fclose(f);
    return GN_OK;
}

/* MD5: assimp also reads the .md5anim of the same name when there is one: checked whole too. */
static gn_result gn_sk_md5anim(const char *path, gn_error *err)
{
    char anim[4096];
    const char *dot = strrchr(path, '.');
    if (snprintf(anim, sizeof anim, "%.*s.md5anim", (int)(dot - path), path) >= (int)sizeof anim)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: the path is too long", path);
    FILE *f = fopen(anim, "rb");
    if (!f) return GN_OK; /* none: nothing more for assimp to read */
    fclose(f);
    uint64_t size;
    gn_result r = gn_file_check_regular(anim, &size, err);
    if (r != GN_OK) return r;
    if (size > GN_SKINNED_MAX_FILE_BYTES)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %llu bytes, more than the cap of %llu", anim,
                       (unsigned long long)size, GN_SKINNED_MAX_FILE_BYTES);
    uint8_t *text = NULL;
    size_t n = 0;
    r = gn_sk_read(anim, (size_t)size, &text, &n, err);
    if (r == GN_OK && n != size) r = gn_fail(err, GN_ERROR_IO, "%s: cannot read it whole", anim);
    if (r == GN_OK) r = gn_sk_md5_check(text, n, true, anim, err);
    free(text);
    return r;
}

gn_result gn_skinned_load(gn_scene *s, const char *path, const gn_skinned_desc *d, gn_anim_model *out,
                          gn_skinned_stats *stats, gn_error *err)
{
    gn_skinned_stats local;
    gn_skinned_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    st->clips_from = "none";
    if (!s || !path || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_skinned_load: NULL scene, path or model");
    memset(out, 0, sizeof *out);
    gn_skinned_format f = gn_skinned_format_of_path(path);
    st->format = f;
    if (!f)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "%s: not a .gltf, .glb, .iqm, .md5mesh, .fbx or .dae file", path);
    uint64_t size = 0;
    gn_result r = gn_file_check_regular(path, &size, err);
    if (r != GN_OK) return r;
    uint64_t cap = f == GN_SKINNED_GLTF ? GN_GLTF_MAX_FILE_BYTES : GN_SKINNED_MAX_FILE_BYTES;
    if (size > cap)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %llu bytes, more than the cap of %llu", path,
                       (unsigned long long)size, (unsigned long long)cap);
    /* IQM, MD5 and COLLADA are checked whole (every offset, index or number of the file; IQM's
     * bytes are read here again), FBX by its head */
    bool whole = f == GN_SKINNED_IQM || f == GN_SKINNED_MD5 || f == GN_SKINNED_DAE;
    uint8_t *bytes = NULL;
    size_t n = 0;
    r = gn_sk_read(path, whole ? (size_t)size : GN_SKINNED_HEAD_BYTES, &bytes, &n, err);
    if (r == GN_OK && whole && n != size) r = gn_fail(err, GN_ERROR_IO, "%s: cannot read it whole", path);
    if (r == GN_OK) r = gn_skinned_check(f, bytes, n, size, path, err);
    /* assimp picks its glTF reader by the extension: JSON must be .gltf and binary .glb */
    bool glb = n >= 4 && memcmp(bytes, "glTF", 4) == 0,
         named_glb = strcasecmp(strrchr(path, '.'), ".glb") == 0;
    if (r == GN_OK && f == GN_SKINNED_GLTF && glb != named_glb)
        r = gn_fail(err, GN_ERROR_BAD_DATA,
                    "%s: %s in a file named %s; gnomon reads .gltf as JSON and .glb as binary glTF", path,
                    glb ? "binary glTF" : "JSON text", glb ? ".gltf" : ".glb");
    if (r == GN_OK && f == GN_SKINNED_MD5) r = gn_sk_md5anim(path, err);
    gn_gltf_check_info info = {0};
    if (r == GN_OK && f == GN_SKINNED_GLTF) r = gn_gltf_check(path, &info, err);
    gn_skinned_stats pre_st = {0};
    gn_sk_ctx pre = {.name = path, .err = err, .st = &pre_st};
    gn_sk_gltf_src gsrc = {.path = path, .size = size};
    bool unjoined = false;
    if (r == GN_OK && f == GN_SKINNED_GLTF) r = gn_sk_gltf_precheck(&pre, &gsrc, &unjoined);
    gn_sk_trial trial = {.format = f, .path = path, .flags = gn_sk_import_flags(f, unjoined)};
    if (r == GN_OK && (f == GN_SKINNED_FBX || f == GN_SKINNED_DAE)) r = gn_sk_trial_import(&trial, path, err);
    const struct aiScene *ai = NULL;
    if (r == GN_OK) {
        ai = aiImportFile(path, gn_sk_import_flags(f, unjoined));
        if (!ai) r = gn_sk_import_failed(path, f, err);
    }
    if (r == GN_OK) {
        char dir[4096];
        const char *slash = strrchr(path, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path + 1) : 2, slash ? path : "./");
        gn_sk_input in = {.format = f,
                          .base_dir = dir,
                          .gltf_info = &info,
                          .gltf = gsrc,
                          .iqm = bytes,
                          .iqm_size = n,
                          .gltf_unjoined = unjoined};
        r = gn_sk_build(s, ai, path, &in, d, out, st, err);
    }
    if (ai) aiReleaseImport(ai);
    gn_gltf_check_info_free(&info);
    free(bytes);
    return r;
}

gn_result gn_skinned_load_memory(gn_scene *s, const gn_skinned_source *src, const gn_skinned_desc *d,
                                 gn_anim_model *out, gn_skinned_stats *stats, gn_error *err)
{
    gn_skinned_stats local;
    gn_skinned_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    st->clips_from = "none";
    if (!s || !src || !src->data || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_skinned_load_memory: NULL scene, source or model");
    memset(out, 0, sizeof *out);
    const char *name = src->name ? src->name : "(memory)";
    gn_skinned_format f = src->format ? src->format : gn_skinned_detect(src->data, src->size);
    st->format = f;
    if (!f) return gn_fail(err, GN_ERROR_BAD_DATA, "%s: no format gnomon loads models from", name);
    /* assimp takes the size as an unsigned int */
    if (src->size > GN_SKINNED_MAX_FILE_BYTES)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %zu bytes, more than the cap of %llu", name, src->size,
                       GN_SKINNED_MAX_FILE_BYTES);
    bool whole = f == GN_SKINNED_IQM || f == GN_SKINNED_MD5 || f == GN_SKINNED_DAE;
    size_t head = whole || src->size < GN_SKINNED_HEAD_BYTES ? src->size : GN_SKINNED_HEAD_BYTES;
    gn_result r = gn_skinned_check(f, src->data, head, src->size, name, err);
    /* no folder: a glTF naming external buffers is refused, as assimp could not read them */
    if (r == GN_OK && f == GN_SKINNED_GLTF) r = gn_gltf_check_memory(src->data, src->size, NULL, name, err);
    gn_skinned_stats pre_st = {0};
    gn_sk_ctx pre = {.name = name, .err = err, .st = &pre_st};
    gn_sk_gltf_src gsrc = {.data = src->data, .size = src->size};
    bool unjoined = false;
    if (r == GN_OK && f == GN_SKINNED_GLTF) r = gn_sk_gltf_precheck(&pre, &gsrc, &unjoined);
    if (r != GN_OK) return r;
    static const char *const hints[] = {"", "gltf", "iqm", "md5mesh", "fbx", "dae"};
    const char *hint =
        f == GN_SKINNED_GLTF && src->size >= 4 && memcmp(src->data, "glTF", 4) == 0 ? "glb" : hints[f];
    gn_sk_trial trial = {.format = f,
                         .data = src->data,
                         .size = src->size,
                         .hint = hint,
                         .flags = gn_sk_import_flags(f, unjoined)};
    if (f == GN_SKINNED_FBX || f == GN_SKINNED_DAE) r = gn_sk_trial_import(&trial, name, err);
    if (r != GN_OK) return r;
    const struct aiScene *ai = aiImportFileFromMemory((const char *)src->data, (unsigned)src->size,
                                                      gn_sk_import_flags(f, unjoined), hint);
    if (!ai) return gn_sk_import_failed(name, f, err);
    gn_sk_input in = {.format = f,
                      .gltf = {.data = src->data, .size = src->size},
                      .iqm = src->data,
                      .iqm_size = src->size,
                      .gltf_unjoined = unjoined};
    r = gn_sk_build(s, ai, name, &in, d, out, st, err);
    aiReleaseImport(ai);
    return r;
}

/* glTF 2.0 through assimp (gltf.h): file checks and import, meshes, the node tree as
 * instances. Materials and images live in gltf_material.c. */
#include "formats/gltf.h"

#include "base/alloc.h"
#include "base/error.h"
#include "base/file.h"
#include "base/gmath.h"
#include "formats/gltf_check.h"
#include "formats/gltf_ctx.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/version.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Vertex attributes are handed to the scene without conversion. */
_Static_assert(sizeof(ai_real) == sizeof(float), "assimp built with double precision");
_Static_assert(sizeof(struct aiVector3D) == 3 * sizeof(float), "aiVector3D is not 3 floats");

void gn_gltf_log(gn_gltf_ctx *c, gn_log_level level, const char *fmt, ...)
{
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "%s: ", c->name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    if (c->d.log)
        c->d.log(level, msg, c->d.log_user);
    else if (level <= GN_LOG_WARN)
        fprintf(stderr, "gnomon: warning: %s\n", msg);
}

unsigned int gn_gltf_import_flags(void)
{
    /* No FlipUVs / MakeLeftHanded / FlipWindingOrder: glTF already is gnomon's convention.
     * ValidateDataStructure turns inconsistent imports into errors instead of bad reads. */
    return aiProcess_Triangulate | aiProcess_GenSmoothNormals | aiProcess_CalcTangentSpace |
           aiProcess_JoinIdenticalVertices | aiProcess_ValidateDataStructure;
}

/* ---- meshes ------------------------------------------------------------------------------- */

static bool gn_gltf_finite3(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

/* Fills the scene mesh for assimp mesh `i`; skipped (mesh_map NONE) without triangles. */
static gn_result gn_gltf_mesh(gn_gltf_ctx *c, uint32_t i)
{
    const struct aiMesh *m = c->ai->mMeshes[i];
    c->mesh_map[i] = GN_GLTF_NONE;
    if (!m) return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh %u is missing", c->name, i);
    char label[256];
    snprintf(label, sizeof label, "%s", m->mName.length ? m->mName.data : "(unnamed)");
    uint32_t vc = m->mNumVertices;
    if (vc == 0 || !m->mVertices)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh %u '%s' has no vertices", c->name, i, label);
    if (vc > GN_GLTF_MAX_MESH_VERTICES)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh %u '%s' has %u vertices, more than the cap of %u",
                       c->name, i, label, vc, GN_GLTF_MAX_MESH_VERTICES);
    if (m->mNumFaces && !m->mFaces)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh %u '%s' has no face list", c->name, i, label);
    uint64_t tris = 0;
    for (uint32_t f = 0; f < m->mNumFaces; f++) tris += m->mFaces[f].mNumIndices == 3;
    if (tris == 0) { /* points or lines only: nothing gnomon draws */
        c->st.skipped_meshes++;
        return GN_OK;
    }
    if (tris * 3 > GN_GLTF_MAX_MESH_INDICES)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh %u '%s' has %llu triangles, more than the cap",
                       c->name, i, label, (unsigned long long)tris);

    uint32_t *idx = gn_malloc(tris * 3 * sizeof *idx);
    float *nrm = gn_malloc((size_t)vc * 3 * sizeof *nrm);
    float *tan = m->mTangents && m->mBitangents ? gn_malloc((size_t)vc * 4 * sizeof *tan) : NULL;
    float *uv = m->mTextureCoords[0] ? gn_malloc((size_t)vc * 2 * sizeof *uv) : NULL;
    /* TEXCOORD_1, for a map whose texCoord is 1 (KHR_texture_transform may name it too) */
    float *uv1 = m->mTextureCoords[1] ? gn_malloc((size_t)vc * 2 * sizeof *uv1) : NULL;
    gn_result r = GN_OK;
    if (!idx || !nrm || (m->mTangents && m->mBitangents && !tan) || (m->mTextureCoords[0] && !uv) ||
        (m->mTextureCoords[1] && !uv1)) {
        r = gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: mesh '%s': out of memory", c->name, label);
        goto done;
    }
    uint32_t n = 0;
    for (uint32_t f = 0; f < m->mNumFaces; f++) {
        const struct aiFace *face = &m->mFaces[f];
        if (face->mNumIndices != 3) continue;
        if (!face->mIndices) {
            r = gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh '%s': face %u has no indices", c->name, label,
                        f);
            goto done;
        }
        for (int k = 0; k < 3; k++) {
            if (face->mIndices[k] >= vc) {
                r = gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh '%s': face %u uses vertex %u of %u", c->name,
                            label, f, face->mIndices[k], vc);
                goto done;
            }
            idx[n++] = face->mIndices[k];
        }
    }
    const float *pos = &m->mVertices[0].x;
    for (uint32_t v = 0; v < vc; v++) {
        if (!gn_gltf_finite3(pos + (size_t)v * 3)) {
            r = gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh '%s': vertex %u has a non-finite position",
                        c->name, label, v);
            goto done;
        }
        /* Zero where assimp has no normal or a NaN one (degenerate triangles): the scene then
         * picks +Y rather than refusing the mesh. */
        float *o = &nrm[(size_t)v * 3];
        if (m->mNormals && gn_gltf_finite3(&m->mNormals[v].x))
            o[0] = m->mNormals[v].x, o[1] = m->mNormals[v].y, o[2] = m->mNormals[v].z;
        else
            o[0] = o[1] = o[2] = 0.0f;
        if (uv) { /* assimp's glTF importer flips v; gnomon and glTF keep v = 0 at the top row */
            const struct aiVector3D *t = &m->mTextureCoords[0][v];
            uv[v * 2 + 0] = isfinite(t->x) ? t->x : 0.0f;
            uv[v * 2 + 1] = isfinite(t->y) ? 1.0f - t->y : 0.0f;
        }
        if (uv1) {
            const struct aiVector3D *t = &m->mTextureCoords[1][v];
            uv1[v * 2 + 0] = isfinite(t->x) ? t->x : 0.0f;
            uv1[v * 2 + 1] = isfinite(t->y) ? 1.0f - t->y : 0.0f;
        }
        if (tan) {
            /* assimp's bitangent follows its (flipped) +v, i.e. decreasing glTF v: the
             * direction gnomon's w sign encodes (scene.h), so w is the plain handedness. */
            const struct aiVector3D *t = &m->mTangents[v], *b = &m->mBitangents[v];
            float *to = &tan[(size_t)v * 4];
            if (gn_gltf_finite3(&t->x) && gn_gltf_finite3(&b->x)) {
                const float tv[3] = {t->x, t->y, t->z}, bv[3] = {b->x, b->y, b->z};
                float cr[3];
                gn_vec3_cross(cr, o, tv);
                memcpy(to, tv, sizeof tv);
                to[3] = gn_vec3_dot(cr, bv) < 0.0f ? -1.0f : 1.0f;
            } else { /* the scene replaces a zero tangent with any perpendicular */
                to[0] = to[1] = to[2] = 0.0f, to[3] = 1.0f;
            }
        }
    }
    gn_mesh_desc md = {pos, nrm, tan, uv, vc, idx, n, label, uv1};
    r = gn_scene_add_mesh(c->s, &md, &c->mesh_map[i], c->err);
    if (r == GN_OK) {
        c->st.meshes++;
        c->st.triangles += tris;
        c->mesh_tris[i] = (uint32_t)tris;
    }
done:
    free(idx);
    free(nrm);
    free(tan);
    free(uv);
    free(uv1);
    return r;
}

/* ---- nodes -------------------------------------------------------------------------------- */

/* assimp matrices are row-major (a1..a4 is the first row); gnomon's are column-major. */
static void gn_gltf_matrix(const struct aiMatrix4x4 *m, float out[16])
{
    const float rows[4][4] = {{m->a1, m->a2, m->a3, m->a4},
                              {m->b1, m->b2, m->b3, m->b4},
                              {m->c1, m->c2, m->c3, m->c4},
                              {m->d1, m->d2, m->d3, m->d4}};
    for (int r = 0; r < 4; r++)
        for (int col = 0; col < 4; col++) out[col * 4 + r] = rows[r][col];
}

static gn_result gn_gltf_node(gn_gltf_ctx *c, const struct aiNode *node, const float parent[16],
                              uint32_t depth)
{
    if (depth > GN_GLTF_MAX_NODE_DEPTH)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: node tree deeper than %u", c->name,
                       GN_GLTF_MAX_NODE_DEPTH);
    float local[16], world[16];
    gn_gltf_matrix(&node->mTransformation, local);
    gn_mat4_product(parent, local, world);
    /* glTF node transforms are affine; a projective last row is malformed. Products of
     * affine matrices keep it exactly (0 0 0 1), which the scene requires. */
    if (fabsf(world[3]) > 1e-6f || fabsf(world[7]) > 1e-6f || fabsf(world[11]) > 1e-6f ||
        fabsf(world[15] - 1.0f) > 1e-6f)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: node '%s' has a non-affine transform", c->name,
                       node->mName.data);
    world[3] = world[7] = world[11] = 0.0f, world[15] = 1.0f;
    if (c->camera_node && !c->camera_node_seen && strcmp(node->mName.data, c->camera_node) == 0) {
        memcpy(c->camera_world, world, sizeof world);
        c->camera_node_seen = true;
    }
    gn_gltf_lights_node(c, node, world);
    if (node->mNumMeshes && !node->mMeshes)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: node '%s' has no mesh list", c->name,
                       node->mName.data);
    for (uint32_t k = 0; k < node->mNumMeshes; k++) {
        uint32_t ai_mesh = node->mMeshes[k];
        if (ai_mesh >= c->ai->mNumMeshes)
            return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: node '%s' uses mesh %u of %u", c->name,
                           node->mName.data, ai_mesh, c->ai->mNumMeshes);
        if (c->mesh_map[ai_mesh] == GN_GLTF_NONE || c->d.no_instances) continue;
        uint32_t mat = c->ai->mMeshes[ai_mesh]->mMaterialIndex;
        if (mat >= c->ai->mNumMaterials)
            return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: mesh %u uses material %u of %u", c->name, ai_mesh,
                           mat, c->ai->mNumMaterials);
        gn_instance_desc id = {.mesh = c->mesh_map[ai_mesh], .material = c->mat_map[mat]};
        memcpy(id.transform, world, sizeof world);
        gn_result r = gn_scene_add_instance(c->s, &id, NULL, c->err);
        if (r != GN_OK) return r;
        c->st.instances++;
        c->st.instanced_triangles += c->mesh_tris[ai_mesh];
    }
    if (node->mNumChildren && !node->mChildren)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: node '%s' has no child list", c->name,
                       node->mName.data);
    for (uint32_t k = 0; k < node->mNumChildren; k++) {
        if (!node->mChildren[k])
            return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: node '%s' child %u is missing", c->name,
                           node->mName.data, k);
        gn_result r = gn_gltf_node(c, node->mChildren[k], world, depth + 1);
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

/* ---- the first camera --------------------------------------------------------------------- */

/* The vertical field of view (radians) back from assimp's horizontal one. assimp 5.2 computes
 * yfov * aspect; 5.3 (assimp PR 4886) the true 2 atan(tan(yfov / 2) aspect). Both pass yfov
 * through when the file gives no aspect ratio (0). */
static float gn_gltf_fov_y(const struct aiCamera *cam)
{
    float h = cam->mHorizontalFOV, a = cam->mAspect;
    if (!(a > 0.0f)) return h;
    bool exact = aiGetVersionMajor() > 5 || (aiGetVersionMajor() == 5 && aiGetVersionMinor() >= 3);
    return exact ? 2.0f * atanf(tanf(0.5f * h) / a) : h / a;
}

/* The first camera, placed by its node's world transform (found during the node walk).
 * assimp's aiCamera position is not used: 5.2's glTF importer copies the node's translation
 * into it while the node's transform holds it too, and glTF defines the camera at the node's
 * origin anyway. */
static void gn_gltf_first_camera(gn_gltf_ctx *c)
{
    const struct aiCamera *cam = c->ai->mCameras[0];
    gn_gltf_camera *out = &c->st.camera;
    if (!c->camera_node_seen) {
        gn_gltf_log(c, GN_LOG_WARN, "camera '%s' is on no node; the default camera frames the scene",
                    cam->mName.data);
        return;
    }
    static const float origin[3] = {0, 0, 0};
    const float *w = c->camera_world;
    float fwd[3];
    gn_mat4_point(w, origin, out->position);
    for (int k = 0; k < 3; k++) fwd[k] = -w[8 + k]; /* the node's -Z axis in the world */
    float fov = gn_gltf_fov_y(cam);
    if (!gn_gltf_finite3(out->position) || !(gn_vec3_normalize_len(fwd, 1e-20f) > 1e-20f) ||
        !gn_gltf_finite3(fwd) || !isfinite(fov)) {
        gn_gltf_log(c, GN_LOG_WARN,
                    "camera '%s' has no usable direction; the default camera frames the scene",
                    cam->mName.data);
        memset(out, 0, sizeof *out);
        return;
    }
    gn_view_yaw_pitch(fwd, &out->yaw, &out->pitch);
    out->fov_y = fov > 0.0f && fov < GN_PI ? fov * 180.0f / GN_PI : 0.0f;
    out->found = true;
}

/* ---- the whole conversion ----------------------------------------------------------------- */

/* Makes sure a failure's message names the file (scene calls name only the object). */
static void gn_gltf_name_error(gn_error *err, const char *name)
{
    if (!err) return;
    size_t n = strlen(name);
    if (strncmp(err->message, name, n) == 0) return;
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s: %s", name, err->message);
    memcpy(err->message, msg, sizeof msg);
}

gn_result gn_gltf_convert(gn_scene *s, const struct aiScene *ai, const char *base_dir, const char *name,
                          const gn_gltf_desc *d, gn_error *err)
{
    if (!s || !ai) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_gltf_convert: NULL scene or import");
    gn_gltf_ctx c = {.s = s, .ai = ai, .name = name ? name : "(memory)", .err = err};
    if (d) c.d = *d;
    char dir[4096];
    if (base_dir) {
        size_t n = strlen(base_dir);
        snprintf(dir, sizeof dir, "%s%s", base_dir, n && base_dir[n - 1] != '/' ? "/" : "");
        c.dir = dir;
    }
    gn_result r = GN_OK;
    if (ai->mFlags & AI_SCENE_FLAGS_INCOMPLETE) { /* assimp's glTF reader sets it for a file without meshes */
        r = ai->mNumMeshes
                ? gn_fail(c.err, GN_ERROR_BAD_DATA, "%s: assimp marked the import incomplete", c.name)
                : gn_fail(c.err, GN_ERROR_BAD_DATA, "%s: no meshes: nothing to draw", c.name);
    } else if (!ai->mRootNode) {
        r = gn_fail(c.err, GN_ERROR_BAD_DATA, "%s: no root node", c.name);
    } else if (ai->mNumMeshes > GN_GLTF_MAX_MESHES || (ai->mNumMeshes && !ai->mMeshes)) {
        r = gn_fail(c.err, GN_ERROR_BAD_DATA, "%s: %u meshes (cap %u)", c.name, ai->mNumMeshes,
                    GN_GLTF_MAX_MESHES);
    } else {
        size_t nm = ai->mNumMeshes ? ai->mNumMeshes : 1, nmat = ai->mNumMaterials ? ai->mNumMaterials : 1;
        c.mesh_map = gn_calloc(nm, sizeof *c.mesh_map);
        c.mesh_tris = gn_calloc(nm, sizeof *c.mesh_tris);
        c.mat_map = gn_calloc(nmat, sizeof *c.mat_map);
        if (!c.mesh_map || !c.mesh_tris || !c.mat_map)
            r = gn_fail(c.err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c.name);
    }
    if (r == GN_OK && ai->mNumCameras && ai->mCameras && ai->mCameras[0]) {
        c.st.cameras = ai->mNumCameras;
        c.camera_node = ai->mCameras[0]->mName.data;
    }
    if (r == GN_OK) r = gn_gltf_lights_prepare(&c);
    if (r == GN_OK) r = gn_gltf_materials(&c);
    for (uint32_t i = 0; r == GN_OK && i < ai->mNumMeshes; i++) r = gn_gltf_mesh(&c, i);
    if (r == GN_OK) {
        static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        r = gn_gltf_node(&c, ai->mRootNode, identity, 0);
    }
    if (r == GN_OK && (c.d.no_instances ? c.st.meshes : c.st.instances) == 0)
        r = gn_fail(c.err, GN_ERROR_BAD_DATA, "%s: no triangles to draw", c.name);
    if (r == GN_OK && c.camera_node) gn_gltf_first_camera(&c);
    if (r == GN_OK && !c.d.no_instances) r = gn_gltf_lights_add(&c);
    if (r == GN_OK && c.d.mesh_map_out)
        memcpy(c.d.mesh_map_out, c.mesh_map, ai->mNumMeshes * sizeof *c.mesh_map);
    if (r == GN_OK && c.d.material_map_out)
        memcpy(c.d.material_map_out, c.mat_map, ai->mNumMaterials * sizeof *c.mat_map);
    if (r != GN_OK) gn_gltf_name_error(c.err, c.name);
    if (c.d.stats) *c.d.stats = c.st;
    free(c.mesh_map);
    free(c.mesh_tris);
    free(c.mat_map);
    free(c.images);
    gn_gltf_lights_free(&c);
    return r;
}

static uint32_t gn_gltf_u32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

gn_result gn_gltf_check_head(const uint8_t *head, size_t head_len, uint64_t size, const char *name,
                             gn_error *err)
{
    if (head_len < 4 || memcmp(head, "glTF", 4) != 0) {
        size_t i = head_len >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* UTF-8 byte order mark */
        while (i < head_len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) i++;
        if (i < head_len && head[i] == '{') return GN_OK;
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: neither a .glb header nor glTF JSON", name);
    }
    if (head_len < 20 || size < 20)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %llu bytes is too short for a .glb header", name,
                       (unsigned long long)size);
    uint32_t version = gn_gltf_u32(head + 4), total = gn_gltf_u32(head + 8), json = gn_gltf_u32(head + 12);
    /* assimp's .glb reader refuses other versions and chunk types, and assimp then tries its
     * other importers on the same bytes, one of which reads past the buffer (fuzzing found it
     * with a "glTF" magic, version 0x0d03f52a): refuse them here instead */
    if (version != 2)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: .glb version %u, only 2 is glTF 2.0", name, version);
    if (memcmp(head + 16, "JSON", 4) != 0)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: the first .glb chunk is not JSON", name);
    if (total > size)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: .glb header says %u bytes, the file has %llu", name,
                       total, (unsigned long long)size);
    if ((uint64_t)json + 20 > total)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: .glb JSON chunk of %u bytes ends past the file's %u",
                       name, json, total);
    /* The binary chunk follows the JSON, which is padded to 4 bytes. */
    uint64_t bin_at = 20 + (((uint64_t)json + 3) & ~3ull);
    if (bin_at + 8 <= total && bin_at + 8 <= head_len) {
        uint32_t bin = gn_gltf_u32(head + bin_at);
        if (bin_at + 8 + bin > total)
            return gn_fail(err, GN_ERROR_BAD_DATA,
                           "%s: .glb binary chunk of %u bytes ends past the file's %u", name, bin, total);
    }
    return GN_OK;
}

/* What the check saw of the file's lights that assimp does not pass on: never silently. */
static void gn_gltf_lights_warn(const char *path, const gn_gltf_desc *d, const gn_gltf_check_info *info)
{
    gn_gltf_ctx c = {.name = path};
    if (d) c.d = *d;
    if (info->lights_undeclared)
        gn_gltf_log(&c, GN_LOG_WARN,
                    "%u KHR_lights_punctual lights not imported: \"extensionsUsed\" does not list the "
                    "extension (glTF 2.0 requires it), and assimp reads the lights only then",
                    info->lights);
    else if (info->shared_lights)
        gn_gltf_log(&c, GN_LOG_WARN,
                    "%u KHR_lights_punctual lights are each placed by several nodes (%u nodes place "
                    "lights): assimp 5.2 keeps one place for each, so each is added once",
                    info->shared_lights, info->light_nodes);
}

gn_result gn_gltf_load(gn_scene *s, const char *path, const gn_gltf_desc *d, gn_error *err)
{
    if (!s || !path) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_gltf_load: NULL scene or path");
    if (d && d->stats) memset(d->stats, 0, sizeof *d->stats);
    /* The conventions undone below (assimp's v flip) are those of its glTF importer only. */
    const char *dot = strrchr(path, '.');
    char ext[8] = {0};
    for (int i = 0; dot && dot[i] && i < 7; i++) ext[i] = (char)tolower((unsigned char)dot[i]);
    if (strcmp(ext, ".gltf") != 0 && strcmp(ext, ".glb") != 0)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: not a .gltf or .glb file", path);
    /* Checked here so a missing file is GN_ERROR_IO and a huge one never reaches assimp. The
     * size is stat's, of a regular file: fopen of a folder succeeds on Linux and ftell then
     * gives 9223372036854775807, once printed as the folder's size. */
    uint64_t file_size = 0;
    gn_result r = gn_file_check_regular(path, &file_size, err);
    if (r) return r;
    FILE *f = fopen(path, "rb");
    if (!f) return gn_fail(err, GN_ERROR_IO, "%s: cannot open the file: %s", path, strerror(errno));
    long long size = (long long)file_size;
    /* The header and, for a small JSON chunk, the binary chunk's header: enough to check
     * every length assimp will allocate by (gn_gltf_check_head). */
    static const size_t head_cap = 64u << 10;
    uint8_t *head = gn_malloc(head_cap);
    size_t head_len = 0;
    if (head && size > 0 && fseek(f, 0, SEEK_SET) == 0) head_len = fread(head, 1, head_cap, f);
    fclose(f);
    if ((unsigned long long)size > GN_GLTF_MAX_FILE_BYTES)
        r = gn_fail(err, GN_ERROR_BAD_DATA, "%s: %lld bytes, more than the cap of %llu", path, size,
                    GN_GLTF_MAX_FILE_BYTES);
    else if (!head)
        r = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    else if (size < 12)
        r = gn_fail(err, GN_ERROR_BAD_DATA, "%s: %lld bytes is too short for glTF", path, size);
    else
        r = gn_gltf_check_head(head, head_len, (uint64_t)size, path, err);
    /* assimp picks its reader by the extension: binary glTF named .gltf (or JSON named .glb)
     * would end in its "No suitable reader found" */
    bool binary = head && head_len >= 4 && memcmp(head, "glTF", 4) == 0;
    if (r == GN_OK && binary && strcmp(ext, ".gltf") == 0)
        r = gn_fail(err, GN_ERROR_BAD_DATA,
                    "%s: binary glTF (\"glTF\" at byte 0) in a file named .gltf: gnomon reads .gltf as JSON "
                    "text and .glb as binary glTF; rename it .glb",
                    path);
    else if (r == GN_OK && !binary && strcmp(ext, ".glb") == 0)
        r = gn_fail(
            err, GN_ERROR_BAD_DATA,
            "%s: JSON text in a file named .glb: gnomon reads .glb as binary glTF (\"glTF\" at byte 0) "
            "and .gltf as JSON text; rename it .gltf",
            path);
    free(head);
    /* Only a file that passes gnomon's own validation reaches assimp (gltf_check.h). */
    gn_gltf_check_info info = {0};
    if (r == GN_OK) r = gn_gltf_check(path, &info, err);
    if (r != GN_OK) return r;

    const struct aiScene *ai = aiImportFile(path, gn_gltf_import_flags());
    if (!ai) {
        gn_gltf_check_info_free(&info);
        /* assimp's own words name no format when its glTF reader turned the file down */
        const char *why = aiGetErrorString();
        if (!why || !*why || strstr(why, "No suitable reader"))
            return gn_fail(err, GN_ERROR_BAD_DATA,
                           "%s: assimp's glTF 2.0 reader does not take it: not glTF 2.0 as gnomon reads it "
                           "(.gltf JSON text, .glb binary glTF)",
                           path);
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: assimp: %s", path, why);
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path + 1), path);
    else
        snprintf(dir, sizeof dir, "./");
    gn_gltf_desc with_ext = {0};
    if (d) with_ext = *d;
    with_ext.material_ext = info.materials, with_ext.material_ext_count = info.material_count;
    r = gn_gltf_convert(s, ai, dir, path, &with_ext, err);
    aiReleaseImport(ai);
    if (r == GN_OK) gn_gltf_lights_warn(path, d, &info);
    gn_gltf_check_info_free(&info);
    return r;
}

/* Inter-Quake Models (IQM version 2, sauerbraten.org/iqm's iqm.txt): the whole file checked
 * before assimp sees it, then its joints, blend arrays and animations read here (skinned_ctx.h).
 * assimp 5.2.5's IQM importer follows the header's offsets without comparing one with the file,
 * and reads only the meshes: no joint, blend weight or animation. */
#include "base/alloc.h"
#include "base/error.h"
#include "base/gmath.h"
#include "formats/skinned_ctx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_IQM_HEADER 124u       /* magic[16] and 27 uint32 */
#define GN_IQM_MAX_MESHES 65536u /* a stated large limit: models have a few */
#define GN_IQM_FRAMERATE 25.0f   /* a file's framerate of 0: assimp's default ticks a second */

enum { GN_IQM_POSITION = 0, GN_IQM_BLENDINDEXES = 4, GN_IQM_BLENDWEIGHTS = 5 };
enum { GN_IQM_UBYTE = 1, GN_IQM_USHORT = 3, GN_IQM_UINT = 5, GN_IQM_FLOAT = 7 };

/* The header's counts and offsets, in the file's order after the magic. */
typedef struct gn_iqm {
    uint32_t version, filesize, flags, num_text, ofs_text, num_meshes, ofs_meshes, num_vertexarrays,
        num_vertexes, ofs_vertexarrays, num_triangles, ofs_triangles, ofs_adjacency, num_joints, ofs_joints,
        num_poses, ofs_poses, num_anims, ofs_anims, num_frames, num_framechannels, ofs_frames, ofs_bounds,
        num_comment, ofs_comment, num_extensions, ofs_extensions;
} gn_iqm;
_Static_assert(sizeof(gn_iqm) == GN_IQM_HEADER - 16, "the IQM header's 27 fields");

static uint32_t gn_iqm_u32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static float gn_iqm_f32(const uint8_t *p)
{
    uint32_t u = gn_iqm_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void gn_iqm_header(const uint8_t *d, gn_iqm *h)
{
    uint32_t *f = &h->version;
    for (uint32_t i = 0; i < sizeof *h / 4; i++) f[i] = gn_iqm_u32(d + 16 + 4 * i);
}

/* Bytes of one component of a vertex array's format; 0 for an unknown format. */
static uint32_t gn_iqm_format_bytes(uint32_t format)
{
    static const uint8_t bytes[] = {1, 1, 2, 2, 4, 4, 2, 4, 8}; /* byte .. double (iqm.h) */
    return format < sizeof bytes ? bytes[format] : 0;
}

#define BAD(...) gn_fail(err, GN_ERROR_BAD_DATA, __VA_ARGS__)

/* count elements of elem bytes at ofs lie inside the file (and on 4-byte boundaries where assimp
 * casts the bytes to floats or ints: align 4). */
static gn_result gn_iqm_range(uint64_t ofs, uint64_t count, uint64_t elem, uint32_t align, uint64_t size,
                              const char *name, const char *what, gn_error *err)
{
    if (!count) return GN_OK;
    if (ofs < GN_IQM_HEADER || ofs + count * elem > size)
        return BAD("%s: %s (%llu of %llu bytes at byte %llu) lie outside the file's %llu bytes", name, what,
                   (unsigned long long)count, (unsigned long long)elem, (unsigned long long)ofs,
                   (unsigned long long)size);
    if (ofs % align)
        return BAD("%s: %s at byte %llu, not on a %u-byte boundary", name, what, (unsigned long long)ofs,
                   align);
    return GN_OK;
}

/* Offset o names a string of the text block (which ends in a NUL). */
static gn_result gn_iqm_text(const gn_iqm *h, uint32_t o, const char *name, const char *what, uint32_t i,
                             gn_error *err)
{
    if (o >= h->num_text)
        return BAD("%s: %s %u's name is at byte %u of a text block of %u", name, what, i, o, h->num_text);
    return GN_OK;
}

static gn_result gn_iqm_check_vertexarrays(const uint8_t *d, const gn_iqm *h, uint64_t size, const char *name,
                                           gn_error *err)
{
    for (uint32_t i = 0; i < h->num_vertexarrays; i++) {
        const uint8_t *va = d + h->ofs_vertexarrays + 20 * i;
        uint32_t type = gn_iqm_u32(va), format = gn_iqm_u32(va + 8), n = gn_iqm_u32(va + 12),
                 ofs = gn_iqm_u32(va + 16);
        uint32_t fb = gn_iqm_format_bytes(format);
        if (!fb) return BAD("%s: vertex array %u has the unknown format %u", name, i, format);
        if (n < 1 || n > 16)
            return BAD("%s: vertex array %u has %u components a vertex (1 to 16)", name, i, n);
        char what[48];
        snprintf(what, sizeof what, "vertex array %u", i);
        gn_result r =
            gn_iqm_range(ofs, h->num_vertexes, (uint64_t)n * fb, fb < 4 ? fb : 4, size, name, what, err);
        if (r != GN_OK) return r;
        if ((type == GN_IQM_BLENDINDEXES || type == GN_IQM_BLENDWEIGHTS) && n != 4)
            return BAD("%s: vertex array %u (blend %s) has %u components, not 4", name, i,
                       type == GN_IQM_BLENDINDEXES ? "indexes" : "weights", n);
        if (type == GN_IQM_BLENDINDEXES && format != GN_IQM_UBYTE && format != GN_IQM_USHORT &&
            format != GN_IQM_UINT)
            return BAD("%s: blend indexes of format %u, not an unsigned integer", name, format);
        if (type == GN_IQM_BLENDWEIGHTS && format != GN_IQM_UBYTE && format != GN_IQM_USHORT &&
            format != GN_IQM_FLOAT)
            return BAD("%s: blend weights of format %u, none of ubyte, ushort and float", name, format);
    }
    return GN_OK;
}

static gn_result gn_iqm_check_meshes(const uint8_t *d, const gn_iqm *h, const char *name, gn_error *err)
{
    if (h->num_meshes && !h->num_text) return BAD("%s: meshes but no text block for their names", name);
    for (uint32_t i = 0; i < h->num_meshes; i++) {
        const uint8_t *m = d + h->ofs_meshes + 24 * i;
        uint32_t nm = gn_iqm_u32(m), mat = gn_iqm_u32(m + 4), fv = gn_iqm_u32(m + 8), nv = gn_iqm_u32(m + 12),
                 ft = gn_iqm_u32(m + 16), nt = gn_iqm_u32(m + 20);
        gn_result r = gn_iqm_text(h, nm, name, "mesh", i, err);
        if (r == GN_OK) r = gn_iqm_text(h, mat, name, "mesh material", i, err);
        if (r != GN_OK) return r;
        if ((uint64_t)fv + nv > h->num_vertexes)
            return BAD("%s: mesh %u's vertices %u..%llu are past the file's %u", name, i, fv,
                       (unsigned long long)fv + nv, h->num_vertexes);
        if ((uint64_t)ft + nt > h->num_triangles)
            return BAD("%s: mesh %u's triangles %u..%llu are past the file's %u", name, i, ft,
                       (unsigned long long)ft + nt, h->num_triangles);
        for (uint32_t t = ft; t < ft + nt; t++)
            for (int k = 0; k < 3; k++) {
                uint32_t v = gn_iqm_u32(d + h->ofs_triangles + 12 * t + 4 * k);
                if (v < fv || v - fv >= nv) /* assimp subtracts first_vertex and trusts the rest */
                    return BAD("%s: triangle %u uses vertex %u, outside its mesh %u (%u..%u)", name, t, v, i,
                               fv, fv + nv - 1);
            }
    }
    return GN_OK;
}

static gn_result gn_iqm_check_joints(const uint8_t *d, const gn_iqm *h, const char *name, gn_error *err)
{
    for (uint32_t i = 0; i < h->num_joints; i++) {
        const uint8_t *j = d + h->ofs_joints + 48 * i;
        int32_t parent = (int32_t)gn_iqm_u32(j + 4);
        gn_result r = gn_iqm_text(h, gn_iqm_u32(j), name, "joint", i, err);
        if (r != GN_OK) return r;
        if (parent < -1 || parent >= (int32_t)i)
            return BAD("%s: joint %u '%.64s' has the parent %d, not an earlier joint", name, i,
                       (const char *)d + h->ofs_text + gn_iqm_u32(j), parent);
        for (int k = 0; k < 10; k++)
            if (!isfinite(gn_iqm_f32(j + 8 + 4 * k)))
                return BAD("%s: joint %u holds a value that is not finite", name, i);
    }
    if (h->num_frames && h->num_poses != h->num_joints)
        return BAD("%s: %u poses for %u joints: an animated file has one a joint", name, h->num_poses,
                   h->num_joints);
    uint64_t channels = 0;
    for (uint32_t i = 0; i < h->num_poses; i++) {
        const uint8_t *p = d + h->ofs_poses + 88 * i;
        int32_t parent = (int32_t)gn_iqm_u32(p);
        uint32_t mask = gn_iqm_u32(p + 4);
        if (parent < -1 || parent >= (int32_t)i)
            return BAD("%s: pose %u has the parent %d, not an earlier pose", name, i, parent);
        if (mask >> 10)
            return BAD("%s: pose %u's channel mask 0x%x has bits past the 10 channels", name, i, mask);
        for (int k = 0; k < 20; k++)
            if (!isfinite(gn_iqm_f32(p + 8 + 4 * k)))
                return BAD("%s: pose %u holds a value that is not finite", name, i);
        for (int k = 0; k < 10; k++) channels += mask >> k & 1;
    }
    if (h->num_frames && channels != h->num_framechannels)
        return BAD("%s: the poses animate %llu channels, the header says %u a frame", name,
                   (unsigned long long)channels, h->num_framechannels);
    for (uint32_t i = 0; i < h->num_anims; i++) {
        const uint8_t *a = d + h->ofs_anims + 20 * i;
        uint32_t first = gn_iqm_u32(a + 4), n = gn_iqm_u32(a + 8);
        gn_result r = gn_iqm_text(h, gn_iqm_u32(a), name, "animation", i, err);
        if (r != GN_OK) return r;
        if ((uint64_t)first + n > h->num_frames)
            return BAD("%s: animation %u's frames %u..%llu are past the file's %u", name, i, first,
                       (unsigned long long)first + n, h->num_frames);
        if (!isfinite(gn_iqm_f32(a + 12))) return BAD("%s: animation %u's framerate is not finite", name, i);
    }
    return GN_OK;
}

/* Each vertex's blend indexes against the joints (assimp never reads them; this loader does). */
static gn_result gn_iqm_check_blend(const uint8_t *d, const gn_iqm *h, const char *name, gn_error *err)
{
    for (uint32_t i = 0; i < h->num_vertexarrays; i++) {
        const uint8_t *va = d + h->ofs_vertexarrays + 20 * i;
        if (gn_iqm_u32(va) != GN_IQM_BLENDINDEXES) continue;
        uint32_t format = gn_iqm_u32(va + 8), fb = gn_iqm_format_bytes(format), ofs = gn_iqm_u32(va + 16);
        for (uint64_t k = 0; k < (uint64_t)h->num_vertexes * 4; k++) {
            const uint8_t *p = d + ofs + k * fb;
            uint32_t j = fb == 1 ? p[0] : fb == 2 ? (uint32_t)(p[0] | p[1] << 8) : gn_iqm_u32(p);
            if (j >= h->num_joints && (h->num_joints || j))
                return BAD("%s: vertex %llu's blend index %u is past the %u joints", name,
                           (unsigned long long)(k / 4), j, h->num_joints);
        }
    }
    return GN_OK;
}

gn_result gn_sk_iqm_check(const uint8_t *d, size_t size, const char *name, gn_error *err)
{
    if (size < GN_IQM_HEADER) return BAD("%s: %zu bytes is too short for an IQM header", name, size);
    if (memcmp(d, "INTERQUAKEMODEL\0", 16) != 0) return BAD("%s: no \"INTERQUAKEMODEL\" magic", name);
    gn_iqm h;
    gn_iqm_header(d, &h);
    if (h.version != 2) return BAD("%s: IQM version %u, only 2 is read", name, h.version);
    if (h.filesize != size)
        return BAD("%s: the header says %u bytes, the file has %zu", name, h.filesize, size);
    if (h.num_meshes > GN_IQM_MAX_MESHES)
        return BAD("%s: %u meshes, more than the cap of %u", name, h.num_meshes, GN_IQM_MAX_MESHES);
    if (h.num_vertexes > GN_GLTF_MAX_MESH_VERTICES)
        return BAD("%s: %u vertices, more than the cap of %u", name, h.num_vertexes,
                   GN_GLTF_MAX_MESH_VERTICES);
    if (h.num_joints >= GN_SKIN_MAX_JOINTS || h.num_joints >= GN_SKIN_MAX_NODES)
        return BAD("%s: %u joints, more than the cap of %u", name, h.num_joints, GN_SKIN_MAX_JOINTS - 1);
    if (h.num_anims > GN_ANIM_MAX_CLIPS)
        return BAD("%s: %u animations, more than the cap of %u", name, h.num_anims, GN_ANIM_MAX_CLIPS);
    struct {
        uint32_t ofs;
        uint64_t count, elem;
        uint32_t align;
        const char *what;
    } blocks[] = {{h.ofs_text, h.num_text, 1, 1, "the text"},
                  {h.ofs_meshes, h.num_meshes, 24, 4, "the meshes"},
                  {h.ofs_vertexarrays, h.num_vertexarrays, 20, 4, "the vertex arrays"},
                  {h.ofs_triangles, h.num_triangles, 12, 4, "the triangles"},
                  {h.ofs_adjacency, h.ofs_adjacency ? h.num_triangles : 0, 12, 4, "the adjacency"},
                  {h.ofs_joints, h.num_joints, 48, 4, "the joints"},
                  {h.ofs_poses, h.num_poses, 88, 4, "the poses"},
                  {h.ofs_anims, h.num_anims, 20, 4, "the animations"},
                  {h.ofs_frames, (uint64_t)h.num_frames * h.num_framechannels, 2, 2, "the frames"},
                  {h.ofs_bounds, h.ofs_bounds ? h.num_frames : 0, 32, 4, "the bounds"},
                  {h.ofs_comment, h.num_comment, 1, 1, "the comment"},
                  {h.ofs_extensions, h.num_extensions ? 1 : 0, 1, 1, "the extensions"}};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        gn_result r = gn_iqm_range(blocks[i].ofs, blocks[i].count, blocks[i].elem, blocks[i].align, size,
                                   name, blocks[i].what, err);
        if (r != GN_OK) return r;
    }
    if (h.num_text && d[h.ofs_text + h.num_text - 1] != 0)
        return BAD("%s: the text block does not end in a NUL", name);
    gn_result r = gn_iqm_check_vertexarrays(d, &h, size, name, err);
    if (r == GN_OK) r = gn_iqm_check_meshes(d, &h, name, err);
    if (r == GN_OK) r = gn_iqm_check_joints(d, &h, name, err);
    if (r == GN_OK) r = gn_iqm_check_blend(d, &h, name, err);
    return r;
}

#undef BAD

/* ---- the model ------------------------------------------------------------------------------ */

/* The joints as nodes under assimp's root (which holds the meshes and turns IQM's Z up into
 * +Y up), their bind-pose world matrices inverted into the palette. */
static gn_result gn_iqm_joints(gn_sk_ctx *c, const gn_iqm *h, uint32_t *first, bool palette)
{
    const uint8_t *d = c->iqm;
    float(*world)[16] = gn_malloc(((size_t)h->num_joints + 1) * sizeof *world);
    if (!world) return gn_sk_oom(c);
    *first = c->m->skeleton.node_count;
    gn_result r = GN_OK;
    for (uint32_t i = 0; r == GN_OK && i < h->num_joints; i++) {
        const uint8_t *j = d + h->ofs_joints + 48 * i;
        int32_t parent = (int32_t)gn_iqm_u32(j + 4);
        float t[3], q[4], s[3], local[16];
        for (int k = 0; k < 3; k++) t[k] = gn_iqm_f32(j + 8 + 4 * k), s[k] = gn_iqm_f32(j + 36 + 4 * k);
        for (int k = 0; k < 4; k++) q[k] = gn_iqm_f32(j + 20 + 4 * k);
        float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!(len > 1e-6f)) q[0] = q[1] = q[2] = 0, q[3] = len = 1;
        for (int k = 0; k < 4; k++) q[k] /= len;
        gn_anim_trs_matrix(t, q, s, local);
        uint32_t node;
        r = gn_sk_add_node(c, parent < 0 ? 0 : (int32_t)(*first + (uint32_t)parent),
                           (const char *)d + h->ofs_text + gn_iqm_u32(j), local, NULL, &node);
        if (r != GN_OK) break;
        gn_skel_node *nd = &c->m->skeleton.nodes[node]; /* the file's own numbers, not a decomposition */
        memcpy(nd->t, t, sizeof t), memcpy(nd->r, q, sizeof q), memcpy(nd->s, s, sizeof s);
        if (parent < 0)
            memcpy(world[i], local, sizeof local);
        else
            gn_mat4_product(world[parent], local, world[i]);
        float ib[16];
        uint16_t joint;
        if (!palette) continue;
        if (!gn_sk_invert(world[i], ib)) {
            r = gn_sk_bad(c, "joint %u '%.64s': its bind pose cannot be inverted (a zero scale)", i,
                          nd->name);
            break;
        }
        r = gn_sk_joint(c, node, ib, &joint);
        if (r == GN_OK && joint != i) r = gn_sk_bad(c, "joint %u: palette entry %u", i, joint);
    }
    free(world);
    return r;
}

/* One vertex array's (type) description, or NULL. */
static const uint8_t *gn_iqm_array(const uint8_t *d, const gn_iqm *h, uint32_t type)
{
    for (uint32_t i = 0; i < h->num_vertexarrays; i++)
        if (gn_iqm_u32(d + h->ofs_vertexarrays + 20 * i) == type) return d + h->ofs_vertexarrays + 20 * i;
    return NULL;
}

static float gn_iqm_value(const uint8_t *p, uint32_t format)
{
    switch (format) {
    case GN_IQM_UBYTE:
        return p[0];
    case GN_IQM_USHORT:
        return (float)(p[0] | p[1] << 8);
    case GN_IQM_UINT:
        return (float)gn_iqm_u32(p);
    default:
        return gn_iqm_f32(p);
    }
}

/* The parts' influences from the blend arrays: part p's vertex v is the file's vertex
 * first_vertex + v of mesh part_mesh[p] (assimp keeps IQM meshes and their vertices in order
 * when JoinIdenticalVertices is off, gn_skinned_import_flags). */
static gn_result gn_iqm_influences(gn_sk_ctx *c, const gn_iqm *h, const uint8_t *bi, const uint8_t *bw)
{
    const uint8_t *d = c->iqm;
    uint32_t if_ = gn_iqm_u32(bi + 8), wf = gn_iqm_u32(bw + 8), ib = gn_iqm_format_bytes(if_),
             wb = gn_iqm_format_bytes(wf);
    const uint8_t *ip = d + gn_iqm_u32(bi + 16), *wp = d + gn_iqm_u32(bw + 16);
    float scale = wf == GN_IQM_UBYTE ? 1.0f / 255.0f : wf == GN_IQM_USHORT ? 1.0f / 65535.0f : 1.0f;
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (uint32_t p = 0; p < c->m->part_count; p++) {
        gn_anim_part *part = &c->m->parts[p];
        if (c->part_mesh[p] >= h->num_meshes)
            return gn_sk_bad(c, "assimp made more meshes than the file has");
        const uint8_t *im = d + h->ofs_meshes + 24 * c->part_mesh[p];
        uint32_t fv = gn_iqm_u32(im + 8), nv = gn_iqm_u32(im + 12);
        if (nv != part->vertex_count)
            return gn_sk_bad(c, "mesh %u: assimp's %u vertices are not the file's %u", c->part_mesh[p],
                             part->vertex_count, nv);
        gn_skin_influence *in = gn_calloc(nv, sizeof *in);
        if (!in) return gn_sk_oom(c);
        part->influences = in;
        uint16_t rigid = 0;
        bool have_rigid = false;
        for (uint32_t v = 0; v < nv; v++) {
            uint32_t n = 0, seen = 0;
            for (int k = 0; k < 4; k++) {
                uint64_t e = ((uint64_t)fv + v) * 4 + (uint64_t)k;
                float w = gn_iqm_value(wp + e * wb, wf) * scale;
                float j = gn_iqm_value(ip + e * ib, if_);
                if (!isfinite(w) || w < 0)
                    return gn_sk_bad(c, "vertex %u: blend weight %d is %g (negative or not finite)", fv + v,
                                     k, (double)w);
                if (w > 0) gn_sk_add_influence(&in[v], &n, &seen, (uint16_t)j, w);
            }
            if (!n && !have_rigid) {
                gn_result r = gn_sk_joint(c, part->node, identity, &rigid);
                if (r != GN_OK) return r;
                have_rigid = true;
            }
            gn_sk_finish_influence(c, &in[v], n, seen, rigid);
        }
    }
    return GN_OK;
}

/* Animation a as a clip: each pose's translation, rotation and scale keyed at every frame. */
static gn_result gn_iqm_clip(gn_sk_ctx *c, const gn_iqm *h, uint32_t a, uint32_t first_node)
{
    const uint8_t *d = c->iqm, *an = d + h->ofs_anims + 20 * a;
    const char *name = (const char *)d + h->ofs_text + gn_iqm_u32(an);
    uint32_t f0 = gn_iqm_u32(an + 4), nf = gn_iqm_u32(an + 8);
    float rate = gn_iqm_f32(an + 12);
    if (!(rate > 0)) {
        gn_sk_log(c, GN_LOG_WARN, "animation '%.64s' has the framerate %g; played at %g", name, (double)rate,
                  (double)GN_IQM_FRAMERATE);
        rate = GN_IQM_FRAMERATE;
    }
    gn_sk_clip_build b = {0};
    gn_result r = GN_OK;
    size_t ta = 0;
    if (nf) r = gn_sk_cb_floats(c, &b, nf, &ta);
    for (uint32_t f = 0; r == GN_OK && f < nf; f++) b.data[ta + f] = (float)f / rate;
    for (uint32_t j = 0; r == GN_OK && nf && j < h->num_poses; j++) {
        const uint8_t *pose = d + h->ofs_poses + 88 * j;
        uint32_t mask = gn_iqm_u32(pose + 4), before = 0; /* the frame channels of earlier poses */
        for (uint32_t k = 0; k < j; k++)
            before += (uint32_t)__builtin_popcount(gn_iqm_u32(d + h->ofs_poses + 88 * k + 4));
        size_t va[3];
        for (int path = 0; r == GN_OK && path < 3; path++)
            r = gn_sk_cb_floats(c, &b, (size_t)nf * (path == 1 ? 4 : 3), &va[path]);
        for (uint32_t f = 0; r == GN_OK && f < nf; f++) {
            /* channel k: offset + (masked: the next frame value) * scale (iqm.txt) */
            const uint8_t *fr = d + h->ofs_frames + 2 * ((uint64_t)(f0 + f) * h->num_framechannels + before);
            float v[10];
            for (int k = 0; k < 10; k++) {
                v[k] = gn_iqm_f32(pose + 8 + 4 * k);
                if (mask >> k & 1) {
                    v[k] += (float)(fr[0] | fr[1] << 8) * gn_iqm_f32(pose + 48 + 4 * k);
                    fr += 2;
                }
            }
            float len = sqrtf(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + v[6] * v[6]);
            if (!(len > 1e-6f && isfinite(len))) {
                r = gn_sk_bad(c, "animation '%.64s', frame %u: pose %u's rotation has length %g", name, f, j,
                              (double)len);
                break;
            }
            for (int k = 3; k < 7; k++) v[k] /= len;
            memcpy(b.data + va[0] + 3 * f, v, 3 * sizeof *v);
            memcpy(b.data + va[1] + 4 * f, v + 3, 4 * sizeof *v);
            memcpy(b.data + va[2] + 3 * f, v + 7, 3 * sizeof *v);
        }
        for (int path = 0; r == GN_OK && path < 3; path++) {
            gn_anim_channel ch = {.target = first_node + j,
                                  .path = (gn_anim_path)path,
                                  .sampler = {.count = nf,
                                              .width = path == 1 ? 4 : 3,
                                              .interp = GN_ANIM_LINEAR,
                                              .rotation = path == 1}};
            r = gn_sk_cb_channel(c, &b, &ch, ta, va[path]);
        }
    }
    if (r != GN_OK) {
        gn_sk_cb_free(&b);
        return r;
    }
    return gn_sk_cb_finish(c, &b, name);
}

gn_result gn_sk_iqm_model(gn_sk_ctx *c)
{
    gn_iqm h;
    gn_iqm_header(c->iqm, &h);
    const uint8_t *bi = gn_iqm_array(c->iqm, &h, GN_IQM_BLENDINDEXES),
                  *bw = gn_iqm_array(c->iqm, &h, GN_IQM_BLENDWEIGHTS);
    bool skinned = bi && bw && h.num_joints;
    uint32_t first = 0;
    gn_result r = gn_iqm_joints(c, &h, &first, skinned);
    if (r == GN_OK && skinned) r = gn_iqm_influences(c, &h, bi, bw);
    for (uint32_t a = 0; r == GN_OK && h.num_frames && a < h.num_anims; a++) r = gn_iqm_clip(c, &h, a, first);
    return r;
}

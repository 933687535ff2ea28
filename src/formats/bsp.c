/* Quake 3 IBSP 46 parsing. The file is a 144-byte header (magic, version, 17 lump directory
 * entries of offset and length) followed by the lumps, every field a little-endian 32-bit
 * integer or float. Nothing here trusts the file: each lump is checked to lie inside it and to
 * hold whole records, each count against a cap, and each index against the array it names,
 * all before the array that depends on it is sized. The frame conversion (bsp.h) is done by
 * conv_point/conv_dir/conv_box and nowhere else. */
#include "formats/bsp.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/number.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    LUMP_ENTITIES,
    LUMP_TEXTURES,
    LUMP_PLANES,
    LUMP_NODES,
    LUMP_LEAVES,
    LUMP_LEAFFACES,
    LUMP_LEAFBRUSHES,
    LUMP_MODELS,
    LUMP_BRUSHES,
    LUMP_BRUSHSIDES,
    LUMP_VERTICES,
    LUMP_MESHVERTS,
    LUMP_EFFECTS,
    LUMP_FACES,
    LUMP_LIGHTMAPS,
    LUMP_LIGHTVOLS,
    LUMP_VISDATA,
    LUMP_COUNT
};
#define HEADER_BYTES (8 + 8 * LUMP_COUNT)

/* Record sizes in bytes, from the format: e.g. a face is 26 four-byte fields. */
static const struct {
    const char *name;
    uint32_t record;
} lump_info[LUMP_COUNT] = {
    {"entities", 1},    {"textures", 72}, {"planes", 16},
    {"nodes", 36},      {"leafs", 48},    {"leaffaces", 4},
    {"leafbrushes", 4}, {"models", 40},   {"brushes", 12},
    {"brushsides", 8},  {"vertexes", 44}, {"meshverts", 4},
    {"effects", 72},    {"faces", 104},   {"lightmaps", GN_BSP_LIGHTMAP_BYTES},
    {"lightvols", 8},   {"visdata", 1},
};

void gn_bsp_limits_defaults(const gn_bsp_limits *in, gn_bsp_limits *out)
{
    gn_bsp_limits l = in ? *in : (gn_bsp_limits){0};
    /* Several times Q3's own compile limits (qfiles.h MAX_MAP_*), so that any real map fits
     * and a forged count cannot ask for gigabytes. */
#define GN_DEFAULT(field, value)                                                                             \
    if (l.field == 0) l.field = (value)
    GN_DEFAULT(textures, 4096);
    GN_DEFAULT(planes, 1u << 18);
    GN_DEFAULT(nodes, 1u << 17);
    GN_DEFAULT(leaves, 1u << 17);
    GN_DEFAULT(leaffaces, 1u << 20);
    GN_DEFAULT(leafbrushes, 1u << 20);
    GN_DEFAULT(models, 4096);
    GN_DEFAULT(brushes, 1u << 17);
    GN_DEFAULT(brushsides, 1u << 20);
    GN_DEFAULT(vertices, 1u << 20);
    GN_DEFAULT(meshverts, 1u << 22);
    GN_DEFAULT(effects, 4096);
    GN_DEFAULT(faces, 1u << 18);
    GN_DEFAULT(lightmaps, 1024);     /* 48 MiB of RGB8 */
    GN_DEFAULT(lightvols, 1u << 22); /* 32 MiB */
    GN_DEFAULT(visdata_bytes, 64u << 20);
    GN_DEFAULT(entity_bytes, 4u << 20);
    GN_DEFAULT(patch_size, 65); /* Q3's MAX_GRID_SIZE */
    GN_DEFAULT(mesh_vertices, 1u << 22);
    GN_DEFAULT(mesh_indices, 1u << 24);
#undef GN_DEFAULT
    *out = l;
}

typedef struct parser {
    const uint8_t *data;
    size_t size;
    const char *name;
    gn_bsp_limits lim;
    uint32_t offset[LUMP_COUNT], count[LUMP_COUNT]; /* count in records */
    gn_error *err;
} parser;

static int32_t rd_i32(const uint8_t *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    int32_t v;
    memcpy(&v, &u, sizeof v); /* two's complement reinterpretation, defined unlike a cast */
    return v;
}

static float rd_f32(const uint8_t *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Field k (4 bytes each) of record i of a lump. */
static const uint8_t *field(const parser *ps, int lump, uint32_t i, uint32_t k)
{
    return ps->data + ps->offset[lump] + (size_t)i * lump_info[lump].record + 4u * k;
}

static void conv_point(const float q[3], float out[3])
{
    out[0] = q[0] * GN_BSP_UNIT;
    out[1] = q[2] * GN_BSP_UNIT;
    out[2] = -q[1] * GN_BSP_UNIT;
}

static void conv_dir(const float q[3], float out[3])
{
    out[0] = q[0];
    out[1] = q[2];
    out[2] = -q[1];
}

void gn_bsp_point_to_quake(const float p[3], float q[3])
{
    q[0] = p[0] / GN_BSP_UNIT;
    q[1] = -p[2] / GN_BSP_UNIT;
    q[2] = p[1] / GN_BSP_UNIT;
}

void gn_bsp_dir_from_quake(const float q[3], float out[3]) { conv_dir(q, out); }

/* A box's converted corners: the new z is -y, so its minimum comes from the old maximum. */
static void conv_box(const float qmn[3], const float qmx[3], float mn[3], float mx[3])
{
    float a[3], b[3];
    conv_point(qmn, a);
    conv_point(qmx, b);
    for (int k = 0; k < 3; k++) {
        mn[k] = a[k] < b[k] ? a[k] : b[k];
        mx[k] = a[k] < b[k] ? b[k] : a[k];
    }
}

static bool finite3(const float v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

#define BAD(...) gn_fail(ps->err, GN_ERROR_BAD_DATA, __VA_ARGS__)

/* A range [first, first+count) read as signed fields, checked against an array of n. */
static gn_result check_range(const parser *ps, const char *what, uint32_t i, const char *field_name,
                             int32_t first, int32_t count, uint32_t n)
{
    if (first < 0 || count < 0)
        return BAD("%s: %s %u: %s range (%d, count %d) is negative", ps->name, what, i, field_name, first,
                   count);
    if ((uint64_t)first + (uint64_t)count > n)
        return BAD("%s: %s %u: %s range %d..%lld is past the end of the array (%u)", ps->name, what, i,
                   field_name, first, (long long)first + count, n);
    return GN_OK;
}

static gn_result check_index(const parser *ps, const char *what, uint32_t i, const char *field_name,
                             int32_t v, int32_t lowest, uint32_t n)
{
    if (v < lowest || (v >= 0 && (uint32_t)v >= n))
        return BAD("%s: %s %u: %s %d is out of range (%d..%lld)", ps->name, what, i, field_name, v, lowest,
                   (long long)n - 1);
    return GN_OK;
}

static gn_result read_directory(parser *ps)
{
    if (ps->size < HEADER_BYTES)
        return BAD("%s: %zu bytes, shorter than the %d-byte header", ps->name, ps->size, HEADER_BYTES);
    if (memcmp(ps->data, "IBSP", 4) != 0) return BAD("%s: magic is not \"IBSP\"", ps->name);
    int32_t version = rd_i32(ps->data + 4);
    if (version != 46) return BAD("%s: version %d, want 46 (Quake 3)", ps->name, version);
    const uint32_t *cap_of[LUMP_COUNT] = {
        &ps->lim.entity_bytes,  &ps->lim.textures,   &ps->lim.planes,      &ps->lim.nodes,
        &ps->lim.leaves,        &ps->lim.leaffaces,  &ps->lim.leafbrushes, &ps->lim.models,
        &ps->lim.brushes,       &ps->lim.brushsides, &ps->lim.vertices,    &ps->lim.meshverts,
        &ps->lim.effects,       &ps->lim.faces,      &ps->lim.lightmaps,   &ps->lim.lightvols,
        &ps->lim.visdata_bytes,
    };
    for (int i = 0; i < LUMP_COUNT; i++) {
        int32_t off = rd_i32(ps->data + 8 + 8 * i), len = rd_i32(ps->data + 12 + 8 * i);
        if (off < 0 || len < 0)
            return BAD("%s: lump %d (%s) has a negative offset or length (%d, %d)", ps->name, i,
                       lump_info[i].name, off, len);
        uint64_t end = (uint64_t)off + (uint64_t)len; /* 64-bit: two int32s cannot wrap it */
        if (end > ps->size)
            return BAD("%s: lump %d (%s) ends at byte %llu, past the end of the file (%zu)", ps->name, i,
                       lump_info[i].name, (unsigned long long)end, ps->size);
        if ((uint32_t)len % lump_info[i].record != 0)
            return BAD("%s: lump %d (%s) is %d bytes, not a whole number of %u-byte records", ps->name, i,
                       lump_info[i].name, len, lump_info[i].record);
        uint32_t n = (uint32_t)len / lump_info[i].record;
        if (n > *cap_of[i])
            return BAD("%s: lump %d (%s) holds %u records, more than the limit %u", ps->name, i,
                       lump_info[i].name, n, *cap_of[i]);
        ps->offset[i] = (uint32_t)off;
        ps->count[i] = n;
    }
    return GN_OK;
}

/* calloc of n records that says which array failed; n was capped, so n*size fits. */
static gn_result alloc_array(const parser *ps, void **p, size_t n, size_t size, const char *what)
{
    *p = NULL;
    if (n == 0) return GN_OK;
    *p = gn_calloc(n, size);
    if (!*p)
        return gn_fail(ps->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %zu %s", ps->name, n, what);
    return GN_OK;
}

#define TRY(expr)                                                                                            \
    do {                                                                                                     \
        gn_result r_ = (expr);                                                                               \
        if (r_ != GN_OK) return r_;                                                                          \
    } while (0)

static gn_result read_entities(const parser *ps, gn_bsp *b)
{
    uint32_t len = ps->count[LUMP_ENTITIES];
    const char *text = (const char *)(ps->data + ps->offset[LUMP_ENTITIES]);
    const char *nul = len ? memchr(text, 0, len) : NULL;
    if (len && !nul) return BAD("%s: lump 0 (entities) is not NUL-terminated", ps->name);
    b->entities_len = nul ? (uint32_t)(nul - text) : 0;
    TRY(alloc_array(ps, (void **)&b->entities, b->entities_len + 1, 1, "entity bytes"));
    memcpy(b->entities, text, b->entities_len);
    return GN_OK;
}

static gn_result read_textures(const parser *ps, gn_bsp *b)
{
    b->texture_count = ps->count[LUMP_TEXTURES];
    TRY(alloc_array(ps, (void **)&b->textures, b->texture_count, sizeof *b->textures, "textures"));
    for (uint32_t i = 0; i < b->texture_count; i++) {
        const uint8_t *r = field(ps, LUMP_TEXTURES, i, 0);
        memcpy(b->textures[i].name, r, 63); /* the 64th byte is the terminator we keep */
        b->textures[i].flags = rd_i32(r + 64);
        b->textures[i].contents = rd_i32(r + 68);
    }
    return GN_OK;
}

static gn_result read_planes(const parser *ps, gn_bsp *b)
{
    b->plane_count = ps->count[LUMP_PLANES];
    TRY(alloc_array(ps, (void **)&b->planes, b->plane_count, sizeof *b->planes, "planes"));
    for (uint32_t i = 0; i < b->plane_count; i++) {
        float n[3], d = rd_f32(field(ps, LUMP_PLANES, i, 3));
        for (int k = 0; k < 3; k++) n[k] = rd_f32(field(ps, LUMP_PLANES, i, (uint32_t)k));
        if (!finite3(n) || !isfinite(d)) return BAD("%s: plane %u is not finite", ps->name, i);
        conv_dir(n, b->planes[i].normal);
        b->planes[i].dist = d * GN_BSP_UNIT;
    }
    return GN_OK;
}

static gn_result read_vertices(const parser *ps, gn_bsp *b)
{
    b->vertex_count = ps->count[LUMP_VERTICES];
    TRY(alloc_array(ps, (void **)&b->vertices, b->vertex_count, sizeof *b->vertices, "vertices"));
    for (uint32_t i = 0; i < b->vertex_count; i++) {
        float f[10];
        for (uint32_t k = 0; k < 10; k++) f[k] = rd_f32(field(ps, LUMP_VERTICES, i, k));
        if (!finite3(f) || !finite3(f + 7)) return BAD("%s: vertex %u is not finite", ps->name, i);
        gn_bsp_vertex *v = &b->vertices[i];
        conv_point(f, v->pos);
        v->uv[0] = f[3], v->uv[1] = f[4];
        v->lm_uv[0] = f[5], v->lm_uv[1] = f[6];
        conv_dir(f + 7, v->normal);
        memcpy(v->color, field(ps, LUMP_VERTICES, i, 10), 4);
    }
    return GN_OK;
}

static gn_result read_meshverts(const parser *ps, gn_bsp *b)
{
    b->meshvert_count = ps->count[LUMP_MESHVERTS];
    TRY(alloc_array(ps, (void **)&b->meshverts, b->meshvert_count, sizeof *b->meshverts, "meshverts"));
    for (uint32_t i = 0; i < b->meshvert_count; i++) {
        int32_t m = rd_i32(field(ps, LUMP_MESHVERTS, i, 0));
        if (m < 0) return BAD("%s: meshvert %u is negative (%d)", ps->name, i, m);
        b->meshverts[i] = (uint32_t)m; /* checked against each face's vertex range in read_faces */
    }
    return GN_OK;
}

static gn_result check_patch(const parser *ps, uint32_t i, int32_t w, int32_t h, int32_t nverts)
{
    int32_t cap = (int32_t)(ps->lim.patch_size > 0x7fff ? 0x7fff : ps->lim.patch_size);
    if (w < 3 || h < 3 || w % 2 == 0 || h % 2 == 0 || w > cap || h > cap)
        return BAD("%s: face %u: patch of %d x %d control points (want odd sizes 3..%d)", ps->name, i, w, h,
                   cap);
    if (w * h != nverts) /* both <= 0x7fff: no overflow */
        return BAD("%s: face %u: patch of %d x %d control points has %d vertices", ps->name, i, w, h, nverts);
    return GN_OK;
}

static gn_result read_faces(const parser *ps, gn_bsp *b)
{
    b->face_count = ps->count[LUMP_FACES];
    TRY(alloc_array(ps, (void **)&b->faces, b->face_count, sizeof *b->faces, "faces"));
    for (uint32_t i = 0; i < b->face_count; i++) {
        int32_t f[12];
        for (uint32_t k = 0; k < 12; k++) f[k] = rd_i32(field(ps, LUMP_FACES, i, k));
        int32_t tex = f[0], effect = f[1], type = f[2], lm = f[7];
        TRY(check_index(ps, "face", i, "texture", tex, 0, b->texture_count));
        /* a face's effect (the fog it lies in) is not used: fog volumes fog by the view ray
         * (scene/bsp_fog.c). Shipped maps (openarena's aggressor) name effects their lump does
         * not hold: such an index reads as "none" instead of refusing the map */
        if (effect < -1 || effect >= (int32_t)ps->count[LUMP_EFFECTS]) effect = -1;
        if (type < GN_BSP_FACE_POLYGON || type > GN_BSP_FACE_BILLBOARD)
            return BAD("%s: face %u: unknown type %d", ps->name, i, type);
        TRY(check_range(ps, "face", i, "vertex", f[3], f[4], b->vertex_count));
        TRY(check_range(ps, "face", i, "meshvert", f[5], f[6], b->meshvert_count));
        /* -1 none, -2 white, -3 vertex-lit, -4 2D: Q3's LIGHTMAP_* codes, all "no lightmap" here. */
        TRY(check_index(ps, "face", i, "lightmap", lm, -4, ps->count[LUMP_LIGHTMAPS]));
        gn_bsp_face *o = &b->faces[i];
        o->texture = tex, o->effect = effect, o->type = type, o->lightmap = lm;
        o->first_vertex = (uint32_t)f[3], o->vertex_count = (uint32_t)f[4];
        o->first_meshvert = (uint32_t)f[5], o->meshvert_count = (uint32_t)f[6];
        float n[3];
        for (uint32_t k = 0; k < 3; k++) n[k] = rd_f32(field(ps, LUMP_FACES, i, 21 + k));
        if (!finite3(n)) return BAD("%s: face %u: normal is not finite", ps->name, i);
        conv_dir(n, o->normal);
        if (type == GN_BSP_FACE_POLYGON || type == GN_BSP_FACE_MESH) {
            if (o->meshvert_count % 3 != 0)
                return BAD("%s: face %u: %u meshverts is not a whole number of triangles", ps->name, i,
                           o->meshvert_count);
            for (uint32_t k = 0; k < o->meshvert_count; k++) {
                uint32_t m = b->meshverts[o->first_meshvert + k];
                if (m >= o->vertex_count)
                    return BAD("%s: face %u: meshvert %u (%u) is outside the face's %u vertices", ps->name, i,
                               o->first_meshvert + k, m, o->vertex_count);
            }
        } else if (type == GN_BSP_FACE_PATCH) {
            int32_t w = rd_i32(field(ps, LUMP_FACES, i, 24)), h = rd_i32(field(ps, LUMP_FACES, i, 25));
            TRY(check_patch(ps, i, w, h, f[4]));
            o->patch_w = (uint32_t)w, o->patch_h = (uint32_t)h;
        }
    }
    return GN_OK;
}

static gn_result read_leaffaces(const parser *ps, gn_bsp *b)
{
    b->leafface_count = ps->count[LUMP_LEAFFACES];
    TRY(alloc_array(ps, (void **)&b->leaffaces, b->leafface_count, sizeof *b->leaffaces, "leaffaces"));
    for (uint32_t i = 0; i < b->leafface_count; i++) {
        int32_t f = rd_i32(field(ps, LUMP_LEAFFACES, i, 0));
        TRY(check_index(ps, "leafface", i, "face", f, 0, b->face_count));
        b->leaffaces[i] = (uint32_t)f;
    }
    return GN_OK;
}

/* Read before the leaves, whose clusters index its rows. */
static gn_result read_visdata(const parser *ps, gn_bsp *b)
{
    uint32_t len = ps->count[LUMP_VISDATA];
    if (len == 0) return GN_OK; /* no PVS: everything is visible */
    const uint8_t *p = ps->data + ps->offset[LUMP_VISDATA];
    if (len < 8)
        return BAD("%s: lump 16 (visdata) is %u bytes, shorter than its 8-byte header", ps->name, len);
    int32_t n = rd_i32(p), row = rd_i32(p + 4);
    if (n < 0 || row < 0)
        return BAD("%s: lump 16 (visdata): negative size (%d clusters of %d bytes)", ps->name, n, row);
    if ((uint64_t)row * 8 < (uint64_t)n)
        return BAD("%s: lump 16 (visdata): rows of %d bytes cannot hold a bit for each of %d clusters",
                   ps->name, row, n);
    uint64_t need = (uint64_t)n * (uint64_t)row;
    if (need > len - 8)
        return BAD("%s: lump 16 (visdata): %d clusters of %d bytes (%llu) do not fit in its %u bytes",
                   ps->name, n, row, (unsigned long long)need, len - 8);
    if ((uint32_t)n > ps->lim.leaves)
        return BAD("%s: lump 16 (visdata): %d clusters, more than the limit %u", ps->name, n, ps->lim.leaves);
    b->vis_clusters = (uint32_t)n, b->vis_row_bytes = (uint32_t)row;
    TRY(alloc_array(ps, (void **)&b->visdata, need, 1, "visdata bytes"));
    if (need) memcpy(b->visdata, p + 8, need);
    return GN_OK;
}

static gn_result read_leaves(const parser *ps, gn_bsp *b)
{
    b->leaf_count = ps->count[LUMP_LEAVES];
    TRY(alloc_array(ps, (void **)&b->leaves, b->leaf_count, sizeof *b->leaves, "leaves"));
    for (uint32_t i = 0; i < b->leaf_count; i++) {
        int32_t f[12];
        for (uint32_t k = 0; k < 12; k++) f[k] = rd_i32(field(ps, LUMP_LEAVES, i, k));
        /* Without visdata the cluster numbers index nothing, so only their sign is checked. */
        TRY(check_index(ps, "leaf", i, "cluster", f[0], -1, b->visdata ? b->vis_clusters : 0x7fffffffu));
        if (f[1] < -1) return BAD("%s: leaf %u: area %d is out of range", ps->name, i, f[1]);
        TRY(check_range(ps, "leaf", i, "leafface", f[8], f[9], b->leafface_count));
        TRY(check_range(ps, "leaf", i, "leafbrush", f[10], f[11], ps->count[LUMP_LEAFBRUSHES]));
        gn_bsp_leaf *o = &b->leaves[i];
        o->cluster = f[0], o->area = f[1];
        float mn[3] = {(float)f[2], (float)f[3], (float)f[4]},
              mx[3] = {(float)f[5], (float)f[6], (float)f[7]};
        conv_box(mn, mx, o->mins, o->maxs);
        o->first_leafface = (uint32_t)f[8], o->leafface_count = (uint32_t)f[9];
    }
    return GN_OK;
}

static gn_result read_nodes(const parser *ps, gn_bsp *b)
{
    b->node_count = ps->count[LUMP_NODES];
    TRY(alloc_array(ps, (void **)&b->nodes, b->node_count, sizeof *b->nodes, "nodes"));
    for (uint32_t i = 0; i < b->node_count; i++) {
        int32_t f[9];
        for (uint32_t k = 0; k < 9; k++) f[k] = rd_i32(field(ps, LUMP_NODES, i, k));
        TRY(check_index(ps, "node", i, "plane", f[0], 0, b->plane_count));
        for (int c = 0; c < 2; c++) {
            int32_t ch = f[1 + c];
            /* q3map writes the tree depth first, so a child node always follows its parent;
             * requiring it rules out cycles, and every walk down the tree ends. */
            if (ch >= 0 && ((uint32_t)ch <= i || (uint32_t)ch >= b->node_count))
                return BAD("%s: node %u: child node %d is out of range (%u..%u)", ps->name, i, ch, i + 1,
                           b->node_count - 1);
            if (ch < 0 && -(int64_t)ch - 1 >= (int64_t)b->leaf_count)
                return BAD("%s: node %u: child leaf %lld is out of range (0..%lld)", ps->name, i,
                           -(long long)ch - 1, (long long)b->leaf_count - 1);
        }
        gn_bsp_node *o = &b->nodes[i];
        o->plane = f[0], o->children[0] = f[1], o->children[1] = f[2];
        float mn[3] = {(float)f[3], (float)f[4], (float)f[5]},
              mx[3] = {(float)f[6], (float)f[7], (float)f[8]};
        conv_box(mn, mx, o->mins, o->maxs);
    }
    return GN_OK;
}

/* The light grid's placement as Q3 computes it (R_LoadLightGrid): the world model's bounds
 * rounded inwards to whole cells. Needs the raw (Quake) bounds of model 0. */
static void place_grid(gn_bsp *b, const float qmn[3], const float qmx[3])
{
    float size[3] = {64, 64, 128};
    char text[64];
    float g[3];
    if (gn_bsp_entity_value(b, "worldspawn", 0, "gridsize", text, sizeof text) &&
        sscanf(text, "%f %f %f", &g[0], &g[1], &g[2]) == 3 && g[0] >= 1 && g[1] >= 1 && g[2] >= 1 &&
        g[0] <= 65536 && g[1] <= 65536 && g[2] <= 65536)
        memcpy(size, g, sizeof size);
    uint64_t cells = 1;
    for (int k = 0; k < 3; k++) {
        float lo = size[k] * ceilf(qmn[k] / size[k]), hi = size[k] * floorf(qmx[k] / size[k]);
        float n = hi >= lo ? (hi - lo) / size[k] + 1.0f : 0.0f;
        b->grid_origin[k] = lo;
        b->grid_size[k] = size[k];
        b->grid_dims[k] = n > 0 && n < 65536.0f ? (uint32_t)n : 0;
        cells *= b->grid_dims[k];
    }
    b->has_grid = cells > 0 && cells == b->lightvol_count;
}

static gn_result read_models(const parser *ps, gn_bsp *b)
{
    b->model_count = ps->count[LUMP_MODELS];
    TRY(alloc_array(ps, (void **)&b->models, b->model_count, sizeof *b->models, "models"));
    for (uint32_t i = 0; i < b->model_count; i++) {
        float mn[3], mx[3];
        for (uint32_t k = 0; k < 3; k++) {
            mn[k] = rd_f32(field(ps, LUMP_MODELS, i, k));
            mx[k] = rd_f32(field(ps, LUMP_MODELS, i, 3 + k));
        }
        if (!finite3(mn) || !finite3(mx)) return BAD("%s: model %u: bounds are not finite", ps->name, i);
        int32_t face = rd_i32(field(ps, LUMP_MODELS, i, 6)), nface = rd_i32(field(ps, LUMP_MODELS, i, 7));
        TRY(check_range(ps, "model", i, "face", face, nface, b->face_count));
        TRY(check_range(ps, "model", i, "brush", rd_i32(field(ps, LUMP_MODELS, i, 8)),
                        rd_i32(field(ps, LUMP_MODELS, i, 9)), ps->count[LUMP_BRUSHES]));
        conv_box(mn, mx, b->models[i].mins, b->models[i].maxs);
        b->models[i].first_face = (uint32_t)face, b->models[i].face_count = (uint32_t)nface;
    }
    return GN_OK;
}

/* Brushes and their sides, kept for the fog volumes (lump 12 names fog brushes), every index
 * checked so that a file we accept is consistent throughout. */
static gn_result read_brushes(const parser *ps, gn_bsp *b)
{
    b->brush_count = ps->count[LUMP_BRUSHES];
    b->brushside_count = ps->count[LUMP_BRUSHSIDES];
    TRY(alloc_array(ps, (void **)&b->brushes, b->brush_count, sizeof *b->brushes, "brushes"));
    TRY(alloc_array(ps, (void **)&b->brushsides, b->brushside_count, sizeof *b->brushsides, "brushsides"));
    for (uint32_t i = 0; i < b->brush_count; i++) {
        int32_t side = rd_i32(field(ps, LUMP_BRUSHES, i, 0)), n = rd_i32(field(ps, LUMP_BRUSHES, i, 1));
        int32_t tex = rd_i32(field(ps, LUMP_BRUSHES, i, 2));
        TRY(check_range(ps, "brush", i, "side", side, n, b->brushside_count));
        TRY(check_index(ps, "brush", i, "texture", tex, 0, b->texture_count));
        b->brushes[i] = (gn_bsp_brush){(uint32_t)side, (uint32_t)n, tex};
    }
    for (uint32_t i = 0; i < b->brushside_count; i++) {
        int32_t plane = rd_i32(field(ps, LUMP_BRUSHSIDES, i, 0)),
                tex = rd_i32(field(ps, LUMP_BRUSHSIDES, i, 1));
        TRY(check_index(ps, "brushside", i, "plane", plane, 0, b->plane_count));
        TRY(check_index(ps, "brushside", i, "texture", tex, 0, b->texture_count));
        b->brushsides[i] = (gn_bsp_brushside){(uint32_t)plane, tex};
    }
    for (uint32_t i = 0; i < ps->count[LUMP_LEAFBRUSHES]; i++)
        TRY(check_index(ps, "leafbrush", i, "brush", rd_i32(field(ps, LUMP_LEAFBRUSHES, i, 0)), 0,
                        b->brush_count));
    return GN_OK;
}

/* Lump 12: a 64-byte shader name, the fog's brush and its visible side (-1: none, else one of
 * the brush's own sides). Its count was capped by limits.effects with the directory. */
static gn_result read_fogs(const parser *ps, gn_bsp *b)
{
    b->fog_count = ps->count[LUMP_EFFECTS];
    TRY(alloc_array(ps, (void **)&b->fogs, b->fog_count, sizeof *b->fogs, "fogs"));
    for (uint32_t i = 0; i < b->fog_count; i++) {
        const uint8_t *r = field(ps, LUMP_EFFECTS, i, 0);
        if (!memchr(r, 0, 64)) return BAD("%s: fog %u: its shader name is not NUL-terminated", ps->name, i);
        int32_t brush = rd_i32(r + 64), side = rd_i32(r + 68);
        TRY(check_index(ps, "fog", i, "brush", brush, 0, b->brush_count));
        TRY(check_index(ps, "fog", i, "visible side", side, -1, b->brushes[brush].side_count));
        gn_bsp_fog *f = &b->fogs[i];
        memcpy(f->shader, r, 64);
        f->brush = (uint32_t)brush, f->visible_side = side;
    }
    return GN_OK;
}

static gn_result read_blobs(const parser *ps, gn_bsp *b)
{
    b->lightmap_count = ps->count[LUMP_LIGHTMAPS];
    size_t lm_bytes = (size_t)b->lightmap_count * GN_BSP_LIGHTMAP_BYTES;
    TRY(alloc_array(ps, (void **)&b->lightmaps, lm_bytes, 1, "lightmap bytes"));
    if (lm_bytes) memcpy(b->lightmaps, ps->data + ps->offset[LUMP_LIGHTMAPS], lm_bytes);
    b->lightvol_count = ps->count[LUMP_LIGHTVOLS];
    TRY(alloc_array(ps, (void **)&b->lightvols, (size_t)b->lightvol_count * 8, 1, "lightvol bytes"));
    if (b->lightvol_count)
        memcpy(b->lightvols, ps->data + ps->offset[LUMP_LIGHTVOLS], (size_t)b->lightvol_count * 8);
    return GN_OK;
}

static gn_result parse_all(parser *ps, gn_bsp *b)
{
    TRY(read_directory(ps));
    /* Dependency order: each reader checks indices into arrays read before it. */
    TRY(read_entities(ps, b));
    TRY(read_textures(ps, b));
    TRY(read_planes(ps, b));
    TRY(read_vertices(ps, b));
    TRY(read_meshverts(ps, b));
    TRY(read_faces(ps, b));
    TRY(read_leaffaces(ps, b));
    TRY(read_visdata(ps, b));
    TRY(read_leaves(ps, b));
    TRY(read_nodes(ps, b));
    TRY(read_models(ps, b));
    TRY(read_brushes(ps, b));
    TRY(read_fogs(ps, b));
    TRY(read_blobs(ps, b));
    if (b->model_count) { /* the world model's raw (Quake) bounds, checked finite by read_models */
        float qmn[3], qmx[3];
        for (uint32_t k = 0; k < 3; k++) {
            qmn[k] = rd_f32(field(ps, LUMP_MODELS, 0, k));
            qmx[k] = rd_f32(field(ps, LUMP_MODELS, 0, 3 + k));
        }
        place_grid(b, qmn, qmx);
    }
    return GN_OK;
}

gn_result gn_bsp_parse(const uint8_t *data, size_t size, const char *name, const gn_bsp_limits *limits,
                       gn_bsp *out, gn_error *err)
{
    if (!out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_bsp_parse: out is NULL");
    memset(out, 0, sizeof *out);
    if (!name) name = "(bsp)";
    if (!data && size) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: data is NULL", name);
    parser ps = {.data = data, .size = data ? size : 0, .name = name, .err = err};
    gn_bsp_limits_defaults(limits, &ps.lim);
    snprintf(out->name, sizeof out->name, "%s", name);
    gn_result r = parse_all(&ps, out);
    if (r != GN_OK) gn_bsp_free(out);
    return r;
}

void gn_bsp_free(gn_bsp *b)
{
    if (!b) return;
    free(b->entities);
    free(b->textures);
    free(b->planes);
    free(b->nodes);
    free(b->leaves);
    free(b->leaffaces);
    free(b->models);
    free(b->vertices);
    free(b->meshverts);
    free(b->faces);
    free(b->lightmaps);
    free(b->lightvols);
    free(b->visdata);
    free(b->brushes);
    free(b->brushsides);
    free(b->fogs);
    memset(b, 0, sizeof *b);
}

/* ---- entities ----------------------------------------------------------------------------
 * The entity lump is a list of blocks `{ "key" "value" ... }`. The reader is bounded by the
 * NUL-terminated copy and stops at the first block that does not follow that grammar (an
 * unquoted word, an unterminated string, a missing brace), so malformed text yields fewer
 * entities, never a read past the end. */
typedef struct ent_lexer {
    const char *p;
} ent_lexer;

typedef enum { TOK_END, TOK_OPEN, TOK_CLOSE, TOK_STRING, TOK_BAD } ent_token;

static ent_token ent_next(ent_lexer *lx, const char **s, size_t *len)
{
    while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\n' || *lx->p == '\r') lx->p++;
    char c = *lx->p;
    if (c == 0) return TOK_END;
    if (c == '{' || c == '}') {
        lx->p++;
        return c == '{' ? TOK_OPEN : TOK_CLOSE;
    }
    if (c != '"') return TOK_BAD;
    const char *start = ++lx->p;
    while (*lx->p && *lx->p != '"') lx->p++;
    if (*lx->p != '"') return TOK_BAD;
    *s = start, *len = (size_t)(lx->p - start);
    lx->p++;
    return TOK_STRING;
}

/* Steps over one block; *start points just past its '{'. false at the end or on bad text. */
static bool ent_block(ent_lexer *lx, const char **start)
{
    const char *s;
    size_t n;
    if (ent_next(lx, &s, &n) != TOK_OPEN) return false;
    *start = lx->p;
    for (;;) {
        ent_token t = ent_next(lx, &s, &n);
        if (t == TOK_CLOSE) return true;
        if (t != TOK_STRING || ent_next(lx, &s, &n) != TOK_STRING) return false;
    }
}

/* The value of key in the (already validated) block starting at start. */
static bool ent_value(const char *start, const char *key, const char **val, size_t *vlen)
{
    ent_lexer lx = {start};
    const char *k;
    size_t klen;
    while (ent_next(&lx, &k, &klen) == TOK_STRING) {
        ent_next(&lx, val, vlen);
        if (strlen(key) == klen && memcmp(k, key, klen) == 0) return true;
    }
    return false;
}

static bool ent_equals(const char *s, size_t n, const char *want)
{
    return strlen(want) == n && memcmp(s, want, n) == 0;
}

/* The block of the next entity of a class (NULL: any) after lx, lx then past it. */
static const char *ent_next_of(ent_lexer *lx, const char *classname)
{
    const char *start;
    while (ent_block(lx, &start)) {
        const char *v = NULL;
        size_t vlen = 0;
        if (!classname || (ent_value(start, "classname", &v, &vlen) && ent_equals(v, vlen, classname)))
            return start;
    }
    return NULL;
}

/* The block of the nth entity of a class. */
static const char *ent_find(const gn_bsp *b, const char *classname, uint32_t nth)
{
    if (!b || !b->entities) return NULL;
    ent_lexer lx = {b->entities};
    const char *start;
    while ((start = ent_next_of(&lx, classname)))
        if (nth-- == 0) return start;
    return NULL;
}

/* A number after spaces and tabs (base/number.h: not the user's locale). Returns the end, or NULL. */
static const char *parse_number(const char *s, const char *end, float *out)
{
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return gn_parse_float(s, end, out);
}

static int parse_numbers(const char *s, size_t n, float *out, int count)
{
    const char *end = s + n;
    int got = 0;
    while (got < count && s && (s = parse_number(s, end, &out[got]))) got++;
    return got;
}

bool gn_bsp_entity_value(const gn_bsp *b, const char *classname, uint32_t nth, const char *key, char *out,
                         size_t cap)
{
    const char *start = ent_find(b, classname, nth), *v;
    size_t n;
    if (!start || !key || !ent_value(start, key, &v, &n)) return false;
    if (out && cap) {
        if (n >= cap) n = cap - 1;
        memcpy(out, v, n);
        out[n] = 0;
    }
    return true;
}

/* The fields of the (validated) block at start. */
static void ent_fill(const char *start, gn_bsp_entity *out)
{
    const char *v;
    size_t n;
    memset(out, 0, sizeof *out);
    if (ent_value(start, "classname", &v, &n)) {
        if (n >= sizeof out->classname) n = sizeof out->classname - 1;
        memcpy(out->classname, v, n);
    }
    float q[3];
    if (ent_value(start, "origin", &v, &n) && parse_numbers(v, n, q, 3) == 3) {
        conv_point(q, out->origin);
        out->has_origin = true;
    }
    if (ent_value(start, "angle", &v, &n) && parse_numbers(v, n, &out->angle, 1) == 1) {
        out->has_angle = true;
        out->yaw = out->angle - 90.0f; /* Quake +Y (angle 90) is the renderer's -Z (yaw 0) */
    }
    out->light = 300.0f;
    if (ent_value(start, "light", &v, &n)) parse_numbers(v, n, &out->light, 1);
    out->color[0] = out->color[1] = out->color[2] = 1.0f;
    float c[3];
    if (ent_value(start, "_color", &v, &n) && parse_numbers(v, n, c, 3) == 3) {
        /* q3map2 normalises _color to a maximum component of 1; the intensity lives in "light". */
        float mx = fmaxf(c[0], fmaxf(c[1], c[2]));
        if (mx > 0.0f)
            for (int k = 0; k < 3; k++) out->color[k] = fmaxf(c[k], 0.0f) / mx;
    }
}

bool gn_bsp_entity_find(const gn_bsp *b, const char *classname, uint32_t nth, gn_bsp_entity *out)
{
    const char *start = ent_find(b, classname, nth);
    if (start && out) ent_fill(start, out);
    return start != NULL;
}

bool gn_bsp_entity_next(const gn_bsp *b, const char *classname, gn_bsp_entity_cursor *c, gn_bsp_entity *out)
{
    if (!b || !b->entities || !c) return false;
    if (!c->p) c->p = b->entities;
    ent_lexer lx = {c->p};
    const char *start = ent_next_of(&lx, classname);
    /* at the end or at malformed text: stay at the end, as gn_bsp_entity_find stops there */
    c->p = start ? lx.p : lx.p + strlen(lx.p);
    if (start && out) ent_fill(start, out);
    return start != NULL;
}

static void spawn_camera(const gn_bsp_entity *e, float pos[3], float *yaw);

bool gn_bsp_default_camera(const gn_bsp *b, float pos[3], float *yaw)
{
    gn_bsp_entity e;
    if (!gn_bsp_entity_find(b, "info_player_deathmatch", 0, &e) &&
        !gn_bsp_entity_find(b, "info_player_start", 0, &e))
        return false;
    spawn_camera(&e, pos, yaw);
    return true;
}

bool gn_bsp_spawn_camera(const gn_bsp *b, uint32_t nth, float pos[3], float *yaw)
{
    gn_bsp_entity_cursor c = {0};
    gn_bsp_entity e;
    for (uint32_t i = 0; i <= nth; i++)
        if (!gn_bsp_entity_next(b, "info_player_deathmatch", &c, &e)) return false;
    spawn_camera(&e, pos, yaw);
    return true;
}

static void spawn_camera(const gn_bsp_entity *ep, float pos[3], float *yaw)
{
    gn_bsp_entity e = *ep;
    if (pos) {
        pos[0] = e.origin[0], pos[1] = e.origin[1] + GN_BSP_EYE_HEIGHT * GN_BSP_UNIT, pos[2] = e.origin[2];
    }
    if (yaw) *yaw = e.has_angle ? e.yaw : -90.0f; /* no angle: Quake's 0, facing +X */
}

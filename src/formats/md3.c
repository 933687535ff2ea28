/* The .md3 reader (md3.h), after id Tech 3's qfiles.h. Two passes: the first checks the header,
 * every surface's header and every section against the buffer, the caps and each other, and
 * adds up the output's size; the second allocates that once and decodes into it. Fields are read
 * little-endian byte by byte (never a struct cast, so alignment does not matter) and every
 * offset is added in 64 bits.
 *
 * Sections are bounded by the file's own ofsEnd (which must lie inside the buffer), and a
 * surface's sections by its ofsEnd: the surfaces follow one another without overlapping, so the
 * output (at most 3 floats' worth a stored vertex byte, and then some) stays proportional to the
 * file, whatever the counts say. */
#include "formats/md3.h"

#include "base/alloc.h"
#include "base/error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stored sizes of qfiles.h's structs. */
#define HEADER_BYTES 108u  /* md3Header_t */
#define FRAME_BYTES 56u    /* md3Frame_t: bounds[2][3], localOrigin[3], radius, name[16] */
#define TAG_BYTES 112u     /* md3Tag_t: name[64], origin[3], axis[3][3] */
#define SURFACE_BYTES 108u /* md3Surface_t */
#define SHADER_BYTES 68u   /* md3Shader_t: name[64], shaderIndex */
#define TRIANGLE_BYTES 12u /* three int32 indices */
#define ST_BYTES 8u        /* two floats */
#define XYZN_BYTES 8u      /* int16 x, y, z, packed normal */

/* One surface as the first pass found it: where it starts and its counts. */
typedef struct surface_info {
    uint64_t start;
    uint32_t shaders, verts, triangles;
    uint32_t ofs_triangles, ofs_shaders, ofs_st, ofs_xyzn; /* from start */
} surface_info;

typedef struct parser {
    const uint8_t *data;
    uint64_t end; /* the header's ofsEnd: nothing is read past it */
    const char *name;
    gn_error *err;
    uint32_t frames, tags, surfaces;
    uint64_t ofs_frames, ofs_tags;
    surface_info surf[GN_MD3_MAX_SURFACES];
} parser;

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static int32_t rdi32(const uint8_t *p) { return (int32_t)rd32(p); }
static int16_t rdi16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }
static float rdf32(const uint8_t *p)
{
    uint32_t u = rd32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static gn_result __attribute__((format(printf, 2, 3))) bad(const parser *ps, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return gn_fail(ps->err, GN_ERROR_BAD_DATA, "%s: %s", ps->name, what);
}

/* A name field: its bytes up to the first NUL, which must lie inside the field (the game
 * compares names with strcmp, so an unterminated one would run into the next field). What
 * follows the NUL is exporters' leftovers and ignored. */
static bool name_ok(const uint8_t *field, uint32_t cap) { return memchr(field, 0, cap) != NULL; }

/* A checked name for a message: control bytes as '?', so the message stays one line. */
static void name_text(char out[GN_MD3_NAME_MAX], const uint8_t *field)
{
    size_t i = 0;
    for (; i < GN_MD3_NAME_MAX - 1 && field[i]; i++)
        out[i] = field[i] < 0x20 || field[i] == 0x7f ? '?' : (char)field[i];
    out[i] = '\0';
}

static void name_copy(char *dst, const uint8_t *field, uint32_t cap)
{
    memcpy(dst, field, cap);
    dst[cap - 1] = '\0'; /* the NUL is inside the field (name_ok); this only makes it certain */
}

/* A section of count items of item bytes at ofs must end by limit (all in 64 bits: count is
 * at most GN_MD3_MAX_FRAMES * GN_MD3_MAX_VERTS). */
static bool section_ok(int64_t ofs, uint64_t count, uint32_t item, uint64_t limit)
{
    return ofs >= 0 && (uint64_t)ofs + count * item <= limit;
}

static bool finite_n(const uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!isfinite(rdf32(p + 4 * i))) return false;
    return true;
}

/* A header count: 0..cap (low: 1 where an empty set is refused). */
static gn_result check_count(const parser *ps, const char *what, int32_t v, uint32_t low, uint32_t cap)
{
    if (v < (int32_t)low || (uint32_t)v > cap)
        return bad(ps, "%s %d, outside %u..%u (the game's cap)", what, v, low, cap);
    return GN_OK;
}

static gn_result check_header(parser *ps, size_t size)
{
    const uint8_t *h = ps->data;
    if (size < HEADER_BYTES) return bad(ps, "%zu bytes, shorter than the %u-byte header", size, HEADER_BYTES);
    if (memcmp(h, "IDP3", 4) != 0) return bad(ps, "not an MD3 file (no \"IDP3\" magic)");
    int32_t version = rdi32(h + 4);
    if (version != GN_MD3_VERSION) return bad(ps, "version %d; only %d is read", version, GN_MD3_VERSION);
    if (!name_ok(h + 8, GN_MD3_NAME_MAX)) return bad(ps, "header name not terminated within its 64 bytes");
    int32_t frames = rdi32(h + 76), tags = rdi32(h + 80), surfaces = rdi32(h + 84), skins = rdi32(h + 88);
    int32_t ofs_frames = rdi32(h + 92), ofs_tags = rdi32(h + 96), ofs_end = rdi32(h + 104);
    gn_result r = check_count(ps, "numFrames", frames, 1, GN_MD3_MAX_FRAMES);
    if (!r) r = check_count(ps, "numTags", tags, 0, GN_MD3_MAX_TAGS);
    if (!r) r = check_count(ps, "numSurfaces", surfaces, 0, GN_MD3_MAX_SURFACES);
    if (r) return r;
    if (skins < 0) return bad(ps, "numSkins %d is negative", skins);
    if (ofs_end < (int32_t)HEADER_BYTES || (uint64_t)ofs_end > size)
        return bad(ps, "ofsEnd %d outside the header's end (%u) and the file's (%zu bytes)", ofs_end,
                   HEADER_BYTES, size);
    ps->end = (uint64_t)ofs_end;
    ps->frames = (uint32_t)frames;
    ps->tags = (uint32_t)tags;
    ps->surfaces = (uint32_t)surfaces;
    if (!section_ok(ofs_frames, ps->frames, FRAME_BYTES, ps->end))
        return bad(ps, "frames (%u of %u bytes at ofsFrames %d) end past ofsEnd %llu", ps->frames,
                   FRAME_BYTES, ofs_frames, (unsigned long long)ps->end);
    if (!section_ok(ofs_tags, (uint64_t)ps->frames * ps->tags, TAG_BYTES, ps->end))
        return bad(ps, "tags (%u frames x %u of %u bytes at ofsTags %d) end past ofsEnd %llu", ps->frames,
                   ps->tags, TAG_BYTES, ofs_tags, (unsigned long long)ps->end);
    ps->ofs_frames = (uint64_t)ofs_frames;
    ps->ofs_tags = (uint64_t)ofs_tags;
    return GN_OK;
}

static gn_result check_frames_tags(const parser *ps)
{
    for (uint32_t f = 0; f < ps->frames; f++) {
        const uint8_t *p = ps->data + ps->ofs_frames + (uint64_t)f * FRAME_BYTES;
        if (!finite_n(p, 10)) return bad(ps, "frame %u: bounds, origin or radius not finite", f);
        if (!name_ok(p + 40, GN_MD3_FRAME_NAME_MAX))
            return bad(ps, "frame %u: name not terminated within its 16 bytes", f);
    }
    for (uint64_t i = 0; i < (uint64_t)ps->frames * ps->tags; i++) {
        const uint8_t *p = ps->data + ps->ofs_tags + i * TAG_BYTES;
        uint32_t f = (uint32_t)(i / ps->tags), t = (uint32_t)(i % ps->tags);
        if (!name_ok(p, GN_MD3_NAME_MAX))
            return bad(ps, "frame %u tag %u: name not terminated within its 64 bytes", f, t);
        char tn[GN_MD3_NAME_MAX];
        name_text(tn, p);
        if (!finite_n(p + 64, 12))
            return bad(ps, "frame %u tag %u (%s): origin or axis not finite", f, t, tn);
    }
    return GN_OK;
}

/* Surface k's header at ps->surf[k].start, and its sections inside [start, start + its ofsEnd). */
static gn_result check_surface(parser *ps, uint32_t k, uint64_t *next)
{
    surface_info *si = &ps->surf[k];
    if (si->start + SURFACE_BYTES > ps->end)
        return bad(ps, "surface %u: its header at byte %llu ends past ofsEnd %llu", k,
                   (unsigned long long)si->start, (unsigned long long)ps->end);
    const uint8_t *s = ps->data + si->start;
    if (memcmp(s, "IDP3", 4) != 0) return bad(ps, "surface %u: no \"IDP3\" ident", k);
    if (!name_ok(s + 4, GN_MD3_NAME_MAX))
        return bad(ps, "surface %u: name not terminated within 64 bytes", k);
    char sn[GN_MD3_NAME_MAX];
    name_text(sn, s + 4);
    int32_t frames = rdi32(s + 72), shaders = rdi32(s + 76), verts = rdi32(s + 80), tris = rdi32(s + 84);
    int32_t ofs_tri = rdi32(s + 88), ofs_sh = rdi32(s + 92), ofs_st = rdi32(s + 96),
            ofs_xyzn = rdi32(s + 100);
    int32_t ofs_end = rdi32(s + 104);
    if (frames != (int32_t)ps->frames)
        return bad(ps, "surface %u (%s): numFrames %d, but the header says %u", k, sn, frames, ps->frames);
    char what[96];
    snprintf(what, sizeof what, "surface %u (%s): numShaders", k, sn);
    gn_result r = check_count(ps, what, shaders, 0, GN_MD3_MAX_SHADERS);
    snprintf(what, sizeof what, "surface %u (%s): numVerts", k, sn);
    if (!r) r = check_count(ps, what, verts, 0, GN_MD3_MAX_VERTS);
    snprintf(what, sizeof what, "surface %u (%s): numTriangles", k, sn);
    if (!r) r = check_count(ps, what, tris, 0, GN_MD3_MAX_TRIANGLES);
    if (r) return r;
    if (ofs_end < (int32_t)SURFACE_BYTES || si->start + (uint64_t)ofs_end > ps->end)
        return bad(ps,
                   "surface %u (%s): ofsEnd %d outside its header's end (%u) and the file's ofsEnd (%llu)", k,
                   sn, ofs_end, SURFACE_BYTES, (unsigned long long)(ps->end - si->start));
    const struct {
        const char *what;
        int32_t ofs;
        uint64_t count;
        uint32_t item;
    } sec[] = {
        {"triangles", ofs_tri, (uint64_t)tris, TRIANGLE_BYTES},
        {"shaders", ofs_sh, (uint64_t)shaders, SHADER_BYTES},
        {"texture coordinates", ofs_st, (uint64_t)verts, ST_BYTES},
        {"vertices", ofs_xyzn, (uint64_t)verts * ps->frames, XYZN_BYTES},
    };
    for (size_t i = 0; i < sizeof sec / sizeof sec[0]; i++)
        if (!section_ok(sec[i].ofs, sec[i].count, sec[i].item, (uint64_t)ofs_end))
            return bad(
                ps, "surface %u (%s): %s (%llu of %u bytes at offset %d) end past the surface's ofsEnd %d", k,
                sn, sec[i].what, (unsigned long long)sec[i].count, sec[i].item, sec[i].ofs, ofs_end);
    si->shaders = (uint32_t)shaders;
    si->verts = (uint32_t)verts;
    si->triangles = (uint32_t)tris;
    si->ofs_triangles = (uint32_t)ofs_tri;
    si->ofs_shaders = (uint32_t)ofs_sh;
    si->ofs_st = (uint32_t)ofs_st;
    si->ofs_xyzn = (uint32_t)ofs_xyzn;
    for (uint32_t i = 0; i < si->shaders; i++)
        if (!name_ok(s + si->ofs_shaders + i * SHADER_BYTES, GN_MD3_NAME_MAX))
            return bad(ps, "surface %u (%s): shader %u: name not terminated within 64 bytes", k, sn, i);
    for (uint32_t i = 0; i < 3 * si->triangles; i++) {
        int32_t v = rdi32(s + si->ofs_triangles + 4 * i);
        if (v < 0 || v >= verts)
            return bad(ps, "surface %u (%s): triangle %u index %d, outside its %d vertices", k, sn, i / 3, v,
                       verts);
    }
    for (uint32_t i = 0; i < si->verts; i++)
        if (!finite_n(s + si->ofs_st + (uint64_t)i * ST_BYTES, 2))
            return bad(ps, "surface %u (%s): vertex %u: texture coordinates not finite", k, sn, i);
    *next = si->start + (uint64_t)ofs_end;
    return GN_OK;
}

/* Bump allocation inside the one block: with base NULL it only adds up the size. */
typedef struct carve {
    uint8_t *base;
    uint64_t used;
} carve;

static void *take(carve *c, uint64_t bytes, uint64_t align)
{
    c->used = (c->used + align - 1) / align * align;
    void *p = c->base ? c->base + c->used : NULL;
    c->used += bytes;
    return p;
}

/* The block's layout: the model, then the surfaces (they hold pointers), frames, tags, every
 * surface's arrays; the same sequence sizes the block and then places the arrays in it. */
static void layout(const parser *ps, carve *c, gn_md3 **m_out)
{
    gn_md3 *m = take(c, sizeof(gn_md3), _Alignof(gn_md3));
    gn_md3_surface *surfs =
        take(c, (uint64_t)ps->surfaces * sizeof(gn_md3_surface), _Alignof(gn_md3_surface));
    gn_md3_frame *frames = take(c, (uint64_t)ps->frames * sizeof(gn_md3_frame), _Alignof(gn_md3_frame));
    gn_md3_tag *tags = take(c, (uint64_t)ps->frames * ps->tags * sizeof(gn_md3_tag), _Alignof(gn_md3_tag));
    if (m) {
        m->frames = frames;
        m->tags = ps->tags ? tags : NULL;
        m->surfaces = ps->surfaces ? surfs : NULL;
    }
    for (uint32_t k = 0; k < ps->surfaces; k++) {
        const surface_info *si = &ps->surf[k];
        uint64_t per_frame = (uint64_t)si->verts * ps->frames * 3;
        uint32_t *idx = take(c, (uint64_t)si->triangles * 3 * sizeof(uint32_t), _Alignof(uint32_t));
        float *st = take(c, (uint64_t)si->verts * 2 * sizeof(float), _Alignof(float));
        float *pos = take(c, per_frame * sizeof(float), _Alignof(float));
        float *nrm = take(c, per_frame * sizeof(float), _Alignof(float));
        gn_md3_shader *sh = take(c, (uint64_t)si->shaders * sizeof(gn_md3_shader), _Alignof(gn_md3_shader));
        if (m) {
            surfs[k] = (gn_md3_surface){.indices = idx, .texcoords = st, .positions = pos, .normals = nrm};
            surfs[k].shaders = si->shaders ? sh : NULL;
        }
    }
    if (m_out) *m_out = m;
}

void gn_md3_decode_normal(uint16_t packed, float out[3])
{
    /* id's encoder (NormalToLatLong) stores angle * 255 / 360; the renderer's sine table reads a
     * byte as b * 2 pi / 256, up to 1.4 degrees off: this inverts the encoder instead. */
    const double step = 2.0 * 3.14159265358979323846 / 255.0;
    double lat = ((packed >> 8) & 255) * step, lng = (packed & 255) * step;
    out[0] = (float)(cos(lat) * sin(lng));
    out[1] = (float)(sin(lat) * sin(lng));
    out[2] = (float)cos(lng);
}

static void fill(const parser *ps, gn_md3 *m)
{
    const uint8_t *h = ps->data;
    name_copy(m->name, h + 8, GN_MD3_NAME_MAX);
    m->flags = rd32(h + 72);
    m->frame_count = ps->frames;
    m->tag_count = ps->tags;
    m->surface_count = ps->surfaces;
    m->skin_count = rd32(h + 88);
    for (uint32_t f = 0; f < ps->frames; f++) {
        const uint8_t *p = h + ps->ofs_frames + (uint64_t)f * FRAME_BYTES;
        gn_md3_frame *fr = &m->frames[f];
        for (int i = 0; i < 3; i++) {
            fr->mins[i] = rdf32(p + 4 * i);
            fr->maxs[i] = rdf32(p + 12 + 4 * i);
            fr->origin[i] = rdf32(p + 24 + 4 * i);
        }
        fr->radius = rdf32(p + 36);
        name_copy(fr->name, p + 40, GN_MD3_FRAME_NAME_MAX);
    }
    for (uint64_t i = 0; i < (uint64_t)ps->frames * ps->tags; i++) {
        const uint8_t *p = h + ps->ofs_tags + i * TAG_BYTES;
        gn_md3_tag *t = &m->tags[i];
        name_copy(t->name, p, GN_MD3_NAME_MAX);
        for (int j = 0; j < 3; j++) t->origin[j] = rdf32(p + 64 + 4 * j);
        for (int a = 0; a < 3; a++)
            for (int j = 0; j < 3; j++) t->axis[a][j] = rdf32(p + 76 + 12 * a + 4 * j);
    }
    for (uint32_t k = 0; k < ps->surfaces; k++) {
        const surface_info *si = &ps->surf[k];
        const uint8_t *s = h + si->start;
        gn_md3_surface *out = &m->surfaces[k];
        name_copy(out->name, s + 4, GN_MD3_NAME_MAX);
        out->flags = rd32(s + 68);
        out->shader_count = si->shaders;
        out->vertex_count = si->verts;
        out->triangle_count = si->triangles;
        for (uint32_t i = 0; i < si->shaders; i++)
            name_copy(out->shaders[i].name, s + si->ofs_shaders + i * SHADER_BYTES, GN_MD3_NAME_MAX);
        for (uint32_t i = 0; i < 3 * si->triangles; i++)
            out->indices[i] = rd32(s + si->ofs_triangles + 4 * i);
        for (uint32_t i = 0; i < 2 * si->verts; i++) out->texcoords[i] = rdf32(s + si->ofs_st + 4 * i);
        for (uint64_t i = 0; i < (uint64_t)si->verts * ps->frames; i++) {
            const uint8_t *v = s + si->ofs_xyzn + i * XYZN_BYTES;
            for (int j = 0; j < 3; j++) out->positions[3 * i + j] = rdi16(v + 2 * j) * GN_MD3_XYZ_SCALE;
            gn_md3_decode_normal((uint16_t)(v[6] | v[7] << 8), &out->normals[3 * i]);
        }
    }
}

gn_result gn_md3_parse(const uint8_t *data, size_t size, const char *name, gn_md3 **out, gn_error *err)
{
    *out = NULL;
    parser pa = {.data = data, .name = name ? name : "md3", .err = err}, *ps = &pa;
    gn_result r = data || !size ? check_header(ps, size) : bad(ps, "no data");
    if (!r) r = check_frames_tags(ps);
    uint64_t next = ps->end;
    if (!r && ps->surfaces) {
        int32_t ofs = rdi32(data + 100);
        if (ofs < 0 || (uint64_t)ofs > ps->end)
            r = bad(ps, "ofsSurfaces %d outside the file's ofsEnd %llu", ofs, (unsigned long long)ps->end);
        next = (uint64_t)ofs;
    }
    for (uint32_t k = 0; !r && k < ps->surfaces; k++) {
        ps->surf[k].start = next;
        r = check_surface(ps, k, &next);
    }
    if (r) return r;
    carve c = {0};
    layout(ps, &c, NULL);
    uint8_t *block = c.used <= SIZE_MAX ? gn_calloc(1, (size_t)c.used) : NULL;
    if (!block)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for the model's %llu bytes", ps->name,
                       (unsigned long long)c.used);
    c = (carve){.base = block};
    gn_md3 *m;
    layout(ps, &c, &m);
    fill(ps, m);
    *out = m;
    return GN_OK;
}

void gn_md3_free(gn_md3 *m) { free(m); }

int32_t gn_md3_tag_index(const gn_md3 *m, const char *name)
{
    for (uint32_t t = 0; m && name && t < m->tag_count; t++)
        if (strcmp(m->tags[t].name, name) == 0) return (int32_t)t;
    return -1;
}

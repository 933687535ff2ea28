/* The malformed-map corpus: variants of the synthetic map (bsp_writer.h) that each break one
 * rule of the format. Each is written to the directory named by argv[1] (the build tree, so
 * the files can seed the fuzzer: tests/fuzz/CMakeLists.txt) and run through gn_bsp_parse and
 * gn_bsp_triangulate from an exactly sized heap copy, so that a sanitizer build catches any
 * read past the end. Every variant must give GN_ERROR_BAD_DATA with a message naming the file;
 * the unbroken map must load. */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include "bsp_writer.h"
#include "check.h"
#include "formats/bsp.h"

enum {
    L_ENT,
    L_TEX,
    L_PLANE,
    L_NODE,
    L_LEAF,
    L_LEAFFACE,
    L_LEAFBRUSH,
    L_MODEL,
    L_BRUSH,
    L_SIDE,
    L_VERT,
    L_MESHVERT,
    L_EFFECT,
    L_FACE,
    L_LIGHTMAP,
    L_LIGHTVOL,
    L_VIS
};

typedef struct variant {
    const char *name;
    int lump, rec, fld; /* lump field to overwrite; lump < 0: none */
    int32_t value;
    int hdr_lump;             /* header entry to overwrite; < 0: none */
    int64_t hdr_off, hdr_len; /* < -0x100000000: keep */
    int64_t truncate;         /* > 0: file size; else keep */
    gn_bsp_limits lim;
} variant;

#define KEEP (-0x200000000LL)
#define F(n, l, r, f, v)                                                                                     \
    {                                                                                                        \
        n, l, r, f, v, -1, KEEP, KEEP, 0, { 0 }                                                              \
    }
#define H(n, l, o, s)                                                                                        \
    {                                                                                                        \
        n, -1, 0, 0, 0, l, o, s, 0, { 0 }                                                                    \
    }

static const variant variants[] = {
    F("valid", -1, 0, 0, 0),
    /* header */
    H("bad magic", -2, 0, 0),
    H("version 45", -3, 45, 0),
    H("version 47", -3, 47, 0),
    H("version -1", -3, -1, 0),
    H("faces offset past the end", L_FACE, 0x7fffff00, KEEP),
    H("lightmaps length past the end", L_LIGHTMAP, KEEP, 49152 * 2000),
    H("offset+length past 2^31", L_VERT, 0x7ffffff0, 0x7ffffff0),
    H("offset+length wraps 32 bits", L_MESHVERT, 0x7fffffff, 0x7fffffff),
    H("negative length", L_FACE, KEEP, -104),
    H("negative offset", L_TEX, -72, KEEP),
    H("length wraps to negative", L_PLANE, 100, 0xffffff9c),
    H("faces not whole records", L_FACE, KEEP, 104 * 5 - 4),
    H("vertexes not whole records", L_VERT, KEEP, 44 * 20 + 4),
    H("textures not whole records", L_TEX, KEEP, 71),
    H("lightmaps not whole records", L_LIGHTMAP, KEEP, 49151),
    H("lightvols not whole records", L_LIGHTVOL, KEEP, 7),
    H("visdata shorter than its header", L_VIS, KEEP, 4),
    /* caps */
    {"vertices over the limit", -1, 0, 0, 0, -1, KEEP, KEEP, 0, {.vertices = 20}},
    {"textures over the limit", -1, 0, 0, 0, -1, KEEP, KEEP, 0, {.textures = 1}},
    {"entities over the limit", -1, 0, 0, 0, -1, KEEP, KEEP, 0, {.entity_bytes = 16}},
    {"patch over the size limit", -1, 0, 0, 0, -1, KEEP, KEEP, 0, {.patch_size = 1}},
    {"triangulation over the vertex limit", -1, 0, 0, 0, -1, KEEP, KEEP, 0, {.mesh_vertices = 50}},
    {"triangulation over the index limit", -1, 0, 0, 0, -1, KEEP, KEEP, 0, {.mesh_indices = 100}},
    /* faces */
    F("face texture out of range", L_FACE, 0, 0, 2),
    F("face texture negative", L_FACE, 1, 0, -1),
    /* face effect indices past the effects lump are read as "none", not refused: shipped maps
     * (openarena's aggressor) carry them, and effects are not drawn (test_bsp checks it) */
    F("face type 0", L_FACE, 0, 2, 0),
    F("face type 5", L_FACE, 0, 2, 5),
    F("face vertex range past the end", L_FACE, 0, 3, 18),
    F("face vertex count past the end", L_FACE, 3, 4, 100),
    F("face vertex count negative", L_FACE, 0, 4, -4),
    F("face first vertex negative", L_FACE, 0, 3, -1),
    F("face vertex range wraps", L_FACE, 0, 4, 0x7fffffff),
    F("face meshvert range past the end", L_FACE, 1, 5, 10),
    F("face meshvert count negative", L_FACE, 1, 6, -3),
    F("face meshverts not whole triangles", L_FACE, 0, 6, 5),
    F("meshvert outside its face's vertices", L_MESHVERT, 2, 0, 4),
    F("meshvert negative", L_MESHVERT, 7, 0, -1),
    F("meshvert huge", L_MESHVERT, 0, 0, 0x7fffffff),
    F("face lightmap out of range", L_FACE, 0, 7, 1),
    F("face lightmap -5", L_FACE, 0, 7, -5),
    F("patch width even", L_FACE, 2, 24, 4),
    F("patch width 1", L_FACE, 2, 24, 1),
    F("patch height 1", L_FACE, 2, 25, 1),
    F("patch width huge", L_FACE, 2, 24, 99999),
    F("patch width negative", L_FACE, 2, 24, -3),
    F("patch height 0", L_FACE, 2, 25, 0),
    F("patch size does not match its vertices", L_FACE, 2, 25, 5),
    F("patch vertex count 0", L_FACE, 2, 4, 0),
    F("face normal NaN", L_FACE, 0, 21, 0x7fc00000),
    /* vertices, planes */
    F("vertex position NaN", L_VERT, 3, 1, 0x7fc00000),
    F("vertex normal infinite", L_VERT, 5, 8, 0x7f800000),
    F("plane distance infinite", L_PLANE, 1, 3, (int32_t)0xff800000u),
    /* leaves */
    F("leafface out of range", L_LEAFFACE, 3, 0, 5),
    F("leafface negative", L_LEAFFACE, 0, 0, -1),
    F("leaf leafface range past the end", L_LEAF, 1, 8, 4),
    F("leaf leafface count negative", L_LEAF, 0, 9, -1),
    F("leaf leafface count huge", L_LEAF, 0, 9, 0x7fffffff),
    F("leaf leafbrush range past the end", L_LEAF, 1, 11, 2),
    F("leaf cluster past the PVS", L_LEAF, 0, 0, 2),
    F("leaf cluster -2", L_LEAF, 0, 0, -2),
    F("leaf area -2", L_LEAF, 0, 1, -2),
    F("leafbrush out of range", L_LEAFBRUSH, 0, 0, 1),
    /* nodes */
    F("node plane out of range", L_NODE, 0, 0, 2),
    F("node plane negative", L_NODE, 1, 0, -1),
    F("node child node out of range", L_NODE, 0, 1, 5),
    F("node child is itself", L_NODE, 0, 1, 0),
    F("node child points back (a cycle)", L_NODE, 1, 2, 0),
    F("node child leaf out of range", L_NODE, 1, 1, -4),
    F("node child INT32_MIN", L_NODE, 0, 2, INT32_MIN),
    /* models, brushes */
    F("model face range past the end", L_MODEL, 0, 6, 3),
    F("model face count negative", L_MODEL, 0, 7, -1),
    F("model brush range past the end", L_MODEL, 0, 9, 2),
    F("model bounds NaN", L_MODEL, 0, 4, 0x7fc00000),
    F("brush side range past the end", L_BRUSH, 0, 1, 2),
    F("brush texture out of range", L_BRUSH, 0, 2, 9),
    F("brushside plane out of range", L_SIDE, 0, 0, 2),
    F("brushside texture negative", L_SIDE, 0, 1, -1),
    /* visdata */
    F("visdata clusters past the lump", L_VIS, 0, 0, 3),
    F("visdata row size past the lump", L_VIS, 0, 1, 0x40000000),
    F("visdata product wraps 32 bits", L_VIS, 0, 0, 0x10000),
    F("visdata negative clusters", L_VIS, 0, 0, -2),
    F("visdata negative row size", L_VIS, 0, 1, -4),
    F("visdata rows too short for the clusters", L_VIS, 0, 1, 0),
    /* fogs (lump 12: a record is added, then one field overwritten; field 16 the brush, 17 the side) */
    F("fog brush out of range", L_EFFECT, 0, 16, 1),
    F("fog brush negative", L_EFFECT, 0, 16, -1),
    F("fog visible side past its brush's", L_EFFECT, 0, 17, 1),
    F("fog visible side below -1", L_EFFECT, 0, 17, -2),
    F("fog shader name not NUL-terminated", L_EFFECT, -1, 0, 0),
    /* entities */
    F("entities not NUL-terminated", L_ENT, -1, 0, 0),
};
#define VARIANTS (sizeof variants / sizeof variants[0])
#define TRUNCATIONS 30 /* 8 in the header, 17 mid-lump, 4 spread, 1 at size - 1 */

static void put32(uint8_t *p, int64_t v) { tm_put32(p, (uint32_t)v); }

/* The file of variant i (or, past the table, truncation number i - VARIANTS). */
static uint8_t *build(size_t i, size_t *size, const variant **v_out)
{
    static variant trunc = {NULL, -1, 0, 0, 0, -1, KEEP, KEEP, 0, {0}}; /* shared by the cuts */
    tmap m;
    tm_build(&m, 16.0f);
    const variant *v = i < VARIANTS ? &variants[i] : &trunc;
    if (v->lump == L_EFFECT) {
        /* one fog on brush 0 (one side), seen through that side, then the variant's change */
        free(m.lump[L_EFFECT]); /* the synthetic map's own, all zeros */
        tm_alloc(&m, L_EFFECT, 1);
        memset(m.lump[L_EFFECT], v->rec == -1 ? 'f' : 0, 64);
        if (v->rec != -1) memcpy(m.lump[L_EFFECT], "textures/sfx/fog", 16);
        if (v->rec != -1) tm_i32(&m, L_EFFECT, 0, (uint32_t)v->fld, v->value);
    } else if (v->lump == L_ENT && v->rec == -1) {
        m.lump[L_ENT][m.len[L_ENT] - 1] = ' ';
    } else if (v->lump >= 0) {
        tm_i32(&m, v->lump, (uint32_t)v->rec, (uint32_t)v->fld, v->value);
    }
    if (v->lump == L_VIS && v->rec == 0 && v->fld == 0 && v->value == 0x10000)
        tm_i32(&m, L_VIS, 0, 1, 0x10000);
    uint8_t *d = tm_serialize(&m, size);
    tm_free(&m);
    if (v->hdr_lump == -2) memcpy(d, "IBSX", 4);
    if (v->hdr_lump == -3) put32(d + 4, v->hdr_off);
    if (v->hdr_lump >= 0) {
        if (v->hdr_off != KEEP) put32(d + 8 + 8 * v->hdr_lump, v->hdr_off);
        if (v->hdr_len != KEEP) put32(d + 12 + 8 * v->hdr_lump, v->hdr_len);
    }
    if (i >= VARIANTS) {
        /* Cut inside the header, in the middle of each lump, then at a spread of sizes and one
         * byte short; the visdata lump ends the file, so every cut breaks some lump. */
        size_t k = i - VARIANTS;
        size_t cut = k == TRUNCATIONS - 1 ? *size - 1 : (*size * k) / (TRUNCATIONS - 1);
        if (k >= 8 && k < 8 + TM_LUMPS) {
            const uint8_t *e = d + 8 + 8 * (k - 8);
            cut = (e[0] | (size_t)e[1] << 8 | (size_t)e[2] << 16) +
                  (e[4] | (size_t)e[5] << 8 | (size_t)e[6] << 16) / 2;
        }
        static const size_t fixed[] = {0, 1, 4, 7, 8, 100, 143, 144};
        if (k < sizeof fixed / sizeof fixed[0]) cut = fixed[k];
        static char names[TRUNCATIONS][48];
        snprintf(names[k], sizeof names[k], "truncated to %zu bytes", cut);
        trunc.name = names[k];
        *size = cut;
    }
    *v_out = v;
    return d;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    if (dir) mkdir(dir, 0777); /* may exist already */
    uint32_t refused = 0;
    for (size_t i = 0; i < VARIANTS + TRUNCATIONS; i++) {
        size_t size;
        const variant *v;
        uint8_t *full = build(i, &size, &v);
        char name[64], path[1024];
        snprintf(name, sizeof name, "maps/corpus_%03zu.bsp", i);
        if (dir) {
            snprintf(path, sizeof path, "%s/corpus_%03zu.bsp", dir, i);
            FILE *fp = fopen(path, "wb");
            CHECK(fp != NULL, "cannot write %s", path);
            if (fp) fwrite(full, 1, size, fp), fclose(fp);
        }
        /* an exactly sized copy: one byte more read is a heap overflow under ASan */
        uint8_t *d = malloc(size ? size : 1);
        memcpy(d, full, size);
        free(full);
        gn_bsp b;
        gn_bsp_mesh mesh = {0};
        gn_error err = {0};
        gn_bsp_triangulate_desc desc = {.limits = &v->lim};
        gn_result r = gn_bsp_parse(d, size, name, &v->lim, &b, &err);
        bool parsed = r == GN_OK;
        if (parsed) r = gn_bsp_triangulate(&b, &desc, &mesh, &err);
        free(d);
        if (i == 0) {
            CHECK(r == GN_OK, "the valid map fails: %s", err.message);
            CHECK(mesh.index_count > 0, "the valid map has no triangles");
        } else {
            CHECK(r == GN_ERROR_BAD_DATA, "%s (%s): result %d, want GN_ERROR_BAD_DATA", name, v->name,
                  (int)r);
            CHECK(strncmp(err.message, name, strlen(name)) == 0 && strlen(err.message) > strlen(name) + 4,
                  "%s (%s): message '%s' does not name the file and a problem", name, v->name, err.message);
            if (!parsed)
                CHECK(b.faces == NULL && b.vertices == NULL && b.face_count == 0,
                      "%s: a failed parse left data", name);
            if (r == GN_ERROR_BAD_DATA) refused++;
            printf("%-44s %s\n", v->name, err.message);
        }
        gn_bsp_mesh_free(&mesh);
        gn_bsp_free(&b);
    }
    printf("%u of %zu malformed maps refused\n", refused, VARIANTS + TRUNCATIONS - 1);
    CHECK(refused == VARIANTS + TRUNCATIONS - 1, "%u refused", refused);
    return gn_check_exit();
}

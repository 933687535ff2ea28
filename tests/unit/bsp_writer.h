/* A tiny Quake 3 map built in memory for the BSP tests (test_bsp, test_bsp_vis, bsp_corpus).
 * Quake coordinates (Z up, units); two rooms split by the plane x = 0:
 *   leaf 0, cluster 0: 0 <= x < 512     faces 0 (floor polygon), 2 (patch), shared face 0
 *   leaf 1, cluster 1: x < 0            faces 1 (wall polygon), 3 (mesh triangle), 0 again
 *   leaf 2, cluster -1 (solid): x >= 512
 * node 0 splits at x = 0 (front: node 1, back: leaf 1); node 1 at x = 512 (front: leaf 2,
 * back: leaf 0). PVS: cluster 0 sees only itself; cluster 1 sees 0 and 1. Face 4 is a
 * billboard. Every lump is present so that each can be corrupted. */
#ifndef GN_TESTS_BSP_WRITER_H
#define GN_TESTS_BSP_WRITER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TM_LUMPS 17
#define TM_HEADER (8 + 8 * TM_LUMPS)

typedef struct tmap {
    uint8_t *lump[TM_LUMPS];
    uint32_t len[TM_LUMPS];
} tmap;

static const uint32_t tm_record[TM_LUMPS] = {1, 72, 16, 36, 48, 4, 4, 40, 12, 8, 44, 4, 72, 104, 49152, 8, 1};

static void tm_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void tm_alloc(tmap *m, int lump, uint32_t records)
{
    m->len[lump] = records * tm_record[lump];
    m->lump[lump] = calloc(m->len[lump] ? m->len[lump] : 1, 1);
}

static void tm_i32(tmap *m, int lump, uint32_t rec, uint32_t fld, int32_t v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    tm_put32(m->lump[lump] + rec * tm_record[lump] + 4 * fld, u);
}

static void tm_f32(tmap *m, int lump, uint32_t rec, uint32_t fld, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    tm_put32(m->lump[lump] + rec * tm_record[lump] + 4 * fld, u);
}

static void tm_free(tmap *m)
{
    for (int i = 0; i < TM_LUMPS; i++) free(m->lump[i]);
    memset(m, 0, sizeof *m);
}

static void tm_vertex(tmap *m, uint32_t i, float x, float y, float z, float nx, float ny, float nz)
{
    float f[10] = {x, y, z, x / 64.0f, y / 64.0f, 0.25f, 0.75f, nx, ny, nz};
    for (uint32_t k = 0; k < 10; k++) tm_f32(m, 10, i, k, f[k]);
    tm_i32(m, 10, i, 10, (int32_t)0xff8040c0u);
}

/* type, texture, first vertex, count, first meshvert, count, lightmap, normal, patch w, h */
static void tm_face(tmap *m, uint32_t i, int32_t type, int32_t tex, int32_t v, int32_t nv, int32_t mv,
                    int32_t nmv, int32_t lm, const float n[3], int32_t pw, int32_t ph)
{
    int32_t f[8] = {tex, -1, type, v, nv, mv, nmv, lm};
    for (uint32_t k = 0; k < 8; k++) tm_i32(m, 13, i, k, f[k]);
    for (uint32_t k = 0; k < 3; k++) tm_f32(m, 13, i, 21 + k, n[k]);
    tm_i32(m, 13, i, 24, pw);
    tm_i32(m, 13, i, 25, ph);
}

/* The patch's 3x3 control points: flat at z = bulge == 0, else the middle one is raised. */
static void tm_build(tmap *m, float bulge)
{
    memset(m, 0, sizeof *m);
    const char *ents =
        "{\n\"classname\" \"worldspawn\"\n\"message\" \"test\"\n}\n"
        "{\n\"origin\" \"100 200 30\"\n\"classname\" \"info_player_deathmatch\"\n\"angle\" \"90\"\n}\n"
        "{\n\"classname\" \"light\"\n\"origin\" \"-64 32 128\"\n\"light\" \"450\"\n"
        "\"_color\" \"1 0.5 0.25\"\n}\n";
    m->len[0] = (uint32_t)strlen(ents) + 1;
    m->lump[0] = malloc(m->len[0]);
    memcpy(m->lump[0], ents, m->len[0]);

    tm_alloc(m, 1, 2);
    strcpy((char *)m->lump[1], "textures/base/floor");
    strcpy((char *)m->lump[1] + 72, "textures/base/wall");
    tm_i32(m, 1, 1, 17, 1); /* contents of texture 1 */

    tm_alloc(m, 2, 2); /* x = 0 and x = 512 */
    tm_f32(m, 2, 0, 0, 1.0f);
    tm_f32(m, 2, 1, 0, 1.0f);
    tm_f32(m, 2, 1, 3, 512.0f);

    tm_alloc(m, 3, 2);
    int32_t nodes[2][9] = {{0, 1, -2, -1024, -1024, -64, 1024, 1024, 512},
                           {1, -3, -1, 0, -1024, -64, 1024, 1024, 512}};
    for (uint32_t i = 0; i < 2; i++)
        for (uint32_t k = 0; k < 9; k++) tm_i32(m, 3, i, k, nodes[i][k]);

    tm_alloc(m, 4, 3); /* cluster, area, mins, maxs, leafface, n, leafbrush, n */
    int32_t leaves[3][12] = {{0, 0, 0, -1024, -64, 512, 1024, 512, 0, 2, 0, 0},
                             {1, 0, -1024, -1024, -64, 0, 1024, 512, 2, 3, 0, 1},
                             {-1, -1, 512, -1024, -64, 1024, 1024, 512, 5, 0, 0, 0}};
    for (uint32_t i = 0; i < 3; i++)
        for (uint32_t k = 0; k < 12; k++) tm_i32(m, 4, i, k, leaves[i][k]);

    tm_alloc(m, 5, 5);
    int32_t lf[5] = {0, 2, 1, 3, 0};
    for (uint32_t i = 0; i < 5; i++) tm_i32(m, 5, i, 0, lf[i]);

    tm_alloc(m, 6, 1); /* leafbrush 0 -> brush 0 */

    tm_alloc(m, 7, 1);
    float mm[6] = {-1024, -1024, -64, 1024, 1024, 512};
    for (uint32_t k = 0; k < 6; k++) tm_f32(m, 7, 0, k, mm[k]);
    tm_i32(m, 7, 0, 6, 0);
    tm_i32(m, 7, 0, 7, 5);
    tm_i32(m, 7, 0, 9, 1);

    tm_alloc(m, 8, 1); /* brush: side 0, 1 side, texture 0 */
    tm_i32(m, 8, 0, 1, 1);
    tm_alloc(m, 9, 1); /* brushside: plane 0, texture 0 */

    tm_alloc(m, 10, 4 + 4 + 9 + 3 + 1);
    /* face 0: floor at z = 0, front +Z; Q3 order is clockwise seen from above */
    tm_vertex(m, 0, 64, 0, 0, 0, 0, 1);
    tm_vertex(m, 1, 64, 256, 0, 0, 0, 1);
    tm_vertex(m, 2, 448, 256, 0, 0, 0, 1);
    tm_vertex(m, 3, 448, 0, 0, 0, 0, 1);
    /* face 1: wall at x = -256 facing +X, clockwise seen from +X */
    tm_vertex(m, 4, -256, 0, 0, 1, 0, 0);
    tm_vertex(m, 5, -256, 0, 128, 1, 0, 0);
    tm_vertex(m, 6, -256, 256, 128, 1, 0, 0);
    tm_vertex(m, 7, -256, 256, 0, 1, 0, 0);
    /* face 2: a 3x3 patch over x 128..384, y 300..556, z 64 (+bulge in the middle) */
    for (uint32_t j = 0; j < 3; j++)
        for (uint32_t i = 0; i < 3; i++)
            tm_vertex(m, 8 + j * 3 + i, 128.0f + 128.0f * (float)i, 300.0f + 128.0f * (float)j,
                      64.0f + (i == 1 && j == 1 ? bulge : 0.0f), 0, 0, 1);
    /* face 3: one triangle in room 1, facing +Z */
    tm_vertex(m, 17, -200, 0, 16, 0, 0, 1);
    tm_vertex(m, 18, -200, 100, 16, 0, 0, 1);
    tm_vertex(m, 19, -100, 0, 16, 0, 0, 1);
    tm_vertex(m, 20, -150, 50, 100, 0, 0, 1); /* face 4: billboard */

    tm_alloc(m, 11, 12);
    int32_t mv[12] = {0, 1, 2, 0, 2, 3, 0, 1, 2, 0, 2, 3};
    for (uint32_t i = 0; i < 12; i++) tm_i32(m, 11, i, 0, mv[i]);
    /* face 3's meshverts reuse the first three: (0, 1, 2) over its own vertices */

    tm_alloc(m, 12, 1);
    strcpy((char *)m->lump[12], "fog");

    tm_alloc(m, 13, 5);
    const float up[3] = {0, 0, 1}, px[3] = {1, 0, 0};
    tm_face(m, 0, 1, 0, 0, 4, 0, 6, 0, up, 0, 0);
    tm_face(m, 1, 1, 1, 4, 4, 6, 6, -1, px, 0, 0);
    tm_face(m, 2, 2, 0, 8, 9, 0, 0, -3, up, 3, 3);
    tm_face(m, 3, 3, 1, 17, 3, 0, 3, -1, up, 0, 0);
    tm_face(m, 4, 4, 0, 20, 1, 0, 0, -1, up, 0, 0);

    tm_alloc(m, 14, 1);
    for (uint32_t i = 0; i < 49152; i++) m->lump[14][i] = (uint8_t)(i * 7);
    tm_alloc(m, 15, 2);
    m->lump[15][0] = 9;

    /* visdata: 2 clusters, rows of 4 bytes (more than the 1 byte needed, to test the stride) */
    m->len[16] = 8 + 2 * 4;
    m->lump[16] = calloc(m->len[16], 1);
    tm_put32(m->lump[16], 2);
    tm_put32(m->lump[16] + 4, 4);
    m->lump[16][8] = 0x01;  /* cluster 0 sees 0 */
    m->lump[16][12] = 0x03; /* cluster 1 sees 0 and 1 */
}

/* The file: header, then the lumps in order, each 4-byte aligned. malloc'd; *size set. */
static uint8_t *tm_serialize(const tmap *m, size_t *size)
{
    size_t total = TM_HEADER;
    for (int i = 0; i < TM_LUMPS; i++) total += (m->len[i] + 3u) & ~3u;
    uint8_t *d = calloc(total, 1);
    memcpy(d, "IBSP", 4);
    tm_put32(d + 4, 46);
    size_t at = TM_HEADER;
    for (int i = 0; i < TM_LUMPS; i++) {
        tm_put32(d + 8 + 8 * i, (uint32_t)at);
        tm_put32(d + 12 + 8 * i, m->len[i]);
        if (m->len[i]) memcpy(d + at, m->lump[i], m->len[i]);
        at += (m->len[i] + 3u) & ~3u;
    }
    *size = total;
    return d;
}

#endif

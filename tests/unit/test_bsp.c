/* Quake 3 BSP parsing, the frame conversion, winding, patch tessellation and entities, on the
 * synthetic map of bsp_writer.h. A real map can be checked by hand: unzip one from OpenArena's
 * pak1-maps.pk3 (e.g. `unzip -o /usr/share/games/openarena/baseoa/pak1-maps.pk3
 * maps/oa_dm1.bsp -d /tmp/oa`) and run `unit_bsp /tmp/oa/maps/oa_dm1.bsp`: it parses and
 * triangulates it, checks the winding against the face normals and prints counts. */
#include <math.h>
#include <stdio.h>

#include "bsp_writer.h"
#include "check.h"
#include "formats/bsp.h"

#define U GN_BSP_UNIT
#define EPS 1e-5f

static gn_result parse_map(float bulge, gn_bsp *b, gn_error *err)
{
    tmap m;
    tm_build(&m, bulge);
    size_t size;
    uint8_t *d = tm_serialize(&m, &size);
    gn_result r = gn_bsp_parse(d, size, "maps/test.bsp", NULL, b, err);
    free(d);
    tm_free(&m);
    return r;
}

static void tri_normal(const gn_bsp_mesh *m, const uint32_t *t, float n[3])
{
    const float *a = m->vertices[t[0]].pos, *b = m->vertices[t[1]].pos, *c = m->vertices[t[2]].pos;
    float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

static float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void test_parse(void)
{
    gn_bsp b;
    gn_error err = {0};
    gn_result r = parse_map(0.0f, &b, &err);
    CHECK(r == GN_OK, "parse: %s", err.message);
    if (r != GN_OK) return;
    CHECK(b.texture_count == 2 && b.plane_count == 2 && b.node_count == 2 && b.leaf_count == 3,
          "counts %u textures %u planes %u nodes %u leaves", b.texture_count, b.plane_count, b.node_count,
          b.leaf_count);
    CHECK(b.face_count == 5 && b.vertex_count == 21 && b.meshvert_count == 12 && b.leafface_count == 5,
          "counts %u faces %u vertices %u meshverts %u leaffaces", b.face_count, b.vertex_count,
          b.meshvert_count, b.leafface_count);
    CHECK(b.lightmap_count == 1 && b.lightmaps[100] == (uint8_t)700, "lightmaps %u", b.lightmap_count);
    CHECK(b.lightvol_count == 2 && b.lightvols[0] == 9, "lightvols %u", b.lightvol_count);
    CHECK(b.vis_clusters == 2 && b.vis_row_bytes == 4 && b.visdata[4] == 3, "vis %u x %u", b.vis_clusters,
          b.vis_row_bytes);
    CHECK(strcmp(b.textures[1].name, "textures/base/wall") == 0 && b.textures[1].contents == 1,
          "texture 1 '%s' contents %d", b.textures[1].name, b.textures[1].contents);
    CHECK(b.faces[2].type == GN_BSP_FACE_PATCH && b.faces[2].patch_w == 3 && b.faces[2].patch_h == 3,
          "face 2 type %d %ux%u", b.faces[2].type, b.faces[2].patch_w, b.faces[2].patch_h);
    CHECK(b.faces[2].lightmap == -3 && b.faces[0].lightmap == 0, "lightmaps %d %d", b.faces[2].lightmap,
          b.faces[0].lightmap);
    CHECK(b.entities && strstr(b.entities, "worldspawn") && b.entities_len == strlen(b.entities),
          "entities length %u", b.entities_len);

    /* (x, y, z) -> (x, z, -y) * unit: Quake (64, 256, 0) and (-200, 0, 16) */
    const float *p1 = b.vertices[1].pos, *p17 = b.vertices[17].pos;
    CHECK(fabsf(p1[0] - 64 * U) < EPS && fabsf(p1[1]) < EPS && fabsf(p1[2] + 256 * U) < EPS,
          "vertex 1 at (%g, %g, %g), want (%g, 0, %g)", p1[0], p1[1], p1[2], 64 * U, -256 * U);
    CHECK(fabsf(p17[0] + 200 * U) < EPS && fabsf(p17[1] - 16 * U) < EPS && fabsf(p17[2]) < EPS,
          "vertex 17 at (%g, %g, %g)", p17[0], p17[1], p17[2]);
    /* normals rotate without scale: Quake +Z is up (+Y), Quake +X stays +X */
    CHECK(fabsf(b.vertices[0].normal[1] - 1) < EPS && fabsf(b.faces[1].normal[0] - 1) < EPS,
          "normals (%g %g %g), face 1 (%g %g %g)", b.vertices[0].normal[0], b.vertices[0].normal[1],
          b.vertices[0].normal[2], b.faces[1].normal[0], b.faces[1].normal[1], b.faces[1].normal[2]);
    CHECK(b.vertices[0].color[0] == 0xc0 && b.vertices[0].color[3] == 0xff, "colour %u %u",
          b.vertices[0].color[0], b.vertices[0].color[3]);
    CHECK(fabsf(b.planes[1].dist - 512 * U) < EPS && fabsf(b.planes[1].normal[0] - 1) < EPS, "plane 1 %g",
          b.planes[1].dist);
    /* Boxes: Quake y in [-1024, 1024] becomes z in [-1024, 1024] * unit with min and max swapped */
    const gn_bsp_leaf *l0 = &b.leaves[0];
    CHECK(fabsf(l0->mins[1] + 64 * U) < EPS && fabsf(l0->maxs[1] - 512 * U) < EPS &&
              fabsf(l0->mins[2] + 1024 * U) < EPS && fabsf(l0->maxs[2] - 1024 * U) < EPS &&
              l0->mins[0] < l0->maxs[0],
          "leaf 0 box (%g %g %g)..(%g %g %g)", l0->mins[0], l0->mins[1], l0->mins[2], l0->maxs[0],
          l0->maxs[1], l0->maxs[2]);
    gn_bsp_free(&b);
    CHECK(b.faces == NULL && b.face_count == 0, "free zeroes");
    gn_bsp_free(&b); /* twice is fine */
}

static void test_winding(void)
{
    gn_bsp b;
    gn_error err = {0};
    if (parse_map(0.0f, &b, &err) != GN_OK) return;
    gn_bsp_mesh m;
    gn_result r = gn_bsp_triangulate(&b, NULL, &m, &err);
    CHECK(r == GN_OK, "triangulate: %s", err.message);
    if (r != GN_OK) return gn_bsp_free(&b);
    /* default level 8: a 3x3 patch is 81 vertices and 8*8*2 triangles */
    CHECK(m.vertex_count == 21 + 81, "mesh vertices %u, want 102", m.vertex_count);
    CHECK(m.faces[0].index_count == 6 && m.faces[1].index_count == 6 && m.faces[3].index_count == 3 &&
              m.faces[2].index_count == 384 && m.faces[4].index_count == 0,
          "face index counts %u %u %u %u %u", m.faces[0].index_count, m.faces[1].index_count,
          m.faces[2].index_count, m.faces[3].index_count, m.faces[4].index_count);
    CHECK(m.index_count == 6 + 6 + 384 + 3, "index count %u", m.index_count);
    for (uint32_t f = 0; f < b.face_count; f++) {
        if (b.faces[f].type != GN_BSP_FACE_POLYGON && b.faces[f].type != GN_BSP_FACE_MESH) continue;
        for (uint32_t k = 0; k < m.faces[f].index_count; k += 3) {
            float n[3];
            tri_normal(&m, &m.indices[m.faces[f].first_index + k], n);
            CHECK(dot3(n, b.faces[f].normal) > 0, "face %u triangle %u faces away from its normal (%g)", f,
                  k / 3, dot3(n, b.faces[f].normal));
        }
    }
    /* the first triangle of face 0 is Q3's (0, 1, 2) reversed */
    CHECK(m.indices[0] == 0 && m.indices[1] == 2 && m.indices[2] == 1, "face 0 triangle (%u %u %u)",
          m.indices[0], m.indices[1], m.indices[2]);
    /* masks: only polygons */
    gn_bsp_mesh m2;
    gn_bsp_triangulate_desc d = {.face_mask = GN_BSP_MASK_POLYGON};
    r = gn_bsp_triangulate(&b, &d, &m2, &err);
    CHECK(r == GN_OK && m2.index_count == 12 && m2.vertex_count == 21, "polygons only: %u indices",
          m2.index_count);
    /* determinism */
    gn_bsp_mesh m3;
    gn_bsp_triangulate(&b, NULL, &m3, &err);
    CHECK(m3.index_count == m.index_count && memcmp(m3.indices, m.indices, m.index_count * 4) == 0 &&
              memcmp(m3.vertices, m.vertices, m.vertex_count * sizeof *m.vertices) == 0,
          "two triangulations differ");
    gn_bsp_mesh_free(&m3);
    gn_bsp_mesh_free(&m2);
    gn_bsp_mesh_free(&m);
    gn_bsp_free(&b);
}

static void check_patch(float bulge, uint32_t level)
{
    gn_bsp b;
    gn_error err = {0};
    if (parse_map(bulge, &b, &err) != GN_OK) return;
    gn_bsp_mesh m;
    gn_bsp_triangulate_desc d = {.patch_level = level};
    if (gn_bsp_triangulate(&b, &d, &m, &err) != GN_OK) {
        CHECK(0, "triangulate: %s", err.message);
        return gn_bsp_free(&b);
    }
    uint32_t first = b.vertex_count, n = m.vertex_count - first;
    CHECK(n == (level + 1) * (level + 1), "bulge %g level %u: %u patch vertices, want %u", bulge, level, n,
          (level + 1) * (level + 1));
    CHECK(m.faces[2].index_count == level * level * 6, "patch indices %u", m.faces[2].index_count);
    float lo = 64 * U, hi = (64 + bulge) * U, maxy = -1e9f;
    for (uint32_t i = first; i < m.vertex_count; i++) {
        const float *p = m.vertices[i].pos;
        /* the control hull: x 128..384, z -556..-300 (Quake y), y between 64 and 64 + bulge */
        CHECK(p[0] >= 128 * U - EPS && p[0] <= 384 * U + EPS && p[2] >= -556 * U - EPS &&
                  p[2] <= -300 * U + EPS && p[1] >= lo - EPS && p[1] <= hi + EPS,
              "patch vertex %u (%g %g %g) outside the control hull", i, p[0], p[1], p[2]);
        if (p[1] > maxy) maxy = p[1];
        CHECK(fabsf(dot3(m.vertices[i].normal, m.vertices[i].normal) - 1) < 1e-4f, "normal not unit");
        CHECK(m.vertices[i].normal[1] > 0.5f, "patch normal (%g %g %g) not up", m.vertices[i].normal[0],
              m.vertices[i].normal[1], m.vertices[i].normal[2]);
    }
    /* a raised middle control point lifts the centre by a quarter of its height (weights 1/2 * 1/2) */
    if (level % 2 == 0) {
        const float *c = m.vertices[first + (level / 2) * (level + 1) + level / 2].pos;
        CHECK(fabsf(c[1] - (64 + bulge / 4) * U) < 1e-5f, "centre at y %g, want %g", c[1],
              (64 + bulge / 4) * U);
        CHECK(fabsf(maxy - c[1]) < 1e-6f, "highest point %g is not the centre %g", maxy, c[1]);
    }
    /* every triangle counter-clockwise seen from above (the normals' side) */
    for (uint32_t k = 0; k < m.faces[2].index_count; k += 3) {
        float tn[3];
        tri_normal(&m, &m.indices[m.faces[2].first_index + k], tn);
        CHECK(tn[1] > 0, "patch triangle %u winds clockwise (normal y %g)", k / 3, tn[1]);
    }
    gn_bsp_mesh_free(&m);
    gn_bsp_free(&b);
}

/* A 5x3 patch is two pieces; their shared edge must be bit-identical (no cracks). */
static void test_patch_pieces(void)
{
    gn_bsp_vertex ctrl[15] = {0};
    for (uint32_t j = 0; j < 3; j++)
        for (uint32_t i = 0; i < 5; i++) {
            gn_bsp_vertex *v = &ctrl[j * 5 + i];
            v->pos[0] = 0.37f * (float)i, v->pos[2] = 0.51f * (float)j;
            v->pos[1] = 0.1f * sinf((float)(i * 3 + j));
            v->normal[1] = 1;
        }
    uint64_t nv, ni;
    gn_bsp_patch_counts(5, 3, 5, &nv, &ni);
    CHECK(nv == 72 && ni == 300, "5x3 at level 5: %llu vertices %llu indices, want 72, 300",
          (unsigned long long)nv, (unsigned long long)ni);
    gn_bsp_mesh_vertex v[72];
    uint32_t idx[300];
    gn_bsp_patch_tessellate(ctrl, 5, 3, 5, 100, v, idx);
    for (uint32_t j = 0; j <= 5; j++) {
        const float *a = v[j * 6 + 5].pos, *b = v[36 + j * 6].pos;
        CHECK(memcmp(a, b, 12) == 0, "edge row %u differs: (%g %g %g) vs (%g %g %g)", j, a[0], a[1], a[2],
              b[0], b[1], b[2]);
    }
    uint32_t lo = 1000, hi = 0;
    for (int i = 0; i < 300; i++) lo = idx[i] < lo ? idx[i] : lo, hi = idx[i] > hi ? idx[i] : hi;
    CHECK(lo == 100 && hi == 171, "indices span %u..%u, want 100..171", lo, hi);
}

static void test_entities(void)
{
    gn_bsp b;
    gn_error err = {0};
    if (parse_map(0.0f, &b, &err) != GN_OK) return;
    gn_bsp_entity e;
    CHECK(gn_bsp_entity_find(&b, "info_player_deathmatch", 0, &e), "spawn point not found");
    CHECK(e.has_origin && fabsf(e.origin[0] - 100 * U) < EPS && fabsf(e.origin[1] - 30 * U) < EPS &&
              fabsf(e.origin[2] + 200 * U) < EPS,
          "spawn origin (%g %g %g)", e.origin[0], e.origin[1], e.origin[2]);
    CHECK(e.has_angle && e.angle == 90 && e.yaw == 0, "angle %g yaw %g", e.angle, e.yaw);
    CHECK(!gn_bsp_entity_find(&b, "info_player_deathmatch", 1, &e), "a second spawn point");
    CHECK(gn_bsp_entity_find(&b, "light", 0, &e) && e.light == 450 && fabsf(e.color[1] - 0.5f) < EPS &&
              fabsf(e.origin[1] - 128 * U) < EPS,
          "light %g colour (%g %g %g)", e.light, e.color[0], e.color[1], e.color[2]);
    CHECK(gn_bsp_entity_find(&b, NULL, 2, &e) && strcmp(e.classname, "light") == 0, "entity 2 '%s'",
          e.classname);
    char msg[8];
    CHECK(gn_bsp_entity_value(&b, "worldspawn", 0, "message", msg, sizeof msg) && strcmp(msg, "test") == 0,
          "message '%s'", msg);
    float pos[3], yaw = 99;
    CHECK(gn_bsp_default_camera(&b, pos, &yaw) && fabsf(pos[1] - (30 + GN_BSP_EYE_HEIGHT) * U) < EPS &&
              yaw == 0,
          "camera y %g yaw %g", pos[1], yaw);
    gn_bsp_free(&b);

    /* malformed text: the reader stops at the bad block and never reads past the string */
    struct {
        const char *text;
        int spawns; /* info_player_start blocks found */
    } cases[] = {
        {"", 0},
        {"{ \"classname\" \"info_player_start\" }", 1},
        {"{ \"classname\" \"info_player_start\" } { \"classname\" \"info_player_start\"", 1},
        {"{ \"classname\" \"info_player_start\" } { \"classname\" \"info_player_start", 1},
        {"{ classname \"info_player_start\" }", 0},
        {"{ \"classname\" }", 0},
        {"}{", 0},
        {"{ \"origin\" \"1e400 0 0\" \"classname\" \"info_player_start\" }", 1},
        {"{{{{", 0},
        {"\"", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gn_bsp t = {0};
        char buf[128];
        snprintf(buf, sizeof buf, "%s", cases[i].text);
        t.entities = buf;
        t.entities_len = (uint32_t)strlen(buf);
        int found = 0;
        while (gn_bsp_entity_find(&t, "info_player_start", (uint32_t)found, &e)) found++;
        CHECK(found == cases[i].spawns, "case %zu '%s': %d spawns, want %d", i, cases[i].text, found,
              cases[i].spawns);
        if (i == 7) CHECK(!e.has_origin, "an overflowing origin was accepted");
    }
    gn_bsp none = {0};
    CHECK(!gn_bsp_default_camera(&none, pos, &yaw), "camera in an empty map");
}

/* The manual real-map check (see the file comment). */
static void check_real_map(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        printf("unit_bsp: %s not readable; real-map check skipped\n", path);
        return;
    }
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    size_t got = fread(data, 1, (size_t)(size > 0 ? size : 0), fp);
    fclose(fp);
    gn_bsp b;
    gn_error err = {0};
    gn_result r = gn_bsp_parse(data, got, path, NULL, &b, &err);
    free(data);
    CHECK(r == GN_OK, "%s", err.message);
    if (r != GN_OK) return;
    gn_bsp_mesh m;
    r = gn_bsp_triangulate(&b, NULL, &m, &err);
    CHECK(r == GN_OK, "%s", err.message);
    if (r == GN_OK) {
        uint32_t agree = 0, total = 0;
        for (uint32_t f = 0; f < b.face_count; f++) {
            if (b.faces[f].type != GN_BSP_FACE_POLYGON) continue;
            for (uint32_t k = 0; k < m.faces[f].index_count; k += 3, total++) {
                float n[3];
                tri_normal(&m, &m.indices[m.faces[f].first_index + k], n);
                agree += dot3(n, b.faces[f].normal) > 0;
            }
        }
        float pos[3] = {0}, yaw = 0;
        bool cam = gn_bsp_default_camera(&b, pos, &yaw);
        printf("%s: %u textures %u planes %u nodes %u leaves %u faces %u vertices %u lightmaps %u clusters\n"
               "  mesh: %u vertices %u triangles; polygon triangles facing their normal: %u of %u\n"
               "  camera %s (%.2f %.2f %.2f) yaw %.0f\n",
               path, b.texture_count, b.plane_count, b.node_count, b.leaf_count, b.face_count, b.vertex_count,
               b.lightmap_count, b.vis_clusters, m.vertex_count, m.index_count / 3, agree, total,
               cam ? "at" : "missing", pos[0], pos[1], pos[2], yaw);
        CHECK(agree >= total - total / 100, "only %u of %u polygon triangles face their normal", agree,
              total);
        gn_bsp_mesh_free(&m);
    }
    gn_bsp_free(&b);
}

/* Lump 12 (fogs): a fog record is kept with its brush, and the brush with its sides' planes. The
 * synthetic map's brush 0 has one side, on plane 0. */
static void test_fogs(void)
{
    tmap m;
    tm_build(&m, 0.0f);
    free(m.lump[12]); /* the synthetic map's own fog record is all zeros */
    tm_alloc(&m, 12, 1);
    memcpy(m.lump[12], "textures/sfx/fog", 17);
    tm_i32(&m, 12, 0, 16, 0);  /* brush 0 (field 16 is byte 64) */
    tm_i32(&m, 12, 0, 17, -1); /* no visible side */
    size_t size;
    uint8_t *d = tm_serialize(&m, &size);
    gn_bsp b;
    gn_error err = {0};
    gn_result r = gn_bsp_parse(d, size, "maps/fog.bsp", NULL, &b, &err);
    CHECK(r == GN_OK, "a fog refused: %s", err.message);
    if (r == GN_OK) {
        CHECK(b.fog_count == 1 && strcmp(b.fogs[0].shader, "textures/sfx/fog") == 0 && b.fogs[0].brush == 0 &&
                  b.fogs[0].visible_side == -1,
              "fog: %u, '%s', brush %u, side %d", b.fog_count, b.fog_count ? b.fogs[0].shader : "",
              b.fog_count ? b.fogs[0].brush : 0, b.fog_count ? b.fogs[0].visible_side : 0);
        CHECK(b.brush_count == 1 && b.brushes[0].first_side == 0 && b.brushes[0].side_count == 1 &&
                  b.brushside_count == 1 && b.brushsides[0].plane == 0,
              "brushes %u (sides %u), brushsides %u", b.brush_count,
              b.brush_count ? b.brushes[0].side_count : 0, b.brushside_count);
        gn_bsp_free(&b);
    }
    free(d);
    tm_free(&m);
}

/* Face effect indices the effects lump does not hold read as "none" (-1): shipped maps carry
 * them, and effects are not drawn. Lump 13 is the faces, field 1 a face's effect. */
static void test_stale_effect(void)
{
    for (int32_t bad = -2; bad <= 5; bad += 7) {
        tmap m;
        tm_build(&m, 0.0f);
        tm_i32(&m, 13, 0, 1, bad);
        size_t size;
        uint8_t *d = tm_serialize(&m, &size);
        gn_bsp b;
        gn_error err = {0};
        gn_result r = gn_bsp_parse(d, size, "maps/effect.bsp", NULL, &b, &err);
        CHECK(r == GN_OK, "effect %d refused: %s", bad, err.message);
        if (r == GN_OK) {
            CHECK(b.faces[0].effect == -1, "effect %d read as %d", bad, b.faces[0].effect);
            gn_bsp_free(&b);
        }
        free(d);
        tm_free(&m);
    }
}

int main(int argc, char **argv)
{
    test_stale_effect();
    test_fogs();
    test_parse();
    test_winding();
    check_patch(0.0f, 4);
    check_patch(0.0f, 8);
    check_patch(128.0f, 6);
    check_patch(-0.0f, 1);
    test_patch_pieces();
    test_entities();
    if (argc > 1) check_real_map(argv[1]);
    return gn_check_exit();
}

/* Quake 3 MD3 models and a player's text files (src/formats/md3.c, md3_anim.c, md3_player.c).
 * A synthetic model written here (2 frames, 1 tag, 1 surface: a quad) read back field by field,
 * its normals against values worked by hand from the lat/lng formula, its vertices and tag lerped
 * at 0.25 and a part attached to the tag as cgame does it; every truncation and each kind of
 * corruption refused with a message; a hand-written animation.cfg (header keywords, the LEGS
 * rule, a backwards clip, a partial loop) sampled at hand-worked times; .skin files. Then, where
 * OpenArena's data is installed, every player model's lower, upper and head .md3, its
 * animation.cfg checked against them and its .skin files; skipped with a line when it is not. */
#include "base/alloc.h"
#include "formats/md3.h"
#include "formats/md3_player.h"
#include "formats/pak.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NAME "models/test/quad.md3"
#define OA_FOLDER "/usr/share/games/openarena/baseoa"

/* ---- the synthetic model ----------------------------------------------------------------- */

/* Its layout (qfiles.h sizes): header 108, 2 frames of 56, 2 x 1 tags of 112, then the surface:
 * header 108, 1 shader of 68, 2 triangles of 12, 4 texcoords of 8, 2 x 4 vertices of 8. */
enum {
    FRAMES = 108,
    TAGS = 220,
    SURF = 444,
    S_SHADERS = 108,
    S_TRIS = 176,
    S_ST = 200,
    S_XYZN = 232,
    S_END = 296,
    MD3_SIZE = SURF + S_END,
};

/* Frame 1 moves every vertex by (4, -2, 8) units; stored in 1/64 units. */
static const int16_t quad_xyz[2][4][3] = {
    {{0, 0, 0}, {1024, 0, 0}, {1024, 1024, 0}, {0, 1024, 0}},
    {{256, -128, 512}, {1280, -128, 512}, {1280, 896, 512}, {256, 896, 512}},
};
/* (lat << 8) | lng; frame 0 all straight up */
static const uint16_t quad_normal[2][4] = {{0, 0, 0, 0},
                                           {64 << 8 | 64, 0 << 8 | 128, 200 << 8 | 30, 32 << 8 | 96}};
/* The frame 1 normals from (cos lat sin lng, sin lat sin lng, cos lng), byte * 2 pi / 255, by hand */
static const float quad_normal1[4][3] = {
    {-0.006159830f, 0.999962055f, -0.006159947f},
    {-0.012319660f, 0.0f, -0.999924110f},
    {0.144125786f, -0.658098456f, 0.739008917f},
    {0.493830684f, 0.496882082f, -0.713610154f},
};
/* normalise(0.75 (0, 0, 1) + 0.25 n1) for vertices 0 and 3 */
static const float quad_normal_q[2][3] = {{-0.001951519f, 0.316801753f, 0.948489768f},
                                          {0.206510967f, 0.207787005f, 0.956126446f}};

static void w32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void wi(uint8_t *p, int32_t v) { w32(p, (uint32_t)v); }
static void wf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    w32(p, u);
}
static void w16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void wname(uint8_t *p, const char *s) { memcpy(p, s, strlen(s) + 1); }

static void write_md3(uint8_t b[MD3_SIZE])
{
    memset(b, 0, MD3_SIZE);
    memcpy(b, "IDP3", 4);
    wi(b + 4, 15);
    wname(b + 8, NAME);
    const int32_t head[] = {0, 2, 1, 1, 0, FRAMES, TAGS, SURF, MD3_SIZE}; /* flags .. ofsEnd */
    for (int i = 0; i < 9; i++) wi(b + 72 + 4 * i, head[i]);
    for (int f = 0; f < 2; f++) {
        uint8_t *p = b + FRAMES + 56 * f;
        const float v[10] = {4.0f * f, -2.0f * f, 8.0f * f, 16 + 4.0f * f, 16 - 2.0f * f, 8.0f * f,
                             0,        0,         0,        12.0f + f};
        for (int i = 0; i < 10; i++) wf(p + 4 * i, v[i]);
        memcpy(p + 40, f ? "run\0leftover" : "stand", f ? 12 : 6); /* bytes after the NUL are ignored */
    }
    /* tag_torso: frame 0 at (0, 0, 10) unrotated, frame 1 at (4, 0, 14) turned 90 degrees about z */
    const float tag[2][12] = {{0, 0, 10, 1, 0, 0, 0, 1, 0, 0, 0, 1}, {4, 0, 14, 0, 1, 0, -1, 0, 0, 0, 0, 1}};
    for (int f = 0; f < 2; f++) {
        wname(b + TAGS + 112 * f, "tag_torso");
        for (int i = 0; i < 12; i++) wf(b + TAGS + 112 * f + 64 + 4 * i, tag[f][i]);
    }
    uint8_t *s = b + SURF;
    memcpy(s, "IDP3", 4);
    wname(s + 4, "quad");
    const int32_t sh[] = {0, 2, 1, 4, 2, S_TRIS, S_SHADERS, S_ST, S_XYZN, S_END}; /* flags .. ofsEnd */
    for (int i = 0; i < 10; i++) wi(s + 68 + 4 * i, sh[i]);
    wname(s + S_SHADERS, "textures/test/quad.tga");
    const int32_t tri[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; i++) wi(s + S_TRIS + 4 * i, tri[i]);
    const float st[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    for (int i = 0; i < 8; i++) wf(s + S_ST + 4 * i, st[i]);
    for (int f = 0; f < 2; f++)
        for (int v = 0; v < 4; v++) {
            uint8_t *p = s + S_XYZN + 8 * (4 * f + v);
            for (int i = 0; i < 3; i++) w16(p + 2 * i, (uint16_t)quad_xyz[f][v][i]);
            w16(p + 6, quad_normal[f][v]);
        }
}

static bool near(float a, float b, float tol) { return fabsf(a - b) <= tol; }

static void check_vec(const float *got, const float *want, float tol, const char *what)
{
    CHECK(near(got[0], want[0], tol) && near(got[1], want[1], tol) && near(got[2], want[2], tol),
          "%s: (%.7f %.7f %.7f), want (%.7f %.7f %.7f)", what, got[0], got[1], got[2], want[0], want[1],
          want[2]);
}

static void check_orthonormal(const float ax[3][3], const char *what)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            float d = ax[i][0] * ax[j][0] + ax[i][1] * ax[j][1] + ax[i][2] * ax[j][2];
            CHECK(near(d, i == j ? 1.0f : 0.0f, 1e-5f), "%s: axis %d . axis %d = %g", what, i, j, d);
        }
}

static void test_read(void)
{
    uint8_t b[MD3_SIZE];
    write_md3(b);
    gn_md3 *m = NULL;
    gn_error err = {0};
    gn_result r = gn_md3_parse(b, sizeof b, NAME, &m, &err);
    CHECK(r == GN_OK && m, "the synthetic model: %s", err.message);
    if (!m) return;
    CHECK(strcmp(m->name, NAME) == 0, "name %s", m->name);
    CHECK(m->frame_count == 2 && m->tag_count == 1 && m->surface_count == 1 && m->skin_count == 0,
          "counts %u %u %u %u", m->frame_count, m->tag_count, m->surface_count, m->skin_count);
    const float f1min[3] = {4, -2, 8}, f1max[3] = {20, 14, 8}, zero[3] = {0, 0, 0};
    check_vec(m->frames[1].mins, f1min, 0.0f, "frame 1 mins");
    check_vec(m->frames[1].maxs, f1max, 0.0f, "frame 1 maxs");
    check_vec(m->frames[1].origin, zero, 0.0f, "frame 1 origin");
    CHECK(m->frames[0].radius == 12.0f && m->frames[1].radius == 13.0f, "radii %g %g", m->frames[0].radius,
          m->frames[1].radius);
    CHECK(strcmp(m->frames[0].name, "stand") == 0 && strcmp(m->frames[1].name, "run") == 0,
          "frame names %s %s", m->frames[0].name, m->frames[1].name);
    const gn_md3_tag *t1 = &m->tags[1]; /* frame 1, tag 0 */
    const float t1o[3] = {4, 0, 14}, t1x[3] = {0, 1, 0}, t1y[3] = {-1, 0, 0};
    CHECK(strcmp(t1->name, "tag_torso") == 0, "tag name %s", t1->name);
    check_vec(t1->origin, t1o, 0.0f, "frame 1 tag origin");
    check_vec(t1->axis[0], t1x, 0.0f, "frame 1 tag axis 0");
    check_vec(t1->axis[1], t1y, 0.0f, "frame 1 tag axis 1");
    CHECK(gn_md3_tag_index(m, "tag_torso") == 0 && gn_md3_tag_index(m, "tag_head") == -1, "tag lookup");

    const gn_md3_surface *s = &m->surfaces[0];
    CHECK(strcmp(s->name, "quad") == 0 && s->shader_count == 1 && s->vertex_count == 4 &&
              s->triangle_count == 2,
          "surface %s: %u shaders, %u vertices, %u triangles", s->name, s->shader_count, s->vertex_count,
          s->triangle_count);
    CHECK(strcmp(s->shaders[0].name, "textures/test/quad.tga") == 0, "shader %s", s->shaders[0].name);
    const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
    CHECK(memcmp(s->indices, tri, sizeof tri) == 0, "indices %u %u %u %u %u %u", s->indices[0], s->indices[1],
          s->indices[2], s->indices[3], s->indices[4], s->indices[5]);
    CHECK(s->texcoords[2] == 1.0f && s->texcoords[3] == 0.0f && s->texcoords[5] == 1.0f, "texcoords");
    for (int f = 0; f < 2; f++)
        for (int v = 0; v < 4; v++) {
            float want[3];
            for (int i = 0; i < 3; i++) want[i] = quad_xyz[f][v][i] / 64.0f;
            char what[64];
            snprintf(what, sizeof what, "frame %d vertex %d position", f, v);
            check_vec(&s->positions[3 * (4 * f + v)], want, 0.0f, what);
            snprintf(what, sizeof what, "frame %d vertex %d normal", f, v);
            const float up[3] = {0, 0, 1};
            check_vec(&s->normals[3 * (4 * f + v)], f ? quad_normal1[v] : up, 1e-6f, what);
        }

    /* a quarter of the way from frame 0 to 1: every vertex moved by (1, -0.5, 2) */
    float pos[12], nrm[12];
    gn_md3_blend q = {0, 1, 0.25f};
    CHECK(gn_md3_lerp_surface(m, 0, q, pos, nrm), "lerp surface 0");
    const float p2[3] = {17, 15.5f, 2}; /* vertex 2: (16, 16, 0) + (1, -0.5, 2) */
    check_vec(&pos[6], p2, 1e-6f, "vertex 2 at 0.25");
    check_vec(&nrm[0], quad_normal_q[0], 1e-6f, "vertex 0 normal at 0.25");
    check_vec(&nrm[9], quad_normal_q[1], 1e-6f, "vertex 3 normal at 0.25");
    for (int v = 0; v < 4; v++) {
        float len = sqrtf(nrm[3 * v] * nrm[3 * v] + nrm[3 * v + 1] * nrm[3 * v + 1] +
                          nrm[3 * v + 2] * nrm[3 * v + 2]);
        CHECK(near(len, 1.0f, 1e-6f), "vertex %d normal at 0.25: length %g", v, len);
    }
    /* frames past the last read as the last */
    gn_md3_blend past = {7, 9, 0.5f};
    CHECK(gn_md3_lerp_surface(m, 0, past, pos, NULL), "lerp past the last frame");
    const float p0_1[3] = {4, -2, 8};
    check_vec(&pos[0], p0_1, 0.0f, "vertex 0 past the last frame");
    CHECK(!gn_md3_lerp_surface(m, 1, q, pos, nrm), "surface 1 does not exist");

    /* tag_torso at 0.25: origin (1, 0, 11); axes the normalised lerp of a quarter turn about z */
    gn_md3_tag tq;
    CHECK(gn_md3_lerp_tag(m, 0, q, &tq), "lerp tag 0");
    const float tqo[3] = {1, 0, 11}, tq0[3] = {0.9486833f, 0.3162278f, 0},
                tq1[3] = {-0.3162278f, 0.9486833f, 0}, tq2[3] = {0, 0, 1};
    check_vec(tq.origin, tqo, 1e-6f, "tag origin at 0.25");
    check_vec(tq.axis[0], tq0, 1e-6f, "tag axis 0 at 0.25");
    check_vec(tq.axis[1], tq1, 1e-6f, "tag axis 1 at 0.25");
    check_vec(tq.axis[2], tq2, 1e-6f, "tag axis 2 at 0.25");
    CHECK(strcmp(tq.name, "tag_torso") == 0, "lerped tag name %s", tq.name);
    CHECK(!gn_md3_lerp_tag(m, 1, q, &tq) && tq.axis[0][0] == 1.0f && tq.axis[2][2] == 1.0f,
          "tag 1: identity");

    /* the torso on the legs' tag at frame 1: legs placed at (100, 0, 0) turned 90 degrees about z */
    const float legs[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 100, 0, 0, 1};
    float torso[16];
    gn_md3_attach(legs, &m->tags[1], NULL, torso);
    const float to[3] = {100, 4, 14}, tx[3] = {-1, 0, 0}; /* Rz90 (4, 0, 14) + (100, 0, 0); Rz90 Rz90 x */
    check_vec(&torso[12], to, 1e-5f, "torso origin");
    check_vec(&torso[0], tx, 1e-6f, "torso axis 0");
    gn_md3_free(m);
}

/* cgame's CG_PositionRotatedEntityOnTag in its own row-vector terms (axis[i] a row), with a local
 * rotation, against gn_md3_attach's column-major product. */
static void test_attach_as_cgame(void)
{
    const float pa[3][3] = {{0.6f, 0.8f, 0}, {-0.8f, 0.6f, 0}, {0, 0, 1}}, po[3] = {10, -20, 5};
    gn_md3_tag tag = {.origin = {3, 4, 5}, .axis = {{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}};
    const float la[3][3] = {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}};
    float want_o[3], tmp[3][3], want_ax[3][3];
    for (int i = 0; i < 3; i++) { /* origin = parent.origin + sum tag.origin[i] * parent.axis[i] */
        want_o[i] = po[i];
        for (int k = 0; k < 3; k++) want_o[i] += tag.origin[k] * pa[k][i];
    }
    for (int i = 0; i < 3; i++) /* MatrixMultiply(local, tag), then by parent */
        for (int j = 0; j < 3; j++) {
            tmp[i][j] = 0;
            for (int k = 0; k < 3; k++) tmp[i][j] += la[i][k] * tag.axis[k][j];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            want_ax[i][j] = 0;
            for (int k = 0; k < 3; k++) want_ax[i][j] += tmp[i][k] * pa[k][j];
        }
    float parent[16] = {0}, local[16] = {0}, out[16];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) {
            parent[4 * c + r] = pa[c][r];
            local[4 * c + r] = la[c][r];
        }
    for (int r = 0; r < 3; r++) parent[12 + r] = po[r];
    parent[15] = local[15] = 1;
    gn_md3_attach(parent, &tag, local, out);
    check_vec(&out[12], want_o, 1e-5f, "attached origin as cgame");
    for (int i = 0; i < 3; i++) check_vec(&out[4 * i], want_ax[i], 1e-6f, "attached axis as cgame");
    CHECK(out[3] == 0 && out[7] == 0 && out[11] == 0 && out[15] == 1, "bottom row");
    gn_md3_attach(parent, &tag, local, parent); /* in place */
    check_vec(&parent[12], want_o, 1e-5f, "attached in place");
}

/* Tags whose lerp is not a rotation: skewed, mirrored, degenerate. */
static void test_orthonormalise(void)
{
    gn_md3_frame fr[2] = {{.radius = 1}, {.radius = 1}};
    gn_md3_tag tags[2] = {{.axis = {{2, 0, 0}, {1, 1, 0}, {0, 0, 5}}},
                          {.axis = {{2, 0, 0}, {1, 1, 0}, {0, 0, -5}}}};
    gn_md3 m = {.frame_count = 2, .tag_count = 1, .frames = fr, .tags = tags};
    gn_md3_tag out;
    const float x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, z[3] = {0, 0, 1}, nz[3] = {0, 0, -1};
    gn_md3_lerp_tag(&m, 0, (gn_md3_blend){0, 0, 0}, &out);
    check_vec(out.axis[0], x, 1e-6f, "skewed: axis 0");
    check_vec(out.axis[1], y, 1e-6f, "skewed: axis 1 made perpendicular");
    check_vec(out.axis[2], z, 1e-6f, "skewed: axis 2");
    gn_md3_lerp_tag(&m, 0, (gn_md3_blend){1, 1, 0}, &out);
    check_vec(out.axis[2], nz, 1e-6f, "mirrored: axis 2 stays on its side");
    /* half-way between opposite axes: every lerped axis 0 or parallel; still orthonormal */
    gn_md3_tag opp[2] = {{.axis = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
                         {.axis = {{-1, 0, 0}, {0, -1, 0}, {0, 0, 1}}}};
    m.tags = opp;
    gn_md3_lerp_tag(&m, 0, (gn_md3_blend){0, 1, 0.5f}, &out);
    check_orthonormal(out.axis, "opposite axes half-way");
    gn_md3_lerp_tag(&m, 0, (gn_md3_blend){0, 1, NAN}, &out);
    check_vec(out.axis[0], x, 1e-6f, "a NaN fraction reads as 0");
}

/* ---- malformed models ---------------------------------------------------------------------- */

static void expect_bad(const uint8_t *b, size_t size, const char *want, const char *what)
{
    uint8_t *copy = malloc(size ? size : 1); /* exactly size bytes: a read past them is ASan's */
    if (size) memcpy(copy, b, size);
    gn_md3 *m = (gn_md3 *)1;
    gn_error err = {0};
    gn_result r = gn_md3_parse(copy, size, NAME, &m, &err);
    CHECK(r == GN_ERROR_BAD_DATA && !m, "%s: result %s", what, gn_result_name(r));
    CHECK(strncmp(err.message, NAME ": ", strlen(NAME) + 2) == 0 && strstr(err.message, want),
          "%s: message \"%s\" should name the file and say \"%s\"", what, err.message, want);
    if (r == GN_OK) gn_md3_free(m);
    free(copy);
}

typedef struct poke {
    uint32_t at;
    enum { I32, F32, FILL } kind;
    int32_t i;
    float f;
    const char *want;
} poke;

static void test_corrupt(void)
{
    uint8_t good[MD3_SIZE];
    write_md3(good);
    /* every truncation: ofsEnd then lies past the end (or the header is short) */
    for (size_t n = 0; n < MD3_SIZE; n++) {
        char what[48];
        snprintf(what, sizeof what, "truncated to %zu bytes", n);
        expect_bad(good, n, n < 108 ? "header" : "ofsEnd", what);
    }
    const uint32_t S = SURF;
    const poke pokes[] = {
        {0, I32, 0x32504449, 0, "IDP3"}, /* "IDP2" */
        {4, I32, 14, 0, "version 14"},
        {76, I32, 0, 0, "numFrames 0"},
        {76, I32, 1025, 0, "numFrames 1025"},
        {76, I32, -1, 0, "numFrames -1"},
        {80, I32, 17, 0, "numTags 17"},
        {84, I32, 33, 0, "numSurfaces 33"},
        {88, I32, -1, 0, "numSkins"},
        {92, I32, 700, 0, "ofsFrames 700"},
        {92, I32, -4, 0, "ofsFrames -4"},
        {96, I32, 0x7fffffff, 0, "ofsTags 2147483647"},
        {100, I32, MD3_SIZE + 1, 0, "ofsSurfaces"},
        {100, I32, 700, 0, "header at byte 700"},
        {104, I32, MD3_SIZE + 1, 0, "ofsEnd"},
        {104, I32, 100, 0, "ofsEnd"},
        {104, I32, -1, 0, "ofsEnd"},
        {S, I32, 0, 0, "ident"},
        {S + 72, I32, 1, 0, "numFrames 1, but the header says 2"},
        {S + 76, I32, 257, 0, "numShaders 257"},
        {S + 80, I32, 4097, 0, "numVerts 4097"},
        {S + 80, I32, 5, 0, "vertices"}, /* 5 x 2 vertices end past the surface */
        {S + 80, I32, 3, 0, "index 3"},  /* the quad's second triangle uses vertex 3 */
        {S + 84, I32, 8193, 0, "numTriangles 8193"},
        {S + 88, I32, -1, 0, "triangles"},
        {S + 92, I32, 250, 0, "shaders"},
        {S + 96, I32, 290, 0, "texture coordinates"},
        {S + 100, I32, 240, 0, "vertices"},
        {S + 104, I32, S_END + 1, 0, "ofsEnd"},
        {S + 104, I32, 50, 0, "ofsEnd"},
        {S + S_TRIS + 8, I32, 4, 0, "triangle 0 index 4"},
        {S + S_TRIS + 12, I32, -1, 0, "triangle 1 index -1"},
        {FRAMES + 56 + 36, F32, 0, NAN, "frame 1: bounds"},
        {FRAMES + 4, F32, 0, INFINITY, "frame 0: bounds"},
        {TAGS + 112 + 64, F32, 0, NAN, "frame 1 tag 0 (tag_torso): origin"},
        {TAGS + 100, F32, 0, -INFINITY, "frame 0 tag 0"},
        {S + S_ST + 12, F32, 0, NAN, "vertex 1: texture coordinates"},
        {8, FILL, 0, 0, "header name not terminated"},
        {FRAMES + 40, FILL, 0, 0, "frame 0: name not terminated"},
        {TAGS + 112, FILL, 0, 0, "frame 1 tag 0: name not terminated"},
        {S + 4, FILL, 0, 0, "surface 0: name not terminated"},
        {S + S_SHADERS, FILL, 0, 0, "shader 0: name not terminated"},
    };
    for (size_t i = 0; i < sizeof pokes / sizeof pokes[0]; i++) {
        uint8_t b[MD3_SIZE];
        memcpy(b, good, sizeof b);
        const poke *p = &pokes[i];
        if (p->kind == I32) wi(b + p->at, p->i);
        if (p->kind == F32) wf(b + p->at, p->f);
        if (p->kind == FILL) memset(b + p->at, 'a', p->at == FRAMES + 40 ? 16 : 64);
        char what[64];
        snprintf(what, sizeof what, "poke %zu at byte %u", i, p->at);
        expect_bad(b, sizeof b, p->want, what);
    }

    /* still valid: trailing bytes past ofsEnd, a frames-only model, an empty surface */
    uint8_t big[MD3_SIZE + 16] = {0};
    write_md3(big);
    gn_md3 *m = NULL;
    gn_error err = {0};
    CHECK(gn_md3_parse(big, sizeof big, NAME, &m, &err) == GN_OK, "trailing bytes: %s", err.message);
    gn_md3_free(m);
    uint8_t b[MD3_SIZE];
    memcpy(b, good, sizeof b);
    wi(b + 80, 0); /* no tags, no surfaces */
    wi(b + 84, 0);
    CHECK(gn_md3_parse(b, sizeof b, NAME, &m, &err) == GN_OK && m->tag_count == 0 && !m->tags &&
              m->surface_count == 0,
          "frames only: %s", err.message);
    gn_md3_free(m);
    memcpy(b, good, sizeof b);
    wi(b + S + 80, 0); /* no vertices, no triangles */
    wi(b + S + 84, 0);
    CHECK(gn_md3_parse(b, sizeof b, NAME, &m, &err) == GN_OK && m->surfaces[0].vertex_count == 0,
          "empty surface: %s", err.message);
    gn_md3_free(m);

    /* the one allocation failing */
    gn_alloc_fail_nth(1);
    gn_result r = gn_md3_parse(good, sizeof good, NAME, &m, &err);
    gn_alloc_disarm();
    CHECK(r == GN_ERROR_OUT_OF_MEMORY && !m && strstr(err.message, "out of memory"),
          "allocation failure: %s %s", gn_result_name(r), err.message);
}

/* ---- animation.cfg ---------------------------------------------------------------------------- */

static const char sample_cfg[] = "// animation config file\r\n"
                                 "sex f\n"
                                 "headoffset 1.5 -2 0.25\n"
                                 "footsteps mech\n"
                                 "fixedlegs\n"
                                 "fixedtorso\n"
                                 "fixedhead /* a word the game skips */\n"
                                 "0\t30\t0\t25\t\t// BOTH_DEATH1\n"
                                 "29 1 0 25\n"
                                 "30 30 0 25\n"
                                 "59 1 0 25\n"
                                 "60 30 0 25\n"
                                 "89 1 0 25\n"
                                 "90 40 0 20 // TORSO_GESTURE\n"
                                 "130 6 0 15\n"
                                 "136 6 0 15\n"
                                 "142 5 0 20\n"
                                 "147 4 0 20\n"
                                 "151 1 0 15\n"
                                 "152 1 0 15 // TORSO_STAND2\n"
                                 "153 8 8 20 // LEGS_WALKCR: the legs' frames start 63 early\n"
                                 "161 12 12 20 // LEGS_WALK\n"
                                 "173 9 9 15\n"
                                 "182 10 10 18\n"
                                 "192 -10 10 15 // LEGS_SWIM, backwards\n"
                                 "202 8 0 15\n"
                                 "211 8 0 20\n"
                                 "219 9 0 15\n"
                                 "228 6 0 20\n"
                                 "234 10 5 10 // LEGS_IDLE: the last 5 loop\n"
                                 "244 10 10 10\n"
                                 "254 7 7 18 // LEGS_TURN\n"
                                 "/* Team Arena's extra gestures: ignored */ 255 1 0 15\n";

static void check_blend(gn_md3_blend b, uint32_t from, uint32_t to, float frac, const char *what)
{
    CHECK(b.from == from && b.to == to && near(b.frac, frac, 1e-6f),
          "%s: %u -> %u at %.7f, want %u -> %u at %.7f", what, b.from, b.to, b.frac, from, to, frac);
}

static void expect_cfg_bad(const char *text, const char *want, const char *what)
{
    gn_md3_anim_cfg c;
    gn_error err = {0};
    gn_result r = gn_md3_anim_cfg_parse(text, strlen(text), "a.cfg", &c, &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, want) && strncmp(err.message, "a.cfg:", 6) == 0,
          "%s: %s \"%s\", want \"%s\"", what, gn_result_name(r), err.message, want);
}

/* sample_cfg with line `line` (from 0) replaced by repl, or cut there when repl is NULL */
static void cfg_with(char *out, size_t cap, int line, const char *repl)
{
    const char *p = sample_cfg;
    out[0] = '\0';
    for (int i = 0; *p; i++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
        if (i == line && !repl) return;
        if (i == line)
            snprintf(out + strlen(out), cap - strlen(out), "%s\n", repl);
        else
            snprintf(out + strlen(out), cap - strlen(out), "%.*s", (int)n, p);
        p += n;
    }
}

static void test_cfg(void)
{
    gn_md3_anim_cfg c;
    gn_error err = {0};
    gn_result r = gn_md3_anim_cfg_parse(sample_cfg, strlen(sample_cfg), "sample.cfg", &c, &err);
    CHECK(r == GN_OK, "sample.cfg: %s", err.message);
    if (r) return;
    CHECK(c.sex == GN_MD3_SEX_FEMALE && c.footsteps == GN_MD3_FOOTSTEPS_MECH && c.fixed_legs && c.fixed_torso,
          "header: sex %d footsteps %d fixed %d %d", c.sex, c.footsteps, c.fixed_legs, c.fixed_torso);
    const float ho[3] = {1.5f, -2, 0.25f};
    check_vec(c.head_offset, ho, 0.0f, "headoffset");
    CHECK(c.ignored == 1 && strcmp(c.first_ignored, "fixedhead") == 0, "ignored %u (%s)", c.ignored,
          c.first_ignored);
    const gn_md3_clip *g = &c.clips[GN_MD3_TORSO_GESTURE], *walk = &c.clips[GN_MD3_LEGS_WALK],
                      *swim = &c.clips[GN_MD3_LEGS_SWIM], *idle = &c.clips[GN_MD3_LEGS_IDLE];
    CHECK(g->first_frame == 90 && g->frame_count == 40 && g->loop_frames == 0 && g->frame_ms == 50,
          "TORSO_GESTURE %u %u %u %u", g->first_frame, g->frame_count, g->loop_frames, g->frame_ms);
    /* LEGS_*: 153 - 90 = 63 frames of torso-only animation lie between them in the file's numbering */
    CHECK(c.clips[GN_MD3_LEGS_WALKCR].first_frame == 90 && walk->first_frame == 98 &&
              c.clips[GN_MD3_LEGS_TURN].first_frame == 191,
          "LEGS rule: WALKCR %u WALK %u TURN %u", c.clips[GN_MD3_LEGS_WALKCR].first_frame, walk->first_frame,
          c.clips[GN_MD3_LEGS_TURN].first_frame);
    CHECK(c.clips[GN_MD3_TORSO_STAND2].first_frame == 152, "TORSO_* keep their numbers");
    CHECK(swim->reversed && swim->frame_count == 10 && swim->first_frame == 129 && swim->frame_ms == 66,
          "LEGS_SWIM: reversed %d, %u frames from %u, %u ms (1000 / 15 cut)", swim->reversed,
          swim->frame_count, swim->first_frame, swim->frame_ms);

    /* hand-worked times; a frame lasts frame_ms */
    check_blend(gn_md3_clip_sample(walk, 0.0), 98, 99, 0.0f, "LEGS_WALK at 0");
    check_blend(gn_md3_clip_sample(walk, 0.125), 100, 101, 0.5f, "LEGS_WALK at 0.125 s (2.5 frames)");
    check_blend(gn_md3_clip_sample(walk, 0.575), 109, 98, 0.5f,
                "LEGS_WALK at 0.575 s: the last into the first");
    check_blend(gn_md3_clip_sample(walk, 0.625), 98, 99, 0.5f, "LEGS_WALK at 0.625 s: looped");
    check_blend(gn_md3_clip_sample(walk, -1.0), 98, 99, 0.0f, "LEGS_WALK before it starts");
    check_blend(gn_md3_clip_sample(walk, NAN), 98, 99, 0.0f, "LEGS_WALK at NaN");
    check_blend(gn_md3_clip_sample(g, 1.0), 110, 111, 0.0f, "TORSO_GESTURE at 1 s");
    check_blend(gn_md3_clip_sample(g, 1.96), 129, 129, 0.0f, "TORSO_GESTURE at 1.96 s: holds the last");
    check_blend(gn_md3_clip_sample(g, 1e9), 129, 129, 0.0f, "TORSO_GESTURE much later");
    check_blend(gn_md3_clip_sample(g, INFINITY), 129, 129, 0.0f, "TORSO_GESTURE at infinity");
    check_blend(gn_md3_clip_sample(idle, 0.95), 180, 176, 0.5f, "LEGS_IDLE at 0.95 s: into the loop's first");
    check_blend(gn_md3_clip_sample(idle, 1.25), 178, 179, 0.5f, "LEGS_IDLE at 1.25 s: 7.5 in the loop");
    check_blend(gn_md3_clip_sample(idle, 1.45), 180, 176, 0.5f, "LEGS_IDLE at 1.45 s");
    check_blend(gn_md3_clip_sample(swim, 0.033), 138, 137, 0.5f, "LEGS_SWIM at 33 ms: backwards");
    check_blend(gn_md3_clip_sample(swim, 0.66), 138, 137, 0.0f, "LEGS_SWIM at 660 ms: round again");
    check_blend(gn_md3_clip_sample(&c.clips[GN_MD3_BOTH_DEAD1], 5.0), 29, 29, 0.0f, "BOTH_DEAD1: one frame");

    /* frame ranges: lower needs LEGS_TURN's 191..197, upper TORSO_STAND2's 152 */
    CHECK(gn_md3_anim_cfg_check(&c, 198, 153, "sample.cfg", &err) == GN_OK, "ranges: %s", err.message);
    r = gn_md3_anim_cfg_check(&c, 197, 153, "sample.cfg", &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, "LEGS_TURN") && strstr(err.message, "lower.md3"),
          "lower 197 frames: %s", err.message);
    r = gn_md3_anim_cfg_check(&c, 198, 152, "sample.cfg", &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, "TORSO_STAND2") && strstr(err.message, "upper.md3"),
          "upper 152 frames: %s", err.message);
    r = gn_md3_anim_cfg_check(&c, 89, 500, "sample.cfg", &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, "BOTH_DEATH3: frames 60..89, past lower.md3's 89"),
          "lower 89 frames: %s", err.message);

    CHECK(gn_md3_anim_find("legs_walk") == GN_MD3_LEGS_WALK &&
              gn_md3_anim_find("LEGS_TURN") == GN_MD3_LEGS_TURN && gn_md3_anim_find("LEGS_WAL") == -1 &&
              gn_md3_anim_find(NULL) == -1,
          "find by name");
    for (int a = 0; a < GN_MD3_ANIM_COUNT; a++)
        CHECK(gn_md3_anim_find(gn_md3_anim_name((gn_md3_anim)a)) == a, "name %d round trip", a);
    CHECK(gn_md3_anim_part(GN_MD3_BOTH_DEAD3) == GN_MD3_PART_BOTH &&
              gn_md3_anim_part(GN_MD3_TORSO_STAND2) == GN_MD3_PART_TORSO &&
              gn_md3_anim_part(GN_MD3_LEGS_WALKCR) == GN_MD3_PART_LEGS,
          "parts");

    /* refused: each names the line and what is wrong (lines from 0: 7 BOTH_DEATH1 .. 31 LEGS_TURN) */
    char buf[sizeof sample_cfg + 64];
    cfg_with(buf, sizeof buf, 31, NULL);
    expect_cfg_bad(buf, "24 of the 25 animations (LEGS_TURN is missing)", "cut before LEGS_TURN");
    expect_cfg_bad("sex m\n0 30 0 25\n", "1 of the 25 animations (BOTH_DEAD1 is missing)", "one line");
    expect_cfg_bad("", "before the first", "empty");
    cfg_with(buf, sizeof buf, 13, "90 40 0 0 // TORSO_GESTURE");
    expect_cfg_bad(buf, "TORSO_GESTURE: framesPerSecond 0", "fps 0");
    cfg_with(buf, sizeof buf, 13, "90 40 0 2000");
    expect_cfg_bad(buf, "framesPerSecond 2000", "fps 2000");
    cfg_with(buf, sizeof buf, 13, "90 0 1 20");
    expect_cfg_bad(buf, "TORSO_GESTURE: loopingFrames 1 outside 0..numFrames (0)", "a loop of an empty clip");
    /* numFrames 0: an animation the model lacks (OpenArena's merman: LEGS_TURN "192 0 0 0"); the
     * clip samples its first frame */
    cfg_with(buf, sizeof buf, 31, "254 0 0 0 // LEGS_TURN");
    r = gn_md3_anim_cfg_parse(buf, strlen(buf), "a.cfg", &c, &err);
    CHECK(r == GN_OK && c.clips[GN_MD3_LEGS_TURN].frame_count == 0, "an empty clip: %s", err.message);
    check_blend(gn_md3_clip_sample(&c.clips[GN_MD3_LEGS_TURN], 3.0), 191, 191, 0.0f, "an empty clip");
    CHECK(gn_md3_anim_cfg_check(&c, 192, 153, "a.cfg", &err) == GN_OK, "an empty clip's range: %s",
          err.message);
    cfg_with(buf, sizeof buf, 13, "90 40 41 20");
    expect_cfg_bad(buf, "loopingFrames 41", "loop longer than the clip");
    cfg_with(buf, sizeof buf, 13, "90 40x 0 20");
    expect_cfg_bad(buf, "a.cfg:14: TORSO_GESTURE's numFrames: \"40x\"", "a number with a letter");
    cfg_with(buf, sizeof buf, 13, "-90 40 0 20");
    expect_cfg_bad(buf, "TORSO_GESTURE: firstFrame \"-90\"", "negative first frame");
    cfg_with(buf, sizeof buf, 21, "50 12 12 20 // LEGS_WALK before the torso's frames");
    expect_cfg_bad(buf, "LEGS_WALK: firstFrame 50 less the torso's 63 frames", "LEGS rule gone negative");
    cfg_with(buf, sizeof buf, 3, "headoffset 1 2");
    expect_cfg_bad(buf, "headoffset", "headoffset of two numbers");

    /* NUL ends the text; CRLF and tabs are whitespace */
    char nul[] = "0 1 0 1\0 garbage";
    gn_md3_anim_cfg c2;
    r = gn_md3_anim_cfg_parse(nul, sizeof nul, "nul.cfg", &c2, &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, "BOTH_DEAD1 is missing"), "NUL: %s", err.message);
    CHECK(gn_md3_anim_cfg_parse(NULL, 0, "null.cfg", &c2, &err) == GN_ERROR_BAD_DATA, "NULL text");
}

/* ---- .skin ------------------------------------------------------------------------------------ */

static void test_skin(void)
{
    static const char text[] = "h_head,models/players/x/h.tga\r\n"
                               "tag_head,\r\n"
                               "\r\n"
                               "U_Torso , models/players/x/u.tga\n"
                               "// a comment\n"
                               "tag_weapon\n"
                               "l_legs,\n";
    gn_md3_skin *s = malloc(sizeof *s);
    gn_error err = {0};
    gn_result r = gn_md3_skin_parse(text, sizeof text - 1, "x.skin", s, &err);
    CHECK(r == GN_OK && s->count == 3, "x.skin: %s, %u entries", err.message, s->count);
    CHECK(strcmp(s->entries[1].surface, "u_torso") == 0 &&
              strcmp(s->entries[1].image, "models/players/x/u.tga") == 0,
          "entry 1: \"%s\" \"%s\"", s->entries[1].surface, s->entries[1].image);
    const char *u = gn_md3_skin_image(s, "u_torso_1"), *h = gn_md3_skin_image(s, "H_HEAD"),
               *l = gn_md3_skin_image(s, "l_legs");
    CHECK(u && strcmp(u, "models/players/x/u.tga") == 0, "u_torso_1 -> %s", u ? u : "(none)");
    CHECK(h && strcmp(h, "models/players/x/h.tga") == 0, "H_HEAD -> %s", h ? h : "(none)");
    CHECK(l && !*l, "l_legs: an empty path");
    CHECK(!gn_md3_skin_image(s, "legs") && !gn_md3_skin_image(s, "tag_head"), "unknown surfaces");

    r = gn_md3_skin_parse("h_head models/x.tga\n", 20, "bad.skin", s, &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, "bad.skin:1:") && strstr(err.message, "surface,path"),
          "no comma: %s", err.message);
    char longname[200];
    snprintf(longname, sizeof longname, "a,%064d\n", 0);
    r = gn_md3_skin_parse(longname, strlen(longname), "long.skin", s, &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, "64 characters"), "long path: %s", err.message);
    char *many = malloc(300 * 8);
    many[0] = '\0';
    for (int i = 0; i < 300; i++) sprintf(many + strlen(many), "s%03d,x\n", i);
    r = gn_md3_skin_parse(many, strlen(many), "many.skin", s, &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, "many.skin:257: more than 256"), "300 lines: %s",
          err.message);
    free(many);
    free(s);
}

/* ---- OpenArena's player models ------------------------------------------------------------------ */

static gn_md3 *oa_md3(gn_pak *p, const char *path)
{
    if (!gn_pak_exists(p, path)) return NULL;
    uint8_t *data;
    size_t size;
    gn_error err = {0};
    gn_md3 *m = NULL;
    gn_result r = gn_pak_read(p, path, 64u << 20, &data, &size, &err);
    if (!r) r = gn_md3_parse(data, size, path, &m, &err);
    CHECK(r == GN_OK, "%s", err.message);
    free(data);
    if (!m) return NULL;
    uint32_t verts = 0, tris = 0;
    for (uint32_t s = 0; s < m->surface_count; s++) {
        verts += m->surfaces[s].vertex_count;
        tris += m->surfaces[s].triangle_count;
    }
    printf("openarena: %s: %u frames, %u tags, %u surfaces, %u vertices, %u triangles\n", path + 15,
           m->frame_count, m->tag_count, m->surface_count, verts, tris);
    return m;
}

/* A pose of every surface and tag of m at clip c, 0.37 s in: finite positions, unit normals. */
static void oa_pose(const gn_md3 *m, const gn_md3_clip *c, const char *what)
{
    gn_md3_blend b = gn_md3_clip_sample(c, 0.37);
    for (uint32_t s = 0; s < m->surface_count; s++) {
        uint32_t n = m->surfaces[s].vertex_count;
        float *pos = malloc(12 * (size_t)n + 4), *nrm = malloc(12 * (size_t)n + 4);
        gn_md3_lerp_surface(m, s, b, pos, nrm);
        int bad = 0;
        for (uint32_t v = 0; v < n; v++) {
            float l =
                nrm[3 * v] * nrm[3 * v] + nrm[3 * v + 1] * nrm[3 * v + 1] + nrm[3 * v + 2] * nrm[3 * v + 2];
            bad += !isfinite(pos[3 * v]) || !near(l, 1.0f, 1e-4f);
        }
        CHECK(!bad, "%s: surface %u: %d vertices posed badly", what, s, bad);
        free(pos);
        free(nrm);
    }
    for (uint32_t t = 0; t < m->tag_count; t++) {
        gn_md3_tag tag;
        gn_md3_lerp_tag(m, t, b, &tag);
        check_orthonormal(tag.axis, what);
    }
}

static int test_openarena(void)
{
    gn_pak *p = NULL;
    gn_error err = {0};
    if (gn_pak_open(OA_FOLDER, &p, &err) != GN_OK) {
        printf("openarena: %s not readable (%s): its player models skipped\n", OA_FOLDER, err.message);
        return 0;
    }
    char **names = NULL;
    uint32_t count = 0;
    CHECK(gn_pak_list(p, "models/players", "", &names, &count, &err) == GN_OK, "%s", err.message);
    int models = 0, cfgs = 0, skins = 0;
    for (uint32_t i = 0; i < count; i++) {
        char path[256];
        const char *parts[3] = {"lower", "upper", "head"};
        gn_md3 *m[3];
        for (int k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "models/players/%s/%s.md3", names[i], parts[k]);
            m[k] = oa_md3(p, path);
            models += m[k] != NULL;
        }
        snprintf(path, sizeof path, "models/players/%s/animation.cfg", names[i]);
        uint8_t *text;
        size_t size;
        if (gn_pak_exists(p, path) && gn_pak_read(p, path, 1u << 20, &text, &size, &err) == GN_OK) {
            gn_md3_anim_cfg c;
            gn_result r = gn_md3_anim_cfg_parse((const char *)text, size, path, &c, &err);
            CHECK(r == GN_OK, "%s", err.message);
            if (!r && m[0] && m[1]) {
                r = gn_md3_anim_cfg_check(&c, m[0]->frame_count, m[1]->frame_count, path, &err);
                CHECK(r == GN_OK, "%s", err.message);
                oa_pose(m[0], &c.clips[GN_MD3_LEGS_RUN], path);
                oa_pose(m[1], &c.clips[GN_MD3_TORSO_ATTACK], path);
                CHECK(gn_md3_tag_index(m[0], "tag_torso") >= 0 && gn_md3_tag_index(m[1], "tag_head") >= 0 &&
                          gn_md3_tag_index(m[1], "tag_weapon") >= 0,
                      "%s: lower.md3 without tag_torso or upper.md3 without tag_head, tag_weapon", names[i]);
            }
            cfgs++;
            free(text);
        }
        char folder[200], **sk = NULL;
        uint32_t nsk = 0;
        snprintf(folder, sizeof folder, "models/players/%s", names[i]);
        if (gn_pak_list(p, folder, ".skin", &sk, &nsk, &err) == GN_OK) {
            gn_md3_skin *s = malloc(sizeof *s);
            for (uint32_t j = 0; j < nsk; j++) {
                snprintf(path, sizeof path, "%s/%s", folder, sk[j]);
                if (gn_pak_read(p, path, 1u << 20, &text, &size, &err) != GN_OK) continue;
                CHECK(gn_md3_skin_parse((const char *)text, size, path, s, &err) == GN_OK, "%s", err.message);
                skins++;
                free(text);
            }
            for (uint32_t j = 0; j < nsk; j++) free(sk[j]);
            free(sk);
            free(s);
        }
        for (int k = 0; k < 3; k++) gn_md3_free(m[k]);
        free(names[i]);
    }
    free(names);
    gn_pak_close(p);
    printf("openarena: %d models, %d animation.cfg checked against them, %d .skin files\n", models, cfgs,
           skins);
    CHECK(models > 0 && cfgs > 0, "no player models found in %s", OA_FOLDER);
    return models;
}

int main(void)
{
    test_read();
    test_attach_as_cgame();
    test_orthonormalise();
    test_corrupt();
    test_cfg();
    test_skin();
    test_openarena();
    return gn_check_exit();
}

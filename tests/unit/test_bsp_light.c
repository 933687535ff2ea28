/* A map's baked light (formats/bsp_light.c, scene/bsp_atlas.c) on the synthetic map of
 * bsp_writer.h: the Q3 light byte conversion, the lightmap atlas (padding copies the edge,
 * lookups stay half a texel inside, the same bytes every time), the light grid's placement and
 * trilinear sampling with dark cells left out, and light entities as point lights. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, strdup */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bsp_writer.h"
#include "check.h"
#include "formats/bsp_light.h"
#include "scene/bsp_atlas.h"

/* The synthetic map with a 3x3x2 grid of 1024x1024x512-unit cells (worldspawn's gridsize)
 * over the world model's -1024..1024 x -1024..1024 x -64..512: x, y at -1024, 0, 1024 and z
 * at 0, 512. Cell light: ambient (8 * i, 0, 0), directed (0, 16 * k, 0), pointing up; the
 * cell (2, 2, 1) is dark (inside a wall). */
static gn_result parse_grid_map(gn_bsp *b, gn_error *err)
{
    tmap m;
    tm_build(&m, 0.0f);
    const char *ents = "{\n\"classname\" \"worldspawn\"\n\"gridsize\" \"1024 1024 512\"\n}\n"
                       "{\n\"classname\" \"light\"\n\"origin\" \"-64 32 128\"\n\"light\" \"450\"\n"
                       "\"_color\" \"1 0.5 0.25\"\n}\n"
                       "{\n\"classname\" \"light\"\n\"origin\" \"10 0 0\"\n}\n";
    free(m.lump[0]);
    m.len[0] = (uint32_t)strlen(ents) + 1;
    m.lump[0] = malloc(m.len[0]);
    memcpy(m.lump[0], ents, m.len[0]);
    free(m.lump[15]);
    m.len[15] = 18 * 8;
    m.lump[15] = calloc(18, 8);
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t j = 0; j < 3; j++)
            for (uint32_t i = 0; i < 3; i++) {
                uint8_t *c = m.lump[15] + (i + j * 3 + k * 9) * 8;
                if (i == 2 && j == 2 && k == 1) continue;
                c[0] = (uint8_t)(8 * i + 1), c[4] = (uint8_t)(16 * k), c[6] = 0, c[7] = 0; /* lng 0: +Z */
            }
    size_t size;
    uint8_t *d = tm_serialize(&m, &size);
    gn_result r = gn_bsp_parse(d, size, "maps/grid.bsp", NULL, b, err);
    free(d);
    tm_free(&m);
    return r;
}

static float lin(float byte) { return GN_BSP_LIGHT_NITS * powf(4.0f * byte / 255.0f, GN_BSP_LIGHT_GAMMA); }

static void test_conversion(void)
{
    const uint8_t mid[3] = {64, 0, 255};
    float out[3];
    gn_bsp_light_to_linear(mid, out);
    /* 64 is Q3's "shown at the texture's colour" level: 4 * 64 / 255 ~ 1 */
    const float k = GN_BSP_LIGHT_NITS;
    CHECK(fabsf(out[0] - 1.0083f * k) < 1e-3f * k && out[1] == 0.0f &&
              fabsf(out[2] - powf(4.0f, 2.2f) * k) < 1e-3f * k,
          "light bytes 64, 0, 255 became %g %g %g", out[0], out[1], out[2]);
}

static void test_atlas(void)
{
    tmap m;
    tm_build(&m, 0.0f);
    size_t size;
    uint8_t *d = tm_serialize(&m, &size);
    gn_bsp b;
    gn_error err = {0};
    CHECK(gn_bsp_parse(d, size, "maps/test.bsp", NULL, &b, &err) == GN_OK, "parse: %s", err.message);
    free(d);
    tm_free(&m);
    gn_bsp_atlas a, again;
    CHECK(gn_bsp_lightmap_atlas(&b, &a, &err) == GN_OK, "atlas: %s", err.message);
    CHECK(gn_bsp_lightmap_atlas(&b, &again, &err) == GN_OK, "atlas again: %s", err.message);
    CHECK(a.count == 1 && a.width >= 130 && a.height >= 130, "atlas %ux%u with %u lightmaps", a.width,
          a.height, a.count);
    CHECK(a.width == again.width && a.height == again.height &&
              memcmp(a.texels, again.texels, (size_t)a.width * a.height * 4) == 0,
          "two atlases of one map differ");
    const gn_atlas_rect *r = &a.rects[0];
    /* every texel of the lightmap, and the frame around it repeating the nearest edge texel */
    uint32_t bad = 0;
    for (int y = -1; y <= 128; y++)
        for (int x = -1; x <= 128; x++) {
            int sx = x < 0 ? 0 : x > 127 ? 127 : x, sy = y < 0 ? 0 : y > 127 ? 127 : y;
            const uint8_t *src = b.lightmaps + ((size_t)sy * 128 + (size_t)sx) * 3;
            float want[3] = {lin(src[0]), lin(src[1]), lin(src[2])}, got[3];
            gn_rgb9e5_decode(a.texels[(size_t)(r->y + y) * a.width + (r->x + x)], got);
            float mx = fmaxf(want[0], fmaxf(want[1], want[2]));
            for (int c = 0; c < 3; c++) bad += fabsf(got[c] - want[c]) > mx / 256.0f + 1e-6f;
        }
    CHECK(bad == 0, "%u atlas channels differ from the lightmap (or its edge copy)", bad);
    float uv[2], corner[2] = {0, 0}, mid[2] = {0.25f, 0.5f};
    gn_bsp_lightmap_uv(&a, 0, corner, uv);
    CHECK(fabsf(uv[0] * a.width - (r->x + 0.5f)) < 1e-3f && fabsf(uv[1] * a.height - (r->y + 0.5f)) < 1e-3f,
          "the lightmap's corner is not half a texel inside (%g, %g)", uv[0] * a.width, uv[1] * a.height);
    gn_bsp_lightmap_uv(&a, 0, mid, uv);
    CHECK(fabsf(uv[0] * a.width - (r->x + 32.0f)) < 1e-3f && fabsf(uv[1] * a.height - (r->y + 64.0f)) < 1e-3f,
          "lightmap uv (0.25, 0.5) landed at %g, %g", uv[0] * a.width, uv[1] * a.height);
    gn_bsp_atlas_free(&a);
    gn_bsp_atlas_free(&again);
    CHECK(b.has_grid == false, "the plain test map's 2 lightvols cannot be a 33x33x5 grid");
    gn_bsp_free(&b);
}

static void test_grid(void)
{
    gn_bsp b;
    gn_error err = {0};
    CHECK(parse_grid_map(&b, &err) == GN_OK, "parse: %s", err.message);
    CHECK(b.has_grid && b.grid_dims[0] == 3 && b.grid_dims[1] == 3 && b.grid_dims[2] == 2,
          "grid %ux%ux%u (has %d)", b.grid_dims[0], b.grid_dims[1], b.grid_dims[2], b.has_grid);
    CHECK(b.grid_origin[0] == -1024.0f && b.grid_origin[2] == 0.0f, "grid origin %g %g %g", b.grid_origin[0],
          b.grid_origin[1], b.grid_origin[2]);
    float amb[3], dl[3], dir[3];
    /* Quake (-512, 0, 0) is halfway between cells i = 0 and 1 on the floor: renderer (x, z, -y) */
    float p[3] = {-512.0f * GN_BSP_UNIT, 0.0f, 0.0f};
    CHECK(gn_bsp_light_grid_sample(&b, p, amb, dl, dir), "no light at Quake (-512, 0, 0)");
    float want = 0.5f * lin(1) + 0.5f * lin(9);
    CHECK(fabsf(amb[0] - want) < 1e-4f && amb[1] == 0.0f && dl[1] == 0.0f,
          "ambient %g (want %g), directed %g", amb[0], want, dl[1]);
    CHECK(fabsf(dir[1] - 1.0f) < 1e-5f, "Quake +Z should be the renderer's +Y: %g %g %g", dir[0], dir[1],
          dir[2]);
    /* a quarter of the way up: directed is a quarter of the top cells' */
    float q[3] = {0.0f, 128.0f * GN_BSP_UNIT, 0.0f};
    CHECK(gn_bsp_light_grid_sample(&b, q, amb, dl, dir), "no light at Quake (0, 0, 128)");
    CHECK(fabsf(dl[1] - 0.25f * lin(16)) < 1e-4f, "directed %g, want %g", dl[1], 0.25f * lin(16));
    /* Quake (1024, 512, 512): halfway between cell (2, 1, 1) and the dark (2, 2, 1). The dark
     * one is left out and the weights renormalised: the light is all (2, 1, 1)'s, not half */
    float near_dark[3] = {1024.0f * GN_BSP_UNIT, 512.0f * GN_BSP_UNIT, -512.0f * GN_BSP_UNIT};
    CHECK(gn_bsp_light_grid_sample(&b, near_dark, amb, dl, dir), "no light near the dark cell");
    CHECK(fabsf(dl[1] - lin(16)) < 1e-4f && fabsf(amb[0] - lin(17)) < 1e-4f,
          "next to the dark cell: directed %g (want %g), ambient %g (want %g)", dl[1], lin(16), amb[0],
          lin(17));
    /* outside the grid: its edge */
    float far[3] = {-5000.0f, 0.0f, 0.0f};
    CHECK(gn_bsp_light_grid_sample(&b, far, amb, dl, dir) && fabsf(amb[0] - lin(1)) < 1e-4f,
          "outside the grid: ambient %g, want the edge's %g", amb[0], lin(1));

    gn_light_desc lights[4];
    uint32_t total = 0, n = gn_bsp_light_entities(&b, 1.0f, lights, 4, &total);
    CHECK(n == 2 && total == 2, "light entities: %u written of %u", n, total);
    CHECK(fabsf(lights[0].position[0] + 64.0f * GN_BSP_UNIT) < 1e-5f &&
              fabsf(lights[0].position[1] - 128.0f * GN_BSP_UNIT) < 1e-5f &&
              fabsf(lights[0].position[2] + 32.0f * GN_BSP_UNIT) < 1e-5f,
          "light 0 at %g %g %g", lights[0].position[0], lights[0].position[1], lights[0].position[2]);
    CHECK(fabsf(lights[0].radius - 450.0f * GN_BSP_UNIT) < 1e-4f && lights[0].color[1] == 0.5f,
          "light 0: radius %g, colour g %g", lights[0].radius, lights[0].color[1]);
    CHECK(fabsf(lights[1].radius - 300.0f * GN_BSP_UNIT) < 1e-4f &&
              fabsf(lights[1].intensity - 3.0f * GN_BSP_LIGHT_NITS) < 1e-3f,
          "light 1 (Q3's default 300): radius %g, intensity %g", lights[1].radius, lights[1].intensity);
    n = gn_bsp_light_entities(&b, 1.0f, lights, 1, &total);
    CHECK(n == 1 && total == 2, "a cap of 1 wrote %u of %u", n, total);
    gn_bsp_free(&b);
}

/* The lights the old reader found: the nth "light" entity looked up for n = 0, 1, ... */
static uint32_t lights_by_find(const gn_bsp *b, gn_light_desc *out, uint32_t max)
{
    uint32_t n = 0;
    gn_bsp_entity e;
    for (uint32_t i = 0; n < max && gn_bsp_entity_find(b, "light", i, &e); i++) {
        if (!e.has_origin || !(e.light > 0.0f)) continue;
        out[n++] = (gn_light_desc){.position = {e.origin[0], e.origin[1], e.origin[2]},
                                   .color = {e.color[0], e.color[1], e.color[2]}};
    }
    return n;
}

/* Light entities in one pass over the lump: the same lights in the same order as the old
 * nth-entity lookups on a mixed lump (other classes between, a light without an origin, one of
 * intensity 0, malformed text at the end), and 20,000 lights parsed well under a second (the
 * rescan from the start for each light took 26.5 s). */
static void test_light_entities_one_pass(void)
{
    gn_bsp b = {0};
    b.entities = strdup("{ \"classname\" \"worldspawn\" }\n"
                        "{ \"classname\" \"light\" \"origin\" \"1 2 3\" \"light\" \"200\" }\n"
                        "{ \"classname\" \"info_player_start\" \"origin\" \"0 0 0\" }\n"
                        "{ \"classname\" \"light\" \"light\" \"100\" }\n"
                        "{ \"origin\" \"-8 16 4\" \"_color\" \"1 0.5 0\" \"classname\" \"light\" }\n"
                        "{ \"classname\" \"light\" \"origin\" \"5 5 5\" \"light\" \"0\" }\n"
                        "{ \"classname\" \"lightJunior\" \"origin\" \"9 9 9\" }\n"
                        "{ \"classname\" \"light\" \"origin\" \"7 7 7\" }\n"
                        "{ \"classname\" \"light\" \"origin\" bad }\n"
                        "{ \"classname\" \"light\" \"origin\" \"1 1 1\" }\n");
    gn_light_desc got[8], want[8];
    uint32_t total = 0, n = gn_bsp_light_entities(&b, 1.0f, got, 8, &total);
    uint32_t m = lights_by_find(&b, want, 8);
    CHECK(n == 3 && total == 3 && m == 3, "small lump: %u lights (%u in all), the old reader %u", n, total,
          m);
    for (uint32_t i = 0; i < n && i < m; i++)
        CHECK(memcmp(got[i].position, want[i].position, sizeof want[i].position) == 0 &&
                  memcmp(got[i].color, want[i].color, sizeof want[i].color) == 0,
              "light %u at %g %g %g, the old reader's at %g %g %g", i, got[i].position[0], got[i].position[1],
              got[i].position[2], want[i].position[0], want[i].position[1], want[i].position[2]);
    free(b.entities);

    enum { COUNT = 20000 };
    const size_t per = 96;
    char *text = malloc((size_t)COUNT * per + 64), *w = text;
    w += sprintf(w, "{ \"classname\" \"worldspawn\" }\n");
    for (int i = 0; i < COUNT; i++)
        w += sprintf(w, "{ \"classname\" \"light\" \"origin\" \"%d %d 64\" \"light\" \"%d\" }\n", i % 1000,
                     i / 1000, 100 + i % 7);
    b.entities = text;
    gn_light_desc *lights = malloc(COUNT * sizeof *lights);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    n = gn_bsp_light_entities(&b, 1.0f, lights, COUNT, &total);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    CHECK(n == COUNT && total == COUNT, "20000 lights: %u parsed (%u in all)", n, total);
    CHECK(s < 1.0, "20000 lights took %.3f s (limit 1 s)", s);
    CHECK(fabsf(lights[COUNT - 1].position[0] - 999.0f * GN_BSP_UNIT) < 1e-4f,
          "the last light at x %g, want %g", lights[COUNT - 1].position[0], 999.0f * GN_BSP_UNIT);
    printf("light entities: %u in %.3f s\n", n, s);
    free(lights);
    free(text);
}

int main(void)
{
    test_light_entities_one_pass();
    test_conversion();
    test_atlas();
    test_grid();
    return gn_check_exit();
}

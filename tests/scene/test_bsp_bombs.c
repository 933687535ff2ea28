/* Decompression bombs in a Quake 3 map's textures (src/scene/bsp_scene.c): a synthetic map
 * (tests/unit/bsp_writer.h) whose 1,000 extra faces each have a shader of their own, all naming
 * one image, in a stored zip (.pk3) written here. Three archives:
 *   bomb:   the image is a PNG whose header claims 16384x16384 (a tiny IDAT: only the header is
 *           read): the map loads in under 2 s, the image skipped with one warning naming it.
 *   shared: the image is a real 4x4 TGA: decoded once, one texture for every shader.
 *   budget: 17 shaders name 17 PNGs that claim 4096x4096 each (64 MiB as RGBA, under the
 *           per-image cap): together over the 1 GiB cap, so the load fails naming the map. */
#define _POSIX_C_SOURCE 200809L /* mkdir, clock_gettime */
#include "log_capture.h"
#include "scene/scene.h"
#include "scene_check.h"

#include "../unit/bsp_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define SHADERS 1000

static uint32_t crc32_of(const uint8_t *p, size_t n, uint32_t crc)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void le16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }

/* One PNG chunk at p (length, type, data, CRC over type and data); returns its size. */
static size_t png_chunk(uint8_t *p, const char *type, const uint8_t *data, uint32_t n)
{
    be32(p, n);
    memcpy(p + 4, type, 4);
    if (n) memcpy(p + 8, data, n);
    be32(p + 8 + n, crc32_of(p + 4, 4 + n, 0));
    return 12 + n;
}

/* A greyscale PNG claiming w x h pixels whose IDAT is an empty zlib stream. 65 bytes. */
static size_t fake_png(uint8_t *p, uint32_t w, uint32_t h)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const uint8_t idat[8] = {0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01};
    uint8_t ihdr[13] = {0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0};
    be32(ihdr, w);
    be32(ihdr + 4, h);
    memcpy(p, sig, 8);
    size_t n = 8;
    n += png_chunk(p + n, "IHDR", ihdr, 13);
    n += png_chunk(p + n, "IDAT", idat, 8);
    n += png_chunk(p + n, "IEND", NULL, 0);
    return n;
}

/* An uncompressed 4x4 24-bit TGA. 66 bytes. */
static size_t small_tga(uint8_t *p)
{
    memset(p, 0, 18);
    p[2] = 2, p[12] = 4, p[14] = 4, p[16] = 24;
    for (int i = 0; i < 48; i++) p[18 + i] = (uint8_t)(i * 5);
    return 66;
}

typedef struct zip_entry {
    char name[64];
    const uint8_t *data;
    size_t size;
} zip_entry;

/* A stored (uncompressed) zip of the entries; 0 on success. */
static int write_zip(const char *path, const zip_entry *e, uint32_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    uint8_t *central = calloc(n, 46 + 64);
    uint32_t *offset = calloc(n, sizeof *offset);
    size_t at = 0, cd = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t h[30] = {0x50, 0x4b, 0x03, 0x04, 20};
        uint32_t crc = crc32_of(e[i].data, e[i].size, 0), len = (uint32_t)strlen(e[i].name);
        tm_put32(h + 14, crc);
        tm_put32(h + 18, (uint32_t)e[i].size);
        tm_put32(h + 22, (uint32_t)e[i].size);
        le16(h + 26, len);
        offset[i] = (uint32_t)at;
        fwrite(h, 1, 30, f);
        fwrite(e[i].name, 1, len, f);
        fwrite(e[i].data, 1, e[i].size, f);
        at += 30 + len + e[i].size;
        uint8_t *c = central + cd;
        memcpy(c, "\x50\x4b\x01\x02", 4);
        c[4] = 20, c[6] = 20;
        tm_put32(c + 16, crc);
        tm_put32(c + 20, (uint32_t)e[i].size);
        tm_put32(c + 24, (uint32_t)e[i].size);
        le16(c + 28, len);
        tm_put32(c + 42, offset[i]);
        memcpy(c + 46, e[i].name, len);
        cd += 46 + len;
    }
    uint8_t end[22] = {0x50, 0x4b, 0x05, 0x06};
    le16(end + 8, n);
    le16(end + 10, n);
    tm_put32(end + 12, (uint32_t)cd);
    tm_put32(end + 16, (uint32_t)at);
    fwrite(central, 1, cd, f);
    fwrite(end, 1, 22, f);
    free(central);
    free(offset);
    return fclose(f) != 0;
}

/* The map: bsp_writer's five faces, then `extra` copies of its triangle face, each with a shader
 * of its own. Every shader is named stem, or with `distinct` stem plus a number (the first
 * three share 00). Serialized; *size set. */
static uint8_t *build_map(uint32_t extra, const char *stem, int distinct, size_t *size)
{
    tmap m;
    tm_build(&m, 0.0f);
    uint32_t shaders = 2 + extra;
    free(m.lump[1]);
    tm_alloc(&m, 1, shaders);
    for (uint32_t i = 0; i < shaders; i++) {
        char *name = (char *)m.lump[1] + i * 72;
        if (distinct)
            snprintf(name, 64, "%s%02u", stem, i < 2 ? 0 : i - 2);
        else
            snprintf(name, 64, "%s", stem);
        tm_i32(&m, 1, i, 17, (int32_t)i); /* contents: the shaders differ only there */
    }
    uint8_t *faces = m.lump[13];
    uint32_t old = m.len[13];
    m.len[13] = (5 + extra) * tm_record[13];
    m.lump[13] = calloc(m.len[13], 1);
    memcpy(m.lump[13], faces, old);
    free(faces);
    const float up[3] = {0, 0, 1};
    for (uint32_t i = 0; i < extra; i++) tm_face(&m, 5 + i, 3, (int32_t)(2 + i), 17, 3, 0, 3, -1, up, 0, 0);
    uint8_t *d = tm_serialize(&m, size);
    tm_free(&m);
    return d;
}

static uint32_t count_of(const char *text, const char *what)
{
    uint32_t n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One load: the map with `extra` shaders named after stem, written with the images to
 * dir/test.pk3, loaded through gn_scene_load and timed. */
typedef struct trial {
    captured log;
    gn_scene *scene;
    gn_error err;
    gn_result res;
    double seconds;
} trial;

static int run_map(const char *dir, uint32_t extra, const char *stem, int distinct, const zip_entry *images,
                   uint32_t n, trial *t)
{
    mkdir(dir, 0755);
    zip_entry *e = calloc(n + 1, sizeof *e);
    snprintf(e[0].name, sizeof e[0].name, "maps/test.bsp");
    uint8_t *map = build_map(extra, stem, distinct, &e[0].size);
    e[0].data = map;
    memcpy(e + 1, images, n * sizeof *e);
    char path[512];
    snprintf(path, sizeof path, "%s/test.pk3", dir);
    int bad = write_zip(path, e, n + 1);
    free(e);
    free(map);
    CHECK(!bad, "cannot write %s", path);
    gn_load_desc ld = {.path = "test", .paks = dir, .log = capture, .log_user = &t->log};
    double t0 = now();
    t->res = gn_scene_load(&ld, &t->scene, &t->err);
    t->seconds = now() - t0;
    return 0;
}

static int test_bomb(void)
{
    uint8_t png[80];
    zip_entry img = {"textures/bomb/big.png", png, fake_png(png, 16384, 16384)};
    static trial t;
    CHECK(!run_map(GN_TEST_TMP "/bomb_paks", SHADERS, "textures/bomb/big", 0, &img, 1, &t), "no archive");
    gn_scene *s = t.scene;
    printf("bomb: %.3f s, %u textures, warnings:\n%s", t.seconds, s ? s->texture_count : 0, t.log.text);
    CHECK(t.res == GN_OK, "the bomb map: %s", t.err.message);
    CHECK(t.seconds < 2.0, "the bomb map took %.2f s", t.seconds);
    CHECK(count_of(t.log.text, "textures/bomb/big.png is 16384x16384") == 1,
          "no one warning naming the image and its size");
    CHECK(strstr(t.log.text, "bomb_paks/test.pk3"), "the warning does not name the archive");
    CHECK(strstr(t.log.text, "1 images over the size cap"), "the refused image is not counted");
    /* every shader is drawn as the checker: the atlas and the checker are the only textures */
    CHECK(s->texture_count == 2, "%u textures (the lightmap atlas and the checker expected)",
          s->texture_count);
    gn_scene_destroy(s);
    return 0;
}

static int test_shared(void)
{
    uint8_t tga[66];
    zip_entry img = {"textures/small/one.tga", tga, small_tga(tga)};
    static trial t;
    CHECK(!run_map(GN_TEST_TMP "/shared_paks", SHADERS, "textures/small/one", 0, &img, 1, &t), "no archive");
    CHECK(t.res == GN_OK, "the shared-image map: %s", t.err.message);
    gn_scene *s = t.scene;
    uint32_t small = 0;
    for (uint32_t i = 0; i < s->texture_count; i++)
        small += s->textures[i].width == 4 && s->textures[i].height == 4;
    printf("shared: %.3f s, %u textures (%u of them the 4x4 image), %u materials, %u warnings\n", t.seconds,
           s->texture_count, small, s->material_count, t.log.lines);
    CHECK(small == 1, "the one image was decoded into %u textures for %u shaders", small, SHADERS + 2);
    CHECK(s->texture_count == 2, "%u textures (the lightmap atlas and the image expected)", s->texture_count);
    CHECK(t.log.lines == 0, "warnings: %s", t.log.text);
    gn_scene_destroy(s);
    return 0;
}

static int test_budget(void)
{
    enum { N = 17 }; /* 17 x 64 MiB > 1 GiB */
    uint8_t png[N][80];
    zip_entry img[N];
    for (uint32_t i = 0; i < N; i++) {
        snprintf(img[i].name, sizeof img[i].name, "textures/cap/i%02u.png", i);
        img[i].data = png[i];
        img[i].size = fake_png(png[i], 4096, 4096);
    }
    static trial t;
    CHECK(!run_map(GN_TEST_TMP "/budget_paks", N, "textures/cap/i", 1, img, N, &t), "no archive");
    printf("budget: %.3f s, result %d: %s\n", t.seconds, (int)t.res, t.err.message);
    CHECK(t.res == GN_ERROR_BAD_DATA, "17 images of 64 MiB loaded (result %d)", (int)t.res);
    CHECK(strstr(t.err.message,
                 "budget_paks/test.pk3: maps/test.bsp: the map's images decode to over 1024 MiB") &&
              strstr(t.err.message, "1088 MiB with textures/cap/i16.png"),
          "the error does not name the map and the total: %s", t.err.message);
    CHECK(t.seconds < 2.0, "the refusal took %.2f s", t.seconds);
    gn_scene_destroy(t.scene);
    return 0;
}

int main(void)
{
    int failed = test_bomb();
    failed |= test_shared();
    failed |= test_budget();
    return failed;
}

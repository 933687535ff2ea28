/* Archives checked by gnomon itself (src/formats/zip.c, pak.c): PhysicsFS checks no CRC, so
 * every file read whole from a .pk3 is checked against the CRC-32 of its central directory
 * entry, and the central directory is read with every count, offset and length checked. The
 * archives are written here (zip_writer.h: stored and deflated entries, ZIP64 records) around a
 * small map (tests/unit/bsp_writer.h), into the build folder:
 *   - CRC-32 itself: the check value and a bitwise reference;
 *   - good archives (the map stored, then deflated; a ZIP64 one) load through gn_scene_load
 *     as `gnomon render --scene x --paks DIR` does, with no warning;
 *   - one flipped byte in the stored map: the load fails with the CRC line; in a stored image:
 *     the image is skipped with that line as a warning;
 *   - every byte of a deflated entry's stream with a bit flipped in turn: each read fails or
 *     gives the original bytes, never other data;
 *   - broken central directories, counts past the file, counts over the cap: each archive is
 *     refused when mounted, one line naming it and the fault;
 *   - a map the scene refuses: the message names the archive and the entry (or the file). */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include "base/crc32.h"
#include "formats/pak.h"
#include "formats/zip.h"
#include "log_capture.h"
#include "scene/scene.h"
#include "scene_check.h"
#include "zip_writer.h"

#include "../unit/bsp_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TMP GN_TEST_TMP "/pak_crc"

/* An uncompressed 4x4 24-bit TGA. 66 bytes. */
static void small_tga(uint8_t p[66])
{
    memset(p, 0, 18);
    p[2] = 2, p[12] = 4, p[14] = 4, p[16] = 24;
    for (int i = 0; i < 48; i++) p[18 + i] = (uint8_t)(i * 5);
}

/* The files of the test archive: the map, its two shaders' images, a text file. */
typedef struct fixture {
    uint8_t *map;
    size_t map_size;
    uint8_t tga[66];
    char text[700];
    zw_entry e[4];
} fixture;

enum { E_MAP, E_FLOOR, E_WALL, E_TEXT };

static void fixture_make(fixture *f, int map_method)
{
    tmap m;
    tm_build(&m, 16.0f);
    f->map = tm_serialize(&m, &f->map_size);
    tm_free(&m);
    small_tga(f->tga);
    size_t n = 0;
    for (int i = 0; n + 40 < sizeof f->text; i++)
        n += (size_t)snprintf(f->text + n, sizeof f->text - n, "textures/base/s%03d { map $lightmap }\n", i);
    f->e[E_MAP] = (zw_entry){"maps/x.bsp", f->map, f->map_size, map_method};
    f->e[E_FLOOR] = (zw_entry){"textures/base/floor.tga", f->tga, sizeof f->tga, 8};
    f->e[E_WALL] = (zw_entry){"textures/base/wall.tga", f->tga, sizeof f->tga, 0};
    f->e[E_TEXT] = (zw_entry){"scripts/x.shader", (const uint8_t *)f->text, n, 8};
}

/* TMP/name/x.pk3 (the folder made and emptied of any other archive: each case has one). */
static const char *case_path(const char *name, char *dir, char *path)
{
    mkdir(TMP, 0755);
    snprintf(dir, 512, TMP "/%s", name);
    mkdir(dir, 0755);
    snprintf(path, 600, "%s/x.pk3", dir);
    return path;
}

typedef struct load_trial {
    gn_result res;
    gn_error err;
    captured log;
    uint32_t textures;
} load_trial;

/* The map through the public loader, as the CLI's `--scene x --paks dir` loads it. */
static void load_map(const char *dir, load_trial *t)
{
    memset(t, 0, sizeof *t);
    gn_load_desc ld = {.path = "x", .paks = dir, .log = capture, .log_user = &t->log};
    gn_scene *s = NULL;
    t->res = gn_scene_load(&ld, &s, &t->err);
    t->textures = s ? s->texture_count : 0;
    gn_scene_destroy(s);
}

static int test_crc32(void)
{
    CHECK(gn_crc32(0, "123456789", 9) == 0xcbf43926u, "CRC-32 check value 0x%08x",
          gn_crc32(0, "123456789", 9));
    uint8_t buf[4096];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
    uint32_t ref = ~0u;
    for (size_t i = 0; i < sizeof buf; i++) {
        ref ^= buf[i];
        for (int k = 0; k < 8; k++) ref = (ref >> 1) ^ (0xedb88320u & (0u - (ref & 1u)));
    }
    ref = ~ref;
    CHECK(gn_crc32(0, buf, sizeof buf) == ref, "table CRC 0x%08x, bitwise 0x%08x",
          gn_crc32(0, buf, sizeof buf), ref);
    CHECK(gn_crc32(gn_crc32(0, buf, 1000), buf + 1000, sizeof buf - 1000) == ref, "chained CRC differs");
    CHECK(gn_crc32(0, buf, 0) == 0, "the CRC of nothing is 0x%08x", gn_crc32(0, buf, 0));
    return 0;
}

/* Good archives: the map stored, deflated, and in a ZIP64 archive, each loads with no warning,
 * and every file reads back as written. */
static int test_good(void)
{
    static const struct {
        const char *name;
        int method;
        bool zip64;
    } cases[] = {{"good_stored", 0, false}, {"good_deflated", 8, false}, {"good_zip64", 0, true}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture f;
        fixture_make(&f, cases[c].method);
        zw_zip z = zw_build(f.e, 4, cases[c].zip64);
        char dir[512], path[600];
        CHECK(!zw_write(&z, z.n, case_path(cases[c].name, dir, path)), "cannot write %s", path);
        static load_trial t;
        load_map(dir, &t);
        printf("%s: %zu bytes, the map %zu -> %zu; load: %s\n", cases[c].name, z.n, f.map_size,
               z.data_len[E_MAP], t.res ? t.err.message : "ok");
        CHECK(t.res == GN_OK, "%s: %s", cases[c].name, t.err.message);
        CHECK(t.log.lines == 0, "%s: warnings: %s", cases[c].name, t.log.text);
        CHECK(t.textures == 3, "%s: %u textures (the atlas and two images expected)", cases[c].name,
              t.textures);
        gn_pak *pak = NULL;
        gn_error err = {0};
        CHECK(gn_pak_open(dir, &pak, &err) == GN_OK, "%s", err.message);
        for (int i = 0; i < 4; i++) {
            uint8_t *data = NULL;
            size_t size = 0;
            gn_result r = gn_pak_read(pak, f.e[i].name, 1u << 20, &data, &size, &err);
            bool same = !r && size == f.e[i].size && memcmp(data, f.e[i].data, size) == 0;
            free(data);
            if (!same) gn_pak_close(pak);
            CHECK(same, "%s: %s did not read back (%s)", cases[c].name, f.e[i].name,
                  r ? err.message : "differs");
        }
        gn_pak_close(pak);
        free(z.p);
        free(f.map);
    }
    return 0;
}

/* One byte of the stored map flipped: the load fails naming the archive, the entry and both
 * CRCs. One byte of a stored image flipped: the image is skipped with the same line. */
static int test_stored_flip(void)
{
    fixture f;
    fixture_make(&f, 0);
    zw_zip z = zw_build(f.e, 4, false);
    char dir[512], path[600], want[1024];
    z.p[z.data_at[E_MAP] + 200] ^= 0x10;
    uint32_t got = gn_crc32(0, z.p + z.data_at[E_MAP], f.map_size), was = gn_crc32(0, f.map, f.map_size);
    CHECK(!zw_write(&z, z.n, case_path("flip_map", dir, path)), "cannot write %s", path);
    static load_trial t;
    load_map(dir, &t);
    printf("flip_map: %s\n", t.err.message);
    snprintf(want, sizeof want,
             "%s: maps/x.bsp: CRC-32 0x%08x but the archive says 0x%08x (a corrupted archive)", path, got,
             was);
    CHECK(t.res == GN_ERROR_BAD_DATA, "a flipped byte in the map loaded (result %d)", (int)t.res);
    CHECK(strcmp(t.err.message, want) == 0, "message '%s', expected '%s'", t.err.message, want);

    z.p[z.data_at[E_MAP] + 200] ^= 0x10;
    z.p[z.data_at[E_WALL] + 30] ^= 0x01;
    got = gn_crc32(0, z.p + z.data_at[E_WALL], sizeof f.tga);
    was = gn_crc32(0, f.tga, sizeof f.tga);
    CHECK(!zw_write(&z, z.n, case_path("flip_image", dir, path)), "cannot write %s", path);
    load_map(dir, &t);
    printf("flip_image: %s", t.log.text);
    snprintf(want, sizeof want,
             "%s: textures/base/wall.tga: CRC-32 0x%08x but the archive says 0x%08x (a corrupted archive); "
             "skipped (drawn as a checker)",
             path, got, was);
    CHECK(t.res == GN_OK, "the map with a corrupted image: %s", t.err.message);
    CHECK(t.log.lines == 2 && strstr(t.log.text, want) && strstr(t.log.text, "1 of 2 shaders have no image"),
          "warnings '%s', expected '%s' and the missing-image count", t.log.text, want);
    free(z.p);
    free(f.map);
    return 0;
}

/* Each byte of the deflated text's stream with one bit flipped: a read fails (the CRC line, or
 * a short read when the stream breaks) or returns exactly the text: some flips leave the data
 * as it was (the padding after the end-of-block code; the final-block bit, as PhysicsFS stops
 * at the entry's size; a code turned into a copy of the same bytes). Other data never passes. */
static int test_deflate_sweep(void)
{
    fixture f;
    fixture_make(&f, 0);
    zw_zip z = zw_build(f.e, 4, false);
    char dir[512], path[600];
    case_path("flip_deflate", dir, path);
    uint32_t crc_errors = 0, short_reads = 0, other = 0, same = 0;
    size_t at = z.data_at[E_TEXT], len = z.data_len[E_TEXT];
    for (size_t k = 0; k < len; k++) {
        uint8_t bit = (uint8_t)(1u << (k % 8));
        z.p[at + k] ^= bit;
        int bad = zw_write(&z, z.n, path);
        z.p[at + k] ^= bit;
        CHECK(!bad, "cannot write %s", path);
        gn_pak *pak = NULL;
        gn_error err = {0};
        CHECK(gn_pak_open(dir, &pak, &err) == GN_OK, "byte %zu: %s", k, err.message);
        uint8_t *data = NULL;
        size_t size = 0;
        gn_result r = gn_pak_read(pak, "scripts/x.shader", 1u << 20, &data, &size, &err);
        gn_pak_close(pak);
        bool original = !r && size == f.e[E_TEXT].size && memcmp(data, f.text, size) == 0;
        free(data);
        CHECK(r || original, "byte %zu bit %u: other data (%zu bytes) was returned", k, (unsigned)bit, size);
        if (original) {
            printf("flip_deflate: byte %zu of %zu, bit %u: the text read back unchanged\n", k, len,
                   (unsigned)bit);
            same++;
            continue;
        }
        CHECK(strncmp(err.message, path, strlen(path)) == 0 && strstr(err.message, "scripts/x.shader") &&
                  !strchr(err.message, '\n'),
              "byte %zu: '%s' does not name the archive and the entry on one line", k, err.message);
        if (strstr(err.message, "CRC-32 0x"))
            crc_errors++;
        else if (strstr(err.message, "a corrupted archive"))
            short_reads++;
        else
            other++, fprintf(stderr, "byte %zu: %s\n", k, err.message);
    }
    printf("flip_deflate: %zu bytes of deflate stream (%zu of text): %u CRC errors, %u short reads, %u other "
           "refusals, %u unchanged reads\n",
           len, f.e[E_TEXT].size, crc_errors, short_reads, other, same);
    CHECK(crc_errors > len / 2, "only %u of %zu flips were caught by the CRC", crc_errors, len);
    free(z.p);
    free(f.map);
    return 0;
}

/* One broken archive: corrupt() edits a copy of the good stored one (zip64: of a ZIP64 one),
 * written with its length; mounting must fail with GN_ERROR_BAD_DATA and one line that starts
 * with the archive's path and says want. */
typedef struct refusal {
    const char *name;
    bool zip64;
    size_t (*corrupt)(zw_zip *z);
    const char *want;
} refusal;

static size_t cut_directory(zw_zip *z) { return z->cd_at + z->cd_size / 2; } /* the end record is gone */
static size_t short_directory(zw_zip *z)
{
    size_t cut = 20; /* the directory's last 20 bytes removed, the end record moved up */
    memmove(z->p + z->end_at - cut, z->p + z->end_at, z->n - z->end_at);
    return z->n - cut;
}
static size_t comment_past_end(zw_zip *z)
{
    zw_set_le(z, z->end_at + 20, 5, 2);
    return z->n;
}
static size_t counts_past_file(zw_zip *z)
{
    zw_set_le(z, z->end_at + 8, 60000, 2);
    zw_set_le(z, z->end_at + 10, 60000, 2);
    return z->n;
}
static size_t counts_disagree(zw_zip *z)
{
    zw_set_le(z, z->end_at + 8, 3, 2);
    return z->n;
}
static size_t directory_past_record(zw_zip *z)
{
    zw_set_le(z, z->end_at + 12, z->cd_size + 1000, 4);
    return z->n;
}
static size_t entries_over_cap(zw_zip *z)
{
    zw_set_le(z, z->end64_at + 24, 1u << 21, 8);
    zw_set_le(z, z->end64_at + 32, 1u << 21, 8);
    return z->n;
}
static size_t directory_over_cap(zw_zip *z)
{
    zw_set_le(z, z->end64_at + 40, 1ull << 30, 8);
    return z->n;
}
static size_t zip64_record_gone(zw_zip *z)
{
    z->p[z->end64_at] ^= 0xff;
    return z->n;
}
static size_t split_archive(zw_zip *z)
{
    zw_set_le(z, z->end_at + 4, 1, 2);
    return z->n;
}
static size_t bad_signature(zw_zip *z)
{
    z->p[z->central_at[1]] ^= 0x01;
    return z->n;
}
static size_t name_past_directory(zw_zip *z)
{
    zw_set_le(z, z->central_at[3] + 28, 0xffff, 2);
    return z->n;
}
static size_t empty_name(zw_zip *z)
{
    zw_set_le(z, z->central_at[2] + 28, 0, 2);
    return z->n;
}
static size_t
duplicate_name(zw_zip *z) /* entry 2 renamed maps/x.bsp, the rest of its old name an extra field */
{
    size_t old = strlen("textures/base/wall.tga"), now = strlen("maps/x.bsp");
    memcpy(z->p + z->central_at[2] + 46, "maps/x.bsp", now);
    zw_set_le(z, z->central_at[2] + 28, now, 2);
    zw_set_le(z, z->central_at[2] + 30, old - now, 2);
    return z->n;
}
static size_t data_past_directory(zw_zip *z)
{
    zw_set_le(z, z->central_at[0] + 42, z->cd_at - 10, 4);
    return z->n;
}
static size_t not_a_zip(zw_zip *z)
{
    memset(z->p, 'x', 200);
    return 200;
}
static size_t tiny_file(zw_zip *z)
{
    memcpy(z->p, "hello\n", 6);
    return 6;
}

static int test_refusals(void)
{
    static const refusal cases[] = {
        {"cut_directory", false, cut_directory, "no end-of-central-directory record in its last"},
        {"short_directory", false, short_directory, "runs past the end record at byte"},
        {"comment_past_end", false, comment_past_end,
         "gives a 5-byte comment, but the file ends 0 bytes after"},
        {"counts_past_file", false, counts_past_file,
         "lists 60000 entries, which need at least 2760000 bytes of central directory"},
        {"counts_disagree", false, counts_disagree, "entry counts disagree (3 on this disk, 4 in all)"},
        {"directory_past_record", false, directory_past_record, "runs past the end record at byte"},
        {"entries_over_cap", true, entries_over_cap, "lists 2097152 entries, over the cap of 1048576"},
        {"directory_over_cap", true, directory_over_cap, "over the cap of 268435456"},
        {"zip64_record_gone", true, zip64_record_gone, "its ZIP64 locator names an end record"},
        {"split_archive", false, split_archive, "a split (multi-disk) archive"},
        {"bad_signature", false, bad_signature, "entry 1 of 4 (byte"},
        {"name_past_directory", false, name_past_directory, "run past the end of the central directory"},
        {"empty_name", false, empty_name, "entry 2 of 4 has an empty name"},
        {"duplicate_name", false, duplicate_name, "appears twice in the central directory"},
        {"data_past_directory", false, data_past_directory, "maps/x.bsp: its data"},
        {"not_a_zip", false, not_a_zip, "not a zip archive: no end-of-central-directory record"},
        {"tiny_file", false, tiny_file, "6 bytes, too short for a zip archive"},
    };
    int failed = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture f;
        fixture_make(&f, 0);
        zw_zip z = zw_build(f.e, 4, cases[c].zip64);
        size_t n = cases[c].corrupt(&z);
        char dir[512], path[600];
        int bad = zw_write(&z, n, case_path(cases[c].name, dir, path));
        free(z.p);
        free(f.map);
        CHECK(!bad, "cannot write %s", path);
        gn_pak *pak = NULL;
        gn_error err = {0};
        gn_result r = gn_pak_open(dir, &pak, &err);
        gn_pak_close(pak);
        printf("%-22s %s\n", cases[c].name, err.message);
        bool ok = r == GN_ERROR_BAD_DATA && strncmp(err.message, path, strlen(path)) == 0 &&
                  err.message[strlen(path)] == ':' && strstr(err.message, cases[c].want) &&
                  !strchr(err.message, '\n');
        if (!ok)
            fprintf(stderr, "%s: result %d, '%s'; expected GN_ERROR_BAD_DATA and '%s: ...%s...'\n",
                    cases[c].name, (int)r, err.message, path, cases[c].want);
        failed |= !ok;
    }
    return failed;
}

/* A map the scene refuses (a vertex at 3e30 units, beyond the scene's cap): the message, which
 * the scene's check starts with the mesh, names the map, in an archive and as a file. */
static int test_map_named(void)
{
    tmap m;
    tm_build(&m, 16.0f);
    tm_f32(&m, 10, 0, 0, 3e30f);
    size_t size = 0;
    uint8_t *map = tm_serialize(&m, &size);
    tm_free(&m);
    zw_entry e = {"maps/x.bsp", map, size, 0};
    zw_zip z = zw_build(&e, 1, false);
    char dir[512], path[600], file[600], want[700];
    int bad = zw_write(&z, z.n, case_path("far_vertex", dir, path));
    snprintf(file, sizeof file, "%s/far.bsp", dir);
    FILE *f = fopen(file, "wb");
    bad |= !f || fwrite(map, 1, size, f) != size;
    if (f) bad |= fclose(f) != 0;
    free(z.p);
    free(map);
    CHECK(!bad, "cannot write %s or %s", path, file);
    static load_trial t;
    load_map(dir, &t);
    printf("far_vertex: %s\n", t.err.message);
    snprintf(want, sizeof want, "%s: maps/x.bsp: mesh '", path);
    CHECK(t.res == GN_ERROR_BAD_DATA && strncmp(t.err.message, want, strlen(want)) == 0 &&
              strstr(t.err.message, "beyond"),
          "result %d, '%s'; expected '%s...beyond...'", (int)t.res, t.err.message, want);
    gn_load_desc ld = {.path = file, .log = capture, .log_user = &t.log};
    gn_scene *s = NULL;
    gn_error err = {0};
    gn_result r = gn_scene_load(&ld, &s, &err);
    gn_scene_destroy(s);
    printf("far_vertex: %s\n", err.message);
    snprintf(want, sizeof want, "%s: mesh '", file);
    CHECK(r == GN_ERROR_BAD_DATA && strncmp(err.message, want, strlen(want)) == 0,
          "result %d, '%s'; expected '%s...'", (int)r, err.message, want);
    return 0;
}

int main(void)
{
    int failed = test_crc32();
    failed |= test_good();
    failed |= test_stored_flip();
    failed |= test_deflate_sweep();
    failed |= test_refusals();
    failed |= test_map_named();
    return failed;
}

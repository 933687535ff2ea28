/* Small zip archives built in memory for the archive tests (test_pak_crc.c): entries stored
 * (method 0) or deflated (method 8) with a fixed-Huffman encoder of literals and runs, the
 * offsets of every record kept so that a test can corrupt one byte or field and write the
 * result. Optionally ZIP64's end record and locator, with the classic record's fields at
 * 0xFFFF / 0xFFFFFFFF as a ZIP64 writer leaves them. */
#ifndef GN_TESTS_ZIP_WRITER_H
#define GN_TESTS_ZIP_WRITER_H

#include "base/crc32.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZW_MAX_ENTRIES 16

typedef struct zw_entry {
    const char *name;
    const uint8_t *data;
    size_t size;
    int method; /* 0 stored, 8 deflated */
} zw_entry;

typedef struct zw_zip {
    uint8_t *p;
    size_t n, cap;
    size_t data_at[ZW_MAX_ENTRIES], data_len[ZW_MAX_ENTRIES]; /* each entry's (compressed) data */
    size_t central_at[ZW_MAX_ENTRIES];                        /* each entry's central header */
    size_t cd_at, cd_size, end_at, end64_at, locator_at;      /* end64/locator: 0 without ZIP64 */
} zw_zip;

static void zw_grow(zw_zip *z, size_t more)
{
    if (z->n + more <= z->cap) return;
    while (z->n + more > z->cap) z->cap = z->cap ? z->cap * 2 : 4096;
    z->p = realloc(z->p, z->cap);
}

static void zw_bytes(zw_zip *z, const void *d, size_t n)
{
    zw_grow(z, n);
    if (n) memcpy(z->p + z->n, d, n);
    z->n += n;
}

static void zw_le(zw_zip *z, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        uint8_t b = (uint8_t)(v >> (8 * i));
        zw_bytes(z, &b, 1);
    }
}

static void zw_set_le(zw_zip *z, size_t at, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) z->p[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

/* deflate (RFC 1951), one final block with the fixed codes: literals, and runs of the previous
 * byte as length 258 at distance 1 (so zero-filled lumps do compress) */
typedef struct zw_bits {
    zw_zip *z;
    uint32_t acc;
    int n;
} zw_bits;

static void zw_put_bits(zw_bits *b, uint32_t v, int n)
{
    for (int i = 0; i < n; i++) {
        b->acc |= ((v >> i) & 1u) << b->n;
        if (++b->n == 8) {
            uint8_t byte = (uint8_t)b->acc;
            zw_bytes(b->z, &byte, 1);
            b->acc = 0, b->n = 0;
        }
    }
}

static void zw_put_code(zw_bits *b, uint32_t code, int len) /* Huffman codes go most significant bit first */
{
    for (int i = len - 1; i >= 0; i--) zw_put_bits(b, (code >> i) & 1u, 1);
}

static void zw_fixed_symbol(zw_bits *b, uint32_t sym)
{
    if (sym < 144)
        zw_put_code(b, 0x30 + sym, 8);
    else if (sym < 256)
        zw_put_code(b, 0x190 + sym - 144, 9);
    else if (sym < 280)
        zw_put_code(b, sym - 256, 7);
    else
        zw_put_code(b, 0xc0 + sym - 280, 8);
}

static void zw_deflate(zw_zip *z, const uint8_t *d, size_t n)
{
    zw_bits b = {.z = z};
    zw_put_bits(&b, 1, 1); /* final block */
    zw_put_bits(&b, 1, 2); /* fixed Huffman codes */
    for (size_t i = 0; i < n;) {
        size_t run = 0;
        while (i > 0 && run < 258 && i + run < n && d[i + run] == d[i - 1]) run++;
        if (run == 258) {
            zw_fixed_symbol(&b, 285); /* length 258 */
            zw_put_code(&b, 0, 5);    /* distance code 0: distance 1 */
            i += 258;
        } else {
            zw_fixed_symbol(&b, d[i++]);
        }
    }
    zw_fixed_symbol(&b, 256); /* end of block */
    if (b.n) zw_put_bits(&b, 0, 8 - b.n);
}

/* The archive of the entries; zip64 adds the ZIP64 end record and locator. */
static zw_zip zw_build(const zw_entry *e, uint32_t count, bool zip64)
{
    zw_zip z = {0};
    uint32_t crc[ZW_MAX_ENTRIES];
    size_t local_at[ZW_MAX_ENTRIES];
    for (uint32_t i = 0; i < count && i < ZW_MAX_ENTRIES; i++) {
        size_t len = strlen(e[i].name);
        crc[i] = gn_crc32(0, e[i].data, e[i].size);
        local_at[i] = z.n;
        zw_le(&z, 0x04034b50u, 4);
        zw_le(&z, 20, 2); /* version needed */
        zw_le(&z, 0, 2);  /* flags */
        zw_le(&z, (uint64_t)e[i].method, 2);
        zw_le(&z, 0, 4); /* time, date */
        zw_le(&z, crc[i], 4);
        size_t sizes_at = z.n;
        zw_le(&z, 0, 8); /* sizes: filled in below */
        zw_le(&z, len, 2);
        zw_le(&z, 0, 2);
        zw_bytes(&z, e[i].name, len);
        z.data_at[i] = z.n;
        if (e[i].method == 8)
            zw_deflate(&z, e[i].data, e[i].size);
        else
            zw_bytes(&z, e[i].data, e[i].size);
        z.data_len[i] = z.n - z.data_at[i];
        zw_set_le(&z, sizes_at, z.data_len[i], 4);
        zw_set_le(&z, sizes_at + 4, e[i].size, 4);
    }
    z.cd_at = z.n;
    for (uint32_t i = 0; i < count && i < ZW_MAX_ENTRIES; i++) {
        size_t len = strlen(e[i].name);
        z.central_at[i] = z.n;
        zw_le(&z, 0x02014b50u, 4);
        zw_le(&z, 3u << 8 | 20, 2); /* made by: Unix */
        zw_le(&z, 20, 2);
        zw_le(&z, 0, 2);
        zw_le(&z, (uint64_t)e[i].method, 2);
        zw_le(&z, 0, 4);
        zw_le(&z, crc[i], 4);
        zw_le(&z, z.data_len[i], 4);
        zw_le(&z, e[i].size, 4);
        zw_le(&z, len, 2);
        zw_le(&z, 0, 2); /* extra */
        zw_le(&z, 0, 2); /* comment */
        zw_le(&z, 0, 2); /* disk */
        zw_le(&z, 0, 2); /* internal attributes */
        zw_le(&z, 0100644u << 16, 4);
        zw_le(&z, local_at[i], 4);
        zw_bytes(&z, e[i].name, len);
    }
    z.cd_size = z.n - z.cd_at;
    if (zip64) {
        z.end64_at = z.n;
        zw_le(&z, 0x06064b50u, 4);
        zw_le(&z, 44, 8); /* the record's size after this field */
        zw_le(&z, 45, 2);
        zw_le(&z, 45, 2);
        zw_le(&z, 0, 4);
        zw_le(&z, 0, 4);
        zw_le(&z, count, 8);
        zw_le(&z, count, 8);
        zw_le(&z, z.cd_size, 8);
        zw_le(&z, z.cd_at, 8);
        z.locator_at = z.n;
        zw_le(&z, 0x07064b50u, 4);
        zw_le(&z, 0, 4);
        zw_le(&z, z.end64_at, 8);
        zw_le(&z, 1, 4);
    }
    z.end_at = z.n;
    zw_le(&z, 0x06054b50u, 4);
    zw_le(&z, 0, 4);
    zw_le(&z, zip64 ? 0xffffu : count, 2);
    zw_le(&z, zip64 ? 0xffffu : count, 2);
    zw_le(&z, zip64 ? 0xffffffffu : z.cd_size, 4);
    zw_le(&z, zip64 ? 0xffffffffu : z.cd_at, 4);
    zw_le(&z, 0, 2); /* comment */
    return z;
}

static int zw_write(const zw_zip *z, size_t n, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    size_t put = fwrite(z->p, 1, n, f);
    return (fclose(f) != 0) | (put != n);
}

#endif

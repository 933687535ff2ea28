/* A zip's central directory (zip.h), after PKWARE's APPNOTE.TXT: 4.3.16 the end of central
 * directory record, 4.3.14-15 the ZIP64 end record and its locator, 4.3.12 the central
 * directory's file headers, 4.5.3 the ZIP64 extra field. Only what the CRC check needs is kept
 * (each file's name and CRC-32); everything read is checked, since PhysicsFS then reads the
 * same records (it has no cap on the entry count and reads a name's last byte even when the
 * name is empty). */
#define _POSIX_C_SOURCE 200809L /* fseeko */
#include "formats/zip.h"

#include "base/alloc.h"
#include "base/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define GN_ZIP_END_SIZE 22u                          /* the end of central directory record */
#define GN_ZIP_END_SEARCH (65535u + GN_ZIP_END_SIZE) /* the record and the longest comment */
#define GN_ZIP_LOCATOR_SIZE 20u                      /* the ZIP64 locator, just before the record */
#define GN_ZIP64_END_SIZE 56u                        /* the ZIP64 end record without extensible data */
#define GN_ZIP_ENTRY_SIZE 46u                        /* a central directory file header, before its name */
#define GN_ZIP_LOCAL_SIZE 30u                        /* a local file header, before its name */
#define GN_ZIP_SIG_END 0x06054b50u
#define GN_ZIP_SIG_LOCATOR 0x07064b50u
#define GN_ZIP_SIG_END64 0x06064b50u
#define GN_ZIP_SIG_ENTRY 0x02014b50u

struct gn_zip_index {
    char *names;        /* the files' names, each NUL-terminated, one after another */
    uint32_t *slot;     /* open addressing by name: 1 + the name's offset in names; 0 is empty */
    uint32_t *slot_crc; /* the CRC-32 of each slot's file */
    uint32_t mask;      /* slots - 1: a power of two, at least twice the entries */
    uint32_t files;
};

/* Where the central directory lies, from the end record (or ZIP64's). */
typedef struct zip_dir {
    uint32_t disk, dir_disk;
    uint64_t disk_entries, entries, size, offset;
    uint64_t end;    /* the directory must end here: at the end record, or at ZIP64's */
    uint64_t prefix; /* bytes before the zip (a self-extracting stub): offsets are from there */
    uint64_t at;     /* the directory's first byte in the file */
} zip_dir;

typedef struct zip_reader {
    FILE *f;
    const char *path;
    uint64_t size;
    gn_error *err;
} zip_reader;

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

static gn_result __attribute__((format(printf, 2, 3))) zip_bad(const zip_reader *r, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return gn_fail(r->err, GN_ERROR_BAD_DATA, "%s: %s", r->path, what);
}

static bool read_at(const zip_reader *r, uint64_t at, void *buf, size_t n)
{
    return fseeko(r->f, (off_t)at, SEEK_SET) == 0 && fread(buf, 1, n, r->f) == n;
}

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* The end record: the last signature within the search window whose comment ends the file. */
static gn_result find_end(const zip_reader *r, uint64_t *end_at, uint8_t rec[GN_ZIP_END_SIZE])
{
    if (r->size < GN_ZIP_END_SIZE)
        return zip_bad(r, "%llu bytes, too short for a zip archive (a .pk3 is a zip: 22 bytes at least)",
                       (unsigned long long)r->size);
    size_t tail = r->size < GN_ZIP_END_SEARCH ? (size_t)r->size : GN_ZIP_END_SEARCH;
    uint64_t base = r->size - tail;
    uint8_t *buf = gn_malloc(tail);
    if (!buf) return gn_fail(r->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", r->path);
    if (!read_at(r, base, buf, tail)) {
        free(buf);
        return gn_fail(r->err, GN_ERROR_IO, "%s: cannot read its last %zu bytes", r->path, tail);
    }
    bool seen = false;
    uint64_t seen_at = 0, seen_comment = 0;
    for (size_t i = tail - GN_ZIP_END_SIZE + 1; i-- > 0;) {
        if (le32(buf + i) != GN_ZIP_SIG_END) continue;
        uint64_t comment = le16(buf + i + 20);
        if (base + i + GN_ZIP_END_SIZE + comment == r->size) {
            memcpy(rec, buf + i, GN_ZIP_END_SIZE);
            *end_at = base + i;
            free(buf);
            return GN_OK;
        }
        if (!seen) seen = true, seen_at = base + i, seen_comment = comment;
    }
    free(buf);
    if (seen)
        return zip_bad(r,
                       "the end-of-central-directory record at byte %llu gives a %llu-byte comment, but "
                       "the file ends %llu bytes after the record (a truncated or damaged archive)",
                       (unsigned long long)seen_at, (unsigned long long)seen_comment,
                       (unsigned long long)(r->size - seen_at - GN_ZIP_END_SIZE));
    return zip_bad(r,
                   "not a zip archive: no end-of-central-directory record in its last %zu bytes (a .pk3 "
                   "is a zip)",
                   tail);
}

/* The ZIP64 end record named by the locator at loc_at: at the offset the locator gives, or
 * right before the locator when bytes were prepended (the offset is then off by the prefix). */
static gn_result read_end64(const zip_reader *r, uint64_t loc_at, const uint8_t *loc, zip_dir *d)
{
    uint64_t named = le64(loc + 8);
    if (le32(loc + 4) != 0 || le32(loc + 16) > 1)
        return zip_bad(r, "a split (multi-disk) ZIP64 archive (%u disks), which gnomon does not read",
                       le32(loc + 16));
    uint8_t rec[GN_ZIP64_END_SIZE];
    uint64_t at = named;
    bool found = named <= loc_at && loc_at - named >= GN_ZIP64_END_SIZE &&
                 read_at(r, named, rec, sizeof rec) && le32(rec) == GN_ZIP_SIG_END64;
    if (!found && loc_at >= named + GN_ZIP64_END_SIZE) {
        at = loc_at - GN_ZIP64_END_SIZE;
        found = read_at(r, at, rec, sizeof rec) && le32(rec) == GN_ZIP_SIG_END64;
    }
    if (!found)
        return zip_bad(r,
                       "its ZIP64 locator names an end record at byte %llu, and there is none there or "
                       "before the locator (a damaged archive)",
                       (unsigned long long)named);
    d->disk = le32(rec + 16);
    d->dir_disk = le32(rec + 20);
    d->disk_entries = le64(rec + 24);
    d->entries = le64(rec + 32);
    d->size = le64(rec + 40);
    d->offset = le64(rec + 48);
    d->end = at;
    d->prefix = at - named;
    return GN_OK;
}

/* The end record's counts and offsets, against the caps and the file. */
static gn_result read_end(const zip_reader *r, zip_dir *d)
{
    uint8_t e[GN_ZIP_END_SIZE] = {0}, loc[GN_ZIP_LOCATOR_SIZE] = {0};
    uint64_t end_at = 0;
    gn_result res = find_end(r, &end_at, e);
    if (res) return res;
    *d = (zip_dir){.disk = le16(e + 4),
                   .dir_disk = le16(e + 6),
                   .disk_entries = le16(e + 8),
                   .entries = le16(e + 10),
                   .size = le32(e + 12),
                   .offset = le32(e + 16),
                   .end = end_at};
    bool zip64 = end_at >= GN_ZIP_LOCATOR_SIZE && read_at(r, end_at - GN_ZIP_LOCATOR_SIZE, loc, sizeof loc) &&
                 le32(loc) == GN_ZIP_SIG_LOCATOR;
    if (zip64 && (res = read_end64(r, end_at - GN_ZIP_LOCATOR_SIZE, loc, d))) return res;
    const char *rec = zip64 ? "ZIP64 end record" : "end record";
    if (d->disk || d->dir_disk)
        return zip_bad(r,
                       "a split (multi-disk) archive (this is disk %u, the central directory on disk %u), "
                       "which gnomon does not read",
                       d->disk, d->dir_disk);
    if (d->disk_entries != d->entries)
        return zip_bad(r, "the %s's entry counts disagree (%llu on this disk, %llu in all)", rec,
                       (unsigned long long)d->disk_entries, (unsigned long long)d->entries);
    if (d->entries > GN_ZIP_MAX_ENTRIES)
        return zip_bad(r, "the %s lists %llu entries, over the cap of %u", rec,
                       (unsigned long long)d->entries, GN_ZIP_MAX_ENTRIES);
    if (d->size > GN_ZIP_MAX_DIRECTORY)
        return zip_bad(r, "the %s gives a central directory of %llu bytes, over the cap of %u", rec,
                       (unsigned long long)d->size, GN_ZIP_MAX_DIRECTORY);
    if (d->entries * GN_ZIP_ENTRY_SIZE > d->size)
        return zip_bad(r,
                       "the %s lists %llu entries, which need at least %llu bytes of central directory, "
                       "but it gives %llu (the file is %llu bytes)",
                       rec, (unsigned long long)d->entries,
                       (unsigned long long)(d->entries * GN_ZIP_ENTRY_SIZE), (unsigned long long)d->size,
                       (unsigned long long)r->size);
    /* Without ZIP64 the directory ends at the end record, which gives any prefix's length. */
    if (!zip64) {
        if (d->offset > d->end || d->size > d->end - d->offset)
            return zip_bad(r,
                           "the central directory (%llu bytes at byte %llu) runs past the end record at "
                           "byte %llu (a truncated or damaged archive)",
                           (unsigned long long)d->size, (unsigned long long)d->offset,
                           (unsigned long long)d->end);
        d->prefix = d->end - d->offset - d->size;
    } else if (d->offset > d->end - d->prefix || d->size > d->end - d->prefix - d->offset) {
        return zip_bad(r,
                       "the central directory (%llu bytes at byte %llu) runs past the ZIP64 end record at "
                       "byte %llu (a truncated or damaged archive)",
                       (unsigned long long)d->size, (unsigned long long)(d->offset + d->prefix),
                       (unsigned long long)d->end);
    }
    d->at = d->offset + d->prefix;
    return GN_OK;
}

/* One central directory file header, as read. */
typedef struct zip_entry {
    const uint8_t *p; /* its header in the directory */
    uint64_t index;
    uint32_t made_by, crc, name_len, extra_len, comment_len, disk;
    uint64_t csize, usize, local; /* compressed and uncompressed size, local header offset */
    char *name;                   /* into the index's names */
    bool dir;
} zip_entry;

static void entry_fields(zip_entry *e)
{
    const uint8_t *p = e->p;
    e->made_by = le16(p + 4), e->crc = le32(p + 16), e->csize = le32(p + 20), e->usize = le32(p + 24);
    e->name_len = le16(p + 28), e->extra_len = le16(p + 30), e->comment_len = le16(p + 32);
    e->disk = le16(p + 34), e->local = le32(p + 42);
}

/* The 64-bit sizes and offset from the ZIP64 extra field, for those given as 0xFFFFFFFF (in the
 * field's order: uncompressed size, compressed size, offset). */
static gn_result read_zip64_extra(const zip_reader *r, zip_entry *e)
{
    const uint8_t *x = e->p + GN_ZIP_ENTRY_SIZE + e->name_len;
    uint32_t len = e->extra_len;
    for (uint32_t at = 0; at + 4 <= len;) {
        uint32_t id = le16(x + at), n = le16(x + at + 2);
        if (n > len - at - 4) return zip_bad(r, "%.200s: its extra field runs past its end", e->name);
        if (id == 1) {
            uint64_t *want[3] = {&e->usize, &e->csize, &e->local};
            uint32_t k = 0;
            for (int i = 0; i < 3; i++) {
                if (*want[i] != 0xffffffffu) continue;
                if (k + 8 > n) return zip_bad(r, "%.200s: its ZIP64 extra field is too short", e->name);
                *want[i] = le64(x + at + 4 + k);
                k += 8;
            }
            return GN_OK;
        }
        at += 4 + n;
    }
    return zip_bad(r, "%.200s: a size or offset of 0xFFFFFFFF and no ZIP64 extra field", e->name);
}

/* The entry's name into e->name (PhysicsFS's spelling: a DOS archive's '\' as '/'). */
static gn_result read_name(const zip_reader *r, const zip_dir *d, zip_entry *e)
{
    uint32_t n = e->name_len;
    if (n == 0)
        return zip_bad(r, "entry %llu of %llu has an empty name", (unsigned long long)e->index,
                       (unsigned long long)d->entries);
    memcpy(e->name, e->p + GN_ZIP_ENTRY_SIZE, n);
    e->name[n] = '\0';
    if (strlen(e->name) != n)
        return zip_bad(r, "entry %llu of %llu: its name holds a NUL byte", (unsigned long long)e->index,
                       (unsigned long long)d->entries);
    if (e->made_by >> 8 == 0) /* made on FAT (MS-DOS): PhysicsFS turns '\' into '/' */
        for (char *c = e->name; *c; c++)
            if (*c == '\\') *c = '/';
    e->dir = e->name[n - 1] == '/';
    return GN_OK;
}

/* One entry after its name: sizes, disk, its data before the directory. */
static gn_result check_entry(const zip_reader *r, const zip_dir *d, zip_entry *e)
{
    gn_result res = GN_OK;
    if (e->csize == 0xffffffffu || e->usize == 0xffffffffu || e->local == 0xffffffffu)
        res = read_zip64_extra(r, e);
    if (res) return res;
    if (e->disk != 0 && e->disk != 0xffffu)
        return zip_bad(r, "%.200s starts on disk %u (a split archive, which gnomon does not read)", e->name,
                       e->disk);
    /* offsets count from the zip's start, which is the prefix's end */
    uint64_t dir_at = d->at - d->prefix;
    if (e->local > dir_at || GN_ZIP_LOCAL_SIZE + e->csize > dir_at - e->local)
        return zip_bad(r,
                       "%.200s: its data (%llu bytes after a header at byte %llu) runs past the start of "
                       "the central directory at byte %llu (a truncated or damaged archive)",
                       e->name, (unsigned long long)e->csize, (unsigned long long)(e->local + d->prefix),
                       (unsigned long long)d->at);
    return GN_OK;
}

/* Every file header of the directory, checked, then each file's name and CRC into the table (a
 * name twice is refused, as PhysicsFS refuses it). */
static gn_result read_entries(const zip_reader *r, const zip_dir *d, const uint8_t *cd, gn_zip_index *z)
{
    uint64_t at = 0, used = 0;
    for (uint64_t i = 0; i < d->entries; i++) {
        if (d->size - at < GN_ZIP_ENTRY_SIZE)
            return zip_bad(r,
                           "entry %llu of %llu: its header runs past the end of the central directory "
                           "(byte %llu of %llu; a truncated or damaged archive)",
                           (unsigned long long)i, (unsigned long long)d->entries, (unsigned long long)at,
                           (unsigned long long)d->size);
        zip_entry e = {.p = cd + at, .index = i, .name = z->names + used};
        if (le32(e.p) != GN_ZIP_SIG_ENTRY)
            return zip_bad(r,
                           "entry %llu of %llu (byte %llu of the central directory) does not start with a "
                           "file header's signature (a damaged archive)",
                           (unsigned long long)i, (unsigned long long)d->entries, (unsigned long long)at);
        entry_fields(&e);
        if ((uint64_t)e.name_len + e.extra_len + e.comment_len > d->size - at - GN_ZIP_ENTRY_SIZE)
            return zip_bad(r,
                           "entry %llu of %llu: its name, extra field and comment (%u + %u + %u bytes) run "
                           "past the end of the central directory (a truncated or damaged archive)",
                           (unsigned long long)i, (unsigned long long)d->entries, e.name_len, e.extra_len,
                           e.comment_len);
        gn_result res = read_name(r, d, &e);
        if (!res) res = check_entry(r, d, &e);
        if (res) return res;
        at += GN_ZIP_ENTRY_SIZE + e.name_len + e.extra_len + e.comment_len;
        if (e.dir) continue; /* folders hold no data to check */
        uint32_t h = name_hash(e.name);
        for (;; h++) {
            uint32_t s = z->slot[h & z->mask];
            if (!s) break;
            if (strcmp(z->names + s - 1, e.name) == 0)
                return zip_bad(r, "%.200s appears twice in the central directory (a damaged archive)",
                               e.name);
        }
        z->slot[h & z->mask] = (uint32_t)used + 1;
        z->slot_crc[h & z->mask] = e.crc;
        used += e.name_len + 1;
        z->files++;
    }
    return GN_OK;
}

gn_result gn_zip_index_read(const char *path, uint64_t size, gn_zip_index **out, gn_error *err)
{
    *out = NULL;
    zip_reader r = {.path = path, .size = size, .err = err};
    if (!(r.f = fopen(path, "rb")))
        return gn_fail(err, GN_ERROR_IO, "%s: cannot open the file: %s", path, strerror(errno));
    zip_dir d;
    gn_result res = read_end(&r, &d);
    gn_zip_index *z = res ? NULL : gn_calloc(1, sizeof *z);
    uint8_t *cd = NULL;
    if (!res && z) {
        uint32_t slots = 16;
        while (slots < 2 * d.entries) slots *= 2; /* entries <= 2^20: no overflow */
        z->mask = slots - 1;
        z->slot = gn_calloc(slots, sizeof *z->slot);
        z->slot_crc = gn_calloc(slots, sizeof *z->slot_crc);
        z->names = gn_malloc(d.size + 1); /* each name and its NUL fit in its 46-byte header and name */
        cd = gn_malloc(d.size + 1);
    }
    if (!res && (!z || !z->slot || !z->slot_crc || !z->names || !cd))
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for a central directory of %llu bytes",
                      path, (unsigned long long)d.size);
    if (!res && !read_at(&r, d.at, cd, (size_t)d.size))
        res = gn_fail(err, GN_ERROR_IO, "%s: cannot read its central directory (%llu bytes at byte %llu)",
                      path, (unsigned long long)d.size, (unsigned long long)d.at);
    if (!res) res = read_entries(&r, &d, cd, z);
    free(cd);
    fclose(r.f);
    if (res) {
        gn_zip_index_free(z);
        return res;
    }
    *out = z;
    return GN_OK;
}

void gn_zip_index_free(gn_zip_index *z)
{
    if (!z) return;
    free(z->names);
    free(z->slot);
    free(z->slot_crc);
    free(z);
}

uint32_t gn_zip_index_files(const gn_zip_index *z) { return z ? z->files : 0; }

bool gn_zip_index_crc(const gn_zip_index *z, const char *name, uint32_t *crc)
{
    if (!z || !name) return false;
    for (uint32_t h = name_hash(name);; h++) {
        uint32_t s = z->slot[h & z->mask];
        if (!s) return false;
        if (strcmp(z->names + s - 1, name) == 0) {
            *crc = z->slot_crc[h & z->mask];
            return true;
        }
    }
}

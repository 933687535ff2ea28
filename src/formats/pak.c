/* PhysicsFS keeps its search path in process-wide state, so a gn_pak is the one owner of it
 * at a time (opening a second is refused with a clear error rather than mixing archives). */
#define _POSIX_C_SOURCE 200809L /* opendir/readdir */
#include "formats/pak.h"

#include "base/alloc.h"
#include "base/error.h"
#include "base/file.h"

#include <dirent.h>
#include <physfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More are refused, not cut off: each mounted archive holds a file descriptor open, and
 * 1024 is the usual limit on those. */
#define GN_PAK_MAX_ARCHIVES 1024

struct gn_pak {
    uint32_t archives;
};

static gn_pak *gn_pak_owner; /* PhysicsFS is global; this says who holds it */

static const char *physfs_error(void) { return PHYSFS_getErrorByCode(PHYSFS_getLastErrorCode()); }

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

gn_result gn_pak_open(const char *folder, gn_pak **out, gn_error *err)
{
    *out = NULL;
    if (gn_pak_owner)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: another archive set is open", folder);
    DIR *dir = opendir(folder);
    if (!dir) return gn_fail(err, GN_ERROR_IO, "%s: cannot open the folder", folder);
    char **names = gn_calloc(GN_PAK_MAX_ARCHIVES, sizeof *names);
    uint32_t n = 0;
    bool too_many = false, no_memory = !names;
    for (struct dirent *e; !too_many && !no_memory && (e = readdir(dir));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".pk3") != 0) continue;
        if (n == GN_PAK_MAX_ARCHIVES) {
            too_many = true;
            break;
        }
        names[n] = gn_malloc(strlen(folder) + len + 2);
        if (!names[n])
            no_memory = true;
        else
            sprintf(names[n++], "%s/%s", folder, e->d_name);
    }
    closedir(dir);
    gn_result res = GN_OK;
    if (no_memory)
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory listing %s", folder);
    else if (too_many)
        res = gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: more than %u .pk3 archives (the cap); merge some",
                      folder, GN_PAK_MAX_ARCHIVES);
    else if (n == 0)
        res = gn_fail(err, GN_ERROR_IO, "%s: no .pk3 archives", folder);
    if (!res && !PHYSFS_init(NULL)) res = gn_fail(err, GN_ERROR_IO, "PhysicsFS: %s", physfs_error());
    /* ascending names, each prepended: the last archive is searched first (it overrides) */
    if (!res) qsort(names, n, sizeof *names, by_name);
    for (uint32_t i = 0; !res && i < n; i++) /* a FIFO named x.pk3 would block the mount */
        if (!(res = gn_file_check_regular(names[i], NULL, err)) && !PHYSFS_mount(names[i], NULL, 0))
            res =
                gn_fail(err, GN_ERROR_BAD_DATA, "%s: not a readable archive (%s)", names[i], physfs_error());
    for (uint32_t i = 0; names && i < n; i++) free(names[i]);
    free(names);
    gn_pak *p = res ? NULL : gn_calloc(1, sizeof *p);
    if (!res && !p) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory");
    if (res) {
        if (PHYSFS_isInit()) PHYSFS_deinit();
        return res;
    }
    p->archives = n;
    gn_pak_owner = p;
    *out = p;
    return GN_OK;
}

void gn_pak_close(gn_pak *p)
{
    if (!p) return;
    if (gn_pak_owner == p) {
        PHYSFS_deinit();
        gn_pak_owner = NULL;
    }
    free(p);
}

uint32_t gn_pak_archive_count(const gn_pak *p) { return p ? p->archives : 0; }

int gn_pak_exists(gn_pak *p, const char *path) { return p && gn_pak_owner == p && PHYSFS_exists(path); }

const char *gn_pak_origin(gn_pak *p, const char *path)
{
    const char *dir = p && gn_pak_owner == p ? PHYSFS_getRealDir(path) : NULL;
    return dir ? dir : "?";
}

gn_result gn_pak_read(gn_pak *p, const char *path, size_t cap, uint8_t **data, size_t *size, gn_error *err)
{
    *data = NULL;
    *size = 0;
    if (!p || gn_pak_owner != p) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: no archives open", path);
    PHYSFS_File *f = PHYSFS_openRead(path);
    if (!f) return gn_fail(err, GN_ERROR_IO, "%s: not found in the archives", path);
    PHYSFS_sint64 len = PHYSFS_fileLength(f);
    if (len < 0 || (uint64_t)len > cap) {
        PHYSFS_close(f);
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: size %lld outside 0..%zu", path, (long long)len, cap);
    }
    uint8_t *buf = gn_malloc((size_t)len + 1);
    if (!buf) {
        PHYSFS_close(f);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %lld bytes", path, (long long)len);
    }
    PHYSFS_sint64 got = PHYSFS_readBytes(f, buf, (PHYSFS_uint64)len);
    PHYSFS_close(f);
    if (got != len) {
        free(buf);
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: read %lld of %lld bytes (%s)", path, (long long)got,
                       (long long)len, physfs_error());
    }
    buf[len] = 0; /* text files (entities, shaders) can be read as strings */
    *data = buf;
    *size = (size_t)len;
    return GN_OK;
}

gn_result gn_pak_list(gn_pak *p, const char *folder, const char *ext, char ***names, uint32_t *count,
                      gn_error *err)
{
    *names = NULL;
    *count = 0;
    if (!p || gn_pak_owner != p)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: no archives open", folder);
    char **list = PHYSFS_enumerateFiles(folder);
    if (!list) return gn_fail(err, GN_ERROR_IO, "%s: cannot list (%s)", folder, physfs_error());
    uint32_t n = 0;
    for (char **i = list; *i; i++) n++;
    char **out = gn_calloc(n ? n : 1, sizeof *out);
    uint32_t k = 0;
    size_t el = strlen(ext);
    bool oom = !out;
    for (char **i = list; !oom && *i; i++) {
        size_t len = strlen(*i);
        if (len < el || strcmp(*i + len - el, ext) != 0) continue;
        if (!(out[k] = gn_malloc(len + 1))) oom = true; /* never a list with a name left out */
        if (!oom) memcpy(out[k++], *i, len + 1);
    }
    PHYSFS_freeList(list);
    if (oom) {
        for (uint32_t j = 0; out && j < k; j++) free(out[j]);
        free(out);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory listing %s", folder);
    }
    qsort(out, k, sizeof *out, by_name);
    *names = out;
    *count = k;
    return GN_OK;
}

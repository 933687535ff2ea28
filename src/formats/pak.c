/* PhysicsFS keeps its search path in process-wide state, so a gn_pak is the one owner of it
 * at a time (opening a second is refused with a clear error rather than mixing archives).
 * PhysicsFS checks no CRC, so each archive's central directory is also read here (zip.h) and
 * every file read whole is checked against the CRC-32 its archive gives for it. */
#define _POSIX_C_SOURCE 200809L /* opendir/readdir */
#include "formats/pak.h"

#include "base/alloc.h"
#include "base/crc32.h"
#include "base/error.h"
#include "base/file.h"
#include "formats/zip.h"

#include <dirent.h>
#include <errno.h>
#include <physfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More are refused, not cut off: each mounted archive holds a file descriptor open, and
 * 1024 is the usual limit on those. */
#define GN_PAK_MAX_ARCHIVES 1024

struct gn_pak {
    uint32_t archives;
    char *folder;
    char **paths;         /* each archive as mounted, the name PHYSFS_getRealDir gives back */
    gn_zip_index **index; /* its central directory: name -> CRC-32 */
};

static gn_pak *gn_pak_owner; /* PhysicsFS is global; this says who holds it */

/* PhysicsFS's error code is sticky until read (an earlier PHYSFS_exists of a missing texture
 * leaves "not found" behind), so each call whose failure is reported clears it first, and the
 * reason is named only when PhysicsFS gave one. */
static void physfs_clear(void) { (void)PHYSFS_getLastErrorCode(); }

static const char *physfs_reason(PHYSFS_ErrorCode code)
{
    const char *why = code == PHYSFS_ERR_OK ? NULL : PHYSFS_getErrorByCode(code);
    return why ? why : "PhysicsFS gave no reason";
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void pak_free(gn_pak *p, uint32_t n)
{
    for (uint32_t i = 0; p->paths && i < n; i++) free(p->paths[i]);
    for (uint32_t i = 0; p->index && i < n; i++) gn_zip_index_free(p->index[i]);
    free(p->paths);
    free(p->index);
    free(p->folder);
    free(p);
}

/* The folder's .pk3 names (folder/name) in p->paths, sorted; *n set. */
static gn_result list_archives(gn_pak *p, const char *folder, uint32_t *n, gn_error *err)
{
    *n = 0;
    DIR *dir = opendir(folder);
    if (!dir) return gn_fail(err, GN_ERROR_IO, "%s: cannot open the folder: %s", folder, strerror(errno));
    bool too_many = false, no_memory = false;
    for (struct dirent *e; !too_many && !no_memory && (e = readdir(dir));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".pk3") != 0) continue;
        if (*n == GN_PAK_MAX_ARCHIVES) {
            too_many = true;
            break;
        }
        p->paths[*n] = gn_malloc(strlen(folder) + len + 2);
        if (!p->paths[*n])
            no_memory = true;
        else
            sprintf(p->paths[(*n)++], "%s/%s", folder, e->d_name);
    }
    closedir(dir);
    if (no_memory) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory listing %s", folder);
    if (too_many)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: more than %u .pk3 archives (the cap); merge some",
                       folder, GN_PAK_MAX_ARCHIVES);
    if (*n == 0) return gn_fail(err, GN_ERROR_IO, "%s: no .pk3 archives in the folder", folder);
    /* ascending names, each prepended when mounted: the last archive is searched first */
    qsort(p->paths, *n, sizeof *p->paths, by_name);
    return GN_OK;
}

gn_result gn_pak_open(const char *folder, gn_pak **out, gn_error *err)
{
    *out = NULL;
    if (gn_pak_owner)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: another archive set is open", folder);
    gn_pak *p = gn_calloc(1, sizeof *p);
    if (p) {
        p->paths = gn_calloc(GN_PAK_MAX_ARCHIVES, sizeof *p->paths);
        p->index = gn_calloc(GN_PAK_MAX_ARCHIVES, sizeof *p->index);
        p->folder = gn_malloc(strlen(folder) + 1);
    }
    if (!p || !p->paths || !p->index || !p->folder) {
        if (p) pak_free(p, 0);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory opening %s", folder);
    }
    strcpy(p->folder, folder);
    uint32_t n = 0;
    gn_result res = list_archives(p, folder, &n, err);
    physfs_clear();
    if (!res && !PHYSFS_init(NULL))
        res = gn_fail(err, GN_ERROR_IO, "%s: PhysicsFS cannot start (%s)", folder,
                      physfs_reason(PHYSFS_getLastErrorCode()));
    for (uint32_t i = 0; !res && i < n; i++) {
        uint64_t size = 0; /* a FIFO named x.pk3 would block the mount */
        res = gn_file_check_regular(p->paths[i], &size, err);
        if (!res) res = gn_zip_index_read(p->paths[i], size, &p->index[i], err);
        physfs_clear();
        if (!res && !PHYSFS_mount(p->paths[i], NULL, 0))
            res = gn_fail(err, GN_ERROR_BAD_DATA, "%s: PhysicsFS cannot mount the archive (%s)", p->paths[i],
                          physfs_reason(PHYSFS_getLastErrorCode()));
    }
    if (res) {
        if (PHYSFS_isInit()) PHYSFS_deinit();
        pak_free(p, n);
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
    pak_free(p, p->archives);
}

uint32_t gn_pak_archive_count(const gn_pak *p) { return p ? p->archives : 0; }

/* The last (overriding) archive whose central directory lists path, NULL when none does. */
static const char *listed_in(const gn_pak *p, const char *path)
{
    uint32_t crc;
    for (uint32_t i = p->archives; i-- > 0;)
        if (gn_zip_index_crc(p->index[i], path, &crc)) return p->paths[i];
    return NULL;
}

/* PhysicsFS says a file whose local header is broken does not exist; the central directory
 * still lists it, and the read then says what is wrong with it. */
int gn_pak_exists(gn_pak *p, const char *path)
{
    return p && gn_pak_owner == p && (PHYSFS_exists(path) || listed_in(p, path));
}

const char *gn_pak_origin(gn_pak *p, const char *path)
{
    const char *dir = p && gn_pak_owner == p ? PHYSFS_getRealDir(path) : NULL;
    if (!dir && p && gn_pak_owner == p) dir = listed_in(p, path);
    return dir ? dir : "?";
}

/* The index of the archive PhysicsFS reads path from, NULL when it names none of ours. */
static const gn_zip_index *index_of(const gn_pak *p, const char *archive)
{
    for (uint32_t i = 0; archive && i < p->archives; i++)
        if (strcmp(p->paths[i], archive) == 0) return p->index[i];
    return NULL;
}

/* The whole file's CRC-32 against its archive's central directory. */
static gn_result check_crc(const gn_pak *p, const char *path, const uint8_t *data, size_t size, gn_error *err)
{
    const char *archive = PHYSFS_getRealDir(path);
    const gn_zip_index *z = index_of(p, archive);
    uint32_t want = 0, got = gn_crc32(0, data, size);
    if (!z || !gn_zip_index_crc(z, path, &want))
        return gn_fail(err, GN_ERROR_BAD_DATA,
                       "%s: %s: PhysicsFS read a file the archive's central directory "
                       "does not list",
                       archive ? archive : p->folder, path);
    if (got != want)
        return gn_fail(err, GN_ERROR_BAD_DATA,
                       "%s: %s: CRC-32 0x%08x but the archive says 0x%08x (a corrupted archive)", archive,
                       path, got, want);
    return GN_OK;
}

gn_result gn_pak_read(gn_pak *p, const char *path, size_t cap, uint8_t **data, size_t *size, gn_error *err)
{
    *data = NULL;
    *size = 0;
    if (!p || gn_pak_owner != p) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: no archives open", path);
    physfs_clear();
    PHYSFS_File *f = PHYSFS_openRead(path);
    if (!f) {
        PHYSFS_ErrorCode code = PHYSFS_getLastErrorCode();
        const char *archive = PHYSFS_getRealDir(path);
        if (!archive) archive = listed_in(p, path);
        if (code == PHYSFS_ERR_NOT_FOUND && !archive)
            return gn_fail(err, GN_ERROR_IO, "%s: not in the %u archives of %s", path, p->archives,
                           p->folder);
        if (code == PHYSFS_ERR_NOT_A_FILE)
            return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %s is a folder in the archive, not a file",
                           archive ? archive : p->folder, path);
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %s: cannot be opened (PhysicsFS: %s)",
                       archive ? archive : p->folder, path, physfs_reason(code));
    }
    const char *archive = gn_pak_origin(p, path);
    PHYSFS_sint64 len = PHYSFS_fileLength(f);
    if (len < 0 || (uint64_t)len > cap) {
        PHYSFS_close(f);
        if (len < 0) return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %s: its size is unknown", archive, path);
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %s: %lld bytes, over the cap of %zu", archive, path,
                       (long long)len, cap);
    }
    uint8_t *buf = gn_malloc((size_t)len + 1);
    if (!buf) {
        PHYSFS_close(f);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: %s: out of memory for %lld bytes", archive, path,
                       (long long)len);
    }
    physfs_clear();
    PHYSFS_sint64 got = PHYSFS_readBytes(f, buf, (PHYSFS_uint64)len);
    PHYSFS_ErrorCode code = PHYSFS_getLastErrorCode();
    PHYSFS_close(f);
    gn_result res = GN_OK;
    if (got != len)
        res = gn_fail(err, GN_ERROR_BAD_DATA, "%s: %s: read %lld of %lld bytes (%s%s): a corrupted archive",
                      archive, path, (long long)(got < 0 ? 0 : got), (long long)len,
                      code == PHYSFS_ERR_OK ? "the data ends early" : "PhysicsFS: ",
                      code == PHYSFS_ERR_OK ? "" : physfs_reason(code));
    if (!res) res = check_crc(p, path, buf, (size_t)len, err);
    if (res) {
        free(buf);
        return res;
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
    physfs_clear();
    char **list = PHYSFS_enumerateFiles(folder);
    if (!list)
        return gn_fail(err, GN_ERROR_IO, "%s: cannot list %s in the archives (%s)", p->folder, folder,
                       physfs_reason(PHYSFS_getLastErrorCode()));
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

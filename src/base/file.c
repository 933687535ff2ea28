/* Regular files only; see file.h. */
#define _POSIX_C_SOURCE 200809L /* stat, S_ISFIFO and friends under -std=c11 */
#include "base/file.h"
#include "base/alloc.h"
#include "base/error.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *gn_file_kind(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (a named pipe)";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a file";
}

gn_result gn_file_check_regular(const char *path, uint64_t *size, gn_error *err)
{
    if (size) *size = 0;
    if (!path || !*path) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "no file name");
    struct stat st;
    if (stat(path, &st) != 0)
        return gn_fail(err, GN_ERROR_IO, "%s: cannot open the file: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return gn_fail(err, GN_ERROR_IO, "%s: is %s, not a regular file", path, gn_file_kind(st.st_mode));
    if (size) *size = (uint64_t)st.st_size;
    return GN_OK;
}

gn_result gn_file_read_text(const char *path, uint64_t cap, const char *what, char **text, size_t *len,
                            gn_error *err)
{
    *text = NULL, *len = 0;
    uint64_t size = 0;
    gn_result res = gn_file_check_regular(path, &size, err); /* a FIFO would block fopen */
    if (res) return res;
    if (size > cap)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %llu bytes, over the cap of %llu for %s", path,
                       (unsigned long long)size, (unsigned long long)cap, what);
    FILE *f = fopen(path, "rb");
    if (!f) return gn_fail(err, GN_ERROR_IO, "%s: cannot open the file: %s", path, strerror(errno));
    char *buf = gn_malloc((size_t)size + 1);
    if (!buf) {
        fclose(f);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %llu bytes", path,
                       (unsigned long long)size);
    }
    size_t got = fread(buf, 1, (size_t)size + 1, f); /* one byte more: a file that grew is refused */
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed || got != size) {
        free(buf);
        return gn_fail(err, GN_ERROR_IO, "%s: %s (%zu bytes read, %llu expected)", path,
                       failed ? "cannot read the file" : "its size changed while it was read", got,
                       (unsigned long long)size);
    }
    buf[got] = 0;
    *text = buf, *len = got;
    return GN_OK;
}

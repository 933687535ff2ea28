/* Regular files only; see file.h. */
#define _POSIX_C_SOURCE 200809L /* stat, S_ISFIFO and friends under -std=c11 */
#include "base/file.h"
#include "base/error.h"

#include <errno.h>
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

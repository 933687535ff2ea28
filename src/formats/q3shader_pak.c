/* A shader library from the mounted archives (q3shader.h, gn_q3_library_add_pak). */
#include "base/alloc.h"
#include "base/error.h"
#include "formats/pak.h"
#include "formats/q3shader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct script {
    char *name;         /* inside scripts/ */
    const char *origin; /* the archive it is read from */
} script;

/* gn_pak mounts archives in name order: the earliest archive first, then the file's name */
static int by_archive_then_name(const void *a, const void *b)
{
    const script *x = a, *y = b;
    int c = strcmp(x->origin, y->origin);
    return c ? c : strcmp(x->name, y->name);
}

gn_result gn_q3_library_add_pak(gn_q3_library *lib, gn_pak *pak, gn_error *err)
{
    char **names = NULL;
    uint32_t count = 0;
    gn_result res = gn_pak_list(pak, "scripts", ".shader", &names, &count, err);
    if (res) return res;
    script *s = gn_calloc(count ? count : 1, sizeof *s);
    if (!s) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory listing %u shader scripts", count);
    for (uint32_t i = 0; !res && i < count; i++) {
        char path[300];
        snprintf(path, sizeof path, "scripts/%s", names[i]);
        s[i].name = names[i];
        s[i].origin = gn_pak_origin(pak, path);
    }
    if (!res) qsort(s, count, sizeof *s, by_archive_then_name);
    for (uint32_t i = 0; !res && i < count; i++) {
        char path[300];
        snprintf(path, sizeof path, "scripts/%s", s[i].name);
        uint8_t *data = NULL;
        size_t size = 0;
        gn_error read_err = {0};
        gn_result r = gn_pak_read(pak, path, GN_Q3_MAX_FILE_BYTES, &data, &size, &read_err);
        if (r == GN_ERROR_OUT_OF_MEMORY) res = gn_fail(err, r, "%s", read_err.message);
        /* a script that cannot be read (over the cap, a bad CRC) is one more problem, not fatal:
           the parser's own refusal records it, the archive's is recorded here */
        if (!r) res = gn_q3_library_add_file(lib, (const char *)data, size, path, err);
        free(data);
    }
    for (uint32_t i = 0; i < count; i++) free(names[i]);
    free(names);
    free(s);
    return res;
}

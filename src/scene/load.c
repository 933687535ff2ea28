/* gn_scene_load: one entry for scenes from files, dispatched by extension. */
#include "base/alloc.h"
#include "base/error.h"
#include "base/file.h"
#include "formats/pak.h"
#include "scene/anim_load.h"
#include "scene/bsp_scene.h"
#include "scene/gltf_scene.h"
#include "scene/scene.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_LOAD_MAX_BSP (256u << 20) /* the largest map file read */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static gn_result read_file(const char *path, size_t cap, uint8_t **data, size_t *size, gn_error *err)
{
    *data = NULL;
    uint64_t bytes;
    gn_result r = gn_file_check_regular(path, &bytes, err); /* a FIFO would block fopen */
    if (r) return r;
    if (bytes > cap)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %llu bytes, over the cap of %zu", path,
                       (unsigned long long)bytes, cap);
    FILE *f = fopen(path, "rb");
    if (!f) return gn_fail(err, GN_ERROR_IO, "%s: cannot open the file: %s", path, strerror(errno));
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (len < 0 || (unsigned long)len > cap) {
        int e = errno;
        fclose(f);
        errno = e;
        if (len < 0) return gn_fail(err, GN_ERROR_IO, "%s: cannot read its size: %s", path, strerror(errno));
        return gn_fail(err, GN_ERROR_IO, "%s: grew past the cap of %zu while it was read", path, cap);
    }
    rewind(f);
    *data = gn_malloc((size_t)len + 1);
    if (!*data) {
        fclose(f);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %ld bytes", path, len);
    }
    size_t got = fread(*data, 1, (size_t)len, f);
    fclose(f);
    if (got != (size_t)len) {
        free(*data);
        *data = NULL;
        return gn_fail(err, GN_ERROR_IO, "%s: read %zu of %ld bytes", path, got, len);
    }
    *size = (size_t)len;
    return GN_OK;
}

static gn_result load_bsp(gn_scene *s, const gn_load_desc *d, gn_error *err)
{
    gn_pak *pak = NULL;
    gn_result res = d->paks ? gn_pak_open(d->paks, &pak, err) : GN_OK;
    if (res) return res;
    uint8_t *data = NULL;
    size_t size = 0;
    char inner[256], name[1024];
    snprintf(name, sizeof name, "%s", d->path);
    if (ends_with(d->path, ".bsp")) {
        res = read_file(d->path, GN_LOAD_MAX_BSP, &data, &size, err);
    } else if (pak && snprintf(inner, sizeof inner, "maps/%s.bsp", d->path) >= (int)sizeof inner) {
        res = gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%.200s...: the map name is too long", d->path);
    } else if (pak && !gn_pak_exists(pak, inner)) {
        res = gn_fail(err, GN_ERROR_IO, "%s: no map %s in the %u archives of %s", d->path, inner,
                      gn_pak_archive_count(pak), d->paks);
    } else if (pak) {
        /* the map's messages name the file: its archive and its path inside */
        snprintf(name, sizeof name, "%s: %s", gn_pak_origin(pak, inner), inner);
        res = gn_pak_read(pak, inner, GN_LOAD_MAX_BSP, &data, &size, err);
    } else {
        res = gn_fail(
            err, GN_ERROR_INVALID_ARGUMENT,
            "%s: not a .gltf, .glb, .iqm, .md5mesh, .fbx, .dae or .bsp file, and no archives (paks) to "
            "find a map in",
            d->path);
    }
    if (!res) res = gn_bsp_scene_build(s, data, size, name, pak, d, err);
    free(data);
    gn_pak_close(pak);
    return res;
}

gn_result gn_scene_load(const gn_load_desc *d, gn_scene **out, gn_error *err)
{
    *out = NULL;
    if (!d || !d->path || !*d->path) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_load: no path");
    gn_scene *s = NULL;
    gn_result res = gn_scene_create(&s, err);
    if (res) return res;
    bool gltf = ends_with(d->path, ".gltf") || ends_with(d->path, ".glb");
    if (gltf || gn_anim_path_is_model(d->path)) {
        res = gn_file_check_regular(d->path, NULL, err); /* before the readers open it */
        if (res) {
            gn_scene_destroy(s);
            return res;
        }
        if (!gltf || gn_gltf_is_animated(d->path)) {
            res = gn_anim_scene_load(s, d, err); /* a rig playing a clip (docs/ANIMATION.md) */
        } else {
            gn_gltf_desc gd = {.log = d->log, .log_user = d->log_user};
            res = gn_gltf_scene_load(s, d->path, &gd, err);
        }
    } else {
        res = load_bsp(s, d, err);
    }
    if (res) {
        gn_scene_destroy(s);
        return res;
    }
    *out = s;
    return GN_OK;
}

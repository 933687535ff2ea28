/* An animated model file as a scene (anim_load.h): the model through formats/skinned.c, added to
 * the scene, and one rig of it at the origin playing the clip the load description names. */
#include "scene/anim_load.h"

#include "base/alloc.h"
#include "base/error.h"
#include "formats/skinned.h"
#include "scene/gltf_scene.h"
#include "scene/rig.h"
#include "scene/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)GN_SKINNING_LINEAR == (int)GN_SKIN_LINEAR &&
                   (int)GN_SKINNING_DUAL_QUAT == (int)GN_SKIN_DUAL_QUAT,
               "the public skinning modes are decide/skin.h's");

/* The JSON text a glTF file holds: the whole of a .gltf, a .glb's first chunk. */
static bool json_has(const uint8_t *d, size_t n, const char *key)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k <= n; i++)
        if (d[i] == (uint8_t)key[0] && memcmp(d + i, key, k) == 0) return true;
    return false;
}

bool gn_gltf_is_animated(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    /* the JSON of a file this size or smaller than gltf_check's cap is all there is to search */
    size_t cap = 64u << 20, n = 0;
    uint8_t *d = gn_malloc(cap);
    if (d) n = fread(d, 1, cap, f);
    fclose(f);
    if (!d) return false;
    const uint8_t *json = d;
    size_t len = n;
    if (n >= 20 && memcmp(d, "glTF", 4) == 0) { /* a .glb: the JSON chunk's length at 12, its text at 20 */
        uint32_t chunk =
            (uint32_t)d[12] | (uint32_t)d[13] << 8 | (uint32_t)d[14] << 16 | (uint32_t)d[15] << 24;
        json = d + 20;
        len = chunk < n - 20 ? chunk : n - 20;
    }
    bool animated = json_has(json, len, "\"skins\"") || json_has(json, len, "\"animations\"") ||
                    json_has(json, len, "\"targets\"");
    free(d);
    return animated;
}

bool gn_anim_path_is_model(const char *path)
{
    gn_skinned_format f = gn_skinned_format_of_path(path);
    return f != GN_SKINNED_UNKNOWN && f != GN_SKINNED_GLTF;
}

/* The names of a model's clips, for a message: "walk, run" (or "none"). */
static void clip_names(const gn_anim_model *m, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = 0;
    for (uint32_t c = 0; c < m->clip_count && at + 4 < cap; c++)
        at += (size_t)snprintf(out + at, cap - at, "%s'%s'", c ? ", " : "", m->clips[c].name);
    if (!m->clip_count) snprintf(out, cap, "none");
}

gn_result gn_anim_scene_load(gn_scene *s, const gn_load_desc *d, gn_error *err)
{
    if (!isfinite(d->time_in_clip))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: the time in the clip is not finite", d->path);
    if ((unsigned)d->skinning > GN_SKINNING_DUAL_QUAT)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: unknown skinning mode %d", d->path,
                       (int)d->skinning);
    gn_anim_model m = {0};
    gn_skinned_desc sd = {.log = d->log, .log_user = d->log_user};
    gn_skinned_stats st;
    gn_result res = gn_skinned_load(s, d->path, &sd, &m, &st, err);
    if (res) return res;
    int32_t clip = m.clip_count ? 0 : -1;
    if (d->animation) {
        clip = -1;
        for (uint32_t c = 0; c < m.clip_count; c++)
            if (strcmp(m.clips[c].name, d->animation) == 0) clip = (int32_t)c;
        if (clip < 0) {
            char names[512];
            clip_names(&m, names, sizeof names);
            gn_anim_model_free(&m);
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: no clip '%s' (its clips: %s)", d->path,
                           d->animation, names);
        }
    }
    uint32_t model = 0, first = s->instance_count;
    res = gn_scene_add_anim_model(s, &m, &model, err);
    gn_anim_model_free(&m); /* empty when the scene took it */
    gn_rig_desc rd = {.clip = clip, .time_offset = d->time_in_clip, .mode = (gn_skin_mode)d->skinning};
    rd.transform[0] = rd.transform[5] = rd.transform[10] = rd.transform[15] = 1;
    if (!res) res = gn_scene_add_rig(s, model, &rd, NULL, err);
    if (res) return res;
    /* the default camera frames the posed model at scene time 0 (its instances' spheres) */
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = first; i < s->instance_count; i++)
        for (int k = 0; k < 3; k++) {
            const float *sp = s->instances[i].sphere;
            lo[k] = fminf(lo[k], sp[k] - sp[3]), hi[k] = fmaxf(hi[k], sp[k] + sp[3]);
        }
    if (lo[0] <= hi[0]) gn_view_frame_bounds(lo, hi, s->default_camera);
    return GN_OK;
}

/* Quake 3 characters at a map's spawn points (md3_model.h, gn_load_desc.characters): the player
 * models in the archives, each loaded once as a gn_anim_model, and a rig of one standing on the
 * floor below each spawn point, facing the way the spawn point does. */
#include "scene/md3_model.h"

#include "base/alloc.h"
#include "base/error.h"
#include "scene/rig.h"
#include "scene/scene.h"
#include "shared/gpu_types.h" /* gn_gpu_skin_delta: what a morph delta takes on the GPU */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Brush contents that stop a player (the game's MASK_PLAYERSOLID less bodies): surfaceflags.h */
#define Q3_CONTENTS_SOLID 0x1
#define Q3_CONTENTS_PLAYERCLIP 0x10000
/* Q3's player box reaches 24 units below its origin (bg_pmove.c MINS_Z): a spawn point without a
 * floor found below stands its character there. */
#define Q3_PLAYER_MINS_Z 24.0f
#define MAX_DROP (1024.0f * GN_BSP_UNIT) /* metres a floor is looked for below a spawn point */
/* Seconds between consecutive characters' times into their clips: not a multiple of any clip's
 * frame, so neighbours playing the same clip are out of step. */
#define TIME_STEP 0.37f
#define PI 3.14159265358979f
/* The skin pass binds every model's morph deltas as one storage buffer, and Vulkan promises only
 * 128 MiB of range to one (maxStorageBufferRange's minimum, lavapipe's value): 16 of OpenArena's
 * players hold 133 MiB. No new model is loaded once those loaded hold half of it (the one that
 * crosses it is kept: OpenArena's largest is 16.7 MiB), leaving the rest to the scene's other
 * animated models; later spawn points reuse the models loaded. */
#define DELTA_BUDGET (64ull << 20)

bool gn_md3_floor_below(const gn_bsp *b, const float p[3], float max_drop, float *floor_y)
{
    /* the ray x(t) = p - t (0, 1, 0) enters a convex brush at the latest of its entries through the
       sides that face up (inside is dot(n, x) <= dist on every side) and leaves at the earliest
       exit; a brush the ray starts inside (an entry at t < 0) is not a floor below it */
    float best = max_drop;
    bool hit = false;
    for (uint32_t i = 0; b && i < b->brush_count; i++) {
        const gn_bsp_brush *br = &b->brushes[i];
        if (br->texture < 0 || (uint32_t)br->texture >= b->texture_count ||
            !(b->textures[br->texture].contents & (Q3_CONTENTS_SOLID | Q3_CONTENTS_PLAYERCLIP)))
            continue;
        float enter = -INFINITY, leave = INFINITY;
        bool outside = false;
        for (uint32_t k = 0; k < br->side_count && !outside; k++) {
            uint32_t side = br->first_side + k;
            if (side >= b->brushside_count || b->brushsides[side].plane >= b->plane_count) {
                outside = true;
                break;
            }
            const gn_bsp_plane *pl = &b->planes[b->brushsides[side].plane];
            float d0 = pl->normal[0] * p[0] + pl->normal[1] * p[1] + pl->normal[2] * p[2] - pl->dist;
            float slope = -pl->normal[1]; /* d(dot(n, x) - dist) / dt */
            if (slope == 0.0f) {
                outside = d0 > 0.0f; /* a vertical side: the ray is beside it throughout */
                continue;
            }
            float t = -d0 / slope;
            if (slope < 0.0f)
                enter = fmaxf(enter, t);
            else
                leave = fminf(leave, t);
        }
        if (outside || !(enter <= leave) || !(enter >= 0.0f) || !(enter < best)) continue;
        best = enter, hit = true;
    }
    if (hit) *floor_y = p[1] - best;
    return hit;
}

/* A warning or info line through the caller's log; warnings to stderr without one. */
static void say(const gn_load_desc *d, gn_log_level level, const char *line)
{
    if (d && d->log)
        d->log(level, line, d->log_user);
    else if (level <= GN_LOG_WARN)
        fprintf(stderr, "gnomon: warning: %s\n", line);
}

/* The player models the archives hold whole: a folder under models/players/ with the three parts
 * and an animation.cfg. *names is gn_pak_list's array, the unusable entries freed and dropped. */
static gn_result usable_models(gn_pak *pak, char ***names, uint32_t *count, gn_error *err)
{
    gn_result res = gn_pak_list(pak, "models/players", "", names, count, err);
    if (res == GN_ERROR_IO) { /* no such folder: no models */
        *names = NULL, *count = 0;
        return GN_OK;
    }
    if (res) return res;
    static const char *const need[] = {"lower.md3", "upper.md3", "head.md3", "animation.cfg"};
    uint32_t kept = 0;
    for (uint32_t i = 0; i < *count; i++) {
        bool whole = true;
        for (size_t k = 0; whole && k < sizeof need / sizeof need[0]; k++) {
            char path[256];
            snprintf(path, sizeof path, "models/players/%s/%s", (*names)[i], need[k]);
            whole = gn_pak_exists(pak, path) != 0;
        }
        if (whole)
            (*names)[kept++] = (*names)[i];
        else
            free((*names)[i]);
    }
    *count = kept;
    return GN_OK;
}

/* The player model `name` into the scene: *model its scene id, or -1 when it did not load
 * (a warning said why); its morph deltas' size on the GPU added to *delta_bytes. Fails only when
 * out of memory. */
static gn_result load_model(gn_scene *s, gn_pak *pak, const char *name, const gn_load_desc *d, int32_t *model,
                            uint64_t *delta_bytes, gn_error *err)
{
    char dir[192], line[768];
    snprintf(dir, sizeof dir, "models/players/%s", name);
    gn_md3_player_desc pd = {.pak = pak, .model_dir = dir};
    gn_md3_player_info info;
    gn_anim_model m;
    gn_error why = {0};
    gn_result res = gn_md3_player_load(s, &pd, &m, &info, &why);
    uint32_t id = 0;
    if (!res) res = gn_scene_add_anim_model(s, &m, &id, &why);
    gn_anim_model_free(&m); /* zeroed when the scene took it */
    *model = res ? -1 : (int32_t)id;
    /* a delta is 6 floats here (position, normal) and a gn_gpu_skin_delta there */
    if (!res) *delta_bytes += info.morph_bytes / (6 * sizeof(float)) * sizeof(gn_gpu_skin_delta);
    if (res == GN_ERROR_OUT_OF_MEMORY) return gn_fail(err, res, "%s", why.message);
    if (res) {
        snprintf(line, sizeof line, "%s; that character is skipped", why.message);
        say(d, GN_LOG_WARN, line);
    } else if (info.missing_images) {
        snprintf(line, sizeof line, "%s: %u surfaces have no image (the first: %s): drawn plain grey", dir,
                 info.missing_images, info.first_missing);
        say(d, GN_LOG_WARN, line);
    }
    return GN_OK;
}

/* The rig's placement: the model's +Z (its forward) turned to the spawn point's Quake angle
 * (degrees counter-clockwise from +X seen from above; bsp.h's (x, z, -y) frame makes that the
 * direction (cos a, 0, -sin a)), its feet (y = 0) at `at`. */
static void placement(const float at[3], float angle_deg, float out[16])
{
    float th = (angle_deg + 90.0f) * PI / 180.0f, c = cosf(th), sn = sinf(th);
    memset(out, 0, 16 * sizeof *out);
    out[0] = c, out[2] = -sn;
    out[5] = 1;
    out[8] = sn, out[10] = c;
    out[12] = at[0], out[13] = at[1], out[14] = at[2];
    out[15] = 1;
}

static bool is_spawn(const char *classname)
{
    return strcmp(classname, "info_player_deathmatch") == 0 || strcmp(classname, "info_player_start") == 0;
}

gn_result gn_md3_characters(gn_scene *s, gn_pak *pak, const gn_bsp *b, const gn_load_desc *d, gn_error *err)
{
    if (!s || !b) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_md3_characters: NULL scene or map");
    if (!pak) {
        say(d, GN_LOG_WARN, "characters: no archives to read player models from; none placed");
        return GN_OK;
    }
    char **names = NULL;
    uint32_t count = 0;
    gn_result res = usable_models(pak, &names, &count, err);
    int32_t *model = res || !count ? NULL : gn_malloc(count * sizeof *model);
    if (!res && count && !model) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", b->name);
    for (uint32_t i = 0; model && i < count; i++) model[i] = -2; /* not loaded yet */
    char used[512] = "";
    uint32_t placed = 0, next = 0, models_used = 0;
    uint64_t delta_bytes = 0;
    gn_bsp_entity_cursor cur = {0};
    gn_bsp_entity e;
    while (!res && count && placed < GN_MD3_CHARACTERS_MAX && gn_bsp_entity_next(b, NULL, &cur, &e)) {
        if (!is_spawn(e.classname) || !e.has_origin) continue;
        /* the next model in name order that loads (once the budget is spent, that is loaded); every
           one tried once at most */
        int32_t id = -1;
        for (uint32_t tries = 0; !res && id < 0 && tries < count; tries++) {
            uint32_t k = next++ % count;
            if (model[k] == -2 && delta_bytes < DELTA_BUDGET) {
                res = load_model(s, pak, names[k], d, &model[k], &delta_bytes, err);
                if (!res && model[k] >= 0) {
                    size_t n = strlen(used);
                    snprintf(used + n, sizeof used - n, "%s%s", models_used++ ? ", " : "", names[k]);
                }
            }
            id = model[k];
        }
        if (res || id < 0) break; /* out of memory, or no model loads */
        float feet[3] = {e.origin[0], e.origin[1] - Q3_PLAYER_MINS_Z * GN_BSP_UNIT, e.origin[2]};
        gn_md3_floor_below(b, e.origin, MAX_DROP, &feet[1]);
        const char *clip = placed % 2 ? "walk" : "idle";
        gn_rig_desc rd = {.clip = gn_scene_anim_clip(s, (uint32_t)id, clip),
                          .time_offset = TIME_STEP * (float)placed};
        placement(feet, e.has_angle ? e.angle : 0.0f, rd.transform);
        res = gn_scene_add_rig(s, (uint32_t)id, &rd, NULL, err);
        placed += !res;
    }
    if (!res && count) {
        char line[640];
        snprintf(line, sizeof line, "%s: %u characters (models %s; %.1f MiB of morph deltas on the GPU)",
                 b->name, placed, used, (double)delta_bytes / (1 << 20));
        say(d, GN_LOG_INFO, line);
    } else if (!res) {
        say(d, GN_LOG_WARN,
            "characters: no player model (models/players/*/ with lower, upper and head .md3 "
            "and animation.cfg) in the archives; none placed");
    }
    for (uint32_t i = 0; i < count; i++) free(names[i]);
    free(names);
    free(model);
    return res;
}

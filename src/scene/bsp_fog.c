/* A Quake 3 map's fog volumes: the fog entry's brush (its sides' planes, already in the renderer's
 * frame) and its shader's fogparms made into gn_q3_fog_volume by decide/q3_fog.c. A fog whose
 * shader has no script or no fogparms is not drawn and is counted, as the game would draw it
 * with no colour. */
#include "scene/bsp_fog.h"
#include "base/alloc.h"
#include "base/error.h"
#include "decide/q3_fog.h"
#include "scene/scene.h"
#include "shared/gpu_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void warn(const gn_load_desc *d, const char *line)
{
    if (d && d->log)
        d->log(GN_LOG_WARN, line, d->log_user);
    else
        fprintf(stderr, "gnomon: %s\n", line);
}

/* The fog's shader: in the library, with fogparms. */
static bool fog_has_parms(const gn_q3_library *lib, const gn_bsp_fog *f)
{
    const gn_q3_shader *sh = lib && lib->shader_count ? gn_q3_library_find(lib, f->shader) : NULL;
    return sh && sh->has_fog;
}

/* One fog entry as a volume; false (why) when it is not drawn. */
static bool fog_volume(const gn_bsp *b, const gn_q3_library *lib, const gn_bsp_fog *f, gn_q3_fog_volume *out,
                       char *why, size_t cap)
{
    const gn_q3_shader *sh = gn_q3_library_find(lib, f->shader); /* fog_has_parms said it has them */
    const gn_bsp_brush *br = &b->brushes[f->brush];              /* every index was checked by gn_bsp_parse */
    if (br->side_count > GN_Q3_FOG_MAX_SIDES) {
        snprintf(why, cap, "%s: brush %u has %u sides (%u read)", f->shader, f->brush, br->side_count,
                 GN_Q3_FOG_MAX_SIDES);
        return false;
    }
    float sides[GN_Q3_FOG_MAX_SIDES][4];
    for (uint32_t k = 0; k < br->side_count; k++) {
        const gn_bsp_plane *p = &b->planes[b->brushsides[br->first_side + k].plane];
        memcpy(sides[k], p->normal, sizeof p->normal);
        sides[k][3] = p->dist;
    }
    gn_q3_fog_desc fd = {.sides = (const float(*)[4])sides,
                         .side_count = br->side_count,
                         .color = {sh->fog_color[0], sh->fog_color[1], sh->fog_color[2]},
                         .opaque_units = sh->fog_distance};
    char reason[128];
    if (!gn_q3_fog_volume_make(&fd, out, reason, sizeof reason)) {
        snprintf(why, cap, "%s: %s", f->shader, reason);
        return false;
    }
    return true;
}

gn_result gn_bsp_fog_volumes(gn_scene *s, const gn_bsp *b, const gn_q3_library *lib, const gn_load_desc *d,
                             gn_error *err)
{
    s->q3_fog_count = s->q3_fogs_skipped = 0;
    if (!b->fog_count) return GN_OK;
    uint32_t cap = b->fog_count < GN_GPU_Q3_FOGS ? b->fog_count : GN_GPU_Q3_FOGS;
    free(s->q3_fogs);
    if (!(s->q3_fogs = gn_calloc(cap, sizeof *s->q3_fogs)))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %u fog volumes", b->name, cap);
    char first[192] = "";
    uint32_t failed = 0, dropped_sides = 0;
    for (uint32_t i = 0; i < b->fog_count; i++) {
        char why[160];
        bool fogparms = fog_has_parms(lib, &b->fogs[i]);
        if (fogparms && s->q3_fog_count == cap) {
            snprintf(why, sizeof why, "fog %u: past the cap of %u volumes", i, GN_GPU_Q3_FOGS);
        } else if (fogparms &&
                   fog_volume(b, lib, &b->fogs[i], &s->q3_fogs[s->q3_fog_count], why, sizeof why)) {
            dropped_sides += s->q3_fogs[s->q3_fog_count++].dropped;
            continue;
        }
        s->q3_fogs_skipped++;
        /* a fog whose shader has no script or no fogparms has nothing to draw (counted, not
           warned: the synthetic test maps carry such a record); one that has them is a problem */
        if (fogparms && !failed++) snprintf(first, sizeof first, "%s", why);
    }
    if (failed || dropped_sides) {
        char line[512];
        snprintf(
            line, sizeof line,
            "%s: %u fogs with fogparms not drawn (the first: %s); %u slanted sides past %u a volume left out",
            b->name, failed, failed ? first : "none", dropped_sides, GN_Q3_FOG_MAX_PLANES);
        warn(d, line);
    }
    return GN_OK;
}

/* A Quake 3 map's fog volumes into the scene (src/scene/bsp_fog.c). */
#ifndef GN_SCENE_BSP_FOG_H
#define GN_SCENE_BSP_FOG_H

#include "formats/bsp.h"
#include "formats/q3shader.h"
#include "gnomon.h"

/* Each of the map's fogs (lump 12) whose shader the library has with `fogparms` becomes a volume in
 * s->q3_fogs (at most GN_GPU_Q3_FOGS); the rest are counted in s->q3_fogs_skipped, and one warning
 * through d's log names the first that had fogparms and still could not be made (a brush that
 * encloses nothing or has over GN_Q3_FOG_MAX_SIDES sides, past the cap). Fails only when out of
 * memory. */
gn_result gn_bsp_fog_volumes(gn_scene *s, const gn_bsp *b, const gn_q3_library *lib, const gn_load_desc *d,
                             gn_error *err);

#endif

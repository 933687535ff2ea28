/* A BSP world kept with its scene: the map, its triangulation and visibility context, and
 * which instance draws which face, so the frame can cull faces by PVS and frustum
 * (src/plan.c) with the pure src/decide/bsp_vis.c. */
#ifndef GN_SCENE_WORLD_H
#define GN_SCENE_WORLD_H

#include "formats/bsp.h"
#include "decide/bsp_vis.h"

typedef struct gn_world {
    gn_bsp bsp;
    gn_bsp_mesh mesh;
    gn_bsp_vis vis;
    uint32_t *face_instance;                 /* per BSP face: its instance, or UINT32_MAX (no triangles) */
    uint32_t first_instance, instance_count; /* the world's instances, contiguous */
    uint32_t *vis_faces, *vis_seen;          /* scratch for gn_bsp_visible_faces */
    uint32_t lightmaps;                      /* lightmaps in the scene's atlas texture */
} gn_world;

void gn_world_free(gn_world *w); /* NULL is fine; frees w itself */

struct gn_scene;
/* Samples the map's light grid for instance i at its bounding sphere's centre into its
 * grid_light, unless its material has a lightmap (then, or without a grid, it is zeroed). */
void gn_world_light_instance(struct gn_scene *s, uint32_t i);

#endif

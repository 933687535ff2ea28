/* A BSP world kept with its scene: the map, its triangulation and visibility context, and
 * which instance draws which face, so the frame can cull faces by PVS and frustum
 * (src/plan.c) with the pure src/decide/bsp_vis.c. */
#ifndef GN_SCENE_WORLD_H
#define GN_SCENE_WORLD_H

#include "decide/bsp_vis.h"
#include "formats/bsp.h"

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

/* The map's light grid sampled at a bounding sphere's centre (xyz; w unused), packed as the
 * GPU reads it (gn_gpu_instance.info y, z, w). All zero without a grid or light there. The
 * store (scene.c) calls it for every instance without a lightmap, whenever one moves. */
void gn_world_grid_light(const gn_world *w, const float sphere[4], uint32_t out[3]);

#endif

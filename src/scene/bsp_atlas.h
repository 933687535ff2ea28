/* A Quake 3 map's lightmaps packed into one RGB9E5 atlas (linear light), for the scene
 * builder (bsp_scene.c): the file's bytes decoded by formats/bsp_light.c, the rectangles
 * placed by the pure shelf packer (decide/atlas.c). Deterministic, no Vulkan, no I/O. */
#ifndef GN_SCENE_BSP_ATLAS_H
#define GN_SCENE_BSP_ATLAS_H

#include "decide/atlas.h"
#include "formats/bsp.h"

#define GN_BSP_ATLAS_MAX_SIDE 8192u /* 4096 lightmaps of 128^2 at most; Q3 maps have tens */

typedef struct gn_bsp_atlas {
    uint32_t width, height;
    uint32_t *texels;     /* width*height RGB9E5 words, top row first */
    gn_atlas_rect *rects; /* one per lightmap, in lightmap order */
    uint32_t count;
} gn_bsp_atlas;

/* Packs every lightmap (128^2, 1 texel of padding copied from the nearest edge texel) with the
 * shelf packer. A map without lightmaps gives count 0 and no texels. Byte-identical between
 * runs for the same map. */
gn_result gn_bsp_lightmap_atlas(const gn_bsp *b, gn_bsp_atlas *out, gn_error *err);
void gn_bsp_atlas_free(gn_bsp_atlas *a); /* zeroes *a */
/* A face vertex's lightmap uv (0..1 within lightmap `index`) in the atlas, half a texel inside
 * the lightmap's rectangle. index must be < a->count. */
void gn_bsp_lightmap_uv(const gn_bsp_atlas *a, uint32_t index, const float lm_uv[2], float out[2]);

#endif

/* A Quake 3 map as a gn_scene (src/scene/bsp_scene.c). */
#ifndef GN_SCENE_BSP_SCENE_H
#define GN_SCENE_BSP_SCENE_H

#include "formats/pak.h"
#include "scene/scene.h"

/* Parses and triangulates the map in data and adds a mesh and instance a face, two materials
 * a texture (with and without the lightmap atlas) and, with d->map_lights, its light entities;
 * textures come from pak (may be NULL: every surface a checker). d gives the patch level and
 * the log. */
gn_result gn_bsp_scene_build(gn_scene *s, const uint8_t *data, size_t size, const char *name, gn_pak *pak,
                             const gn_load_desc *d, gn_error *err);

#endif

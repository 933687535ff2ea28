/* A Quake 3 map as a gn_scene (src/scene/bsp_scene.c). */
#ifndef GN_SCENE_BSP_SCENE_H
#define GN_SCENE_BSP_SCENE_H

#include "scene/pak.h"
#include "scene/scene.h"

/* Parses and triangulates the map in data and adds one mesh, material and instance a
 * texture; textures come from pak (may be NULL: every surface a checker). */
gn_result gn_bsp_scene_build(gn_scene *s, const uint8_t *data, size_t size, const char *name, gn_pak *pak,
                             uint32_t patch_level, gn_log_fn log, void *log_user, gn_error *err);

#endif

/* A glTF file as part of a scene: formats/gltf.c reads it into the scene through the public
 * API; this layer makes the load all or nothing and gives the scene its default camera. */
#ifndef GN_SCENE_GLTF_SCENE_H
#define GN_SCENE_GLTF_SCENE_H

#include "formats/gltf.h"
#include "scene/scene.h"

/* gn_gltf_load, and on failure the scene exactly as it was before the call. On success the
 * scene's default camera becomes a view of what the file added. */
gn_result gn_gltf_scene_load(gn_scene *s, const char *path, const gn_gltf_desc *d, gn_error *err);

#endif

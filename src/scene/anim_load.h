/* Animated model files as scenes, for gn_scene_load (load.c): which files take this path, and the
 * load itself (docs/ANIMATION.md). */
#ifndef GN_SCENE_ANIM_LOAD_H
#define GN_SCENE_ANIM_LOAD_H

#include "gnomon.h"

#include <stdbool.h>

/* Whether a .gltf or .glb file names skins, animations or morph targets in its JSON (a static
 * file keeps the static glTF path: its instances stay static). False when unreadable: the glTF
 * path then reports why. */
bool gn_gltf_is_animated(const char *path);
/* Whether a path names one of the animated model formats other than glTF (.iqm, .md5mesh, .fbx,
 * .dae). */
bool gn_anim_path_is_model(const char *path);
/* The model's meshes, materials and textures, the model, and one rig of it at the origin playing
 * d->animation (or its first clip) from d->time_in_clip, skinned by d->skinning; the default
 * camera frames its pose at time 0. */
gn_result gn_anim_scene_load(gn_scene *s, const gn_load_desc *d, gn_error *err);

#endif

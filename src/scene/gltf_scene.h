/* A glTF file as part of a scene: formats/gltf.c reads it into the scene through the public
 * API; this layer makes the load all or nothing and gives the scene its default camera. */
#ifndef GN_SCENE_GLTF_SCENE_H
#define GN_SCENE_GLTF_SCENE_H

#include "formats/gltf.h"
#include "scene/scene.h"

/* gn_gltf_load, and on failure the scene exactly as it was before the call. On success the
 * scene's default camera becomes the file's first camera (and its field of view the scene's
 * default_fov_y), or, in a file without one, gn_view_frame_bounds of what the file added. */
gn_result gn_gltf_scene_load(gn_scene *s, const char *path, const gn_gltf_desc *d, gn_error *err);

/* A first view of bounds lo..hi as a default camera (x, y, z, yaw, pitch; metres, degrees).
 * Wide and low bounds (an interior: a hall, a courtyard; at least 8 m across and at most 0.6
 * times as high) put the camera inside, at the centre, 1.7 m above the floor (the bounds'
 * bottom; half the height in a lower space), looking level along the longest horizontal
 * axis (-X or -Z). Anything else is an object, seen from outside, from the +Z side about 17
 * degrees up, at the distance that fits its bounding sphere in a 60-degree field of view,
 * looking at its centre. */
void gn_view_frame_bounds(const float lo[3], const float hi[3], float out[5]);

#endif

/* One scene stamp for every cache that holds something made from a scene (the GPU scene, the
 * VSM's pages and casters, the light buffer, RESOLVE's history): which scene it was made from
 * (gn_scene.uid: an address can be reused after a scene is destroyed) and how far it has caught
 * up with the scene's changes. */
#ifndef GN_SCENE_STAMP_H
#define GN_SCENE_STAMP_H

#include "scene/scene.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct gn_scene_stamp {
    uint64_t uid;                /* 0: nothing cached yet (scene uids are never 0) */
    uint32_t generation;         /* geometry, materials, instances added */
    uint32_t light_generation;   /* lights added or changed */
    uint32_t dynamic_generation; /* dynamic instances moved */
    uint32_t edit_count;         /* static instances moved or removed (the scene's edit ring) */
    uint32_t instance_count;
} gn_scene_stamp;

static inline gn_scene_stamp gn_scene_stamp_of(const gn_scene *s)
{
    return (gn_scene_stamp){s->uid,        s->generation,    s->light_generation, s->dynamic_generation,
                            s->edit_count, s->instance_count};
}

/* The same scene with the same geometry: what a cache built from its instances needs. */
static inline bool gn_scene_stamp_same_geometry(const gn_scene_stamp *cached, const gn_scene *s)
{
    return cached->uid == s->uid && cached->generation == s->generation &&
           cached->instance_count == s->instance_count;
}

/* The same scene with the same lights: what the light buffer needs. */
static inline bool gn_scene_stamp_same_lights(const gn_scene_stamp *cached, const gn_scene *s)
{
    return cached->uid == s->uid && cached->light_generation == s->light_generation;
}

#endif

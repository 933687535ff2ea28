/* Animated models in a scene (issue 19): a model (src/decide/skin.h's gn_anim_model, its meshes
 * already added to the scene in their bind pose) is added once; each rig is one placed, playing
 * copy of it. A rig's skinned or morphed parts get meshes of their own (copies of the bind-pose
 * vertices, sharing nothing the GPU writes): the renderer's skinning pass writes their vertices
 * every frame, so every scene pass (the prepass, the shadow casters, the forward pass) draws the
 * posed shape without knowing it is animated. Rigid parts share their mesh and move by their
 * instance's transform. A rig's instances are dynamic: culling and the shadow maps' dynamic
 * layers see them move.
 *
 * A rig may follow a path (a closed polyline on the ground, walked at a speed, facing along it):
 * the town's people follow its streets this way. */
#ifndef GN_SCENE_RIG_H
#define GN_SCENE_RIG_H

#include "decide/skin.h"
#include "gnomon.h"

#define GN_SCENE_MAX_RIGS 65536u
#define GN_RIG_MAX_PATH 256u /* points of a rig's path */

typedef struct gn_rig_desc {
    float transform[16]; /* column-major placement of the model's root (ignored with a path) */
    int32_t clip;        /* the clip it plays from the start; -1: the rest pose */
    float time_offset;   /* seconds into the clip at scene time 0 (people out of step) */
    float speed;         /* playback rate; 0 reads as 1 */
    gn_skin_mode mode;   /* linear blend or dual-quaternion skinning */
    const float *path;   /* optional: path_count points (x, y, z), walked as a closed loop */
    uint32_t path_count; /* 0: no path; else at least 2 */
    float path_speed;    /* metres a second along the path */
    float path_offset;   /* metres along the path at scene time 0 */
    float scale;         /* uniform scale of the model on its path; 0 reads as 1 */
} gn_rig_desc;

/* Adds model m to the scene, taking what it owns (m is zeroed); checked with
 * gn_anim_model_check and against the scene's meshes and materials. */
gn_result gn_scene_add_anim_model(gn_scene *s, gn_anim_model *m, uint32_t *out_model, gn_error *err);
/* Places a rig of a model: its parts' instances (dynamic) and its own meshes. */
gn_result gn_scene_add_rig(gn_scene *s, uint32_t model, const gn_rig_desc *d, uint32_t *out_rig,
                           gn_error *err);
/* Switches a rig to another clip, crossfading from what it plays over `fade` seconds (seed 001),
 * starting the new clip at its beginning now (the scene's animation clock). */
gn_result gn_scene_rig_play(gn_scene *s, uint32_t rig, int32_t clip, float fade, gn_error *err);
/* Finds a model's clip by name; -1 when absent. */
int32_t gn_scene_anim_clip(const gn_scene *s, uint32_t model, const char *name);

/* ---- what the scene keeps (scene/rig.c) and the renderer's skin pass reads ------------------- */

/* A model in the scene: its data, and for each skinned part its joints' bind-pose spheres
 * (gn_skin_joint_spheres; NULL for a part that is not skinned). */
typedef struct gn_scene_anim {
    gn_anim_model model;
    float (**part_spheres)[4];
    float *part_reach; /* each part's morph set's longest delta, or 0 */
} gn_scene_anim;

/* A placed rig. Its parts' instances are first_instance + part; mesh[part] is what each draws
 * (its own copy for a skinned or morphed part). gn_scene_animate writes the rest each frame. */
typedef struct gn_scene_rig {
    uint32_t model, first_instance;
    uint32_t *mesh;
    gn_rig_desc d;         /* d.path points to path below */
    float *path, *path_at; /* its path's points and each point's distance along it; path_length */
    float path_length;
    int32_t clip, from_clip; /* what it plays, and what it fades from (-1: the rest pose) */
    double clip_start, from_start, fade_start;
    float fade; /* seconds; 0: no fade */
    /* this frame's pose: node worlds, the palette (12 floats a joint as rows, or 8 as dual
       quaternions: d.mode), each part's active morph targets and weights */
    float *pose_floats, *pose_floats_b;
    float (*world)[16];
    float *palette;
    uint32_t *morph_targets; /* GN_MORPH_MAX_ACTIVE a part */
    float *morph_weights;
    uint32_t *morph_active; /* a part */
} gn_scene_rig;

#endif

/* Procedural animated models for the town (issue 19): a low-poly person with a walk and an idle
 * clip, and a banner hanging on a chain of joints with a wave clip. Each is a gn_anim_model
 * (src/decide/skin.h) whose meshes this adds to a scene in their bind pose; the clips are LINEAR
 * keyframes computed here, every clip's last keyframe equal to its first so that it loops.
 * town_people.c places them (docs/ANIMATION.md, "The town's people and banners").
 *
 * The figure: metres, +Y up, facing +Z, feet on y = 0, 1.75 m tall; its own left is +X. */
#ifndef GN_SCENE_FIGURE_H
#define GN_SCENE_FIGURE_H

#include "decide/skin.h"
#include "scene/scene.h"

#define GN_FIGURE_HEIGHT 1.75f
/* One walk cycle is two steps: the planted foot travels GN_FIGURE_STRIDE metres back (relative
 * to the hips) in GN_FIGURE_WALK_PERIOD seconds, so a rig of scale s playing the walk at rate r
 * keeps its feet planted when its path speed is GN_FIGURE_WALK_SPEED * s * r. */
#define GN_FIGURE_WALK_PERIOD 1.1f /* seconds: ~109 steps a minute */
#define GN_FIGURE_STRIDE 1.21f     /* metres a cycle; a step is half of it */
#define GN_FIGURE_WALK_SPEED (GN_FIGURE_STRIDE / GN_FIGURE_WALK_PERIOD) /* 1.1 m/s */
#define GN_FIGURE_IDLE_PERIOD 4.0f                                      /* seconds: one slow breath */

/* The figure's joints (node j is joint j; parents come first). */
typedef enum gn_figure_joint {
    GN_FIGURE_HIPS = 0, /* the root */
    GN_FIGURE_SPINE,
    GN_FIGURE_CHEST,
    GN_FIGURE_NECK,
    GN_FIGURE_HEAD,
    GN_FIGURE_UPPER_ARM_L,
    GN_FIGURE_LOWER_ARM_L,
    GN_FIGURE_HAND_L,
    GN_FIGURE_UPPER_ARM_R,
    GN_FIGURE_LOWER_ARM_R,
    GN_FIGURE_HAND_R,
    GN_FIGURE_UPPER_LEG_L,
    GN_FIGURE_LOWER_LEG_L,
    GN_FIGURE_FOOT_L, /* at the ankle */
    GN_FIGURE_UPPER_LEG_R,
    GN_FIGURE_LOWER_LEG_R,
    GN_FIGURE_FOOT_R,
    GN_FIGURE_JOINTS
} gn_figure_joint;

enum { GN_FIGURE_CLIP_WALK = 0, GN_FIGURE_CLIP_IDLE = 1 }; /* "walk", "idle" */

typedef struct gn_figure_desc {
    uint32_t clothes, skin; /* materials (the scene's ids): body and limbs; head and hands */
    /* NULL: add the figure's two meshes to the scene; else the meshes of an earlier figure
     * (its parts' mesh ids, clothes then skin) to share: figures that differ in colour only */
    const uint32_t *share_meshes;
    /* 0 or 1: 756 vertices; k splits every ring and every span between rings k times, about k^2
       the vertices (k = 4: 10,836), for benchmarks of many skinned vertices; at most 8 */
    uint32_t detail;
} gn_figure_desc;
#define GN_FIGURE_MAX_DETAIL 8u

/* A person: two skinned parts (clothes: torso, arms, legs, shoes; skin: head and hands) over
 * GN_FIGURE_JOINTS joints, up to 3 influences a vertex, clips "walk" and "idle". */
gn_result gn_figure_model(gn_scene *s, const gn_figure_desc *d, gn_anim_model *out, gn_error *err);

/* The banner: a cloth strip GN_BANNER_WIDTH wide hanging GN_BANNER_LENGTH down from a pole
 * along +X (its attachment at the origin, the cloth from x = 0.5 m to 0.5 m + width, in the
 * XY plane, two-sided), on a chain of GN_BANNER_JOINTS joints down its middle; the "wave" clip
 * is a sine travelling down the chain that swings the cloth along Z (parallel to a wall at
 * x = 0) and a little out along +X, never towards x < 0. */
#define GN_BANNER_JOINTS 7
#define GN_BANNER_WIDTH 1.8f
#define GN_BANNER_LENGTH 6.6f      /* to the tip of its point */
#define GN_BANNER_WAVE_PERIOD 2.4f /* seconds */
/* share_mesh: NULL adds the banner's mesh; else an earlier banner's to share. */
gn_result gn_banner_model(gn_scene *s, uint32_t material, const uint32_t *share_mesh, gn_anim_model *out,
                          gn_error *err);

#endif

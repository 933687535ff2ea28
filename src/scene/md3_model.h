/* Quake 3 player models as animated models (issue 19): a player's lower.md3, upper.md3 and
 * head.md3 (src/formats/md3.h), its animation.cfg and .skin files (md3_player.h) read from the
 * archives and made into one gn_anim_model (src/decide/skin.h) whose meshes and materials are
 * added to a scene; and characters of such models standing at a map's spawn points
 * (md3_characters.c, for gn_load_desc.characters). docs/ANIMATION.md, "Quake 3 characters".
 *
 * The model is in gnomon's frame, like the town's figures (scene/figure.h): metres, +Y up, facing
 * +Z, the feet of its rest pose on y = 0. The rest pose is the game's standing one, "idle"'s first
 * frame (frame 0 is BOTH_DEATH1's first). The conversion from Quake units, Z up (bsp.h's: a
 * point (x, y, z) becomes (x, z, -y) * GN_BSP_UNIT) is made once, in the vertices, the morph
 * deltas and the tags; the root node then turns the game's forward (+X) to +Z and lifts the feet
 * to y = 0.
 *
 * Nodes: root -> lower -> upper (on lower's tag_torso) -> head (on upper's tag_head). Each lower
 * and upper surface is a part on its node morphed by a set whose targets are its MD3 frames as
 * deltas from frame 0, so that weight 1 on target f is frame f's shape and the game's lerp between
 * frames a and b is weights (1 - frac, frac) on targets a and b. head.md3's frame 0 is rigid. */
#ifndef GN_SCENE_MD3_MODEL_H
#define GN_SCENE_MD3_MODEL_H

#include "decide/skin.h"
#include "formats/bsp.h"
#include "formats/md3_player.h"
#include "formats/pak.h"
#include "gnomon.h"

#define GN_MD3_CHARACTERS_MAX 16u /* characters a map: its first spawn points */

/* The model's nodes. */
enum { GN_MD3_NODE_ROOT = 0, GN_MD3_NODE_LOWER, GN_MD3_NODE_UPPER, GN_MD3_NODE_HEAD, GN_MD3_NODES };

typedef struct gn_md3_player_desc {
    gn_pak *pak;           /* required: the archives the files are read from */
    const char *model_dir; /* required: "models/players/sarge" */
    const char *skin;      /* "red" reads lower_red.skin, ...; NULL: "default" */
} gn_md3_player_desc;

/* What a load found, for messages and tests. */
typedef struct gn_md3_player_info {
    uint32_t frames[3]; /* lower.md3's, upper.md3's and head.md3's */
    uint32_t surfaces, vertices, triangles;
    uint32_t missing_images; /* surfaces drawn with a plain material: no skin entry or no image */
    char first_missing[GN_MD3_NAME_MAX];
    float lift;         /* metres the root raises the rest pose by: its lowest point below the legs */
    float height;       /* metres from the feet to the top of the rest pose */
    size_t clip_bytes;  /* the clips' keyframe data (times, weights, tags) */
    size_t morph_bytes; /* the morph sets' deltas */
} gn_md3_player_info;

/* Reads the player's three models, animation.cfg and <part>_<skin>.skin files from the archives;
 * adds each surface's frame 0 as a mesh and a material with the image its .skin names (a .tga,
 * .jpg or .png of that name, as the game looks it up; none: a plain grey material, counted in
 * info) to s; fills *out (owned by the caller until gn_scene_add_anim_model takes it). Clips:
 * "idle" (LEGS_IDLE with TORSO_STAND), "walk" (LEGS_WALK, TORSO_STAND), "run" (LEGS_RUN,
 * TORSO_STAND), "attack" (LEGS_IDLE, TORSO_ATTACK), then each of animation.cfg's 25 by its name
 * ("LEGS_WALK") driving only its own part (BOTH_*: both). A file missing or malformed:
 * GN_ERROR_IO or GN_ERROR_BAD_DATA naming it, *out zeroed (the meshes added stay, unused).
 * info may be NULL. */
gn_result gn_md3_player_load(gn_scene *s, const gn_md3_player_desc *d, gn_anim_model *out,
                             gn_md3_player_info *info, gn_error *err);
/* The same, by the archives, the folder and the skin's name, without the info. */
gn_result gn_md3_player_model(gn_scene *s, gn_pak *pak, const char *model_dir, const char *skin,
                              gn_anim_model *out, gn_error *err);

/* A tag as the model holds it: its rotation (a unit quaternion, x y z w) and translation in
 * metres, Y up (the tag's frame conjugated by the axis swap, its origin converted). False when
 * the tag's axes are mirrored (no rotation gives them). */
bool gn_md3_tag_to_trs(const gn_md3_tag *tag, float t[3], float r[4]);

/* ---- characters at spawn points (md3_characters.c) ------------------------------------------ */

/* For each of the map's first GN_MD3_CHARACTERS_MAX spawn points (info_player_deathmatch and
 * info_player_start, in the entity lump's order) a rig of a player model: the models under
 * models/players/ that have lower, upper and head .md3 and an animation.cfg, in name order, taken
 * in turn, each loaded once (no new one once those loaded hold 64 MiB of morph deltas on the GPU:
 * later spawn points reuse them); standing on the floor below the spawn point (the first solid or
 * player-clip brush a ray down from its origin meets), facing its angle, playing "idle" and "walk"
 * by turns, each its own time into the clip. A model that does not load is skipped with a warning;
 * one line of info through d->log names the count and the models. */
gn_result gn_md3_characters(gn_scene *s, gn_pak *pak, const gn_bsp *b, const gn_load_desc *d, gn_error *err);

/* The height (renderer frame, metres) of the floor below p: the top of the first brush whose
 * contents stop a player (solid or player clip) that a ray straight down from p meets within
 * max_drop metres; false when none does. */
bool gn_md3_floor_below(const gn_bsp *b, const float p[3], float max_drop, float *floor_y);

#endif

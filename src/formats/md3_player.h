/* A Quake 3 player model's text files (issue 19, "Animation"): animation.cfg, which names the
 * frame ranges of the 25 animations shared by lower.md3 (legs) and upper.md3 (torso), and .skin
 * files, which give each surface its image. Parsed from memory as the game's cgame does
 * (CG_ParseAnimationFile, RE_RegisterSkin), with each number checked; no I/O, no allocation.
 * gn_md3_clip_sample turns an animation and a time into the frame pair the MD3 lerp functions
 * (md3.h) take. */
#ifndef GN_FORMATS_MD3_PLAYER_H
#define GN_FORMATS_MD3_PLAYER_H

#include "formats/md3.h"

/* The animations in animation.cfg's order (bg_public.h's animNumber_t, without Team Arena's six
 * extra torso gestures, which the game reads only in its mission pack). */
typedef enum gn_md3_anim {
    GN_MD3_BOTH_DEATH1,
    GN_MD3_BOTH_DEAD1,
    GN_MD3_BOTH_DEATH2,
    GN_MD3_BOTH_DEAD2,
    GN_MD3_BOTH_DEATH3,
    GN_MD3_BOTH_DEAD3,
    GN_MD3_TORSO_GESTURE,
    GN_MD3_TORSO_ATTACK,
    GN_MD3_TORSO_ATTACK2,
    GN_MD3_TORSO_DROP,
    GN_MD3_TORSO_RAISE,
    GN_MD3_TORSO_STAND,
    GN_MD3_TORSO_STAND2,
    GN_MD3_LEGS_WALKCR,
    GN_MD3_LEGS_WALK,
    GN_MD3_LEGS_RUN,
    GN_MD3_LEGS_BACK,
    GN_MD3_LEGS_SWIM,
    GN_MD3_LEGS_JUMP,
    GN_MD3_LEGS_LAND,
    GN_MD3_LEGS_JUMPB,
    GN_MD3_LEGS_LANDB,
    GN_MD3_LEGS_IDLE,
    GN_MD3_LEGS_IDLECR,
    GN_MD3_LEGS_TURN,
    GN_MD3_ANIM_COUNT
} gn_md3_anim;

/* Which model an animation's frames index. */
typedef enum gn_md3_part {
    GN_MD3_PART_BOTH = 0, /* BOTH_*: lower.md3 and upper.md3 alike */
    GN_MD3_PART_TORSO,    /* TORSO_*: upper.md3 */
    GN_MD3_PART_LEGS,     /* LEGS_*: lower.md3 */
} gn_md3_part;

typedef struct gn_md3_clip {
    uint32_t first_frame; /* in its part's MD3; a LEGS_* clip's already less the torso-only frames */
    uint32_t frame_count; /* 0: an animation the model lacks (sampled as first_frame) */
    uint32_t loop_frames; /* the last loop_frames repeat after the first pass; 0: the last holds */
    float fps;            /* as written, 0.001..1000 */
    uint32_t frame_ms;    /* the game's frameLerp: 1000 / fps cut to whole milliseconds */
    bool reversed;        /* numFrames was negative: played from the last frame to the first */
} gn_md3_clip;

typedef enum gn_md3_sex { GN_MD3_SEX_MALE = 0, GN_MD3_SEX_FEMALE, GN_MD3_SEX_NEUTER } gn_md3_sex;
typedef enum gn_md3_footsteps {
    GN_MD3_FOOTSTEPS_NORMAL = 0, /* also "default" */
    GN_MD3_FOOTSTEPS_BOOT,
    GN_MD3_FOOTSTEPS_FLESH,
    GN_MD3_FOOTSTEPS_MECH,
    GN_MD3_FOOTSTEPS_ENERGY,
} gn_md3_footsteps;

typedef struct gn_md3_anim_cfg {
    gn_md3_sex sex;             /* "sex f" / "n" / anything else male, as the game reads it */
    gn_md3_footsteps footsteps; /* the footstep sounds' set */
    float head_offset[3];       /* "headoffset x y z": the status bar's head, Quake units */
    bool fixed_legs, fixed_torso;
    /* Header words the game skips with a warning (an unknown keyword, a bad footsteps value):
     * how many, and the first, so a loader can pass the warning on. */
    uint32_t ignored;
    char first_ignored[GN_MD3_NAME_MAX];
    gn_md3_clip clips[GN_MD3_ANIM_COUNT];
} gn_md3_anim_cfg;

/* Parses an animation.cfg's text (size bytes, up to the first NUL; at most 1 MiB): the optional
 * header keywords (sex, headoffset, footsteps, fixedlegs, fixedtorso) in any order, then 25 lines
 * of "firstFrame numFrames loopingFrames framesPerSecond" (// and block comments skipped; text
 * after the 25th line ignored, as the game does). Each LEGS_* firstFrame is lowered by
 * LEGS_WALKCR's less TORSO_GESTURE's, the game's rule for lower.md3, which lacks the torso-only
 * frames. Refused, GN_ERROR_BAD_DATA with the line: a missing or malformed number, loopingFrames
 * negative or over numFrames, fps outside 0.001..1000 (the game runs fps 0 at 1 frame a second; a
 * clip that says 0 is refused here), a firstFrame negative after the rule. numFrames 0 is kept as
 * an empty clip, whatever its fps: OpenArena's merman says "192 0 0 0" for LEGS_TURN. */
gn_result gn_md3_anim_cfg_parse(const char *text, size_t size, const char *name, gn_md3_anim_cfg *out,
                                gn_error *err);

/* Every clip's frames inside its part's MD3 (an empty clip's first frame): BOTH_* within lower's
 * and upper's frame counts, TORSO_* within upper's, LEGS_* within lower's. The game does not check (its
 * renderer clamps a frame past the end to the last), so a bad range shows as a frozen pose; this names it. */
gn_result gn_md3_anim_cfg_check(const gn_md3_anim_cfg *cfg, uint32_t lower_frames, uint32_t upper_frames,
                                const char *name, gn_error *err);

const char *gn_md3_anim_name(gn_md3_anim a); /* "LEGS_WALK"; "?" out of range */
int32_t gn_md3_anim_find(const char *name);  /* by name, any case ("legs_walk"); -1 when none */
gn_md3_part gn_md3_anim_part(gn_md3_anim a); /* which MD3 its frames index */

/* The frames and blend of clip c at `seconds` since it started (negative or NaN: 0), as cgame's
 * CG_RunLerpFrame steps it at frame_ms a frame: frame k blends into k + 1; after the first pass
 * a looping clip repeats its last loop_frames (the last blending into the loop's first), and a
 * clip without a loop holds its last frame. A reversed clip runs from its last frame down. */
gn_md3_blend gn_md3_clip_sample(const gn_md3_clip *c, double seconds);

/* ---- .skin files ---------------------------------------------------------------------------- */

#define GN_MD3_SKIN_MAX 256u /* ioquake3's MAX_SKIN_SURFACES */

typedef struct gn_md3_skin_entry {
    char surface[GN_MD3_NAME_MAX]; /* lowercased, as the game compares */
    char image[GN_MD3_NAME_MAX];   /* a shader or image path; empty: the game's default shader */
} gn_md3_skin_entry;

typedef struct gn_md3_skin {
    uint32_t count;
    gn_md3_skin_entry entries[GN_MD3_SKIN_MAX];
} gn_md3_skin;

/* Parses a .skin's text (size bytes, up to the first NUL; at most 1 MiB): one "surface,path" a
 * line, blank lines and // comments skipped, lines naming a tag ("tag_torso," or a bare
 * "tag_head") ignored as the game ignores them. Refused: a surface line without a comma, a name
 * or path of 64 characters or more, more than GN_MD3_SKIN_MAX entries. */
gn_result gn_md3_skin_parse(const char *text, size_t size, const char *name, gn_md3_skin *out, gn_error *err);

/* The image for an MD3 surface, found as the game does: the surface's name lowercased and a
 * trailing "_1"-like suffix cut (R_LoadMD3's "crutch for q3data"); the first entry that matches.
 * NULL when none does. */
const char *gn_md3_skin_image(const gn_md3_skin *s, const char *surface);

#endif

/* Skeletal and morph animation's data and its CPU side (issue 19): a model's node tree (a
 * skeleton's joints are some of its nodes), its clips (glTF-style channels over src/decide/anim.h's
 * samplers), each mesh's influences (up to GN_SKIN_INFLUENCES joints a vertex) and morph targets;
 * a pose sampled from a clip at any time, crossfaded between two clips, made into node world
 * matrices and a palette (3x4 rows and dual quaternions, seed 002's forms), and the skinning of
 * one vertex: the CPU reference the GPU's compute pass (shaders/skin.comp) is held to.
 *
 * Skinning, as glTF defines it: a vertex's position after its morphs (base + sum of w_k d_k) goes
 * to sum_i w_i J_i B_i v, J_i the joint's node world matrix and B_i its inverse bind matrix; the
 * mesh's own node transform is not applied. Dual-quaternion skinning blends each joint's J_i B_i
 * as a unit dual quaternion instead (rigid joints: a joint's scale is not carried; docs say so).
 *
 * Pure: no I/O, no globals. Loaders fill gn_anim_model (formats/skinned.c, formats/md3*.c). */
#ifndef GN_DECIDE_SKIN_H
#define GN_DECIDE_SKIN_H

#include "decide/anim.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GN_SKIN_INFLUENCES 8        /* joints a vertex: glTF's JOINTS_0 and JOINTS_1 */
#define GN_SKIN_MAX_NODES 4096u     /* a model's nodes: a stated large limit, not a palette size */
#define GN_SKIN_MAX_JOINTS 4096u    /* a skin's palette entries */
#define GN_MORPH_MAX_TARGETS 1024u  /* a mesh's morph targets (an MD3 part's frames are its targets) */
#define GN_MORPH_MAX_ACTIVE 8u      /* targets blended a frame a mesh: the largest weights */
#define GN_ANIM_MAX_CLIPS 1024u     /* a model's clips */
#define GN_ANIM_MAX_CHANNELS 65536u /* a clip's channels */
#define GN_ANIM_MAX_KEYS (1u << 24) /* a clip's keyframes over all its channels */
/* How far a vertex's weights may sum from one before a loader refuses it (it renormalises the
 * rest): glTF asks for a sum within 2e-7 per weight of one; exporters that quantise weights to
 * bytes are off by up to 8/255 over 8 weights. */
#define GN_SKIN_WEIGHT_TOLERANCE 0.05f

/* A node: its parent (an earlier node, parents come first; -1 for a root) and its rest local
 * transform (what it holds where no channel drives it). */
typedef struct gn_skel_node {
    int32_t parent;
    float t[3], r[4], s[3]; /* translation, rotation (x, y, z, w unit), scale */
    char name[64];
} gn_skel_node;

/* The node tree and the skin's palette: entry j is node joint_node[j] with inverse bind matrix
 * inverse_bind[j] (column-major, mesh space to the joint's bind space). */
typedef struct gn_skeleton {
    gn_skel_node *nodes;
    uint32_t node_count;
    uint32_t *joint_node;
    float (*inverse_bind)[16];
    uint32_t joint_count;
} gn_skeleton;

typedef enum gn_anim_path {
    GN_ANIM_PATH_TRANSLATION = 0,
    GN_ANIM_PATH_ROTATION,
    GN_ANIM_PATH_SCALE,
    GN_ANIM_PATH_WEIGHTS, /* a morph set's weights: target is the set's index, width its target count */
} gn_anim_path;

typedef struct gn_anim_channel {
    uint32_t target; /* the node it drives, or the morph set (GN_ANIM_PATH_WEIGHTS) */
    gn_anim_path path;
    gn_anim_sampler sampler; /* times and values point into the clip's data */
} gn_anim_channel;

typedef struct gn_anim_clip {
    char name[64];
    float duration; /* seconds: the last keyframe of any channel */
    gn_anim_channel *channels;
    uint32_t channel_count;
    float *data; /* owns every channel's times and values */
} gn_anim_clip;

/* A vertex's joints (palette entries) and weights, the weights summing to one, zero past the
 * last used. */
typedef struct gn_skin_influence {
    uint16_t joint[GN_SKIN_INFLUENCES];
    float weight[GN_SKIN_INFLUENCES];
} gn_skin_influence;

/* A mesh's morph targets: per target, per vertex, a position and a normal delta. */
typedef struct gn_morph_set {
    uint32_t vertex_count, target_count;
    float *deltas;          /* [target][vertex][6]: position xyz, normal xyz */
    float *default_weights; /* target_count: the weights where no channel drives them */
    float max_delta;        /* the longest position delta of any target (bounds) */
} gn_morph_set;

/* One drawn part of a model: a mesh of the loader's scene (its bind pose, or frame 0) placed by a
 * node; skinned when influences is set (then the node is not applied), morphed when morph >= 0. */
typedef struct gn_anim_part {
    uint32_t mesh, material; /* the scene's ids (internal indices) */
    uint32_t node;
    uint32_t vertex_count;
    gn_skin_influence *influences; /* vertex_count, or NULL: rigid on its node */
    int32_t morph;                 /* its morph set, or -1 */
} gn_anim_part;

/* What a model file gives for animation: everything owned (gn_anim_model_free). */
typedef struct gn_anim_model {
    char name[64];
    gn_skeleton skeleton;
    gn_anim_clip *clips;
    uint32_t clip_count;
    gn_morph_set *morphs;
    uint32_t morph_count;
    gn_anim_part *parts;
    uint32_t part_count;
} gn_anim_model;

void gn_anim_model_free(gn_anim_model *m); /* frees what it owns and zeroes it; NULL is fine */

/* Why a model cannot be animated (a parent not earlier, a joint node or a channel's target out of
 * range, a channel's sampler refused by gn_anim_sampler_check or of the wrong width, an influence's
 * joint out of the palette, its weights not summing to one within GN_SKIN_WEIGHT_TOLERANCE or
 * negative, a part's mesh or morph set out of range, a count over its cap, a value not finite), or
 * true. Loaders call it last and refuse the model with the message. */
bool gn_anim_model_check(const gn_anim_model *m, char *msg, size_t cap);

/* ---- poses ---------------------------------------------------------------------------------- */

/* Every node's local transform and every morph set's weights at one time: arrays the caller owns,
 * node_count and the sum of the sets' target counts long (gn_anim_pose_sizes). */
typedef struct gn_anim_pose {
    float (*t)[3], (*r)[4], (*s)[3];
    float *weights; /* set k's weights start at the sum of the earlier sets' target counts */
} gn_anim_pose;

/* The floats a pose needs for model m: nodes * 10 + all morph weights. */
size_t gn_anim_pose_floats(const gn_anim_model *m);
/* Points a pose's arrays into `floats` (gn_anim_pose_floats of them). */
void gn_anim_pose_bind(const gn_anim_model *m, float *floats, gn_anim_pose *out);

/* The rest pose (every node's rest transform, every set's default weights). */
void gn_anim_pose_rest(const gn_anim_model *m, gn_anim_pose *out);
/* Clip c sampled at time t seconds (clamped to the clip; the caller loops by taking t modulo the
 * duration), over the rest pose: nodes and weights no channel drives keep their rest values. */
void gn_anim_pose_sample(const gn_anim_model *m, uint32_t clip, float t, gn_anim_pose *out);
/* A crossfade (seed 001): a and b blended by u in [0, 1] (translations, scales and weights
 * linearly, rotations by slerp along the shorter arc) into out (which may be a or b). */
void gn_anim_pose_blend(const gn_anim_model *m, const gn_anim_pose *a, const gn_anim_pose *b, float u,
                        gn_anim_pose *out);

/* Each node's world matrix (column-major, relative to the model's root) from a pose. */
void gn_anim_world(const gn_anim_model *m, const gn_anim_pose *pose, float (*world)[16]);
/* A local transform as a column-major matrix: T * R * S. */
void gn_anim_trs_matrix(const float t[3], const float r[4], const float s[3], float out[16]);

/* ---- palettes and skinning ---------------------------------------------------------------- */

typedef enum gn_skin_mode {
    GN_SKIN_LINEAR = 0, /* linear blend skinning of 3x4 matrices */
    GN_SKIN_DUAL_QUAT,  /* dual-quaternion skinning: volume kept through twists */
} gn_skin_mode;

/* Palette entry j: world[joint_node[j]] * inverse_bind[j], as three rows of a 3x4 matrix (row i:
 * m[i], m[4 + i], m[8 + i], m[12 + i] of the column-major product), 12 floats an entry. */
void gn_skin_palette_rows(const gn_skeleton *sk, const float (*world)[16], float *rows);
/* The same entries as unit dual quaternions (the rotation and translation of each; a scale in the
 * product is divided out of its rotation part, not carried), 8 floats an entry: real, dual. */
void gn_skin_palette_dq(const gn_skeleton *sk, const float (*world)[16], float *dq);

/* Up to GN_MORPH_MAX_ACTIVE (target, weight) pairs of a set: its largest weights by magnitude,
 * ties to the lower target, zero weights dropped; returns how many. MD3 frames blend two. */
uint32_t gn_morph_active(const float *weights, uint32_t target_count, uint32_t *targets,
                         float *active_weights);

/* One vertex skinned: the CPU reference of shaders/skin.comp. In: its bind-pose position, normal
 * and tangent (xyz and the bitangent sign); morphs: `active` pairs over `set` (NULL/0: none);
 * influence NULL: not skinned (only morphed). Palette: rows (GN_SKIN_LINEAR) or dual quaternions
 * (GN_SKIN_DUAL_QUAT). The normal and tangent are turned by the blended matrix's 3x3 (or the
 * blended rotation) and renormalised; the tangent keeps its sign. */
void gn_skin_vertex(const float pos[3], const float normal[3], const float tangent[4], uint32_t vertex,
                    const gn_morph_set *set, const uint32_t *targets, const float *weights, uint32_t active,
                    const gn_skin_influence *influence, gn_skin_mode mode, const float *palette,
                    float out_pos[3], float out_normal[3], float out_tangent[4]);

/* ---- bounds ------------------------------------------------------------------------------- */

/* A skinned part's bounds by joint: for each palette entry, the bind-pose sphere (xyz centre,
 * radius) of the vertices it moves (weight > 0); radius < 0 where it moves none. */
void gn_skin_joint_spheres(const float *positions, size_t stride_floats, uint32_t vertex_count,
                           const gn_skin_influence *influences, uint32_t joint_count, float (*spheres)[4]);
/* The posed part's bounding sphere in model space: each joint's sphere moved by its palette rows
 * (the radius grown by the rows' largest column length: scale), around all of them, grown by the
 * morph weights' sum of |w| times the set's longest delta (morph_reach). */
void gn_skin_bounds(const float (*spheres)[4], uint32_t joint_count, const float *rows, float morph_reach,
                    float out[4]);

#endif

/* Quake 3 MD3 models (issue 19, "Animation"): vertex animation by whole frames, and tags that
 * attach one model to another (a player's legs, torso and head; a weapon in a hand). Pure C with
 * no Vulkan and no I/O: gn_md3_parse reads a buffer; the lerp and attach functions
 * (src/formats/md3_anim.c) pose a model between two frames the way the game's cgame and renderer
 * do (R_LerpTag, CG_PositionRotatedEntityOnTag, LerpMeshVertexes).
 *
 * The layout is id Tech 3's qfiles.h (MD3_VERSION 15), every field little-endian. Unlike the map
 * reader (bsp.h), nothing is converted to the renderer's frame: positions stay in Quake units,
 * Z up, so that tags and animation.cfg's head offset keep their meaning; the caller applies
 * GN_BSP_UNIT and the axis swap when it places a posed model in a scene.
 *
 * The output is plain arrays (floats and uint32 indices), one block per frame per surface, so a
 * renderer can upload a surface's frames as morph targets. docs/ANIMATION.md "MD3 models" lists
 * what is read and each check. */
#ifndef GN_FORMATS_MD3_H
#define GN_FORMATS_MD3_H

#include "gnomon.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The game's caps (qfiles.h): a count over one is refused before it sizes anything. */
#define GN_MD3_MAX_FRAMES 1024u
#define GN_MD3_MAX_TAGS 16u
#define GN_MD3_MAX_SURFACES 32u
#define GN_MD3_MAX_SHADERS 256u
#define GN_MD3_MAX_VERTS 4096u
#define GN_MD3_MAX_TRIANGLES 8192u
#define GN_MD3_VERSION 15
#define GN_MD3_XYZ_SCALE (1.0f / 64.0f) /* a stored int16 coordinate to Quake units */
#define GN_MD3_NAME_MAX 64u             /* MAX_QPATH: a name field, its NUL included */
#define GN_MD3_FRAME_NAME_MAX 16u

typedef struct gn_md3_frame {
    float mins[3], maxs[3]; /* bounds of every surface in this frame, Quake units */
    float origin[3];        /* localOrigin: the centre the radius is measured from */
    float radius;
    char name[GN_MD3_FRAME_NAME_MAX]; /* the exporter's label; NUL-terminated */
} gn_md3_frame;

/* A tag: an attachment frame. axis[i] is the tag's i-th basis vector (forward, left, up) in the
 * model's space, as the game stores it; unit and orthogonal in a sound file. */
typedef struct gn_md3_tag {
    char name[GN_MD3_NAME_MAX]; /* "tag_torso", "tag_head", "tag_weapon", ... */
    float origin[3];
    float axis[3][3];
} gn_md3_tag;

typedef struct gn_md3_shader {
    char name[GN_MD3_NAME_MAX]; /* a shader or image path; a .skin file usually overrides it */
} gn_md3_shader;

/* One surface (a mesh of one material). Per-frame arrays are frame-major: vertex v of frame f is
 * at 3 * (f * vertex_count + v), so frame f's block is a morph target of its own. */
typedef struct gn_md3_surface {
    char name[GN_MD3_NAME_MAX]; /* as stored: the game lowercases it and strips a "_1" suffix */
    uint32_t flags;
    uint32_t shader_count, vertex_count, triangle_count;
    gn_md3_shader *shaders;
    uint32_t *indices; /* 3 * triangle_count, each < vertex_count; clockwise seen from the front */
    float *texcoords;  /* 2 * vertex_count: s, t (t down, as the game's images) */
    float *positions;  /* 3 * vertex_count * frame_count, Quake units (int16 * GN_MD3_XYZ_SCALE) */
    float *normals;    /* 3 * vertex_count * frame_count, unit length */
} gn_md3_surface;

/* One model: a single allocation (gn_md3_free releases every array with it). */
typedef struct gn_md3 {
    char name[GN_MD3_NAME_MAX];
    uint32_t flags;
    uint32_t frame_count; /* 1..GN_MD3_MAX_FRAMES */
    uint32_t tag_count, surface_count;
    uint32_t skin_count; /* the header's numSkins: unused by the game, kept for the record */
    gn_md3_frame *frames;
    gn_md3_tag *tags; /* frame_count * tag_count, frame-major: tag t of frame f at f * tag_count + t */
    gn_md3_surface *surfaces;
} gn_md3;

/* Where a pose lies between two frames: from * (1 - frac) + to * frac. gn_md3_clip_sample
 * (md3_player.h) gives one for an animation at a time. */
typedef struct gn_md3_blend {
    uint32_t from, to;
    float frac; /* 0..1 */
} gn_md3_blend;

/* Parses size bytes of an .md3 file. name labels the messages ("models/players/sarge/upper.md3:
 * surface 0 (u_torso): triangle 12 index 700, past its 512 vertices"). A malformed file is
 * GN_ERROR_BAD_DATA with one line naming the file and the field, and *out is NULL; no memory:
 * GN_ERROR_OUT_OF_MEMORY. The result does not point into data. */
gn_result gn_md3_parse(const uint8_t *data, size_t size, const char *name, gn_md3 **out, gn_error *err);
void gn_md3_free(gn_md3 *m); /* NULL is fine */

/* Decodes a stored normal: its high byte an azimuth, its low byte a polar angle, each byte
 * b * 2 pi / 255 (the inverse of id's encoder, NormalToLatLong). */
void gn_md3_decode_normal(uint16_t packed, float out[3]);

/* The index of the tag named name (exact, as the game's R_GetTag compares), or -1. */
int32_t gn_md3_tag_index(const gn_md3 *m, const char *name);

/* ---- posing between frames (md3_anim.c) --------------------------------------------------- */

/* Surface s's positions and normals at blend b into positions and normals (3 * vertex_count
 * floats each; either may be NULL): positions lerped, normals lerped and renormalised. Frames
 * past the last are read as the last, as the game's renderer does. False when s is out of range. */
bool gn_md3_lerp_surface(const gn_md3 *m, uint32_t s, gn_md3_blend b, float *positions, float *normals);

/* Tag t at blend b: origin lerped, axes lerped then made orthonormal again (axis[0] keeps its
 * direction, axis[1] is made perpendicular to it, axis[2] their cross product on the side of
 * the lerped axis[2], so a mirrored tag stays mirrored). The game's R_LerpTag only normalises
 * each axis; between frames a few degrees apart the difference is second order. False when t
 * is out of range (*out then holds the identity at the origin, as R_LerpTag's failure leaves). */
bool gn_md3_lerp_tag(const gn_md3 *m, uint32_t t, gn_md3_blend b, gn_md3_tag *out);

/* A tag as a 4x4 column-major matrix: columns axis[0], axis[1], axis[2], origin. */
void gn_md3_tag_matrix(const gn_md3_tag *tag, float out[16]);

/* A part attached to its parent's tag (CG_PositionRotatedEntityOnTag): child = parent x tag x
 * local, 4x4 column-major. parent: the parent part's model-to-world transform; local: the
 * child's own rotation about the tag (the torso's pitch and yaw, a barrel's spin), NULL for
 * none (CG_PositionEntityOnTag). out may be parent or local. */
void gn_md3_attach(const float parent[16], const gn_md3_tag *tag, const float local[16], float out[16]);

#endif

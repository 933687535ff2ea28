/* Quake 3 compiled maps (IBSP version 46): a bounds-checked parser, triangulation of its faces
 * and a small entity-string reader. Plain data decoding, no Vulkan and no I/O: the caller reads
 * the file (from a pk3 or disk) and hands over the bytes.
 *
 * Frames (seed 001, "From BSP to triangles"): the conversion to the renderer's frame happens in
 * gn_bsp_parse and nowhere else. Quake is Z-up in units of about an inch; the renderer is Y-up
 * in metres. A point (x, y, z) becomes (x, z, -y) * GN_BSP_UNIT, a direction (x, y, z) becomes
 * (x, z, -y). That map is a proper rotation (determinant +1), so it keeps handedness; the
 * winding still has to be flipped because Q3 stores triangles clockwise seen from the front,
 * and the renderer culls clockwise ones. Every array in gn_bsp is already converted. */
#ifndef GN_FORMATS_BSP_H
#define GN_FORMATS_BSP_H

#include "gnomon.h"

/* Metres per Quake unit: the conventional inch. A player (56 units) is then 1.42 m and a
 * standard door (128 units) 3.25 m: Q3 maps are built a little larger than life. */
#define GN_BSP_UNIT 0.0254f
/* Eye height above a spawn point's origin, in Quake units (Q3's DEFAULT_VIEWHEIGHT). */
#define GN_BSP_EYE_HEIGHT 26.0f
#define GN_BSP_LIGHTMAP_SIZE 128 /* a lightmap is 128x128 RGB8 texels */
#define GN_BSP_LIGHTMAP_BYTES (GN_BSP_LIGHTMAP_SIZE * GN_BSP_LIGHTMAP_SIZE * 3)

/* Hard caps checked before any allocation; zero fields take the defaults (gn_bsp_limits_defaults).
 * The defaults are several times the largest shipped Q3/OpenArena maps. */
typedef struct gn_bsp_limits {
    uint32_t textures, planes, nodes, leaves, leaffaces, leafbrushes, models, brushes, brushsides;
    uint32_t vertices, meshverts, effects, faces, lightmaps, lightvols;
    uint32_t visdata_bytes, entity_bytes;
    uint32_t patch_size;    /* control points along one side of a patch (odd) */
    uint32_t mesh_vertices; /* triangulated output, patches included */
    uint32_t mesh_indices;
} gn_bsp_limits;
void gn_bsp_limits_defaults(const gn_bsp_limits *in, gn_bsp_limits *out); /* fills zeros */

typedef struct gn_bsp_texture {
    char name[64]; /* NUL-terminated (a 64-byte name without a NUL is cut at 63) */
    int32_t flags, contents;
} gn_bsp_texture;

typedef struct gn_bsp_plane {
    float normal[3]; /* unit, renderer frame; a point p is in front when dot(normal, p) > dist */
    float dist;      /* metres */
} gn_bsp_plane;

typedef struct gn_bsp_node {
    int32_t plane;
    int32_t children[2]; /* front, back; >= 0 a node (always after this one), < 0 leaf -(c+1) */
    float mins[3], maxs[3];
} gn_bsp_node;

typedef struct gn_bsp_leaf {
    int32_t cluster; /* -1: opaque (inside a brush); else a PVS row */
    int32_t area;
    float mins[3], maxs[3]; /* metres, renderer frame */
    uint32_t first_leafface, leafface_count;
} gn_bsp_leaf;

typedef struct gn_bsp_model {
    float mins[3], maxs[3];
    uint32_t first_face, face_count; /* model 0 is the world; the rest are brush entities */
} gn_bsp_model;

typedef struct gn_bsp_vertex {
    float pos[3];   /* metres */
    float uv[2];    /* surface texture coordinates (texture repeats) */
    float lm_uv[2]; /* lightmap coordinates, 0..1 within the face's lightmap */
    float normal[3];
    uint8_t color[4]; /* RGBA vertex colour (vertex-lit faces) */
} gn_bsp_vertex;

typedef enum gn_bsp_face_type {
    GN_BSP_FACE_POLYGON = 1,
    GN_BSP_FACE_PATCH = 2,
    GN_BSP_FACE_MESH = 3,
    GN_BSP_FACE_BILLBOARD = 4, /* a flare: no triangles */
} gn_bsp_face_type;

typedef struct gn_bsp_face {
    int32_t texture;
    int32_t effect; /* -1: none */
    int32_t type;   /* gn_bsp_face_type */
    uint32_t first_vertex, vertex_count;
    uint32_t first_meshvert, meshvert_count; /* meshverts index relative to first_vertex */
    int32_t lightmap;          /* >= 0: index; negative: none (-3 is q3map2's "lit by vertex colour") */
    float normal[3];           /* polygons: the plane normal, renderer frame */
    uint32_t patch_w, patch_h; /* patches: control points per row and per column */
} gn_bsp_face;

/* A convex brush: its sides (planes facing out of it) in brushsides[first_side ..]. Kept for the
 * fog volumes (lump 12 names fog brushes); the renderer does no collision. */
typedef struct gn_bsp_brush {
    uint32_t first_side, side_count;
    int32_t texture;
} gn_bsp_brush;

typedef struct gn_bsp_brushside {
    uint32_t plane; /* < plane_count; the brush lies behind it (dot(normal, p) <= dist) */
    int32_t texture;
} gn_bsp_brushside;

/* Lump 12 ("effects" in some docs, fogs in the engine): a fog volume's shader and brush. */
typedef struct gn_bsp_fog {
    char shader[64];      /* NUL-terminated in the file (a name without its NUL is refused) */
    uint32_t brush;       /* < brush_count */
    int32_t visible_side; /* the side the fog is seen through from outside, or -1 */
} gn_bsp_fog;

typedef struct gn_bsp {
    char name[128]; /* for messages */
    char *entities; /* NUL-terminated copy of the entity lump */
    uint32_t entities_len;
    gn_bsp_texture *textures;
    uint32_t texture_count;
    gn_bsp_plane *planes;
    uint32_t plane_count;
    gn_bsp_node *nodes;
    uint32_t node_count;
    gn_bsp_leaf *leaves;
    uint32_t leaf_count;
    uint32_t *leaffaces; /* face indices, every one < face_count */
    uint32_t leafface_count;
    gn_bsp_model *models;
    uint32_t model_count;
    gn_bsp_vertex *vertices;
    uint32_t vertex_count;
    uint32_t *meshverts; /* triangle corners, Q3 (clockwise) order, relative to a face's first vertex */
    uint32_t meshvert_count;
    gn_bsp_face *faces;
    uint32_t face_count;
    uint8_t *lightmaps; /* lightmap_count * GN_BSP_LIGHTMAP_BYTES, RGB8 rows (a copy) */
    uint32_t lightmap_count;
    uint8_t *lightvols; /* raw 8-byte cells (ambient RGB, directed RGB, phi/theta); Q3's grid */
    uint32_t lightvol_count;
    /* The light grid's placement, in Quake units and axes (as the engine derives it from the
     * world model's bounds and worldspawn's "gridsize", default 64 64 128): cell (i, j, k) is
     * lightvols[i + j*dims[0] + k*dims[0]*dims[1]] at origin + (i, j, k) * size. has_grid is
     * false when the lump's size does not match (Q3 ignores such a grid too). */
    float grid_origin[3], grid_size[3];
    uint32_t grid_dims[3];
    bool has_grid;
    uint8_t *visdata; /* vis_clusters rows of vis_row_bytes; NULL: no PVS (all visible) */
    uint32_t vis_clusters, vis_row_bytes;
    gn_bsp_brush *brushes;
    uint32_t brush_count;
    gn_bsp_brushside *brushsides;
    uint32_t brushside_count;
    gn_bsp_fog *fogs; /* lump 12, at most limits.effects of them */
    uint32_t fog_count;
} gn_bsp;

/* Decodes and checks a whole map: every count, offset and index is checked against the file
 * size and the caps before it is used. name labels messages ("maps/x.bsp: ..."). On failure
 * *out is left zeroed (nothing to free) and err names the problem; malformed input gives
 * GN_ERROR_BAD_DATA, never a crash. The bytes may be freed after the call. */
gn_result gn_bsp_parse(const uint8_t *data, size_t size, const char *name, const gn_bsp_limits *limits,
                       gn_bsp *out, gn_error *err);
void gn_bsp_free(gn_bsp *b); /* zeroes *b; NULL and a zeroed gn_bsp are fine */

/* ---- triangles ---------------------------------------------------------------------------- */
typedef enum gn_bsp_face_mask {
    GN_BSP_MASK_DEFAULT = 0, /* polygons, patches and meshes */
    GN_BSP_MASK_POLYGON = 1u << GN_BSP_FACE_POLYGON,
    GN_BSP_MASK_PATCH = 1u << GN_BSP_FACE_PATCH,
    GN_BSP_MASK_MESH = 1u << GN_BSP_FACE_MESH,
} gn_bsp_face_mask;

typedef struct gn_bsp_triangulate_desc {
    uint32_t patch_level;        /* subdivisions per side of each 3x3 patch piece; default 8, max 64 */
    uint32_t face_mask;          /* gn_bsp_face_mask bits; 0: the default */
    const gn_bsp_limits *limits; /* NULL: defaults (mesh_vertices, mesh_indices) */
} gn_bsp_triangulate_desc;

typedef struct gn_bsp_mesh_vertex {
    float pos[3], normal[3], uv[2], lm_uv[2];
} gn_bsp_mesh_vertex;

typedef struct gn_bsp_face_range {
    uint32_t first_index, index_count; /* 0 triangles: skipped type, billboard or masked out */
} gn_bsp_face_range;

typedef struct gn_bsp_mesh {
    gn_bsp_mesh_vertex *vertices; /* the map's vertices 1:1, then tessellated patch vertices */
    uint32_t vertex_count;
    uint32_t *indices; /* counter-clockwise triangles, absolute vertex indices */
    uint32_t index_count;
    gn_bsp_face_range *faces; /* one per gn_bsp face */
    uint32_t face_count;
} gn_bsp_mesh;

/* Deterministic: the same map and desc give byte-identical arrays. */
gn_result gn_bsp_triangulate(const gn_bsp *b, const gn_bsp_triangulate_desc *d, gn_bsp_mesh *out,
                             gn_error *err);
void gn_bsp_mesh_free(gn_bsp_mesh *m); /* zeroes *m */

/* Internal to bsp.c and bsp_patch.c (exposed for the tests): counts the vertices and indices a
 * w x h patch gives at a level, and tessellates it into v/idx (sized by those counts), with
 * indices offset by base. ctrl holds w*h control points, rows of w. */
void gn_bsp_patch_counts(uint32_t w, uint32_t h, uint32_t level, uint64_t *vertices, uint64_t *indices);
void gn_bsp_patch_tessellate(const gn_bsp_vertex *ctrl, uint32_t w, uint32_t h, uint32_t level, uint32_t base,
                             gn_bsp_mesh_vertex *v, uint32_t *idx);

/* The renderer-frame point (metres) in Quake units and axes, and a Quake direction in the
 * renderer's frame: the inverse and the direction half of the one conversion (bsp.c). */
void gn_bsp_point_to_quake(const float p[3], float q[3]);
void gn_bsp_dir_from_quake(const float q[3], float out[3]);

/* ---- entities ----------------------------------------------------------------------------- */
typedef struct gn_bsp_entity {
    char classname[64];
    float origin[3]; /* metres, renderer frame; (0,0,0) when absent */
    bool has_origin;
    float angle; /* Q3 "angle": degrees about up, 0 = +X (Quake), counter-clockwise from above */
    float yaw;   /* the same as a gn_camera yaw: angle - 90 */
    bool has_angle;
    float light;    /* "light" intensity in Q3 units; 300 (Q3's default) when absent */
    float color[3]; /* "_color", 0..1; white when absent */
} gn_bsp_entity;

/* The nth (0-based) entity whose classname equals classname (NULL: any). false when there is
 * none or the text around it is malformed (the reader stops at the first malformed block). */
bool gn_bsp_entity_find(const gn_bsp *b, const char *classname, uint32_t nth, gn_bsp_entity *out);
/* One pass over every entity of a class (NULL: any), in the lump's order: zero a cursor, then
 * call gn_bsp_entity_next until false (the same entities as gn_bsp_entity_find with nth = 0,
 * 1, ..., which rescans from the start each time: quadratic over a map's lights). */
typedef struct gn_bsp_entity_cursor {
    const char *p; /* where the next block starts; NULL before the first call */
} gn_bsp_entity_cursor;
bool gn_bsp_entity_next(const gn_bsp *b, const char *classname, gn_bsp_entity_cursor *c, gn_bsp_entity *out);
/* Copies the value of key in the nth entity of that class into out (cap bytes, cut to fit). */
bool gn_bsp_entity_value(const gn_bsp *b, const char *classname, uint32_t nth, const char *key, char *out,
                         size_t cap);
/* The default camera: the first info_player_deathmatch, else info_player_start, at eye height.
 * pos in metres (renderer frame), yaw in gn_camera degrees. false when the map has neither. */
bool gn_bsp_default_camera(const gn_bsp *b, float pos[3], float *yaw);
/* The nth info_player_deathmatch (0: the first) at eye height, as gn_bsp_default_camera; false
 * when the map has fewer. The map's scenic viewpoints are its spawn points after the first. */
bool gn_bsp_spawn_camera(const gn_bsp *b, uint32_t nth, float pos[3], float *yaw);

#endif

/* What of a Quake 3 map to draw from a viewpoint (seed 001, "What to draw"): find the camera's
 * leaf and cluster, keep the leaves its PVS row marks, cull those leaves and then their faces
 * against the frustum, and sort what survives by (texture, face) so that a draw loop rebinds a
 * material only when it changes. The PVS and the frustum remove different things (rooms behind
 * walls; what is behind the camera), so both run. Only the world (model 0) is reached through
 * the leaves of its tree; brush models are culled by the caller on their own bounds. q3map2 also
 * writes a leaf per brush model after the tree's (oa_dm1: leaves 1115..1122 for models 1..8),
 * which no node reaches, with zero bounds and cluster 0, listing the model's faces: the walk
 * skips such leaves, as Q3 does by walking the tree, and face_in_tree tells the caller which
 * faces are the brush models'. Pure: no I/O, no Vulkan. */
#ifndef GN_DECIDE_BSP_VIS_H
#define GN_DECIDE_BSP_VIS_H

#include "decide/frustum.h"
#include "formats/bsp.h"

/* The leaf holding pos (metres, renderer frame), walking the node tree from node 0; -1 when
 * the map has no leaves. A point on a plane goes to the front side, as in Q3. */
int32_t gn_bsp_find_leaf(const gn_bsp *b, const float pos[3]);
/* The PVS bit from -> to. true when the map has no visdata, from is negative or either cluster
 * is outside the table (unknown: draw it); false when to is negative (an opaque leaf). */
bool gn_bsp_cluster_visible(const gn_bsp *b, int32_t from_cluster, int32_t to_cluster);

/* Per-map data the per-frame walk reuses: face bounds from the triangulated mesh and the
 * (texture, face) order, computed once. */
typedef struct gn_bsp_vis {
    const gn_bsp *bsp; /* borrowed: must outlive the context */
    uint32_t face_count;
    float (*face_min)[3], (*face_max)[3];
    uint8_t *face_drawn;   /* 1: the face has triangles in the mesh */
    uint8_t *leaf_in_tree; /* per leaf, 1: the node tree reaches it (from node 0) */
    uint8_t *face_in_tree; /* per face, 1: a leaf of the tree lists it; 0: a brush model's (or no leaf's) */
    uint32_t *order;       /* face indices sorted by (texture, face) */
} gn_bsp_vis;

gn_result gn_bsp_vis_create(const gn_bsp *b, const gn_bsp_mesh *m, gn_bsp_vis *out, gn_error *err);
void gn_bsp_vis_destroy(gn_bsp_vis *v); /* zeroes *v */

/* Words of the scratch bitset gn_bsp_visible_faces needs: two bits a face. */
#define GN_BSP_VIS_SEEN_WORDS(face_count) (2u * (((face_count) + 31u) / 32u))

typedef struct gn_bsp_vis_result {
    uint32_t *faces;                     /* caller's array of face_count entries: the visible faces, sorted */
    uint32_t *seen;                      /* caller's scratch of GN_BSP_VIS_SEEN_WORDS(face_count) words */
    uint32_t face_total;                 /* out: faces with triangles */
    uint32_t visible_count;              /* out: entries written to faces */
    int32_t camera_leaf, camera_cluster; /* out: -1 when none */
    uint32_t leaves_total;               /* out: leaves of the tree */
    uint32_t leaves_pvs;                 /* out: leaves that pass the PVS */
    uint32_t leaves_frustum;             /* out: ... and the frustum */
    uint32_t faces_pvs;                  /* out: distinct drawable faces in leaves that pass the PVS */
    uint32_t faces_frustum;              /* out: ... in leaves that pass the frustum, whose own bounds pass */
} gn_bsp_vis_result;

/* Fills out (see its fields). f NULL: no frustum culling; use_pvs false: every leaf passes the
 * PVS step. Deterministic; reads v and b only, so several threads may share a context. */
void gn_bsp_visible_faces(const gn_bsp_vis *v, const float camera_pos[3], const gn_frustum *f, bool use_pvs,
                          gn_bsp_vis_result *out);

#endif

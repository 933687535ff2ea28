/* Shadow casters' level of detail: a simplified copy of each large opaque mesh, drawn instead
 * of it into a shadow view whose texels are coarser than the copy's error (a far cascade sees
 * a house as a few texels; every triangle past that costs and adds nothing). Built by
 * meshoptimizer: the mesh re-indexed by position only (meshopt_generateShadowIndexBuffer: a
 * depth-only pass reads nothing else, so the normals' and uvs' seams need not hold the
 * simplifier back), then meshopt_simplify to a quarter of its triangles within an error of
 * GN_LOD_TARGET_ERROR of its extent. The error it reached, in the mesh's units, goes with it:
 * the view decides by it (gn_caster_lod_fits). */
#ifndef GN_DECIDE_CASTER_LOD_H
#define GN_DECIDE_CASTER_LOD_H

#include "decide/meshlets.h" /* gn_meshlet_mesh */

#define GN_LOD_MIN_TRIANGLES 256u /* smaller meshes are drawn as they are */
#define GN_LOD_TARGET_SHARE 0.25f /* of the mesh's triangles */
#define GN_LOD_TARGET_ERROR 0.02f /* of the mesh's extent (meshopt_simplifyScale) */
#define GN_LOD_MAX_SHARE 0.75f    /* a copy that keeps more of the triangles is not kept */

typedef struct gn_caster_lod {
    uint32_t first_index, index_count; /* index_count 0: none (the mesh is drawn whole) */
    float error;                       /* the copy's deviation from the mesh, in its units */
} gn_caster_lod;

typedef struct gn_caster_lods {
    gn_caster_lod *meshes; /* one a mesh */
    uint32_t mesh_count;
    uint32_t *indices; /* every copy's (mesh-local, as the meshes' own), from index_base on */
    uint32_t index_count;
} gn_caster_lods;

/* Copies of every mesh `want` names with at least min_triangles triangles; their first
 * indices start at index_base. All or nothing: on an error *out is empty. */
gn_result gn_caster_lods_build(const gn_meshlet_mesh *meshes, const bool *want, uint32_t mesh_count,
                               uint32_t min_triangles, uint32_t index_base, gn_caster_lods *out,
                               gn_error *err);
void gn_caster_lods_free(gn_caster_lods *l);
/* The longest of a transform's axes (column-major 4x4): a LOD's error into the world. */
float gn_caster_lod_scale(const float transform[16]);
/* Whether a copy of `error` (in the world: the mesh's error times its instances' largest
 * scale) may stand in for its mesh in a view whose texels are `texel` metres: within one. */
bool gn_caster_lod_fits(float world_error, float texel);

#endif

/* Clusters (meshlets) of the large meshes, and the CPU reference of their culling test
 * (shaders/cull_test.comp holds to it bit for bit: gpu_clusters). A cluster is a run of at most
 * GN_MESHLET_TRIANGLES triangles over at most GN_MESHLET_VERTICES vertices, built by
 * meshoptimizer (meshopt_buildMeshlets) with its bounds (meshopt_computeMeshletBounds): a
 * bounding sphere and a normal cone. Culling one cluster of one instance: its sphere, carried
 * into the world by the instance's transform, against the view's planes (and the HZB, as an
 * instance's); and, for the camera, its cone: a cluster all of whose triangles face away from
 * the eye is dropped before the rasteriser, which would cull each of them one by one.
 *
 * The clusters' triangles are the mesh's, reordered: each cluster a contiguous index range of
 * its own (mesh-local indices, as the mesh's), so a cluster is drawn by an indexed command like
 * a whole mesh. The mesh's own indices stay as they were (blended draws and the CPU path use
 * them; a blend's order must not change). */
#ifndef GN_DECIDE_MESHLETS_H
#define GN_DECIDE_MESHLETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "decide/drawlist.h"
#include "shared/gpu_types.h" /* gn_gpu_cluster, the GPU twin of a cluster */

#define GN_MESHLET_VERTICES 64u   /* NVIDIA's advice for meshlets; meshoptimizer's limit is 255 */
#define GN_MESHLET_TRIANGLES 124u /* fits 64 vertices of a regular grid; a multiple of 4 */
/* Cone weight of meshopt_buildMeshlets: 0 packs by locality only, 1 by normals only. 0.25
 * (meshoptimizer's demo) trades a few more clusters for cones narrow enough to cull. */
#define GN_MESHLET_CONE_WEIGHT 0.25f
/* Meshes with fewer triangles stay whole (one slot an instance): below a few clusters the
 * extra slots and commands cost more than culling them can save (docs/VISIBILITY.md). */
#define GN_MESHLET_MIN_TRIANGLES 256u
#define GN_MESHLET_MAX_CLUSTERS (1u << 22) /* a scene's, all meshes together */

typedef struct gn_mesh_clusters {
    uint32_t first, count; /* the mesh's clusters; count 0: drawn whole */
} gn_mesh_clusters;

/* A scene's clusters: per mesh its range, the clusters (gn_gpu_cluster: index range into
 * `indices` offset by the index base given to the build, sphere, cone), and the reordered
 * indices (mesh-local, as the meshes' own). */
typedef struct gn_meshlets {
    gn_mesh_clusters *meshes;
    uint32_t mesh_count;
    gn_gpu_cluster *clusters;
    uint32_t cluster_count;
    uint32_t *indices;
    uint32_t index_count;
} gn_meshlets;

/* One mesh as the build reads it: its vertices' positions (stride bytes apart) and its
 * triangles' indices (relative to its first vertex). */
typedef struct gn_meshlet_mesh {
    const float *positions;
    size_t stride;
    uint32_t vertex_count;
    const uint32_t *indices;
    uint32_t index_count;
} gn_meshlet_mesh;

/* Clusters of every mesh with at least min_triangles triangles (`cluster[i]` false: leave mesh
 * i whole); the clusters' first indices start at index_base (where `indices` will follow the
 * scene's own in the index buffer). All or nothing: on an error *out is empty. */
gn_result gn_meshlets_build(const gn_meshlet_mesh *meshes, const bool *cluster, uint32_t mesh_count,
                            uint32_t min_triangles, uint32_t index_base, gn_meshlets *out, gn_error *err);
void gn_meshlets_free(gn_meshlets *m);

/* The static draw order with clusters: each opaque or alpha-tested group of a clustered mesh
 * becomes a group a cluster (the group's instances repeated, in the same order, a slot each),
 * the other groups stay whole; the batches cover the same groups. Blended groups stay whole
 * (their triangles' order is their blending order). *slots and *groups: the sizes out needs;
 * false when they pass max_slots (then draw whole meshes). */
bool gn_meshlets_expanded_size(const gn_draw_list *in, const gn_meshlets *m, uint32_t max_slots,
                               uint32_t *slots, uint32_t *groups);
/* out's instances, groups and batches sized as above; slot_cluster[slot] and
 * group_cluster[group]: its cluster, or GN_CULL_WHOLE. */
void gn_meshlets_expand(const gn_draw_list *in, const gn_meshlets *m, gn_draw_list *out,
                        uint32_t *slot_cluster, uint32_t *group_cluster);
/* Which meshes an order's groups would cluster (opaque and alpha-tested ones): out[mesh_count]. */
void gn_meshlets_wanted(const gn_draw_list *in, uint32_t mesh_count, bool *out);

/* A cluster's bounding sphere in the world: its centre through the instance's rows (world =
 * rows * (p, 1)), its radius times the longest of the transform's axes. */
void gn_cluster_world_sphere(const gn_gpu_cluster *c, const float rows[3][4], float out[4]);
/* Whether the camera at `eye` sees only the back of every triangle of the cluster (then the
 * rasteriser would cull them all): the cone test, done only where it is exact for the
 * transform (a rotation and a uniform scale; else false). Conservative by a margin on the
 * cutoff, so that grazing triangles are kept. */
bool gn_cluster_backfacing(const gn_gpu_cluster *c, const float rows[3][4], const float eye[3]);

#endif

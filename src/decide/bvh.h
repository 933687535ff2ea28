/* A bounding volume hierarchy over triangles for ray casts on the CPU: the distance from o along
 * the unit d to the first surface, which reflection probes' placement and choice ask for
 * (decide/probes.h's gn_probe_ray_fn). Binned SAH build (Wald, "On fast construction of
 * SAH-based bounding volume hierarchies", 2007), a flat array of 32-byte nodes and an iterative
 * near-child-first traversal; Möller-Trumbore for the triangles, both faces.
 *
 * The triangles are copied in (9 floats each: three xyz corners), so the caller's buffer may go
 * once built. A built hierarchy is read-only: several threads may cast rays at once. */
#ifndef GN_DECIDE_BVH_H
#define GN_DECIDE_BVH_H

#include <stdbool.h>
#include <stdint.h>

/* 64 Mi triangles: 2.4 GB of copied corners, past any map gnomon loads; also keeps the node
 * count (at most 2n - 1) and the build's depth bound (bvh.c) well inside 32 bits and 60 levels. */
#define GN_BVH_MAX_TRIANGLES (64u * 1024u * 1024u)

typedef struct gn_bvh gn_bvh;

/* Builds over tri_count triangles, 9 floats each (three xyz corners), copied in. NULL when out of
 * memory or tri_count is 0 or over the cap. Degenerate or non-finite triangles are dropped (a
 * hierarchy whose triangles were all dropped is empty, not NULL: every ray misses). */
gn_bvh *gn_bvh_build(const float *triangles, uint32_t tri_count);
void gn_bvh_free(gn_bvh *b);                     /* NULL is fine */
uint32_t gn_bvh_triangle_count(const gn_bvh *b); /* kept after dropping; 0 for NULL */
/* The distance along unit d from o to the first triangle hit with 0 < t < tmax (both faces), or
 * tmax when none; *back (may be NULL) is set true when the hit triangle faces away from the ray
 * (dot(d, (b-a)x(c-a)) > 0), false otherwise/no hit. b NULL: tmax. */
float gn_bvh_ray(const gn_bvh *b, const float o[3], const float d[3], float tmax, bool *back);

#endif

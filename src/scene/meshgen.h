/* Procedural primitives for built-in scenes, written into a growable vertex/index builder
 * and then handed to the scene as one mesh. Every primitive winds its triangles
 * counter-clockwise seen from outside (the renderer culls back faces) with outward normals;
 * flat faces get uvs in metres (textures tile at one repeat per metre), and tangents are
 * derived from the uvs when the mesh is committed. Units are metres, +Y up. */
#ifndef GN_MESHGEN_H
#define GN_MESHGEN_H

#include "scene/scene.h"

#include <stdbool.h>
#include <stdint.h>

/* ---- a small deterministic generator (PCG32 seeded through splitmix64) -----------------
 * Procedural content must not depend on the C library's rand(), which differs between
 * platforms and is global state. */
typedef struct gn_rng {
    uint64_t state, inc;
} gn_rng;

static inline uint64_t gn_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline gn_rng gn_rng_seed(uint64_t seed)
{
    gn_rng r;
    r.state = gn_splitmix64(&seed);
    r.inc = gn_splitmix64(&seed) | 1u;
    return r;
}
static inline uint32_t gn_rng_u32(gn_rng *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ull + r->inc;
    uint32_t xs = (uint32_t)(((old >> 18u) ^ old) >> 27u), rot = (uint32_t)(old >> 59u);
    return (xs >> rot) | (xs << ((-rot) & 31u));
}
static inline float gn_rng_float(gn_rng *r) /* [0, 1) with 24 bits */
{
    return (float)(gn_rng_u32(r) >> 8) * (1.0f / 16777216.0f);
}
static inline float gn_rng_range(gn_rng *r, float lo, float hi) { return lo + (hi - lo) * gn_rng_float(r); }
static inline uint32_t gn_rng_below(gn_rng *r, uint32_t n) /* [0, n); n > 0 */
{
    return (uint32_t)(((uint64_t)gn_rng_u32(r) * n) >> 32);
}

/* ---- the builder --------------------------------------------------------------------- */
typedef struct gn_mg {
    gn_vertex *v;
    uint32_t vcount, vcap;
    uint32_t *idx;
    uint32_t icount, icap;
    float xf[16]; /* placement applied to what is emitted next (column-major, affine) */
    float nxf[9]; /* its inverse transpose, for normals */
    bool flip;    /* the placement mirrors: triangles are re-wound to stay counter-clockwise */
    bool oom;     /* an allocation failed; commit reports it */
} gn_mg;

typedef float (*gn_height_fn)(const void *user, float x, float z);

void gn_mg_init(gn_mg *b);
void gn_mg_free(gn_mg *b);
void gn_mg_reset(gn_mg *b);                                       /* empty, identity placement */
void gn_mg_set_matrix(gn_mg *b, const float m[16]);               /* NULL: identity */
void gn_mg_place(gn_mg *b, float x, float y, float z, float yaw); /* translate * rotate about +Y (radians) */
uint32_t gn_mg_vertex(gn_mg *b, const float p[3], const float n[3], const float uv[2]);
void gn_mg_tri(gn_mg *b, uint32_t i0, uint32_t i1, uint32_t i2);

/* A flat convex polygon, counter-clockwise seen from outside; uvs are the positions projected
 * on `right` and minus `up` (so a texture stands upright), NULL axes: from the first edges. */
void gn_mg_poly(gn_mg *b, const float (*p)[3], int n, const float *right, const float *up);
void gn_mg_quad(gn_mg *b, const float p0[3], const float p1[3], const float p2[3], const float p3[3]);

/* ---- primitives (local coordinates, then the builder's placement) -------------------- */
void gn_mg_box(gn_mg *b, const float lo[3], const float hi[3]);
/* A frustum around +Y from base (centre of the bottom) with radii r0 (bottom), r1 (top;
 * 0 makes a cone); caps close the ends that have a radius. */
void gn_mg_frustum(gn_mg *b, const float base[3], float r0, float r1, float h, int segs, bool caps);
/* An icosphere (subdiv 0..4) scaled by radii; lumpiness > 0 pushes it in and out smoothly
 * (a tree crown), with smooth normals recomputed from the displaced surface. */
void gn_mg_blob(gn_mg *b, const float c[3], const float radii[3], int subdiv, float lumpiness, uint32_t seed);
/* A terrain grid of nx * nz quads of `step` metres from (x0, z0), heights from h plus lift;
 * diagonals run from (x, z) to (x+step, z+step) so draped grids on the same lattice match. */
void gn_mg_heightfield(gn_mg *b, float x0, float z0, float step, int nx, int nz, gn_height_fn h,
                       const void *user, float lift);

/* Houses: footprint w (along X) by d (along Z) centred on the origin, walls from y = -sink
 * to y = h. A gable rise > 0 adds the triangular gable walls at the X ends. */
void gn_mg_house_body(gn_mg *b, float w, float d, float h, float sink, float gable_rise);
/* Roofs sitting on walls whose top is y = 0: ridge along X. */
void gn_mg_roof_gable(gn_mg *b, float w, float d, float rise, float overhang, float thick);
void gn_mg_roof_hip(gn_mg *b, float w, float d, float rise, float overhang, float thick);

/* Props. Each needs two materials, so each comes as two meshes. */
typedef enum gn_tree_kind { GN_TREE_CONIFER, GN_TREE_ROUND, GN_TREE_POPLAR, GN_TREE_KIND_COUNT } gn_tree_kind;
void gn_mg_tree(gn_mg *trunk, gn_mg *crown, gn_tree_kind kind,
                uint32_t seed);                                    /* ~1 m below ground to ~10 m */
void gn_mg_lamp_post(gn_mg *pole, gn_mg *head, float height);      /* arm reaches along +X */
void gn_mg_fence(gn_mg *b, float length, float height, int posts); /* along +X from the origin */
/* A row of `bays` round arches along +X from x = 0 to length, open towards -Z, with a flat
 * top slab at `height`; depth along +Z (towards the wall it stands against). */
void gn_mg_arcade(gn_mg *b, float length, float depth, float height, int bays);

/* Computes tangents, adds the mesh to the scene and empties the builder. */
gn_result gn_mg_commit(gn_mg *b, gn_scene *s, const char *label, uint32_t *out_id, gn_error *err);

#endif

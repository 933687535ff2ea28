/* Bounding volume hierarchy over triangles for CPU ray casts (decide/bvh.h). */
#include "decide/bvh.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define BINS 16    /* Wald 2007: 16 bins lose little against sweeping every split */
#define LEAF_MAX 4 /* triangles a leaf holds at most */
/* SAH splits above this depth, object medians at and below it. A median halves the count, so
 * from GN_BVH_MAX_TRIANGLES = 2^26 it reaches LEAF_MAX = 2^2 within 24 levels: no leaf is deeper
 * than 32 + 24 = 56, whatever SAH did above, and the traversal's stack of 64 cannot overflow
 * (it holds at most one far child a level). */
#define SAH_DEPTH 32
#define STACK_DEPTH 64
/* Möller-Trumbore's determinant is -2 area cos(angle): under this the ray runs along the plane.
 * Tiny, as the build dropped the degenerate triangles; it only keeps 1 / det finite. */
#define DET_EPS 1e-18f
/* Barycentric slack: a ray through an edge that two triangles share must not pass between them
 * when rounding puts its hit outside both. Rounding errs by about eps |o - a| / |edge| (o - a
 * loses the digits that a small triangle seen from afar needs: 3 cm triangles 30 m off err by
 * 1e-4), so the slack is a bound on that, EDGE_ERR |s|_1 |p|_1 / |det| for u (|e1|_1 for v), plus
 * EDGE_EPS for the errors that do not grow with the distance (the determinant's, the stored
 * edges'). It grows each triangle by about 1e-6 of the distance: 30 um at 30 m. */
#define EDGE_EPS 1e-6f
#define EDGE_ERR (4.0f * FLT_EPSILON)
/* Slab tests widen the exit distance by a few ulps (Ize, "Robust BVH ray traversal", JCGT 2013):
 * their rounding, which grows with the distance, must not drop a box whose triangle the ray meets
 * at an edge (from far off, where BOX_GROW is too small to cover it). */
#define EXIT_WIDEN 1.0000004f
/* Stored boxes grow by 8 ulps or so, and by 1e-20 m (for 0): a ray that runs in a box's face
 * plane (d[a] = 0 and o[a] = lo or hi, as axis rays from grid points do along a map's
 * round-numbered surfaces) is then inside the slab, not on its open end, and leaves it only at
 * 1e10 m, the growth over the 1e-30 that stands in for d[a] in gn_bvh_ray. */
#define BOX_GROW 1e-6f
#define BOX_GROW_ABS 1e-20f

/* count 0: an inner node, its children nodes index and index + 1 (allocated as a pair, so one
 * index names both); count > 0: a leaf of triangles index .. index + count - 1. */
typedef struct node {
    float lo[3];
    uint32_t index;
    float hi[3];
    uint32_t count;
} node;
_Static_assert(sizeof(node) == 32, "two nodes a 64-byte cache line");

/* A corner and the two edges from it, Möller-Trumbore's inputs: the subtractions done once. */
typedef struct tri {
    float a[3], e1[3], e2[3];
} tri;
_Static_assert(sizeof(tri) == 36, "9 floats a triangle");

/* A triangle during the build: its bounds and its place in the input. The build reorders these
 * themselves rather than an index, so binning reads memory in order. */
typedef struct prim {
    float lo[3];
    uint32_t src;
    float hi[3];
} prim;

typedef struct box {
    float lo[3], hi[3];
} box;

/* A node's prims during the build: where they are, their bounds and their keys' bounds. */
typedef struct span {
    uint32_t first, n;
    box bounds, keys;
} span;

typedef struct bin {
    box bounds, keys;
    uint32_t count;
} bin;

struct gn_bvh {
    tri *tris;   /* in leaf order */
    node *nodes; /* 64-byte aligned in node_block, so each pair of children is one cache line */
    void *node_block;
    uint32_t tri_count, node_count;
};

/* min and max as compares: no NaN reaches them, and unlike fminf they inline to one instruction */
static inline float minf(float a, float b) { return a < b ? a : b; }
static inline float maxf(float a, float b) { return a > b ? a : b; }

static void cross(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static float dot(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static float l1(const float a[3]) { return fabsf(a[0]) + fabsf(a[1]) + fabsf(a[2]); }

static box box_empty(void)
{
    return (box){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
}

/* Written out: gcc -O2 keeps a loop of three where unrolling would grow the code, and the
 * binning spends most of the build here. */
static inline void box_grow(box *b, const float lo[3], const float hi[3])
{
    b->lo[0] = minf(b->lo[0], lo[0]), b->lo[1] = minf(b->lo[1], lo[1]), b->lo[2] = minf(b->lo[2], lo[2]);
    b->hi[0] = maxf(b->hi[0], hi[0]), b->hi[1] = maxf(b->hi[1], hi[1]), b->hi[2] = maxf(b->hi[2], hi[2]);
}

/* Half the surface area: SAH's chance that a ray through the parent meets the box, up to a
 * common factor. */
static float half_area(const box *b)
{
    if (b->lo[0] > b->hi[0]) return 0.0f;
    float x = b->hi[0] - b->lo[0], y = b->hi[1] - b->lo[1], z = b->hi[2] - b->lo[2];
    return x * y + y * z + z * x;
}

/* Twice the centroid along an axis (the halving would not change an order or a bin). */
static float key(const prim *p, int axis) { return p->lo[axis] + p->hi[axis]; }

static void swap_prim(prim *a, prim *b)
{
    prim t = *a;
    *a = *b;
    *b = t;
}

/* Kept: finite corners and an area that rounding has not made up. |e1 x e2|^2 / (|e1|^2 |e2|^2)
 * is sin^2 of the angle at the first corner: under 1e-12 (a microradian) collinear corners
 * rounded apart count as degenerate. The products' being finite also bounds every kept corner
 * (a float's step at 1e16 is already 1e9, whose fourth power overflows), so the build's sums of
 * two coordinates stay finite. */
static bool keep(const float *t)
{
    float e1[3], e2[3], n[3];
    for (int a = 0; a < 3; a++) e1[a] = t[3 + a] - t[a], e2[a] = t[6 + a] - t[a];
    cross(e1, e2, n);
    float n2 = dot(n, n), l2 = dot(e1, e1) * dot(e2, e2);
    if (!isfinite(t[0] + t[1] + t[2]) || !isfinite(n2) || !isfinite(l2)) return false;
    return n2 > 1e-12f * l2 && n2 > 0.0f;
}

/* The span of n prims from first, its bounds measured. */
static span span_of(const prim *all, uint32_t first, uint32_t n)
{
    span s = {.first = first, .n = n, .bounds = box_empty(), .keys = box_empty()};
    for (const prim *p = all + first; p < all + first + n; p++) {
        float k[3] = {key(p, 0), key(p, 1), key(p, 2)};
        box_grow(&s.bounds, p->lo, p->hi);
        box_grow(&s.keys, k, k);
    }
    return s;
}

/* Moves the prims so that position k holds the one an ascending sort by key would put there,
 * none after it smaller and none before it larger (Hoare's select, median-of-three pivot). */
static void select_kth(prim *p, uint32_t n, uint32_t k, int axis)
{
    int64_t l = 0, r = (int64_t)n - 1;
    while (r > l) {
        float a = key(&p[l], axis), b = key(&p[l + (r - l) / 2], axis), c = key(&p[r], axis);
        float pivot = maxf(minf(a, b), minf(maxf(a, b), c));
        int64_t i = l, j = r;
        while (i <= j) {
            while (key(&p[i], axis) < pivot) i++;
            while (key(&p[j], axis) > pivot) j--;
            if (i <= j) swap_prim(&p[i++], &p[j--]);
        }
        /* [l, j] <= pivot <= [i, r]; what lies between equals the pivot */
        if ((int64_t)k <= j)
            r = j;
        else if ((int64_t)k >= i)
            l = i;
        else
            return;
    }
}

static int bin_of(float k, float kmin, float scale)
{
    int b = (int)((k - kmin) * scale); /* >= 0; may round up to BINS at the top */
    return b < BINS ? b : BINS - 1;
}

/* The binned SAH split of span s along axis: partitions its prims into l and r, or returns false
 * when no bin boundary has prims on both sides. The children's bounds are the unions of their
 * bins', so no pass over the prims measures them. */
static bool sah_split(prim *all, const span *s, int axis, span *l, span *r)
{
    float kmin = s->keys.lo[axis], scale = (float)BINS / (s->keys.hi[axis] - kmin);
    if (!isfinite(scale)) return false;
    bin bins[BINS];
    for (int b = 0; b < BINS; b++) bins[b] = (bin){.bounds = box_empty(), .keys = box_empty()};
    prim *p = all + s->first;
    for (uint32_t i = 0; i < s->n; i++) {
        float k[3] = {key(&p[i], 0), key(&p[i], 1), key(&p[i], 2)};
        bin *b = &bins[bin_of(k[axis], kmin, scale)];
        box_grow(&b->bounds, p[i].lo, p[i].hi);
        box_grow(&b->keys, k, k);
        b->count++;
    }
    /* right_area[b]: the half area of bins b.. together */
    float right_area[BINS];
    box acc = box_empty();
    for (int b = BINS - 1; b > 0; b--) {
        box_grow(&acc, bins[b].bounds.lo, bins[b].bounds.hi);
        right_area[b] = half_area(&acc);
    }
    acc = box_empty();
    uint32_t left = 0;
    int best = -1;
    float best_cost = INFINITY;
    for (int b = 0; b < BINS - 1; b++) {
        box_grow(&acc, bins[b].bounds.lo, bins[b].bounds.hi);
        left += bins[b].count;
        if (left == 0 || left == s->n) continue;
        float cost = half_area(&acc) * (float)left + right_area[b + 1] * (float)(s->n - left);
        if (cost < best_cost) best_cost = cost, best = b;
    }
    if (best < 0) return false;
    *l = (span){.first = s->first, .bounds = box_empty(), .keys = box_empty()};
    *r = (span){.bounds = box_empty(), .keys = box_empty()};
    for (int b = 0; b < BINS; b++) {
        span *side = b <= best ? l : r;
        side->n += bins[b].count;
        box_grow(&side->bounds, bins[b].bounds.lo, bins[b].bounds.hi);
        box_grow(&side->keys, bins[b].keys.lo, bins[b].keys.hi);
    }
    r->first = s->first + l->n;
    /* the same bin_of on the same keys as the binning: exactly l->n prims go left */
    uint32_t i = 0, j = s->n;
    while (i < j) {
        if (bin_of(key(&p[i], axis), kmin, scale) <= best)
            i++;
        else
            swap_prim(&p[i], &p[--j]);
    }
    return true;
}

/* Splits span s into l and r, or returns false for a leaf. A leaf as soon as the prims fit one:
 * SAH would split most leaves of small triangles down to one a leaf, which doubles the nodes
 * (64 B a triangle) and the node fetches that a ray waits on. */
static bool split(prim *all, const span *s, int depth, span *l, span *r)
{
    if (s->n <= LEAF_MAX) return false;
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (s->keys.hi[a] - s->keys.lo[a] > s->keys.hi[axis] - s->keys.lo[axis]) axis = a;
    /* all centroids at one point: no plane tells them apart, and any halves will do */
    bool apart = s->keys.hi[axis] - s->keys.lo[axis] > 0.0f;
    if (apart && depth < SAH_DEPTH && sah_split(all, s, axis, l, r)) return true;
    if (apart) select_kth(all + s->first, s->n, s->n / 2, axis);
    *l = span_of(all, s->first, s->n / 2);
    *r = span_of(all, s->first + s->n / 2, s->n - s->n / 2);
    return true;
}

typedef struct builder {
    prim *prims;
    node *nodes;
    uint32_t used; /* nodes */
} builder;

/* Recursion, not a queue: its depth is bounded at 56 (SAH_DEPTH). */
static void build_node(builder *bd, uint32_t ni, const span *s, int depth)
{
    node *nd = &bd->nodes[ni];
    for (int a = 0; a < 3; a++) {
        nd->lo[a] = s->bounds.lo[a] - (fabsf(s->bounds.lo[a]) * BOX_GROW + BOX_GROW_ABS);
        nd->hi[a] = s->bounds.hi[a] + (fabsf(s->bounds.hi[a]) * BOX_GROW + BOX_GROW_ABS);
    }
    span l, r;
    if (!split(bd->prims, s, depth, &l, &r)) {
        nd->index = s->first, nd->count = s->n;
        return;
    }
    uint32_t c = bd->used;
    bd->used += 2;
    nd->index = c, nd->count = 0;
    build_node(bd, c, &l, depth + 1);
    build_node(bd, c + 1, &r, depth + 1);
}

/* Memory: 28 B a triangle for the build's prims and up to 64 B for its nodes, freed at the end;
 * kept, 36 B a triangle and 32 B a node (0.67 nodes a triangle on the unit test's 1.5 M random
 * ones: 21 B). */
gn_bvh *gn_bvh_build(const float *triangles, uint32_t tri_count)
{
    if (!triangles || tri_count == 0 || tri_count > GN_BVH_MAX_TRIANGLES) return NULL;
    gn_bvh *b = gn_calloc(1, sizeof *b);
    prim *prims = gn_malloc((size_t)tri_count * sizeof *prims);
    node *nodes = NULL;
    if (!b || !prims) goto fail;
    uint32_t n = 0;
    for (uint32_t i = 0; i < tri_count; i++) {
        const float *t = triangles + (size_t)i * 9;
        if (!keep(t)) continue;
        prim *p = &prims[n++];
        for (int a = 0; a < 3; a++) {
            p->lo[a] = minf(t[a], minf(t[3 + a], t[6 + a]));
            p->hi[a] = maxf(t[a], maxf(t[3 + a], t[6 + a]));
        }
        p->src = i;
    }
    b->tri_count = n;
    if (n == 0) {
        free(prims);
        return b;
    }
    /* The root, an unused node, then children in pairs from index 2: pairs start at even
     * indices, so on a 64-byte boundary. At most 2n nodes (leaves of one). */
    nodes = gn_malloc((size_t)n * 2 * sizeof *nodes);
    b->tris = gn_malloc((size_t)n * sizeof *b->tris);
    if (!nodes || !b->tris) goto fail;
    memset(&nodes[1], 0, sizeof nodes[1]);
    builder bd = {.prims = prims, .nodes = nodes, .used = 2};
    span root = span_of(prims, 0, n);
    build_node(&bd, 0, &root, 0);
    for (uint32_t i = 0; i < n; i++) {
        const float *t = triangles + (size_t)prims[i].src * 9;
        tri *out = &b->tris[i];
        for (int a = 0; a < 3; a++)
            out->a[a] = t[a], out->e1[a] = t[3 + a] - t[a], out->e2[a] = t[6 + a] - t[a];
    }
    /* kept at its size, aligned by hand (alloc.h has no aligned allocation) */
    b->node_block = gn_malloc((size_t)bd.used * sizeof *nodes + 63);
    if (!b->node_block) goto fail;
    b->nodes = (node *)(((uintptr_t)b->node_block + 63) & ~(uintptr_t)63);
    memcpy(b->nodes, nodes, (size_t)bd.used * sizeof *nodes);
    b->node_count = bd.used;
    free(nodes);
    free(prims);
    return b;
fail:
    free(nodes);
    free(prims);
    gn_bvh_free(b);
    return NULL;
}

void gn_bvh_free(gn_bvh *b)
{
    if (!b) return;
    free(b->tris);
    free(b->node_block);
    free(b);
}

uint32_t gn_bvh_triangle_count(const gn_bvh *b) { return b ? b->tri_count : 0; }

/* The ray's entry distance into the box if it meets it within [0, tmax]. */
static inline bool box_hit(const node *n, const float o[3], const float inv[3], float tmax, float *t_enter)
{
    float t0 = 0.0f, t1 = tmax;
    for (int a = 0; a < 3; a++) {
        float ta = (n->lo[a] - o[a]) * inv[a], tb = (n->hi[a] - o[a]) * inv[a];
        t0 = maxf(t0, minf(ta, tb));
        t1 = minf(t1, maxf(ta, tb));
    }
    *t_enter = t0;
    return t0 <= t1 * EXIT_WIDEN;
}

/* Möller-Trumbore ("Fast, minimum storage ray/triangle intersection", 1997): a hit at
 * 0 < t < tmax. det = dot(e1, d x e2) = -dot(d, e1 x e2), so a negative det is the back face. */
static bool tri_hit(const tri *tr, const float o[3], const float d[3], float tmax, float *t_out, bool *back)
{
    float p[3], s[3], q[3];
    cross(d, tr->e2, p);
    float det = dot(tr->e1, p);
    if (fabsf(det) < DET_EPS) return false;
    float inv = 1.0f / det;
    for (int a = 0; a < 3; a++) s[a] = o[a] - tr->a[a];
    float u = dot(s, p) * inv, err = EDGE_ERR * l1(s) * fabsf(inv);
    float slack_u = EDGE_EPS + err * l1(p);
    if (u < -slack_u || u > 1.0f + slack_u) return false;
    cross(s, tr->e1, q);
    float v = dot(d, q) * inv, slack_v = EDGE_EPS + err * l1(tr->e1);
    if (v < -slack_v || u + v > 1.0f + slack_u + slack_v) return false;
    float t = dot(tr->e2, q) * inv;
    if (!(t > 0.0f && t < tmax)) return false;
    *t_out = t, *back = det < 0.0f;
    return true;
}

float gn_bvh_ray(const gn_bvh *b, const float o[3], const float d[3], float tmax, bool *back)
{
    if (back) *back = false;
    if (!b || b->node_count == 0 || !(tmax > 0.0f)) return tmax;
    float inv[3];
    for (int a = 0; a < 3; a++) {
        if (!isfinite(o[a]) || !isfinite(d[a])) return tmax;
        /* a zero component's reciprocal 1e30, not inf: (lo - o) * inv is never 0 * inf = NaN, and
         * BOX_GROW keeps an origin on a box's plane inside for 1e10 m. Smaller than the true one
         * for a tiny component, which only keeps a box longer. */
        inv[a] = fabsf(d[a]) > 1e-30f ? 1.0f / d[a] : copysignf(1e30f, d[a]);
    }
    float best = tmax, t;
    bool best_back = false;
    if (!box_hit(&b->nodes[0], o, inv, best, &t)) return tmax;
    struct {
        uint32_t node;
        float t;
    } stack[STACK_DEPTH];
    int top = 0;
    uint32_t ni = 0;
    for (;;) {
        const node *nd = &b->nodes[ni];
        if (nd->count == 0) {
            const node *c = &b->nodes[nd->index];
            float t0, t1;
            bool h0 = box_hit(&c[0], o, inv, best, &t0), h1 = box_hit(&c[1], o, inv, best, &t1);
            if (h0 && h1) {
                /* the near child first: its hits shorten best and so cull the far one */
                bool left_first = t0 <= t1;
                stack[top].node = left_first ? nd->index + 1 : nd->index;
                stack[top].t = left_first ? t1 : t0;
                top++;
                ni = left_first ? nd->index : nd->index + 1;
                continue;
            }
            if (h0 || h1) {
                ni = h0 ? nd->index : nd->index + 1;
                continue;
            }
        } else {
            for (uint32_t k = nd->index; k < nd->index + nd->count; k++) {
                bool bk;
                if (tri_hit(&b->tris[k], o, d, best, &t, &bk)) best = t, best_back = bk;
            }
        }
        /* the next pushed box that the ray enters before the nearest hit so far */
        do {
            if (top == 0) {
                if (back) *back = best_back;
                return best;
            }
            top--;
        } while (!(stack[top].t <= best * EXIT_WIDEN));
        ni = stack[top].node;
    }
}

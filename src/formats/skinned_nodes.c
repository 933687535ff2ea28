/* The animated model loader's node tree and matrices (skinned_ctx.h): assimp's nodes in
 * parent-first order with their rest transforms decomposed, a lookup by name, and messages. */
#include "base/alloc.h"
#include "base/error.h"
#include "formats/skinned_ctx.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gn_sk_log(gn_sk_ctx *c, gn_log_level level, const char *fmt, ...)
{
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "%s: ", c->name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    if (c->d.log)
        c->d.log(level, msg, c->d.log_user);
    else if (level <= GN_LOG_WARN)
        fprintf(stderr, "gnomon: warning: %s\n", msg);
}

gn_result gn_sk_bad(gn_sk_ctx *c, const char *fmt, ...)
{
    char msg[480];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: %s", c->name, msg);
}

gn_result gn_sk_oom(gn_sk_ctx *c)
{
    return gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
}

/* ---- matrices ------------------------------------------------------------------------------ */

void gn_sk_matrix(const struct aiMatrix4x4 *a, float out[16])
{
    /* aiMatrix4x4 is row-major: a1..a4 the first row, a4 b4 c4 the translation */
    const float rows[4][4] = {{a->a1, a->a2, a->a3, a->a4},
                              {a->b1, a->b2, a->b3, a->b4},
                              {a->c1, a->c2, a->c3, a->c4},
                              {a->d1, a->d2, a->d3, a->d4}};
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) out[col * 4 + row] = rows[row][col];
}

bool gn_sk_invert(const float m[16], float out[16])
{
    /* cofactors in double: inverse bind matrices of centimetre-scale FBX rigs lose digits in float */
    double a[16], inv[16];
    for (int i = 0; i < 16; i++) a[i] = m[i];
    inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] + a[9] * a[7] * a[14] +
             a[13] * a[6] * a[11] - a[13] * a[7] * a[10];
    inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] - a[8] * a[7] * a[14] -
             a[12] * a[6] * a[11] + a[12] * a[7] * a[10];
    inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] + a[8] * a[7] * a[13] +
             a[12] * a[5] * a[11] - a[12] * a[7] * a[9];
    inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] - a[8] * a[6] * a[13] -
              a[12] * a[5] * a[10] + a[12] * a[6] * a[9];
    inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] - a[9] * a[3] * a[14] -
             a[13] * a[2] * a[11] + a[13] * a[3] * a[10];
    inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] + a[8] * a[3] * a[14] +
             a[12] * a[2] * a[11] - a[12] * a[3] * a[10];
    inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] - a[8] * a[3] * a[13] -
             a[12] * a[1] * a[11] + a[12] * a[3] * a[9];
    inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] + a[8] * a[2] * a[13] +
              a[12] * a[1] * a[10] - a[12] * a[2] * a[9];
    inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] + a[5] * a[3] * a[14] +
             a[13] * a[2] * a[7] - a[13] * a[3] * a[6];
    inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] - a[4] * a[3] * a[14] -
             a[12] * a[2] * a[7] + a[12] * a[3] * a[6];
    inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] + a[4] * a[3] * a[13] +
              a[12] * a[1] * a[7] - a[12] * a[3] * a[5];
    inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] - a[4] * a[2] * a[13] -
              a[12] * a[1] * a[6] + a[12] * a[2] * a[5];
    inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] - a[5] * a[3] * a[10] -
             a[9] * a[2] * a[7] + a[9] * a[3] * a[6];
    inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] + a[4] * a[3] * a[10] +
             a[8] * a[2] * a[7] - a[8] * a[3] * a[6];
    inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] - a[4] * a[3] * a[9] -
              a[8] * a[1] * a[7] + a[8] * a[3] * a[5];
    inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] + a[4] * a[2] * a[9] +
              a[8] * a[1] * a[6] - a[8] * a[2] * a[5];
    double det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
    if (!(fabs(det) > 1e-30) || !isfinite(det)) return false;
    for (int i = 0; i < 16; i++) out[i] = (float)(inv[i] / det);
    return true;
}

/* A unit quaternion (x, y, z, w) from an orthonormal rotation matrix's columns (Shepperd's
 * method: the largest of the four diagonal sums keeps the division well away from zero). */
static void gn_sk_quat(const float c0[3], const float c1[3], const float c2[3], float q[4])
{
    float r00 = c0[0], r11 = c1[1], r22 = c2[2], tr = r00 + r11 + r22;
    if (tr > 0) {
        float s = sqrtf(tr + 1.0f) * 2.0f;
        q[3] = 0.25f * s, q[0] = (c1[2] - c2[1]) / s, q[1] = (c2[0] - c0[2]) / s, q[2] = (c0[1] - c1[0]) / s;
    } else if (r00 > r11 && r00 > r22) {
        float s = sqrtf(1.0f + r00 - r11 - r22) * 2.0f;
        q[3] = (c1[2] - c2[1]) / s, q[0] = 0.25f * s, q[1] = (c1[0] + c0[1]) / s, q[2] = (c2[0] + c0[2]) / s;
    } else if (r11 > r22) {
        float s = sqrtf(1.0f + r11 - r00 - r22) * 2.0f;
        q[3] = (c2[0] - c0[2]) / s, q[0] = (c1[0] + c0[1]) / s, q[1] = 0.25f * s, q[2] = (c2[1] + c1[2]) / s;
    } else {
        float s = sqrtf(1.0f + r22 - r00 - r11) * 2.0f;
        q[3] = (c0[1] - c1[0]) / s, q[0] = (c2[0] + c0[2]) / s, q[1] = (c2[1] + c1[2]) / s, q[2] = 0.25f * s;
    }
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(len > 0) || !isfinite(len)) {
        q[0] = q[1] = q[2] = 0, q[3] = 1;
        return;
    }
    for (int i = 0; i < 4; i++) q[i] /= len;
}

bool gn_sk_decompose(const float m[16], float t[3], float r[4], float s[3])
{
    float c[3][3];
    for (int k = 0; k < 3; k++) {
        t[k] = m[12 + k];
        for (int i = 0; i < 3; i++) c[k][i] = m[k * 4 + i];
        s[k] = sqrtf(c[k][0] * c[k][0] + c[k][1] * c[k][1] + c[k][2] * c[k][2]);
    }
    float det = c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) -
                c[1][0] * (c[0][1] * c[2][2] - c[0][2] * c[2][1]) +
                c[2][0] * (c[0][1] * c[1][2] - c[0][2] * c[1][1]);
    if (det < 0) s[0] = -s[0]; /* a mirror: one negative scale, the rest a rotation */
    if (!(fabsf(s[0]) > 1e-20f && s[1] > 1e-20f && s[2] > 1e-20f)) {
        r[0] = r[1] = r[2] = 0, r[3] = 1; /* a collapsed axis: no rotation can be read */
        return det != 0 && m[3] == 0 && m[7] == 0 && m[11] == 0;
    }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) c[k][i] /= s[k];
    /* a shear leaves the columns skewed: how far from orthogonal they are says it */
    float skew = fmaxf(fabsf(c[0][0] * c[1][0] + c[0][1] * c[1][1] + c[0][2] * c[1][2]),
                       fmaxf(fabsf(c[0][0] * c[2][0] + c[0][1] * c[2][1] + c[0][2] * c[2][2]),
                             fabsf(c[1][0] * c[2][0] + c[1][1] * c[2][1] + c[1][2] * c[2][2])));
    gn_sk_quat(c[0], c[1], c[2], r);
    return skew < 1e-3f && fabsf(m[3]) < 1e-6f && fabsf(m[7]) < 1e-6f && fabsf(m[11]) < 1e-6f &&
           fabsf(m[15] - 1.0f) < 1e-6f;
}

/* ---- nodes --------------------------------------------------------------------------------- */

gn_result gn_sk_add_node(gn_sk_ctx *c, int32_t parent, const char *name, const float m[16],
                         const struct aiNode *ai, uint32_t *out)
{
    gn_skeleton *sk = &c->m->skeleton;
    if (sk->node_count >= GN_SKIN_MAX_NODES)
        return gn_sk_bad(c, "more than %u nodes (the model's cap)", GN_SKIN_MAX_NODES);
    for (int i = 0; i < 16; i++)
        if (!isfinite(m[i]))
            return gn_sk_bad(c, "node '%.64s': its matrix holds a value that is not finite", name);
    if (sk->node_count == c->node_cap) {
        uint32_t cap = c->node_cap ? c->node_cap * 2 : 64;
        gn_skel_node *nodes = gn_realloc(sk->nodes, cap * sizeof *nodes);
        if (!nodes) return gn_sk_oom(c);
        sk->nodes = nodes;
        const struct aiNode **ain = gn_realloc(c->ai_node, cap * sizeof *ain);
        if (!ain) return gn_sk_oom(c);
        c->ai_node = ain;
        c->node_cap = cap;
    }
    uint32_t i = sk->node_count++;
    gn_skel_node *nd = &sk->nodes[i];
    memset(nd, 0, sizeof *nd);
    nd->parent = parent;
    snprintf(nd->name, sizeof nd->name, "%s", name);
    if (!gn_sk_decompose(m, nd->t, nd->r, nd->s)) {
        c->st->sheared++;
        gn_sk_log(c, GN_LOG_WARN,
                  "node '%.64s': its matrix is no translation, rotation and scale (a shear); "
                  "its rest transform is the nearest that is",
                  name);
    }
    c->ai_node[i] = ai;
    if (out) *out = i;
    return GN_OK;
}

static int gn_sk_name_cmp(const void *a, const void *b)
{
    const gn_sk_name *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x->node > y->node) - (x->node < y->node);
}

int32_t gn_sk_find_node(const gn_sk_ctx *c, const char *name)
{
    uint32_t lo = 0, hi = c->name_count; /* the first entry not below name */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(c->names[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->name_count && strcmp(c->names[lo].name, name) == 0 ? (int32_t)c->names[lo].node : -1;
}

/* One entry of the walk's stack: an aiNode, its parent's model index and its depth. */
typedef struct gn_sk_walk {
    const struct aiNode *node;
    int32_t parent;
    uint32_t depth;
} gn_sk_walk;

gn_result gn_sk_nodes(gn_sk_ctx *c)
{
    /* Parent-first (pre-order) without recursion: children pushed last to first so they come out
     * in the file's order. Every node pushed is counted against the cap before it is pushed. */
    gn_sk_walk *stack = gn_malloc((GN_SKIN_MAX_NODES + 1) * sizeof *stack);
    if (!stack) return gn_sk_oom(c);
    uint32_t top = 0, pushed = 1;
    stack[top++] = (gn_sk_walk){c->ai->mRootNode, -1, 0};
    gn_result r = GN_OK;
    while (r == GN_OK && top) {
        gn_sk_walk w = stack[--top];
        const struct aiNode *n = w.node;
        if (w.depth > GN_GLTF_MAX_NODE_DEPTH) {
            r = gn_sk_bad(c, "the node tree is deeper than %u", GN_GLTF_MAX_NODE_DEPTH);
            break;
        }
        float m[16];
        gn_sk_matrix(&n->mTransformation, m);
        uint32_t me;
        r = gn_sk_add_node(c, w.parent, n->mName.data, m, n, &me);
        if (r != GN_OK) break;
        if (n->mNumChildren && !n->mChildren) {
            r = gn_sk_bad(c, "node '%.64s' has no child list", n->mName.data);
            break;
        }
        if (n->mNumChildren > GN_SKIN_MAX_NODES - pushed) {
            r = gn_sk_bad(c, "more than %u nodes (the model's cap)", GN_SKIN_MAX_NODES);
            break;
        }
        pushed += n->mNumChildren;
        for (uint32_t k = n->mNumChildren; k-- > 0;) {
            if (!n->mChildren[k]) {
                r = gn_sk_bad(c, "node '%.64s': child %u is missing", n->mName.data, k);
                break;
            }
            stack[top++] = (gn_sk_walk){n->mChildren[k], (int32_t)me, w.depth + 1};
        }
    }
    free(stack);
    if (r != GN_OK) return r;
    uint32_t n = c->m->skeleton.node_count;
    c->names = gn_malloc((n ? n : 1) * sizeof *c->names);
    if (!c->names) return gn_sk_oom(c);
    for (uint32_t i = 0; i < n; i++) c->names[i] = (gn_sk_name){c->ai_node[i]->mName.data, i};
    qsort(c->names, n, sizeof *c->names, gn_sk_name_cmp);
    c->name_count = n;
    return GN_OK;
}

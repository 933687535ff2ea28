/* PVS and frustum culling of a Quake 3 map's faces (bsp_vis.h). */
#include "decide/bsp_vis.h"

#include "base/alloc.h"
#include "base/error.h"

#include <stdlib.h>
#include <string.h>

int32_t gn_bsp_find_leaf(const gn_bsp *b, const float pos[3])
{
    if (!b || b->leaf_count == 0) return -1;
    if (b->node_count == 0) return 0; /* a single-leaf map */
    int32_t n = 0;
    /* gn_bsp_parse guarantees children follow their parent, so at most node_count steps; the
     * bound is kept for a hand-built gn_bsp. */
    for (uint32_t steps = 0; n >= 0 && steps <= b->node_count; steps++) {
        if ((uint32_t)n >= b->node_count) return -1;
        const gn_bsp_node *node = &b->nodes[n];
        if (node->plane < 0 || (uint32_t)node->plane >= b->plane_count) return -1;
        const gn_bsp_plane *p = &b->planes[node->plane];
        float d = p->normal[0] * pos[0] + p->normal[1] * pos[1] + p->normal[2] * pos[2] - p->dist;
        n = node->children[d >= 0.0f ? 0 : 1];
    }
    if (n >= 0) return -1;
    int64_t leaf = -(int64_t)n - 1;
    return leaf < (int64_t)b->leaf_count ? (int32_t)leaf : -1;
}

bool gn_bsp_cluster_visible(const gn_bsp *b, int32_t from_cluster, int32_t to_cluster)
{
    if (!b || !b->visdata || from_cluster < 0) return true;
    if (to_cluster < 0) return false;
    if ((uint32_t)from_cluster >= b->vis_clusters || (uint32_t)to_cluster >= b->vis_clusters) return true;
    /* Q3 stores the PVS uncompressed: row `from`, bit `to` (LSB first within a byte). */
    size_t byte = (size_t)from_cluster * b->vis_row_bytes + (uint32_t)to_cluster / 8u;
    return (b->visdata[byte] >> (to_cluster & 7)) & 1u;
}

static int by_key(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* Sorts faces by (texture, face) through 64-bit keys: qsort has no context argument. */
static gn_result sort_faces(const gn_bsp *b, uint32_t *order, uint32_t n, gn_error *err)
{
    uint64_t *keys = gn_malloc(n * sizeof *keys);
    if (!keys) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for the face order", b->name);
    for (uint32_t i = 0; i < n; i++) keys[i] = (uint64_t)(uint32_t)b->faces[i].texture << 32 | i;
    qsort(keys, n, sizeof *keys, by_key);
    for (uint32_t i = 0; i < n; i++) order[i] = (uint32_t)keys[i];
    free(keys);
    return GN_OK;
}

/* Which leaves the tree reaches from node 0, and which faces they list. gn_bsp_parse
 * guarantees that a child node follows its parent, so one pass in order visits every node
 * below a reached one. A map without nodes is one leaf. */
static void mark_tree(const gn_bsp *b, uint8_t *node_reached, uint8_t *leaf_in_tree, uint8_t *face_in_tree)
{
    if (b->leaf_count == 0) return;
    if (b->node_count == 0) {
        leaf_in_tree[0] = 1;
    } else {
        node_reached[0] = 1;
        for (uint32_t n = 0; n < b->node_count; n++) {
            if (!node_reached[n]) continue;
            for (int c = 0; c < 2; c++) {
                int32_t ch = b->nodes[n].children[c];
                if (ch >= 0 && (uint32_t)ch < b->node_count) node_reached[ch] = 1;
                if (ch < 0 && -(int64_t)ch - 1 < (int64_t)b->leaf_count) leaf_in_tree[-(int64_t)ch - 1] = 1;
            }
        }
    }
    if (!face_in_tree) return;
    for (uint32_t l = 0; l < b->leaf_count; l++) {
        if (!leaf_in_tree[l]) continue;
        const gn_bsp_leaf *leaf = &b->leaves[l];
        for (uint32_t k = 0; k < leaf->leafface_count; k++) {
            uint32_t face = b->leaffaces[leaf->first_leafface + k];
            if (face < b->face_count) face_in_tree[face] = 1;
        }
    }
}

gn_result gn_bsp_vis_create(const gn_bsp *b, const gn_bsp_mesh *m, gn_bsp_vis *out, gn_error *err)
{
    if (!b || !m || !out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_bsp_vis_create: NULL argument");
    memset(out, 0, sizeof *out);
    if (m->face_count != b->face_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: mesh has %u faces, the map %u", b->name,
                       m->face_count, b->face_count);
    uint32_t n = b->face_count;
    out->bsp = b;
    out->face_count = n;
    out->leaf_in_tree = gn_calloc(b->leaf_count ? b->leaf_count : 1, 1);
    uint8_t *node_reached = gn_calloc(b->node_count ? b->node_count : 1, 1);
    if (!out->leaf_in_tree || !node_reached) {
        free(node_reached);
        gn_bsp_vis_destroy(out);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for visibility data", b->name);
    }
    if (n == 0) {
        mark_tree(b, node_reached, out->leaf_in_tree, NULL);
        free(node_reached);
        return GN_OK;
    }
    out->face_min = gn_malloc(n * sizeof *out->face_min);
    out->face_max = gn_malloc(n * sizeof *out->face_max);
    out->face_drawn = gn_calloc(n, 1);
    out->face_in_tree = gn_calloc(n, 1);
    out->order = gn_malloc(n * sizeof *out->order);
    if (!out->face_min || !out->face_max || !out->face_drawn || !out->face_in_tree || !out->order) {
        free(node_reached);
        gn_bsp_vis_destroy(out);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for visibility data", b->name);
    }
    mark_tree(b, node_reached, out->leaf_in_tree, out->face_in_tree);
    free(node_reached);
    for (uint32_t i = 0; i < n; i++) {
        const gn_bsp_face_range *r = &m->faces[i];
        float *mn = out->face_min[i], *mx = out->face_max[i];
        mn[0] = mn[1] = mn[2] = 0.0f, mx[0] = mx[1] = mx[2] = 0.0f;
        if ((uint64_t)r->first_index + r->index_count > m->index_count) {
            gn_bsp_vis_destroy(out);
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: mesh face %u's indices are out of range",
                           b->name, i);
        }
        for (uint32_t k = 0; k < r->index_count; k++) {
            uint32_t vi = m->indices[r->first_index + k];
            if (vi >= m->vertex_count) continue;
            const float *p = m->vertices[vi].pos;
            for (int a = 0; a < 3; a++) {
                if (!out->face_drawn[i] || p[a] < mn[a]) mn[a] = p[a];
                if (!out->face_drawn[i] || p[a] > mx[a]) mx[a] = p[a];
            }
            out->face_drawn[i] = 1;
        }
    }
    gn_result r = sort_faces(b, out->order, n, err);
    if (r != GN_OK) gn_bsp_vis_destroy(out);
    return r;
}

void gn_bsp_vis_destroy(gn_bsp_vis *v)
{
    if (!v) return;
    free(v->face_min);
    free(v->face_max);
    free(v->face_drawn);
    free(v->leaf_in_tree);
    free(v->face_in_tree);
    free(v->order);
    memset(v, 0, sizeof *v);
}

/* Bit 2i: face i seen in a PVS leaf; bit 2i+1: face i passed the frustum. */
static bool test_and_set(uint32_t *bits, uint32_t bit)
{
    uint32_t mask = 1u << (bit & 31u);
    bool was = bits[bit >> 5] & mask;
    bits[bit >> 5] |= mask;
    return was;
}

void gn_bsp_visible_faces(const gn_bsp_vis *v, const float camera_pos[3], const gn_frustum *f, bool use_pvs,
                          gn_bsp_vis_result *out)
{
    const gn_bsp *b = v->bsp;
    uint32_t n = v->face_count;
    memset(out->seen, 0, GN_BSP_VIS_SEEN_WORDS(n) * sizeof *out->seen);
    out->visible_count = out->faces_pvs = out->faces_frustum = 0;
    out->leaves_pvs = out->leaves_frustum = 0;
    out->leaves_total = 0;
    out->face_total = 0;
    for (uint32_t i = 0; i < n; i++) out->face_total += v->face_drawn[i];
    out->camera_leaf = gn_bsp_find_leaf(b, camera_pos);
    out->camera_cluster = out->camera_leaf >= 0 ? b->leaves[out->camera_leaf].cluster : -1;
    for (uint32_t l = 0; l < b->leaf_count; l++) {
        if (!v->leaf_in_tree[l]) continue; /* a brush model's leaf (q3map2), or none's */
        out->leaves_total++;
        const gn_bsp_leaf *leaf = &b->leaves[l];
        if (use_pvs && !gn_bsp_cluster_visible(b, out->camera_cluster, leaf->cluster)) continue;
        out->leaves_pvs++;
        bool leaf_in = !f || gn_frustum_test_aabb(f, leaf->mins, leaf->maxs);
        out->leaves_frustum += leaf_in;
        for (uint32_t k = 0; k < leaf->leafface_count; k++) {
            uint32_t face = b->leaffaces[leaf->first_leafface + k];
            if (face >= n || !v->face_drawn[face]) continue;
            if (!test_and_set(out->seen, 2 * face)) out->faces_pvs++;
            if (!leaf_in || (out->seen[(2 * face + 1) >> 5] >> ((2 * face + 1) & 31u) & 1u)) continue;
            if (f && !gn_frustum_test_aabb(f, v->face_min[face], v->face_max[face])) continue;
            test_and_set(out->seen, 2 * face + 1);
            out->faces_frustum++;
        }
    }
    /* Emitting in the precomputed order is the sort: no per-frame sorting, and deterministic. */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t face = v->order[i];
        if (out->seen[(2 * face + 1) >> 5] >> ((2 * face + 1) & 31u) & 1u)
            out->faces[out->visible_count++] = face;
    }
}

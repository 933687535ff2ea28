/* Clusters of the large meshes (meshoptimizer) and the CPU reference of their culling test;
 * see meshlets.h. */
#include "decide/meshlets.h"

#include "base/alloc.h"
#include "base/array.h"

#include <math.h>
#include <meshoptimizer.h>
#include <stdlib.h>
#include <string.h>

void gn_meshlets_free(gn_meshlets *m)
{
    free(m->meshes), free(m->clusters), free(m->indices);
    memset(m, 0, sizeof *m);
}

/* One mesh's clusters appended to *out (the arrays grown, capacities in *cc and *ic). */
static gn_result build_mesh(const gn_meshlet_mesh *mesh, uint32_t index_base, gn_meshlets *out, uint32_t *cc,
                            uint32_t *ic, gn_error *err)
{
    size_t max = meshopt_buildMeshletsBound(mesh->index_count, GN_MESHLET_VERTICES, GN_MESHLET_TRIANGLES);
    struct meshopt_Meshlet *ml = gn_malloc(max * sizeof *ml);
    unsigned *verts = gn_malloc(max * GN_MESHLET_VERTICES * sizeof *verts);
    unsigned char *tris = gn_malloc(max * GN_MESHLET_TRIANGLES * 3);
    gn_result res = GN_OK;
    if (!ml || !verts || !tris) {
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for the clusters of a mesh of %u triangles",
                      mesh->index_count / 3);
        goto done;
    }
    size_t n = meshopt_buildMeshlets(ml, verts, tris, mesh->indices, mesh->index_count, mesh->positions,
                                     mesh->vertex_count, mesh->stride, GN_MESHLET_VERTICES,
                                     GN_MESHLET_TRIANGLES, GN_MESHLET_CONE_WEIGHT);
    if (!gn_grow((void **)&out->clusters, cc, (uint64_t)out->cluster_count + n, sizeof *out->clusters,
                 GN_MESHLET_MAX_CLUSTERS) ||
        !gn_grow((void **)&out->indices, ic, (uint64_t)out->index_count + mesh->index_count,
                 sizeof *out->indices, UINT32_MAX - index_base)) {
        res =
            gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of room for %zu more clusters (%u so far, at most %u)",
                    n, out->cluster_count, GN_MESHLET_MAX_CLUSTERS);
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        const struct meshopt_Meshlet *m = &ml[k];
        struct meshopt_Bounds b = meshopt_computeMeshletBounds(
            verts + m->vertex_offset, tris + m->triangle_offset, m->triangle_count, mesh->positions,
            mesh->vertex_count, mesh->stride);
        gn_gpu_cluster *c = &out->clusters[out->cluster_count++];
        memset(c, 0, sizeof *c);
        memcpy(c->sphere, b.center, sizeof b.center);
        c->sphere[3] = b.radius;
        memcpy(c->apex, b.cone_apex, sizeof b.cone_apex);
        c->apex[3] = b.cone_cutoff;
        memcpy(c->axis, b.cone_axis, sizeof b.cone_axis);
        c->range[0] = index_base + out->index_count;
        c->range[1] = m->triangle_count * 3;
        c->range[2] = k == 0;
        for (uint32_t t = 0; t < m->triangle_count * 3; t++)
            out->indices[out->index_count++] = verts[m->vertex_offset + tris[m->triangle_offset + t]];
    }
done:
    free(ml), free(verts), free(tris);
    return res;
}

gn_result gn_meshlets_build(const gn_meshlet_mesh *meshes, const bool *cluster, uint32_t mesh_count,
                            uint32_t min_triangles, uint32_t index_base, gn_meshlets *out, gn_error *err)
{
    memset(out, 0, sizeof *out);
    out->meshes = gn_calloc(mesh_count ? mesh_count : 1, sizeof *out->meshes);
    if (!out->meshes)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u meshes' clusters", mesh_count);
    out->mesh_count = mesh_count;
    uint32_t cc = 0, ic = 0;
    for (uint32_t i = 0; i < mesh_count; i++) {
        const gn_meshlet_mesh *m = &meshes[i];
        if (!cluster[i] || m->index_count / 3 < min_triangles || m->index_count % 3) continue;
        out->meshes[i].first = out->cluster_count;
        gn_result res = build_mesh(m, index_base, out, &cc, &ic, err);
        if (res) {
            gn_meshlets_free(out);
            return res;
        }
        out->meshes[i].count = out->cluster_count - out->meshes[i].first;
    }
    return GN_OK;
}

static uint32_t clusters_of(const gn_draw_group *g, const gn_meshlets *m)
{
    if (g->pipeline != GN_DRAW_OPAQUE && g->pipeline != GN_DRAW_MASK) return 0;
    return g->mesh < m->mesh_count ? m->meshes[g->mesh].count : 0;
}

void gn_meshlets_wanted(const gn_draw_list *in, uint32_t mesh_count, bool *out)
{
    memset(out, 0, mesh_count * sizeof *out);
    for (uint32_t g = 0; g < in->group_count; g++) {
        const gn_draw_group *grp = &in->groups[g];
        if ((grp->pipeline == GN_DRAW_OPAQUE || grp->pipeline == GN_DRAW_MASK) && grp->mesh < mesh_count)
            out[grp->mesh] = true;
    }
}

bool gn_meshlets_expanded_size(const gn_draw_list *in, const gn_meshlets *m, uint32_t max_slots,
                               uint32_t *slots, uint32_t *groups)
{
    uint64_t s = 0, g = 0;
    for (uint32_t i = 0; i < in->group_count; i++) {
        uint32_t k = clusters_of(&in->groups[i], m);
        s += (uint64_t)in->groups[i].count * (k ? k : 1);
        g += k ? k : 1;
    }
    *slots = (uint32_t)(s < UINT32_MAX ? s : UINT32_MAX);
    *groups = (uint32_t)(g < UINT32_MAX ? g : UINT32_MAX);
    return s <= max_slots;
}

void gn_meshlets_expand(const gn_draw_list *in, const gn_meshlets *m, gn_draw_list *out,
                        uint32_t *slot_cluster, uint32_t *group_cluster)
{
    uint32_t slot = 0, group = 0, batch = 0;
    for (uint32_t b = 0; b < in->batch_count; b++) {
        const gn_draw_batch *ib = &in->batches[b];
        gn_draw_batch *ob = &out->batches[batch++];
        *ob = (gn_draw_batch){ib->pipeline, ib->material, group, 0};
        for (uint32_t gi = ib->first_group; gi < ib->first_group + ib->group_count; gi++) {
            const gn_draw_group *g = &in->groups[gi];
            uint32_t k = clusters_of(g, m);
            for (uint32_t c = 0; c < (k ? k : 1); c++) {
                out->groups[group] = (gn_draw_group){g->pipeline, g->material, g->mesh, slot, g->count};
                group_cluster[group++] = k ? m->meshes[g->mesh].first + c : GN_CULL_WHOLE;
                for (uint32_t i = 0; i < g->count; i++) {
                    out->instances[slot] = in->instances[g->first + i];
                    slot_cluster[slot++] = k ? m->meshes[g->mesh].first + c : GN_CULL_WHOLE;
                }
            }
        }
        ob->group_count = group - ob->first_group;
    }
    out->instance_count = slot, out->group_count = group, out->batch_count = batch;
}

/* The reference of shaders/cull_test.comp's cluster test: the same operations in the same
 * order, each rounded (the shader's are `precise`, so no fused multiply-add). */
static float dot3(const float a[3], const float b[3])
{
    float d = a[0] * b[0];
    d = d + a[1] * b[1];
    d = d + a[2] * b[2];
    return d;
}

static void axes(const float rows[3][4], float out[3][3])
{
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) out[j][i] = rows[i][j];
}

static void transform_point(const float rows[3][4], const float p[3], float out[3])
{
    for (int i = 0; i < 3; i++) {
        float d = rows[i][0] * p[0];
        d = d + rows[i][1] * p[1];
        d = d + rows[i][2] * p[2];
        out[i] = d + rows[i][3];
    }
}

void gn_cluster_world_sphere(const gn_gpu_cluster *c, const float rows[3][4], float out[4])
{
    float ax[3][3];
    axes(rows, ax);
    transform_point(rows, c->sphere, out);
    float l = fmaxf(fmaxf(dot3(ax[0], ax[0]), dot3(ax[1], ax[1])), dot3(ax[2], ax[2]));
    out[3] = c->sphere[3] * sqrtf(l);
}

bool gn_cluster_backfacing(const gn_gpu_cluster *c, const float rows[3][4], const float eye[3])
{
    float k = c->apex[3] + GN_CLUSTER_CONE_MARGIN;
    if (!(c->apex[3] > 0.0f) || !(k < 1.0f)) return false; /* no cone, or too wide to cull by */
    float ax[3][3];
    axes(rows, ax);
    float l0 = dot3(ax[0], ax[0]), tol = l0 * GN_CLUSTER_UNIFORM_TOLERANCE;
    if (fabsf(dot3(ax[1], ax[1]) - l0) > tol || fabsf(dot3(ax[2], ax[2]) - l0) > tol ||
        fabsf(dot3(ax[0], ax[1])) > tol || fabsf(dot3(ax[0], ax[2])) > tol || fabsf(dot3(ax[1], ax[2])) > tol)
        return false;
    /* a mirror turns the winding over: its back faces are the cone's other side */
    float cross[3] = {ax[0][1] * ax[1][2] - ax[0][2] * ax[1][1], ax[0][2] * ax[1][0] - ax[0][0] * ax[1][2],
                      ax[0][0] * ax[1][1] - ax[0][1] * ax[1][0]};
    if (!(dot3(cross, ax[2]) > 0.0f)) return false;
    float apex[3], v[3], n[3];
    transform_point(rows, c->apex, apex);
    for (int i = 0; i < 3; i++) v[i] = apex[i] - eye[i];
    for (int i = 0; i < 3; i++) {
        float d = rows[i][0] * c->axis[0];
        d = d + rows[i][1] * c->axis[1];
        n[i] = d + rows[i][2] * c->axis[2];
    }
    /* meshoptimizer's test, dot(normalize(apex - eye), axis) >= cutoff, with the axis scaled by
     * the transform (length sqrt(l0)) and both sides squared: no square root, no division */
    float d = dot3(v, n);
    if (!(d > 0.0f)) return false;
    float lhs = d * d, kk = k * k, vv = dot3(v, v);
    float rhs = kk * vv;
    rhs = rhs * l0;
    return lhs >= rhs;
}

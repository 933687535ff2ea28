/* Clusters and caster LODs (src/decide/meshlets.c, caster_lod.c) on a bumpy sphere of 7,680
 * triangles and a box (seams: 24 vertices):
 *   - the clusters hold every triangle of the mesh exactly once, within meshoptimizer's limits,
 *     inside their spheres, indices in the mesh's range;
 *   - the cone test never drops a cluster with a triangle that faces the eye (4,000 random eyes,
 *     rotated, scaled and mirrored transforms), and drops some for eyes behind the surface;
 *   - the world sphere holds the transformed vertices;
 *   - the order's expansion: a group a cluster, its instances repeated, blended groups whole;
 *   - a LOD keeps at most GN_LOD_MAX_SHARE of the triangles, its indices in range, its error
 *     within the simplifier's target of the extent; a box (nothing to simplify) gets none. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decide/caster_lod.h"
#include "decide/meshlets.h"

static uint32_t rng_state = 777u;
static float rnd(void) /* [0, 1) */
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 16777216.0f;
}

#define RINGS 48
#define SEGS 80
static float sphere_pos[(RINGS + 1) * (SEGS + 1)][3];
static uint32_t sphere_idx[RINGS * SEGS * 6];

static uint32_t make_sphere(void)
{
    uint32_t n = 0;
    for (int i = 0; i <= RINGS; i++)
        for (int j = 0; j <= SEGS; j++) {
            float th = 3.14159265f * i / RINGS, ph = 6.2831853f * j / SEGS;
            float r = 2.0f + 0.1f * sinf(5.0f * th) * cosf(3.0f * ph); /* bumps: cones are not trivial */
            float *p = sphere_pos[i * (SEGS + 1) + j];
            p[0] = r * sinf(th) * cosf(ph), p[1] = r * cosf(th), p[2] = r * sinf(th) * sinf(ph);
        }
    for (int i = 0; i < RINGS; i++)
        for (int j = 0; j < SEGS; j++) {
            uint32_t a = i * (SEGS + 1) + j, b = a + SEGS + 1;
            /* counter-clockwise seen from outside */
            uint32_t t[6] = {a, a + 1, b, a + 1, b + 1, b};
            memcpy(&sphere_idx[n], t, sizeof t);
            n += 6;
        }
    return n;
}

static void sub(const float a[3], const float b[3], float o[3])
{
    for (int i = 0; i < 3; i++) o[i] = a[i] - b[i];
}
static float dot(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross(const float a[3], const float b[3], float o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1], o[1] = a[2] * b[0] - a[0] * b[2], o[2] = a[0] * b[1] - a[1] * b[0];
}
static void apply(const float rows[3][4], const float p[3], float o[3])
{
    for (int i = 0; i < 3; i++) o[i] = rows[i][0] * p[0] + rows[i][1] * p[1] + rows[i][2] * p[2] + rows[i][3];
}

/* rows of a rotation about y by a, scaled by s (and mirrored in x when mirror), moved by t */
static void transform(float a, float s, bool mirror, const float t[3], float rows[3][4])
{
    float c = cosf(a), n = sinf(a), m = mirror ? -1.0f : 1.0f;
    float r[3][4] = {{c * s * m, 0, n * s, t[0]}, {0, s, 0, t[1]}, {-n * s * m, 0, c * s, t[2]}};
    memcpy(rows, r, sizeof r);
}

static void test_clusters(uint32_t n)
{
    gn_meshlet_mesh mesh = {&sphere_pos[0][0], 12, (RINGS + 1) * (SEGS + 1), sphere_idx, n};
    bool yes = true;
    gn_meshlets m;
    gn_error err = {0};
    CHECK(gn_meshlets_build(&mesh, &yes, 1, GN_MESHLET_MIN_TRIANGLES, 1000, &m, &err) == GN_OK, "%s",
          err.message);
    CHECK(m.meshes[0].count > 1 && m.index_count == n, "%u clusters, %u indices of %u", m.meshes[0].count,
          m.index_count, n);
    /* every triangle once: as sorted triples */
    uint32_t tris = n / 3, seen = 0;
    uint8_t *hit = calloc(tris, 1);
    for (uint32_t c = 0; c < m.cluster_count; c++) {
        const gn_gpu_cluster *k = &m.clusters[c];
        CHECK(k->range[1] <= GN_MESHLET_TRIANGLES * 3 && k->range[1] % 3 == 0, "cluster %u: %u indices", c,
              k->range[1]);
        CHECK(k->range[2] == (c == 0), "cluster %u: first flag %u", c, k->range[2]);
        const uint32_t *idx = m.indices + (k->range[0] - 1000);
        for (uint32_t i = 0; i < k->range[1]; i++) {
            float d[3];
            CHECK(idx[i] < mesh.vertex_count, "index %u out of range", idx[i]);
            sub(sphere_pos[idx[i]], k->sphere, d);
            CHECK(sqrtf(dot(d, d)) <= k->sphere[3] * 1.0001f + 1e-5f,
                  "cluster %u: a vertex outside its sphere", c);
        }
        for (uint32_t t = 0; t < k->range[1] / 3; t++) {
            /* the original triangle: the sphere's quads are a regular grid, so find it by search */
            for (uint32_t o = 0; o < tris; o++) {
                const uint32_t *q = sphere_idx + o * 3, *p = idx + t * 3;
                bool same = false;
                for (int rot = 0; rot < 3 && !same; rot++)
                    same = q[0] == p[rot] && q[1] == p[(rot + 1) % 3] && q[2] == p[(rot + 2) % 3];
                if (!same) continue;
                seen += !hit[o];
                hit[o] = 1;
                break;
            }
        }
    }
    CHECK(seen == tris, "%u of %u triangles found in the clusters (winding kept)", seen, tris);
    free(hit);

    /* the cone: never drops a cluster with a front-facing triangle */
    uint32_t dropped = 0, wrong = 0;
    for (int e = 0; e < 4000; e++) {
        float t[3] = {rnd() * 4 - 2, rnd() * 4 - 2, rnd() * 4 - 2}, rows[3][4];
        float s = e % 3 == 0 ? 1.0f : 0.5f + 2.0f * rnd();
        transform(rnd() * 6.28f, s, e % 7 == 0, t, rows);
        float dir[3] = {rnd() - 0.5f, rnd() - 0.5f, rnd() - 0.5f}, len = sqrtf(dot(dir, dir));
        float dist = (e % 2 ? 2.5f : 8.0f) * s, eye[3];
        for (int i = 0; i < 3; i++) eye[i] = t[i] + dir[i] / len * dist;
        for (uint32_t c = 0; c < m.cluster_count; c++) {
            const gn_gpu_cluster *k = &m.clusters[c];
            float ws[4];
            gn_cluster_world_sphere(k, rows, ws);
            if (!gn_cluster_backfacing(k, rows, eye)) continue;
            dropped++;
            const uint32_t *idx = m.indices + (k->range[0] - 1000);
            for (uint32_t i = 0; i < k->range[1]; i += 3) {
                float a[3], b[3], cc[3], u[3], v[3], nrm[3], to[3];
                apply(rows, sphere_pos[idx[i]], a), apply(rows, sphere_pos[idx[i + 1]], b);
                apply(rows, sphere_pos[idx[i + 2]], cc);
                sub(b, a, u), sub(cc, a, v), cross(u, v, nrm), sub(eye, a, to);
                /* a mirror would turn the winding: the test must not cull those */
                wrong += dot(nrm, to) > 0.0f;
            }
        }
    }
    CHECK(wrong == 0 && dropped > 0, "the cone dropped %u clusters, %u front-facing triangles among them",
          dropped, wrong);
    /* the world sphere holds the transformed cluster */
    float rows[3][4], t[3] = {5, -3, 2};
    transform(1.0f, 1.7f, false, t, rows);
    rows[1][1] *= 0.5f; /* not uniform: the radius takes the longest axis */
    uint32_t outside = 0;
    for (uint32_t c = 0; c < m.cluster_count; c++) {
        float ws[4];
        gn_cluster_world_sphere(&m.clusters[c], rows, ws);
        const uint32_t *idx = m.indices + (m.clusters[c].range[0] - 1000);
        for (uint32_t i = 0; i < m.clusters[c].range[1]; i++) {
            float p[3], d[3];
            apply(rows, sphere_pos[idx[i]], p), sub(p, ws, d);
            outside += sqrtf(dot(d, d)) > ws[3] * 1.0001f + 1e-4f;
        }
    }
    CHECK(outside == 0, "%u vertices outside their world spheres", outside);

    /* the order: two groups of the sphere (opaque, blended) and one of a mesh left whole */
    uint32_t inst[6] = {10, 11, 12, 20, 21, 30};
    gn_draw_group groups[3] = {
        {GN_DRAW_OPAQUE, 0, 0, 0, 3}, {GN_DRAW_MASK, 1, 1, 3, 2}, {GN_DRAW_BLEND, 2, 0, 5, 1}};
    gn_draw_batch batches[3] = {{GN_DRAW_OPAQUE, 0, 0, 1}, {GN_DRAW_MASK, 1, 1, 1}, {GN_DRAW_BLEND, 2, 2, 1}};
    gn_draw_list in = {inst, 6, groups, 3, batches, 3, NULL};
    gn_meshlets two = m;
    gn_mesh_clusters mc[2] = {m.meshes[0], {0, 0}};
    two.meshes = mc, two.mesh_count = 2;
    uint32_t slots, ng, k = m.meshes[0].count;
    CHECK(gn_meshlets_expanded_size(&in, &two, 1u << 24, &slots, &ng) && slots == 3 * k + 3 && ng == k + 2,
          "expanded: %u slots, %u groups (want %u, %u)", slots, ng, 3 * k + 3, k + 2);
    gn_draw_list out = {malloc(slots * 4),
                        0,
                        malloc(ng * sizeof(gn_draw_group)),
                        0,
                        malloc(3 * sizeof(gn_draw_batch)),
                        0,
                        NULL};
    uint32_t *sc = malloc(slots * 4), *gc = malloc(ng * 4);
    gn_meshlets_expand(&in, &two, &out, sc, gc);
    CHECK(out.instance_count == slots && out.group_count == ng && out.batch_count == 3, "expanded counts");
    CHECK(out.batches[0].group_count == k && out.batches[1].first_group == k &&
              out.batches[2].first_group == k + 1,
          "batches remapped");
    bool order_ok = true;
    for (uint32_t c = 0; c < k; c++)
        for (uint32_t i = 0; i < 3; i++)
            order_ok =
                order_ok && out.instances[c * 3 + i] == inst[i] && sc[c * 3 + i] == m.meshes[0].first + c;
    CHECK(order_ok && sc[3 * k] == GN_CULL_WHOLE && sc[3 * k + 2] == GN_CULL_WHOLE &&
              out.instances[3 * k + 2] == 30 && gc[k + 1] == GN_CULL_WHOLE,
          "the expanded order");
    free(out.instances), free(out.groups), free(out.batches), free(sc), free(gc);
    gn_meshlets_free(&m);
}

static void test_lods(uint32_t n)
{
    /* the sphere, and a box of 24 vertices (a face each: seams) that nothing can simplify */
    static const float box[24][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1},
                                     {1, 1, 1}, {0, 1, 1}, {0, 0, 0}, {0, 1, 0}, {0, 1, 1}, {0, 0, 1},
                                     {1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 0, 1}, {0, 0, 0}, {1, 0, 0},
                                     {1, 0, 1}, {0, 0, 1}, {0, 1, 0}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}};
    uint32_t box_idx[36];
    for (int f = 0; f < 6; f++) {
        uint32_t b = f * 4, t[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
        memcpy(box_idx + f * 6, t, sizeof t);
    }
    gn_meshlet_mesh meshes[2] = {{&sphere_pos[0][0], 12, (RINGS + 1) * (SEGS + 1), sphere_idx, n},
                                 {&box[0][0], 12, 24, box_idx, 36}};
    bool want[2] = {true, true};
    gn_caster_lods l;
    gn_error err = {0};
    CHECK(gn_caster_lods_build(meshes, want, 2, 8, 500, &l, &err) == GN_OK, "%s", err.message);
    const gn_caster_lod *s = &l.meshes[0];
    CHECK(s->index_count > 0 && s->index_count <= n * GN_LOD_MAX_SHARE && s->index_count % 3 == 0,
          "the sphere's LOD: %u of %u indices", s->index_count, n);
    CHECK(s->first_index == 500 && s->error >= 0.0f && s->error <= GN_LOD_TARGET_ERROR * 4.5f,
          "the sphere's LOD at %u, error %g m (extent about 4.2 m)", s->first_index, s->error);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < s->index_count; i++) bad += l.indices[i] >= meshes[0].vertex_count;
    CHECK(bad == 0, "%u LOD indices out of range", bad);
    CHECK(l.meshes[1].index_count == 0, "the box got a LOD of %u indices", l.meshes[1].index_count);
    CHECK(gn_caster_lod_fits(0.01f, 0.02f) && !gn_caster_lod_fits(0.03f, 0.02f), "fits");
    printf("sphere: %u triangles, LOD %u (error %.4f m)\n", n / 3, s->index_count / 3, s->error);
    gn_caster_lods_free(&l);
}

int main(void)
{
    uint32_t n = make_sphere();
    test_clusters(n);
    test_lods(n);
    return gn_check_exit();
}

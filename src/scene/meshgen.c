/* Procedural primitives: builder mechanics, then shapes from simple to composite. */
#include "scene/meshgen.h"
#include "base/alloc.h"
#include "base/gmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the builder --------------------------------------------------------------------- */
void gn_mg_init(gn_mg *b)
{
    memset(b, 0, sizeof *b);
    gn_mg_set_matrix(b, NULL);
}

void gn_mg_free(gn_mg *b)
{
    free(b->v);
    free(b->idx);
    memset(b, 0, sizeof *b);
}

void gn_mg_reset(gn_mg *b)
{
    b->vcount = b->icount = 0;
    b->oom = false;
    gn_mg_set_matrix(b, NULL);
}

void gn_mg_set_matrix(gn_mg *b, const float m[16])
{
    static const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(b->xf, m ? m : id, sizeof b->xf);
    const float *a = b->xf;
    /* Inverse transpose of the 3x3 part via cofactors; its scale does not matter since
     * normals are renormalised. The determinant's sign says whether the placement mirrors. */
    float c0[3] = {a[0], a[1], a[2]}, c1[3] = {a[4], a[5], a[6]}, c2[3] = {a[8], a[9], a[10]};
    float r0[3], r1[3], r2[3];
    gn_vec3_cross(r0, c1, c2);
    gn_vec3_cross(r1, c2, c0);
    gn_vec3_cross(r2, c0, c1);
    float det = gn_vec3_dot(c0, r0);
    memcpy(&b->nxf[0], r0, sizeof r0);
    memcpy(&b->nxf[3], r1, sizeof r1);
    memcpy(&b->nxf[6], r2, sizeof r2);
    if (det < 0)
        for (int k = 0; k < 9; k++) b->nxf[k] = -b->nxf[k];
    b->flip = det < 0;
}

void gn_mg_place(gn_mg *b, float x, float y, float z, float yaw)
{
    float c = cosf(yaw), s = sinf(yaw);
    float m[16] = {c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, x, y, z, 1};
    gn_mg_set_matrix(b, m);
}

static bool gn_mg_reserve(gn_mg *b, uint32_t nv, uint32_t ni)
{
    if (b->oom) return false;
    if (b->vcount + nv > b->vcap) {
        uint32_t cap = b->vcap ? b->vcap : 256;
        while (cap < b->vcount + nv) cap *= 2;
        void *p = gn_realloc(b->v, (size_t)cap * sizeof *b->v);
        if (!p) return !(b->oom = true);
        b->v = p, b->vcap = cap;
    }
    if (b->icount + ni > b->icap) {
        uint32_t cap = b->icap ? b->icap : 512;
        while (cap < b->icount + ni) cap *= 2;
        void *p = gn_realloc(b->idx, (size_t)cap * sizeof *b->idx);
        if (!p) return !(b->oom = true);
        b->idx = p, b->icap = cap;
    }
    return true;
}

uint32_t gn_mg_vertex(gn_mg *b, const float p[3], const float n[3], const float uv[2])
{
    if (!gn_mg_reserve(b, 1, 0)) return 0;
    gn_vertex *v = &b->v[b->vcount];
    *v = (gn_vertex){0}; /* every field, the unused lightmap uv too: scenes are hashed and compared */
    const float *m = b->xf, *q = b->nxf;
    gn_mat4_point(m, p, v->pos);
    for (int k = 0; k < 3; k++) v->normal[k] = q[k] * n[0] + q[3 + k] * n[1] + q[6 + k] * n[2];
    gn_vec3_normalize(v->normal);
    v->uv[0] = uv ? uv[0] : 0.0f, v->uv[1] = uv ? uv[1] : 0.0f;
    return b->vcount++;
}

void gn_mg_tri(gn_mg *b, uint32_t i0, uint32_t i1, uint32_t i2)
{
    if (!gn_mg_reserve(b, 0, 3)) return;
    uint32_t *o = &b->idx[b->icount];
    o[0] = i0, o[1] = b->flip ? i2 : i1, o[2] = b->flip ? i1 : i2;
    b->icount += 3;
}

/* Newell's normal: robust for any planar polygon, and its sign follows the winding. */
static void gn_poly_normal(float n[3], const float (*p)[3], int count)
{
    gn_vec3_set(n, 0, 0, 0);
    for (int i = 0; i < count; i++) {
        const float *a = p[i], *c = p[(i + 1) % count];
        n[0] += (a[1] - c[1]) * (a[2] + c[2]);
        n[1] += (a[2] - c[2]) * (a[0] + c[0]);
        n[2] += (a[0] - c[0]) * (a[1] + c[1]);
    }
    gn_vec3_normalize(n);
}

void gn_mg_poly(gn_mg *b, const float (*p)[3], int n, const float *right, const float *up)
{
    float nrm[3], r[3], u[3];
    gn_poly_normal(nrm, p, n);
    if (right)
        memcpy(r, right, sizeof r);
    else {
        gn_vec3_set(r, p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]);
        gn_vec3_normalize(r);
    }
    if (up)
        memcpy(u, up, sizeof u);
    else
        gn_vec3_cross(u, nrm, r);
    if (!gn_mg_reserve(b, (uint32_t)n, (uint32_t)(n - 2) * 3)) return;
    uint32_t first = b->vcount;
    for (int i = 0; i < n; i++) {
        /* Positions, not lengths, so neighbouring faces continue the same texture. */
        float uv[2] = {gn_vec3_dot(p[i], r), -gn_vec3_dot(p[i], u)};
        gn_mg_vertex(b, p[i], nrm, uv);
    }
    /* A fan from corner 0, except for a quad that is concave at corner 1 or 3 (an arch's
     * flank can be, slightly): then the other diagonal keeps both triangles facing out. */
    uint32_t start = 0;
    if (n == 4) {
        float e1[3], e2[3], c[3];
        gn_vec3_set(e1, p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]);
        gn_vec3_set(e2, p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]);
        gn_vec3_cross(c, e1, e2);
        float d1 = gn_vec3_dot(c, nrm);
        gn_vec3_set(e1, p[3][0] - p[0][0], p[3][1] - p[0][1], p[3][2] - p[0][2]);
        gn_vec3_cross(c, e2, e1);
        if (d1 <= 0 || gn_vec3_dot(c, nrm) <= 0) start = 1;
    }
    for (int i = 1; i + 1 < n; i++)
        gn_mg_tri(b, first + start, first + (start + (uint32_t)i) % (uint32_t)n,
                  first + (start + (uint32_t)i + 1) % (uint32_t)n);
}

void gn_mg_quad(gn_mg *b, const float p0[3], const float p1[3], const float p2[3], const float p3[3])
{
    float p[4][3];
    memcpy(p[0], p0, 12), memcpy(p[1], p1, 12), memcpy(p[2], p2, 12), memcpy(p[3], p3, 12);
    gn_mg_poly(b, (const float(*)[3])p, 4, NULL, NULL);
}

/* A quad wound so that it faces `out`, for shapes where the order is easier to get from
 * geometry than by hand. */
static void gn_mg_quad_facing(gn_mg *b, const float p0[3], const float p1[3], const float p2[3],
                              const float p3[3], const float out[3])
{
    float p[4][3], n[3];
    memcpy(p[0], p0, 12), memcpy(p[1], p1, 12), memcpy(p[2], p2, 12), memcpy(p[3], p3, 12);
    gn_poly_normal(n, (const float(*)[3])p, 4);
    if (gn_vec3_dot(n, out) < 0)
        gn_mg_quad(b, p3, p2, p1, p0);
    else
        gn_mg_quad(b, p0, p1, p2, p3);
}

/* Smooth normals over the vertices emitted since `v0` by the triangles since `i0`. */
static void gn_mg_smooth_normals(gn_mg *b, uint32_t v0, uint32_t i0)
{
    if (b->oom) return;
    for (uint32_t i = v0; i < b->vcount; i++) memset(b->v[i].normal, 0, sizeof b->v[i].normal);
    for (uint32_t t = i0; t + 2 < b->icount; t += 3) {
        gn_vertex *a = &b->v[b->idx[t]], *c = &b->v[b->idx[t + 1]], *d = &b->v[b->idx[t + 2]];
        float e1[3], e2[3], n[3];
        gn_vec3_set(e1, c->pos[0] - a->pos[0], c->pos[1] - a->pos[1], c->pos[2] - a->pos[2]);
        gn_vec3_set(e2, d->pos[0] - a->pos[0], d->pos[1] - a->pos[1], d->pos[2] - a->pos[2]);
        gn_vec3_cross(n, e1, e2);
        for (int k = 0; k < 3; k++) a->normal[k] += n[k], c->normal[k] += n[k], d->normal[k] += n[k];
    }
    for (uint32_t i = v0; i < b->vcount; i++) {
        float *n = b->v[i].normal;
        if (gn_vec3_dot(n, n) < 1e-30f) gn_vec3_set(n, 0, 1, 0);
        gn_vec3_normalize(n);
    }
}

gn_result gn_mg_commit(gn_mg *b, gn_scene *s, const char *label, uint32_t *out_id, gn_error *err)
{
    if (b->oom) {
        gn_mg_reset(b);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "mesh '%s': out of memory while generating", label);
    }
    gn_result r = gn_mesh_compute_tangents(b->v, b->vcount, b->idx, b->icount)
                      ? gn_scene_add_vertices(s, b->v, b->vcount, b->idx, b->icount, out_id, err)
                      : gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for tangents");
    if (r != GN_OK && err) {
        char msg[sizeof err->message];
        memcpy(msg, err->message, sizeof msg);
        gn_fail(err, r, "mesh '%s': %s", label, msg);
    }
    gn_mg_reset(b);
    return r;
}

/* ---- basic shapes ---------------------------------------------------------------------- */
void gn_mg_box(gn_mg *b, const float lo[3], const float hi[3])
{
    float x0 = lo[0], y0 = lo[1], z0 = lo[2], x1 = hi[0], y1 = hi[1], z1 = hi[2];
    /* Corners bottom-left, bottom-right, top-right, top-left as seen from outside. */
    const float f[6][4][3] = {
        {{x1, y0, z1}, {x1, y0, z0}, {x1, y1, z0}, {x1, y1, z1}}, /* +X */
        {{x0, y0, z0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, z0}}, /* -X */
        {{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}}, /* +Z */
        {{x1, y0, z0}, {x0, y0, z0}, {x0, y1, z0}, {x1, y1, z0}}, /* -Z */
        {{x0, y1, z1}, {x1, y1, z1}, {x1, y1, z0}, {x0, y1, z0}}, /* +Y */
        {{x0, y0, z0}, {x1, y0, z0}, {x1, y0, z1}, {x0, y0, z1}}, /* -Y */
    };
    for (int i = 0; i < 6; i++) gn_mg_poly(b, f[i], 4, NULL, NULL);
}

void gn_mg_frustum(gn_mg *b, const float base[3], float r0, float r1, float h, int segs, bool caps)
{
    if (segs < 3) segs = 3;
    uint32_t first = b->vcount;
    float slope = r0 - r1, ravg = 0.5f * (r0 + r1);
    for (int i = 0; i <= segs; i++) {
        float a = 2.0f * GN_PI * (float)i / (float)segs, c = cosf(a), s = sinf(a);
        /* Angles grow towards +Z, i.e. leftwards seen from outside, hence u = -angle. */
        float n[3] = {h * c, slope, h * s}, pb[3], pt[3];
        gn_vec3_normalize(n);
        gn_vec3_set(pb, base[0] + r0 * c, base[1], base[2] + r0 * s);
        gn_vec3_set(pt, base[0] + r1 * c, base[1] + h, base[2] + r1 * s);
        float ub[2] = {-a * ravg, -base[1]}, ut[2] = {-a * ravg, -(base[1] + h)};
        gn_mg_vertex(b, pb, n, ub);
        gn_mg_vertex(b, pt, n, ut);
    }
    for (uint32_t i = 0; i < (uint32_t)segs; i++) {
        uint32_t b0 = first + 2 * i, t0 = b0 + 1, b1 = b0 + 2, t1 = b0 + 3;
        gn_mg_tri(b, b1, b0, t0);
        if (r1 > 0) gn_mg_tri(b, b1, t0, t1);
    }
    if (!caps) return;
    float ring[64][3];
    if (segs > 64) segs = 64;
    if (r1 > 0) { /* top cap: counter-clockwise from above means decreasing angle */
        for (int i = 0; i < segs; i++) {
            float a = -2.0f * GN_PI * (float)i / (float)segs;
            gn_vec3_set(ring[i], base[0] + r1 * cosf(a), base[1] + h, base[2] + r1 * sinf(a));
        }
        gn_mg_poly(b, (const float(*)[3])ring, segs, NULL, NULL);
    }
    if (r0 > 0) {
        for (int i = 0; i < segs; i++) {
            float a = 2.0f * GN_PI * (float)i / (float)segs;
            gn_vec3_set(ring[i], base[0] + r0 * cosf(a), base[1], base[2] + r0 * sinf(a));
        }
        gn_mg_poly(b, (const float(*)[3])ring, segs, NULL, NULL);
    }
}

/* Icosphere directions: an icosahedron with each triangle split into 4, `subdiv` times. */
typedef struct gn_ico {
    float (*dir)[3];
    uint32_t (*tri)[3];
    uint32_t nd, nt;
} gn_ico;

static uint32_t gn_ico_vertex(gn_ico *m, const float p[3])
{
    float q[3] = {p[0], p[1], p[2]};
    gn_vec3_normalize(q);
    /* Linear search is fine: a few hundred vertices, once per mesh variant. */
    for (uint32_t i = 0; i < m->nd; i++)
        if (fabsf(m->dir[i][0] - q[0]) < 1e-5f && fabsf(m->dir[i][1] - q[1]) < 1e-5f &&
            fabsf(m->dir[i][2] - q[2]) < 1e-5f)
            return i;
    memcpy(m->dir[m->nd], q, sizeof q);
    return m->nd++;
}

static bool gn_ico_build(gn_ico *m, int subdiv)
{
    const float t = 1.6180340f;
    const float base[12][3] = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                               {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
    const uint32_t faces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                   {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                   {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                   {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    uint32_t nt = 20u << (2 * subdiv), nd = 10u * (1u << (2 * subdiv)) + 2;
    m->dir = gn_malloc(nd * sizeof *m->dir);
    m->tri = gn_malloc(nt * sizeof *m->tri);
    uint32_t(*tmp)[3] = gn_malloc(nt * sizeof *tmp);
    if (!m->dir || !m->tri || !tmp) {
        free(m->dir), free(m->tri), free(tmp);
        return false;
    }
    m->nd = 0, m->nt = 20;
    for (int i = 0; i < 12; i++) gn_ico_vertex(m, base[i]);
    memcpy(m->tri, faces, sizeof faces);
    for (int s = 0; s < subdiv; s++) {
        uint32_t n = 0;
        for (uint32_t f = 0; f < m->nt; f++) {
            uint32_t a = m->tri[f][0], c = m->tri[f][1], d = m->tri[f][2], mid[3];
            const uint32_t e[3][2] = {{a, c}, {c, d}, {d, a}};
            for (int k = 0; k < 3; k++) {
                float p[3];
                for (int j = 0; j < 3; j++) p[j] = m->dir[e[k][0]][j] + m->dir[e[k][1]][j];
                mid[k] = gn_ico_vertex(m, p);
            }
            const uint32_t out[4][3] = {
                {a, mid[0], mid[2]}, {mid[0], c, mid[1]}, {mid[2], mid[1], d}, {mid[0], mid[1], mid[2]}};
            memcpy(tmp[n], out, sizeof out);
            n += 4;
        }
        memcpy(m->tri, tmp, n * sizeof *tmp);
        m->nt = n;
    }
    free(tmp);
    return true;
}

void gn_mg_blob(gn_mg *b, const float c[3], const float radii[3], int subdiv, float lumpiness, uint32_t seed)
{
    gn_ico m;
    if (subdiv < 0) subdiv = 0;
    if (subdiv > 4) subdiv = 4;
    if (!gn_ico_build(&m, subdiv)) {
        b->oom = true;
        return;
    }
    /* Three random plane waves over the direction: smooth, so the lumps read as clumps of
     * leaves rather than noise, and seam-free because they are functions of direction. */
    gn_rng rng = gn_rng_seed(seed);
    float wave[3][4];
    for (int k = 0; k < 3; k++) {
        float d[3] = {gn_rng_range(&rng, -1, 1), gn_rng_range(&rng, -1, 1), gn_rng_range(&rng, -1, 1)};
        gn_vec3_normalize(d);
        float f = gn_rng_range(&rng, 2.5f, 5.0f);
        gn_vec3_set(wave[k], d[0] * f, d[1] * f, d[2] * f);
        wave[k][3] = gn_rng_range(&rng, 0, 2 * GN_PI);
    }
    uint32_t v0 = b->vcount, i0 = b->icount;
    for (uint32_t i = 0; i < m.nd; i++) {
        const float *d = m.dir[i];
        float lump = 0;
        for (int k = 0; k < 3; k++) lump += sinf(gn_vec3_dot(wave[k], d) + wave[k][3]);
        float r = 1.0f + lumpiness * lump / 3.0f, p[3];
        for (int k = 0; k < 3; k++) p[k] = c[k] + d[k] * radii[k] * r;
        gn_mg_vertex(b, p, d, NULL);
    }
    for (uint32_t f = 0; f < m.nt; f++) gn_mg_tri(b, v0 + m.tri[f][0], v0 + m.tri[f][1], v0 + m.tri[f][2]);
    /* The icosahedron table is wound outward; recompute normals from the lumpy surface. */
    gn_mg_smooth_normals(b, v0, i0);
    free(m.dir);
    free(m.tri);
}

void gn_mg_heightfield(gn_mg *b, float x0, float z0, float step, int nx, int nz, gn_height_fn h,
                       const void *user, float lift)
{
    if (!gn_mg_reserve(b, (uint32_t)((nx + 1) * (nz + 1)), (uint32_t)(nx * nz * 6))) return;
    uint32_t first = b->vcount;
    for (int j = 0; j <= nz; j++)
        for (int i = 0; i <= nx; i++) {
            float x = x0 + step * (float)i, z = z0 + step * (float)j;
            /* Central differences of the height function itself, so tiles share normals
             * along their borders and show no seams. */
            float dx = (h(user, x + step, z) - h(user, x - step, z)) / (2 * step);
            float dz = (h(user, x, z + step) - h(user, x, z - step)) / (2 * step);
            float p[3] = {x, h(user, x, z) + lift, z}, n[3] = {-dx, 1, -dz}, uv[2] = {x, z};
            gn_vec3_normalize(n);
            gn_mg_vertex(b, p, n, uv);
        }
    uint32_t row = (uint32_t)nx + 1;
    for (int j = 0; j < nz; j++)
        for (int i = 0; i < nx; i++) {
            uint32_t a = first + (uint32_t)j * row + (uint32_t)i, d = a + 1, bb = a + row, c = bb + 1;
            gn_mg_tri(b, a, bb, c);
            gn_mg_tri(b, a, c, d);
        }
}

/* ---- houses ---------------------------------------------------------------------------- */
void gn_mg_house_body(gn_mg *b, float w, float d, float h, float sink, float gable_rise)
{
    float x = 0.5f * w, z = 0.5f * d, y0 = -sink;
    const float f[5][4][3] = {
        {{x, y0, z}, {x, y0, -z}, {x, h, -z}, {x, h, z}},
        {{-x, y0, -z}, {-x, y0, z}, {-x, h, z}, {-x, h, -z}},
        {{-x, y0, z}, {x, y0, z}, {x, h, z}, {-x, h, z}},
        {{x, y0, -z}, {-x, y0, -z}, {-x, h, -z}, {x, h, -z}},
        {{-x, h, z}, {x, h, z}, {x, h, -z}, {-x, h, -z}}, /* top: closes the box for shadow maps */
    };
    for (int i = 0; i < 5; i++) gn_mg_poly(b, f[i], 4, NULL, NULL);
    if (gable_rise <= 0) return;
    const float up[3] = {0, 1, 0}, rx[3] = {0, 0, -1}, lx[3] = {0, 0, 1};
    const float ge[3][3] = {{x, h, z}, {x, h, -z}, {x, h + gable_rise, 0}};
    const float gw[3][3] = {{-x, h, -z}, {-x, h, z}, {-x, h + gable_rise, 0}};
    gn_mg_poly(b, ge, 3, rx, up);
    gn_mg_poly(b, gw, 3, lx, up);
}

void gn_mg_roof_gable(gn_mg *b, float w, float d, float rise, float overhang, float thick)
{
    float X = 0.5f * w + overhang, Z = 0.5f * d + overhang, r = rise, t = thick;
    float ye = -rise / (0.5f * d) * overhang; /* the underside plane continued past the wall */
    const float q[][4][3] = {
        /* top slopes, then undersides, then the eave fascias */
        {{-X, ye + t, Z}, {X, ye + t, Z}, {X, r + t, 0}, {-X, r + t, 0}},
        {{X, ye + t, -Z}, {-X, ye + t, -Z}, {-X, r + t, 0}, {X, r + t, 0}},
        {{-X, r, 0}, {X, r, 0}, {X, ye, Z}, {-X, ye, Z}},
        {{X, r, 0}, {-X, r, 0}, {-X, ye, -Z}, {X, ye, -Z}},
        {{-X, ye, Z}, {X, ye, Z}, {X, ye + t, Z}, {-X, ye + t, Z}},
        {{X, ye, -Z}, {-X, ye, -Z}, {-X, ye + t, -Z}, {X, ye + t, -Z}},
        /* the chevron-shaped ends, each as two quads */
        {{X, ye, Z}, {X, r, 0}, {X, r + t, 0}, {X, ye + t, Z}},
        {{X, r, 0}, {X, ye, -Z}, {X, ye + t, -Z}, {X, r + t, 0}},
        {{-X, ye + t, Z}, {-X, r + t, 0}, {-X, r, 0}, {-X, ye, Z}},
        {{-X, r + t, 0}, {-X, ye + t, -Z}, {-X, ye, -Z}, {-X, r, 0}},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) gn_mg_poly(b, q[i], 4, NULL, NULL);
}

void gn_mg_roof_hip(gn_mg *b, float w, float d, float rise, float overhang, float thick)
{
    if (w < d) w = d; /* callers turn the house so the ridge runs along the long side */
    float X = 0.5f * w + overhang, Z = 0.5f * d + overhang, r = rise, t = thick;
    float ye = -rise / (0.5f * d) * overhang, xr = X - Z;
    const float q[][4][3] = {
        {{-X, ye + t, Z}, {X, ye + t, Z}, {xr, r + t, 0}, {-xr, r + t, 0}},
        {{X, ye + t, -Z}, {-X, ye + t, -Z}, {-xr, r + t, 0}, {xr, r + t, 0}},
        {{-X, ye, -Z}, {X, ye, -Z}, {X, ye, Z}, {-X, ye, Z}},
        {{-X, ye, Z}, {X, ye, Z}, {X, ye + t, Z}, {-X, ye + t, Z}},
        {{X, ye, -Z}, {-X, ye, -Z}, {-X, ye + t, -Z}, {X, ye + t, -Z}},
        {{X, ye, Z}, {X, ye, -Z}, {X, ye + t, -Z}, {X, ye + t, Z}},
        {{-X, ye, -Z}, {-X, ye, Z}, {-X, ye + t, Z}, {-X, ye + t, -Z}},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        /* A square house has a point, not a ridge: drop the trapezoids' repeated corner. */
        int n = (i < 2 && xr < 1e-3f) ? 3 : 4;
        gn_mg_poly(b, q[i], n, NULL, NULL);
    }
    const float te[3][3] = {{X, ye + t, Z}, {X, ye + t, -Z}, {xr, r + t, 0}};
    const float tw[3][3] = {{-X, ye + t, -Z}, {-X, ye + t, Z}, {-xr, r + t, 0}};
    gn_mg_poly(b, te, 3, NULL, NULL);
    gn_mg_poly(b, tw, 3, NULL, NULL);
}

/* ---- props ----------------------------------------------------------------------------- */
void gn_mg_tree(gn_mg *trunk, gn_mg *crown, gn_tree_kind kind, uint32_t seed)
{
    gn_rng rng = gn_rng_seed(seed * 2654435761u + (uint32_t)kind);
    const float base[3] = {0, -1.0f, 0};
    if (kind == GN_TREE_CONIFER) {
        float h = gn_rng_range(&rng, 3.0f, 4.5f);
        gn_mg_frustum(trunk, base, 0.28f, 0.12f, h + 1.0f, 7, false);
        /* A fixed tier count keeps every variant's triangle count alike, so the town's
         * size does not swing with the seed. */
        const int tiers = 4;
        float y = gn_rng_range(&rng, 1.4f, 2.2f), r = gn_rng_range(&rng, 2.2f, 2.9f);
        for (int i = 0; i < tiers; i++) {
            float ch = gn_rng_range(&rng, 2.8f, 3.6f), c[3] = {0, y, 0};
            gn_mg_frustum(crown, c, r, 0.0f, ch, 12, true);
            y += ch * 0.5f;
            r *= gn_rng_range(&rng, 0.68f, 0.78f);
        }
    } else if (kind == GN_TREE_ROUND) {
        float h = gn_rng_range(&rng, 2.6f, 3.6f);
        gn_mg_frustum(trunk, base, 0.32f, 0.18f, h + 2.0f, 7, false);
        float rad = gn_rng_range(&rng, 2.6f, 3.4f);
        float c[3] = {0, h + rad * 0.75f, 0}, rr[3] = {rad, rad * gn_rng_range(&rng, 0.8f, 0.95f), rad};
        gn_mg_blob(crown, c, rr, 2, 0.22f, gn_rng_u32(&rng));
    } else {
        float h = gn_rng_range(&rng, 1.5f, 2.2f);
        gn_mg_frustum(trunk, base, 0.22f, 0.1f, h + 4.0f, 6, false);
        float rad = gn_rng_range(&rng, 1.1f, 1.5f), tall = gn_rng_range(&rng, 4.0f, 5.5f);
        float c[3] = {0, h + tall, 0}, rr[3] = {rad, tall, rad};
        gn_mg_blob(crown, c, rr, 2, 0.12f, gn_rng_u32(&rng));
    }
}

void gn_mg_lamp_post(gn_mg *pole, gn_mg *head, float height)
{
    const float base[3] = {0, -0.4f, 0}, shaft[3] = {0, 0.3f, 0};
    gn_mg_frustum(pole, base, 0.2f, 0.14f, 0.7f, 8, true); /* plinth */
    gn_mg_frustum(pole, shaft, 0.08f, 0.05f, height - 0.3f, 8, false);
    const float arm_lo[3] = {-0.05f, height - 0.12f, -0.035f}, arm_hi[3] = {1.0f, height - 0.04f, 0.035f};
    gn_mg_box(pole, arm_lo, arm_hi);
    const float hood[3] = {0.95f, height - 0.2f, 0};
    gn_mg_frustum(pole, hood, 0.24f, 0.05f, 0.18f, 8, true);
    const float lamp[3] = {0.95f, height - 0.55f, 0};
    gn_mg_frustum(head, lamp, 0.1f, 0.2f, 0.35f, 8, true);
}

void gn_mg_fence(gn_mg *b, float length, float height, int posts)
{
    if (posts < 2) posts = 2;
    for (int i = 0; i < posts; i++) {
        float x = length * (float)i / (float)(posts - 1);
        const float lo[3] = {x - 0.05f, -0.4f, -0.05f}, hi[3] = {x + 0.05f, height, 0.05f};
        gn_mg_box(b, lo, hi);
    }
    for (int k = 0; k < 2; k++) {
        float y = height * (k ? 0.8f : 0.35f);
        const float lo[3] = {0, y - 0.04f, 0.05f}, hi[3] = {length, y + 0.04f, 0.09f};
        gn_mg_box(b, lo, hi);
    }
}

void gn_mg_arcade(gn_mg *b, float length, float depth, float height, int bays)
{
    if (bays < 1) bays = 1;
    const float cw = 0.5f, slab = 0.35f; /* column width, top slab thickness */
    float bw = (length - (float)(bays + 1) * cw) / (float)bays, r = 0.5f * bw;
    float yb = height - slab, ys = yb - r - 0.35f; /* arch top 0.35 m under the slab */
    const float out_front[3] = {0, 0, -1}, out_back[3] = {0, 0, 1};
    for (int i = 0; i <= bays; i++) {
        float x = (float)i * (cw + bw);
        /* Columns reach 3 m below y = 0, like house walls, to meet sloping ground. */
        const float lo[3] = {x, -3.0f, 0}, hi[3] = {x + cw, ys, cw};
        gn_mg_box(b, lo, hi);
        /* Band above the column, front and back. */
        const float f0[3] = {x, ys, 0}, f1[3] = {x + cw, ys, 0}, f2[3] = {x + cw, yb, 0}, f3[3] = {x, yb, 0};
        gn_mg_quad_facing(b, f0, f1, f2, f3, out_front);
        const float k0[3] = {x, ys, cw}, k1[3] = {x + cw, ys, cw}, k2[3] = {x + cw, yb, cw},
                    k3[3] = {x, yb, cw};
        gn_mg_quad_facing(b, k0, k1, k2, k3, out_back);
    }
    enum { N = 8 };
    for (int i = 0; i < bays; i++) {
        float xl = (float)i * (cw + bw) + cw, xm = xl + r;
        for (int k = 0; k < N; k++) {
            float a0 = GN_PI * (1.0f - (float)k / N), a1 = GN_PI * (1.0f - (float)(k + 1) / N);
            float ax0 = xm + r * cosf(a0), ay0 = ys + r * sinf(a0);
            float ax1 = xm + r * cosf(a1), ay1 = ys + r * sinf(a1);
            float tx0 = xl + bw * (float)k / N, tx1 = xl + bw * (float)(k + 1) / N;
            for (int side = 0; side < 2; side++) {
                float z = side ? cw : 0;
                const float p0[3] = {ax0, ay0, z}, p1[3] = {ax1, ay1, z}, p2[3] = {tx1, yb, z},
                            p3[3] = {tx0, yb, z};
                gn_mg_quad_facing(b, p0, p1, p2, p3, side ? out_back : out_front);
            }
            /* The arch's underside faces its centre. */
            const float i0[3] = {ax0, ay0, 0}, i1[3] = {ax1, ay1, 0}, i2[3] = {ax1, ay1, cw},
                        i3[3] = {ax0, ay0, cw};
            float in[3] = {xm - 0.5f * (ax0 + ax1), ys - 0.5f * (ay0 + ay1), 0};
            gn_mg_quad_facing(b, i0, i1, i2, i3, in);
        }
    }
    const float e0[3] = {0, ys, 0}, e1[3] = {0, ys, cw}, e2[3] = {0, yb, cw}, e3[3] = {0, yb, 0};
    const float left[3] = {-1, 0, 0}, right[3] = {1, 0, 0};
    gn_mg_quad_facing(b, e0, e1, e2, e3, left);
    const float g0[3] = {length, ys, 0}, g1[3] = {length, ys, cw}, g2[3] = {length, yb, cw},
                g3[3] = {length, yb, 0};
    gn_mg_quad_facing(b, g0, g1, g2, g3, right);
    const float slo[3] = {-0.1f, yb, -0.1f}, shi[3] = {length + 0.1f, height, depth};
    gn_mg_box(b, slo, shi);
}

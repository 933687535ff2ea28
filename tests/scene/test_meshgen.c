/* Procedural primitives: outward winding (signed volume of closed shapes), normals that
 * agree with the winding, tangents that follow the uvs. */
#include "scene/meshgen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene_check.h"

static void sub(double o[3], const float a[3], const float b[3])
{
    o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2];
}
static void cross(double o[3], const double a[3], const double b[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1], o[1] = a[2] * b[0] - a[0] * b[2], o[2] = a[0] * b[1] - a[1] * b[0];
}

/* Volume enclosed by the triangles (divergence theorem): positive when they face out. */
static double signed_volume(const gn_mg *b)
{
    double v = 0;
    for (uint32_t t = 0; t < b->icount; t += 3) {
        const float *p = b->v[b->idx[t]].pos, *q = b->v[b->idx[t + 1]].pos, *r = b->v[b->idx[t + 2]].pos;
        v += (p[0] * ((double)q[1] * r[2] - (double)q[2] * r[1]) -
              p[1] * ((double)q[0] * r[2] - (double)q[2] * r[0]) +
              p[2] * ((double)q[0] * r[1] - (double)q[1] * r[0])) /
             6.0;
    }
    return v;
}

/* Every non-degenerate triangle's winding agrees with its vertices' normals; tangents are
 * unit, orthogonal, and where the uvs vary, along dP/du with the glTF bitangent sign. */
static int check_frames(const gn_mg *b, const char *what)
{
    for (uint32_t t = 0; t < b->icount; t += 3) {
        const gn_vertex *v[3] = {&b->v[b->idx[t]], &b->v[b->idx[t + 1]], &b->v[b->idx[t + 2]]};
        double e1[3], e2[3], n[3];
        sub(e1, v[1]->pos, v[0]->pos);
        sub(e2, v[2]->pos, v[0]->pos);
        cross(n, e1, e2);
        double area = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (area < 1e-8) continue;
        for (int k = 0; k < 3; k++) {
            const float *vn = v[k]->normal, *tg = v[k]->tangent;
            double d = (n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2]) / area;
            CHECK(d > 0.0, "%s: triangle %u faces against its normal (dot %g)", what, t / 3, d);
            double o = vn[0] * tg[0] + vn[1] * tg[1] + vn[2] * tg[2];
            CHECK(fabs(o) < 1e-3, "%s: tangent not orthogonal (%g)", what, o);
            CHECK(tg[3] == 1.0f || tg[3] == -1.0f, "%s: tangent w %g", what, tg[3]);
        }
        float du1 = v[1]->uv[0] - v[0]->uv[0], dv1 = v[1]->uv[1] - v[0]->uv[1];
        float du2 = v[2]->uv[0] - v[0]->uv[0], dv2 = v[2]->uv[1] - v[0]->uv[1];
        double det = (double)du1 * dv2 - (double)du2 * dv1;
        if (fabs(det) < 1e-6) continue;
        double dpdu[3], dpdv[3];
        for (int k = 0; k < 3; k++) {
            dpdu[k] = (e1[k] * dv2 - e2[k] * dv1) / det;
            dpdv[k] = (e2[k] * du1 - e1[k] * du2) / det;
        }
        const float *vn = v[0]->normal, *tg = v[0]->tangent;
        double nt[3], nn[3] = {vn[0], vn[1], vn[2]}, tt[3] = {tg[0], tg[1], tg[2]};
        cross(nt, nn, tt);
        double du = tt[0] * dpdu[0] + tt[1] * dpdu[1] + tt[2] * dpdu[2];
        double bv = (nt[0] * dpdv[0] + nt[1] * dpdv[1] + nt[2] * dpdv[2]) * tg[3];
        CHECK(du > 0, "%s: tangent against dP/du (%g)", what, du);
        CHECK(bv < 0, "%s: bitangent along +dP/dv, not image up (%g)", what, bv);
    }
    return 0;
}

static int closed(gn_mg *b, const char *what, double expect, double tol)
{
    gn_mesh_compute_tangents(b->v, b->vcount, b->idx, b->icount);
    double v = signed_volume(b);
    CHECK(v > 0, "%s: volume %g (faces point inwards)", what, v);
    if (expect > 0) CHECK(fabs(v - expect) <= tol * expect, "%s: volume %g, expected %g", what, v, expect);
    int r = check_frames(b, what);
    gn_mg_reset(b);
    return r;
}

static int open_shape(gn_mg *b, const char *what)
{
    gn_mesh_compute_tangents(b->v, b->vcount, b->idx, b->icount);
    int r = check_frames(b, what);
    gn_mg_reset(b);
    return r;
}

static float hills(const void *user, float x, float z)
{
    (void)user;
    return 2.0f * sinf(0.3f * x) * cosf(0.2f * z);
}

int main(void)
{
    gn_mg b, c;
    gn_mg_init(&b);
    gn_mg_init(&c);
    int f = 0;
    const float lo[3] = {-1, 0, -2}, hi[3] = {1, 3, 2}, o[3] = {0, 0, 0};
    gn_mg_box(&b, lo, hi);
    f += closed(&b, "box", 24.0, 1e-5);
    /* A mirroring placement must keep the faces outward. */
    const float mirror[16] = {-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    gn_mg_set_matrix(&b, mirror);
    gn_mg_box(&b, lo, hi);
    f += closed(&b, "mirrored box", 24.0, 1e-5);
    gn_mg_place(&b, 3, 1, 2, 0.7f);
    gn_mg_box(&b, lo, hi);
    f += closed(&b, "placed box", 24.0, 1e-4);
    gn_mg_frustum(&b, o, 1.0f, 0.5f, 2.0f, 48, true);
    f += closed(&b, "frustum", 3.14159 * 2.0 / 3.0 * (1 + 0.5 + 0.25), 0.01);
    gn_mg_frustum(&b, o, 1.0f, 0.0f, 3.0f, 48, true);
    f += closed(&b, "cone", 3.14159, 0.01);
    const float r1[3] = {1, 1, 1};
    gn_mg_blob(&b, o, r1, 3, 0.0f, 1);
    f += closed(&b, "sphere", 4.18879, 0.02);
    gn_mg_blob(&b, o, r1, 2, 0.25f, 7);
    f += closed(&b, "lumpy blob", 0, 0);
    gn_mg_roof_gable(&b, 10, 8, 2.8f, 0.5f, 0.25f);
    f += closed(&b, "gable roof", 0, 0);
    gn_mg_roof_hip(&b, 12, 8, 2.8f, 0.5f, 0.25f);
    f += closed(&b, "hip roof", 0, 0);
    gn_mg_roof_hip(&b, 8, 8, 2.8f, 0.5f, 0.25f);
    f += closed(&b, "square hip roof", 0, 0);
    for (int k = 0; k < GN_TREE_KIND_COUNT; k++) {
        gn_mg_tree(&b, &c, (gn_tree_kind)k, 3);
        f += open_shape(&b, "tree trunk");
        f += closed(&c, "tree crown", 0, 0);
    }
    gn_mg_house_body(&b, 10, 8, 6.9f, 3, 2.8f);
    f += open_shape(&b, "house walls");
    gn_mg_lamp_post(&b, &c, 4.8f);
    f += open_shape(&b, "lamp post");
    f += closed(&c, "lamp head", 0, 0);
    gn_mg_fence(&b, 4, 1.1f, 3);
    f += closed(&b, "fence", 0, 0);
    gn_mg_arcade(&b, 12, 3, 3.9f, 4);
    f += open_shape(&b, "arcade");
    gn_mg_heightfield(&b, -8, -8, 2, 8, 8, hills, NULL, 0);
    f += open_shape(&b, "heightfield");
    gn_mg_free(&b);
    gn_mg_free(&c);
    if (!f) printf("scene_meshgen: ok\n");
    return f ? 1 : 0;
}

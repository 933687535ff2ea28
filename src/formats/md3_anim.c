/* Posing an MD3 model between two frames (md3.h), as the game does: the renderer's
 * LerpMeshVertexes for surfaces (positions lerped, normals lerped and renormalised), R_LerpTag
 * for tags, and cgame's CG_PositionRotatedEntityOnTag for a part hung on its parent's tag.
 * The arithmetic runs in double: a fuzzed file's floats may be near FLT_MAX, where a float
 * lerp or dot product would overflow into infinities and NaN. */
#include "formats/md3.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Frames past the last read as the last (R_GetTag and RB_SurfaceMesh do the same: "it is
 * possible to have a bad frame while changing models"). */
static uint32_t clamp_frame(const gn_md3 *m, uint32_t f)
{
    return f < m->frame_count ? f : m->frame_count - 1;
}

static double clamp_frac(float f) { return f > 0.0f ? (f < 1.0f ? f : 1.0) : 0.0; } /* NaN: 0 */

/* A double back to float without the undefined conversion of a value past FLT_MAX. */
static float to_float(double v) { return v > FLT_MAX ? FLT_MAX : v < -FLT_MAX ? -FLT_MAX : (float)v; }

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* v scaled to unit length; false (v untouched) when it is too short to have a direction. */
static bool normalise(double v[3])
{
    double len = sqrt(dot3(v, v));
    if (!(len > 1e-12) || !isfinite(len)) return false;
    for (int i = 0; i < 3; i++) v[i] /= len;
    return true;
}

bool gn_md3_lerp_surface(const gn_md3 *m, uint32_t s, gn_md3_blend b, float *positions, float *normals)
{
    if (!m || s >= m->surface_count) return false;
    const gn_md3_surface *sf = &m->surfaces[s];
    uint64_t n = sf->vertex_count;
    uint64_t fa = clamp_frame(m, b.from) * n * 3, fb = clamp_frame(m, b.to) * n * 3;
    double t = clamp_frac(b.frac);
    for (uint64_t i = 0; i < 3 * n; i++) {
        if (positions) positions[i] = to_float(sf->positions[fa + i] * (1.0 - t) + sf->positions[fb + i] * t);
    }
    for (uint64_t v = 0; normals && v < n; v++) {
        const float *na = &sf->normals[fa + 3 * v], *nb = &sf->normals[fb + 3 * v];
        double d[3];
        for (int j = 0; j < 3; j++) d[j] = na[j] * (1.0 - t) + nb[j] * t;
        /* opposite normals half-way cancel out: keep the nearer frame's */
        if (!normalise(d))
            for (int j = 0; j < 3; j++) d[j] = t < 0.5 ? na[j] : nb[j];
        for (int j = 0; j < 3; j++) normals[3 * v + j] = (float)d[j];
    }
    return true;
}

/* Orthonormal axes near ax (rows), in place: ax[0] keeps its direction, ax[1] loses its part
 * along ax[0], ax[2] becomes their cross product, turned to the side of the old ax[2]. Any
 * degenerate axis is replaced by one that completes the set, so the result is always a rotation
 * or a reflection, never NaN. */
static void orthonormalise(double ax[3][3])
{
    static const double basis[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    if (!normalise(ax[0])) memcpy(ax[0], basis[0], sizeof ax[0]);
    /* twice: when ax[1] is huge and nearly along ax[0], the first pass leaves a rounding residue
     * that is not perpendicular; the second removes it ("twice is enough", Kahan) */
    bool ok = true;
    for (int pass = 0; pass < 2 && ok; pass++) {
        double k = dot3(ax[1], ax[0]);
        for (int i = 0; i < 3; i++) ax[1][i] -= k * ax[0][i];
        ok = normalise(ax[1]);
    }
    if (!ok) {
        /* any perpendicular: the basis vector least along ax[0], less its part along ax[0] */
        int least = 0;
        for (int i = 1; i < 3; i++)
            if (fabs(ax[0][i]) < fabs(ax[0][least])) least = i;
        for (int i = 0; i < 3; i++) ax[1][i] = basis[least][i] - ax[0][least] * ax[0][i];
        normalise(ax[1]);
    }
    double c[3] = {ax[0][1] * ax[1][2] - ax[0][2] * ax[1][1], ax[0][2] * ax[1][0] - ax[0][0] * ax[1][2],
                   ax[0][0] * ax[1][1] - ax[0][1] * ax[1][0]};
    double side = dot3(c, ax[2]) < 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < 3; i++) ax[2][i] = side * c[i];
}

bool gn_md3_lerp_tag(const gn_md3 *m, uint32_t t, gn_md3_blend b, gn_md3_tag *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; i++) out->axis[i][i] = 1.0f;
    if (!m || t >= m->tag_count) return false;
    const gn_md3_tag *ta = &m->tags[clamp_frame(m, b.from) * m->tag_count + t];
    const gn_md3_tag *tb = &m->tags[clamp_frame(m, b.to) * m->tag_count + t];
    double u = clamp_frac(b.frac), ax[3][3];
    memcpy(out->name, ta->name, sizeof out->name);
    for (int i = 0; i < 3; i++) {
        out->origin[i] = to_float(ta->origin[i] * (1.0 - u) + tb->origin[i] * u);
        for (int j = 0; j < 3; j++) ax[i][j] = ta->axis[i][j] * (1.0 - u) + tb->axis[i][j] * u;
    }
    orthonormalise(ax);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out->axis[i][j] = (float)ax[i][j];
    return true;
}

void gn_md3_tag_matrix(const gn_md3_tag *tag, float out[16])
{
    for (int c = 0; c < 3; c++) {
        for (int r = 0; r < 3; r++) out[4 * c + r] = tag->axis[c][r];
        out[4 * c + 3] = 0.0f;
    }
    for (int r = 0; r < 3; r++) out[12 + r] = tag->origin[r];
    out[15] = 1.0f;
}

/* out = a x b, 4x4 column-major; out may alias either. */
static void mul4(const float a[16], const float b[16], float out[16])
{
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 4; i++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++) s += a[4 * k + i] * b[4 * c + k];
            r[4 * c + i] = s;
        }
    memcpy(out, r, sizeof r);
}

void gn_md3_attach(const float parent[16], const gn_md3_tag *tag, const float local[16], float out[16])
{
    /* cgame: origin = parent.origin + sum_i tag.origin[i] * parent.axis[i] (parent x tag's
     * translation); axis = local.axis x tag.axis x parent.axis in its row-vector convention,
     * which is parent x tag x local with columns as axes. */
    float t[16];
    gn_md3_tag_matrix(tag, t);
    mul4(parent, t, t);
    if (local) mul4(t, local, t);
    memcpy(out, t, sizeof t);
}

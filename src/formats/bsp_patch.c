/* Faces to triangles: polygons and meshes through their meshverts, Bézier patches tessellated.
 *
 * A Q3 patch is a w x h grid of control points (both odd) read as ((w-1)/2) x ((h-1)/2)
 * biquadratic Bézier pieces that share their edge rows and columns. Each piece is evaluated on
 * an (L+1) x (L+1) grid of its own. Neighbouring pieces evaluate their shared edge from the same
 * three control points with weights (0, 0, 1) and (1, 0, 0), which give the control point
 * exactly, so the duplicated edge vertices are bit-identical and the surface has no cracks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/gmath.h"
#include "formats/bsp.h"

#define GN_BSP_DEFAULT_PATCH_LEVEL 8
#define GN_BSP_MAX_PATCH_LEVEL 64

void gn_bsp_patch_counts(uint32_t w, uint32_t h, uint32_t level, uint64_t *vertices, uint64_t *indices)
{
    uint64_t pieces = (uint64_t)((w - 1) / 2) * ((h - 1) / 2);
    *vertices = pieces * (level + 1) * (level + 1);
    *indices = pieces * level * level * 6;
}

static void bezier_weights(float t, float b[3], float db[3])
{
    float s = 1.0f - t;
    b[0] = s * s, b[1] = 2.0f * s * t, b[2] = t * t;
    db[0] = -2.0f * s, db[1] = 2.0f * (s - t), db[2] = 2.0f * t;
}

/* Rows first, then columns, in a fixed order: see the file comment on why edges match. */
static void eval_piece(const gn_bsp_vertex *p[3][3], const float bu[3], const float bv[3], size_t off, int n,
                       float *out)
{
    float row[3][3] = {{0}};
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < n; k++) {
            const float *a = (const float *)((const char *)p[j][0] + off);
            const float *b = (const float *)((const char *)p[j][1] + off);
            const float *c = (const float *)((const char *)p[j][2] + off);
            row[j][k] = bu[0] * a[k] + bu[1] * b[k] + bu[2] * c[k];
        }
    for (int k = 0; k < n; k++) out[k] = bv[0] * row[0][k] + bv[1] * row[1][k] + bv[2] * row[2][k];
}

static void patch_vertex(const gn_bsp_vertex *p[3][3], float u, float v, gn_bsp_mesh_vertex *o)
{
    float bu[3], dbu[3], bv[3], dbv[3];
    bezier_weights(u, bu, dbu);
    bezier_weights(v, bv, dbv);
    eval_piece(p, bu, bv, offsetof(gn_bsp_vertex, pos), 3, o->pos);
    eval_piece(p, bu, bv, offsetof(gn_bsp_vertex, uv), 2, o->uv);
    eval_piece(p, bu, bv, offsetof(gn_bsp_vertex, lm_uv), 2, o->lm_uv);
    /* The compiler's vertex normals, blended, point to the patch's front; the derivatives'
     * cross product is the fallback where they cancel, since collapsed control rows (common
     * in Q3 cones and arches) make the derivatives vanish instead. */
    eval_piece(p, bu, bv, offsetof(gn_bsp_vertex, normal), 3, o->normal);
    if (gn_vec3_normalize_len(o->normal, 1e-12f) > 1e-6f) return;
    float du[3], dv[3];
    eval_piece(p, dbu, bv, offsetof(gn_bsp_vertex, pos), 3, du);
    eval_piece(p, bu, dbv, offsetof(gn_bsp_vertex, pos), 3, dv);
    gn_vec3_cross(o->normal, du, dv);
    if (gn_vec3_normalize_len(o->normal, 1e-12f) <= 1e-12f) gn_vec3_set(o->normal, 0.0f, 1.0f, 0.0f);
}

void gn_bsp_patch_tessellate(const gn_bsp_vertex *ctrl, uint32_t w, uint32_t h, uint32_t level, uint32_t base,
                             gn_bsp_mesh_vertex *v, uint32_t *idx)
{
    uint32_t side = level + 1, nv = 0, ni = 0;
    for (uint32_t py = 0; py + 2 < h; py += 2)
        for (uint32_t px = 0; px + 2 < w; px += 2) {
            const gn_bsp_vertex *p[3][3];
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++) p[j][i] = &ctrl[(py + (uint32_t)j) * w + px + (uint32_t)i];
            uint32_t first = base + nv;
            for (uint32_t j = 0; j <= level; j++)
                for (uint32_t i = 0; i <= level; i++)
                    patch_vertex(p, (float)i / (float)level, (float)j / (float)level, &v[nv++]);
            for (uint32_t j = 0; j < level; j++)
                for (uint32_t i = 0; i < level; i++) {
                    uint32_t a = first + j * side + i, b = a + 1, c = a + side, d = c + 1;
                    uint32_t t[6] = {a, b, c, b, d, c};
                    memcpy(idx + ni, t, sizeof t);
                    ni += 6;
                }
        }
    /* The grid's winding depends on how the mapper laid out rows and columns; choose it so the
     * triangles face where the vertex normals say the front is, then counter-clockwise follows. */
    double facing = 0.0;
    for (uint32_t k = 0; k < ni; k += 3) {
        const gn_bsp_mesh_vertex *A = &v[idx[k] - base], *B = &v[idx[k + 1] - base],
                                 *C = &v[idx[k + 2] - base];
        float e1[3], e2[3], n[3];
        gn_vec3_sub(e1, B->pos, A->pos);
        gn_vec3_sub(e2, C->pos, A->pos);
        gn_vec3_cross(n, e1, e2);
        for (int a = 0; a < 3; a++) facing += (double)n[a] * (A->normal[a] + B->normal[a] + C->normal[a]);
    }
    if (facing < 0.0)
        for (uint32_t k = 0; k < ni; k += 3) {
            uint32_t t = idx[k + 1];
            idx[k + 1] = idx[k + 2], idx[k + 2] = t;
        }
}

static bool face_wanted(const gn_bsp_face *f, uint32_t mask)
{
    return f->type >= GN_BSP_FACE_POLYGON && f->type < GN_BSP_FACE_BILLBOARD && (mask & (1u << f->type));
}

gn_result gn_bsp_triangulate(const gn_bsp *b, const gn_bsp_triangulate_desc *d, gn_bsp_mesh *out,
                             gn_error *err)
{
    if (!b || !out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_bsp_triangulate: NULL argument");
    memset(out, 0, sizeof *out);
    gn_bsp_triangulate_desc desc = d ? *d : (gn_bsp_triangulate_desc){0};
    if (desc.patch_level == 0) desc.patch_level = GN_BSP_DEFAULT_PATCH_LEVEL;
    if (desc.face_mask == 0) desc.face_mask = GN_BSP_MASK_POLYGON | GN_BSP_MASK_PATCH | GN_BSP_MASK_MESH;
    if (desc.patch_level > GN_BSP_MAX_PATCH_LEVEL)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: patch level %u is above the maximum %d", b->name,
                       desc.patch_level, GN_BSP_MAX_PATCH_LEVEL);
    gn_bsp_limits lim;
    gn_bsp_limits_defaults(desc.limits, &lim);

    /* Count first, so that one allocation of a checked size holds everything. The ranges were
     * checked by gn_bsp_parse; they are checked again because gn_bsp is a plain public struct. */
    uint64_t nv = b->vertex_count, ni = 0;
    for (uint32_t i = 0; i < b->face_count; i++) {
        const gn_bsp_face *f = &b->faces[i];
        if (!face_wanted(f, desc.face_mask)) continue;
        if ((uint64_t)f->first_vertex + f->vertex_count > b->vertex_count ||
            (uint64_t)f->first_meshvert + f->meshvert_count > b->meshvert_count)
            return gn_fail(err, GN_ERROR_BAD_DATA, "%s: face %u: vertex or meshvert range out of range",
                           b->name, i);
        if (f->type == GN_BSP_FACE_PATCH) {
            if (f->patch_w < 3 || f->patch_h < 3 || f->patch_w % 2 == 0 || f->patch_h % 2 == 0 ||
                f->patch_w > lim.patch_size || f->patch_h > lim.patch_size ||
                (uint64_t)f->patch_w * f->patch_h != f->vertex_count)
                return gn_fail(err, GN_ERROR_BAD_DATA, "%s: face %u: bad patch of %u x %u control points",
                               b->name, i, f->patch_w, f->patch_h);
            uint64_t pv, pi;
            gn_bsp_patch_counts(f->patch_w, f->patch_h, desc.patch_level, &pv, &pi);
            nv += pv, ni += pi;
        } else {
            if (f->meshvert_count % 3 != 0)
                return gn_fail(err, GN_ERROR_BAD_DATA, "%s: face %u: %u meshverts is not whole triangles",
                               b->name, i, f->meshvert_count);
            for (uint32_t k = 0; k < f->meshvert_count; k++)
                if (b->meshverts[f->first_meshvert + k] >= f->vertex_count)
                    return gn_fail(err, GN_ERROR_BAD_DATA, "%s: face %u: a meshvert is outside its vertices",
                                   b->name, i);
            ni += f->meshvert_count;
        }
        if (nv > lim.mesh_vertices || ni > lim.mesh_indices)
            return gn_fail(
                err, GN_ERROR_BAD_DATA,
                "%s: face %u: triangulation needs %llu vertices and %llu indices, above the limits "
                "(%u, %u)",
                b->name, i, (unsigned long long)nv, (unsigned long long)ni, lim.mesh_vertices,
                lim.mesh_indices);
    }
    out->vertices = nv ? gn_malloc((size_t)nv * sizeof *out->vertices) : NULL;
    out->indices = ni ? gn_malloc((size_t)ni * sizeof *out->indices) : NULL;
    out->faces = b->face_count ? gn_calloc(b->face_count, sizeof *out->faces) : NULL;
    if ((nv && !out->vertices) || (ni && !out->indices) || (b->face_count && !out->faces)) {
        gn_bsp_mesh_free(out);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %llu triangulated vertices",
                       b->name, (unsigned long long)nv);
    }
    out->face_count = b->face_count;
    for (uint32_t i = 0; i < b->vertex_count; i++) {
        const gn_bsp_vertex *s = &b->vertices[i];
        gn_bsp_mesh_vertex *o = &out->vertices[i];
        memcpy(o->pos, s->pos, sizeof o->pos);
        memcpy(o->normal, s->normal, sizeof o->normal);
        memcpy(o->uv, s->uv, sizeof o->uv);
        memcpy(o->lm_uv, s->lm_uv, sizeof o->lm_uv);
    }
    uint32_t vcur = b->vertex_count, icur = 0;
    for (uint32_t i = 0; i < b->face_count; i++) {
        const gn_bsp_face *f = &b->faces[i];
        out->faces[i].first_index = icur;
        if (!face_wanted(f, desc.face_mask)) continue;
        if (f->type == GN_BSP_FACE_PATCH) {
            uint64_t pv, pi;
            gn_bsp_patch_counts(f->patch_w, f->patch_h, desc.patch_level, &pv, &pi);
            gn_bsp_patch_tessellate(&b->vertices[f->first_vertex], f->patch_w, f->patch_h, desc.patch_level,
                                    vcur, out->vertices + vcur, out->indices + icur);
            vcur += (uint32_t)pv, icur += (uint32_t)pi;
        } else {
            const uint32_t *m = &b->meshverts[f->first_meshvert];
            for (uint32_t k = 0; k < f->meshvert_count; k += 3) {
                /* Q3 triangles are clockwise from the front: swapping two corners makes them
                 * counter-clockwise, as the renderer's back-face culling expects. */
                out->indices[icur++] = f->first_vertex + m[k];
                out->indices[icur++] = f->first_vertex + m[k + 2];
                out->indices[icur++] = f->first_vertex + m[k + 1];
            }
        }
        out->faces[i].index_count = icur - out->faces[i].first_index;
    }
    out->vertex_count = vcur;
    out->index_count = icur;
    return GN_OK;
}

void gn_bsp_mesh_free(gn_bsp_mesh *m)
{
    if (!m) return;
    free(m->vertices);
    free(m->indices);
    free(m->faces);
    memset(m, 0, sizeof *m);
}

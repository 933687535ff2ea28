#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* The CPU scene store: validation at the door, then plain arrays the renderer uploads.
 * Every add_* either succeeds completely or leaves the scene exactly as it was. */
#include "scene/scene.h"
#include "base/alloc.h"
#include "base/gmath.h"
#include "base/image.h"
#include "decide/brdf.h"
#include "decide/tfx.h"
#include "decide/uv_transform.h"
#include "formats/dds.h"
#include "scene/world.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

gn_result gn_scene_create(gn_scene **out, gn_error *err)
{
    if (!out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_create: out is NULL");
    *out = gn_calloc(1, sizeof **out);
    if (!*out) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "gn_scene_create: out of memory");
    /* A camera that sees something in a scene built by hand around the origin. */
    (*out)->default_camera[2] = 5.0f;
    (*out)->sky_q3 = GN_NO_Q3;
    /* the monotonic clock in ns: a scene made at the address of a destroyed one was made later */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    (*out)->uid = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    return GN_OK;
}

void gn_scene_destroy(gn_scene *s)
{
    if (!s) return;
    for (uint32_t i = 0; i < s->texture_count; i++) free(s->textures[i].texels);
    free(s->vertices);
    free(s->indices);
    free(s->meshes);
    free(s->materials);
    free(s->textures);
    free(s->instances);
    free(s->orbits);
    free(s->lights);
    free(s->light_origin);
    free(s->light_motions);
    free(s->light_sites);
    free(s->probe_sites);
    for (uint32_t i = 0; i < s->q3_count; i++) free(s->q3[i].mat);
    free(s->q3);
    free(s->q3_array.texels);
    free(s->q3_fogs);
    free(s->decals);
    free(s->emitters);
    gn_world_free(s->world);
    gn_scene_rigs_free(s);
    free(s);
}

/* ---- vertex attributes ----------------------------------------------------------------- */

void gn_mesh_compute_normals(gn_vertex *v, uint32_t vertex_count, const uint32_t *idx, uint32_t index_count)
{
    for (uint32_t i = 0; i < vertex_count; i++) memset(v[i].normal, 0, sizeof v[i].normal);
    /* The unnormalised cross product is twice the triangle's area, so summing it weights
     * each face by area: slivers from tessellation barely bend the result. */
    for (uint32_t t = 0; t + 2 < index_count; t += 3) {
        gn_vertex *a = &v[idx[t]], *b = &v[idx[t + 1]], *c = &v[idx[t + 2]];
        float e1[3], e2[3], n[3];
        gn_vec3_sub(e1, b->pos, a->pos);
        gn_vec3_sub(e2, c->pos, a->pos);
        gn_vec3_cross(n, e1, e2);
        for (int k = 0; k < 3; k++) a->normal[k] += n[k], b->normal[k] += n[k], c->normal[k] += n[k];
    }
    for (uint32_t i = 0; i < vertex_count; i++)
        if (!gn_vec3_normalize(v[i].normal)) v[i].normal[0] = 0, v[i].normal[1] = 1, v[i].normal[2] = 0;
}

/* Any unit vector perpendicular to n, for vertices whose uvs do not define a direction. */
static void gn_any_tangent(float t[3], const float n[3])
{
    const float ax[3] = {1, 0, 0}, ay[3] = {0, 1, 0};
    gn_vec3_cross(t, fabsf(n[0]) < 0.9f ? ax : ay, n);
    gn_vec3_normalize(t);
}

void gn_mesh_orthonormalize_tangent(gn_vertex *v)
{
    float *t = v->tangent, *n = v->normal;
    float d = gn_vec3_dot(t, n);
    t[0] -= n[0] * d, t[1] -= n[1] * d, t[2] -= n[2] * d;
    if (!gn_vec3_normalize(t)) gn_any_tangent(t, n);
    t[3] = t[3] < 0.0f ? -1.0f : 1.0f;
}

bool gn_mesh_compute_tangents(gn_vertex *v, uint32_t vertex_count, const uint32_t *idx, uint32_t index_count)
{
    /* Scratch for dP/dv sums; the dP/du sums accumulate straight into the tangent. Without it
     * the sign w (mirrored uvs) would be a guess, so its failure fails the mesh. */
    float *bv = gn_calloc((size_t)vertex_count * 3 + 1, sizeof *bv);
    if (!bv) return false;
    for (uint32_t i = 0; i < vertex_count; i++) memset(v[i].tangent, 0, sizeof v[i].tangent);
    for (uint32_t t = 0; t + 2 < index_count; t += 3) {
        uint32_t ia = idx[t], ib = idx[t + 1], ic = idx[t + 2];
        float e1[3], e2[3];
        gn_vec3_sub(e1, v[ib].pos, v[ia].pos);
        gn_vec3_sub(e2, v[ic].pos, v[ia].pos);
        float du1 = v[ib].uv[0] - v[ia].uv[0], dv1 = v[ib].uv[1] - v[ia].uv[1];
        float du2 = v[ic].uv[0] - v[ia].uv[0], dv2 = v[ic].uv[1] - v[ia].uv[1];
        float det = du1 * dv2 - du2 * dv1;
        if (fabsf(det) < 1e-12f) continue;
        /* Solving e = du*T + dv*B for both edges; dividing by |det| rather than det keeps
         * triangles with mirrored uvs from cancelling their neighbours' sums. */
        float r = 1.0f / fabsf(det), sg = det < 0 ? -1.0f : 1.0f;
        float tu[3], tv[3];
        for (int k = 0; k < 3; k++) {
            tu[k] = (e1[k] * dv2 - e2[k] * dv1) * r * sg;
            tv[k] = (e2[k] * du1 - e1[k] * du2) * r * sg;
        }
        uint32_t tri[3] = {ia, ib, ic};
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                v[tri[j]].tangent[k] += tu[k];
                bv[tri[j] * 3 + k] += tv[k];
            }
    }
    for (uint32_t i = 0; i < vertex_count; i++) {
        float b[3], nt[3];
        memcpy(b, &bv[i * 3], sizeof b);
        /* glTF convention: cross(N, T) * w points towards image "up", i.e. decreasing v
         * (rows are stored top first), so normal maps with green = up work unchanged. */
        v[i].tangent[3] = 1.0f;
        gn_mesh_orthonormalize_tangent(&v[i]);
        gn_vec3_cross(nt, v[i].normal, v[i].tangent);
        v[i].tangent[3] = gn_vec3_dot(nt, b) > 0.0f ? -1.0f : 1.0f;
    }
    free(bv);
    return true;
}

/* ---- meshes ---------------------------------------------------------------------------- */

static const char *gn_label(const char *l) { return l && l[0] ? l : "(unlabelled mesh)"; }

/* Checks counts, caps and index ranges shared by both ways of adding a mesh. */
static gn_result gn_check_mesh(const gn_scene *s, const char *label, uint32_t vertex_count,
                               const uint32_t *idx, uint32_t index_count, gn_error *err)
{
    if (vertex_count == 0 || index_count == 0)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "mesh '%s': %u vertices, %u indices (both must be > 0)", label, vertex_count,
                       index_count);
    if (!idx) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "mesh '%s': indices are NULL", label);
    if (index_count % 3 != 0)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "mesh '%s': index count %u is not a multiple of 3",
                       label, index_count);
    if ((uint64_t)s->vertex_count + vertex_count > GN_SCENE_MAX_VERTICES)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "mesh '%s': scene would exceed %u vertices", label,
                       GN_SCENE_MAX_VERTICES);
    if ((uint64_t)s->index_count + index_count > GN_SCENE_MAX_INDICES)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "mesh '%s': scene would exceed %u indices", label,
                       GN_SCENE_MAX_INDICES);
    if (s->mesh_count >= GN_SCENE_MAX_MESHES)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "mesh '%s': scene already has %u meshes", label,
                       GN_SCENE_MAX_MESHES);
    for (uint32_t i = 0; i < index_count; i++)
        if (idx[i] >= vertex_count)
            return gn_fail(err, GN_ERROR_BAD_DATA,
                           "mesh '%s': index %u (at %u) is out of range (%u vertices)", label, idx[i], i,
                           vertex_count);
    return GN_OK;
}

/* Reserves room for a mesh in every array; nothing is visible to readers until the counts
 * move, so a failure here leaves the scene as it was. */
static gn_result gn_reserve_mesh(gn_scene *s, const char *label, uint32_t vc, uint32_t ic, gn_error *err)
{
    if (!gn_grow((void **)&s->vertices, &s->vertex_cap, (uint64_t)s->vertex_count + vc, sizeof *s->vertices,
                 GN_SCENE_MAX_VERTICES) ||
        !gn_grow((void **)&s->indices, &s->index_cap, (uint64_t)s->index_count + ic, sizeof *s->indices,
                 GN_SCENE_MAX_INDICES) ||
        !gn_grow((void **)&s->meshes, &s->mesh_cap, (uint64_t)s->mesh_count + 1, sizeof *s->meshes,
                 GN_SCENE_MAX_MESHES))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "mesh '%s': out of memory", label);
    return GN_OK;
}

/* Publishes the vertices and indices already written past the ends of the arrays. */
static void gn_commit_mesh(gn_scene *s, uint32_t vc, uint32_t ic, uint32_t *out_id)
{
    gn_mesh *m = &s->meshes[s->mesh_count];
    const gn_vertex *v = &s->vertices[s->vertex_count];
    memset(m, 0, sizeof *m);
    m->first_vertex = s->vertex_count, m->vertex_count = vc;
    m->first_index = s->index_count, m->index_count = ic;
    for (int k = 0; k < 3; k++) m->aabb_min[k] = m->aabb_max[k] = v[0].pos[k];
    for (uint32_t i = 1; i < vc; i++)
        for (int k = 0; k < 3; k++) {
            m->aabb_min[k] = fminf(m->aabb_min[k], v[i].pos[k]);
            m->aabb_max[k] = fmaxf(m->aabb_max[k], v[i].pos[k]);
        }
    float r2 = 0;
    for (int k = 0; k < 3; k++) m->center[k] = 0.5f * (m->aabb_min[k] + m->aabb_max[k]);
    for (uint32_t i = 0; i < vc; i++) {
        float d[3];
        gn_vec3_sub(d, v[i].pos, m->center);
        r2 = fmaxf(r2, gn_vec3_dot(d, d));
    }
    m->radius = sqrtf(r2);
    s->vertex_count += vc;
    s->index_count += ic;
    if (out_id) *out_id = s->mesh_count;
    s->mesh_count++;
    s->generation++;
}

static bool gn_finite_n(const float *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(p[i])) return false;
    return true;
}

gn_result gn_scene_add_vertices(gn_scene *s, const gn_vertex *v, uint32_t vertex_count, const uint32_t *idx,
                                uint32_t index_count, uint32_t *out_id, gn_error *err)
{
    if (!s || !v)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_vertices: NULL scene or vertices");
    const char *label = "(vertices)";
    gn_result r = gn_check_mesh(s, label, vertex_count, idx, index_count, err);
    if (r != GN_OK) return r;
    for (uint32_t i = 0; i < vertex_count; i++)
        if (!gn_finite_n(v[i].pos, 12))
            return gn_fail(err, GN_ERROR_BAD_DATA, "mesh %s: vertex %u has a non-finite attribute", label, i);
    if ((r = gn_reserve_mesh(s, label, vertex_count, index_count, err)) != GN_OK) return r;
    memcpy(&s->vertices[s->vertex_count], v, (size_t)vertex_count * sizeof *v);
    memcpy(&s->indices[s->index_count], idx, (size_t)index_count * sizeof *idx);
    gn_commit_mesh(s, vertex_count, index_count, out_id);
    return GN_OK;
}

gn_result gn_scene_add_mesh(gn_scene *s, const gn_mesh_desc *d, uint32_t *out_id, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_mesh: NULL scene or desc");
    const char *label = gn_label(d->label);
    if (!d->positions) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "mesh '%s': positions are NULL", label);
    gn_result r = gn_check_mesh(s, label, d->vertex_count, d->indices, d->index_count, err);
    if (r != GN_OK) return r;
    uint32_t vc = d->vertex_count;
    struct {
        const float *p;
        int n;
        const char *what;
    } attrs[] = {{d->positions, 3, "position"},
                 {d->normals, 3, "normal"},
                 {d->tangents, 4, "tangent"},
                 {d->uvs, 2, "uv"},
                 {d->lightmap_uvs, 2, "lightmap uv"}};
    for (size_t a = 0; a < sizeof attrs / sizeof attrs[0]; a++) {
        if (!attrs[a].p) continue;
        for (uint32_t i = 0; i < vc; i++)
            if (!gn_finite_n(attrs[a].p + (size_t)i * attrs[a].n, (size_t)attrs[a].n))
                return gn_fail(err, GN_ERROR_BAD_DATA, "mesh '%s': vertex %u has a non-finite %s", label, i,
                               attrs[a].what);
    }
    for (uint32_t i = 0; i < vc; i++) {
        const float *p = d->positions + (size_t)i * 3;
        if (fabsf(p[0]) > GN_SCENE_MAX_EXTENT || fabsf(p[1]) > GN_SCENE_MAX_EXTENT ||
            fabsf(p[2]) > GN_SCENE_MAX_EXTENT)
            return gn_fail(
                err, GN_ERROR_BAD_DATA,
                "mesh '%s': vertex %u at (%g %g %g) is beyond %g m from the origin (the scene's cap)", label,
                i, (double)p[0], (double)p[1], (double)p[2], (double)GN_SCENE_MAX_EXTENT);
    }
    if ((r = gn_reserve_mesh(s, label, vc, d->index_count, err)) != GN_OK) return r;

    gn_vertex *v = &s->vertices[s->vertex_count];
    memset(v, 0, (size_t)vc * sizeof *v);
    for (uint32_t i = 0; i < vc; i++) {
        memcpy(v[i].pos, d->positions + (size_t)i * 3, 3 * sizeof(float));
        if (d->uvs) memcpy(v[i].uv, d->uvs + (size_t)i * 2, 2 * sizeof(float));
        if (d->lightmap_uvs) memcpy(v[i].uv2, d->lightmap_uvs + (size_t)i * 2, 2 * sizeof(float));
    }
    const uint32_t *idx = d->indices;
    if (d->normals) {
        for (uint32_t i = 0; i < vc; i++) {
            memcpy(v[i].normal, d->normals + (size_t)i * 3, 3 * sizeof(float));
            if (!gn_vec3_normalize(v[i].normal)) v[i].normal[1] = 1.0f;
        }
    } else {
        gn_mesh_compute_normals(v, vc, idx, d->index_count);
    }
    if (d->tangents) {
        for (uint32_t i = 0; i < vc; i++) {
            memcpy(v[i].tangent, d->tangents + (size_t)i * 4, 4 * sizeof(float));
            gn_mesh_orthonormalize_tangent(&v[i]);
        }
    } else if (!gn_mesh_compute_tangents(v, vc, idx, d->index_count)) {
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "mesh '%s': out of memory for tangents of %u vertices",
                       label, vc);
    }
    memcpy(&s->indices[s->index_count], idx, (size_t)d->index_count * sizeof *idx);
    gn_commit_mesh(s, vc, d->index_count, out_id);
    return GN_OK;
}

/* ---- textures and materials ------------------------------------------------------------ */

gn_result gn_scene_add_texture(gn_scene *s, const gn_texture_desc *d, uint32_t *out_id, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_texture: NULL scene or desc");
    const char *label = d->label && d->label[0] ? d->label : "(unlabelled texture)";
    if (d->width == 0 || d->height == 0 || d->width > GN_TEXTURE_MAX_SIZE || d->height > GN_TEXTURE_MAX_SIZE)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "texture '%s': size %ux%u is outside 1..%u", label,
                       d->width, d->height, GN_TEXTURE_MAX_SIZE);
    const void *src = d->format == GN_TEXTURE_RGBA8    ? (const void *)d->rgba8
                      : d->format == GN_TEXTURE_RGB9E5 ? (const void *)d->rgb9e5
                                                       : NULL;
    if (d->format != GN_TEXTURE_RGBA8 && d->format != GN_TEXTURE_RGB9E5)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "texture '%s': unknown format %d", label,
                       (int)d->format);
    if (!src)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "texture '%s': %s is NULL", label,
                       d->format == GN_TEXTURE_RGBA8 ? "rgba8" : "rgb9e5");
    if (s->texture_count >= GN_SCENE_MAX_TEXTURES)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "texture '%s': scene already has %u textures", label,
                       GN_SCENE_MAX_TEXTURES);
    size_t bytes = (size_t)d->width * d->height * 4;
    uint8_t *copy = gn_malloc(bytes);
    if (!copy || !gn_grow((void **)&s->textures, &s->texture_cap, (uint64_t)s->texture_count + 1,
                          sizeof *s->textures, GN_SCENE_MAX_TEXTURES)) {
        free(copy);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "texture '%s': out of memory", label);
    }
    memcpy(copy, src, bytes); /* both formats are 4 bytes a texel */
    s->textures[s->texture_count] = (gn_texture){d->width, d->height, copy, (uint32_t)d->format,
                                                 d->format == GN_TEXTURE_RGBA8 && d->srgb};
    if (out_id) *out_id = s->texture_count + 1; /* public ids start at 1 (gnomon.h) */
    s->texture_count++;
    s->generation++;
    return GN_OK;
}

gn_result gn_scene_add_blocks(gn_scene *s, const gn_texture_blocks *d, uint32_t *out_id, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_blocks: NULL scene or desc");
    const char *label = d->label && d->label[0] ? d->label : "(unlabelled texture)";
    if (d->width == 0 || d->height == 0 || d->width > GN_TEXTURE_MAX_SIZE || d->height > GN_TEXTURE_MAX_SIZE)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "texture '%s': size %ux%u is outside 1..%u", label,
                       d->width, d->height, GN_TEXTURE_MAX_SIZE);
    if (d->format < GN_DDS_BC1 || d->format > GN_DDS_BC7)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "texture '%s': %u is not a block format", label,
                       d->format);
    uint32_t chain = gn_mip_levels(d->width, d->height);
    if (d->levels < 1 || d->levels > chain)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "texture '%s': %u levels, not 1..%u", label, d->levels,
                       chain);
    uint64_t bytes = 0;
    for (uint32_t l = 0; l < d->levels; l++)
        bytes += gn_dds_level_bytes((gn_dds_format)d->format, d->width >> l ? d->width >> l : 1,
                                    d->height >> l ? d->height >> l : 1);
    if (!d->data || d->size != bytes)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "texture '%s': %llu bytes of blocks, its levels take %llu", label,
                       (unsigned long long)d->size, (unsigned long long)bytes);
    for (int k = 0; d->swizzle && k < 4; k++)
        if (!d->swizzle[k] || !strchr("rgba01", d->swizzle[k]))
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                           "texture '%s': swizzle \"%.4s\" is not 4 of rgba01", label, d->swizzle);
    if (s->texture_count >= GN_SCENE_MAX_TEXTURES)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "texture '%s': scene already has %u textures", label,
                       GN_SCENE_MAX_TEXTURES);
    uint8_t *copy = gn_malloc((size_t)bytes);
    if (!copy || !gn_grow((void **)&s->textures, &s->texture_cap, (uint64_t)s->texture_count + 1,
                          sizeof *s->textures, GN_SCENE_MAX_TEXTURES)) {
        free(copy);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "texture '%s': out of memory", label);
    }
    memcpy(copy, d->data, (size_t)bytes);
    gn_texture *t = &s->textures[s->texture_count];
    *t = (gn_texture){d->width, d->height, copy, GN_TEXTURE_RGBA8, d->srgb, d->format, d->levels, {0}};
    if (d->swizzle) memcpy(t->swizzle, d->swizzle, 4);
    if (out_id) *out_id = s->texture_count + 1;
    s->texture_count++;
    s->generation++;
    return GN_OK;
}

/* A public texture id (from 1; 0: none) as the store's index (from 0; GN_NO_TEXTURE: none). */
static uint32_t gn_texture_index(uint32_t id) { return id ? id - 1 : GN_NO_TEXTURE; }

/* Checks one texture slot of a material: none, or a texture of the scene in `format`. */
static gn_result gn_check_texture_slot(const gn_scene *s, const char *label, const char *what, uint32_t id,
                                       gn_texture_format format, gn_error *err)
{
    if (!id) return GN_OK;
    const char *fmt = format == GN_TEXTURE_RGB9E5 ? "RGB9E5" : "RGBA8";
    if (id > s->texture_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "material '%s': %s texture %u does not exist (ids 1..%u; 0 is none)", label, what, id,
                       s->texture_count);
    if (s->textures[id - 1].format != (uint32_t)format)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "material '%s': %s texture %u is not %s", label, what,
                       id, fmt);
    return GN_OK;
}

/* The desc's glTF extensions into the material: the dielectric's Fresnel (gn_brdf_dielectric)
 * and each map's uv transform as the matrix the shaders apply (gn_uv_transform_matrix). */
static gn_result gn_material_extensions(const gn_material_desc *d, const char *label, gn_material *m,
                                        gn_error *err)
{
    static const float white[3] = {1, 1, 1};
    if (!d->specular_set) {
        gn_brdf_dielectric(1.5f, white, 1.0f, m->specular);
        m->specular[0] = m->specular[1] = m->specular[2] = GN_BRDF_DIELECTRIC_F0; /* exactly the default */
    } else {
        bool ok = d->specular >= 0.0f && d->specular <= 1.0f &&
                  (d->ior == 0.0f || (d->ior >= 1.0f && isfinite(d->ior)));
        for (int k = 0; k < 3; k++) ok &= d->specular_color[k] >= 0.0f && isfinite(d->specular_color[k]);
        if (!ok)
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                           "material '%s': specular %g, colour (%g, %g, %g), ior %g: want specular 0..1, a "
                           "finite colour >= 0, ior >= 1 or 0",
                           label, (double)d->specular, (double)d->specular_color[0],
                           (double)d->specular_color[1], (double)d->specular_color[2], (double)d->ior);
        gn_brdf_dielectric(d->ior, d->specular_color, d->specular, m->specular);
    }
    for (int k = 0; k < GN_MATERIAL_MAPS; k++) {
        const gn_uv_transform *t = &d->uv_transform[k];
        float scale[2] = {t->scale[0], t->scale[1]};
        if (scale[0] == 0.0f && scale[1] == 0.0f) scale[0] = scale[1] = 1.0f;
        bool ok = isfinite(t->offset[0]) && isfinite(t->offset[1]) && isfinite(t->rotation) &&
                  isfinite(scale[0]) && isfinite(scale[1]);
        if (!ok || t->uv_set > 1)
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                           "material '%s': map %d's uv transform is not finite or names uv set %u (0 or 1)",
                           label, k, t->uv_set);
        gn_uv_transform_matrix(t->offset, t->rotation, scale, m->uv_transform[k]);
        m->uv_set[k] = t->uv_set;
    }
    return GN_OK;
}

gn_result gn_scene_add_material(gn_scene *s, const gn_material_desc *d, uint32_t *out_id, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_material: NULL scene or desc");
    const char *label = d->label && d->label[0] ? d->label : "(unlabelled material)";
    /* every byte set, the padding after night_emissive too: scenes are compared and hashed as
       bytes (scene_alloc_faults), and an initialiser leaves padding to the compiler */
    gn_material m;
    memset(&m, 0, sizeof m);
    m.q3 = GN_NO_Q3;
    memcpy(m.base_color, d->base_color, sizeof m.base_color);
    if (!m.base_color[0] && !m.base_color[1] && !m.base_color[2] && !m.base_color[3])
        m.base_color[0] = m.base_color[1] = m.base_color[2] = 0.8f, m.base_color[3] = 1.0f;
    m.metallic = d->metallic;
    m.roughness = d->roughness == 0.0f ? 0.5f : d->roughness;
    memcpy(m.emissive, d->emissive, sizeof m.emissive);
    m.night_emissive = d->night_emissive;
    m.sort = d->sort;
    if (!(m.sort >= 0.0f && m.sort <= 1e6f))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "material '%s': sort %g is outside 0..1e6", label,
                       (double)m.sort);
    if (d->double_sided)
        m.state = GN_STATE_PACK(0, 0, GN_STATE_RASTER(GN_CULL_TWO_SIDED, 0) | GN_STATE_OVERRIDE, 0);
    for (int k = 0; k < 4; k++)
        if (!(m.base_color[k] >= 0.0f && m.base_color[k] <= 1.0f))
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                           "material '%s': base_color[%d] = %g is outside 0..1", label, k,
                           (double)m.base_color[k]);
    if (!(m.metallic >= 0.0f && m.metallic <= 1.0f) || !(m.roughness >= 0.0f && m.roughness <= 1.0f))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "material '%s': metallic %g / roughness %g outside 0..1", label, (double)m.metallic,
                       (double)m.roughness);
    for (int k = 0; k < 3; k++)
        if (!(m.emissive[k] >= 0.0f) || !isfinite(m.emissive[k]))
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                           "material '%s': emissive[%d] = %g is not finite and >= 0", label, k,
                           (double)m.emissive[k]);
    if (d->alpha_mode != GN_ALPHA_OPAQUE && d->alpha_mode != GN_ALPHA_MASK && d->alpha_mode != GN_ALPHA_BLEND)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "material '%s': unknown alpha mode %d", label,
                       (int)d->alpha_mode);
    m.alpha_mode = (uint32_t)d->alpha_mode;
    m.alpha_cutoff = d->alpha_cutoff == 0.0f ? 0.5f : d->alpha_cutoff;
    if (!(m.alpha_cutoff >= 0.0f && m.alpha_cutoff <= 1.0f))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "material '%s': alpha cutoff %g is outside 0..1",
                       label, (double)m.alpha_cutoff);
    const struct {
        uint32_t id, *slot;
        const char *what;
        gn_texture_format format;
    } slots[] = {{d->base_color_texture, &m.base_color_texture, "base colour", GN_TEXTURE_RGBA8},
                 {d->normal_texture, &m.normal_texture, "normal", GN_TEXTURE_RGBA8},
                 {d->lightmap_texture, &m.lightmap_texture, "lightmap", GN_TEXTURE_RGB9E5},
                 {d->metallic_roughness_texture, &m.metallic_roughness_texture, "metallic-roughness",
                  GN_TEXTURE_RGBA8},
                 {d->occlusion_texture, &m.occlusion_texture, "occlusion", GN_TEXTURE_RGBA8},
                 {d->emissive_texture, &m.emissive_texture, "emissive", GN_TEXTURE_RGBA8},
                 {d->specular_texture, &m.specular_texture, "specular", GN_TEXTURE_RGBA8},
                 {d->specular_color_texture, &m.specular_color_texture, "specular colour", GN_TEXTURE_RGBA8}};
    for (size_t k = 0; k < sizeof slots / sizeof slots[0]; k++) {
        gn_result r = gn_check_texture_slot(s, label, slots[k].what, slots[k].id, slots[k].format, err);
        if (r != GN_OK) return r;
        *slots[k].slot = gn_texture_index(slots[k].id);
    }
    gn_result r = gn_material_extensions(d, label, &m, err);
    if (r != GN_OK) return r;
    if (s->material_count >= GN_SCENE_MAX_MATERIALS)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "material '%s': scene already has %u materials", label,
                       GN_SCENE_MAX_MATERIALS);
    if (!gn_grow((void **)&s->materials, &s->material_cap, (uint64_t)s->material_count + 1,
                 sizeof *s->materials, GN_SCENE_MAX_MATERIALS))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "material '%s': out of memory", label);
    memcpy(&s->materials[s->material_count], &m, sizeof m); /* the padding's zeros too */
    if (out_id) *out_id = s->material_count;
    s->material_count++;
    s->generation++;
    return GN_OK;
}

/* ---- instances ------------------------------------------------------------------------- */

static gn_result gn_check_transform(const float t[16], uint32_t instance, gn_error *err)
{
    if (!gn_finite_n(t, 16))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "instance %u: transform is not finite", instance);
    if (t[3] != 0.0f || t[7] != 0.0f || t[11] != 0.0f || t[15] != 1.0f)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "instance %u: transform's last row is (%g %g %g %g), not (0 0 0 1)", instance,
                       (double)t[3], (double)t[7], (double)t[11], (double)t[15]);
    return GN_OK;
}

/* An instance's light from the world's grid, unless its material has a lightmap (then, as
 * without a world, its grid light is zero). */
static void gn_scene_world_light(gn_scene *s, uint32_t i)
{
    gn_instance *in = &s->instances[i];
    memset(in->grid_light, 0, sizeof in->grid_light);
    if (!s->world || s->materials[in->material].lightmap_texture != GN_NO_TEXTURE) return;
    gn_world_grid_light(s->world, in->sphere, in->grid_light);
}

/* The bounding sphere of mesh m under transform t. */
static void gn_instance_sphere(const gn_mesh *m, const float t[16], float out[4])
{
    float scale2 = 0;
    for (int col = 0; col < 3; col++) {
        const float *a = &t[col * 4];
        scale2 = fmaxf(scale2, a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    }
    gn_mat4_point(t, m->center, out);
    out[3] = m->radius * sqrtf(scale2);
}

/* Refuses a transform that puts the instance's bounds beyond the cap (or overflows them). */
static gn_result gn_check_bounds(const gn_mesh *m, const float t[16], uint32_t instance, gn_error *err)
{
    float sp[4];
    gn_instance_sphere(m, t, sp);
    const float cap = 4.0f * GN_SCENE_MAX_EXTENT;
    bool ok = gn_finite_n(sp, 4);
    for (int k = 0; k < 3 && ok; k++) ok = fabsf(sp[k]) + sp[3] <= cap;
    if (ok) return GN_OK;
    return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                   "instance %u: transform puts its bounds (centre %g %g %g, radius %g) beyond %g m from "
                   "the origin (the scene's cap)",
                   instance, (double)sp[0], (double)sp[1], (double)sp[2], (double)sp[3], (double)cap);
}

void gn_scene_update_sphere(gn_scene *s, uint32_t instance)
{
    gn_instance *in = &s->instances[instance];
    gn_instance_sphere(&s->meshes[in->mesh], in->transform, in->sphere);
    if (s->world) gn_scene_world_light(s, instance); /* it moved: its light from the grid follows */
}

void gn_scene_set_instance_sphere(gn_scene *s, uint32_t instance, const float sphere[4])
{
    memcpy(s->instances[instance].sphere, sphere, 4 * sizeof *sphere);
    if (s->world) gn_scene_world_light(s, instance);
}

void gn_scene_set_world(gn_scene *s, gn_world *w)
{
    gn_world_free(s->world);
    s->world = w;
    for (uint32_t i = 0; w && i < s->instance_count; i++) gn_scene_world_light(s, i);
}

gn_result gn_scene_add_instance(gn_scene *s, const gn_instance_desc *d, uint32_t *out_id, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_instance: NULL scene or desc");
    uint32_t id = s->instance_count;
    if (d->mesh >= s->mesh_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "instance %u: mesh %u does not exist (%u meshes)", id,
                       d->mesh, s->mesh_count);
    if (d->material >= s->material_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "instance %u: material %u does not exist (%u materials)", id, d->material,
                       s->material_count);
    if (d->flags & ~(uint32_t)GN_INSTANCE_DYNAMIC)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "instance %u: unknown flags 0x%x", id, d->flags);
    float t[16];
    memcpy(t, d->transform, sizeof t);
    bool zero = true;
    for (int k = 0; k < 16; k++) zero = zero && t[k] == 0.0f;
    if (zero) t[0] = t[5] = t[10] = t[15] = 1.0f;
    gn_result r = gn_check_transform(t, id, err);
    if (r == GN_OK) r = gn_check_bounds(&s->meshes[d->mesh], t, id, err);
    if (r != GN_OK) return r;
    if (id >= GN_SCENE_MAX_INSTANCES)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "instance %u: scene already has %u instances", id,
                       GN_SCENE_MAX_INSTANCES);
    if (!gn_grow((void **)&s->instances, &s->instance_cap, (uint64_t)id + 1, sizeof *s->instances,
                 GN_SCENE_MAX_INSTANCES))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "instance %u: out of memory", id);
    gn_instance *in = &s->instances[id];
    *in = (gn_instance){0};
    memcpy(in->transform, t, sizeof t);
    in->mesh = d->mesh, in->material = d->material, in->flags = d->flags;
    s->instance_count++;
    gn_scene_update_sphere(s, id);
    if (out_id) *out_id = id;
    s->generation++;
    return GN_OK;
}

/* A static instance moved or removed: its bounds before and after, for the caches that hold
 * static content (scene.h, gn_scene.edits). */
static void gn_scene_log_edit(gn_scene *s, uint32_t instance, const float before[4], const float after[4])
{
    struct gn_scene_edit *e = &s->edits[s->edit_count % GN_SCENE_EDITS];
    e->instance = instance;
    memcpy(e->before, before, sizeof e->before);
    memcpy(e->after, after, sizeof e->after);
    s->edit_count++;
}

gn_result gn_scene_set_transform(gn_scene *s, uint32_t instance, const float transform[16], gn_error *err)
{
    if (!s || !transform)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_set_transform: NULL scene or transform");
    if (instance >= s->instance_count || (s->instances[instance].flags & GN_INSTANCE_REMOVED))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "instance %u does not exist (%u instances, removed ones gone)", instance,
                       s->instance_count);
    gn_result r = gn_check_transform(transform, instance, err);
    if (r == GN_OK) r = gn_check_bounds(&s->meshes[s->instances[instance].mesh], transform, instance, err);
    if (r != GN_OK) return r;
    gn_instance *in = &s->instances[instance];
    float before[4];
    memcpy(before, in->sphere, sizeof before);
    memcpy(in->transform, transform, 16 * sizeof(float));
    gn_scene_update_sphere(s, instance);
    if (in->flags & GN_INSTANCE_DYNAMIC)
        s->dynamic_generation++;
    else
        gn_scene_log_edit(s, instance, before, in->sphere);
    return GN_OK;
}

gn_result gn_scene_remove_instance(gn_scene *s, uint32_t instance, gn_error *err)
{
    if (!s) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_remove_instance: NULL scene");
    if (instance >= s->instance_count || (s->instances[instance].flags & GN_INSTANCE_REMOVED))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "instance %u does not exist (%u instances, removed ones gone)", instance,
                       s->instance_count);
    gn_instance *in = &s->instances[instance];
    in->flags |= GN_INSTANCE_REMOVED; /* ids stay stable: the slot stays, drawn by nobody */
    static const float none[4] = {0};
    if (in->flags & GN_INSTANCE_DYNAMIC) s->dynamic_generation++;
    /* logged for dynamic ones too: the caster lists that name it are rebuilt */
    gn_scene_log_edit(s, instance, in->sphere, none);
    return GN_OK;
}

gn_result gn_scene_add_orbit(gn_scene *s, const gn_orbit *o, gn_error *err)
{
    if (!s || !o) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_orbit: NULL scene or orbit");
    if (o->instance >= s->instance_count || !(s->instances[o->instance].flags & GN_INSTANCE_DYNAMIC))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "orbit: instance %u is not a dynamic instance",
                       o->instance);
    if (!gn_finite_n(o->center, 3) || !isfinite(o->radius) || !isfinite(o->speed) || !isfinite(o->phase) ||
        !isfinite(o->bob))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "orbit of instance %u: a value is not finite",
                       o->instance);
    if (!gn_grow((void **)&s->orbits, &s->orbit_cap, (uint64_t)s->orbit_count + 1, sizeof *s->orbits,
                 GN_SCENE_MAX_INSTANCES))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "orbit of instance %u: out of memory", o->instance);
    s->orbits[s->orbit_count++] = *o;
    return GN_OK;
}

void gn_scene_animate(gn_scene *s, double seconds)
{
    if (!s) return;
    for (uint32_t i = 0; i < s->orbit_count; i++) {
        const gn_orbit *o = &s->orbits[i];
        gn_instance *in = &s->instances[o->instance];
        /* Angles in double: float loses the fraction of speed * t after a few hours. */
        double a = o->phase + o->speed * seconds;
        float c = (float)cos(a), sn = (float)sin(a);
        float dir = o->speed < 0 ? -1.0f : 1.0f;
        /* Travel direction is d/da of the circle; local +X is an orbiter's forward. */
        float fx = -sn * dir, fz = c * dir;
        float sc[3];
        for (int col = 0; col < 3; col++) {
            const float *a3 = &in->transform[col * 4];
            sc[col] = sqrtf(a3[0] * a3[0] + a3[1] * a3[1] + a3[2] * a3[2]);
        }
        float *t = in->transform;
        float x[3] = {fx, 0, fz}, y[3] = {0, 1, 0}, z[3] = {-fz, 0, fx};
        for (int k = 0; k < 3; k++) {
            t[k] = x[k] * sc[0], t[4 + k] = y[k] * sc[1], t[8 + k] = z[k] * sc[2];
        }
        t[3] = t[7] = t[11] = 0.0f, t[15] = 1.0f;
        t[12] = o->center[0] + o->radius * c;
        t[13] = o->center[1] + o->bob * (float)sin(0.9 * seconds + 3.0 * o->phase);
        t[14] = o->center[2] + o->radius * sn;
        gn_scene_update_sphere(s, o->instance);
    }
    if (s->orbit_count) s->dynamic_generation++;
    gn_scene_animate_rigs(s, seconds);
    /* After the instances: lights attached to them follow in the same frame. */
    gn_scene_animate_lights(s, seconds);
}

/* ---- undo ------------------------------------------------------------------------------ */

gn_scene_mark gn_scene_mark_now(const gn_scene *s)
{
    return (gn_scene_mark){s->vertex_count,  s->index_count,    s->mesh_count, s->material_count,
                           s->texture_count, s->instance_count, s->generation};
}

void gn_scene_rollback(gn_scene *s, const gn_scene_mark *k)
{
    for (uint32_t i = k->textures; i < s->texture_count; i++) free(s->textures[i].texels);
    s->vertex_count = k->vertices, s->index_count = k->indices, s->mesh_count = k->meshes;
    s->material_count = k->materials, s->texture_count = k->textures, s->instance_count = k->instances;
    s->generation = k->generation + 1; /* anything uploaded in between is stale */
}

/* ---- summary --------------------------------------------------------------------------- */

void gn_scene_get_info(const gn_scene *s, gn_scene_info *out)
{
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!s) return;
    out->meshes = s->mesh_count, out->materials = s->material_count;
    out->textures = s->texture_count, out->instances = s->instance_count;
    for (uint32_t i = 0; i < s->mesh_count; i++) out->unique_triangles += s->meshes[i].index_count / 3;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const gn_instance *in = &s->instances[i];
        const gn_mesh *m = &s->meshes[in->mesh];
        out->triangles += m->index_count / 3;
        if (in->flags & GN_INSTANCE_DYNAMIC) out->dynamic_instances++;
        /* World box of the mesh box: centre moved, half extents through |M|. */
        const float *t = in->transform;
        for (int k = 0; k < 3; k++) {
            float c = t[12 + k], e = 0;
            for (int j = 0; j < 3; j++) {
                float mc = 0.5f * (m->aabb_min[j] + m->aabb_max[j]);
                float me = 0.5f * (m->aabb_max[j] - m->aabb_min[j]);
                c += t[j * 4 + k] * mc;
                e += fabsf(t[j * 4 + k]) * me;
            }
            lo[k] = fminf(lo[k], c - e);
            hi[k] = fmaxf(hi[k], c + e);
        }
    }
    if (s->instance_count) {
        memcpy(out->bounds_min, lo, sizeof lo);
        memcpy(out->bounds_max, hi, sizeof hi);
    }
    memcpy(out->default_camera, s->default_camera, sizeof out->default_camera);
    out->default_fov_y = s->default_fov_y;
    for (uint32_t v = 0; v < 3; v++) {
        bool set = false;
        for (int k = 0; k < 5; k++) set |= s->viewpoints[v][k] != 0.0f;
        if (set) memcpy(out->viewpoints[out->viewpoint_count++], s->viewpoints[v], sizeof s->viewpoints[v]);
    }
}

gn_result gn_scene_get_mesh(const gn_scene *s, uint32_t mesh, gn_mesh_view *out, gn_error *err)
{
    if (!s || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_get_mesh: arguments are required");
    if (mesh >= s->mesh_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "mesh %u out of range (%u meshes)", mesh,
                       s->mesh_count);
    const gn_mesh *m = &s->meshes[mesh];
    *out = (gn_mesh_view){
        .positions = s->vertices[m->first_vertex].pos,
        .stride = sizeof(gn_vertex),
        .vertex_count = m->vertex_count,
        .indices = &s->indices[m->first_index],
        .index_count = m->index_count,
    };
    return GN_OK;
}

gn_result gn_scene_get_instance(const gn_scene *s, uint32_t instance, gn_instance_desc *out, gn_error *err)
{
    if (!s || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_get_instance: arguments are required");
    if (instance >= s->instance_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "instance %u out of range (%u instances)", instance,
                       s->instance_count);
    const gn_instance *in = &s->instances[instance];
    *out = (gn_instance_desc){.mesh = in->mesh, .material = in->material, .flags = in->flags};
    memcpy(out->transform, in->transform, sizeof out->transform);
    return GN_OK;
}

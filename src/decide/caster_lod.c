/* Shadow casters' level of detail (meshoptimizer's simplifier); see caster_lod.h. */
#include "decide/caster_lod.h"

#include "base/alloc.h"
#include "base/array.h"

#include <math.h>
#include <meshoptimizer.h>
#include <stdlib.h>
#include <string.h>

void gn_caster_lods_free(gn_caster_lods *l)
{
    free(l->meshes), free(l->indices);
    memset(l, 0, sizeof *l);
}

float gn_caster_lod_scale(const float t[16])
{
    float most = 0.0f;
    for (int col = 0; col < 3; col++) {
        float l = t[col * 4] * t[col * 4] + t[col * 4 + 1] * t[col * 4 + 1] + t[col * 4 + 2] * t[col * 4 + 2];
        most = l > most ? l : most;
    }
    return sqrtf(most);
}

bool gn_caster_lod_fits(float world_error, float texel) { return world_error <= texel; }

gn_result gn_caster_lods_build(const gn_meshlet_mesh *meshes, const bool *want, uint32_t mesh_count,
                               uint32_t min_triangles, uint32_t index_base, gn_caster_lods *out,
                               gn_error *err)
{
    memset(out, 0, sizeof *out);
    out->meshes = gn_calloc(mesh_count ? mesh_count : 1, sizeof *out->meshes);
    if (!out->meshes)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u meshes' LODs", mesh_count);
    out->mesh_count = mesh_count;
    uint32_t cap = 0, scratch_cap = 0;
    unsigned *shadow = NULL;
    gn_result res = GN_OK;
    for (uint32_t i = 0; i < mesh_count && !res; i++) {
        const gn_meshlet_mesh *m = &meshes[i];
        if (!want[i] || m->index_count / 3 < min_triangles || m->index_count % 3) continue;
        /* room for the position-only indices and, after them in out->indices, the copy */
        if (!gn_grow((void **)&shadow, &scratch_cap, m->index_count, sizeof *shadow, UINT32_MAX) ||
            !gn_grow((void **)&out->indices, &cap, (uint64_t)out->index_count + m->index_count,
                     sizeof *out->indices, UINT32_MAX - index_base)) {
            res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for the LOD of a mesh of %u triangles",
                          m->index_count / 3);
            break;
        }
        meshopt_generateShadowIndexBuffer(shadow, m->indices, m->index_count, m->positions, m->vertex_count,
                                          3 * sizeof(float), m->stride);
        size_t target = (size_t)(m->index_count / 3 * GN_LOD_TARGET_SHARE) * 3;
        float error = 0.0f;
        size_t n = meshopt_simplify(out->indices + out->index_count, shadow, m->index_count, m->positions,
                                    m->vertex_count, m->stride, target, GN_LOD_TARGET_ERROR, 0, &error);
        if (n == 0 || n > m->index_count * GN_LOD_MAX_SHARE) continue; /* not worth a copy */
        out->meshes[i] =
            (gn_caster_lod){index_base + out->index_count, (uint32_t)n,
                            error * meshopt_simplifyScale(m->positions, m->vertex_count, m->stride)};
        out->index_count += (uint32_t)n;
    }
    free(shadow);
    if (res) gn_caster_lods_free(out);
    return res;
}

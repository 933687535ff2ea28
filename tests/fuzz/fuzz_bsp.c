/* libFuzzer target: arbitrary bytes through gn_bsp_parse and, when they parse, through
 * gn_bsp_triangulate, the entity reader, the visibility walk, the lightmap atlas, the light
 * grid, the light entities and the fog volumes (each fog's brush sides, as scene/bsp_fog.c reads
 * them). Whatever the bytes, the
 * result must be GN_OK or a clean GN_ERROR_BAD_DATA, never a crash or a sanitizer report.
 * Built only with GN_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt). Seed corpus: the files
 * unit_bsp_corpus writes into <build>/tests/unit/bsp_corpus. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "decide/bsp_vis.h"
#include "decide/q3_fog.h"
#include "formats/bsp.h"
#include "formats/bsp_light.h"
#include "scene/bsp_atlas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every fog's brush as a volume (its indices were checked by the parser: reading them must stay in
 * bounds), and a ray through it. */
static void fog_volumes(const gn_bsp *b)
{
    for (uint32_t i = 0; i < b->fog_count; i++) {
        const gn_bsp_brush *br = &b->brushes[b->fogs[i].brush];
        float sides[GN_Q3_FOG_MAX_SIDES][4];
        uint32_t n = br->side_count < GN_Q3_FOG_MAX_SIDES ? br->side_count : GN_Q3_FOG_MAX_SIDES;
        for (uint32_t k = 0; k < n; k++) {
            const gn_bsp_plane *p = &b->planes[b->brushsides[br->first_side + k].plane];
            sides[k][0] = p->normal[0], sides[k][1] = p->normal[1], sides[k][2] = p->normal[2],
            sides[k][3] = p->dist;
        }
        gn_q3_fog_desc d = {
            .sides = (const float(*)[4])sides, .side_count = n, .color = {1, 1, 1}, .opaque_units = 64};
        gn_q3_fog_volume v;
        char why[128];
        if (!gn_q3_fog_volume_make(&d, &v, why, sizeof why)) continue;
        float eye[3] = {v.box_min[0] - 1, v.box_min[1] - 1, v.box_min[2] - 1};
        (void)gn_q3_fog_factor(&v, eye, v.box_max);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Small caps keep each run fast; the checks are the same at any cap. */
    gn_bsp_limits lim = {.vertices = 1u << 16,
                         .faces = 1u << 14,
                         .mesh_vertices = 1u << 18,
                         .mesh_indices = 1u << 20,
                         .lightmaps = 16};
    gn_bsp b;
    gn_error err;
    if (gn_bsp_parse(data, size, "fuzz.bsp", &lim, &b, &err) != GN_OK) return 0;
    gn_bsp_entity e;
    for (uint32_t i = 0; i < 4 && gn_bsp_entity_find(&b, NULL, i, &e); i++) {
    }
    float pos[3] = {0}, yaw;
    gn_bsp_default_camera(&b, pos, &yaw);
    gn_bsp_atlas atlas;
    if (gn_bsp_lightmap_atlas(&b, &atlas, &err) == GN_OK && atlas.count) {
        float uv[2], lm[2] = {0.5f, 2.0f};
        gn_bsp_lightmap_uv(&atlas, atlas.count - 1, lm, uv);
    }
    gn_bsp_atlas_free(&atlas);
    float amb[3], dl[3], dir[3];
    gn_bsp_light_grid_sample(&b, pos, amb, dl, dir);
    if (b.model_count) {
        gn_bsp_light_grid_sample(&b, b.models[0].mins, amb, dl, dir);
        gn_bsp_light_grid_sample(&b, b.models[0].maxs, amb, dl, dir);
    }
    gn_light_desc lights[8];
    uint32_t total;
    gn_bsp_light_entities(&b, 1.0f, lights, 8, &total);
    fog_volumes(&b);
    gn_bsp_mesh m;
    gn_bsp_triangulate_desc d = {.patch_level = 2, .limits = &lim};
    if (gn_bsp_triangulate(&b, &d, &m, &err) == GN_OK) {
        gn_bsp_vis v;
        if (gn_bsp_vis_create(&b, &m, &v, &err) == GN_OK && b.face_count) {
            uint32_t *faces = malloc(b.face_count * sizeof *faces);
            uint32_t *seen = malloc(GN_BSP_VIS_SEEN_WORDS(b.face_count) * sizeof *seen);
            gn_bsp_vis_result r = {.faces = faces, .seen = seen};
            if (faces && seen) gn_bsp_visible_faces(&v, pos, NULL, true, &r);
            free(faces);
            free(seen);
        }
        gn_bsp_vis_destroy(&v);
        gn_bsp_mesh_free(&m);
    }
    gn_bsp_free(&b);
    return 0;
}

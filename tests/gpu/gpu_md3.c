/* A Quake 3 player on the GPU (src/scene/md3_model.c through the skin pass): OpenArena's sarge
 * alone on a ground box, one rig playing "walk", rendered at 256x256 with the sun's cascades from a
 * three-quarter front view at 0.0 s and 0.33 s of the clip (lower.md3's frame 98, then 105 and 104
 * at 0.6 and 0.4), each frame held to its golden image (exact on lavapipe). After each frame the
 * rig's morphed vertices are read back and compared with the CPU's morph of the same frame pair
 * (gn_skin_vertex over the rig's active targets, 2e-5 m), every posed vertex must lie inside its
 * instance's bounding sphere, the two frames must differ (the legs moved) and the run must be
 * validation-clean. Skipped (77) where OpenArena's archives are absent. */
#include "formats/pak.h"
#include "gpu_util.h"
#include "renderer.h"
#include "scene/md3_model.h"
#include "scene/rig.h"
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256
#define PAKS "/usr/share/games/openarena/baseoa"

static gn_frame_desc frame(double seconds)
{
    /* a three-quarter front view: the model faces +Z, the camera stands at +Z a little to +X */
    gn_frame_desc f = gt_sunny_csm(
        (gn_camera){
            .position = {0.9f, 0.95f, 2.5f}, .yaw = 19.8f, .pitch = -8, .fov_y = 45, .near_plane = 0.05f},
        10.0f);
    f.seconds = seconds;
    return f;
}

/* The rig's vertices on the GPU against the CPU's morph of the same pose: the largest position
 * difference; *outside counts posed vertices outside their instance's sphere. */
static float compare(gn_renderer *r, gn_scene *s, uint32_t *outside)
{
    gn_error err = {0};
    size_t bytes = (size_t)s->vertex_count * sizeof(gn_vertex);
    gn_vertex *gpu = malloc(bytes);
    CHECK(gpu && gn_vk_wait_idle(&r->vk, &err) == GN_OK &&
              gn_vk_read_buffer(&r->vk, &r->scene.vertices, gpu, bytes, "vertices", &err) == GN_OK,
          "vertex readback: %s", err.message);
    const gn_scene_rig *rig = &s->rigs[0];
    const gn_anim_model *m = &s->anims[rig->model].model;
    float worst = 0;
    for (uint32_t p = 0; p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        const gn_vertex *bind = &s->vertices[s->meshes[part->mesh].first_vertex];
        const gn_vertex *out = &gpu[s->meshes[rig->mesh[p]].first_vertex];
        const gn_instance *in = &s->instances[rig->first_instance + p];
        for (uint32_t v = 0; v < part->vertex_count; v++) {
            float cp[3] = {bind[v].pos[0], bind[v].pos[1], bind[v].pos[2]}, cn[3], ct[4];
            if (part->morph >= 0)
                gn_skin_vertex(bind[v].pos, bind[v].normal, bind[v].tangent, v, &m->morphs[part->morph],
                               &rig->morph_targets[p * GN_MORPH_MAX_ACTIVE],
                               &rig->morph_weights[p * GN_MORPH_MAX_ACTIVE], rig->morph_active[p], NULL,
                               GN_SKIN_LINEAR, rig->palette, cp, cn, ct);
            for (int i = 0; i < 3; i++) worst = fmaxf(worst, fabsf(cp[i] - out[v].pos[i]));
            const float *t = in->transform;
            float d2 = 0;
            for (int i = 0; i < 3; i++) {
                float w =
                    t[i] * out[v].pos[0] + t[4 + i] * out[v].pos[1] + t[8 + i] * out[v].pos[2] + t[12 + i];
                d2 += (w - in->sphere[i]) * (w - in->sphere[i]);
            }
            *outside += sqrtf(d2) > in->sphere[3] * 1.0001f;
        }
    }
    free(gpu);
    return worst;
}

int main(void)
{
    gn_pak *pak = NULL;
    gn_error err = {0};
    FILE *probe = fopen(PAKS "/pak0.pk3", "rb");
    if (!probe || gn_pak_open(PAKS, &pak, &err) != GN_OK) {
        if (probe) fclose(probe);
        printf("gpu_md3: skipped, %s not installed (Debian openarena-data)\n", PAKS);
        return 77;
    }
    fclose(probe);
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    gn_material_desc gd = {.base_color = {0.45f, 0.45f, 0.42f, 1}, .roughness = 0.9f, .label = "ground"};
    uint32_t ground_mat = 0, model = 0;
    gn_scene_add_material(s, &gd, &ground_mat, NULL);
    gn_instance_desc ground = {.mesh = gt_add_box(s, 3, 0.05f, 3), .material = ground_mat};
    ground.transform[0] = ground.transform[5] = ground.transform[10] = ground.transform[15] = 1;
    ground.transform[13] = -0.05f;
    gn_scene_add_instance(s, &ground, NULL, NULL);
    gn_anim_model m;
    CHECK(gn_md3_player_model(s, pak, "models/players/sarge", "default", &m, &err) == GN_OK, "sarge: %s",
          err.message);
    gn_pak_close(pak);
    CHECK(gn_scene_add_anim_model(s, &m, &model, &err) == GN_OK, "sarge refused: %s", err.message);
    gn_rig_desc rd = {.clip = gn_scene_anim_clip(s, model, "walk")};
    rd.transform[0] = rd.transform[5] = rd.transform[10] = rd.transform[15] = 1;
    CHECK(rd.clip >= 0 && gn_scene_add_rig(s, model, &rd, NULL, &err) == GN_OK, "rig refused: %s",
          err.message);
    if (gn_check_failures) return 1;

    gn_renderer *r = gt_renderer(W, H, 1);
    uint8_t *px[2];
    const double times[2] = {0.0, 0.33};
    const char *goldens[2] = {"md3_sarge_walk_t0", "md3_sarge_walk_t033"};
    for (int k = 0; k < 2; k++) {
        gn_frame_desc f = frame(times[k]);
        px[k] = gt_render(r, s, &f);
        GT_CHECK_VALIDATION(r, "rendering sarge");
        CHECK(gt_golden(r, goldens[k], px[k], W, H), "%s differs from its golden image", goldens[k]);
        uint32_t outside = 0;
        float worst = compare(r, s, &outside);
        const gn_scene_rig *rig = &s->rigs[0];
        char legs[96] = "";
        for (uint32_t a = 0; a < rig->morph_active[0]; a++) {
            size_t n = strlen(legs);
            snprintf(legs + n, sizeof legs - n, "%s%u at %.2f", a ? ", " : "", rig->morph_targets[a],
                     (double)rig->morph_weights[a]);
        }
        printf("t = %.2f s: lower.md3 frames %s; GPU - CPU morph %.3g m; %u vertices outside their sphere\n",
               times[k], legs, (double)worst, outside);
        CHECK(worst <= 2e-5f, "GPU morph off the CPU's by %g m", (double)worst);
        CHECK(outside == 0, "%u posed vertices outside their instance's bounds", outside);
    }
    size_t differ = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i++) differ += px[0][i] != px[1][i];
    printf("the frames differ in %zu bytes\n", differ);
    CHECK(differ > 1000, "sarge did not move between 0.0 s and 0.33 s of walk");
    free(px[0]);
    free(px[1]);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    printf("gpu_md3: %s\n", gn_check_failures ? "FAILED" : "ok");
    return gn_check_failures ? 1 : 0;
}

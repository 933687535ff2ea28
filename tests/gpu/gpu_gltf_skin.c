/* Animated glTF files through gn_scene_load on the GPU (issue 19's goldens): assimp-testmodels'
 * simple_skin (a strip bent by two joints, its one clip) at 1.0 s and 3.0 s of the clip, once by
 * linear blending and once by dual quaternions at 3.0 s, and AnimatedMorphCube (two morph targets,
 * its "Square" clip's weights) at 3.0 s, each with the default camera that frames the posed model,
 * at 160x120 with the sun's cascades. Every frame is held to its golden image (exact on lavapipe),
 * the two simple_skin times must differ (the strip bends), the two skinning modes must agree nearly
 * everywhere (at this bend and size they part by under a pixel: unit_skin measures how they differ),
 * and every frame must be validation-clean. The load's `time_in_clip` is the pose time at scene time
 * 0. Skipped (77) without the assimp-testmodels package. */
#include "gpu_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 160
#define H 120
#define MODELS "/usr/share/assimp/models/glTF2/"

static uint8_t *render(const char *file, float t, gn_skinning mode)
{
    gn_load_desc ld = {.path = file, .time_in_clip = t, .skinning = mode};
    gn_scene *s = NULL;
    gn_error err = {0};
    CHECK(gn_scene_load(&ld, &s, &err) == GN_OK, "%s: %s", file, err.message);
    if (!s) exit(1);
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    gn_frame_desc f = gt_sunny_csm(
        (gn_camera){.position = {info.default_camera[0], info.default_camera[1], info.default_camera[2]},
                    .yaw = info.default_camera[3],
                    .pitch = info.default_camera[4],
                    .fov_y = 60,
                    .near_plane = 0.01f},
        10.0f);
    gn_renderer *r = gt_renderer(W, H, 1);
    uint8_t *px = gt_render(r, s, &f);
    GT_CHECK_VALIDATION(r, file);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return px;
}

static size_t differing(const uint8_t *a, const uint8_t *b)
{
    size_t n = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) n += memcmp(a + i * 4, b + i * 4, 3) != 0;
    return n;
}

int main(void)
{
    if (access(MODELS "simple_skin/simple_skin.gltf", R_OK) != 0) {
        printf("gpu_gltf_skin: skipped (no assimp-testmodels in /usr/share/assimp/models)\n");
        return 77;
    }
    const char *skin = MODELS "simple_skin/simple_skin.gltf";
    const char *morph = MODELS "glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf";
    uint8_t *a = render(skin, 1.0f, GN_SKINNING_LINEAR), *b = render(skin, 3.0f, GN_SKINNING_LINEAR);
    uint8_t *dq = render(skin, 3.0f, GN_SKINNING_DUAL_QUAT), *m = render(morph, 3.0f, GN_SKINNING_LINEAR);
    gn_renderer *r = gt_renderer(W, H, 1); /* for gt_golden's device check */
    CHECK(gt_golden(r, "gltf_simple_skin_t1", a, W, H), "simple_skin at 1 s differs from its golden image");
    CHECK(gt_golden(r, "gltf_simple_skin_t3", b, W, H), "simple_skin at 3 s differs from its golden image");
    CHECK(gt_golden(r, "gltf_simple_skin_t3_dq", dq, W, H), "simple_skin by dual quaternions differs");
    CHECK(gt_golden(r, "gltf_morph_cube_t3", m, W, H), "AnimatedMorphCube at 3 s differs from its golden");
    gn_renderer_destroy(r);
    size_t moved = differing(a, b), modes = differing(b, dq);
    printf("simple_skin: %zu pixels differ between 1 s and 3 s; %zu between linear and dual quaternions at 3 "
           "s\n",
           moved, modes);
    CHECK(moved > 200, "the strip did not bend between 1 s and 3 s (%zu pixels)", moved);
    /* the modes part by a fraction of a pixel at this bend and size (unit_skin measures them apart) */
    CHECK(modes < moved, "the skinning modes should agree nearly everywhere (%zu pixels differ)", modes);
    free(a), free(b), free(dq), free(m);
    printf("gpu_gltf_skin: %s\n", gn_check_failures ? "FAILED" : "ok");
    return gn_check_failures ? 1 : 0;
}

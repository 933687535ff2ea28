/* libFuzzer target: arbitrary bytes through the animated model loader from memory
 * (gn_skinned_load_memory): the format found from the head, its narrow check (IQM's every offset,
 * glTF's whole validation), assimp's import, the meshes into a scene and the gn_anim_model built
 * and checked. A model that loads is then posed as a rig would pose it (each clip sampled at its
 * start, middle and end, node worlds, both palettes), so a model the check lets through must be
 * usable. Whatever the bytes, GN_OK or a clean error, never a crash or a sanitizer report. Seeds:
 * the skinned and animated samples of assimp-testmodels (scripts/fuzz.sh). */
#include "decide/skin.h"
#include "formats/skinned.h"

#include <assimp/cimport.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void gn_fuzz_quiet(gn_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

/* Every clip at three times, through the world matrices and both palettes. */
static void gn_fuzz_pose(const gn_anim_model *m)
{
    float *floats = malloc((gn_anim_pose_floats(m) + 1) * sizeof *floats);
    float(*world)[16] = malloc(((size_t)m->skeleton.node_count + 1) * sizeof *world);
    float *rows = malloc(((size_t)m->skeleton.joint_count + 1) * 12 * sizeof *rows);
    float *dq = malloc(((size_t)m->skeleton.joint_count + 1) * 8 * sizeof *dq);
    if (floats && world && rows && dq) {
        gn_anim_pose pose;
        gn_anim_pose_bind(m, floats, &pose);
        for (uint32_t c = 0; c < m->clip_count; c++)
            for (int k = 0; k < 3; k++) {
                gn_anim_pose_sample(m, c, m->clips[c].duration * 0.5f * (float)k, &pose);
                gn_anim_world(m, &pose, world);
                gn_skin_palette_rows(&m->skeleton, (const float(*)[16])world, rows);
                gn_skin_palette_dq(&m->skeleton, (const float(*)[16])world, dq);
            }
    }
    free(floats), free(world), free(rows), free(dq);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* assimp reads the whole buffer; 64 MiB as fuzz_gltf */
    if (size == 0 || size > (64u << 20)) return 0;
    gn_scene *s;
    if (gn_scene_create(&s, NULL) != GN_OK) return 0;
    /* no folder: a glTF's external buffers are refused, its external images missing; embedded
     * images are left undecoded (fuzz_gltf covers them) */
    gn_skinned_source src = {.data = data, .size = size, .name = "fuzz"};
    gn_skinned_desc d = {.log = gn_fuzz_quiet, .skip_textures = true};
    gn_anim_model m;
    gn_error err;
    if (gn_skinned_load_memory(s, &src, &d, &m, NULL, &err) == GN_OK) {
        gn_fuzz_pose(&m);
        gn_anim_model_free(&m);
    }
    gn_scene_destroy(s);
    return 0;
}

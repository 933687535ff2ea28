/* libFuzzer target: arbitrary bytes through gnomon's glTF validation (gn_gltf_check_memory),
 * then, if they pass, assimp's glTF importers (from memory) and gnomon's conversion
 * (gn_gltf_convert), as a file load does. Whatever the bytes, the result must be GN_OK or a
 * clean error, never a crash or a sanitizer report. Built only with GN_FUZZ=ON and clang.
 * A seed corpus: the helmet .glb and small .gltf files (tests/scene/test_gltf.c writes some;
 * gltf_bad_gen.py's self-contained lights_embedded.gltf reaches the KHR_lights_punctual
 * conversion, src/formats/gltf_light.c). */
#include "formats/gltf.h"
#include "formats/gltf_check.h"

#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void gn_fuzz_quiet(gn_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The same caps as a file load: assimp reads the whole buffer. */
    if (size == 0 || size > (64u << 20)) return 0;
    /* The binary container starts with "glTF"; anything else is offered as JSON. */
    if (gn_gltf_check_head(data, size, size, "fuzz", NULL) != GN_OK) return 0;
    /* No folder: a file that names external buffers is refused, as assimp could not read them. */
    if (gn_gltf_check_memory(data, size, NULL, "fuzz", NULL) != GN_OK) return 0;
    const char *hint = size >= 4 && memcmp(data, "glTF", 4) == 0 ? "glb" : "gltf";
    const struct aiScene *ai =
        aiImportFileFromMemory((const char *)data, (unsigned)size, gn_gltf_import_flags(), hint);
    if (!ai) return 0;
    gn_scene *s;
    if (gn_scene_create(&s, NULL) == GN_OK) {
        gn_gltf_desc d = {.log = gn_fuzz_quiet};
        gn_error err;
        /* No folder: images outside the buffer are reported missing, never read from disk. */
        gn_gltf_convert(s, ai, NULL, "fuzz", &d, &err);
        gn_scene_destroy(s);
    }
    aiReleaseImport(ai);
    return 0;
}

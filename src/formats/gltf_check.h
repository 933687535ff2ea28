/* A glTF 2.0 file (.gltf or .glb) validated by gnomon before assimp sees it. assimp 5.2 trusts
 * what a file says: a sparse accessor without "values" is a NULL dereference, an offset past
 * its buffer view an out-of-bounds read, 20,000 nested nodes or 200,000 nested JSON arrays a
 * stack overflow, a tiny accessor with a huge count a 68 GB allocation. Every index, offset,
 * length and count the importer will follow is checked here against the file and a hard cap,
 * without recursion; what is refused gets one message naming the file, the object and the
 * fault ("scene.gltf: accessors[3].sparse: no \"values\""). docs/WORLDS.md lists the checks. */
#ifndef GN_FORMATS_GLTF_CHECK_H
#define GN_FORMATS_GLTF_CHECK_H

#include "gnomon.h"

#include <stdbool.h>
#include <stdint.h>

#define GN_GLTF_MAX_JSON_BYTES (64u << 20)      /* the JSON text, .gltf or a .glb's chunk */
#define GN_GLTF_MAX_JSON_DEPTH 64u              /* bracket nesting; real files use under 10 */
#define GN_GLTF_MAX_ACCESSOR_COUNT (1u << 26)   /* elements; above a mesh's vertex cap */
#define GN_GLTF_MAX_ACCESSOR_BYTES (1ull << 30) /* count times element size: what assimp allocates */
/* Width times height of one image, read from its header before any decode: 8192² (256 MiB as
 * RGBA). Images over GN_GLTF_MAX_TEXTURE_SIDE (8192) are halved to it anyway, so a larger one
 * only costs its decode: 29541x11368 of fuzzed PNG took 12.6 s and 1.7 GB (fuzz_gltf's
 * timeouts). The sample models use 2048 at most, Sponza 1024; 8K textures (8192²) still load. */
#define GN_GLTF_MAX_IMAGE_PIXELS (1ull << 26)
/* All of one file's images decoded together (each charged its header's w x h x 4 first): past
 * this the load fails with one line. Sponza's PNGs decode to 130 MiB (1024 a side at most). */
#define GN_GLTF_MAX_DECODED (1ull << 30)

/* What a valid file holds that assimp 5.2 will not hand on whole, for the loader's warnings. */
typedef struct gn_gltf_check_info {
    uint32_t lights;        /* KHR_lights_punctual lights in the file */
    uint32_t light_nodes;   /* nodes that place one */
    uint32_t shared_lights; /* lights placed by more than one node: assimp keeps one place each */
    bool lights_undeclared; /* lights, but "extensionsUsed" lacks the extension: assimp skips them */
    /* each material's KHR_materials_specular, _ior and KHR_texture_transform (formats/gltf_ext.h),
       read here where the JSON is parsed; gn_gltf_check_info_free releases them */
    struct gn_gltf_material_ext *materials;
    uint32_t material_count;
} gn_gltf_check_info;

/* Frees what gn_gltf_check put in info (and zeroes it). */
void gn_gltf_check_info_free(gn_gltf_check_info *info);

/* Validates the glTF file at path: GN_OK when assimp may import it, else GN_ERROR_IO (cannot be
 * read) or GN_ERROR_BAD_DATA (malformed or past a cap) with one message. A missing image is
 * let through: the loader reports it as a warning and keeps the material's factors. info
 * (optional) is filled on success. */
gn_result gn_gltf_check(const char *path, gn_gltf_check_info *info, gn_error *err);

/* The same for a file already in memory (the fuzz target). base_dir: folder that relative
 * buffer and image paths are read from; NULL: only embedded data is allowed. */
gn_result gn_gltf_check_memory(const unsigned char *data, size_t size, const char *base_dir, const char *name,
                               gn_error *err);

#endif

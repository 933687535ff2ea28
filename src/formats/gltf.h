/* glTF 2.0 files (.gltf with its files, or .glb) read through assimp and added to a gn_scene
 * through the public API only (gn_scene_add_texture, _material, _mesh, _instance): meshes once,
 * nodes as instances with their accumulated transforms, metallic-roughness materials with
 * their five maps (base colour, normal, metallic-roughness, occlusion, emissive) as textures,
 * KHR_lights_punctual point and spot lights as local lights (gn_scene_add_light; gltf_light.c
 * says how, docs/POST.md "Units" too; directional ones are counted and left out).
 * What the file has and gnomon cannot hold is dropped with a warning, never silently (an image
 * that is missing or cannot be decoded: the material keeps its factors). Geometry stays as
 * glTF defines it: right-handed, +Y up, metres, counter-clockwise front faces, which is what
 * gnomon expects, so nothing is flipped; only assimp's v flip of the texture coordinates is
 * undone (gnomon, like glTF, puts v = 0 at the image's top row).
 *
 * A failed load may leave part of the file in the scene: the scene layer's gn_gltf_scene_load
 * (src/scene/gltf_scene.c) undoes it, and sets the scene's default camera. */
#ifndef GN_FORMATS_GLTF_H
#define GN_FORMATS_GLTF_H

#include "gnomon.h"

#include <stdbool.h>
#include <stdint.h>

struct aiScene;

/* A glTF camera as a gnomon camera. glTF puts a camera at its node's origin looking down the
 * node's -Z with +Y up, and the node's world transform places it; the roll that transform may
 * give (the up vector's tilt about the view direction) is dropped: gnomon cameras have none. */
typedef struct gn_gltf_camera {
    bool found;        /* the file's first camera, on a node of the scene's tree */
    float position[3]; /* metres, world */
    float yaw, pitch;  /* degrees, gnomon's convention (gnomon.h gn_camera_desc) */
    float fov_y;       /* vertical field of view in degrees; 0: orthographic (none) */
} gn_gltf_camera;

/* What a load put into the scene and what it had to leave out. */
typedef struct gn_gltf_stats {
    uint32_t meshes;                  /* meshes added (each assimp mesh once) */
    uint32_t skipped_meshes;          /* meshes without triangles (points, lines) */
    uint32_t instances;               /* instances added by walking the node tree */
    uint32_t materials;               /* materials added */
    uint32_t textures;                /* textures added to the scene */
    uint32_t textures_missing;        /* images that could not be found or decoded */
    uint32_t normal_mapped;           /* materials with a normal texture */
    uint32_t emissive_mapped;         /* materials with an emissive texture */
    uint32_t metal_rough_mapped;      /* materials with a metallic-roughness texture */
    uint32_t occlusion_mapped;        /* materials with an occlusion texture */
    uint32_t alpha_mask, alpha_blend; /* materials with alphaMode MASK and BLEND */
    uint32_t double_sided;            /* materials with doubleSided: both faces drawn */
    uint32_t specular;                /* materials with KHR_materials_specular or _ior */
    uint32_t specular_mapped;         /* KHR_materials_specular maps read (two a material at most) */
    uint32_t uv_transformed;          /* materials with a KHR_texture_transform or a texCoord of 1 */
    uint64_t triangles;               /* in the meshes, each counted once */
    uint64_t instanced_triangles;     /* summed over the instances: what a frame draws */
    uint32_t cameras;                 /* cameras in the file */
    gn_gltf_camera camera;            /* the first of them (the scene layer's default camera) */
    uint32_t point_lights;            /* KHR_lights_punctual point lights added to the scene */
    uint32_t spot_lights;             /* and spot lights */
    uint32_t directional_lights;      /* not added: gnomon's one directional light is the sun */
    uint32_t skipped_lights;          /* not added: no place, not finite, past the scene's cap */
} gn_gltf_stats;

/* Zero means default throughout. */
typedef struct gn_gltf_desc {
    gn_log_fn log; /* warnings (and info lines); default: warnings to stderr */
    void *log_user;
    bool skip_textures;   /* geometry and factors only: no image is decoded */
    gn_gltf_stats *stats; /* optional: filled with what was loaded, also on failure */
    /* Each material's extensions read from the JSON (gn_gltf_check; formats/gltf_ext.h), set by
     * gn_gltf_load; NULL: the materials are what assimp gives alone (the fuzz target's). */
    const struct gn_gltf_material_ext *material_ext;
    uint32_t material_ext_count;
    /* For the animated model loader (formats/skinned.h): meshes, materials and textures only, no
     * instance and no light (rigs place the model), and assimp's mesh and material indices as the
     * scene's ids written to these arrays when set (ai->mNumMeshes and ai->mNumMaterials long;
     * UINT32_MAX where a mesh was skipped or a material unused). */
    bool no_instances;
    uint32_t *mesh_map_out;
    uint32_t *material_map_out;
} gn_gltf_desc;

/* Hard caps on what a file may ask for, checked before anything is allocated. */
#define GN_GLTF_MAX_FILE_BYTES (2ull << 30)   /* assimp reads a .glb whole into memory */
#define GN_GLTF_MAX_MESH_VERTICES (16u << 20) /* per mesh; the scene caps the total */
#define GN_GLTF_MAX_NODE_DEPTH 256u           /* deeper trees are corrupt or hostile */
#define GN_GLTF_MAX_IMAGE_SIDE 32768u         /* larger images are refused before decoding */
/* What one file may add; the scene's own caps (src/scene/scene.h, checked against these in
 * src/scene/gltf_scene.c) are the same or larger, and it refuses what goes past them. */
#define GN_GLTF_MAX_MESHES (1u << 20)
#define GN_GLTF_MAX_MESH_INDICES (256u << 20)
#define GN_GLTF_MAX_MATERIALS 4096u
#define GN_GLTF_MAX_TEXTURE_SIDE 8192u /* larger images are halved until they fit */
/* KHR_lights_punctual lights: as many as a scene holds. An intensity in candela (lux for a
 * directional light) up to 1e9: a lighthouse's beam is a few million, a file asking for more
 * has its units wrong; it also keeps colour x intensity finite in float. */
#define GN_GLTF_MAX_LIGHTS GN_MAX_LIGHTS
#define GN_GLTF_MAX_LIGHT_INTENSITY 1e9

/* Adds a .gltf or .glb file to s: every mesh, material and referenced texture, and one
 * instance per mesh reference in the node tree. On failure returns GN_ERROR_IO (unreadable)
 * or GN_ERROR_BAD_DATA (malformed), with a message naming the file; what was added before
 * the failure stays (see above). A missing texture is a warning, not a failure. */
gn_result gn_gltf_load(gn_scene *s, const char *path, const gn_gltf_desc *d, gn_error *err);

/* The conversion step alone, for a scene assimp has already imported (the fuzz target
 * imports from memory). base_dir: folder that relative image paths are read from, with or
 * without a trailing '/'; NULL reads embedded images only. name labels messages. */
gn_result gn_gltf_convert(gn_scene *s, const struct aiScene *ai, const char *base_dir, const char *name,
                          const gn_gltf_desc *d, gn_error *err);

/* Checks the start of a file before assimp sees it (head: its first bytes, at least 28 or
 * all there are; size: the whole file's). It must be a binary glTF whose header and chunk
 * lengths fit the file (assimp allocates what a chunk header claims before comparing it with
 * the file size, so a few flipped bits would cost gigabytes), or JSON starting with '{'.
 * Anything else is refused here because assimp would offer it to its other importers by
 * content, and some of those read past a buffer's end (found by fuzz_gltf). */
gn_result gn_gltf_check_head(const uint8_t *head, size_t head_len, uint64_t size, const char *name,
                             gn_error *err);

/* The assimp post-processing steps gn_gltf_load asks for. */
unsigned int gn_gltf_import_flags(void);

#endif

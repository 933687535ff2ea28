/* State shared by the glTF loader's files (gltf.c: geometry, nodes, camera; gltf_material.c:
 * materials and images). Not part of any interface outside src/formats/gltf*.c. */
#ifndef GN_FORMATS_GLTF_CTX_H
#define GN_FORMATS_GLTF_CTX_H

#include "formats/gltf.h"

#include <assimp/scene.h>

#define GN_GLTF_NONE 0xffffffffu /* a mesh skipped, a material unused */

/* How an image is used decides its colour space (and caches it once a use). */
typedef enum gn_gltf_use {
    GN_GLTF_USE_BASE_COLOR,     /* sRGB texture */
    GN_GLTF_USE_NORMAL,         /* linear texture */
    GN_GLTF_USE_METAL_ROUGH,    /* linear texture: roughness in green, metallic in blue */
    GN_GLTF_USE_OCCLUSION,      /* linear texture: occlusion in red */
    GN_GLTF_USE_EMISSIVE,       /* sRGB texture */
    GN_GLTF_USE_ROUGHNESS,      /* linear, one channel: AMD_split_roughnessMetallic (gltf_dds.h) */
    GN_GLTF_USE_SPECULAR,       /* linear texture: KHR_materials_specular's specular in alpha */
    GN_GLTF_USE_SPECULAR_COLOR, /* sRGB texture: its specular colour */
} gn_gltf_use;

/* One image read for one use; failures are cached too, so each warns once. */
typedef struct gn_gltf_image {
    char key[1024]; /* the material's path string */
    gn_gltf_use use;
    bool ok;
    uint32_t texture; /* scene texture id (from 1; 0 while none) */
} gn_gltf_image;

typedef struct gn_gltf_ctx {
    gn_scene *s;
    const struct aiScene *ai;
    const char *name; /* the file, for messages */
    const char *dir;  /* folder of relative image paths; NULL: embedded only */
    gn_gltf_desc d;
    gn_gltf_stats st;
    gn_error *err;
    gn_gltf_image *images;
    uint32_t image_count, image_cap;
    uint64_t decoded;        /* bytes of RGBA charged to this file's images (GN_GLTF_MAX_DECODED) */
    char budget_line[256];   /* the image that took the decoded bytes past the cap */
    char cap_line[128];      /* why the last image over a cap was skipped */
    uint32_t *mesh_map;      /* assimp mesh -> scene mesh, GN_GLTF_NONE where skipped */
    uint32_t *mat_map;       /* assimp material -> scene material; GN_GLTF_NONE: unused */
    uint32_t *mesh_tris;     /* triangles of each assimp mesh */
    const char *camera_node; /* the first camera's node name (assimp names cameras so), or NULL */
    bool camera_node_seen;   /* the node walk met it: camera_world is its world transform */
    float camera_world[16];
    /* KHR_lights_punctual: assimp names each light after its node, so the node walk finds a
     * light's place by name (gltf_light.c) */
    struct gn_gltf_light_name *light_names; /* named lights sorted by name, for a binary search */
    uint32_t light_name_count;
    const struct aiNode **light_node; /* each assimp light's node; NULL: none met */
    float (*light_world)[16];         /* that node's world transform */
    char **dds_roughness;             /* each material's split roughness image, or NULL (gltf_dds.h) */
    uint32_t dds_roughness_count;
} gn_gltf_ctx;

/* Warning (or info) to the desc's log, else warnings to stderr; prefixed with the file. */
void gn_gltf_log(gn_gltf_ctx *c, gn_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Adds every material a mesh of c->ai uses (and their images); fills c->mat_map, with
 * GN_GLTF_NONE for unused ones. */
gn_result gn_gltf_materials(gn_gltf_ctx *c);

/* Lights (gltf_light.c), in three steps around the node walk: _prepare checks the import's
 * light count against GN_GLTF_MAX_LIGHTS and indexes the lights by name; _node records the
 * world transform of a node that places one; _add adds the point and spot lights to the scene
 * (and counts and warns about the rest); _free releases what _prepare allocated. */
gn_result gn_gltf_lights_prepare(gn_gltf_ctx *c);
void gn_gltf_lights_node(gn_gltf_ctx *c, const struct aiNode *node, const float world[16]);
gn_result gn_gltf_lights_add(gn_gltf_ctx *c);
void gn_gltf_lights_free(gn_gltf_ctx *c);

#endif

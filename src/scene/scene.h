/* The CPU-side scene: every mesh in one vertex and one index array, materials, textures and
 * instances. Loaders and procedural generators fill it through gn_scene_add_* (public API)
 * or the helpers below; the renderer uploads it once and re-uploads dynamic transforms. */
#ifndef GN_SCENE_H
#define GN_SCENE_H

#include "base/array.h" /* gn_grow, for the store and its builders */
#include "base/error.h" /* gn_fail */
#include "decide/decal.h"
#include "decide/particles.h"
#include "gnomon.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 48 bytes; the layout the vertex shaders read (see shaders/shared/gpu_types.h). */
typedef struct gn_vertex {
    float pos[3];
    float normal[3];
    float tangent[4]; /* xyz tangent, w bitangent sign */
    float uv[2];
    float uv2[2]; /* lightmap coordinates (gn_mesh_desc.lightmap_uvs) */
} gn_vertex;

typedef struct gn_mesh {
    uint32_t first_vertex, vertex_count;
    uint32_t first_index, index_count;
    float center[3], radius; /* bounding sphere in mesh space */
    float aabb_min[3], aabb_max[3];
} gn_mesh;

/* Inside the store texture ids are indices from 0, and "none" is this; gn_scene_add_material
 * converts the public ids (from 1, 0 for none) at the door. */
#define GN_NO_TEXTURE 0xffffffffu

typedef struct gn_material {
    float base_color[4];
    float metallic, roughness;
    float emissive[3];
    uint32_t base_color_texture, normal_texture; /* GN_NO_TEXTURE for none */
    uint32_t lightmap_texture;                   /* an RGB9E5 texture or GN_NO_TEXTURE */
    uint32_t metallic_roughness_texture, occlusion_texture, emissive_texture; /* or GN_NO_TEXTURE */
    uint32_t specular_texture, specular_color_texture; /* KHR_materials_specular's, or GN_NO_TEXTURE */
    uint32_t alpha_mode;                               /* gn_alpha_mode */
    float alpha_cutoff;                                /* GN_ALPHA_MASK's threshold */
    bool night_emissive;                               /* the emission follows the frame's night level */
    float specular[4]; /* the dielectric's F0 (rgb) and F90 (gn_brdf_dielectric) */
    /* each map's uv transform (gn_material_map): rows (m00, m01, m02), (m10, m11, m12), and its
       uv set (gn_uv_transform_matrix) */
    float uv_transform[GN_MATERIAL_MAPS][6];
    uint32_t uv_set[GN_MATERIAL_MAPS];
    uint32_t q3; /* a Quake 3 shader's stages draw it: its index in gn_scene.q3, or GN_NO_Q3 */
    /* Its render state, the four bytes of src/decide/tfx.h with the override bit where the
       material states a value (a double-sided glTF material's raster byte; a Quake 3 shader's
       cull, polygonOffset, ...): each pass resolves it against its own (gn_state_resolve) */
    uint32_t state;
    float sort; /* gn_material_desc.sort, or its Quake 3 shader's; 0: the default layer */
} gn_material;

/* A Quake 3 shader's compiled stages (src/decide/q3_material.h) as a scene holds them: the
 * texture of each image slot (GN_NO_TEXTURE where the image is missing: the stage reads white). */
#define GN_NO_Q3 0xffffffffu
typedef struct gn_scene_q3 {
    struct gn_q3_material *mat; /* owned */
    uint32_t slot_texture[16];  /* GN_Q3_MAT_SLOTS */
    uint32_t first_layer;       /* its slots' first layer in gn_scene.q3_array */
} gn_scene_q3;

/* Every Quake 3 shader's images as one square array with its mips (scene/q3_array.c): level 0 of
 * every layer, then level 1 of every layer, and so on; a layer a slot, shader after shader. */
#define GN_SCENE_Q3_MAX_LAYERS 2048u /* the least maxImageArrayLayers of a Vulkan 1.3 device */
typedef struct gn_scene_q3_array {
    uint8_t *texels; /* RGBA8, sRGB; NULL: no shader images */
    uint32_t side, layers, levels;
} gn_scene_q3_array;
/* Builds s->q3_array from the shaders' slots (a map loader's last step). */
gn_result gn_scene_q3_build_array(gn_scene *s, gn_error *err);

typedef struct gn_texture {
    uint32_t width, height;
    uint8_t *texels; /* 4 bytes a texel in `format` (gn_texture_format) */
    uint32_t format;
    bool srgb;
    /* Block-compressed (a gn_dds_format of formats/dds.h; 0: not): texels holds `levels` mip
     * levels of blocks as a .dds file stores them, largest first. format stays RGBA8, which
     * is how the material slots sample it; the GPU upload decodes it where the device cannot
     * sample the blocks (gpu_scene.c). */
    uint32_t blocks, levels;
    /* the channels sampled, each from a stored one ('r', 'g', 'b', 'a') or a constant ('0',
     * '1'): "rr11" reads a one-channel roughness map (BC4) where the shaders read green, with
     * metallic 1 (its factor); all zero: as stored */
    char swizzle[4];
} gn_texture;

/* A moving object of a procedural scene: circles `center` at `radius`, `speed` rad/s. */
typedef struct gn_orbit {
    uint32_t instance;
    float center[3], radius, speed, phase, bob;
} gn_orbit;

/* ---- local lights (lights.c; the built-in set in town_lights.c) ---------------------------- */
#define GN_LIGHT_NONE 0xffffffffu

/* Where a light came from: lets tools and tests tell the built-in kinds apart. */
typedef enum gn_light_origin {
    GN_LIGHT_FROM_USER = 0, /* gn_scene_add_light */
    GN_LIGHT_FROM_LAMP,     /* a street lamp's head */
    GN_LIGHT_FROM_WINDOW,   /* just outside a lit window */
    GN_LIGHT_FROM_MOVER,    /* moved by gn_scene_animate: on a balloon or cart, or circling */
    GN_LIGHT_FROM_FESTIVAL, /* string lights over the streets, once lamps, windows, movers run out */
    GN_LIGHT_FROM_SCATTER,  /* a scene without light sites: spread over its bounds */
} gn_light_origin;

/* A light that moves: attached to a dynamic instance (instance != GN_LIGHT_NONE; offset in
 * the instance's local space) or circling `center` like a gn_orbit. gn_scene_animate poses it
 * after the instances, so an attached light follows its instance in the same frame. */
typedef struct gn_light_motion {
    uint32_t light, instance;
    float offset[3];
    float center[3], radius, speed, phase, bob; /* radians/s, radians, metres */
} gn_light_motion;

/* A place a procedural scene's generator offers for a built-in light (town*.c records them,
 * gn_scene_add_builtin_lights reads them). */
typedef enum gn_light_site_kind {
    GN_LIGHT_SITE_LAMP,     /* pos: just under a lamp head; dir: the arm, out over the street */
    GN_LIGHT_SITE_WINDOW,   /* pos: a lit window's centre; dir: its outward normal */
    GN_LIGHT_SITE_STREET,   /* pos: a street's centre line on the ground; dir: along the street */
    GN_LIGHT_SITE_CROSSING, /* pos: the middle of a crossing on the ground */
    GN_LIGHT_SITE_VEHICLE,  /* instance: a dynamic instance; pos: a lantern in its local space */
} gn_light_site_kind;

typedef struct gn_light_site {
    float pos[3], dir[3];
    uint32_t kind;     /* gn_light_site_kind */
    uint32_t instance; /* GN_LIGHT_SITE_VEHICLE only; GN_LIGHT_NONE otherwise */
} gn_light_site;

#define GN_SCENE_EDITS 64u /* static moves and removals a cache can catch up on (gn_scene.edits) */

typedef struct gn_instance {
    float transform[16]; /* column-major, affine */
    uint32_t mesh, material, flags;
    float sphere[4]; /* world-space bounding sphere: xyz centre, w radius */
    /* Baked light for an object in a BSP world without a lightmap, from the map's light grid
     * at the sphere's centre (scene/world.c), packed as the GPU reads it (gn_gpu_instance.info
     * y, z, w). All zero: none (the hemisphere ambient lights it). */
    uint32_t grid_light[3];
} gn_instance;

struct gn_scene {
    gn_vertex *vertices;
    uint32_t vertex_count, vertex_cap;
    uint32_t *indices;
    uint32_t index_count, index_cap;
    gn_mesh *meshes;
    uint32_t mesh_count, mesh_cap;
    gn_material *materials;
    uint32_t material_count, material_cap;
    gn_texture *textures;
    uint32_t texture_count, texture_cap;
    gn_instance *instances;
    uint32_t instance_count, instance_cap;
    gn_orbit *orbits;
    uint32_t orbit_count, orbit_cap;
    float default_camera[5]; /* x, y, z, yaw, pitch */
    float default_fov_y;     /* degrees, the default camera's (a glTF camera's); 0: none given */
    uint64_t uid;            /* this scene's identity (gn_scene_create): the renderer's caches tell
                                scenes apart by it, never by address, which malloc reuses */
    uint32_t generation;     /* bumped when geometry, materials or instances are added */
    /* Static instances moved or removed since the scene was made: a ring of the last
     * GN_SCENE_EDITS edits, each the instance and the bounds it had before and has after
     * (radius 0: none, i.e. removed). Caches that hold static content (the GPU's instance
     * buffer, the VSM's pages) catch up by edit_count; one that fell more than the ring behind
     * starts over. */
    struct gn_scene_edit {
        uint32_t instance;
        float before[4], after[4];
    } edits[GN_SCENE_EDITS];
    uint32_t edit_count;
    uint32_t dynamic_generation; /* bumped when a dynamic transform changes */
    float viewpoints[3][5];      /* a built-in scene's scenic cameras (gn_town_viewpoints) */
    struct gn_world *world;      /* a BSP map's visibility data, or NULL (src/scene/world.h) */
    /* Local lights, kept normalised (gn_light_normalize): the renderer packs them as they are. */
    gn_light_desc *lights;
    uint8_t *light_origin; /* gn_light_origin of each light */
    uint32_t light_count, light_cap;
    gn_light_motion *light_motions;
    uint32_t light_motion_count, light_motion_cap;
    gn_light_site *light_sites;
    uint32_t light_site_count, light_site_cap;
    float light_focus[3]; /* built-in lights fill outwards from here (the town's plaza) */
    /* Where reflection probes may go (gn_scene_add_probe_site; a map's spawn points and items):
     * none, and src/probes.c takes the street light sites or a grid (docs/SKY.md). */
    float (*probe_sites)[3];
    uint32_t probe_site_count, probe_site_cap;
    uint32_t light_generation; /* bumped when any light is added, changed or moved */
    /* Quake 3 shaders drawn by their stages (a BSP map's scripts), and the one its sky surfaces
       name (GN_NO_Q3 when none: the sky pass draws it in place of the atmosphere's sky) */
    gn_scene_q3 *q3;
    uint32_t q3_count, q3_cap;
    gn_scene_q3_array q3_array;
    uint32_t sky_q3;
    uint32_t q3_missing_images;  /* images a map's shader stages name that no archive holds */
    uint32_t q3_missing_shaders; /* a map's surface shaders with neither a script nor an image */
    /* A map's fog volumes (scene/bsp_fog.c), at most GN_GPU_Q3_FOGS, and its fogs not drawn (no
       script, no fogparms, a brush that encloses nothing, past the cap) */
    struct gn_q3_fog_volume *q3_fogs;
    uint32_t q3_fog_count;
    uint32_t q3_fogs_skipped;
    /* Animated models and their placed rigs (scene/rig.c; src/scene/rig.h): posed by
       gn_scene_animate, skinned by the renderer's skin pass */
    struct gn_scene_anim *anims;
    uint32_t anim_count, anim_cap;
    struct gn_scene_rig *rigs;
    uint32_t rig_count, rig_cap;
    uint32_t rig_generation; /* bumped when a model or rig is added: the GPU's skin data follows */
    /* the rigs' clock: the frames' seconds at the animation speed (gn_scene_set_animation_speed) */
    double anim_clock, anim_last;
    float anim_speed;
    bool anim_speed_set, anim_started;
    struct gn_workers *pose_workers; /* threads posing the rigs, made when there are many */
    bool pose_workers_failed;        /* they could not start: pose on the caller's thread */
    /* Screen-space decals (scene/decals.c; decide/decal.h), each naming one of the texture sets */
    gn_decal *decals;
    uint32_t decal_count, decal_cap;
    gn_decal_textures decal_sets[GN_DECAL_MAX_SETS];
    uint32_t decal_set_count;
    uint32_t decal_generation; /* bumped when a decal is added: the renderer's sets follow */
    /* GPU particle emitters (scene/emitters.c; decide/particles.h), simulated by passes/particles.c */
    struct gn_scene_emitter *emitters;
    uint32_t emitter_count, emitter_cap;
    uint32_t emitter_particles;  /* their max_particles added up: the GPU's slots */
    uint32_t emitter_generation; /* bumped when an emitter is added: the GPU's buffers follow */
};

/* A placed emitter: its description (checked), origin and seed. */
typedef struct gn_scene_emitter {
    gn_particle_desc desc;
    float origin[3];
    uint32_t seed;
} gn_scene_emitter;
/* Adds an emitter from a full description (the JSON format's, the built-ins'): checked with
 * gn_particle_desc_check and against the scene's caps (gnomon.h's GN_MAX_*). */
gn_result gn_scene_add_particle_emitter(gn_scene *s, const gn_particle_desc *d, const float origin[3],
                                        uint32_t seed, uint32_t *out_id, gn_error *err);

/* Hard caps: a scene beyond them is refused with an error, never half-built. */
#define GN_SCENE_MAX_VERTICES (64u * 1024u * 1024u)
#define GN_SCENE_MAX_INDICES (256u * 1024u * 1024u)
#define GN_SCENE_MAX_MESHES (1u << 20)
#define GN_SCENE_MAX_MATERIALS 4096u
#define GN_SCENE_MAX_TEXTURES 4096u
#define GN_SCENE_MAX_INSTANCES (1u << 22)
/* Metres from the origin on any axis: a mesh's positions, and (times 4, room for a mesh's
 * bounding sphere at the cap) an instance's transformed bounding sphere. Beyond it float has
 * under a metre of precision and squared distances overflow; huge bounds (a glTF node scaled
 * by 1e38) would otherwise reach the shadow decisions as inf and NaN. */
#define GN_SCENE_MAX_EXTENT 1e7f
#define GN_INSTANCE_REMOVED (1u << 31) /* internal flag: gn_scene_remove_instance; never drawn */
#define GN_TEXTURE_MAX_SIZE 8192u

/* A block-compressed texture for gn_scene_add_blocks: the levels of a .dds file (dds.h). */
typedef struct gn_texture_blocks {
    uint32_t width, height, levels;
    uint32_t format;     /* a gn_dds_format: GN_DDS_BC1..GN_DDS_BC7 */
    bool srgb;           /* colour data (base colour, emissive) */
    const uint8_t *data; /* every level's blocks, largest first; copied */
    uint64_t size;       /* bytes of data: exactly the levels' */
    const char *swizzle; /* 4 of "rgba01" (gn_texture.swizzle), or NULL: as stored */
    const char *label;
} gn_texture_blocks;

/* Adds a block-compressed texture, an RGBA8 one to the material slots (ids as the public add's).
 * Internal: only loaders make them, so the public gn_texture_desc stays RGBA8 and RGB9E5. */
gn_result gn_scene_add_blocks(gn_scene *s, const gn_texture_blocks *d, uint32_t *out_id, gn_error *err);

/* Adds a mesh from already-complete vertices (normals and tangents filled). */
gn_result gn_scene_add_vertices(gn_scene *s, const gn_vertex *v, uint32_t vertex_count, const uint32_t *idx,
                                uint32_t index_count, uint32_t *out_id, gn_error *err);
gn_result gn_scene_add_orbit(gn_scene *s, const gn_orbit *o, gn_error *err);

/* Recomputes an instance's world sphere from its transform and mesh (and, in a BSP world,
 * its light from the map's grid). */
void gn_scene_update_sphere(gn_scene *s, uint32_t instance);
/* Sets a moved instance's world bounding sphere where its mesh's would be wrong (a skinned pose),
 * and its light from a BSP world's grid. */
void gn_scene_set_instance_sphere(gn_scene *s, uint32_t instance, const float sphere[4]);
/* Rigs (scene/rig.c): posed at `seconds` by gn_scene_animate; freed with the scene. */
void gn_scene_animate_rigs(gn_scene *s, double seconds);
void gn_scene_rigs_free(gn_scene *s);
/* A point to return to: the arrays only grow, so dropping their tails undoes the meshes,
 * materials, textures and instances added since (not lights or orbits). A loader that fails
 * half-way returns the scene to the mark (gn_gltf_scene_load). */
typedef struct gn_scene_mark {
    uint32_t vertices, indices, meshes, materials, textures, instances, generation;
} gn_scene_mark;
gn_scene_mark gn_scene_mark_now(const gn_scene *s);
void gn_scene_rollback(gn_scene *s, const gn_scene_mark *m);
/* Gives the scene its BSP world (freeing the one it had; NULL: none) and lights every instance
 * without a lightmap from the world's grid. */
void gn_scene_set_world(gn_scene *s, struct gn_world *w);

/* Validates a light (messages name it "light <index>") and fills its defaults in place: colour
 * zero -> white; direction normalised, zero -> (0,-1,0); spot angles 0 -> inner 20, outer 30
 * degrees; outer clamped to 89; inner >= outer -> inner = outer * 2/3 (the defaults' ratio,
 * so the falloff never has zero width). */
gn_result gn_light_normalize(gn_light_desc *d, uint32_t index, gn_error *err);
/* Adds a normalised-on-entry light with its origin; all or nothing, like the public add. */
gn_result gn_scene_add_light_from(gn_scene *s, const gn_light_desc *d, gn_light_origin origin,
                                  uint32_t *out_id, gn_error *err);
/* Makes light m->light move; poses it at once for time 0. gn_scene_set_light detaches it. */
gn_result gn_scene_add_light_motion(gn_scene *s, const gn_light_motion *m, gn_error *err);
gn_result gn_scene_add_light_site(gn_scene *s, const gn_light_site *site, gn_error *err);
/* Poses the moving lights for `seconds`; bumps light_generation if any moved. Called by
 * gn_scene_animate after the instances. */
void gn_scene_animate_lights(gn_scene *s, double seconds);
/* Drops lights and motions past the given counts (undoes a half-done batch). */
void gn_scene_truncate_lights(gn_scene *s, uint32_t light_count, uint32_t motion_count);

/* Notes on the store (scene.c), added with the implementation:
 * - a mesh's indices are local to it: draw with vertexOffset = first_vertex;
 * - gn_scene_animate poses an orbit's instance with its local +X along the direction of
 *   travel, keeping the column scales it already had;
 * - tangents follow glTF: bitangent = cross(normal, tangent.xyz) * w points towards
 *   decreasing v (image "up", rows stored top first), so green-up normal maps work. */

/* Area-weighted vertex normals from the triangles (unit length; +Y where undefined). */
void gn_mesh_compute_normals(gn_vertex *v, uint32_t vertex_count, const uint32_t *idx, uint32_t index_count);
/* Tangents from uvs, orthogonal to the normals; any perpendicular where uvs are degenerate.
 * False when out of memory for its scratch (the tangents are then unset). */
bool gn_mesh_compute_tangents(gn_vertex *v, uint32_t vertex_count, const uint32_t *idx, uint32_t index_count);
/* Makes v->tangent unit and orthogonal to v->normal, and its w exactly +1 or -1. */
void gn_mesh_orthonormalize_tangent(gn_vertex *v);

#endif

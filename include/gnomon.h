/* gnomon: a real-time renderer on Vulkan 1.3. The one public header.
 *
 * Conventions (docs/ARCHITECTURE.md, "Conventions"):
 * - every name starts with gn_ / GN_; handles are opaque;
 * - creation takes a *_desc struct in which zero means "default";
 * - functions that can fail return gn_result and, when given a gn_error, fill it with one
 *   line naming the problem. The library never aborts and never calls exit.
 * This header does not include vulkan.h and compiles as C11 and as C++. */
#ifndef GNOMON_H
#define GNOMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* GN_API marks the public functions: built with -fvisibility=hidden, libgnomon.so exports
 * these and nothing else. GN_BUILD_LIBRARY is defined only while compiling the library. */
#if defined(GN_BUILD_LIBRARY) && (defined(__GNUC__) || defined(__clang__))
#define GN_API __attribute__((visibility("default")))
#else
#define GN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- results and errors ---------------------------------------------------------------- */
typedef enum gn_result {
    GN_OK = 0,
    GN_ERROR_INVALID_ARGUMENT, /* a desc field or argument out of range */
    GN_ERROR_NO_DEVICE,        /* no Vulkan 1.3 device, or GNOMON_DEVICE matched none */
    GN_ERROR_VULKAN,           /* a Vulkan call failed */
    GN_ERROR_OUT_OF_MEMORY,    /* host or device memory exhausted */
    GN_ERROR_IO,               /* a file could not be read or written */
    GN_ERROR_BAD_DATA,         /* a file or buffer is malformed */
    GN_ERROR_DEVICE_LOST,      /* the device was lost; destroy the renderer */
} gn_result;

typedef struct gn_error {
    gn_result code;
    char message[512];
} gn_error;

GN_API const char *gn_result_name(gn_result r); /* "GN_ERROR_VULKAN", ... */

/* ---- logging ----------------------------------------------------------------------------- */
typedef enum gn_log_level {
    GN_LOG_DEFAULT = 0,
    GN_LOG_ERROR,
    GN_LOG_WARN,
    GN_LOG_INFO,
    GN_LOG_DEBUG
} gn_log_level;
typedef void (*gn_log_fn)(gn_log_level level, const char *message, void *user);

/* ---- renderer ------------------------------------------------------------------------------ */
typedef struct gn_renderer gn_renderer;
typedef struct gn_scene gn_scene;

typedef enum gn_validation {
    GN_VALIDATION_DEFAULT = 0, /* off, unless GNOMON_VALIDATION=1 in the environment */
    GN_VALIDATION_OFF,
    GN_VALIDATION_ON, /* VK_LAYER_KHRONOS_validation with synchronization validation */
} gn_validation;

/* Cascaded shadow maps of the sun (docs/SHADOWS.md). Zero means default throughout. */
#define GN_CSM_MAX_CASCADES 8
typedef struct gn_csm_desc {
    uint32_t cascades;                 /* 1..8; default 4 */
    uint32_t resolution;               /* texels per side of each cascade; default 2048 */
    float shadow_distance;             /* metres of view depth that receive sun shadows; default 600 */
    float split_lambda;                /* blend of logarithmic (1) and uniform (0) splits; 0 is read as
                                          the default 0.6 (uniform splits: any value under 1e-6) */
    float splits[GN_CSM_MAX_CASCADES]; /* explicit far distance of each cascade; all 0: lambda */
    float overlap;                     /* fraction of a cascade shared with the next, blended; default 0.1 */
    uint32_t update_period[GN_CSM_MAX_CASCADES]; /* frames between updates; all 0: 1,1,2,4,4.. */
    float pivot_grid;        /* metres; the light view turns about the camera rounded to this; default 4096 */
    float min_caster_texels; /* casters smaller than this many texels of a cascade are skipped; default 3 */
    float normal_offset_texels; /* receiver offset along its normal; default 1.5 */
    float depth_bias_slope;     /* slope-scaled depth bias in the caster pipeline; default 1.5 */
    float depth_bias_constant;  /* in units of the depth format's resolution; default 1.0 */
    float caster_extension;     /* metres casters are looked for towards the sun; default 1000 */
} gn_csm_desc;

/* Virtual shadow maps (docs/SHADOWS.md). Zero means default throughout. */
typedef struct gn_vsm_desc {
    uint32_t levels;        /* clipmap levels, each twice the previous; default 8, up to 16 */
    uint32_t virtual_res;   /* texels a level side: 4096 (default) .. 16384, a multiple of 128 */
    float level0_size;      /* metres the finest level covers a side; default 16 */
    uint32_t pool_pages;    /* physical 128^2 pages (D32, 64 KiB each); default 2048 (128 MiB) */
    uint32_t page_budget;   /* pages rendered a frame at most; default 64, at most 2048 */
    uint32_t evict_frames;  /* frames a page may go unrequested before it returns to the pool; default 60 */
    float pivot_grid;       /* metres: the light turns about the camera rounded to this; default 128 */
    uint32_t dynamic_pages; /* pages of the layer of dynamic casters; default 256, at most the budget */
} gn_vsm_desc;

/* Clustered Forward+ (docs/LIGHTING.md). Zero means default throughout. */
typedef struct gn_lights_desc {
    uint32_t cluster_x, cluster_y, cluster_z; /* froxel grid; default 16 x 9 x 24 */
    uint32_t cluster_max_lights;              /* light indices a froxel holds; default 64 (1..1023) */
    float cluster_far;                        /* view depth of the last slice's far end; default 1000 m */
    uint32_t shadowed_lights;                 /* lights with shadow maps a frame, nearest first; default 16 */
    uint32_t shadow_resolution;               /* texels per side of a light's shadow layer; default 512 */
} gn_lights_desc;

/* Local reflection probes (docs/SKY.md, "Reflection probes"): when a scene is first drawn (and
 * again when the key light has moved by GN_PROBES_RECAPTURE_DEG or changed), the renderer places
 * probes at the scene's probe sites, renders each one's six faces with the whole frame (by a
 * second renderer of the same device, GN_PROBES_FACE texels a side), filters them as the sky's
 * environment is and gives each instance the nearest probe it can see; surfaces then reflect
 * it box-projected, faded at its box. Zero means default throughout. */
typedef enum gn_probes_mode {
    GN_PROBES_DEFAULT = 0, /* on with a GPU; off on a CPU device, where one face of the town takes
                              ~0.6 s (lavapipe) */
    GN_PROBES_ON,
    GN_PROBES_OFF,
} gn_probes_mode;
typedef struct gn_probes_desc {
    gn_probes_mode mode;
    float spacing;       /* metres at least between two probes; default 8 */
    float max_extent;    /* metres a probe's box reaches at most from it on each axis; default 40 */
    float fade;          /* metres over which a probe fades out at its box's faces; default 1 */
    uint32_t max_probes; /* default and cap GN_PROBES_MAX */
} gn_probes_desc;
#define GN_PROBES_MAX 63
#define GN_PROBES_FACE 64            /* texels a side of a probe's rendered faces */
#define GN_PROBES_RECAPTURE_DEG 5.0f /* the key light's move that renders the probes again */

/* The reflection probes a renderer made for the last scene it drew (all zero: none). */
typedef struct gn_probes_info {
    uint32_t count;         /* placed */
    uint64_t rendered;      /* probes rendered so far (each six faces), refreshes included */
    double made_ms;         /* wall time of the last placing and rendering of them all */
    uint32_t ray_triangles; /* the static triangles their boxes and choices were ray-cast against */
} gn_probes_info;

typedef struct gn_renderer_desc {
    uint32_t width, height; /* output size; default 1280x720 */
    uint32_t msaa;          /* 1, 2, 4 or 8 samples; default 4 (fails if the device lacks it) */
    const char *device;     /* index or name substring; default $GNOMON_DEVICE, else best */
    gn_validation validation;
    gn_log_fn log; /* default: warnings and errors to stderr */
    void *log_user;
    gn_log_level log_level; /* default GN_LOG_WARN */
    gn_csm_desc csm;        /* cascaded shadow map settings */
    gn_vsm_desc vsm;        /* virtual shadow map settings */
    gn_lights_desc lights;  /* local lights: the froxel grid */
    /* Presenting to a window (gn_renderer_attach_surface). The window system's instance
     * extensions (GLFW: glfwGetRequiredInstanceExtensions) are enabled with the instance,
     * and VK_KHR_swapchain with the device; a headless renderer (the default) needs neither. */
    bool presentable;
    const char *const *instance_extensions;
    uint32_t instance_extension_count;
    /* How long gnomon waits for the GPU to finish a frame (or for a swapchain image) before it
     * treats the device as lost: the call returns GN_ERROR_DEVICE_LOST, and
     * gn_renderer_destroy still returns. Default (0): the device's, GN_GPU_TIMEOUT_MS on a GPU
     * and GN_CPU_TIMEOUT_MS on a CPU device (lavapipe on 2 cores takes over 10 s for a heavy
     * frame, such as the town with 4096 lights on the naive path). */
    uint32_t gpu_timeout_ms;
    gn_probes_desc probes; /* local reflection probes */
} gn_renderer_desc;

#define GN_GPU_TIMEOUT_MS 10000u  /* a GPU frame that takes 10 s is hung (drivers reset in seconds) */
#define GN_CPU_TIMEOUT_MS 600000u /* a CPU device: 10 minutes, beyond any frame gnomon's tests render */

GN_API gn_result gn_renderer_create(const gn_renderer_desc *desc, gn_renderer **out,
                                    gn_error *err);                    /* a headless renderer */
GN_API void gn_renderer_destroy(gn_renderer *r);                       /* waits for the GPU; NULL is fine */
GN_API uint32_t gn_renderer_validation_messages(const gn_renderer *r); /* validation messages seen so far */
GN_API const char *gn_renderer_device_name(const gn_renderer *r);      /* the chosen device */
GN_API void gn_renderer_size(const gn_renderer *r, uint32_t *width, uint32_t *height); /* output size */
GN_API uint32_t gn_renderer_msaa(const gn_renderer *r);                                /* samples per pixel */
GN_API void gn_renderer_probes(const gn_renderer *r, gn_probes_info *out);

/* ---- device report (gnomon info) --------------------------------------------------------- */
typedef struct gn_device_info {
    char name[256];
    char type[32]; /* "discrete", "integrated", "virtual", "cpu", "other" */
    char driver[256];
    uint32_t api_version; /* VK_MAKE_API_VERSION layout: major<<22 | minor<<12 | patch */
    bool suitable;        /* has Vulkan 1.3 and the features gnomon needs */
    bool chosen;
    char why[256];      /* why chosen, or why not suitable */
    uint32_t msaa_mask; /* bit n set: 2^n samples supported for colour and depth */
    uint32_t max_image_size_2d;
    uint32_t max_image_array_layers;
    uint32_t max_compute_workgroup_invocations;
    uint32_t max_draw_indirect_count;
    uint64_t max_storage_buffer_range;
    float timestamp_period_ns;
    bool multi_draw_indirect, depth_clamp, timestamps, sampler_anisotropy, shader_draw_parameters;
    uint64_t device_local_bytes;
} gn_device_info;

/* Fills up to max entries and sets *count to the number of devices found. */
GN_API gn_result gn_enumerate_devices(gn_device_info *out, uint32_t max, uint32_t *count,
                                      const char *device_override, gn_error *err);

/* ---- scenes ------------------------------------------------------------------------------ */
typedef struct gn_builtin_desc {
    const char *name; /* "town" (default) */
    uint32_t seed;    /* default 1 */
    uint32_t scale;   /* 1 (default): ~1M triangles; 8: > 10M */
    uint32_t people;  /* skinned figures walking the streets, and banners on the tower (0: none) */
    /* the figures' mesh detail: 0 or 1 is 756 vertices a person; k splits each ring and each
       span between rings k times (k = 4: 10,836 vertices); at most 8 */
    uint32_t people_detail;
    /* posters on walls, road markings and puddles (docs/EFFECTS.md, "Decals"): 0 none (the town
       is then what it always was), otherwise on */
    uint32_t decals;
    /* GPU particles (docs/EFFECTS.md, "GPU particles"): 0 none (the town is then what it always
       was); 1 chimney smoke and a fountain on the plaza; N > 1 also a stress emitter on the plaza
       holding about N live particles (at most GN_MAX_EMITTER_PARTICLES) */
    uint32_t particles;
} gn_builtin_desc;

GN_API gn_result gn_scene_create(gn_scene **out, gn_error *err); /* an empty scene */
GN_API gn_result gn_scene_create_builtin(const gn_builtin_desc *desc, gn_scene **out,
                                         gn_error *err); /* a procedural scene */
GN_API void gn_scene_destroy(gn_scene *s);

/* How a skinned model's vertices follow its joints (docs/ANIMATION.md). */
typedef enum gn_skinning {
    GN_SKINNING_LINEAR = 0, /* linear blend of the joints' matrices */
    GN_SKINNING_DUAL_QUAT,  /* dual quaternions: twists keep their volume (no candy-wrapper collapse) */
} gn_skinning;

/* A scene from files (docs/WORLDS.md): a glTF 2.0 file (.gltf, .glb), an animated model (.iqm,
 * .md5mesh, .fbx, .dae; docs/ANIMATION.md), a Quake 3 map (.bsp), or the name of a map inside the
 * archives of `paks` ("oa_dm1" reads maps/oa_dm1.bsp). */
typedef struct gn_load_desc {
    const char *path;     /* file path or map name; required */
    const char *paks;     /* folder of .pk3 archives (maps and their textures); may be NULL */
    uint32_t patch_level; /* Bezier patch subdivisions of Quake 3 curves; default 8 */
    gn_log_fn log;        /* warnings (missing textures); default stderr */
    void *log_user;
    /* A Quake 3 map's "light" entities become point lights. Their light is baked into the
     * lightmaps too, so this doubles it: for lighting work on real light layouts. */
    bool map_lights;
    float map_light_scale; /* multiplies their intensity; default 1 */
    /* A Quake 3 map's surfaces draw their image alone, as if the archives had no shader scripts
     * (the single-image path: an A/B against the shaders' stages, docs/MATERIALS.md). */
    bool no_shader_scripts;
    /* An animated model (a .gltf or .glb with skins, animations or morph targets; .iqm, .md5mesh,
     * .fbx, .dae) is placed as one rig playing a clip (docs/ANIMATION.md): `animation` names the
     * clip (NULL: its first), `time_in_clip` is the seconds into it at scene time 0, `skinning` how
     * its vertices follow its joints. */
    const char *animation;
    float time_in_clip;
    gn_skinning skinning;
    /* A Quake 3 map: animated MD3 characters from the archives' player models at its spawn points. */
    bool characters;
} gn_load_desc;
GN_API gn_result gn_scene_load(const gn_load_desc *desc, gn_scene **out, gn_error *err);

/* Quake 3 shader scripts as gnomon reads and compiles them (docs/MATERIALS.md), as text: the
 * archives' scripts (counts, problems with file and line, unknown keywords with counts, the
 * compiled shaders by draw class); with `map`, that map's surface shaders and how each resolves
 * (its script, its image, or a checker) with the images the scripts name that no archive holds;
 * with `dump`, one shader's script, stages, packed state and disassembled TFX program. */
typedef struct gn_materials_desc {
    const char *paks; /* folder of .pk3 archives; required */
    const char *map;  /* a map name in them; NULL: no map table */
    const char *dump; /* a shader name; NULL: none dumped */
} gn_materials_desc;
GN_API gn_result gn_materials_report(const gn_materials_desc *d, char **text,
                                     gn_error *err); /* free: gn_free_text */
GN_API void gn_free_text(char *text);                /* NULL is fine */

typedef struct gn_mesh_desc {
    const float *positions; /* 3 floats a vertex, required */
    const float *normals;   /* 3 floats; NULL: computed from the triangles */
    const float *tangents;  /* 4 floats (w = bitangent sign); NULL: computed from uvs */
    const float *uvs;       /* 2 floats; NULL: zero */
    uint32_t vertex_count;
    const uint32_t *indices; /* counter-clockwise triangles */
    uint32_t index_count;
    const char *label;
    const float *lightmap_uvs; /* 2 floats: a second set for a material's lightmap; NULL: zero */
} gn_mesh_desc;

typedef enum gn_texture_format {
    GN_TEXTURE_RGBA8 = 0, /* `rgba8`: 8 bits a channel, sRGB when `srgb`; sampled with a mip chain */
    GN_TEXTURE_RGB9E5,    /* `rgb9e5`: linear HDR light (lightmaps) as VK_FORMAT_E5B9G9R9_UFLOAT_PACK32
                             words; one level, no mips (an atlas's rectangles must not blend) */
} gn_texture_format;

typedef struct gn_texture_desc {
    uint32_t width, height;
    const uint8_t *rgba8; /* GN_TEXTURE_RGBA8: width*height*4 bytes, copied */
    bool srgb;            /* RGBA8 colour data (base colour, emissive); false for normal maps */
    const char *label;
    gn_texture_format format; /* default RGBA8 */
    const uint32_t *rgb9e5;   /* GN_TEXTURE_RGB9E5: width*height words, copied */
} gn_texture_desc;

/* How a material's alpha (base colour alpha times its texture's) is used: glTF's alphaMode. */
typedef enum gn_alpha_mode {
    GN_ALPHA_OPAQUE = 0, /* alpha ignored: nothing is cut (what a MASK cutoff of exactly 0 means) */
    GN_ALPHA_MASK,       /* cut out below alpha_cutoff, in the depth prepass and shadow passes too */
    GN_ALPHA_BLEND,      /* blended over what is behind, drawn after the opaque scene back to front
                            within its layer (gn_material_desc.sort), no depth write, casts no
                            shadow */
} gn_alpha_mode;

/* The BRDF's smallest roughness: the specular lobe reads any roughness below it as this
 * (src/decide/brdf.h GN_BRDF_MIN_ROUGHNESS and shaders/brdf.glsl hold the same value), so a
 * material at or below it is as smooth as a surface gets here: "perfectly smooth". */
#define GN_MATERIAL_MIN_ROUGHNESS 0.045f

/* A material's texture maps, in the order of gn_material_desc.uv_transform. */
typedef enum gn_material_map {
    GN_MATERIAL_MAP_BASE_COLOR = 0,
    GN_MATERIAL_MAP_NORMAL,
    GN_MATERIAL_MAP_METALLIC_ROUGHNESS,
    GN_MATERIAL_MAP_OCCLUSION,
    GN_MATERIAL_MAP_EMISSIVE,
    GN_MATERIAL_MAPS
} gn_material_map;

/* glTF's KHR_texture_transform of one map: uv' = T(offset) R(rotation) S(scale) uv, with R
 * turning +u towards -v, as glTF defines it (v down the image). All zero: none. */
typedef struct gn_uv_transform {
    float offset[2];
    float rotation;  /* radians */
    float scale[2];  /* (0, 0) reads as (1, 1) */
    uint32_t uv_set; /* 0: the mesh's uvs, 1: its lightmap_uvs (glTF's TEXCOORD_1) */
} gn_uv_transform;

/* Zero means default in every field. Texture fields hold ids from gn_scene_add_texture,
 * which start at 1; 0 is "no texture". */
typedef struct gn_material_desc {
    float base_color[4]; /* default (0,0,0,0) is read as (0.8,0.8,0.8,1) */
    float metallic;      /* 0..1 */
    /* 0..1, perceptual (alpha = roughness^2). 0 reads as the default 0.5; for a perfectly
     * smooth surface give GN_MATERIAL_MIN_ROUGHNESS (any value up to it shades the same
     * highlight; the hemisphere ambient's gloss still reads the value as given). */
    float roughness;
    float emissive[3];           /* linear emitted luminance, cd/m2 (nits): a lit window ~100, a lamp's
                                    glass ~10,000 (the noon sky is ~5,000) */
    uint32_t base_color_texture; /* an RGBA8 texture, or 0: none */
    uint32_t normal_texture;     /* an RGBA8 tangent-space normal map, or 0: none */
    /* A baked lightmap (an RGB9E5 texture, or 0: none) read through the mesh's lightmap_uvs:
     * the diffuse irradiance of the surface, in place of the ambient's diffuse term (the sun
     * and local lights still add), divided by pi: in cd/m2, a texel of v makes a white surface's
     * luminance v nits (its radiance v times its base colour). */
    uint32_t lightmap_texture;
    const char *label;
    gn_alpha_mode alpha_mode;
    /* GN_ALPHA_MASK: fragments whose alpha is below it are cut; 0 reads as glTF's default 0.5.
     * A cutoff of exactly 0 would cut nothing: that is GN_ALPHA_OPAQUE (or GN_ALPHA_BLEND). */
    float alpha_cutoff;
    /* glTF's other maps (RGBA8 textures, or 0: none): roughness in green and metallic in blue
     * scaling the factors (linear), ambient occlusion in red (linear) darkening the ambient
     * and baked light, and emission (sRGB) scaling the emissive factor. */
    uint32_t metallic_roughness_texture, occlusion_texture, emissive_texture;
    /* The emission is a night light's: it follows the frame's night level (off by day, on from
     * dusk to dawn: docs/POST.md), as a lamp's glass or a lit window does. */
    bool night_emissive;
    /* glTF's KHR_materials_specular and KHR_materials_ior, the dielectric's reflection: F0 =
     * min(((ior - 1) / (ior + 1))^2 specular_color, 1) specular and F90 = specular; metals keep
     * their base colour's. specular_set false: glTF's defaults (specular 1, colour white, ior
     * 1.5, so F0 0.04) whatever the three fields hold. */
    bool specular_set;
    float specular;          /* 0..1: 0 leaves the diffuse alone */
    float specular_color[3]; /* linear, >= 0 */
    float ior;               /* >= 1, or 0 for infinite (F0 the colour: a specular-glossiness conversion) */
    /* KHR_materials_specular's maps (RGBA8 textures, or 0: none), read at the vertex's uv:
     * specular_texture's alpha (linear) scales F0 and F90, specular_color_texture's rgb (sRGB)
     * scales F0 after the min(..., 1) above (exact unless that clamp was active). */
    uint32_t specular_texture, specular_color_texture;
    gn_uv_transform uv_transform[GN_MATERIAL_MAPS]; /* each map's (gn_material_map) */
    /* glTF's doubleSided: both faces drawn, each lit from the side it shows (a leaf, a cloth, a
     * flag); false: faces turned away from the viewer are culled. */
    bool double_sided;
    /* GN_ALPHA_BLEND: the layer it draws in among blended surfaces, in Quake 3's sort numbers
     * (banner 6, blend0 9 ... nearest 16; kept to 1/1024): a lower layer draws first, and within
     * a layer surfaces draw back to front. 0: 9, where a Quake 3 shader that states none would be
     * (a map's materials take their shader's). */
    float sort;
} gn_material_desc;

typedef enum gn_instance_flags {
    GN_INSTANCE_STATIC = 0,
    GN_INSTANCE_DYNAMIC = 1, /* moves: later shadow caches re-render it */
} gn_instance_flags;

typedef struct gn_instance_desc {
    uint32_t mesh, material;
    float transform[16]; /* column-major 4x4, last row (0,0,0,1); all zero means identity */
    uint32_t flags;      /* gn_instance_flags */
} gn_instance_desc;

/* Refuses non-finite attributes and positions beyond 1e7 m from the origin on any axis
 * (GN_ERROR_BAD_DATA); gn_scene_add_instance and gn_scene_set_transform refuse a non-finite
 * transform or one that puts the instance's bounds beyond 4e7 m (GN_ERROR_INVALID_ARGUMENT). */
GN_API gn_result gn_scene_add_mesh(gn_scene *s, const gn_mesh_desc *d, uint32_t *out_id, gn_error *err);
/* Texture ids start at 1, so that 0 in a gn_material_desc's texture fields means "none". */
GN_API gn_result gn_scene_add_texture(gn_scene *s, const gn_texture_desc *d, uint32_t *out_id, gn_error *err);
GN_API gn_result gn_scene_add_material(gn_scene *s, const gn_material_desc *d, uint32_t *out_id,
                                       gn_error *err);
GN_API gn_result gn_scene_add_instance(gn_scene *s, const gn_instance_desc *d, uint32_t *out_id,
                                       gn_error *err);
/* Moves an instance. A dynamic one is re-rendered wherever it is; moving a static one (an edit)
 * re-renders only the cached shadow pages its old and new bounds touch. */
GN_API gn_result gn_scene_set_transform(gn_scene *s, uint32_t instance, const float transform[16],
                                        gn_error *err);
/* Removes an instance: never drawn again, casts no shadow; its id stays taken (other ids do not
 * move). Removing a static one re-renders only the cached shadow pages its bounds touched. */
GN_API gn_result gn_scene_remove_instance(gn_scene *s, uint32_t instance, gn_error *err);
GN_API void gn_scene_animate(gn_scene *s, double seconds); /* moves the built-in scene's dynamic objects */
/* Animated rigs (docs/ANIMATION.md): their playback rate, 1 by default, 0 pauses them (clamped to
 * [0, 100]; the pose stays continuous across a change); and every rig switched to its model's next
 * clip, crossfaded over `fade` seconds (name: the first rig's new clip). */
GN_API void gn_scene_set_animation_speed(gn_scene *s, float speed);
GN_API gn_result gn_scene_next_clip(gn_scene *s, float fade, char *name, size_t name_cap, gn_error *err);

/* ---- decals (docs/EFFECTS.md, "Decals") ------------------------------------------------------ */
#define GN_MAX_DECALS 16384u  /* per scene */
#define GN_MAX_DECAL_SETS 64u /* distinct (base colour, normal map) pairs per scene: a draw each */
/* A screen-space decal: a box whose texture is projected onto the opaque surfaces inside it,
 * lit like them. Zero means default in every field but the transform and the base colour. */
typedef struct gn_decal_desc {
    /* The unit cube [-0.5, 0.5]^3 into the world: column-major 4x4, affine (last row 0 0 0 1),
     * finite, every edge at least 1 mm, not coplanar and not mirroring (required). The texture is projected
     * along the box's local -Z onto what lies inside, seen from local +Z; u runs along local
     * +X and v along local -Y (the image's top row at local +Y). Its X and Y scales are the
     * image's size in metres, its Z scale how deep it reaches (keep it shallow: everything in
     * the box takes the texture). */
    float transform[16];
    uint32_t base_color_texture; /* an RGBA8 texture (sRGB colour, alpha the shape: texels whose
                                    tinted alpha is below 0.5 are cut out); required */
    uint32_t normal_texture;     /* an RGBA8 tangent-space normal map (+Z out, tangent along local
                                    +X, green up the image), or 0: the surface's own normal */
    float color[4];              /* tint times the texture, linear rgb and alpha; all zero: white, 1 */
    float opacity;               /* scales the blend weight, (0, 1]; 0: 1 */
    /* The angle fade, degrees between the surface's normal and the box's local +Z: full up to
     * fade_start_deg, none from fade_end_deg (smoothstep between), so surfaces running along the
     * projection take no smear; 0: 60 and 75. fade_start_deg < fade_end_deg <= 180. */
    float fade_start_deg, fade_end_deg;
    float roughness; /* the decal's surface, in [GN_MATERIAL_MIN_ROUGHNESS, 1]; 0: 0.8 (a puddle: ~0.05) */
    float metallic;  /* 0..1; 0: a dielectric */
} gn_decal_desc;
/* Adds a decal (ids from 0); refuses a bad transform, a missing or non-RGBA8 texture, a value
 * out of range, more than GN_MAX_DECALS decals or GN_MAX_DECAL_SETS texture sets
 * (GN_ERROR_INVALID_ARGUMENT). Decals blend in texture-set order (the order each set's first
 * decal was added), then in the order they were added. */
GN_API gn_result gn_scene_add_decal(gn_scene *s, const gn_decal_desc *d, uint32_t *out_id, gn_error *err);

/* ---- GPU particles (docs/EFFECTS.md, "GPU particles") ---------------------------------------- */
#define GN_MAX_EMITTERS 4096u               /* per scene */
#define GN_MAX_EMITTER_PARTICLES (1u << 20) /* live at once per emitter */
#define GN_MAX_SCENE_PARTICLES (1u << 22)   /* live at once per scene: the emitters' caps added up */
/* The built-in emitter descriptions (src/decide/particles.h, gn_particle_builtin_desc). */
typedef enum gn_emitter_kind {
    GN_EMITTER_CHIMNEY_SMOKE = 0, /* grey smoke rising and drifting, blended (default) */
    GN_EMITTER_FOUNTAIN,          /* water drops up and falling, bouncing off the depth buffer */
    GN_EMITTER_TORCH_FLAME,       /* an additive flame */
    GN_EMITTER_SPARKS,            /* additive sparks, velocity-aligned */
} gn_emitter_kind;
/* An emitter placed in the scene. Zero means default: the kind's description at the origin. */
typedef struct gn_emitter_desc {
    gn_emitter_kind kind;
    float position[3];      /* the emitter's origin in the world (m) */
    uint32_t seed;          /* its random numbers' seed (0 is a seed like any other) */
    float rate;             /* particles a second; 0: the kind's */
    uint32_t max_particles; /* live at once, 1..GN_MAX_EMITTER_PARTICLES; 0: the kind's */
    float lifetime;         /* > 0: every particle lives this long (s); 0: the kind's range */
    /* An emitter file (JSON, docs/EFFECTS.md "The emitter format") instead of the kind: its
     * emitter called name, or with name NULL every emitter of the file, the k-th at position +
     * (4 k, 0, 0) m (ids consecutive; out_id the first's). NULL: the kind. */
    const char *file;
    const char *name;
} gn_emitter_desc;
/* Adds an emitter (ids from 0); its clock starts at the scene's first rendered frame. Refuses a
 * value out of range (the whole description checked by gn_particle_desc_check), more than
 * GN_MAX_EMITTERS emitters or GN_MAX_SCENE_PARTICLES live particles in all
 * (GN_ERROR_INVALID_ARGUMENT). */
GN_API gn_result gn_scene_add_emitter(gn_scene *s, const gn_emitter_desc *d, uint32_t *out_id, gn_error *err);

/* ---- local lights (docs/LIGHTING.md) -------------------------------------------------------- */
#define GN_MAX_LIGHTS 16384u /* per scene: the light buffer and the froxel lists index 14 bits */
typedef enum gn_light_type { GN_LIGHT_POINT = 0, GN_LIGHT_SPOT } gn_light_type;
typedef struct gn_light_desc {
    gn_light_type type;
    float position[3];  /* world metres */
    float direction[3]; /* spot: the cone's axis (normalised by the scene) */
    float radius;       /* metres; the light falls to exactly zero here (> 0) */
    float color[3];     /* linear; all zero reads as white */
    float intensity;    /* candela (luminous intensity): the illuminance d metres away is
                           ~ intensity / (d^2 + 1) lux; a street lamp ~250 */
    float inner_angle;  /* spot: degrees from the axis where the falloff starts; default 20 */
    float outer_angle;  /* spot: degrees where it reaches zero (<= 89); default 30 */
    bool cast_shadows;  /* a candidate for the shadowed-light budget */
    bool night;         /* lit from dusk to dawn: scaled by the frame's night level (docs/POST.md) */
} gn_light_desc;

GN_API gn_result gn_scene_add_light(gn_scene *s, const gn_light_desc *d, uint32_t *out_id, gn_error *err);
/* A place for a local reflection probe (docs/SKY.md, "Reflection probes"): the renderer renders
 * the scene from the sites (nearest the default camera first, at least the probes' spacing apart,
 * at most GN_PROBES_MAX) when it first draws the scene. A scene with none gets its street light
 * sites (the town) or a grid over its bounds; a Quake 3 map has its spawn points and items. */
GN_API gn_result gn_scene_add_probe_site(gn_scene *s, const float position[3], gn_error *err);
GN_API gn_result gn_scene_set_light(gn_scene *s, uint32_t light, const gn_light_desc *d, gn_error *err);
GN_API uint32_t gn_scene_light_count(const gn_scene *s);
GN_API gn_result gn_scene_get_light(const gn_scene *s, uint32_t light, gn_light_desc *out, gn_error *err);
/* The built-in scene's lights: street lamps on its lamp posts, lit windows and a few moving
 * lights (which gn_scene_animate moves), count in all, deterministic from seed. */
GN_API gn_result gn_scene_add_builtin_lights(gn_scene *s, uint32_t count, uint32_t seed, gn_error *err);

/* Read-only views of a scene's geometry (for tools such as ray-traced references). The
 * pointers stay valid until the scene changes. */
typedef struct gn_mesh_view {
    const float *positions; /* x, y, z of the first vertex; `stride` bytes to the next */
    uint32_t stride;
    uint32_t vertex_count;
    const uint32_t *indices; /* mesh-local, counter-clockwise triangles */
    uint32_t index_count;
} gn_mesh_view;
GN_API gn_result gn_scene_get_mesh(const gn_scene *s, uint32_t mesh, gn_mesh_view *out, gn_error *err);
GN_API gn_result gn_scene_get_instance(const gn_scene *s, uint32_t instance, gn_instance_desc *out,
                                       gn_error *err);

typedef struct gn_scene_info {
    uint32_t meshes, materials, textures, instances, dynamic_instances;
    uint64_t triangles;        /* summed over instances */
    uint64_t unique_triangles; /* summed over meshes */
    float bounds_min[3], bounds_max[3];
    float default_camera[5]; /* x, y, z, yaw, pitch (degrees) */
    float viewpoints[3][5];  /* more scenic cameras of a built-in scene (town: street, rooftop, overview) */
    uint32_t viewpoint_count;
    float default_fov_y; /* the default camera's vertical field of view in degrees (a glTF file's
                            camera); 0: the scene gives none (the renderer's default, 60) */
} gn_scene_info;
GN_API void gn_scene_get_info(const gn_scene *s, gn_scene_info *out);

/* ---- a frame ------------------------------------------------------------------------------ */
typedef enum gn_view {
    GN_VIEW_FINAL = 0,
    GN_VIEW_DEPTH,         /* linearised depth, near white */
    GN_VIEW_NORMALS,       /* world normals after normal mapping, n*0.5+0.5 */
    GN_VIEW_ALBEDO,        /* base colour, no lighting */
    GN_VIEW_SHADOW,        /* the sun's shadow factor alone: white lit, black shadowed */
    GN_VIEW_CASCADES,      /* a colour per shadow cascade (blends show both) */
    GN_VIEW_LIGHT_HEATMAP, /* lights in each pixel's froxel: blue few .. red many, white overflow */
    GN_VIEW_VSM_PAGES,     /* virtual shadow map: a colour per clipmap level, pages rendered this
                              frame bright, no page (beyond the clipmap or waiting) dark */
    GN_VIEW_VSM_ATLAS,     /* the VSM's physical page pool as an image (depth, near the sun dark) */
    GN_VIEW_DISTANCE,      /* linear distance from the camera: white near, black at the scene's
                              farthest bounds corner, a contour every 1, 2 or 5 x 10^k m (about ten) */
    GN_VIEW_OCCLUSION,     /* occlusion culling: the frame over the HZB (level 2, white near), and a red
                              outline around each instance in the view that it culled this frame */
    GN_VIEW_LUMINANCE,     /* the scene's luminance in false colour over the exposure's EV100 range,
                              with its histogram, the metered band and the exposure drawn below */
    GN_VIEW_BLOOM,         /* the bloom chain's output alone, exposed and tone-mapped */
    GN_VIEW_AO,            /* ambient occlusion alone (SAO, blurred): white open, black occluded */
    GN_VIEW_DOF_COC,       /* depth of field's blend per pixel: black sharp .. white fully blurred (the
                              sky's share of geometry blue) */
    GN_VIEW_IBL,           /* the ambient light alone (the environment's diffuse and specular, AO in) */
    GN_VIEW_SKY_LUT,       /* the atmosphere's tables over the frame: the sky-view table (top), the
                              transmittance and the multiple scattering (below), exposed */
    GN_VIEW_FOG,           /* what the air adds in front of each pixel (aerial perspective and the
                              height fogs' in-scattering, exposed) and, in blue, how much it hides */
    GN_VIEW_PROBES,        /* reflection probes: each surface in its probe's colour (grey: the sky's
                              environment), darker where the probe fades, and a mirror ball at each probe */
    GN_VIEW_COUNT
} gn_view;

typedef enum gn_shadows {
    GN_SHADOWS_DEFAULT = 0, /* virtual shadow maps */
    GN_SHADOWS_NONE,
    GN_SHADOWS_CSM,
    GN_SHADOWS_VSM, /* virtual shadow maps: a cached page clipmap (docs/SHADOWS.md) */
} gn_shadows;

/* How blended (GN_ALPHA_BLEND) surfaces are composited (docs/EFFECTS.md). */
typedef enum gn_transparency {
    GN_TRANSPARENCY_DEFAULT = 0, /* sorted */
    GN_TRANSPARENCY_SORTED,      /* back to front by each instance's bounding sphere, layer by layer */
    GN_TRANSPARENCY_OIT,         /* A/B: weighted blended order-independent transparency (McGuire and
                                    Bavoil 2013): no order, an approximation where surfaces overlap; a
                                    Quake 3 shader's dual-source stages still draw sorted, after it */
} gn_transparency;

typedef enum gn_tonemap {
    GN_TONEMAP_DEFAULT = 0,
    GN_TONEMAP_ACES,
    GN_TONEMAP_REINHARD,
    GN_TONEMAP_CLIP
} gn_tonemap;

/* The camera's exposure (docs/POST.md). Light is in physical units throughout: the sun in lux,
 * the sky and emissive surfaces in cd/m2 (nits), local lights in candela; an exposure value
 * at ISO 100 (EV100) turns them into the image. Zero means default throughout. */
typedef enum gn_exposure_mode {
    GN_EXPOSURE_DEFAULT = 0, /* auto */
    GN_EXPOSURE_AUTO,        /* eye adaptation: metered from the frame's luminance histogram */
    GN_EXPOSURE_FIXED,       /* a camera's EV100: given, or from aperture, shutter and ISO */
} gn_exposure_mode;

#define GN_EV100_SUNNY 15.0f /* "sunny 16": a white wall under the noon sun shows light grey */

typedef struct gn_exposure_desc {
    gn_exposure_mode mode;
    /* FIXED: EV100; 0 reads as log2(aperture^2 / shutter * 100 / iso) when all three are given,
     * else GN_EV100_SUNNY (for EV100 0 itself give a value under 1e-6) */
    float ev100;
    float aperture, shutter, iso;    /* f-number, seconds, ISO speed */
    float min_ev100, max_ev100;      /* AUTO: the histogram's range, which also bounds the exposure;
                                        default -4 .. 18 (a moonless town .. snow at noon) */
    float low_percent, high_percent; /* AUTO: the band of the histogram metered; default 10 .. 90 */
    float speed_up, speed_down;      /* AUTO: EV a second towards a brighter scene and a darker one;
                                        default 3 and 1 (Bevy's) */
    float transition;                /* AUTO: EV from the target within which adaptation slows
                                        smoothly to a stop; default 1.5 */
} gn_exposure_desc;

/* Bloom (docs/POST.md): the HDR colour's glow, an energy-conserving mip chain. Zero is default. */
typedef struct gn_bloom_desc {
    bool off;
    float intensity; /* share of the blurred chain blended into the colour; default 0.04 */
    float threshold; /* exposed value (1: display white) light must pass to bloom; default 0: all
                        light blooms and the chain conserves energy */
    float knee;      /* the threshold's soft knee; default half the threshold */
    float scatter;   /* how much a level takes from the coarser one: a wider glow with more;
                        default 0.7 (0 < scatter <= 1) */
} gn_bloom_desc;

/* Ambient occlusion (docs/POST.md): Scalable Ambient Obscurance (McGuire, Mara and Luebke, HPG
 * 2012) from the prepass depth, darkening the ambient and environment light of opaque surfaces
 * (not the sun, the lights, emission or the sky). Zero is default. The obscurance it estimates is
 * the one `gnomon aoref` ray-traces: 1 - the cosine-weighted mean over the hemisphere of
 * (1 - (t / radius)^2)^3, t the distance to the nearest surface along each direction (0 beyond
 * the radius). */
typedef struct gn_ao_desc {
    bool off;
    float radius;    /* metres; default GN_AO_DEFAULT_RADIUS */
    float bias;      /* metres a neighbour must stand above the tangent plane to occlude; default
                        GN_AO_DEFAULT_BIAS */
    float intensity; /* scale of the estimate; default GN_AO_DEFAULT_INTENSITY (fitted to the
                        ray-traced truth: docs/POST.md) */
} gn_ao_desc;
#define GN_AO_DEFAULT_RADIUS 1.0f
#define GN_AO_DEFAULT_BIAS 0.02f
#define GN_AO_DEFAULT_INTENSITY 1.5f

/* Depth of field (docs/POST.md): a half-size blurred copy of the frame blended into each pixel
 * by its blur, saturate((distance - focus) / range) * strength behind the focus (BACK, the
 * default: a distant blur), saturate((focus - distance) / range) * strength in front (FRONT),
 * or both (BOTH). Off unless strength > 0. */
typedef enum gn_dof_mode { GN_DOF_BACK = 0, GN_DOF_FRONT, GN_DOF_BOTH } gn_dof_mode;
typedef struct gn_dof_desc {
    float focus;    /* metres from the camera to the sharp plane */
    float range;    /* metres over which the blur grows to full; default 0 reads as focus */
    float strength; /* 0..1 blend at full blur; 0: off */
    float radius;   /* half-size pixels of the Gaussian's radius; default 4 */
    gn_dof_mode mode;
    bool blur_sky; /* the sky blurs like geometry at infinity; default off: the sky is blurred only
                      beside geometry, by their average depth, at half strength */
} gn_dof_desc;

/* One exponential height fog (seed 002): density(y) = density * exp(-(y - base) * falloff / 1000),
 * lit by the key light (the sun or the moon) through a phase and by the sky's ambient: a froxel
 * volume out to volumetric_far (the key light's shadows and the local lights in the air), in
 * closed form beyond it and with no_volumetric (docs/SKY.md, "Fog", "Volumetric fog"). density 0:
 * off. */
typedef struct gn_fog_desc {
    float density; /* extinction at the base height, per metre (0.002: ~500 m of visibility) */
    float base;    /* metres */
    float falloff; /* per km: 1000 / the fog's scale height (m); 0 reads as 100 (a 10 m layer) */
} gn_fog_desc;

typedef struct gn_camera {
    float position[3]; /* world metres, Y up */
    float yaw, pitch;  /* degrees; yaw 0 looks down -Z, positive yaw turns left (towards -X) */
    float fov_y;       /* degrees; default 60 */
    float near_plane;  /* metres; default 0.1. The far plane is at infinity (reversed-Z) */
} gn_camera;

typedef struct gn_frame_desc {
    gn_camera camera;     /* all zero: the scene's default camera (give fov_y to set one at the origin) */
    float time_of_day;    /* hours, local solar time, in (0, 24]; 0 is read as 18.5 (sunset), 24 is
                             midnight */
    float latitude;       /* degrees; 0 is read as the default 45 (for the equator give a value
                             under 1e-3: the sun moves less than a thousandth of a degree) */
    uint32_t day_of_year; /* 1..365; default 230 (mid August: 18.5 h is just before sunset at 45 N) */
    int32_t year;         /* for the moon's phase; 0 is read as 2026 */
    float exposure;       /* exposure compensation in EV (stops) on top of camera_exposure: +1 doubles
                             the image's brightness; default 0 */
    gn_tonemap tonemap;   /* default ACES */
    gn_view view;
    gn_shadows shadows; /* the sun's shadow technique; default VSM (a cold cache fills over a few
                           frames: docs/SHADOWS.md) */
    bool naive_lights;  /* A/B: every light for every fragment instead of the froxel lists */
    bool no_pvs;        /* A/B for BSP worlds: frustum culling only, no potentially visible set */
    bool cpu_culling;   /* A/B: the camera's draw list culled and sorted on the CPU every frame, as
                           before GPU culling (the same list: docs/VISIBILITY.md); no occlusion */
    bool no_occlusion;  /* A/B: GPU culling without the camera's two-phase occlusion culling */
    bool clusters;      /* A/B: large meshes drawn as clusters (meshlets), each culled by its sphere,
                           its normal cone and occlusion (GPU culling only; docs/VISIBILITY.md) */
    bool no_caster_lod; /* A/B: the sun's cascades draw every caster as it is, not the simplified
                           copy of a large opaque one whose error is within a texel (the default
                           with GPU culling; docs/VISIBILITY.md) */
    bool vsm_occlusion; /* the VSM's casters culled against the pages' own depth in two phases (the
                           same shadows: docs/VISIBILITY.md); off by default (bench/RESULTS.md) */
    gn_transparency transparency; /* blended surfaces: sorted (default) or weighted blended OIT */
    /* Alpha-tested (GN_ALPHA_MASK) surfaces under MSAA: the depth prepass covers each pixel's
     * samples in proportion to the alpha, sharpened to about a pixel (alpha to coverage), instead of
     * all or none of them; shadows keep the plain test. Off by default (docs/EFFECTS.md) */
    bool alpha_to_coverage;
    gn_exposure_desc camera_exposure; /* auto (default) or fixed; the metering and adaptation */
    gn_bloom_desc bloom;              /* on by default */
    gn_ao_desc ao;                    /* on by default */
    gn_dof_desc dof;                  /* off by default */
    bool no_dither;       /* A/B: the 8-bit output without its +-1 level dither (gradients band) */
    bool no_ibl;          /* A/B: the ambient light from a two-colour hemisphere, as before image-based light
                             (docs/SKY.md), not from the sky's environment map */
    bool no_probes;       /* A/B: surfaces reflect the sky's environment only, not their reflection probes */
    gn_fog_desc fog[2];   /* two height fogs (seed 002); off by default */
    float fog_albedo;     /* the fogs' single-scattering albedo (0: 0.9); their colour is the light's */
    float fog_anisotropy; /* Henyey-Greenstein g towards the sun, in [0, 0.95) (0: 0.6) */
    bool no_aerial;       /* A/B: no aerial perspective (the air between the eye and surfaces) */
    bool no_volumetric;   /* A/B: the fogs analytic all the way, without volumetric fog's froxels (on by
                             default whenever a fog is: the key light's shadows and the local lights
                             in the air; docs/SKY.md) */
    float volumetric_far; /* metres of view depth the froxels cover (0: 128); the fogs beyond stay analytic */
    bool no_stars;        /* no stars in the night sky */
    double seconds;       /* animation time for dynamic objects; eye adaptation runs over the time between
                             frames (a frame at the same or an earlier time is exposed at its target) */
    /* With a surface attached: an RGBA8 image (straight alpha, top row first, the output's
     * size) blended over the frame on its way to the window only; gn_read_pixels never sees
     * it. NULL: none. */
    const uint8_t *overlay;
} gn_frame_desc;

/* Colour grading (docs/POST.md): a 3D lookup table in the .cube text format (LUT_3D_SIZE 2..64,
 * DOMAIN_MIN/MAX; every count and value checked), applied to the tone-mapped display colour of
 * every later frame before the dither. NULL removes it. Waits for the GPU. */
GN_API gn_result gn_renderer_set_color_lut(gn_renderer *r, const char *cube_path, gn_error *err);

/* Renders one frame of the scene. The first call with a scene uploads it. */
GN_API gn_result gn_render(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err);

/* Waits for the last rendered frame and copies its tone-mapped image (RGBA8, sRGB, top row
 * first) into pixels, which holds width*height*4 bytes. */
GN_API gn_result gn_read_pixels(gn_renderer *r, uint8_t *pixels, gn_error *err);

/* Waits for the last frame and copies its resolved depth (sample 0; reversed-Z: 1 at the
 * near plane, 0 at infinity and in the sky) into depth, width*height floats, top row first. */
GN_API gn_result gn_read_depth(gn_renderer *r, float *depth, gn_error *err);

/* Waits for the last frame and copies its ambient occlusion (the blurred SAO the forward pass
 * applied: 1 open, 0 fully occluded; 1 in the sky) into ao, width*height floats, top row first.
 * Fails when the last frame had ambient occlusion off. */
GN_API gn_result gn_read_ao(gn_renderer *r, float *ao, gn_error *err);

/* The camera and sun of the last gn_render call, as the GPU used them. */
typedef struct gn_frame_view {
    float view_proj[16];     /* world -> clip (column-major, Vulkan clip, reversed-Z) */
    float inv_view_proj[16]; /* clip -> world */
    float camera_position[3];
    float near_plane;
    float sun_direction[3]; /* unit, towards the sun */
    float sun_elevation;    /* degrees */
    float ao_radius;        /* the ambient occlusion's radius (metres), 0 when it was off */
} gn_frame_view;
GN_API gn_result gn_get_frame_view(const gn_renderer *r, gn_frame_view *out, gn_error *err);

/* The instances the last gn_render drew in its camera view after culling (the frustum; for a
 * BSP world also the PVS, unless no_pvs; with occlusion culling, what it did not hide): up to
 * max ids into out, in draw order (sorted by pipeline, material and mesh, not by id), and
 * *count set to how many there are in all (out may be NULL with max 0 to ask the count). On the
 * CPU path the CPU decided them and nothing waits; with GPU culling (the default) the list is
 * read back from the GPU, which waits for that frame. They belong to the last frame gn_render
 * submitted: the next gn_render replaces them, and after one that failed before submitting,
 * this fails too until a frame succeeds. Shadow casters are not included. */
GN_API gn_result gn_get_visible_instances(const gn_renderer *r, uint32_t *out, uint32_t max, uint32_t *count,
                                          gn_error *err);

/* ---- statistics ---------------------------------------------------------------------------- */
/* Passes a gn_frame_stats reports. The renderer's own pass table decides how many passes a frame
 * times (its timestamp queries are sized to it); a renderer whose table could time more than this
 * refuses to be made, so no pass is ever dropped from the statistics. */
#define GN_STATS_PASSES 80 /* the table runs 65 at most (with bloom's levels and the noop passes) */
typedef struct gn_pass_stats {
    char name[32];
    double gpu_ms;      /* from timestamp queries around the pass */
    uint32_t draws;     /* vkCmdDraw* calls recorded by the pass */
    uint64_t triangles; /* triangles submitted by the pass */
} gn_pass_stats;

typedef struct gn_frame_stats {
    uint64_t frame_index; /* the frame these statistics describe */
    uint32_t pass_count;
    gn_pass_stats passes[GN_STATS_PASSES];
    double gpu_ms; /* first pass start to last pass end */
    double cpu_ms; /* CPU time of gn_render for that frame (decide + record + submit) */
    /* Wall time gn_render spent on reflection probes before the frame (placing and rendering
     * them with their own renderer: a scene's first frame, or one probe a frame after the key
     * light moved; not in cpu_ms), and the probes it rendered */
    double probes_ms;
    uint32_t probes_rendered;
    /* Quake 3 shaders (docs/MATERIALS.md): the CPU time of evaluating the stages' programs of the
     * materials in the camera's list and the sky, and writing them to the ring; how many */
    double materials_ms;
    uint32_t materials_evaluated;
    /* Animation (docs/ANIMATION.md): the CPU time of posing the scene's rigs (clips sampled and
     * blended, palettes, morphs, bounds; in cpu_ms), and how many rigs and skinned vertices */
    double animation_ms;
    uint32_t rigs;
    uint64_t skinned_vertices;
    uint32_t instances_total, instances_visible, draw_groups; /* visible: in the view (frustum, PVS) */
    uint32_t instances_drawn; /* the camera's after occlusion culling (= visible without it) */
    uint32_t blended_drawn;   /* blended instances in view, drawn back to front (docs/EFFECTS.md) */
    uint32_t instances_phase1, instances_phase2; /* occlusion: drawn before and after the HZB */
    bool occlusion;                              /* the camera's list was occlusion-culled */
    /* With clusters: the camera's clusters of instances in the view, those culled by the
     * frustum and by the normal cone (facing away), and those drawn (the rest: occluded).
     * instances_drawn then counts draws of whole instances and of clusters. */
    uint32_t clusters_tested, clusters_culled_frustum, clusters_culled_cone, clusters_drawn;
    uint32_t draws;           /* all vkCmdDraw* calls */
    uint32_t shadow_updates;  /* shadow cascades rendered this frame */
    uint32_t shadow_casters;  /* caster instances drawn into them (summed) */
    uint32_t lights;          /* local lights in the frame */
    uint32_t light_overflow;  /* light-froxel pairs that did not fit a froxel's list (dropped) */
    uint32_t shadowed_lights; /* local lights rendered with shadow maps this frame */
    uint32_t
        unshadowed_lights; /* lights that cast shadows and reach the view, left unshadowed by the budget */
    uint32_t world_leaves, world_leaves_pvs,
        world_leaves_frustum; /* BSP worlds: leaves, after PVS, after frustum */
    uint32_t world_faces, world_faces_pvs, world_faces_frustum; /* faces likewise */
    double visibility_ms; /* CPU time of the camera's visibility (PVS, frustum, sort) */
    bool visibility_gpu;  /* the camera's list was culled on the GPU (instances_visible, draw_groups
                             and the drawing passes' triangles are the GPU's counts) */
    uint64_t triangles;   /* all triangles submitted */
    /* Virtual shadow maps (zero under CSM), as the GPU's ALLOC counted them in this frame. */
    uint32_t vsm_pages_requested, vsm_pages_resident, vsm_pages_rendered_static, vsm_pages_rendered_dynamic;
    uint32_t vsm_pages_rendered_fresh; /* of the static ones: new, back in view or dirty; the rest
                                          are refreshes for a moving sun (docs/SHADOWS.md: the lag bound) */
    uint32_t vsm_pages_evicted, vsm_overflow, vsm_pages_waiting; /* waiting: requested, over the budget */
    uint32_t vsm_pool_used, vsm_pool_pages;
    float vsm_sun_lag_deg; /* largest angle between a visible page's sun and this frame's */
    uint32_t vsm_requested_level[16], vsm_rendered_level[16];
    /* BIN's (caster, page) pairs: drawn in RENDER's first phase; with vsm_occlusion, those the
     * pages' older depth hid, which waited, and of them those drawn in the second phase */
    uint32_t vsm_pairs_phase1, vsm_pairs_waiting, vsm_pairs_phase2;
    /* The exposure: the EV100 the frame was shown at (auto: adapted), and what its histogram
     * metered (fixed: the same EV100) */
    float exposure_ev100, exposure_target_ev100;
    /* Decals (docs/EFFECTS.md): drawn (in the view's frustum, one instanced draw per texture
     * set) and culled by the frustum on the CPU */
    uint32_t decals_drawn, decals_culled;
    /* GPU particles (docs/EFFECTS.md), as the GPU counted them in this frame: alive after it and
     * spawned in it */
    uint32_t particles_live, particles_spawned;
} gn_frame_stats;

/* Statistics of the newest frame whose GPU work has finished (waits for none). Returns
 * GN_ERROR_INVALID_ARGUMENT when no frame has finished yet. */
GN_API gn_result gn_get_frame_stats(gn_renderer *r, gn_frame_stats *out, gn_error *err);

/* Statistics of every frame that finished since the last call, oldest first: up to max
 * into out, *count set to how many. The renderer keeps the last GN_STATS_QUEUE frames;
 * older ones are dropped (call at least that often). Waits for none. */
#define GN_STATS_QUEUE 64
GN_API gn_result gn_take_frame_stats(gn_renderer *r, gn_frame_stats *out, uint32_t max, uint32_t *count,
                                     gn_error *err);
GN_API uint64_t gn_renderer_frame_index(const gn_renderer *r); /* the last frame submitted by gn_render */

/* Waits until the GPU has finished every submitted frame. */
GN_API gn_result gn_renderer_wait_idle(gn_renderer *r, gn_error *err);

/* ---- floors: what the device cannot beat (src/floors.c) -------------------------------------
 * Small passes of known work on the renderer's device, at its output size and MSAA, each timed
 * with GPU timestamps: the median over `repeats` runs (one more run first is not counted). They
 * give a frame's passes a scale: gnomon bench --floors prints each pass's GPU time as a multiple
 * of the floor of the work it does. The call waits for the GPU, makes its own targets (as the
 * frame's are: the same formats, usage and samples), buffers and pipelines, and releases them
 * before it returns; the renderer's targets, frames and statistics are untouched. On a CPU device
 * (lavapipe) only ratios mean anything. */
#define GN_FLOORS_REPEATS 5        /* runs when repeats is 0 */
#define GN_FLOORS_MAX_REPEATS 1000 /* more is an invalid argument */
typedef struct gn_floors {
    uint32_t width, height, msaa; /* what was measured: the renderer's output size and samples */
    uint32_t repeats;
    /* A depth-only pass as the depth prepass draws (D32, reversed-Z GREATER, msaa samples, back
     * faces culled) of a grid over the whole screen of small front-facing triangles, all visible. */
    uint64_t triangles;              /* in the grid: 2,097,152 */
    double triangles_ms;             /* the pass, its depth clear (a load op, as the prepass's) included */
    double triangles_per_second;     /* triangles / triangles_ms */
    double ms_per_million_triangles; /* triangles_ms per million of them */
    /* A constant colour into the forward pass's HDR target (rgba16f, msaa samples): full-screen
     * triangles drawn over one another, no depth test, no blending. */
    uint32_t fill_layers;      /* full-screen triangles the pass draws (enough to time a small target) */
    double fill_ms;            /* per layer: every sample of the target written once */
    double samples_per_second; /* fill rate: width x height x msaa samples a layer, over fill_ms */
    double clear_depth_ms;     /* a rendering that only clears the MSAA depth (load op clear, store) */
    double clear_color_ms;     /* ... the MSAA HDR colour */
    /* A rendering that draws nothing and resolves, as the frame does: the colour's average (the
     * forward pass's, the MSAA samples discarded) and the depth's sample 0 (the prepass's). 0 at
     * msaa 1, where nothing is resolved. */
    double resolve_color_ms, resolve_depth_ms;
} gn_floors;
GN_API gn_result gn_measure_floors(gn_renderer *r, uint32_t repeats, gn_floors *out,
                                   gn_error *err); /* waits for the GPU; 0 repeats: GN_FLOORS_REPEATS */

/* ---- presenting to a window ------------------------------------------------------------------
 * The caller owns the window; the renderer owns a swapchain on its surface. With a surface
 * attached, every gn_render also copies its tone-mapped image (and the frame's overlay) into
 * the next swapchain image and presents it. A swapchain that is out of date (the window was
 * resized) is recreated; while the window has no area (minimised) frames render but are not
 * presented. docs/ARCHITECTURE.md, "Presenting". */
GN_API void *gn_renderer_vk_instance(const gn_renderer *r); /* the VkInstance: create the surface with it */

typedef struct gn_surface_desc {
    uint64_t surface; /* a VkSurfaceKHR of gn_renderer_vk_instance; the renderer owns it from here */
    bool vsync;       /* true: FIFO; false: MAILBOX, else IMMEDIATE, else FIFO */
} gn_surface_desc;
/* Needs a renderer made with presentable; fails (and destroys the surface) when the device
 * cannot present to it. A second call replaces the first surface. */
GN_API gn_result gn_renderer_attach_surface(gn_renderer *r, const gn_surface_desc *d, gn_error *err);
GN_API gn_result gn_renderer_set_vsync(gn_renderer *r, bool vsync,
                                       gn_error *err); /* rebuilds the swapchain */
/* A new output size (the window's framebuffer): waits for the GPU and remakes the render
 * targets; the swapchain follows on the next frame. The next frame starts without history. */
GN_API gn_result gn_renderer_resize(gn_renderer *r, uint32_t width, uint32_t height, gn_error *err);

typedef struct gn_present_stats {
    uint64_t presented;     /* frames handed to the window */
    uint64_t skipped;       /* frames rendered while the window had no area */
    uint32_t recreated;     /* swapchains made after the first (resize, out of date) */
    uint32_t width, height; /* the swapchain's extent; 0 while minimised */
    uint32_t image_count;
    bool vsync;
} gn_present_stats;
GN_API void gn_renderer_present_stats(const gn_renderer *r, gn_present_stats *out);

/* ---- where a read-back depth was measured (src/api_depth.c) ---------------------------------
 * gn_read_depth keeps sample 0 of each pixel, which lies off the pixel's centre under MSAA. To
 * turn a depth back into a world point, take clip ((px + x) / width * 2 - 1,
 * (py + y) / height * 2 - 1, depth, 1) through gn_frame_view's inv_view_proj, with (x, y) from
 * here: sample 0 of the standard sample locations (Vulkan spec, "Multisampling") for msaa
 * samples (gn_renderer_msaa), in 0..1 from the pixel's top-left corner, y down; the centre for
 * 1 or an unknown count. */
GN_API void gn_depth_sample_position(uint32_t msaa, float *x, float *y); /* sample 0 in its pixel */

#ifdef __cplusplus
}
#endif
#endif /* GNOMON_H */

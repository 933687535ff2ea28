/* The options of each gnomon command, parsed into plain structs. Pure: no Vulkan calls, so
 * tests/cli checks every default, range and message without a GPU. */
#ifndef GN_CLI_CMD_OPTS_H
#define GN_CLI_CMD_OPTS_H

#include "gnomon.h"
#include "opts.h"

/* The sun-shadow options render, bench and shadowcheck share (gn_csm_desc, gn_shadows). */
typedef struct gn_shadow_opts {
    int shadows; /* index into csm, none, vsm (gn_shadowcheck_mode) */
    uint32_t vsm_levels, vsm_res, vsm_pool, vsm_budget, vsm_evict;
    float vsm_level0;
    uint32_t cascades, resolution;
    float distance, lambda, overlap, normal_offset, bias_slope, bias_constant;
    bool lambda_set;
    const char *schedule; /* update period of each cascade, "1,1,2,4" */
} gn_shadow_opts;

/* Fills the renderer's CSM settings and the frame's shadow mode; false (with a message) for a
 * malformed --csm-schedule. */
bool gn_shadow_opts_apply(const gn_shadow_opts *o, const char *command, gn_csm_desc *csm, gn_vsm_desc *vsm,
                          gn_shadows *mode, char *err, size_t err_size);

/* Local-light options render and bench share. */
/* Animation (render, view, bench; docs/ANIMATION.md): an animated model's clip, the time into it
 * and its skinning; the town's people; a Quake 3 map's characters. */
typedef struct gn_anim_opts {
    const char *animation;  /* the clip an animated model plays (NULL: its first) */
    float time_in_clip;     /* seconds into it at scene time 0 */
    int skinning;           /* gn_skinning: linear or dq */
    uint32_t people;        /* the town's walking figures (and its banners) */
    uint32_t people_detail; /* their meshes' detail (gn_builtin_desc) */
    uint32_t characters;    /* 1: a map's spawn points get animated MD3 characters */
    uint32_t decals;        /* 1: the town's posters, road markings and puddles (gn_builtin_desc) */
    uint32_t particles;     /* 1: the town's smoke and fountain; N > 1: and a stress emitter of ~N live */
    const char *emitters;   /* an emitter file (src/formats/emitter.h): its emitters placed in the scene */
} gn_anim_opts;

typedef struct gn_light_opts {
    uint32_t lights;      /* built-in lights added to the scene */
    uint32_t clustered;   /* 1: froxel lists (default), 0: every light for every fragment */
    uint32_t shadowed;    /* shadowed local lights a frame; 0: the default (16) */
    uint32_t cluster_max; /* light indices a froxel holds; 0: the default (64) */
} gn_light_opts;

/* The renderer settings the light options choose. */
void gn_light_opts_apply(const gn_light_opts *o, gn_lights_desc *d);

/* The post chain's settings (render, view, bench): the camera's exposure (--exposure auto|EV100,
 * compensation, a camera's settings, eye adaptation's metering), bloom, ambient occlusion and
 * depth of field. Zero is default,
 * as in gn_exposure_desc and gn_bloom_desc. */
typedef struct gn_post_opts {
    float ev100; /* NAN: auto (the default) */
    float compensation;
    float aperture, shutter, iso; /* all three: a fixed exposure from them (unless --exposure EV100) */
    float min_ev100, max_ev100, low_percent, high_percent, speed_up, speed_down;
    float bloom; /* NAN: the default intensity; 0: off */
    float bloom_threshold, bloom_scatter;
    float ao;                   /* NAN: the default intensity; 0: off */
    float ao_radius, ao_bias;   /* 0: the defaults */
    float dof[3];               /* focus, range, strength; strength 0: off */
    int dof_mode;               /* gn_dof_mode */
    float dof_radius;           /* 0: the default */
    bool dof_sky;               /* the sky blurs like geometry */
    uint32_t ibl;               /* 1: ambient from the environment map (default), 0 the hemisphere */
    float fog[2][3];            /* the height fogs: density (per m), base (m), falloff (per km); 0: off */
    float fog_albedo, fog_g;    /* 0: the defaults */
    uint32_t aerial, stars;     /* 1: on (the defaults) */
    uint32_t volumetric;        /* 1: volumetric fog with a fog (the default) */
    float volumetric_far;       /* 0: the default */
    uint32_t year;              /* the moon's; 0: 2026 */
    uint32_t probes;            /* reflection probes at most (0: off); over GN_PROBES_MAX: the default */
    const char *lut;            /* a .cube grading table, or NULL */
    int transparency;           /* gn_transparency minus one: 0 sorted (default), 1 oit */
    uint32_t alpha_to_coverage; /* 1: alpha-tested surfaces' coverage from alpha under MSAA */
} gn_post_opts;

/* --probes into a renderer's probe settings. */
void gn_post_opts_probes(const gn_post_opts *o, gn_probes_desc *d);

/* The exposure and bloom descs and the compensation a frame takes from them. */
void gn_post_opts_frame(const gn_post_opts *o, gn_frame_desc *out);

/* The scene and frame options render, shadowref and shadowcheck share: the same names,
 * ranges, defaults and help lines. */
typedef struct gn_frame_opts {
    const char *scene;
    const char *paks;      /* folder of .pk3 archives for Quake 3 maps */
    uint32_t pvs;          /* 1: BSP worlds cull by PVS and frustum (default); 0: frustum only */
    uint32_t map_lights;   /* 1: a Quake 3 map's light entities become point lights */
    uint32_t single_image; /* 1: a Quake 3 map's surfaces draw their image, not their shader's stages */
    uint32_t gpu_culling;  /* 1: the camera's list culled on the GPU (default); 0: on the CPU */
    uint32_t occlusion;    /* 1: two-phase occlusion culling (default, GPU culling only); 0: frustum only */
    uint32_t clusters;     /* 1: large meshes as clusters culled one by one (GPU culling only); 0: whole */
    uint32_t caster_lod; /* 1: cascades draw casters' LODs that err by at most a texel (default); 0: never */
    uint32_t vsm_occlusion; /* 1: the VSM's casters culled against the pages' depth; 0: not (default) */
    gn_anim_opts anim;
    uint32_t size[2];
    float time;
    bool time_set;
    float camera[5]; /* x, y, z, yaw, pitch */
    bool camera_set;
    uint32_t msaa;
    uint32_t seed, scale;
    float latitude;
    bool latitude_set;
    uint32_t day;
} gn_frame_opts;

typedef struct gn_render_opts {
    gn_frame_opts frame; /* scene, size, time, camera, msaa, seed, scale, latitude, day, paks */
    uint32_t viewpoint;  /* 0: the scene's camera (or --camera); 1..3: its scenic viewpoints */
    int view;            /* gn_view: the choices are listed in enum order */
    int tonemap;         /* index into aces, reinhard, clip */
    gn_post_opts post;
    const char *out;
    const char *stats;
    gn_shadow_opts shadow;
    gn_light_opts light;
} gn_render_opts;

typedef enum gn_bench_path { GN_PATH_STATIC, GN_PATH_SUN, GN_PATH_WALK, GN_PATH_WALK_SUN } gn_bench_path;

typedef struct gn_bench_opts {
    const char *scene;
    const char *paks;      /* folder of .pk3 archives for Quake 3 maps */
    uint32_t pvs;          /* 1: BSP worlds cull by PVS and frustum (default); 0: frustum only */
    uint32_t map_lights;   /* 1: a Quake 3 map's light entities become point lights */
    uint32_t single_image; /* 1: a Quake 3 map's surfaces draw their image, not their shader's stages */
    uint32_t gpu_culling;  /* 1: the camera's list culled on the GPU (default); 0: on the CPU */
    uint32_t occlusion;    /* 1: two-phase occlusion culling (default, GPU culling only); 0: frustum only */
    uint32_t clusters;     /* 1: large meshes as clusters culled one by one (GPU culling only); 0: whole */
    uint32_t caster_lod; /* 1: cascades draw casters' LODs that err by at most a texel (default); 0: never */
    uint32_t vsm_occlusion; /* 1: the VSM's casters culled against the pages' depth; 0: not (default) */
    gn_anim_opts anim;
    uint32_t size[2];
    uint32_t frames, warmup;
    int path; /* gn_bench_path */
    uint32_t msaa;
    uint32_t seed, scale;
    const char *json;
    const char *plot;
    uint32_t viewpoint; /* 0: the scene's camera (or --camera); 1..3: its scenic viewpoints */
    float sun_speed;    /* the sun paths: simulated seconds per real second */
    float camera[5];    /* the path's start (x, y, z, yaw, pitch) in place of the scene's camera */
    bool camera_set;
    bool floors; /* --floors: measure the floors before and after, each pass against its floor */
    gn_shadow_opts shadow;
    gn_light_opts light;
    gn_post_opts post;
} gn_bench_opts;

typedef struct gn_shadowref_opts {
    gn_frame_opts frame;
    const char *out;
} gn_shadowref_opts;

/* 1 + the scenic viewpoints a scene can have (gn_scene_info.viewpoints). */
#define GN_SHADOWCHECK_MAX_VIEWS 4

/* zero is the default: virtual shadow maps (docs/SHADOWS.md: why) */
typedef enum gn_shadowcheck_mode {
    GN_SHADOWCHECK_VSM,
    GN_SHADOWCHECK_NONE,
    GN_SHADOWCHECK_CSM
} gn_shadowcheck_mode;

typedef struct gn_shadowcheck_opts {
    gn_frame_opts frame;
    gn_shadow_opts shadow; /* shadow.shadows is a gn_shadowcheck_mode */
    uint32_t views;
    const char *json;
    const char *out_dir;
    float min_off_edge; /* 0..1; checked only when set */
    bool min_off_edge_set;
} gn_shadowcheck_opts;

/* The frame's ambient occlusion as aoref and aocheck set it (gn_ao_desc); 0: the default. */
typedef struct gn_ao_frame_opts {
    float radius, bias, intensity;
} gn_ao_frame_opts;
void gn_ao_frame_opts_apply(const gn_ao_frame_opts *o, gn_ao_desc *d);

typedef struct gn_aoref_opts {
    gn_frame_opts frame;
    gn_ao_frame_opts ao; /* ao.radius is the truth's too; 0: the renderer's */
    uint32_t rays;       /* a pixel */
    const char *out;
} gn_aoref_opts;

typedef struct gn_aocheck_opts {
    gn_frame_opts frame;
    gn_ao_frame_opts ao;
    uint32_t rays;
    uint32_t views; /* 1..GN_SHADOWCHECK_MAX_VIEWS: the camera, then the scene's viewpoints */
    const char *json;
    const char *out_dir;
    float max_mae, min_correlation; /* checked only when set */
    bool max_mae_set, min_correlation_set;
} gn_aocheck_opts;

/* gnomon view: the render options without --out and --stats, and the window's own. */
typedef struct gn_view_opts {
    gn_frame_opts frame;
    int view, tonemap;
    gn_post_opts post;
    int vsync; /* index into off, on: 1 (on) by default */
    const char *script;
    int shot_overlay; /* index into off, on: screenshots with the overlay */
    gn_shadow_opts shadow;
    gn_light_opts light;
    float anim_speed; /* the rigs' playback rate (1; 0 pauses) */
} gn_view_opts;

gn_view_opts gn_view_opts_defaults(void);
/* The option table over o's fields: the parser's and the console's (view_console.c). */
uint32_t gn_view_opts_table(gn_view_opts *o, gn_opt *t);
#define GN_VIEW_OPTS_MAX 128 /* rows gn_view_opts_table writes at most */
gn_parse_status gn_view_opts_parse(int argc, char **argv, gn_view_opts *o, char *err, size_t err_size);
void gn_view_opts_help(FILE *f);
bool gn_view_scene_ok(const gn_view_opts *o, char *err, size_t err_size); /* a known scene name or file */
/* The frame the settings ask for (the camera and the time are the viewer's own). */
void gn_view_opts_frame(const gn_view_opts *o, gn_frame_desc *out);

gn_parse_status gn_render_opts_parse(int argc, char **argv, gn_render_opts *o, char *err, size_t err_size);
gn_parse_status gn_bench_opts_parse(int argc, char **argv, gn_bench_opts *o, char *err, size_t err_size);
gn_parse_status gn_info_opts_parse(int argc, char **argv, char *err, size_t err_size);
gn_parse_status gn_shadowref_opts_parse(int argc, char **argv, gn_shadowref_opts *o, char *err,
                                        size_t err_size);
gn_parse_status gn_shadowcheck_opts_parse(int argc, char **argv, gn_shadowcheck_opts *o, char *err,
                                          size_t err_size);
gn_parse_status gn_aoref_opts_parse(int argc, char **argv, gn_aoref_opts *o, char *err, size_t err_size);
gn_parse_status gn_aocheck_opts_parse(int argc, char **argv, gn_aocheck_opts *o, char *err, size_t err_size);

void gn_render_opts_help(FILE *f);
void gn_bench_opts_help(FILE *f);
void gn_info_opts_help(FILE *f);
void gn_shadowref_opts_help(FILE *f);
void gn_shadowcheck_opts_help(FILE *f);
void gn_aoref_opts_help(FILE *f);
void gn_aocheck_opts_help(FILE *f);

/* The frame the render command asks for: camera, sun, tone mapping, view. */
void gn_render_opts_frame(const gn_render_opts *o, gn_frame_desc *out);
/* --viewpoint N of a loaded scene: its camera (x, y, z, yaw, pitch) into out; false with a line in
 * err when the scene has fewer viewpoints. */
bool gn_opts_viewpoint(const char *cmd, uint32_t n, const gn_scene_info *info, float out[5], char *err,
                       size_t size);

/* The frame shadowref and shadowcheck render: o's sun, the given camera (x, y, z, yaw,
 * pitch; NULL: the scene's default) and view. */
void gn_frame_opts_frame(const gn_frame_opts *o, const float *camera, gn_view view, gn_frame_desc *out);
float gn_frame_opts_time(const gn_frame_opts *o);     /* the time of day the frame uses, hours (0..24] */
float gn_frame_opts_latitude(const gn_frame_opts *o); /* gn_frame_desc.latitude: 0 unless asked */
/* gn_frame_desc.time_of_day of a time in [0, 24]: midnight is 24 there (0 reads as the default) */
static inline float gn_cli_hours(float hours) { return hours == 0.0f ? 24.0f : hours; }
#define GN_CLI_FOV_Y 60.0f /* the library's default field of view, given so a camera is never all zero */
const char *gn_shadowcheck_mode_name(int mode); /* "csm", "none", "vsm" */

const char *gn_bench_path_name(int path); /* "static", "sun", "walk", "walk-sun" */
const char *gn_render_view_name(int view);

#endif

/* Option tables of render, bench, info, shadowref and shadowcheck; see cmd_opts.h. Each table is built around
 * the struct it fills, and the same table prints --help. */
#include "cmd_opts.h"

#include "truth.h" /* GN_TRUTH_AO_*: aoref's and aocheck's --rays */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The scenes gn_scene_create_builtin knows; checked here so a typo is a usage error that
 * costs no device start-up. */
static const char *const gn_builtin_scenes[] = {"town", NULL};
static const char *const gn_view_names[] = {
    "final",     "depth",     "normals",  "albedo",    "shadow",    "cascades", "light-heatmap",
    "vsm-pages", "vsm-atlas", "distance", "occlusion", "luminance", "bloom",    "ao",
    "dof-coc",   "ibl",       "sky-lut",  "fog",       "probes",    NULL};
static const char *const gn_tonemap_names[] = {"aces", "reinhard", "clip", NULL};
static const char *const gn_dof_mode_names[] = {"back", "front", "both", NULL}; /* gn_dof_mode */
static const char *const gn_transparency_names[] = {"sorted", "oit", NULL};     /* gn_transparency - 1 */
static const char *const gn_path_names[] = {"static", "sun", "walk", "walk-sun", NULL};
static const char *const gn_shadow_mode_names[] = {"vsm", "none", "csm", NULL}; /* gn_shadowcheck_mode */

#define GN_COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

/* Limits on what a user may ask for. They catch typos ("--size 1920x10800") before a
 * device starts; the library still checks what the device itself supports. */
#define GN_SIZE_MIN 16       /* a smaller image measures nothing but fixed overhead */
#define GN_SIZE_MAX 16384    /* the largest 2D image current desktop GPUs allow */
#define GN_SCALE_MAX 64      /* scale 8 is already > 10M triangles */
#define GN_FRAMES_MAX 100000 /* ~28 minutes at 60 fps; bounds the sample arrays */
#define GN_OPT_TABLE_MAX 128 /* rows of the longest command's table (view: about 100) */

static bool gn_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A built-in scene, a scene file, or (with --paks) a map name. */
static const char *gn_scene_check(const char *command, const char *scene, const char *paks, char *err,
                                  size_t err_size)
{
    for (const char *const *s = gn_builtin_scenes; *s; s++)
        if (strcmp(*s, scene) == 0) return NULL;
    static const char *const files[] = {".gltf", ".glb", ".bsp", ".iqm", ".md5mesh", ".fbx", ".dae"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (gn_ends_with(scene, files[i])) return NULL;
    if (paks) return NULL;
    snprintf(err, err_size,
             "gnomon %s: unknown scene '%s' (built-in: town; files: .gltf, .glb, .bsp, .iqm, .md5mesh, .fbx, "
             ".dae; "
             "map names need --paks)",
             command, scene);
    return err;
}

/* The local-light rows, appended to render and bench. */
static uint32_t gn_light_table(gn_light_opts *o, gn_opt *t)
{
    gn_opt opts[] = {
        {"--lights", GN_OPT_UINT, &o->lights, NULL, 0, GN_MAX_LIGHTS, false, NULL, "N",
         "add N built-in lights: street lamps, lit windows, moving lights (default 0)"},
        {"--clustered", GN_OPT_UINT, &o->clustered, NULL, 0, 1, false, NULL, "0|1",
         "1: clustered Forward+ (default); 0: every light for every fragment (A/B)"},
        {"--light-shadows", GN_OPT_UINT, &o->shadowed, NULL, 1, 256, false, NULL, "N",
         "shadowed local lights a frame, nearest first (default 16)"},
        {"--cluster-max", GN_OPT_UINT, &o->cluster_max, NULL, 1, 1023, false, NULL, "N",
         "light indices a froxel holds (default 64)"},
    };
    memcpy(t, opts, sizeof opts);
    return GN_COUNT(opts);
}

void gn_post_opts_probes(const gn_post_opts *o, gn_probes_desc *d)
{
    d->mode = o->probes == 0 ? GN_PROBES_OFF : o->probes > GN_PROBES_MAX ? GN_PROBES_DEFAULT : GN_PROBES_ON;
    d->max_probes = o->probes <= GN_PROBES_MAX ? o->probes : 0;
}

void gn_light_opts_apply(const gn_light_opts *o, gn_lights_desc *d)
{
    *d = (gn_lights_desc){.shadowed_lights = o->shadowed, .cluster_max_lights = o->cluster_max};
}

/* The sun-shadow rows, appended to render, bench and shadowcheck. */
static uint32_t gn_shadow_table(gn_shadow_opts *o, gn_opt *t)
{
    gn_opt opts[] = {
        {"--shadows", GN_OPT_CHOICE, &o->shadows, NULL, 0, 0, false, gn_shadow_mode_names, "MODE",
         "sun shadows: vsm (virtual shadow maps), csm (cascades) or none (default vsm)"},
        {"--vsm-levels", GN_OPT_UINT, &o->vsm_levels, NULL, 1, 16, false, NULL, "N",
         "VSM clipmap levels, each twice the last (default 8)"},
        {"--vsm-res", GN_OPT_UINT, &o->vsm_res, NULL, 1024, 16384, false, NULL, "TEXELS",
         "VSM virtual texels a level side, a multiple of 128 (default 4096)"},
        {"--vsm-level0", GN_OPT_FLOAT, &o->vsm_level0, NULL, 0.5f, 10000, false, NULL, "M",
         "metres the finest VSM level covers (default 16)"},
        {"--vsm-pool", GN_OPT_UINT, &o->vsm_pool, NULL, 4, 65536, false, NULL, "PAGES",
         "VSM physical 128^2 pages, 64 KiB each (default 2048: 128 MiB)"},
        {"--vsm-budget", GN_OPT_UINT, &o->vsm_budget, NULL, 1, 2048, false, NULL, "PAGES",
         "VSM pages rendered a frame at most (default 64, at most 2048: a staging layer each)"},
        {"--vsm-evict", GN_OPT_UINT, &o->vsm_evict, NULL, 1, 100000, false, NULL, "FRAMES",
         "frames a VSM page may go unrequested before it is freed (default 60)"},
        {"--csm-cascades", GN_OPT_UINT, &o->cascades, NULL, 1, GN_CSM_MAX_CASCADES, false, NULL, "N",
         "shadow cascades 1..8 (default 4)"},
        {"--csm-resolution", GN_OPT_UINT, &o->resolution, NULL, 64, 16384, false, NULL, "N",
         "texels per side of a cascade (default 2048)"},
        {"--csm-distance", GN_OPT_FLOAT, &o->distance, NULL, 1, 100000, false, NULL, "M",
         "view depth that receives sun shadows (default 600)"},
        {"--csm-lambda", GN_OPT_FLOAT, &o->lambda, &o->lambda_set, 0, 1, false, NULL, "L",
         "split blend: 0 uniform .. 1 logarithmic (default 0.6)"},
        {"--csm-overlap", GN_OPT_FLOAT, &o->overlap, NULL, 0, 1, false, NULL, "F",
         "fraction of a cascade blended into the next (default 0.1)"},
        {"--csm-schedule", GN_OPT_STRING, &o->schedule, NULL, 0, 0, false, NULL, "P,P,..",
         "frames between updates of each cascade (default 1,1,2,4)"},
        {"--csm-normal-offset", GN_OPT_FLOAT, &o->normal_offset, NULL, 0, 16, false, NULL, "TEXELS",
         "receiver offset along its normal (default 1.5)"},
        {"--csm-bias-slope", GN_OPT_FLOAT, &o->bias_slope, NULL, 0, 16, false, NULL, "S",
         "slope-scaled depth bias of casters (default 1.5)"},
        {"--csm-bias-constant", GN_OPT_FLOAT, &o->bias_constant, NULL, 0, 1000, false, NULL, "C",
         "constant depth bias of casters (default 1)"},
    };
    memcpy(t, opts, sizeof opts);
    return GN_COUNT(opts);
}

bool gn_shadow_opts_apply(const gn_shadow_opts *o, const char *command, gn_csm_desc *csm, gn_vsm_desc *vsm,
                          gn_shadows *mode, char *err, size_t err_size)
{
    *mode = o->shadows == GN_SHADOWCHECK_NONE  ? GN_SHADOWS_NONE
            : o->shadows == GN_SHADOWCHECK_VSM ? GN_SHADOWS_VSM
                                               : GN_SHADOWS_CSM;
    *vsm = (gn_vsm_desc){.levels = o->vsm_levels,
                         .virtual_res = o->vsm_res,
                         .level0_size = o->vsm_level0,
                         .pool_pages = o->vsm_pool,
                         .page_budget = o->vsm_budget,
                         .evict_frames = o->vsm_evict};
    if (o->vsm_res % 128) {
        snprintf(err, err_size, "gnomon %s: --vsm-res %u is not a multiple of 128", command, o->vsm_res);
        return false;
    }
    *csm = (gn_csm_desc){
        .cascades = o->cascades,
        .resolution = o->resolution,
        .shadow_distance = o->distance,
        /* gnomon.h: 0 is the default; --csm-lambda 0 (uniform) is asked for with a tiny one */
        .split_lambda = o->lambda_set && o->lambda <= 0.0f ? 1e-9f : o->lambda,
        .overlap = o->overlap,
        .normal_offset_texels = o->normal_offset,
        .depth_bias_slope = o->bias_slope,
        .depth_bias_constant = o->bias_constant,
    };
    if (!o->schedule) return true;
    const char *p = o->schedule;
    for (uint32_t i = 0; i < GN_CSM_MAX_CASCADES; i++) {
        char *end = NULL;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v < 1 || v > 1000 || (*end != ',' && *end != '\0')) {
            snprintf(err, err_size,
                     "gnomon %s: --csm-schedule expects periods 1..1000 separated by commas, got '%s'",
                     command, o->schedule);
            return false;
        }
        csm->update_period[i] = (uint32_t)v;
        if (*end == '\0') return true;
        p = end + 1;
    }
    snprintf(err, err_size, "gnomon %s: --csm-schedule has more than %u periods", command,
             GN_CSM_MAX_CASCADES);
    return false;
}

static const char *const gn_skinning_names[] = {"linear", "dq", NULL}; /* gn_skinning */

/* The animation rows (gn_anim_opts) after the scene rows of every rendering command. */
static uint32_t gn_anim_rows(gn_anim_opts *o, gn_opt *t)
{
    gn_opt opts[] = {
        {"--animation", GN_OPT_STRING, &o->animation, NULL, 0, 0, false, NULL, "NAME",
         "an animated model (.gltf/.glb with skins or morphs, .iqm, .md5mesh, .fbx, .dae): the clip it "
         "plays (default: its first)"},
        {"--time-in-clip", GN_OPT_FLOAT, &o->time_in_clip, NULL, -1e6, 1e6, false, NULL, "SECONDS",
         "seconds into the clip at scene time 0 (default 0)"},
        {"--skinning", GN_OPT_CHOICE, &o->skinning, NULL, 0, 0, false, gn_skinning_names, "MODE",
         "linear (blend of matrices, default) or dq (dual quaternions: twists keep their volume)"},
        {"--people", GN_OPT_UINT, &o->people, NULL, 0, 2048, false, NULL, "N",
         "town: N skinned figures walking the streets, and banners on the tower (default 0)"},
        {"--people-detail", GN_OPT_UINT, &o->people_detail, NULL, 0, 8, false, NULL, "K",
         "town: the figures' mesh detail, K splits of each ring and span (1 = 756 vertices a person, "
         "default; "
         "4 = 10,836)"},
        {"--decals", GN_OPT_UINT, &o->decals, NULL, 0, 1, false, NULL, "0|1",
         "town: posters on walls, road markings and puddles as screen-space decals (default 0)"},
        {"--particles", GN_OPT_UINT, &o->particles, NULL, 0, 1u << 20, false, NULL, "0|1|N",
         "town: GPU particles, chimney smoke and a plaza fountain (1); N > 1 adds a stress emitter "
         "holding about N live particles (default 0)"},
        {"--emitters", GN_OPT_STRING, &o->emitters, NULL, 0, 0, false, NULL, "FILE.json",
         "emitters from a file (docs/EFFECTS.md), each at the scene's default camera target, 4 m apart"},
        {"--characters", GN_OPT_UINT, &o->characters, NULL, 0, 1, false, NULL, "0|1",
         "BSP maps: 1 puts animated MD3 characters (the archives' player models) at the spawn points"},
    };
    memcpy(t, opts, sizeof opts);
    return GN_COUNT(opts);
}

/* The scene rows every rendering command starts with: which scene, its archives, PVS on/off. */
static uint32_t gn_scene_rows(const char **scene, const char **paks, uint32_t *pvs, uint32_t *map_lights,
                              uint32_t *single_image, uint32_t *gpu_culling, uint32_t *occlusion,
                              uint32_t *clusters, uint32_t *caster_lod, uint32_t *vsm_occlusion, gn_opt *t)
{
    gn_opt opts[] = {
        {"--scene", GN_OPT_STRING, scene, NULL, 0, 0, false, NULL, "NAME",
         "town (default), a .gltf/.glb/.bsp file, or a map name in --paks"},
        {"--paks", GN_OPT_STRING, paks, NULL, 0, 0, false, NULL, "DIR",
         "folder of Quake 3 .pk3 archives (e.g. /usr/share/games/openarena/baseoa)"},
        {"--pvs", GN_OPT_UINT, pvs, NULL, 0, 1, false, NULL, "0|1",
         "BSP maps: 1 culls by PVS and frustum (default), 0 by frustum only (A/B)"},
        {"--map-lights", GN_OPT_UINT, map_lights, NULL, 0, 1, false, NULL, "0|1",
         "BSP maps: 1 adds the map's light entities as point lights (default 0; already in its lightmaps)"},
        {"--single-image", GN_OPT_UINT, single_image, NULL, 0, 1, false, NULL, "0|1",
         "BSP maps: 1 draws each surface's image alone, ignoring the archives' shader scripts (A/B; default "
         "0: "
         "the scripts' stages)"},
        {"--gpu-culling", GN_OPT_UINT, gpu_culling, NULL, 0, 1, false, NULL, "0|1",
         "1 culls the camera's draw list on the GPU (default), 0 on the CPU every frame (A/B; the same "
         "list)"},
        {"--occlusion", GN_OPT_UINT, occlusion, NULL, 0, 1, false, NULL, "0|1",
         "1 culls what last frame's depth and this frame's first phase hide (two-phase HZB, default; GPU "
         "culling only), 0 the frustum only (A/B; the same image)"},
        {"--clusters", GN_OPT_UINT, clusters, NULL, 0, 1, false, NULL, "0|1",
         "1 draws large meshes as clusters (meshlets) culled one by one: frustum, back-facing cone, "
         "occlusion (GPU culling only), 0 whole meshes (default; A/B, the same image)"},
        {"--caster-lod", GN_OPT_UINT, caster_lod, NULL, 0, 1, false, NULL, "0|1",
         "1 lets the sun's cascades draw simplified copies of large casters that err by at most a texel "
         "(default; GPU culling only), 0 the meshes themselves (A/B)"},
        {"--vsm-occlusion", GN_OPT_UINT, vsm_occlusion, NULL, 0, 1, false, NULL, "0|1",
         "1 culls the virtual shadow map's casters hidden by its pages' own depth, in two phases (the same "
         "shadows), 0 not (default; A/B)"},
    };
    memcpy(t, opts, sizeof opts);
    return GN_COUNT(opts);
}

static uint32_t gn_frame_table(gn_frame_opts *o, gn_opt *t);

/* The post chain's rows (render, view, bench): the camera's exposure, bloom, grading. */
static uint32_t gn_post_rows(gn_post_opts *e, gn_opt *t)
{
    gn_opt opts[] = {
        {"--exposure", GN_OPT_AUTO_FLOAT, &e->ev100, NULL, -10, 25, false, NULL, "auto|EV100",
         "auto: eye adaptation (default); a number: a fixed EV100 (15: sunny 16, 9: a lit street at night)"},
        {"--ev-comp", GN_OPT_FLOAT, &e->compensation, NULL, -20, 20, false, NULL, "EV",
         "exposure compensation in stops, +1 twice as bright (default 0)"},
        {"--aperture", GN_OPT_FLOAT, &e->aperture, NULL, 0.5, 64, false, NULL, "F",
         "with --shutter and --iso: a fixed exposure from a camera's settings (f-number)"},
        {"--shutter", GN_OPT_FLOAT, &e->shutter, NULL, 1e-5, 60, false, NULL, "S", "shutter time in seconds"},
        {"--iso", GN_OPT_FLOAT, &e->iso, NULL, 12, 409600, false, NULL, "N", "sensor speed"},
        {"--ev-min", GN_OPT_FLOAT, &e->min_ev100, NULL, -20, 30, false, NULL, "EV100",
         "auto: the histogram's darkest EV100 and the exposure's floor (default -4)"},
        {"--ev-max", GN_OPT_FLOAT, &e->max_ev100, NULL, -20, 30, false, NULL, "EV100",
         "auto: the histogram's brightest EV100 and the exposure's ceiling (default 18)"},
        {"--meter-low", GN_OPT_FLOAT, &e->low_percent, NULL, 0, 100, false, NULL, "PERCENT",
         "auto: the darkest pixels left out of metering (default 10)"},
        {"--meter-high", GN_OPT_FLOAT, &e->high_percent, NULL, 0, 100, false, NULL, "PERCENT",
         "auto: metering stops at this share of the pixels (default 90: the brightest tenth left out)"},
        {"--adapt-up", GN_OPT_FLOAT, &e->speed_up, NULL, 0.01, 100, false, NULL, "EV/S",
         "auto: adaptation to a brighter scene (default 3)"},
        {"--adapt-down", GN_OPT_FLOAT, &e->speed_down, NULL, 0.01, 100, false, NULL, "EV/S",
         "auto: adaptation to a darker scene (default 1)"},
        {"--bloom", GN_OPT_AUTO_FLOAT, &e->bloom, NULL, 0, 1, false, NULL, "auto|I",
         "bloom's share of the image, 0 off (default auto: 0.04)"},
        {"--bloom-threshold", GN_OPT_FLOAT, &e->bloom_threshold, NULL, 0, 1000, false, NULL, "V",
         "only exposed values above V bloom (1: display white; default 0: all light, energy kept)"},
        {"--bloom-scatter", GN_OPT_FLOAT, &e->bloom_scatter, NULL, 0.01, 1, false, NULL, "S",
         "how far the glow spreads (default 0.7)"},
        {"--lut", GN_OPT_STRING, &e->lut, NULL, 0, 0, false, NULL, "FILE.cube",
         "grade the display colour through a 3D lookup table (.cube; default none)"},
        {"--ao", GN_OPT_AUTO_FLOAT, &e->ao, NULL, 0, 10, false, NULL, "auto|I",
         "ambient occlusion's intensity, 0 off (default auto: fitted to the ray-traced truth)"},
        {"--ao-radius", GN_OPT_FLOAT, &e->ao_radius, NULL, 0.05, 20, false, NULL, "M",
         "how far (metres) surfaces occlude each other's ambient light (default 1)"},
        {"--ao-bias", GN_OPT_FLOAT, &e->ao_bias, NULL, 0, 1, false, NULL, "M",
         "how far (metres) a neighbour must stand out of the surface to occlude (default 0.02)"},
        {"--dof", GN_OPT_FLOAT3, e->dof, NULL, 0, 100000, false, NULL, "F,R,S",
         "depth of field: focus distance and blur range (metres), strength 0..1 (default off)"},
        {"--dof-mode", GN_OPT_CHOICE, &e->dof_mode, NULL, 0, 0, false, gn_dof_mode_names, "MODE",
         "back (blur beyond the focus, default), front (nearer than it) or both"},
        {"--dof-radius", GN_OPT_FLOAT, &e->dof_radius, NULL, 0.5, 32, false, NULL, "PX",
         "depth of field's blur radius in half-size pixels (default 4)"},
        {"--ibl", GN_OPT_UINT, &e->ibl, NULL, 0, 1, false, NULL, "0|1",
         "1 lights the ambient from the sky's environment map (default), 0 from a two-colour hemisphere "
         "(A/B)"},
        {"--dof-sky", GN_OPT_FLAG, &e->dof_sky, NULL, 0, 0, false, NULL, "",
         "blur the sky like geometry at infinity (default: only beside geometry, at half strength)"},
        {"--fog", GN_OPT_FLOAT3, e->fog[0], NULL, -100000, 100000, false, NULL, "D,B,F",
         "a height fog: density at its base (per metre), base height (m), falloff (per km; 0: 100) "
         "(default off)"},
        {"--fog2", GN_OPT_FLOAT3, e->fog[1], NULL, -100000, 100000, false, NULL, "D,B,F",
         "a second height fog"},
        {"--fog-albedo", GN_OPT_FLOAT, &e->fog_albedo, NULL, 0.01, 1, false, NULL, "A",
         "the fogs' single-scattering albedo (default 0.9)"},
        {"--fog-g", GN_OPT_FLOAT, &e->fog_g, NULL, 0, 0.94, false, NULL, "G",
         "the fogs' forward scattering (Henyey-Greenstein g, default 0.6)"},
        {"--volumetric", GN_OPT_UINT, &e->volumetric, NULL, 0, 1, false, NULL, "0|1",
         "1: the fogs as volumetric fog, with the sun's shadows and the lights in the air (default); 0 "
         "analytic "
         "only"},
        {"--probes", GN_OPT_UINT, &e->probes, NULL, 0, GN_PROBES_MAX, false, NULL, "N",
         "at most N local reflection probes, rendered when the scene is first drawn (default 63 on a GPU; 0 "
         "on a CPU device, where a probe's six faces of the town take ~4 s): 0 reflects the sky only"},
        {"--volumetric-far", GN_OPT_FLOAT, &e->volumetric_far, NULL, 2, 10000, false, NULL, "M",
         "metres of view depth volumetric fog covers (default 128; the fogs beyond stay analytic)"},
        {"--aerial", GN_OPT_UINT, &e->aerial, NULL, 0, 1, false, NULL, "0|1",
         "1: the air's aerial perspective in front of surfaces (default), 0 none (A/B)"},
        {"--stars", GN_OPT_UINT, &e->stars, NULL, 0, 1, false, NULL, "0|1", "1: stars at night (default)"},
        {"--year", GN_OPT_UINT, &e->year, NULL, 1900, 2100, false, NULL, "Y",
         "the year, for the moon's place and phase (default 2026)"},
        {"--transparency", GN_OPT_CHOICE, &e->transparency, NULL, 0, 0, false, gn_transparency_names, "MODE",
         "blended surfaces: sorted back to front (default) or oit (weighted blended order-independent, "
         "A/B; Quake 3 dual-source shaders stay sorted)"},
        {"--alpha-to-coverage", GN_OPT_UINT, &e->alpha_to_coverage, NULL, 0, 1, false, NULL, "0|1",
         "1: alpha-tested surfaces (foliage, fences) cover a pixel's MSAA samples by their alpha, edges "
         "smoothed; 0: all or none (default)"},
    };
    memcpy(t, opts, sizeof opts);
    return GN_COUNT(opts);
}

/* The rows of how a frame looks, shared by render and view: the view, the tone curve, then the
 * post chain's. */
static uint32_t gn_look_rows(int *view, int *tonemap, gn_post_opts *e, gn_opt *t)
{
    gn_opt opts[] = {
        {"--view", GN_OPT_CHOICE, view, NULL, 0, 0, false, gn_view_names, "VIEW",
         "final, depth, normals, albedo, shadow, cascades, light-heatmap, vsm-pages, vsm-atlas, distance, "
         "occlusion, luminance, bloom, ao, dof-coc, ibl, sky-lut, fog or probes (default final)"},
        {"--tonemap", GN_OPT_CHOICE, tonemap, NULL, 0, 0, false, gn_tonemap_names, "OP",
         "aces, reinhard or clip (default aces)"},
    };
    memcpy(t, opts, sizeof opts);
    return GN_COUNT(opts) + gn_post_rows(e, t + GN_COUNT(opts));
}

void gn_post_opts_frame(const gn_post_opts *o, gn_frame_desc *out)
{
    gn_exposure_desc *d = &out->camera_exposure;
    bool camera = o->aperture > 0 && o->shutter > 0 && o->iso > 0;
    d->mode = !isnan(o->ev100) || camera ? GN_EXPOSURE_FIXED : GN_EXPOSURE_AUTO;
    /* EV100 0 itself is a value (gnomon.h: 0 reads as the default) */
    d->ev100 = isnan(o->ev100) ? 0.0f : o->ev100 == 0.0f ? 1e-7f : o->ev100;
    d->aperture = o->aperture, d->shutter = o->shutter, d->iso = o->iso;
    d->min_ev100 = o->min_ev100, d->max_ev100 = o->max_ev100;
    d->low_percent = o->low_percent, d->high_percent = o->high_percent;
    d->speed_up = o->speed_up, d->speed_down = o->speed_down;
    out->exposure = o->compensation;
    out->bloom = (gn_bloom_desc){.off = o->bloom == 0.0f,
                                 .intensity = isnan(o->bloom) ? 0.0f : o->bloom,
                                 .threshold = o->bloom_threshold,
                                 .scatter = o->bloom_scatter};
    out->ao = (gn_ao_desc){.off = o->ao == 0.0f,
                           .intensity = isnan(o->ao) ? 0.0f : o->ao,
                           .radius = o->ao_radius,
                           .bias = o->ao_bias};
    out->no_ibl = o->ibl == 0;
    for (int k = 0; k < 2; k++)
        out->fog[k] = (gn_fog_desc){.density = o->fog[k][0], .base = o->fog[k][1], .falloff = o->fog[k][2]};
    out->fog_albedo = o->fog_albedo;
    out->fog_anisotropy = o->fog_g;
    out->no_aerial = o->aerial == 0;
    out->no_volumetric = o->volumetric == 0;
    out->volumetric_far = o->volumetric_far;
    out->no_stars = o->stars == 0;
    out->year = (int32_t)o->year;
    out->transparency = (gn_transparency)(o->transparency + 1);
    out->alpha_to_coverage = o->alpha_to_coverage != 0;
    out->dof = (gn_dof_desc){.focus = o->dof[0],
                             .range = o->dof[1],
                             .strength = o->dof[2],
                             .radius = o->dof_radius,
                             .mode = (gn_dof_mode)o->dof_mode,
                             .blur_sky = o->dof_sky};
}

/* render: the shared scene and frame rows, then its own, the shadow and the light rows. */
static uint32_t gn_render_table(gn_render_opts *o, gn_opt *t)
{
    uint32_t n = gn_frame_table(&o->frame, t);
    n += gn_look_rows(&o->view, &o->tonemap, &o->post, t + n);
    gn_opt opts[] = {
        {"--out", GN_OPT_STRING, &o->out, NULL, 0, 0, false, NULL, "FILE.png",
         "output image (required; folders are created)"},
        {"--viewpoint", GN_OPT_UINT, &o->viewpoint, NULL, 0, 3, false, NULL, "N",
         "start at the scene's viewpoint N: town 1 street, 2 rooftop, 3 overview; a map its 2nd..4th spawn "
         "point (default 0: the scene's camera)"},
        {"--stats", GN_OPT_STRING, &o->stats, NULL, 0, 0, false, NULL, "FILE.json",
         "also write the frame statistics as JSON"},
    };
    memcpy(t + n, opts, sizeof opts);
    n += GN_COUNT(opts);
    n += gn_shadow_table(&o->shadow, t + n);
    return n + gn_light_table(&o->light, t + n);
}

static uint32_t gn_bench_table(gn_bench_opts *o, gn_opt *t)
{
    uint32_t n =
        gn_scene_rows(&o->scene, &o->paks, &o->pvs, &o->map_lights, &o->single_image, &o->gpu_culling,
                      &o->occlusion, &o->clusters, &o->caster_lod, &o->vsm_occlusion, t);
    n += gn_anim_rows(&o->anim, t + n);
    gn_opt opts[] = {
        {"--size", GN_OPT_SIZE, o->size, NULL, GN_SIZE_MIN, GN_SIZE_MAX, false, NULL, "WxH",
         "image size (default 1920x1080)"},
        {"--frames", GN_OPT_UINT, &o->frames, NULL, 1, GN_FRAMES_MAX, false, NULL, "N",
         "frames measured (default 300)"},
        {"--warmup", GN_OPT_UINT, &o->warmup, NULL, 0, GN_FRAMES_MAX, false, NULL, "N",
         "frames rendered first and not measured (default 10)"},
        {"--path", GN_OPT_CHOICE, &o->path, NULL, 0, 0, false, gn_path_names, "PATH",
         "static, sun, walk or walk-sun (default static)"},
        {"--msaa", GN_OPT_UINT, &o->msaa, NULL, 1, 8, true, NULL, "N", "samples: 1, 2, 4 or 8 (default 4)"},
        {"--seed", GN_OPT_UINT, &o->seed, NULL, 0, UINT32_MAX, false, NULL, "N",
         "scene seed (default 1; 0 means 1)"},
        {"--scale", GN_OPT_UINT, &o->scale, NULL, 1, GN_SCALE_MAX, false, NULL, "N",
         "scene scale 1..64 (default 1)"},
        {"--json", GN_OPT_STRING, &o->json, NULL, 0, 0, false, NULL, "FILE",
         "write the summary as one JSON object"},
        {"--plot", GN_OPT_STRING, &o->plot, NULL, 0, 0, false, NULL, "FILE.png",
         "write a chart of GPU time per pass per frame"},
        {"--floors", GN_OPT_FLAG, &o->floors, NULL, 0, 0, false, NULL, "",
         "measure what the device cannot beat (triangle and fill rate, clears, resolves) before and "
         "after the run, and print each pass's median as a multiple of its floor"},
        {"--sun-speed", GN_OPT_FLOAT, &o->sun_speed, NULL, 0, 100000, false, NULL, "X",
         "sun paths: the day passes X times faster than real time at 60 fps (default 20)"},
        {"--camera", GN_OPT_CAMERA, o->camera, &o->camera_set, -89, 89, false, NULL, "x,y,z,yaw,pitch",
         "where the path starts, metres and degrees (default: the scene's camera)"},
        {"--viewpoint", GN_OPT_UINT, &o->viewpoint, NULL, 0, 3, false, NULL, "N",
         "start at the scene's viewpoint N: town 1 street, 2 rooftop, 3 overview; a map its 2nd..4th spawn "
         "point (default 0: the scene's camera)"},
    };
    memcpy(t + n, opts, sizeof opts);
    n += GN_COUNT(opts);
    n += gn_shadow_table(&o->shadow, t + n);
    n += gn_light_table(&o->light, t + n);
    return n + gn_post_rows(&o->post, t + n);
}

/* The rows shared by shadowref and shadowcheck; the same text as render's rows. */
static uint32_t gn_frame_table(gn_frame_opts *o, gn_opt *t)
{
    uint32_t n =
        gn_scene_rows(&o->scene, &o->paks, &o->pvs, &o->map_lights, &o->single_image, &o->gpu_culling,
                      &o->occlusion, &o->clusters, &o->caster_lod, &o->vsm_occlusion, t);
    n += gn_anim_rows(&o->anim, t + n);
    gn_opt opts[] = {
        {"--size", GN_OPT_SIZE, o->size, NULL, GN_SIZE_MIN, GN_SIZE_MAX, false, NULL, "WxH",
         "image size (default 1280x720)"},
        {"--time", GN_OPT_FLOAT, &o->time, &o->time_set, 0, 24, false, NULL, "HOURS",
         "local solar time 0..24 (default 18.5)"},
        {"--camera", GN_OPT_CAMERA, o->camera, &o->camera_set, -89, 89, false, NULL, "x,y,z,yaw,pitch",
         "camera in metres and degrees (default: the scene's)"},
        {"--msaa", GN_OPT_UINT, &o->msaa, NULL, 1, 8, true, NULL, "N", "samples: 1, 2, 4 or 8 (default 4)"},
        {"--seed", GN_OPT_UINT, &o->seed, NULL, 0, UINT32_MAX, false, NULL, "N",
         "scene seed (default 1; 0 means 1)"},
        {"--scale", GN_OPT_UINT, &o->scale, NULL, 1, GN_SCALE_MAX, false, NULL, "N",
         "scene scale 1..64 (default 1: ~1M triangles)"},
        {"--latitude", GN_OPT_FLOAT, &o->latitude, &o->latitude_set, -90, 90, false, NULL, "DEG",
         "latitude for the sun (default 45)"},
        {"--day", GN_OPT_UINT, &o->day, NULL, 1, 365, false, NULL, "N",
         "day of the year 1..365 (default 230)"},
    };
    memcpy(t + n, opts, sizeof opts);
    return n + GN_COUNT(opts);
}

static uint32_t gn_shadowref_table(gn_shadowref_opts *o, gn_opt *t)
{
    uint32_t n = gn_frame_table(&o->frame, t);
    gn_opt out[] = {
        {"--out", GN_OPT_STRING, &o->out, NULL, 0, 0, false, NULL, "FILE.png",
         "truth mask: white lit, black shadowed, grey sky (required)"},
    };
    memcpy(t + n, out, sizeof out);
    return n + GN_COUNT(out);
}

static uint32_t gn_shadowcheck_table(gn_shadowcheck_opts *o, gn_opt *t)
{
    uint32_t n = gn_frame_table(&o->frame, t);
    gn_opt opts[] = {
        {"--views", GN_OPT_UINT, &o->views, NULL, 1, GN_SHADOWCHECK_MAX_VIEWS, false, NULL, "N",
         "views: the camera, then the scene's viewpoints (default 1)"},
        {"--json", GN_OPT_STRING, &o->json, NULL, 0, 0, false, NULL, "FILE",
         "write the agreement as one JSON object"},
        {"--out-dir", GN_OPT_STRING, &o->out_dir, NULL, 0, 0, false, NULL, "DIR",
         "write each view's shadow view, truth mask and diff image"},
        {"--min-off-edge", GN_OPT_FLOAT, &o->min_off_edge, &o->min_off_edge_set, 0, 1, false, NULL, "X",
         "exit 1 if any view's off-edge agreement is below X (0..1)"},
    };
    memcpy(t + n, opts, sizeof opts);
    n += GN_COUNT(opts);
    return n + gn_shadow_table(&o->shadow, t + n);
}

/* The frame's ambient occlusion, aoref's and aocheck's (render's, view's and bench's are the post
 * rows'). */
static uint32_t gn_ao_frame_rows(gn_ao_frame_opts *o, uint32_t *rays, gn_opt *t)
{
    gn_opt opts[] = {
        {"--ao-radius", GN_OPT_FLOAT, &o->radius, NULL, 0.05, 20, false, NULL, "M",
         "how far (metres) surfaces occlude each other's ambient light, the renderer's and the truth's "
         "(default 1)"},
        {"--ao-bias", GN_OPT_FLOAT, &o->bias, NULL, 0, 1, false, NULL, "M",
         "how far (metres) a neighbour must stand out of the surface to occlude (default 0.02)"},
        {"--ao-intensity", GN_OPT_FLOAT, &o->intensity, NULL, 0.01, 10, false, NULL, "I",
         "the renderer's ambient occlusion intensity (default: fitted to the truth, which has none)"},
        {"--rays", GN_OPT_UINT, rays, NULL, 1, GN_TRUTH_AO_MAX_RAYS, false, NULL, "N",
         "truth rays a pixel, cosine-distributed and stratified (default 64)"},
    };
    memcpy(t, opts, sizeof opts);
    return GN_COUNT(opts);
}

void gn_ao_frame_opts_apply(const gn_ao_frame_opts *o, gn_ao_desc *d)
{
    d->radius = o->radius;
    d->bias = o->bias;
    d->intensity = o->intensity;
}

static uint32_t gn_aoref_table(gn_aoref_opts *o, gn_opt *t)
{
    uint32_t n = gn_frame_table(&o->frame, t);
    n += gn_ao_frame_rows(&o->ao, &o->rays, t + n);
    gn_opt out[] = {
        {"--out", GN_OPT_STRING, &o->out, NULL, 0, 0, false, NULL, "FILE.png",
         "truth AO as grey: white open (and the sky), black occluded (required)"},
    };
    memcpy(t + n, out, sizeof out);
    return n + GN_COUNT(out);
}

static uint32_t gn_aocheck_table(gn_aocheck_opts *o, gn_opt *t)
{
    uint32_t n = gn_frame_table(&o->frame, t);
    n += gn_ao_frame_rows(&o->ao, &o->rays, t + n);
    gn_opt opts[] = {
        {"--views", GN_OPT_UINT, &o->views, NULL, 1, GN_SHADOWCHECK_MAX_VIEWS, false, NULL, "N",
         "views: the camera, then the scene's viewpoints (default 1)"},
        {"--json", GN_OPT_STRING, &o->json, NULL, 0, 0, false, NULL, "FILE",
         "write the figures as one JSON object"},
        {"--out-dir", GN_OPT_STRING, &o->out_dir, NULL, 0, 0, false, NULL, "DIR",
         "write each view's SAO, truth, diff and final image"},
        {"--max-mae", GN_OPT_FLOAT, &o->max_mae, &o->max_mae_set, 0, 1, false, NULL, "X",
         "exit 1 if any view's mean absolute error is above X (0..1)"},
        {"--min-correlation", GN_OPT_FLOAT, &o->min_correlation, &o->min_correlation_set, -1, 1, false, NULL,
         "Y", "exit 1 if any view's correlation with the truth is below Y (-1..1)"},
    };
    memcpy(t + n, opts, sizeof opts);
    return n + GN_COUNT(opts);
}

static const char gn_render_summary[] =
    "Renders one frame of a scene to a PNG and prints the GPU time of each pass.";
static const char gn_bench_summary[] =
    "Renders frames along a scripted camera/sun path and prints per-pass GPU time statistics\n"
    "(min, median, p99, max). Paths: static (fixed camera, 18:30), sun (the day passes from\n"
    "16:00 at --sun-speed times real time, 60 frames a second), walk (the camera moves through\n"
    "the scene at 10 m/s), walk-sun (both).";
static const char gn_info_summary[] =
    "Lists the Vulkan devices, which one gnomon chooses and why ($GNOMON_DEVICE overrides).";

/* The post chain's defaults: auto exposure, bloom and AO, the environment's ambient, the air,
 * stars and volumetric fog on; the renderer's default probes (over GN_PROBES_MAX). */
static gn_post_opts gn_post_opts_defaults(void)
{
    return (gn_post_opts){.ev100 = NAN,
                          .bloom = NAN,
                          .ao = NAN,
                          .ibl = 1,
                          .aerial = 1,
                          .stars = 1,
                          .volumetric = 1,
                          .probes = GN_PROBES_MAX + 1};
}

static gn_frame_opts gn_frame_opts_defaults(void)
{
    return (gn_frame_opts){.scene = "town",
                           .size = {1280, 720},
                           .msaa = 4,
                           .seed = 1,
                           .scale = 1,
                           .pvs = 1,
                           .gpu_culling = 1,
                           .occlusion = 1,
                           .caster_lod = 1};
}

gn_parse_status gn_render_opts_parse(int argc, char **argv, gn_render_opts *o, char *err, size_t err_size)
{
    *o = (gn_render_opts){
        .frame = gn_frame_opts_defaults(), .post = gn_post_opts_defaults(), .light = {.clustered = 1}};
    gn_opt t[GN_OPT_TABLE_MAX];
    uint32_t n = gn_render_table(o, t);
    gn_parse_status s = gn_opts_parse("render", t, n, argc, argv, err, err_size);
    if (s != GN_PARSE_OK) return s;
    if (gn_scene_check("render", o->frame.scene, o->frame.paks, err, err_size)) return GN_PARSE_ERROR;
    if (!o->out) {
        snprintf(err, err_size, "gnomon render: --out FILE.png is required");
        return GN_PARSE_ERROR;
    }
    return GN_PARSE_OK;
}

gn_parse_status gn_bench_opts_parse(int argc, char **argv, gn_bench_opts *o, char *err, size_t err_size)
{
    *o = (gn_bench_opts){.scene = "town",
                         .size = {1920, 1080},
                         .frames = 300,
                         .warmup = 10,
                         .path = GN_PATH_STATIC,
                         .msaa = 4,
                         .seed = 1,
                         .scale = 1,
                         .sun_speed = 20.0f,
                         .pvs = 1,
                         .gpu_culling = 1,
                         .occlusion = 1,
                         .caster_lod = 1,
                         .light = {.clustered = 1},
                         .post = gn_post_opts_defaults()};
    gn_opt t[GN_OPT_TABLE_MAX];
    uint32_t n = gn_bench_table(o, t);
    gn_parse_status s = gn_opts_parse("bench", t, n, argc, argv, err, err_size);
    if (s != GN_PARSE_OK) return s;
    if (gn_scene_check("bench", o->scene, o->paks, err, err_size)) return GN_PARSE_ERROR;
    return GN_PARSE_OK;
}

static const char gn_shadowref_summary[] =
    "Renders one frame and ray-traces (Embree, on the CPU) a hard-shadow mask of the sun for\n"
    "its pixels: one occlusion ray from each surface point towards the sun.";
static const char gn_shadowcheck_summary[] =
    "Renders the shadow view and compares it with the ray-traced truth mask, per view: the\n"
    "share of surface pixels that agree (all, and farther than 2 pixels from a shadow edge),\n"
    "false lit and false shadow. Exit 1 when --min-off-edge is not met.";

gn_parse_status gn_shadowref_opts_parse(int argc, char **argv, gn_shadowref_opts *o, char *err,
                                        size_t err_size)
{
    *o = (gn_shadowref_opts){.frame = gn_frame_opts_defaults()};
    gn_opt t[GN_OPT_TABLE_MAX];
    uint32_t n = gn_shadowref_table(o, t);
    gn_parse_status s = gn_opts_parse("shadowref", t, n, argc, argv, err, err_size);
    if (s != GN_PARSE_OK) return s;
    if (gn_scene_check("shadowref", o->frame.scene, o->frame.paks, err, err_size)) return GN_PARSE_ERROR;
    if (!o->out) {
        snprintf(err, err_size, "gnomon shadowref: --out FILE.png is required");
        return GN_PARSE_ERROR;
    }
    return GN_PARSE_OK;
}

gn_parse_status gn_shadowcheck_opts_parse(int argc, char **argv, gn_shadowcheck_opts *o, char *err,
                                          size_t err_size)
{
    *o = (gn_shadowcheck_opts){.frame = gn_frame_opts_defaults(), .views = 1};
    gn_opt t[GN_OPT_TABLE_MAX];
    uint32_t n = gn_shadowcheck_table(o, t);
    gn_parse_status s = gn_opts_parse("shadowcheck", t, n, argc, argv, err, err_size);
    if (s != GN_PARSE_OK) return s;
    if (gn_scene_check("shadowcheck", o->frame.scene, o->frame.paks, err, err_size)) return GN_PARSE_ERROR;
    return GN_PARSE_OK;
}

static const char gn_aoref_summary[] =
    "Renders one frame and ray-traces (Embree, on the CPU) the ambient occlusion SAO estimates for\n"
    "its pixels: 1 - the mean over --rays cosine-distributed directions of (1 - (t/R)^2)^3, t the\n"
    "distance to the nearest surface within the radius R. Written as grey, the sky white.";
static const char gn_aocheck_summary[] =
    "Renders the frame and compares its ambient occlusion (SAO) with the ray-traced truth, per\n"
    "view: the mean absolute error, the correlation, the mean of each and the halo share (SAO\n"
    "darker than the truth by more than 0.2). Exit 1 when --max-mae or --min-correlation is not\n"
    "met, or SAO is not finite somewhere.";

gn_parse_status gn_aoref_opts_parse(int argc, char **argv, gn_aoref_opts *o, char *err, size_t err_size)
{
    *o = (gn_aoref_opts){.frame = gn_frame_opts_defaults(), .rays = GN_TRUTH_AO_DEFAULT_RAYS};
    gn_opt t[GN_OPT_TABLE_MAX];
    uint32_t n = gn_aoref_table(o, t);
    gn_parse_status s = gn_opts_parse("aoref", t, n, argc, argv, err, err_size);
    if (s != GN_PARSE_OK) return s;
    if (gn_scene_check("aoref", o->frame.scene, o->frame.paks, err, err_size)) return GN_PARSE_ERROR;
    if (!o->out) {
        snprintf(err, err_size, "gnomon aoref: --out FILE.png is required");
        return GN_PARSE_ERROR;
    }
    return GN_PARSE_OK;
}

gn_parse_status gn_aocheck_opts_parse(int argc, char **argv, gn_aocheck_opts *o, char *err, size_t err_size)
{
    *o = (gn_aocheck_opts){.frame = gn_frame_opts_defaults(), .rays = GN_TRUTH_AO_DEFAULT_RAYS, .views = 1};
    gn_opt t[GN_OPT_TABLE_MAX];
    uint32_t n = gn_aocheck_table(o, t);
    gn_parse_status s = gn_opts_parse("aocheck", t, n, argc, argv, err, err_size);
    if (s != GN_PARSE_OK) return s;
    if (gn_scene_check("aocheck", o->frame.scene, o->frame.paks, err, err_size)) return GN_PARSE_ERROR;
    return GN_PARSE_OK;
}

gn_parse_status gn_info_opts_parse(int argc, char **argv, char *err, size_t err_size)
{
    return gn_opts_parse("info", NULL, 0, argc, argv, err, err_size);
}

void gn_render_opts_help(FILE *f)
{
    gn_render_opts o;
    gn_opt t[GN_OPT_TABLE_MAX];
    gn_opts_print_help(f, "render", gn_render_summary, t, gn_render_table(&o, t));
    fprintf(f, "\nexample: gnomon render --scene town --size 1280x720 --time 18.5 --out out/town.png\n");
}

void gn_bench_opts_help(FILE *f)
{
    gn_bench_opts o;
    gn_opt t[GN_OPT_TABLE_MAX];
    gn_opts_print_help(f, "bench", gn_bench_summary, t, gn_bench_table(&o, t));
    fprintf(f, "\nexample: gnomon bench --path walk-sun --frames 600 --json out/bench.json --plot "
               "out/bench.png\n");
}

void gn_info_opts_help(FILE *f) { gn_opts_print_help(f, "info", gn_info_summary, NULL, 0); }

void gn_shadowref_opts_help(FILE *f)
{
    gn_shadowref_opts o;
    gn_opt t[GN_OPT_TABLE_MAX];
    gn_opts_print_help(f, "shadowref", gn_shadowref_summary, t, gn_shadowref_table(&o, t));
    fprintf(f, "\nexample: gnomon shadowref --scene town --time 17 --out out/truth.png\n");
}

void gn_shadowcheck_opts_help(FILE *f)
{
    gn_shadowcheck_opts o;
    gn_opt t[GN_OPT_TABLE_MAX];
    gn_opts_print_help(f, "shadowcheck", gn_shadowcheck_summary, t, gn_shadowcheck_table(&o, t));
    fprintf(f, "\nexample: gnomon shadowcheck --shadows csm --views 4 --json out/shadows.json "
               "--out-dir out/shadows --min-off-edge 0.98\n");
}

void gn_aoref_opts_help(FILE *f)
{
    gn_aoref_opts o;
    gn_opt t[GN_OPT_TABLE_MAX];
    gn_opts_print_help(f, "aoref", gn_aoref_summary, t, gn_aoref_table(&o, t));
    fprintf(f, "\nexample: gnomon aoref --scene town --size 384x216 --rays 64 --out out/ao.png\n");
}

void gn_aocheck_opts_help(FILE *f)
{
    gn_aocheck_opts o;
    gn_opt t[GN_OPT_TABLE_MAX];
    gn_opts_print_help(f, "aocheck", gn_aocheck_summary, t, gn_aocheck_table(&o, t));
    fprintf(f, "\nexample: gnomon aocheck --scene town --views 3 --size 384x216 --json out/ao.json "
               "--out-dir out/ao --max-mae 0.1 --min-correlation 0.6\n");
}

void gn_frame_opts_frame(const gn_frame_opts *o, const float *camera, gn_view view, gn_frame_desc *out)
{
    *out = (gn_frame_desc){
        .time_of_day = gn_frame_opts_time(o),
        .latitude = gn_frame_opts_latitude(o),
        .day_of_year = o->day,
        .view = view,
        .no_pvs = !o->pvs,
        .cpu_culling = !o->gpu_culling,
        .no_occlusion = !o->occlusion,
        .clusters = o->clusters != 0,
        .no_caster_lod = !o->caster_lod,
        .vsm_occlusion = o->vsm_occlusion != 0,
    };
    if (camera) {
        memcpy(out->camera.position, camera, 3 * sizeof(float));
        out->camera.fov_y = GN_CLI_FOV_Y; /* never all zero: that is the scene's default camera */
        out->camera.yaw = camera[3];
        out->camera.pitch = camera[4];
    }
}

/* gnomon.h: time_of_day 0 is read as 18.5 and 24 is midnight, so --time 0 becomes 24. */
float gn_frame_opts_time(const gn_frame_opts *o) { return o->time_set ? gn_cli_hours(o->time) : 18.5f; }

/* gnomon.h: latitude 0 is read as 45; the equator (--latitude 0) is a latitude under 1e-3. */
float gn_frame_opts_latitude(const gn_frame_opts *o)
{
    if (!o->latitude_set) return 0.0f;
    return o->latitude == 0.0f ? 1e-4f : o->latitude;
}

const char *gn_shadowcheck_mode_name(int mode)
{
    return mode >= 0 && mode < (int)GN_COUNT(gn_shadow_mode_names) - 1 ? gn_shadow_mode_names[mode] : "?";
}

bool gn_opts_viewpoint(const char *cmd, uint32_t n, const gn_scene_info *info, float out[5], char *err,
                       size_t size)
{
    if (n == 0) {
        memcpy(out, info->default_camera, 5 * sizeof(float));
        return true;
    }
    if (n > info->viewpoint_count) {
        snprintf(err, size, "gnomon %s: --viewpoint %u: the scene has %u viewpoint(s)", cmd, n,
                 info->viewpoint_count);
        return false;
    }
    memcpy(out, info->viewpoints[n - 1], 5 * sizeof(float));
    return true;
}

void gn_render_opts_frame(const gn_render_opts *o, gn_frame_desc *out)
{
    gn_frame_opts_frame(&o->frame, o->frame.camera_set ? o->frame.camera : NULL, (gn_view)o->view, out);
    gn_post_opts_frame(&o->post, out);
    out->tonemap = (gn_tonemap)(GN_TONEMAP_ACES + o->tonemap);
}

const char *gn_bench_path_name(int path)
{
    return path >= 0 && path < (int)GN_COUNT(gn_path_names) - 1 ? gn_path_names[path] : "?";
}

const char *gn_render_view_name(int view)
{
    return view >= 0 && view < (int)GN_COUNT(gn_view_names) - 1 ? gn_view_names[view] : "?";
}

/* ---- view: the interactive viewer ------------------------------------------------------------ */
static const char *const gn_on_off[] = {"off", "on", NULL};

/* Every row of the viewer is also a console setting of the same name (view_console.c). */
uint32_t gn_view_opts_table(gn_view_opts *o, gn_opt *t)
{
    uint32_t n = gn_frame_table(&o->frame, t);
    n += gn_look_rows(&o->view, &o->tonemap, &o->post, t + n);
    gn_opt opts[] = {
        {"--vsync", GN_OPT_CHOICE, &o->vsync, NULL, 0, 0, false, gn_on_off, "on|off",
         "wait for the display's refresh (default on)"},
        {"--script", GN_OPT_STRING, &o->script, NULL, 0, 0, false, NULL, "FILE",
         "drive the viewer from a file, one command a line (see below), with a fixed 1/60 s a frame"},
        {"--screenshot-overlay", GN_OPT_CHOICE, &o->shot_overlay, NULL, 0, 0, false, gn_on_off, "on|off",
         "screenshots (P, script) with the overlay blended in (default off: the frame alone)"},
        {"--anim-speed", GN_OPT_FLOAT, &o->anim_speed, NULL, 0, 100, false, NULL, "X",
         "animated rigs play at X times their speed (default 1; 0 pauses; N switches their clip)"},
    };
    memcpy(t + n, opts, sizeof opts);
    n += GN_COUNT(opts);
    n += gn_shadow_table(&o->shadow, t + n);
    return n + gn_light_table(&o->light, t + n);
}

static const char gn_view_summary[] =
    "Opens a window on a scene: a fly camera, live settings through a console, and an overlay of\n"
    "frame statistics. Every option below is also a console setting of the same name.";

gn_view_opts gn_view_opts_defaults(void)
{
    return (gn_view_opts){.frame = gn_frame_opts_defaults(),
                          .vsync = 1,
                          .anim_speed = 1,
                          .post = gn_post_opts_defaults(),
                          .light = {.clustered = 1}};
}

gn_parse_status gn_view_opts_parse(int argc, char **argv, gn_view_opts *o, char *err, size_t err_size)
{
    *o = gn_view_opts_defaults();
    gn_opt t[GN_OPT_TABLE_MAX];
    uint32_t n = gn_view_opts_table(o, t);
    gn_parse_status s = gn_opts_parse("view", t, n, argc, argv, err, err_size);
    if (s != GN_PARSE_OK) return s;
    if (gn_scene_check("view", o->frame.scene, o->frame.paks, err, err_size)) return GN_PARSE_ERROR;
    return GN_PARSE_OK;
}

bool gn_view_scene_ok(const gn_view_opts *o, char *err, size_t err_size)
{
    return gn_scene_check("view", o->frame.scene, o->frame.paks, err, err_size) == NULL;
}

void gn_view_opts_help(FILE *f)
{
    gn_view_opts o = gn_view_opts_defaults();
    gn_opt t[GN_OPT_TABLE_MAX];
    gn_opts_print_help(f, "view", gn_view_summary, t, gn_view_opts_table(&o, t));
    fprintf(f, "\nkeys: mouse look while a mouse button is held (left or right),\n"
               "  W/A/S/D move, E/Q up/down, Shift faster, scroll: speed; F: the sun follows the clock;\n"
               "  [ and ]: an hour earlier/later; 1 final, 2 shadow, 3 cascades, 4 vsm-pages,\n"
               "  5 light-heatmap, 6 normals, 7 depth, 8 albedo, 9 vsm-atlas; V: shadows csm/vsm/none;\n"
               "  L: clustered/naive lights; N: animated models' next clip; H: overlay; P: screenshot;\n"
               "  ` (backquote): console; Esc: quit\n"
               "console: NAME shows a setting, NAME VALUE sets it (shadows vsm, clustered 0, msaa 4,\n"
               "  lights 1024), Tab completes, 'help' lists the names\n"
               "script: frames N | key K | hold K N | mouse DX DY | set NAME VALUE | screenshot FILE | quit\n"
               "  (K as GLFW names keys: W, F, GRAVE_ACCENT, LEFT_SHIFT; # starts a comment)\n"
               "\nexample: gnomon view --scene town --size 1280x720 --lights 256\n");
}

void gn_view_opts_frame(const gn_view_opts *o, gn_frame_desc *out)
{
    gn_frame_opts_frame(&o->frame, NULL, (gn_view)o->view, out);
    gn_post_opts_frame(&o->post, out);
    out->tonemap = (gn_tonemap)(GN_TONEMAP_ACES + o->tonemap);
    out->shadows = o->shadow.shadows == GN_SHADOWCHECK_NONE  ? GN_SHADOWS_NONE
                   : o->shadow.shadows == GN_SHADOWCHECK_VSM ? GN_SHADOWS_VSM
                                                             : GN_SHADOWS_CSM;
    out->naive_lights = !o->light.clustered;
}

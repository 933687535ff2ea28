/* Structs and limits shared by C and GLSL: the one source of truth for GPU layouts.
 * Valid C11 and GLSL 4.50 (glslc defines VULKAN). Only vec4/mat4/uvec4 members, so std140,
 * std430 and C agree without padding rules; the C side _Static_asserts the sizes in
 * src/vk/gpu_layout.c. */
#ifndef GN_GPU_TYPES_H
#define GN_GPU_TYPES_H

#ifdef VULKAN
#define GN_STRUCT(name) struct name
#define gn_vec4 vec4
#define gn_uvec4 uvec4
#define gn_mat4 mat4
#else
#include <stdint.h>
typedef float gn_vec4[4];
typedef uint32_t gn_uvec4[4];
typedef float gn_mat4[16];
#define GN_STRUCT(name)                                                                                      \
    typedef struct name name;                                                                                \
    struct name
#endif

/* Limits, each with its reason. */
#define GN_FRAMES_IN_FLIGHT 2 /* CPU records frame N+1 while the GPU runs frame N */

#define GN_GPU_MAX_CASCADES 8    /* layers of the sun's shadow map array (GN_CSM_MAX_CASCADES) */
#define GN_GPU_VSM_MAX_LEVELS 16 /* virtual shadow map clipmap levels (GN_VSM_MAX_LEVELS) */
#define GN_GPU_VSM_NONE 0xffffffffu
#define GN_GPU_VSM_RENDERED_NOW 0x80000000u /* page table .y: rendered this frame (vsm-pages view) */

/* View modes (gn_view in gnomon.h; same values). */
#define GN_GPU_VIEW_FINAL 0
#define GN_GPU_VIEW_DEPTH 1
#define GN_GPU_VIEW_NORMALS 2
#define GN_GPU_VIEW_ALBEDO 3
#define GN_GPU_VIEW_SHADOW 4
#define GN_GPU_VIEW_CASCADES 5
#define GN_GPU_VIEW_LIGHT_HEATMAP 6
#define GN_GPU_VIEW_VSM_PAGES 7
#define GN_GPU_VIEW_VSM_ATLAS 8
#define GN_GPU_VIEW_DISTANCE 9
#define GN_GPU_VIEW_OCCLUSION 10
#define GN_GPU_VIEW_LUMINANCE 11
#define GN_GPU_VIEW_BLOOM 12
#define GN_GPU_VIEW_AO 13
#define GN_GPU_VIEW_DOF_COC 14
#define GN_GPU_VIEW_IBL 15
#define GN_GPU_VIEW_SKY_LUT 16
#define GN_GPU_VIEW_FOG 17
#define GN_GPU_VIEW_PROBES 18

/* Bloom (src/passes/bloom.c): a chain of half-size levels; push constants of its passes. */
#define GN_GPU_BLOOM_MAX_LEVELS 8
#define GN_GPU_BLOOM_FIRST 0 /* the HDR colour into level 0: threshold and Karis average */
#define GN_GPU_BLOOM_DOWN 1  /* level k - 1 into level k */
#define GN_GPU_BLOOM_UP 2    /* level k + 1, tent-filtered, blended into level k */

/* Alpha modes (gn_alpha_mode; same values). */
#define GN_GPU_ALPHA_OPAQUE 0
#define GN_GPU_ALPHA_MASK 1
#define GN_GPU_ALPHA_BLEND 2

/* A material's other maps (set 1, bindings 3, 4, 5, 8, 9). */
#define GN_GPU_MAP_METAL_ROUGH 1u
#define GN_GPU_MAP_OCCLUSION 2u
#define GN_GPU_MAP_EMISSIVE 4u
#define GN_GPU_MAP_STAGES 8u          /* a Quake 3 shader: its stages (gn_gpu_stage) make the surface */
#define GN_GPU_MAP_SPECULAR 16u       /* KHR_materials_specular's specularTexture (alpha) */
#define GN_GPU_MAP_SPECULAR_COLOR 32u /* its specularColorTexture (rgb, sRGB) */

/* A material's texture slots, each with its own uv transform (KHR_texture_transform; the order
 * of gn_material_map in gnomon.h). */
#define GN_GPU_UV_BASE 0u
#define GN_GPU_UV_NORMAL 1u
#define GN_GPU_UV_METAL_ROUGH 2u
#define GN_GPU_UV_OCCLUSION 3u
#define GN_GPU_UV_EMISSIVE 4u
#define GN_GPU_UV_SLOTS 5

/* Tone curves (gn_tonemap minus one). */
#define GN_GPU_TONEMAP_ACES 0
#define GN_GPU_TONEMAP_REINHARD 1
#define GN_GPU_TONEMAP_CLIP 2

/* Per-frame constants: set 0, binding 0 (uniform buffer, dynamic offset into the ring). */
GN_STRUCT(gn_gpu_frame)
{
    gn_mat4 view_proj;      /* world -> clip, reversed-Z infinite */
    gn_mat4 inv_view_proj;  /* clip -> world, for sky rays and depth reconstruction */
    gn_vec4 camera_pos;     /* xyz; w = near plane (metres) */
    gn_vec4 sun_dir;        /* xyz towards the sun (unit); w = sun elevation in degrees */
    gn_vec4 sun_color;      /* rgb illuminance (linear, already times intensity) */
    gn_vec4 sky_zenith;     /* rgb radiance of the sky straight up */
    gn_vec4 sky_horizon;    /* rgb radiance at the horizon */
    gn_vec4 sky_ground;     /* rgb radiance below the horizon */
    gn_vec4 ambient_sky;    /* hemisphere ambient from above */
    gn_vec4 ambient_ground; /* hemisphere ambient from below */
    gn_vec4 exposure;       /* x fixed: the exposure colour is stored with (linear, compensation in);
                               y auto: the pre-exposure of a first frame or a cut (a power of two,
                               from the sky's luminance: src/passes/exposure.c); z seconds
                               since the last frame (0: exposed at its target); w 1 auto, 0 fixed */
    gn_vec4 exposure_meter; /* auto: xy the histogram's EV100 range, zw the metered band (fractions) */
    gn_vec4 exposure_adapt; /* auto: x EV/s towards brighter, y towards darker, z compensation (EV),
                               w transition (EV) */
    gn_vec4 night;          /* x the night lights' level, 0 by day .. 1 (decide/sun.h); yzw unused */
    gn_vec4 bloom;          /* x intensity (0: off), y threshold in exposed units (0: none, the chain
                               is energy-conserving), z the threshold's soft knee, w scatter */
    gn_vec4 grade;          /* x 1: dither the 8-bit output; y 1: the colour lookup table is on;
                               zw unused */
    gn_uvec4 mode;          /* x = view (GN_GPU_VIEW_*), y = tone curve, z = width, w = height */
    gn_vec4 camera_forward; /* xyz: the view axis, so view depth = dot(p - camera, forward) */
    gn_vec4 csm;            /* x cascades (0: no sun shadows), y shadow distance (view depth),
                               z normal offset in texels, w depth where the last tenth's fade starts */
    /* Each cascade as it was last rendered (staggered cascades keep older matrices). */
    gn_mat4 cascade_view_proj[GN_GPU_MAX_CASCADES];
    gn_vec4 cascade[GN_GPU_MAX_CASCADES]; /* x far view depth, y blend end, z texel size (m), w unused */
    gn_mat4 view;                         /* world -> view (the froxel grid lives in view space) */
    gn_uvec4 cluster_grid;                /* x, y, z froxels; w light indices a froxel holds */
    gn_vec4 cluster_depth;                /* x slice scale, y slice bias (slice = log2(view depth) * x + y),
                                             z near depth of slice 0, w far depth of the last slice */
    gn_uvec4 lights;                      /* x light count, y 1 = naive (every light for every fragment),
                                             zw unused */
    gn_vec4 cluster_proj;                 /* x, y view-space slope (x/depth, y/depth) one froxel column / row
                                             spans; z depth ratio of consecutive slice boundaries; w unused.
                                             Filled by gn_cluster_frame_params (src/decide/clusters.h) */
    /* Virtual shadow maps (src/decide/vsm.h, shaders/vsm.glsl); vsm.x == 0: off. */
    gn_vec4 vsm;          /* x levels, y level-0 page size (m), z level-0 texel (m), w footprint
                             scale (a pixel at distance d spans d * w metres) */
    gn_vec4 vsm_params;   /* x light depth range (m), y current light version slot, z atlas
                             pages a row, w normal offset in texels */
    gn_uvec4 vsm_info;    /* x pages a level side (N), y page texels, z atlas texels a side, w pool
                             pages (the dynamic layer's tiles follow them) */
    gn_vec4 vsm_light[3]; /* this frame's light rotation rows (xyz; w unused) ... */
    gn_vec4 vsm_pivot;    /* ... about this pivot (xyz): light = rows . (p - pivot) */
    gn_uvec4 vsm_origin[GN_GPU_VSM_MAX_LEVELS / 2]; /* window's first page (int bits): xy level 2k,
                                                       zw level 2k + 1 */
    /* VSM RESOLVE (src/passes/vsm_resolve.c, shaders/vsm_resolve.comp) */
    gn_mat4 prev_view_proj;     /* the previous frame's un-jittered world -> clip (gnomon has no jitter:
                                   its view_proj), to reproject this frame's pixels into its mask */
    gn_uvec4 vsm_resolve;       /* x: 0 the forward pass looks pages up itself, k + 1 it reads mask
                                   image k; y: 1 the other mask is the previous frame's (history);
                                   z: 1 accept any history (an A/B for tests); w unused */
    gn_vec4 vsm_resolve_params; /* xy this frame's PCF offset in texels (pixels with history only),
                                   zw sample 0's position in the pixel (where the depth is) */
    gn_vec4 debug;              /* the distance view (src/passes/depth_view.c): x metres shown black, y metres
                                   between contours; zw unused */
    /* Ambient occlusion (src/passes/ao.c, decide/ao.h); ao.z == 0: off. */
    gn_vec4 ao;      /* x radius (m), y bias (m), z intensity, w pixels 1 m spans 1 m ahead */
    gn_vec4 ao_proj; /* x 1 / the projection's x scale, y 1 / |its y scale|, zw sample 0 in its pixel */
    /* Depth of field (src/passes/dof.c); dof.z == 0: off. */
    gn_vec4 dof;        /* x focus (m), y range (m), z strength, w mode (GN_GPU_DOF_*) */
    gn_vec4 dof_params; /* x blur radius (half-size pixels), y 1: the sky blurs like geometry; zw unused */
    gn_vec4 ibl;        /* x 1: ambient light from the environment map (0: the hemisphere); y > 0: a test's
                           uniform sky of that many nits (the environment and the sky pass); z 1: the
                           reflection probes are on; w their count */
    /* The atmosphere (decide/atmosphere.h, shaders/atmosphere.glsl): km and per km. */
    gn_vec4 atmo_rayleigh;     /* rgb scattering at the ground, w its scale height */
    gn_vec4 atmo_mie;          /* x scattering, y absorption at the ground, z scale height, w g */
    gn_vec4 atmo_ozone;        /* rgb absorption at the layer's peak, w the peak's altitude */
    gn_vec4 atmo_body;         /* x the ground's radius, y the air's top, z the ozone layer's width,
                                  w the eye's radius (y = 0 is the ground) */
    gn_vec4 atmo_albedo;       /* rgb the ground's albedo, w the night sky's glow (nits) */
    gn_vec4 sky_light[2];      /* the sun, the moon: xyz towards it, w illuminance above the air (lux) */
    gn_vec4 sky_light_disc[2]; /* x cos of the disc's angular radius, y the moon's illuminated
                                  fraction, zw unused */
    gn_vec4 fog[2];            /* height fogs: x density at the base (per m), y base (m), z falloff (per km);
                                  x 0: off */
    gn_vec4 fog_params;  /* x albedo, y anisotropy (g), z latitude (radians: the stars' pole), w unused */
    gn_vec4 atmo_aerial; /* x 1: aerial perspective on, y the volume's far slice (km), z 1: stars,
                            w the stars' turn about the pole (radians) */
    /* Volumetric fog (src/passes/volumetric.c, shaders/volumetric*.glsl); volumetric.x == 0: off. */
    gn_vec4 volumetric;        /* x 1 on, y the first slice's view depth (m), z the last's, w this frame's
                                  jitter of the froxels' depths (0..1 of a slice) */
    gn_vec4 volumetric_params; /* x the history's weight (0: none this frame), y which inject image is this
                                  frame's (0, 1), zw unused */
    gn_mat4 volumetric_prev;   /* the last frame's world -> clip, where the history's froxels were */
    gn_uvec4 coverage;         /* x 1: alpha to coverage (the prepass's alpha-tested samples covered by
                                  alpha, src/passes/depth_prepass.c): the forward pass does not
                                  alpha-test those materials again; yzw unused */
};

/* The ambient occlusion passes' push constants (shaders/ao*.comp): the Z pyramid's levels
 * (w, h, first texel; GN_AO_LEVELS of decide/ao.h) and the pass (x: the level written by ao_z,
 * or the blur's direction 0 x, 1 y). */
#define GN_GPU_AO_LEVELS 6
GN_STRUCT(gn_gpu_ao_push)
{
    gn_uvec4 level[GN_GPU_AO_LEVELS];
    gn_uvec4 pass;
};

/* Image-based light's environment (src/passes/ibl.c, shaders/ibl*.glsl): the sky's radiance in
 * an octahedral map of GN_GPU_IBL_SIZE^2 (level 0, the mirror), then levels 1..5 prefiltered
 * for GGX roughness k / 5, packed into one atlas (level k at (GN_GPU_IBL_ATLAS_X[k],
 * GN_GPU_IBL_ATLAS_Y[k]), GN_GPU_IBL_SIZE >> k a side), and 9 spherical-harmonic coefficients
 * of its radiance for the diffuse irradiance. */
#define GN_GPU_IBL_SIZE 128
#define GN_GPU_IBL_LEVELS 6
#define GN_GPU_IBL_ATLAS_W 96 /* level 1 (64) and, beside it, 2 (32) over 3 (16), 4 (8), 5 (4) */
#define GN_GPU_IBL_ATLAS_H 64
#define GN_GPU_IBL_SH 9

/* Local reflection probes (src/probes.c, shaders/probes.glsl; docs/SKY.md): each probe's
 * radiance an octahedral map of GN_GPU_PROBE_SIZE^2 (level 0) in a layer of one array, its
 * levels 1..5 prefiltered as the environment's are in a layer of an atlas array laid out as the
 * environment's atlas at half the size; per probe its position, its box and fade and 9
 * harmonics. An instance names its probe in bits 2..7 of its flags (info.y), probe + 1, 0 none. */
#define GN_GPU_PROBE_SIZE 64
#define GN_GPU_PROBE_ATLAS_W 48
#define GN_GPU_PROBE_ATLAS_H 32
#define GN_GPU_PROBES 63
#define GN_GPU_INSTANCE_PROBE_SHIFT 2u
#define GN_GPU_INSTANCE_PROBE_MASK 63u
GN_STRUCT(gn_gpu_probe)
{
    gn_vec4 position; /* xyz where it was rendered from, w the fade (m) at its box's faces */
    gn_vec4 box_min, box_max;
    gn_vec4 sh[GN_GPU_IBL_SH];
};

/* The atmosphere's tables (src/passes/atmosphere.c; sizes as decide/atmosphere.h's GN_ATMO_*):
 * the aerial perspective's froxels are one atlas, slice k at x = k * SIZE. */
#define GN_GPU_ATMO_T_W 256
#define GN_GPU_ATMO_T_H 64
#define GN_GPU_ATMO_MS 32
#define GN_GPU_ATMO_SKYVIEW_W 192
#define GN_GPU_ATMO_SKYVIEW_H 108
#define GN_GPU_ATMO_AERIAL 32
#define GN_GPU_ATMO_T_STEPS 40
#define GN_GPU_ATMO_MS_DIRS 8
#define GN_GPU_ATMO_MS_STEPS 20
#define GN_GPU_ATMO_SKY_STEPS 32
#define GN_GPU_ATMO_MIN_ALTITUDE 0.001

/* Volumetric fog's froxels: X x Y a slice, Z slices (exponential in view depth), the slices as
 * GN_GPU_VOL_TILES_X x (Z / GN_GPU_VOL_TILES_X) tiles of one 2D atlas. */
#define GN_GPU_VOL_X 128
#define GN_GPU_VOL_Y 72
#define GN_GPU_VOL_Z 64
#define GN_GPU_VOL_TILES_X 8

/* Depth of field's modes (gn_dof_mode; same values). */
#define GN_GPU_DOF_BACK 0
#define GN_GPU_DOF_FRONT 1
#define GN_GPU_DOF_BOTH 2

/* Eye adaptation's state (set 0 binding GN_BIND_FRAME_EXPOSURE; src/passes/exposure.c). The
 * histogram pass fills bins from the resolved HDR colour; the adapt pass meters them and
 * writes the rest; the forward pass stores colour times pre.x, the tone map scales by
 * state.z / pre.y. */
#define GN_GPU_EXPOSURE_BINS 128 /* over 24 EV by default: 0.19 EV a bin */
GN_STRUCT(gn_gpu_exposure)
{
    gn_vec4 state; /* x EV100 shown (adapted), y EV100 metered, z exposure shown (linear, with the
                      compensation), w 1 once a frame has been metered */
    gn_vec4 pre;   /* x the pre-exposure the next frame's colour is stored with (a power of two;
                      0: none yet), y this frame's; zw unused */
    gn_vec4 band;  /* xy the metered band's EV100 from and to (the luminance view draws it); zw unused */
    gn_uvec4 bins[GN_GPU_EXPOSURE_BINS / 4]; /* pixels a bin, bin i in bins[i / 4][i % 4] */
};

/* RESOLVE's mask: one 32-bit word a pixel (bits 0..9 the sun's visibility 0..1023, 10..14 the
 * level sampled or GN_GPU_VSM_MASK_NO_PAGE, 15 the page was rendered this frame, 16..30 the
 * depth at the pixel centre as a half float without its sign, 31 the surface faces the sun;
 * shaders/vsm_resolve.glsl packs it). */
#define GN_GPU_VSM_MASK_NO_PAGE 31u

/* One slot of a VSM page table (set 0, binding 9): levels * N * N of them. */
GN_STRUCT(gn_gpu_vsm_page)
{
    gn_uvec4 entry; /* x physical page or GN_GPU_VSM_NONE; y bits 0..7 light version slot, 8..23
                       the dynamic layer's tile + 1 (0: none), 31 RENDERED_NOW; z, w the page's
                       (i, j) as int bits: a lookup must match them */
};

/* VSM ALLOC's record of one virtual page (levels * N * N of them, GPU-only; the CPU reference
 * is gn_vsm_page in src/decide/vsm.h, and a test holds the two equal). */
GN_STRUCT(gn_gpu_vsm_state)
{
    gn_uvec4 a; /* x, y the world page (i, j) it holds (int bits); z physical page or
                   GN_GPU_VSM_NONE; w light version id it was rendered with */
    gn_uvec4 b; /* x frame it was last requested; y GN_GPU_VSM_STATE_* flags; z this frame's
                   dynamic tile + 1 (0: none); w unused */
};
#define GN_GPU_VSM_STATE_RENDERED 1u /* holds depth */
#define GN_GPU_VSM_STATE_DIRTY 2u    /* its casters changed: render again */
#define GN_GPU_VSM_STATE_NOW 4u      /* chosen to render this frame */

/* One page RENDER draws this frame (ALLOC writes them after a uvec4 header: count, static,
 * dynamic; BIN and the casters' vertex shader read them). */
GN_STRUCT(gn_gpu_vsm_render)
{
    gn_uvec4 page; /* x page index (level * N * N + slot), y atlas tile, z level, w bits:
                      GN_GPU_VSM_RENDER_DYNAMIC, GN_GPU_VSM_RENDER_HELD */
    gn_vec4 rect;  /* x, y the page's light-space corner (m, its smallest x and y); z its size
                      (m); w 2 / its size */
};

#define GN_GPU_VSM_RENDER_DYNAMIC 1u /* a page of the dynamic layer */
/* the page's tile still holds this page's depth under an older light (kept, rendered before):
 * the predictor of its casters' occlusion (src/decide/vsm_hzb.h) */
#define GN_GPU_VSM_RENDER_HELD 2u
/* The depth margin of a hidden pair (src/decide/vsm_hzb.h), a share of the light's depth span:
 * 2^-16, 1.5 cm of +-500 m, far above the rasteriser's rounding (about 2^-24 of it). */
#define GN_VSM_HIDDEN_MARGIN (1.0f / 65536.0f)

/* One shadow caster for BIN (an instance; static casters first, dynamic ones last). */
GN_STRUCT(gn_gpu_vsm_caster)
{
    gn_vec4 sphere; /* world centre, radius */
    gn_uvec4 draw;  /* x its LOD's draw slot + 1 (0: none; src/decide/caster_lod.h), y that LOD's
                       error in the world (a float's bits, m), z 0, w instance */
    gn_uvec4 info;  /* x draw group (0 opaque, 1 + k the k-th alpha-tested material); y 1: dynamic */
};
#define GN_GPU_VSM_MAX_GROUPS 64 /* draw groups: opaque, then one a masked material */

/* What ALLOC and BIN counted this frame, copied into the frame's counters (src/vk/vk.h). */
GN_STRUCT(gn_gpu_vsm_stats)
{
    gn_uvec4 pages; /* requested, resident, rendered static, rendered dynamic */
    gn_uvec4 pool;  /* evicted, overflow (no pool page, or no dynamic tile), waiting, pool used */
    gn_uvec4 misc;  /* x sun lag in degrees (float bits), y BIN's dropped casters, z dynamic pages
                       needed, w free pages */
    gn_uvec4 requested_level[GN_GPU_VSM_MAX_LEVELS / 4];
    gn_uvec4 rendered_level[GN_GPU_VSM_MAX_LEVELS / 4];
    gn_uvec4 fresh; /* x static pages rendered because they were new, back in view or dirty (not
                       a refresh for the sun); y, z, w unused */
    gn_uvec4 pairs; /* BIN's (caster, page) pairs: x drawn in the first phase, y tested in the
                       second (the predictor hid them), z of those drawn; w unused */
};

/* Local lights (docs/LIGHTING.md): the froxel grid and its lists. Defaults; the renderer may
 * use other grid sizes and list capacities (they travel in gn_gpu_frame.cluster_grid). */
#define GN_CLUSTER_X 16          /* froxel columns, independent of the screen size */
#define GN_CLUSTER_Y 9           /* froxel rows */
#define GN_CLUSTER_Z 24          /* exponential depth slices */
#define GN_CLUSTER_MAX_LIGHTS 64 /* light indices a froxel's fixed slot holds */
#define GN_LIGHT_TYPE_POINT 0
#define GN_LIGHT_TYPE_SPOT 1

/* One light: set 0, binding 5 (storage). Packed from gn_light_desc by gn_light_pack. */
GN_STRUCT(gn_gpu_light)
{
    gn_vec4 position_radius; /* xyz world position, w radius (m) */
    gn_vec4 color_type;      /* rgb colour * intensity, w type (GN_LIGHT_TYPE_*) */
    gn_vec4 direction_cos;   /* xyz spot axis (unit), w cos(outer angle) */
    gn_vec4 params;          /* x cos(inner angle), y shadow layer or -1, z sin(outer angle), w 1: a
                                night light (times frame.night.x) */
};

/* One instance: set 0, binding 1 (storage buffer, device-local). The model matrix is stored
 * as its three rows (affine), so a vec4 dot gives each world coordinate. */
GN_STRUCT(gn_gpu_instance)
{
    gn_vec4 row0, row1, row2;
    gn_uvec4 info;  /* x = material; y = flags (bits 0..7: GN_GPU_INSTANCE_*), and for a grid-lit
                       instance the light's direction (octahedral, 12 bits a coordinate) in bits
                       8..31; z, w = the grid's ambient and directed light (RGB9E5) */
    gn_vec4 sphere; /* world bounding sphere (xyz centre, w radius) for culling; w < 0: removed */
};
#define GN_GPU_INSTANCE_DYNAMIC 1u
#define GN_GPU_INSTANCE_GRID_LIT 2u /* lit by a BSP map's light grid instead of the hemisphere */

/* The push constants of GPU culling (shaders/cull.glsl, src/passes/cull.c). */
GN_STRUCT(gn_gpu_cull_push)
{
    gn_uvec4 sizes;  /* x slots, y groups, z views in this dispatch, w blocks (of 256 slots) */
    gn_uvec4 where;  /* x the frame's first view in the ring (as gn_gpu_cull_view[]), y this
                        dispatch's first view, z the history's read half (0 or slots), w 1 when
                        the history holds last frame's (else no instance counts as seen) */
    gn_vec4 view[3]; /* occlusion: the camera's world -> view rows (gn_hzb_camera.view) */
    gn_vec4 proj;    /* x p00, y p11, z near plane */
    gn_uvec4 hzb;    /* x width, y height (the depth image's pixels), z levels (gn_hzb_layout) */
};

/* The push constants of the HZB's build (shaders/hzb*.comp): one level from the one below. */
GN_STRUCT(gn_gpu_hzb_push)
{
    gn_uvec4 src; /* x width, y height, z first texel (level 0: the depth image, w its samples) */
    gn_uvec4 dst; /* x width, y height, z first texel */
};

/* One view culled on the GPU this frame: the camera, a cascade, a local light's layer. Its
 * list is slots [v * slots, v * slots + visible) of the visible buffer, its commands groups
 * [v * groups, +groups) of the command buffer. */
GN_STRUCT(gn_gpu_cull_view)
{
    gn_vec4 planes[6]; /* unit normals pointing in (gn_frustum) */
    gn_uvec4 info;     /* x planes, and the mode in bits 8.. (GN_CULL_MODE_*), y slots tested (the
                          casters' end for a shadow view), z a BSP world's keep mask's first
                          word in the ring (~0u: none), w the tag its counts add to (GN_CULL_TAG_*) */
    gn_vec4 size;      /* x the smallest diameter drawn (m; cascades skip smaller casters); yzw
                          the eye, for the clusters' cone test (GN_CULL_CONES), or y the texel
                          (GN_CULL_LOD) */
};
#define GN_CULL_CONES (1u << 16) /* info.x: drop clusters that face away from the eye (camera views) */
#define GN_CULL_LOD (1u << 17)   /* info.x: a shadow view; size.y its texel (m): casters' LODs within it */
/* What a view's list holds: "in the view" is the frustum, keep mask, size and slot tests */
#define GN_CULL_MODE_VIEW 0u   /* the slots in the view */
#define GN_CULL_MODE_PHASE1 1u /* ... that were drawn last frame (two-phase occlusion's first draw) */
#define GN_CULL_MODE_PHASE2 2u /* ... that were not, and are not occluded by the HZB of phase 1 */
#define GN_CULL_MODE_FINAL 3u  /* ... phase 1's and phase 2's (the frame's list); writes the history */
#define GN_CULL_TAG_CAMERA 0u  /* the camera's list: drawn instances, and [3] those in the frustum */
#define GN_CULL_TAG_PHASE1 1u
#define GN_CULL_TAG_PHASE2 2u
#define GN_CULL_TAG_CASCADE 3u /* + the cascade, up to GN_CSM_MAX (8) */
#define GN_CULL_TAG_LIGHTS 11u /* every local light's layer */
#define GN_CULL_TAG_CLUSTERS                                                                                 \
    12u /* the camera's clusters: of instances in the view, culled by the                                    \
           frustum, culled by the cone, drawn */
#define GN_CULL_TAGS                                                                                         \
    13u /* 4 counts each: instances (or clusters), triangles, non-empty groups, in the view */
#define GN_CULL_WHOLE 0xffffffffu /* a slot that is a whole instance, not one of its clusters */

/* The cone test (shaders/cull_test.comp, its reference gn_cluster_backfacing) keeps a cluster
 * unless the eye is this much (in the cosine) inside the cone's culling region: triangles
 * within it are back-facing with room for the rasteriser's snapping of nearly edge-on ones
 * (gpu_clusters: images identical with and without clusters). A transform counts as a rotation
 * and a uniform scale when its axes' squared lengths and dot products agree to the tolerance's
 * share of the first's squared length. Float literals: both sides add them in single precision. */
#define GN_CLUSTER_CONE_MARGIN 0.01f
#define GN_CLUSTER_UNIFORM_TOLERANCE 1e-3f

/* One cluster (meshlet) of a large mesh (src/decide/meshlets.h), in the mesh's space. */
GN_STRUCT(gn_gpu_cluster)
{
    gn_vec4 sphere; /* bounding sphere: xyz centre, w radius */
    gn_vec4 apex;   /* xyz the normal cone's apex, w its cutoff (cos of the half angle; >= 1: none) */
    gn_vec4 axis;   /* xyz the cone's axis (unit), w 0 */
    gn_uvec4 range; /* x first index (of the scene's index buffer), y index count, z first slot
                       flag: 1 on a mesh's first cluster (an instance counted once), w 0 */
};

/* One draw group of the scene's static draw order (GPU culling): its slots [first, first +
 * count) of the order, and its mesh's index range. */
GN_STRUCT(gn_gpu_cull_group)
{
    gn_uvec4 range;  /* x first slot, y slot count, z index count, w first index */
    gn_uvec4 vertex; /* x vertex offset (the mesh's first vertex, an int's bits); a caster LOD's
                        y index count (0: none), z first index, w error in the world (a float's
                        bits, metres: src/decide/caster_lod.h) */
};

/* One material: set 0, binding 2 (storage buffer). Textures are bound per material in set 1
 * because lavapipe has no descriptor indexing. */
GN_STRUCT(gn_gpu_material)
{
    gn_vec4 base_color; /* linear rgba */
    gn_vec4 emissive;   /* rgb linear luminance (nits); w 1: a night light's (times frame.night.x) */
    gn_vec4 pbr;        /* x metallic, y roughness, z has base texture, w has normal map */
    gn_vec4 lighting;   /* x has a lightmap (set 1, binding 2, at the vertex's uv2); y alpha mode
                           (GN_GPU_ALPHA_*), z alpha cutoff (mask); w the maps it has
                           (GN_GPU_MAP_* bits, as a float) */
    gn_vec4 specular;   /* the dielectric's Fresnel (KHR_materials_specular and _ior; gn_brdf_dielectric
                           in src/decide/brdf.h): rgb F0 (0.04 by default), w F90 (1); metals keep
                           their base colour's */
    /* Each slot's uv transform (GN_GPU_UV_*), uv' = M (u, v, 1) with M's rows [2k] = (m00, m01,
       m02, the uv set: 0 the vertex's uv, 1 its uv2) and [2k + 1] = (m10, m11, m12, 1 when M is
       not the identity: gn_material_uv's fast path); composed
       by gn_uv_transform_matrix (src/decide/uv_transform.h), applied by gn_material_uv */
    gn_vec4 uv_transform[2 * GN_GPU_UV_SLOTS];
};

/* One stage of a Quake 3 shader (src/decide/q3_material.h; shaders/q3_stages.glsl): set 1, binding
 * GN_BIND_MATERIAL_STAGE_DATA, at material * GN_GPU_Q3_STAGES + stage. The first four vectors are the
 * stage's TFX outputs, evaluated each frame for the materials in view; mode is fixed at load. */
GN_STRUCT(gn_gpu_stage)
{
    gn_vec4 tex0, tex1; /* the texture matrix's rows: s' = tex0 . (s, t, 1), t' = tex1 . (s, t, 1) */
    gn_vec4 color;      /* rgba from rgbGen and alphaGen */
    gn_vec4 extra;      /* x tcMod turb's amplitude, y its phase (turns), z the animMap frame */
    gn_uvec4 mode;      /* x first slot | frames << 8 | source << 16 (GN_GPU_Q3_SOURCE_*) | uv << 20
                           (GN_GPU_Q3_UV_*) | lit << 24 | turb << 25 | clamp << 26 |
                           specular alpha << 27 | no mipmaps << 28; y the blend byte
                           (decide/tfx.h) | alpha test << 8; z the material's stage count | its first layer in the
                           shaders' image array << 8; w flags */
};
#define GN_GPU_Q3_SOURCE_WHITE 0u
#define GN_GPU_Q3_SOURCE_IMAGE 1u
#define GN_GPU_Q3_SOURCE_LIGHT 2u
#define GN_GPU_Q3_UV_BASE 0u
#define GN_GPU_Q3_UV_LIGHTMAP 1u
#define GN_GPU_Q3_UV_ENV 2u
/* mode.w: a sky whose slots 0..5 are its far box; bits 8..31 its cloud height (game units) */
#define GN_GPU_Q3_SKY_BOX 1u
/* mode.w of a material's first record: none of its stages is lit (no $lightmap, no lit rgbGen):
 * drawn as its emission alone, as the game draws it fullbright */
#define GN_GPU_Q3_UNLIT 2u
/* Quake units a metre (src/formats/bsp.h's GN_BSP_UNIT inverted): turbulence reads positions in
 * the game's units */
#define GN_GPU_Q3_UNITS_PER_METRE 39.37008f

/* A material's vertex deforms this frame (src/decide/q3_material.h, gn_q3_vertex_deform; applied by
 * shaders/q3_deform.glsl in every scene pass's vertex shader): set 0, binding GN_BIND_FRAME_DEFORMS,
 * one a material, two vectors a deform, v[0].x the first one's kind (0: the material has none). */
#define GN_GPU_Q3_DEFORMS 3 /* GN_Q3_MAT_DEFORMS */
GN_STRUCT(gn_gpu_deform) { gn_vec4 v[2 * GN_GPU_Q3_DEFORMS]; };
#define GN_GPU_VERTEX_FLOATS 14 /* gn_vertex: position 0, normal 3, tangent 6, uv 10, uv2 12 */

/* A Quake 3 map's fog volumes (`fogparms`; src/decide/q3_fog.h, shaders/q3_fog.glsl): set 0 binding
 * GN_BIND_FRAME_FOGS holds a gn_uvec4 header (x: the count, at most GN_GPU_Q3_FOGS), then the volumes.
 * Inside a volume: within its box and behind (dot(n, p) <= w) each of its planes. */
#define GN_GPU_Q3_FOGS 32       /* a map's volumes drawn (openarena's maps have at most 4) */
#define GN_GPU_Q3_FOG_PLANES 16 /* slanted sides a volume (GN_Q3_FOG_MAX_PLANES) */
GN_STRUCT(gn_gpu_q3_fog)
{
    gn_vec4 color;   /* rgb: the fog's linear display value (a texel's: GN_Q3_NITS times it), w: 1 / the
                        opaque distance (1/m) */
    gn_vec4 box_min; /* metres, renderer frame; w: the plane count (a float) */
    gn_vec4 box_max;
    gn_vec4 planes[GN_GPU_Q3_FOG_PLANES]; /* unit outward normal xyz, distance w (metres) */
};

/* Skinning (src/passes/skin.c, shaders/skin.comp; the CPU reference is src/decide/skin.c's
 * gn_skin_vertex). A job is one rig's part whose vertices the GPU writes: from its model's bind
 * pose (range.x, range.z vertices) to the rig's own copy (range.y); morph targets first (up to
 * GN_GPU_SKIN_ACTIVE of them, their deltas at palette.z + target * palette.w + vertex), then the
 * influences (range.w, or GN_GPU_SKIN_NONE: morphed only) over the palette from palette.x (vec4
 * units): palette.y 0 three rows of a 3x4 matrix a joint, 1 a unit dual quaternion (2 vec4). */
#define GN_GPU_SKIN_NONE 0xffffffffu
#define GN_GPU_SKIN_ACTIVE 8 /* GN_MORPH_MAX_ACTIVE */
#define GN_GPU_SKIN_GROUP 64 /* vertices a workgroup */
GN_STRUCT(gn_gpu_skin_job)
{
    gn_uvec4 range;   /* source first vertex, destination first vertex, count, first influence */
    gn_uvec4 palette; /* first palette vec4, mode, first delta record, the morph set's vertex count */
    gn_uvec4 morph;   /* x: active targets */
    gn_uvec4 targets[2];
    gn_vec4 weights[2];
};
GN_STRUCT(gn_gpu_skin_influence)
{
    gn_uvec4 joints;    /* eight 16-bit palette entries, two a word (low half first) */
    gn_vec4 weights[2]; /* their weights, summing to one */
};
GN_STRUCT(gn_gpu_skin_delta)
{
    gn_vec4 position; /* xyz */
    gn_vec4 normal;   /* xyz */
};

#endif

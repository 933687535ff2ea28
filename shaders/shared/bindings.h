/* Descriptor set and binding numbers: the one place C and GLSL take them from (no literal
 * binding number in a shader, no hand-typed index in a C set layout). Valid C11 and GLSL.
 *
 * Every feature owns its sets (docs/ARCHITECTURE.md, "Descriptor sets"). The scene passes (depth
 * prepass, forward, every shadow caster pass) share sets 0 and 1; the forward pass adds the sun
 * technique's receiver set (2) and the local lights' set (3); a compute pass has a set 0 of its
 * own. A binding is named for its set: GN_BIND_<SET>_<WHAT>. */
#ifndef GN_BINDINGS_H
#define GN_BINDINGS_H

/* ---- set 0 of the scene passes: the frame (src/gpu_scene.c writes it) -------------------- */
#define GN_SET_FRAME 0
#define GN_BIND_FRAME_CONSTANTS 0 /* gn_gpu_frame, a dynamic offset into the ring */
#define GN_BIND_FRAME_INSTANCES 1 /* gn_gpu_instance[] */
#define GN_BIND_FRAME_MATERIALS 2 /* gn_gpu_material[] */
#define GN_BIND_FRAME_VISIBLE 3   /* this view's visible instance ids, a dynamic offset */
#define GN_BIND_FRAME_EXPOSURE 4  /* gn_gpu_exposure: the pre-exposure colour is stored with */
#define GN_BIND_FRAME_FOGS 5      /* a Quake 3 map's fog volumes: a uvec4 count, gn_gpu_q3_fog[] */
#define GN_BIND_FRAME_DEFORMS 6   /* each material's vertex deforms this frame: gn_gpu_deform[] */
#define GN_BIND_FRAME_VERTICES 7  /* the scene's vertices as floats: a deformed vertex reads its own */
#define GN_BIND_FRAME_COUNT 8

/* ---- set 1 of the scene passes: one material's textures ---------------------------------- */
#define GN_SET_MATERIAL 1
#define GN_BIND_MATERIAL_BASE 0        /* base colour (sRGB) */
#define GN_BIND_MATERIAL_NORMAL 1      /* tangent-space normal map */
#define GN_BIND_MATERIAL_LIGHTMAP 2    /* RGB9E5 lightmap atlas, clamped linear */
#define GN_BIND_MATERIAL_METAL_ROUGH 3 /* glTF: roughness g, metallic b */
#define GN_BIND_MATERIAL_OCCLUSION 4   /* glTF: occlusion r */
#define GN_BIND_MATERIAL_EMISSIVE 5    /* sRGB */
/* A Quake 3 shader's stages (src/decide/q3_material.h): their per-frame constants, one storage
 * buffer every material set names (gn_gpu_stage[material * GN_GPU_Q3_STAGES + stage]), and the
 * images every shader's stages read as the layers of one 2D array (a layer a slot: one sampling
 * site in the shader, where a binding a slot cost lavapipe minutes to compile and it has no
 * dynamic indexing; one image a map, where one a shader multiplied the upload's calls) */
#define GN_BIND_MATERIAL_STAGE_DATA 6
#define GN_BIND_MATERIAL_SLOTS 7
#define GN_GPU_Q3_STAGES 8 /* GN_Q3_MAT_STAGES */
#define GN_GPU_Q3_SLOTS 16 /* GN_Q3_MAT_SLOTS */
/* KHR_materials_specular's maps, sampled at the vertex's uv (their KHR_texture_transform is not
 * read); a set holds at most GN_VK_MAX_BINDINGS (16) */
#define GN_BIND_MATERIAL_SPECULAR 8       /* linear: alpha scales F0 and F90 */
#define GN_BIND_MATERIAL_SPECULAR_COLOR 9 /* sRGB: rgb scales F0 */
#define GN_BIND_MATERIAL_COUNT 10

/* ---- set 2 of the forward pass: the sun technique's receiver set ------------------------- */
#define GN_SET_SUN 2
/* cascaded shadow maps (src/passes/csm.c) */
#define GN_BIND_CSM_MAP 0 /* D32 array, comparison sampler */
#define GN_BIND_CSM_COUNT 1
/* virtual shadow maps (src/passes/vsm.c); RESOLVE's set repeats the first three */
#define GN_BIND_VSM_TABLE 0    /* gn_gpu_vsm_page[] */
#define GN_BIND_VSM_VERSIONS 1 /* 4 vec4 a light version */
#define GN_BIND_VSM_ATLAS 2    /* D32 page atlas, comparison sampler */
#define GN_BIND_VSM_MASK0 3    /* RESOLVE's mask 0 (frame.vsm_resolve.x says which is this frame's) */
#define GN_BIND_VSM_MASK1 4
#define GN_BIND_VSM_COUNT 5

/* ---- set 3 of the forward pass: local lights (src/passes/clusters.c) --------------------- */
#define GN_SET_LIGHTS 3
#define GN_BIND_LIGHTS_LIGHTS 0        /* gn_gpu_light[] */
#define GN_BIND_LIGHTS_LISTS 1         /* each froxel's count, then its light indices */
#define GN_BIND_LIGHTS_SHADOW_MAP 2    /* shadowed lights' D32 layers, comparison sampler */
#define GN_BIND_LIGHTS_SHADOW_MATRIX 3 /* mat4 a layer */
#define GN_BIND_LIGHTS_COUNT 4

/* ---- set 4 of the forward pass: what earlier screen passes left for it -------------------- */
#define GN_SET_SCREEN 4
#define GN_BIND_SCREEN_AO 0 /* ambient occlusion, a float a pixel (src/passes/ao.c) */
#define GN_BIND_SCREEN_COUNT 1

/* ---- set 5 of the forward pass: the sky's light: image-based light (src/passes/ibl.c) and
 *      the atmosphere's tables it is made from (src/passes/atmosphere.c) ---------------------- */
#define GN_SET_IBL 5
#define GN_BIND_IBL_LEVEL0 0        /* the environment's level 0 (clamped linear) */
#define GN_BIND_IBL_ATLAS 1         /* its prefiltered levels 1..5 (clamped linear) */
#define GN_BIND_IBL_SH 2            /* 9 vec4 */
#define GN_BIND_IBL_DFG 3           /* the DFG table (clamped linear) */
#define GN_BIND_IBL_SKYVIEW 4       /* the atmosphere's sky-view table (clamped linear) */
#define GN_BIND_IBL_TRANSMITTANCE 5 /* its transmittance table (clamped linear) */
#define GN_BIND_IBL_AERIAL 6        /* the aerial perspective's froxel atlas (clamped linear) */
#define GN_BIND_IBL_MS 7            /* the multiple-scattering table (the sky-lut view) */
#define GN_BIND_IBL_PROBE_LEVEL0 8  /* the reflection probes' level 0, an array (clamped linear) */
#define GN_BIND_IBL_PROBE_ATLAS 9   /* their prefiltered levels, an array (clamped linear) */
#define GN_BIND_IBL_PROBES 10       /* gn_gpu_probe[GN_GPU_PROBES] */
#define GN_BIND_IBL_COUNT 11

/* ---- set 6 of the forward pass: volumetric fog (src/passes/volumetric.c) ---------------- */
#define GN_SET_VOLUME 6
#define GN_BIND_VOLUME_INTEGRATED 0 /* the froxels integrated from the eye: rgb light, a transmittance */
#define GN_BIND_VOLUME_HISTORY 1    /* the last frame's injected froxels (its inject pass reads it) */
#define GN_BIND_VOLUME_COUNT 2

/* ---- set 1 of the decal pass (src/passes/decals.c): one a texture set; sets 0 and 2..6 are
 *      the forward pass's --------------------------------------------------------------- */
#define GN_SET_DECAL 1
#define GN_BIND_DECAL_DEPTH 0   /* the resolved depth (sample 0), read by texel */
#define GN_BIND_DECAL_RECORDS 1 /* gn_gpu_decal[] of the frame, in the ring (dynamic offset) */
#define GN_BIND_DECAL_BASE 2    /* the set's base colour with alpha (sRGB, repeat) */
#define GN_BIND_DECAL_NORMAL 3  /* its normal map, or the flat one (repeat) */
#define GN_BIND_DECAL_COUNT 4

/* GPU particles (src/passes/particles.c): the compute pass's set 0 and the draw's set 1. */
#define GN_BIND_PARTICLE_STATES 0    /* gn_gpu_particle[]: every emitter's slots, emitter by emitter */
#define GN_BIND_PARTICLE_FREE 1      /* uint[]: each emitter's free slots, a stack in its range */
#define GN_BIND_PARTICLE_ALIVE 2     /* uint[2 x slots]: the alive lists, last frame's and this one's */
#define GN_BIND_PARTICLE_COUNTERS 3  /* uint[]: GN_PARTICLE_COUNT_* */
#define GN_BIND_PARTICLE_EMITTERS 4  /* gn_gpu_particle_emitter[] of the frame, in the ring (dynamic) */
#define GN_BIND_PARTICLE_JOBS 5      /* gn_gpu_particle_job[] of the frame, in the ring (dynamic) */
#define GN_BIND_PARTICLE_KEYS 6      /* uvec2[]: (sort key, slot) of the blended particles */
#define GN_BIND_PARTICLE_INSTANCES 7 /* gn_gpu_particle_instance[]: blended from 0, additive from the end */
#define GN_BIND_PARTICLE_OWNERS 8    /* uint[]: each instance's emitter */
#define GN_BIND_PARTICLE_DEPTH 9     /* the resolved depth (sample 0), read by texel */
#define GN_BIND_PARTICLE_COUNT 10
#define GN_SET_PARTICLE 1 /* the draw's own set (the forward layout's set 1) */

/* ---- set 2 of the VSM page casters: the pages and their (caster, page) pairs ------------- */
#define GN_SET_VSM_DRAW 2
#define GN_BIND_VSM_DRAW_RENDER 0  /* header, then gn_gpu_vsm_render[] */
#define GN_BIND_VSM_DRAW_PAIRS 1   /* (instance, render entry) */
#define GN_BIND_VSM_DRAW_STAGING 2 /* the staging array the tile copy reads */
#define GN_BIND_VSM_DRAW_COUNT 3

/* ---- compute passes: each its own set 0 -------------------------------------------------- */
/* light binning (cluster_bin.comp) */
#define GN_BIND_BIN_FRAME 0
#define GN_BIND_BIN_LIGHTS 1
#define GN_BIND_BIN_LISTS 2
#define GN_BIND_BIN_OVERFLOW 3
#define GN_BIND_BIN_COUNT 4
/* tone map (tonemap.comp) */
#define GN_BIND_TONEMAP_HDR 0
#define GN_BIND_TONEMAP_DEPTH 1
#define GN_BIND_TONEMAP_OUTPUT 2
#define GN_BIND_TONEMAP_FRAME 3
#define GN_BIND_TONEMAP_EXPOSURE 4 /* gn_gpu_exposure */
#define GN_BIND_TONEMAP_BLOOM 5    /* the bloom chain's level 0, clamped linear */
#define GN_BIND_TONEMAP_LUT 6      /* the colour lookup table: 2 vec4 of header, then size^3 entries */
#define GN_BIND_TONEMAP_DOF 7      /* depth of field's blurred half-size copy, clamped linear */
#define GN_BIND_TONEMAP_COUNT 8
/* eye adaptation: the histogram (exposure_histogram.comp) and the adaptation (exposure_adapt.comp) */
#define GN_BIND_EXPOSURE_FRAME 0
#define GN_BIND_EXPOSURE_HDR 1
#define GN_BIND_EXPOSURE_STATE 2
#define GN_BIND_EXPOSURE_COUNT 3
/* bloom (bloom.comp): one set a step of the chain */
#define GN_BIND_BLOOM_FRAME 0
#define GN_BIND_BLOOM_SRC 1      /* the level read (the HDR colour first), clamped linear */
#define GN_BIND_BLOOM_DST 2      /* the level written (rgba16f storage) */
#define GN_BIND_BLOOM_EXPOSURE 3 /* gn_gpu_exposure: the threshold is in exposed units */
#define GN_BIND_BLOOM_COUNT 4
/* image-based light: the split sum's DFG table (dfg.comp) */
#define GN_BIND_DFG_TABLE 0
#define GN_BIND_DFG_COUNT 1
/* image-based light: the environment's level 0 (ibl_sky.comp) ... */
#define GN_BIND_ENV_FRAME 0
#define GN_BIND_ENV_LEVEL0 1  /* level 0 written (rgba16f storage) */
#define GN_BIND_ENV_SKYVIEW 2 /* the atmosphere's sky-view table (clamped linear) */
#define GN_BIND_ENV_COUNT 3
/* volumetric fog's integration (volumetric_integrate.comp) */
#define GN_BIND_VOLINT_FRAME 0
#define GN_BIND_VOLINT_INJECT 1     /* this frame's injected froxels (read: texelFetch) */
#define GN_BIND_VOLINT_INTEGRATED 2 /* written (rgba16f storage) */
#define GN_BIND_VOLINT_COUNT 3
/* the atmosphere's tables (atmo_*.comp): one set for all four passes */
#define GN_BIND_ATMO_FRAME 0
#define GN_BIND_ATMO_T_OUT 1       /* transmittance written (rgba16f storage) */
#define GN_BIND_ATMO_MS_OUT 2      /* multiple scattering written */
#define GN_BIND_ATMO_SKYVIEW_OUT 3 /* sky view written */
#define GN_BIND_ATMO_AERIAL_OUT 4  /* the aerial froxels written */
#define GN_BIND_ATMO_T 5           /* transmittance read (clamped linear) */
#define GN_BIND_ATMO_MS 6          /* multiple scattering read (clamped linear) */
#define GN_BIND_ATMO_COUNT 7
/* ... then the prefiltered levels (ibl_prefilter.comp) and the harmonics (ibl_sh.comp) from it */
#define GN_BIND_PREFILTER_FRAME 0
#define GN_BIND_PREFILTER_SOURCE 1 /* level 0 read (clamped linear) */
#define GN_BIND_PREFILTER_ATLAS 2  /* levels 1..5 written (rgba16f storage) */
#define GN_BIND_PREFILTER_SH 3     /* 9 vec4: the spherical harmonics */
#define GN_BIND_PREFILTER_COUNT 4
/* depth of field (dof.comp): one set a step (down, blur x, blur y) */
#define GN_BIND_DOF_FRAME 0
#define GN_BIND_DOF_SRC 1 /* the HDR colour, then the half-size copies, clamped linear */
#define GN_BIND_DOF_DST 2 /* a half-size copy (rgba16f storage) */
#define GN_BIND_DOF_COUNT 3
/* ambient occlusion (ao_z.comp, ao.comp, ao_blur.comp): one set */
#define GN_BIND_AO_FRAME 0
#define GN_BIND_AO_DEPTH 1 /* the resolved depth */
#define GN_BIND_AO_Z 2     /* camera-space Z and its levels (floats) */
#define GN_BIND_AO_RAW 3   /* the estimate, then (after blurring along x and y) the result */
#define GN_BIND_AO_TMP 4   /* the estimate blurred along x */
#define GN_BIND_AO_COUNT 5
/* VSM MARK (vsm_mark.comp) */
#define GN_BIND_MARK_FRAME 0
#define GN_BIND_MARK_DEPTH 1
#define GN_BIND_MARK_REQUESTS 2
#define GN_BIND_MARK_COUNT 3
/* VSM ALLOC (vsm_alloc.comp) */
#define GN_BIND_ALLOC_FRAME 0
#define GN_BIND_ALLOC_REQUESTS 1
#define GN_BIND_ALLOC_STATE 2
#define GN_BIND_ALLOC_POOL 3
#define GN_BIND_ALLOC_RENDER 4
#define GN_BIND_ALLOC_TABLE 5
#define GN_BIND_ALLOC_VERSIONS 6
#define GN_BIND_ALLOC_STATS 7
#define GN_BIND_ALLOC_INPUTS 8 /* this frame's invalidation and dynamic spheres, in the ring */
#define GN_BIND_ALLOC_INDIRECT 9
#define GN_BIND_ALLOC_COUNT 10
/* VSM BIN (vsm_bin.comp) */
#define GN_BIND_BINV_FRAME 0
#define GN_BIND_BINV_RENDER 1
#define GN_BIND_BINV_CASTERS 2
#define GN_BIND_BINV_SLOTS 3
#define GN_BIND_BINV_COMMANDS 4
#define GN_BIND_BINV_PAIRS 5
#define GN_BIND_BINV_COUNTS 6
#define GN_BIND_BINV_STATS 7
#define GN_BIND_BINV_HZB 8 /* the pages' depth pyramids (vsm_hzb.glsl): the tiles', then the layers' */
#define GN_BIND_BINV_COUNT 9
/* the VSM pages' depth pyramids (vsm_hzb_atlas.comp: the tiles; vsm_hzb_staging.comp: the layers) */
#define GN_BIND_VSM_HZB_FRAME 0
#define GN_BIND_VSM_HZB_RENDER 1
#define GN_BIND_VSM_HZB_DEPTH 2 /* the atlas, or the staging array */
#define GN_BIND_VSM_HZB_TEXELS 3
#define GN_BIND_VSM_HZB_COUNT 4
/* VSM RESOLVE (vsm_resolve.comp): the page lookup's three bindings follow its own four */
#define GN_BIND_RESOLVE_FRAME 0
#define GN_BIND_RESOLVE_DEPTH 1
#define GN_BIND_RESOLVE_HISTORY 2
#define GN_BIND_RESOLVE_MASK 3
#define GN_BIND_RESOLVE_TABLE 4
#define GN_BIND_RESOLVE_VERSIONS 5
#define GN_BIND_RESOLVE_ATLAS 6
#define GN_BIND_RESOLVE_COUNT 7
/* the vsm-atlas debug view (vsm_atlas_view.comp) */
#define GN_BIND_ATLAS_VIEW_ATLAS 0
#define GN_BIND_ATLAS_VIEW_OUTPUT 1
#define GN_BIND_ATLAS_VIEW_FRAME 2
#define GN_BIND_ATLAS_VIEW_COUNT 3
/* the linear-depth debug view (depth_view.comp) */
#define GN_BIND_DEPTH_VIEW_DEPTH 0
#define GN_BIND_DEPTH_VIEW_OUTPUT 1
#define GN_BIND_DEPTH_VIEW_FRAME 2
#define GN_BIND_DEPTH_VIEW_COUNT 3
/* GPU culling of every view (cull_test.comp, cull_scan.comp, cull_write.comp) */
#define GN_BIND_CULL_INSTANCES 0 /* gn_gpu_instance[]: the bounding spheres */
#define GN_BIND_CULL_ORDER 1     /* the scene's instances in draw-key order (one slot each) */
#define GN_BIND_CULL_GROUPS 2    /* gn_gpu_cull_group[]: the scene's draw groups over those slots */
#define GN_BIND_CULL_LOCAL 3     /* per view and slot: bit 31 visible, bits 0..30 its rank in its block */
#define GN_BIND_CULL_BLOCKS 4    /* per view and block of 256 slots: visible count, then exclusive prefix */
#define GN_BIND_CULL_COUNTS 5    /* the tags' counts (GN_CULL_TAGS uvec4), then each view's visible total */
#define GN_BIND_CULL_RING 6      /* the staging ring: a BSP world's keep mask (read only) */
#define GN_BIND_CULL_VISIBLE 7   /* out: each view's visible instance ids, in draw order */
#define GN_BIND_CULL_COMMANDS 8  /* out: each view's VkDrawIndexedIndirectCommand a group (5 words) */
#define GN_BIND_CULL_VIEWS 9     /* the staging ring again: the frame's gn_gpu_cull_view[] */
#define GN_BIND_CULL_HZB 10      /* the HZB's texels, every level (src/decide/hzb.h's layout) */
#define GN_BIND_CULL_HISTORY 11  /* two halves of a word a slot: drawn last frame (read), this one (written) */
#define GN_BIND_CULL_SLOT_CLUSTERS 12 /* a word a slot: its cluster (gn_gpu_cluster), or GN_CULL_WHOLE */
#define GN_BIND_CULL_CLUSTERS 13      /* gn_gpu_cluster[]: the large meshes' clusters (src/decide/meshlets.h) */
#define GN_BIND_CULL_COUNT 14
/* the HZB's build (hzb_depth.comp, hzb_depth_ms.comp, hzb_down.comp) */
#define GN_BIND_HZB_DEPTH 0  /* the depth prepass's depth (every sample) */
#define GN_BIND_HZB_TEXELS 1 /* out: the HZB */
#define GN_BIND_HZB_COUNT 2
/* skinning (skin.comp; src/passes/skin.c) */
#define GN_BIND_SKIN_VERTICES 0   /* the scene's vertices: bind poses read, rigs' own written */
#define GN_BIND_SKIN_INFLUENCES 1 /* gn_gpu_skin_influence[]: every skinned part's, model by model */
#define GN_BIND_SKIN_MORPHS 2     /* gn_gpu_skin_delta[]: every morph set's, target by target */
#define GN_BIND_SKIN_PALETTES 3   /* vec4[]: this frame's palettes (3 rows or 2 dual-quaternion parts a joint) */
#define GN_BIND_SKIN_JOBS 4       /* gn_gpu_skin_job[]: this frame's, one a rig's written part */
#define GN_BIND_SKIN_COUNT 5
/* weighted blended OIT's composite (oit_composite.glsl; src/passes/oit.c) */
#define GN_BIND_OIT_ACCUM 0  /* sum(c a w), sum(a w) at every sample */
#define GN_BIND_OIT_REVEAL 1 /* prod(1 - a) at every sample */
#define GN_BIND_OIT_COUNT 2
/* presenting (present.comp) */
#define GN_BIND_PRESENT_OUTPUT 0
#define GN_BIND_PRESENT_OVERLAY 1
#define GN_BIND_PRESENT_COMPOSED 2
#define GN_BIND_PRESENT_COUNT 3

#endif

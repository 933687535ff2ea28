#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* The frame, top to bottom: decide on the CPU, upload, plan every feature, then the table of
 * passes in order, recorded by one loop. */
#include "decide/frustum.h"
#include "passes/passes.h"

#include <stdio.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* The frame's inputs (every default resolved: decide/frame_inputs.c) into the frame constants;
 * the camera's frustum for visibility. */
static void decide_frame(gn_renderer *r, const gn_scene *s, const gn_frame_desc *f, gn_gpu_frame *g,
                         gn_frustum *frustum)
{
    gn_frame_inputs *in = &r->in;
    const float scene_camera[6] = {s->default_camera[0], s->default_camera[1], s->default_camera[2],
                                   s->default_camera[3], s->default_camera[4], s->default_fov_y};
    gn_frame_inputs_resolve(f, scene_camera, r->width, r->height, r->atmosphere, in);
    memcpy(g->view, in->view, sizeof g->view);
    memcpy(g->camera_forward, in->forward, sizeof(float) * 3);
    g->camera_forward[3] = 0.0f;
    memcpy(g->view_proj, in->view_proj, sizeof g->view_proj);
    memcpy(g->inv_view_proj, in->inv_view_proj, sizeof g->inv_view_proj);
    gn_frustum_from_view_proj(g->view_proj, frustum);
    memcpy(g->camera_pos, in->position, sizeof(float) * 3);
    g->camera_pos[3] = in->near_plane;
    /* the shaded light is the key light: the sun, or the moon when it is the brighter */
    const gn_sun *sun = &in->key;
    const gn_sky *sky = &in->sky;
    for (int i = 0; i < 3; i++) {
        g->sun_dir[i] = sun->direction[i];
        g->sun_color[i] = sun->color[i] * sun->illuminance;
        g->sky_zenith[i] = sky->zenith[i];
        g->sky_horizon[i] = sky->horizon[i];
        g->sky_ground[i] = sky->ground[i];
        g->ambient_sky[i] = sky->ambient_sky[i];
        g->ambient_ground[i] = sky->ambient_ground[i];
    }
    const gn_atmo_params *p = &r->atmosphere->p;
    for (int c = 0; c < 3; c++) {
        g->atmo_rayleigh[c] = p->rayleigh[c];
        g->atmo_ozone[c] = p->ozone[c];
        g->atmo_albedo[c] = p->ground_albedo[c];
    }
    g->atmo_rayleigh[3] = p->rayleigh_height_km;
    g->atmo_mie[0] = p->mie_scattering, g->atmo_mie[1] = p->mie_absorption;
    g->atmo_mie[2] = p->mie_height_km, g->atmo_mie[3] = p->mie_g;
    g->atmo_ozone[3] = p->ozone_center_km;
    g->atmo_body[0] = p->bottom_km, g->atmo_body[1] = p->top_km, g->atmo_body[2] = p->ozone_width_km;
    g->atmo_body[3] = in->camera_r_km;
    g->atmo_albedo[3] = GN_NIGHT_SKY_NITS;
    const float radius_deg[2] = {GN_SUN_RADIUS_DEG, GN_MOON_RADIUS_DEG};
    for (int k = 0; k < 2; k++) {
        memcpy(g->sky_light[k], in->lights[k].dir, sizeof(float) * 3);
        g->sky_light[k][3] = in->lights[k].illuminance;
        /* a probe's faces leave the discs out (cos > 1: nothing is inside): the key light's
         * highlight on a surface is the BRDF's, and the sun's disc would overflow rgba16f */
        g->sky_light_disc[k][0] = r->capture ? 2.0f : cosf(radius_deg[k] * 0.017453293f);
        g->sky_light_disc[k][1] = k ? in->moon.phase : 1.0f;
        g->fog[k][0] = in->fog[k].density;
        g->fog[k][1] = in->fog[k].base;
        g->fog[k][2] = in->fog[k].falloff;
    }
    g->fog_params[0] = in->fog_albedo;
    g->fog_params[1] = in->fog_anisotropy;
    g->fog_params[2] = in->latitude * 0.017453293f; /* the stars' pole */
    g->atmo_aerial[0] = in->aerial ? 1.0f : 0.0f;
    g->atmo_aerial[1] = GN_ATMO_AERIAL_KM;
    g->atmo_aerial[2] = in->stars ? 1.0f : 0.0f;
    /* the stars turn about the celestial pole once a sidereal day; at solar time h the sky has
     * turned 15 degrees an hour plus ~1 degree a day of the year */
    g->atmo_aerial[3] =
        (float)fmod((in->hours / 24.0 + in->day_of_year / 365.2422) * 6.283185307, 6.283185307);
    g->sun_dir[3] = sun->elevation_deg;
    g->night[0] = in->night_level;
    g->mode[0] = (uint32_t)in->debug_view;
    g->mode[1] = (uint32_t)in->tonemap - 1;
    g->mode[2] = r->width;
    g->mode[3] = r->height;
}

/* The frame's passes, in order. Each entry: its name (a label and a timing), the feature whose
 * state it records with, how many times it runs this frame (NULL: once; 0: not this frame), the
 * most it can run (NULL: 1; for the timestamp queries), what it reads and writes (the barriers
 * and layouts follow from that), and its record function. */
static const gn_pass PASSES[] = {
    /* 2a. the rigs' posed vertices (skinned, morphed) into their own, before any pass reads them */
    {"skin", GN_FEATURE_SKIN, gn_skin_runs, NULL, gn_skin_uses, gn_skin_record},
    /* 2b. the views' draw lists culled on the GPU: TEST, SCAN, WRITE (not with cpu_culling) */
    {"cull", GN_FEATURE_CULL, gn_cull_runs, NULL, gn_cull_uses, gn_cull_record},
    /* 3. depth prepass (reversed-Z, MSAA) and its sample-0 resolve; with occlusion culling in
     *    two phases: what was drawn last frame, the HZB from its depth, the camera's lists
     *    tested against it, and what it does not hide */
    {"depth prepass", GN_FEATURE_DEPTH, NULL, NULL, gn_depth_prepass_uses, gn_depth_prepass_record},
    {"hzb", GN_FEATURE_CULL, gn_cull_occlusion_runs, NULL, gn_hzb_uses, gn_hzb_record},
    {"cull occlusion", GN_FEATURE_CULL, gn_cull_occlusion_runs, NULL, gn_cull_occlusion_uses,
     gn_cull_occlusion_record},
    {"depth prepass 2", GN_FEATURE_DEPTH, gn_depth_prepass2_runs, NULL, gn_depth_prepass2_uses,
     gn_depth_prepass2_record},
    /* 4. sun shadows: the cascades due this frame, a pass each ... */
    {"csm", GN_FEATURE_CSM, gn_csm_runs, gn_csm_max_runs, gn_csm_uses, gn_csm_record, gn_csm_name},
    /*    ... or the virtual shadow map: MARK which pages this frame's pixels need (from the
     *    prepass's depth), ALLOC and BIN on the GPU in the same frame, the chosen pages' casters
     *    into staging layers and those into the atlas, then RESOLVE: the sun's visibility per
     *    pixel, accumulated over frames, for the forward pass */
    {"vsm mark", GN_FEATURE_VSM, gn_vsm_runs, NULL, gn_vsm_mark_uses, gn_vsm_mark_record},
    {"vsm alloc", GN_FEATURE_VSM, gn_vsm_runs, NULL, gn_vsm_alloc_uses, gn_vsm_alloc_record},
    /*    (with occlusion culling: the pyramids of the tiles BIN's predictor reads, then RENDER
     *    in two phases around the first phase's pyramids and the test of the waiting pairs) */
    {"vsm hzb prior", GN_FEATURE_VSM, gn_vsm_occlusion_runs, NULL, gn_vsm_hzb_prior_uses,
     gn_vsm_hzb_prior_record},
    {"vsm bin", GN_FEATURE_VSM, gn_vsm_runs, NULL, gn_vsm_bin_uses, gn_vsm_bin_record},
    {"vsm pages", GN_FEATURE_VSM, gn_vsm_runs, NULL, gn_vsm_pages_uses, gn_vsm_pages_record},
    {"vsm hzb", GN_FEATURE_VSM, gn_vsm_occlusion_runs, NULL, gn_vsm_hzb_uses, gn_vsm_hzb_record},
    {"vsm occlusion", GN_FEATURE_VSM, gn_vsm_occlusion_runs, NULL, gn_vsm_occlusion_uses,
     gn_vsm_occlusion_record},
    {"vsm pages 2", GN_FEATURE_VSM, gn_vsm_pages2_runs, NULL, gn_vsm_pages2_uses, gn_vsm_pages2_record},
    {"vsm copy", GN_FEATURE_VSM, gn_vsm_runs, NULL, gn_vsm_copy_uses, gn_vsm_copy_record},
    {"vsm resolve", GN_FEATURE_VSM, gn_vsm_resolve_runs, NULL, gn_vsm_resolve_uses, gn_vsm_resolve_record},
    /* 5. local lights: the shadowed ones' layers, then each froxel's list (not on the naive
     *    A/B path, which reads none) */
    {"light shadows", GN_FEATURE_LIGHTS, gn_light_shadows_runs, NULL, gn_light_shadows_uses,
     gn_light_shadows_record},
    {"light binning", GN_FEATURE_LIGHTS, gn_clusters_runs, NULL, gn_clusters_uses, gn_clusters_record},
    /*    ambient occlusion from the prepass's depth: camera-space Z and its levels, the SAO
     *    estimate, the bilateral blur; the forward pass reads it */
    {"ao z", GN_FEATURE_AO, gn_ao_runs, NULL, gn_ao_z_uses, gn_ao_z_record},
    {"ao", GN_FEATURE_AO, gn_ao_runs, NULL, gn_ao_uses, gn_ao_record},
    {"ao blur", GN_FEATURE_AO, gn_ao_blur_runs, NULL, gn_ao_blur_uses, gn_ao_blur_record},
    /*    the atmosphere: the medium's tables once, then the sky view and the aerial volume */
    {"atmosphere luts", GN_FEATURE_ATMOSPHERE, gn_atmosphere_luts_runs, NULL, gn_atmosphere_luts_uses,
     gn_atmosphere_luts_record},
    {"atmosphere", GN_FEATURE_ATMOSPHERE, gn_atmosphere_runs, NULL, gn_atmosphere_uses, gn_atmosphere_record},
    /*    image-based light: the DFG table, once */
    {"ibl dfg", GN_FEATURE_IBL, gn_ibl_dfg_runs, NULL, gn_ibl_dfg_uses, gn_ibl_dfg_record},
    /*    the sky's environment: its map, prefiltered levels and harmonics, when the sky changed */
    {"ibl env", GN_FEATURE_IBL, gn_ibl_env_runs, NULL, gn_ibl_env_uses, gn_ibl_env_record},
    /*    volumetric fog (with a fog): the froxels' light and extinction, then integrated from the eye */
    {"volumetric inject", GN_FEATURE_VOLUMETRIC, gn_volumetric_runs, NULL, gn_volumetric_inject_uses,
     gn_volumetric_inject_record},
    {"volumetric integrate", GN_FEATURE_VOLUMETRIC, gn_volumetric_runs, NULL, gn_volumetric_integrate_uses,
     gn_volumetric_integrate_record},
    /* 6. opaque forward pass (HDR, depth EQUAL, sun shadow, lights, AO), sky, resolve */
    {"forward", GN_FEATURE_FORWARD, NULL, NULL, gn_forward_uses, gn_forward_record},
    /*    screen-space decals over the opaque surfaces, from the resolved depth (before the copy:
     *    what later passes read of the opaque scene has its decals) */
    {"decals", GN_FEATURE_DECALS, gn_decals_runs, NULL, gn_decals_uses, gn_decals_record},
    /*    GPU particles: stepped, collided with this frame's prepass depth, spawned, and the
     *    blended ones sorted back to front (drawn after the blended surfaces, below) */
    {"particles simulate", GN_FEATURE_PARTICLES, gn_particles_runs, NULL, gn_particles_simulate_uses,
     gn_particles_simulate_record},
    {"particles sort", GN_FEATURE_PARTICLES, gn_particles_runs, NULL, gn_particles_sort_uses,
     gn_particles_sort_record},
    /*    with blended surfaces: the opaque scene's colour and depth copied, then they draw over it:
     *    with weighted blended OIT (--transparency oit) in any order into its two targets, then
     *    composited; sorted (the default, and for OIT the dual-source Quake 3 shaders), back to front */
    {"scene copy", GN_FEATURE_FORWARD, gn_scene_copy_runs, NULL, gn_scene_copy_uses, gn_scene_copy_record},
    {"oit accumulate", GN_FEATURE_OIT, gn_oit_runs, NULL, gn_oit_accumulate_uses, gn_oit_accumulate_record},
    {"oit composite", GN_FEATURE_OIT, gn_oit_runs, NULL, gn_oit_composite_uses, gn_oit_composite_record},
    {"forward blended", GN_FEATURE_FORWARD, gn_forward_blended_runs, NULL, gn_forward_blended_uses,
     gn_forward_blended_record},
    /*    the particles over everything opaque and blended, into the resolved colour, testing the
     *    resolved depth themselves and fading softly in front of it */
    {"particles", GN_FEATURE_PARTICLES, gn_particles_runs, NULL, gn_particles_draw_uses,
     gn_particles_draw_record},
    /* 7. eye adaptation: the luminance histogram, then the exposure metered and adapted */
    {"exposure histogram", GN_FEATURE_EXPOSURE, gn_exposure_runs, NULL, gn_exposure_histogram_uses,
     gn_exposure_histogram_record},
    {"exposure adapt", GN_FEATURE_EXPOSURE, gn_exposure_runs, NULL, gn_exposure_adapt_uses,
     gn_exposure_adapt_record},
    /*    bloom: the HDR colour down a chain of half-size levels and back up */
    {"bloom down %u", GN_FEATURE_BLOOM, gn_bloom_runs, gn_bloom_max_runs, gn_bloom_down_uses,
     gn_bloom_down_record},
    {"bloom up", GN_FEATURE_BLOOM, gn_bloom_up_runs, gn_bloom_max_runs, gn_bloom_up_uses, gn_bloom_up_record,
     gn_bloom_up_name},
    /*    depth of field: the HDR colour into half size, blurred */
    {"dof", GN_FEATURE_DOF, gn_dof_runs, NULL, gn_dof_uses, gn_dof_record},
    /*    tone map into the 8-bit output, bloom and depth of field blended in */
    {"tonemap", GN_FEATURE_TONEMAP, NULL, NULL, gn_tonemap_uses, gn_tonemap_record},
    /*    debug views drawn over the output (--view vsm-atlas, --view distance) */
    {"vsm atlas view", GN_FEATURE_VSM, gn_vsm_atlas_view_runs, NULL, gn_vsm_atlas_view_uses,
     gn_vsm_atlas_view_record},
    {"distance view", GN_FEATURE_DEPTH_VIEW, gn_depth_view_runs, NULL, gn_depth_view_uses,
     gn_depth_view_record},
    {"occlusion view", GN_FEATURE_OCCLUSION_VIEW, gn_occlusion_view_runs, NULL, gn_occlusion_view_uses,
     gn_occlusion_view_record},
    /* 8. into the window, when there is one: the overlay blended over the output, then the blit */
    {"overlay", GN_FEATURE_PRESENT, gn_overlay_runs, NULL, gn_overlay_uses, gn_overlay_record},
    {"present", GN_FEATURE_PRESENT, gn_present_runs, NULL, gn_present_uses, gn_present_record},
    /* tests only: empty passes that fill the table (gn_noop_set) */
    {"noop %u", GN_FEATURE_NOOP, gn_noop_runs, gn_noop_max_runs, gn_noop_uses, gn_noop_record},
};
#define PASS_COUNT (sizeof PASSES / sizeof PASSES[0])

uint32_t gn_frame_max_passes(const gn_renderer *r)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < PASS_COUNT; i++) {
        const gn_pass *p = &PASSES[i];
        n += p->max_runs ? p->max_runs(r, gn_feature_state(r, p->feature)) : 1;
    }
    return n;
}

/* The generic loop: gating, debug labels, barriers and timestamps for every pass of the table.
 * Fails only when the frame runs out of timestamp queries (a pass's runs exceeding its
 * max_runs): the passes recorded so far stay, the rest are left out, and the frame says so. */
static gn_result record_passes(gn_renderer *r, gn_error *err)
{
    gn_vk *vk = &r->vk;
    for (uint32_t i = 0; i < PASS_COUNT; i++) {
        const gn_pass *p = &PASSES[i];
        void *self = gn_feature_state(r, p->feature);
        uint32_t runs = p->runs ? p->runs(r, self) : 1;
        for (uint32_t k = 0; k < runs; k++) {
            gn_vk_use uses[GN_PASS_MAX_USES];
            uint32_t n = p->uses(r, self, k, uses);
            char name[32];
            if (p->label)
                p->label(r, k, name, sizeof name);
            else
                snprintf(name, sizeof name, p->name, k);
            uint32_t pass;
            gn_result res = gn_vk_pass_begin(vk, name, uses, n, &pass, err);
            if (res) return res;
            gn_pass_work w = p->record(r, self, k);
            gn_vk_pass_end(vk, pass, w.draws, w.triangles);
        }
    }
    return GN_OK;
}

gn_frame_stats *gn_frame_record(gn_renderer *r) { return &r->record[r->vk.cur - r->vk.frames]; }

gn_result gn_frame_run(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err)
{
    gn_result res = gn_vk_frame_begin(&r->vk, err); /* waits for this slot's previous frame */
    if (res) return res;
    double t0 = now_ms(); /* CPU time counts from here: the wait for the GPU is not CPU work */
    gn_scene_animate(s, f->seconds);
    double animated = now_ms();
    gn_frame_stats *rec = gn_frame_record(r);
    memset(rec, 0, sizeof *rec);
    rec->animation_ms = animated - t0; /* the rigs' poses (and the orbits', a few instances) */
    rec->rigs = s->rig_count;
    rec->probes_ms = r->probes_ms; /* gn_probes_sync's, before this frame began */
    rec->probes_rendered = r->probes_rendered;

    /* 1. decide (CPU): camera, sun, sky; 2. upload the scene when new or changed and the
     *    moved dynamic instances; then visibility: the camera's draw list into the ring; then
     *    every feature's plan: its frame constants, its views' casters, its uploads */
    gn_gpu_frame *frame;
    gn_frustum frustum;
    res = gn_vk_ring_alloc(&r->vk, sizeof *frame, gn_vk_storage_align(&r->vk), &r->plan.frame_offset,
                           (void **)&frame, err);
    if (!res) {
        memset(frame, 0, sizeof *frame);
        decide_frame(r, s, f, frame, &frustum);
    }
    if (!res) res = gn_gpu_scene_sync(r, s, err);
    r->plan.list_submitted = false; /* the camera's list changes now; true again once submitted */
    if (!res) res = gn_plan_camera(r, s, &frustum, r->in.no_pvs, err);
    for (uint32_t i = 0; i < GN_FEATURE_COUNT && !res; i++)
        if (gn_features[i]->plan) res = gn_features[i]->plan(r, r->state[i], s, &r->in, frame, err);
    /* 3.-8. the passes */
    if (!res) res = record_passes(r, err);
    rec->instances_total = s->instance_count;
    if (!r->plan.camera_gpu) { /* else the GPU's counts, when the frame is harvested */
        rec->instances_visible = r->plan.list.instance_count;
        rec->instances_drawn = r->plan.list.instance_count;
        rec->draw_groups = r->plan.list.group_count;
    }
    rec->cpu_ms = now_ms() - t0;
    if (res) {
        for (uint32_t i = 0; i < GN_FEATURE_COUNT; i++)
            if (gn_features[i]->abandon) gn_features[i]->abandon(r, r->state[i]);
        gn_vk_frame_submit(&r->vk, NULL); /* close the slot; what was recorded runs, nothing more */
        return res;
    }
    res = gn_vk_frame_submit(&r->vk, err);
    r->rendered = !res;
    r->plan.list_submitted = !res;
    for (uint32_t i = 0; i < GN_FEATURE_COUNT && !res; i++)
        if (gn_features[i]->submitted) res = gn_features[i]->submitted(r, r->state[i], err);
    return res;
}

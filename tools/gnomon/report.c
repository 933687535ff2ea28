/* The render command's frame report; see report.h. */
#include "report.h"

#include "json.h"

char *gn_report_count(uint64_t n, char *buf, size_t size)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    size_t o = 0;
    for (int i = 0; i < len && o + 1 < size; i++) {
        if (i > 0 && (len - i) % 3 == 0 && o + 2 < size) buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

void gn_frame_report_print(FILE *f, const gn_frame_stats *s)
{
    char a[32], b[32];
    fprintf(f, "%-22s %10s %8s %14s\n", "pass", "GPU ms", "draws", "triangles");
    uint32_t n = s->pass_count < GN_STATS_PASSES ? s->pass_count : GN_STATS_PASSES;
    for (uint32_t i = 0; i < n; i++) {
        const gn_pass_stats *p = &s->passes[i];
        fprintf(f, "%-22.31s %10.3f %8u %14s\n", p->name, p->gpu_ms, p->draws,
                gn_report_count(p->triangles, a, sizeof a));
    }
    fprintf(f, "%-22s %10.3f %8u %14s\n", "total GPU", s->gpu_ms, s->draws,
            gn_report_count(s->triangles, a, sizeof a));
    fprintf(f, "%-22s %10.3f\n", "CPU ms", s->cpu_ms);
    if (s->materials_evaluated)
        fprintf(f, "%-22s %u Quake 3 shaders evaluated in %.4f ms CPU\n", "materials", s->materials_evaluated,
                s->materials_ms);
    if (s->rigs)
        fprintf(f, "%-22s %u rigs posed in %.4f ms CPU, %llu vertices skinned\n", "animation", s->rigs,
                s->animation_ms, (unsigned long long)s->skinned_vertices);
    if (s->probes_rendered)
        fprintf(f, "%-22s %u rendered before the frame in %.1f ms\n", "reflection probes", s->probes_rendered,
                s->probes_ms);
    if (s->decals_drawn || s->decals_culled)
        fprintf(f, "%-22s %u drawn, %u culled by the frustum\n", "decals", s->decals_drawn, s->decals_culled);
    if (s->particles_live || s->particles_spawned)
        fprintf(f, "%-22s %u live, %u spawned this frame\n", "particles", s->particles_live,
                s->particles_spawned);
    fprintf(f, "%-22s %s / %s\n", "instances visible", gn_report_count(s->instances_visible, a, sizeof a),
            gn_report_count(s->instances_total, b, sizeof b));
    if (s->occlusion)
        fprintf(f, "%-22s %s (phase 1 %u + phase 2 %u; %u hidden by occlusion culling)\n", "instances drawn",
                gn_report_count(s->instances_drawn, a, sizeof a), s->instances_phase1, s->instances_phase2,
                s->instances_visible - s->instances_drawn);
    if (s->clusters_tested)
        fprintf(f, "%-22s %u of %u (culled: %u frustum, %u back-facing, %u occlusion)\n", "clusters drawn",
                s->clusters_drawn, s->clusters_tested, s->clusters_culled_frustum, s->clusters_culled_cone,
                s->clusters_tested - s->clusters_culled_frustum - s->clusters_culled_cone -
                    s->clusters_drawn);
    fprintf(f, "%-22s %u\n", "draw groups", s->draw_groups);
    if (s->blended_drawn) fprintf(f, "%-22s %u, back to front\n", "blended instances", s->blended_drawn);
    fprintf(f, "%-22s EV100 %.2f shown, %.2f metered\n", "exposure", (double)s->exposure_ev100,
            (double)s->exposure_target_ev100);
    if (s->shadow_updates)
        fprintf(f, "%-22s %u (%u casters)\n", "shadow cascades", s->shadow_updates, s->shadow_casters);
    if (s->world_faces)
        fprintf(f, "%-22s leaves %u -> %u (PVS) -> %u (frustum); faces %u -> %u -> %u; %.3f ms CPU\n",
                "world visibility", s->world_leaves, s->world_leaves_pvs, s->world_leaves_frustum,
                s->world_faces, s->world_faces_pvs, s->world_faces_frustum, s->visibility_ms);
    if (s->vsm_pool_pages) {
        /* a physical page is 128^2 D32 texels: 64 KiB */
        fprintf(
            f,
            "%-22s requested %u, resident %u, rendered %u static (%u new or dirty) + %u dynamic, evicted %u, "
            "waiting %u, overflow %u; pool %u of %u pages (%.0f of %.0f MiB); sun lag %.4f deg\n",
            "vsm pages", s->vsm_pages_requested, s->vsm_pages_resident, s->vsm_pages_rendered_static,
            s->vsm_pages_rendered_fresh, s->vsm_pages_rendered_dynamic, s->vsm_pages_evicted,
            s->vsm_pages_waiting, s->vsm_overflow, s->vsm_pool_used, s->vsm_pool_pages,
            s->vsm_pool_used / 16.0, s->vsm_pool_pages / 16.0, (double)s->vsm_sun_lag_deg);
        fprintf(f, "%-22s %u drawn in phase 1", "vsm caster-page pairs", s->vsm_pairs_phase1);
        if (s->vsm_pairs_waiting)
            fprintf(f, "; %u hidden by the pages' older depth waited, %u of them drawn in phase 2",
                    s->vsm_pairs_waiting, s->vsm_pairs_phase2);
        fprintf(f, "\n");
        fprintf(f, "%-22s", "vsm requested a level");
        for (uint32_t l = 0; l < 16; l++)
            if (s->vsm_requested_level[l] || l < 8) fprintf(f, " %u", s->vsm_requested_level[l]);
        fprintf(f, "\n");
    }
    if (s->lights)
        fprintf(f, "%-22s %u (%u light-froxel pairs dropped)\n", "lights", s->lights, s->light_overflow);
    if (s->lights)
        fprintf(f, "%-22s %u (%u more cast shadows but were left unshadowed by the budget)\n",
                "shadowed lights", s->shadowed_lights, s->unshadowed_lights);
}

bool gn_frame_report_json(FILE *f, const gn_frame_report_meta *m, const gn_frame_stats *s)
{
    gn_json j;
    gn_json_begin(&j, f);
    gn_json_object_begin(&j, NULL);
    gn_json_run_header(&j, m->device, m->scene, m->width, m->height, m->msaa);
    gn_json_string(&j, "view", m->view);
    gn_json_number(&j, "scene_build_ms", m->scene_build_ms);
    gn_json_uint(&j, "frame_index", s->frame_index);
    /* An object keyed by pass name, like bench's "passes", so scripts read both alike. */
    gn_json_object_begin(&j, "passes");
    uint32_t n = s->pass_count < GN_STATS_PASSES ? s->pass_count : GN_STATS_PASSES;
    for (uint32_t i = 0; i < n; i++) {
        char name[sizeof s->passes[i].name + 1];
        snprintf(name, sizeof name, "%s", s->passes[i].name); /* the library's name may lack a NUL */
        gn_json_object_begin(&j, name);
        gn_json_number(&j, "gpu_ms", s->passes[i].gpu_ms);
        gn_json_uint(&j, "draws", s->passes[i].draws);
        gn_json_uint(&j, "triangles", s->passes[i].triangles);
        gn_json_object_end(&j);
    }
    gn_json_object_end(&j);
    gn_json_number(&j, "gpu_ms", s->gpu_ms);
    gn_json_number(&j, "cpu_ms", s->cpu_ms);
    gn_json_number(&j, "probes_ms", s->probes_ms);
    gn_json_number(&j, "materials_ms", s->materials_ms);
    gn_json_number(&j, "animation_ms", s->animation_ms);
    gn_json_uint(&j, "rigs", s->rigs);
    gn_json_number(&j, "skinned_vertices", (double)s->skinned_vertices);
    gn_json_uint(&j, "materials_evaluated", s->materials_evaluated);
    gn_json_uint(&j, "probes_rendered", s->probes_rendered);
    gn_json_uint(&j, "decals_drawn", s->decals_drawn);
    gn_json_uint(&j, "decals_culled", s->decals_culled);
    gn_json_uint(&j, "particles_live", s->particles_live);
    gn_json_uint(&j, "particles_spawned", s->particles_spawned);
    gn_json_uint(&j, "draws", s->draws);
    gn_json_uint(&j, "triangles", s->triangles);
    gn_json_uint(&j, "instances_visible", s->instances_visible);
    gn_json_uint(&j, "instances_drawn", s->instances_drawn);
    gn_json_uint(&j, "blended_drawn", s->blended_drawn);
    gn_json_bool(&j, "occlusion", s->occlusion);
    gn_json_uint(&j, "instances_phase1", s->instances_phase1);
    gn_json_uint(&j, "instances_phase2", s->instances_phase2);
    /* tested: every instance; culled by the frustum (and a world's PVS), then by occlusion */
    gn_json_uint(&j, "instances_culled_frustum", s->instances_total - s->instances_visible);
    /* with clusters, instances_drawn counts draws of whole instances and of clusters */
    if (!s->clusters_tested)
        gn_json_uint(&j, "instances_culled_occlusion", s->instances_visible - s->instances_drawn);
    gn_json_uint(&j, "clusters_tested", s->clusters_tested);
    gn_json_uint(&j, "clusters_culled_frustum", s->clusters_culled_frustum);
    gn_json_uint(&j, "clusters_culled_cone", s->clusters_culled_cone);
    gn_json_uint(&j, "clusters_drawn", s->clusters_drawn);
    gn_json_uint(&j, "instances_total", s->instances_total);
    gn_json_uint(&j, "draw_groups", s->draw_groups);
    gn_json_uint(&j, "shadow_updates", s->shadow_updates);
    gn_json_uint(&j, "lights", s->lights);
    gn_json_uint(&j, "light_overflow", s->light_overflow);
    gn_json_uint(&j, "shadowed_lights", s->shadowed_lights);
    gn_json_uint(&j, "world_faces", s->world_faces);
    gn_json_uint(&j, "world_faces_pvs", s->world_faces_pvs);
    gn_json_uint(&j, "world_faces_frustum", s->world_faces_frustum);
    gn_json_number(&j, "visibility_ms", s->visibility_ms);
    gn_json_uint(&j, "unshadowed_lights", s->unshadowed_lights);
    gn_json_uint(&j, "vsm_pages_requested", s->vsm_pages_requested);
    gn_json_uint(&j, "vsm_pages_resident", s->vsm_pages_resident);
    gn_json_uint(&j, "vsm_pages_rendered_static", s->vsm_pages_rendered_static);
    gn_json_uint(&j, "vsm_pages_rendered_dynamic", s->vsm_pages_rendered_dynamic);
    gn_json_uint(&j, "vsm_pages_rendered_fresh", s->vsm_pages_rendered_fresh);
    gn_json_uint(&j, "vsm_pages_evicted", s->vsm_pages_evicted);
    gn_json_uint(&j, "vsm_overflow", s->vsm_overflow);
    gn_json_uint(&j, "vsm_pool_used", s->vsm_pool_used);
    gn_json_uint(&j, "vsm_pool_pages", s->vsm_pool_pages);
    gn_json_uint(&j, "vsm_pairs_phase1", s->vsm_pairs_phase1);
    gn_json_uint(&j, "vsm_pairs_waiting", s->vsm_pairs_waiting);
    gn_json_uint(&j, "vsm_pairs_phase2", s->vsm_pairs_phase2);
    gn_json_number(&j, "vsm_sun_lag_deg", s->vsm_sun_lag_deg);
    gn_json_number(&j, "exposure_ev100", s->exposure_ev100);
    gn_json_number(&j, "exposure_target_ev100", s->exposure_target_ev100);
    gn_json_object_end(&j);
    return gn_json_end(&j);
}

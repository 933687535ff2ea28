/* Sun shadows II: virtual shadow maps (docs/SHADOWS.md). The decisions are decide/vsm.c's;
 * here they meet the GPU. A frame: MARK (compute, after the depth prepass) sets a bit per page
 * some pixel needs in this frame slot's host-visible mask; two frames later, when the slot
 * comes round and its fence has been waited for, ALLOC reads that mask on the CPU, keeps or
 * allocates physical pages and picks at most page_budget pages to render, new ones first and
 * then those rendered under the oldest sun. Each chosen page is rendered (its casters culled by
 * bounding sphere against its light-space rectangle) into its tile of one D32 atlas, cleared
 * first; every other tile keeps its depth. Dynamic casters never enter those pages: the pages
 * they touch get tiles of a per-frame dynamic layer (after the pool's tiles) holding only them,
 * re-rendered when they move, inside the same budget. The forward pass reads the page table and
 * samples each page with the light version it was rendered with, and the dynamic tile over it
 * with this frame's light, taking the darker (shaders/vsm.glsl). */
#include "renderer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

/* Every default of gn_vsm_desc, resolved here and nowhere else. */
static gn_vsm_settings resolve(const gn_vsm_desc *d)
{
    return (gn_vsm_settings){
        .levels = d->levels ? d->levels : 8, /* level 7 spans 2 km: the town's far side from any view */
        .virtual_res = d->virtual_res ? d->virtual_res : 4096,
        .page_texels = 128,
        /* 16 m over 4096 texels: a 3.9 mm texel, about a 1080p pixel at 3.6 m with a 60 degree
         * field of view; each further level doubles both */
        .level0_size = d->level0_size > 0 ? d->level0_size : 16.0f,
        .pool_pages = d->pool_pages ? d->pool_pages : 2048, /* 128 MiB of D32 */
        .page_budget = d->page_budget ? d->page_budget : 64,
        .evict_frames = d->evict_frames ? d->evict_frames : 60,
        .pivot_grid = d->pivot_grid > 0 ? d->pivot_grid : 128.0f,
        .depth_range = 1000.0f,
    };
}

static uint32_t dynamic_pages(const gn_vsm_desc *d) { return d && d->dynamic_pages ? d->dynamic_pages : 256; }

gn_result gn_vsm_create(gn_renderer *r, const gn_vsm_desc *desc, gn_error *err)
{
    gn_vsm_gpu *v = &r->vsm;
    gn_vsm_desc zero = {0};
    gn_vsm_settings s = resolve(desc ? desc : &zero);
    if (s.levels > GN_VSM_MAX_LEVELS || s.virtual_res % 128 || s.virtual_res < 1024 || s.virtual_res > 16384)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "vsm: %u levels (1..%u) of %u texels (1024..16384, a multiple of 128)", s.levels,
                       GN_VSM_MAX_LEVELS, s.virtual_res);
    uint32_t dyn = dynamic_pages(desc);
    /* the atlas holds the pool's pages, then the dynamic layer's */
    uint32_t per_row = (uint32_t)ceil(sqrt((double)s.pool_pages + dyn));
    if (s.pool_pages < 4 || per_row * 128 > r->vk.props.limits.maxImageDimension2D)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "vsm: a pool of %u pages needs a %u^2 atlas (device: %u)",
                       s.pool_pages, per_row * 128, r->vk.props.limits.maxImageDimension2D);
    if (!gn_vsm_state_init(&v->state, &s))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "vsm: out of memory for the page tables");
    v->atlas_pages_per_row = per_row;
    v->bias_texels = 1.0f; /* receivers move 1 texel of their page along the normal (town: best agreement) */
    uint32_t n = s.virtual_res / 128, slots = s.levels * n * n;
    v->table_cpu = calloc(slots, sizeof *v->table_cpu);
    v->request_cpu = calloc(GN_VSM_MASK_WORDS(s.levels, n), sizeof *v->request_cpu);
    v->page_vp = malloc((size_t)(s.page_budget ? s.page_budget : 1) * 16 * sizeof *v->page_vp);
    v->page_draws = calloc(s.page_budget ? s.page_budget : 1, sizeof *v->page_draws);
    v->dyn_capacity = dyn;
    v->dyn_pages = malloc(dyn * sizeof *v->dyn_pages);
    v->dyn_prev = malloc(dyn * sizeof *v->dyn_prev);
    v->dyn_vp = malloc((size_t)dyn * 16 * sizeof *v->dyn_vp);
    v->dyn_draws = calloc(dyn, sizeof *v->dyn_draws);
    if (!v->table_cpu || !v->request_cpu || !v->page_vp || !v->page_draws || !v->dyn_pages || !v->dyn_prev ||
        !v->dyn_vp || !v->dyn_draws)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "vsm: out of memory");
    gn_vk_image_desc ad = {
        .width = per_row * 128,
        .height = per_row * 128,
        .samples = 1,
        .format = VK_FORMAT_D32_SFLOAT,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
        .name = "vsm page atlas",
    };
    gn_result res = gn_vk_image_create(&r->vk, &ad, &v->atlas, err);
    gn_vk_buffer_desc td = {.size = (VkDeviceSize)slots * sizeof(gn_gpu_vsm_page),
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            .name = "vsm page table"};
    if (!res) res = gn_vk_buffer_create(&r->vk, &td, &v->table, err);
    gn_vk_buffer_desc vd = {.size = (VkDeviceSize)GN_VSM_VERSIONS * 4 * 16,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            .name = "vsm light versions"};
    if (!res) res = gn_vk_buffer_create(&r->vk, &vd, &v->versions, err);
    for (uint32_t k = 0; !res && k < GN_FRAMES_IN_FLIGHT; k++) {
        gn_vk_buffer_desc rd = {.size = (VkDeviceSize)GN_VSM_MASK_WORDS(s.levels, n) * 4,
                                .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                .host_visible = true,
                                .name = "vsm page requests"};
        res = gn_vk_buffer_create(&r->vk, &rd, &v->requests[k], err);
    }
    if (!res) res = gn_vk_sampler_compare(&r->vk, false, true, true, "vsm compare", &v->atlas_sampler, err);
    const gn_vk_binding b[] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS}, /* gn_gpu_frame */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}, /* resolved depth */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},         /* this slot's request mask */
    };
    if (!res) res = gn_vk_set_layout(&r->vk, b, 3, "vsm mark set", &v->mark_layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(&r->vk, &v->mark_layout, 1, 0, "vsm mark", &v->mark_pipeline_layout, err);
    if (!res) res = gn_vk_descriptor_pool(&r->vk, GN_FRAMES_IN_FLIGHT, "vsm mark", &v->mark_pool, err);
    for (uint32_t k = 0; !res && k < GN_FRAMES_IN_FLIGHT; k++)
        res = gn_vk_alloc_set(&r->vk, v->mark_pool, v->mark_layout, "vsm mark", &v->mark_sets[k], err);
    if (!res)
        res = gn_vk_compute_pipeline(&r->vk, "vsm_mark.comp", v->mark_pipeline_layout, "vsm mark",
                                     &v->mark_pipeline, err);
    if (!res) gn_vsm_write_mark_sets(r);
    return res;
}

void gn_vsm_write_mark_sets(gn_renderer *r)
{
    gn_vsm_gpu *v = &r->vsm;
    for (uint32_t k = 0; k < GN_FRAMES_IN_FLIGHT; k++) {
        gn_vk_write w[3] = {
            {.binding = 0,
             .type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
             .buffer = r->vk.ring.buffer,
             .range = sizeof(gn_gpu_frame)},
            {.binding = 1,
             .type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
             .image = r->targets.depth,
             .layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
             .sampler = r->pipes.clamp},
            {.binding = 2, .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .buffer = v->requests[k].buffer},
        };
        gn_vk_write_set(&r->vk, v->mark_sets[k], w, 3);
    }
}

void gn_vsm_release(gn_renderer *r)
{
    gn_vsm_gpu *v = &r->vsm;
    gn_vk *vk = &r->vk;
    gn_vk_image_release(vk, &v->atlas);
    gn_vk_buffer_release(vk, &v->table);
    gn_vk_buffer_release(vk, &v->versions);
    for (uint32_t k = 0; k < GN_FRAMES_IN_FLIGHT; k++) gn_vk_buffer_release(vk, &v->requests[k]);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)v->mark_pipeline);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)v->mark_pipeline_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)v->mark_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)v->mark_pool);
    gn_vk_release(vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)v->atlas_sampler);
    gn_vsm_state_free(&v->state);
    free(v->table_cpu);
    free(v->request_cpu);
    free(v->page_vp);
    free(v->page_draws);
    free(v->dyn_pages);
    free(v->dyn_prev);
    free(v->dyn_vp);
    free(v->dyn_draws);
    free(v->dyn_spheres);
    free(v->dyn_light);
    free(v->caster_xy);
    free(v->caster_radius);
    free(v->caster_list);
    gn_vsm_bins_free(&v->bins);
    memset(v, 0, sizeof *v);
}

static uint32_t slot_index(const gn_renderer *r) { return (uint32_t)(r->vk.frame_number % GN_FRAMES_IN_FLIGHT); }

/* The page table as the shaders read it: rendered pages only (allocated ones waiting for the
 * budget read as missing, so a coarser level stands in). */
static void fill_table(gn_vsm_gpu *v)
{
    const gn_vsm_state *st = &v->state;
    uint32_t n = st->s.virtual_res / 128, slots = st->s.levels * n * n;
    for (uint32_t k = 0; k < slots; k++) {
        const gn_vsm_page *pg = &st->pages[k];
        gn_gpu_vsm_page *e = &v->table_cpu[k];
        if (pg->physical == GN_VSM_NONE || !pg->rendered) {
            e->entry[0] = GN_GPU_VSM_NONE, e->entry[1] = e->entry[2] = e->entry[3] = 0;
            continue;
        }
        e->entry[0] = pg->physical;
        e->entry[1] = pg->version % GN_VSM_VERSIONS;
        memcpy(&e->entry[2], &pg->i, 4);
        memcpy(&e->entry[3], &pg->j, 4);
    }
    for (uint32_t k = 0; k < st->render_count; k++) v->table_cpu[st->render[k]].entry[1] |= GN_GPU_VSM_RENDERED_NOW;
    /* the dynamic layer's tile (after the pool's), 1-based in bits 8..23 */
    for (uint32_t k = 0; k < v->dyn_count; k++) {
        v->table_cpu[v->dyn_pages[k]].entry[1] |= (k + 1) << 8;
        if (v->dyn_render) v->table_cpu[v->dyn_pages[k]].entry[1] |= GN_GPU_VSM_RENDERED_NOW;
    }
}

/* The dynamic layer for this frame: which pages dynamic casters touch, and whether their tiles
 * must be rendered again (an object moved, the light changed, or the set of pages did). */
static gn_result plan_dynamic(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_vsm_gpu *v = &r->vsm;
    const gn_vsm_state *st = &v->state;
    uint32_t nd = r->scene.dynamic_count;
    if (nd > v->dyn_sphere_cap) {
        /* this frame's spheres in the first half, the last rendered ones in the second */
        float(*grown)[4] = realloc(v->dyn_spheres, 2 * nd * sizeof *grown);
        if (grown) v->dyn_spheres = grown;
        float(*light)[3] = realloc(v->dyn_light, nd * sizeof *light);
        if (light) v->dyn_light = light;
        if (!grown || !light) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "vsm: out of memory");
        v->dyn_sphere_cap = nd;
        v->dyn_valid = false;
    }
    for (uint32_t k = 0; k < nd; k++) memcpy(v->dyn_spheres[k], s->instances[r->scene.dynamic_ids[k]].sphere, 16);
    /* moved: a sphere differs from when the tiles were rendered (transforms may be set again
     * to the same values every frame, so the scene's generation says too little) */
    bool moved = memcmp(v->dyn_spheres, v->dyn_spheres + v->dyn_sphere_cap, nd * sizeof *v->dyn_spheres) != 0;
    /* never more than the page budget, which the dynamic and static pages share */
    uint32_t cap = v->dyn_capacity < st->s.page_budget ? v->dyn_capacity : st->s.page_budget;
    v->dyn_needed = gn_vsm_dynamic_pages(st, &v->view, (const float(*)[4])v->dyn_spheres, nd, v->dyn_light,
                                         v->dyn_pages, cap);
    v->dyn_count = v->dyn_needed < cap ? v->dyn_needed : cap;
    bool same = v->dyn_valid && !moved && v->dyn_instances == nd &&
                v->dyn_version == st->versions.current && v->dyn_prev_count == v->dyn_count &&
                memcmp(v->dyn_prev, v->dyn_pages, v->dyn_count * sizeof *v->dyn_pages) == 0;
    v->dyn_render = !same && v->dyn_count > 0;
    v->stats.rendered_dynamic = v->dyn_render ? v->dyn_count : 0;
    v->stats.overflow += v->dyn_needed - v->dyn_count;
    if (!v->dyn_render) return GN_OK;
    uint32_t n = st->s.virtual_res / 128, per_level = n * n;
    for (uint32_t k = 0; k < v->dyn_count; k++) {
        uint32_t idx = v->dyn_pages[k], level = idx / per_level;
        const gn_vsm_page *pg = &st->pages[idx];
        gn_vsm_page_matrix(st, st->versions.current, level, pg->i, pg->j, &v->dyn_vp[(size_t)k * 16]);
        /* this page's dynamic casters: few, so every one is tested */
        float size = v->view.page_size[level], x0 = (float)pg->i * size, y0 = (float)pg->j * size;
        uint32_t m = 0;
        for (uint32_t q = 0; q < nd; q++) {
            uint32_t inst = r->scene.dynamic_ids[q];
            const gn_cull_item *it = &r->plan.items[inst];
            float lp[3], rad = it->sphere[3];
            gn_vsm_to_light(&v->view, it->sphere, lp);
            if (it->pipeline == GN_DRAW_BLEND || lp[0] + rad < x0 || lp[0] - rad > x0 + size || lp[1] + rad < y0 ||
                lp[1] - rad > y0 + size)
                continue;
            r->plan.subset[m++] = *it;
        }
        gn_draw_list_build(r->plan.subset, m, NULL, &r->plan.shadow_list);
        gn_result res = gn_plan_write(r, s, &r->plan.shadow_list, &v->dyn_draws[k], err);
        if (res) return res;
    }
    memcpy(v->dyn_prev, v->dyn_pages, v->dyn_count * sizeof *v->dyn_pages);
    v->dyn_prev_count = v->dyn_count;
    v->dyn_instances = nd;
    memcpy(v->dyn_spheres + v->dyn_sphere_cap, v->dyn_spheres, nd * sizeof *v->dyn_spheres);
    v->dyn_version = st->versions.current;
    v->dyn_valid = true;
    return GN_OK;
}

static gn_result upload_versions(gn_renderer *r, gn_error *err)
{
    gn_vsm_gpu *v = &r->vsm;
    const gn_vsm_versions *vv = &v->state.versions;
    if (v->versions_uploaded == vv->current + 1) return GN_OK;
    /* rows of the rotation, then the pivot: the shader subtracts first, as gn_vsm_to_light does */
    float rows[GN_VSM_VERSIONS][16];
    for (uint32_t k = 0; k < GN_VSM_VERSIONS; k++) {
        for (int row = 0; row < 3; row++) {
            memcpy(&rows[k][row * 4], &vv->rot[k][row * 3], 3 * sizeof(float));
            rows[k][row * 4 + 3] = 0.0f;
        }
        memcpy(&rows[k][12], vv->pivot[k], 3 * sizeof(float));
        rows[k][15] = 0.0f;
    }
    v->versions_uploaded = vv->current + 1;
    return gn_vk_upload_buffer(&r->vk, &v->versions, 0, rows, sizeof rows, err);
}

gn_result gn_plan_vsm(gn_renderer *r, const gn_scene *s, const gn_frame_desc *f, gn_gpu_frame *g, gn_error *err)
{
    gn_vsm_gpu *v = &r->vsm;
    gn_vsm_state *st = &v->state;
    uint32_t slot = slot_index(r);
    v->active = f->shadows == GN_SHADOWS_VSM && r->view.sun_elevation > -4.0f;
    memset(g->vsm, 0, sizeof g->vsm);
    /* the mask this slot's previous frame wrote (its fence was waited for in frame begin) */
    uint32_t n = st->s.virtual_res / 128, words = GN_VSM_MASK_WORDS(st->s.levels, n);
    if (v->request_valid[slot])
        memcpy(v->request_cpu, v->requests[slot].alloc.mapped, (size_t)words * 4);
    else
        memset(v->request_cpu, 0, (size_t)words * 4);
    v->request_valid[slot] = false;
    if (!v->active) return GN_OK;

    /* The scene changed under the cache: static instances added since (the API adds, never
     * moves or removes, static ones) invalidate only the pages their bounds touch; another
     * scene, or any other change, invalidates every page. */
    if (v->source != s || v->source_generation != s->generation) {
        bool added_only = v->source == s && s->instance_count > v->source_instances;
        uint32_t n_all = st->s.levels * n * n;
        for (uint32_t k = added_only ? v->source_instances : 0; added_only && k < s->instance_count; k++)
            gn_vsm_invalidate_sphere(st, s->instances[k].sphere);
        for (uint32_t k = 0; !added_only && k < n_all; k++) st->pages[k].dirty = st->pages[k].rendered;
        v->source = s;
        v->source_generation = s->generation;
        v->source_instances = s->instance_count;
    }
    float pixel_angle = 2.0f * tanf(0.5f * r->camera.fov_y) / (float)r->height;
    gn_vsm_view_compute(&st->s, r->view.sun_direction, r->view.camera_position, pixel_angle, &v->view);
    gn_vsm_alloc(st, &v->view, v->request_cpu, &v->stats);
    /* the dynamic layer first (over pages rendered before this frame); its pages count against
     * the same budget, so the static choice keeps what is left, in its priority order */
    gn_result dres = plan_dynamic(r, s, err);
    if (dres) return dres;
    if (v->dyn_render) {
        uint32_t left = st->s.page_budget > v->dyn_count ? st->s.page_budget - v->dyn_count : 0;
        if (st->render_count > left) {
            v->stats.waiting += st->render_count - left;
            for (uint32_t k = left; k < st->render_count; k++)
                v->stats.rendered_level[st->render[k] / (v->view.pages_per_side * v->view.pages_per_side)]--;
            st->render_count = left;
        }
    }
    v->stats.rendered_static = st->render_count;

    /* the pages' casters, culled in light space: every centre transformed once and binned
     * over the coarsest window (decide/vsm.c), so a page tests only its cell's casters */
    uint32_t count = s->instance_count;
    if (count > v->caster_capacity) {
        float *xy = realloc(v->caster_xy, (size_t)count * 2 * sizeof *xy);
        if (xy) v->caster_xy = xy;
        float *rad = realloc(v->caster_radius, (size_t)count * sizeof *rad);
        if (rad) v->caster_radius = rad;
        uint32_t *list = realloc(v->caster_list, (size_t)count * sizeof *list);
        if (list) v->caster_list = list;
        if (!xy || !rad || !list) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "vsm: out of memory binning casters");
        v->caster_capacity = count;
    }
    uint32_t per_level = n * n;
    if (!gn_vsm_bins_reserve(&v->bins, per_level, count ? count : 1))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "vsm: out of memory binning casters");
    gn_result res = GN_OK;
    if (st->render_count) {
        for (uint32_t k = 0; k < count; k++) {
            const gn_cull_item *it = &r->plan.items[k];
            float lp[3];
            gn_vsm_to_light(&v->view, it->sphere, lp);
            v->caster_xy[2 * k] = lp[0], v->caster_xy[2 * k + 1] = lp[1];
            /* blended surfaces cast none; dynamic ones go to the dynamic layer, never a cached page */
            bool none = it->pipeline == GN_DRAW_BLEND || (s->instances[k].flags & GN_INSTANCE_DYNAMIC);
            v->caster_radius[k] = none ? -1.0f : it->sphere[3];
        }
        gn_vsm_bins_build(&v->bins, &v->view, v->caster_xy, v->caster_radius, count);
    }
    for (uint32_t k = 0; !res && k < st->render_count; k++) {
        uint32_t index = st->render[k], level = index / per_level;
        const gn_vsm_page *pg = &st->pages[index];
        gn_vsm_page_matrix(st, st->versions.current, level, pg->i, pg->j, &v->page_vp[(size_t)k * 16]);
        /* a caster under half a texel of this level casts nothing visible */
        float min_radius = 0.5f * v->view.page_size[level] / 128.0f;
        uint32_t m = gn_vsm_bins_page(&v->bins, &v->view, v->caster_xy, v->caster_radius, level, pg->i, pg->j,
                                      min_radius, v->caster_list);
        for (uint32_t q = 0; q < m; q++) r->plan.subset[q] = r->plan.items[v->caster_list[q]];
        gn_draw_list_build(r->plan.subset, m, NULL, &r->plan.shadow_list);
        res = gn_plan_write(r, s, &r->plan.shadow_list, &v->page_draws[k], err);
    }
    if (res) return res;
    gn_vsm_commit(st);
    fill_table(v);
    res = gn_vk_upload_buffer(&r->vk, &v->table, 0, v->table_cpu,
                              (VkDeviceSize)st->s.levels * per_level * sizeof *v->table_cpu, err);
    if (!res) res = upload_versions(r, err);
    if (res) return res;

    g->vsm[0] = (float)st->s.levels;
    g->vsm[1] = v->view.page_size[0];
    g->vsm[2] = v->view.texel0;
    g->vsm[3] = v->view.footprint_scale;
    g->vsm_params[0] = st->s.depth_range;
    g->vsm_params[1] = (float)(st->versions.current % GN_VSM_VERSIONS);
    g->vsm_params[2] = (float)v->atlas_pages_per_row;
    g->vsm_params[3] = v->bias_texels;
    g->vsm_info[0] = n;
    g->vsm_info[1] = 128;
    g->vsm_info[2] = v->atlas_pages_per_row * 128;
    g->vsm_info[3] = st->s.pool_pages; /* the dynamic layer's tiles follow the pool's */
    for (int row = 0; row < 3; row++) {
        memcpy(g->vsm_light[row], &v->view.rot[row * 3], 3 * sizeof(float));
        g->vsm_light[row][3] = 0.0f;
    }
    memcpy(g->vsm_pivot, v->view.pivot, 3 * sizeof(float));
    g->vsm_pivot[3] = 0.0f;
    for (uint32_t l = 0; l < GN_GPU_VSM_MAX_LEVELS; l++) {
        int32_t o[2] = {l < st->s.levels ? v->view.origin[l][0] : 0, l < st->s.levels ? v->view.origin[l][1] : 0};
        memcpy(&g->vsm_origin[l / 2][(l % 2) * 2], o, sizeof o);
    }
    /* the request mask MARK writes this frame is read when this slot comes round */
    v->request_valid[slot] = true;
    gn_vk_frame *cur = r->vk.cur;
    const gn_vsm_stats *sv = &v->stats;
    cur->vsm.requested = sv->requested, cur->vsm.resident = sv->resident;
    cur->vsm.rendered_static = sv->rendered_static, cur->vsm.rendered_dynamic = sv->rendered_dynamic;
    cur->vsm.evicted = sv->evicted, cur->vsm.overflow = sv->overflow, cur->vsm.waiting = sv->waiting;
    cur->vsm.pool_used = sv->pool_used, cur->vsm.pool_pages = st->s.pool_pages;
    cur->vsm.sun_lag_deg = sv->sun_lag_deg;
    for (uint32_t l = 0; l < 16 && l < GN_VSM_MAX_LEVELS; l++) {
        cur->vsm.requested_level[l] = sv->requested_level[l];
        cur->vsm.rendered_level[l] = sv->rendered_level[l];
    }
    return GN_OK;
}

/* One tile of the atlas: cleared alone (every other tile keeps its depth), then its casters
 * with the page's matrix. Returns the draw calls. */
static uint32_t draw_tile(gn_renderer *r, uint32_t tile, const float vp[16], const gn_view_draws *d,
                          uint64_t *triangles)
{
    gn_vk *vk = &r->vk;
    uint32_t per_row = r->vsm.atlas_pages_per_row, x = (tile % per_row) * 128, y = (tile / per_row) * 128;
    gn_vk_cmd_set_region(vk, x, y, 128, 128);
    gn_vk_cmd_clear_depth_rect(vk, x, y, 128, 128, 1.0f);
    gn_vk_cmd_bind_pipeline(vk, false, r->csm.pipeline);
    uint32_t dyn[2] = {(uint32_t)r->plan.frame_offset, (uint32_t)d->visible_offset};
    gn_vk_cmd_bind_sets(vk, false, r->csm.layout, 0, 1, &r->pipes.frame_set, 2, dyn);
    gn_vk_cmd_push(vk, r->csm.layout, 64, vp);
    *triangles += d->triangles;
    return gn_draw_depth_only(r, d, r->csm.mask_pipeline, r->csm.layout);
}

void gn_pass_vsm_render(gn_renderer *r)
{
    gn_vsm_gpu *v = &r->vsm;
    gn_vk *vk = &r->vk;
    const gn_vsm_state *st = &v->state;
    if (!v->active || (!st->render_count && !v->dyn_render)) return;
    gn_vk_use uses[] = {
        {.image = &v->atlas, .access = GN_ACCESS_DEPTH_WRITE},
        {.buffer = &r->scene.vertices, .access = GN_ACCESS_VERTEX_INPUT},
        {.buffer = &r->scene.indices, .access = GN_ACCESS_VERTEX_INPUT},
        {.buffer = &r->scene.instances, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &r->scene.materials, .access = GN_ACCESS_SHADER_READ},
    };
    uint32_t pass = gn_vk_pass_begin(vk, "vsm pages", uses, sizeof uses / sizeof uses[0]);
    gn_vk_rendering ri = {
        .depth = {.image = &v->atlas, .clear = false},
        .width = v->atlas.width,
        .height = v->atlas.height,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    uint32_t draws = 0;
    uint64_t triangles = 0;
    for (uint32_t k = 0; k < st->render_count; k++)
        draws += draw_tile(r, st->pages[st->render[k]].physical, &v->page_vp[(size_t)k * 16], &v->page_draws[k],
                           &triangles);
    /* the dynamic layer: its tiles follow the pool's; only the dynamic casters over each page */
    for (uint32_t k = 0; v->dyn_render && k < v->dyn_count; k++)
        draws += draw_tile(r, st->s.pool_pages + k, &v->dyn_vp[(size_t)k * 16], &v->dyn_draws[k], &triangles);
    gn_vk_cmd_end_rendering(vk);
    gn_vk_pass_end(vk, pass, draws, triangles);
}

void gn_pass_vsm_mark(gn_renderer *r)
{
    gn_vsm_gpu *v = &r->vsm;
    gn_vk *vk = &r->vk;
    if (!v->active) return;
    uint32_t slot = slot_index(r);
    gn_vk_buffer *mask = &v->requests[slot];
    gn_vk_use clear = {.buffer = mask, .access = GN_ACCESS_TRANSFER_WRITE};
    gn_vk_barriers(vk, vk->cur->cmd, &clear, 1);
    gn_vk_cmd_fill(vk, mask, 0);
    gn_vk_use uses[] = {
        {.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ},
        {.buffer = mask, .access = GN_ACCESS_COMPUTE_WRITE},
    };
    uint32_t pass = gn_vk_pass_begin(vk, "vsm mark", uses, 2);
    gn_vk_cmd_bind_pipeline(vk, true, v->mark_pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, v->mark_pipeline_layout, 0, 1, &v->mark_sets[slot], 1, &dyn);
    gn_vk_cmd_dispatch(vk, (r->width + 15) / 16, (r->height + 15) / 16, 1); /* 8x8 threads of 2x2 pixels */
    gn_vk_pass_end(vk, pass, 0, 0);
    gn_vk_use host = {.buffer = mask, .access = GN_ACCESS_HOST_READ};
    gn_vk_barriers(vk, vk->cur->cmd, &host, 1);
}

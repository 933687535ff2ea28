#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* The frame, top to bottom: decide on the CPU, upload, then the passes in order. */
#include "decide/camera.h"
#include "decide/frustum.h"
#include "decide/sun.h"
#include "renderer.h"

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

void gn_frame_plan_free(gn_frame_plan *p)
{
    free(p->items);
    free(p->list.instances);
    free(p->list.groups);
    free(p->list.batches);
    free(p->list.scratch_keys);
    memset(p, 0, sizeof *p);
}

static gn_result plan_reserve(gn_frame_plan *p, uint32_t n, gn_error *err)
{
    if (n <= p->capacity) return GN_OK;
    gn_frame_plan_free(p);
    p->items = malloc(n * sizeof *p->items);
    p->list.instances = malloc(n * sizeof *p->list.instances);
    p->list.groups = malloc(n * sizeof *p->list.groups);
    p->list.batches = malloc(n * sizeof *p->list.batches);
    p->list.scratch_keys = malloc(n * sizeof *p->list.scratch_keys);
    if (!p->items || !p->list.instances || !p->list.groups || !p->list.batches || !p->list.scratch_keys)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for a draw list of %u instances", n);
    p->capacity = n;
    return GN_OK;
}

/* Camera, sun and sky into the frame constants. */
static void decide_frame(const gn_renderer *r, const gn_scene *s, const gn_frame_desc *f,
                         gn_frame_view *out_view, gn_gpu_frame *g, gn_frustum *frustum)
{
    gn_camera cam = f->camera;
    if (!f->camera_set) {
        memset(&cam, 0, sizeof cam);
        memcpy(cam.position, s->default_camera, sizeof cam.position);
        cam.yaw = s->default_camera[3];
        cam.pitch = s->default_camera[4];
    }
    float fov = cam.fov_y > 0 ? cam.fov_y : 60.0f;
    float near_plane = cam.near_plane > 0 ? cam.near_plane : 0.1f;
    float proj[16], view[16];
    gn_camera_projection(fov * 0.017453293f /* degrees to radians */, (float)r->width / (float)r->height,
                         near_plane, proj);
    gn_camera_view(cam.position, cam.yaw, cam.pitch, view);
    gn_mat4_mul(proj, view, g->view_proj);
    if (!gn_mat4_inverse(g->view_proj, g->inv_view_proj))
        memset(g->inv_view_proj, 0, sizeof g->inv_view_proj);
    gn_frustum_from_view_proj(g->view_proj, frustum);
    memcpy(g->camera_pos, cam.position, sizeof(float) * 3);
    g->camera_pos[3] = near_plane;

    float hours = f->time_set || f->time_of_day != 0.0f ? f->time_of_day : 18.5f;
    float latitude = f->latitude_set || f->latitude != 0.0f ? f->latitude : 45.0f;
    uint32_t day = f->day_of_year ? f->day_of_year : 230; /* sun ~4 degrees up at 18.5 h, 45 N */
    gn_sun sun;
    gn_sky sky;
    gn_sun_compute(hours, latitude, day, &sun);
    gn_sky_compute(&sun, &sky);
    for (int i = 0; i < 3; i++) {
        g->sun_dir[i] = sun.direction[i];
        g->sun_color[i] = sun.color[i] * sun.illuminance;
        g->sky_zenith[i] = sky.zenith[i];
        g->sky_horizon[i] = sky.horizon[i];
        g->sky_ground[i] = sky.ground[i];
        g->ambient_sky[i] = sky.ambient_sky[i];
        g->ambient_ground[i] = sky.ambient_ground[i];
    }
    g->sun_dir[3] = sun.elevation_deg;
    memcpy(out_view->view_proj, g->view_proj, sizeof out_view->view_proj);
    memcpy(out_view->inv_view_proj, g->inv_view_proj, sizeof out_view->inv_view_proj);
    memcpy(out_view->camera_position, cam.position, sizeof out_view->camera_position);
    out_view->near_plane = near_plane;
    memcpy(out_view->sun_direction, sun.direction, sizeof out_view->sun_direction);
    out_view->sun_elevation = sun.elevation_deg;
    g->exposure[0] = exp2f(f->exposure);
    g->mode[0] = f->view < GN_VIEW_COUNT ? (uint32_t)f->view : 0;
    g->mode[1] = f->tonemap ? (uint32_t)f->tonemap - 1 : GN_GPU_TONEMAP_ACES;
    g->mode[2] = r->width;
    g->mode[3] = r->height;
}

/* Frustum culling and the sorted draw list, written into the ring as the visible-instance
 * ids and one indirect command per group. */
static gn_result decide_draws(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, gn_error *err)
{
    gn_frame_plan *p = &r->plan;
    gn_result res = plan_reserve(p, s->instance_count ? s->instance_count : 1, err);
    if (res) return res;
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const gn_instance *in = &s->instances[i];
        p->items[i] = (gn_cull_item){
            {in->sphere[0], in->sphere[1], in->sphere[2], in->sphere[3]}, in->mesh, in->material, 0, i};
    }
    gn_draw_list_build(p->items, s->instance_count, frustum, &p->list);

    VkDeviceSize align = gn_vk_storage_align(&r->vk);
    void *visible, *indirect;
    uint32_t visible_bytes = (s->instance_count ? s->instance_count : 4) * sizeof(uint32_t);
    res = gn_vk_ring_alloc(&r->vk, visible_bytes, align, &p->visible_offset, &visible, err);
    if (!res)
        res = gn_vk_ring_alloc(
            &r->vk, (p->list.group_count ? p->list.group_count : 1) * sizeof(VkDrawIndexedIndirectCommand),
            16, &p->indirect_offset, &indirect, err);
    if (res) return res;
    memcpy(visible, p->list.instances, p->list.instance_count * sizeof(uint32_t));
    VkDrawIndexedIndirectCommand *cmds = indirect;
    p->triangles = 0;
    for (uint32_t g = 0; g < p->list.group_count; g++) {
        const gn_draw_group *grp = &p->list.groups[g];
        const gn_mesh *m = &s->meshes[grp->mesh];
        cmds[g] = (VkDrawIndexedIndirectCommand){m->index_count, grp->count, m->first_index,
                                                 (int32_t)m->first_vertex, grp->first};
        p->triangles += (uint64_t)m->index_count / 3 * grp->count;
    }
    return GN_OK;
}

gn_result gn_frame_run(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err)
{
    gn_result res = gn_vk_frame_begin(&r->vk, err); /* waits for this slot's previous frame */
    if (res) return res;
    double t0 = now_ms(); /* CPU time counts from here: the wait for the GPU is not CPU work */
    gn_scene_animate(s, f->seconds);

    /* 1. decide (CPU): camera, sun, sky, visibility, draw list */
    gn_gpu_frame *frame;
    gn_frustum frustum;
    res = gn_vk_ring_alloc(&r->vk, sizeof *frame, gn_vk_storage_align(&r->vk), &r->plan.frame_offset,
                           (void **)&frame, err);
    if (!res) decide_frame(r, s, f, &r->view, frame, &frustum);
    /* 2. upload: the scene when new or changed, moved dynamic instances */
    if (!res) res = gn_gpu_scene_sync(r, s, err);
    if (!res) res = decide_draws(r, s, &frustum, err);
    if (res) {
        gn_vk_frame_submit(&r->vk, NULL); /* close the slot; the frame draws nothing */
        return res;
    }
    /* 3. depth prepass (reversed-Z, MSAA) and its sample-0 resolve */
    gn_pass_depth_prepass(r);
    /* 4. opaque forward pass (HDR, depth EQUAL), sky, colour resolve */
    gn_pass_forward(r);
    /* 5. tone map into the 8-bit output */
    gn_pass_tonemap(r);

    gn_vk_frame *slot = r->vk.cur;
    slot->instances_total = s->instance_count;
    slot->instances_visible = r->plan.list.instance_count;
    slot->draw_groups = r->plan.list.group_count;
    slot->cpu_ms = now_ms() - t0;
    res = gn_vk_frame_submit(&r->vk, err);
    r->rendered = !res;
    return res;
}

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

/* Camera, sun and sky into the frame constants. */
static void decide_frame(gn_renderer *r, const gn_scene *s, const gn_frame_desc *f, gn_frame_view *out_view,
                         gn_gpu_frame *g, gn_frustum *frustum)
{
    gn_camera cam = f->camera;
    static const gn_camera unset;
    if (memcmp(&cam, &unset, sizeof cam) == 0) {
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
    memcpy(r->camera.view, view, sizeof view);
    memcpy(r->camera.proj, proj, sizeof proj);
    r->camera.near_plane = near_plane;
    memcpy(g->view, view, sizeof view);
    r->camera.fov_y = fov * 0.017453293f;
    r->camera.aspect = (float)r->width / (float)r->height;
    gn_camera_forward(cam.yaw, cam.pitch, g->camera_forward);
    g->camera_forward[3] = 0.0f;
    gn_mat4_mul(proj, view, g->view_proj);
    if (!gn_mat4_inverse(g->view_proj, g->inv_view_proj))
        memset(g->inv_view_proj, 0, sizeof g->inv_view_proj);
    gn_frustum_from_view_proj(g->view_proj, frustum);
    memcpy(g->camera_pos, cam.position, sizeof(float) * 3);
    g->camera_pos[3] = near_plane;

    float hours = f->time_of_day != 0.0f ? f->time_of_day : 18.5f;
    float latitude = f->latitude != 0.0f ? f->latitude : 45.0f;
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

gn_result gn_frame_run(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err)
{
    gn_result res = gn_vk_frame_begin(&r->vk, err); /* waits for this slot's previous frame */
    if (res) return res;
    double t0 = now_ms(); /* CPU time counts from here: the wait for the GPU is not CPU work */
    gn_scene_animate(s, f->seconds);

    /* 1. decide (CPU): camera, sun, sky; 2. upload the scene when new or changed and the
     *    moved dynamic instances; then visibility: the camera's draw list, the casters of
     *    each shadow cascade due this frame and of each shadowed light, into the ring */
    gn_gpu_frame *frame;
    gn_frustum frustum;
    res = gn_vk_ring_alloc(&r->vk, sizeof *frame, gn_vk_storage_align(&r->vk), &r->plan.frame_offset,
                           (void **)&frame, err);
    if (!res) decide_frame(r, s, f, &r->view, frame, &frustum);
    if (!res) res = gn_gpu_scene_sync(r, s, err);
    r->plan.list_submitted = false; /* the camera's list changes now; true again once submitted */
    if (!res) res = gn_plan_camera(r, s, &frustum, f->no_pvs, err);
    if (!res) res = gn_plan_shadows(r, s, f, &r->view, frame, err);
    if (!res) res = gn_plan_vsm(r, s, f, frame, err);
    /* VSM RESOLVE: whether it runs, whether last frame's mask is history, last frame's
     * view-projection (gnomon has no jitter, so it is last frame's view_proj) */
    if (!res) gn_plan_vsm_resolve(r, s, frame);
    /* local lights: the shadowed ones and their layers' casters, then the light buffer
     * (re-uploaded when lights moved or changed layers) and the froxel grid's constants */
    if (!res) res = gn_plan_light_shadows(r, s, &frustum, err);
    bool light_sets = false;
    if (!res) res = gn_lights_sync(r, s, &light_sets, err);
    if (!res && light_sets) gn_gpu_scene_write_frame_set(r);
    if (!res) gn_lights_frame(r, r->camera.proj, r->camera.near_plane, f->naive_lights, frame);
    if (res) {
        r->vsm_resolve.have_prev = false; /* no mask is written: none is history for the next frame */
        gn_vk_frame_submit(&r->vk, NULL); /* close the slot; the frame draws nothing */
        return res;
    }
    /* 3. depth prepass (reversed-Z, MSAA) and its sample-0 resolve */
    gn_pass_depth_prepass(r);
    /* 4. sun shadows: the cascades due this frame, or the virtual shadow map: MARK (which
     *    pages this frame's pixels need), ALLOC and BIN on the GPU, then the chosen pages */
    gn_pass_csm(r);
    gn_pass_vsm_mark(r);  /* needs the prepass's depth */
    gn_pass_vsm_alloc(r); /* ALLOC and BIN from MARK's requests, in the same frame */
    gn_pass_vsm_render(r);
    /*    and RESOLVE: the sun's visibility per pixel, accumulated over frames, for the forward pass */
    gn_pass_vsm_resolve(r);
    /* 5. local lights: the shadowed ones' layers, then each froxel's list (the list is
     *    skipped on the naive A/B path) */
    gn_pass_light_shadows(r);
    if (r->lights.count && !f->naive_lights) gn_pass_clusters(r);
    /* 6. opaque forward pass (HDR, depth EQUAL, sun shadow), sky, colour resolve */
    gn_pass_forward(r);
    /* 7. tone map into the 8-bit output */
    gn_pass_tonemap(r);
    /* 8. into the window, when there is one: the output, the overlay blended over it */
    res = gn_pass_present(r, f->overlay, err);

    gn_vk_frame *slot = r->vk.cur;
    slot->instances_total = s->instance_count;
    slot->instances_visible = r->plan.list.instance_count;
    slot->draw_groups = r->plan.list.group_count;
    slot->shadow_updates = r->csm.due_count;
    slot->lights = r->lights.count;
    slot->shadowed_lights = r->lights.chosen_count;
    slot->unshadowed_lights = r->lights.candidates - r->lights.chosen_count;
    slot->shadow_casters = 0;
    for (uint32_t i = 0; i < r->csm.due_count; i++)
        slot->shadow_casters += r->csm.draws[r->csm.due[i]].instance_count;
    slot->cpu_ms = now_ms() - t0;
    gn_result submitted = gn_vk_frame_submit(&r->vk, res ? NULL : err);
    if (!res) res = submitted;
    r->rendered = !submitted;
    r->plan.list_submitted = !submitted;
    if (!res) res = gn_vk_swapchain_present(&r->vk, &r->present.swapchain, err);
    return res;
}

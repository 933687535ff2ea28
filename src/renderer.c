/* The public renderer API: creation with defaults resolved in one place, frames, pixels
 * and statistics. */
#include "base/alloc.h"
#include "passes/ao.h"
#include "passes/cull.h"
#include "passes/present.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gn_result gn_renderer_create(const gn_renderer_desc *desc, gn_renderer **out, gn_error *err)
{
    *out = NULL;
    gn_renderer_desc d = gn_renderer_desc_resolve(desc, getenv("GNOMON_VALIDATION"));
    if (d.width < 16 || d.height < 16 || d.width > 16384 || d.height > 16384)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "size %ux%u out of range (16..16384)", d.width,
                       d.height);
    if (d.msaa != 1 && d.msaa != 2 && d.msaa != 4 && d.msaa != 8)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "msaa %u: must be 1, 2, 4 or 8", d.msaa);
    gn_renderer *r = gn_calloc(1, sizeof *r);
    if (!r) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory");
    gn_vk_desc vd = {
        .device = d.device,
        .validation = d.validation == GN_VALIDATION_ON,
        .log = d.log,
        .log_user = d.log_user,
        .log_level = d.log_level,
        .presentable = d.presentable,
        .instance_extensions = d.instance_extensions,
        .instance_extension_count = d.instance_extension_count,
        .timeout_ms = d.gpu_timeout_ms,
    };
    /* each feature's GPU counters get their place in a frame slot's block */
    uint32_t counters = 0;
    for (uint32_t i = 0; i < GN_FEATURE_COUNT; i++) {
        r->counter_offset[i] = counters;
        counters += (gn_features[i]->counters + 15u) & ~15u;
    }
    vd.counters_size = counters;
    gn_result res = gn_vk_create(&r->vk, &vd, err);
    if (res) {
        free(r);
        return res;
    }
    r->vk.harvested = gn_stats_harvested;
    r->vk.harvest_user = r;
    r->width = d.width;
    r->height = d.height;
    r->msaa = d.msaa;
    r->desc = d;
    r->desc.device = NULL; /* the caller's strings need not outlive the call */
    r->desc.instance_extensions = NULL;
    r->desc.instance_extension_count = 0;
    if (!(gn_vk_sample_counts(&r->vk) & d.msaa)) {
        res = gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "msaa %u is not supported by %s (supported mask 0x%x)",
                      d.msaa, r->vk.props.deviceName, gn_vk_sample_counts(&r->vk));
    }
    if (!res && !(r->atmosphere = gn_malloc(sizeof *r->atmosphere)))
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for the atmosphere's tables");
    if (!res) {
        gn_atmo_params earth;
        gn_atmo_earth(&earth);
        gn_atmo_build(&earth, r->atmosphere);
    }
    if (!res) res = gn_targets_create(r, err);
    if (!res) res = gn_pipelines_create(r, err);
    /* the features, in the table's order (a feature may use what an earlier one made) */
    for (uint32_t i = 0; i < GN_FEATURE_COUNT && !res; i++) {
        const gn_feature *ft = gn_features[i];
        r->state[i] = gn_calloc(1, ft->size ? ft->size : 1);
        if (!r->state[i])
            res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for feature %s", ft->name);
        if (!res && ft->create) res = ft->create(r, r->state[i], &d, err);
    }
    /* the timestamp queries: as many passes as the pass table can run in a frame */
    uint32_t passes = res ? 0 : gn_frame_max_passes(r);
    if (!res && passes > GN_STATS_PASSES)
        res =
            gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                    "the pass table can run %u passes a frame; statistics hold %u", passes, GN_STATS_PASSES);
    if (!res) res = gn_vk_pass_capacity(&r->vk, passes, err);
    if (res) {
        gn_renderer_destroy(r);
        return res;
    }
    *out = r;
    return GN_OK;
}

void gn_renderer_destroy(gn_renderer *r)
{
    if (!r) return;
    if (r->vk.device) {
        gn_vk_wait_idle(&r->vk, NULL);
        /* in reverse: the surface (present, last) before the instance that made it */
        for (uint32_t i = GN_FEATURE_COUNT; i-- > 0;)
            if (r->state[i] && gn_features[i]->release) gn_features[i]->release(r, r->state[i]);
        gn_gpu_scene_release(r);
        gn_targets_release(r);
        gn_pipelines_release(r);
    }
    for (uint32_t i = 0; i < GN_FEATURE_COUNT; i++) free(r->state[i]);
    gn_probes_free(r);
    gn_frame_plan_free(&r->plan);
    free(r->atmosphere);
    gn_vk_destroy(&r->vk);
    free(r);
}

/* the probes' renderers' too: they render this renderer's scene on its device */
uint32_t gn_renderer_validation_messages(const gn_renderer *r)
{
    return r ? r->vk.validation_messages + r->extra_validation + gn_probes_validation_messages(r) : 0;
}

const char *gn_renderer_device_name(const gn_renderer *r) { return r ? r->vk.props.deviceName : ""; }

void gn_renderer_size(const gn_renderer *r, uint32_t *width, uint32_t *height)
{
    *width = r ? r->width : 0;
    *height = r ? r->height : 0;
}

uint32_t gn_renderer_msaa(const gn_renderer *r) { return r ? r->msaa : 0; }

gn_result gn_enumerate_devices(gn_device_info *out, uint32_t max, uint32_t *count,
                               const char *device_override, gn_error *err)
{
    return gn_vk_enumerate(out, max, count, device_override, err);
}

gn_result gn_render(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err)
{
    if (!r || !s)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_render: renderer and scene are required");
    gn_frame_desc fd = f ? *f : (gn_frame_desc){0};
    if (fd.view >= GN_VIEW_COUNT)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_render: view %d unknown", (int)fd.view);
    gn_result res = gn_probes_sync(r, s, &fd, err); /* with a renderer of its own: before the frame */
    return res ? res : gn_frame_run(r, s, &fd, err);
}

/* Copies one image (the 8-bit output or the resolved depth: both 4 bytes a pixel) into the
 * mapped readback buffer. */
typedef struct readback {
    gn_renderer *r;
    gn_vk_image *src;
} readback;

static void record_readback(gn_vk *vk, VkCommandBuffer cmd, void *user)
{
    gn_renderer *r = ((readback *)user)->r;
    gn_vk_image *src = ((readback *)user)->src;
    gn_vk_use uses[] = {
        {.image = src, .access = GN_ACCESS_TRANSFER_READ},
        {.buffer = &r->targets.readback, .access = GN_ACCESS_TRANSFER_WRITE},
    };
    gn_vk_barriers(vk, cmd, uses, 2);
    gn_vk_cmd_copy_image_to_buffer(vk, src, &r->targets.readback);
    gn_vk_use host = {.buffer = &r->targets.readback, .access = GN_ACCESS_HOST_READ};
    gn_vk_barriers(vk, cmd, &host, 1);
}

static gn_result read_image(gn_renderer *r, gn_vk_image *img, void *out, const char *what, gn_error *err)
{
    if (!r || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: renderer and buffer are required", what);
    if (!r->rendered) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: no frame rendered yet", what);
    readback rb = {r, img};
    gn_result res = gn_vk_run_once(&r->vk, record_readback, &rb, err);
    if (res) return res;
    memcpy(out, r->targets.readback.alloc.mapped, (size_t)r->width * r->height * 4);
    return GN_OK;
}

gn_result gn_read_pixels(gn_renderer *r, uint8_t *pixels, gn_error *err)
{
    return read_image(r, r ? gn_target(r, GN_TARGET_OUTPUT) : NULL, pixels, "gn_read_pixels", err);
}

gn_result gn_read_depth(gn_renderer *r, float *depth, gn_error *err)
{
    return read_image(r, r ? r->targets.depth : NULL, depth, "gn_read_depth", err);
}

gn_result gn_read_ao(gn_renderer *r, float *ao, gn_error *err)
{
    if (!r || !ao)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_read_ao: renderer and buffer are required");
    if (!r->rendered) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_read_ao: no frame rendered yet");
    if (!gn_ao_was_on(r))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "gn_read_ao: the last frame had ambient occlusion off");
    return gn_ao_read(r, NULL, ao, err);
}

gn_result gn_get_frame_view(const gn_renderer *r, gn_frame_view *out, gn_error *err)
{
    if (!r || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_get_frame_view: arguments are required");
    if (!r->rendered)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_get_frame_view: no frame rendered yet");
    const gn_frame_inputs *in = &r->in;
    memcpy(out->view_proj, in->view_proj, sizeof out->view_proj);
    memcpy(out->inv_view_proj, in->inv_view_proj, sizeof out->inv_view_proj);
    memcpy(out->camera_position, in->position, sizeof out->camera_position);
    out->near_plane = in->near_plane;
    memcpy(out->sun_direction, in->sun.direction, sizeof out->sun_direction);
    out->sun_elevation = in->sun.elevation_deg;
    out->ao_radius = in->ao.intensity > 0.0f ? in->ao.radius : 0.0f;
    return GN_OK;
}

gn_result gn_get_visible_instances(const gn_renderer *r, uint32_t *out, uint32_t max, uint32_t *count,
                                   gn_error *err)
{
    if (!r || !count || (!out && max))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_get_visible_instances: arguments are required");
    *count = 0;
    /* the camera's draw list is rebuilt by every gn_render; it is the submitted frame's only
     * until the next one starts planning (frame.c) */
    if (!r->plan.list_submitted)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "gn_get_visible_instances: no frame submitted since %s",
                       r->rendered ? "the last gn_render failed" : "the renderer was made");
    if (r->plan.camera_gpu) return gn_cull_read_visible((gn_renderer *)r, out, max, count, err);
    const gn_draw_list *l = &r->plan.list;
    uint32_t n = l->instance_count < max ? l->instance_count : max;
    if (n) memcpy(out, l->instances, n * sizeof *out);
    *count = l->instance_count;
    return GN_OK;
}

gn_result gn_get_frame_stats(gn_renderer *r, gn_frame_stats *out, gn_error *err)
{
    if (!r || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_get_frame_stats: arguments are required");
    /* take what has finished without waiting */
    gn_vk_poll(&r->vk);
    if (!r->have_stats) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "no frame has finished yet");
    *out = r->last_stats;
    return GN_OK;
}

gn_result gn_take_frame_stats(gn_renderer *r, gn_frame_stats *out, uint32_t max, uint32_t *count,
                              gn_error *err)
{
    if (!r || !out || !count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_take_frame_stats: arguments are required");
    gn_vk_poll(&r->vk);
    uint32_t n = 0;
    while (n < max && r->finished_count) {
        out[n++] = r->finished[r->finished_head];
        r->finished_head = (r->finished_head + 1) % GN_STATS_QUEUE;
        r->finished_count--;
    }
    *count = n;
    return GN_OK;
}

uint64_t gn_renderer_frame_index(const gn_renderer *r) { return r ? r->vk.frame_number : 0; }

gn_result gn_renderer_wait_idle(gn_renderer *r, gn_error *err)
{
    if (!r) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_renderer_wait_idle: no renderer");
    return gn_vk_wait_idle(&r->vk, err);
}

/* ---- presenting to a window ------------------------------------------------------------- */
void *gn_renderer_vk_instance(const gn_renderer *r) { return r ? (void *)r->vk.instance : NULL; }

gn_result gn_renderer_attach_surface(gn_renderer *r, const gn_surface_desc *d, gn_error *err)
{
    if (!r || !d || !d->surface)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "gn_renderer_attach_surface: renderer and surface are required");
    VkSurfaceKHR surface = (VkSurfaceKHR)(uintptr_t)d->surface;
    if (!r->vk.presentable) {
        gn_vk_surface_destroy(&r->vk, surface);
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "gn_renderer_attach_surface: the renderer was made without presentable");
    }
    return gn_present_attach(r, surface, d->vsync, err);
}

gn_result gn_renderer_set_vsync(gn_renderer *r, bool vsync, gn_error *err)
{
    gn_vk_swapchain *sc = r ? &gn_present_of(r)->swapchain : NULL;
    if (!sc || !sc->surface)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_renderer_set_vsync: no surface attached");
    if (sc->vsync != vsync) sc->stale = true;
    sc->vsync = vsync;
    return GN_OK;
}

gn_result gn_renderer_resize(gn_renderer *r, uint32_t width, uint32_t height, gn_error *err)
{
    if (!r) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_renderer_resize: no renderer");
    if (width < 16 || height < 16 || width > 16384 || height > 16384)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "gn_renderer_resize: size %ux%u out of range (16..16384)", width, height);
    if (width == r->width && height == r->height) return GN_OK;
    /* the descriptor sets below name the old targets: nothing in flight may still read them */
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    if (res) return res;
    /* Transactional: the new size's targets are made while the old ones still exist, and the
     * features rewrite their sets to name them; only then are the old ones released. When
     * either step fails (out of device memory for the new size), the old targets, size and
     * sets are put back and the renderer keeps rendering at the old size (gpu_faults). The
     * cost is both sizes' targets alive for the moment of the resize. */
    gn_targets old = r->targets;
    uint32_t old_width = r->width, old_height = r->height;
    memset(&r->targets, 0, sizeof r->targets);
    r->width = width;
    r->height = height;
    res = gn_targets_create(r, err); /* releases what it made when it fails */
    for (uint32_t i = 0; i < GN_FEATURE_COUNT && !res; i++)
        if (gn_features[i]->resize) res = gn_features[i]->resize(r, r->state[i], err);
    if (res) {
        gn_targets_release(r);
        r->targets = old;
        r->width = old_width;
        r->height = old_height;
        /* the sets back to the old targets: descriptor writes, and the present feature's
         * own per-size images (made again; an error here leaves the first error reported) */
        gn_error again = {0};
        for (uint32_t i = 0; i < GN_FEATURE_COUNT; i++)
            if (gn_features[i]->resize) (void)gn_features[i]->resize(r, r->state[i], &again);
        return res;
    }
    gn_targets_release_set(r, &old);
    r->rendered = false; /* the new output holds no frame yet */
    return res;
}

void gn_renderer_present_stats(const gn_renderer *r, gn_present_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!r) return;
    const gn_vk_swapchain *sc = &gn_present_of(r)->swapchain;
    out->presented = sc->presented;
    out->skipped = sc->skipped;
    out->recreated = sc->created > 1 ? sc->created - 1 : 0;
    out->width = sc->swapchain ? sc->extent.width : 0;
    out->height = sc->swapchain ? sc->extent.height : 0;
    out->image_count = sc->image_count;
    out->vsync = sc->vsync;
}

/* Eye adaptation (a feature; docs/POST.md): the frame's luminance histogram in compute, then
 * one thread meters its band and adapts the exposure over the time since the last frame. The
 * state lives in the renderer's exposure buffer (r->pipes.exposure, zeroed at creation), which
 * the frame set lends the forward pass (its pre-exposure) and the tone map reads. Under a fixed
 * exposure both passes run only for the luminance view (which shows what auto would meter).
 * CPU reference: src/decide/exposure.c. */
#include "passes/exposure.h"
#include "passes/passes.h"

#include <math.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT
#define BINS_OFFSET offsetof(gn_gpu_exposure, bins)

typedef struct exposure_state {
    gn_screen_pass histogram, adapt; /* one set each, the same bindings */
    double last_seconds;             /* the last frame's time: adaptation runs over the difference */
    bool have_last;
    bool zeroed; /* the state buffer was cleared (the first frame's upload) */
    bool run;    /* this frame meters: auto, or a fixed exposure's luminance view */
} exposure_state;

static const gn_vk_binding BINDINGS[GN_BIND_EXPOSURE_COUNT] = {
    [GN_BIND_EXPOSURE_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
    [GN_BIND_EXPOSURE_HDR] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
    [GN_BIND_EXPOSURE_STATE] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},
};

static gn_result write_sets(gn_renderer *r, void *self, gn_error *err)
{
    (void)err;
    exposure_state *s = self;
    gn_vk_write w[GN_BIND_EXPOSURE_COUNT] = {
        gn_write_frame(r, GN_BIND_EXPOSURE_FRAME),
        gn_write_sampled(GN_BIND_EXPOSURE_HDR, r->targets.hdr, r->pipes.clamp),
        gn_write_storage(GN_BIND_EXPOSURE_STATE, &r->pipes.exposure),
    };
    gn_vk_write_set(&r->vk, s->histogram.set, w, GN_BIND_EXPOSURE_COUNT);
    gn_vk_write_set(&r->vk, s->adapt.set, w, GN_BIND_EXPOSURE_COUNT);
    return GN_OK;
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    exposure_state *s = self;
    gn_result res = gn_screen_pass_create(r, &s->histogram, "exposure_histogram.comp", "exposure histogram",
                                          BINDINGS, GN_BIND_EXPOSURE_COUNT, err);
    if (!res)
        res = gn_screen_pass_create(r, &s->adapt, "exposure_adapt.comp", "exposure adapt", BINDINGS,
                                    GN_BIND_EXPOSURE_COUNT, err);
    if (!res) res = write_sets(r, self, err);
    return res;
}

/* The frame constants of the exposure: the camera's, the metering, and the time since the
 * last frame (0, exposing the frame at its target: the first frame, a still frame at the same
 * time, or time going back, a cut). */
static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)scene;
    exposure_state *s = self;
    if (!s->zeroed) { /* before the forward pass reads its pre-exposure */
        static const gn_gpu_exposure zero;
        gn_result res = gn_vk_upload_buffer(&r->vk, &r->pipes.exposure, 0, &zero, sizeof zero, err);
        if (res) return res;
        s->zeroed = true;
    }
    const gn_exposure_params *p = &in->exposure;
    double dt = s->have_last ? in->seconds - s->last_seconds : 0.0;
    s->last_seconds = in->seconds;
    s->have_last = true;
    s->run = p->automatic || in->debug_view == GN_VIEW_LUMINANCE;
    float fixed = gn_exposure_from_ev100(p->ev100 - p->compensation);
    /* auto's guess before it has metered: the exposure the sky's mean luminance would meter, in
     * the range (a first frame, or a cut far from the last: shaders/exposure.glsl) */
    const gn_sky *sky = &in->sky;
    float sky_l = 0.0f;
    static const float luma[3] = {GN_LUMA_R, GN_LUMA_G, GN_LUMA_B};
    for (int c = 0; c < 3; c++) sky_l += 0.5f * (sky->zenith[c] + sky->horizon[c]) * luma[c];
    float guess = gn_ev100_from_luminance(sky_l > 0.0f ? sky_l : 1.0f);
    guess = guess < p->min_ev100 ? p->min_ev100 : guess > p->max_ev100 ? p->max_ev100 : guess;
    g->exposure[0] = fixed;
    g->exposure[1] = gn_exposure_pre(gn_exposure_from_ev100(guess - p->compensation));
    g->exposure[2] = dt > 0.0 && dt < 1e6 ? (float)dt : 0.0f;
    g->exposure[3] = p->automatic ? 1.0f : 0.0f;
    g->exposure_meter[0] = p->min_ev100;
    g->exposure_meter[1] = p->max_ev100;
    g->exposure_meter[2] = p->low;
    g->exposure_meter[3] = p->high;
    g->exposure_adapt[0] = p->speed_up;
    g->exposure_adapt[1] = p->speed_down;
    g->exposure_adapt[2] = p->compensation;
    g->exposure_adapt[3] = p->transition;
    /* a fixed exposure's frame is shown at its EV100 (harvest keeps it); auto's come from the GPU */
    gn_frame_stats *rec = gn_frame_record(r);
    rec->exposure_ev100 = p->automatic ? NAN : p->ev100 - p->compensation;
    rec->exposure_target_ev100 = rec->exposure_ev100;
    return GN_OK;
}

static void harvest(const void *self, const uint8_t *counters, gn_frame_stats *out)
{
    (void)self;
    if (!isnan(out->exposure_ev100)) return; /* fixed */
    float state[4];
    memcpy(state, counters, sizeof state);
    out->exposure_ev100 = state[0];
    out->exposure_target_ev100 = state[1];
}

static void release(gn_renderer *r, void *self)
{
    exposure_state *s = self;
    gn_screen_pass_release(r, &s->histogram);
    gn_screen_pass_release(r, &s->adapt);
}

const gn_feature gn_feature_exposure = {.name = "exposure",
                                        .size = sizeof(exposure_state),
                                        .counters = 16,
                                        .create = create,
                                        .resize = write_sets,
                                        .plan = plan,
                                        .harvest = harvest,
                                        .release = release};

uint32_t gn_exposure_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const exposure_state *)self)->run ? 1 : 0;
}

uint32_t gn_exposure_histogram_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)self, (void)run;
    out[0] = (gn_vk_use){.image = r->targets.hdr, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &r->pipes.exposure, .access = GN_ACCESS_TRANSFER_WRITE};
    return 2;
}

/* The bins cleared, then every pixel counted. */
gn_pass_work gn_exposure_histogram_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    exposure_state *s = self;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_fill_at(vk, &r->pipes.exposure, BINS_OFFSET, GN_GPU_EXPOSURE_BINS * 4, 0);
    gn_vk_use write = {.buffer = &r->pipes.exposure, .access = GN_ACCESS_COMPUTE_WRITE};
    gn_vk_barriers(vk, vk->cur->cmd, &write, 1);
    gn_vk_cmd_bind_pipeline(vk, true, s->histogram.pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, s->histogram.layout, 0, 1, &s->histogram.set, 1, &dyn);
    gn_vk_cmd_dispatch(vk, (r->width + 15) / 16, (r->height + 15) / 16, 1);
    return (gn_pass_work){0, 0};
}

uint32_t gn_exposure_adapt_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)self, (void)run;
    out[0] = (gn_vk_use){.buffer = &r->pipes.exposure, .access = GN_ACCESS_COMPUTE_WRITE};
    return 1;
}

/* One workgroup; then the state (EV100 shown and metered) into this frame's counters. */
gn_pass_work gn_exposure_adapt_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    exposure_state *s = self;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_bind_pipeline(vk, true, s->adapt.pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, s->adapt.layout, 0, 1, &s->adapt.set, 1, &dyn);
    gn_vk_cmd_dispatch(vk, 1, 1, 1);
    gn_frame_count(r, GN_FEATURE_EXPOSURE, &r->pipes.exposure, 16);
    return (gn_pass_work){0, 0};
}

gn_result gn_exposure_read(gn_renderer *r, gn_gpu_exposure *out, gn_error *err)
{
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    return res ? res
               : gn_vk_read_buffer(&r->vk, &r->pipes.exposure, out, sizeof *out, "exposure readback", err);
}

gn_result gn_exposure_read_hdr(gn_renderer *r, uint16_t *out, gn_error *err)
{
    VkDeviceSize bytes = (VkDeviceSize)r->width * r->height * 8;
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    return res ? res : gn_vk_read_image(&r->vk, r->targets.hdr, bytes, out, bytes, "hdr readback", err);
}

/* The distance debug view (a feature, `--view distance`): after the tone map, each pixel's
 * linear distance from the camera, read from the resolved depth, over the output
 * (shaders/depth_view.comp). The grey ramp spans the distance from the camera to the farthest
 * corner of the scene's bounds (nothing visible lies farther) and the contours fall on a 1-2-5
 * step near a tenth of that, so the view reads alike on a 30 m interior and a 2 km town. */
#include "passes/passes.h"

#include <math.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

typedef struct depth_view_state {
    gn_screen_pass pass;
    bool run; /* this frame asked for the view */
} depth_view_state;

static gn_result write_set(gn_renderer *r, void *self, gn_error *err)
{
    (void)err;
    depth_view_state *s = self;
    gn_vk_write w[GN_BIND_DEPTH_VIEW_COUNT] = {
        gn_write_sampled(GN_BIND_DEPTH_VIEW_DEPTH, r->targets.depth, r->pipes.clamp),
        gn_write_storage_image(GN_BIND_DEPTH_VIEW_OUTPUT, gn_target(r, GN_TARGET_OUTPUT)),
        gn_write_frame(r, GN_BIND_DEPTH_VIEW_FRAME),
    };
    gn_vk_write_set(&r->vk, s->pass.set, w, GN_BIND_DEPTH_VIEW_COUNT);
    return GN_OK;
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    depth_view_state *s = self;
    const gn_vk_binding b[GN_BIND_DEPTH_VIEW_COUNT] = {
        [GN_BIND_DEPTH_VIEW_DEPTH] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_DEPTH_VIEW_OUTPUT] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_DEPTH_VIEW_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
    };
    gn_result res = gn_screen_pass_create(r, &s->pass, "depth_view.comp", "distance view", b,
                                          GN_BIND_DEPTH_VIEW_COUNT, err);
    if (!res) res = write_set(r, self, err);
    return res;
}

/* The step of a 1-2-5 series nearest below x (x > 0). */
static float step_125(float x)
{
    float p = powf(10.0f, floorf(log10f(x)));
    float m = x / p;
    return p * (m >= 5.0f ? 5.0f : m >= 2.0f ? 2.0f : 1.0f);
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)r, (void)err;
    depth_view_state *s = self;
    s->run = in->debug_view == GN_VIEW_DISTANCE;
    if (!s->run) return GN_OK;
    gn_scene_info info;
    gn_scene_get_info(scene, &info);
    float d2 = 0.0f; /* to the farthest corner: each axis's farther bound */
    for (int i = 0; i < 3; i++) {
        float lo = fabsf(info.bounds_min[i] - in->position[i]),
              hi = fabsf(info.bounds_max[i] - in->position[i]);
        float e = info.bounds_max[i] >= info.bounds_min[i] ? (lo > hi ? lo : hi) : 0.0f;
        d2 += e * e;
    }
    float range = d2 > 1.0f ? sqrtf(d2) : 10.0f; /* an empty scene: 10 m */
    g->debug[0] = range;
    g->debug[1] = step_125(range / 10.0f);
    return GN_OK;
}

static void release(gn_renderer *r, void *self)
{
    gn_screen_pass_release(r, &((depth_view_state *)self)->pass);
}

const gn_feature gn_feature_depth_view = {.name = "distance view",
                                          .size = sizeof(depth_view_state),
                                          .create = create,
                                          .resize = write_set,
                                          .plan = plan,
                                          .release = release};

uint32_t gn_depth_view_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const depth_view_state *)self)->run ? 1 : 0;
}

uint32_t gn_depth_view_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)self, (void)run;
    out[0] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OUTPUT), .access = GN_ACCESS_COMPUTE_WRITE};
    return 2;
}

gn_pass_work gn_depth_view_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_screen_pass_dispatch(r, &((depth_view_state *)self)->pass);
    return (gn_pass_work){0, 0};
}

/* The forward pass (a feature): shades each visible opaque or alpha-tested sample once (depth
 * EQUAL against the prepass), then the sky where nothing was drawn, then blended surfaces over
 * both (material order, not sorted by distance); the colour is resolved at the end.
 * One pipeline family a sun technique (forward_csm.frag, forward_vsm.frag, forward_none.frag):
 * each binds only its technique's receiver set (set 2), lent by that feature, beside the frame
 * (0), the material (1) and the local lights' set (3). */
#include "passes/passes.h"

#include <string.h>

enum { SUN_NONE, SUN_CSM, SUN_VSM, SUN_COUNT };

typedef struct forward_state {
    VkPipelineLayout layout[SUN_COUNT];
    VkPipeline opaque[SUN_COUNT], blend[SUN_COUNT], sky[SUN_COUNT];
    uint32_t sun; /* this frame's technique */
} forward_state;

/* The feature that lends set 2 under a technique (none: the empty layout). */
static const gn_feature_id SUN_FEATURE[SUN_COUNT] = {GN_FEATURE_COUNT, GN_FEATURE_CSM, GN_FEATURE_VSM};
static const char *const SUN_SHADER[SUN_COUNT] = {"forward_none.frag", "forward_csm.frag",
                                                  "forward_vsm.frag"};

static void sun_receiver(gn_renderer *r, uint32_t sun, gn_receiver *out)
{
    memset(out, 0, sizeof *out);
    out->layout = r->pipes.empty_layout;
    gn_feature_id id = SUN_FEATURE[sun];
    if (id != GN_FEATURE_COUNT) gn_features[id]->receiver(r, gn_feature_state(r, id), out);
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    forward_state *s = self;
    gn_receiver lights;
    gn_features[GN_FEATURE_LIGHTS]->receiver(r, gn_feature_state(r, GN_FEATURE_LIGHTS), &lights);
    gn_result res = GN_OK;
    for (uint32_t sun = 0; sun < SUN_COUNT && !res; sun++) {
        gn_receiver rc;
        sun_receiver(r, sun, &rc);
        VkDescriptorSetLayout sets[4] = {r->pipes.frame_layout, r->pipes.material_layout, rc.layout,
                                         lights.layout};
        res = gn_vk_pipeline_layout(&r->vk, sets, 4, sizeof(uint32_t), "forward", &s->layout[sun], err);
        gn_vk_graphics_desc g = {
            .vert = "forward.vert",
            .frag = SUN_SHADER[sun],
            .layout = s->layout[sun],
            .vertex_input = true,
            .color_format = VK_FORMAT_R16G16B16A16_SFLOAT,
            .depth_format = VK_FORMAT_D32_SFLOAT,
            .samples = r->msaa,
            .depth_compare = VK_COMPARE_OP_EQUAL, /* shade each visible sample exactly once */
            .depth_write = false,
            .cull = VK_CULL_MODE_BACK_BIT,
            .name = "forward opaque",
        };
        if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &s->opaque[sun], err);
        /* blended surfaces: in front of what the prepass left (reversed-Z: greater is nearer),
         * writing no depth */
        g.depth_compare = VK_COMPARE_OP_GREATER_OR_EQUAL;
        g.alpha_blend = true;
        g.name = "forward blended";
        if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &s->blend[sun], err);
        g.alpha_blend = false;
        g.depth_compare = VK_COMPARE_OP_EQUAL;
        g.vert = "sky.vert";
        g.frag = "sky.frag";
        g.vertex_input = false;
        g.cull = VK_CULL_MODE_NONE;
        g.name = "sky";
        if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &s->sky[sun], err);
    }
    return res;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)r, (void)scene, (void)g, (void)err;
    forward_state *s = self;
    /* the technique whose constants are on this frame; the other one's are zero */
    gn_shadows sh = in->shadows;
    s->sun = sh == GN_SHADOWS_CSM ? SUN_CSM : sh == GN_SHADOWS_VSM ? SUN_VSM : SUN_NONE;
    return GN_OK;
}

static void release(gn_renderer *r, void *self)
{
    forward_state *s = self;
    for (uint32_t sun = 0; sun < SUN_COUNT; sun++) {
        gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->opaque[sun]);
        gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->blend[sun]);
        gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->sky[sun]);
        gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)s->layout[sun]);
    }
}

const gn_feature gn_feature_forward = {
    .name = "forward", .size = sizeof(forward_state), .create = create, .plan = plan, .release = release};

uint32_t gn_forward_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    forward_state *s = self;
    bool ms = r->msaa > 1;
    uint32_t n = 0;
    out[n++] = (gn_vk_use){.image = gn_target(r, GN_TARGET_HDR_MS), .access = GN_ACCESS_COLOR_WRITE};
    out[n++] = (gn_vk_use){.image = ms ? gn_target(r, GN_TARGET_HDR_RESOLVED) : NULL,
                           .access = GN_ACCESS_COLOR_WRITE};
    out[n++] = (gn_vk_use){.image = gn_target(r, GN_TARGET_DEPTH_MS), .access = GN_ACCESS_DEPTH_TEST};
    n += gn_scene_uses(r, out + n);
    out[n++] = (gn_vk_use){.buffer = &r->pipes.exposure, .access = GN_ACCESS_SHADER_READ}; /* pre-exposure */
    gn_receiver rc;
    sun_receiver(r, s->sun, &rc);
    for (uint32_t i = 0; i < rc.use_count; i++) out[n++] = rc.uses[i];
    gn_features[GN_FEATURE_LIGHTS]->receiver(r, gn_feature_state(r, GN_FEATURE_LIGHTS), &rc);
    for (uint32_t i = 0; i < rc.use_count; i++) out[n++] = rc.uses[i];
    return n;
}

gn_pass_work gn_forward_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    forward_state *s = self;
    gn_vk *vk = &r->vk;
    bool ms = r->msaa > 1;
    VkPipelineLayout layout = s->layout[s->sun];
    gn_vk_rendering ri = {
        .color = {.image = gn_target(r, GN_TARGET_HDR_MS),
                  .resolve = ms ? gn_target(r, GN_TARGET_HDR_RESOLVED) : NULL,
                  .clear = true,
                  .discard = ms},
        .depth = {.image = gn_target(r, GN_TARGET_DEPTH_MS), .clear = false, .discard = false},
        .width = r->width,
        .height = r->height,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    gn_vk_cmd_bind_pipeline(vk, false, s->opaque[s->sun]);
    gn_bind_view_frame(r, layout, &r->plan.camera);
    gn_receiver sun, lights;
    sun_receiver(r, s->sun, &sun);
    gn_features[GN_FEATURE_LIGHTS]->receiver(r, gn_feature_state(r, GN_FEATURE_LIGHTS), &lights);
    if (sun.set) gn_vk_cmd_bind_sets(vk, false, layout, GN_SET_SUN, 1, &sun.set, 0, NULL);
    gn_vk_cmd_bind_sets(vk, false, layout, GN_SET_LIGHTS, 1, &lights.set, 0, NULL);
    const gn_draw_list *list = r->plan.camera_list;
    uint32_t first, count, first_group;
    gn_draw_list_range(list, GN_DRAW_OPAQUE, GN_DRAW_MASK, &first, &count, &first_group);
    uint32_t draws = gn_draw_materials(r, &r->plan.camera, list, first, count, layout);
    gn_vk_cmd_bind_pipeline(vk, false, s->sky[s->sun]);
    gn_vk_cmd_draw(vk, 3);
    /* blended surfaces over everything else, sky included; they test depth but write none */
    gn_draw_list_range(list, GN_DRAW_BLEND, GN_DRAW_BLEND, &first, &count, &first_group);
    if (count) {
        gn_vk_cmd_bind_pipeline(vk, false, s->blend[s->sun]);
        draws += gn_draw_materials(r, &r->plan.camera, list, first, count, layout);
    }
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){draws + 1, r->plan.camera.triangles + 1};
}

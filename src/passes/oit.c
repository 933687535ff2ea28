/* Weighted blended order-independent transparency (a feature; McGuire and Bavoil 2013, JCGT 2(2);
 * docs/EFFECTS.md), the A/B to the sorted blended pass (gn_frame_desc.transparency):
 *
 *   oit accumulate  the blended surfaces drawn once, in any order, by the forward shader's OIT
 *                   variants (forward_*_oit.frag) into two targets at the frame's samples, over the
 *                   prepass's depth (tested, not written): GN_TARGET_OIT_ACCUM adds (c a w, a w),
 *                   GN_TARGET_OIT_REVEAL multiplies by 1 - a (one pipeline, two attachments,
 *                   each with its own blend: one shading of each fragment, where drawing the list
 *                   twice into one target each would shade it twice)
 *   oit composite   a full-screen triangle blends sum(c a w) / sum(a w) over the HDR colour with
 *                   alpha 1 - prod(1 - a) (oit_composite.glsl), then resolves
 *
 * The weight w is shaders/shared/oit.h's. A Quake 3 shader drawn with dual-source blending
 * (fb * d + p, a colour per channel of what lies behind) has no single alpha to weigh: those stay
 * sorted, drawn after the composite by the forward blended pass (forward.c). The pipelines, the
 * set and the two targets are made by the first frame that asks for OIT. */
#include "passes/passes.h"

#include <string.h>

#define FS VK_SHADER_STAGE_FRAGMENT_BIT

typedef struct oit_state {
    VkPipelineLayout layout[GN_FORWARD_TECHNIQUES]; /* the forward pass's sets */
    VkPipeline accumulate[GN_FORWARD_TECHNIQUES];
    VkDescriptorSetLayout set_layout; /* the composite's: the two targets */
    VkPipelineLayout composite_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline composite;
    uint32_t sun; /* this frame's technique */
    bool on;      /* this frame draws blended surfaces through OIT */
    bool warned;  /* a device without independent blending was reported */
} oit_state;

static const char *const OIT_SHADER[GN_FORWARD_TECHNIQUES] = {"forward_none_oit.frag", "forward_csm_oit.frag",
                                                              "forward_vsm_oit.frag"};

/* The pass state of the accumulation's draws: each material's culling and bias; the depth test is
 * the pipeline's (GREATER_OR_EQUAL, never written: a write would hide what a later draw would have
 * added, which is an order). */
static const gn_pass_state OIT_STATE = {.pass = 0};

static gn_result make_composite(gn_renderer *r, oit_state *s, gn_error *err)
{
    gn_vk *vk = &r->vk;
    const gn_vk_binding b[GN_BIND_OIT_COUNT] = {
        [GN_BIND_OIT_ACCUM] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
        [GN_BIND_OIT_REVEAL] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
    };
    gn_result res = gn_vk_set_layout(vk, b, GN_BIND_OIT_COUNT, "oit composite set", &s->set_layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &s->set_layout, 1, 0, "oit composite", &s->composite_layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 1, "oit composite", &s->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, s->pool, s->set_layout, "oit composite", &s->set, err);
    gn_vk_graphics_desc g = {
        .vert = "floor_fill.vert", /* a full-screen triangle, no outputs */
        .frag = r->msaa > 1 ? "oit_composite_ms.frag" : "oit_composite.frag",
        .layout = s->composite_layout,
        .color_format = VK_FORMAT_R16G16B16A16_SFLOAT,
        .samples = r->msaa,
        .cull = VK_CULL_MODE_NONE,
        .blend = {GN_VK_BLEND_ALPHA}, /* average * (1 - reveal) + opaque * reveal */
        .name = "oit composite",
    };
    if (!res) res = gn_vk_graphics_pipeline(vk, &g, &s->composite, err);
    return res;
}

static gn_result make_accumulate(gn_renderer *r, oit_state *s, uint32_t sun, gn_error *err)
{
    gn_result res = GN_OK;
    if (!s->layout[sun]) res = gn_forward_layout(r, sun, "oit accumulate", &s->layout[sun], err);
    gn_vk_graphics_desc g = {
        .vert = "forward.vert",
        .frag = OIT_SHADER[sun],
        .layout = s->layout[sun],
        .vertex_input = true,
        .color_format = VK_FORMAT_R16G16B16A16_SFLOAT,
        .color_format1 = VK_FORMAT_R16_SFLOAT,
        .blend = {GN_VK_BLEND_ADD, GN_VK_BLEND_REVEAL},
        .depth_format = VK_FORMAT_D32_SFLOAT,
        .samples = r->msaa,
        .depth_compare = VK_COMPARE_OP_GREATER_OR_EQUAL, /* in front of the opaque scene (reversed-Z) */
        .depth_write = false,
        .dynamic_raster = true, /* each material's culling and bias */
        .name = "oit accumulate",
    };
    if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &s->accumulate[sun], err);
    return res;
}

/* The composite's set, naming this size's targets (made again after a resize). */
static void write_set(gn_renderer *r, oit_state *s)
{
    gn_vk_write w[GN_BIND_OIT_COUNT] = {
        gn_write_sampled(GN_BIND_OIT_ACCUM, gn_target(r, GN_TARGET_OIT_ACCUM), r->pipes.clamp),
        gn_write_sampled(GN_BIND_OIT_REVEAL, gn_target(r, GN_TARGET_OIT_REVEAL), r->pipes.clamp),
    };
    gn_vk_write_set(&r->vk, s->set, w, GN_BIND_OIT_COUNT);
}

/* Whether the blended list has a surface OIT draws: one not drawn with dual-source blending. */
static bool has_weighted(const gn_renderer *r)
{
    const gn_draw_list *list = &r->plan.blend_list;
    if (!list->instance_count) return false;
    for (uint32_t b = 0; b < list->batch_count; b++)
        if (!gn_forward_q3_dual(r, list->batches[b].material)) return true;
    return false;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)scene, (void)g;
    oit_state *s = self;
    s->on = false;
    if (in->transparency != GN_TRANSPARENCY_OIT || !has_weighted(r)) return GN_OK;
    if (!r->vk.independent_blend) { /* every desktop device has it; without, the sorted pass draws */
        if (!s->warned) gn_vk_log(&r->vk, GN_LOG_WARN, "transparency oit: no independentBlend, drawn sorted");
        s->warned = true;
        return GN_OK;
    }
    s->sun = gn_forward_technique(in->shadows);
    gn_result res = s->composite ? GN_OK : make_composite(r, s, err);
    if (!res && !s->accumulate[s->sun]) res = make_accumulate(r, s, s->sun, err);
    bool made_accum = false, made_reveal = false;
    if (!res) res = gn_target_ensure(r, GN_TARGET_OIT_ACCUM, &made_accum, err);
    if (!res) res = gn_target_ensure(r, GN_TARGET_OIT_REVEAL, &made_reveal, err);
    /* made now (the first OIT frame, or the first after a resize, which waited for the GPU): no
       frame in flight reads the set */
    if (!res && (made_accum || made_reveal)) write_set(r, s);
    s->on = !res;
    return res;
}

static void release(gn_renderer *r, void *self)
{
    oit_state *s = self;
    gn_vk *vk = &r->vk;
    for (uint32_t sun = 0; sun < GN_FORWARD_TECHNIQUES; sun++) {
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->accumulate[sun]);
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)s->layout[sun]);
    }
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->composite);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)s->composite_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)s->pool);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)s->set_layout);
}

const gn_feature gn_feature_oit = {
    .name = "oit", .size = sizeof(oit_state), .plan = plan, .release = release};

bool gn_oit_on(const gn_renderer *r) { return ((const oit_state *)r->state[GN_FEATURE_OIT])->on; }

uint32_t gn_oit_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const oit_state *)self)->on ? 1 : 0;
}

uint32_t gn_oit_accumulate_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    oit_state *s = self;
    uint32_t n = 0;
    out[n++] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OIT_ACCUM), .access = GN_ACCESS_COLOR_WRITE};
    out[n++] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OIT_REVEAL), .access = GN_ACCESS_COLOR_WRITE};
    out[n++] = (gn_vk_use){.image = gn_target(r, GN_TARGET_DEPTH_MS), .access = GN_ACCESS_DEPTH_TEST};
    n += gn_scene_uses(r, out + n);
    out[n++] = (gn_vk_use){.buffer = &r->pipes.exposure, .access = GN_ACCESS_SHADER_READ}; /* pre-exposure */
    out[n++] = (gn_vk_use){.buffer = &r->scene.stages, .access = GN_ACCESS_SHADER_READ}; /* Quake 3 stages */
    return n + gn_forward_receiver_uses(r, s->sun, out + n);
}

/* Every blended surface that is not a dual-source Quake 3 shader's, in the list's order (which
 * changes nothing but the order the adds round in). */
gn_pass_work gn_oit_accumulate_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    oit_state *s = self;
    gn_vk *vk = &r->vk;
    VkPipelineLayout layout = s->layout[s->sun];
    gn_vk_rendering ri = {
        .color = {.image = gn_target(r, GN_TARGET_OIT_ACCUM), .clear = true}, /* sums from 0 */
        .color1 = {.image = gn_target(r, GN_TARGET_OIT_REVEAL), .clear = true, .clear_value = {1, 1, 1, 1}},
        .depth = {.image = gn_target(r, GN_TARGET_DEPTH_MS)},
        .width = r->width,
        .height = r->height,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    gn_vk_cmd_bind_pipeline(vk, false, s->accumulate[s->sun]);
    gn_bind_view_frame(r, layout, &r->plan.blend_view);
    gn_forward_bind_receivers(r, s->sun, layout);
    const gn_draw_list *list = &r->plan.blend_list;
    uint32_t draws = 0;
    for (uint32_t b = 0; b < list->batch_count;) {
        bool dual = gn_forward_q3_dual(r, list->batches[b].material);
        uint32_t e = b + 1;
        while (e < list->batch_count && gn_forward_q3_dual(r, list->batches[e].material) == dual) e++;
        if (!dual) draws += gn_draw_materials(r, &r->plan.blend_view, list, b, e - b, layout, &OIT_STATE);
        b = e;
    }
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){draws, r->plan.blend_view.triangles};
}

uint32_t gn_oit_composite_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)self, (void)run;
    bool ms = r->msaa > 1;
    out[0] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OIT_ACCUM), .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OIT_REVEAL), .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.image = gn_target(r, GN_TARGET_HDR_MS), .access = GN_ACCESS_COLOR_WRITE};
    out[3] = (gn_vk_use){.image = ms ? gn_target(r, GN_TARGET_HDR_RESOLVED) : NULL,
                         .access = GN_ACCESS_COLOR_WRITE};
    return 4;
}

/* The weighted average over the HDR colour, resolved; the multisampled colour is kept when the
 * forward blended pass draws dual-source Quake 3 shaders over it next. */
gn_pass_work gn_oit_composite_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    oit_state *s = self;
    gn_vk *vk = &r->vk;
    bool ms = r->msaa > 1;
    gn_vk_rendering ri = {
        .color = {.image = gn_target(r, GN_TARGET_HDR_MS),
                  .resolve = ms ? gn_target(r, GN_TARGET_HDR_RESOLVED) : NULL,
                  .discard = ms && !gn_forward_blended_runs(r, gn_feature_state(r, GN_FEATURE_FORWARD))},
        .width = r->width,
        .height = r->height,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    gn_vk_cmd_bind_pipeline(vk, false, s->composite);
    gn_vk_cmd_bind_sets(vk, false, s->composite_layout, 0, 1, &s->set, 0, NULL);
    gn_vk_cmd_draw(vk, 3);
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){1, 1};
}

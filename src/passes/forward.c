/* The forward pass (a feature): shades each visible opaque or alpha-tested sample once (depth
 * EQUAL against the prepass), then the sky where nothing was drawn, and resolves the colour;
 * when the frame has blended surfaces, the opaque scene's resolved colour and depth are copied
 * (GN_TARGET_OPAQUE_*, for passes that read what lies behind them) and the blended surfaces
 * draw over it in a second pass (back to front, plan.c), resolved again. With weighted blended
 * OIT (src/passes/oit.c) that pass draws only the Quake 3 shaders blended with two sources, after
 * OIT's composite, still sorted.
 * One pipeline family a sun technique (forward_csm.frag, forward_vsm.frag, forward_none.frag):
 * each binds only its technique's receiver set (set 2), lent by that feature, beside the frame
 * (0), the material (1), the local lights' set (3), the screen passes' (4: ambient
 * occlusion), the image-based light's (5: the environment, the DFG table and the atmosphere's
 * tables) and volumetric fog's (6: its integrated froxels). */
#include "passes/forward.h"
#include "decide/tfx.h"
#include "passes/passes.h"

#include <string.h>

enum { SUN_NONE, SUN_CSM, SUN_VSM, SUN_COUNT };
_Static_assert(SUN_COUNT == GN_FORWARD_TECHNIQUES, "passes.h counts the techniques");

typedef struct forward_state {
    VkPipelineLayout layout[SUN_COUNT];
    VkPipeline opaque[SUN_COUNT], blend[SUN_COUNT], sky[SUN_COUNT];
    VkPipeline q3_blend[SUN_COUNT]; /* Quake 3 blended shaders: dual-source (NULL without the feature) */
    uint32_t sun;                   /* this frame's technique */
} forward_state;

/* The feature that lends set 2 under a technique (none: the empty layout). */
static const gn_feature_id SUN_FEATURE[SUN_COUNT] = {GN_FEATURE_COUNT, GN_FEATURE_CSM, GN_FEATURE_VSM};
static const char *const SUN_SHADER[SUN_COUNT] = {"forward_none.frag", "forward_csm.frag",
                                                  "forward_vsm.frag"};
static const char *const SUN_SHADER_Q3[SUN_COUNT] = {"forward_none_q3.frag", "forward_csm_q3.frag",
                                                     "forward_vsm_q3.frag"};

static void sun_receiver(gn_renderer *r, uint32_t sun, gn_receiver *out)
{
    memset(out, 0, sizeof *out);
    out->layout = r->pipes.empty_layout;
    gn_feature_id id = SUN_FEATURE[sun];
    if (id != GN_FEATURE_COUNT) gn_features[id]->receiver(r, gn_feature_state(r, id), out);
}

/* The features that lend sets 3..6, in order. */
static const gn_feature_id LENDERS[GN_FORWARD_SETS - 3] = {GN_FEATURE_LIGHTS, GN_FEATURE_AO, GN_FEATURE_IBL,
                                                           GN_FEATURE_VOLUMETRIC};

void gn_forward_receivers(gn_renderer *r, uint32_t technique, gn_receiver rc[GN_FORWARD_SETS - 2])
{
    sun_receiver(r, technique, &rc[0]);
    for (uint32_t k = 0; k < GN_FORWARD_SETS - 3; k++)
        gn_features[LENDERS[k]]->receiver(r, gn_feature_state(r, LENDERS[k]), &rc[1 + k]);
}

gn_result gn_forward_layout(gn_renderer *r, uint32_t technique, const char *name, VkPipelineLayout *out,
                            gn_error *err)
{
    gn_receiver rc[GN_FORWARD_SETS - 2];
    gn_forward_receivers(r, technique, rc);
    VkDescriptorSetLayout sets[GN_FORWARD_SETS] = {r->pipes.frame_layout, r->pipes.material_layout};
    for (uint32_t k = 2; k < GN_FORWARD_SETS; k++) sets[k] = rc[k - 2].layout;
    return gn_vk_pipeline_layout(&r->vk, sets, GN_FORWARD_SETS, sizeof(uint32_t), name, out, err);
}

void gn_forward_bind_receivers(gn_renderer *r, uint32_t technique, VkPipelineLayout layout)
{
    gn_receiver rc[GN_FORWARD_SETS - 2];
    gn_forward_receivers(r, technique, rc);
    for (uint32_t k = 2; k < GN_FORWARD_SETS; k++)
        if (rc[k - 2].set) gn_vk_cmd_bind_sets(&r->vk, false, layout, k, 1, &rc[k - 2].set, 0, NULL);
}

uint32_t gn_forward_receiver_uses(gn_renderer *r, uint32_t technique, gn_vk_use *out)
{
    gn_receiver rc[GN_FORWARD_SETS - 2];
    gn_forward_receivers(r, technique, rc);
    uint32_t n = 0;
    for (uint32_t k = 0; k < GN_FORWARD_SETS - 2; k++)
        for (uint32_t i = 0; i < rc[k].use_count; i++) out[n++] = rc[k].uses[i];
    return n;
}

uint32_t gn_forward_technique(gn_shadows shadows)
{
    return shadows == GN_SHADOWS_CSM ? SUN_CSM : shadows == GN_SHADOWS_VSM ? SUN_VSM : SUN_NONE;
}

/* The pipelines of one sun technique, made the first time a frame uses it: a renderer draws with
 * one technique at a time, and the forward shader is the largest the device compiles (a renderer
 * that never changes technique compiles a third of them; lavapipe spent most of a renderer's
 * creation there). */
static gn_result ensure_technique(gn_renderer *r, forward_state *s, uint32_t sun, gn_error *err)
{
    if (s->opaque[sun]) return GN_OK;
    gn_result res = GN_OK;
    if (!s->layout[sun]) res = gn_forward_layout(r, sun, "forward", &s->layout[sun], err);
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
        .dynamic_raster = true, /* each material's culling and bias (scene_draw.c) */
        .name = "forward opaque",
    };
    /* blended surfaces: in front of what the prepass left (reversed-Z: greater is nearer),
     * writing no depth; a Quake 3 shader's stages compose to fb * d + p: one draw with d as the
     * second source */
    gn_vk_graphics_desc blend = g, q3 = g, sky = g;
    blend.depth_compare = VK_COMPARE_OP_GREATER_OR_EQUAL;
    blend.dynamic_depth = true; /* a stage's depthWrite and depthFunc (BLENDED_STATE) */
    blend.blend[0] = GN_VK_BLEND_ALPHA;
    blend.name = "forward blended";
    q3.depth_compare = VK_COMPARE_OP_GREATER_OR_EQUAL;
    q3.dynamic_depth = true;
    q3.frag = SUN_SHADER_Q3[sun];
    q3.blend[0] = GN_VK_BLEND_DUAL_SOURCE;
    q3.name = "forward Quake 3 blended";
    sky.vert = "sky.vert";
    sky.frag = "sky.frag";
    sky.vertex_input = false;
    sky.dynamic_raster = false;
    sky.dynamic_depth = false;
    sky.cull = VK_CULL_MODE_NONE;
    sky.name = "sky";
    /* made in an order that leaves opaque last: it marks the technique complete */
    if (!res && !s->blend[sun]) res = gn_vk_graphics_pipeline(&r->vk, &blend, &s->blend[sun], err);
    if (!res && r->vk.dual_source && !s->q3_blend[sun])
        res = gn_vk_graphics_pipeline(&r->vk, &q3, &s->q3_blend[sun], err);
    if (!res && !s->sky[sun]) res = gn_vk_graphics_pipeline(&r->vk, &sky, &s->sky[sun], err);
    if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &s->opaque[sun], err);
    return res;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)g;
    forward_state *s = self;
    /* the technique whose constants are on this frame; the other one's are zero */
    s->sun = gn_forward_technique(in->shadows);
    gn_result res = ensure_technique(r, s, s->sun, err);
    /* the Quake 3 stages of the materials in view, for this frame's time */
    if (!res) res = gn_q3_stages_update(r, scene, in->seconds, err);
    gn_frame_stats *rec = gn_frame_record(r);
    rec->materials_ms = r->q3_ms;
    rec->materials_evaluated = r->q3_evaluated;
    return res;
}

static void release(gn_renderer *r, void *self)
{
    forward_state *s = self;
    for (uint32_t sun = 0; sun < SUN_COUNT; sun++) {
        /* a technique never used has none of them (release takes a null handle) */
        gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->opaque[sun]);
        gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->blend[sun]);
        gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->sky[sun]);
        gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->q3_blend[sun]);
        gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)s->layout[sun]);
    }
}

const gn_feature gn_feature_forward = {
    .name = "forward", .size = sizeof(forward_state), .plan = plan, .release = release};

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
    out[n++] = (gn_vk_use){.buffer = &r->scene.stages, .access = GN_ACCESS_SHADER_READ}; /* Quake 3 stages */
    n += gn_forward_receiver_uses(r, s->sun, out + n);
    return n;
}

/* Whether blended surfaces are in view this frame (plan.c's back-to-front list): then the opaque
 * scene is copied and they draw in a second pass over it. */
static bool has_blended(const gn_renderer *r) { return r->plan.blend_list.instance_count > 0; }

/* Begins rendering into the HDR colour (cleared, or loaded for the blended pass) over the
 * prepass's depth, resolving at the end; binds the sets every forward pipeline reads. The
 * multisampled colour is kept for the blended pass when one follows. */
static VkPipelineLayout begin(gn_renderer *r, forward_state *s, bool clear, bool keep)
{
    gn_vk *vk = &r->vk;
    bool ms = r->msaa > 1;
    VkPipelineLayout layout = s->layout[s->sun];
    gn_vk_rendering ri = {
        .color = {.image = gn_target(r, GN_TARGET_HDR_MS),
                  .resolve = ms ? gn_target(r, GN_TARGET_HDR_RESOLVED) : NULL,
                  .clear = clear,
                  .discard = ms && !keep},
        .depth = {.image = gn_target(r, GN_TARGET_DEPTH_MS), .clear = false, .discard = false},
        .width = r->width,
        .height = r->height,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    gn_vk_cmd_bind_pipeline(vk, false, clear ? s->opaque[s->sun] : s->blend[s->sun]);
    gn_bind_view_frame(r, layout, &r->plan.camera);
    gn_forward_bind_receivers(r, s->sun, layout);
    return layout;
}

/* The opaque and alpha-tested surfaces, then the sky where nothing was drawn. */
gn_pass_work gn_forward_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    forward_state *s = self;
    gn_vk *vk = &r->vk;
    /* the multisampled colour is kept when the decals or blended surfaces draw over it */
    VkPipelineLayout layout = begin(r, s, true, has_blended(r) || r->plan.decals);
    const gn_draw_list *list = r->plan.camera_list;
    uint32_t first, count, first_group;
    gn_draw_list_range(list, GN_DRAW_OPAQUE, GN_DRAW_MASK, &first, &count, &first_group);
    /* culled and biased as the prepass drew them: they test EQUAL against its depth */
    uint32_t draws = gn_draw_materials(r, &r->plan.camera, list, first, count, layout, &gn_depth_pass_state);
    gn_vk_cmd_bind_pipeline(vk, false, s->sky[s->sun]);
    /* a map's own sky (its Quake 3 shader's box and clouds: its material's set), else ~0u: the
       atmosphere's */
    uint32_t sky = r->scene.sky_material;
    /* the sky shader names set 1 either way: the sky's material, else the first (every scene has one) */
    gn_vk_cmd_bind_sets(vk, false, layout, GN_SET_MATERIAL, 1,
                        &r->scene.material_sets[sky != UINT32_MAX ? sky : 0], 0, NULL);
    gn_vk_cmd_push(vk, layout, sizeof sky, &sky);
    gn_vk_cmd_draw(vk, 3);
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){draws + 1, r->plan.camera.triangles + 1};
}

/* Whether a material draws with the Quake 3 dual-source pipeline (a shader's stages, on a device
 * that blends with two sources; without, its shader folds them into alpha blending). */
static bool is_q3_dual(const gn_renderer *r, const forward_state *s, uint32_t material)
{
    return s->q3_blend[s->sun] && material < r->scene.material_count && r->scene.stage_flags &&
           r->scene.stage_flags[material];
}

bool gn_forward_q3_dual(const gn_renderer *r, uint32_t material)
{
    return is_q3_dual(r, r->state[GN_FEATURE_FORWARD], material);
}

/* Sorted: whenever blended surfaces are in view; with OIT, when a dual-source one is. */
uint32_t gn_forward_blended_runs(const gn_renderer *r, const void *self)
{
    if (!has_blended(r)) return 0;
    if (!gn_oit_on(r)) return 1;
    const gn_draw_list *list = &r->plan.blend_list;
    for (uint32_t b = 0; b < list->batch_count; b++)
        if (is_q3_dual(r, self, list->batches[b].material)) return 1;
    return 0;
}

/* The opaque scene and the blended passes draw while there are blended surfaces in view. */
uint32_t gn_scene_copy_runs(const gn_renderer *r, const void *self)
{
    (void)self;
    return has_blended(r) ? 1 : 0;
}

/* The opaque scene's resolved colour and depth, copied before blended surfaces cover them. */
uint32_t gn_scene_copy_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)self, (void)run;
    out[0] = (gn_vk_use){.image = r->targets.hdr, .access = GN_ACCESS_TRANSFER_READ};
    out[1] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_TRANSFER_READ};
    out[2] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OPAQUE_COLOR), .access = GN_ACCESS_TRANSFER_WRITE};
    out[3] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OPAQUE_DEPTH), .access = GN_ACCESS_TRANSFER_WRITE};
    return 4;
}

gn_pass_work gn_scene_copy_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)self, (void)run;
    gn_vk_cmd_copy_image(&r->vk, r->targets.hdr, gn_target(r, GN_TARGET_OPAQUE_COLOR));
    gn_vk_cmd_copy_image(&r->vk, r->targets.depth, gn_target(r, GN_TARGET_OPAQUE_DEPTH));
    return (gn_pass_work){0, 0};
}

/* Blended surfaces take each material's culling, polygon offset (a decal's bias toward the
 * viewer keeps it over the wall it lies on) and depth state: by default they test depth and
 * write none; a Quake 3 stage's depthWrite writes it (what later blended surfaces then test),
 * its depthFunc equal tests equal. */
static const gn_pass_state BLENDED_STATE = {
    .pass = GN_STATE_PACK(0, GN_STATE_DEPTH(GN_DEPTH_LEQUAL, true), 0, 0), .depth = true};

/* The blended pass's resources: the forward pass's, with the depth written (depthWrite). */
uint32_t gn_forward_blended_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    uint32_t n = gn_forward_uses(r, self, run, out);
    for (uint32_t i = 0; i < n; i++)
        if (out[i].image == gn_target(r, GN_TARGET_DEPTH_MS)) out[i].access = GN_ACCESS_DEPTH_WRITE;
    return n;
}

/* Blended surfaces over the opaque scene and the sky, back to front within each Quake 3 sort
 * (plan.c's blend list, a view of its own), each with its depth state (BLENDED_STATE); the colour
 * is resolved again. With OIT on, only the dual-source ones (the rest were composited). */
gn_pass_work gn_forward_blended_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    forward_state *s = self;
    VkPipelineLayout layout = begin(r, s, false, false);
    const gn_draw_list *list = &r->plan.blend_list;
    bool oit = gn_oit_on(r);
    gn_bind_view_frame(r, layout, &r->plan.blend_view);
    /* runs of batches by pipeline: a Quake 3 shader's dual-source blend, or alpha blending */
    uint32_t draws = 0;
    for (uint32_t b = 0; b < list->batch_count;) {
        bool q3 = is_q3_dual(r, s, list->batches[b].material);
        uint32_t e = b + 1;
        while (e < list->batch_count && is_q3_dual(r, s, list->batches[e].material) == q3) e++;
        if (q3 || !oit) {
            gn_vk_cmd_bind_pipeline(&r->vk, false, q3 ? s->q3_blend[s->sun] : s->blend[s->sun]);
            draws += gn_draw_materials(r, &r->plan.blend_view, list, b, e - b, layout, &BLENDED_STATE);
        }
        b = e;
    }
    gn_vk_cmd_end_rendering(&r->vk);
    return (gn_pass_work){draws, r->plan.blend_view.triangles};
}

gn_result gn_forward_read_opaque(gn_renderer *r, uint16_t *color, float *depth, gn_error *err)
{
    VkDeviceSize pixels = (VkDeviceSize)r->width * r->height;
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    if (!res && color)
        res = gn_vk_read_image(&r->vk, gn_target(r, GN_TARGET_OPAQUE_COLOR), pixels * 8, color, pixels * 8,
                               "opaque colour readback", err);
    if (!res && depth)
        res = gn_vk_read_image(&r->vk, gn_target(r, GN_TARGET_OPAQUE_DEPTH), pixels * 4, depth, pixels * 4,
                               "opaque depth readback", err);
    return res;
}

/* Depth prepass (a feature): every visible opaque and alpha-tested instance (those cut out by
 * their alpha) into the multisampled D32 depth (reversed-Z, cleared to 0 = infinitely far),
 * resolved (sample 0) for the passes that read depth. Blended surfaces write no depth. With
 * occlusion culling (passes/cull.c) in two phases around the HZB's build. With alpha to coverage
 * (MSAA only) an alpha-tested fragment covers a share of its pixel's samples by its alpha instead
 * of all or none (shaders/mask.glsl); the shadow passes keep the plain test. */
#include "decide/tfx.h"
#include "passes/passes.h"

#include <string.h>

typedef struct depth_state {
    VkPipelineLayout layout; /* the frame set and the material set */
    VkPipeline opaque, masked;
    VkPipeline masked_a2c; /* with msaa: alpha-tested, coverage from alpha (mask_a2c.frag) */
    bool a2c;              /* this frame's alpha-tested surfaces draw with masked_a2c */
} depth_state;

/* The prepass culls back faces and biases nothing unless a material says otherwise (Quake 3's
 * cull and polygonOffset): the forward pass's opaque draws test EQUAL against it, so they take
 * the same state (forward.c). */
const gn_pass_state gn_depth_pass_state = {.pass = 0, .forced = 0};

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    depth_state *s = self;
    VkDescriptorSetLayout sets[2] = {r->pipes.frame_layout, r->pipes.material_layout};
    gn_result res =
        gn_vk_pipeline_layout(&r->vk, sets, 2, sizeof(uint32_t), "depth prepass", &s->layout, err);
    gn_vk_graphics_desc g = {
        .vert = "depth.vert",
        .layout = s->layout,
        .vertex_input = true,
        .attributes = 1u << 0, /* positions only */
        .depth_format = VK_FORMAT_D32_SFLOAT,
        .samples = r->msaa,
        .depth_compare = VK_COMPARE_OP_GREATER, /* reversed-Z: nearer is larger */
        .depth_write = true,
        .dynamic_raster = true, /* each material's culling and bias (gn_depth_pass_state) */
        .name = "depth prepass",
    };
    if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &s->opaque, err);
    /* alpha-tested surfaces: uvs in, and a fragment shader that discards below the cutoff */
    g.vert = "depth_mask.vert";
    g.frag = "mask.frag";
    g.attributes = 1u << 0 | 1u << 3 | 1u << 4; /* positions and both uv sets */
    g.name = "depth prepass, alpha-tested";
    if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &s->masked, err);
    /* under MSAA, alpha to coverage (gn_frame_desc.alpha_to_coverage): the alpha at location 0
       covers that share of the samples; no colour attachment, so only the coverage is kept */
    g.frag = "mask_a2c.frag";
    g.alpha_to_coverage = true;
    g.name = "depth prepass, alpha to coverage";
    if (!res && r->msaa > 1) res = gn_vk_graphics_pipeline(&r->vk, &g, &s->masked_a2c, err);
    return res;
}

/* Alpha to coverage this frame: asked for, and samples to cover. The forward pass then does not
 * alpha-test MASK materials again (its EQUAL test keeps exactly the samples the prepass covered). */
static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)r, (void)scene, (void)err;
    depth_state *s = self;
    s->a2c = in->alpha_to_coverage && s->masked_a2c;
    g->coverage[0] = s->a2c ? 1u : 0u;
    return GN_OK;
}

static void release(gn_renderer *r, void *self)
{
    depth_state *s = self;
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->opaque);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->masked);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->masked_a2c);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)s->layout);
}

const gn_feature gn_feature_depth = {
    .name = "depth prepass", .size = sizeof(depth_state), .create = create, .plan = plan, .release = release};

/* With occlusion culling the prepass is two passes: phase 1 (cleared, not yet resolved) and
 * phase 2 (loaded, resolved); without, one (cleared, resolved). */
static uint32_t uses(gn_renderer *r, bool resolve, gn_vk_use *out)
{
    bool ms = r->msaa > 1;
    out[0] = (gn_vk_use){.image = gn_target(r, GN_TARGET_DEPTH_MS), .access = GN_ACCESS_DEPTH_WRITE};
    out[1] = (gn_vk_use){.image = ms && resolve ? gn_target(r, GN_TARGET_DEPTH_RESOLVED) : NULL,
                         .access = GN_ACCESS_DEPTH_RESOLVE};
    return 2 + gn_scene_uses(r, out + 2);
}

static gn_pass_work record(gn_renderer *r, depth_state *s, const gn_view_draws *d, bool clear, bool resolve)
{
    gn_vk *vk = &r->vk;
    bool ms = r->msaa > 1;
    gn_vk_rendering ri = {
        .depth = {.image = gn_target(r, GN_TARGET_DEPTH_MS),
                  .resolve = ms && resolve ? gn_target(r, GN_TARGET_DEPTH_RESOLVED) : NULL,
                  .clear = clear},
        .width = r->width,
        .height = r->height,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    gn_vk_cmd_bind_pipeline(vk, false, s->opaque);
    gn_bind_view_frame(r, s->layout, d);
    uint32_t draws =
        gn_draw_depth_only(r, d, s->a2c ? s->masked_a2c : s->masked, s->layout, &gn_depth_pass_state);
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){draws, d->triangles};
}

uint32_t gn_depth_prepass_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)self, (void)run;
    return uses(r, !r->plan.occlusion, out);
}

gn_pass_work gn_depth_prepass_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    const gn_frame_plan *p = &r->plan;
    return record(r, self, p->occlusion ? &p->phase[0] : &p->camera, true, !p->occlusion);
}

uint32_t gn_depth_prepass2_runs(const gn_renderer *r, const void *self)
{
    (void)self;
    return r->plan.occlusion ? 1 : 0;
}

uint32_t gn_depth_prepass2_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)self, (void)run;
    return uses(r, true, out);
}

gn_pass_work gn_depth_prepass2_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    return record(r, self, &r->plan.phase[1], false, true);
}

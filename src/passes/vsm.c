/* Sun shadows II: virtual shadow maps (docs/SHADOWS.md). The decisions are decide/vsm.c's, and
 * the GPU makes them in the frame that uses them, with the CPU code as their reference:
 *   MARK (vsm_mark.comp), after the depth prepass: a bit per page some pixel needs;
 *   ALLOC (vsm_alloc.comp): keeps or allocates physical pages, returns stale ones, picks the
 *     dynamic layer's pages and at most page_budget pages to render, new ones first and then
 *     those rendered under the oldest sun, and writes the page table the lookups read;
 *   BIN (vsm_bin.comp): culls casters against those pages into (caster, page) pairs and one
 *     indirect command a draw slot (a mesh of a draw group: opaque, or one alpha-tested
 *     material) that instances the mesh over its pairs;
 *   RENDER: draws every group's slots with one vkCmdDrawIndexedIndirect into a staging array,
 *     a page_texels^2 (128^2) layer a chosen page (the viewport is the page: no clipping beyond the guard
 * band), then copies each layer into its page's tile of the D32 atlas; every other tile keeps its depth. The
 * CPU keeps the sun's versions (the sun is the CPU's), tells ALLOC which static objects changed and where the
 * dynamic casters are, and keeps BIN's caster list in step with the scene. The forward pass samples each page
 * with the light version it was rendered with, and the dynamic tile over it with this frame's light, taking
 * the darker (shaders/vsm.glsl). */
#include "passes/vsm.h"
#include "passes/cull.h"

#include "base/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT
#define VS VK_SHADER_STAGE_VERTEX_BIT
#define MAX_INVALIDATE 256u  /* static spheres a frame; more invalidate every page */
#define MAX_DYNAMIC 4096u    /* dynamic casters placing dynamic-layer pages (ALLOC tests each) */
#define MAX_PAIRS (1u << 24) /* (caster, page) pairs a frame: 16M, 128 MiB; more are counted as overflow */
#define ALLOC_INVALIDATE_ALL 1u
#define ALLOC_DYNAMIC_CHANGED 2u

static uint32_t pages_total(const gn_vsm_gpu *v)
{
    uint32_t n = v->s.virtual_res / v->s.page_texels;
    return v->s.levels * n * n;
}

static gn_result storage(gn_renderer *r, VkDeviceSize size, VkBufferUsageFlags extra, bool host,
                         const char *name, gn_vk_buffer *out, gn_error *err)
{
    gn_vk_buffer_desc d = {.size = size,
                           .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | extra,
                           .host_visible = host,
                           .name = name};
    return gn_vk_buffer_create(&r->vk, &d, out, err);
}

static gn_result create_layouts(gn_renderer *r, gn_error *err)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    gn_vk *vk = &r->vk;
    const VkDescriptorType UBO = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                           SSBO = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    const gn_vk_binding mark[] = {{UBO, CS}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}, {SSBO, CS}};
    const gn_vk_binding alloc[] = {{UBO, CS},  {SSBO, CS}, {SSBO, CS},
                                   {SSBO, CS}, {SSBO, CS}, {SSBO, CS},
                                   {SSBO, CS}, {SSBO, CS}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, CS},
                                   {SSBO, CS}};
    const gn_vk_binding bin[] = {{UBO, CS},  {SSBO, CS}, {SSBO, CS}, {SSBO, CS}, {SSBO, CS},
                                 {SSBO, CS}, {SSBO, CS}, {SSBO, CS}, {SSBO, CS}};
    const gn_vk_binding draw[] = {
        {SSBO, VS}, {SSBO, VS}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT}};
    const VkDescriptorType IMG = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    const VkShaderStageFlags FS = VK_SHADER_STAGE_FRAGMENT_BIT;
    const gn_vk_binding receiver[GN_BIND_VSM_COUNT] = {
        [GN_BIND_VSM_TABLE] = {SSBO, FS}, [GN_BIND_VSM_VERSIONS] = {SSBO, FS},
        [GN_BIND_VSM_ATLAS] = {IMG, FS},  [GN_BIND_VSM_MASK0] = {IMG, FS},
        [GN_BIND_VSM_MASK1] = {IMG, FS},
    };
    gn_result res = gn_vk_set_layout(vk, mark, GN_BIND_MARK_COUNT, "vsm mark set", &v->mark_layout, err);
    if (!res) res = gn_vk_set_layout(vk, alloc, GN_BIND_ALLOC_COUNT, "vsm alloc set", &v->alloc_layout, err);
    if (!res) res = gn_vk_set_layout(vk, bin, GN_BIND_BINV_COUNT, "vsm bin set", &v->bin_layout, err);
    if (!res) res = gn_vk_set_layout(vk, draw, GN_BIND_VSM_DRAW_COUNT, "vsm draw set", &v->draw_layout, err);
    if (!res)
        res = gn_vk_set_layout(vk, receiver, GN_BIND_VSM_COUNT, "set 2: sun (vsm)", &v->receiver_layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &v->mark_layout, 1, 0, "vsm mark", &v->mark_pipeline_layout, err);
    if (!res)
        res = gn_vk_pipeline_layout(vk, &v->alloc_layout, 1, sizeof v->push, "vsm alloc",
                                    &v->alloc_pipeline_layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &v->bin_layout, 1, 24, "vsm bin", &v->bin_pipeline_layout, err);
    /* the casters' pipelines: the frame, the material (alpha-tested ones), the pages and pairs */
    VkDescriptorSetLayout sets[3] = {r->pipes.frame_layout, r->pipes.material_layout, v->draw_layout};
    if (!res) res = gn_vk_pipeline_layout(vk, sets, 3, 0, "vsm draw", &v->draw_pipeline_layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 2 * GN_FRAMES_IN_FLIGHT + 3, "vsm", &v->set_pool, err);
    if (!res)
        res = gn_vk_alloc_set(vk, v->set_pool, v->receiver_layout, "set 2: sun (vsm)", &v->receiver, err);
    for (uint32_t k = 0; !res && k < GN_FRAMES_IN_FLIGHT; k++) {
        res = gn_vk_alloc_set(vk, v->set_pool, v->mark_layout, "vsm mark", &v->mark_sets[k], err);
        if (!res)
            res = gn_vk_alloc_set(vk, v->set_pool, v->alloc_layout, "vsm alloc", &v->alloc_sets[k], err);
    }
    if (!res) res = gn_vk_alloc_set(vk, v->set_pool, v->bin_layout, "vsm bin", &v->bin_set, err);
    if (!res) res = gn_vk_alloc_set(vk, v->set_pool, v->draw_layout, "vsm draw", &v->draw_set, err);
    return res;
}

static gn_result create_pipelines(gn_renderer *r, const gn_renderer_desc *rd, gn_error *err)
{
    /* the sun's casters have the sun cascades' bias, whichever technique renders them */
    float bias_constant, bias_slope;
    gn_csm_caster_bias(&rd->csm, &bias_constant, &bias_slope);
    gn_vsm_gpu *v = gn_vsm_of(r);
    gn_vk *vk = &r->vk;
    gn_result res = gn_vk_compute_pipeline(vk, "vsm_mark.comp", v->mark_pipeline_layout, "vsm mark",
                                           &v->mark_pipeline, err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "vsm_alloc.comp", v->alloc_pipeline_layout, "vsm alloc",
                                     &v->alloc_pipeline, err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "vsm_bin.comp", v->bin_pipeline_layout, "vsm bin", &v->bin_pipeline,
                                     err);
    /* each staging layer into its page's tile, whatever the tile held */
    gn_vk_graphics_desc g = {
        .vert = "vsm_copy.vert",
        .frag = "vsm_copy.frag",
        .layout = v->draw_pipeline_layout,
        .depth_format = VK_FORMAT_D32_SFLOAT,
        .samples = 1,
        .depth_compare = VK_COMPARE_OP_ALWAYS,
        .depth_write = true,
        .cull = VK_CULL_MODE_NONE,
        .name = "vsm tile copy",
    };
    if (!res) res = gn_vk_graphics_pipeline(vk, &g, &v->copy_pipeline, err);
    /* casters as the cascades draw them (src/passes/csm.c): both faces, depth clamped onto the
     * near plane, the same slope-scaled bias in texels of the page */
    g = (gn_vk_graphics_desc){
        .vert = "vsm_page.vert",
        .layout = v->draw_pipeline_layout,
        .vertex_input = true,
        .attributes = 1u << 0,
        .depth_format = VK_FORMAT_D32_SFLOAT,
        .samples = 1,
        .depth_compare = VK_COMPARE_OP_LESS,
        .depth_write = true,
        .cull = VK_CULL_MODE_NONE,
        .name = "vsm casters",
        .depth_clamp = true,
        .bias_constant = bias_constant,
        .bias_slope = bias_slope,
    };
    if (!res) res = gn_vk_graphics_pipeline(vk, &g, &v->page_pipeline, err);
    g.vert = "vsm_page_mask.vert";
    g.frag = "mask.frag";
    g.attributes = 1u << 0 | 1u << 3 | 1u << 4; /* positions and both uv sets */
    g.name = "vsm casters, alpha-tested";
    if (!res) res = gn_vk_graphics_pipeline(vk, &g, &v->page_mask_pipeline, err);
    return res;
}

/* The sets that name the buffers BIN and RENDER use; after those buffers are made again. */
static void write_bin_sets(gn_renderer *r)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    gn_vk_write b[GN_BIND_BINV_COUNT] = {
        gn_write_frame(r, GN_BIND_BINV_FRAME),
        gn_write_storage(GN_BIND_BINV_RENDER, &v->render),
        gn_write_storage(GN_BIND_BINV_CASTERS, &v->casters),
        gn_write_storage(GN_BIND_BINV_SLOTS, &v->slots),
        gn_write_storage(GN_BIND_BINV_COMMANDS, &v->commands),
        gn_write_storage(GN_BIND_BINV_PAIRS, &v->pairs),
        gn_write_storage(GN_BIND_BINV_COUNTS, &v->counts),
        gn_write_storage(GN_BIND_BINV_STATS, &v->stats),
        gn_write_storage(GN_BIND_BINV_HZB, &v->occlusion.hzb),
    };
    gn_vk_write_set(&r->vk, v->bin_set, b, GN_BIND_BINV_COUNT);
    gn_vk_write d[GN_BIND_VSM_DRAW_COUNT] = {
        gn_write_storage(GN_BIND_VSM_DRAW_RENDER, &v->render),
        gn_write_storage(GN_BIND_VSM_DRAW_PAIRS, &v->pairs),
        gn_write_sampled(GN_BIND_VSM_DRAW_STAGING, &v->staging, r->pipes.clamp)};
    gn_vk_write_set(&r->vk, v->draw_set, d, GN_BIND_VSM_DRAW_COUNT);
}

static void write_alloc_sets(gn_renderer *r)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    for (uint32_t k = 0; k < GN_FRAMES_IN_FLIGHT; k++) {
        gn_vk_write w[GN_BIND_ALLOC_COUNT] = {
            gn_write_frame(r, GN_BIND_ALLOC_FRAME),
            gn_write_storage(GN_BIND_ALLOC_REQUESTS, &v->requests[k]),
            gn_write_storage(GN_BIND_ALLOC_STATE, &v->state),
            gn_write_storage(GN_BIND_ALLOC_POOL, &v->pool),
            gn_write_storage(GN_BIND_ALLOC_RENDER, &v->render),
            gn_write_storage(GN_BIND_ALLOC_TABLE, &v->table),
            gn_write_storage(GN_BIND_ALLOC_VERSIONS, &v->versions_buf),
            gn_write_storage(GN_BIND_ALLOC_STATS, &v->stats),
            {.binding = GN_BIND_ALLOC_INPUTS,
             .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
             .buffer = r->vk.ring.buffer,
             .range = (MAX_INVALIDATE + MAX_DYNAMIC) * 16},
            gn_write_storage(GN_BIND_ALLOC_INDIRECT, &v->indirect),
        };
        gn_vk_write_set(&r->vk, v->alloc_sets[k], w, GN_BIND_ALLOC_COUNT);
    }
}

static gn_result write_target_sets(gn_renderer *r, void *self, gn_error *err);

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *rd, gn_error *err)
{
    gn_vsm_gpu *v = self;
    const gn_vsm_desc *desc = &rd->vsm;
    gn_vsm_settings s = gn_vsm_resolve(desc);
    if (s.levels > GN_VSM_MAX_LEVELS || s.virtual_res % s.page_texels || s.virtual_res < 1024 ||
        s.virtual_res > 16384)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "vsm: %u levels (1..%u) of %u texels (1024..16384, a multiple of %u)", s.levels,
                       GN_VSM_MAX_LEVELS, s.virtual_res, s.page_texels);
    if (s.page_budget > GN_VK_MAX_LAYERS) /* a staging layer a page */
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "vsm: a page budget of %u (at most %u)", s.page_budget,
                       GN_VK_MAX_LAYERS);
    v->s = s;
    /* the dynamic layer shares the budget, so it never needs more tiles than that */
    v->dyn_capacity = s.dynamic_pages;
    /* the atlas holds the pool's pages, then the dynamic layer's */
    uint32_t per_row = (uint32_t)ceil(sqrt((double)s.pool_pages + v->dyn_capacity));
    if (s.pool_pages < 4 || per_row * s.page_texels > r->vk.props.limits.maxImageDimension2D)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "vsm: a pool of %u pages needs a %u^2 atlas (device: %u)", s.pool_pages,
                       per_row * s.page_texels, r->vk.props.limits.maxImageDimension2D);
    v->atlas_pages_per_row = per_row;
    /* receivers move 0.9 texel of their page along the normal: of 0.75, 0.9, 1, 1.25 and 1.5 the
     * best agreement with the ray-traced truth on the town (docs/SHADOWS.md) */
    v->bias_texels = 0.9f;
    uint32_t n = s.virtual_res / s.page_texels, total = s.levels * n * n;
    gn_vk_image_desc ad = {
        .width = per_row * s.page_texels,
        .height = per_row * s.page_texels,
        .samples = 1,
        .format = VK_FORMAT_D32_SFLOAT,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
        .name = "vsm page atlas",
    };
    gn_result res = gn_vk_image_create(&r->vk, &ad, &v->atlas, err);
    gn_vk_image_desc sd = {
        .width = s.page_texels,
        .height = s.page_texels,
        .samples = 1,
        .format = VK_FORMAT_D32_SFLOAT,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT, /* gn_vsm_read */
        .name = "vsm page staging",
        .layers = s.page_budget,
        .array = true,
    };
    if (!res) res = gn_vk_image_create(&r->vk, &sd, &v->staging, err);
    const VkBufferUsageFlags IND = VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    if (!res)
        res = storage(r, (VkDeviceSize)total * sizeof(gn_gpu_vsm_page), 0, false, "vsm page table", &v->table,
                      err);
    if (!res)
        res = storage(r, (VkDeviceSize)GN_VSM_VERSIONS * 4 * 16, 0, false, "vsm light versions",
                      &v->versions_buf, err);
    for (uint32_t k = 0; !res && k < GN_FRAMES_IN_FLIGHT; k++)
        res = storage(r, (VkDeviceSize)GN_VSM_MASK_WORDS(s.levels, n) * 4, 0, false, "vsm page requests",
                      &v->requests[k], err);
    if (!res)
        res =
            storage(r, (VkDeviceSize)total * sizeof(gn_gpu_vsm_state), 0, false, "vsm pages", &v->state, err);
    if (!res)
        res = storage(r, 16 + (VkDeviceSize)4 * (s.pool_pages + 2 * v->dyn_capacity), 0, false, "vsm pool",
                      &v->pool, err);
    if (!res)
        res = storage(r, 16 + (VkDeviceSize)s.page_budget * sizeof(gn_gpu_vsm_render), 0, false,
                      "vsm render list", &v->render, err);
    if (!res) res = storage(r, sizeof(gn_gpu_vsm_stats), 0, false, "vsm stats", &v->stats, err);
    if (!res) res = storage(r, 16, IND, false, "vsm tile copy", &v->indirect, err);
    /* BIN's buffers grow with the scene (make_casters); until then, one entry each */
    if (!res) res = storage(r, sizeof(gn_gpu_vsm_caster), 0, false, "vsm casters", &v->casters, err);
    if (!res) res = storage(r, 16, 0, false, "vsm draw slots", &v->slots, err);
    if (!res) res = storage(r, 16, 0, false, "vsm slot counts", &v->counts, err);
    if (!res)
        res =
            storage(r, 2 * sizeof(VkDrawIndexedIndirectCommand), IND, false, "vsm draws", &v->commands, err);
    if (!res) res = storage(r, 8, 0, false, "vsm draw pairs", &v->pairs, err);
    v->pair_capacity = 1;
    if (!res) res = gn_vk_sampler_compare(&r->vk, false, true, true, "vsm compare", &v->atlas_sampler, err);
    if (!res) res = create_layouts(r, err);
    if (!res) res = create_pipelines(r, rd, err);
    const gn_vk_binding view[GN_BIND_ATLAS_VIEW_COUNT] = {
        [GN_BIND_ATLAS_VIEW_ATLAS] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS},
        [GN_BIND_ATLAS_VIEW_OUTPUT] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_ATLAS_VIEW_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
    };
    if (!res)
        res = gn_screen_pass_create(r, &v->atlas_view, "vsm_atlas_view.comp", "vsm atlas view", view,
                                    GN_BIND_ATLAS_VIEW_COUNT, err);
    if (!res) res = gn_vsm_resolve_create(r, v, err);
    if (!res) res = gn_vsm_occlusion_create(r, v, err);
    if (res) return res;
    write_target_sets(r, v, NULL);
    write_alloc_sets(r);
    write_bin_sets(r);
    return GN_OK;
}

/* The sets that name the render targets: MARK's (depth), the receiver set (RESOLVE's masks),
 * the atlas view's (the output) and RESOLVE's; at create and after a resize. */
static gn_result write_target_sets(gn_renderer *r, void *self, gn_error *err)
{
    (void)err;
    gn_vsm_gpu *v = self;
    for (uint32_t k = 0; k < GN_FRAMES_IN_FLIGHT; k++) {
        gn_vk_write w[GN_BIND_MARK_COUNT] = {
            gn_write_frame(r, GN_BIND_MARK_FRAME),
            gn_write_sampled(GN_BIND_MARK_DEPTH, r->targets.depth, r->pipes.clamp),
            gn_write_storage(GN_BIND_MARK_REQUESTS, &v->requests[k]),
        };
        gn_vk_write_set(&r->vk, v->mark_sets[k], w, GN_BIND_MARK_COUNT);
    }
    gn_vk_write rw[GN_BIND_VSM_COUNT] = {
        gn_write_storage(GN_BIND_VSM_TABLE, &v->table),
        gn_write_storage(GN_BIND_VSM_VERSIONS, &v->versions_buf),
        gn_write_sampled(GN_BIND_VSM_ATLAS, &v->atlas, v->atlas_sampler),
        gn_write_sampled(GN_BIND_VSM_MASK0, gn_target(r, GN_TARGET_VSM_MASK0), r->pipes.clamp),
        gn_write_sampled(GN_BIND_VSM_MASK1, gn_target(r, GN_TARGET_VSM_MASK1), r->pipes.clamp),
    };
    gn_vk_write_set(&r->vk, v->receiver, rw, GN_BIND_VSM_COUNT);
    gn_vk_write aw[GN_BIND_ATLAS_VIEW_COUNT] = {
        gn_write_sampled(GN_BIND_ATLAS_VIEW_ATLAS, &v->atlas, r->pipes.clamp),
        gn_write_storage_image(GN_BIND_ATLAS_VIEW_OUTPUT, gn_target(r, GN_TARGET_OUTPUT)),
        gn_write_frame(r, GN_BIND_ATLAS_VIEW_FRAME),
    };
    gn_vk_write_set(&r->vk, v->atlas_view.set, aw, GN_BIND_ATLAS_VIEW_COUNT);
    gn_vsm_resolve_write_sets(r, v);
    v->resolve.have_prev = false; /* new masks hold no history */
    return GN_OK;
}

static void release(gn_renderer *r, void *self)
{
    gn_vsm_gpu *v = self;
    gn_vsm_resolve_release(r, v);
    gn_vsm_occlusion_release(r, v);
    gn_screen_pass_release(r, &v->atlas_view);
    gn_vk *vk = &r->vk;
    gn_vk_image_release(vk, &v->atlas);
    gn_vk_image_release(vk, &v->staging);
    gn_vk_buffer *buffers[] = {&v->table,  &v->versions_buf, &v->state,    &v->pool,
                               &v->render, &v->stats,        &v->indirect, &v->casters,
                               &v->slots,  &v->counts,       &v->commands, &v->pairs};
    for (size_t k = 0; k < sizeof buffers / sizeof buffers[0]; k++) gn_vk_buffer_release(vk, buffers[k]);
    for (uint32_t k = 0; k < GN_FRAMES_IN_FLIGHT; k++) gn_vk_buffer_release(vk, &v->requests[k]);
    VkPipeline pipes[] = {v->mark_pipeline, v->alloc_pipeline, v->bin_pipeline,
                          v->copy_pipeline, v->page_pipeline,  v->page_mask_pipeline};
    for (size_t k = 0; k < sizeof pipes / sizeof pipes[0]; k++)
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)pipes[k]);
    VkPipelineLayout layouts[] = {v->mark_pipeline_layout, v->alloc_pipeline_layout, v->bin_pipeline_layout,
                                  v->draw_pipeline_layout};
    for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; k++)
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)layouts[k]);
    VkDescriptorSetLayout sets[] = {v->mark_layout, v->alloc_layout, v->bin_layout, v->draw_layout,
                                    v->receiver_layout};
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++)
        gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)sets[k]);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)v->set_pool);
    gn_vk_release(vk, VK_OBJECT_TYPE_SAMPLER, (uint64_t)(uintptr_t)v->atlas_sampler);
    free(v->casters_cpu);
}

static uint32_t slot_index(const gn_renderer *r)
{
    return (uint32_t)(r->vk.frame_number % GN_FRAMES_IN_FLIGHT);
}

/* The first contents of ALLOC's state: no page resident, every pool page free (handed out
 * from the top of the stack: page 0 first), no dynamic page list rendered. */
static gn_result initialize(gn_renderer *r, gn_error *err)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    uint32_t total = pages_total(v), pool = v->s.pool_pages;
    size_t state_bytes = (size_t)total * sizeof(gn_gpu_vsm_state);
    size_t pool_words = 4 + (size_t)pool + 2 * v->dyn_capacity;
    gn_gpu_vsm_state *pages = gn_malloc(state_bytes);
    uint32_t *lists = gn_calloc(pool_words, sizeof *lists);
    if (!pages || !lists) {
        free(pages);
        free(lists);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "vsm: out of memory");
    }
    for (uint32_t k = 0; k < total; k++) {
        memset(&pages[k], 0, sizeof pages[k]);
        pages[k].a[2] = GN_GPU_VSM_NONE;
    }
    lists[0] = pool;
    lists[1] = ~0u;
    for (uint32_t k = 0; k < pool; k++) lists[4 + k] = pool - 1 - k;
    gn_result res = gn_vk_upload_buffer(&r->vk, &v->state, 0, pages, state_bytes, err);
    if (!res) res = gn_vk_upload_buffer(&r->vk, &v->pool, 0, lists, pool_words * 4, err);
    free(pages);
    free(lists);
    v->initialized = !res;
    return res;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A buffer of BIN's that grows with the scene; the sets naming it are written again by the
 * caller. A scene change, the only time they grow, has waited for the GPU (gn_gpu_scene_sync). */
static gn_result grow(gn_renderer *r, gn_vk_buffer *b, VkDeviceSize size, VkBufferUsageFlags extra,
                      const char *name, bool *grown, gn_error *err)
{
    if (size <= b->size) return GN_OK;
    gn_vk_buffer_release(&r->vk, b);
    *grown = true;
    return storage(r, size, extra, false, name, b, err);
}

/* BIN's casters from the scene: every instance but blended ones, static first and dynamic
 * last (so a moving object re-uploads only the tail), each in its draw group (opaque, or its
 * alpha-tested material) and its draw slot: one (group, mesh) pair, slots ordered by group, so
 * each group's slots are one run of indirect commands. */
static gn_result make_casters(gn_renderer *r, const gn_scene *s, gn_error *err)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    uint32_t count = s->instance_count;
    if (count > v->caster_cap) {
        gn_gpu_vsm_caster *grown = gn_realloc(v->casters_cpu, (size_t)count * sizeof *grown);
        if (!grown) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "vsm: out of memory for %u casters", count);
        v->casters_cpu = grown;
        v->caster_cap = count;
    }
    /* the casters' LODs, when the frame draws them: an opaque caster whose mesh has one gets a
     * second slot (its LOD's range, after the group's own slots), chosen page by page in BIN */
    uint32_t lod_generation = 0;
    const gn_caster_lods *lods =
        r->in.caster_lod ? gn_cull_caster_lods(r, &v->lod_indices, &lod_generation) : NULL;
    v->lods = lods != NULL, v->lod_generation = lod_generation;
    uint64_t *keys = gn_malloc(((size_t)count * 2 + 1) * sizeof *keys);
    if (!keys) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "vsm: out of memory for %u casters", count);
    uint32_t m = 0, lod_keys = 0;
#define LOD_KEY (1ull << 31) /* a slot's key: group << 32 | mesh, this bit for its LOD */
    v->group_count = 1;
    bool warned = false;
    for (int pass = 0; pass < 2; pass++) /* static, then dynamic */
        for (uint32_t k = 0; k < count; k++) {
            const gn_cull_item *it = &r->plan.items[k];
            bool dynamic = (s->instances[k].flags & GN_INSTANCE_DYNAMIC) != 0;
            if (!GN_DRAW_CASTS(it->pipeline) || dynamic != (pass == 1)) continue;
            uint32_t group = 0;
            if (it->pipeline == GN_DRAW_MASK) {
                group = 1;
                while (group < v->group_count && v->group_material[group] != it->material) group++;
                if (group == v->group_count && group < GN_GPU_VSM_MAX_GROUPS)
                    v->group_material[v->group_count++] = it->material;
                if (group >= GN_GPU_VSM_MAX_GROUPS) {
                    if (!warned)
                        gn_vk_log(&r->vk, GN_LOG_WARN,
                                  "vsm: over %u alpha-tested materials: the rest cast as opaque",
                                  GN_GPU_VSM_MAX_GROUPS - 1);
                    warned = true;
                    group = 0;
                }
            }
            gn_gpu_vsm_caster *c = &v->casters_cpu[m];
            memcpy(c->sphere, it->sphere, sizeof c->sphere);
            c->draw[0] = c->draw[1] = c->draw[2] = 0, c->draw[3] = k;
            c->info[0] = group, c->info[1] = dynamic, c->info[2] = c->info[3] = 0;
            keys[m++] = (uint64_t)group << 32 | it->mesh;
            if (pass == 0) v->static_casters = m;
        }
    v->caster_count = m;
    /* the LODs' slots, keyed after the meshes' (the copies were made for this scene's meshes
     * in this frame's order: gn_plan_camera runs before the features plan) */
    if (lods && lods->mesh_count != s->mesh_count) lods = NULL, v->lods = false;
    for (uint32_t k = 0; lods && k < m; k++) {
        const gn_caster_lod *l = &lods->meshes[(uint32_t)keys[k]];
        if ((keys[k] >> 32) == 0 && l->index_count) keys[m + lod_keys++] = keys[k] | LOD_KEY;
    }
    /* the slots: the distinct (group, mesh) keys in order */
    uint32_t nk = m + lod_keys;
    uint64_t *sorted = gn_malloc(((size_t)nk + 1) * sizeof *sorted);
    uint32_t(*slot_info)[4] = gn_malloc(((size_t)nk + 1) * sizeof *slot_info);
    if (!sorted || !slot_info) {
        free(keys), free(sorted), free(slot_info);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "vsm: out of memory for %u casters", m);
    }
    memcpy(sorted, keys, (size_t)nk * sizeof *keys);
    qsort(sorted, nk, sizeof *sorted, cmp_u64);
    uint32_t slots = 0;
    memset(v->group_slots, 0, sizeof v->group_slots);
    for (uint32_t k = 0; k < nk; k++) {
        if (k && sorted[k] == sorted[k - 1]) continue;
        uint32_t group = (uint32_t)(sorted[k] >> 32), mesh_id = (uint32_t)(sorted[k] & (LOD_KEY - 1));
        const gn_mesh *mesh = &s->meshes[mesh_id];
        if (!v->group_slots[group]) v->group_first[group] = slots;
        v->group_slots[group]++;
        const gn_caster_lod *l = sorted[k] & LOD_KEY ? &lods->meshes[mesh_id] : NULL;
        slot_info[slots][0] = l ? l->index_count : mesh->index_count;
        slot_info[slots][1] = l ? l->first_index : mesh->first_index;
        slot_info[slots][2] = mesh->first_vertex, slot_info[slots][3] = group;
        sorted[slots++] = sorted[k];
    }
    v->slot_count = slots;
    for (uint32_t k = 0; k < m; k++) {
        gn_gpu_vsm_caster *c = &v->casters_cpu[k];
        const uint64_t *at = bsearch(&keys[k], sorted, slots, sizeof *sorted, cmp_u64);
        c->info[2] = (uint32_t)(at - sorted);
        uint64_t lod_key = keys[k] | LOD_KEY;
        const uint64_t *lod =
            lods && !(keys[k] >> 32) ? bsearch(&lod_key, sorted, slots, sizeof *sorted, cmp_u64) : NULL;
        if (!lod) continue;
        /* its error in the world: the mesh's times the longest axis of this instance */
        float e =
            lods->meshes[(uint32_t)keys[k]].error * gn_caster_lod_scale(s->instances[c->draw[3]].transform);
        c->draw[0] = (uint32_t)(lod - sorted) + 1;
        memcpy(&c->draw[1], &e, sizeof e);
    }
#undef LOD_KEY
    free(keys);
    free(sorted);
    /* pairs: every caster on every page of a frame's budget could need one; at most MAX_PAIRS */
    uint64_t want = (uint64_t)m * v->s.page_budget;
    uint32_t pairs = (uint32_t)(want < MAX_PAIRS ? (want ? want : 1) : MAX_PAIRS);
    bool grown = false;
    const VkBufferUsageFlags IND = VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    gn_result res = grow(r, &v->casters, (VkDeviceSize)(m ? m : 1) * sizeof(gn_gpu_vsm_caster), 0,
                         "vsm casters", &grown, err);
    if (!res)
        res = grow(r, &v->slots, (VkDeviceSize)(slots ? slots : 1) * 16, 0, "vsm draw slots", &grown, err);
    if (!res)
        res = grow(r, &v->counts, (VkDeviceSize)(slots ? slots : 1) * 16, 0, "vsm slot counts", &grown, err);
    /* a command a slot, then a command a slot's second-phase twin (occlusion culling) */
    if (!res)
        res = grow(r, &v->commands,
                   (VkDeviceSize)(slots ? slots : 1) * 2 * sizeof(VkDrawIndexedIndirectCommand), IND,
                   "vsm draws", &grown, err);
    if (!res) res = grow(r, &v->pairs, (VkDeviceSize)pairs * 8, 0, "vsm draw pairs", &grown, err);
    if (!res) v->pair_capacity = (uint32_t)(v->pairs.size / 8);
    if (!res && grown) write_bin_sets(r);
    if (!res && slots) res = gn_vk_upload_buffer(&r->vk, &v->slots, 0, slot_info, (size_t)slots * 16, err);
    free(slot_info);
    if (!res && m)
        res = gn_vk_upload_buffer(&r->vk, &v->casters, 0, v->casters_cpu, (size_t)m * sizeof *v->casters_cpu,
                                  err);
    return res;
}

/* The newest light version into its slot (gn_vsm_version_update makes at most one a frame, and
 * every VSM frame comes here after it): rows of the rotation, then the pivot, as the shaders
 * read them (they subtract the pivot first, as gn_vsm_to_light does). */
static gn_result upload_versions(gn_renderer *r, gn_error *err)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    const gn_vsm_versions *vv = &v->versions;
    if (v->versions_uploaded == vv->current + 1) return GN_OK;
    uint32_t k = vv->current % GN_VSM_VERSIONS;
    float rows[16] = {0};
    for (int row = 0; row < 3; row++) memcpy(&rows[row * 4], &vv->rot[k][row * 3], 3 * sizeof(float));
    memcpy(&rows[12], vv->pivot[k], 3 * sizeof(float));
    v->versions_uploaded = vv->current + 1;
    return gn_vk_upload_buffer(&r->vk, &v->versions_buf, (VkDeviceSize)k * sizeof rows, rows, sizeof rows,
                               err);
}

/* This frame's spheres for ALLOC, into the ring: static objects added since the cache was
 * filled (their pages are invalidated), then the dynamic casters (their pages get tiles). */
static gn_result plan_inputs(gn_renderer *r, const gn_scene *s, uint32_t *invalidate, uint32_t *dynamic,
                             gn_error *err)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    *invalidate = *dynamic = 0;
    v->alloc_flags = 0;
    /* Static content that changed invalidates only the pages its bounds touch: instances added
     * (their bounds), moved (before and after) or removed (before); another scene, or more
     * than MAX_INVALIDATE bounds or edits the scene's ring no longer holds, every page. */
    float inv[MAX_INVALIDATE][4];
    bool same = v->source.uid == s->uid;
    bool scene_changed = !same || v->source.generation != s->generation;
    uint32_t edits = same ? s->edit_count - v->source.edit_count : 0;
    bool all =
        !same || (scene_changed && s->instance_count <= v->source.instance_count) || edits > GN_SCENE_EDITS;
    if (scene_changed && !all) /* the API only adds after the first upload */
        for (uint32_t k = v->source.instance_count; k < s->instance_count && !all; k++) {
            all = *invalidate == MAX_INVALIDATE;
            if (!all && !(s->instances[k].flags & GN_INSTANCE_DYNAMIC))
                memcpy(inv[(*invalidate)++], s->instances[k].sphere, 16);
        }
    for (uint32_t e = 0; e < edits && !all; e++) {
        const struct gn_scene_edit *ed = &s->edits[(v->source.edit_count + e) % GN_SCENE_EDITS];
        if (s->instances[ed->instance].flags & GN_INSTANCE_DYNAMIC) continue; /* in no static page */
        all = *invalidate + 2 > MAX_INVALIDATE;
        if (!all && ed->before[3] > 0.0f) memcpy(inv[(*invalidate)++], ed->before, 16);
        if (!all && ed->after[3] > 0.0f) memcpy(inv[(*invalidate)++], ed->after, 16);
    }
    if (all) {
        v->alloc_flags |= ALLOC_INVALIDATE_ALL;
        *invalidate = 0;
    }
    uint32_t lod_generation = 0;
    const gn_vk_buffer *lod_indices;
    bool lods = r->in.caster_lod && gn_cull_caster_lods(r, &lod_indices, &lod_generation) != NULL;
    bool lods_changed = lods != v->lods || (lods && lod_generation != v->lod_generation);
    if (scene_changed || edits || lods_changed) { /* the caster list follows: bounds, removals, LODs */
        gn_result res = make_casters(r, s, err);
        if (res) return res;
        v->source.uid = s->uid;
        v->source.generation = s->generation;
    }
    v->source.edit_count = s->edit_count;
    v->source.instance_count = s->instance_count;
    uint32_t nd = v->caster_count - v->static_casters;
    if (nd > MAX_DYNAMIC) {
        gn_vk_log(&r->vk, GN_LOG_WARN, "vsm: %u dynamic casters; the first %u place dynamic pages", nd,
                  MAX_DYNAMIC);
        nd = MAX_DYNAMIC;
    }
    *dynamic = nd;
    void *ptr;
    uint32_t used = (*invalidate + nd) ? *invalidate + nd : 1;
    gn_result res =
        gn_vk_ring_alloc_window(&r->vk, (VkDeviceSize)used * 16, (MAX_INVALIDATE + MAX_DYNAMIC) * 16,
                                gn_vk_storage_align(&r->vk), &v->inputs_offset, &ptr, err);
    if (res) return res;
    float(*spheres)[4] = ptr;
    memcpy(spheres, inv, (size_t)*invalidate * 16);
    /* the dynamic casters now (their spheres follow their transforms); a change re-renders
     * the dynamic layer, as does a new light version */
    bool changed = nd != v->dyn_sphere_count || v->dyn_version != v->versions.current || scene_changed;
    for (uint32_t q = 0; q < nd; q++) {
        gn_gpu_vsm_caster *c = &v->casters_cpu[v->static_casters + q];
        const float *now = r->plan.items[c->draw[3]].sphere;
        if (memcmp(c->sphere, now, 16) != 0) changed = true; /* moved since the last frame */
        memcpy(c->sphere, now, 16);
        memcpy(spheres[*invalidate + q], now, 16);
    }
    v->dyn_sphere_count = nd;
    v->dyn_version = v->versions.current;
    if (changed) v->alloc_flags |= ALLOC_DYNAMIC_CHANGED;
    /* BIN reads the dynamic casters' spheres too */
    uint32_t all_dynamic = v->caster_count - v->static_casters;
    for (uint32_t q = nd; q < all_dynamic; q++) {
        gn_gpu_vsm_caster *c = &v->casters_cpu[v->static_casters + q];
        memcpy(c->sphere, r->plan.items[c->draw[3]].sphere, 16);
    }
    if (changed && all_dynamic)
        res = gn_vk_upload_buffer(
            &r->vk, &v->casters, (VkDeviceSize)v->static_casters * sizeof(gn_gpu_vsm_caster),
            v->casters_cpu + v->static_casters, (size_t)all_dynamic * sizeof(gn_gpu_vsm_caster), err);
    return res;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *s, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    gn_vsm_gpu *v = self;
    v->active = in->shadows == GN_SHADOWS_VSM && in->key.illuminance > 0.0f;
    v->atlas_view_run = in->debug_view == GN_VIEW_VSM_ATLAS;
    v->occlusion.on = v->active && in->vsm_occlusion;
    memset(g->vsm, 0, sizeof g->vsm);
    g->vsm_info[1] = v->s.page_texels; /* the atlas view reads it whether or not VSM runs */
    if (!v->active) {
        gn_vsm_resolve_plan(r, v, s, g);
        return GN_OK;
    }
    gn_result res = v->initialized ? GN_OK : initialize(r, err);
    if (res) return res;
    float pixel_angle = 2.0f * tanf(0.5f * in->fov_y) / (float)r->height;
    gn_vsm_view_compute(&v->s, in->key.direction, in->position, pixel_angle, &v->view);
    uint32_t current = gn_vsm_version_update(&v->versions, &v->view);
    res = upload_versions(r, err);
    uint32_t invalidate = 0, dynamic = 0;
    if (!res) res = plan_inputs(r, s, &invalidate, &dynamic, err);
    if (res) return res;
    v->frame++;
    uint32_t push[12] = {v->frame,
                         current,
                         v->s.page_budget,
                         v->s.evict_frames,
                         v->s.pool_pages,
                         v->dyn_capacity,
                         invalidate,
                         dynamic,
                         v->alloc_flags,
                         pages_total(v),
                         0,
                         0};
    memcpy(v->push, push, sizeof push);

    uint32_t n = v->s.virtual_res / v->s.page_texels;
    g->vsm[0] = (float)v->s.levels;
    g->vsm[1] = v->view.page_size[0];
    g->vsm[2] = v->view.texel0;
    g->vsm[3] = v->view.footprint_scale;
    g->vsm_params[0] = v->s.depth_range;
    g->vsm_params[1] = (float)(current % GN_VSM_VERSIONS);
    g->vsm_params[2] = (float)v->atlas_pages_per_row;
    g->vsm_params[3] = v->bias_texels;
    g->vsm_info[0] = n;
    g->vsm_info[1] = v->s.page_texels;
    g->vsm_info[2] = v->atlas_pages_per_row * v->s.page_texels;
    g->vsm_info[3] = v->s.pool_pages; /* the dynamic layer's tiles follow the pool's */
    for (int row = 0; row < 3; row++) {
        memcpy(g->vsm_light[row], &v->view.rot[row * 3], 3 * sizeof(float));
        g->vsm_light[row][3] = 0.0f;
    }
    memcpy(g->vsm_pivot, v->view.pivot, 3 * sizeof(float));
    g->vsm_pivot[3] = 0.0f;
    for (uint32_t l = 0; l < GN_GPU_VSM_MAX_LEVELS; l++) {
        int32_t o[2] = {l < v->s.levels ? v->view.origin[l][0] : 0,
                        l < v->s.levels ? v->view.origin[l][1] : 0};
        memcpy(&g->vsm_origin[l / 2][(l % 2) * 2], o, sizeof o);
    }
    /* the GPU counts this frame's pages (harvest); the pool's size is the CPU's */
    gn_frame_record(r)->vsm_pool_pages = v->s.pool_pages;
    /* RESOLVE: whether it runs, whether last frame's mask is history, last frame's
     * view-projection (gnomon has no jitter, so it is last frame's view_proj) */
    gn_vsm_resolve_plan(r, v, s, g);
    return GN_OK;
}

/* A finished frame's pages, as ALLOC and BIN counted them (copied after BIN). */
static void harvest(const void *self, const uint8_t *counters, gn_frame_stats *out)
{
    (void)self;
    if (!out->vsm_pool_pages) return; /* the frame did not use VSM */
    gn_gpu_vsm_stats g;
    memcpy(&g, counters, sizeof g);
    out->vsm_pages_requested = g.pages[0], out->vsm_pages_resident = g.pages[1];
    out->vsm_pages_rendered_static = g.pages[2], out->vsm_pages_rendered_dynamic = g.pages[3];
    out->vsm_pages_evicted = g.pool[0], out->vsm_overflow = g.pool[1] + g.misc[1],
    out->vsm_pages_waiting = g.pool[2];
    out->vsm_pool_used = g.pool[3], out->vsm_pages_rendered_fresh = g.fresh[0];
    out->vsm_pairs_phase1 = g.pairs[0], out->vsm_pairs_waiting = g.pairs[1],
    out->vsm_pairs_phase2 = g.pairs[2];
    memcpy(&out->vsm_sun_lag_deg, &g.misc[0], sizeof out->vsm_sun_lag_deg);
    memcpy(out->vsm_requested_level, g.requested_level, sizeof out->vsm_requested_level);
    memcpy(out->vsm_rendered_level, g.rendered_level, sizeof out->vsm_rendered_level);
}

static void receiver(gn_renderer *r, void *self, gn_receiver *out)
{
    gn_vsm_gpu *v = self;
    *out = (gn_receiver){.layout = v->receiver_layout, .set = v->receiver, .use_count = 5};
    out->uses[0] = (gn_vk_use){.image = &v->atlas, .access = GN_ACCESS_SHADER_READ};
    out->uses[1] = (gn_vk_use){.buffer = &v->table, .access = GN_ACCESS_SHADER_READ};
    out->uses[2] = (gn_vk_use){.buffer = &v->versions_buf, .access = GN_ACCESS_SHADER_READ};
    /* both: the set binds both, whichever RESOLVE wrote this frame */
    out->uses[3] = (gn_vk_use){.image = gn_target(r, GN_TARGET_VSM_MASK0), .access = GN_ACCESS_SHADER_READ};
    out->uses[4] = (gn_vk_use){.image = gn_target(r, GN_TARGET_VSM_MASK1), .access = GN_ACCESS_SHADER_READ};
}

/* A failed frame writes no mask: none is history for the next frame. */
static void abandon(gn_renderer *r, void *self)
{
    (void)r;
    ((gn_vsm_gpu *)self)->resolve.have_prev = false;
}

const gn_feature gn_feature_vsm = {.name = "vsm",
                                   .size = sizeof(gn_vsm_gpu),
                                   .counters = (sizeof(gn_gpu_vsm_stats) + 15) / 16 * 16,
                                   .create = create,
                                   .resize = write_target_sets,
                                   .plan = plan,
                                   .receiver = receiver,
                                   .harvest = harvest,
                                   .abandon = abandon,
                                   .release = release};

uint32_t gn_vsm_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_vsm_gpu *)self)->active ? 1 : 0;
}

/* MARK over the resolved depth into this slot's request mask, cleared first. */
uint32_t gn_vsm_mark_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_vsm_gpu *v = self;
    out[0] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.buffer = &v->requests[slot_index(r)], .access = GN_ACCESS_TRANSFER_WRITE};
    return 2;
}

gn_pass_work gn_vsm_mark_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_vsm_gpu *v = self;
    gn_vk *vk = &r->vk;
    uint32_t slot = slot_index(r);
    gn_vk_buffer *mask = &v->requests[slot];
    gn_vk_cmd_fill(vk, mask, 0);
    gn_vk_use write = {.buffer = mask, .access = GN_ACCESS_COMPUTE_WRITE};
    gn_vk_barriers(vk, vk->cur->cmd, &write, 1);
    gn_vk_cmd_bind_pipeline(vk, true, v->mark_pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, v->mark_pipeline_layout, 0, 1, &v->mark_sets[slot], 1, &dyn);
    gn_vk_cmd_dispatch(vk, (r->width + 15) / 16, (r->height + 15) / 16, 1); /* 8x8 threads of 2x2 pixels */
    return (gn_pass_work){0, 0};
}

/* ALLOC: the pages to keep, allocate, return and render, from MARK's requests, in the same frame. */
uint32_t gn_vsm_alloc_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_vsm_gpu *v = self;
    gn_vk_use uses[] = {
        {.buffer = &v->requests[slot_index(r)], .access = GN_ACCESS_SHADER_READ},
        {.buffer = &v->versions_buf, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &v->state, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->pool, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->render, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->table, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->stats, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->indirect, .access = GN_ACCESS_COMPUTE_WRITE},
    };
    memcpy(out, uses, sizeof uses);
    return sizeof uses / sizeof uses[0];
}

gn_pass_work gn_vsm_alloc_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_vsm_gpu *v = self;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_bind_pipeline(vk, true, v->alloc_pipeline);
    uint32_t dyn[2] = {(uint32_t)r->plan.frame_offset, (uint32_t)v->inputs_offset};
    gn_vk_cmd_bind_sets(vk, true, v->alloc_pipeline_layout, 0, 1, &v->alloc_sets[slot_index(r)], 2, dyn);
    gn_vk_cmd_push(vk, v->alloc_pipeline_layout, sizeof v->push, v->push);
    gn_vk_cmd_dispatch(vk, 1, 1, 1); /* one workgroup: its choices run in page order */
    return (gn_pass_work){0, 0};
}

/* BIN: count, offsets, fill (vsm_bin.comp), from zeroed counts; then the frame's statistics into
 * the frame's counters. */
uint32_t gn_vsm_bin_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_vsm_gpu *v = self;
    gn_vk_use uses[] = {
        {.buffer = &v->render, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &v->casters, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &v->slots, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &v->commands, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->pairs, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->counts, .access = GN_ACCESS_TRANSFER_WRITE},
        {.buffer = &v->stats, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->occlusion.hzb, .access = GN_ACCESS_SHADER_READ}, /* the predictor's */
    };
    memcpy(out, uses, sizeof uses);
    return sizeof uses / sizeof uses[0];
}

gn_pass_work gn_vsm_bin_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_vsm_gpu *v = self;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_fill(vk, &v->counts, 0);
    /* what each phase writes, read by the next */
    gn_vk_use phase_uses[] = {
        {.buffer = &v->commands, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->pairs, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->counts, .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &v->stats, .access = GN_ACCESS_COMPUTE_WRITE},
    };
    gn_vk_barriers(vk, vk->cur->cmd, phase_uses + 2, 1);
    gn_vk_cmd_bind_pipeline(vk, true, v->bin_pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, v->bin_pipeline_layout, 0, 1, &v->bin_set, 1, &dyn);
    for (uint32_t phase = 0; phase < 3; phase++) {
        uint32_t push[6] = {phase,           v->caster_count,    v->slot_count, v->pair_capacity,
                            v->occlusion.on, v->occlusion.stride};
        gn_vk_cmd_push(vk, v->bin_pipeline_layout, sizeof push, push);
        gn_vk_cmd_dispatch(vk, phase == 1 ? 1 : (v->caster_count + 255) / 256, 1, 1);
        if (phase < 2) gn_vk_barriers(vk, vk->cur->cmd, phase_uses, 4);
    }
    gn_frame_count(r, GN_FEATURE_VSM, &v->stats, sizeof(gn_gpu_vsm_stats));
    return (gn_pass_work){0, 0};
}

/* The chosen pages' casters, a staging layer a page, cleared first. */
uint32_t gn_vsm_pages_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_vsm_gpu *v = self;
    out[0] = (gn_vk_use){.image = &v->staging, .access = GN_ACCESS_DEPTH_WRITE};
    uint32_t n = 1 + gn_scene_uses(r, out + 1);
    out[n++] = (gn_vk_use){.buffer = &v->render, .access = GN_ACCESS_SHADER_READ};
    out[n++] = (gn_vk_use){.buffer = &v->pairs, .access = GN_ACCESS_SHADER_READ};
    out[n++] = (gn_vk_use){.buffer = &v->commands, .access = GN_ACCESS_INDIRECT};
    return n;
}

gn_pass_work gn_vsm_pages_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    return gn_vsm_draw_pages(r, self, false);
}

gn_pass_work gn_vsm_draw_pages(gn_renderer *r, gn_vsm_gpu *v, bool second)
{
    gn_vk *vk = &r->vk;
    gn_vk_rendering ri = {
        .depth = {.image = &v->staging, .clear = !second, .clear_value = {1.0f}},
        .width = v->s.page_texels,
        .height = v->s.page_texels,
        .layers = v->s.page_budget,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    uint32_t dyn[2] = {(uint32_t)r->plan.frame_offset, (uint32_t)r->plan.camera.visible_offset};
    gn_vk_cmd_bind_sets(vk, false, v->draw_pipeline_layout, GN_SET_FRAME, 1, &r->pipes.frame_set, 2, dyn);
    gn_vk_cmd_bind_sets(vk, false, v->draw_pipeline_layout, GN_SET_VSM_DRAW, 1, &v->draw_set, 0, NULL);
    /* one indirect draw a group, a command a slot: the opaque casters, then each alpha-tested
     * material's; the second phase's twins follow all the slots' commands */
    /* the LODs' indices follow the scene's in the cull feature's index buffer */
    gn_vk_cmd_bind_geometry(vk, &r->scene.vertices, v->lods ? v->lod_indices : &r->scene.indices);
    const VkDeviceSize stride = sizeof(VkDrawIndexedIndirectCommand);
    uint32_t draws = 0, twin = second ? v->slot_count : 0;
    for (uint32_t g = 0; g < v->group_count; g++) {
        if (!v->group_slots[g]) continue;
        gn_vk_cmd_bind_pipeline(vk, false, g == 0 ? v->page_pipeline : v->page_mask_pipeline);
        if (g > 0)
            gn_vk_cmd_bind_sets(vk, false, v->draw_pipeline_layout, GN_SET_MATERIAL, 1,
                                &r->scene.material_sets[v->group_material[g]], 0, NULL);
        gn_vk_cmd_draw_indexed_indirect(vk, v->commands.buffer,
                                        (VkDeviceSize)(twin + v->group_first[g]) * stride, v->group_slots[g]);
        draws++;
    }
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){draws, 0};
}

/* Each staging layer into its page's tile of the atlas. */
uint32_t gn_vsm_copy_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    gn_vsm_gpu *v = self;
    out[0] = (gn_vk_use){.image = &v->staging, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = &v->atlas, .access = GN_ACCESS_DEPTH_WRITE};
    out[2] = (gn_vk_use){.buffer = &v->render, .access = GN_ACCESS_SHADER_READ};
    out[3] = (gn_vk_use){.buffer = &v->indirect, .access = GN_ACCESS_INDIRECT};
    return 4;
}

gn_pass_work gn_vsm_copy_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_vsm_gpu *v = self;
    gn_vk *vk = &r->vk;
    gn_vk_rendering ci = {
        .depth = {.image = &v->atlas, .clear = false},
        .width = v->atlas.width,
        .height = v->atlas.height,
    };
    gn_vk_cmd_begin_rendering(vk, &ci);
    gn_vk_cmd_bind_pipeline(vk, false, v->copy_pipeline);
    uint32_t dyn[2] = {(uint32_t)r->plan.frame_offset, (uint32_t)r->plan.camera.visible_offset};
    gn_vk_cmd_bind_sets(vk, false, v->draw_pipeline_layout, GN_SET_FRAME, 1, &r->pipes.frame_set, 2, dyn);
    gn_vk_cmd_bind_sets(vk, false, v->draw_pipeline_layout, GN_SET_VSM_DRAW, 1, &v->draw_set, 0, NULL);
    gn_vk_cmd_draw_indirect(vk, &v->indirect, 0);
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){1, 0};
}

/* The vsm-atlas debug view over the output, after the tone map. */
uint32_t gn_vsm_atlas_view_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_vsm_gpu *)self)->atlas_view_run ? 1 : 0;
}

uint32_t gn_vsm_atlas_view_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_vsm_gpu *v = self;
    out[0] = (gn_vk_use){.image = &v->atlas, .access = GN_ACCESS_SHADER_READ};
    out[1] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OUTPUT), .access = GN_ACCESS_COMPUTE_WRITE};
    return 2;
}

gn_pass_work gn_vsm_atlas_view_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_screen_pass_dispatch(r, &((gn_vsm_gpu *)self)->atlas_view);
    return (gn_pass_work){0, 0};
}

/* ---- readback for tests ------------------------------------------------------------------- */
/* The staging layers' depth (a host-visible buffer made for it). */
static gn_result read_staging(gn_renderer *r, gn_vsm_gpu *v, void *out, size_t size, gn_error *err)
{
    VkDeviceSize bytes = (VkDeviceSize)v->s.page_budget * v->s.page_texels * v->s.page_texels * 4;
    if (size > bytes) size = (size_t)bytes;
    return gn_vk_read_image(&r->vk, &v->staging, bytes, out, size, "vsm staging readback", err);
}

gn_result gn_vsm_read(gn_renderer *r, gn_vsm_buffer which, void *out, size_t size, gn_error *err)
{
    gn_vsm_gpu *v = gn_vsm_of(r);
    if (which == GN_VSM_STAGING) {
        gn_result res = gn_vk_wait_idle(&r->vk, err);
        return res ? res : read_staging(r, v, out, size, err);
    }
    gn_vk_buffer *src = which == GN_VSM_STATE      ? &v->state
                        : which == GN_VSM_POOL     ? &v->pool
                        : which == GN_VSM_RENDER   ? &v->render
                        : which == GN_VSM_TABLE    ? &v->table
                        : which == GN_VSM_PAIRS    ? &v->pairs
                        : which == GN_VSM_STATS    ? &v->stats
                        : which == GN_VSM_HZB      ? &v->occlusion.hzb
                        : which == GN_VSM_REQUESTS ? &v->requests[r->vk.frame_number % GN_FRAMES_IN_FLIGHT]
                                                   : &v->commands;
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    return res ? res : gn_vk_read_buffer(&r->vk, src, out, size, "vsm readback", err);
}

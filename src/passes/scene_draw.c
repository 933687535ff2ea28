/* Draws a plan's visible instances. Every group (one mesh, one material) is one instanced
 * indirect command; a batch (a run of groups of one material) is one
 * vkCmdDrawIndexedIndirect with drawCount > 1, so draws scale with materials, not objects.
 * Depth-only views draw every opaque group in one call and bind materials only for the
 * alpha-tested ones, whose fragment shader reads the base colour's alpha. */
#include "decide/tfx.h"
#include "renderer.h"

/* Quake 3's polygonOffset as a depth bias: toward the viewer, which under reversed-Z is up. A
 * decal and the wall under it are coplanar but triangulated apart, so their depths differ by a
 * few units in the last place where the wall's slope is small and by up to the slope's share
 * where it is steep: a few units and a slope factor of one cover both (the game biases by
 * -1 / -2 in OpenGL's forward depth, the same idea). */
static const float POLYGON_OFFSET_CONSTANT = 4.0f, POLYGON_OFFSET_SLOPE = 1.0f;

/* Material m's state resolved under pass state ps (UINT32_MAX: the pass's own, no material's). */
static uint32_t resolved(const gn_renderer *r, const gn_pass_state *ps, uint32_t material)
{
    uint32_t own =
        r->scene.material_state && material < r->scene.material_count ? r->scene.material_state[material] : 0;
    return gn_state_resolve(ps->pass, own, ps->forced);
}

static uint32_t cull_of(uint32_t state) { return GN_STATE_RASTER_CULL(state >> GN_STATE_RASTER_SHIFT); }

/* What a depth-only pass draws differently by: the faces culled and the bias. */
static uint32_t raster_of(uint32_t state) { return cull_of(state) | (state >> GN_STATE_BIAS_SHIFT) << 8; }

/* Quake 3's depth test under reversed-Z (nearer is greater). */
static VkCompareOp compare_of(uint32_t state)
{
    uint32_t func = GN_STATE_DEPTH_FUNC(state >> GN_STATE_DEPTH_SHIFT);
    return func == GN_DEPTH_EQUAL    ? VK_COMPARE_OP_EQUAL
           : func == GN_DEPTH_ALWAYS ? VK_COMPARE_OP_ALWAYS
                                     : VK_COMPARE_OP_GREATER_OR_EQUAL;
}

/* Sets the raster state (and, where the pass takes it, the depth state) of a material's draws
 * under pass state ps. */
static void set_raster(gn_renderer *r, const gn_pass_state *ps, uint32_t material)
{
    uint32_t state = resolved(r, ps, material);
    if (ps->depth)
        gn_vk_cmd_set_depth(&r->vk, !((state >> GN_STATE_DEPTH_SHIFT) & GN_STATE_DEPTH_NO_WRITE),
                            compare_of(state));
    uint32_t cull = cull_of(state), bias = (state >> GN_STATE_BIAS_SHIFT) & 0x7fu;
    float constant = bias == GN_STATE_BIAS_POLYGON_OFFSET ? POLYGON_OFFSET_CONSTANT
                     : bias == GN_STATE_BIAS_CASTER       ? ps->caster_constant
                                                          : 0.0f;
    float slope = bias == GN_STATE_BIAS_POLYGON_OFFSET ? POLYGON_OFFSET_SLOPE
                  : bias == GN_STATE_BIAS_CASTER       ? ps->caster_slope
                                                       : 0.0f;
    gn_vk_cmd_set_raster(&r->vk,
                         cull == GN_CULL_TWO_SIDED    ? VK_CULL_MODE_NONE
                         : cull == GN_CULL_BACK_SIDED ? VK_CULL_MODE_FRONT_BIT
                                                      : VK_CULL_MODE_BACK_BIT,
                         constant, slope);
}

void gn_bind_view_frame(gn_renderer *r, VkPipelineLayout layout, const gn_view_draws *d)
{
    uint32_t dyn[2] = {(uint32_t)r->plan.frame_offset, (uint32_t)d->visible_offset};
    VkDescriptorSet set = d->set ? d->set : r->pipes.frame_set;
    gn_vk_cmd_bind_sets(&r->vk, false, layout, GN_SET_FRAME, 1, &set, 2, dyn);
}

/* Up to maxDrawIndirectCount commands a call, starting at command `first`. */
static uint32_t draw_range(gn_renderer *r, const gn_view_draws *d, uint32_t first, uint32_t count)
{
    gn_vk *vk = &r->vk;
    const VkDeviceSize stride = sizeof(VkDrawIndexedIndirectCommand);
    VkBuffer buffer = d->indirect ? d->indirect->buffer : vk->ring.buffer;
    uint32_t max_count = vk->props.limits.maxDrawIndirectCount, draws = 0;
    for (uint32_t done = 0; done < count; done += max_count) {
        uint32_t n = count - done < max_count ? count - done : max_count;
        gn_vk_cmd_draw_indexed_indirect(vk, buffer, d->indirect_offset + (first + done) * stride, n);
        draws++;
    }
    return draws;
}

uint32_t gn_draw_depth_only(gn_renderer *r, const gn_view_draws *d, VkPipeline mask_pipeline,
                            VkPipelineLayout layout, const gn_pass_state *ps)
{
    if (!d->group_count) return 0;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_bind_geometry(vk, &r->scene.vertices, d->indices ? d->indices : &r->scene.indices);
    /* no per-material state for opaque casters: all of them in as few calls as the device allows,
       with the pass's own culling */
    if (ps) set_raster(r, ps, UINT32_MAX);
    uint32_t draws = draw_range(r, d, 0, d->opaque_groups);
    /* then the few that raster otherwise, again with their own culling and bias: the faces the
       first call drew are drawn nearer by their bias (under GREATER they replace themselves) or
       test equal and change nothing, the ones it culled are added */
    uint32_t pass_raster = ps ? raster_of(resolved(r, ps, UINT32_MAX)) : 0;
    for (uint32_t b = 0; ps && b < d->sided_count; b++) {
        const gn_draw_batch *batch = &r->plan.mask_batches[d->sided_first + b];
        if (raster_of(resolved(r, ps, batch->material)) == pass_raster) continue; /* a pass that forces it */
        set_raster(r, ps, batch->material);
        draws += draw_range(r, d, batch->first_group, batch->group_count);
    }
    if (!d->mask_count) return draws;
    gn_vk_cmd_bind_pipeline(vk, false, mask_pipeline);
    for (uint32_t b = 0; b < d->mask_count; b++) {
        const gn_draw_batch *batch = &r->plan.mask_batches[d->mask_first + b];
        gn_vk_cmd_bind_sets(vk, false, layout, GN_SET_MATERIAL, 1, &r->scene.material_sets[batch->material],
                            0, NULL);
        if (ps) set_raster(r, ps, batch->material);
        draws += draw_range(r, d, batch->first_group, batch->group_count);
    }
    return draws;
}

uint32_t gn_draw_materials(gn_renderer *r, const gn_view_draws *d, const gn_draw_list *list, uint32_t first,
                           uint32_t count, VkPipelineLayout layout, const gn_pass_state *ps)
{
    if (!d->group_count || !count) return 0;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_bind_geometry(vk, &r->scene.vertices, d->indices ? d->indices : &r->scene.indices);
    uint32_t draws = 0;
    for (uint32_t b = first; b < first + count; b++) {
        const gn_draw_batch *batch = &list->batches[b];
        gn_vk_cmd_bind_sets(vk, false, layout, GN_SET_MATERIAL, 1, &r->scene.material_sets[batch->material],
                            0, NULL);
        gn_vk_cmd_push(vk, layout, sizeof batch->material, &batch->material);
        if (ps) set_raster(r, ps, batch->material);
        draws += draw_range(r, d, batch->first_group, batch->group_count);
    }
    return draws;
}

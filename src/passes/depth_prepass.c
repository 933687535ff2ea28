/* Depth prepass: every visible opaque and alpha-tested instance (those cut out by their
 * alpha) into the multisampled D32 depth (reversed-Z, cleared to 0 = infinitely far),
 * resolved (sample 0) for the passes that read depth. Blended surfaces write no depth. */
#include "renderer.h"

void gn_pass_depth_prepass(gn_renderer *r)
{
    gn_vk *vk = &r->vk;
    gn_targets *t = &r->targets;
    bool ms = r->msaa > 1;
    gn_vk_use uses[] = {
        {.image = &t->depth_ms, .access = GN_ACCESS_DEPTH_WRITE},
        {.image = ms ? &t->depth_resolved : NULL, .access = GN_ACCESS_DEPTH_RESOLVE},
        {.buffer = &r->scene.vertices, .access = GN_ACCESS_VERTEX_INPUT},
        {.buffer = &r->scene.indices, .access = GN_ACCESS_VERTEX_INPUT},
        {.buffer = &r->scene.instances, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &r->scene.materials, .access = GN_ACCESS_SHADER_READ}, /* alpha-tested surfaces */
    };
    uint32_t pass = gn_vk_pass_begin(vk, "depth prepass", uses, sizeof uses / sizeof uses[0]);
    gn_vk_rendering ri = {
        .depth = {.image = &t->depth_ms, .resolve = ms ? &t->depth_resolved : NULL, .clear = true},
        .width = r->width,
        .height = r->height,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    gn_vk_cmd_bind_pipeline(vk, false, r->pipes.depth);
    uint32_t dyn[2] = {(uint32_t)r->plan.frame_offset, (uint32_t)r->plan.camera.visible_offset};
    gn_vk_cmd_bind_sets(vk, false, r->pipes.scene_layout, 0, 1, &r->pipes.frame_set, 2, dyn);
    uint32_t draws = gn_draw_depth_only(r, &r->plan.camera, r->pipes.depth_mask, r->pipes.scene_layout);
    gn_vk_cmd_end_rendering(vk);
    gn_vk_pass_end(vk, pass, draws, r->plan.camera.triangles);
}

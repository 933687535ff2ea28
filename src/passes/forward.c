/* The forward pass: shades each visible opaque or alpha-tested sample once (depth EQUAL
 * against the prepass), then the sky where nothing was drawn, then blended surfaces over both
 * (material order, not sorted by distance); the colour is resolved at the end. */
#include "renderer.h"

void gn_pass_forward(gn_renderer *r)
{
    gn_vk *vk = &r->vk;
    gn_targets *t = &r->targets;
    bool ms = r->msaa > 1;
    gn_vk_use uses[] = {
        {.image = &t->hdr_ms, .access = GN_ACCESS_COLOR_WRITE},
        {.image = ms ? &t->hdr_resolved : NULL, .access = GN_ACCESS_COLOR_WRITE},
        {.image = &t->depth_ms, .access = GN_ACCESS_DEPTH_TEST},
        {.buffer = &r->scene.vertices, .access = GN_ACCESS_VERTEX_INPUT},
        {.buffer = &r->scene.indices, .access = GN_ACCESS_VERTEX_INPUT},
        {.buffer = &r->scene.instances, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &r->scene.materials, .access = GN_ACCESS_SHADER_READ},
        {.image = &r->csm.map, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &r->lights.lights, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &r->lights.lists, .access = GN_ACCESS_SHADER_READ},
        {.image = &r->lights.shadow_map, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &r->lights.shadow_matrices, .access = GN_ACCESS_SHADER_READ},
        {.image = &r->vsm.atlas, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &r->vsm.table, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &r->vsm.versions_buf, .access = GN_ACCESS_SHADER_READ},
        /* both: the frame set binds both, whichever RESOLVE wrote this frame */
        {.image = &t->vsm_mask[0], .access = GN_ACCESS_SHADER_READ},
        {.image = &t->vsm_mask[1], .access = GN_ACCESS_SHADER_READ},
    };
    uint32_t pass = gn_vk_pass_begin(vk, "forward", uses, sizeof uses / sizeof uses[0]);
    gn_vk_rendering ri = {
        .color = {.image = &t->hdr_ms, .resolve = ms ? &t->hdr_resolved : NULL, .clear = true, .discard = ms},
        .depth = {.image = &t->depth_ms, .clear = false, .discard = false},
        .width = r->width,
        .height = r->height,
    };
    gn_vk_cmd_begin_rendering(vk, &ri);
    gn_vk_cmd_bind_pipeline(vk, false, r->pipes.forward);
    uint32_t dyn[2] = {(uint32_t)r->plan.frame_offset, (uint32_t)r->plan.camera.visible_offset};
    gn_vk_cmd_bind_sets(vk, false, r->pipes.scene_layout, 0, 1, &r->pipes.frame_set, 2, dyn);
    const gn_draw_list *list = &r->plan.list;
    uint32_t first, count, first_group;
    gn_draw_list_range(list, GN_DRAW_OPAQUE, GN_DRAW_MASK, &first, &count, &first_group);
    uint32_t draws = gn_draw_materials(r, &r->plan.camera, list, first, count);
    gn_vk_cmd_bind_pipeline(vk, false, r->pipes.sky);
    gn_vk_cmd_draw(vk, 3);
    /* blended surfaces over everything else, sky included; they test depth but write none */
    gn_draw_list_range(list, GN_DRAW_BLEND, GN_DRAW_BLEND, &first, &count, &first_group);
    if (count) {
        gn_vk_cmd_bind_pipeline(vk, false, r->pipes.forward_blend);
        draws += gn_draw_materials(r, &r->plan.camera, list, first, count);
    }
    gn_vk_cmd_end_rendering(vk);
    gn_vk_pass_end(vk, pass, draws + 1, r->plan.camera.triangles + 1);
}

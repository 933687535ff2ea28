/* Tone mapping: exposure and a curve (ACES, Reinhard or clip) into the 8-bit output, in
 * 8x8 compute tiles. Debug views pass through here too. */
#include "renderer.h"

void gn_pass_tonemap(gn_renderer *r)
{
    gn_vk *vk = &r->vk;
    gn_targets *t = &r->targets;
    gn_vk_use uses[] = {
        {.image = t->hdr, .access = GN_ACCESS_SHADER_READ},
        {.image = t->depth, .access = GN_ACCESS_SHADER_READ},
        {.image = &t->ldr, .access = GN_ACCESS_COMPUTE_WRITE},
        {.image = &r->vsm.atlas, .access = GN_ACCESS_SHADER_READ},
    };
    uint32_t pass = gn_vk_pass_begin(vk, "tonemap", uses, 4);
    gn_vk_cmd_bind_pipeline(vk, true, r->pipes.tonemap);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, r->pipes.tonemap_layout_p, 0, 1, &r->pipes.tonemap_set, 1, &dyn);
    gn_vk_cmd_dispatch(vk, (r->width + 7) / 8, (r->height + 7) / 8, 1);
    gn_vk_pass_end(vk, pass, 0, 0);
}

// A caster's vertex in a VSM page RENDER draws this frame (vsm_page.vert, vsm_page_mask.vert):
// BIN's pair names the instance and the page; the page's light-space square maps onto its tile
// of the atlas, and four clip distances cut what falls outside the tile, since the CPU never
// learns which tiles are drawn (the viewport covers the whole atlas). Depth: 0 at depth_range
// towards the sun from the pivot, 1 at depth_range away, as gn_vsm_page_matrix has it.
#ifndef GN_VSM_PAGE_GLSL
#define GN_VSM_PAGE_GLSL
#include "common.glsl"
#include "vsm_mark.glsl"

layout(std430, set = 2, binding = 0) readonly buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };
layout(std430, set = 2, binding = 1) readonly buffer Pairs { uvec2 pairs[]; };

out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[4];
};

// The page's clip position (x, y in [-1, 1] over the page, y down) put into its atlas tile.
vec4 gn_vsm_tile_position(gn_gpu_vsm_render page, vec3 world)
{
    vec3 lp = gn_vsm_to_light_now(world);
    vec2 c = vec2(lp.x - page.rect.x, page.rect.y + page.rect.z - lp.y) * page.rect.w - 1.0;
    gl_ClipDistance[0] = c.x + 1.0;
    gl_ClipDistance[1] = 1.0 - c.x;
    gl_ClipDistance[2] = c.y + 1.0;
    gl_ClipDistance[3] = 1.0 - c.y;
    uint per_row = uint(frame.vsm_params.z), tile = page.page.y;
    vec2 texel = (vec2(tile % per_row, tile / per_row) + (c * 0.5 + 0.5)) * 128.0;
    float depth = (lp.z + frame.vsm_params.x) / (2.0 * frame.vsm_params.x);
    return vec4(texel / float(frame.vsm_info.z) * 2.0 - 1.0, depth, 1.0);
}

#endif

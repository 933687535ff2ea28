// A caster's vertex in a VSM page RENDER draws this frame (vsm_page.vert, vsm_page_mask.vert):
// BIN's pair names the instance and the page (its entry in ALLOC's list); the page's
// light-space square fills the viewport of the staging layer of that entry (gl_Layer), and
// vsm_copy.frag then copies each layer into the page's atlas tile, which only the GPU knows.
// Depth: 0 at depth_range towards the sun from the pivot, 1 at depth_range away, as
// gn_vsm_page_matrix has it.
#ifndef GN_VSM_PAGE_GLSL
#define GN_VSM_PAGE_GLSL
#extension GL_ARB_shader_viewport_layer_array : require
#include "common.glsl"
#include "vsm_mark.glsl"

layout(std430, set = GN_SET_VSM_DRAW, binding = GN_BIND_VSM_DRAW_RENDER) readonly buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };
layout(std430, set = GN_SET_VSM_DRAW, binding = GN_BIND_VSM_DRAW_PAIRS) readonly buffer Pairs { uvec2 pairs[]; };

// The clip position in the page's layer (x, y in [-1, 1] over the page, y down).
vec4 gn_vsm_page_position(uvec2 pair, vec3 world)
{
    gn_gpu_vsm_render page = entries[pair.y];
    gl_Layer = int(pair.y);
    vec3 lp = gn_vsm_to_light_now(world);
    vec2 c = vec2(lp.x - page.rect.x, page.rect.y + page.rect.z - lp.y) * page.rect.w - 1.0;
    return vec4(c, (lp.z + frame.vsm_params.x) / (2.0 * frame.vsm_params.x), 1.0);
}

#endif

#version 450
// --view occlusion, second step: a thread a slot; an instance in the view that the final list
// left out (hidden by the HZB) outlines its sphere's rectangle in red. Every writer writes the
// same colour, so the image does not depend on their order. At most 4096 pixels an outline.
#include "occlusion_view.glsl"

layout(local_size_x = 256) in;

void main()
{
    uint slot = gl_GlobalInvocationID.x;
    if (slot >= pc.sizes.x) return;
    bool in_view = (history[pc.where.z + slot] & 2u) != 0u, drawn = (local_rank[slot] >> 31) != 0u;
    if (!in_view || drawn) return;
    uvec4 r;
    float nearest;
    if (!hzb_rect(instances[order[slot]].sphere, r, nearest)) return;
    uint wide = r.z - r.x + 1u, tall = r.w - r.y + 1u, perimeter = 2u * (wide + tall);
    for (uint i = 0u; i < min(perimeter, 4096u); i++) {
        ivec2 q = i < wide ? ivec2(r.x + i, r.y)
                  : i < 2u * wide ? ivec2(r.x + i - wide, r.w)
                  : i < 2u * wide + tall ? ivec2(r.x, r.y + i - 2u * wide)
                                         : ivec2(r.z, r.y + i - 2u * wide - tall);
        imageStore(ldr, q, vec4(1.0, 0.1, 0.1, 1.0));
    }
}

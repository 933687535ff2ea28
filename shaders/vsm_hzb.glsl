// The depth pyramid of each page RENDER draws this frame (src/decide/vsm_hzb.h; the CPU's is
// gn_hzb_build_max): one workgroup a page of ALLOC's list, level 0 the maximum of 2x2 page
// texels, each further level the maximum of 2x2 of the one below, down to 1x1, into the
// page's run of `hzb` (the entry's index times the pyramid's texels). The including shader
// names the source (FETCH(entry, texel)) and which entries it reduces (SKIP(entry)).
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 256) in;
layout(set = 0, binding = GN_BIND_VSM_HZB_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = GN_BIND_VSM_HZB_RENDER) readonly buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };
// coherent: a level is read back by other threads of the workgroup after the barrier
layout(std430, set = 0, binding = GN_BIND_VSM_HZB_TEXELS) coherent buffer Hzb { float hzb[]; };
layout(push_constant) uniform Push { uint stride; } pc; // a pyramid's texels

// The first texel of entry e's tile in the atlas (as vsm_copy.vert places it).
ivec2 gn_vsm_tile_origin(uint e)
{
    uint per_row = uint(frame.vsm_params.z), tile = entries[e].page.y;
    return ivec2(tile % per_row, tile / per_row) * int(frame.vsm_info.y);
}

void main()
{
    uint e = gl_WorkGroupID.x;
    // the same for the whole workgroup: it leaves before any barrier
    if (e >= render_head.x || SKIP(e)) return;
    uint t = gl_LocalInvocationIndex, texels = frame.vsm_info.y, base = e * pc.stride;
    uint w = (texels + 1u) / 2u;
    for (uint k = t; k < w * w; k += 256u) {
        ivec2 p = 2 * ivec2(k % w, k / w);
        int last = int(texels) - 1;
        ivec2 q = min(p + 1, ivec2(last));
        float a = FETCH(e, p), b = FETCH(e, ivec2(q.x, p.y)), c = FETCH(e, ivec2(p.x, q.y)), d = FETCH(e, q);
        float m = a > b ? a : b, n = c > d ? c : d;
        hzb[base + k] = m > n ? m : n;
    }
    uint src = base, sw = w;
    while (sw > 1u) {
        memoryBarrierBuffer();
        barrier();
        uint dw = (sw + 1u) / 2u, dst = src + sw * sw;
        for (uint k = t; k < dw * dw; k += 256u) {
            uint x0 = 2u * (k % dw), y0 = 2u * (k / dw);
            // a texel past the edge repeats one that exists: the maximum is unchanged
            uint x1 = x0 + 1u < sw ? x0 + 1u : x0, y1 = y0 + 1u < sw ? y0 + 1u : y0;
            float a = hzb[src + y0 * sw + x0], b = hzb[src + y0 * sw + x1], c = hzb[src + y1 * sw + x0],
                  d = hzb[src + y1 * sw + x1];
            float m = a > b ? a : b, n = c > d ? c : d;
            hzb[dst + k] = m > n ? m : n;
        }
        src = dst, sw = dw;
    }
}

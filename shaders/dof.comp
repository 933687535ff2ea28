#version 450
// Depth of field's blurred copy (src/passes/dof.c): the HDR colour into half size (pc.p.x 0:
// the 2 x 2 below each texel, one bilinear tap at their centre), then a Gaussian of 1 + radius
// texels along x (1) and along y (2). The tone map blends it in by each pixel's blur.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_DOF_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(set = 0, binding = GN_BIND_DOF_SRC) uniform sampler2D src;
layout(set = 0, binding = GN_BIND_DOF_DST, rgba16f) uniform writeonly image2D dst;
// x mode, y width, z height of dst; texel: 1 / the source's size
layout(push_constant) uniform Push { uvec4 p; vec4 texel; } pc;

void main()
{
    ivec2 q = ivec2(gl_GlobalInvocationID.xy);
    if (q.x >= int(pc.p.y) || q.y >= int(pc.p.z)) return;
    vec2 uv = (vec2(q) + 0.5) / vec2(pc.p.yz);
    vec3 c;
    if (pc.p.x == 0u) {
        c = textureLod(src, uv, 0.0).rgb;
    } else {
        // a Gaussian of sigma (1 + radius) / 2 out to 1 + radius texels
        float reach = 1.0 + frame.dof_params.x, sigma = 0.5 * reach;
        vec2 step = pc.p.x == 1u ? vec2(pc.texel.x, 0.0) : vec2(0.0, pc.texel.y);
        int n = int(reach);
        vec3 sum = vec3(0.0);
        float weight = 0.0;
        for (int k = -n; k <= n; k++) {
            float w = exp(-float(k * k) / (2.0 * sigma * sigma));
            sum += textureLod(src, uv + float(k) * step, 0.0).rgb * w;
            weight += w;
        }
        c = sum / weight;
    }
    imageStore(dst, q, vec4(c, 1.0));
}

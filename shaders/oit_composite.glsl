// Weighted blended OIT's composite (src/passes/oit.c; McGuire and Bavoil 2013): the blended
// surfaces' weighted average colour over the opaque scene, blended by (src alpha, 1 - src alpha):
//   C = sum(c a w) / max(sum(a w), eps) * (1 - prod(1 - a)) + C_opaque * prod(1 - a)
// Drawn at pixel rate into the multisampled HDR colour: each pixel's samples are averaged first
// (a resolve inside the shader), so every sample of the pixel gets the same blend. Where all of
// a pixel's samples see the same opaque colour that is the per-sample composite resolved; where
// the blended surfaces' edge and the opaque colour both vary inside a pixel it differs (the
// opaque samples' mean times the mean revealage instead of the mean of their products).
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/oit.h"

#if defined(GN_OIT_MS)
layout(set = 0, binding = GN_BIND_OIT_ACCUM) uniform sampler2DMS accum_tex;
layout(set = 0, binding = GN_BIND_OIT_REVEAL) uniform sampler2DMS reveal_tex;
#else
layout(set = 0, binding = GN_BIND_OIT_ACCUM) uniform sampler2D accum_tex;
layout(set = 0, binding = GN_BIND_OIT_REVEAL) uniform sampler2D reveal_tex;
#endif
layout(location = 0) out vec4 out_color;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
#if defined(GN_OIT_MS)
    int n = textureSamples(accum_tex);
    vec4 accum = vec4(0.0);
    float reveal = 0.0;
    for (int s = 0; s < n; s++) {
        accum += texelFetch(accum_tex, p, s);
        reveal += texelFetch(reveal_tex, p, s).r;
    }
    accum /= float(n);
    reveal /= float(n);
#else
    vec4 accum = texelFetch(accum_tex, p, 0);
    float reveal = texelFetch(reveal_tex, p, 0).r;
#endif
    if (reveal >= 1.0) discard; // no blended surface here: the opaque colour stays as it was
    // more layers of bright colour than half holds (shaders/shared/oit.h): the paper's fallback
    if (any(isinf(accum.rgb))) accum.rgb = vec3(accum.a);
    out_color = vec4(accum.rgb / max(accum.a, GN_OIT_EPSILON), 1.0 - reveal);
}

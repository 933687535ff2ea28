#version 450
// Bloom (Jimenez, "Next generation post processing in Call of Duty: Advanced Warfare",
// SIGGRAPH 2014): the HDR colour downsampled into a chain of half-size levels with a 13-tap
// filter (five overlapping 2x2 boxes), the first step weighting each box by 1 / (1 + its
// luminance) against fireflies (Karis's average) and applying the threshold; then back up,
// each level blended with a 3x3 tent of the coarser one. Every filter's weights sum to 1 and
// every blend is a mix, so with no threshold the chain's mean is its input's: energy-conserving.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"
#include "exposure.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_BLOOM_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(set = 0, binding = GN_BIND_BLOOM_SRC) uniform sampler2D src;
layout(set = 0, binding = GN_BIND_BLOOM_DST, rgba16f) uniform image2D dst;
layout(std430, set = 0, binding = GN_BIND_BLOOM_EXPOSURE) readonly buffer ExposureBlock { gn_gpu_exposure e; };
layout(push_constant) uniform Push
{
    uvec4 p;     // x mode (GN_GPU_BLOOM_*), y, z the written level's size
    vec4 texel;  // xy one texel of the level read, in uv
} pc;

vec3 tap(vec2 uv, float dx, float dy) { return textureLod(src, uv + vec2(dx, dy) * pc.texel.xy, 0.0).rgb; }

float karis(vec3 c) { return 1.0 / (1.0 + dot(c, GN_LUMA)); }

// Karis's soft threshold on the brightest channel: a quadratic knee into the linear part.
vec3 threshold(vec3 c, float exposure)
{
    float t = frame.bloom.y, knee = max(frame.bloom.z, 1e-4);
    if (t <= 0.0) return c;
    float b = max(c.r, max(c.g, c.b)) * exposure;
    float soft = clamp(b - t + knee, 0.0, 2.0 * knee);
    soft = soft * soft / (4.0 * knee);
    return c * (max(soft, b - t) / max(b, 1e-6));
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(pc.p.y) || p.y >= int(pc.p.z)) return;
    vec2 uv = (vec2(p) + 0.5) / vec2(pc.p.yz);
    uint mode = pc.p.x;
    if (mode == GN_GPU_BLOOM_UP) {
        vec3 t = tap(uv, -1, -1) + 2.0 * tap(uv, 0, -1) + tap(uv, 1, -1) + 2.0 * tap(uv, -1, 0) + 4.0 * tap(uv, 0, 0) +
                 2.0 * tap(uv, 1, 0) + tap(uv, -1, 1) + 2.0 * tap(uv, 0, 1) + tap(uv, 1, 1);
        vec3 here = imageLoad(dst, p).rgb;
        imageStore(dst, p, vec4(mix(here, t / 16.0, frame.bloom.w), 1.0));
        return;
    }
    vec3 a = tap(uv, -2, 2), b = tap(uv, 0, 2), c = tap(uv, 2, 2);
    vec3 d = tap(uv, -2, 0), ce = tap(uv, 0, 0), f = tap(uv, 2, 0);
    vec3 g = tap(uv, -2, -2), h = tap(uv, 0, -2), i = tap(uv, 2, -2);
    vec3 j = tap(uv, -1, 1), k = tap(uv, 1, 1), l = tap(uv, -1, -1), m = tap(uv, 1, -1);
    vec3 out_rgb;
    if (mode == GN_GPU_BLOOM_FIRST) {
        // the five boxes, each its own Karis weight (weights 0.5 and 4 x 0.125 before it)
        vec3 box[5] = vec3[5]((j + k + l + m) * 0.25, (a + b + d + ce) * 0.25, (b + c + ce + f) * 0.25,
                              (d + ce + g + h) * 0.25, (ce + f + h + i) * 0.25);
        const float wt[5] = float[5](0.5, 0.125, 0.125, 0.125, 0.125);
        bool automatic = frame.exposure.w > 0.5;
        float exposure = automatic ? e.state.z : frame.exposure.x; // of what the colour stores:
        float stored = automatic ? e.pre.y : frame.exposure.x;     // threshold in exposed units
        vec3 sum = vec3(0.0);
        float weight = 0.0;
        for (int q = 0; q < 5; q++) {
            vec3 v = threshold(box[q], exposure / stored);
            float w = wt[q] * karis(v * (exposure / stored));
            sum += v * w;
            weight += w;
        }
        out_rgb = sum / weight;
    } else {
        out_rgb = ce * 0.125 + (a + c + g + i) * 0.03125 + (b + d + f + h) * 0.0625 + (j + k + l + m) * 0.125;
    }
    imageStore(dst, p, vec4(out_rgb, 1.0));
}

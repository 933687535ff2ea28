#version 450
// The tone map: the resolved HDR colour (stored times its pre-exposure) scaled to this frame's
// exposure, a tone curve, sRGB into the 8-bit output. Debug views: the depth view from the
// resolved depth, the luminance view (false colour of EV100 and the histogram), and the views
// the forward pass drew as display values, passed through.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"
#include "exposure.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_TONEMAP_HDR) uniform sampler2D hdr;
layout(set = 0, binding = GN_BIND_TONEMAP_DEPTH) uniform sampler2D depth;
layout(set = 0, binding = GN_BIND_TONEMAP_OUTPUT, rgba8) uniform writeonly image2D ldr;
layout(set = 0, binding = GN_BIND_TONEMAP_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = GN_BIND_TONEMAP_EXPOSURE) readonly buffer ExposureBlock { gn_gpu_exposure e; };
layout(set = 0, binding = GN_BIND_TONEMAP_BLOOM) uniform sampler2D bloom_chain;
layout(set = 0, binding = GN_BIND_TONEMAP_DOF) uniform sampler2D dof_copy;
// The grading table (src/passes/tonemap.c): x domain min rgb, w entries a side; domain max rgb;
// then entries, red fastest, then green, then blue (the .cube file's order).
layout(std430, set = 0, binding = GN_BIND_TONEMAP_LUT) readonly buffer LutBlock
{
    vec4 lut_min, lut_max;
    vec4 lut[];
};

// Trilinear lookup of the grading table: the twin of gn_cube_lut_sample (src/formats/cube_lut.c).
vec3 grade(vec3 c)
{
    uint n = uint(lut_min.w);
    vec3 t = clamp((c - lut_min.xyz) / (lut_max.xyz - lut_min.xyz), 0.0, 1.0) * float(n - 1u);
    uvec3 i = min(uvec3(t), uvec3(n - 2u));
    vec3 w = t - vec3(i);
    uint sg = n, sb = n * n, e = i.x + sg * i.y + sb * i.z;
    vec3 x00 = mix(lut[e].rgb, lut[e + 1u].rgb, w.x), x10 = mix(lut[e + sg].rgb, lut[e + sg + 1u].rgb, w.x);
    vec3 x01 = mix(lut[e + sb].rgb, lut[e + sb + 1u].rgb, w.x);
    vec3 x11 = mix(lut[e + sb + sg].rgb, lut[e + sb + sg + 1u].rgb, w.x);
    return mix(mix(x00, x10, w.y), mix(x01, x11, w.y), w.z);
}

// Interleaved gradient noise (Jimenez 2014), two of them: a triangular dither of +-1 level that
// breaks the 8-bit steps of smooth gradients (skies, dark walls) into noise the eye averages.
float ign(vec2 p) { return fract(52.9829189 * fract(dot(p, vec2(0.06711056, 0.00583715)))); }
vec3 dither(ivec2 p) { return vec3(ign(vec2(p)) + ign(vec2(p) + vec2(47.0, 17.0)) - 1.0) / 255.0; }

// Narkowicz's fit of the ACES filmic curve.
vec3 aces(vec3 x) { return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0); }

vec3 srgb_encode(vec3 c)
{
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c));
}

// Blue (dark) .. cyan .. green .. yellow .. red (bright) over t in [0, 1].
vec3 ramp(float t)
{
    t = clamp(t, 0.0, 1.0);
    return clamp(vec3(1.5 - abs(4.0 * t - 3.0), 1.5 - abs(4.0 * t - 2.0), 1.5 - abs(4.0 * t - 1.0)), 0.0, 1.0);
}

// --view luminance: each pixel's EV100 in false colour over the histogram's range; below it the
// histogram (a bar a bin, the metered band white, the rest grey), the metered EV100 a yellow
// line and the EV100 shown a red one.
vec3 luminance_view(ivec2 p, float stored)
{
    float min_ev = frame.exposure_meter.x, max_ev = frame.exposure_meter.y;
    int w = int(frame.mode.z), h = int(frame.mode.w), strip = max(h / 5, 16);
    if (p.y < h - strip) {
        float l = dot(texelFetch(hdr, p, 0).rgb, GN_LUMA) / stored;
        return l > 0.0 ? ramp((gn_ev100_from_luminance(l) - min_ev) / (max_ev - min_ev)) : vec3(0.0);
    }
    float ev = min_ev + (float(p.x) + 0.5) / float(w) * (max_ev - min_ev);
    float ev_px = (max_ev - min_ev) / float(w);
    if (abs(ev - e.state.x) < ev_px) return vec3(1.0, 0.1, 0.1);
    if (abs(ev - e.state.y) < ev_px) return vec3(1.0, 0.9, 0.1);
    uint peak = 1u;
    for (uint i = 0u; i < GN_GPU_EXPOSURE_BINS; i++) peak = max(peak, gn_exposure_bin_count(e, i));
    uint bin = min(uint(float(p.x) * float(GN_GPU_EXPOSURE_BINS) / float(w)), uint(GN_GPU_EXPOSURE_BINS - 1));
    float height = sqrt(float(gn_exposure_bin_count(e, bin)) / float(peak)); // sqrt: small bins show
    float y = float(h - 1 - p.y) / float(strip - 1);
    bool in_band = ev >= e.band.x && ev <= e.band.y;
    vec3 bg = 0.15 * ramp((ev - min_ev) / (max_ev - min_ev));
    return y <= height ? (in_band ? vec3(0.95) : vec3(0.45)) : bg;
}

// Depth of field's blend (decide/dof.c, gn_dof_coc and gn_dof_pixel, mirror these): geometry at
// camera-space Z d behind (back), in front of (front) or either side of (both) the focus.
float dof_coc(float d, bool infinite)
{
    float back = infinite ? 1.0 : clamp((d - frame.dof.x) / frame.dof.y, 0.0, 1.0);
    float front = infinite ? 0.0 : clamp((frame.dof.x - d) / frame.dof.y, 0.0, 1.0);
    uint mode = uint(frame.dof.w);
    float t = mode == GN_GPU_DOF_BACK ? back : mode == GN_GPU_DOF_FRONT ? front : max(back, front);
    return t * frame.dof.z;
}

float camera_z(ivec2 q)
{
    float d = texelFetch(depth, q, 0).r;
    return d > 0.0 ? frame.camera_pos.w / d : 0.0;
}

const ivec2 SKY_RING[8] = ivec2[](ivec2(-3, 0), ivec2(3, 0), ivec2(0, -3), ivec2(0, 3), ivec2(-2, -2),
                                  ivec2(2, -2), ivec2(-2, 2), ivec2(2, 2));

// The blend of pixel p, and (sky) how much of it came from the sky rule: the sky blurs only beside
// geometry, by the geometry's average distance among the ring, at half strength for the ring's sky.
float dof_pixel(ivec2 p, out bool sky)
{
    float zc = camera_z(p);
    sky = !(zc > 0.0);
    if (!sky) return dof_coc(zc, false);
    if (frame.dof_params.y > 0.5) return dof_coc(0.0, true);
    ivec2 size = ivec2(frame.mode.zw);
    float sum = 0.0;
    int geometry = 0;
    for (int i = 0; i < 8; i++) {
        ivec2 q = p + SKY_RING[i];
        if (q.x < 0 || q.y < 0 || q.x >= size.x || q.y >= size.y) continue;
        float zq = camera_z(q);
        if (zq > 0.0) sum += zq, geometry++;
    }
    if (geometry == 0) return 0.0;
    float sky_share = 1.0 - float(geometry) / 8.0;
    return dof_coc(sum / float(geometry), false) * (1.0 - 0.5 * sky_share);
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(frame.mode.z) || p.y >= int(frame.mode.w)) return;
    uint view = frame.mode.x;
    bool automatic = frame.exposure.w > 0.5;
    // the exposure the colour was stored with (the adapt pass wrote it this frame)
    float stored = automatic ? e.pre.y : frame.exposure.x;
    vec3 out_rgb;
    if (view == GN_GPU_VIEW_DEPTH) {
        // reversed-Z infinite: depth = near / distance; shown on a log scale, near white,
        // the sky (depth 0) black
        float d = texelFetch(depth, p, 0).r;
        float dist = d > 0.0 ? frame.camera_pos.w / d : 1e9;
        float t = clamp(log2(max(dist, 1.0)) / 11.0, 0.0, 1.0); // 1 m white .. 2 km black
        out_rgb = vec3(1.0 - t);
    } else if (view == GN_GPU_VIEW_NORMALS || view == GN_GPU_VIEW_SHADOW || view == GN_GPU_VIEW_CASCADES ||
               view == GN_GPU_VIEW_LIGHT_HEATMAP || view == GN_GPU_VIEW_VSM_PAGES || view == GN_GPU_VIEW_AO) {
        out_rgb = texelFetch(hdr, p, 0).rgb; // already a display value
    } else if (view == GN_GPU_VIEW_ALBEDO) {
        out_rgb = srgb_encode(texelFetch(hdr, p, 0).rgb);
    } else if (view == GN_GPU_VIEW_LUMINANCE) {
        out_rgb = luminance_view(p, stored);
    } else if (view == GN_GPU_VIEW_DOF_COC) {
        // black sharp .. white fully blurred; the sky's share (the sky rule) blue
        bool sky;
        float t = frame.dof.z > 0.0 ? dof_pixel(p, sky) : 0.0;
        out_rgb = sky ? vec3(0.1 * t, 0.3 * t, 0.4 + 0.6 * t) : vec3(t);
    } else {
        vec3 c = texelFetch(hdr, p, 0).rgb;
        // depth of field: the pixel turned into the blurred half-size copy by its blend
        if (frame.dof.z > 0.0) {
            bool sky;
            float t = dof_pixel(p, sky);
            if (t > 0.0) c = mix(c, textureLod(dof_copy, (vec2(p) + 0.5) / vec2(frame.mode.zw), 0.0).rgb, t);
        }
        // bloom (shaders/bloom.comp): blended in, which keeps the energy, without a threshold;
        // added, the light above it, with one
        float intensity = frame.bloom.x;
        vec3 glow = vec3(0.0);
        if (intensity > 0.0) glow = textureLod(bloom_chain, (vec2(p) + 0.5) / vec2(frame.mode.zw), 0.0).rgb;
        if (view == GN_GPU_VIEW_BLOOM) c = glow;
        else if (intensity > 0.0) c = frame.bloom.y > 0.0 ? c + intensity * glow : mix(c, glow, intensity);
        // auto: the adapted exposure over the one the colour was stored with (fixed: 1)
        c *= automatic ? e.state.z / stored : 1.0;
        uint curve = frame.mode.y;
        if (curve == GN_GPU_TONEMAP_REINHARD) c = c / (1.0 + c);
        else if (curve == GN_GPU_TONEMAP_ACES) c = aces(c);
        out_rgb = srgb_encode(c);
        // grading works on display values (the .cube convention), then the dither
        if (frame.grade.y > 0.5) out_rgb = grade(out_rgb);
        if (frame.grade.x > 0.5) out_rgb += dither(p);
    }
    imageStore(ldr, p, vec4(out_rgb, 1.0));
}

// Eye adaptation's arithmetic, the twin of src/decide/exposure.c (same operations, same order;
// gpu_exposure holds the two to the same bins and EV). Included; no #version.
//
// Pre-exposure: the forward pass stores colour times a power of two (gn_pre_exposure), which
// floating point scales exactly, so the luminance the histogram reads back (colour / pre) and
// hence what a frame meters do not depend on the exposure the frame before it had.
#ifndef GN_EXPOSURE_GLSL
#define GN_EXPOSURE_GLSL

#define GN_EXPOSURE_METER_K 12.5
#define GN_EXPOSURE_SATURATION 1.2
const vec3 GN_LUMA = vec3(0.2126, 0.7152, 0.0722);

float gn_ev100_from_luminance(float luminance) { return log2(luminance * (100.0 / GN_EXPOSURE_METER_K)); }
float gn_exposure_from_ev100(float ev100) { return 1.0 / (GN_EXPOSURE_SATURATION * exp2(ev100)); }

uint gn_exposure_bin(float luminance, float min_ev100, float max_ev100)
{
    if (!(luminance > 0.0)) return 0u;
    float t = (gn_ev100_from_luminance(luminance) - min_ev100) / (max_ev100 - min_ev100);
    float b = floor(t * float(GN_GPU_EXPOSURE_BINS));
    return b <= 0.0 ? 0u : b >= float(GN_GPU_EXPOSURE_BINS - 1) ? uint(GN_GPU_EXPOSURE_BINS - 1) : uint(b);
}

// The exposure this frame's colour is stored with: fixed, or the last frame's power of two
// (pre_next: gn_gpu_exposure.pre.x; 0 before any frame). A first frame, and a cut (a frame shown
// at once) whose last frame was more than 6 EV from the sky's guess (frame.exposure.y: night to
// noon), take the guess instead, so rgba16f neither overflows nor loses the dark.
float gn_stored_exposure(vec4 exposure, float pre_next)
{
    if (exposure.w < 0.5) return exposure.x;
    if (!(pre_next > 0.0)) return exposure.y;
    float ratio = pre_next / exposure.y;
    if (exposure.z <= 0.0 && (ratio > 64.0 || ratio < 1.0 / 64.0)) return exposure.y;
    return pre_next;
}

uint gn_exposure_bin_count(gn_gpu_exposure e, uint i) { return e.bins[i / 4u][i % 4u]; }

#endif

#version 450
// Eye adaptation, step 2 (one workgroup, a thread a bin): meter the histogram's band, adapt
// towards it over the time since the last frame, and write what the tone map applies and what
// the next frame's colour is stored with. The twin of gn_exposure_meter and gn_exposure_adapt
// (src/decide/exposure.c): the same band and step; the counts' prefix sum is exact (integers),
// the band's mean is summed as a tree here and in order there (gpu_exposure: within 1e-3 EV).
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"
#include "exposure.glsl"

layout(local_size_x = GN_GPU_EXPOSURE_BINS) in;
layout(set = 0, binding = GN_BIND_EXPOSURE_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = GN_BIND_EXPOSURE_STATE) buffer ExposureBlock { gn_gpu_exposure e; };

shared uint scan[GN_GPU_EXPOSURE_BINS];
shared float sums[GN_GPU_EXPOSURE_BINS], weights[GN_GPU_EXPOSURE_BINS];
shared uint first_bin;
shared float band[2];

void main()
{
    uint i = gl_LocalInvocationIndex;
    float min_ev = frame.exposure_meter.x, max_ev = frame.exposure_meter.y;
    uint count = gn_exposure_bin_count(e, i);
    scan[i] = count;
    if (i == 0u) {
        first_bin = GN_GPU_EXPOSURE_BINS;
        band[0] = min_ev, band[1] = max_ev;
    }
    // inclusive prefix sum of the counts (Hillis-Steele)
    for (uint off = 1u; off < GN_GPU_EXPOSURE_BINS; off *= 2u) {
        barrier();
        uint v = i >= off ? scan[i - off] : 0u;
        barrier();
        scan[i] += v;
    }
    barrier();
    float total = float(scan[GN_GPU_EXPOSURE_BINS - 1]);
    float c = float(count), cum = float(scan[i] - count);
    float lo = frame.exposure_meter.z * total, hi = frame.exposure_meter.w * total;
    float width = (max_ev - min_ev) / float(GN_GPU_EXPOSURE_BINS);
    float centre = min_ev + (float(i) + 0.5) * width;
    // this bin's pixels [cum, cum + c) inside the band [lo, hi)
    float w = max(min(cum + c, hi) - max(cum, lo), 0.0);
    sums[i] = w * centre;
    weights[i] = w;
    if (c > 0.0 && cum + c > lo) atomicMin(first_bin, i); // the band thinner than a pixel
    if (c > 0.0 && cum <= lo && lo < cum + c) band[0] = min_ev + (float(i) + (lo - cum) / c) * width;
    if (c > 0.0 && cum < hi && hi <= cum + c) band[1] = min_ev + (float(i) + (hi - cum) / c) * width;
    for (uint half_n = GN_GPU_EXPOSURE_BINS / 2u; half_n > 0u; half_n /= 2u) {
        barrier();
        if (i < half_n) {
            sums[i] += sums[i + half_n];
            weights[i] += weights[i + half_n];
        }
    }
    barrier();
    if (i != 0u) return;
    bool had = e.state.w > 0.5;
    float pre = gn_stored_exposure(frame.exposure, e.pre.x);
    float metered = weights[0] > 0.0 ? sums[0] / weights[0] : min_ev + (float(first_bin) + 0.5) * width;
    float target = total > 0.0 ? clamp(metered, min_ev, max_ev) : had ? e.state.y : min_ev;
    float ev = target, dt = frame.exposure.z;
    if (dt > 0.0 && had) {
        float d = target - e.state.x;
        float speed = d > 0.0 ? frame.exposure_adapt.x : frame.exposure_adapt.y;
        float step = min(abs(d) * (1.0 - exp(-dt * speed / frame.exposure_adapt.w)), speed * dt);
        ev = d > 0.0 ? e.state.x + step : e.state.x - step;
    }
    float exposure = gn_exposure_from_ev100(ev - frame.exposure_adapt.z);
    e.state = vec4(ev, target, exposure, 1.0);
    e.pre = vec4(exp2(round(log2(exposure))), pre, 0.0, 0.0);
    e.band = vec4(band[0], band[1], 0.0, 0.0);
}

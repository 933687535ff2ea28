#version 450
// Eye adaptation, step 2 (one thread): meter the histogram's band, adapt towards it over the
// time since the last frame, and write what the tone map applies and what the next frame's
// colour is stored with. The twin of gn_exposure_meter and gn_exposure_adapt
// (src/decide/exposure.c): the same loop in the same order.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"
#include "exposure.glsl"

layout(local_size_x = 1) in;
layout(set = 0, binding = GN_BIND_EXPOSURE_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = GN_BIND_EXPOSURE_STATE) buffer ExposureBlock { gn_gpu_exposure e; };

void main()
{
    float min_ev = frame.exposure_meter.x, max_ev = frame.exposure_meter.y;
    precise float total = 0.0;
    for (uint i = 0u; i < GN_GPU_EXPOSURE_BINS; i++) total += float(gn_exposure_bin_count(e, i));
    precise float lo = frame.exposure_meter.z * total, hi = frame.exposure_meter.w * total;
    precise float width = (max_ev - min_ev) / float(GN_GPU_EXPOSURE_BINS);
    precise float cum = 0.0, sum = 0.0, weight = 0.0;
    float first = -1e30, band_from = min_ev, band_to = max_ev;
    for (uint i = 0u; i < GN_GPU_EXPOSURE_BINS; i++) {
        float c = float(gn_exposure_bin_count(e, i));
        precise float centre = min_ev + (float(i) + 0.5) * width;
        precise float w = min(cum + c, hi) - max(cum, lo);
        if (c > 0.0 && first == -1e30 && cum + c > lo) first = centre;
        if (c > 0.0 && cum <= lo && lo < cum + c) band_from = min_ev + (float(i) + (lo - cum) / c) * width;
        if (c > 0.0 && cum < hi && hi <= cum + c) band_to = min_ev + (float(i) + (hi - cum) / c) * width;
        if (w > 0.0) {
            sum += w * centre;
            weight += w;
        }
        cum += c;
    }
    bool had = e.state.w > 0.5;
    float pre = gn_stored_exposure(frame.exposure, e.pre.x);
    float target = total > 0.0 ? clamp(weight > 0.0 ? sum / weight : first, min_ev, max_ev)
                   : had      ? e.state.y
                              : min_ev;
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
    e.band = vec4(band_from, band_to, 0.0, 0.0);
}

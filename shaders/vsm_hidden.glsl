// Whether a (caster, page) pair certainly draws nothing over the page's pyramid in `hzb` (run
// base: the entry's index times its texels), as src/decide/vsm_hzb.c decides it
// (gn_vsm_footprint, gn_vsm_hidden, gn_hzb_farthest with max): the same operations in the
// same order, `precise`. Needs the frame constants and the Hzb buffer.
#ifndef GN_VSM_HIDDEN_GLSL
#define GN_VSM_HIDDEN_GLSL

uint vsm_texel(float t, uint texels)
{
    float f = floor(t);
    return f <= 0.0 ? 0u : f >= float(texels - 1u) ? texels - 1u : uint(f);
}

bool gn_vsm_hidden(uint base, vec4 rect, vec3 lp, float r)
{
    uint texels = frame.vsm_info.y;
    precise float k = rect.w * (0.5 * float(texels)), top = rect.y + rect.z;
    precise float u0 = (lp.x - r - rect.x) * k - 0.5, u1 = (lp.x + r - rect.x) * k + 0.5;
    precise float v0 = (top - (lp.y + r)) * k - 0.5, v1 = (top - (lp.y - r)) * k + 0.5;
    if (!(u1 >= 0.0 && v1 >= 0.0 && u0 < float(texels) && v0 < float(texels))) return false;
    uvec4 t = uvec4(vsm_texel(u0, texels), vsm_texel(v0, texels), vsm_texel(u1, texels), vsm_texel(v1, texels));
    // the finest level whose texels cover the footprint with at most 2 a side (gn_hzb_farthest)
    uint levels = 1u;
    for (uint w = (texels + 1u) / 2u; w > 1u; w = (w + 1u) / 2u) levels++;
    uint lv = 0u, w = (texels + 1u) / 2u, at = base;
    while (lv + 1u < levels && ((t.z >> (lv + 1u)) - (t.x >> (lv + 1u)) > 1u || (t.w >> (lv + 1u)) - (t.y >> (lv + 1u)) > 1u)) {
        at += w * w;
        w = (w + 1u) / 2u;
        lv++;
    }
    uint x0 = t.x >> (lv + 1u), x1 = t.z >> (lv + 1u), y0 = t.y >> (lv + 1u), y1 = t.w >> (lv + 1u);
    float a = hzb[at + y0 * w + x0], b = hzb[at + y0 * w + x1], c = hzb[at + y1 * w + x0], d = hzb[at + y1 * w + x1];
    float m = a > b ? a : b, n = c > d ? c : d, farthest = m > n ? m : n;
    precise float range = frame.vsm_params.x;
    precise float span = 2.0 * range, margin = span * GN_VSM_HIDDEN_MARGIN;
    precise float nearest = lp.z - r, far_z = farthest * span - range;
    precise float near_edge = nearest - margin;
    return near_edge > far_z;
}

#endif

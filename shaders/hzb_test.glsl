// The occlusion test of a bounding sphere against the HZB, as src/decide/hzb.c decides it
// (gn_hzb_sphere_rect, gn_hzb_occluded): the same operations in the same order, `precise`, so
// that the CPU reference and the GPU agree on every sphere. Needs cull.glsl's bindings.

// the level layout of gn_hzb_layout_make: level k's size and first texel
void hzb_level(uint k, out uint w, out uint h, out uint offset)
{
    w = max((pc.hzb.x + 1u) / 2u, 1u), h = max((pc.hzb.y + 1u) / 2u, 1u), offset = 0u;
    for (uint j = 0u; j < k; j++) {
        offset += w * h;
        w = max((w + 1u) / 2u, 1u), h = max((h + 1u) / 2u, 1u);
    }
}

void extent(float lo, float hi, float dn, float df, float scale, out float a, out float b)
{
    precise float top = hi / (hi > 0.0 ? dn : df), bottom = lo / (lo < 0.0 ? dn : df);
    precise float p = scale * top, q = scale * bottom;
    a = p < q ? p : q;
    b = p < q ? q : p;
}

uint to_pixel(float ndc, uint size)
{
    precise float px = (ndc + 1.0) * 0.5 * float(size);
    float f = floor(px);
    return f <= 0.0 ? 0u : f >= float(size - 1u) ? size - 1u : uint(f);
}

// The pixel rectangle (inclusive, clamped) that holds the sphere's projection and its nearest
// depth; false when it reaches the near plane or misses the image (gn_hzb_sphere_rect).
bool hzb_rect(vec4 s, out uvec4 rect, out float nearest)
{
    precise float vx = pc.view[0].x * s.x, vy = pc.view[1].x * s.x, vz = pc.view[2].x * s.x;
    vx = vx + pc.view[0].y * s.y, vy = vy + pc.view[1].y * s.y, vz = vz + pc.view[2].y * s.y;
    vx = vx + pc.view[0].z * s.z, vy = vy + pc.view[1].z * s.z, vz = vz + pc.view[2].z * s.z;
    vx = vx + pc.view[0].w, vy = vy + pc.view[1].w, vz = vz + pc.view[2].w;
    precise float dn = -vz - s.w, df = -vz + s.w;
    rect = uvec4(0u);
    nearest = 0.0;
    if (!(dn > pc.proj.z)) return false;
    float x0, x1, y0, y1;
    precise float xl = vx - s.w, xh = vx + s.w, yl = vy - s.w, yh = vy + s.w;
    extent(xl, xh, dn, df, pc.proj.x, x0, x1);
    extent(yl, yh, dn, df, pc.proj.y, y0, y1);
    if (x1 < -1.0 || x0 > 1.0 || y1 < -1.0 || y0 > 1.0) return false;
    rect = uvec4(to_pixel(x0, pc.hzb.x), to_pixel(y0, pc.hzb.y), to_pixel(x1, pc.hzb.x), to_pixel(y1, pc.hzb.y));
    precise float n = pc.proj.z / dn;
    nearest = n;
    return true;
}

bool hzb_occluded(vec4 s)
{
    uvec4 rect;
    float nearest;
    if (!hzb_rect(s, rect, nearest)) return false;
    uint k = 0u;
    while (k + 1u < pc.hzb.z &&
           ((rect.z >> (k + 1u)) - (rect.x >> (k + 1u)) > 1u || (rect.w >> (k + 1u)) - (rect.y >> (k + 1u)) > 1u))
        k++;
    uint w, h, at;
    hzb_level(k, w, h, at);
    uint tx0 = rect.x >> (k + 1u), tx1 = rect.z >> (k + 1u), ty0 = rect.y >> (k + 1u), ty1 = rect.w >> (k + 1u);
    float a = hzb[at + ty0 * w + tx0], b = hzb[at + ty0 * w + tx1], c = hzb[at + ty1 * w + tx0],
          d = hzb[at + ty1 * w + tx1];
    float m = a < b ? a : b, n = c < d ? c : d, farthest = m < n ? m : n;
    precise float margin = nearest * (1.0 / 16384.0);
    precise float near_edge = nearest + margin;
    return near_edge < farthest;
}

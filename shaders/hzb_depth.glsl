// Level 0 of the HZB from the depth prepass's depth: the minimum over the up to 2x2 pixels and
// every sample of each (FETCH(pixel, sample): the including shader's image).
void main()
{
    uvec2 t = gl_GlobalInvocationID.xy;
    if (t.x >= pc.dst.x || t.y >= pc.dst.y) return;
    float m = 1.0 / 0.0;
    for (uint dy = 0u; dy < 2u; dy++)
        for (uint dx = 0u; dx < 2u; dx++) {
            uvec2 p = 2u * t + uvec2(dx, dy);
            if (p.x >= pc.src.x || p.y >= pc.src.y) continue;
            for (uint s = 0u; s < pc.src.w; s++) {
                float d = FETCH(ivec2(p), int(s));
                m = d < m ? d : m;
            }
        }
    hzb[pc.dst.z + t.y * pc.dst.x + t.x] = m;
}

// VSM MARK's page choice (needs only the frame constants): the CPU reference is
// gn_vsm_mark_point in src/decide/vsm.c, and the two must agree bit for bit, so every
// expression here keeps its order and `precise` forbids fused multiply-adds.
#ifndef GN_VSM_MARK_GLSL
#define GN_VSM_MARK_GLSL

// rows . (p - pivot), summed left to right like the C code
vec3 gn_vsm_rotate(vec4 r0, vec4 r1, vec4 r2, vec3 pivot, vec3 p)
{
    precise vec3 d = p - pivot;
    precise float x = r0.x * d.x + r0.y * d.y + r0.z * d.z;
    precise float y = r1.x * d.x + r1.y * d.y + r1.z * d.z;
    precise float z = r2.x * d.x + r2.y * d.y + r2.z * d.z;
    return vec3(x, y, z);
}

vec3 gn_vsm_to_light_now(vec3 p)
{
    return gn_vsm_rotate(frame.vsm_light[0], frame.vsm_light[1], frame.vsm_light[2], frame.vsm_pivot.xyz, p);
}

ivec2 gn_vsm_origin(uint level)
{
    uvec4 o = frame.vsm_origin[level >> 1u];
    return (level & 1u) == 0u ? ivec2(o.xy) : ivec2(o.zw);
}

float gn_vsm_page_size(uint level) { return frame.vsm.y * exp2(float(level)); }

uint gn_vsm_slot(ivec2 ij)
{
    int n = int(frame.vsm_info.x);
    ivec2 m = ((ij % n) + n) % n;
    return uint(m.x) + uint(m.y) * uint(n);
}

// The finest level whose texel is at least the pixel footprint and whose window holds p.
bool gn_vsm_mark(vec3 p, vec3 lp, out uint level, out uint slot)
{
    uint levels = uint(frame.vsm.x);
    int n = int(frame.vsm_info.x);
    precise vec3 d = p - frame.camera_pos.xyz;
    precise float d2 = d.x * d.x + d.y * d.y + d.z * d.z;
    precise float footprint = sqrt(d2) * frame.vsm.w;
    for (uint l = 0u; l < levels; l++) {
        if (footprint > frame.vsm.z * exp2(float(l)) * 2.0 && l + 1u < levels) continue; // GN_VSM_MATCH
        float size = gn_vsm_page_size(l);
        ivec2 ij = ivec2(floor(lp.xy / size));
        ivec2 a = ij - gn_vsm_origin(l);
        if (a.x < 0 || a.y < 0 || a.x >= n || a.y >= n) continue;
        level = l;
        slot = gn_vsm_slot(ij);
        return true;
    }
    return false;
}

#endif

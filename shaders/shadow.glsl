// The sun's shadow from the cascaded shadow maps: the cascade by view depth (a blend of two
// across their overlap), a normal offset of ~1.5 texels of the cascade in use, 3x3 PCF with
// hardware comparison, and a fade over the last tenth of the shadow distance.
// The CPU mirror of the cascade choice is gn_csm_select / gn_csm_fade in src/decide/csm.c.
#ifndef GN_SHADOW_GLSL
#define GN_SHADOW_GLSL

layout(set = GN_SET_SUN, binding = GN_BIND_CSM_MAP) uniform sampler2DArrayShadow sun_shadow_map;

float gn_cascade_pcf(uint c, vec3 world, vec3 n)
{
    vec3 p = world + n * (frame.csm.z * frame.cascade[c].z);
    vec4 clip = frame.cascade_view_proj[c] * vec4(p, 1.0);
    vec2 uv = clip.xy * 0.5 + 0.5;
    vec2 texel = 1.0 / vec2(textureSize(sun_shadow_map, 0).xy);
    float lit = 0.0;
    for (int y = -1; y <= 1; y++)
        for (int x = -1; x <= 1; x++)
            lit += texture(sun_shadow_map, vec4(uv + vec2(x, y) * texel, float(c), clip.z));
    return lit / 9.0;
}

// Which cascade (x) and the weight of the next one (y) at this view depth; x = count beyond
// the shadow distance.
vec2 gn_cascade_select(float view_depth)
{
    uint count = uint(frame.csm.x);
    for (uint c = 0; c < count; c++) {
        if (view_depth < frame.cascade[c].y) {
            float far_d = frame.cascade[c].x, end = frame.cascade[c].y;
            float w = (c + 1 < count && view_depth > far_d) ? (view_depth - far_d) / max(end - far_d, 1e-6) : 0.0;
            return vec2(float(c), w);
        }
    }
    return vec2(float(count), 0.0);
}

// 1 lit .. 0 shadowed.
float gn_sun_shadow(vec3 world, vec3 n)
{
    uint count = uint(frame.csm.x);
    if (count == 0u) return 1.0;
    float view_depth = dot(world - frame.camera_pos.xyz, frame.camera_forward.xyz);
    vec2 sel = gn_cascade_select(view_depth);
    uint c = uint(sel.x);
    if (c >= count) return 1.0;
    float lit = gn_cascade_pcf(c, world, n);
    if (sel.y > 0.0) lit = mix(lit, gn_cascade_pcf(c + 1u, world, n), sel.y);
    float fade = clamp((view_depth - frame.csm.w) / max(frame.csm.y - frame.csm.w, 1e-6), 0.0, 1.0);
    return mix(lit, 1.0, fade);
}

vec3 gn_cascade_colour(vec3 world)
{
    const vec3 colours[8] = vec3[8](vec3(1, 0.2, 0.2), vec3(0.2, 1, 0.2), vec3(0.2, 0.4, 1), vec3(1, 1, 0.2),
                                    vec3(1, 0.2, 1), vec3(0.2, 1, 1), vec3(1, 0.6, 0.2), vec3(0.7, 0.7, 0.7));
    uint count = uint(frame.csm.x);
    float view_depth = dot(world - frame.camera_pos.xyz, frame.camera_forward.xyz);
    vec2 sel = gn_cascade_select(view_depth);
    uint c = uint(sel.x);
    if (count == 0u || c >= count) return vec3(0.1);
    vec3 col = colours[c];
    if (sel.y > 0.0) col = mix(col, colours[c + 1u], sel.y);
    return col;
}
#endif

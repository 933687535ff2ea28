// Local lights (docs/LIGHTING.md): falloff, spot cone and the radiance arriving at a point.
// Mirrored on the CPU by src/decide/lights.c, which unit-tests them: keep the two identical.
// Units: radiance = brdf * color * intensity * falloff * spot; intensity is in candela, so
// intensity * falloff is the illuminance in lux (inverse square beyond a few metres, half of it
// at 1 m: falloff(1 m) = 1/2); docs/POST.md.
// Needs gn_gpu_light (shared/gpu_types.h) included first. Included by other shaders; no #version.
#ifndef GN_LIGHTS_GLSL
#define GN_LIGHTS_GLSL

// Below this distance the direction to the light is meaningless: (0,0,0) makes n.l = 0.
#define GN_LIGHT_MIN_DISTANCE 1e-6

// Windowed inverse square, exactly 0 at and beyond the radius (Karis 2013).
float gn_light_falloff(float dist, float radius)
{
    float x = dist / radius;
    float x2 = x * x;
    float window = clamp(1.0 - x2 * x2, 0.0, 1.0);
    return window * window / (dist * dist + 1.0);
}

// 1 inside the inner angle, 0 outside the outer; needs cos_outer < cos_inner (gn_light_pack).
float gn_light_spot(float cos_angle_to_axis, float cos_outer, float cos_inner)
{
    return smoothstep(cos_outer, cos_inner, cos_angle_to_axis);
}

// color * falloff * spot arriving at world_pos, and the unit direction towards the light;
// the caller multiplies by the BRDF.
vec3 gn_light_radiance(gn_gpu_light l, vec3 world_pos, out vec3 to_light)
{
    vec3 v = l.position_radius.xyz - world_pos;
    float dist = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    to_light = v * (1.0 / max(dist, GN_LIGHT_MIN_DISTANCE));
    float a = gn_light_falloff(dist, l.position_radius.w);
    if (l.color_type.w > 0.5) { // GN_LIGHT_TYPE_SPOT
        float cos_angle = -dot(to_light, l.direction_cos.xyz);
        a *= gn_light_spot(cos_angle, l.direction_cos.w, l.params.x);
    }
    return l.color_type.rgb * a;
}

#endif // GN_LIGHTS_GLSL

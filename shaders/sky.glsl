// The analytic sky's radiance (nits) along a direction: a gradient from the horizon to the zenith
// and the ground below, from the frame constants; the sun's disc and glow apart, since the sun
// reaches surfaces as the directional light. Shared by the sky pass and the environment map the
// image-based light is made from (shaders/ibl_env.comp), so the two agree. Needs `frame`.
#ifndef GN_SKY_GLSL
#define GN_SKY_GLSL

vec3 gn_sky_radiance(vec3 dir)
{
    float h = dir.y;
    return h >= 0.0 ? mix(frame.sky_horizon.rgb, frame.sky_zenith.rgb, pow(clamp(h, 0.0, 1.0), 0.5))
                    : mix(frame.sky_horizon.rgb, frame.sky_ground.rgb, clamp(-h * 8.0, 0.0, 1.0));
}

// The sun's disc (about 0.53 degrees: cos(0.265 deg) = 0.999989) and the glow around it.
vec3 gn_sun_radiance(vec3 dir)
{
    float c = dot(dir, frame.sun_dir.xyz);
    float disc = smoothstep(0.99997, 0.999989, c);
    float glow = pow(max(c, 0.0), 64.0) * 0.5 + pow(max(c, 0.0), 8.0) * 0.08;
    return frame.sun_color.rgb * (glow + disc * 40.0);
}
#endif

// The local lights that reach a surface point, added to colour one by one in ascending order
// (so the froxel's list and the naive loop sum alike): the froxel's list at slot, or with naive
// (the A/B path) every light. The forward pass and the decals light surfaces with it. Needs
// brdf.glsl, lights.glsl and light_shadow.glsl (the lights and lists) included first.
#ifndef GN_SURFACE_LIGHTS_GLSL
#define GN_SURFACE_LIGHTS_GLSL

void gn_add_local_lights(inout vec3 color, uint slot, uint listed, bool naive, vec3 world, vec3 n, vec3 n_geo, vec3 v,
                         vec3 base, float metallic, float roughness, vec4 spec)
{
    for (uint k = 0u; k < listed; k++) {
        uint i = naive ? k : cluster_lists[slot + 1u + k];
        // A froxel's list holds every light whose sphere touches the froxel: most do not
        // reach a given point of it, or light it from behind. Those two tests read the
        // light's first 16 bytes only and skip the rest (its other 48 bytes, the falloff,
        // the cone, the BRDF), which is where the light loop's cost per listed light went;
        // they skip only lights whose falloff or BRDF is 0 (gn_light_falloff is 0 at and
        // beyond the radius, gn_brdf_eval for n.l <= 0).
        vec4 pr = lights[i].position_radius;
        vec3 d = pr.xyz - world;
        if (d.x * d.x + d.y * d.y + d.z * d.z >= pr.w * pr.w || dot(n, d) <= 0.0) continue;
        vec3 to_light;
        vec3 radiance = gn_light_radiance(lights[i], world, to_light);
        if (lights[i].params.w > 0.5) radiance *= frame.night.x; // a night light (lamps, windows)
        if (radiance.r + radiance.g + radiance.b <= 0.0) continue;
        // the shadow lookup (4 taps) only where the light can reach the surface at all
        vec3 reflected = gn_brdf_eval_dielectric(base, metallic, roughness, spec, n, v, to_light) *
                         radiance;
        if (reflected.r + reflected.g + reflected.b > 0.0)
            color += reflected * gn_light_shadow(lights[i], world, n_geo);
    }
}

#ifdef GL_FRAGMENT_SHADER
// The local lights at the point this fragment shades: its froxel's list, or every light on the
// naive A/B path (the decals and the particles; the forward pass also draws the heat map there).
void gn_add_fragment_lights(inout vec3 color, vec3 world, vec3 n, vec3 n_geo, vec3 v, vec3 base, float metallic,
                            float roughness, vec4 spec)
{
    uint light_count = frame.lights.x;
    if (light_count == 0u) return;
    float view_depth = dot(world - frame.camera_pos.xyz, frame.camera_forward.xyz);
    uint froxel = gn_cluster_index_frag(gl_FragCoord.xy / vec2(frame.mode.zw), view_depth);
    uint slot = froxel * (frame.cluster_grid.w + 1u);
    bool naive = frame.lights.y != 0u;
    gn_add_local_lights(color, slot, naive ? light_count : cluster_lists[slot], naive, world, n, n_geo, v, base,
                        metallic, roughness, spec);
}
#endif

#endif

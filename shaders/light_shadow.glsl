// Shadows of local lights: a spot's layer, or the cube face of a point light that holds the
// direction (the major axis, as gn_light_shadow_face picks it), with a normal offset that
// grows with the distance to the light (about 1.5 texels there) and 4-tap hardware PCF.
// The layers and matrices come from src/passes/light_shadows.c.
#ifndef GN_LIGHT_SHADOW_GLSL
#define GN_LIGHT_SHADOW_GLSL

// Local lights and each froxel's list (count, then indices), written by light binning; the
// shadowed lights' layers and their matrices: the lights' set of the forward pass.
layout(std430, set = GN_SET_LIGHTS, binding = GN_BIND_LIGHTS_LIGHTS) readonly buffer LightBlock { gn_gpu_light lights[]; };
layout(std430, set = GN_SET_LIGHTS, binding = GN_BIND_LIGHTS_LISTS) readonly buffer ClusterBlock { uint cluster_lists[]; };
layout(set = GN_SET_LIGHTS, binding = GN_BIND_LIGHTS_SHADOW_MAP) uniform sampler2DArrayShadow light_shadow_map;
layout(std430, set = GN_SET_LIGHTS, binding = GN_BIND_LIGHTS_SHADOW_MATRIX) readonly buffer LightShadowBlock
{
    mat4 light_shadow_vp[];
};

uint gn_light_shadow_face(vec3 d)
{
    vec3 a = abs(d);
    if (a.x >= a.y && a.x >= a.z) return d.x >= 0.0 ? 0u : 1u;
    if (a.y >= a.z) return d.y >= 0.0 ? 2u : 3u;
    return d.z >= 0.0 ? 4u : 5u;
}

// 1 lit .. 0 shadowed; 1 for a light without a shadow layer this frame.
float gn_light_shadow(gn_gpu_light l, vec3 world, vec3 n)
{
    int first = int(l.params.y);
    if (first < 0) return 1.0;
    vec3 d = world - l.position_radius.xyz;
    uint layer = uint(first);
    if (uint(l.color_type.w) == GN_LIGHT_TYPE_POINT) layer += gn_light_shadow_face(d);
    float size = float(textureSize(light_shadow_map, 0).x);
    // one texel spans ~2 * distance / size at a 90-degree face (less in a narrow spot cone)
    float texel = 2.0 * length(d) / size;
    vec4 clip = light_shadow_vp[layer] * vec4(world + n * (1.5 * texel), 1.0);
    vec3 ndc = clip.xyz / clip.w;
    vec2 uv = ndc.xy * 0.5 + 0.5;
    float h = 0.5 / size;
    float lit = texture(light_shadow_map, vec4(uv + vec2(-h, -h), float(layer), ndc.z)) +
                texture(light_shadow_map, vec4(uv + vec2(h, -h), float(layer), ndc.z)) +
                texture(light_shadow_map, vec4(uv + vec2(-h, h), float(layer), ndc.z)) +
                texture(light_shadow_map, vec4(uv + vec2(h, h), float(layer), ndc.z));
    return lit * 0.25;
}
#endif

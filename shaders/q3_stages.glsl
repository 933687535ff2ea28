// A Quake 3 shader's stages composed in one fragment (src/decide/q3_material.h says how): each stage
// maps the framebuffer fb to fb * D + P by its blendFunc; the chain composes to one such map. Every
// value is affine in the light L (a * L + b): a `$lightmap` stage reads L, a lit colour multiplies by
// it, and gnomon lights the a part as an albedo and emits the b part. Shared by the forward pass and
// the sky (which reads the same stages over its dome and box).
#ifndef GN_Q3_STAGES_GLSL
#define GN_Q3_STAGES_GLSL

layout(std430, set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_STAGE_DATA) readonly buffer StageBlock {
    gn_gpu_stage q3_stages[];
};
layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_SLOTS) uniform sampler2DArray q3_slots;

// The luminance of a fullbright texel of 1 (Quake 3's display value 1.0): the lightmaps' scale
// (src/formats/bsp_light.h, GN_BSP_LIGHT_NITS), so a lit and a fullbright white agree.
const float GN_Q3_NITS = 100.0;

// A slot's image (a layer of the shaders' array) with the caller's derivatives, taken in uniform
// control flow; a clampMap stage's coordinates stop half a texel inside the image.
vec4 gn_q3_sample(uint slot, vec2 uv, vec2 dx, vec2 dy, bool clamped)
{
    if (clamped) {
        vec2 half_texel = 0.5 / vec2(textureSize(q3_slots, 0).xy);
        uv = clamp(uv, half_texel, 1.0 - half_texel);
    }
    return textureGrad(q3_slots, vec3(uv, float(slot)), dx, dy);
}

// a * L + b, per channel
struct gn_q3_value {
    vec3 a, b;
};

// x * y with L squared kept as L (the one approximation: the lit parts' albedos multiply)
gn_q3_value gn_q3_mul(gn_q3_value x, gn_q3_value y)
{
    return gn_q3_value(x.a * (y.a + y.b) + x.b * y.a, x.b * y.b);
}
gn_q3_value gn_q3_scale(gn_q3_value x, float s) { return gn_q3_value(x.a * s, x.b * s); }
gn_q3_value gn_q3_add(gn_q3_value x, gn_q3_value y) { return gn_q3_value(x.a + y.a, x.b + y.b); }

// What a material's stages make at a point: the framebuffer's map fb * d + (pa * L + pb), and
// the alpha the stages leave (the last stage's source alpha); discard: the first stage's alpha
// test failed.
struct gn_q3_result {
    vec3 pa, pb, d;
    float alpha;
    bool discard_it;
};

// Quake 3's environment mapping (its tcGen environment): the reflected view vector in the game's
// axes (x forward, y left, z up; gnomon's y is up and -z is the game's y).
vec2 gn_q3_env_uv(vec3 n, vec3 to_eye)
{
    vec3 r = n * 2.0 * dot(n, to_eye) - to_eye;
    vec3 q = vec3(r.x, -r.z, r.y);
    return vec2(0.5 + q.y * 0.5, 0.5 - q.z * 0.5);
}

// Stage k's texture coordinates before its own matrix: the source uv, moved by its turbulence
// (the game's: a sine of the position in its units, x + z for s and y for t, 1/1024 a turn a unit).
vec2 gn_q3_turb(gn_gpu_stage st, vec2 uv, vec3 world)
{
    if (((st.mode.x >> 25u) & 1u) == 0u) return uv;
    vec3 q = vec3(world.x, -world.z, world.y) * GN_GPU_Q3_UNITS_PER_METRE;
    float amp = st.extra.x, now = st.extra.y;
    return uv + amp * vec2(sin(((q.x + q.z) * (1.0 / 1024.0) + now) * 6.28318531),
                           sin((q.y * (1.0 / 1024.0) + now) * 6.28318531));
}

// alphaGen lightingSpecular's highlight: (r . v)^4, r the key light's direction reflected about n
// and v the direction to the eye, as the game computes it (it places its light at a fixed point of
// the world, gnomon takes the sun's direction).
float gn_q3_specular(vec3 n, vec3 to_eye, vec3 to_light)
{
    vec3 r = n * 2.0 * dot(n, to_light) - to_light;
    float l = max(dot(r, to_eye), 0.0);
    l *= l;
    return min(l * l, 1.0);
}

// The stages of material `mat` composed over a framebuffer map that starts as the identity
// (d = 1, p = 0). uv, uv2: the surface's coordinate sets; env: the environment mapping's uv;
// world: the position (turbulence); spec: alphaGen lightingSpecular's highlight (gn_q3_specular;
// the sky passes 0); dome: a sky's cloud coordinates replace uv when > 0 stages are sky layers (the
// sky pass passes its dome uv as uv).
gn_q3_result gn_q3_compose(uint mat, vec2 uv, vec2 uv2, vec2 env, vec3 world, float spec)
{
    gn_q3_result res;
    gn_q3_value p = gn_q3_value(vec3(0.0), vec3(0.0));
    gn_q3_value d = gn_q3_value(vec3(0.0), vec3(1.0));
    res.alpha = 1.0;
    res.discard_it = false;
    uint base = mat * uint(GN_GPU_Q3_STAGES);
    uint count = min(q3_stages[base].mode.z & 255u, uint(GN_GPU_Q3_STAGES));
    uint first_layer = q3_stages[base].mode.z >> 8u;
    // the derivatives of each source uv, once, in uniform control flow
    vec2 duv_x = dFdx(uv), duv_y = dFdy(uv), duv2_x = dFdx(uv2), duv2_y = dFdy(uv2);
    vec2 denv_x = dFdx(env), denv_y = dFdy(env);
    for (uint k = 0u; k < count; k++) {
        gn_gpu_stage st = q3_stages[base + k];
        uint source = (st.mode.x >> 16u) & 15u, which = (st.mode.x >> 20u) & 15u;
        vec2 src = which == GN_GPU_Q3_UV_LIGHTMAP ? uv2 : which == GN_GPU_Q3_UV_ENV ? env : uv;
        vec2 dx = which == GN_GPU_Q3_UV_LIGHTMAP ? duv2_x : which == GN_GPU_Q3_UV_ENV ? denv_x : duv_x;
        vec2 dy = which == GN_GPU_Q3_UV_LIGHTMAP ? duv2_y : which == GN_GPU_Q3_UV_ENV ? denv_y : duv_y;
        src = gn_q3_turb(st, src, world);
        // the matrix's linear part carries the derivatives along
        vec2 t = vec2(dot(st.tex0.xyz, vec3(src, 1.0)), dot(st.tex1.xyz, vec3(src, 1.0)));
        vec2 tdx = vec2(dot(st.tex0.xy, dx), dot(st.tex1.xy, dx));
        vec2 tdy = vec2(dot(st.tex0.xy, dy), dot(st.tex1.xy, dy));
        if (((st.mode.x >> 28u) & 1u) != 0u) tdx = tdy = vec2(0.0); // nomipmaps: the full-size level
        // the stage's source value S and its alpha
        gn_q3_value s;
        float sa = st.color.a;
        if (source == GN_GPU_Q3_SOURCE_IMAGE) {
            uint frames = max((st.mode.x >> 8u) & 255u, 1u);
            uint slot = first_layer + (st.mode.x & 255u) + min(uint(max(st.extra.z, 0.0)), frames - 1u);
            vec4 texel = gn_q3_sample(slot, t, tdx, tdy, ((st.mode.x >> 26u) & 1u) != 0u);
            s = gn_q3_value(vec3(0.0), texel.rgb * st.color.rgb);
            sa *= texel.a;
        } else if (source == GN_GPU_Q3_SOURCE_LIGHT) {
            s = gn_q3_value(st.color.rgb, vec3(0.0));
        } else {
            s = gn_q3_value(vec3(0.0), st.color.rgb);
        }
        if (((st.mode.x >> 24u) & 1u) != 0u) s = gn_q3_value(s.a + s.b, vec3(0.0)); // times L
        if (((st.mode.x >> 27u) & 1u) != 0u) sa *= spec; // alphaGen lightingSpecular
        uint test = (st.mode.y >> 8u) & 3u;
        bool pass = test == 0u || (test == 1u && sa > 0.0) || (test == 2u && sa < 0.5) || (test == 3u && sa >= 0.5);
        if (!pass) {
            if (k == 0u) res.discard_it = true;
            continue;
        }
        // the blend byte: source factor bits 3-6, destination bits 0-2 (src/decide/tfx.h); the
        // framebuffer's alpha is 1 (gnomon's HDR colour is opaque)
        uint sf = (st.mode.y >> 3u) & 15u, df = st.mode.y & 7u;
        gn_q3_value one = gn_q3_value(vec3(0.0), vec3(1.0)), zero = gn_q3_value(vec3(0.0), vec3(0.0));
        // fb' = fb * dk + pk
        gn_q3_value dk = df == 1u || df == 6u ? one
                         : df == 2u           ? s
                         : df == 3u           ? gn_q3_add(one, gn_q3_scale(s, -1.0))
                         : df == 4u           ? gn_q3_scale(one, sa)
                         : df == 5u           ? gn_q3_scale(one, 1.0 - sa)
                                              : zero;
        gn_q3_value pk = zero;
        if (sf == 0u || sf == 6u) pk = s;                      // one, dst_alpha (1)
        else if (sf == 4u) pk = gn_q3_scale(s, sa);            // src_alpha
        else if (sf == 5u) pk = gn_q3_scale(s, 1.0 - sa);      // one_minus_src_alpha
        else if (sf == 2u) dk = gn_q3_add(dk, s);              // dst_color: fb * S
        else if (sf == 3u) {                                   // one_minus_dst_color: S - fb * S
            pk = s;
            dk = gn_q3_add(dk, gn_q3_scale(s, -1.0));
        } // zero, one_minus_dst_alpha (0), src_alpha_saturate (min(sa, 1 - 1) = 0): nothing
        p = gn_q3_add(gn_q3_mul(p, dk), pk);
        d = gn_q3_mul(d, dk);
        res.alpha = sa;
    }
    res.pa = max(p.a, vec3(0.0));
    res.pb = max(p.b, vec3(0.0));
    res.d = max(d.a + d.b, vec3(0.0)); // the map's lit part at L = 1
    return res;
}

// The dome coordinates of a direction for a cloud layer `height` game units above the eye (the
// twin of gn_q3_sky_dome_uv in src/decide/q3_material.c).
vec2 gn_q3_dome_uv(vec3 dir, float height)
{
    const float radius = 4096.0;
    vec3 q = normalize(vec3(dir.x, -dir.z, dir.y));
    float p = -radius * q.z + sqrt(radius * radius * q.z * q.z + height * height + 2.0 * radius * height);
    vec3 v = normalize(q * p + vec3(0.0, 0.0, radius));
    return vec2(acos(v.x), acos(v.y));
}

// The far box's face and coordinates of a direction (the twin of gn_q3_sky_box_uv).
uint gn_q3_box_uv(vec3 dir, out vec2 uv)
{
    vec3 q = vec3(dir.x, -dir.z, dir.y);
    vec3 a = abs(q);
    float s, t;
    uint face;
    if (a.x >= a.y && a.x >= a.z) {
        face = q.x >= 0.0 ? 0u : 1u;
        s = (q.x >= 0.0 ? -q.y : q.y) / a.x;
        t = q.z / a.x;
    } else if (a.z >= a.y) {
        face = q.z >= 0.0 ? 2u : 3u;
        s = -q.y / a.z;
        t = (q.z >= 0.0 ? -q.x : q.x) / a.z;
    } else {
        face = q.y < 0.0 ? 4u : 5u;
        s = (q.y < 0.0 ? -q.x : q.x) / a.y;
        t = q.z / a.y;
    }
    uv = vec2((s + 1.0) * 0.5, 1.0 - (t + 1.0) * 0.5);
    return face;
}

#endif

// Volumetric fog's froxels (src/passes/volumetric.c): GN_GPU_VOL_X x _Y columns over the view,
// GN_GPU_VOL_Z slices exponential in view depth from frame.volumetric.y to .z, laid out as tiles
// of one 2D atlas. Shared by the inject pass, the integration and their readers. Needs `frame`.
#ifndef GN_VOLUMETRIC_GLSL
#define GN_VOLUMETRIC_GLSL

// The view depth (m) where slice k begins (k continuous; k = Z is the far end).
float gn_vol_depth(float k)
{
    return frame.volumetric.y * pow(frame.volumetric.z / frame.volumetric.y, k / float(GN_GPU_VOL_Z));
}

// The continuous slice coordinate of a view depth (0 at the near end, Z at the far end).
float gn_vol_slice(float depth)
{
    return log(max(depth, 1e-4) / frame.volumetric.y) / log(frame.volumetric.z / frame.volumetric.y) *
           float(GN_GPU_VOL_Z);
}

// A froxel's texel in the atlas.
ivec2 gn_vol_texel(ivec3 f)
{
    return ivec2((f.z % GN_GPU_VOL_TILES_X) * GN_GPU_VOL_X + f.x, (f.z / GN_GPU_VOL_TILES_X) * GN_GPU_VOL_Y + f.y);
}

// The world ray through a froxel column's centre, and how far along it one metre of view depth is.
vec3 gn_vol_ray(ivec2 xy, out float per_depth)
{
    vec2 ndc = (vec2(xy) + 0.5) / vec2(GN_GPU_VOL_X, GN_GPU_VOL_Y) * 2.0 - 1.0;
    vec4 p = frame.inv_view_proj * vec4(ndc, 1e-7, 1.0);
    vec3 dir = normalize(p.xyz / p.w - frame.camera_pos.xyz);
    per_depth = 1.0 / max(dot(dir, frame.camera_forward.xyz), 1e-4);
    return dir;
}

// One slice of an atlas at a screen uv, bilinear inside the slice's tile (clamped to it).
vec4 gn_vol_fetch(sampler2D atlas, vec2 uv, float slice)
{
    const vec2 n = vec2(GN_GPU_VOL_X, GN_GPU_VOL_Y);
    const vec2 size = vec2(GN_GPU_VOL_X * GN_GPU_VOL_TILES_X, GN_GPU_VOL_Y * (GN_GPU_VOL_Z / GN_GPU_VOL_TILES_X));
    vec2 t = clamp(uv * n, vec2(0.5), n - 0.5);
    int k = int(slice);
    vec2 origin = vec2(float(k % GN_GPU_VOL_TILES_X), float(k / GN_GPU_VOL_TILES_X)) * n;
    return textureLod(atlas, (origin + t) / size, 0.0);
}

// The integrated froxels at a screen uv and view depth: rgb the light the fog sends to the eye
// from in front of that depth, a its transmittance. The value at slice k is the far end's.
vec4 gn_vol_integrated(sampler2D atlas, vec2 uv, float depth)
{
    if (frame.volumetric.x < 0.5) return vec4(0.0, 0.0, 0.0, 1.0);
    float s = clamp(gn_vol_slice(depth), 0.0, float(GN_GPU_VOL_Z)) - 1.0;
    if (s < 0.0) return mix(vec4(0.0, 0.0, 0.0, 1.0), gn_vol_fetch(atlas, uv, 0.0), s + 1.0);
    float k = floor(s);
    return mix(gn_vol_fetch(atlas, uv, k), gn_vol_fetch(atlas, uv, min(k + 1.0, float(GN_GPU_VOL_Z - 1))), s - k);
}
#endif

// The opaque surface behind a pixel, from the resolved depth (sample 0's) and its neighbours:
// its point at the pixel's centre and its geometric normal. VSM RESOLVE (vsm_resolve.comp) and
// the decals (decal.glsl) read the surface this way; src/decide/decal.c's gn_decal_surface is
// the CPU reference. The includer declares `frame` (gn_gpu_frame: mode.zw the size,
// inv_view_proj) and `depth_tex` (sampler2D: the resolved depth, reversed-Z, 0 where nothing
// was drawn). Included by other shaders; no #version.
#ifndef GN_DEPTH_SURFACE_GLSL
#define GN_DEPTH_SURFACE_GLSL

// How far (relative) two neighbours' extrapolated depth may miss the pixel's for the three to lie
// on one plane: float rounding is ~1e-7. A feature narrower than three pixels (a pole, a ridge)
// or a curved surface (whose vertex normals the forward pass has) fails it and is looked up per
// fragment: at 1e-3 the town's overview view at noon agreed with the ray-traced truth on 99.33%
// of its off-edge pixels, at 1e-4 on 99.41% (the per-fragment lookup: 99.43%).
const float GN_SURFACE_PLANAR = 1e-4;

// The world position at pixel coordinate xy (top left 0, 0) and depth d (clip -> world).
vec3 gn_surface_world(vec2 xy, float d)
{
    vec2 ndc = xy / vec2(frame.mode.zw) * 2.0 - 1.0;
    vec4 w = frame.inv_view_proj * vec4(ndc, d, 1.0);
    return w.xyz / w.w;
}

// The depth at px, 0 off the screen (as for the sky).
float gn_surface_depth(ivec2 px)
{
    bool inside = all(greaterThanEqual(px, ivec2(0))) && all(lessThan(px, ivec2(frame.mode.zw)));
    return inside ? texelFetch(depth_tex, px, 0).r : 0.0;
}

// The depth's change a pixel along one axis (step s), taken on the side that lies on the
// pixel's own surface, so that an edge's other side never bends it. Reversed-Z depth is affine
// in screen space across a plane, so the side whose two neighbours extrapolate to this pixel's
// depth best is that surface; the nearer depth decides where a side has one neighbour only
// (the difference alone misjudges corners, where both sides step about equally). 0 where
// neither neighbour is surface. planar: some side's two neighbours extrapolate to the pixel's
// depth within GN_SURFACE_PLANAR, so the slope (and the normal from it) can be trusted.
float gn_surface_slope(ivec2 px, ivec2 s, float d, out bool planar)
{
    float a1 = gn_surface_depth(px + s), a2 = gn_surface_depth(px + 2 * s);
    float b1 = gn_surface_depth(px - s), b2 = gn_surface_depth(px - 2 * s);
    float ea = a2 > 0.0 ? abs(2.0 * a1 - a2 - d) : abs(a1 - d);
    float eb = b2 > 0.0 ? abs(2.0 * b1 - b2 - d) : abs(b1 - d);
    planar = (a1 > 0.0 && a2 > 0.0 && ea <= GN_SURFACE_PLANAR * d) || (b1 > 0.0 && b2 > 0.0 && eb <= GN_SURFACE_PLANAR * d);
    if (a1 > 0.0 && (b1 <= 0.0 || ea <= eb)) return a1 - d;
    return b1 > 0.0 ? d - b1 : 0.0;
}

// The surface under pixel px (the shader runs at its centre): false over the sky. sample0 is
// where the depth's sample lies in its pixel (0..1, y down); the depth is carried from there to
// the centre along the surface's own slopes (reversed-Z depth is affine in screen space across
// a plane). p_x, p_y: the same plane's points one pixel right and down (a texture's gradients);
// n: the geometric normal across that plane, facing the camera (a lone pixel faces it).
bool gn_surface_at(ivec2 px, vec2 sample0, out vec3 p, out vec3 p_x, out vec3 p_y, out vec3 n)
{
    float d0 = gn_surface_depth(px);
    p = p_x = p_y = n = vec3(0.0);
    if (d0 <= 0.0) return false;
    bool planar_x, planar_y;
    vec2 slope = vec2(gn_surface_slope(px, ivec2(1, 0), d0, planar_x), gn_surface_slope(px, ivec2(0, 1), d0, planar_y));
    vec2 centre = vec2(px) + 0.5;
    float d = d0 + dot(slope, vec2(0.5) - sample0);
    p = gn_surface_world(centre, d);
    p_x = gn_surface_world(centre + vec2(1.0, 0.0), d + slope.x);
    p_y = gn_surface_world(centre + vec2(0.0, 1.0), d + slope.y);
    vec3 to_camera = normalize(frame.camera_pos.xyz - p);
    n = cross(p_x - p, p_y - p);
    float len = length(n);
    n = len > 0.0 ? n / len : to_camera;
    if (dot(n, to_camera) < 0.0) n = -n;
    return true;
}

#endif

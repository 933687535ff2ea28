#version 450
// VSM RESOLVE (docs/SHADOWS.md): the sun's visibility for every pixel of the resolved depth,
// into one 32-bit word a pixel (shaders/vsm_resolve.glsl) that the forward pass reads instead
// of looking the pages up itself. The lookup is the forward pass's (gn_vsm_find and
// gn_vsm_sample in vsm.glsl), at the pixel centre's surface point and geometric normal, both
// from the depth and its neighbours. Where the previous frame saw the same surface
// in the same page, its word is blended in (temporal accumulation) and the PCF is moved by
// this frame's sub-texel offset, so the frames average a finer filter; everywhere else the
// pixel gets this frame's lookup alone, with no offset: exactly the forward pass's value.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_RESOLVE_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(set = 0, binding = GN_BIND_RESOLVE_DEPTH) uniform sampler2D depth_tex;      // resolved, sample 0
layout(set = 0, binding = GN_BIND_RESOLVE_HISTORY) uniform usampler2D history_tex;   // the previous frame's words
layout(set = 0, binding = GN_BIND_RESOLVE_MASK, r32ui) uniform writeonly uimage2D mask_out; // this frame's
#define GN_VSM_SET 0
#define GN_VSM_BIND_TABLE GN_BIND_RESOLVE_TABLE
#define GN_VSM_BIND_VERSIONS GN_BIND_RESOLVE_VERSIONS
#define GN_VSM_BIND_ATLAS GN_BIND_RESOLVE_ATLAS
#include "vsm.glsl"
#include "vsm_resolve.glsl"

// This frame's weight against the accumulated history: the history's weight falls as 0.8^n, so
// about the last 1 / 0.2 = 5 frames count (more than the 4 offsets of the pattern, which the
// mean then spans), and a change the rejection below misses is 90% gone after 10 frames.
const float GN_RESOLVE_ALPHA = 0.2;
// Relative depth difference beyond which the previous frame saw another surface. Reversed-Z
// depth is affine in screen space across a plane, so interpolating the previous depths
// reproduces a still surface's depth to rounding (and the half float it is kept in: 2^-11);
// 1% is a surface 1 m in front of or behind it at 100 m.
const float GN_RESOLVE_DEPTH_TOLERANCE = 0.01;

#include "depth_surface.glsl"

// The previous frame's visibility at p: p reprojected through last frame's view-projection,
// the 2x2 words around it interpolated. Rejected (false) off the previous screen, where any of
// the words sampled another level, or where their interpolated depth is not p's (a surface
// disoccluded, or the sky).
bool gn_resolve_history(vec3 p, uint code, out float history)
{
    history = 0.0;
    vec4 c = frame.prev_view_proj * vec4(p, 1.0);
    if (c.w <= 0.0) return false;
    vec3 ndc = c.xyz / c.w;
    vec2 size = vec2(frame.mode.zw);
    vec2 prev_px = (ndc.xy * 0.5 + 0.5) * size;
    if (ndc.z <= 0.0 || any(lessThan(prev_px, vec2(0.0))) || any(greaterThanEqual(prev_px, size))) return false;
    // words sit at their pixels' centres
    vec2 t = prev_px - 0.5;
    ivec2 base = ivec2(floor(t));
    vec2 f = t - vec2(base);
    float depth = 0.0, visible = 0.0;
    for (int k = 0; k < 4; k++) {
        ivec2 o = ivec2(k & 1, k >> 1);
        float weight = (o.x == 1 ? f.x : 1.0 - f.x) * (o.y == 1 ? f.y : 1.0 - f.y);
        if (weight <= 0.0) continue;
        uint w = texelFetch(history_tex, clamp(base + o, ivec2(0), ivec2(size) - 1), 0).r;
        if (gn_mask_level(w) != code && frame.vsm_resolve.z == 0u) return false;
        depth += weight * gn_mask_depth(w);
        visible += weight * gn_mask_visible(w);
    }
    if (abs(depth - ndc.z) > GN_RESOLVE_DEPTH_TOLERANCE * ndc.z && frame.vsm_resolve.z == 0u) return false;
    history = visible;
    return true;
}

void main()
{
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (px.x >= int(frame.mode.z) || px.y >= int(frame.mode.w)) return;
    float d0 = texelFetch(depth_tex, px, 0).r;
    if (d0 <= 0.0) { // the sky: no surface, no shadow
        imageStore(mask_out, px, uvec4(gn_mask_pack(1.0, GN_GPU_VSM_MASK_NO_PAGE, false, false, 0.0)));
        return;
    }
    // The depth is sample 0's; the forward pass shades the pixel centre, so the surface is
    // followed there: reversed-Z depth is affine in screen space across a plane, so the
    // neighbours' slopes carry it exactly (a point 0.4 pixel off would move shadow edges).
    bool planar_x, planar_y;
    vec2 slope = vec2(gn_surface_slope(px, ivec2(1, 0), d0, planar_x), gn_surface_slope(px, ivec2(0, 1), d0, planar_y));
    vec2 centre = vec2(px) + 0.5;
    float d = d0 + dot(slope, vec2(0.5) - frame.vsm_resolve_params.zw);
    vec3 p = gn_surface_world(centre, d);
    // the geometric normal: across the plane those slopes span, turned towards the camera (back
    // faces are culled, so every visible surface faces it); a lone pixel faces the camera
    vec3 to_camera = normalize(frame.camera_pos.xyz - p);
    vec3 n_geo = cross(gn_surface_world(centre + vec2(1.0, 0.0), d + slope.x) - p,
                       gn_surface_world(centre + vec2(0.0, 1.0), d + slope.y) - p);
    float len = length(n_geo);
    n_geo = len > 0.0 ? n_geo / len : to_camera;
    if (dot(n_geo, to_camera) < 0.0) n_geo = -n_geo;
    // surfaces facing away from the sun are in their own shadow
    float facing = dot(n_geo, frame.sun_dir.xyz) > 0.0 ? 1.0 : 0.0;
    uint level;
    ivec2 ij;
    uvec4 e;
    bool found = gn_vsm_find(p, level, ij, e);
    uint code = found ? level : GN_GPU_VSM_MASK_NO_PAGE;
    // a page rendered this frame may hold another shadow than the history saw (the sun moved,
    // a dynamic object moved, the page is new): this frame's lookup alone
    bool now = found && (e.y & GN_GPU_VSM_RENDERED_NOW) != 0u;
    float history;
    bool have = frame.vsm_resolve.y != 0u && !now && gn_resolve_history(p, code, history);
    vec2 jitter = have ? frame.vsm_resolve_params.xy : vec2(0.0);
    float visible = (found ? gn_vsm_sample(p, n_geo, level, ij, e, jitter) : 1.0) * facing;
    if (have) visible = mix(history, visible, GN_RESOLVE_ALPHA);
    // where the normal cannot be trusted the word claims no surface (depth 0): the forward pass
    // then looks the pages up with its own normal, and no later frame takes it as history
    imageStore(mask_out, px, uvec4(gn_mask_pack(visible, code, now, facing > 0.0, planar_x && planar_y ? d : 0.0)));
}

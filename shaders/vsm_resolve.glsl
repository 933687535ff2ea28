// RESOLVE's mask word (the layout is in shared/gpu_types.h): written by vsm_resolve.comp, read
// by it as history and by the forward pass.
#ifndef GN_VSM_RESOLVE_GLSL
#define GN_VSM_RESOLVE_GLSL

// level: the level sampled, or >= 31 for no page; facing: the surface faces the sun (the
// depth's sign bit carries it: depth is never negative)
uint gn_mask_pack(float visible, uint level, bool rendered_now, bool facing, float depth)
{
    uint v = uint(clamp(visible, 0.0, 1.0) * 1023.0 + 0.5);
    uint code = min(level, GN_GPU_VSM_MASK_NO_PAGE) | (rendered_now ? 32u : 0u);
    uint half_depth = packHalf2x16(vec2(max(depth, 0.0), 0.0)) & 0x7fffu;
    return v | (code << 10u) | (half_depth << 16u) | (facing ? 0x80000000u : 0u);
}

float gn_mask_visible(uint w) { return float(w & 1023u) / 1023.0; }
uint gn_mask_level(uint w) { return (w >> 10u) & 31u; } // GN_GPU_VSM_MASK_NO_PAGE: none
bool gn_mask_rendered_now(uint w) { return (w & (1u << 15u)) != 0u; }
bool gn_mask_facing(uint w) { return (w & 0x80000000u) != 0u; }
float gn_mask_depth(uint w) { return unpackHalf2x16((w >> 16u) & 0x7fffu).x; }

#endif

#version 450
// The predictor's pyramids (vsm_hzb.glsl): of the tiles that still hold their page's depth
// under an older light, before BIN.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
layout(set = 0, binding = GN_BIND_VSM_HZB_DEPTH) uniform sampler2D atlas;
#define SKIP(e) ((entries[e].page.w & GN_GPU_VSM_RENDER_HELD) == 0u)
#define FETCH(e, p) texelFetch(atlas, gn_vsm_tile_origin(e) + (p), 0).r
#include "vsm_hzb.glsl"

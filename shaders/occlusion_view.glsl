// --view occlusion (src/passes/cull.c): the HZB over the frame, then the rectangles of the
// instances occlusion culling hid, in red. Set 0 is the culling's, set 1 the output.
#include "cull.glsl"
#include "hzb_test.glsl"

layout(set = 1, binding = 0, rgba8) uniform image2D ldr;

// The level shown: texels of 8x8 pixels (level 2), or the last for a tiny image.
uint shown_level() { return min(2u, pc.hzb.z - 1u); }

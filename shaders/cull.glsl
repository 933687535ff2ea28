// GPU culling of the camera's list (src/passes/cull.c): the bindings and push constants of its
// three dispatches. The scene's instances sit in a static draw-key order (the CPU sorts them once
// a scene: slot i holds instance order[i]); TEST marks each slot visible and ranks it within its
// block of 256, SCAN turns the blocks' counts into prefixes, WRITE scatters the visible ids in
// slot order and writes each group's indirect command (device-local buffers the draws read). Nothing depends on the order
// of atomics, so the list is the CPU's (gn_draw_list_build) exactly: the same ids, the same order.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

#define GN_CULL_BLOCK 256u

layout(std430, set = 0, binding = GN_BIND_CULL_INSTANCES) readonly buffer InstanceBlock { gn_gpu_instance instances[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_ORDER) readonly buffer OrderBlock { uint order[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_GROUPS) readonly buffer GroupBlock { gn_gpu_cull_group groups[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_LOCAL) buffer LocalBlock { uint local_rank[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_BLOCKS) buffer BlocksBlock { uint blocks[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_COUNTS) buffer CountsBlock { uint counts[4]; };
layout(std430, set = 0, binding = GN_BIND_CULL_RING) readonly buffer RingBlock { uint ring[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_VISIBLE) writeonly buffer VisibleBlock { uint visible_ids[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_COMMANDS) writeonly buffer CommandBlock { uint commands[]; };

layout(push_constant) uniform Push { gn_gpu_cull_push pc; };

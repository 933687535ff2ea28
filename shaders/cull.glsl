// GPU culling of every view (src/passes/cull.c): the bindings and push constants of its three
// dispatches, each over (slots or blocks) x views. The scene's instances sit in a static
// draw-key order (the CPU sorts them once a scene: slot i holds instance order[i]); TEST marks
// each slot visible in a view and ranks it within its block of 256, SCAN turns the blocks'
// counts into prefixes, WRITE scatters the visible ids in slot order into the view's window
// and writes its groups' indirect commands (device-local buffers the draws read). Nothing
// depends on the order of atomics, so each list is the CPU's (gn_draw_list_build) exactly: the
// same ids, the same order.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

#define GN_CULL_BLOCK 256u

layout(std430, set = 0, binding = GN_BIND_CULL_INSTANCES) readonly buffer InstanceBlock { gn_gpu_instance instances[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_ORDER) readonly buffer OrderBlock { uint order[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_GROUPS) readonly buffer GroupBlock { gn_gpu_cull_group groups[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_LOCAL) buffer LocalBlock { uint local_rank[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_BLOCKS) buffer BlocksBlock { uint blocks[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_COUNTS) buffer CountsBlock { uint counts[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_RING) readonly buffer RingBlock { uint ring[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_VISIBLE) writeonly buffer VisibleBlock { uint visible_ids[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_COMMANDS) writeonly buffer CommandBlock { uint commands[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_VIEWS) readonly buffer ViewBlock { gn_gpu_cull_view views[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_HZB) readonly buffer HzbBlock { float hzb[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_HISTORY) buffer HistoryBlock { uint history[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_SLOT_CLUSTERS) readonly buffer SlotClusterBlock { uint slot_clusters[]; };
layout(std430, set = 0, binding = GN_BIND_CULL_CLUSTERS) readonly buffer ClusterBlock { gn_gpu_cluster clusters[]; };

layout(push_constant) uniform Push { gn_gpu_cull_push pc; };

// the view this workgroup culls (of the frame's: its window's index), and its record
uint view_index() { return pc.where.y + gl_WorkGroupID.y; }
gn_gpu_cull_view the_view() { return views[pc.where.x + view_index()]; }
// each view's visible total sits after the tags' counts
uint total_at(uint v) { return GN_CULL_TAGS * 4u + v; }

/* The C side of shaders/shared/gpu_types.h: the sizes the shaders expect, checked at
 * compile time (std140/std430 with vec4-only members have no padding to disagree on). */
#include "decide/skin.h"
#include "scene/scene.h"
#include "shared/gpu_types.h"

#include <stddef.h>
#include <vulkan/vulkan.h>

_Static_assert(
    sizeof(gn_gpu_frame) == 2 * 64 + 16 * 16 + 16 + GN_GPU_MAX_CASCADES * (64 + 16) + 64 + 3 * 16 + 16 +
                                3 * 16 + 4 * 16 + GN_GPU_VSM_MAX_LEVELS / 2 * 16 + 64 + 16 + 16 + 16 +
                                5 * 16 + 13 * 16 + 2 * 16 + 64 + 16,
    "gn_gpu_frame: 2 mat4, 16 vec4, 1 uvec4, a mat4 and a vec4 per cascade, then the "
    "view mat4, cluster_grid, cluster_depth, lights, cluster_proj, the VSM block and RESOLVE's "
    "mat4 and two vec4, the debug views' vec4, ambient occlusion's and depth of field's two each, "
    "image-based light's one, the atmosphere's and the fogs' thirteen, volumetric fog's two and its mat4, "
    "alpha to coverage's uvec4");
_Static_assert(sizeof(gn_gpu_ao_push) == 7 * 16, "gn_gpu_ao_push: seven uvec4 (within 128 bytes)");
_Static_assert(offsetof(gn_gpu_frame, prev_view_proj) % 16 == 0, "std140: matrices on 16 bytes");
_Static_assert(sizeof(gn_gpu_vsm_page) == 16, "gn_gpu_vsm_page: one uvec4");
_Static_assert(sizeof(gn_gpu_q3_fog) == (3 + GN_GPU_Q3_FOG_PLANES) * 16, "gn_gpu_q3_fog: vec4s only");
_Static_assert(sizeof(gn_gpu_cluster) == 64, "gn_gpu_cluster: four vec4s");
_Static_assert(sizeof(gn_gpu_vsm_state) == 32, "gn_gpu_vsm_state: two uvec4");
_Static_assert(sizeof(gn_gpu_vsm_render) == 32, "gn_gpu_vsm_render: a uvec4 and a vec4");
_Static_assert(sizeof(gn_gpu_vsm_caster) == 48, "gn_gpu_vsm_caster: three vec4s");
_Static_assert(sizeof(gn_gpu_vsm_stats) == 208, "gn_gpu_vsm_stats: thirteen uvec4s");
_Static_assert(offsetof(gn_gpu_frame, cascade_view_proj) % 16 == 0, "std140: matrices on 16 bytes");
_Static_assert(offsetof(gn_gpu_frame, camera_pos) == 128, "gn_gpu_frame.camera_pos follows the matrices");
_Static_assert(sizeof(gn_gpu_instance) == 80, "gn_gpu_instance: 3 rows + info + sphere");
_Static_assert(sizeof(gn_gpu_cull_group) == 32, "gn_gpu_cull_group: 2 uvec4");
_Static_assert(sizeof(gn_gpu_cull_push) == 112, "gn_gpu_cull_push: 7 vec4s, within the guaranteed 128 bytes");
_Static_assert(sizeof(gn_gpu_hzb_push) == 32, "gn_gpu_hzb_push: two uvec4");
_Static_assert(sizeof(gn_gpu_stage) == 5 * 16, "gn_gpu_stage: 5 vec4");
_Static_assert(sizeof(gn_gpu_material) == 5 * 16 + 2 * GN_GPU_UV_SLOTS * 16,
               "gn_gpu_material: 5 vec4, then two a texture slot's uv transform");
_Static_assert(GN_GPU_UV_SLOTS == GN_MATERIAL_MAPS && GN_GPU_UV_EMISSIVE == GN_MATERIAL_MAP_EMISSIVE,
               "a material's uv transforms: one a map, in gn_material_map's order");
_Static_assert(sizeof(gn_gpu_exposure) == 48 + GN_GPU_EXPOSURE_BINS * 4, "gn_gpu_exposure: 3 vec4, the bins");
_Static_assert(sizeof(gn_vertex) == 56, "gn_vertex: the vertex input layout in src/vk/pipeline.c");
_Static_assert(sizeof(VkDrawIndexedIndirectCommand) == 20, "indirect command stride");
#include "gnomon.h"
_Static_assert(sizeof(gn_gpu_skin_job) == 112, "gn_gpu_skin_job: 7 vec4");
_Static_assert(sizeof(gn_gpu_skin_influence) == 48, "gn_gpu_skin_influence: 3 vec4");
_Static_assert(sizeof(gn_gpu_skin_delta) == 32, "gn_gpu_skin_delta: 2 vec4");
_Static_assert(GN_GPU_SKIN_ACTIVE == GN_MORPH_MAX_ACTIVE, "the GPU's active morphs a job");

/* glTF's KHR_texture_transform as one 2x3 matrix: composed once on the CPU for each texture
 * slot of a material, packed into gn_gpu_material.uv_transform and applied by the shaders'
 * gn_material_uv, so the CPU and the GPU read the same numbers. */
#ifndef GN_DECIDE_UV_TRANSFORM_H
#define GN_DECIDE_UV_TRANSFORM_H

/* M = T(offset) R(rotation) S(scale), the extension's order, as rows (m00, m01, m02) and (m10,
 * m11, m12): u' = m00 u + m01 v + m02, v' = m10 u + m11 v + m12. R is the extension's rotation
 * matrix, which turns +u towards -v (rotation counter-clockwise with v pointing down the image;
 * the TextureTransformTest sample model's arrows agree). scale NULL: (1, 1). */
void gn_uv_transform_matrix(const float offset[2], float rotation, const float scale[2], float m[6]);
/* M (u, v, 1): the uv a texture is sampled at (shaders/common.glsl gn_material_uv). */
void gn_uv_transform_apply(const float m[6], const float uv[2], float out[2]);

#endif

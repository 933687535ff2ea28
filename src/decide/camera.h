/* Camera matrices: reversed-Z infinite perspective for Vulkan clip space, a yaw/pitch view,
 * and the few 4x4 helpers the decisions need. All matrices are column-major float[16]
 * (m[col*4+row], the OpenGL/cglm layout) and multiply column vectors: clip = P * V * p.
 * World: metres, right-handed, +Y up, +X east, -Z north. */
#ifndef GN_DECIDE_CAMERA_H
#define GN_DECIDE_CAMERA_H

#include <stdbool.h>
#include <stdint.h>

/* Reversed-Z, infinite far plane, Vulkan clip (y down, depth 0..1): a point `near_plane`
 * metres ahead maps to depth 1, a point at infinity to depth 0. */
void gn_camera_projection(float fov_y_rad, float aspect, float near_plane, float out[16]);
/* World-to-view: view space looks down -Z with +Y up. Degrees; yaw 0 looks down -Z (north),
 * positive yaw turns left (towards -X), positive pitch looks up. */
void gn_camera_view(const float pos[3], float yaw_deg, float pitch_deg, float out_view[16]);
void gn_camera_forward(float yaw_deg, float pitch_deg, float out[3]); /* unit look direction */

void gn_mat4_mul(const float a[16], const float b[16], float out[16]); /* out = a * b; out may alias */
bool gn_mat4_inverse(const float m[16], float out[16]);                /* false (out untouched) if singular */
void gn_mat4_transform_point(const float m[16], const float p[3], float out_clip[4]); /* m * (p, 1) */

/* Where sample 0 of an msaa-sample pixel lies (x, y in 0..1, y down), at the standard sample
 * locations (Vulkan spec, "Multisampling"); 1 (or an unknown count): the centre. The depth a
 * SAMPLE_ZERO resolve keeps is measured there. */
void gn_msaa_sample0(uint32_t msaa, float *x, float *y);

#endif

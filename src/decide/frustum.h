/* View-frustum planes from a view-projection matrix, and sphere/box tests against them. */
#ifndef GN_DECIDE_FRUSTUM_H
#define GN_DECIDE_FRUSTUM_H

#include <stdbool.h>
#include <stdint.h>

/* Up to six planes (a,b,c,d) with unit normals pointing inwards: a point p is inside a plane
 * when dot((a,b,c), p) + d >= 0. `count` planes are valid; a reversed-Z infinite projection
 * gives 5 (left, right, top, bottom, near; the far plane at infinity is dropped). */
typedef struct gn_frustum {
    float planes[6][4];
    uint32_t count;
} gn_frustum;

/* Gribb-Hartmann extraction for Vulkan clip space (depth 0..1, either Z direction); planes
 * whose normal vanishes (a plane at infinity) are dropped. Works for perspective and ortho. */
void gn_frustum_from_view_proj(const float view_proj[16], gn_frustum *out);
/* Both tests are conservative: false means certainly outside, true means maybe visible. */
bool gn_frustum_test_sphere(const gn_frustum *f, const float c[3], float r);
bool gn_frustum_test_aabb(const gn_frustum *f, const float mn[3], const float mx[3]);

#endif

/* KHR_texture_transform's matrix (decide/uv_transform.h). */
#include "decide/uv_transform.h"

#include <math.h>

void gn_uv_transform_matrix(const float offset[2], float rotation, const float scale[2], float m[6])
{
    float c = cosf(rotation), s = sinf(rotation);
    float sx = scale ? scale[0] : 1.0f, sy = scale ? scale[1] : 1.0f;
    /* T R S with R = [c s; -s c]: the scale acts first, on the columns */
    m[0] = c * sx, m[1] = s * sy, m[2] = offset ? offset[0] : 0.0f;
    m[3] = -s * sx, m[4] = c * sy, m[5] = offset ? offset[1] : 0.0f;
}

void gn_uv_transform_apply(const float m[6], const float uv[2], float out[2])
{
    float u = uv[0], v = uv[1];
    out[0] = m[0] * u + m[1] * v + m[2];
    out[1] = m[3] * u + m[4] * v + m[5];
}

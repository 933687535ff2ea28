/* KHR_texture_transform's matrix (decide/uv_transform.h) against values worked by hand from the
 * extension's T * R * S, and the TextureTransformTest model's "Rotation" case: its arrow's tip
 * must land on the "Correct" marker's side, not on "Error"'s. */
#include <math.h>

#include "check.h"
#include "decide/uv_transform.h"

static void check_matrix(const char *what, const float m[6], const float want[6])
{
    for (int k = 0; k < 6; k++)
        CHECK(fabsf(m[k] - want[k]) < 1e-6f, "%s: m[%d] = %.7f, want %.7f", what, k, m[k], want[k]);
}

int main(void)
{
    float m[6];
    /* none: the identity */
    gn_uv_transform_matrix(NULL, 0.0f, NULL, m);
    check_matrix("identity", m, (const float[6]){1, 0, 0, 0, 1, 0});
    /* offset alone: a translation */
    gn_uv_transform_matrix((const float[2]){0.5f, -0.25f}, 0.0f, (const float[2]){1, 1}, m);
    check_matrix("offset", m, (const float[6]){1, 0, 0.5f, 0, 1, -0.25f});
    /* scale alone: the diagonal */
    gn_uv_transform_matrix(NULL, 0.0f, (const float[2]){2, 3}, m);
    check_matrix("scale", m, (const float[6]){2, 0, 0, 0, 3, 0});
    /* a quarter turn: R = [cos sin; -sin cos] = [0 1; -1 0], so (1, 0) -> (0, -1) */
    gn_uv_transform_matrix(NULL, 1.5707963f, NULL, m);
    check_matrix("rotation 90", m, (const float[6]){0, 1, 0, -1, 0, 0});
    /* T R S: the scale first, then the rotation, then the offset. Offset (0.1, 0.2), rotation
     * 30 degrees (cos 0.8660254, sin 0.5), scale (2, 4): rows (2 cos, 4 sin, 0.1) and (-2 sin,
     * 4 cos, 0.2) = (1.7320508, 2, 0.1), (-1, 3.4641016, 0.2) */
    gn_uv_transform_matrix((const float[2]){0.1f, 0.2f}, 0.52359878f, (const float[2]){2, 4}, m);
    check_matrix("T R S", m, (const float[6]){1.7320508f, 2.0f, 0.1f, -1.0f, 3.4641016f, 0.2f});
    float uv[2];
    gn_uv_transform_apply(m, (const float[2]){0.5f, 0.25f}, uv);
    /* (1.7320508 * 0.5 + 2 * 0.25 + 0.1, -0.5 + 3.4641016 * 0.25 + 0.2) */
    CHECK(fabsf(uv[0] - 1.4660254f) < 1e-6f && fabsf(uv[1] - 0.5660254f) < 1e-6f, "applied: (%g, %g)", uv[0],
          uv[1]);
    /* The sample model's "Rotation" (0.39269908 rad): the arrow texture's tip, near texel uv
     * (0.69, 0.66), shows where M uv = tip. Solving with M^-1 = R^T (a rotation): u = c tu - s tv,
     * v = s tu + c tv = (0.384, 0.874), left of the square's centre and low: its "Correct" marker
     * sits at (-0.08, -0.52) from the centre (x = u - 0.5, y = 0.5 - v: -0.116, -0.374); the
     * "Error" marker (0.52, 0.08) is where the opposite sign of rotation would put it. */
    gn_uv_transform_matrix(NULL, 0.39269908f, NULL, m);
    float c = m[0], s = m[1], tip[2] = {0.69f, 0.66f};
    float u = c * tip[0] - s * tip[1], v = s * tip[0] + c * tip[1];
    CHECK(u - 0.5f < 0.0f && 0.5f - v < -0.3f, "the arrow's tip shows at (%g, %g) of the square", u - 0.5f,
          0.5f - v);
    gn_uv_transform_apply(m, (const float[2]){u, v}, uv);
    CHECK(fabsf(uv[0] - tip[0]) < 1e-5f && fabsf(uv[1] - tip[1]) < 1e-5f, "M M^-1 tip = (%g, %g)", uv[0],
          uv[1]);
    return gn_check_exit();
}

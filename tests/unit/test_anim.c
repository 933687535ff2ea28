/* Animation samplers, slerp and dual quaternions (decide/anim.c) against values worked by hand from
 * the glTF 2.0 specification's definitions: a linear translation, a step, a rotation's slerp (and
 * its shorter arc), a cubic spline's Hermite segment with its tangents scaled by the interval,
 * clamping at both ends, the refusals; and the 180-degree twist that linear blend skinning
 * collapses and dual quaternions keep. */
#include <math.h>

#include "check.h"
#include "decide/anim.h"

#define NEAR(a, b, tol) (fabsf((a) - (b)) <= (tol))

static void test_linear_and_step(void)
{
    const float times[2] = {0, 2}, values[6] = {0, 0, 0, 2, 4, 6};
    gn_anim_sampler s = {times, values, 2, 3, GN_ANIM_LINEAR, false};
    char why[128] = "";
    CHECK(gn_anim_sampler_check(&s, why, sizeof why), "refused: %s", why);
    float o[3];
    gn_anim_sample(&s, 0.5f, o); /* a quarter of the way */
    CHECK(NEAR(o[0], 0.5f, 1e-6f) && NEAR(o[1], 1.0f, 1e-6f) && NEAR(o[2], 1.5f, 1e-6f), "linear (%g %g %g)",
          (double)o[0], (double)o[1], (double)o[2]);
    gn_anim_sample(&s, -1.0f, o); /* before the first keyframe: the first value */
    CHECK(o[0] == 0.0f && o[2] == 0.0f, "before: (%g %g %g)", (double)o[0], (double)o[1], (double)o[2]);
    gn_anim_sample(&s, 3.0f, o); /* after the last: the last */
    CHECK(o[0] == 2.0f && o[1] == 4.0f && o[2] == 6.0f, "after: (%g %g %g)", (double)o[0], (double)o[1],
          (double)o[2]);

    const float st[3] = {0, 1, 2}, sv[3] = {1, 5, 9};
    gn_anim_sampler step = {st, sv, 3, 1, GN_ANIM_STEP, false};
    float v;
    gn_anim_sample(&step, 0.99f, &v);
    CHECK(v == 1.0f, "step at 0.99: %g, want 1", (double)v);
    gn_anim_sample(&step, 1.0f, &v); /* a keyframe's own time takes its value */
    CHECK(v == 5.0f, "step at 1: %g, want 5", (double)v);
    gn_anim_sample(&step, 1.5f, &v);
    CHECK(v == 5.0f, "step at 1.5: %g, want 5", (double)v);
}

static void test_slerp(void)
{
    /* identity to 90 degrees about z: halfway is 45 degrees, (0, 0, sin 22.5, cos 22.5) */
    const float times[2] = {0, 1};
    const float values[8] = {0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f};
    gn_anim_sampler s = {times, values, 2, 4, GN_ANIM_LINEAR, true};
    float q[4];
    gn_anim_sample(&s, 0.5f, q);
    CHECK(NEAR(q[2], 0.38268343f, 1e-5f) && NEAR(q[3], 0.92387953f, 1e-5f) && NEAR(q[0], 0.0f, 1e-6f),
          "slerp halfway (%g %g %g %g)", (double)q[0], (double)q[1], (double)q[2], (double)q[3]);
    /* the same end written with the other sign: still the shorter arc, the same halfway */
    const float flipped[8] = {0, 0, 0, 1, 0, 0, -0.70710678f, -0.70710678f};
    s.values = flipped;
    gn_anim_sample(&s, 0.5f, q);
    CHECK(NEAR(q[2], 0.38268343f, 1e-5f) && NEAR(q[3], 0.92387953f, 1e-5f), "shorter arc (%g %g %g %g)",
          (double)q[0], (double)q[1], (double)q[2], (double)q[3]);
    /* a third of the way: 30 degrees, (0, 0, sin 15, cos 15) (a lerp would give 28.9 degrees) */
    s.values = values;
    gn_anim_sample(&s, 1.0f / 3.0f, q);
    CHECK(NEAR(q[2], 0.25881905f, 1e-5f) && NEAR(q[3], 0.96592583f, 1e-5f), "slerp a third (%g %g)",
          (double)q[2], (double)q[3]);
}

static void test_cubic(void)
{
    /* two keyframes 2 s apart: (in, value, out) = (0, 0, 3) and (1, 4, 0). At t = 1, u = 0.5:
       h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125, m0 = 2 * 3, m1 = 2 * 1:
       0.5 * 0 + 0.125 * 6 + 0.5 * 4 - 0.125 * 2 = 2.5 */
    const float times[2] = {0, 2}, values[6] = {0, 0, 3, 1, 4, 0};
    gn_anim_sampler s = {times, values, 2, 1, GN_ANIM_CUBIC, false};
    char why[128] = "";
    CHECK(gn_anim_sampler_check(&s, why, sizeof why), "refused: %s", why);
    float v;
    gn_anim_sample(&s, 1.0f, &v);
    CHECK(NEAR(v, 2.5f, 1e-6f), "cubic at 1: %g, want 2.5", (double)v);
    gn_anim_sample(&s, 2.0f, &v); /* the value, not a tangent */
    CHECK(v == 4.0f, "cubic at the end: %g, want 4", (double)v);
    gn_anim_sample(&s, 0.0f, &v);
    CHECK(v == 0.0f, "cubic at the start: %g, want 0", (double)v);
    /* u = 0.25 (t = 0.5): h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = -0.046875:
       0.140625 * 6 + 0.15625 * 4 - 0.046875 * 2 = 1.375 */
    gn_anim_sample(&s, 0.5f, &v);
    CHECK(NEAR(v, 1.375f, 1e-6f), "cubic at 0.5: %g, want 1.375", (double)v);
}

static void test_refusals(void)
{
    char why[128];
    const float bad_times[3] = {0, 1, 1}, values[12] = {0};
    gn_anim_sampler s = {bad_times, values, 3, 1, GN_ANIM_LINEAR, false};
    CHECK(!gn_anim_sampler_check(&s, why, sizeof why), "repeated time accepted");
    const float times[2] = {0, 1};
    gn_anim_sampler r = {times, values, 2, 3, GN_ANIM_LINEAR, true};
    CHECK(!gn_anim_sampler_check(&r, why, sizeof why), "a 3-wide rotation accepted");
    const float nan_values[2] = {0, NAN};
    gn_anim_sampler n = {times, nan_values, 2, 1, GN_ANIM_STEP, false};
    CHECK(!gn_anim_sampler_check(&n, why, sizeof why), "a NaN value accepted");
    gn_anim_sampler none = {times, values, 0, 1, GN_ANIM_STEP, false};
    CHECK(!gn_anim_sampler_check(&none, why, sizeof why), "no keyframes accepted");
}

static void test_dual_quat(void)
{
    /* a translation alone, and a quarter turn about z then a step along x */
    const float id[4] = {0, 0, 0, 1}, t[3] = {1, 2, 3}, p1[3] = {1, 1, 1};
    gn_dual_quat a = gn_dq_from_rt(id, t);
    float o[3];
    gn_dq_transform(&a, p1, o);
    CHECK(NEAR(o[0], 2, 1e-6f) && NEAR(o[1], 3, 1e-6f) && NEAR(o[2], 4, 1e-6f), "translate (%g %g %g)",
          (double)o[0], (double)o[1], (double)o[2]);
    const float quarter_z[4] = {0, 0, 0.70710678f, 0.70710678f}, tx[3] = {1, 0, 0}, px[3] = {1, 0, 0};
    gn_dual_quat b = gn_dq_from_rt(quarter_z, tx);
    gn_dq_transform(&b, px, o); /* (1, 0, 0) turned to (0, 1, 0), then + (1, 0, 0) */
    CHECK(NEAR(o[0], 1, 1e-5f) && NEAR(o[1], 1, 1e-5f) && NEAR(o[2], 0, 1e-5f), "rotate+translate (%g %g %g)",
          (double)o[0], (double)o[1], (double)o[2]);

    /* the candy wrapper: a point at (0, 1, 0) bound half to a still joint and half to one turned
       180 degrees about x. Linear blending averages (0, 1, 0) and (0, -1, 0): the origin, the
       skin collapsed. Dual quaternions blend the rotations to 90 degrees: (0, 0, 1), length 1. */
    const float half_turn_x[4] = {1, 0, 0, 0}, zero[3] = {0, 0, 0}, p[3] = {0, 1, 0};
    gn_dual_quat joints[2] = {gn_dq_from_rt(id, zero), gn_dq_from_rt(half_turn_x, zero)};
    const float w[2] = {0.5f, 0.5f};
    float r0[3], r1[3];
    gn_dq_transform(&joints[0], p, r0);
    gn_dq_transform(&joints[1], p, r1);
    float lbs[3] = {0.5f * (r0[0] + r1[0]), 0.5f * (r0[1] + r1[1]), 0.5f * (r0[2] + r1[2])};
    float lbs_len = sqrtf(lbs[0] * lbs[0] + lbs[1] * lbs[1] + lbs[2] * lbs[2]);
    CHECK(lbs_len < 1e-5f, "linear blending should collapse the twist: length %g", (double)lbs_len);
    gn_dual_quat blend = gn_dq_blend(joints, w, 2);
    gn_dq_transform(&blend, p, o);
    float len = sqrtf(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
    CHECK(NEAR(len, 1.0f, 1e-5f) && NEAR(o[2], 1.0f, 1e-5f) && NEAR(o[1], 0.0f, 1e-5f),
          "dual quaternions keep the twist's volume: (%g %g %g), length %g", (double)o[0], (double)o[1],
          (double)o[2], (double)len);
    /* a joint turned 120 degrees about x, written with either sign, blends the same way (each
       taken to the first joint's hemisphere) */
    const float third_x[4] = {0.8660254f, 0, 0, 0.5f};
    gn_dual_quat pos = gn_dq_from_rt(third_x, zero), neg = pos;
    for (int i = 0; i < 4; i++) neg.real[i] = -neg.real[i], neg.dual[i] = -neg.dual[i];
    gn_dual_quat joints1[2] = {joints[0], pos}, joints2[2] = {joints[0], neg};
    const float w2[2] = {0.75f, 0.25f};
    gn_dual_quat b1 = gn_dq_blend(joints1, w2, 2), b2 = gn_dq_blend(joints2, w2, 2);
    float o1[3], o2[3];
    gn_dq_transform(&b1, p, o1);
    gn_dq_transform(&b2, p, o2);
    CHECK(NEAR(o1[1], o2[1], 1e-5f) && NEAR(o1[2], o2[2], 1e-5f), "sign: (%g %g) against (%g %g)",
          (double)o1[1], (double)o1[2], (double)o2[1], (double)o2[2]);
}

int main(void)
{
    test_linear_and_step();
    test_slerp();
    test_cubic();
    test_refusals();
    test_dual_quat();
    return gn_check_exit();
}

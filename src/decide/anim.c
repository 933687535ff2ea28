/* glTF animation samplers, slerp and dual quaternions (anim.h). */
#include "decide/anim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ANIM_MAX_WIDTH                                                                                       \
    1024u /* floats a keyframe value: a morph set's weights (GN_MORPH_MAX_TARGETS) are the widest */

bool gn_anim_sampler_check(const gn_anim_sampler *s, char *msg, size_t cap)
{
    const char *why = NULL;
    uint32_t bad = 0;
    if (!s->count || !s->times || !s->values)
        why = "no keyframes";
    else if (!s->width || s->width > ANIM_MAX_WIDTH)
        why = "a value width of 0 or over 1024";
    else if (s->rotation && s->width != 4)
        why = "a rotation whose values are not 4 wide";
    else if (s->interp > GN_ANIM_CUBIC)
        why = "an unknown interpolation";
    for (uint32_t i = 0; !why && i < s->count; i++) {
        if (!isfinite(s->times[i]) || (i && !(s->times[i] > s->times[i - 1]))) {
            why = "keyframe times not finite and strictly increasing", bad = i;
        }
    }
    size_t floats = (size_t)s->count * (s->interp == GN_ANIM_CUBIC ? 3u : 1u) * s->width;
    for (size_t i = 0; !why && i < floats; i++)
        if (!isfinite(s->values[i])) why = "a value not finite", bad = (uint32_t)(i / s->width);
    if (why && msg && cap)
        snprintf(msg, cap, "animation sampler: %s (keyframe %u of %u)", why, bad, s->count);
    return !why;
}

/* Keyframe k's value, in-tangent and out-tangent (the tangents only for a cubic sampler). */
static const float *value_at(const gn_anim_sampler *s, uint32_t k)
{
    return s->values + (size_t)(s->interp == GN_ANIM_CUBIC ? 3u * k + 1u : k) * s->width;
}
static const float *in_tangent(const gn_anim_sampler *s, uint32_t k)
{
    return s->values + (size_t)3u * k * s->width;
}
static const float *out_tangent(const gn_anim_sampler *s, uint32_t k)
{
    return s->values + (size_t)(3u * k + 2u) * s->width;
}

static void normalize4(float q[4])
{
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (len > 0.0f)
        for (int i = 0; i < 4; i++) q[i] /= len;
}

void gn_quat_slerp(const float a[4], const float b[4], float u, float out[4])
{
    float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    float sign = d < 0.0f ? -1.0f : 1.0f; /* the shorter arc: q and -q are one rotation */
    d *= sign;
    float wa, wb;
    if (d > 0.9995f) { /* nearly parallel: sin(theta) ~ 0; linear, then normalised */
        wa = 1.0f - u, wb = u;
    } else {
        float theta = acosf(d), s = sinf(theta);
        wa = sinf((1.0f - u) * theta) / s, wb = sinf(u * theta) / s;
    }
    for (int i = 0; i < 4; i++) out[i] = wa * a[i] + wb * sign * b[i];
    normalize4(out);
}

/* The last keyframe at or before t (times strictly increasing; t inside them). */
static uint32_t segment(const gn_anim_sampler *s, float t)
{
    uint32_t lo = 0, hi = s->count - 1;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void gn_anim_sample(const gn_anim_sampler *s, float t, float *out)
{
    uint32_t w = s->width, last = s->count - 1;
    if (s->count == 1 || !(t > s->times[0])) { /* before the first (or NaN): the first value */
        memcpy(out, value_at(s, 0), w * sizeof *out);
        return;
    }
    if (t >= s->times[last]) {
        memcpy(out, value_at(s, last), w * sizeof *out);
        return;
    }
    uint32_t k = segment(s, t);
    float t0 = s->times[k], td = s->times[k + 1] - t0, u = (t - t0) / td;
    const float *p0 = value_at(s, k), *p1 = value_at(s, k + 1);
    switch (s->interp) {
    case GN_ANIM_STEP:
        memcpy(out, p0, w * sizeof *out);
        return;
    case GN_ANIM_LINEAR:
        if (s->rotation) {
            gn_quat_slerp(p0, p1, u, out);
            return;
        }
        for (uint32_t i = 0; i < w; i++) out[i] = p0[i] + (p1[i] - p0[i]) * u;
        return;
    case GN_ANIM_CUBIC: {
        /* the specification's Hermite segment: p0 and p1 the values, m0 = td * b_k (k's
           out-tangent) and m1 = td * a_k+1 (k+1's in-tangent) */
        const float *b0 = out_tangent(s, k), *a1 = in_tangent(s, k + 1);
        float u2 = u * u, u3 = u2 * u;
        float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f, h10 = u3 - 2.0f * u2 + u, h01 = -2.0f * u3 + 3.0f * u2,
              h11 = u3 - u2;
        for (uint32_t i = 0; i < w; i++)
            out[i] = h00 * p0[i] + h10 * td * b0[i] + h01 * p1[i] + h11 * td * a1[i];
        if (s->rotation) normalize4(out);
        return;
    }
    }
}

/* ---- dual quaternions ------------------------------------------------------------------------ */

/* a * b, quaternions (x, y, z, w) */
static void quat_mul(const float a[4], const float b[4], float o[4])
{
    float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    o[0] = x, o[1] = y, o[2] = z, o[3] = w;
}

gn_dual_quat gn_dq_from_rt(const float rotation[4], const float translation[3])
{
    gn_dual_quat dq;
    memcpy(dq.real, rotation, sizeof dq.real);
    const float t[4] = {translation[0], translation[1], translation[2], 0.0f};
    quat_mul(t, rotation, dq.dual);
    for (int i = 0; i < 4; i++) dq.dual[i] *= 0.5f;
    return dq;
}

gn_dual_quat gn_dq_blend(const gn_dual_quat *dq, const float *weights, uint32_t n)
{
    gn_dual_quat o = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (uint32_t j = 0; j < n; j++) {
        const float *r0 = dq[0].real, *r = dq[j].real;
        /* the same rotation's two signs: take the one nearer the first joint's */
        float sign = r0[0] * r[0] + r0[1] * r[1] + r0[2] * r[2] + r0[3] * r[3] < 0.0f ? -1.0f : 1.0f;
        for (int i = 0; i < 4; i++) {
            o.real[i] += weights[j] * sign * dq[j].real[i];
            o.dual[i] += weights[j] * sign * dq[j].dual[i];
        }
    }
    float len =
        sqrtf(o.real[0] * o.real[0] + o.real[1] * o.real[1] + o.real[2] * o.real[2] + o.real[3] * o.real[3]);
    if (len > 0.0f)
        for (int i = 0; i < 4; i++) o.real[i] /= len, o.dual[i] /= len;
    return o;
}

void gn_dq_transform(const gn_dual_quat *dq, const float p[3], float out[3])
{
    const float *q = dq->real;
    /* the rotation: p + 2 q.xyz x (q.xyz x p + w p) */
    float c[3] = {q[1] * p[2] - q[2] * p[1] + q[3] * p[0], q[2] * p[0] - q[0] * p[2] + q[3] * p[1],
                  q[0] * p[1] - q[1] * p[0] + q[3] * p[2]};
    float r[3] = {p[0] + 2.0f * (q[1] * c[2] - q[2] * c[1]), p[1] + 2.0f * (q[2] * c[0] - q[0] * c[2]),
                  p[2] + 2.0f * (q[0] * c[1] - q[1] * c[0])};
    /* the translation: 2 dual * conj(real), its vector part */
    const float conj[4] = {-q[0], -q[1], -q[2], q[3]};
    float t[4];
    quat_mul(dq->dual, conj, t);
    for (int i = 0; i < 3; i++) out[i] = r[i] + 2.0f * t[i];
}

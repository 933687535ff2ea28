/* Quake 3 fog volumes: the brush's corners (every triple of sides meeting at a point inside all of
 * them) give its bounds; slab clipping gives the length of a ray inside. See q3_fog.h. */
#include "decide/q3_fog.h"
#include "shared/gpu_types.h" /* GN_GPU_Q3_UNITS_PER_METRE */

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A corner may sit this far outside a side (metres) and still count: q3map2 snaps planes to
 * 1/8 unit, so three sides meet within millimetres of each other. */
#define CORNER_SLACK 2e-3f

float gn_q3_fog_srgb_to_linear(float c)
{
    c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c; /* the game packs the colour in bytes */
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static bool finite4(const float p[4])
{
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]) && isfinite(p[3]);
}

/* An axial side: the box carries it. */
static bool axial(const float n[3])
{
    return fabsf(n[0]) > 0.99999f || fabsf(n[1]) > 0.99999f || fabsf(n[2]) > 0.99999f;
}

/* The point where three planes meet (Cramer's rule); false when two are (nearly) parallel. */
static bool meet(const float a[4], const float b[4], const float c[4], float out[3])
{
    float bc[3] = {b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0]};
    float ca[3] = {c[1] * a[2] - c[2] * a[1], c[2] * a[0] - c[0] * a[2], c[0] * a[1] - c[1] * a[0]};
    float ab[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    float det = a[0] * bc[0] + a[1] * bc[1] + a[2] * bc[2];
    if (fabsf(det) < 1e-6f) return false;
    for (int k = 0; k < 3; k++) out[k] = (a[3] * bc[k] + b[3] * ca[k] + c[3] * ab[k]) / det;
    return true;
}

static bool inside_all(const float (*s)[4], uint32_t n, const float p[3])
{
    for (uint32_t i = 0; i < n; i++)
        if (s[i][0] * p[0] + s[i][1] * p[1] + s[i][2] * p[2] > s[i][3] + CORNER_SLACK) return false;
    return true;
}

/* The bounds of the brush's corners; false when no three sides meet inside the rest (empty). */
static bool corner_bounds(const float (*s)[4], uint32_t n, float mn[3], float mx[3])
{
    bool any = false;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            for (uint32_t k = j + 1; k < n; k++) {
                float p[3];
                if (!meet(s[i], s[j], s[k], p) || !inside_all(s, n, p)) continue;
                for (int a = 0; a < 3; a++) {
                    mn[a] = any && mn[a] < p[a] ? mn[a] : p[a];
                    mx[a] = any && mx[a] > p[a] ? mx[a] : p[a];
                }
                any = true;
            }
    return any && mx[0] > mn[0] && mx[1] > mn[1] && mx[2] > mn[2];
}

bool gn_q3_fog_volume_make(const gn_q3_fog_desc *d, gn_q3_fog_volume *out, char *why, size_t cap)
{
    memset(out, 0, sizeof *out);
    if (!d->sides || d->side_count < 4 || d->side_count > GN_Q3_FOG_MAX_SIDES) {
        snprintf(why, cap, "its brush has %u sides (4..%u read)", d->side_count, GN_Q3_FOG_MAX_SIDES);
        return false;
    }
    for (uint32_t i = 0; i < d->side_count; i++)
        if (!finite4(d->sides[i])) {
            snprintf(why, cap, "its brush's side %u is not finite", i);
            return false;
        }
    if (!isfinite(d->color[0]) || !isfinite(d->color[1]) || !isfinite(d->color[2]) ||
        !isfinite(d->opaque_units)) {
        snprintf(why, cap, "its fogparms are not finite");
        return false;
    }
    if (!corner_bounds(d->sides, d->side_count, out->box_min, out->box_max)) {
        snprintf(why, cap, "its brush encloses nothing");
        return false;
    }
    for (uint32_t i = 0; i < d->side_count; i++) {
        if (axial(d->sides[i])) continue;
        if (out->plane_count == GN_Q3_FOG_MAX_PLANES) {
            out->dropped++;
            continue;
        }
        memcpy(out->planes[out->plane_count++], d->sides[i], sizeof d->sides[i]);
    }
    for (int k = 0; k < 3; k++) out->color[k] = gn_q3_fog_srgb_to_linear(d->color[k]);
    /* the game's floor: a distance under one unit is one unit (no division by zero) */
    out->opaque = (d->opaque_units > 1.0f ? d->opaque_units : 1.0f) / GN_GPU_Q3_UNITS_PER_METRE;
    return true;
}

/* Narrows [t0, t1] to where dot(n, o + t dir) <= w. */
static void clip_plane(const float n[3], float w, const float o[3], const float dir[3], float *t0, float *t1)
{
    float num = w - (n[0] * o[0] + n[1] * o[1] + n[2] * o[2]); /* >= 0: the origin is inside */
    float den = n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2];
    if (den == 0.0f) {
        if (num < 0.0f) *t1 = -1.0f; /* parallel and outside: nothing */
        return;
    }
    float t = num / den;
    if (den > 0.0f)
        *t1 = t < *t1 ? t : *t1; /* leaving through it */
    else
        *t0 = t > *t0 ? t : *t0; /* entering through it */
}

float gn_q3_fog_inside(const gn_q3_fog_volume *v, const float origin[3], const float dir[3], float t_max)
{
    float t0 = 0.0f, t1 = t_max;
    for (int a = 0; a < 3 && t0 < t1; a++) {
        float up[3] = {0, 0, 0}, down[3] = {0, 0, 0};
        up[a] = 1.0f, down[a] = -1.0f;
        clip_plane(up, v->box_max[a], origin, dir, &t0, &t1);
        clip_plane(down, -v->box_min[a], origin, dir, &t0, &t1);
    }
    for (uint32_t i = 0; i < v->plane_count && t0 < t1; i++)
        clip_plane(v->planes[i], v->planes[i][3], origin, dir, &t0, &t1);
    if (!(t1 > t0)) return 0.0f;
    return (t1 - t0) * sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
}

float gn_q3_fog_curve(float inside, float opaque)
{
    /* under a millimetre is none: a surface on the volume's own boundary (a water or lava face) must
       not pick up the float error of its interpolated position, which the curve's infinite slope at
       0 would make visible (1 mm of 20 m is 0.7% fog) */
    if (!(inside > GN_Q3_FOG_MIN_LENGTH) || !(opaque > 0.0f)) return 0.0f;
    float s = inside / opaque;
    return s >= 1.0f ? 1.0f : sqrtf(s);
}

float gn_q3_fog_factor(const gn_q3_fog_volume *v, const float eye[3], const float point[3])
{
    float dir[3] = {point[0] - eye[0], point[1] - eye[1], point[2] - eye[2]};
    return gn_q3_fog_curve(gn_q3_fog_inside(v, eye, dir, 1.0f), v->opaque);
}

/* Reflection probes' placement, choice, fade and box projection (decide/probes.h). */
#include "decide/probes.h"

#include <math.h>
#include <string.h>

static float dist2(const float a[3], const float b[3])
{
    float d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
    return d0 * d0 + d1 * d1 + d2 * d2;
}

gn_probe_settings gn_probe_settings_resolve(const gn_probe_settings *in)
{
    gn_probe_settings s = in ? *in : (gn_probe_settings){0};
    if (!(s.spacing > 0.0f) || !isfinite(s.spacing)) s.spacing = 8.0f;
    if (!(s.max_extent > 0.0f) || !isfinite(s.max_extent)) s.max_extent = 40.0f;
    if (!(s.fade > 0.0f) || !isfinite(s.fade)) s.fade = 1.0f;
    if (s.max_probes == 0 || s.max_probes > GN_PROBES_MAX) s.max_probes = GN_PROBES_MAX;
    return s;
}

/* The box around p: along each axis both ways to the first surface, at most `extent`. False
 * when p is inside a solid: more of the six rays meet a back than a front. */
static bool fit_box(const float p[3], float extent, gn_probe_ray_fn ray, void *user, gn_probe *out)
{
    memcpy(out->position, p, sizeof out->position);
    int backs = 0, fronts = 0;
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++) {
            float d[3] = {0, 0, 0};
            d[a] = side ? -1.0f : 1.0f;
            bool back = false;
            float t = ray(user, p, d, extent, &back);
            if (t < extent) backs += back, fronts += !back;
            if (side)
                out->box_min[a] = p[a] - t;
            else
                out->box_max[a] = p[a] + t;
        }
    return backs <= fronts;
}

static int far_enough(const gn_probe *placed, uint32_t n, const float p[3], float spacing)
{
    for (uint32_t i = 0; i < n; i++)
        if (dist2(placed[i].position, p) < spacing * spacing) return 0;
    return 1;
}

uint32_t gn_probes_place(const gn_probe_settings *in, const float (*candidates)[3], uint32_t count,
                         const float lo[3], const float hi[3], float height, gn_probe_ray_fn ray, void *user,
                         gn_probe *out)
{
    gn_probe_settings s = gn_probe_settings_resolve(in);
    uint32_t n = 0;
    for (uint32_t i = 0; i < count && n < s.max_probes; i++) {
        const float *p = candidates[i];
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) continue;
        if (!far_enough(out, n, p, s.spacing)) continue;
        n += fit_box(p, s.max_extent, ray, user, &out[n]);
    }
    if (count > 0) return n;
    /* no candidates: a grid over the bounds, cell centres, at the given height */
    uint32_t nx = (uint32_t)fmaxf(1.0f, floorf((hi[0] - lo[0]) / s.spacing));
    uint32_t nz = (uint32_t)fmaxf(1.0f, floorf((hi[2] - lo[2]) / s.spacing));
    for (uint32_t j = 0; j < nz && n < s.max_probes; j++)
        for (uint32_t i = 0; i < nx && n < s.max_probes; i++) {
            float p[3] = {lo[0] + (hi[0] - lo[0]) * ((float)i + 0.5f) / (float)nx, lo[1] + height,
                          lo[2] + (hi[2] - lo[2]) * ((float)j + 0.5f) / (float)nz};
            n += fit_box(p, s.max_extent, ray, user, &out[n]);
        }
    return n;
}

/* Whether the sphere (centre c, radius) reaches the box. */
static int reaches(const gn_probe *b, const float c[3], float radius)
{
    float d2 = 0.0f;
    for (int a = 0; a < 3; a++) {
        float e = c[a] < b->box_min[a]   ? b->box_min[a] - c[a]
                  : c[a] > b->box_max[a] ? c[a] - b->box_max[a]
                                         : 0.0f;
        d2 += e * e;
    }
    return d2 <= radius * radius;
}

int32_t gn_probe_choose(const gn_probe *probes, uint32_t count, const float sphere[4], gn_probe_ray_fn ray,
                        void *user)
{
    const float *c = sphere;
    float radius = sphere[3] > 0.0f ? sphere[3] : 0.0f;
    int32_t seen = -1, boxed = -1;
    float seen_d = INFINITY, boxed_d = INFINITY;
    for (uint32_t i = 0; i < count; i++) {
        float d2 = dist2(probes[i].position, c);
        if (reaches(&probes[i], c, radius) && d2 < boxed_d) boxed = (int32_t)i, boxed_d = d2;
        if (d2 >= seen_d) continue;
        float d = sqrtf(d2);
        if (d <= radius) { /* within the object's bounds: it sees it */
            seen = (int32_t)i, seen_d = d2;
            continue;
        }
        float dir[3] = {(probes[i].position[0] - c[0]) / d, (probes[i].position[1] - c[1]) / d,
                        (probes[i].position[2] - c[2]) / d};
        float from[3] = {c[0] + dir[0] * radius, c[1] + dir[1] * radius, c[2] + dir[2] * radius};
        float left = d - radius;
        /* visible: the first surface from there towards the probe is not before it (1 cm of
         * slack for the surface a point lies on) */
        bool back = false;
        if (ray(user, from, dir, left, &back) >= left - 0.01f) seen = (int32_t)i, seen_d = d2;
    }
    return seen >= 0 ? seen : boxed;
}

float gn_probe_weight(const gn_probe *b, const float p[3], float fade)
{
    float w = 1.0f;
    for (int a = 0; a < 3; a++) {
        float out = fmaxf(b->box_min[a] - p[a], p[a] - b->box_max[a]); /* > 0: outside on this axis */
        if (out <= 0.0f) continue;
        if (!(fade > 0.0f) || out >= fade) return 0.0f;
        w = fminf(w, 1.0f - out / fade);
    }
    return w;
}

int32_t gn_probe_at(const gn_probe *probes, uint32_t count, int32_t preferred, const float p[3], float fade,
                    float *weight)
{
    int32_t best = preferred >= 0 && (uint32_t)preferred < count ? preferred : -1;
    float best_w = best >= 0 ? gn_probe_weight(&probes[best], p, fade) : 0.0f;
    float best_d = best >= 0 ? dist2(probes[best].position, p) : INFINITY;
    for (uint32_t i = 0; i < count; i++) {
        float w = gn_probe_weight(&probes[i], p, fade), d = dist2(probes[i].position, p);
        if (w > best_w || (w == best_w && w > 0.0f && d < best_d && best != preferred))
            best = (int32_t)i, best_w = w, best_d = d;
    }
    if (best_w <= 0.0f) best = -1;
    *weight = best_w;
    return best;
}

void gn_probe_parallax(const gn_probe *b, const float p[3], const float dir[3], float out[3])
{
    /* the exit distance of p + t dir from the box: the nearest of the far slabs */
    float t = INFINITY;
    for (int a = 0; a < 3; a++) {
        if (dir[a] > 0.0f) t = fminf(t, (b->box_max[a] - p[a]) / dir[a]);
        if (dir[a] < 0.0f) t = fminf(t, (b->box_min[a] - p[a]) / dir[a]);
    }
    if (!isfinite(t) || t < 0.0f) t = 0.0f;
    float len = 0.0f;
    for (int a = 0; a < 3; a++) {
        out[a] = p[a] + t * dir[a] - b->position[a];
        len += out[a] * out[a];
    }
    len = sqrtf(len);
    if (len > 0.0f)
        for (int a = 0; a < 3; a++) out[a] /= len;
    else
        memcpy(out, dir, sizeof(float) * 3);
}

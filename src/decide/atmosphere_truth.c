/* The atmosphere's ground truth (decide/atmosphere.h, gn_atmo_truth): a volumetric path tracer
 * of the same medium with none of the tables' approximations (no isotropic multiple-scattering
 * assumption, no quadrature): delta tracking for free flights, ratio tracking for the sun's
 * transmittance (both unbiased), next-event estimation towards the sun at every scattering
 * event and at the ground, scattering directions from the phase functions (Rayleigh uniformly
 * with its phase as the weight, Mie by Henyey-Greenstein with the Cornette-Shanks ratio as the
 * weight), Russian roulette after a few bounces. Each colour channel is its own estimate. */
#include "decide/atmosphere.h"

#include <math.h>
#include <stddef.h>

#define PI_F 3.14159265358979f
#define MAX_BOUNCES 256

typedef struct rng {
    uint64_t s;
} rng;

/* splitmix64, as floats in (0, 1) */
static float uniform(rng *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return ((float)(z >> 40) + 0.5f) / 16777216.0f;
}

static float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static float len3(const float a[3]) { return sqrtf(dot3(a, a)); }

/* Distance along pos + t dir to the sphere of radius R about the origin (-1: none ahead). */
static float sphere(const float pos[3], const float dir[3], float R)
{
    float r = len3(pos);
    return gn_atmo_ray_sphere(r, dot3(pos, dir) / r, R);
}

static float extinction(const gn_atmo_params *p, const float pos[3], int c, float *ray, float *mie)
{
    float rr[3], m, ext[3];
    gn_atmo_media(p, len3(pos), rr, &m, ext);
    if (ray) *ray = rr[c];
    if (mie) *mie = m;
    return ext[c];
}

/* The medium's densities are all at most 1: the majorant is the sum of the peak coefficients. */
static float majorant(const gn_atmo_params *p, int c)
{
    return p->rayleigh[c] + p->mie_scattering + p->mie_absorption + p->ozone[c];
}

static float sun_transmittance(const gn_atmo_params *p, const float pos[3], const float sun[3], int c, rng *g)
{
    if (sphere(pos, sun, p->bottom_km) >= 0.0f) return 0.0f;
    float tmax = sphere(pos, sun, p->top_km), maj = majorant(p, c), T = 1.0f, t = 0.0f;
    for (;;) {
        t -= logf(uniform(g)) / maj;
        if (t >= tmax) return T;
        float q[3] = {pos[0] + sun[0] * t, pos[1] + sun[1] * t, pos[2] + sun[2] * t};
        T *= 1.0f - extinction(p, q, c, NULL, NULL) / maj;
    }
}

/* An orthonormal frame about unit n, and a direction in it from (cos theta, phi). */
static void around(const float n[3], float cos_t, float phi, float out[3])
{
    float t[3] = {fabsf(n[0]) > 0.9f ? 0.0f : 1.0f, fabsf(n[0]) > 0.9f ? 1.0f : 0.0f, 0.0f};
    float b[3] = {n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0]};
    float lb = len3(b);
    for (int i = 0; i < 3; i++) b[i] /= lb;
    float u[3] = {b[1] * n[2] - b[2] * n[1], b[2] * n[0] - b[0] * n[2], b[0] * n[1] - b[1] * n[0]};
    float sin_t = sqrtf(fmaxf(1.0f - cos_t * cos_t, 0.0f));
    for (int i = 0; i < 3; i++) out[i] = n[i] * cos_t + (b[i] * cosf(phi) + u[i] * sinf(phi)) * sin_t;
}

static float channel(const gn_atmo_params *p, float r_km, const float view[3], const float sun[3], int c,
                     uint32_t paths, rng *g)
{
    const float g_mie = p->mie_g, maj = majorant(p, c);
    double sum = 0.0;
    for (uint32_t n = 0; n < paths; n++) {
        float pos[3] = {0.0f, r_km, 0.0f}, dir[3] = {view[0], view[1], view[2]}, w = 1.0f;
        for (int bounce = 0; bounce < MAX_BOUNCES; bounce++) {
            float tg = sphere(pos, dir, p->bottom_km), tt = sphere(pos, dir, p->top_km);
            int ground = tg >= 0.0f;
            float texit = ground ? tg : tt, t = 0.0f, ray = 0.0f, mie = 0.0f;
            if (texit < 0.0f) break;
            int collided = 0;
            for (;;) { /* delta tracking */
                t -= logf(uniform(g)) / maj;
                if (t >= texit) break;
                float q[3] = {pos[0] + dir[0] * t, pos[1] + dir[1] * t, pos[2] + dir[2] * t};
                float ext = extinction(p, q, c, &ray, &mie);
                if (uniform(g) * maj < ext) {
                    for (int i = 0; i < 3; i++) pos[i] = q[i];
                    w *= (ray + mie) / ext; /* absorption (Mie's and ozone's) as a weight */
                    collided = 1;
                    break;
                }
            }
            if (collided) {
                float scat = ray + mie, cs = dot3(dir, sun);
                float phase = (ray * gn_atmo_rayleigh_phase(cs) + mie * gn_atmo_mie_phase(g_mie, cs)) / scat;
                sum += w * phase * sun_transmittance(p, pos, sun, c, g);
                float next[3];
                if (uniform(g) * scat < ray) {
                    float cos_t = 1.0f - 2.0f * uniform(g);
                    around(dir, cos_t, 2.0f * PI_F * uniform(g), next);
                    w *= 4.0f * PI_F * gn_atmo_rayleigh_phase(cos_t);
                } else {
                    float k = (1.0f - g_mie * g_mie) / (1.0f - g_mie + 2.0f * g_mie * uniform(g));
                    float cos_t = (1.0f + g_mie * g_mie - k * k) / (2.0f * g_mie);
                    cos_t = fmaxf(-1.0f, fminf(1.0f, cos_t));
                    around(dir, cos_t, 2.0f * PI_F * uniform(g), next);
                    w *= 1.5f * (1.0f + cos_t * cos_t) / (2.0f + g_mie * g_mie); /* CS / HG */
                }
                for (int i = 0; i < 3; i++) dir[i] = next[i];
            } else if (ground) {
                for (int i = 0; i < 3; i++) pos[i] += dir[i] * texit;
                float nrm[3], lp = len3(pos);
                for (int i = 0; i < 3; i++) nrm[i] = pos[i] / lp;
                for (int i = 0; i < 3; i++) pos[i] = nrm[i] * (p->bottom_km + 1e-4f);
                float cl = dot3(nrm, sun);
                if (cl > 0.0f)
                    sum += w * p->ground_albedo[c] / PI_F * cl * sun_transmittance(p, pos, sun, c, g);
                w *= p->ground_albedo[c];
                float u = uniform(g);
                around(nrm, sqrtf(u), 2.0f * PI_F * uniform(g), dir); /* cosine-weighted */
            } else {
                break; /* into space */
            }
            if (bounce >= 3) { /* Russian roulette */
                float q = fminf(w, 0.95f);
                if (uniform(g) >= q) break;
                w /= q;
            }
        }
    }
    return (float)(sum / paths);
}

void gn_atmo_truth(const gn_atmo_params *p, float r_km, const float view[3], const float sun[3],
                   uint32_t paths, uint64_t seed, float radiance[3])
{
    float r = fmaxf(r_km, p->bottom_km + GN_ATMO_MIN_ALTITUDE_KM);
    for (int c = 0; c < 3; c++) {
        rng g = {seed * 3u + (uint64_t)c + 1u};
        radiance[c] = channel(p, r, view, sun, c, paths, &g);
    }
}

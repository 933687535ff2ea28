/* Ambient occlusion's truth: the obscurance of gnomon.h's gn_ao_desc, ray-traced with Embree for
 * the pixels of a frame; see truth.h (gn_truth_ao) and docs/POST.md, "Ambient occlusion's truth". */
#include "truth_internal.h"

#include "cli_error.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#define GN_TRUTH_AO_PI 3.14159265358979323846
/* 1 / the golden ratio: the rank-1 (Fibonacci) lattice's second coordinate steps by it, which
 * spreads any number of points evenly over the azimuth. */
#define GN_TRUTH_AO_PHI_INV 0.61803398874989484820

typedef struct gn_truth_ao_job {
    const gn_truth *t;
    const gn_truth_frame *f;
    gn_truth_unproject u;
    double radius;
    uint32_t rays;
    float *ao;
    uint8_t *counted;
    atomic_uint next_row;
    atomic_ullong cast, unconfirmed;
} gn_truth_ao_job;

/* A 32-bit integer hash with good avalanche (Wellons' "lowbias32", 2018). */
static uint32_t gn_truth_ao_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* An orthonormal basis (t, b, n) about the unit normal n, continuous except where n.z = -1
 * (Duff et al., "Building an Orthonormal Basis, Revisited", JCGT 2017). */
static void gn_truth_ao_basis(const double n[3], double t[3], double b[3])
{
    double s = n[2] >= 0.0 ? 1.0 : -1.0;
    double a = -1.0 / (s + n[2]), c = n[0] * n[1] * a;
    t[0] = 1.0 + s * n[0] * n[0] * a, t[1] = s * c, t[2] = -s * n[0];
    b[0] = c, b[1] = s + n[1] * n[1] * a, b[2] = -n[1];
}

/* The weight a ray adds to the obscurance, hitting at distance t (t >= radius: none). */
static double gn_truth_ao_falloff(double t, double radius)
{
    if (!(t < radius)) return 0.0;
    double q = 1.0 - (t / radius) * (t / radius);
    return q * q * q;
}

/* The obscurance of the surface point p (normal n, dist from the camera) seen by pixel (px, py). */
static double gn_truth_ao_point(const gn_truth_ao_job *j, struct RTCIntersectContext *ctx, uint32_t px,
                                uint32_t py, const double p[3], const double n[3], double dist)
{
    double tx[3], bx[3];
    gn_truth_ao_basis(n, tx, bx);
    /* Lifted off along the normal rather than started at tnear along the ray: a ray near the
     * tangent plane would otherwise meet the surface it starts on wherever the rounded point
     * lies under it. */
    double lift = fmax(GN_TRUTH_TNEAR_MIN, GN_TRUTH_TNEAR_REL * dist);
    double o[3] = {p[0] + n[0] * lift, p[1] + n[1] * lift, p[2] + n[2] * lift};
    /* Cranley-Patterson rotation of the lattice by the pixel's hash: uncorrelated noise from
     * pixel to pixel, fixed for a pixel */
    uint32_t h = gn_truth_ao_hash(px ^ gn_truth_ao_hash(py + 0x9e3779b9u));
    double ru = (h & 0xffffu) / 65536.0, rv = (h >> 16) / 65536.0;
    double sum = 0.0;
    for (uint32_t i = 0; i < j->rays; i++) {
        double u = fmod((i + 0.5) / j->rays + ru, 1.0), v = fmod(i * GN_TRUTH_AO_PHI_INV + rv, 1.0);
        /* cosine-distributed (Malley's method): sin^2 of the angle to the normal is uniform */
        double s = sqrt(u), c = sqrt(1.0 - u), phi = 2.0 * GN_TRUTH_AO_PI * v;
        double a = s * cos(phi), b = s * sin(phi), d[3];
        for (int k = 0; k < 3; k++) d[k] = a * tx[k] + b * bx[k] + c * n[k];
        struct RTCRayHit rh = {
            .ray = {.org_x = (float)o[0],
                    .org_y = (float)o[1],
                    .org_z = (float)o[2],
                    .dir_x = (float)d[0],
                    .dir_y = (float)d[1],
                    .dir_z = (float)d[2],
                    .tnear = 0.0f,
                    .tfar = (float)j->radius,
                    .mask = 0xffffffffu},
            .hit = {.geomID = RTC_INVALID_GEOMETRY_ID, .instID = {RTC_INVALID_GEOMETRY_ID}},
        };
        rtcIntersect1(gn_truth_scene(j->t), ctx, &rh);
        if (rh.hit.geomID != RTC_INVALID_GEOMETRY_ID) sum += gn_truth_ao_falloff(rh.ray.tfar, j->radius);
    }
    return 1.0 - sum / j->rays;
}

static void *gn_truth_ao_worker(void *arg)
{
    gn_truth_ao_job *j = arg;
    const gn_truth_frame *f = j->f;
    const float *cam = f->view->camera_position;
    struct RTCIntersectContext ctx; /* occlusion: every face, either side */
    rtcInitIntersectContext(&ctx);
    gn_truth_cull_context cull; /* primary rays: front faces only, as the renderer drew them */
    gn_truth_cull_init(&cull, j->t);
    uint64_t cast = 0, unconfirmed = 0;
    for (;;) {
        uint32_t y = atomic_fetch_add(&j->next_row, 1u);
        if (y >= f->height) break;
        for (uint32_t x = 0; x < f->width; x++) {
            size_t i = (size_t)y * f->width + x;
            float d = f->depth[i];
            double p[3], n[3];
            bool surface = d > 0.0f && gn_truth_unproject_point(&j->u, x, y, d, p);
            double dist = surface ? gn_truth_distance(cam, p) : 0.0;
            bool counts = surface && gn_truth_surface_normal(j->t, &cull, cam, p, dist, n);
            unconfirmed += surface && !counts;
            j->ao[i] = counts ? (float)gn_truth_ao_point(j, &ctx, x, y, p, n, dist) : 1.0f;
            cast += counts ? j->rays : 0;
            if (j->counted) j->counted[i] = counts;
        }
    }
    atomic_fetch_add(&j->cast, cast);
    atomic_fetch_add(&j->unconfirmed, unconfirmed);
    return NULL;
}

gn_result gn_truth_ao(const gn_truth *t, const gn_truth_frame *f, const gn_truth_ao_desc *d, float *ao,
                      uint8_t *counted, gn_truth_stats *stats, gn_error *err)
{
    if (!t || !f || !f->depth || !f->view || !ao || f->width == 0 || f->height == 0)
        return gn_cli_error(err, GN_ERROR_INVALID_ARGUMENT, "gn_truth_ao: arguments are required");
    gn_truth_ao_desc dd = d ? *d : (gn_truth_ao_desc){0};
    if (dd.radius == 0.0f) dd.radius = GN_AO_DEFAULT_RADIUS;
    if (dd.rays == 0) dd.rays = GN_TRUTH_AO_DEFAULT_RAYS;
    if (!(dd.radius > 0.0f) || !isfinite(dd.radius) || dd.rays > GN_TRUTH_AO_MAX_RAYS)
        return gn_cli_error(err, GN_ERROR_INVALID_ARGUMENT,
                            "gn_truth_ao: radius %g m and %u rays: the radius must be positive and finite, "
                            "the rays at most %u",
                            (double)dd.radius, dd.rays, GN_TRUTH_AO_MAX_RAYS);
    double t0 = gn_truth_now_ms();
    gn_truth_ao_job j = {.t = t, .f = f, .radius = dd.radius, .rays = dd.rays, .ao = ao, .counted = counted};
    gn_truth_unproject_init(&j.u, f);
    atomic_init(&j.next_row, 0u);
    atomic_init(&j.cast, 0ull);
    atomic_init(&j.unconfirmed, 0ull);
    uint32_t threads = gn_truth_parallel(f->height, gn_truth_ao_worker, &j);
    if (stats)
        *stats = (gn_truth_stats){.rays = atomic_load(&j.cast),
                                  .unconfirmed = atomic_load(&j.unconfirmed),
                                  .ms = gn_truth_now_ms() - t0,
                                  .threads = threads};
    return gn_truth_check(t, "ambient occlusion rays", err);
}

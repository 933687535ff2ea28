/* Ray-traced truth with Embree 3 (hard shadows, and which instance each pixel sees):
 * two-level instancing mirrors the scene (one Embree scene per mesh, one instance geometry
 * per gn_instance, attached under the instance's own id), so the BVH is built over unique
 * triangles only; see truth.h. What truth_ao.c shares with it is in truth_internal.h. */
#define _POSIX_C_SOURCE 200809L /* sysconf, clock_gettime under -std=c11 */

#include "truth_internal.h"

#include "cli_error.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GN_TRUTH_MAX_THREADS 64 /* bounds the thread array; more cores than rows gain nothing */

struct gn_truth {
    RTCDevice device;
    RTCScene top;
    RTCScene *meshes; /* one per gn_scene mesh; NULL where the mesh has no triangles */
    uint32_t mesh_count;
    float (*xforms)[16];  /* each instance's transform, by its id (= its Embree id): normals to world */
    uint32_t xform_count; /* the scene's instances */
    double build_ms;
    char first_error[256]; /* the first message Embree reported, for gn_error */
};

double gn_truth_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Embree reports errors through this callback as well as rtcGetDeviceError; the callback
 * carries the text, so keep the first one for the gn_error. */
static void gn_truth_on_error(void *user, enum RTCError code, const char *str)
{
    gn_truth *t = user;
    if (t->first_error[0] == '\0')
        snprintf(t->first_error, sizeof t->first_error, "%s (code %d)", str ? str : "?", (int)code);
}

gn_result gn_truth_check(const gn_truth *t, const char *what, gn_error *err)
{
    enum RTCError e = rtcGetDeviceError(t->device);
    if (e == RTC_ERROR_NONE && t->first_error[0] == '\0') return GN_OK;
    gn_result code = e == RTC_ERROR_OUT_OF_MEMORY ? GN_ERROR_OUT_OF_MEMORY : GN_ERROR_BAD_DATA;
    return gn_cli_error(err, code, "embree: %s: %s", what, t->first_error[0] ? t->first_error : "error");
}

/* One Embree scene holding one mesh's triangles. Positions are shared when Embree's 16-byte
 * loads of the last vertex stay inside its vertex (stride >= 16: the scene interleaves
 * position, normal, tangent and uv); otherwise, and always for indices (12-byte triangles),
 * copied into buffers Embree pads itself. */
static RTCScene gn_truth_mesh_scene(gn_truth *t, const gn_mesh_view *m)
{
    RTCGeometry g = rtcNewGeometry(t->device, RTC_GEOMETRY_TYPE_TRIANGLE);
    if (!g) return NULL;
    if (m->stride >= 16) {
        rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, m->positions, 0,
                                   m->stride, m->vertex_count);
    } else {
        float *v =
            rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 12, m->vertex_count);
        const uint8_t *src = (const uint8_t *)m->positions;
        for (uint32_t i = 0; v && i < m->vertex_count; i++)
            memcpy(v + 3 * i, src + (size_t)i * m->stride, 12);
    }
    uint32_t tris = m->index_count / 3;
    uint32_t *idx = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 12, tris);
    if (idx) memcpy(idx, m->indices, (size_t)tris * 12);
    rtcCommitGeometry(g);
    RTCScene s = rtcNewScene(t->device);
    if (s) {
        /* gn_truth_ids culls back faces through the intersect context's filter */
        rtcSetSceneFlags(s, RTC_SCENE_FLAG_CONTEXT_FILTER_FUNCTION);
        rtcAttachGeometry(s, g);
        rtcCommitScene(s);
    }
    rtcReleaseGeometry(g);
    return s;
}

/* Attached by the instance's id, so a hit's instID is the scene's instance id (instances of
 * empty meshes leave holes in the ids, which Embree allows). */
static gn_result gn_truth_add_instance(gn_truth *t, uint32_t id, const gn_instance_desc *d)
{
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    bool zero = true; /* gnomon.h: an all-zero transform means identity */
    for (int i = 0; i < 16; i++) zero &= d->transform[i] == 0.0f;
    RTCGeometry g = rtcNewGeometry(t->device, RTC_GEOMETRY_TYPE_INSTANCE);
    if (!g) return GN_ERROR_BAD_DATA;
    rtcSetGeometryInstancedScene(g, t->meshes[d->mesh]);
    rtcSetGeometryTimeStepCount(g, 1);
    rtcSetGeometryTransform(g, 0, RTC_FORMAT_FLOAT4X4_COLUMN_MAJOR, zero ? identity : d->transform);
    rtcCommitGeometry(g);
    rtcAttachGeometryByID(t->top, g, id);
    rtcReleaseGeometry(g);
    memcpy(t->xforms[id], zero ? identity : d->transform, sizeof t->xforms[id]);
    return GN_OK;
}

static gn_result gn_truth_build(gn_truth *t, const gn_scene *s, gn_error *err)
{
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    t->mesh_count = info.meshes;
    t->meshes = calloc(info.meshes ? info.meshes : 1, sizeof *t->meshes);
    if (!t->meshes) return gn_cli_error(err, GN_ERROR_OUT_OF_MEMORY, "embree: %u mesh scenes", info.meshes);
    for (uint32_t i = 0; i < info.meshes; i++) {
        gn_mesh_view m;
        if (gn_scene_get_mesh(s, i, &m, err) != GN_OK) return err ? err->code : GN_ERROR_INVALID_ARGUMENT;
        if (m.index_count < 3 || m.vertex_count == 0) continue;
        t->meshes[i] = gn_truth_mesh_scene(t, &m);
        char what[64];
        snprintf(what, sizeof what, "mesh %u (%u triangles)", i, m.index_count / 3);
        gn_result r = gn_truth_check(t, what, err);
        if (r != GN_OK) return r;
        if (!t->meshes[i]) return gn_cli_error(err, GN_ERROR_BAD_DATA, "embree: %s: no scene", what);
    }
    t->xform_count = info.instances;
    t->xforms = calloc(info.instances ? info.instances : 1, sizeof *t->xforms);
    if (!t->xforms) return gn_cli_error(err, GN_ERROR_OUT_OF_MEMORY, "embree: %u instances", info.instances);
    t->top = rtcNewScene(t->device);
    if (!t->top) return gn_truth_check(t, "top-level scene", err);
    rtcSetSceneFlags(t->top, RTC_SCENE_FLAG_CONTEXT_FILTER_FUNCTION);
    for (uint32_t i = 0; i < info.instances; i++) {
        gn_instance_desc d;
        if (gn_scene_get_instance(s, i, &d, err) != GN_OK) return err ? err->code : GN_ERROR_INVALID_ARGUMENT;
        if (d.mesh >= t->mesh_count)
            return gn_cli_error(err, GN_ERROR_BAD_DATA, "embree: instance %u uses mesh %u of %u", i, d.mesh,
                                t->mesh_count);
        if (!t->meshes[d.mesh]) continue; /* an empty mesh casts nothing */
        if (gn_truth_add_instance(t, i, &d) != GN_OK) return gn_truth_check(t, "instance", err);
    }
    rtcCommitScene(t->top);
    return gn_truth_check(t, "committing the top-level scene", err);
}

gn_truth *gn_truth_create(const gn_scene *s, gn_error *err)
{
    if (!s) {
        gn_cli_error(err, GN_ERROR_INVALID_ARGUMENT, "gn_truth_create: a scene is required");
        return NULL;
    }
    gn_truth *t = calloc(1, sizeof *t);
    if (!t) {
        gn_cli_error(err, GN_ERROR_OUT_OF_MEMORY, "gn_truth_create: out of memory");
        return NULL;
    }
    double t0 = gn_truth_now_ms();
    t->device = rtcNewDevice(NULL);
    if (!t->device) {
        gn_cli_error(err, GN_ERROR_BAD_DATA, "embree: cannot create a device (error %d)",
                     (int)rtcGetDeviceError(NULL));
        free(t);
        return NULL;
    }
    rtcSetDeviceErrorFunction(t->device, gn_truth_on_error, t);
    if (gn_truth_build(t, s, err) != GN_OK) {
        gn_truth_destroy(t);
        return NULL;
    }
    t->build_ms = gn_truth_now_ms() - t0;
    return t;
}

void gn_truth_destroy(gn_truth *t)
{
    if (!t) return;
    if (t->top) rtcReleaseScene(t->top);
    for (uint32_t i = 0; t->meshes && i < t->mesh_count; i++)
        if (t->meshes[i]) rtcReleaseScene(t->meshes[i]);
    free(t->meshes);
    free(t->xforms);
    if (t->device) rtcReleaseDevice(t->device);
    free(t);
}

double gn_truth_build_ms(const gn_truth *t) { return t ? t->build_ms : 0.0; }

RTCScene gn_truth_scene(const gn_truth *t) { return t->top; }

void gn_truth_sample0(uint32_t msaa, float *x, float *y)
{
    /* Vulkan spec, "Multisampling": standard sample locations. The depth that gn_read_depth
     * returns is sample 0's (a SAMPLE_ZERO resolve), so the surface it measures lies under
     * sample 0, not under the pixel centre; starting the ray there keeps the origin on the
     * surface instead of up to half a pixel's depth gradient above or below it. */
    gn_depth_sample_position(msaa, x, y);
}

/* ---- back faces -------------------------------------------------------------------------- */

static double gn_truth_det3(const float *m)
{
    return m[0] * ((double)m[5] * m[10] - (double)m[6] * m[9]) -
           m[4] * ((double)m[1] * m[10] - (double)m[2] * m[9]) +
           m[8] * ((double)m[1] * m[6] - (double)m[2] * m[5]);
}

/* Passes over back faces, as the renderer's rasterizer culls them. Embree hands the filter the
 * ray and hit in the instance's object space; there a hit is front-facing when the ray runs
 * against Ng (Embree's Ng = (v1 - v0) x (v2 - v0), towards the side from which the triangle is
 * counter-clockwise). A mirroring transform (negative determinant) reverses the winding the
 * rasterizer sees, so it reverses the test. Edge-on hits cover no pixel on the GPU: passed
 * over too. The arrays are Embree's SoA layouts (rtcore_ray.h; its accessors are C++ only):
 * RTCRayN holds org x, y, z, tnear, then dir x, y, z, N floats each; RTCHitN Ng x, y, z, u, v,
 * primID, geomID, then instID. */
static void gn_truth_cull_back_faces(const struct RTCFilterFunctionNArguments *a)
{
    gn_truth_cull_context *c = (gn_truth_cull_context *)a->context;
    const float *ray = (const float *)a->ray, *hit = (const float *)a->hit;
    const unsigned *hit_u = (const unsigned *)a->hit;
    unsigned n = a->N;
    for (unsigned i = 0; i < n; i++) {
        if (!a->valid[i]) continue;
        double facing = (double)ray[4 * n + i] * hit[i] + (double)ray[5 * n + i] * hit[n + i] +
                        (double)ray[6 * n + i] * hit[2 * n + i];
        unsigned inst = hit_u[7 * n + i];
        if (inst < c->t->xform_count && gn_truth_det3(c->t->xforms[inst]) < 0.0) facing = -facing;
        if (facing >= 0.0) {
            a->valid[i] = 0;
            c->back_faces++;
        }
    }
}

void gn_truth_cull_init(gn_truth_cull_context *c, const gn_truth *t)
{
    *c = (gn_truth_cull_context){.t = t};
    rtcInitIntersectContext(&c->rtc);
    c->rtc.filter = gn_truth_cull_back_faces;
}

/* ---- pixels back to the world ------------------------------------------------------------ */

void gn_truth_unproject_init(gn_truth_unproject *u, const gn_truth_frame *f)
{
    for (int i = 0; i < 16; i++) u->inv[i] = f->view->inv_view_proj[i];
    gn_truth_sample0(f->msaa, &u->sx, &u->sy);
    u->width = f->width;
    u->height = f->height;
}

bool gn_truth_unproject_point(const gn_truth_unproject *u, uint32_t px, uint32_t py, double d, double p[3])
{
    /* Vulkan clip space: x right, y down (row 0 is the top and the projection already flips
     * y), depth as stored. */
    double c[4] = {(px + u->sx) / u->width * 2.0 - 1.0, (py + u->sy) / u->height * 2.0 - 1.0, d, 1.0};
    double w[4];
    for (int r = 0; r < 4; r++)
        w[r] = u->inv[r] * c[0] + u->inv[4 + r] * c[1] + u->inv[8 + r] * c[2] + u->inv[12 + r] * c[3];
    if (w[3] == 0.0) return false;
    for (int a = 0; a < 3; a++) p[a] = w[a] / w[3];
    return true;
}

double gn_truth_distance(const float cam[3], const double p[3])
{
    return sqrt((p[0] - cam[0]) * (p[0] - cam[0]) + (p[1] - cam[1]) * (p[1] - cam[1]) +
                (p[2] - cam[2]) * (p[2] - cam[2]));
}

/* ---- the surface a pixel sees ------------------------------------------------------------ */

bool gn_truth_surface_normal(const gn_truth *t, gn_truth_cull_context *ctx, const float cam[3],
                             const double p[3], double dist, double n[3])
{
    if (dist <= 0.0) return false;
    double dir[3] = {(p[0] - cam[0]) / dist, (p[1] - cam[1]) / dist, (p[2] - cam[2]) / dist};
    struct RTCRayHit rh = {
        .ray = {.org_x = cam[0],
                .org_y = cam[1],
                .org_z = cam[2],
                .dir_x = (float)dir[0],
                .dir_y = (float)dir[1],
                .dir_z = (float)dir[2],
                .tnear = 0.0f,
                .tfar = (float)(dist * 1.02 + 0.01),
                .mask = 0xffffffffu},
        .hit = {.geomID = RTC_INVALID_GEOMETRY_ID, .instID = {RTC_INVALID_GEOMETRY_ID}},
    };
    rtcIntersect1(t->top, &ctx->rtc, &rh);
    unsigned inst = rh.hit.instID[0];
    if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID || inst >= t->xform_count) return false;
    if (fabs(rh.ray.tfar - dist) > fmax(0.01, 0.02 * dist)) return false;
    const float *m = t->xforms[inst];
    /* cofactor of the upper 3x3 (columns c0, c1, c2): rows cross(c1,c2), cross(c2,c0), cross(c0,c1) */
    double c[3][3] = {{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}};
    double ng[3] = {rh.hit.Ng_x, rh.hit.Ng_y, rh.hit.Ng_z}, w[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        const double *a = c[(k + 1) % 3], *b = c[(k + 2) % 3];
        double cr[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
        for (int r = 0; r < 3; r++) w[r] += cr[r] * ng[k];
    }
    double len = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (!(len > 0.0)) return false;
    if (w[0] * dir[0] + w[1] * dir[1] + w[2] * dir[2] > 0.0) len = -len; /* towards the camera */
    for (int r = 0; r < 3; r++) n[r] = w[r] / len;
    return true;
}

/* ---- the shadow mask ---------------------------------------------------------------------- */

typedef struct gn_truth_job {
    const gn_truth *t;
    const gn_truth_frame *f;
    uint8_t *mask;
    gn_truth_unproject u;
    double sun[3];
    atomic_uint next_row;
    atomic_ullong rays, grazing, facing_away;
} gn_truth_job;

/* How the surface the depth buffer saw at p faces the sun (gn_truth_surface_normal finds it).
 * GN_TRUTH_GRAZING within GN_TRUTH_GRAZING_COS of edge-on; GN_TRUTH_SHADOWED facing away from
 * the sun, in its own shadow as in the renderer (N.L <= 0), however thin the surface (a
 * single-sided wall or roof has nothing behind it for a ray to hit); GN_TRUTH_LIT facing the
 * sun, or when the ray finds another surface: the occlusion ray decides. */
static uint8_t gn_truth_facing(gn_truth_job *j, gn_truth_cull_context *ctx, const double p[3], double dist)
{
    double n[3];
    if (!gn_truth_surface_normal(j->t, ctx, j->f->view->camera_position, p, dist, n)) return GN_TRUTH_LIT;
    double cosl = n[0] * j->sun[0] + n[1] * j->sun[1] + n[2] * j->sun[2];
    if (fabs(cosl) < GN_TRUTH_GRAZING_COS) return GN_TRUTH_GRAZING;
    return cosl < 0.0 ? GN_TRUTH_SHADOWED : GN_TRUTH_LIT;
}

/* One pixel: the world position under its sample 0, how it faces the sun, then (facing it)
 * one occlusion ray to the sun, *cast set. Casters are not culled: the renderer's shadow passes
 * draw both sides. */
static uint8_t gn_truth_pixel(gn_truth_job *j, gn_truth_cull_context *cull, struct RTCIntersectContext *ctx,
                              uint32_t px, uint32_t py, float d, bool *cast)
{
    double p[3];
    if (!gn_truth_unproject_point(&j->u, px, py, d, p)) return GN_TRUTH_SKY;
    double dist = gn_truth_distance(j->f->view->camera_position, p);
    uint8_t facing = gn_truth_facing(j, cull, p, dist);
    if (facing != GN_TRUTH_LIT) return facing;
    struct RTCRay ray = {
        .org_x = (float)p[0],
        .org_y = (float)p[1],
        .org_z = (float)p[2],
        .tnear = (float)fmax(GN_TRUTH_TNEAR_MIN, GN_TRUTH_TNEAR_REL * dist),
        .dir_x = (float)j->sun[0],
        .dir_y = (float)j->sun[1],
        .dir_z = (float)j->sun[2],
        .tfar = INFINITY,
        .mask = 0xffffffffu,
    };
    rtcOccluded1(j->t->top, ctx, &ray);
    *cast = true;
    return ray.tfar < 0.0f ? GN_TRUTH_SHADOWED : GN_TRUTH_LIT; /* Embree sets tfar to -inf on a hit */
}

/* Rows are taken one at a time from a shared counter, so threads stay busy whether the
 * costly rows (dense town) are at the top or the bottom of the image. */
static void *gn_truth_worker(void *arg)
{
    gn_truth_job *j = arg;
    const gn_truth_frame *f = j->f;
    bool sun_up = j->sun[1] > 0.0;
    struct RTCIntersectContext ctx; /* occlusion rays: every face casts */
    rtcInitIntersectContext(&ctx);
    gn_truth_cull_context cull; /* primary rays: front faces only */
    gn_truth_cull_init(&cull, j->t);
    uint64_t rays = 0, grazing = 0, facing_away = 0;
    for (;;) {
        uint32_t y = atomic_fetch_add(&j->next_row, 1u);
        if (y >= f->height) break;
        const float *drow = f->depth + (size_t)y * f->width;
        uint8_t *mrow = j->mask + (size_t)y * f->width;
        for (uint32_t x = 0; x < f->width; x++) {
            float d = drow[x];
            if (!(d > 0.0f)) {
                mrow[x] = GN_TRUTH_SKY;
            } else if (!sun_up) {
                mrow[x] = GN_TRUTH_SHADOWED; /* the sun is below the horizon: no direct light */
            } else {
                bool cast = false;
                mrow[x] = gn_truth_pixel(j, &cull, &ctx, x, y, d, &cast);
                grazing += mrow[x] == GN_TRUTH_GRAZING;
                facing_away += mrow[x] == GN_TRUTH_SHADOWED && !cast;
                rays += cast;
            }
        }
    }
    atomic_fetch_add(&j->rays, rays);
    atomic_fetch_add(&j->grazing, grazing);
    atomic_fetch_add(&j->facing_away, facing_away);
    return NULL;
}

static uint32_t gn_truth_thread_count(uint32_t rows)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if (n > GN_TRUTH_MAX_THREADS) n = GN_TRUTH_MAX_THREADS;
    if ((uint32_t)n > rows) n = (long)rows;
    return (uint32_t)n;
}

uint32_t gn_truth_parallel(uint32_t rows, void *(*worker)(void *), void *job)
{
    uint32_t n = gn_truth_thread_count(rows);
    pthread_t threads[GN_TRUTH_MAX_THREADS];
    uint32_t started = 0;
    for (uint32_t i = 1; i < n; i++)
        if (pthread_create(&threads[started], NULL, worker, job) == 0) started++;
    worker(job);
    for (uint32_t i = 0; i < started; i++) pthread_join(threads[i], NULL);
    return started + 1;
}

gn_result gn_truth_mask(const gn_truth *t, const gn_truth_frame *f, uint8_t *mask, gn_truth_stats *stats,
                        gn_error *err)
{
    if (!t || !f || !f->depth || !f->view || !mask || f->width == 0 || f->height == 0)
        return gn_cli_error(err, GN_ERROR_INVALID_ARGUMENT, "gn_truth_mask: arguments are required");
    double t0 = gn_truth_now_ms();
    gn_truth_job j = {.t = t, .f = f, .mask = mask};
    gn_truth_unproject_init(&j.u, f);
    for (int i = 0; i < 3; i++) j.sun[i] = f->view->sun_direction[i];
    atomic_init(&j.next_row, 0u);
    atomic_init(&j.rays, 0ull);
    atomic_init(&j.grazing, 0ull);
    atomic_init(&j.facing_away, 0ull);

    uint32_t threads = gn_truth_parallel(f->height, gn_truth_worker, &j);
    if (stats)
        *stats = (gn_truth_stats){.rays = atomic_load(&j.rays),
                                  .grazing = atomic_load(&j.grazing),
                                  .facing_away = atomic_load(&j.facing_away),
                                  .ms = gn_truth_now_ms() - t0,
                                  .threads = threads};
    return gn_truth_check(t, "occlusion rays", err);
}

/* ---- which instance each pixel sees ------------------------------------------------------ */

typedef struct gn_truth_id_job {
    const gn_truth *t;
    const gn_truth_frame *f;
    uint32_t *ids;
    gn_truth_unproject u;
    atomic_uint next_row;
    atomic_ullong back_faces;
} gn_truth_id_job;

/* One pixel: a ray from the camera through sample 0, starting on the near plane (the renderer
 * clips there), to the nearest front face. */
static uint32_t gn_truth_id_pixel(gn_truth_id_job *j, gn_truth_cull_context *ctx, uint32_t px, uint32_t py)
{
    double q[3]; /* on the near plane: depth 1 (reversed-Z) */
    if (!gn_truth_unproject_point(&j->u, px, py, 1.0, q)) return GN_TRUTH_NO_INSTANCE;
    const float *cam = j->f->view->camera_position;
    double d[3] = {q[0] - cam[0], q[1] - cam[1], q[2] - cam[2]};
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 0.0)) return GN_TRUTH_NO_INSTANCE;
    struct RTCRayHit rh = {
        .ray = {.org_x = (float)q[0],
                .org_y = (float)q[1],
                .org_z = (float)q[2],
                .dir_x = (float)(d[0] / len),
                .dir_y = (float)(d[1] / len),
                .dir_z = (float)(d[2] / len),
                .tnear = 0.0f,
                .tfar = INFINITY,
                .mask = 0xffffffffu},
        .hit = {.geomID = RTC_INVALID_GEOMETRY_ID, .instID = {RTC_INVALID_GEOMETRY_ID}},
    };
    rtcIntersect1(j->t->top, &ctx->rtc, &rh);
    /* every geometry is instanced: the instance level names the scene's instance */
    return rh.hit.geomID == RTC_INVALID_GEOMETRY_ID ? GN_TRUTH_NO_INSTANCE : rh.hit.instID[0];
}

static void *gn_truth_id_worker(void *arg)
{
    gn_truth_id_job *j = arg;
    gn_truth_cull_context ctx;
    gn_truth_cull_init(&ctx, j->t);
    for (;;) {
        uint32_t y = atomic_fetch_add(&j->next_row, 1u);
        if (y >= j->f->height) break;
        uint32_t *row = j->ids + (size_t)y * j->f->width;
        for (uint32_t x = 0; x < j->f->width; x++) row[x] = gn_truth_id_pixel(j, &ctx, x, y);
    }
    atomic_fetch_add(&j->back_faces, ctx.back_faces);
    return NULL;
}

gn_result gn_truth_ids(const gn_truth *t, const gn_truth_frame *f, uint32_t *ids, gn_truth_stats *stats,
                       gn_error *err)
{
    if (!t || !f || !f->view || !ids || f->width == 0 || f->height == 0)
        return gn_cli_error(err, GN_ERROR_INVALID_ARGUMENT, "gn_truth_ids: arguments are required");
    double t0 = gn_truth_now_ms();
    gn_truth_id_job j = {.t = t, .f = f, .ids = ids};
    gn_truth_unproject_init(&j.u, f);
    atomic_init(&j.next_row, 0u);
    atomic_init(&j.back_faces, 0ull);
    uint32_t threads = gn_truth_parallel(f->height, gn_truth_id_worker, &j);
    if (stats)
        *stats = (gn_truth_stats){.rays = (uint64_t)f->width * f->height,
                                  .back_faces = atomic_load(&j.back_faces),
                                  .ms = gn_truth_now_ms() - t0,
                                  .threads = threads};
    return gn_truth_check(t, "primary rays", err);
}

/* GPU particles' CPU reference (particles.h). Every function that the GPU mirrors keeps the
 * operations of shaders/particles.glsl in the same order, one rounding each: a sum of three
 * terms is ((a + b) + c), never a fused multiply-add. */
#include "decide/particles.h"

#include "decide/camera.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* clang contracts a * b + c by default; gcc's ISO C mode does not */
#endif

_Static_assert(sizeof(gn_gpu_particle) == 48, "std430 stride of the particle state");
_Static_assert(sizeof(gn_gpu_particle_instance) == 64, "seed 000's 16 floats");
_Static_assert(sizeof(gn_gpu_particle_spawn) == 128, "8 vec4");
_Static_assert(sizeof(gn_gpu_particle_group) == 32, "2 vec4");
_Static_assert(sizeof(gn_gpu_particle_step) == 48, "3 vec4");
_Static_assert(GN_PARTICLE_MAX_GROUPS == 1 + GN_PARTICLE_MAX_BURSTS, "one group a source");
_Static_assert(GN_PARTICLE_STREAM_POS + 3 * GN_PARTICLE_SPHERE_TRIES <= GN_PARTICLE_STREAM_DIR &&
                   GN_PARTICLE_STREAM_DIR + 2 * GN_PARTICLE_DISC_TRIES <= GN_PARTICLE_STREAM_SPEED,
               "the rejection tries' streams overlap the next value's");
_Static_assert(GN_PARTICLE_MAX_BURSTS < 16, "the source's 4 bits in key.y");

static float gn_bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static uint32_t gn_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* ---- description -------------------------------------------------------------------------- */

gn_particle_desc gn_particle_desc_default(void)
{
    return (gn_particle_desc){
        .shape = GN_PARTICLE_POINT,
        .rate = 10.0f,
        .max_particles = 1024,
        .lifetime = {1.0f, 1.0f},
        .speed = {1.0f, 1.0f},
        .direction = {0.0f, 1.0f, 0.0f},
        .size = {0.1f, 0.1f},
        .color = {{1.0f, 1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f, 1.0f}},
        .gravity = {0.0f, -9.81f, 0.0f},
        .curl_scale = 1.0f,
        .atlas_columns = 1,
        .atlas_rows = 1,
        .atlas_frames = 1,
        .render = GN_PARTICLE_BILLBOARD,
        .blend = GN_PARTICLE_ALPHA,
        .collision = GN_PARTICLE_COLLIDE_NONE,
        .restitution = 0.5f,
        .collision_thickness = 0.5f,
    };
}

static bool __attribute__((format(printf, 3, 4))) gn_why(char *msg, size_t n, const char *fmt, ...)
{
    if (msg && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, n, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* v finite and in [lo, hi]. */
static bool gn_in(float v, float lo, float hi) { return isfinite(v) && v >= lo && v <= hi; }

#define GN_RANGE(v, lo, hi, name)                                                                            \
    do {                                                                                                     \
        if (!gn_in((v), (lo), (hi)))                                                                         \
            return gn_why(msg, n, "%s: %g is outside [%g, %g]", (name), (double)(v), (double)(lo),           \
                          (double)(hi));                                                                     \
    } while (0)
#define GN_PAIR(a, lo, hi, name)                                                                             \
    do {                                                                                                     \
        GN_RANGE((a)[0], lo, hi, name "[0]");                                                                \
        GN_RANGE((a)[1], lo, hi, name "[1]");                                                                \
    } while (0)
#define GN_MINMAX(a, name)                                                                                   \
    do {                                                                                                     \
        if ((a)[0] > (a)[1])                                                                                 \
            return gn_why(msg, n, "%s: min %g is greater than max %g", (name), (double)(a)[0],               \
                          (double)(a)[1]);                                                                   \
    } while (0)

bool gn_particle_desc_check(const gn_particle_desc *d, char *msg, size_t n)
{
    if ((unsigned)d->shape > GN_PARTICLE_DISC)
        return gn_why(msg, n, "shape: %u is no shape", (unsigned)d->shape);
    for (int i = 0; i < 3; i++) GN_RANGE(d->half_extent[i], 0.0f, GN_PARTICLE_MAX_EXTENT, "half_extent");
    GN_RANGE(d->radius, 0.0f, GN_PARTICLE_MAX_EXTENT, "radius");
    if (d->shape != GN_PARTICLE_BOX && (d->half_extent[0] || d->half_extent[1] || d->half_extent[2]))
        return gn_why(msg, n, "half_extent: only for a box shape");
    if (d->shape != GN_PARTICLE_SPHERE && d->shape != GN_PARTICLE_DISC && d->radius)
        return gn_why(msg, n, "radius: only for a sphere or a disc shape");
    GN_RANGE(d->rate, 0.0f, GN_PARTICLE_MAX_RATE, "rate");
    if (d->burst_count > GN_PARTICLE_MAX_BURSTS)
        return gn_why(msg, n, "bursts: %u, more than %u", d->burst_count, GN_PARTICLE_MAX_BURSTS);
    for (uint32_t b = 0; b < d->burst_count; b++) {
        const gn_particle_burst *bu = &d->bursts[b];
        char name[32];
        snprintf(name, sizeof name, "bursts[%u].time", b);
        GN_RANGE(bu->time, 0.0f, GN_PARTICLE_MAX_TIME, name);
        snprintf(name, sizeof name, "bursts[%u].interval", b);
        GN_RANGE(bu->interval, 0.0f, GN_PARTICLE_MAX_TIME, name);
        if (bu->interval > 0.0f && bu->interval < GN_PARTICLE_MIN_INTERVAL)
            return gn_why(msg, n, "%s: %g is under %g s (0: once)", name, (double)bu->interval,
                          (double)GN_PARTICLE_MIN_INTERVAL);
        if (bu->count < 1 || bu->count > GN_PARTICLE_MAX_BURST_COUNT)
            return gn_why(msg, n, "bursts[%u].count: %u is outside [1, %u]", b, bu->count,
                          GN_PARTICLE_MAX_BURST_COUNT);
        if (bu->cycles > GN_PARTICLE_MAX_CYCLES)
            return gn_why(msg, n, "bursts[%u].cycles: %u is outside [0, %u]", b, bu->cycles,
                          GN_PARTICLE_MAX_CYCLES);
        if (bu->interval == 0.0f && bu->cycles != 1)
            return gn_why(msg, n, "bursts[%u].cycles: %u repeats need an interval", b, bu->cycles);
    }
    if (d->max_particles < 1 || d->max_particles > GN_PARTICLE_MAX_LIVE)
        return gn_why(msg, n, "max_particles: %u is outside [1, %u]", d->max_particles, GN_PARTICLE_MAX_LIVE);
    GN_PAIR(d->lifetime, GN_PARTICLE_MIN_LIFETIME, GN_PARTICLE_MAX_LIFETIME, "lifetime");
    GN_MINMAX(d->lifetime, "lifetime");
    GN_PAIR(d->speed, 0.0f, GN_PARTICLE_MAX_SPEED, "speed");
    GN_MINMAX(d->speed, "speed");
    for (int i = 0; i < 3; i++) GN_RANGE(d->direction[i], -1e6f, 1e6f, "direction");
    double len2 = (double)d->direction[0] * d->direction[0] + (double)d->direction[1] * d->direction[1] +
                  (double)d->direction[2] * d->direction[2];
    if (!(len2 >= 1e-12)) return gn_why(msg, n, "direction: has no length");
    GN_RANGE(d->cone, 0.0f, GN_PARTICLE_MAX_CONE, "cone");
    GN_PAIR(d->rotation, -GN_PARTICLE_MAX_ROTATION, GN_PARTICLE_MAX_ROTATION, "rotation");
    GN_MINMAX(d->rotation, "rotation");
    GN_PAIR(d->spin, -GN_PARTICLE_MAX_SPIN, GN_PARTICLE_MAX_SPIN, "spin");
    GN_MINMAX(d->spin, "spin");
    GN_PAIR(d->size, 0.0f, GN_PARTICLE_MAX_EXTENT, "size");
    GN_RANGE(d->size_jitter, 0.0f, 1.0f, "size_jitter");
    for (int s = 0; s < 2; s++) {
        for (int c = 0; c < 4; c++)
            if (!gn_in(d->color[s][c], 0.0f, 1.0f))
                return gn_why(msg, n, "color[%d][%d]: %g is outside [0, 1]", s, c, (double)d->color[s][c]);
        for (int c = 0; c < 3; c++)
            if (!gn_in(d->emission[s][c], 0.0f, GN_PARTICLE_MAX_EMISSION))
                return gn_why(msg, n, "emission[%d][%d]: %g is outside [0, %g]", s, c,
                              (double)d->emission[s][c], (double)GN_PARTICLE_MAX_EMISSION);
    }
    GN_RANGE(d->fade_in, 0.0f, 1.0f, "fade_in");
    for (int i = 0; i < 3; i++)
        GN_RANGE(d->gravity[i], -GN_PARTICLE_MAX_ACCEL, GN_PARTICLE_MAX_ACCEL, "gravity");
    GN_RANGE(d->drag, 0.0f, GN_PARTICLE_MAX_DRAG, "drag");
    GN_RANGE(d->wind_response, 0.0f, 1.0f, "wind_response");
    GN_RANGE(d->curl_strength, 0.0f, GN_PARTICLE_MAX_ACCEL, "curl_strength");
    GN_RANGE(d->curl_scale, GN_PARTICLE_MIN_CURL_SCALE, GN_PARTICLE_MAX_CURL_SCALE, "curl_scale");
    if (d->atlas_columns < 1 || d->atlas_columns > GN_PARTICLE_MAX_ATLAS_SIDE)
        return gn_why(msg, n, "atlas.columns: %u is outside [1, %u]", d->atlas_columns,
                      GN_PARTICLE_MAX_ATLAS_SIDE);
    if (d->atlas_rows < 1 || d->atlas_rows > GN_PARTICLE_MAX_ATLAS_SIDE)
        return gn_why(msg, n, "atlas.rows: %u is outside [1, %u]", d->atlas_rows, GN_PARTICLE_MAX_ATLAS_SIDE);
    if (d->atlas_frames < 1 || d->atlas_frames > d->atlas_columns * d->atlas_rows)
        return gn_why(msg, n, "atlas.frames: %u is outside [1, %u] (columns x rows)", d->atlas_frames,
                      d->atlas_columns * d->atlas_rows);
    GN_RANGE(d->atlas_fps, 0.0f, GN_PARTICLE_MAX_FPS, "atlas.fps");
    if (d->atlas_over_life && d->atlas_fps > 0.0f)
        return gn_why(msg, n, "atlas.fps: a rate and over_life together (choose one)");
    if ((unsigned)d->render > GN_PARTICLE_RIBBON)
        return gn_why(msg, n, "render: %u is no render mode", (unsigned)d->render);
    GN_RANGE(d->stretch, 0.0f, GN_PARTICLE_MAX_STRETCH, "stretch");
    if (d->stretch > 0.0f && d->render != GN_PARTICLE_VELOCITY)
        return gn_why(msg, n, "stretch: only for velocity-aligned quads (render \"velocity\")");
    if ((unsigned)d->blend > GN_PARTICLE_ADDITIVE)
        return gn_why(msg, n, "blend: %u is no blend", (unsigned)d->blend);
    GN_RANGE(d->soft_depth, 0.0f, GN_PARTICLE_MAX_SOFT_DEPTH, "soft_depth");
    if ((unsigned)d->collision > GN_PARTICLE_COLLIDE_DIE)
        return gn_why(msg, n, "collision: %u is no collision mode", (unsigned)d->collision);
    GN_RANGE(d->restitution, 0.0f, 1.0f, "restitution");
    GN_RANGE(d->friction, 0.0f, 1.0f, "friction");
    GN_RANGE(d->collision_thickness, GN_PARTICLE_MIN_THICKNESS, GN_PARTICLE_MAX_THICKNESS,
             "collision_thickness");
    return true;
}

/* ---- random numbers ----------------------------------------------------------------------- */

uint32_t gn_particle_pcg(uint32_t v)
{
    uint32_t state = v * 747796405u + 2891336453u;
    uint32_t word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

uint32_t gn_particle_key(uint32_t seed, uint32_t source, uint32_t index)
{
    return gn_particle_pcg(gn_particle_pcg(seed + source * 0x9E3779B9u) ^ index);
}

uint32_t gn_particle_rand(uint32_t key, uint32_t stream)
{
    return gn_particle_pcg(key + stream * 0x632BE5ABu);
}

float gn_particle_unit(uint32_t h) { return (float)(h >> 8u) * 0x1p-24f; }

/* 2u - 1: uniform in [-1, 1), exact (a 24-bit integer times a power of two, minus one). */
static float gn_signed(uint32_t key, uint32_t stream)
{
    return 2.0f * gn_particle_unit(gn_particle_rand(key, stream)) - 1.0f;
}

/* ---- emission ----------------------------------------------------------------------------- */

/* The rate's particles born in [0, t): k / rate < t for k = 0 .. ceil(rate t) - 1. */
static uint64_t gn_rate_born(float rate, double t)
{
    if (!(t > 0.0) || !(rate > 0.0f)) return 0;
    double n = ceil((double)rate * t);
    return n < 1.8e19 ? (uint64_t)n : (uint64_t)1.8e19;
}

/* Occurrences of a burst before t: time + i interval < t, at most cycles (0: no limit). */
static uint64_t gn_burst_occurred(const gn_particle_burst *b, double t)
{
    if (!(t > (double)b->time)) return 0;
    if (b->interval <= 0.0f) return 1;
    double n = ceil((t - (double)b->time) / (double)b->interval);
    uint64_t m = n < 1.8e19 ? (uint64_t)n : (uint64_t)1.8e19;
    return b->cycles && m > b->cycles ? b->cycles : m;
}

uint64_t gn_particle_spawn_total(const gn_particle_desc *d, double t)
{
    uint64_t total = gn_rate_born(d->rate, t);
    for (uint32_t b = 0; b < d->burst_count && b < GN_PARTICLE_MAX_BURSTS; b++)
        total += gn_burst_occurred(&d->bursts[b], t) * d->bursts[b].count;
    return total;
}

/* A group of `count` particles (the newest `kept` of them kept) ending with the particle whose
 * index within its source is last_plus_one - 1. */
static void gn_group(gn_gpu_particle_group *g, uint32_t source, uint64_t last_plus_one, uint64_t kept,
                     uint32_t per_step, double newest_age, double interval)
{
    g->index[0] = source;
    g->index[1] = (uint32_t)(last_plus_one - kept); /* indices wrap at 2^32 */
    g->index[2] = (uint32_t)kept;
    g->index[3] = per_step;
    g->age[0] = newest_age > 0.0 ? (float)newest_age : 0.0f; /* rounding may dip below 0 */
    g->age[1] = (float)interval;
    g->age[2] = g->age[3] = 0.0f;
}

uint32_t gn_particle_spawn_groups(const gn_particle_desc *d, double t0, double t1,
                                  gn_gpu_particle_group out[GN_PARTICLE_MAX_GROUPS])
{
    uint32_t n = 0;
    if (!(t1 > t0)) return 0;
    uint64_t cap = d->max_particles;
    uint64_t n0 = gn_rate_born(d->rate, t0), n1 = gn_rate_born(d->rate, t1);
    if (n1 > n0) {
        uint64_t count = n1 - n0 < cap ? n1 - n0 : cap;
        double rate = d->rate;
        gn_group(&out[n++], GN_PARTICLE_SOURCE_RATE, n1, count, 1, t1 - (double)(n1 - 1) / rate, 1.0 / rate);
    }
    for (uint32_t b = 0; b < d->burst_count && b < GN_PARTICLE_MAX_BURSTS; b++) {
        const gn_particle_burst *bu = &d->bursts[b];
        uint64_t m0 = gn_burst_occurred(bu, t0), m1 = gn_burst_occurred(bu, t1);
        if (m1 <= m0 || bu->count == 0) continue;
        uint64_t total = (m1 - m0) * bu->count, count = total < cap ? total : cap;
        double newest = (double)bu->time + (double)(m1 - 1) * (double)bu->interval;
        gn_group(&out[n++], 1 + b, m1 * bu->count, count, bu->count, t1 - newest, bu->interval);
    }
    return n;
}

void gn_particle_spawn_pack(const gn_particle_desc *d, const float origin[3], uint32_t seed,
                            uint32_t emitter_id, gn_gpu_particle_spawn *out)
{
    memset(out, 0, sizeof *out);
    double len = sqrt((double)d->direction[0] * d->direction[0] + (double)d->direction[1] * d->direction[1] +
                      (double)d->direction[2] * d->direction[2]);
    float nz[3] = {0.0f, 1.0f, 0.0f};
    if (len > 0.0 && isfinite(len))
        for (int i = 0; i < 3; i++) nz[i] = (float)(d->direction[i] / len);
    /* Duff et al. 2017, listing 3: a frame for any unit n with no branch on its size. */
    float sign = copysignf(1.0f, nz[2]), a = -1.0f / (sign + nz[2]), b = nz[0] * nz[1] * a;
    float tx[3] = {1.0f + sign * nz[0] * nz[0] * a, sign * b, -sign * nz[0]};
    float ty[3] = {b, sign + nz[1] * nz[1] * a, -nz[1]};
    double half = 0.5 * (double)d->cone, s = sin(half);
    for (int i = 0; i < 3; i++) {
        out->origin_radius[i] = origin[i];
        out->extent_omc[i] = d->shape == GN_PARTICLE_BOX ? d->half_extent[i] : 0.0f;
        out->axis_x[i] = tx[i];
        out->axis_y[i] = ty[i];
        out->axis_z[i] = nz[i];
    }
    out->origin_radius[3] = d->radius;
    out->extent_omc[3] = (float)(2.0 * s * s); /* 1 - cos(cone), without cancellation */
    out->axis_x[3] = d->speed[0];
    out->axis_y[3] = d->speed[1] - d->speed[0];
    out->axis_z[3] = d->lifetime[0];
    out->ranges[0] = d->lifetime[1] - d->lifetime[0];
    out->ranges[1] = d->rotation[0];
    out->ranges[2] = d->rotation[1] - d->rotation[0];
    out->ranges[3] = d->spin[0];
    out->ranges2[0] = d->spin[1] - d->spin[0];
    out->ids[0] = seed;
    out->ids[1] = (uint32_t)d->shape;
    out->ids[2] = emitter_id & GN_PARTICLE_EMITTER_MASK;
}

/* The shape's random point, relative to the origin. */
static void gn_spawn_point(const gn_gpu_particle_spawn *sp, uint32_t key, float out[3])
{
    float q[3] = {0.0f, 0.0f, 0.0f};
    switch (sp->ids[1]) {
    case GN_PARTICLE_SHAPE_BOX:
        for (int i = 0; i < 3; i++) out[i] = gn_signed(key, GN_PARTICLE_STREAM_POS + i) * sp->extent_omc[i];
        return;
    case GN_PARTICLE_SHAPE_SPHERE:
        for (uint32_t t = 0; t < GN_PARTICLE_SPHERE_TRIES; t++) {
            for (uint32_t i = 0; i < 3; i++) q[i] = gn_signed(key, GN_PARTICLE_STREAM_POS + 3 * t + i);
            float r2 = (q[0] * q[0] + q[1] * q[1]) + q[2] * q[2];
            if (r2 <= 1.0f) break;
            if (t + 1 == GN_PARTICLE_SPHERE_TRIES)
                for (int i = 0; i < 3; i++) q[i] = q[i] * 0.57735027f; /* 1/sqrt(3): the cube's corner in */
        }
        break;
    case GN_PARTICLE_SHAPE_DISC:
        for (uint32_t t = 0; t < GN_PARTICLE_DISC_TRIES; t++) {
            q[0] = gn_signed(key, GN_PARTICLE_STREAM_POS + 2 * t);
            q[2] = gn_signed(key, GN_PARTICLE_STREAM_POS + 2 * t + 1);
            float r2 = q[0] * q[0] + q[2] * q[2];
            if (r2 <= 1.0f) break;
            if (t + 1 == GN_PARTICLE_DISC_TRIES) q[0] = q[0] * 0.70710677f, q[2] = q[2] * 0.70710677f;
        }
        break;
    default: /* a point */
        break;
    }
    for (int i = 0; i < 3; i++) out[i] = q[i] * sp->origin_radius[3];
}

/* 64-bit (2m + 1)^2 >= mx 2^d: is the square of a midpoint at or above x (as integers)? */
static bool gn_mid_sq_ge(uint32_t m2, uint32_t mx, int d) { return (uint64_t)m2 * m2 >= (uint64_t)mx << d; }

float gn_particle_sqrt_round(float x, float s)
{
    for (int pass = 0; pass < 2; pass++) {
        uint32_t xb = gn_float_bits(x), sb = gn_float_bits(s);
        int ex = (int)(xb >> 23 & 0xffu), es = (int)(sb >> 23 & 0xffu);
        if (!(x > 0.0f) || ex == 0 || ex == 255 || es == 0 || es == 255) return s; /* 0, denormal, inf, NaN */
        uint32_t mx = (xb & 0x7fffffu) | 0x800000u, ms = (sb & 0x7fffffu) | 0x800000u;
        /* s = ms 2^(es-150), x = mx 2^(ex-150); the midpoint above s is (2 ms + 1) 2^(es-151), so
         * (s + ulp/2)^2 vs x is (2 ms + 1)^2 vs mx 2^(ex - 2 es + 152) */
        int d = ex - 2 * es + 152;
        if (d < 1 || d > 29) return s; /* s is not within a few ulp: leave it */
        if (!gn_mid_sq_ge(2u * ms + 1u, mx, d)) {
            s = gn_bits_float(sb + 1u); /* the square root lies above the midpoint: round up */
            continue;
        }
        /* the midpoint below: (2 ms - 1) 2^(es-151), or at a power of two (4 ms - 1) 2^(es-152) */
        bool below =
            ms == 0x800000u ? !gn_mid_sq_ge(4u * ms - 1u, mx, d + 2) : !gn_mid_sq_ge(2u * ms - 1u, mx, d);
        if (below) return s;
        s = gn_bits_float(sb - 1u); /* at or below the midpoint below: round down */
    }
    return s;
}

/* A unit direction uniform over the cone around axis_z (Archimedes' map, see particles.h). */
static void gn_spawn_direction(const gn_gpu_particle_spawn *sp, uint32_t key, float out[3])
{
    float omc = sp->extent_omc[3], x = 0.0f, y = 0.0f, r2 = 0.0f;
    if (omc > 0.0f) {
        for (uint32_t t = 0; t < GN_PARTICLE_DISC_TRIES; t++) {
            x = gn_signed(key, GN_PARTICLE_STREAM_DIR + 2 * t);
            y = gn_signed(key, GN_PARTICLE_STREAM_DIR + 2 * t + 1);
            r2 = x * x + y * y;
            if (r2 <= 1.0f) break;
            if (t + 1 == GN_PARTICLE_DISC_TRIES) x = 0.0f, y = 0.0f, r2 = 0.0f; /* 2e-11: the axis */
        }
    }
    float z = 1.0f - r2 * omc;
    float s2 = omc * (1.0f + z);
    float s = gn_particle_sqrt_round(s2, sqrtf(s2));
    float lx = x * s, ly = y * s;
    for (int i = 0; i < 3; i++) out[i] = (sp->axis_x[i] * lx + sp->axis_y[i] * ly) + sp->axis_z[i] * z;
}

bool gn_particle_spawn(const gn_gpu_particle_spawn *sp, const gn_gpu_particle_group *g, uint32_t j,
                       gn_gpu_particle *out)
{
    uint32_t count = g->index[2], per_step = g->index[3] ? g->index[3] : 1;
    if (j >= count) return false;
    uint32_t source = g->index[0], index = g->index[1] + j;
    float age = g->age[0] + (float)((count - 1u - j) / per_step) * g->age[1];
    uint32_t key = gn_particle_key(sp->ids[0], source, index);
    float lifetime =
        sp->axis_z[3] + gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_LIFE)) * sp->ranges[0];
    if (!(age < lifetime)) return false;
    float local[3], dir[3];
    gn_spawn_point(sp, key, local);
    gn_spawn_direction(sp, key, dir);
    float speed =
        sp->axis_x[3] + gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_SPEED)) * sp->axis_y[3];
    for (int i = 0; i < 3; i++) {
        float v = dir[i] * speed;
        out->vel_life[i] = v;
        out->pos_age[i] = (sp->origin_radius[i] + local[i]) + v * age;
    }
    out->pos_age[3] = age;
    out->vel_life[3] = lifetime;
    float rotation =
        sp->ranges[1] + gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_ROT)) * sp->ranges[2];
    float spin =
        sp->ranges[3] + gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_SPIN)) * sp->ranges2[0];
    out->key[0] = index;
    out->key[1] = sp->ids[2] | source << GN_PARTICLE_SOURCE_SHIFT;
    out->key[2] = gn_float_bits(rotation);
    out->key[3] = gn_float_bits(spin);
    return true;
}

/* ---- integration -------------------------------------------------------------------------- */

void gn_particle_step_pack(const gn_particle_desc *d, float dt, const gn_particle_env *env,
                           gn_gpu_particle_step *out)
{
    for (int i = 0; i < 3; i++) {
        out->gravity_dt[i] = d->gravity[i];
        out->air_drag[i] = (env ? env->wind[i] : 0.0f) * d->wind_response;
    }
    out->gravity_dt[3] = dt;
    out->air_drag[3] = d->drag;
    out->curl[0] = d->curl_strength;
    out->curl[1] = d->curl_scale;
    out->curl[2] = 1.0f / (1.0f + d->drag * dt);
    out->curl[3] = 0.0f;
}

bool gn_particle_alive(const gn_gpu_particle *p) { return p->pos_age[3] < p->vel_life[3]; }

void gn_particle_step_with(const gn_gpu_particle_step *st, gn_gpu_particle *p)
{
    if (!gn_particle_alive(p)) return;
    float dt = st->gravity_dt[3], drag = st->air_drag[3], strength = st->curl[0], keep = st->curl[2];
    float c[3] = {0.0f, 0.0f, 0.0f};
    if (strength > 0.0f) {
        float x[3];
        for (int i = 0; i < 3; i++) x[i] = p->pos_age[i] * st->curl[1];
        gn_particle_curl(x, c);
    }
    for (int i = 0; i < 3; i++) {
        float a = (st->gravity_dt[i] + drag * st->air_drag[i]) + strength * c[i];
        p->vel_life[i] = (p->vel_life[i] + a * dt) * keep;
    }
    for (int i = 0; i < 3; i++) p->pos_age[i] = p->pos_age[i] + p->vel_life[i] * dt;
    p->key[2] = gn_float_bits(gn_bits_float(p->key[2]) + gn_bits_float(p->key[3]) * dt);
    p->pos_age[3] = p->pos_age[3] + dt;
}

void gn_particle_step(const gn_particle_desc *d, gn_gpu_particle *p, float dt, const gn_particle_env *env)
{
    gn_gpu_particle_step st;
    gn_particle_step_pack(d, dt, env, &st);
    gn_particle_step_with(&st, p);
}

uint32_t gn_particle_update(const gn_particle_desc *d, const gn_gpu_particle_spawn *sp,
                            const gn_particle_env *env, double t0, double t1, gn_gpu_particle *live,
                            uint32_t count, uint32_t capacity)
{
    if (!(t1 > t0)) return count;
    gn_gpu_particle_step st;
    gn_particle_step_pack(d, (float)(t1 - t0), env, &st);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++) {
        gn_particle_step_with(&st, &live[i]);
        if (gn_particle_alive(&live[i])) live[kept++] = live[i];
    }
    uint32_t cap = capacity < d->max_particles ? capacity : d->max_particles;
    gn_gpu_particle_group groups[GN_PARTICLE_MAX_GROUPS];
    uint32_t n = gn_particle_spawn_groups(d, t0, t1, groups);
    for (uint32_t g = 0; g < n; g++)
        for (uint32_t j = 0; j < groups[g].index[2] && kept < cap; j++)
            if (gn_particle_spawn(sp, &groups[g], j, &live[kept])) kept++;
    return kept;
}

/* ---- curl noise --------------------------------------------------------------------------- */

static const uint32_t gn_curl_salt[3] = {0x00000000u, 0x68E31DA4u, 0xB5297A4Du};

/* A lattice corner's value in [-1, 1). */
static float gn_lattice(uint32_t x, uint32_t y, uint32_t z, uint32_t salt)
{
    uint32_t h = gn_particle_pcg(gn_particle_pcg(gn_particle_pcg(x + salt) + y) + z);
    return 2.0f * gn_particle_unit(h) - 1.0f;
}

/* The gradient of one value-noise potential at x (lattice units), analytic (Quilez's form). */
static void gn_noise_grad(const uint32_t cell[3], const float u[3], const float du[3], uint32_t salt,
                          float g[3])
{
    uint32_t x0 = cell[0], y0 = cell[1], z0 = cell[2], x1 = x0 + 1u, y1 = y0 + 1u, z1 = z0 + 1u;
    float a = gn_lattice(x0, y0, z0, salt), b = gn_lattice(x1, y0, z0, salt);
    float c = gn_lattice(x0, y1, z0, salt), d = gn_lattice(x1, y1, z0, salt);
    float e = gn_lattice(x0, y0, z1, salt), f = gn_lattice(x1, y0, z1, salt);
    float gg = gn_lattice(x0, y1, z1, salt), h = gn_lattice(x1, y1, z1, salt);
    float k1 = b - a, k2 = c - a, k3 = e - a;
    float k4 = ((a - b) - c) + d, k5 = ((a - c) - e) + gg, k6 = ((a - b) - e) + f;
    float k7 = (((((b - a) + c) - d) + e) - f - gg) + h;
    g[0] = du[0] * (((k1 + k4 * u[1]) + k6 * u[2]) + k7 * (u[1] * u[2]));
    g[1] = du[1] * (((k2 + k5 * u[2]) + k4 * u[0]) + k7 * (u[2] * u[0]));
    g[2] = du[2] * (((k3 + k6 * u[0]) + k5 * u[1]) + k7 * (u[0] * u[1]));
}

void gn_particle_curl(const float x[3], float out[3])
{
    uint32_t cell[3];
    float u[3], du[3];
    for (int i = 0; i < 3; i++) {
        float xc = fminf(fmaxf(x[i], -1e9f), 1e9f), fl = floorf(xc), t = xc - fl;
        cell[i] = (uint32_t)(int32_t)fl;
        u[i] = ((t * t) * t) * (t * (t * 6.0f - 15.0f) + 10.0f); /* 6t^5 - 15t^4 + 10t^3 */
        du[i] = ((30.0f * t) * t) * (t * (t - 2.0f) + 1.0f);     /* its derivative, 30t^2 (t - 1)^2 */
    }
    float g1[3], g2[3], g3[3];
    gn_noise_grad(cell, u, du, gn_curl_salt[0], g1);
    gn_noise_grad(cell, u, du, gn_curl_salt[1], g2);
    gn_noise_grad(cell, u, du, gn_curl_salt[2], g3);
    out[0] = g3[1] - g2[2];
    out[1] = g1[2] - g3[0];
    out[2] = g2[0] - g1[1];
}

/* ---- the depth buffer --------------------------------------------------------------------- */

bool gn_particle_project(const gn_particle_view *v, const float p[3], float uv[2], float *w)
{
    float clip[4];
    gn_mat4_transform_point(v->view_proj, p, clip);
    if (!(clip[3] >= v->near_plane)) return false;
    float x = clip[0] / clip[3] * 0.5f + 0.5f, y = clip[1] / clip[3] * 0.5f + 0.5f;
    if (!(x >= 0.0f && x <= 1.0f && y >= 0.0f && y <= 1.0f)) return false;
    uv[0] = x, uv[1] = y, *w = clip[3];
    return true;
}

gn_particle_hit gn_particle_collide(const gn_particle_desc *d, const gn_particle_view *v, float depth_sample,
                                    const float normal[3], gn_gpu_particle *p)
{
    if (d->collision == GN_PARTICLE_COLLIDE_NONE || !gn_particle_alive(p) || !(depth_sample > 0.0f))
        return GN_PARTICLE_HIT_NONE;
    float uv[2], w;
    if (!gn_particle_project(v, p->pos_age, uv, &w)) return GN_PARTICLE_HIT_NONE;
    float s = v->near_plane / depth_sample;
    if (!(w > s && w <= s + d->collision_thickness)) return GN_PARTICLE_HIT_NONE;
    if (d->collision == GN_PARTICLE_COLLIDE_DIE) {
        p->pos_age[3] = p->vel_life[3];
        return GN_PARTICLE_HIT_DIE;
    }
    float back = s / w; /* the surface's point on the ray from the eye through the particle */
    for (int i = 0; i < 3; i++)
        p->pos_age[i] = v->eye[i] + (p->pos_age[i] - v->eye[i]) * back + normal[i] * GN_PARTICLE_COLLIDE_LIFT;
    float vn = p->vel_life[0] * normal[0] + p->vel_life[1] * normal[1] + p->vel_life[2] * normal[2];
    if (vn < 0.0f)
        for (int i = 0; i < 3; i++) {
            float vt = p->vel_life[i] - vn * normal[i];
            p->vel_life[i] = vt * (1.0f - d->friction) - d->restitution * vn * normal[i];
        }
    return GN_PARTICLE_HIT_BOUNCE;
}

float gn_particle_soft_fade(float near_plane, float depth_sample, float w, float soft_depth)
{
    if (!(depth_sample > 0.0f)) return 1.0f; /* the sky */
    float s = near_plane / depth_sample;
    if (!(soft_depth > 0.0f)) return w < s ? 1.0f : 0.0f;
    float f = (s - w) / soft_depth;
    return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
}

/* ---- drawing ------------------------------------------------------------------------------ */

static float gn_lerp(float a, float b, float t) { return a + t * (b - a); }

void gn_particle_instance(const gn_particle_desc *d, uint32_t seed, const gn_gpu_particle *p,
                          const float strip_next[3], gn_gpu_particle_instance *out)
{
    float age = p->pos_age[3], life = p->vel_life[3];
    float t = life > 0.0f ? age / life : 1.0f;
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    uint32_t key = gn_particle_key(seed, p->key[1] >> GN_PARTICLE_SOURCE_SHIFT, p->key[0]);
    float jitter = 1.0f + d->size_jitter * gn_signed(key, GN_PARTICLE_STREAM_SIZE);
    float fade = d->fade_in > 0.0f && t < d->fade_in ? t / d->fade_in : 1.0f;
    uint32_t frames = d->atlas_frames ? d->atlas_frames : 1, frame = 0;
    if (d->atlas_over_life) {
        float f = floorf(t * (float)frames);
        frame = f < (float)frames ? (uint32_t)f : frames - 1;
    } else if (d->atlas_fps > 0.0f) {
        frame = (uint32_t)fmodf(floorf(age * d->atlas_fps), (float)frames);
    }
    if (d->atlas_random_start) {
        uint32_t start =
            (uint32_t)(gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_FRAME)) * (float)frames);
        frame += start < frames ? start : frames - 1;
    }
    for (int i = 0; i < 3; i++) {
        out->pos_half[i] = p->pos_age[i];
        out->dir_frame[i] =
            d->render == GN_PARTICLE_RIBBON ? (strip_next ? strip_next[i] : p->pos_age[i]) : p->vel_life[i];
        out->rot_emit[1 + i] = gn_lerp(d->emission[0][i], d->emission[1][i], t);
    }
    out->pos_half[3] = 0.5f * gn_lerp(d->size[0], d->size[1], t) * jitter;
    for (int i = 0; i < 4; i++) out->color[i] = gn_lerp(d->color[0][i], d->color[1][i], t);
    out->color[3] *= fade;
    out->dir_frame[3] = (float)(frame % frames);
    out->rot_emit[0] = gn_bits_float(p->key[2]);
}

/* ---- built-in emitters --------------------------------------------------------------------- */

static const char *const gn_builtin_names[GN_PARTICLE_BUILTIN_COUNT] = {"chimney_smoke", "fountain",
                                                                        "torch_flame", "sparks"};

const char *gn_particle_builtin_name(gn_particle_builtin which)
{
    return (unsigned)which < GN_PARTICLE_BUILTIN_COUNT ? gn_builtin_names[which] : "unknown";
}

/* Degrees to radians rounded once from double, as the emitter format converts them. */
static float gn_deg(double deg) { return (float)(deg * (3.14159265358979323846 / 180.0)); }

gn_particle_desc gn_particle_builtin_desc(gn_particle_builtin which)
{
    gn_particle_desc d = gn_particle_desc_default();
    switch (which) {
    case GN_PARTICLE_CHIMNEY_SMOKE:
        /* Wood smoke from a house's flue (~0.3 m across). Flue gas leaves a domestic chimney at
         * 1-3 m/s; warm smoke is buoyant (about +0.2 m/s^2 once mixed with air) and couples to
         * the wind within a couple of seconds (drag 0.5/s), so it bends downwind. Puffs widen
         * from the flue's width to ~4 m as they entrain air and thin to nothing over 8-12 s; a
         * grey, sunlit reflectance (wood smoke scatters, albedo ~0.4), no emission. */
        d.shape = GN_PARTICLE_SPHERE;
        d.radius = 0.15f;
        d.rate = 6.0f;
        d.lifetime[0] = 8.0f, d.lifetime[1] = 12.0f;
        d.speed[0] = 0.8f, d.speed[1] = 1.4f;
        d.cone = gn_deg(10.0);
        d.rotation[0] = gn_deg(-180.0), d.rotation[1] = gn_deg(180.0);
        d.spin[0] = gn_deg(-15.0), d.spin[1] = gn_deg(15.0);
        d.size[0] = 0.5f, d.size[1] = 4.0f;
        d.size_jitter = 0.25f;
        memcpy(d.color, (float[2][4]){{0.35f, 0.35f, 0.37f, 0.55f}, {0.45f, 0.45f, 0.47f, 0.0f}},
               sizeof d.color);
        d.fade_in = 0.1f;
        d.gravity[0] = 0.0f, d.gravity[1] = 0.2f, d.gravity[2] = 0.0f;
        d.drag = 0.5f;
        d.wind_response = 1.0f;
        d.curl_strength = 0.4f, d.curl_scale = 0.5f; /* 2 m eddies nudging the plume */
        d.atlas_columns = 4, d.atlas_rows = 4, d.atlas_frames = 16;
        d.atlas_random_start = true; /* one puff shape each */
        d.soft_depth = 1.0f;         /* puffs are metres across: fade over a metre at walls and roofs */
        d.max_particles = 96;        /* 6/s x 12 s = 72 live at most, with room */
        break;
    case GN_PARTICLE_FOUNTAIN:
        /* A plaza fountain's jet rising ~2 m: v = sqrt(2 g h) = 6.3 m/s from a 10 cm nozzle,
         * within 6 degrees of vertical; up and down takes 2v/g ~1.3 s, a little more to fall
         * into the basin below the nozzle. Drops of a few mm in a coherent jet feel little drag
         * (0.3/s; a lone 2 mm drop's terminal speed of ~6.5 m/s would be 1.5/s). Water: a pale
         * reflectance, half transparent, streaked along the motion; it dies on what it hits. */
        d.shape = GN_PARTICLE_DISC;
        d.radius = 0.05f;
        d.rate = 400.0f;
        d.lifetime[0] = 1.4f, d.lifetime[1] = 1.7f;
        d.speed[0] = 6.0f, d.speed[1] = 6.6f;
        d.cone = gn_deg(6.0);
        d.size[0] = 0.04f, d.size[1] = 0.06f;
        d.size_jitter = 0.3f;
        memcpy(d.color, (float[2][4]){{0.6f, 0.7f, 0.75f, 0.5f}, {0.6f, 0.7f, 0.75f, 0.35f}}, sizeof d.color);
        d.drag = 0.3f;
        d.wind_response = 1.0f;
        d.render = GN_PARTICLE_VELOCITY;
        d.stretch = 0.03f; /* a 30 ms streak: what a 1/30 s exposure shows */
        d.soft_depth = 0.1f;
        d.collision = GN_PARTICLE_COLLIDE_DIE;
        d.collision_thickness = 0.3f;
        d.max_particles = 1024; /* 400/s x 1.7 s = 680 */
        break;
    case GN_PARTICLE_TORCH_FLAME:
        /* A torch's flame, ~30-40 cm tall. Hot gas (~1000 K) is strongly buoyant: (T - T0) / T g
         * is ~7 m/s^2, less once mixed (2.5 m/s^2), against drag 2/s: tongues rise at ~1 m/s and
         * live 0.25-0.5 s, shrinking as they burn out, churned by small eddies (curl, 25 cm).
         * Emission from a candle-like 10,000 cd/m^2 yellow-white to a dim red; no reflectance,
         * added to what is behind. The atlas' flame frames play once over each life. */
        d.shape = GN_PARTICLE_SPHERE;
        d.radius = 0.05f;
        d.rate = 40.0f;
        d.lifetime[0] = 0.25f, d.lifetime[1] = 0.5f;
        d.speed[0] = 0.3f, d.speed[1] = 0.6f;
        d.cone = gn_deg(15.0);
        d.rotation[0] = gn_deg(-20.0), d.rotation[1] = gn_deg(20.0);
        d.spin[0] = gn_deg(-90.0), d.spin[1] = gn_deg(90.0);
        d.size[0] = 0.18f, d.size[1] = 0.05f;
        d.size_jitter = 0.2f;
        memcpy(d.color, (float[2][4]){{0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 0.0f}}, sizeof d.color);
        memcpy(d.emission, (float[2][3]){{10000.0f, 5000.0f, 1500.0f}, {1500.0f, 300.0f, 40.0f}},
               sizeof d.emission);
        d.fade_in = 0.05f;
        d.gravity[0] = 0.0f, d.gravity[1] = 2.5f, d.gravity[2] = 0.0f;
        d.drag = 2.0f;
        d.wind_response = 1.0f;
        d.curl_strength = 2.0f, d.curl_scale = 4.0f;
        d.atlas_columns = 4, d.atlas_rows = 4, d.atlas_frames = 16;
        d.atlas_over_life = true;
        d.blend = GN_PARTICLE_ADDITIVE;
        d.soft_depth = 0.2f;
        d.max_particles = 32; /* 40/s x 0.5 s = 20 */
        break;
    case GN_PARTICLE_SPARKS:
        /* Embers from a fire: a few a second and a crackle of 20 every 2.5 s, thrown 2-5 m/s
         * within 35 degrees of up. A 0.5 mm glowing char bit falls at ~2 m/s at most (drag
         * ~5/s; 3/s here as the fire's updraft holds them up), drifting with the wind. They
         * cool from ~1500 K (30,000 cd/m^2, orange) to ~1000 K (a dull red, ~100 cd/m^2) over
         * about a second, drawn as short streaks (1/25 s of travel), bouncing off the ground. */
        d.shape = GN_PARTICLE_SPHERE;
        d.radius = 0.1f;
        d.rate = 6.0f;
        d.burst_count = 1;
        d.bursts[0] = (gn_particle_burst){.time = 0.5f, .interval = 2.5f, .count = 20, .cycles = 0};
        d.lifetime[0] = 0.8f, d.lifetime[1] = 1.6f;
        d.speed[0] = 2.0f, d.speed[1] = 5.0f;
        d.cone = gn_deg(35.0);
        d.size[0] = 0.015f, d.size[1] = 0.008f;
        memcpy(d.color, (float[2][4]){{0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 0.6f}}, sizeof d.color);
        memcpy(d.emission, (float[2][3]){{30000.0f, 13500.0f, 3000.0f}, {120.0f, 20.0f, 2.0f}},
               sizeof d.emission);
        d.drag = 3.0f;
        d.wind_response = 1.0f;
        d.curl_strength = 0.5f, d.curl_scale = 2.0f;
        d.render = GN_PARTICLE_VELOCITY;
        d.stretch = 0.04f;
        d.blend = GN_PARTICLE_ADDITIVE;
        d.soft_depth = 0.05f;
        d.collision = GN_PARTICLE_COLLIDE_BOUNCE;
        d.restitution = 0.4f, d.friction = 0.3f;
        d.collision_thickness = 0.3f;
        d.max_particles = 64; /* 6/s x 1.6 s + 20 = 30 */
        break;
    default:
        break;
    }
    return d;
}

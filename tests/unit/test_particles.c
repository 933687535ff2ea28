/* GPU particles' CPU reference (decide/particles.c): the integration against closed forms
 * (gravity alone, drag towards the wind), the spawn counts over uneven frames against
 * ceil(rate T) plus the bursts, the hash pinned and its numbers' distribution, the spawn shapes
 * and cone, the curl noise's divergence by finite differences, the depth-buffer decision on
 * placed cases, the drawn instance, and each built-in emitter checked and run. */
#include "decide/camera.h"
#include "decide/particles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static gn_gpu_particle particle(const float pos[3], const float vel[3], float lifetime)
{
    gn_gpu_particle p = {{pos[0], pos[1], pos[2], 0.0f}, {vel[0], vel[1], vel[2], lifetime}, {0, 0, 0, 0}};
    return p;
}

static float rotation_of(const gn_gpu_particle *p)
{
    float f;
    memcpy(&f, &p->key[2], sizeof f);
    return f;
}

/* Gravity alone: after N steps of v += g dt, p += v dt,
 *   v_N = v0 + N g dt,   p_N = p0 + N dt v0 + g dt^2 N (N + 1) / 2.
 * With dyadic values (dt = 1/64, g = -8, v0 = 2) every operation is exact, so equality holds
 * to the bit; with g = -9.81 and dt = 1/60 within 2e-6 relative of the double closed form. */
static void test_gravity(void)
{
    gn_particle_desc d = gn_particle_desc_default();
    d.gravity[0] = 0.0f, d.gravity[1] = -8.0f, d.gravity[2] = 0.0f;
    gn_gpu_particle p = particle((float[3]){0.5f, 0.0f, -1.0f}, (float[3]){1.0f, 2.0f, 0.0f}, 1000.0f);
    const int n = 100;
    for (int i = 0; i < n; i++) gn_particle_step(&d, &p, 1.0f / 64.0f, NULL);
    CHECK(p.vel_life[1] == 2.0f - 8.0f * n / 64.0f, "dyadic v_y %.9g", p.vel_life[1]);
    double want = n / 64.0 * 2.0 - 8.0 / 4096.0 * n * (n + 1) / 2.0; /* -6.73828125 */
    CHECK(p.pos_age[1] == (float)want, "dyadic p_y %.9g, closed form %.9g", p.pos_age[1], want);
    CHECK(p.pos_age[0] == 0.5f + n / 64.0f && p.pos_age[2] == -1.0f, "dyadic x %.9g z %.9g", p.pos_age[0],
          p.pos_age[2]);
    CHECK(p.pos_age[3] == n / 64.0f, "age %.9g", p.pos_age[3]);

    d.gravity[1] = -9.81f;
    const float v0[3] = {1.5f, 4.0f, -0.5f}, p0[3] = {10.0f, 2.0f, -3.0f};
    p = particle(p0, v0, 1000.0f);
    const int m = 120;
    const float dt = 1.0f / 60.0f;
    for (int i = 0; i < m; i++) gn_particle_step(&d, &p, dt, NULL);
    for (int k = 0; k < 3; k++) {
        double g = k == 1 ? -9.81 : 0.0, h = dt;
        double v = v0[k] + m * g * h, x = p0[k] + m * h * v0[k] + g * h * h * m * (m + 1) / 2.0;
        CHECK(fabs(p.vel_life[k] - v) <= 1e-5 * fmax(1.0, fabs(v)), "axis %d v %.9g closed %.9g", k,
              p.vel_life[k], v);
        CHECK(fabs(p.pos_age[k] - x) <= 1e-5 * fmax(1.0, fabs(x)), "axis %d p %.9g closed %.9g", k,
              p.pos_age[k], x);
    }
}

/* Drag towards the wind: v_N - v_eq = (v0 - v_eq) / (1 + k dt)^N, v_eq = wind + g / k. */
static void test_drag(void)
{
    gn_particle_desc d = gn_particle_desc_default();
    d.drag = 2.0f;
    d.wind_response = 0.5f;
    gn_particle_env env = {{6.0f, 0.0f, -2.0f}};
    const float v0[3] = {0.0f, 5.0f, 4.0f};
    gn_gpu_particle p = particle((float[3]){0, 0, 0}, v0, 1000.0f);
    const float dt = 1.0f / 50.0f;
    const int n = 250; /* 5 s: (1 + 0.04)^-250 = 5.6e-5 of the start remains */
    for (int i = 0; i < n; i++) gn_particle_step(&d, &p, dt, &env);
    for (int k = 0; k < 3; k++) {
        double eq = env.wind[k] * 0.5 + d.gravity[k] / 2.0;
        double want = eq + (v0[k] - eq) * pow(1.0 + 2.0 * dt, -n);
        CHECK(fabs(p.vel_life[k] - want) < 1e-5, "drag axis %d: v %.9g, closed form %.9g", k, p.vel_life[k],
              want);
        CHECK(fabs(p.vel_life[k] - eq) < 2e-3, "drag axis %d: v %.9g has not reached %.9g", k, p.vel_life[k],
              eq);
    }
    /* Stiff: drag 50/s at dt 0.1 (k dt = 5): the implicit form neither overshoots nor oscillates. */
    d.drag = 50.0f;
    d.gravity[1] = 0.0f;
    p = particle((float[3]){0, 0, 0}, (float[3]){10.0f, 0, 0}, 1000.0f);
    float prev = 10.0f;
    bool monotonic = true;
    for (int i = 0; i < 20; i++) {
        gn_particle_step(&d, &p, 0.1f, &env);
        if (!(p.vel_life[0] <= prev && p.vel_life[0] >= 3.0f - 1e-5f)) monotonic = false;
        prev = p.vel_life[0];
    }
    CHECK(monotonic && fabsf(p.vel_life[0] - 3.0f) < 1e-5f, "stiff drag: v %.9g (air 3)", p.vel_life[0]);
}

static void test_life_and_spin(void)
{
    gn_particle_desc d = gn_particle_desc_default();
    gn_gpu_particle p = particle((float[3]){0, 0, 0}, (float[3]){0, 0, 0}, 0.25f);
    float rot = 0.5f, spin = -2.0f;
    memcpy(&p.key[2], &rot, 4);
    memcpy(&p.key[3], &spin, 4);
    for (int i = 0; i < 3; i++) gn_particle_step(&d, &p, 0.0625f, NULL);
    CHECK(gn_particle_alive(&p) && p.pos_age[3] == 0.1875f, "alive at 0.1875 s: age %g", p.pos_age[3]);
    CHECK(rotation_of(&p) == 0.5f - 3 * 2.0f * 0.0625f, "rotation %.9g", rotation_of(&p));
    gn_particle_step(&d, &p, 0.0625f, NULL);
    CHECK(!gn_particle_alive(&p), "dead at its lifetime: age %g of %g", p.pos_age[3], p.vel_life[3]);
    gn_gpu_particle dead = p;
    gn_particle_step(&d, &p, 0.0625f, NULL);
    CHECK(memcmp(&dead, &p, sizeof p) == 0, "a dead particle is left as it is");
}

/* Spawn counts over 4,000 frames of uneven length add up exactly; indices run on without gap or
 * overlap; each rate particle's age is the frame's end minus k / rate. */
static void test_spawn_counts(void)
{
    gn_particle_desc d = gn_particle_desc_default();
    d.rate = 37.3f;
    d.max_particles = GN_PARTICLE_MAX_LIVE;
    d.burst_count = 2;
    d.bursts[0] = (gn_particle_burst){.time = 0.5f, .interval = 0.9f, .count = 7, .cycles = 5};
    d.bursts[1] = (gn_particle_burst){.time = 0.0f, .count = 3, .cycles = 1};
    char why[160];
    CHECK(gn_particle_desc_check(&d, why, sizeof why), "spawn desc: %s", why);
    uint64_t total = 0, next[GN_PARTICLE_MAX_GROUPS] = {0};
    double t = 0.0, worst_age = 0.0;
    uint32_t lcg = 12345, bad_age = 0;
    for (int f = 0; f < 4000; f++) {
        lcg = lcg * 1664525u + 1013904223u;
        double dt = 0.001 + 0.049 * (lcg >> 8) / 16777216.0;
        gn_gpu_particle_group g[GN_PARTICLE_MAX_GROUPS];
        uint32_t n = gn_particle_spawn_groups(&d, t, t + dt, g);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t s = g[i].index[0];
            CHECK(s < GN_PARTICLE_MAX_GROUPS && g[i].index[1] == next[s],
                  "frame %d source %u first %u, expected %llu", f, s, g[i].index[1],
                  (unsigned long long)next[s]);
            next[s] = g[i].index[1] + (uint64_t)g[i].index[2];
            total += g[i].index[2];
            for (uint32_t j = 0; j < g[i].index[2]; j++) {
                float age = g[i].age[0] + (float)((g[i].index[2] - 1 - j) / g[i].index[3]) * g[i].age[1];
                double born = s == 0 ? (g[i].index[1] + j) / (double)d.rate
                                     : d.bursts[s - 1].time + ((g[i].index[1] + j) / d.bursts[s - 1].count) *
                                                                  (double)d.bursts[s - 1].interval;
                double err = fabs(age - (t + dt - born));
                if (err > worst_age) worst_age = err;
                if (!(age >= 0.0f && age < dt + 1e-6) || err > 1e-5) bad_age++;
            }
        }
        t += dt;
    }
    uint64_t want = (uint64_t)ceil((double)d.rate * t) + 5 * 7 + 3;
    CHECK(total == want, "%llu spawned in %.6f s, ceil(rate T) + bursts = %llu", (unsigned long long)total, t,
          (unsigned long long)want);
    CHECK(total == gn_particle_spawn_total(&d, t), "spawn_total %llu",
          (unsigned long long)gn_particle_spawn_total(&d, t));
    CHECK(bad_age == 0, "%u ages off (worst %.3g s)", bad_age, worst_age);
    fprintf(stderr, "particles: %llu spawned over %.3f s of uneven frames, ages within %.2g s\n",
            (unsigned long long)total, t, worst_age);

    /* the first frame spawns the rate's particle 0 at time 0, and a burst at 0 */
    gn_gpu_particle_group g[GN_PARTICLE_MAX_GROUPS];
    uint32_t n = gn_particle_spawn_groups(&d, 0.0, 0.001, g);
    CHECK(n == 2 && g[0].index[2] == 1 && g[1].index[0] == 2 && g[1].index[2] == 3, "first frame: %u groups",
          n);
    /* one long frame keeps the newest max_particles */
    d.max_particles = 100;
    n = gn_particle_spawn_groups(&d, 0.0, 1000.0, g);
    CHECK(n >= 1 && g[0].index[2] == 100 && g[0].index[1] == 37300 - 100, "capped: first %u count %u",
          g[0].index[1], g[0].index[2]);
    CHECK(g[0].age[0] < 1.0f / 37.3f && g[0].age[0] >= 0.0f, "capped: newest age %g", g[0].age[0]);
    /* an empty or backwards frame spawns nothing */
    CHECK(gn_particle_spawn_groups(&d, 5.0, 5.0, g) == 0 && gn_particle_spawn_groups(&d, 5.0, 4.0, g) == 0,
          "empty frames");
    /* a burst repeating for ever */
    d.rate = 0.0f;
    d.burst_count = 1;
    d.bursts[0] = (gn_particle_burst){.time = 1.0f, .interval = 0.25f, .count = 4, .cycles = 0};
    CHECK(gn_particle_spawn_total(&d, 1.0) == 0 && gn_particle_spawn_total(&d, 1.0001) == 4 &&
              gn_particle_spawn_total(&d, 11.0) == 4 * 40,
          "for ever: %llu by 11 s", (unsigned long long)gn_particle_spawn_total(&d, 11.0));
}

/* The hash pinned (the GLSL must give these; values from an independent Python version), the
 * numbers' mean, variance, 64-bin histogram and lag-1 correlation over 100k samples. */
static void test_random(void)
{
    CHECK(gn_particle_pcg(0) == 0x07bb2fe2u && gn_particle_pcg(1) == 0xa8beea3cu &&
              gn_particle_pcg(0xdeadbeefu) == 0x67299972u,
          "pcg: %08x %08x %08x", gn_particle_pcg(0), gn_particle_pcg(1), gn_particle_pcg(0xdeadbeefu));
    CHECK(gn_particle_key(1234, 0, 0) == 0x64e5cfadu && gn_particle_key(1234, 3, 77) == 0xd16de432u,
          "key: %08x %08x", gn_particle_key(1234, 0, 0), gn_particle_key(1234, 3, 77));
    CHECK(gn_particle_rand(0xd16de432u, 97) == 0x3a78b185u, "rand: %08x", gn_particle_rand(0xd16de432u, 97));
    CHECK(gn_particle_unit(0xffffffffu) == 1.0f - 0x1p-24f && gn_particle_unit(0) == 0.0f, "unit's ends");

    const int n = 100000;
    double sum = 0, sum2 = 0, lag = 0;
    int bins[64] = {0};
    float prev = 0.5f;
    for (int i = 0; i < n; i++) {
        float u =
            gn_particle_unit(gn_particle_rand(gn_particle_key(7, 0, (uint32_t)i), GN_PARTICLE_STREAM_SPEED));
        sum += u, sum2 += (double)u * u, lag += (u - 0.5) * (prev - 0.5);
        bins[(int)(u * 64)]++;
        prev = u;
    }
    double mean = sum / n, var = sum2 / n - mean * mean, corr = lag / n / (1.0 / 12.0), chi2 = 0;
    for (int b = 0; b < 64; b++) chi2 += (bins[b] - n / 64.0) * (bins[b] - n / 64.0) / (n / 64.0);
    /* 5 sigma: the mean's sigma is 0.289 / sqrt(n) = 9.1e-4, the variance's 2.4e-4; chi2 with 63
     * degrees of freedom exceeds 120 with probability 1e-5; lag correlation sigma 1 / sqrt(n) */
    CHECK(fabs(mean - 0.5) < 4.6e-3, "mean %.5f", mean);
    CHECK(fabs(var - 1.0 / 12.0) < 1.2e-3, "variance %.5f", var);
    CHECK(chi2 < 120.0, "chi2 %.1f over 64 bins", chi2);
    CHECK(fabs(corr) < 0.016, "lag-1 correlation %.4f", corr);
    fprintf(stderr,
            "particles: 100k numbers: mean %.5f, variance %.5f (1/12 = 0.08333), chi2 %.1f (63 dof), "
            "lag-1 correlation %.4f\n",
            mean, var, chi2, corr);
}

/* Spawn shapes, cone, ranges; determinism byte for byte. */
static void test_spawn_values(void)
{
    const int n = 100000;
    const float origin[3] = {10.0f, 20.0f, 30.0f};
    gn_gpu_particle_group g = {{GN_PARTICLE_SOURCE_RATE, 0, (uint32_t)n, 1}, {0.0f, 0.0f, 0.0f, 0.0f}};
    for (int shape = GN_PARTICLE_POINT; shape <= GN_PARTICLE_DISC; shape++) {
        gn_particle_desc d = gn_particle_desc_default();
        d.shape = (gn_particle_shape)shape;
        if (shape == GN_PARTICLE_BOX)
            d.half_extent[0] = 1.0f, d.half_extent[1] = 2.0f, d.half_extent[2] = 0.5f;
        if (shape >= GN_PARTICLE_SPHERE) d.radius = 2.0f;
        d.lifetime[0] = 2.0f, d.lifetime[1] = 3.0f;
        d.speed[0] = 1.0f, d.speed[1] = 4.0f;
        d.direction[0] = 0.6f, d.direction[1] = 0.0f, d.direction[2] = -0.8f;
        d.cone = 0.5f;
        d.rotation[0] = -1.0f, d.rotation[1] = 1.0f;
        char why[160];
        CHECK(gn_particle_desc_check(&d, why, sizeof why), "shape %d: %s", shape, why);
        gn_gpu_particle_spawn sp;
        gn_particle_spawn_pack(&d, origin, 99, 5, &sp);
        double mean[3] = {0}, r3 = 0, r2 = 0, z = 0;
        int outside = 0, bad_dir = 0, bad_range = 0;
        double cos_cone = cos(0.5), worst_len = 0;
        for (int j = 0; j < n; j++) {
            gn_gpu_particle p;
            if (!gn_particle_spawn(&sp, &g, (uint32_t)j, &p)) {
                bad_range++;
                continue;
            }
            double q[3], v = 0, dot = 0, speed;
            for (int k = 0; k < 3; k++) q[k] = p.pos_age[k] - origin[k], mean[k] += q[k];
            speed = sqrt((double)p.vel_life[0] * p.vel_life[0] + (double)p.vel_life[1] * p.vel_life[1] +
                         (double)p.vel_life[2] * p.vel_life[2]);
            for (int k = 0; k < 3; k++) dot += p.vel_life[k] / speed * d.direction[k];
            z += dot;
            if (dot < cos_cone - 1e-6) bad_dir++;
            if (speed < 1.0 - 1e-5 || speed > 4.0 + 1e-5 || p.vel_life[3] < 2.0f || p.vel_life[3] > 3.0f ||
                rotation_of(&p) < -1.0f || rotation_of(&p) > 1.0f || p.key[0] != (uint32_t)j ||
                p.key[1] != 5u)
                bad_range++;
            if (shape == GN_PARTICLE_BOX) {
                if (fabs(q[0]) > 1.0 || fabs(q[1]) > 2.0 || fabs(q[2]) > 0.5) outside++;
            } else {
                v = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) / 4.0; /* (r / R)^2 */
                r2 += v, r3 += pow(v, 1.5);
                if (v > 1.0 + 1e-6 || (shape == GN_PARTICLE_DISC && q[1] != 0.0) || (shape == 0 && v != 0.0))
                    outside++;
            }
            (void)worst_len;
        }
        CHECK(outside == 0 && bad_range == 0 && bad_dir == 0,
              "shape %d: %d outside, %d off range, %d outside the cone", shape, outside, bad_range, bad_dir);
        for (int k = 0; k < 3; k++)
            CHECK(fabs(mean[k] / n) < 0.02, "shape %d: mean offset %.4f", shape, mean[k] / n);
        /* uniform in a ball: (r/R)^3 uniform, mean 1/2; in a disc: (r/R)^2 uniform, mean 1/2 */
        if (shape == GN_PARTICLE_SPHERE)
            CHECK(fabs(r3 / n - 0.5) < 0.005, "sphere: mean (r/R)^3 %.4f", r3 / n);
        if (shape == GN_PARTICLE_DISC) CHECK(fabs(r2 / n - 0.5) < 0.005, "disc: mean (r/R)^2 %.4f", r2 / n);
        /* uniform over the cap: cos(angle) uniform in [cos cone, 1], mean (1 + cos) / 2 */
        CHECK(fabs(z / n - (1.0 + cos_cone) / 2.0) < 0.001, "cone: mean cos %.5f, expected %.5f", z / n,
              (1.0 + cos_cone) / 2.0);
    }
    /* a whole sphere of directions (cone pi): unit length, mean direction 0 */
    gn_particle_desc d = gn_particle_desc_default();
    d.cone = 3.14159265f;
    gn_gpu_particle_spawn sp;
    gn_particle_spawn_pack(&d, origin, 3, 0, &sp);
    double m[3] = {0}, worst = 0;
    for (int j = 0; j < n; j++) {
        gn_gpu_particle p;
        gn_particle_spawn(&sp, &g, (uint32_t)j, &p);
        double len = sqrt((double)p.vel_life[0] * p.vel_life[0] + (double)p.vel_life[1] * p.vel_life[1] +
                          (double)p.vel_life[2] * p.vel_life[2]);
        worst = fmax(worst, fabs(len - 1.0));
        for (int k = 0; k < 3; k++) m[k] += p.vel_life[k];
    }
    CHECK(worst < 1e-6, "cone pi: |dir| off by %.3g", worst);
    CHECK(fabs(m[0] / n) < 0.01 && fabs(m[1] / n) < 0.01 && fabs(m[2] / n) < 0.01,
          "cone pi: mean (%.4f %.4f %.4f)", m[0] / n, m[1] / n, m[2] / n);
    /* the same inputs give the same bytes; another seed other values */
    gn_gpu_particle a, b, c;
    gn_gpu_particle_group g1 = {{2, 1000, 4, 2}, {0.125f, 0.5f, 0, 0}};
    CHECK(gn_particle_spawn(&sp, &g1, 1, &a) && gn_particle_spawn(&sp, &g1, 1, &b) &&
              memcmp(&a, &b, sizeof a) == 0,
          "deterministic");
    CHECK(a.pos_age[3] == 0.125f + 1 * 0.5f && a.key[0] == 1001 && a.key[1] == (2u << 16),
          "group age %g key %u %x", a.pos_age[3], a.key[0], a.key[1]);
    gn_particle_spawn_pack(&d, origin, 4, 0, &sp);
    gn_particle_spawn(&sp, &g1, 1, &c);
    CHECK(memcmp(&a, &c, sizeof a) != 0, "another seed, the same particle");
    /* born dead: an age past the lifetime */
    gn_gpu_particle_group late = {{0, 0, 1, 1}, {1.0f, 0, 0, 0}};
    CHECK(!gn_particle_spawn(&sp, &late, 0, &a), "an age of 1 s with a 1 s life is not spawned");
}

/* gn_particle_sqrt_round turns a square root up to 2 ulp off into the correctly rounded one:
 * arguments over 8 binades, powers of two (where the ulp below halves) and exact squares. */
static void test_sqrt_round(void)
{
    uint32_t lcg = 99, wrong = 0, tried = 0;
    for (int i = 0; i < 200000; i++) {
        float x;
        if (i < 64) {
            x = ldexpf(1.0f, i / 4 - 8) * (i % 4 == 0   ? 1.0f
                                           : i % 4 == 1 ? 1.0000001f
                                           : i % 4 == 2 ? 0.99999994f
                                                        : 2.25f);
        } else {
            lcg = lcg * 1664525u + 1013904223u;
            x = ldexpf(1.0f + (float)(lcg >> 8) * 0x1p-24f, (int)(lcg % 8) - 4);
        }
        float want = sqrtf(x);
        uint32_t b;
        memcpy(&b, &want, 4);
        for (int off = -2; off <= 2; off++) {
            uint32_t ob = b + (uint32_t)off;
            float s;
            memcpy(&s, &ob, 4);
            tried++;
            if (gn_particle_sqrt_round(x, s) != want) wrong++;
        }
    }
    CHECK(wrong == 0, "sqrt_round: %u of %u wrong", wrong, tried);
    CHECK(gn_particle_sqrt_round(0.0f, 0.0f) == 0.0f && gn_particle_sqrt_round(4.0f, 2.0f) == 2.0f, "ends");
}

/* div(curl) = 0: central differences with the step actually taken in float; a permuted field
 * (not a curl) measured the same way shows the test can fail. */
static void curl_partials(const float x[3], float h, double jac[3][3])
{
    for (int k = 0; k < 3; k++) {
        float a[3] = {x[0], x[1], x[2]}, b[3] = {x[0], x[1], x[2]}, ca[3], cb[3];
        a[k] += h, b[k] -= h;
        double step = (double)a[k] - (double)b[k];
        gn_particle_curl(a, ca);
        gn_particle_curl(b, cb);
        for (int i = 0; i < 3; i++) jac[i][k] = (ca[i] - cb[i]) / step;
    }
}

static void test_curl(void)
{
    uint32_t lcg = 777;
    double worst = 0, scale = 0, permuted = 0, mag = 0;
    const int n = 2000;
    for (int i = 0; i < n; i++) {
        float x[3];
        for (int k = 0; k < 3; k++) {
            lcg = lcg * 1664525u + 1013904223u;
            x[k] = -4.0f + 8.0f * (float)(lcg >> 8) * 0x1p-24f;
        }
        double j[3][3];
        curl_partials(x, 1.0f / 512.0f, j);
        double div = j[0][0] + j[1][1] + j[2][2];
        double size = fabs(j[0][0]) + fabs(j[1][1]) + fabs(j[2][2]);
        worst = fmax(worst, fabs(div));
        scale += size / n;
        permuted += fabs(j[1][0] + j[2][1] + j[0][2]) / n;
        float c[3];
        gn_particle_curl(x, c);
        mag += sqrt((double)c[0] * c[0] + (double)c[1] * c[1] + (double)c[2] * c[2]) / n;
    }
    /* The difference quotient's error: h^2 / 6 f''' (the quintic's derivatives reach a few
     * hundred: ~1e-3 at h = 1/512) and the float rounding of the field (~1e-7 / h = 5e-5). */
    CHECK(worst < 0.01, "curl: |div| up to %.3g (the partials' size %.3g)", worst, scale);
    CHECK(permuted > 100 * worst, "control: a permuted field's mean |div| %.3g", permuted);
    CHECK(mag > 0.2 && mag < 5.0, "curl: mean magnitude %.3g", mag);
    fprintf(stderr,
            "particles: curl noise |div| <= %.2g over %d points (mean |d c_i / d x_i| %.3g; a non-curl "
            "field %.3g), mean |curl| %.3g\n",
            worst, n, scale, permuted, mag);
    /* continuous across a cell's face, and the clamp keeps far points finite */
    float a[3] = {2.9999998f, 0.3f, -1.7f}, b[3] = {3.0f, 0.3f, -1.7f}, ca[3], cb[3];
    gn_particle_curl(a, ca);
    gn_particle_curl(b, cb);
    CHECK(fabsf(ca[0] - cb[0]) + fabsf(ca[1] - cb[1]) + fabsf(ca[2] - cb[2]) < 1e-4f,
          "a cell face: %g %g %g / %g %g %g", ca[0], ca[1], ca[2], cb[0], cb[1], cb[2]);
    float far[3] = {3e20f, -1e30f, 5e9f}, cf[3];
    gn_particle_curl(far, cf);
    CHECK(isfinite(cf[0]) && isfinite(cf[1]) && isfinite(cf[2]), "far: %g %g %g", cf[0], cf[1], cf[2]);
    /* stepping with curl moves a particle sideways where gravity alone would not */
    gn_particle_desc d = gn_particle_desc_default();
    d.gravity[1] = 0.0f;
    d.curl_strength = 5.0f, d.curl_scale = 0.5f;
    gn_gpu_particle p = particle((float[3]){0.3f, 0.7f, 1.1f}, (float[3]){0, 0, 0}, 100.0f);
    gn_particle_step(&d, &p, 0.1f, NULL);
    float c[3], x[3] = {0.15f, 0.35f, 0.55f};
    gn_particle_curl(x, c);
    CHECK(fabsf(p.vel_life[0] - 5.0f * c[0] * 0.1f) < 1e-6f &&
              fabsf(p.vel_life[2] - 5.0f * c[2] * 0.1f) < 1e-6f,
          "curl step: v (%g %g %g), curl (%g %g %g)", p.vel_life[0], p.vel_life[1], p.vel_life[2], c[0], c[1],
          c[2]);
}

/* The camera at the origin looking down -Z (near 0.1 m); a wall 9.5 m ahead facing it. */
static void test_collision(void)
{
    gn_particle_view v = {.near_plane = 0.1f};
    float proj[16], view[16];
    gn_camera_projection(1.0f, 16.0f / 9.0f, 0.1f, proj);
    gn_camera_view((float[3]){0, 0, 0}, 0.0f, 0.0f, view);
    gn_mat4_mul(proj, view, v.view_proj);
    const float n[3] = {0, 0, 1}, wall = 0.1f / 9.5f;
    gn_particle_desc d = gn_particle_desc_default();
    d.collision = GN_PARTICLE_COLLIDE_BOUNCE;
    d.restitution = 0.5f;
    d.collision_thickness = 0.6f;

    float uv[2], w;
    CHECK(gn_particle_project(&v, (float[3]){0, 0, -10}, uv, &w) && fabsf(uv[0] - 0.5f) < 1e-6f &&
              fabsf(uv[1] - 0.5f) < 1e-6f && fabsf(w - 10.0f) < 1e-5f,
          "project: uv (%g %g) w %g", uv[0], uv[1], w);
    CHECK(gn_particle_project(&v, (float[3]){0, 1, -10}, uv, &w) && uv[1] < 0.5f, "+Y is up the screen: v %g",
          uv[1]);
    CHECK(!gn_particle_project(&v, (float[3]){0, 0, 5}, uv, &w), "behind the camera");
    CHECK(!gn_particle_project(&v, (float[3]){100, 0, -10}, uv, &w), "off the screen");

    /* 0.5 m behind the wall, flying into it: set on the wall, bounced at half speed */
    gn_gpu_particle p = particle((float[3]){0, 0, -10}, (float[3]){1, 0, -4}, 5);
    CHECK(gn_particle_collide(&d, &v, wall, n, &p) == GN_PARTICLE_HIT_BOUNCE, "bounce");
    CHECK(fabsf(p.pos_age[2] - (-9.5f + GN_PARTICLE_COLLIDE_LIFT)) < 1e-5f && fabsf(p.pos_age[0]) < 1e-6f,
          "on the wall: (%g %g %g)", p.pos_age[0], p.pos_age[1], p.pos_age[2]);
    CHECK(p.vel_life[0] == 1.0f && p.vel_life[2] == 2.0f, "reflected: (%g %g %g)", p.vel_life[0],
          p.vel_life[1], p.vel_life[2]);
    /* friction takes the tangential part */
    d.friction = 0.25f;
    p = particle((float[3]){0, 0, -10}, (float[3]){1, 0, -4}, 5);
    gn_particle_collide(&d, &v, wall, n, &p);
    CHECK(p.vel_life[0] == 0.75f && p.vel_life[2] == 2.0f, "friction: (%g %g %g)", p.vel_life[0],
          p.vel_life[1], p.vel_life[2]);
    /* already leaving the surface: put back, velocity kept */
    p = particle((float[3]){0, 0, -10}, (float[3]){0, 0, 3}, 5);
    CHECK(gn_particle_collide(&d, &v, wall, n, &p) == GN_PARTICLE_HIT_BOUNCE && p.vel_life[2] == 3.0f,
          "leaving");
    /* off-axis: moved back along its view ray */
    p = particle((float[3]){1, 0.5f, -10}, (float[3]){0, 0, -1}, 5);
    CHECK(gn_particle_collide(&d, &v, wall, n, &p) == GN_PARTICLE_HIT_BOUNCE &&
              fabsf(p.pos_age[0] - 0.95f) < 1e-5f && fabsf(p.pos_age[1] - 0.475f) < 1e-5f,
          "along the ray: (%g %g %g)", p.pos_age[0], p.pos_age[1], p.pos_age[2]);
    /* in front of the wall; far behind it (hidden, not hit); the sky; off screen */
    p = particle((float[3]){0, 0, -9}, (float[3]){0, 0, -1}, 5);
    CHECK(gn_particle_collide(&d, &v, wall, n, &p) == GN_PARTICLE_HIT_NONE, "in front");
    p = particle((float[3]){0, 0, -10.2f}, (float[3]){0, 0, -1}, 5);
    CHECK(gn_particle_collide(&d, &v, wall, n, &p) == GN_PARTICLE_HIT_NONE, "0.7 m behind, thickness 0.6");
    p = particle((float[3]){0, 0, -10}, (float[3]){0, 0, -1}, 5);
    CHECK(gn_particle_collide(&d, &v, 0.0f, n, &p) == GN_PARTICLE_HIT_NONE, "the sky");
    p = particle((float[3]){100, 0, -10}, (float[3]){0, 0, -1}, 5);
    CHECK(gn_particle_collide(&d, &v, wall, n, &p) == GN_PARTICLE_HIT_NONE, "off screen");
    /* die; none */
    d.collision = GN_PARTICLE_COLLIDE_DIE;
    p = particle((float[3]){0, 0, -10}, (float[3]){0, 0, -1}, 5);
    CHECK(gn_particle_collide(&d, &v, wall, n, &p) == GN_PARTICLE_HIT_DIE && !gn_particle_alive(&p), "die");
    d.collision = GN_PARTICLE_COLLIDE_NONE;
    p = particle((float[3]){0, 0, -10}, (float[3]){0, 0, -1}, 5);
    CHECK(gn_particle_collide(&d, &v, wall, n, &p) == GN_PARTICLE_HIT_NONE, "no collision");
    /* a floor seen from above, the particle fallen 0.2 m into it */
    gn_camera_view((float[3]){0, 10, 0}, 0.0f, -90.0f, view);
    gn_mat4_mul(proj, view, v.view_proj);
    v.eye[1] = 10.0f;
    d.collision = GN_PARTICLE_COLLIDE_BOUNCE;
    d.friction = 0.0f;
    p = particle((float[3]){0, -0.2f, 0}, (float[3]){0, -6, 0}, 5);
    CHECK(gn_particle_collide(&d, &v, 0.1f / 10.0f, (float[3]){0, 1, 0}, &p) == GN_PARTICLE_HIT_BOUNCE &&
              fabsf(p.pos_age[1] - GN_PARTICLE_COLLIDE_LIFT) < 1e-4f && p.vel_life[1] == 3.0f,
          "floor: y %g vy %g", p.pos_age[1], p.vel_life[1]);

    /* soft particles */
    CHECK(gn_particle_soft_fade(0.1f, wall, 9.0f, 1.0f) == 0.5f, "soft: half way %g",
          gn_particle_soft_fade(0.1f, wall, 9.0f, 1.0f));
    CHECK(gn_particle_soft_fade(0.1f, wall, 5.0f, 1.0f) == 1.0f &&
              gn_particle_soft_fade(0.1f, wall, 9.6f, 1.0f) == 0.0f,
          "soft: clamped");
    CHECK(gn_particle_soft_fade(0.1f, 0.0f, 1e6f, 1.0f) == 1.0f, "soft: the sky");
    CHECK(gn_particle_soft_fade(0.1f, wall, 9.0f, 0.0f) == 1.0f &&
              gn_particle_soft_fade(0.1f, wall, 9.6f, 0.0f) == 0.0f,
          "soft: none");
}

static void test_instance(void)
{
    gn_particle_desc d = gn_particle_desc_default();
    d.size[0] = 1.0f, d.size[1] = 3.0f;
    memcpy(d.color, (float[2][4]){{1, 0.5f, 0, 1}, {0, 0.5f, 1, 0}}, sizeof d.color);
    memcpy(d.emission, (float[2][3]){{100, 0, 0}, {0, 0, 300}}, sizeof d.emission);
    d.fade_in = 0.5f;
    d.atlas_columns = 4, d.atlas_rows = 2, d.atlas_frames = 8, d.atlas_over_life = true;
    gn_gpu_particle p = particle((float[3]){1, 2, 3}, (float[3]){4, 5, 6}, 2.0f);
    p.pos_age[3] = 0.5f; /* t = 1/4 */
    float rot = 0.75f;
    memcpy(&p.key[2], &rot, 4);
    gn_gpu_particle_instance in;
    gn_particle_instance(&d, 1, &p, NULL, &in);
    CHECK(in.pos_half[0] == 1 && in.pos_half[3] == 0.75f, "half size %g", in.pos_half[3]);
    CHECK(in.color[0] == 0.75f && in.color[2] == 0.25f && in.color[3] == 0.75f * 0.5f, "colour %g %g %g %g",
          in.color[0], in.color[1], in.color[2], in.color[3]);
    CHECK(in.rot_emit[0] == 0.75f && in.rot_emit[1] == 75.0f && in.rot_emit[3] == 75.0f, "emission %g %g",
          in.rot_emit[1], in.rot_emit[3]);
    CHECK(in.dir_frame[3] == 2.0f && in.dir_frame[0] == 4.0f, "frame %g (t 1/4 of 8)", in.dir_frame[3]);
    p.pos_age[3] = 2.0f; /* t = 1: the last frame, not one past */
    gn_particle_instance(&d, 1, &p, NULL, &in);
    CHECK(in.dir_frame[3] == 7.0f, "last frame %g", in.dir_frame[3]);
    d.atlas_over_life = false, d.atlas_fps = 10.0f;
    p.pos_age[3] = 1.25f; /* frame 12, modulo 8 */
    gn_particle_instance(&d, 1, &p, NULL, &in);
    CHECK(in.dir_frame[3] == 4.0f, "fps frame %g", in.dir_frame[3]);
    d.render = GN_PARTICLE_RIBBON;
    gn_particle_instance(&d, 1, &p, (float[3]){7, 8, 9}, &in);
    CHECK(in.dir_frame[0] == 7.0f && in.dir_frame[2] == 9.0f, "ribbon: the strip's next point");
    d.size_jitter = 0.5f;
    float lo = 1e9f, hi = 0;
    for (uint32_t i = 0; i < 1000; i++) {
        p.key[0] = i;
        gn_particle_instance(&d, 1, &p, NULL, &in);
        lo = fminf(lo, in.pos_half[3]), hi = fmaxf(hi, in.pos_half[3]);
    }
    /* t = 0.625: size 2.25, half 1.125, times 1 +- 0.5 */
    CHECK(lo >= 0.5625f && hi < 1.6875f && hi - lo > 1.0f, "jitter: half sizes %g..%g around 1.125", lo, hi);
}

/* Each built-in is valid, holds its rate's live particles, and behaves over 20 s at 60 Hz. */
static void test_builtins(void)
{
    const float origin[3] = {0, 10, 0};
    gn_particle_env env = {{2.0f, 0.0f, 0.0f}};
    for (int b = 0; b < GN_PARTICLE_BUILTIN_COUNT; b++) {
        gn_particle_desc d = gn_particle_builtin_desc((gn_particle_builtin)b);
        const char *name = gn_particle_builtin_name((gn_particle_builtin)b);
        char why[160];
        CHECK(gn_particle_desc_check(&d, why, sizeof why), "%s: %s", name, why);
        double need = d.rate * d.lifetime[1];
        for (uint32_t k = 0; k < d.burst_count; k++) need += d.bursts[k].count;
        CHECK(d.max_particles >= need, "%s: cap %u under %.0f live", name, d.max_particles, need);
        gn_gpu_particle_spawn sp;
        gn_particle_spawn_pack(&d, origin, 42, (uint32_t)b, &sp);
        gn_gpu_particle *live = calloc(d.max_particles, sizeof *live);
        uint32_t count = 0, most = 0;
        double top = -1e9, t = 0;
        bool finite = true;
        for (int f = 0; f < 1200; f++) {
            count = gn_particle_update(&d, &sp, &env, t, t + 1.0 / 60.0, live, count, d.max_particles);
            t += 1.0 / 60.0;
            most = count > most ? count : most;
            for (uint32_t i = 0; i < count; i++) {
                for (int k = 0; k < 4; k++)
                    finite = finite && isfinite(live[i].pos_age[k]) && isfinite(live[i].vel_life[k]);
                top = fmax(top, live[i].pos_age[1] - origin[1]);
            }
        }
        CHECK(finite, "%s: a value not finite", name);
        CHECK(most >= 0.8 * d.rate * d.lifetime[0] && most <= d.max_particles, "%s: %u live at most", name,
              most);
        /* the fountain's jet reaches v^2 / 2g (1.8-2.2 m; drag takes a little); smoke rises metres;
         * a flame stays within half a metre; sparks fly a metre or two */
        double lo = b == GN_PARTICLE_FOUNTAIN ? 1.5 : b == GN_PARTICLE_CHIMNEY_SMOKE ? 5.0 : 0.1;
        double hi = b == GN_PARTICLE_FOUNTAIN ? 2.3 : b == GN_PARTICLE_TORCH_FLAME ? 0.6 : 60.0;
        CHECK(top >= lo && top <= hi, "%s: highest %.2f m, expected %.1f..%.1f", name, top, lo, hi);
        fprintf(stderr, "particles: %s: %u live at most (cap %u), highest %.2f m\n", name, most,
                d.max_particles, top);
        free(live);
    }
}

static void test_check(void)
{
    gn_particle_desc d = gn_particle_desc_default();
    char why[160];
    CHECK(gn_particle_desc_check(&d, why, sizeof why), "the default: %s", why);
    d.lifetime[0] = 5, d.lifetime[1] = 2;
    CHECK(!gn_particle_desc_check(&d, why, sizeof why) &&
              strcmp(why, "lifetime: min 5 is greater than max 2") == 0,
          "%s", why);
    d = gn_particle_desc_default();
    d.drag = NAN;
    CHECK(!gn_particle_desc_check(&d, why, sizeof why) && strncmp(why, "drag:", 5) == 0, "%s", why);
    d = gn_particle_desc_default();
    d.atlas_columns = 2, d.atlas_rows = 2, d.atlas_frames = 5;
    CHECK(!gn_particle_desc_check(&d, why, sizeof why) && strncmp(why, "atlas.frames:", 13) == 0, "%s", why);
}

int main(void)
{
    test_gravity();
    test_drag();
    test_life_and_spin();
    test_spawn_counts();
    test_random();
    test_spawn_values();
    test_sqrt_round();
    test_curl();
    test_collision();
    test_instance();
    test_builtins();
    test_check();
    return gn_check_exit();
}

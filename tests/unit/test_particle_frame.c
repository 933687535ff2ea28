/* GPU particles' per-frame decisions (src/decide/particle_frame.h): the spawn jobs, the thread's
 * job, the sort key. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "decide/particle_frame.h"

/* Ascending keys run back to front: farther is smaller; no distance reaches the padding. */
static void sort_key(void)
{
    uint32_t state = 12345u, checked = 0;
    for (int i = 0; i < 100000; i++) {
        state = gn_particle_pcg(state);
        float a = gn_particle_unit(state) * 1000.0f;
        state = gn_particle_pcg(state);
        float b = gn_particle_unit(state) * 1000.0f;
        uint32_t ka = gn_particle_sort_key(a), kb = gn_particle_sort_key(b);
        CHECK((a > b) == (ka < kb) && (a == b) == (ka == kb), "keys %08x %08x of %g m and %g m out of order",
              ka, kb, (double)a, (double)b);
        checked++;
    }
    CHECK(gn_particle_sort_key(0.0f) != 0xffffffffu &&
              gn_particle_sort_key(-5.0f) == gn_particle_sort_key(0.0f),
          "the eye itself (and behind it) must not reach the padding key");
    CHECK(gn_particle_sort_key(1e30f) < gn_particle_sort_key(1.0f), "1e30 m sorts before 1 m");
    CHECK(gn_particle_sort_key(0.0f) < 0xffffffffu, "padding sorts last");
    printf("sort key: %u pairs ordered\n", checked);
}

/* Frames of random lengths: each frame's jobs tile its threads with no gap, ranks count the
 * emitter's spawns from 0, every thread finds its own job, and the spawns add up to
 * gn_particle_spawn_total over the whole time. */
static void jobs(void)
{
    gn_particle_desc d[2] = {gn_particle_builtin_desc(GN_PARTICLE_FOUNTAIN), gn_particle_desc_default()};
    d[1].rate = 37.5f, d[1].max_particles = 100000;
    d[1].burst_count = 2;
    d[1].bursts[0] = (gn_particle_burst){.time = 0.3f, .interval = 0.7f, .count = 50, .cycles = 0};
    d[1].bursts[1] = (gn_particle_burst){.time = 1.0f, .interval = 0.0f, .count = 300, .cycles = 1};
    uint32_t state = 99u, frames = 0, thread_checks = 0;
    uint64_t spawned[2] = {0, 0};
    double t0 = 0.0;
    gn_gpu_particle_job out[2 * GN_PARTICLE_MAX_GROUPS];
    while (t0 < 10.0) {
        state = gn_particle_pcg(state);
        double t1 = t0 + 0.001 + 0.1 * gn_particle_unit(state);
        uint32_t threads = 0, n = 0, ranks[2];
        for (uint32_t e = 0; e < 2; e++) {
            uint32_t first = n, before = threads;
            n += gn_particle_frame_jobs(&d[e], e, t0, t1, &threads, out + n, &ranks[e]);
            CHECK(threads - before == ranks[e], "emitter %u: %u threads for %u ranks", e, threads - before,
                  ranks[e]);
            uint32_t rank = 0;
            for (uint32_t k = first; k < n; k++) {
                CHECK(out[k].where[0] == e && out[k].where[2] == rank && out[k].group.index[2] > 0,
                      "frame %u job %u: emitter %u rank %u, want %u %u", frames, k, out[k].where[0],
                      out[k].where[2], e, rank);
                rank += out[k].group.index[2];
            }
            spawned[e] += ranks[e];
        }
        for (uint32_t i = 0; i < threads; i++) {
            uint32_t k = gn_particle_job_of(out, n, i);
            CHECK(out[k].where[1] <= i && i < out[k].where[1] + out[k].group.index[2],
                  "frame %u: thread %u found job %u (%u..)", frames, i, k, out[k].where[1]);
            thread_checks++;
        }
        t0 = t1;
        frames++;
    }
    for (int e = 0; e < 2; e++)
        CHECK(spawned[e] == gn_particle_spawn_total(&d[e], t0), "emitter %d: %llu spawned, want %llu", e,
              (unsigned long long)spawned[e], (unsigned long long)gn_particle_spawn_total(&d[e], t0));
    uint32_t threads = 0, ranks = 7;
    CHECK(gn_particle_frame_jobs(&d[0], 0, 1.0, 1.0, &threads, out, &ranks) == 0 && ranks == 0 &&
              threads == 0,
          "a frame of no time spawns nothing");
    printf("jobs: %u frames over %.2f s, %llu + %llu spawns, %u threads found their job\n", frames, t0,
           (unsigned long long)spawned[0], (unsigned long long)spawned[1], thread_checks);
}

int main(void)
{
    sort_key();
    jobs();
    return gn_check_exit();
}

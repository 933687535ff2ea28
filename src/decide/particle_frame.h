/* GPU particles: what the CPU decides each frame for the compute pass (src/passes/particles.c;
 * docs/EFFECTS.md, "GPU particles"), mirrored where the GPU decides the same (particles_sim.comp):
 * the spawn jobs (each emitter's spawn groups as ranges of one dispatch's threads), the thread's
 * job, and the blended particles' sort key. */
#ifndef GN_DECIDE_PARTICLE_FRAME_H
#define GN_DECIDE_PARTICLE_FRAME_H

#include "decide/particles.h"
#include "shared/particle_pass.h"

/* Appends emitter `emitter`'s spawn jobs for the frame [t0, t1) to out (room for
 * GN_PARTICLE_MAX_GROUPS more; groups of no particles are left out): job k covers threads
 * [*threads, *threads + count) and its first spawn's rank in the emitter's frame is the counts of
 * the emitter's jobs before it. *threads grows by the frame's spawns. Returns the jobs appended;
 * *ranks the emitter's spawns this frame (what its free stack gives up: FINISH). No time (t1 <=
 * t0): none. */
uint32_t gn_particle_frame_jobs(const gn_particle_desc *d, uint32_t emitter, double t0, double t1,
                                uint32_t *threads, gn_gpu_particle_job *out, uint32_t *ranks);
/* The job holding thread i of the SPAWN dispatch: the last of jobs[0..count) whose first thread
 * is at most i (a binary search: count >= 1, firsts non-decreasing, jobs[0] first at 0). */
uint32_t gn_particle_job_of(const gn_gpu_particle_job *jobs, uint32_t count, uint32_t i);
/* A blended particle's sort key at eye distance d (m): ascending keys run back to front. The
 * bits of max(d, 1e-30) inverted (a positive float's bits order as its value), so no distance
 * reaches 0xffffffff, the padding key, which sorts last. */
uint32_t gn_particle_sort_key(float distance);

#endif

/* GPU particles' per-frame decisions (decide/particle_frame.h). */
#include "decide/particle_frame.h"

#include <string.h>

uint32_t gn_particle_frame_jobs(const gn_particle_desc *d, uint32_t emitter, double t0, double t1,
                                uint32_t *threads, gn_gpu_particle_job *out, uint32_t *ranks)
{
    *ranks = 0;
    if (!(t1 > t0)) return 0;
    gn_gpu_particle_group groups[GN_PARTICLE_MAX_GROUPS];
    uint32_t ng = gn_particle_spawn_groups(d, t0, t1, groups), n = 0;
    for (uint32_t k = 0; k < ng; k++) {
        if (!groups[k].index[2]) continue;
        gn_gpu_particle_job *j = &out[n++];
        memset(j, 0, sizeof *j);
        j->where[0] = emitter, j->where[1] = *threads, j->where[2] = *ranks;
        j->group = groups[k];
        *threads += groups[k].index[2];
        *ranks += groups[k].index[2];
    }
    return n;
}

uint32_t gn_particle_job_of(const gn_gpu_particle_job *jobs, uint32_t count, uint32_t i)
{
    uint32_t lo = 0, hi = count - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) >> 1;
        if (jobs[mid].where[1] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

uint32_t gn_particle_sort_key(float distance)
{
    float d = distance > 1e-30f ? distance : 1e-30f;
    uint32_t bits;
    memcpy(&bits, &d, sizeof bits);
    return ~bits;
}

/* The GPU particle pass (src/passes/particles.c, docs/EFFECTS.md "GPU particles"): its per-emitter
 * constants, the frame's spawn jobs, the counters and the phases of particles_sim.comp. Shared by C
 * and GLSL like shared/particles.h (vec4/uvec4 members only). */
#ifndef GN_SHARED_PARTICLE_PASS_H
#define GN_SHARED_PARTICLE_PASS_H

#include "shared/particles.h"

/* Limits, each with its reason. */
#define GN_PARTICLE_GROUP 256u               /* threads a workgroup, every phase */
#define GN_PARTICLE_SCENE_MAX_LIVE (1u << 22) /* per scene: 4M slots (192 MiB of state, 16 MiB of sort keys) */

/* The phases of particles_sim.comp (push constant `phase`), in the order they run. */
#define GN_PARTICLE_PHASE_STEP 0u   /* the last frame's alive list: step, collide, keep or free */
#define GN_PARTICLE_PHASE_SPAWN 1u  /* the frame's spawn jobs into free slots */
#define GN_PARTICLE_PHASE_FINISH 2u /* one workgroup: free counts, next frame's counters */
#define GN_PARTICLE_PHASE_KEYS 3u   /* alive particles: sort keys (blended) or instances (additive) */
#define GN_PARTICLE_PHASE_SORT 4u   /* one bitonic merge step (k, j) over the keys */
#define GN_PARTICLE_PHASE_WRITE 5u  /* sorted keys into instances; the draw commands */

/* Blend modes (gn_particle_blend's values). */
#define GN_PARTICLE_BLEND_ALPHA 0u
#define GN_PARTICLE_BLEND_ADDITIVE 1u

/* One placed emitter's constants for this frame: 320 bytes. */
GN_STRUCT(gn_gpu_particle_emitter)
{
    gn_gpu_particle_spawn spawn; /* gn_particle_spawn_pack */
    gn_gpu_particle_step step;   /* gn_particle_step_pack for this frame's dt */
    gn_uvec4 slots;              /* x first slot, y slots (max_particles), z blend, w render */
    gn_uvec4 atlas;              /* x columns, y rows, z frames, w flags: 1 over life, 2 random start */
    gn_vec4 size_fade;           /* x size start, y size end, z size jitter, w fade_in */
    gn_vec4 color0;              /* rgba at birth */
    gn_vec4 color1;              /* rgba at death */
    gn_vec4 emit0;               /* rgb emission at birth (cd/m^2), w atlas fps */
    gn_vec4 emit1;               /* rgb emission at death, w stretch (s) */
    gn_vec4 collide;             /* x mode (GN_PARTICLE_COLLIDE_*), y restitution, z friction, w thickness */
    gn_vec4 draw;                /* x soft depth (m), y the frame's spawns (ranks), zw 0 */
};

/* A frame's spawns from one group of one emitter: threads [first, first + group.index.z). */
GN_STRUCT(gn_gpu_particle_job)
{
    gn_uvec4 where;              /* x emitter, y first thread, z rank of its first spawn in the
                                    emitter's frame, w 0 */
    gn_gpu_particle_group group; /* gn_particle_spawn_groups */
};

/* The frame's constants (push constants): 96 bytes. */
GN_STRUCT(gn_gpu_particle_push)
{
    gn_uvec4 phase;  /* x phase, y k, z j (sort), w the alive list read (0, 1) */
    gn_uvec4 counts; /* x slots in all, y spawn threads, z jobs, w emitters */
    gn_uvec4 sort;   /* x keys (a power of two), y sample0 x, z sample0 y, w 0 */
};

/* The counters buffer: uints. */
#define GN_PARTICLE_COUNT_ALIVE0 0u   /* the alive list 0's length */
#define GN_PARTICLE_COUNT_ALIVE1 1u   /* list 1's */
#define GN_PARTICLE_COUNT_SORTED 2u   /* blended particles this frame (keys) */
#define GN_PARTICLE_COUNT_ADDED 3u    /* additive instances this frame */
#define GN_PARTICLE_COUNT_LIVE 4u     /* statistics: alive after this frame */
#define GN_PARTICLE_COUNT_SPAWNED 5u  /* statistics: spawned this frame */
#define GN_PARTICLE_COUNT_DRAW 8u     /* two VkDrawIndirectCommand: blended, additive (8 uints) */
#define GN_PARTICLE_COUNT_EMITTERS 16u /* then per emitter: uvec4 (free count, 0, 0, 0) */

#endif

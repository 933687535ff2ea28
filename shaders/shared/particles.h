/* GPU particles (docs/EFFECTS.md, "GPU particles"): the particle state, the draw instance and
 * the constants of emission and integration, shared by C and GLSL like gpu_types.h (valid C11
 * and GLSL 4.50; only vec4 and uvec4 members, so std140, std430 and C agree without padding).
 * src/decide/particles.c is the CPU reference that fills and steps them and _Static_asserts
 * the sizes; shaders/particles.glsl is its GLSL mirror. */
#ifndef GN_SHARED_PARTICLES_H
#define GN_SHARED_PARTICLES_H

#include "shared/gpu_types.h"

/* Limits, each with its reason. */
#define GN_PARTICLE_MAX_BURSTS 8u           /* per emitter: a fire's pops, a fountain's pulses */
#define GN_PARTICLE_MAX_GROUPS 9u           /* spawn groups a frame: the rate's and one a burst */
#define GN_PARTICLE_MAX_LIVE (1u << 20)     /* per emitter: the million in one system */
#define GN_PARTICLE_MAX_EMITTERS (1u << 16) /* the emitter id's 16 bits in key.y */
#define GN_PARTICLE_SPHERE_TRIES 16u        /* rejection tries in the cube: (1 - pi/6)^16 = 7e-6 fail */
#define GN_PARTICLE_DISC_TRIES 16u          /* ... in the square: (1 - pi/4)^16 = 2e-11 fail */

/* key.y: the emitter's id in its low 16 bits, the source (0: the rate, 1 + b: burst b) above. */
#define GN_PARTICLE_EMITTER_MASK 0xffffu
#define GN_PARTICLE_SOURCE_SHIFT 16u
#define GN_PARTICLE_SOURCE_RATE 0u

/* Spawn shapes (gn_particle_shape; same values). */
#define GN_PARTICLE_SHAPE_POINT 0u
#define GN_PARTICLE_SHAPE_BOX 1u
#define GN_PARTICLE_SHAPE_SPHERE 2u
#define GN_PARTICLE_SHAPE_DISC 3u

/* The random streams a particle's key feeds (gn_particle_rand(key, stream)): each spawn value
 * has its own, so adding one never shifts another. Rejection sampling takes 3 (2 for the disc
 * and the cone) a try. */
#define GN_PARTICLE_STREAM_POS 0u  /* .. 47: GN_PARTICLE_SPHERE_TRIES x 3 */
#define GN_PARTICLE_STREAM_DIR 64u /* .. 95: GN_PARTICLE_DISC_TRIES x 2 */
#define GN_PARTICLE_STREAM_SPEED 96u
#define GN_PARTICLE_STREAM_LIFE 97u
#define GN_PARTICLE_STREAM_ROT 98u
#define GN_PARTICLE_STREAM_SPIN 99u
#define GN_PARTICLE_STREAM_SIZE 100u  /* drawn: the size jitter */
#define GN_PARTICLE_STREAM_FRAME 101u /* drawn: the random first atlas frame */

/* One particle: 48 bytes, std430 array stride 48 (every member 16-byte aligned).
 *   bytes  0..11 pos_age.xyz   world position (m)
 *   bytes 12..15 pos_age.w     age (s); dead once age >= lifetime
 *   bytes 16..27 vel_life.xyz  velocity (m/s)
 *   bytes 28..31 vel_life.w    lifetime (s)
 *   bytes 32..35 key.x         spawn index within its source (the RNG key's counter)
 *   bytes 36..39 key.y         emitter id (bits 0..15) | source << 16 (bits 16..19)
 *   bytes 40..43 key.z         rotation (rad), a float's bits
 *   bytes 44..47 key.w         spin (rad/s), a float's bits
 * What is drawn but never changes (size jitter, first atlas frame) is not stored: it comes
 * again from the key (gn_particle_key(seed, source, index)). */
GN_STRUCT(gn_gpu_particle)
{
    gn_vec4 pos_age;
    gn_vec4 vel_life;
    gn_uvec4 key;
};

/* One drawn particle (seed 000's 16 floats, "Effects and particles"): 64 bytes.
 *   pos_half    xyz world position (m), w half size (m)
 *   color       rgb reflectance lit by the scene (0..1), a opacity (0..1; soft fade not applied)
 *   dir_frame   xyz velocity (m/s) for velocity-aligned quads, or for ribbons the strip's next
 *               point (the particle spawned before it); w atlas frame (an integer, as a float)
 *   rot_emit    x rotation (rad), yzw emission (cd/m^2, added after lighting) */
GN_STRUCT(gn_gpu_particle_instance)
{
    gn_vec4 pos_half;
    gn_vec4 color;
    gn_vec4 dir_frame;
    gn_vec4 rot_emit;
};

/* An emitter's spawn constants (gn_particle_spawn_pack): 128 bytes. */
GN_STRUCT(gn_gpu_particle_spawn)
{
    gn_vec4 origin_radius; /* xyz world origin (m), w radius (sphere, disc; m) */
    gn_vec4 extent_omc;    /* xyz box half extents (m), w 1 - cos(cone half angle) */
    gn_vec4 axis_x;        /* xyz first tangent of the direction's frame, w speed min (m/s) */
    gn_vec4 axis_y;        /* xyz second tangent, w speed max - min */
    gn_vec4 axis_z;        /* xyz direction (unit), w lifetime min (s) */
    gn_vec4 ranges;        /* x lifetime max - min, y rotation min (rad), z rotation max - min, w spin min */
    gn_vec4 ranges2;       /* x spin max - min (rad/s), yzw 0 */
    gn_uvec4 ids;          /* x seed, y shape (GN_PARTICLE_SHAPE_*), z emitter id, w 0 */
};

/* A frame's spawns from one source (gn_particle_spawn_groups): particle j (0..count-1) has
 * index first + j and, at the frame's end, the age
 *     newest_age + float((count - 1 - j) / per_step) * interval
 * (per_step particles share one birth time: 1 for the rate, a burst's count for a burst). */
GN_STRUCT(gn_gpu_particle_group)
{
    gn_uvec4 index; /* x source, y first index, z count, w per_step */
    gn_vec4 age;    /* x newest age (s), y interval (s), zw 0 */
};

/* An emitter's integration constants for one frame (gn_particle_step_pack): 48 bytes. */
GN_STRUCT(gn_gpu_particle_step)
{
    gn_vec4 gravity_dt; /* xyz gravity (m/s^2), w dt (s) */
    gn_vec4 air_drag;   /* xyz the air's velocity the drag pulls towards (wind x response, m/s),
                           w drag (1/s) */
    gn_vec4 curl;       /* x curl strength (m/s^2), y curl scale (lattice cells per metre),
                           z 1 / (1 + drag dt) (the implicit drag), w 0 */
};

#endif

/* GPU particles, decided on the CPU (docs/EFFECTS.md, "GPU particles"; issue 20): what an
 * emitter is (gn_particle_desc), how many particles it spawns a frame and with what values, how
 * a particle moves (gn_particle_step), when it meets the depth buffer, and what is drawn for it.
 * These are the CPU references of the compute pass: shaders/particles.glsl mirrors every
 * function named gn_particle_* here with the same operations in the same order, on the state
 * and constants of shaders/shared/particles.h.
 *
 * Bit for bit: the random numbers are integers (a PCG hash of seed, source and index, then of a
 * stream number), and the spawn values and the integration step use only float +, -, *, floor,
 * integer-to-float conversions and one square root (the cone's direction), never a fused
 * multiply-add (the GLSL marks its results `precise`; gcc in ISO C mode does not contract).
 * Vulkan lets sqrt err (NVIDIA's is an ulp off for some arguments), so that one is rounded
 * correctly in integers afterwards (gn_particle_sqrt_round) on both sides. Divisions (1 / rate,
 * 1 / (1 + drag dt), the basis of the cone) are done here once and handed over as constants.
 * So wherever + - * round as IEEE 754 (every Vulkan device), the GPU's particles equal these bit
 * for bit (measured: lavapipe and an H100, docs/EFFECTS.md); a device that flushes denormals
 * differs where a value falls below 1.2e-38.
 * Drawn values (size, colour, atlas frame: gn_particle_instance) divide age by lifetime: within
 * 1e-6 relative, not bit for bit.
 *
 * Units: metres, seconds, radians; world +Y up. Colours: a reflectance (0..1) lit by the
 * scene's light plus an emission in cd/m² (nits), the renderer's units (docs/POST.md). */
#ifndef GN_DECIDE_PARTICLES_H
#define GN_DECIDE_PARTICLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shared/particles.h"

/* Each enum's 0 is its default. */
typedef enum gn_particle_shape {
    GN_PARTICLE_POINT = GN_PARTICLE_SHAPE_POINT,   /* at the origin */
    GN_PARTICLE_BOX = GN_PARTICLE_SHAPE_BOX,       /* inside half_extent around it */
    GN_PARTICLE_SPHERE = GN_PARTICLE_SHAPE_SPHERE, /* inside a ball of radius */
    GN_PARTICLE_DISC = GN_PARTICLE_SHAPE_DISC,     /* inside a horizontal (XZ) disc of radius */
} gn_particle_shape;
typedef enum gn_particle_render {
    GN_PARTICLE_BILLBOARD, /* a quad facing the camera, turned by the rotation */
    GN_PARTICLE_VELOCITY,  /* a quad along the velocity, stretched by speed x stretch */
    GN_PARTICLE_RIBBON,    /* a strip through the particles of one source in spawn order */
} gn_particle_render;
typedef enum gn_particle_blend {
    GN_PARTICLE_ALPHA,    /* over: src alpha, one minus src alpha */
    GN_PARTICLE_ADDITIVE, /* light added: src alpha, one (fades out in fog) */
} gn_particle_blend;
typedef enum gn_particle_collision {
    GN_PARTICLE_COLLIDE_NONE,
    GN_PARTICLE_COLLIDE_BOUNCE, /* reflected off the depth buffer's surface (restitution, friction) */
    GN_PARTICLE_COLLIDE_DIE,    /* dies where it meets the surface */
} gn_particle_collision;

/* A burst: count particles at time, again every interval for cycles times (0: for ever). */
typedef struct gn_particle_burst {
    float time;      /* s on the emitter's clock, >= 0 */
    float interval;  /* s between repeats; 0: once */
    uint32_t count;  /* 1..GN_PARTICLE_MAX_BURST_COUNT */
    uint32_t cycles; /* occurrences; 0: for ever (needs an interval) */
} gn_particle_burst;

/* Ranges every description must keep (gn_particle_desc_check; the JSON format's limits). */
#define GN_PARTICLE_MAX_RATE 1e6f          /* particles a second */
#define GN_PARTICLE_MAX_BURST_COUNT 65536u /* particles a burst */
#define GN_PARTICLE_MAX_TIME 1e6f          /* s: a burst's time and interval (11 days) */
#define GN_PARTICLE_MIN_INTERVAL 1e-3f     /* s: a repeating burst's interval (0: once) */
#define GN_PARTICLE_MAX_CYCLES 1000000u    /* a burst's repeats */
#define GN_PARTICLE_MIN_LIFETIME 1e-3f     /* s */
#define GN_PARTICLE_MAX_LIFETIME 3600.0f   /* s */
#define GN_PARTICLE_MAX_SPEED 1000.0f      /* m/s */
#define GN_PARTICLE_MAX_EXTENT 1000.0f     /* m: a shape's radius or half extent, a size */
#define GN_PARTICLE_MAX_EMISSION 1e6f      /* cd/m^2: a welding arc; the sun's disc is 1.6e9 */
#define GN_PARTICLE_MAX_ROTATION 62.832f   /* rad (10 turns either way, 3600 degrees) */
#define GN_PARTICLE_MAX_SPIN 628.32f       /* rad/s (100 turns a second, 36000 degrees) */
#define GN_PARTICLE_MAX_CONE 3.1416f       /* rad: pi, a whole sphere of directions */
#define GN_PARTICLE_MAX_ACCEL 1000.0f      /* m/s^2: a gravity component, the curl's strength */
#define GN_PARTICLE_MAX_DRAG 1000.0f       /* 1/s */
#define GN_PARTICLE_MIN_CURL_SCALE 1e-4f   /* lattice cells per metre: 10 km eddies */
#define GN_PARTICLE_MAX_CURL_SCALE 100.0f  /* 1 cm eddies */
#define GN_PARTICLE_MAX_ATLAS_SIDE 64u     /* columns or rows of an atlas */
#define GN_PARTICLE_MAX_FPS 1000.0f        /* atlas frames a second */
#define GN_PARTICLE_MAX_STRETCH 10.0f      /* s of travel a velocity-aligned quad spans */
#define GN_PARTICLE_MAX_SOFT_DEPTH 100.0f  /* m */
#define GN_PARTICLE_MIN_THICKNESS 1e-3f    /* m */
#define GN_PARTICLE_MAX_THICKNESS 100.0f   /* m */
#define GN_PARTICLE_COLLIDE_LIFT 0.01f     /* m: a bounced particle is set this far off the surface */

typedef struct gn_particle_desc {
    /* where particles start */
    gn_particle_shape shape;
    float half_extent[3]; /* box (m) */
    float radius;         /* sphere, disc (m) */
    /* how many */
    float rate; /* particles a second, from time 0 */
    uint32_t burst_count;
    gn_particle_burst bursts[GN_PARTICLE_MAX_BURSTS];
    uint32_t max_particles; /* live at once (1..GN_PARTICLE_MAX_LIVE): spawns past it are dropped */
    /* what each starts with (min, max: uniform between) */
    float lifetime[2];  /* s */
    float speed[2];     /* m/s, along a direction uniform over the cone */
    float direction[3]; /* the cone's axis (unit) */
    float cone;         /* the cone's half angle (rad, 0..pi): 0 straight along direction */
    float rotation[2];  /* rad, the quad's turn about the view axis at birth */
    float spin[2];      /* rad/s */
    /* how it looks over its life (start, end: linear in age / lifetime) */
    float size[2];        /* the quad's full width (m) */
    float size_jitter;    /* each particle's size times 1 + jitter x (uniform -1..1); 0..1 */
    float color[2][4];    /* rgb reflectance (0..1) lit by the scene, a opacity (0..1) */
    float emission[2][3]; /* cd/m^2 added after lighting (flames, sparks) */
    float fade_in;        /* fraction of life over which opacity rises from 0 (0..1) */
    /* how it moves: dv/dt = gravity + drag (wind x wind_response - v) + curl_strength curl */
    float gravity[3];    /* m/s^2: (0, -9.81, 0) for a falling drop; up for hot, buoyant gas */
    float drag;          /* 1/s: how fast the velocity relaxes to the air's (0: none) */
    float wind_response; /* 0..1: the share of the scene's wind the air around it moves with */
    float curl_strength; /* m/s^2 of divergence-free turbulence (0: none) */
    float curl_scale;    /* the turbulence's lattice cells per metre */
    /* the texture atlas: columns x rows cells, the first frames of them used, row by row */
    uint32_t atlas_columns, atlas_rows, atlas_frames;
    float atlas_fps;         /* frames a second, looping; 0 with atlas_over_life false: one frame */
    bool atlas_over_life;    /* the frames spread once over the life (atlas_fps must be 0) */
    bool atlas_random_start; /* each particle starts at a random frame */
    /* how it is drawn */
    gn_particle_render render;
    float stretch; /* velocity: the quad spans size + speed x stretch (s) */
    gn_particle_blend blend;
    float soft_depth; /* m: opacity fades to 0 over this distance in front of the opaque scene */
    /* what the depth buffer does to it */
    gn_particle_collision collision;
    float restitution;         /* 0..1: the normal speed kept by a bounce */
    float friction;            /* 0..1: the tangential speed a bounce takes away */
    float collision_thickness; /* m: a particle further behind the surface than this is hidden, not hit */
} gn_particle_desc;

/* The documented default of every field (docs/EFFECTS.md): a point emitting 10 a second, 1 s
 * lives at 1 m/s straight up, 0.1 m white quads, normal gravity, no drag, wind or turbulence,
 * one atlas frame, billboards blended over, no collision, at most 1024 live. Physical values
 * such as gravity have no "zero means default", so descriptions start from this. */
gn_particle_desc gn_particle_desc_default(void);
/* True when every field is in its range and the fields agree (min <= max, a burst's cycles, the
 * atlas frames, shape and render options); else false with one line in msg naming the field as
 * the JSON format spells it ("lifetime: min 5 is greater than max 2"). */
bool gn_particle_desc_check(const gn_particle_desc *d, char *msg, size_t msg_size);

/* ---- the random numbers ---------------------------------------------------------------------
 * Counter-based, so any thread computes any particle's values: the PCG hash (Jarzynski and
 * Olano, "Hash Functions for GPU Rendering", JCGT 2020), a bijection of 32-bit integers. */
uint32_t gn_particle_pcg(uint32_t v);
/* A particle's key: pcg(pcg(seed + source x 0x9E3779B9) ^ index). Distinct indices of one
 * source give distinct keys (both steps are bijections). */
uint32_t gn_particle_key(uint32_t seed, uint32_t source, uint32_t index);
uint32_t gn_particle_rand(uint32_t key, uint32_t stream); /* pcg(key + stream x 0x632BE5AB) */
float gn_particle_unit(uint32_t h); /* (h >> 8) x 2^-24: uniform in [0, 1), 24 bits, exact */

/* ---- emission -------------------------------------------------------------------------------
 * The emitter's clock starts at 0. A frame covers [t0, t1): the rate's particle k is born at
 * k / rate, so ceil(rate t1) - ceil(rate t0) are born in it (the first at time 0), and frames
 * of any lengths add up to ceil(rate T) exactly; burst b's occurrence i at time + i interval.
 * Each source (the rate, each burst) numbers its particles from 0, so a particle's values do
 * not depend on how the time was cut into frames. A frame's spawns past max_particles keep the
 * newest. Indices wrap at 2^32 (72 minutes at the cap of 1e6 a second). */
uint32_t gn_particle_spawn_groups(const gn_particle_desc *d, double t0, double t1,
                                  gn_gpu_particle_group out[GN_PARTICLE_MAX_GROUPS]); /* groups used */
uint64_t gn_particle_spawn_total(const gn_particle_desc *d, double t); /* born in [0, t), all sources */
/* The spawn constants of one placed emitter: origin in the world, its seed and id (< 2^16).
 * Computes the cone's frame (Duff et al., "Building an Orthonormal Basis, Revisited", JCGT
 * 2017) and 1 - cos(cone) here, once. */
void gn_particle_spawn_pack(const gn_particle_desc *d, const float origin[3], uint32_t seed,
                            uint32_t emitter_id, gn_gpu_particle_spawn *out);
/* Particle j of group g, at the frame's end: born at the shape's random point with a random
 * velocity in the cone, then carried along that velocity for its age (gravity and drag start
 * with the next step). False (out untouched) when it would already be dead.
 *   box:    origin + (2u - 1) half_extent, one u an axis
 *   sphere: origin + q radius, q = 2u - 1 the first point of the cube inside the unit ball
 *           (GN_PARTICLE_SPHERE_TRIES tries; then the last one times 1/sqrt(3))
 *   disc:   the same in the XZ square (the last try times 1/sqrt(2))
 *   cone:   (x, y) uniform in the unit disc by rejection, r2 = x^2 + y^2, z = 1 - r2 (1 - cos),
 *           s = sqrt((1 - cos)(1 + z)), direction = axis_x (x s) + axis_y (y s) + axis_z z:
 *           Archimedes' map of the disc onto the cap, uniform over it, with no trig. */
bool gn_particle_spawn(const gn_gpu_particle_spawn *sp, const gn_gpu_particle_group *g, uint32_t j,
                       gn_gpu_particle *out);

/* The correctly rounded square root of x, given s within two ulp of it: the spawn's one square
 * root goes through this on both sides, since Vulkan allows sqrt an error (NVIDIA's is off by
 * an ulp for ~10% of arguments) and lavapipe's and the CPU's are exact. Decided in integers: s
 * moves up when (s + ulp/2)^2 < x and down when (s - ulp/2)^2 >= x (a square root never falls on
 * a midpoint). x zero, denormal or not finite: s as it is. */
float gn_particle_sqrt_round(float x, float s);

/* ---- integration ------------------------------------------------------------------------- */
typedef struct gn_particle_env {
    float wind[3]; /* the scene's wind (m/s) */
} gn_particle_env;
/* One step's constants: dt (s, >= 0) and the wind folded in, 1 / (1 + drag dt) computed here. */
void gn_particle_step_pack(const gn_particle_desc *d, float dt, const gn_particle_env *env,
                           gn_gpu_particle_step *out);
/* Semi-implicit Euler, the drag taken implicitly so that any dt is stable:
 *     a  = (gravity + drag air) + curl_strength curl(scale p)
 *     v' = (v + a dt) / (1 + drag dt)          (the velocity first ...)
 *     p' = p + v' dt                           (... then the position with the new velocity)
 *     rotation' = rotation + spin dt,  age' = age + dt
 * which with no drag is the textbook v += g dt; p += v dt, and with drag relaxes v towards
 * air + gravity / drag by 1 / (1 + drag dt) a step. A dead particle is left as it is. */
void gn_particle_step_with(const gn_gpu_particle_step *st, gn_gpu_particle *p);
void gn_particle_step(const gn_particle_desc *d, gn_gpu_particle *p, float dt, const gn_particle_env *env);
bool gn_particle_alive(const gn_gpu_particle *p); /* age < lifetime */

/* Curl noise (Bridson et al., "Curl-Noise for Procedural Fluid Flow", SIGGRAPH 2007): the curl
 * of three value-noise potentials psi_i over the integer lattice (corner values from the PCG
 * hash, salt i), interpolated with the quintic fade 6t^5 - 15t^4 + 10t^3 and differentiated
 * analytically: curl = (d psi3/dy - d psi2/dz, d psi1/dz - d psi3/dx, d psi2/dx - d psi1/dy).
 * The fade is C2, so the field is divergence-free exactly (in exact arithmetic; unit_particles
 * measures it by finite differences). x in lattice units (|x| clamped to 1e9); no trig, fract is
 * x - floor(x): bit for bit on the GPU too. Typical magnitude about 1. */
void gn_particle_curl(const float x[3], float out[3]);

/* One frame of an emitter's particles on the CPU, the reference of the compute pass as a whole:
 * the live[count] particles step by dt = t1 - t0 and the dead are dropped (the order of the
 * rest kept), then the frame's spawns (gn_particle_spawn_groups over [t0, t1), each group in
 * order of j) are appended while fewer than min(capacity, max_particles) live. Returns the new
 * count. A GPU's free list fills its slots in another order: compare the two as sets, by key. */
uint32_t gn_particle_update(const gn_particle_desc *d, const gn_gpu_particle_spawn *sp,
                            const gn_particle_env *env, double t0, double t1, gn_gpu_particle *live,
                            uint32_t count, uint32_t capacity);

/* ---- the depth buffer ------------------------------------------------------------------------
 * The camera of decide/camera.h: reversed-Z, infinite far, depth = near / distance along the
 * view axis (the clip w). The GPU samples the depth where gn_particle_project puts the particle
 * and computes the normal (from the depth's derivatives); the decision is then pure. */
typedef struct gn_particle_view {
    float view_proj[16]; /* projection x view (column-major) */
    float eye[3];        /* the camera's position */
    float near_plane;    /* m */
} gn_particle_view;
/* Where p lands in the depth buffer (uv 0..1, y down) and its view distance w (m); false when
 * it is behind the near plane or off the screen. */
bool gn_particle_project(const gn_particle_view *v, const float p[3], float uv[2], float *w);
typedef enum gn_particle_hit {
    GN_PARTICLE_HIT_NONE,   /* in front of the surface, off screen, the sky, or hidden behind it */
    GN_PARTICLE_HIT_BOUNCE, /* set back onto the surface, velocity reflected */
    GN_PARTICLE_HIT_DIE,    /* age set to lifetime */
} gn_particle_hit;
/* The particle is behind the depth buffer's surface when its distance w lies in (s, s +
 * collision_thickness], s = near / depth (a sample of 0, the sky, never hits). Then: die, or be
 * set on the surface (eye + (p - eye) s / w, lifted GN_PARTICLE_COLLIDE_LIFT along normal) with
 * its velocity, when moving into the surface (v.n < 0), split into normal and tangential parts
 * and made v_t (1 - friction) - restitution v_n. normal: the surface's (unit, world). */
gn_particle_hit gn_particle_collide(const gn_particle_desc *d, const gn_particle_view *v, float depth_sample,
                                    const float normal[3], gn_gpu_particle *p);
/* Soft particles (seed 000's soft effect): the opacity factor clamp((s - w) / soft_depth, 0, 1)
 * for a particle at view distance w before a surface of depth sample depth (s = near / depth;
 * the sky: 1). soft_depth 0: 1 in front, 0 behind. */
float gn_particle_soft_fade(float near_plane, float depth_sample, float w, float soft_depth);

/* ---- drawing ------------------------------------------------------------------------------- */
/* The instance drawn for a live particle (shared/particles.h): t = age / lifetime; size, colour
 * and emission linear from start to end in t, opacity times min(1, t / fade_in), the size times
 * 1 + jitter (2u - 1); the atlas frame: over life min(floor(t frames), frames - 1), else
 * floor(age fps), plus a random start (floor(u frames)), modulo frames. strip_next: for ribbons,
 * the position of the particle spawned before it in the same source (NULL: none, its own). */
void gn_particle_instance(const gn_particle_desc *d, uint32_t seed, const gn_gpu_particle *p,
                          const float strip_next[3], gn_gpu_particle_instance *out);

/* ---- built-in emitters ------------------------------------------------------------------- */
typedef enum gn_particle_builtin {
    GN_PARTICLE_CHIMNEY_SMOKE,
    GN_PARTICLE_FOUNTAIN,
    GN_PARTICLE_TORCH_FLAME,
    GN_PARTICLE_SPARKS,
    GN_PARTICLE_BUILTIN_COUNT
} gn_particle_builtin;
gn_particle_desc gn_particle_builtin_desc(gn_particle_builtin which);
const char *gn_particle_builtin_name(gn_particle_builtin which); /* "chimney_smoke", ... */

#endif

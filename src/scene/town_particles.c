/* The town's GPU particles (issue 20; docs/EFFECTS.md, "GPU particles"): smoke from some of the
 * chimneys near the plaza and a fountain on the plaza, and for a benchmark a stress emitter on the
 * plaza holding about N live particles. Only with gn_builtin_desc.particles, after everything
 * else, from a generator of their own: the town draws the same random numbers with or without
 * them, so without them it is what it always was. */
#include "scene/town.h"

#include <math.h>

#define GN_PARTICLE_TOWN_SEED 0x5a0e6e11u /* the particles' own generator, apart from the town's */
#define SMOKE_RADIUS 150.0f               /* m from the tower: chimneys farther smoke not */
#define SMOKE_SHARE 0.3f                  /* of the chimneys within it */
#define SMOKE_MAX 32u                     /* smoking chimneys at most */
#define STRESS_LIFETIME 2.0f              /* s: the stress emitter's particles, all alike */

gn_result gn_town_particles(gn_town *t, uint32_t particles)
{
    gn_rng rng = gn_rng_seed((uint64_t)t->seed * 0x9e3779b97f4a7c15ull ^ GN_PARTICLE_TOWN_SEED);
    gn_result r = GN_OK;
    const gn_scene *s = t->s;
    uint32_t smoking = 0;
    /* the chimneys: each instance of the shared chimney mesh, its top its bounding sphere's */
    for (uint32_t i = 0; i < s->instance_count && r == GN_OK && smoking < SMOKE_MAX; i++) {
        const gn_instance *in = &s->instances[i];
        if (t->chimney == GN_TOWN_NONE || in->mesh != t->chimney) continue;
        float dx = in->sphere[0] - t->tower[0], dz = in->sphere[2] - t->tower[1];
        if (dx * dx + dz * dz > SMOKE_RADIUS * SMOKE_RADIUS || gn_rng_float(&rng) >= SMOKE_SHARE) continue;
        gn_emitter_desc d = {.kind = GN_EMITTER_CHIMNEY_SMOKE,
                             .position = {in->sphere[0], in->sphere[1] + 0.9f * in->sphere[3], in->sphere[2]},
                             .seed = gn_rng_u32(&rng)};
        r = gn_scene_add_emitter(t->s, &d, NULL, t->err);
        smoking++;
    }
    /* the fountain: on the plaza, beside the tower */
    float fx = t->tower[0] - 14.0f, fz = t->tower[1] + 6.0f;
    gn_emitter_desc f = {.kind = GN_EMITTER_FOUNTAIN,
                         .position = {fx, gn_town_height(t, fx, fz) + 0.8f, fz},
                         .seed = gn_rng_u32(&rng)};
    if (r == GN_OK) r = gn_scene_add_emitter(t->s, &f, NULL, t->err);
    if (r != GN_OK || particles <= 1) return r;
    /* the stress emitter: fountain drops without collision, every one living 2 s, at N / 2 a
       second: N live once 2 s have passed (up to the emitter's cap) */
    uint32_t n = particles < GN_MAX_EMITTER_PARTICLES ? particles : GN_MAX_EMITTER_PARTICLES;
    gn_particle_desc p = gn_particle_builtin_desc(GN_PARTICLE_FOUNTAIN);
    p.max_particles = n;
    p.rate = (float)n / STRESS_LIFETIME;
    p.lifetime[0] = p.lifetime[1] = STRESS_LIFETIME;
    p.cone = 0.7f;
    p.collision = GN_PARTICLE_COLLIDE_NONE;
    float sx = t->tower[0] + 14.0f, sz = t->tower[1] - 6.0f;
    const float at[3] = {sx, gn_town_height(t, sx, sz) + 0.5f, sz};
    return gn_scene_add_particle_emitter(t->s, &p, at, gn_rng_u32(&rng), NULL, t->err);
}

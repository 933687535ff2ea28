/* gn_scene_add_emitter: GPU particle emitters checked at the door (decide/particles.h's
 * gn_particle_desc_check) and kept with their origin and seed; passes/particles.c simulates them. */
#include "formats/emitter.h"
#include "scene/scene.h"

#include <math.h>
#include <string.h>

_Static_assert(GN_MAX_EMITTER_PARTICLES == GN_PARTICLE_MAX_LIVE, "the public cap is the decision module's");
_Static_assert(GN_MAX_EMITTERS <= GN_PARTICLE_MAX_EMITTERS, "an emitter's id fits the key's 16 bits");
_Static_assert((int)GN_EMITTER_SPARKS == (int)GN_PARTICLE_SPARKS, "the kinds are the built-ins");

gn_result gn_scene_add_particle_emitter(gn_scene *s, const gn_particle_desc *d, const float origin[3],
                                        uint32_t seed, uint32_t *out_id, gn_error *err)
{
    if (!s || !d || !origin)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_emitter: NULL argument");
    uint32_t id = s->emitter_count;
    if (id >= GN_MAX_EMITTERS)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "emitter %u: the scene holds %u emitters, the most it may", id, GN_MAX_EMITTERS);
    char msg[160];
    if (!gn_particle_desc_check(d, msg, sizeof msg))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "emitter %u: %s", id, msg);
    for (int i = 0; i < 3; i++)
        if (!(isfinite(origin[i]) && fabsf(origin[i]) <= 1e6f))
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                           "emitter %u: position[%d] %g is not finite within 1e6 m", id, i,
                           (double)origin[i]);
    if ((uint64_t)s->emitter_particles + d->max_particles > GN_MAX_SCENE_PARTICLES)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "emitter %u: %u more live particles would pass the scene's %u (it holds %u)", id,
                       d->max_particles, GN_MAX_SCENE_PARTICLES, s->emitter_particles);
    if (!gn_grow((void **)&s->emitters, &s->emitter_cap, (uint64_t)id + 1, sizeof *s->emitters,
                 GN_MAX_EMITTERS))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "emitter %u: out of memory", id);
    gn_scene_emitter *e = &s->emitters[id];
    e->desc = *d;
    memcpy(e->origin, origin, sizeof e->origin);
    e->seed = seed;
    s->emitter_count = id + 1;
    s->emitter_particles += d->max_particles;
    s->emitter_generation++;
    if (out_id) *out_id = id;
    return GN_OK;
}

static void overrides(const gn_emitter_desc *d, gn_particle_desc *p)
{
    if (d->rate != 0.0f) p->rate = d->rate;
    if (d->max_particles) p->max_particles = d->max_particles;
    if (d->lifetime != 0.0f) p->lifetime[0] = p->lifetime[1] = d->lifetime;
}

static gn_result add_from_file(gn_scene *s, const gn_emitter_desc *d, uint32_t *out_id, gn_error *err)
{
    gn_emitter_file f;
    gn_result res = gn_emitter_load(d->file, &f, err);
    if (res) return res;
    uint32_t first = s->emitter_count, added = 0;
    for (uint32_t k = 0; k < f.count && !res; k++) {
        if (d->name && strcmp(f.emitters[k].name, d->name) != 0) continue;
        gn_particle_desc p = f.emitters[k].desc;
        overrides(d, &p);
        float at[3] = {d->position[0] + 4.0f * (float)added, d->position[1], d->position[2]};
        res = gn_scene_add_particle_emitter(s, &p, at, d->seed + k, NULL, err);
        added++;
    }
    gn_emitter_file_free(&f);
    if (!res && !added)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: no emitter called \"%s\"", d->file, d->name);
    if (!res && out_id) *out_id = first;
    return res;
}

gn_result gn_scene_add_emitter(gn_scene *s, const gn_emitter_desc *d, uint32_t *out_id, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_emitter: NULL argument");
    if (d->file) return add_from_file(s, d, out_id, err);
    if ((uint32_t)d->kind >= GN_PARTICLE_BUILTIN_COUNT)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "emitter %u: kind %u is not a built-in emitter (0..%u)", s->emitter_count,
                       (unsigned)d->kind, GN_PARTICLE_BUILTIN_COUNT - 1);
    gn_particle_desc p = gn_particle_builtin_desc((gn_particle_builtin)d->kind);
    overrides(d, &p);
    return gn_scene_add_particle_emitter(s, &p, d->position, d->seed, out_id, err);
}

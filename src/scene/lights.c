/* Local lights in the scene store: validation and defaults at the door (so the renderer packs
 * what it finds), moving lights, and the sites procedural scenes offer for built-in lights.
 * The built-in set itself is chosen in town_lights.c. */
#include "scene/scene.h"

#include <math.h>
#include <string.h>

#define GN_SPOT_INNER_DEFAULT 20.0f /* degrees */
#define GN_SPOT_OUTER_DEFAULT 30.0f
#define GN_SPOT_OUTER_MAX 89.0f /* a cone of 90 degrees or more is a point light's half space */

static bool gn_finite3(const float v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

gn_result gn_light_normalize(gn_light_desc *d, uint32_t index, gn_error *err)
{
    if (d->type != GN_LIGHT_POINT && d->type != GN_LIGHT_SPOT)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u: unknown type %d (point 0, spot 1)", index,
                       (int)d->type);
    if (!gn_finite3(d->position))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u: position (%g %g %g) is not finite", index,
                       (double)d->position[0], (double)d->position[1], (double)d->position[2]);
    if (!gn_finite3(d->direction))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u: direction (%g %g %g) is not finite", index,
                       (double)d->direction[0], (double)d->direction[1], (double)d->direction[2]);
    if (!(d->radius > 0.0f) || !isfinite(d->radius))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u: radius %g m is not finite and > 0", index,
                       (double)d->radius);
    if (!(d->intensity >= 0.0f) || !isfinite(d->intensity))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u: intensity %g is not finite and >= 0", index,
                       (double)d->intensity);
    for (int k = 0; k < 3; k++)
        if (!(d->color[k] >= 0.0f) || !isfinite(d->color[k]))
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u: color[%d] = %g is not finite and >= 0",
                           index, k, (double)d->color[k]);
    if (!(d->inner_angle >= 0.0f) || !(d->outer_angle >= 0.0f) || !isfinite(d->inner_angle) ||
        !isfinite(d->outer_angle))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "light %u: spot angles inner %g, outer %g degrees are not finite and >= 0", index,
                       (double)d->inner_angle, (double)d->outer_angle);

    if (d->color[0] == 0.0f && d->color[1] == 0.0f && d->color[2] == 0.0f)
        d->color[0] = d->color[1] = d->color[2] = 1.0f;
    /* Scaled first so that tiny but valid vectors do not underflow in the length. */
    float *v = d->direction, m = fmaxf(fabsf(v[0]), fmaxf(fabsf(v[1]), fabsf(v[2])));
    if (m > 0.0f) {
        float x = v[0] / m, y = v[1] / m, z = v[2] / m, l = sqrtf(x * x + y * y + z * z);
        v[0] = x / l, v[1] = y / l, v[2] = z / l;
    } else {
        v[0] = 0.0f, v[1] = -1.0f, v[2] = 0.0f;
    }
    if (d->outer_angle == 0.0f) d->outer_angle = GN_SPOT_OUTER_DEFAULT;
    if (d->inner_angle == 0.0f) d->inner_angle = GN_SPOT_INNER_DEFAULT;
    if (d->outer_angle > GN_SPOT_OUTER_MAX) d->outer_angle = GN_SPOT_OUTER_MAX;
    if (d->inner_angle >= d->outer_angle)
        d->inner_angle = d->outer_angle * (GN_SPOT_INNER_DEFAULT / GN_SPOT_OUTER_DEFAULT);
    return GN_OK;
}

/* The caller's description, member by member into zeroed bytes: a struct copy would carry the
 * caller's padding (after the two bools), and scenes are compared and hashed as bytes
 * (scene_alloc_faults): two loads of one file must store the same bytes. */
static gn_light_desc light_copy(const gn_light_desc *d)
{
    gn_light_desc n;
    memset(&n, 0, sizeof n);
    n.type = d->type;
    memcpy(n.position, d->position, sizeof n.position);
    memcpy(n.direction, d->direction, sizeof n.direction);
    n.radius = d->radius;
    memcpy(n.color, d->color, sizeof n.color);
    n.intensity = d->intensity;
    n.inner_angle = d->inner_angle, n.outer_angle = d->outer_angle;
    n.cast_shadows = d->cast_shadows, n.night = d->night;
    return n;
}

gn_result gn_scene_add_light_from(gn_scene *s, const gn_light_desc *d, gn_light_origin origin,
                                  uint32_t *out_id, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_light: NULL scene or desc");
    uint32_t id = s->light_count;
    if (id >= GN_MAX_LIGHTS)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "light %u: the scene already has %u lights (GN_MAX_LIGHTS)", id, GN_MAX_LIGHTS);
    gn_light_desc n = light_copy(d);
    gn_result r = gn_light_normalize(&n, id, err);
    if (r != GN_OK) return r;
    /* Two arrays under one capacity: each grows on its own copy, and the smaller wins, so a
     * failure between them leaves only unused room behind. */
    uint32_t cap_a = s->light_cap, cap_b = s->light_cap;
    if (!gn_grow((void **)&s->lights, &cap_a, (uint64_t)id + 1, sizeof *s->lights, GN_MAX_LIGHTS) ||
        !gn_grow((void **)&s->light_origin, &cap_b, (uint64_t)id + 1, sizeof *s->light_origin, GN_MAX_LIGHTS))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "light %u: out of memory", id);
    s->light_cap = cap_a < cap_b ? cap_a : cap_b;
    memcpy(&s->lights[id], &n, sizeof n);
    s->light_origin[id] = (uint8_t)origin;
    s->light_count++;
    s->light_generation++;
    if (out_id) *out_id = id;
    return GN_OK;
}

gn_result gn_scene_add_light(gn_scene *s, const gn_light_desc *d, uint32_t *out_id, gn_error *err)
{
    return gn_scene_add_light_from(s, d, GN_LIGHT_FROM_USER, out_id, err);
}

gn_result gn_scene_set_light(gn_scene *s, uint32_t light, const gn_light_desc *d, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_set_light: NULL scene or desc");
    if (light >= s->light_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u does not exist (%u lights)", light,
                       s->light_count);
    gn_light_desc n = light_copy(d);
    gn_result r = gn_light_normalize(&n, light, err);
    if (r != GN_OK) return r;
    memcpy(&s->lights[light], &n, sizeof n);
    /* The caller now places this light: gn_scene_animate must not move it back. */
    for (uint32_t i = 0; i < s->light_motion_count;)
        if (s->light_motions[i].light == light)
            s->light_motions[i] = s->light_motions[--s->light_motion_count];
        else
            i++;
    s->light_generation++;
    return GN_OK;
}

uint32_t gn_scene_light_count(const gn_scene *s) { return s ? s->light_count : 0; }

gn_result gn_scene_get_light(const gn_scene *s, uint32_t light, gn_light_desc *out, gn_error *err)
{
    if (!s || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_get_light: arguments are required");
    if (light >= s->light_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u out of range (%u lights)", light,
                       s->light_count);
    *out = s->lights[light];
    return GN_OK;
}

/* ---- moving lights --------------------------------------------------------------------- */

static void gn_light_motion_pose(const gn_scene *s, const gn_light_motion *m, double seconds, float out[3])
{
    if (m->instance != GN_LIGHT_NONE) {
        const float *t = s->instances[m->instance].transform, *o = m->offset;
        for (int k = 0; k < 3; k++) out[k] = t[k] * o[0] + t[4 + k] * o[1] + t[8 + k] * o[2] + t[12 + k];
        return;
    }
    /* The same circle and bob as gn_scene_animate's orbits; angles in double for long runs. */
    double a = m->phase + m->speed * seconds;
    out[0] = m->center[0] + m->radius * (float)cos(a);
    out[1] = m->center[1] + m->bob * (float)sin(0.9 * seconds + 3.0 * m->phase);
    out[2] = m->center[2] + m->radius * (float)sin(a);
}

gn_result gn_scene_add_light_motion(gn_scene *s, const gn_light_motion *m, gn_error *err)
{
    if (!s || !m) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_light_motion: NULL argument");
    if (m->light >= s->light_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light motion: light %u does not exist (%u lights)",
                       m->light, s->light_count);
    if (m->instance != GN_LIGHT_NONE &&
        (m->instance >= s->instance_count || !(s->instances[m->instance].flags & GN_INSTANCE_DYNAMIC)))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u: instance %u is not a dynamic instance",
                       m->light, m->instance);
    if (!gn_finite3(m->offset) || !gn_finite3(m->center) || !isfinite(m->radius) || !isfinite(m->speed) ||
        !isfinite(m->phase) || !isfinite(m->bob))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light %u: a motion value is not finite", m->light);
    if (!gn_grow((void **)&s->light_motions, &s->light_motion_cap, (uint64_t)s->light_motion_count + 1,
                 sizeof *s->light_motions, GN_MAX_LIGHTS))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "light %u: out of memory for its motion", m->light);
    s->light_motions[s->light_motion_count++] = *m;
    gn_light_motion_pose(s, m, 0.0, s->lights[m->light].position);
    s->light_generation++;
    return GN_OK;
}

void gn_scene_animate_lights(gn_scene *s, double seconds)
{
    bool moved = false;
    for (uint32_t i = 0; i < s->light_motion_count; i++) {
        const gn_light_motion *m = &s->light_motions[i];
        float *p = s->lights[m->light].position, q[3];
        gn_light_motion_pose(s, m, seconds, q);
        if (q[0] != p[0] || q[1] != p[1] || q[2] != p[2]) moved = true;
        memcpy(p, q, sizeof q);
    }
    if (moved) s->light_generation++;
}

void gn_scene_truncate_lights(gn_scene *s, uint32_t light_count, uint32_t motion_count)
{
    if (light_count < s->light_count) s->light_count = light_count;
    if (motion_count < s->light_motion_count) s->light_motion_count = motion_count;
    s->light_generation++;
}

/* ---- sites ----------------------------------------------------------------------------- */

gn_result gn_scene_add_light_site(gn_scene *s, const gn_light_site *site, gn_error *err)
{
    if (!s || !site) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_light_site: NULL argument");
    if (!gn_finite3(site->pos) || !gn_finite3(site->dir))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "light site %u: position or direction is not finite",
                       s->light_site_count);
    /* Sites are a generator's bookkeeping: bounded like instances, which they decorate. */
    if (!gn_grow((void **)&s->light_sites, &s->light_site_cap, (uint64_t)s->light_site_count + 1,
                 sizeof *s->light_sites, GN_SCENE_MAX_INSTANCES))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "light site %u: out of memory (or over %u sites)",
                       s->light_site_count, GN_SCENE_MAX_INSTANCES);
    s->light_sites[s->light_site_count++] = *site;
    return GN_OK;
}

gn_result gn_scene_add_probe_site(gn_scene *s, const float position[3], gn_error *err)
{
    if (!s || !position)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_probe_site: NULL argument");
    if (!gn_finite3(position))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "probe site %u: position is not finite",
                       s->probe_site_count);
    /* the renderer places at most GN_PROBES_MAX of them; more are candidates it may skip */
    if (!gn_grow((void **)&s->probe_sites, &s->probe_site_cap, (uint64_t)s->probe_site_count + 1,
                 sizeof *s->probe_sites, GN_SCENE_MAX_INSTANCES))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "probe site %u: out of memory (or over %u sites)",
                       s->probe_site_count, GN_SCENE_MAX_INSTANCES);
    for (int a = 0; a < 3; a++) s->probe_sites[s->probe_site_count][a] = position[a];
    s->probe_site_count++;
    return GN_OK;
}

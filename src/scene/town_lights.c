/* The built-in scene's local lights, chosen from the light sites its generator recorded
 * (lamp heads, lit windows, street lines, crossings, vehicles), in a fixed priority:
 *   movers  count / 8, at most 16 (1 from count 4): cart lanterns, balloon burners, then
 *           lights circling over the crossings nearest the plaza;
 *   lamps   every street lamp, nearest the plaza first; every 3rd (by post) a spot pointing
 *           down; all cast shadows;
 *   windows lit windows, nearest the plaza first give or take a seeded 40 m;
 *   festival whatever is left: string lights over the streets, so any count is met exactly.
 * A scene without sites (not built by gn_town_build) gets lights scattered over its bounds,
 * and an empty scene an error. Everything is a function of the sites, the count and the seed. */
#include "base/alloc.h"
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GN_MOVERS_MAX 16u
#define GN_WINDOW_JITTER 40.0f /* metres of seeded shuffle in the windows' order */

static const float gn_lamp_color[3] = {1.0f, 0.75f, 0.45f};   /* sodium-ish, like the lamp glass */
static const float gn_window_color[3] = {1.0f, 0.70f, 0.40f}; /* the lit windows' emissive hue */
static const float gn_palette[8][3] = {
    {1.0f, 0.2f, 0.2f}, {0.2f, 1.0f, 0.3f},  {0.3f, 0.4f, 1.0f}, {1.0f, 0.3f, 0.9f},
    {0.2f, 0.9f, 1.0f}, {1.0f, 0.85f, 0.2f}, {0.7f, 0.3f, 1.0f}, {1.0f, 0.5f, 0.1f},
};

/* A hash of (seed, i, salt) to [0, 2^32): the lights' choices do not depend on the order in
 * which anything else drew random numbers. */
static uint32_t gn_light_hash(uint32_t seed, uint32_t i, uint32_t salt)
{
    uint64_t z = ((uint64_t)seed << 32 | i) ^ ((uint64_t)salt * 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}
static float gn_light_unit(uint32_t seed, uint32_t i, uint32_t salt)
{
    return (float)(gn_light_hash(seed, i, salt) >> 8) * (1.0f / 16777216.0f);
}

typedef struct gn_site_key {
    float key;
    uint32_t site;
} gn_site_key;

static int gn_site_key_cmp(const void *a, const void *b)
{
    const gn_site_key *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->site < y->site ? -1 : x->site > y->site; /* ties by index: qsort is not stable */
}

/* A site's horizontal distance from the focus plus up to `jitter` seeded metres. */
static float gn_site_distance(const gn_scene *s, uint32_t i, float jitter, uint32_t seed)
{
    const gn_light_site *site = &s->light_sites[i];
    float x = site->pos[0], z = site->pos[2], reach = 0.0f;
    if (site->kind == GN_LIGHT_SITE_VEHICLE) {
        /* A vehicle's farthest reach from its orbit's centre, not where it is right now,
         * so that the order does not depend on when the lights are added. */
        x = s->instances[site->instance].transform[12], z = s->instances[site->instance].transform[14];
        for (uint32_t o = 0; o < s->orbit_count; o++)
            if (s->orbits[o].instance == site->instance) {
                x = s->orbits[o].center[0], z = s->orbits[o].center[2], reach = fabsf(s->orbits[o].radius);
                break;
            }
    }
    float dx = x - s->light_focus[0], dz = z - s->light_focus[2];
    return sqrtf(dx * dx + dz * dz) + reach + jitter * gn_light_unit(seed, i, 1);
}

/* The sites of one kind, nearest the focus first (gn_site_distance). Returns the count;
 * *out is malloc'ed (NULL when there are none, or out of memory, which sets *oom). */
static uint32_t gn_sites_sorted(const gn_scene *s, uint32_t kind, float jitter, uint32_t seed,
                                gn_site_key **out, bool *oom)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->light_site_count; i++) n += s->light_sites[i].kind == kind;
    *out = NULL;
    if (n == 0) return 0;
    gn_site_key *k = gn_malloc((size_t)n * sizeof *k);
    if (!k) {
        *oom = true;
        return 0;
    }
    n = 0;
    for (uint32_t i = 0; i < s->light_site_count; i++)
        if (s->light_sites[i].kind == kind) k[n++] = (gn_site_key){gn_site_distance(s, i, jitter, seed), i};
    qsort(k, n, sizeof *k, gn_site_key_cmp);
    *out = k;
    return n;
}

/* ---- one light of each kind ------------------------------------------------------------ */

static gn_light_desc gn_lamp_light(const gn_light_site *site, uint32_t site_index)
{
    /* A 3,000 lm street lamp: ~250 cd all round. The illuminance on the street 4.2 m below is
     * ~ intensity / 18.6: ~14 lux, the streets' usual 10-20, against the noon sun's 100 klux.
     * The spots' 55 degree cone puts the same flux into a pool within ~6 m. On at dusk. */
    gn_light_desc d = {
        .type = GN_LIGHT_POINT, .radius = 14.0f, .intensity = 250.0f, .cast_shadows = true, .night = true};
    memcpy(d.position, site->pos, sizeof d.position);
    memcpy(d.color, gn_lamp_color, sizeof d.color);
    d.direction[1] = -1.0f;
    if (site_index % 3 == 0) {
        d.type = GN_LIGHT_SPOT;
        d.intensity = 600.0f;
        d.inner_angle = 35.0f, d.outer_angle = 55.0f;
    }
    return d;
}

static gn_light_desc gn_window_light(const gn_light_site *site)
{
    /* A 1.1 x 1.4 m window of 150 nits gives ~230 cd on its axis; a little less, as a point
     * light also spends light on the wall. 0.6 m out, so the wall does not hide it. On at dusk,
     * as the window's glow is. */
    gn_light_desc d = {.type = GN_LIGHT_POINT, .radius = 5.0f, .intensity = 180.0f, .night = true};
    for (int k = 0; k < 3; k++) d.position[k] = site->pos[k] + 0.6f * site->dir[k];
    memcpy(d.color, gn_window_color, sizeof d.color);
    return d;
}

/* Movers: vehicle lanterns first, then circles over crossings (wrapping round, higher each
 * round, when there are more movers than crossings). */
static gn_result gn_add_movers(gn_scene *s, uint32_t n, uint32_t seed, const gn_site_key *veh, uint32_t nveh,
                               const gn_site_key *cross, uint32_t ncross, gn_error *err)
{
    for (uint32_t i = 0; i < n; i++) {
        const float *c = gn_palette[gn_light_hash(seed, i, 2) % 8];
        gn_light_desc d = {.type = GN_LIGHT_POINT, .color = {c[0], c[1], c[2]}};
        gn_light_motion m = {.instance = GN_LIGHT_NONE};
        if (i < nveh) {
            const gn_light_site *site = &s->light_sites[veh[i].site];
            m.instance = site->instance;
            memcpy(m.offset, site->pos, sizeof m.offset);
            /* A cart's lantern (~100 cd) pools 2 m below it; a balloon's burner (a flame of
             * ~2,000 cd) lights its envelope. Both burn by day too, unseen beside the sun. */
            bool low = site->pos[1] > -2.0f;
            d.radius = low ? 12.0f : 20.0f, d.intensity = low ? 100.0f : 2000.0f;
        } else {
            uint32_t j = i - nveh, round = j / ncross;
            const gn_light_site *site = &s->light_sites[cross[j % ncross].site];
            memcpy(m.center, site->pos, sizeof m.center);
            m.center[1] += 7.5f + 3.0f * (float)round;
            m.radius = 6.0f;
            m.speed =
                (gn_light_hash(seed, i, 3) & 1 ? 1.0f : -1.0f) * (0.3f + 0.3f * gn_light_unit(seed, i, 4));
            m.phase = 6.2831853f * gn_light_unit(seed, i, 5);
            m.bob = 0.6f;
            /* 7.5 m up, ~10 lux on the ground under it: a coloured pool beside the lamps'. */
            d.radius = 16.0f, d.intensity = 600.0f;
        }
        gn_result r = gn_scene_add_light_from(s, &d, GN_LIGHT_FROM_MOVER, &m.light, err);
        if (r == GN_OK) r = gn_scene_add_light_motion(s, &m, err);
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

/* Festival strings: n lights spread evenly over the street samples, in `layers` strings side
 * by side across each street when there are more lights than samples. */
static gn_result gn_add_festival(gn_scene *s, uint32_t n, uint32_t seed, const gn_site_key *st, uint32_t nst,
                                 gn_error *err)
{
    uint64_t layers = ((uint64_t)n + nst - 1) / nst, slots = layers * nst;
    for (uint32_t j = 0; j < n; j++) {
        uint64_t slot = ((2 * (uint64_t)j + 1) * slots) / (2 * (uint64_t)n);
        uint32_t layer = (uint32_t)(slot % layers);
        const gn_light_site *site = &s->light_sites[st[slot / layers].site];
        /* Across: inside the 4 m half width, clear of the lamps 3.75 m out. Along: layers
         * offset by the golden ratio so strings do not line up into rows. */
        float across = -3.0f + 6.0f * ((float)layer + 0.5f) / (float)layers;
        float along = 4.0f * (fmodf(0.618034f * (float)layer, 1.0f) - 0.5f);
        const float *dir = site->dir, perp[3] = {-dir[2], 0, dir[0]};
        const float *c = gn_palette[gn_light_hash(seed, j, 6) % 8];
        /* ~40 cd a bulb, 6 m up: ~1 lux below each, switched on at dusk */
        gn_light_desc d = {.type = GN_LIGHT_POINT,
                           .radius = 8.0f,
                           .intensity = 40.0f,
                           .color = {c[0], c[1], c[2]},
                           .night = true};
        for (int k = 0; k < 3; k++) d.position[k] = site->pos[k] + along * dir[k] + across * perp[k];
        d.position[1] += 6.0f + 0.5f * sinf(0.2f * (float)layer + 0.05f * (site->pos[0] + site->pos[2]));
        gn_result r = gn_scene_add_light_from(s, &d, GN_LIGHT_FROM_FESTIVAL, NULL, err);
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

/* Lights scattered over the bounds' lower 60%, sized so that neighbours just about overlap. */
static gn_result gn_add_scatter(gn_scene *s, uint32_t n, uint32_t seed, gn_error *err)
{
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    if (s->instance_count == 0)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "gn_scene_add_builtin_lights: the scene is empty (no instances to light)");
    float lo[3], ext[3], vol = 1.0f;
    for (int k = 0; k < 3; k++) {
        lo[k] = info.bounds_min[k];
        ext[k] = fmaxf(info.bounds_max[k] - lo[k], 1e-3f);
        vol *= ext[k];
    }
    ext[1] *= 0.6f;
    float radius = fminf(fmaxf(1.5f * cbrtf(vol / (float)n), 0.5f), 50.0f);
    for (uint32_t j = 0; j < n; j++) {
        const float *c = gn_palette[gn_light_hash(seed, j, 7) % 8];
        gn_light_desc d = {.type = GN_LIGHT_POINT,
                           .radius = radius,
                           .intensity = 1.25f * radius * radius, /* a lamp's 250 cd at its 14 m */
                           .color = {c[0], c[1], c[2]},
                           .cast_shadows = j < 16};
        for (int k = 0; k < 3; k++) d.position[k] = lo[k] + ext[k] * gn_light_unit(seed, j, 8 + (uint32_t)k);
        gn_result r = gn_scene_add_light_from(s, &d, GN_LIGHT_FROM_SCATTER, NULL, err);
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

/* ---- the set --------------------------------------------------------------------------- */

static gn_result gn_builtin_lights(gn_scene *s, uint32_t count, uint32_t seed, gn_site_key *k[5],
                                   uint32_t nk[5], gn_error *err)
{
    enum { LAMP, WINDOW, STREET, CROSSING, VEHICLE };
    const uint32_t kinds[5] = {GN_LIGHT_SITE_LAMP, GN_LIGHT_SITE_WINDOW, GN_LIGHT_SITE_STREET,
                               GN_LIGHT_SITE_CROSSING, GN_LIGHT_SITE_VEHICLE};
    bool oom = false;
    for (int i = 0; i < 5; i++)
        nk[i] = gn_sites_sorted(s, kinds[i], i == WINDOW ? GN_WINDOW_JITTER : 0.0f, seed, &k[i], &oom);
    if (oom) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "gn_scene_add_builtin_lights: out of memory");

    uint32_t movers = count / 8;
    if (movers == 0 && count >= 4) movers = 1;
    if (movers > GN_MOVERS_MAX) movers = GN_MOVERS_MAX;
    if (nk[VEHICLE] + nk[CROSSING] == 0) movers = 0;
    uint32_t lamps = count - movers < nk[LAMP] ? count - movers : nk[LAMP];
    uint32_t windows = count - movers - lamps < nk[WINDOW] ? count - movers - lamps : nk[WINDOW];
    uint32_t rest = count - movers - lamps - windows;

    gn_result r = GN_OK;
    for (uint32_t i = 0; i < lamps && r == GN_OK; i++) {
        gn_light_desc d = gn_lamp_light(&s->light_sites[k[LAMP][i].site], k[LAMP][i].site);
        r = gn_scene_add_light_from(s, &d, GN_LIGHT_FROM_LAMP, NULL, err);
    }
    for (uint32_t i = 0; i < windows && r == GN_OK; i++) {
        gn_light_desc d = gn_window_light(&s->light_sites[k[WINDOW][i].site]);
        r = gn_scene_add_light_from(s, &d, GN_LIGHT_FROM_WINDOW, NULL, err);
    }
    if (r == GN_OK)
        r = gn_add_movers(s, movers, seed, k[VEHICLE], nk[VEHICLE], k[CROSSING], nk[CROSSING], err);
    if (r == GN_OK && rest)
        r = nk[STREET] ? gn_add_festival(s, rest, seed, k[STREET], nk[STREET], err)
                       : gn_add_scatter(s, rest, seed, err);
    return r;
}

gn_result gn_scene_add_builtin_lights(gn_scene *s, uint32_t count, uint32_t seed, gn_error *err)
{
    if (!s) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_builtin_lights: scene is NULL");
    if ((uint64_t)s->light_count + count > GN_MAX_LIGHTS)
        return gn_fail(
            err, GN_ERROR_INVALID_ARGUMENT,
            "gn_scene_add_builtin_lights: %u lights on top of the scene's %u exceed GN_MAX_LIGHTS (%u)",
            count, s->light_count, GN_MAX_LIGHTS);
    if (count == 0) return GN_OK;
    uint32_t lights0 = s->light_count, motions0 = s->light_motion_count;
    gn_result r;
    if (s->light_site_count == 0) {
        r = gn_add_scatter(s, count, seed, err);
    } else {
        gn_site_key *k[5] = {0};
        uint32_t nk[5] = {0};
        r = gn_builtin_lights(s, count, seed, k, nk, err);
        for (int i = 0; i < 5; i++) free(k[i]);
    }
    /* All or nothing, like every other add. */
    if (r != GN_OK) gn_scene_truncate_lights(s, lights0, motions0);
    return r;
}

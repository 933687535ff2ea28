/* The built-in town at sunset: terrain, streets, materials and the order of the build.
 * Houses are in town_houses.c, trees, lamps, poles, the tower and movers in town_props.c.
 *
 * Layout (metres, +Y up, sun setting towards -X): a square grid of streets every 60 m
 * around a paved plaza whose tower stands near the origin; a country road leaves the town
 * westwards along z = 0, into the sunset; forest and a rim of hills fill the rest. The town
 * and the terrain grow with sqrt(scale) on a side, so their area grows with scale. */
#include "scene/town.h"
#include "base/alloc.h"
#include "base/gmath.h"
#include "scene/texgen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_TOWN_TILE 64.0f /* terrain tile side: one mesh and instance each, for culling */
#define GN_TOWN_TEX 256u   /* texture side; one repeat per metre */

/* Emitted luminance, nits, of the night lights (on from dusk to dawn: gn_night_level): a room
 * lit inside seen through its window ~150, a lamp's frosted glass ~12,000 (a clear noon sky is
 * ~5,000, so by day neither would show even if lit). */
static const float gn_window_glow[3] = {150.0f, 95.0f, 38.0f};
static const float gn_lamp_glow[3] = {12000.0f, 8700.0f, 4300.0f};

static float gn_smoothstep(float e0, float e1, float x)
{
    float u = (x - e0) / (e1 - e0);
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return u * u * (3 - 2 * u);
}

static float gn_town_waves(const gn_town *t, float x, float z)
{
    float h = 0;
    for (int k = 0; k < 4; k++)
        h += t->wave[k].amp * sinf(t->wave[k].kx * x + t->wave[k].kz * z + t->wave[k].phase);
    return h;
}

float gn_town_height(const void *user, float x, float z)
{
    const gn_town *t = user;
    float h = gn_town_waves(t, x, z);
    /* A rim of hills beyond the streets closes the view; inside the town only the gentle
     * waves remain (slopes mostly under 15%, which house walls sunk 3 m can absorb). */
    float rim = gn_smoothstep(t->T + 20.0f, t->W - 20.0f, fmaxf(fabsf(x), fabsf(z)));
    h += rim *
         (16.0f + 8.0f * sinf(0.011f * x + 0.017f * z + t->rim_phase) + 6.0f * sinf(0.023f * x - 0.013f * z));
    /* The plaza is flat, so the tower stands level and the carts circle on the ground. */
    float dx = x - t->plaza[0], dz = z - t->plaza[1];
    float flat = 1.0f - gn_smoothstep(40.0f, 64.0f, sqrtf(dx * dx + dz * dz));
    return h + (t->plaza_h - h) * flat;
}

void gn_town_xf(float m[16], float x, float y, float z, float yaw, float sx, float sy, float sz)
{
    float c = cosf(yaw), s = sinf(yaw);
    const float r[16] = {c * sx, 0, -s * sx, 0, 0, sy, 0, 0, s * sz, 0, c * sz, 0, x, y, z, 1};
    memcpy(m, r, sizeof r);
}

gn_result gn_town_put(gn_town *t, uint32_t mesh, uint32_t material, const float xf[16], uint32_t flags)
{
    gn_instance_desc d = {.mesh = mesh, .material = material, .flags = flags};
    memcpy(d.transform, xf, sizeof d.transform);
    return gn_scene_add_instance(t->s, &d, NULL, t->err);
}

/* ---- textures and materials ------------------------------------------------------------ */
static gn_result gn_town_textures(gn_town *t, uint32_t color[GN_TEX_KIND_COUNT],
                                  uint32_t normal[GN_TEX_KIND_COUNT])
{
    size_t bytes = (size_t)GN_TOWN_TEX * GN_TOWN_TEX * 4;
    uint8_t *c = gn_malloc(bytes), *n = gn_malloc(bytes);
    gn_result r = GN_OK;
    if (!c || !n) r = gn_fail(t->err, GN_ERROR_OUT_OF_MEMORY, "town: out of memory for textures");
    for (int k = 0; k < GN_TEX_KIND_COUNT && r == GN_OK; k++) {
        char lc[64], ln[64];
        snprintf(lc, sizeof lc, "town/%s.color", gn_texgen_name((gn_texgen_kind)k));
        snprintf(ln, sizeof ln, "town/%s.normal", gn_texgen_name((gn_texgen_kind)k));
        if (!gn_texgen((gn_texgen_kind)k, GN_TOWN_TEX, t->seed + (uint32_t)k * 977u, c, n)) {
            r = gn_fail(t->err, GN_ERROR_OUT_OF_MEMORY, "town: texture %s could not be generated", lc);
            break;
        }
        gn_texture_desc dc = {GN_TOWN_TEX, GN_TOWN_TEX, c, true, lc},
                        dn = {GN_TOWN_TEX, GN_TOWN_TEX, n, false, ln};
        r = gn_scene_add_texture(t->s, &dc, &color[k], t->err);
        if (r == GN_OK) r = gn_scene_add_texture(t->s, &dn, &normal[k], t->err);
    }
    free(c);
    free(n);
    return r;
}

typedef struct gn_town_mat_spec {
    uint32_t *out;
    const char *label;
    float r, g, b, metallic, roughness;
    int tex; /* gn_texgen_kind, or -1 */
    const float *glow;
} gn_town_mat_spec;

static gn_result gn_town_materials_make(gn_town *t)
{
    uint32_t tc[GN_TEX_KIND_COUNT], tn[GN_TEX_KIND_COUNT];
    gn_result r = gn_town_textures(t, tc, tn);
    if (r != GN_OK) return r;
    gn_town_materials *m = &t->m;
    const gn_town_mat_spec spec[] = {
        {&m->grass, "town/grass", 0.95f, 1.0f, 0.85f, 0, 0.9f, GN_TEX_GRASS, NULL},
        {&m->cobble, "town/street", 0.85f, 0.82f, 0.80f, 0, 0.75f, GN_TEX_COBBLE, NULL},
        {&m->paving, "town/plaza", 1.0f, 0.95f, 0.88f, 0, 0.7f, GN_TEX_PAVING, NULL},
        {&m->plaster[0], "town/plaster_cream", 1.0f, 0.92f, 0.76f, 0, 0.85f, GN_TEX_PLASTER, NULL},
        {&m->plaster[1], "town/plaster_ochre", 0.88f, 0.58f, 0.26f, 0, 0.85f, GN_TEX_PLASTER, NULL},
        {&m->plaster[2], "town/plaster_terracotta", 0.80f, 0.42f, 0.28f, 0, 0.85f, GN_TEX_PLASTER, NULL},
        {&m->plaster[3], "town/plaster_rose", 0.95f, 0.70f, 0.64f, 0, 0.85f, GN_TEX_PLASTER, NULL},
        {&m->plaster[4], "town/plaster_bluegrey", 0.70f, 0.78f, 0.82f, 0, 0.85f, GN_TEX_PLASTER, NULL},
        {&m->brick, "town/brick", 1.0f, 0.95f, 0.9f, 0, 0.8f, GN_TEX_BRICK, NULL},
        {&m->roof[0], "town/roof_terracotta", 0.78f, 0.34f, 0.20f, 0, 0.7f, GN_TEX_ROOF_TILES, NULL},
        {&m->roof[1], "town/roof_brown", 0.50f, 0.26f, 0.18f, 0, 0.7f, GN_TEX_ROOF_TILES, NULL},
        {&m->roof[2], "town/roof_slate", 0.28f, 0.30f, 0.34f, 0, 0.55f, GN_TEX_ROOF_TILES, NULL},
        {&m->glass, "town/window_glass", 0.04f, 0.05f, 0.06f, 0, 0.15f, -1, NULL},
        {&m->lit, "town/window_lit", 0.9f, 0.72f, 0.45f, 0, 0.4f, -1, gn_window_glow},
        {&m->wood, "town/wood", 0.30f, 0.17f, 0.09f, 0, 0.7f, -1, NULL},
        {&m->stone, "town/stone", 0.80f, 0.74f, 0.63f, 0, 0.8f, GN_TEX_PLASTER, NULL},
        {&m->bark, "town/bark", 1.0f, 1.0f, 1.0f, 0, 0.9f, GN_TEX_BARK, NULL},
        {&m->leaves[0], "town/leaves", 0.17f, 0.33f, 0.08f, 0, 0.8f, -1, NULL},
        {&m->leaves[1], "town/leaves_olive", 0.36f, 0.36f, 0.11f, 0, 0.8f, -1, NULL},
        {&m->conifer, "town/conifer", 0.07f, 0.18f, 0.08f, 0, 0.85f, -1, NULL},
        {&m->metal, "town/iron", 0.09f, 0.09f, 0.09f, 1, 0.45f, -1, NULL},
        {&m->glow, "town/lamp_glow", 1.0f, 0.9f, 0.7f, 0, 0.5f, -1, gn_lamp_glow},
        {&m->weathered, "town/weathered_wood", 0.42f, 0.37f, 0.31f, 0, 0.9f, GN_TEX_BARK, NULL},
        {&m->copper, "town/copper", 0.95f, 0.64f, 0.54f, 1, 0.35f, -1, NULL},
        {&m->fabric[0], "town/fabric_red", 0.75f, 0.08f, 0.06f, 0, 0.6f, -1, NULL},
        {&m->fabric[1], "town/fabric_yellow", 0.90f, 0.68f, 0.10f, 0, 0.6f, -1, NULL},
        {&m->shutter, "town/shutter_green", 0.12f, 0.30f, 0.16f, 0, 0.6f, -1, NULL},
    };
    for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
        const gn_town_mat_spec *p = &spec[i];
        gn_material_desc d = {.base_color = {p->r, p->g, p->b, 1},
                              .metallic = p->metallic,
                              .roughness = p->roughness,
                              .label = p->label,
                              .base_color_texture = p->tex >= 0 ? tc[p->tex] : 0,
                              .normal_texture = p->tex >= 0 ? tn[p->tex] : 0};
        if (p->glow) memcpy(d.emissive, p->glow, sizeof d.emissive), d.night_emissive = true;
        if ((r = gn_scene_add_material(t->s, &d, p->out, t->err)) != GN_OK) return r;
    }
    return GN_OK;
}

/* ---- ground ---------------------------------------------------------------------------- */
static gn_result gn_town_terrain(gn_town *t)
{
    int n = (int)(2.0f * t->W / GN_TOWN_TILE + 0.5f), q = (int)(GN_TOWN_TILE / GN_TOWN_TERRAIN_STEP);
    float id[16];
    gn_town_xf(id, 0, 0, 0, 0, 1, 1, 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            float x0 = -t->W + GN_TOWN_TILE * (float)i, z0 = -t->W + GN_TOWN_TILE * (float)j;
            gn_mg_heightfield(&t->mg, x0, z0, GN_TOWN_TERRAIN_STEP, q, q, gn_town_height, t, 0.0f);
            uint32_t mesh;
            gn_result r = gn_mg_commit(&t->mg, t->s, "town/terrain", &mesh, t->err);
            if (r == GN_OK) r = gn_town_put(t, mesh, t->m.grass, id, GN_INSTANCE_STATIC);
            if (r != GN_OK) return r;
        }
    return GN_OK;
}

/* A strip of paving draped on the terrain lattice; lift keeps it above the grass without
 * depth fighting (crossing streets use different lifts for the same reason). */
static gn_result gn_town_drape(gn_town *t, float x0, float z0, float x1, float z1, float lift, uint32_t mat,
                               const char *label)
{
    const float st = GN_TOWN_TERRAIN_STEP;
    int nx = (int)((x1 - x0) / st + 0.5f), nz = (int)((z1 - z0) / st + 0.5f);
    /* Long strips are cut every 64 m so that culling can drop what is off screen. */
    for (int i = 0; i < nx; i += 32) {
        int cx = nx - i < 32 ? nx - i : 32;
        for (int j = 0; j < nz; j += 32) {
            int cz = nz - j < 32 ? nz - j : 32;
            gn_mg_heightfield(&t->mg, x0 + st * (float)i, z0 + st * (float)j, st, cx, cz, gn_town_height, t,
                              lift);
            uint32_t mesh;
            float id[16];
            gn_town_xf(id, 0, 0, 0, 0, 1, 1, 1);
            gn_result r = gn_mg_commit(&t->mg, t->s, label, &mesh, t->err);
            if (r == GN_OK) r = gn_town_put(t, mesh, mat, id, GN_INSTANCE_STATIC);
            if (r != GN_OK) return r;
        }
    }
    return GN_OK;
}

/* Light sites along the streets: the centre lines every 4 m (string lights hang over them)
 * and the crossings (moving lights circle over them). */
static gn_result gn_town_street_sites(gn_town *t)
{
    const float P = GN_TOWN_STREET_PITCH, step = 4.0f;
    int n = (int)(2.0f * t->T / step + 0.5f);
    t->s->light_focus[0] = t->plaza[0], t->s->light_focus[1] = t->plaza_h, t->s->light_focus[2] = t->plaza[1];
    gn_result r = GN_OK;
    for (int k = -t->K; k <= t->K && r == GN_OK; k++)
        for (int axis = 0; axis < 2 && r == GN_OK; axis++)
            for (int i = 0; i <= n && r == GN_OK; i++) {
                float c = P * (float)k, u = -t->T + step * (float)i;
                float x = axis ? c : u, z = axis ? u : c;
                gn_light_site site = {.pos = {x, gn_town_height(t, x, z), z},
                                      .dir = {axis ? 0.0f : 1.0f, 0, axis ? 1.0f : 0.0f},
                                      .kind = GN_LIGHT_SITE_STREET,
                                      .instance = GN_LIGHT_NONE};
                r = gn_scene_add_light_site(t->s, &site, t->err);
            }
    for (int j = -t->K; j <= t->K && r == GN_OK; j++)
        for (int i = -t->K; i <= t->K && r == GN_OK; i++) {
            float x = P * (float)i, z = P * (float)j;
            gn_light_site site = {.pos = {x, gn_town_height(t, x, z), z},
                                  .kind = GN_LIGHT_SITE_CROSSING,
                                  .instance = GN_LIGHT_NONE};
            r = gn_scene_add_light_site(t->s, &site, t->err);
        }
    return r;
}

static gn_result gn_town_streets(gn_town *t)
{
    const float hw = GN_TOWN_STREET_HALF, P = GN_TOWN_STREET_PITCH;
    gn_result r = GN_OK;
    for (int k = -t->K; k <= t->K && r == GN_OK; k++) {
        float c = P * (float)k;
        /* Streets along X; the one at z = 0 runs on west out of town as the country road. */
        float xs = k == 0 ? -t->W + 4.0f : -t->T - hw;
        r = gn_town_drape(t, xs, c - hw, t->T + hw, c + hw, 0.06f, t->m.cobble, "town/street");
        if (r == GN_OK)
            r = gn_town_drape(t, c - hw, -t->T - hw, c + hw, t->T + hw, 0.08f, t->m.cobble, "town/street");
    }
    if (r == GN_OK) r = gn_town_drape(t, hw, hw, P - hw, P - hw, 0.05f, t->m.paving, "town/plaza");
    if (r == GN_OK) r = gn_town_street_sites(t);
    return r;
}

/* ---- cameras --------------------------------------------------------------------------- */
/* A camera at (x, ground + above, z) looking at (tx, ty, tz). */
static void gn_town_look(const gn_town *t, float out[5], float x, float above, float z, float tx, float ty,
                         float tz)
{
    float y = gn_town_height(t, x, z) + above;
    const float d[3] = {tx - x, ty - y, tz - z};
    out[0] = x, out[1] = y, out[2] = z;
    gn_view_yaw_pitch(d, &out[3], &out[4]);
}

static void gn_town_cameras(gn_town *t)
{
    float tx = t->tower[0], tz = t->tower[1], ty = t->plaza_h;
    /* Over the eastern edge of town, looking west across the roofs to the tower and the
     * setting sun; the tower's shadow reaches towards the camera. */
    gn_town_look(t, t->s->default_camera, tx + 170.0f, 40.0f, tz + 60.0f, tx, ty + 20.0f, tz);
    /* Street level: the middle of the main street (z = 0), eye height, tower ahead. */
    gn_town_look(t, t->s->viewpoints[0], tx + 120.0f, 1.7f, 0.0f, tx, ty + 45.0f, tz);
    /* Rooftop height over a crossing (above every roof and tree near it). */
    gn_town_look(t, t->s->viewpoints[1], 2.0f * GN_TOWN_STREET_PITCH, 24.0f, GN_TOWN_STREET_PITCH, tx,
                 ty + 25.0f, tz);
    /* High overview from the south-east. */
    gn_town_look(t, t->s->viewpoints[2], tx + 250.0f, 150.0f, tz + 190.0f, tx, ty, tz);
}

void gn_town_viewpoints(const gn_scene *s, float out[3][5])
{
    memcpy(out, s->viewpoints, sizeof s->viewpoints);
}

/* ---- the build ------------------------------------------------------------------------- */
static void gn_town_init(gn_town *t, gn_scene *s, uint32_t seed, uint32_t scale, gn_error *err)
{
    t->s = s, t->err = err, t->seed = seed, t->scale = scale;
    t->rng = gn_rng_seed(((uint64_t)seed << 32) ^ 0x70776e5eedull);
    /* Terrain side grows with sqrt(scale) in whole tiles; the street grid fills ~60% of it. */
    float side = 640.0f * sqrtf((float)scale);
    t->W = 0.5f * GN_TOWN_TILE * ceilf(side / GN_TOWN_TILE);
    t->K = (int)(0.6f * t->W / GN_TOWN_STREET_PITCH);
    if (t->K < 2) t->K = 2;
    t->T = GN_TOWN_STREET_PITCH * (float)t->K;
    /* The plaza is the block north-east of the origin; the tower stands in its middle. */
    t->plaza[0] = t->plaza[1] = 0.5f * GN_TOWN_STREET_PITCH;
    t->tower[0] = t->tower[1] = 0.5f * GN_TOWN_STREET_PITCH;
    const float lambda[4] = {310, 170, 95, 48}, amp[4] = {5.5f, 2.4f, 0.9f, 0.3f};
    for (int k = 0; k < 4; k++) {
        float a = gn_rng_range(&t->rng, 0, 2 * GN_PI), f = 2 * GN_PI / lambda[k];
        t->wave[k] = (gn_town_wave){f * cosf(a), f * sinf(a), amp[k], gn_rng_range(&t->rng, 0, 2 * GN_PI)};
    }
    t->rim_phase = gn_rng_range(&t->rng, 0, 2 * GN_PI);
    t->plaza_h = gn_town_waves(t, t->plaza[0], t->plaza[1]);
    gn_mg_init(&t->mg);
    gn_mg_init(&t->mg2);
    /* Every cached mesh id starts as "not built yet". */
    memset(t->body, 0xff, sizeof t->body);
    memset(t->roof, 0xff, sizeof t->roof);
    memset(t->arcade, 0xff, sizeof t->arcade);
    t->window = t->door = t->shutters = t->sill = t->chimney = GN_TOWN_NONE;
    memset(t->trunk, 0xff, sizeof t->trunk);
    memset(t->crown, 0xff, sizeof t->crown);
    memset(t->bush, 0xff, sizeof t->bush);
    t->lamp_pole = t->lamp_head = t->fence = t->tpole = t->wire = t->flagpole = GN_TOWN_NONE;
}

gn_result gn_town_build(gn_scene *s, const gn_builtin_desc *d, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_town_build: scene or desc is NULL");
    uint32_t scale = d->scale ? d->scale : 1, people = d->people;
    gn_town *t = gn_calloc(1, sizeof *t);
    if (!t) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "town: out of memory");
    gn_town_init(t, s, d->seed, scale, err);
    t->people_detail = d->people_detail;
    gn_result r = gn_town_materials_make(t);
    if (r == GN_OK) r = gn_town_terrain(t);
    if (r == GN_OK) r = gn_town_streets(t);
    if (r == GN_OK) r = gn_town_houses(t);
    if (r == GN_OK) r = gn_town_forest(t);
    if (r == GN_OK) r = gn_town_lamps(t);
    if (r == GN_OK) r = gn_town_poles(t);
    if (r == GN_OK) r = gn_town_tower(t);
    if (r == GN_OK) r = gn_town_movers(t);
    /* after everything else: the town draws the same random numbers with or without its people,
       and without them (and their banners) it is what it always was */
    if (r == GN_OK && people) r = gn_town_banners(t);
    if (r == GN_OK) r = gn_town_people(t, people);
    if (r == GN_OK && d->decals) r = gn_town_decals(t);
    if (r == GN_OK && d->particles) r = gn_town_particles(t, d->particles);
    if (r == GN_OK) gn_town_cameras(t);
    gn_mg_free(&t->mg);
    gn_mg_free(&t->mg2);
    free(t);
    return r;
}

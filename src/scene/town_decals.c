/* The town's decals (issue 20; docs/EFFECTS.md, "Decals"): dashed centre lines on the streets,
 * puddles on the cobbles and posters on house walls beside lit ground-floor windows, each a
 * screen-space decal (gn_scene_add_decal) with a texture made here. Added only when asked for
 * (gn_builtin_desc.decals), after everything else, from a generator of their own: the town
 * draws the same random numbers with or without them, so without them it is what it always
 * was. Placed on the sites the town recorded (its street centre lines and lit windows), so this
 * file needs nothing of the houses' layout. */
#include "base/alloc.h"
#include "base/gmath.h"
#include "scene/town.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEX 128u                  /* every decal texture's side */
#define DASH_EVERY 2u             /* a centre-line dash at every other street site (4 m apart) */
#define DASH_CLEAR 7.0f           /* metres from a crossing's centre kept free of dashes */
#define PUDDLES_PER_KM 40.0f      /* puddles a kilometre of street */
#define POSTER_SHARE 0.6f         /* of the lit ground-floor windows, those with a poster beside */
#define GN_DECAL_SEED 0x0dec4153u /* the decals' own generator, apart from the town's */
#define POSTER_KINDS 3

/* A box for a decal: centre c, its local +X along x (unit, horizontal), local +Z along z (unit),
 * sizes sx, sy, sz; local +Y completes a right-handed frame (z cross x). */
static void box(float m[16], const float c[3], const float x[3], const float z[3], float sx, float sy,
                float sz)
{
    float y[3] = {z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]};
    const float r[16] = {x[0] * sx, x[1] * sx, x[2] * sx, 0, y[0] * sy, y[1] * sy, y[2] * sy, 0,
                         z[0] * sz, z[1] * sz, z[2] * sz, 0, c[0],      c[1],      c[2],      1};
    memcpy(m, r, sizeof r);
}

/* Value noise in [0, 1) on a lattice of `cells` a side, tiling over the texture. */
static float lattice(uint32_t seed, int cells, float u, float v)
{
    float x = u * (float)cells, y = v * (float)cells;
    int x0 = (int)floorf(x), y0 = (int)floorf(y);
    float fx = x - (float)x0, fy = y - (float)y0;
    float c[4];
    for (int k = 0; k < 4; k++) {
        uint32_t h = seed ^ (uint32_t)(((x0 + (k & 1)) % cells + cells) % cells) * 0x9e3779b1u ^
                     (uint32_t)(((y0 + (k >> 1)) % cells + cells) % cells) * 0x85ebca77u;
        h ^= h >> 15, h *= 0x2c1b3c6du, h ^= h >> 12, h *= 0x297a2d39u, h ^= h >> 15;
        c[k] = (float)(h >> 8) * (1.0f / 16777216.0f);
    }
    fx = fx * fx * (3 - 2 * fx), fy = fy * fy * (3 - 2 * fy);
    return (c[0] * (1 - fx) + c[1] * fx) * (1 - fy) + (c[2] * (1 - fx) + c[3] * fx) * fy;
}

static float noise2(uint32_t seed, float u, float v)
{
    return 0.6f * lattice(seed, 8, u, v) + 0.4f * lattice(seed + 7u, 32, u, v);
}

static void texel(uint8_t *p, float r, float g, float b, float a)
{
    const float c[4] = {r, g, b, a};
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(255.0f * fminf(fmaxf(c[i], 0.0f), 1.0f) + 0.5f);
}

/* A worn white paint stripe: alpha falls below the test where the noise wears it through. */
static void make_dash(uint8_t *px)
{
    for (uint32_t y = 0; y < TEX; y++)
        for (uint32_t x = 0; x < TEX; x++) {
            float u = (x + 0.5f) / TEX, v = (y + 0.5f) / TEX, n = noise2(11u, u, v);
            texel(px + 4 * (y * TEX + x), 0.86f, 0.85f, 0.80f, n < 0.28f ? 0.3f : 0.95f);
        }
}

/* A puddle: a dark wet film over a blob whose outline the noise bends; alpha 0 outside it. */
static void make_puddle(uint8_t *px)
{
    for (uint32_t y = 0; y < TEX; y++)
        for (uint32_t x = 0; x < TEX; x++) {
            float u = (x + 0.5f) / TEX - 0.5f, v = (y + 0.5f) / TEX - 0.5f;
            float r = sqrtf(u * u + v * v) * 2.0f + 0.5f * (noise2(23u, u + 0.5f, v + 0.5f) - 0.5f);
            float a = r < 0.8f ? 0.85f : r < 0.9f ? 0.85f * (0.9f - r) * 10.0f : 0.0f;
            texel(px + 4 * (y * TEX + x), 0.10f, 0.11f, 0.12f, a);
        }
}

/* A poster: paper of a kind's colour, a picture block, lines of "text", frayed edges. */
static void make_poster(uint8_t *px, int kind)
{
    static const float paper[POSTER_KINDS][3] = {
        {0.92f, 0.86f, 0.70f}, {0.85f, 0.25f, 0.20f}, {0.25f, 0.45f, 0.70f}};
    static const float ink[POSTER_KINDS][3] = {
        {0.15f, 0.12f, 0.10f}, {0.98f, 0.90f, 0.70f}, {0.95f, 0.85f, 0.30f}};
    uint32_t seed = 31u + 17u * (uint32_t)kind;
    for (uint32_t y = 0; y < TEX; y++)
        for (uint32_t x = 0; x < TEX; x++) {
            float u = (x + 0.5f) / TEX, v = (y + 0.5f) / TEX, n = noise2(seed, u, v);
            float edge = fminf(fminf(u, 1 - u), fminf(v, 1 - v)) + 0.04f * (n - 0.5f);
            const float *c = paper[kind];
            bool picture = u > 0.15f && u < 0.85f && v > 0.12f && v < 0.5f;
            bool line = v > 0.58f && v < 0.9f && fmodf(v * 18.0f, 1.0f) < 0.45f && u > 0.15f &&
                        u < 0.85f - 0.3f * lattice(seed + 3u, 16, 0.5f, v);
            float shade = 0.9f + 0.2f * n;
            float rgb[3];
            for (int i = 0; i < 3; i++)
                rgb[i] = (picture ? ink[kind][i] * (0.5f + 0.8f * lattice(seed + 5u, 4, u, v))
                          : line  ? ink[kind][i]
                                  : c[i]) *
                         shade;
            texel(px + 4 * (y * TEX + x), rgb[0], rgb[1], rgb[2], edge < 0.02f ? 0.0f : 1.0f);
        }
}

static gn_result add_texture(gn_town *t, const uint8_t *px, const char *label, uint32_t *id)
{
    gn_texture_desc d = {TEX, TEX, px, true, label};
    return gn_scene_add_texture(t->s, &d, id, t->err);
}

/* Adds a decal while the scene has room for one: a large town (--scale 8 has some 7,000) stops
 * at the scene's cap rather than failing to build; what is left out is the last placed (posters
 * of the outer streets). */
static gn_result add(gn_town *t, const float m[16], uint32_t texture, float roughness, float opacity)
{
    if (t->s->decal_count >= GN_MAX_DECALS) return GN_OK;
    gn_decal_desc d = {.base_color_texture = texture, .roughness = roughness, .opacity = opacity};
    memcpy(d.transform, m, sizeof d.transform);
    return gn_scene_add_decal(t->s, &d, NULL, t->err);
}

gn_result gn_town_decals(gn_town *t)
{
    uint8_t *px = gn_malloc((size_t)TEX * TEX * 4);
    if (!px) return gn_fail(t->err, GN_ERROR_OUT_OF_MEMORY, "town: out of memory for decal textures");
    uint32_t dash = 0, puddle = 0, poster[POSTER_KINDS] = {0};
    make_dash(px);
    gn_result r = add_texture(t, px, "town/decal.dash", &dash);
    make_puddle(px);
    if (r == GN_OK) r = add_texture(t, px, "town/decal.puddle", &puddle);
    for (int k = 0; k < POSTER_KINDS && r == GN_OK; k++) {
        char label[48];
        snprintf(label, sizeof label, "town/decal.poster%d", k);
        make_poster(px, k);
        r = add_texture(t, px, label, &poster[k]);
    }
    free(px);
    gn_rng rng = gn_rng_seed((uint64_t)t->seed * 0x9e3779b97f4a7c15ull ^ GN_DECAL_SEED);
    const float up[3] = {0, 1, 0}, P = GN_TOWN_STREET_PITCH;
    uint32_t street = 0;
    const gn_scene *s = t->s;
    /* the street sites: a dash at every other one clear of the crossings, puddles at random */
    float puddle_chance = PUDDLES_PER_KM * 4.0f / 1000.0f; /* sites are 4 m apart */
    for (uint32_t i = 0; i < s->light_site_count && r == GN_OK; i++) {
        const gn_light_site site = s->light_sites[i];
        if (site.kind != GN_LIGHT_SITE_STREET) continue;
        float along = site.dir[0] != 0 ? site.pos[0] : site.pos[2];
        float m[16];
        if (street++ % DASH_EVERY == 0 && fabsf(along - P * roundf(along / P)) > DASH_CLEAR) {
            box(m, site.pos, site.dir, up, 2.0f, 0.15f, 0.6f);
            r = add(t, m, dash, 0.6f, 0);
        }
        if (r == GN_OK && gn_rng_float(&rng) < puddle_chance) {
            float across = gn_rng_range(&rng, -3.0f, 3.0f), size = gn_rng_range(&rng, 1.0f, 2.6f);
            float yaw = gn_rng_range(&rng, 0, 2 * GN_PI);
            float side[3] = {site.dir[2], 0, -site.dir[0]}, x[3] = {cosf(yaw), 0, sinf(yaw)};
            float c[3] = {site.pos[0] + side[0] * across, 0, site.pos[2] + side[2] * across};
            c[1] = gn_town_height(t, c[0], c[2]);
            box(m, c, x, up, size, size * gn_rng_range(&rng, 0.6f, 1.0f), 0.6f);
            r = add(t, m, puddle, 0.05f, 0);
        }
    }
    /* posters on the wall beside a lit ground-floor window (windows are 2.6 m or more apart) */
    for (uint32_t i = 0; i < s->light_site_count && r == GN_OK; i++) {
        const gn_light_site site = s->light_sites[i];
        if (site.kind != GN_LIGHT_SITE_WINDOW ||
            site.pos[1] - gn_town_height(t, site.pos[0], site.pos[2]) > 3.0f)
            continue;
        if (gn_rng_float(&rng) >= POSTER_SHARE) continue;
        float side = gn_rng_float(&rng) < 0.5f ? -1.3f : 1.3f;
        const float *n = site.dir;
        float x[3] = {n[2], 0, -n[0]}; /* up cross n: local +X along the wall */
        float c[3] = {site.pos[0] + x[0] * side, site.pos[1] - 0.15f, site.pos[2] + x[2] * side};
        float m[16];
        box(m, c, x, n, 0.7f, 1.0f, 0.5f);
        r = add(t, m, poster[gn_rng_below(&rng, POSTER_KINDS)], 0.9f, 0);
    }
    return r;
}

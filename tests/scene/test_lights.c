/* Local lights in the scene: validation and defaults, set/get, the light generation, and the
 * built-in town's lights (exact counts, determinism, placement on lamps and windows, inside
 * the scene, moving lights that move while the rest stay put). */
#include "scene/scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene_check.h"

static const float lamp_glow[3] = {12000.0f, 8700.0f, 4300.0f}; /* town.c's lamp glass emissive, nits */
static const float window_glow[3] = {150.0f, 95.0f, 38.0f};     /* town.c's lit window emissive, nits */

static float dist3(const float a[3], const float b[3])
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

static gn_light_desc point(float x, float y, float z, float radius)
{
    return (gn_light_desc){.type = GN_LIGHT_POINT, .position = {x, y, z}, .radius = radius, .intensity = 1};
}

static int test_validation(void)
{
    gn_scene *s;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK, "%s", e.message);
    gn_light_desc d = point(0, 1, 0, 0);
    gn_result r = gn_scene_add_light(s, &d, NULL, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "light 0") && strstr(e.message, "radius"),
          "radius 0: %s: %s", gn_result_name(r), e.message);
    d.radius = INFINITY;
    CHECK(gn_scene_add_light(s, &d, NULL, &e) == GN_ERROR_INVALID_ARGUMENT, "infinite radius accepted");
    d = point(0, NAN, 0, 5);
    r = gn_scene_add_light(s, &d, NULL, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "position"), "NaN position: %s", e.message);
    d = point(0, 1, 0, 5);
    d.direction[2] = NAN;
    CHECK(gn_scene_add_light(s, &d, NULL, &e) == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "direction"),
          "NaN direction: %s", e.message);
    d = point(0, 1, 0, 5);
    d.intensity = -1;
    CHECK(gn_scene_add_light(s, &d, NULL, &e) == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "intensity"),
          "negative intensity: %s", e.message);
    d.intensity = NAN;
    CHECK(gn_scene_add_light(s, &d, NULL, &e) == GN_ERROR_INVALID_ARGUMENT, "NaN intensity accepted");
    d = point(0, 1, 0, 5);
    d.type = (gn_light_type)7;
    CHECK(gn_scene_add_light(s, &d, NULL, &e) == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "type"),
          "type 7: %s", e.message);
    d = point(0, 1, 0, 5);
    d.color[1] = -0.5f;
    CHECK(gn_scene_add_light(s, &d, NULL, &e) == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "color"),
          "negative colour: %s", e.message);
    CHECK(gn_scene_light_count(s) == 0 && s->light_generation == 0, "rejected lights left %u lights",
          gn_scene_light_count(s));

    /* GN_MAX_LIGHTS fit; one more does not, and names the light it would have been. */
    d = point(0, 1, 0, 5);
    for (uint32_t i = 0; i < GN_MAX_LIGHTS; i++) {
        uint32_t id = 0;
        CHECK(gn_scene_add_light(s, &d, &id, &e) == GN_OK && id == i, "light %u: %s", i, e.message);
    }
    r = gn_scene_add_light(s, &d, NULL, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "16384"), "light 16385: %s: %s",
          gn_result_name(r), e.message);
    CHECK(gn_scene_light_count(s) == GN_MAX_LIGHTS, "count %u", gn_scene_light_count(s));
    CHECK(gn_scene_add_builtin_lights(s, 1, 1, &e) == GN_ERROR_INVALID_ARGUMENT, "builtin over the limit");
    CHECK(gn_scene_add_builtin_lights(NULL, 1, 1, &e) == GN_ERROR_INVALID_ARGUMENT, "NULL scene");
    gn_scene_destroy(s);

    /* No instances: built-in lights have nothing to light. */
    CHECK(gn_scene_create(&s, &e) == GN_OK, "%s", e.message);
    r = gn_scene_add_builtin_lights(s, 8, 1, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "empty"), "empty scene: %s", e.message);
    CHECK(gn_scene_light_count(s) == 0, "a failed builtin left %u lights", gn_scene_light_count(s));
    gn_scene_destroy(s);
    return 0;
}

static int test_defaults_and_set(void)
{
    gn_scene *s;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK, "%s", e.message);
    gn_light_desc d = {.type = GN_LIGHT_SPOT, .position = {1, 2, 3}, .radius = 4, .intensity = 2};
    uint32_t a, b, c;
    CHECK(gn_scene_add_light(s, &d, &a, &e) == GN_OK, "%s", e.message);
    gn_light_desc o;
    CHECK(gn_scene_get_light(s, a, &o, &e) == GN_OK, "%s", e.message);
    CHECK(o.color[0] == 1 && o.color[1] == 1 && o.color[2] == 1, "zero colour read as %g %g %g", o.color[0],
          o.color[1], o.color[2]);
    CHECK(o.direction[0] == 0 && o.direction[1] == -1 && o.direction[2] == 0,
          "zero direction read as %g %g %g", o.direction[0], o.direction[1], o.direction[2]);
    CHECK(o.inner_angle == 20 && o.outer_angle == 30, "default angles %g %g", o.inner_angle, o.outer_angle);
    CHECK(o.position[2] == 3 && o.radius == 4 && o.intensity == 2 && o.type == GN_LIGHT_SPOT,
          "copied fields");

    d = (gn_light_desc){.type = GN_LIGHT_SPOT,
                        .radius = 1,
                        .direction = {3e-30f, 0, 4e-30f},
                        .color = {0.5f, 0, 0},
                        .inner_angle = 40,
                        .outer_angle = 120};
    CHECK(gn_scene_add_light(s, &d, &b, &e) == GN_OK, "%s", e.message);
    gn_scene_get_light(s, b, &o, NULL);
    CHECK(fabsf(o.direction[0] - 0.6f) < 1e-6f && fabsf(o.direction[2] - 0.8f) < 1e-6f,
          "tiny direction normalised to %g %g %g", o.direction[0], o.direction[1], o.direction[2]);
    CHECK(o.outer_angle == 89 && o.inner_angle == 40, "outer 120 clamped to %g, inner %g", o.outer_angle,
          o.inner_angle);
    CHECK(o.color[0] == 0.5f && o.color[1] == 0 && o.color[2] == 0, "red stays red");

    d = (gn_light_desc){.type = GN_LIGHT_SPOT, .radius = 1, .inner_angle = 40, .outer_angle = 30};
    CHECK(gn_scene_add_light(s, &d, &c, &e) == GN_OK, "%s", e.message);
    gn_scene_get_light(s, c, &o, NULL);
    CHECK(o.inner_angle < o.outer_angle && fabsf(o.inner_angle - 20) < 1e-4f && o.outer_angle == 30,
          "inner 40 outer 30 became %g %g", o.inner_angle, o.outer_angle);

    uint32_t lg = s->light_generation, g = s->generation, dg = s->dynamic_generation;
    d = point(7, 8, 9, 10);
    CHECK(gn_scene_set_light(s, b, &d, &e) == GN_OK, "%s", e.message);
    CHECK(s->light_generation != lg && s->generation == g && s->dynamic_generation == dg,
          "set_light: light generation %u -> %u, geometry %u -> %u", lg, s->light_generation, g,
          s->generation);
    gn_scene_get_light(s, b, &o, NULL);
    CHECK(o.position[0] == 7 && o.radius == 10 && o.type == GN_LIGHT_POINT, "set_light did not take");
    lg = s->light_generation;
    d.radius = -1;
    gn_result r = gn_scene_set_light(s, b, &d, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "light 1"), "bad set: %s", e.message);
    gn_scene_get_light(s, b, &o, NULL);
    CHECK(o.radius == 10 && s->light_generation == lg, "a rejected set changed the light");
    d.radius = 1;
    CHECK(gn_scene_set_light(s, 3, &d, &e) == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "light 3"),
          "set of light 3 of 3: %s", e.message);
    CHECK(gn_scene_get_light(s, 3, &o, &e) == GN_ERROR_INVALID_ARGUMENT, "get of light 3 of 3");
    CHECK(gn_scene_light_count(NULL) == 0, "count of NULL");
    gn_scene_destroy(s);
    return 0;
}

/* A scene that is not the town: lights scattered over its bounds. */
static int test_scatter(void)
{
    gn_scene *s;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK, "%s", e.message);
    const float pos[] = {-10, 0, -5, 10, 0, -5, 10, 6, 5, -10, 6, 5};
    const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
    gn_mesh_desc md = {.positions = pos, .vertex_count = 4, .indices = idx, .index_count = 6};
    gn_material_desc mat = {0};
    gn_instance_desc in = {0};
    CHECK(gn_scene_add_mesh(s, &md, &in.mesh, &e) == GN_OK, "%s", e.message);
    CHECK(gn_scene_add_material(s, &mat, &in.material, &e) == GN_OK, "%s", e.message);
    CHECK(gn_scene_add_instance(s, &in, NULL, &e) == GN_OK, "%s", e.message);
    CHECK(gn_scene_add_builtin_lights(s, 100, 3, &e) == GN_OK, "%s", e.message);
    CHECK(gn_scene_light_count(s) == 100, "%u lights", gn_scene_light_count(s));
    for (uint32_t i = 0; i < 100; i++) {
        const float *p = s->lights[i].position;
        CHECK(p[0] >= -10 && p[0] <= 10 && p[1] >= 0 && p[1] <= 6 && p[2] >= -5 && p[2] <= 5,
              "scattered light %u at %g %g %g", i, p[0], p[1], p[2]);
        CHECK(s->light_origin[i] == GN_LIGHT_FROM_SCATTER, "origin %u", s->light_origin[i]);
    }
    gn_scene_destroy(s);
    return 0;
}

/* ---- the town -------------------------------------------------------------------------- */

static bool same_emissive(const gn_scene *s, uint32_t material, const float e[3])
{
    const float *m = s->materials[material].emissive;
    return m[0] == e[0] && m[1] == e[1] && m[2] == e[2];
}

/* Distance from p to the nearest world sphere centre of an instance with emissive e. */
static float nearest_glow(const gn_scene *s, const float p[3], const float e[3])
{
    float best = INFINITY;
    for (uint32_t i = 0; i < s->instance_count; i++)
        if (same_emissive(s, s->instances[i].material, e))
            best = fminf(best, dist3(p, s->instances[i].sphere));
    return best;
}

static uint64_t light_hash(const gn_scene *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < s->light_count; i++) {
        const gn_light_desc *d = &s->lights[i];
        /* Field by field: struct padding is not part of a light. */
        float f[16] = {(float)d->type,
                       d->position[0],
                       d->position[1],
                       d->position[2],
                       d->direction[0],
                       d->direction[1],
                       d->direction[2],
                       d->radius,
                       d->color[0],
                       d->color[1],
                       d->color[2],
                       d->intensity,
                       d->inner_angle,
                       d->outer_angle,
                       (float)d->cast_shadows,
                       (float)s->light_origin[i]};
        const uint8_t *b = (const uint8_t *)f;
        for (size_t k = 0; k < sizeof f; k++) h = (h ^ b[k]) * 0x100000001b3ull;
    }
    return h;
}

typedef struct kinds {
    uint32_t n[6], spots, shadowed;
} kinds;

static kinds count_kinds(const gn_scene *s)
{
    kinds k = {{0}, 0, 0};
    for (uint32_t i = 0; i < s->light_count; i++) {
        k.n[s->light_origin[i]]++;
        k.spots += s->lights[i].type == GN_LIGHT_SPOT;
        k.shadowed += s->lights[i].cast_shadows;
    }
    return k;
}

/* Sites match the instances the generator put down: one per lamp head, one per lit window. */
static int check_sites(const gn_scene *s, uint32_t *lamps, uint32_t *windows)
{
    uint32_t heads = 0, lit = 0;
    for (uint32_t i = 0; i < s->instance_count; i++) {
        heads += same_emissive(s, s->instances[i].material, lamp_glow);
        lit += same_emissive(s, s->instances[i].material, window_glow);
    }
    *lamps = *windows = 0;
    for (uint32_t i = 0; i < s->light_site_count; i++) {
        const gn_light_site *site = &s->light_sites[i];
        if (site->kind == GN_LIGHT_SITE_LAMP) {
            (*lamps)++;
            float d = nearest_glow(s, site->pos, lamp_glow);
            CHECK(d < 0.5f, "lamp site %u is %g m from the nearest lamp head", i, d);
        }
        if (site->kind == GN_LIGHT_SITE_WINDOW) {
            (*windows)++;
            float d = nearest_glow(s, site->pos, window_glow);
            CHECK(d < 0.05f, "window site %u is %g m from the nearest lit window", i, d);
        }
    }
    CHECK(*lamps == heads && *windows == lit,
          "%u lamp sites for %u heads, %u window sites for %u lit windows", *lamps, heads, *windows, lit);
    return 0;
}

static int check_builtin(gn_scene *s, uint32_t count, uint32_t site_lamps, uint32_t site_windows)
{
    gn_error e = {0};
    gn_scene_truncate_lights(s, 0, 0);
    gn_scene_animate(s, 0.0);
    CHECK(gn_scene_add_builtin_lights(s, count, 7, &e) == GN_OK, "count %u: %s", count, e.message);
    CHECK(gn_scene_light_count(s) == count, "asked for %u lights, got %u", count, gn_scene_light_count(s));
    kinds k = count_kinds(s);
    printf("  %5u lights: %4u lamps (%u spots), %4u windows, %2u movers, %5u festival; %u cast shadows\n",
           count, k.n[GN_LIGHT_FROM_LAMP], k.spots, k.n[GN_LIGHT_FROM_WINDOW], k.n[GN_LIGHT_FROM_MOVER],
           k.n[GN_LIGHT_FROM_FESTIVAL], k.shadowed);
    /* The priority: movers count / 8 (at most 16), then lamps, then windows, then festival. */
    uint32_t movers = count / 8 < 16 ? count / 8 : 16;
    CHECK(k.n[GN_LIGHT_FROM_MOVER] == movers, "%u movers, expected %u", k.n[GN_LIGHT_FROM_MOVER], movers);
    uint32_t lamps = count - movers < site_lamps ? count - movers : site_lamps;
    CHECK(k.n[GN_LIGHT_FROM_LAMP] == lamps, "%u lamps, expected %u", k.n[GN_LIGHT_FROM_LAMP], lamps);
    uint32_t windows = count - movers - lamps < site_windows ? count - movers - lamps : site_windows;
    CHECK(k.n[GN_LIGHT_FROM_WINDOW] == windows, "%u windows, expected %u", k.n[GN_LIGHT_FROM_WINDOW],
          windows);
    CHECK(k.shadowed == lamps, "%u shadowed lights for %u lamps", k.shadowed, lamps);

    /* Same seed, same lights. */
    uint64_t h = light_hash(s);
    gn_scene_truncate_lights(s, 0, 0);
    CHECK(gn_scene_add_builtin_lights(s, count, 7, &e) == GN_OK, "%s", e.message);
    CHECK(light_hash(s) == h, "count %u: seed 7 twice gave different lights", count);

    gn_scene_info info;
    gn_scene_get_info(s, &info);
    const float margin = 2.0f;
    for (uint32_t i = 0; i < count; i++) {
        const gn_light_desc *d = &s->lights[i];
        for (int a = 0; a < 3; a++)
            CHECK(d->position[a] >= info.bounds_min[a] - margin &&
                      d->position[a] <= info.bounds_max[a] + margin,
                  "light %u (origin %u) at %g %g %g is outside the scene", i, s->light_origin[i],
                  d->position[0], d->position[1], d->position[2]);
        CHECK(d->radius > 0 && d->intensity > 0, "light %u radius %g intensity %g", i, d->radius,
              d->intensity);
        if (s->light_origin[i] == GN_LIGHT_FROM_LAMP) {
            float dd = nearest_glow(s, d->position, lamp_glow);
            CHECK(dd < 1.0f, "lamp light %u is %g m from the nearest lamp head", i, dd);
            CHECK(d->radius >= 12 && d->radius <= 15 && d->cast_shadows, "lamp light %u radius %g", i,
                  d->radius);
            CHECK(d->type == GN_LIGHT_POINT ||
                      (d->direction[1] < -0.99f && d->outer_angle >= 45 && d->outer_angle <= 60),
                  "lamp spot %u: axis y %g, outer %g", i, d->direction[1], d->outer_angle);
        }
        if (s->light_origin[i] == GN_LIGHT_FROM_WINDOW) {
            float dd = nearest_glow(s, d->position, window_glow);
            CHECK(dd < 1.0f, "window light %u is %g m from the nearest lit window", i, dd);
            CHECK(d->radius >= 4 && d->radius <= 6 && !d->cast_shadows, "window light %u", i);
        }
    }

    /* Movers move, with their instances where attached; nothing else does. */
    static float before[GN_MAX_LIGHTS][3];
    for (uint32_t i = 0; i < count; i++) memcpy(before[i], s->lights[i].position, sizeof before[i]);
    uint32_t lg = s->light_generation;
    gn_scene_animate(s, 4.0);
    CHECK(movers == 0 || s->light_generation != lg, "animate did not bump the light generation");
    for (uint32_t i = 0; i < count; i++) {
        float moved = dist3(before[i], s->lights[i].position);
        if (s->light_origin[i] == GN_LIGHT_FROM_MOVER)
            CHECK(moved > 0.5f, "mover %u moved %g m in 4 s", i, moved);
        else
            CHECK(moved == 0.0f, "light %u (origin %u) moved %g m", i, s->light_origin[i], moved);
    }
    for (uint32_t m = 0; m < s->light_motion_count; m++) {
        const gn_light_motion *mo = &s->light_motions[m];
        if (mo->instance == GN_LIGHT_NONE) continue;
        const float *t = s->instances[mo->instance].transform;
        float off = sqrtf(mo->offset[0] * mo->offset[0] + mo->offset[1] * mo->offset[1] +
                          mo->offset[2] * mo->offset[2]);
        float dd = dist3(&t[12], s->lights[mo->light].position);
        CHECK(fabsf(dd - off) < 1e-3f, "attached light %u is %g m from its instance, offset %g", mo->light,
              dd, off);
    }
    gn_scene_get_info(s, &info);
    for (uint32_t i = 0; i < count; i++)
        for (int a = 0; a < 3; a++)
            CHECK(s->lights[i].position[a] >= info.bounds_min[a] - margin &&
                      s->lights[i].position[a] <= info.bounds_max[a] + margin,
                  "after animate, light %u is outside the scene", i);
    return 0;
}

static int test_town(void)
{
    gn_scene *s;
    gn_error e = {0};
    gn_builtin_desc bd = {.name = "town", .seed = 1, .scale = 1};
    CHECK(gn_scene_create_builtin(&bd, &s, &e) == GN_OK, "%s", e.message);
    uint32_t lamps, windows;
    if (check_sites(s, &lamps, &windows)) return 1;
    printf("town sites: %u lamps, %u lit windows, %u in all\n", lamps, windows, s->light_site_count);
    const uint32_t counts[] = {16, 256, 1024, 4096, 16384};
    for (int i = 0; i < 5; i++)
        if (check_builtin(s, counts[i], lamps, windows)) return 1;

    /* 16 lights: the lamps nearest the plaza, so a default view sees them. */
    gn_scene_truncate_lights(s, 0, 0);
    CHECK(gn_scene_add_builtin_lights(s, 16, 1, &e) == GN_OK, "%s", e.message);
    for (uint32_t i = 0; i < 16; i++) {
        float dx = s->lights[i].position[0] - s->light_focus[0],
              dz = s->lights[i].position[2] - s->light_focus[2];
        CHECK(sqrtf(dx * dx + dz * dz) < 120.0f, "light %u of 16 is %g m from the plaza", i,
              sqrtf(dx * dx + dz * dz));
    }
    /* Another seed changes the choice of windows and the movers' colours. */
    gn_scene_truncate_lights(s, 0, 0);
    CHECK(gn_scene_add_builtin_lights(s, 1024, 1, &e) == GN_OK, "%s", e.message);
    uint64_t h1 = light_hash(s);
    gn_scene_truncate_lights(s, 0, 0);
    CHECK(gn_scene_add_builtin_lights(s, 1024, 2, &e) == GN_OK, "%s", e.message);
    CHECK(light_hash(s) != h1, "seeds 1 and 2 gave the same lights");

    /* Built-in lights append to the caller's; set_light takes a mover off its path. */
    uint32_t n = gn_scene_light_count(s), mover = GN_LIGHT_NONE;
    for (uint32_t i = 0; i < n && mover == GN_LIGHT_NONE; i++)
        if (s->light_origin[i] == GN_LIGHT_FROM_MOVER) mover = i;
    CHECK(mover != GN_LIGHT_NONE, "no mover at 1024");
    gn_light_desc d = point(1, 20, 1, 10);
    CHECK(gn_scene_set_light(s, mover, &d, &e) == GN_OK, "%s", e.message);
    gn_scene_animate(s, 9.0);
    CHECK(s->lights[mover].position[1] == 20, "a set light was moved by animate");
    CHECK(gn_scene_add_builtin_lights(s, 2000, 1, &e) == GN_OK && gn_scene_light_count(s) == n + 2000,
          "appending 2000: %u lights (%s)", gn_scene_light_count(s), e.message);
    gn_scene_destroy(s);
    return 0;
}

int main(void)
{
    int f = 0;
    f += test_validation();
    f += test_defaults_and_set();
    f += test_scatter();
    f += test_town();
    if (!f) printf("scene_lights: ok\n");
    return f ? 1 : 0;
}

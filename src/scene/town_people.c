/* The town's people and the banners on its tower (issue 19; docs/ANIMATION.md): rigs of
 * figure.c's models. People walk closed loops round the blocks on the cobbles near the street's
 * edge, in lanes that never cross another loop's, and a few stand on the plaza; four banners hang
 * from poles under the tower's top cornice. Both are added only when people are asked for, so the
 * default town (and its golden images) stays exactly as it was. */
#include "base/gmath.h"
#include "scene/figure.h"
#include "scene/rig.h"
#include "scene/town.h"

#include <math.h>
#include <string.h>

#define GN_TOWN_MAX_PEOPLE 2048u /* each is two skinned meshes of its own: 36 KB of vertices */
#define GN_PEOPLE_MAX_LOOPS 96u
#define GN_PEOPLE_MAX_IDLE 16u /* round the tower's foot, clear of each other */
#define GN_PEOPLE_LANES 3
/* Metres from a street's centre line to a lane, on the block's side: 0.8 m apart, so people in
 * neighbouring lanes (0.52 m across at the hands) pass without touching, and the outer lane's
 * rounded corners (0.44 m further in at 45 degrees) still on the cobbles, 0.3 m inside the 4 m
 * half width: clear of the lamp posts at 4.7 m. */
static const float gn_people_lane[GN_PEOPLE_LANES] = {1.6f, 2.4f, 3.2f};
#define GN_PEOPLE_CORNER 1.5f    /* radius of a loop's rounded corners, metres */
#define GN_PEOPLE_CORNER_STEPS 6 /* a rig faces along its path's segments: it turns 15 degrees at a time */
#define GN_PEOPLE_STEP 2.0f      /* path points along a side: the terrain lattice's spacing */

/* gn_town_streets (town.c) drapes streets along X 0.06 m and along Z 0.08 m over the terrain
 * and the plaza 0.05 m; a person stands on the topmost. */
#define GN_STREET_X_LIFT 0.06f
#define GN_STREET_Z_LIFT 0.08f
#define GN_PLAZA_LIFT 0.05f

/* gn_town_tower's shaft (town_props.c): its half width and height above the plaza. */
#define GN_TOWER_HALF 3.5f
#define GN_TOWER_SHAFT 50.0f

/* The ground as drawn: gn_town_height at the corners of its 2 m lattice cell, interpolated over
 * the cell's two triangles (gn_mg_heightfield's diagonal runs from (x, z) to (x + 2, z + 2)). On
 * the plaza's rim the analytic surface bulges up to ~5 cm off these flat triangles; feet stand
 * on what is drawn. */
static float gn_town_ground(const gn_town *t, float x, float z)
{
    const float st = GN_TOWN_TERRAIN_STEP;
    float x0 = st * floorf(x / st), z0 = st * floorf(z / st), u = (x - x0) / st, v = (z - z0) / st;
    float h00 = gn_town_height(t, x0, z0), h11 = gn_town_height(t, x0 + st, z0 + st);
    if (u >= v) {
        float h10 = gn_town_height(t, x0 + st, z0);
        return h00 + u * (h10 - h00) + v * (h11 - h10);
    }
    float h01 = gn_town_height(t, x0, z0 + st);
    return h00 + v * (h01 - h00) + u * (h11 - h01);
}

static float gn_street_lift(float x, float z)
{
    const float P = GN_TOWN_STREET_PITCH, hw = GN_TOWN_STREET_HALF;
    float dx = fabsf(x - P * roundf(x / P)), dz = fabsf(z - P * roundf(z / P));
    return dx <= hw ? GN_STREET_Z_LIFT : dz <= hw ? GN_STREET_X_LIFT : 0.0f;
}

/* The loop round block (bi, bj) in a lane: a rectangle with rounded corners, points every
 * GN_PEOPLE_STEP or less on the street surface; `reverse` walks it the other way round. */
static uint32_t gn_people_loop_path(const gn_town *t, int bi, int bj, float lane, bool reverse, float *out)
{
    const float P = GN_TOWN_STREET_PITCH, rho = GN_PEOPLE_CORNER;
    const float x0 = P * (float)bi + lane, x1 = P * (float)(bi + 1) - lane;
    const float z0 = P * (float)bj + lane, z1 = P * (float)(bj + 1) - lane;
    const float corner[4][2] = {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
    uint32_t n = 0;
    for (int c = 0; c < 4; c++) {
        const float *a = corner[c], *b = corner[(c + 1) % 4], *next = corner[(c + 2) % 4];
        float len = fabsf(b[0] - a[0]) + fabsf(b[1] - a[1]);
        float u[2] = {(b[0] - a[0]) / len, (b[1] - a[1]) / len};
        float len2 = fabsf(next[0] - b[0]) + fabsf(next[1] - b[1]);
        float v[2] = {(next[0] - b[0]) / len2, (next[1] - b[1]) / len2};
        /* the straight from a + rho u to b - rho u, then a quarter circle to b + rho v */
        int steps = (int)ceilf((len - 2 * rho) / GN_PEOPLE_STEP);
        for (int i = 0; i < steps; i++) {
            float s = rho + (len - 2 * rho) * (float)i / (float)steps;
            out[n * 3] = a[0] + u[0] * s, out[n * 3 + 2] = a[1] + u[1] * s, n++;
        }
        float centre[2] = {b[0] - rho * u[0] + rho * v[0], b[1] - rho * u[1] + rho * v[1]};
        for (int i = 0; i < GN_PEOPLE_CORNER_STEPS; i++) {
            float f = 0.5f * GN_PI * (float)i / (float)GN_PEOPLE_CORNER_STEPS, cs = cosf(f), sn = sinf(f);
            out[n * 3] = centre[0] + rho * (-v[0] * cs + u[0] * sn);
            out[n * 3 + 2] = centre[1] + rho * (-v[1] * cs + u[1] * sn);
            n++;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        float *p = &out[i * 3];
        p[1] = gn_town_ground(t, p[0], p[2]) + gn_street_lift(p[0], p[2]);
    }
    for (uint32_t i = 0; reverse && i < n / 2; i++)
        for (int k = 0; k < 3; k++) {
            float tmp = out[i * 3 + k];
            out[i * 3 + k] = out[(n - 1 - i) * 3 + k], out[(n - 1 - i) * 3 + k] = tmp;
        }
    return n;
}

static float gn_path_length(const float *p, uint32_t n)
{
    float len = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float *a = &p[i * 3], *b = &p[((i + 1) % n) * 3];
        float d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        len += sqrtf(gn_vec3_dot(d, d));
    }
    return len;
}

typedef struct gn_people_loop {
    int bi, bj, lane;
    bool reverse;
    float speed;      /* m/s: everyone on a loop walks at its speed, so no one walks into anyone */
    uint32_t members; /* walkers on it */
} gn_people_loop;

/* Distinct (block, lane) pairs round the middle of town, drawn from the town's generator: the
 * blocks within R of the centre, R grown until there are enough pairs. */
static uint32_t gn_people_loops(gn_town *t, uint32_t want, gn_people_loop *loops)
{
    enum { R_MAX = 3, CANDIDATES = GN_PEOPLE_LANES * (2 * R_MAX) * (2 * R_MAX) };
    int R = 2;
    while ((uint32_t)(GN_PEOPLE_LANES * 4 * R * R) < want && R < t->K && R < R_MAX) R++;
    uint32_t cand[CANDIDATES], n = 0;
    for (int bj = -R; bj < R; bj++)
        for (int bi = -R; bi < R; bi++)
            for (int l = 0; l < GN_PEOPLE_LANES; l++)
                cand[n++] = (uint32_t)((bj + R) * 2 * R + (bi + R)) * GN_PEOPLE_LANES + (uint32_t)l;
    if (want > n) want = n;
    for (uint32_t i = 0; i < want; i++) {
        uint32_t j = i + gn_rng_below(&t->rng, n - i), c = cand[j];
        cand[j] = cand[i], cand[i] = c;
        uint32_t block = c / GN_PEOPLE_LANES;
        loops[i] = (gn_people_loop){.bi = (int)(block % (uint32_t)(2 * R)) - R,
                                    .bj = (int)(block / (uint32_t)(2 * R)) - R,
                                    .lane = (int)(c % GN_PEOPLE_LANES),
                                    .reverse = gn_rng_float(&t->rng) < 0.5f,
                                    .speed = GN_FIGURE_WALK_SPEED * gn_rng_range(&t->rng, 0.85f, 1.1f)};
    }
    return want;
}

/* Four figure models, one per clothing colour, sharing the two meshes. */
static gn_result gn_people_models(gn_town *t, uint32_t model[4])
{
    uint32_t skin;
    gn_material_desc md = {.base_color = {0.62f, 0.42f, 0.32f, 1}, .roughness = 0.6f, .label = "town/skin"};
    gn_result r = gn_scene_add_material(t->s, &md, &skin, t->err);
    const uint32_t clothes[4] = {t->m.fabric[0], t->m.fabric[1], t->m.shutter, t->m.wood};
    uint32_t meshes[2];
    for (int i = 0; i < 4 && r == GN_OK; i++) {
        gn_anim_model m;
        gn_figure_desc d = {.clothes = clothes[i],
                            .skin = skin,
                            .share_meshes = i ? meshes : NULL,
                            .detail = t->people_detail};
        r = gn_figure_model(t->s, &d, &m, t->err);
        if (r != GN_OK) break;
        meshes[0] = m.parts[0].mesh, meshes[1] = m.parts[1].mesh;
        r = gn_scene_add_anim_model(t->s, &m, &model[i], t->err);
        gn_anim_model_free(&m); /* zeroed when the scene took it */
    }
    return r;
}

/* People standing on the plaza round the tower's foot: outside its plinth (4.5 m), inside the
 * carts' circles (15 and 20 m), spread round so that no two stand together. */
static gn_result gn_people_idle(gn_town *t, const uint32_t model[4], uint32_t idle)
{
    gn_result r = GN_OK;
    for (uint32_t i = 0; i < idle && r == GN_OK; i++) {
        float a = 2 * GN_PI * ((float)i + gn_rng_range(&t->rng, 0, 0.6f)) / (float)idle;
        float radius = gn_rng_range(&t->rng, 7.5f, 11.5f);
        float x = t->tower[0] + radius * cosf(a), z = t->tower[1] + radius * sinf(a);
        float yaw = gn_rng_range(&t->rng, 0, 2 * GN_PI), scale = gn_rng_range(&t->rng, 0.93f, 1.07f);
        uint32_t m = gn_rng_below(&t->rng, 4);
        gn_rig_desc d = {.clip = GN_FIGURE_CLIP_IDLE,
                         .time_offset = gn_rng_range(&t->rng, 0, GN_FIGURE_IDLE_PERIOD),
                         .mode = GN_SKIN_LINEAR};
        gn_town_xf(d.transform, x, gn_town_ground(t, x, z) + GN_PLAZA_LIFT, z, yaw, scale, scale, scale);
        r = gn_scene_add_rig(t->s, model[m], &d, NULL, t->err);
    }
    return r;
}

gn_result gn_town_people(gn_town *t, uint32_t count)
{
    if (count == 0) return GN_OK; /* nothing added and nothing drawn from t->rng */
    if (count > GN_TOWN_MAX_PEOPLE)
        return gn_fail(t->err, GN_ERROR_INVALID_ARGUMENT, "town: %u people, over the cap of %u", count,
                       GN_TOWN_MAX_PEOPLE);
    uint32_t model[4];
    gn_result r = gn_people_models(t, model);
    if (r != GN_OK) return r;
    uint32_t idle = count / 6 < GN_PEOPLE_MAX_IDLE ? count / 6 : GN_PEOPLE_MAX_IDLE, walkers = count - idle;
    gn_people_loop loops[GN_PEOPLE_MAX_LOOPS];
    uint32_t want = (walkers + 2) / 3 < GN_PEOPLE_MAX_LOOPS ? (walkers + 2) / 3 : GN_PEOPLE_MAX_LOOPS;
    uint32_t nloops = walkers ? gn_people_loops(t, want, loops) : 0;
    for (uint32_t i = 0; i < nloops; i++) loops[i].members = 0;
    for (uint32_t i = 0; i < walkers; i++) loops[i % nloops].members++;
    float path[GN_RIG_MAX_PATH * 3];
    for (uint32_t i = 0; i < walkers && r == GN_OK; i++) {
        const gn_people_loop *L = &loops[i % nloops];
        uint32_t n = gn_people_loop_path(t, L->bi, L->bj, gn_people_lane[L->lane], L->reverse, path);
        float len = gn_path_length(path, n), slot = (float)(i / nloops);
        float scale = gn_rng_range(&t->rng, 0.93f, 1.07f);
        /* evenly spread round the loop, a little jittered; the clip's rate follows the loop's
           speed and the person's size, so the stride matches the ground covered */
        gn_rig_desc d = {.clip = GN_FIGURE_CLIP_WALK,
                         .time_offset = gn_rng_range(&t->rng, 0, GN_FIGURE_WALK_PERIOD),
                         .speed = L->speed / (GN_FIGURE_WALK_SPEED * scale),
                         .mode = GN_SKIN_LINEAR,
                         .path = path,
                         .path_count = n,
                         .path_speed = L->speed,
                         .path_offset = (slot + gn_rng_range(&t->rng, 0, 0.5f)) * len / (float)L->members,
                         .scale = scale};
        r = gn_scene_add_rig(t->s, model[gn_rng_below(&t->rng, 4)], &d, NULL, t->err);
    }
    if (r == GN_OK) r = gn_people_idle(t, model, idle);
    return r;
}

/* ---- banners -------------------------------------------------------------------------------- */
gn_result gn_town_banners(gn_town *t)
{
    /* An iron pole out of the middle of each face, 3 m under the shaft's top: the cloth hangs from
       it along its length, perpendicular to the wall, so the wave (along the wall) never reaches
       the brick. */
    const float plo[3] = {-0.3f, -0.02f, -0.04f}, phi[3] = {0.6f + GN_BANNER_WIDTH, 0.06f, 0.04f};
    uint32_t pole = GN_TOWN_NONE;
    GN_TOWN_LAZY(pole, "town/banner_pole", gn_mg_box(&t->mg, plo, phi));
    uint32_t model[2], mesh = 0;
    gn_result r = GN_OK;
    for (int i = 0; i < 2 && r == GN_OK; i++) {
        gn_anim_model m;
        r = gn_banner_model(t->s, t->m.fabric[i], i ? &mesh : NULL, &m, t->err);
        if (r != GN_OK) break;
        mesh = m.parts[0].mesh;
        r = gn_scene_add_anim_model(t->s, &m, &model[i], t->err);
        gn_anim_model_free(&m);
    }
    const float y = t->plaza_h + GN_TOWER_SHAFT - 3.0f;
    for (int i = 0; i < 4 && r == GN_OK; i++) {
        /* face i's outward normal; the banner's local +X along it */
        float nx = i == 0 ? 1.0f : i == 2 ? -1.0f : 0.0f, nz = i == 1 ? 1.0f : i == 3 ? -1.0f : 0.0f;
        float x = t->tower[0] + GN_TOWER_HALF * nx, z = t->tower[1] + GN_TOWER_HALF * nz;
        gn_rig_desc d = {.clip = 0, .time_offset = 0.6f * (float)i, .mode = GN_SKIN_LINEAR};
        gn_town_xf(d.transform, x, y, z, atan2f(-nz, nx), 1, 1, 1);
        r = gn_town_put(t, pole, t->m.metal, d.transform, GN_INSTANCE_STATIC);
        if (r == GN_OK) r = gn_scene_add_rig(t->s, model[i & 1], &d, NULL, t->err);
    }
    return r;
}

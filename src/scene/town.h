/* The built-in "town": its entry points (gn_scene_create_builtin in builtin.c calls them),
 * then the shared state of its generator, split over town.c (terrain, streets, materials, the
 * order of the build), town_houses.c and town_props.c, internal to them. */
#ifndef GN_TOWN_H
#define GN_TOWN_H

#include "scene/meshgen.h"

/* The town built into s, deterministic from d's seed; scale 0 reads as 1; people: skinned figures
 * walking its streets (and banners on the tower), 0 for none, of d's people_detail
 * (src/scene/town_people.c). d's name is not read. */
gn_result gn_town_build(gn_scene *s, const gn_builtin_desc *d, gn_error *err);
/* Three scenic camera placements of a built town (x, y, z, yaw, pitch; degrees): street
 * level, a rooftop and a high overview, all above the ground. */
void gn_town_viewpoints(const gn_scene *s, float out[3][5]);

#define GN_TOWN_STREET_PITCH 60.0f /* metres between street centre lines */
#define GN_TOWN_STREET_HALF 4.0f   /* half a street's width; a multiple of the terrain step */
#define GN_TOWN_TERRAIN_STEP 2.0f  /* terrain lattice; streets drape on the same lattice */
#define GN_TOWN_NONE 0xffffffffu

typedef struct gn_town_wave {
    float kx, kz, amp, phase;
} gn_town_wave;

/* Kept under ~30: the renderer's draw calls grow with the number of materials. */
typedef struct gn_town_materials {
    uint32_t grass, cobble, paving, plaster[5], brick, roof[3], glass, lit, wood, stone;
    uint32_t bark, leaves[2], conifer, metal, glow, weathered, copper, fabric[2], shutter;
} gn_town_materials;

typedef struct gn_town {
    gn_scene *s;
    gn_error *err;
    uint32_t seed, scale;
    uint32_t people_detail; /* gn_builtin_desc's: the figures' mesh detail */
    gn_rng rng;
    float W; /* terrain half extent */
    float T; /* town half extent: the outer street's centre line */
    int K;   /* streets at k * pitch for k = -K..K */
    float plaza[2], plaza_h, tower[2];
    gn_town_wave wave[4];
    float rim_phase;
    gn_mg mg, mg2;
    gn_town_materials m;
    /* Meshes built on first use, keyed by quantised size: (size - 8) / 2 for 8..14 m. */
    uint32_t body[4][4][2][2]; /* [w][d][floors - 2][gable] */
    uint32_t roof[4][4][2];    /* [w][d][gable] */
    uint32_t arcade[4];        /* [w] */
    uint32_t window, door, shutters, sill, chimney;
    uint32_t trunk[6], crown[6], bush[3];
    uint32_t lamp_pole, lamp_head, fence, tpole, wire, flagpole;
} gn_town;

/* In a function of a gn_town *t returning gn_result: builds a mesh into t->mg on first use
 * (build is one expression) and stores its id in slot; returns on failure. */
#define GN_TOWN_LAZY(slot, label, build)                                                                     \
    do {                                                                                                     \
        if ((slot) == GN_TOWN_NONE) {                                                                        \
            build;                                                                                           \
            gn_result lazy_r_ = gn_mg_commit(&t->mg, t->s, (label), &(slot), t->err);                        \
            if (lazy_r_ != GN_OK) return lazy_r_;                                                            \
        }                                                                                                    \
    } while (0)

/* Terrain height at (x, z), the analytic surface everything is placed on. user: gn_town. */
float gn_town_height(const void *user, float x, float z);

/* T * Ry(yaw) * S; yaw turns local +Z towards world (sin yaw, 0, cos yaw). */
void gn_town_xf(float m[16], float x, float y, float z, float yaw, float sx, float sy, float sz);
gn_result gn_town_put(gn_town *t, uint32_t mesh, uint32_t material, const float xf[16], uint32_t flags);

gn_result gn_town_houses(gn_town *t); /* blocks of houses, gardens and parks */
gn_result gn_town_forest(gn_town *t); /* trees and bushes beyond the streets */
gn_result gn_town_lamps(gn_town *t);  /* lamp posts along every street */
gn_result gn_town_poles(gn_town *t);  /* telegraph poles and wires, flag poles */
gn_result gn_town_tower(gn_town *t);  /* the tower on the plaza */
gn_result gn_town_movers(gn_town *t); /* balloons and carts (dynamic, with orbits) */
/* Issue 19, only with people (count > 0: the default town is unchanged and draws nothing more
 * from t->rng): `count` skinned people walking loops round the blocks and standing on the plaza,
 * and four banners waving on the tower (town_people.c). */
gn_result gn_town_people(gn_town *t, uint32_t count);
gn_result gn_town_banners(gn_town *t);
/* Issue 20, only with decals (the default town is unchanged and draws nothing more from t->rng):
 * road markings, puddles and posters as screen-space decals, from a generator of their own
 * (town_decals.c). */
gn_result gn_town_decals(gn_town *t);
/* GPU particles (town_particles.c): smoke, a fountain; particles > 1 a stress emitter of ~N live. */
gn_result gn_town_particles(gn_town *t, uint32_t particles);

/* Props shared by the files: a tree (two instances) or a bush at a terrain point. */
gn_result gn_town_tree(gn_town *t, float x, float z, float size, int kind_hint);
gn_result gn_town_bush(gn_town *t, float x, float z, float size);
/* A fence of 4 m segments from a to b, following the ground. */
gn_result gn_town_fence(gn_town *t, float ax, float az, float bx, float bz);

#endif

/* The town's people and banners (issue 19; src/scene/figure.c, town_people.c), on the CPU: the
 * figure and the banner pass the loader's check; their clips loop; the walk's feet are a step
 * apart at a quarter period and a planted foot moves back at exactly the walk's speed (so a rig
 * walking its path at that speed does not slide); the skinned meshes stay finite, inside a box
 * around the root, move little between frames and do not tear; and gn_town_people puts its
 * walkers on the streets' surface, in lanes that never meet, and its idle people on the plaza,
 * the same way for the same seed and not at all for 0 people. */
#define _POSIX_C_SOURCE 200809L /* sysconf under -std=c11 */
#include "base/workers.h"
#include "scene/figure.h"
#include "scene/rig.h"
#include "scene/scene.h"
#include "scene/town.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scene_check.h"

/* ---- posing and skinning a model on the CPU ------------------------------------------------- */
typedef struct posed {
    float *floats;
    gn_anim_pose pose;
    float (*world)[16];
    float *rows, *dq;
} posed;

static int posed_init(posed *p, const gn_anim_model *m)
{
    p->floats = malloc(gn_anim_pose_floats(m) * sizeof(float));
    p->world = malloc(m->skeleton.node_count * sizeof *p->world);
    p->rows = malloc(m->skeleton.joint_count * 12 * sizeof(float));
    p->dq = malloc(m->skeleton.joint_count * 8 * sizeof(float));
    CHECK(p->floats && p->world && p->rows && p->dq, "out of memory");
    gn_anim_pose_bind(m, p->floats, &p->pose);
    return 0;
}

static void posed_free(posed *p)
{
    free(p->floats);
    free(p->world);
    free(p->rows);
    free(p->dq);
}

static void pose_at(posed *p, const gn_anim_model *m, uint32_t clip, float t)
{
    gn_anim_pose_sample(m, clip, t, &p->pose);
    gn_anim_world(m, &p->pose, p->world);
    gn_skin_palette_rows(&m->skeleton, (const float(*)[16])p->world, p->rows);
    gn_skin_palette_dq(&m->skeleton, (const float(*)[16])p->world, p->dq);
}

/* Every vertex of part `part` skinned into out (xyz each). */
static void skin_part(const gn_scene *s, const gn_anim_model *m, uint32_t part, const posed *p,
                      gn_skin_mode mode, float (*out)[3])
{
    const gn_anim_part *pa = &m->parts[part];
    const gn_mesh *me = &s->meshes[pa->mesh];
    for (uint32_t v = 0; v < pa->vertex_count; v++) {
        const gn_vertex *x = &s->vertices[me->first_vertex + v];
        float n[3], t[4];
        gn_skin_vertex(x->pos, x->normal, x->tangent, v, NULL, NULL, NULL, 0, &pa->influences[v], mode,
                       mode == GN_SKIN_LINEAR ? p->rows : p->dq, out[v], n, t);
    }
}

static float dist3(const float a[3], const float b[3])
{
    float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* Sampling at 0 and at the duration gives the same pose: the last keyframe is the first. */
static int check_loop(const gn_anim_model *m, uint32_t clip)
{
    posed a, b;
    if (posed_init(&a, m) || posed_init(&b, m)) return 1;
    float d = m->clips[clip].duration;
    float worst = 0;
    for (int k = 0; k < 4; k++) { /* t and t + duration (what a rig plays after one loop) */
        float t = d * (float)k / 4.0f, t2 = fmodf(t + d, d);
        pose_at(&a, m, clip, t);
        pose_at(&b, m, clip, k == 0 ? d : t2);
        for (uint32_t n = 0; n < m->skeleton.node_count; n++)
            for (int i = 0; i < 16; i++) worst = fmaxf(worst, fabsf(a.world[n][i] - b.world[n][i]));
    }
    posed_free(&a);
    posed_free(&b);
    CHECK(worst < 1e-5f, "clip '%s': the pose at t and t + %g s differ by %g", m->clips[clip].name, d, worst);
    return 0;
}

/* Winding against the smooth normals, per triangle, as test_town checks the town's meshes. */
static int check_winding(const gn_scene *s, uint32_t mesh)
{
    const gn_mesh *me = &s->meshes[mesh];
    const gn_vertex *v = &s->vertices[me->first_vertex];
    for (uint32_t t = 0; t < me->index_count; t += 3) {
        const uint32_t *ix = &s->indices[me->first_index + t];
        const float *a = v[ix[0]].pos, *b = v[ix[1]].pos, *c = v[ix[2]].pos;
        float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
              e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                      e1[0] * e2[1] - e1[1] * e2[0]};
        if (sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) < 1e-7f) continue;
        for (int k = 0; k < 3; k++) {
            const float *vn = v[ix[k]].normal;
            CHECK(n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2] > 0,
                  "mesh %u triangle %u wound against its normals", mesh, t / 3);
        }
    }
    return 0;
}

/* ---- the figure ----------------------------------------------------------------------------- */
/* The planted foot: its ankle's z at several times of the flat part of the left foot's stance
 * (its phase 0.074..0.37, clip time (phase + 0.19) * period) moves back at the walk's speed. */
static int check_walk_feet(const gn_anim_model *m)
{
    posed p;
    if (posed_init(&p, m)) return 1;
    const float T = GN_FIGURE_WALK_PERIOD, S = GN_FIGURE_STRIDE, v = GN_FIGURE_WALK_SPEED;
    pose_at(&p, m, GN_FIGURE_CLIP_WALK, 0.25f * T);
    float dz = p.world[GN_FIGURE_FOOT_L][14] - p.world[GN_FIGURE_FOOT_R][14];
    printf("walk: stride %.3f m in %.2f s (%.3f m/s); feet %.3f m apart in z at a quarter period (a step is "
           "%.3f)\n",
           S, T, v, dz, 0.5f * S);
    CHECK(fabsf(dz - 0.5f * S) < 0.2f * 0.5f * S, "feet %g m apart at T/4, a step is %g m", dz, 0.5f * S);
    float z0 = 0, worst_v = 0, worst_y = 0;
    const float t0 = 0.32f, t1 = 0.60f;
    for (int k = 0; k <= 14; k++) {
        float t = t0 + (t1 - t0) * (float)k / 14.0f;
        pose_at(&p, m, GN_FIGURE_CLIP_WALK, t);
        float z = p.world[GN_FIGURE_FOOT_L][14], y = p.world[GN_FIGURE_FOOT_L][13];
        worst_y = fmaxf(worst_y, fabsf(y - 0.08f));
        if (k) worst_v = fmaxf(worst_v, fabsf((z0 - z) / ((t1 - t0) / 14.0f) - v));
        z0 = z;
    }
    printf("walk: planted ankle's speed within %.4f m/s of %.3f, its height within %.4f m of 0.08\n", worst_v,
           v, worst_y);
    CHECK(worst_v < 0.05f * v, "the planted foot slides: its speed is off the walk's by %g m/s", worst_v);
    CHECK(worst_y < 0.003f, "the planted ankle is %g m off its height", worst_y);
    /* the thighs' swing: the angle of the hip-knee line from straight down, over the cycle */
    float lo = 0, hi = 0;
    for (int k = 0; k < 44; k++) {
        pose_at(&p, m, GN_FIGURE_CLIP_WALK, T * (float)k / 44.0f);
        const float *h = &p.world[GN_FIGURE_UPPER_LEG_L][12], *kn = &p.world[GN_FIGURE_LOWER_LEG_L][12];
        float a = atan2f(kn[2] - h[2], h[1] - kn[1]) * 180.0f / 3.14159265f;
        lo = fminf(lo, a), hi = fmaxf(hi, a);
    }
    printf("walk: thigh swings from %.1f to %.1f degrees\n", lo, hi);
    CHECK(hi > 25 && hi < 38 && lo < -10 && lo > -25, "thigh swing %g..%g degrees", lo, hi);
    posed_free(&p);
    return 0;
}

/* The skinned mesh over a clip: finite, inside the box, small steps between frames 1/60 s
 * apart, and no edge stretched to more than GN_MAX_STRETCH times its bind length. */
#define GN_MAX_STEP 0.08f   /* metres in 1/60 s: 4.8 m/s, over the swinging foot's ~3 m/s peak */
#define GN_MAX_STRETCH 1.6f /* a torn seam stretches without bound; the bent knee's front 1.45x */

static int check_skinned(const gn_scene *s, const gn_anim_model *m, uint32_t clip, float box_half,
                         float box_lo, float box_hi, const char *what)
{
    posed p;
    if (posed_init(&p, m)) return 1;
    float worst_step = 0, worst_stretch = 0, lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
    float dur = m->clips[clip].duration;
    for (uint32_t part = 0; part < m->part_count; part++) {
        uint32_t n = m->parts[part].vertex_count;
        float(*a)[3] = malloc(n * sizeof *a), (*b)[3] = malloc(n * sizeof *b);
        CHECK(a && b, "out of memory");
        const gn_mesh *me = &s->meshes[m->parts[part].mesh];
        for (int mode = 0; mode < 2; mode++)
            for (int k = 0; k < 24; k++) {
                float t = dur * (float)k / 24.0f;
                pose_at(&p, m, clip, t);
                skin_part(s, m, part, &p, (gn_skin_mode)mode, a);
                pose_at(&p, m, clip, fmodf(t + 1.0f / 60.0f, dur));
                skin_part(s, m, part, &p, (gn_skin_mode)mode, b);
                for (uint32_t v = 0; v < n; v++) {
                    for (int i = 0; i < 3; i++) {
                        CHECK(isfinite(a[v][i]), "%s: vertex %u not finite at %g s", what, v, t);
                        lo[i] = fminf(lo[i], a[v][i]), hi[i] = fmaxf(hi[i], a[v][i]);
                    }
                    worst_step = fmaxf(worst_step, dist3(a[v], b[v]));
                }
                for (uint32_t i = 0; i < me->index_count; i++) {
                    uint32_t i0 = s->indices[me->first_index + i],
                             i1 = s->indices[me->first_index + (i % 3 == 2 ? i - 2 : i + 1)];
                    float bind =
                        dist3(s->vertices[me->first_vertex + i0].pos, s->vertices[me->first_vertex + i1].pos);
                    worst_stretch = fmaxf(worst_stretch, dist3(a[i0], a[i1]) / (bind + 0.002f));
                }
            }
        free(a);
        free(b);
    }
    posed_free(&p);
    printf(
        "%s: box %.2f %.2f %.2f .. %.2f %.2f %.2f; at most %.3f m in 1/60 s; edges stretch at most %.2fx\n",
        what, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], worst_step, worst_stretch);
    for (int i = 0; i < 3; i += 2)
        CHECK(lo[i] > -box_half && hi[i] < box_half, "%s: leaves the box on axis %d", what, i);
    CHECK(lo[1] > box_lo && hi[1] < box_hi, "%s: y %g..%g outside %g..%g", what, lo[1], hi[1], box_lo,
          box_hi);
    CHECK(worst_step < GN_MAX_STEP, "%s: a vertex moves %g m in 1/60 s", what, worst_step);
    CHECK(worst_stretch < GN_MAX_STRETCH, "%s: an edge stretches %gx", what, worst_stretch);
    return 0;
}

static int check_figure(gn_scene *s, uint32_t clothes, uint32_t skin, uint32_t detail, uint32_t expect_verts)
{
    gn_error e = {0};
    gn_anim_model m;
    gn_figure_desc d = {.clothes = clothes, .skin = skin, .detail = detail};
    CHECK(gn_figure_model(s, &d, &m, &e) == GN_OK, "gn_figure_model: %s", e.message);
    char why[256];
    CHECK(gn_anim_model_check(&m, why, sizeof why), "figure: %s", why);
    CHECK(m.skeleton.joint_count == GN_FIGURE_JOINTS && m.part_count == 2 && m.clip_count == 2,
          "figure: %u joints, %u parts, %u clips", m.skeleton.joint_count, m.part_count, m.clip_count);
    CHECK(strcmp(m.clips[GN_FIGURE_CLIP_WALK].name, "walk") == 0 &&
              strcmp(m.clips[GN_FIGURE_CLIP_IDLE].name, "idle") == 0,
          "clip names");
    CHECK(fabsf(m.clips[GN_FIGURE_CLIP_WALK].duration - GN_FIGURE_WALK_PERIOD) < 1e-6f, "walk lasts %g s",
          m.clips[0].duration);
    for (uint32_t c = 0; c < m.clip_count; c++)
        for (uint32_t k = 0; k < m.clips[c].channel_count; k++)
            CHECK(m.clips[c].channels[k].sampler.interp == GN_ANIM_LINEAR, "clip %u channel %u not LINEAR", c,
                  k);
    /* the bind pose: feet on y = 0, 1.75 m tall; influences per vertex */
    float ylo = 1e9f, yhi = -1e9f;
    uint32_t most = 0, verts = 0, hist[5] = {0};
    for (uint32_t p = 0; p < m.part_count; p++) {
        const gn_mesh *me = &s->meshes[m.parts[p].mesh];
        if (check_winding(s, m.parts[p].mesh)) return 1;
        for (uint32_t v = 0; v < me->vertex_count; v++) {
            ylo = fminf(ylo, s->vertices[me->first_vertex + v].pos[1]);
            yhi = fmaxf(yhi, s->vertices[me->first_vertex + v].pos[1]);
            uint32_t used = 0;
            for (int i = 0; i < GN_SKIN_INFLUENCES; i++) used += m.parts[p].influences[v].weight[i] > 0;
            most = used > most ? used : most;
            hist[used < 4 ? used : 4]++;
        }
        verts += me->vertex_count;
    }
    printf(
        "figure (detail %u): %u vertices, %u joints, height %.3f..%.3f m, influences a vertex: 1: %u, 2: %u, "
        "3: %u, 4+: %u\n",
        detail, verts, m.skeleton.joint_count, ylo, yhi, hist[1], hist[2], hist[3], hist[4]);
    CHECK(verts == expect_verts, "detail %u: %u vertices, expected %u", detail, verts, expect_verts);
    CHECK(fabsf(ylo) < 0.002f && fabsf(yhi - GN_FIGURE_HEIGHT) < 0.01f, "figure spans %g..%g m", ylo, yhi);
    CHECK(most >= 2 && most <= 4, "at most %u influences a vertex", most);
    if (check_loop(&m, GN_FIGURE_CLIP_WALK) || check_loop(&m, GN_FIGURE_CLIP_IDLE)) return 1;
    if (check_walk_feet(&m)) return 1;
    if (check_skinned(s, &m, GN_FIGURE_CLIP_WALK, 1.1f, -0.03f, 2.2f, "walk")) return 1;
    if (check_skinned(s, &m, GN_FIGURE_CLIP_IDLE, 1.1f, -0.01f, 2.2f, "idle")) return 1;
    gn_anim_model_free(&m);
    return 0;
}

/* ---- the banner ----------------------------------------------------------------------------- */
static int check_banner(gn_scene *s, uint32_t material)
{
    gn_error e = {0};
    gn_anim_model m;
    CHECK(gn_banner_model(s, material, NULL, &m, &e) == GN_OK, "gn_banner_model: %s", e.message);
    char why[256];
    CHECK(gn_anim_model_check(&m, why, sizeof why), "banner: %s", why);
    CHECK(m.skeleton.joint_count == GN_BANNER_JOINTS && m.clip_count == 1 &&
              strcmp(m.clips[0].name, "wave") == 0,
          "banner: %u joints, %u clips", m.skeleton.joint_count, m.clip_count);
    if (check_winding(s, m.parts[0].mesh) || check_loop(&m, 0)) return 1;
    posed p;
    if (posed_init(&p, &m)) return 1;
    float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f}, xmin = 1e9f;
    uint32_t n = m.parts[0].vertex_count, tip = GN_BANNER_JOINTS - 1;
    float(*a)[3] = malloc(n * sizeof *a);
    CHECK(a, "out of memory");
    for (int k = 0; k < 48; k++) {
        pose_at(&p, &m, 0, m.clips[0].duration * (float)k / 48.0f);
        for (int i = 0; i < 3; i++)
            lo[i] = fminf(lo[i], p.world[tip][12 + i]), hi[i] = fmaxf(hi[i], p.world[tip][12 + i]);
        skin_part(s, &m, 0, &p, GN_SKIN_LINEAR, a);
        for (uint32_t v = 0; v < n; v++) xmin = fminf(xmin, a[v][0]);
    }
    free(a);
    posed_free(&p);
    float reach = dist3(lo, hi);
    printf("banner: the chain's tip moves over a %.2f x %.2f x %.2f m box; the cloth stays %.2f m off the "
           "wall\n",
           hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], xmin);
    CHECK(reach > 0.3f, "the banner's tip moves only %g m", reach);
    CHECK(xmin > 0.3f, "the banner swings to %g m from its wall", xmin);
    if (check_skinned(s, &m, 0, 3.0f, -GN_BANNER_LENGTH - 0.2f, 0.2f, "banner")) return 1;
    gn_anim_model_free(&m);
    return 0;
}

/* ---- the town ------------------------------------------------------------------------------- */
/* A town as gn_town_build starts one (town.c's gn_town_init): its ground's waves, extents and
 * plaza, and the materials town_people.c reuses; enough for gn_town_people and gn_town_banners
 * without the houses. */
static int town_init(gn_town *t, gn_scene *s, gn_error *e, uint64_t seed)
{
    memset(t, 0, sizeof *t);
    t->s = s, t->err = e, t->seed = 1, t->scale = 1;
    t->rng = gn_rng_seed(seed);
    t->W = 320, t->K = 3, t->T = 3 * GN_TOWN_STREET_PITCH;
    t->plaza[0] = t->plaza[1] = t->tower[0] = t->tower[1] = 0.5f * GN_TOWN_STREET_PITCH;
    const gn_town_wave w[4] = {{0.0163f, 0.0112f, 5.5f, 0.3f},
                               {-0.0201f, 0.0298f, 2.4f, 1.1f},
                               {0.0610f, -0.0269f, 0.9f, 2.0f},
                               {-0.0952f, -0.0853f, 0.3f, 4.0f}};
    memcpy(t->wave, w, sizeof w);
    t->plaza_h = 1.25f;
    gn_mg_init(&t->mg);
    gn_mg_init(&t->mg2);
    uint32_t *mats[] = {&t->m.fabric[0], &t->m.fabric[1], &t->m.shutter, &t->m.wood, &t->m.metal};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++) {
        gn_material_desc d = {.base_color = {0.5f, 0.4f, 0.3f, 1}, .label = "test"};
        CHECK(gn_scene_add_material(s, &d, mats[i], e) == GN_OK, "material: %s", e->message);
    }
    return 0;
}

/* The terrain as gn_mg_heightfield draws it: gn_town_height at the corners of a 2 m cell, over
 * the triangles either side of the diagonal from (x, z) to (x + 2, z + 2). */
static float lattice_height(const gn_town *t, float x, float z)
{
    float x0 = 2.0f * floorf(0.5f * x), z0 = 2.0f * floorf(0.5f * z), u = 0.5f * (x - x0),
          v = 0.5f * (z - z0);
    float a = gn_town_height(t, x0, z0), b = gn_town_height(t, x0 + 2, z0),
          c = gn_town_height(t, x0 + 2, z0 + 2), d = gn_town_height(t, x0, z0 + 2);
    return u >= v ? a + u * (b - a) + v * (c - b) : a + v * (d - a) + u * (c - d);
}

static float seg_dist(const float p[3], const float a[3], const float b[3])
{
    float ab[2] = {b[0] - a[0], b[2] - a[2]}, ap[2] = {p[0] - a[0], p[2] - a[2]};
    float l = ab[0] * ab[0] + ab[1] * ab[1], u = l > 0 ? (ap[0] * ab[0] + ap[1] * ab[1]) / l : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    float dx = ap[0] - u * ab[0], dz = ap[1] - u * ab[1];
    return sqrtf(dx * dx + dz * dz);
}

static int check_town(void)
{
    gn_scene *s, *s2;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK && gn_scene_create(&s2, &e) == GN_OK, "scene: %s", e.message);
    gn_town t, t2;
    if (town_init(&t, s, &e, 1234) || town_init(&t2, s2, &e, 1234)) return 1;
    /* none: nothing added, nothing drawn */
    gn_scene_mark before = gn_scene_mark_now(s);
    gn_rng rng0 = t.rng;
    CHECK(gn_town_people(&t, 0) == GN_OK, "0 people: %s", e.message);
    gn_scene_mark after = gn_scene_mark_now(s);
    CHECK(memcmp(&before, &after, sizeof before) == 0 && s->rig_count == 0, "0 people added something");
    CHECK(t.rng.state == rng0.state, "0 people drew from the town's generator");

    const uint32_t count = 8;
    CHECK(gn_town_people(&t, count) == GN_OK, "people: %s", e.message);
    CHECK(gn_town_people(&t2, count) == GN_OK, "people: %s", e.message);
    CHECK(s->rig_count == count, "%u rigs for %u people", s->rig_count, count);
    const float P = GN_TOWN_STREET_PITCH, hw = GN_TOWN_STREET_HALF;
    uint32_t walkers = 0, idle = 0, points = 0;
    float worst_off = 0;
    for (uint32_t r = 0; r < s->rig_count; r++) {
        const gn_scene_rig *g = &s->rigs[r], *g2 = &s2->rigs[r];
        /* the same seed, the same people */
        CHECK(g->d.path_count == g2->d.path_count && g->model == g2->model &&
                  g->d.time_offset == g2->d.time_offset && g->d.speed == g2->d.speed &&
                  g->d.path_speed == g2->d.path_speed && g->d.path_offset == g2->d.path_offset &&
                  g->d.scale == g2->d.scale &&
                  memcmp(g->d.transform, g2->d.transform, sizeof g->d.transform) == 0 &&
                  (!g->d.path_count || memcmp(g->path, g2->path, g->d.path_count * 3 * sizeof(float)) == 0),
              "rig %u differs between two towns of one seed", r);
        if (!g->d.path_count) { /* idle on the plaza */
            const float *x = &g->d.transform[12];
            float dx = x[0] - t.tower[0], dz = x[2] - t.tower[1], rad = sqrtf(dx * dx + dz * dz);
            CHECK(rad > 7.0f && rad < 12.0f, "idle rig %u %g m from the tower", r, rad);
            CHECK(fabsf(x[1] - lattice_height(&t, x[0], x[2]) - 0.05f) < 0.001f,
                  "idle rig %u stands at %g, the plaza at %g", r, x[1],
                  lattice_height(&t, x[0], x[2]) + 0.05f);
            CHECK(g->clip == GN_FIGURE_CLIP_IDLE, "idle rig %u plays clip %d", r, g->clip);
            idle++;
            continue;
        }
        walkers++;
        CHECK(g->clip == GN_FIGURE_CLIP_WALK, "rig %u plays clip %d", r, g->clip);
        /* the feet do not slide: the path speed is the walk's, at the rig's scale and rate */
        float sc = g->d.scale > 0 ? g->d.scale : 1, rate = g->d.speed != 0 ? g->d.speed : 1;
        CHECK(fabsf(g->d.path_speed - GN_FIGURE_WALK_SPEED * sc * rate) < 1e-4f,
              "rig %u walks %g m/s, strides %g", r, g->d.path_speed, GN_FIGURE_WALK_SPEED * sc * rate);
        for (uint32_t i = 0; i < g->d.path_count; i++) {
            const float *p = &g->path[i * 3], *q = &g->path[((i + 1) % g->d.path_count) * 3];
            /* on a street (a person's half width, 0.3 m, inside its edge) and inside the town */
            float dx = fabsf(p[0] - P * roundf(p[0] / P)), dz = fabsf(p[2] - P * roundf(p[2] / P));
            CHECK(dx < hw - 0.3f || dz < hw - 0.3f, "rig %u point %u (%g, %g) is off the streets", r, i, p[0],
                  p[2]);
            CHECK(fabsf(p[0]) <= t.T + hw && fabsf(p[2]) <= t.T + hw, "rig %u point %u outside the town", r,
                  i);
            /* on the street's surface as drawn: the terrain's lattice plus its drape's lift (0.06 or
               0.08 m); near the analytic height, which bulges off the lattice's flat triangles */
            float want = dx <= hw ? 0.08f : 0.06f, lift = p[1] - lattice_height(&t, p[0], p[2]);
            CHECK(fabsf(lift - want) < 0.001f,
                  "rig %u point %u: %g m above the ground drawn, the street is %g", r, i, lift, want);
            float off = fabsf(p[1] - want - gn_town_height(&t, p[0], p[2]));
            worst_off = fmaxf(worst_off, off);
            CHECK(off < 0.06f, "rig %u point %u: %g m off the terrain's height", r, i, off);
            /* close enough that walking straight between them follows the ground */
            CHECK(dist3(p, q) < 2.05f, "rig %u points %u, %u are %g m apart", r, i, i + 1, dist3(p, q));
            points++;
        }
        /* lanes never meet: every other loop stays 0.7 m away (the lanes are 0.8 m apart) */
        for (uint32_t o = 0; o < r; o++) {
            const gn_scene_rig *h = &s->rigs[o];
            if (!h->d.path_count) continue;
            bool same = h->d.path_count == g->d.path_count &&
                        memcmp(h->path, g->path, g->d.path_count * 3 * sizeof(float)) == 0;
            if (same) { /* one loop: one speed, and apart along it */
                float gap = fmodf(fabsf(h->d.path_offset - g->d.path_offset), g->path_length);
                gap = fminf(gap, g->path_length - gap);
                CHECK(h->d.path_speed == g->d.path_speed && gap > 2.0f,
                      "rigs %u and %u: %g m apart on a loop", o, r, gap);
                continue;
            }
            float near = 1e9f;
            for (uint32_t i = 0; i < g->d.path_count; i++)
                for (uint32_t j = 0; j < h->d.path_count; j++)
                    near = fminf(near, seg_dist(&g->path[i * 3], &h->path[j * 3],
                                                &h->path[((j + 1) % h->d.path_count) * 3]));
            CHECK(near > 0.7f, "the loops of rigs %u and %u come %g m close", o, r, near);
        }
    }
    printf("town: %u people: %u walking (%u path points on the streets' surface as drawn, at most %.3f m off "
           "gn_town_height plus the lift), %u standing\n",
           count, walkers, points, worst_off, idle);
    CHECK(walkers + idle == count && idle >= 1, "%u walking, %u standing", walkers, idle);

    CHECK(gn_town_banners(&t) == GN_OK, "banners: %s", e.message);
    CHECK(s->rig_count == count + 4, "%u rigs after the banners", s->rig_count);
    for (uint32_t r = count; r < s->rig_count; r++) {
        const float *x = &s->rigs[r].d.transform[12];
        float dx = fabsf(x[0] - t.tower[0]), dz = fabsf(x[2] - t.tower[1]);
        /* on the tower's wall, under its top */
        CHECK(fabsf(fmaxf(dx, dz) - 3.5f) < 0.01f && fminf(dx, dz) < 0.01f, "banner %u at %g %g", r, x[0],
              x[2]);
        CHECK(x[1] > t.plaza_h + 40 && x[1] < t.plaza_h + 50, "banner %u at height %g", r, x[1] - t.plaza_h);
    }
    /* the rigs pose over time (rig.c): every instance stays finite */
    gn_scene_animate_rigs(s, 3.7);
    for (uint32_t i = 0; i < s->instance_count; i++)
        for (int k = 0; k < 16; k++)
            CHECK(isfinite(s->instances[i].transform[k]), "instance %u not finite", i);
    gn_mg_free(&t.mg), gn_mg_free(&t.mg2), gn_mg_free(&t2.mg), gn_mg_free(&t2.mg2);
    gn_scene_destroy(s);
    gn_scene_destroy(s2);
    return 0;
}

/* Posing over the scene's worker threads (rig.c, base/workers.h) gives the same bits as posing on
 * the caller alone: 600 people (up to 8 slices), posed at three times in both scenes. */
static int check_threads(void)
{
    gn_scene *s, *s2;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK && gn_scene_create(&s2, &e) == GN_OK, "scene: %s", e.message);
    gn_town t, t2;
    if (town_init(&t, s, &e, 99) || town_init(&t2, s2, &e, 99)) return 1;
    const uint32_t count = 600;
    CHECK(gn_town_people(&t, count) == GN_OK && gn_town_people(&t2, count) == GN_OK, "people: %s", e.message);
    s2->pose_workers_failed = true; /* as if no thread could start: every slice on the caller */
    const double times[] = {0.5, 3.7, 11.25};
    for (int k = 0; k < 3; k++) {
        gn_scene_animate_rigs(s, times[k]);
        gn_scene_animate_rigs(s2, times[k]);
        uint32_t differ = 0;
        for (uint32_t i = 0; i < s->instance_count; i++)
            differ +=
                memcmp(s->instances[i].transform, s2->instances[i].transform, sizeof(float) * 16) != 0 ||
                memcmp(s->instances[i].sphere, s2->instances[i].sphere, sizeof(float) * 4) != 0;
        for (uint32_t r = 0; r < s->rig_count; r++) {
            uint32_t joints = s->anims[s->rigs[r].model].model.skeleton.joint_count;
            differ += memcmp(s->rigs[r].palette, s2->rigs[r].palette, sizeof(float) * 12 * joints) != 0;
        }
        CHECK(differ == 0, "at %g s, %u instances or palettes differ between threaded and single posing",
              times[k], differ);
    }
    CHECK(s2->pose_workers == NULL, "a pool was made where none should be");
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK(cpus < 2 || s->pose_workers != NULL, "600 rigs on %ld cores posed without the pool", cpus);
    printf("threads: %u people posed at 3 times over %u worker threads and on one: identical\n", count,
           gn_workers_count(s->pose_workers));
    gn_mg_free(&t.mg), gn_mg_free(&t.mg2), gn_mg_free(&t2.mg), gn_mg_free(&t2.mg2);
    gn_scene_destroy(s);
    gn_scene_destroy(s2);
    return 0;
}

int main(void)
{
    gn_scene *s;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK, "scene: %s", e.message);
    uint32_t mat[2];
    for (int i = 0; i < 2; i++) {
        gn_material_desc d = {.base_color = {0.6f, 0.3f, 0.2f, 1}, .label = "test"};
        CHECK(gn_scene_add_material(s, &d, &mat[i], &e) == GN_OK, "material: %s", e.message);
    }
    /* detail 1 (the town's default) and 4 (benchmarks): the rings split 4 times around and along,
       so a tube of r rings of n vertices has (4 (r - 1) + 1) 4n + 2 */
    int f = check_figure(s, mat[0], mat[1], 1, 756);
    if (!f) f = check_figure(s, mat[0], mat[1], 4, 10836);
    if (!f) {
        gn_anim_model m;
        gn_figure_desc d = {.clothes = mat[0], .skin = mat[1], .detail = GN_FIGURE_MAX_DETAIL + 1};
        CHECK(gn_figure_model(s, &d, &m, &e) == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "detail"),
              "detail %u accepted: %s", d.detail, e.message);
    }
    if (!f) f = check_banner(s, mat[0]);
    gn_scene_destroy(s);
    if (!f) f = check_town();
    if (!f) f = check_threads();
    if (!f) printf("scene_people: ok\n");
    return f;
}

/* Animated models and their rigs in a scene (rig.h): adding them, and posing every rig once a
 * frame from gn_scene_animate (its placement on its path, its clip's pose crossfaded, its palette,
 * its parts' instances and bounds). The GPU's half is src/passes/skin.c. */
#define _POSIX_C_SOURCE 200809L /* sysconf under -std=c11 */
#include "scene/rig.h"

#include "base/alloc.h"
#include "base/error.h"
#include "base/workers.h"
#include "scene/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VERTEX_FLOATS (sizeof(gn_vertex) / sizeof(float))
/* Posing is split over threads when there are many rigs: each rig writes only its own arrays and
 * its own instances, so slices need no locks and the result does not depend on the split. A
 * thread takes at least this many rigs (one is ~4 us; waking a pooled thread a few), at most this
 * many threads (bench/RESULTS.md: 1,000 people cost 4.05 ms on one thread). */
#define RIG_THREAD_MIN 64u
#define RIG_THREADS_MAX 8u

static bool part_is_skinned(const gn_anim_part *p) { return p->influences != NULL; }
static void pose_rig(gn_scene *s, gn_scene_rig *g, double seconds);
static bool part_is_written(const gn_anim_part *p) { return p->influences || p->morph >= 0; }

static void anim_free(gn_scene_anim *a)
{
    for (uint32_t p = 0; a->part_spheres && p < a->model.part_count; p++) free(a->part_spheres[p]);
    free(a->part_spheres);
    free(a->part_reach);
    gn_anim_model_free(&a->model);
}

static void rig_free(gn_scene_rig *g)
{
    free(g->mesh);
    free(g->path);
    free(g->path_at);
    free(g->pose_floats);
    free(g->pose_floats_b);
    free(g->world);
    free(g->palette);
    free(g->morph_targets);
    free(g->morph_weights);
    free(g->morph_active);
}

void gn_scene_rigs_free(gn_scene *s)
{
    for (uint32_t i = 0; i < s->anim_count; i++) anim_free(&s->anims[i]);
    for (uint32_t i = 0; i < s->rig_count; i++) rig_free(&s->rigs[i]);
    gn_workers_destroy(s->pose_workers);
    s->pose_workers = NULL, s->pose_workers_failed = false;
    free(s->anims);
    free(s->rigs);
    s->anims = NULL, s->rigs = NULL;
    s->anim_count = s->anim_cap = s->rig_count = s->rig_cap = 0;
}

gn_result gn_scene_add_anim_model(gn_scene *s, gn_anim_model *m, uint32_t *out_model, gn_error *err)
{
    if (!s || !m)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_anim_model: NULL scene or model");
    char why[256];
    if (!gn_anim_model_check(m, why, sizeof why))
        return gn_fail(err, GN_ERROR_BAD_DATA, "model '%s': %s", m->name, why);
    for (uint32_t p = 0; p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        if (part->mesh >= s->mesh_count || part->material >= s->material_count)
            return gn_fail(err, GN_ERROR_BAD_DATA,
                           "model '%s' part %u: mesh %u or material %u not in the scene", m->name, p,
                           part->mesh, part->material);
        if (part_is_written(part) && s->meshes[part->mesh].vertex_count != part->vertex_count)
            return gn_fail(err, GN_ERROR_BAD_DATA, "model '%s' part %u: %u vertices for a mesh of %u",
                           m->name, p, part->vertex_count, s->meshes[part->mesh].vertex_count);
    }
    if (s->anim_count == s->anim_cap) {
        uint32_t cap = s->anim_cap ? s->anim_cap * 2 : 4;
        gn_scene_anim *grown = gn_realloc(s->anims, cap * sizeof *grown);
        if (!grown) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u animated models", cap);
        s->anims = grown, s->anim_cap = cap;
    }
    gn_scene_anim a = {.model = *m};
    a.part_spheres = gn_calloc(m->part_count ? m->part_count : 1, sizeof *a.part_spheres);
    a.part_reach = gn_calloc(m->part_count ? m->part_count : 1, sizeof *a.part_reach);
    bool ok = a.part_spheres && a.part_reach;
    for (uint32_t p = 0; ok && p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        if (part->morph >= 0) a.part_reach[p] = m->morphs[part->morph].max_delta;
        if (!part_is_skinned(part)) continue;
        uint32_t joints = m->skeleton.joint_count ? m->skeleton.joint_count : 1;
        a.part_spheres[p] = gn_malloc(joints * sizeof *a.part_spheres[p]);
        if (!(ok = a.part_spheres[p] != NULL)) break;
        const gn_mesh *mesh = &s->meshes[part->mesh];
        gn_skin_joint_spheres(s->vertices[mesh->first_vertex].pos, VERTEX_FLOATS, part->vertex_count,
                              part->influences, m->skeleton.joint_count, a.part_spheres[p]);
    }
    if (!ok) {
        for (uint32_t p = 0; a.part_spheres && p < m->part_count; p++) free(a.part_spheres[p]);
        free(a.part_spheres);
        free(a.part_reach);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "model '%s': out of memory for its bounds", m->name);
    }
    memset(m, 0, sizeof *m); /* the scene owns it now */
    s->anims[s->anim_count] = a;
    if (out_model) *out_model = s->anim_count;
    s->anim_count++;
    s->rig_generation++;
    return GN_OK;
}

void gn_scene_set_animation_speed(gn_scene *s, float speed)
{
    if (!s || !isfinite(speed)) return;
    s->anim_speed = speed < 0 ? 0 : speed > 100 ? 100 : speed;
    s->anim_speed_set = true;
}

gn_result gn_scene_next_clip(gn_scene *s, float fade, char *name, size_t name_cap, gn_error *err)
{
    if (!s) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_next_clip: NULL scene");
    if (name && name_cap) name[0] = 0;
    for (uint32_t r = 0; r < s->rig_count; r++) {
        gn_scene_rig *g = &s->rigs[r];
        const gn_anim_model *m = &s->anims[g->model].model;
        if (!m->clip_count) continue;
        int32_t next = (g->clip + 1) % (int32_t)m->clip_count;
        gn_result res = gn_scene_rig_play(s, r, next, fade, err);
        if (res) return res;
        if (name && name_cap && !name[0]) snprintf(name, name_cap, "%s", m->clips[next].name);
    }
    return GN_OK;
}

int32_t gn_scene_anim_clip(const gn_scene *s, uint32_t model, const char *name)
{
    if (!s || model >= s->anim_count || !name) return -1;
    const gn_anim_model *m = &s->anims[model].model;
    for (uint32_t c = 0; c < m->clip_count; c++)
        if (strcmp(m->clips[c].name, name) == 0) return (int32_t)c;
    return -1;
}

/* A copy of mesh `mesh` (its vertices and indices) as a new mesh: a rig's own, which the GPU
 * rewrites every frame. */
static gn_result copy_mesh(gn_scene *s, uint32_t mesh, uint32_t *out, gn_error *err)
{
    gn_mesh m = s->meshes[mesh];
    gn_vertex *v = gn_malloc((size_t)m.vertex_count * sizeof *v);
    uint32_t *idx = gn_malloc((size_t)m.index_count * sizeof *idx);
    gn_result res = GN_OK;
    if (!v || !idx) {
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory copying mesh %u for a rig", mesh);
    } else {
        /* copied out first: adding the copy may move the scene's arrays */
        memcpy(v, &s->vertices[m.first_vertex], (size_t)m.vertex_count * sizeof *v);
        memcpy(idx, &s->indices[m.first_index], (size_t)m.index_count * sizeof *idx);
        res = gn_scene_add_vertices(s, v, m.vertex_count, idx, m.index_count, out, err);
    }
    free(v);
    free(idx);
    return res;
}

static gn_result check_desc(const gn_scene *s, uint32_t model, const gn_rig_desc *d, gn_error *err)
{
    if (model >= s->anim_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig: model %u of %u", model, s->anim_count);
    const gn_anim_model *m = &s->anims[model].model;
    if (d->clip < -1 || d->clip >= (int32_t)m->clip_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig of '%s': clip %d of %u", m->name, d->clip,
                       m->clip_count);
    if (d->mode > GN_SKIN_DUAL_QUAT)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig: unknown skinning mode");
    if (!isfinite(d->time_offset) || !isfinite(d->speed) || !isfinite(d->path_speed) ||
        !isfinite(d->path_offset) || !isfinite(d->scale) || d->scale < 0)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig of '%s': a time, speed or scale is not finite",
                       m->name);
    if (d->path_count == 1 || d->path_count > GN_RIG_MAX_PATH || (d->path_count && !d->path))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig of '%s': a path of %u points (2 to %u)", m->name,
                       d->path_count, GN_RIG_MAX_PATH);
    for (uint32_t i = 0; i < d->path_count * 3; i++)
        if (!isfinite(d->path[i]) || fabsf(d->path[i]) > 1e6f)
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig of '%s': path point %u is not finite",
                           m->name, i / 3);
    for (uint32_t i = 0; !d->path_count && i < 16; i++)
        if (!isfinite(d->transform[i]))
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig of '%s': its transform is not finite",
                           m->name);
    return GN_OK;
}

/* The rig's own arrays, its path measured. */
static gn_result rig_alloc(gn_scene_rig *g, const gn_anim_model *m, const gn_rig_desc *d)
{
    uint32_t parts = m->part_count ? m->part_count : 1, joints = m->skeleton.joint_count;
    size_t pose = gn_anim_pose_floats(m) + 1;
    g->mesh = gn_calloc(parts, sizeof *g->mesh);
    g->pose_floats = gn_malloc(pose * sizeof(float));
    g->pose_floats_b = gn_malloc(pose * sizeof(float));
    g->world = gn_malloc((m->skeleton.node_count + 1) * sizeof *g->world);
    /* rows for every joint (the bounds read them), then the dual quaternions when skinned so */
    g->palette = gn_malloc(((size_t)joints * 20 + 1) * sizeof(float));
    g->morph_targets = gn_calloc((size_t)parts * GN_MORPH_MAX_ACTIVE, sizeof *g->morph_targets);
    g->morph_weights = gn_calloc((size_t)parts * GN_MORPH_MAX_ACTIVE, sizeof *g->morph_weights);
    g->morph_active = gn_calloc(parts, sizeof *g->morph_active);
    if (d->path_count) {
        g->path = gn_malloc((size_t)d->path_count * 3 * sizeof *g->path);
        g->path_at = gn_malloc(((size_t)d->path_count + 1) * sizeof *g->path_at);
    }
    if (!g->mesh || !g->pose_floats || !g->pose_floats_b || !g->world || !g->palette || !g->morph_targets ||
        !g->morph_weights || !g->morph_active || (d->path_count && (!g->path || !g->path_at)))
        return GN_ERROR_OUT_OF_MEMORY;
    g->d = *d;
    if (d->path_count) {
        memcpy(g->path, d->path, (size_t)d->path_count * 3 * sizeof *g->path);
        g->d.path = g->path;
        /* a closed loop: path_at[i] the distance to point i, path_at[count] the whole length */
        g->path_at[0] = 0;
        for (uint32_t i = 0; i < d->path_count; i++) {
            const float *a = &g->path[i * 3], *b = &g->path[((i + 1) % d->path_count) * 3];
            float dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
            g->path_at[i + 1] = g->path_at[i] + sqrtf(dx * dx + dy * dy + dz * dz);
        }
        g->path_length = g->path_at[d->path_count];
    } else {
        g->d.path = NULL;
    }
    g->clip = d->clip, g->from_clip = -1;
    return GN_OK;
}

gn_result gn_scene_add_rig(gn_scene *s, uint32_t model, const gn_rig_desc *d, uint32_t *out_rig,
                           gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_rig: NULL scene or desc");
    gn_result res = check_desc(s, model, d, err);
    if (res) return res;
    if (s->rig_count >= GN_SCENE_MAX_RIGS)
        return gn_fail(err, GN_ERROR_BAD_DATA, "over %u rigs in a scene", GN_SCENE_MAX_RIGS);
    if (s->rig_count == s->rig_cap) {
        uint32_t cap = s->rig_cap ? s->rig_cap * 2 : 16;
        gn_scene_rig *grown = gn_realloc(s->rigs, cap * sizeof *grown);
        if (!grown) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u rigs", cap);
        s->rigs = grown, s->rig_cap = cap;
    }
    const gn_anim_model *m = &s->anims[model].model;
    gn_scene_rig g = {.model = model, .first_instance = s->instance_count};
    if (rig_alloc(&g, m, d)) {
        rig_free(&g);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for a rig of '%s'", m->name);
    }
    for (uint32_t p = 0; !res && p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        g.mesh[p] = part->mesh;
        if (part_is_written(part)) res = copy_mesh(s, part->mesh, &g.mesh[p], err);
        gn_instance_desc in = {.mesh = g.mesh[p], .material = part->material, .flags = GN_INSTANCE_DYNAMIC};
        in.transform[0] = in.transform[5] = in.transform[10] = in.transform[15] = 1;
        if (!res) res = gn_scene_add_instance(s, &in, NULL, err);
    }
    if (res) { /* the meshes and instances added stay, unused: the caller's rollback drops them */
        rig_free(&g);
        return res;
    }
    s->rigs[s->rig_count] = g;
    if (out_rig) *out_rig = s->rig_count;
    s->rig_count++;
    s->rig_generation++;
    /* posed and bounded from the start (itself alone: adding N rigs stays linear) */
    pose_rig(s, &s->rigs[s->rig_count - 1], s->anim_clock);
    s->dynamic_generation++;
    return GN_OK;
}

gn_result gn_scene_rig_play(gn_scene *s, uint32_t rig, int32_t clip, float fade, gn_error *err)
{
    if (!s || rig >= s->rig_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig %u does not exist", rig);
    gn_scene_rig *g = &s->rigs[rig];
    const gn_anim_model *m = &s->anims[g->model].model;
    if (clip < -1 || clip >= (int32_t)m->clip_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig %u: clip %d of %u", rig, clip, m->clip_count);
    double now = s->anim_clock;
    if (!isfinite(fade) || fade < 0)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "rig %u: a fade of %g s", rig, (double)fade);
    g->from_clip = g->clip, g->from_start = g->clip_start;
    g->clip = clip, g->clip_start = now;
    g->fade = fade, g->fade_start = now;
    return GN_OK;
}

/* ---- posing --------------------------------------------------------------------------------- */

/* The rig's placement at `seconds`: on its path (facing along it, +Z forward) or its transform. */
static void placement(const gn_scene_rig *g, double seconds, float out[16])
{
    if (!g->d.path_count || !(g->path_length > 0)) {
        memcpy(out, g->d.transform, 16 * sizeof *out);
        if (g->d.path_count) { /* a path of one point, repeated: stand there */
            memset(out, 0, 16 * sizeof *out);
            out[0] = out[5] = out[10] = out[15] = 1;
            memcpy(&out[12], g->path, 3 * sizeof *out);
        }
        return;
    }
    /* distance in double: a long run's speed * t keeps its fraction */
    double at = fmod(g->d.path_offset + (double)g->d.path_speed * seconds, (double)g->path_length);
    if (at < 0) at += g->path_length;
    uint32_t n = g->d.path_count, i = 0;
    while (i + 1 < n && g->path_at[i + 1] <= at) i++;
    const float *a = &g->path[i * 3], *b = &g->path[((i + 1) % n) * 3];
    float seg = g->path_at[i + 1] - g->path_at[i], u = seg > 0 ? (float)((at - g->path_at[i]) / seg) : 0;
    float dir[3] = {b[0] - a[0], 0, b[2] - a[2]};
    float len = sqrtf(dir[0] * dir[0] + dir[2] * dir[2]);
    if (len > 0)
        dir[0] /= len, dir[2] /= len;
    else
        dir[2] = 1;
    float sc = g->d.scale > 0 ? g->d.scale : 1;
    /* columns: x = up x forward (right-handed, +Y up), y = up, z = forward */
    memset(out, 0, 16 * sizeof *out);
    out[0] = dir[2] * sc, out[2] = -dir[0] * sc;
    out[5] = sc;
    out[8] = dir[0] * sc, out[10] = dir[2] * sc;
    for (int k = 0; k < 3; k++) out[12 + k] = a[k] + (b[k] - a[k]) * u;
    out[15] = 1;
}

/* Time t into clip c, looped over its duration. */
static float clip_time(const gn_anim_model *m, int32_t c, double t)
{
    if (c < 0) return 0;
    double dur = m->clips[c].duration;
    if (!(dur > 0)) return 0;
    double r = fmod(t, dur);
    return (float)(r < 0 ? r + dur : r);
}

/* A sphere through an affine matrix: the centre moved, the radius by the longest column. */
static void sphere_through(const float m[16], const float in[4], float out[4])
{
    float scale2 = 0; /* the longest column's square: sqrt once, comparisons not fmaxf calls */
    for (int c = 0; c < 3; c++) {
        float l2 = m[c * 4] * m[c * 4] + m[c * 4 + 1] * m[c * 4 + 1] + m[c * 4 + 2] * m[c * 4 + 2];
        scale2 = l2 > scale2 ? l2 : scale2;
    }
    for (int i = 0; i < 3; i++) out[i] = m[i] * in[0] + m[4 + i] * in[1] + m[8 + i] * in[2] + m[12 + i];
    out[3] = in[3] * sqrtf(scale2);
}

static void mat_mul(const float a[16], const float b[16], float o[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            o[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] +
                           a[12 + r] * b[c * 4 + 3];
}

static void pose_rig(gn_scene *s, gn_scene_rig *g, double seconds)
{
    const gn_scene_anim *a = &s->anims[g->model];
    const gn_anim_model *m = &a->model;
    float speed = g->d.speed != 0 ? g->d.speed : 1;
    gn_anim_pose pose, from;
    gn_anim_pose_bind(m, g->pose_floats, &pose);
    if (g->clip >= 0)
        gn_anim_pose_sample(m, (uint32_t)g->clip,
                            clip_time(m, g->clip, (seconds - g->clip_start) * speed + g->d.time_offset),
                            &pose);
    else
        gn_anim_pose_rest(m, &pose);
    float u = g->fade > 0 ? (float)((seconds - g->fade_start) / g->fade) : 1;
    if (u < 1) { /* a crossfade from the clip it played */
        gn_anim_pose_bind(m, g->pose_floats_b, &from);
        if (g->from_clip >= 0)
            gn_anim_pose_sample(
                m, (uint32_t)g->from_clip,
                clip_time(m, g->from_clip, (seconds - g->from_start) * speed + g->d.time_offset), &from);
        else
            gn_anim_pose_rest(m, &from);
        gn_anim_pose_blend(m, &from, &pose, u < 0 ? 0 : u, &pose);
    }
    gn_anim_world(m, &pose, g->world);
    uint32_t joints = m->skeleton.joint_count;
    gn_skin_palette_rows(&m->skeleton, (const float(*)[16])g->world, g->palette);
    if (g->d.mode == GN_SKIN_DUAL_QUAT)
        gn_skin_palette_dq(&m->skeleton, (const float(*)[16])g->world, g->palette + (size_t)joints * 12);
    float place[16];
    placement(g, seconds, place);
    for (uint32_t p = 0; p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        uint32_t inst = g->first_instance + p;
        float reach = 0;
        g->morph_active[p] = 0;
        if (part->morph >= 0) {
            const gn_morph_set *set = &m->morphs[part->morph];
            uint32_t first = 0;
            for (int32_t k = 0; k < part->morph; k++) first += m->morphs[k].target_count;
            g->morph_active[p] = gn_morph_active(pose.weights + first, set->target_count,
                                                 &g->morph_targets[p * GN_MORPH_MAX_ACTIVE],
                                                 &g->morph_weights[p * GN_MORPH_MAX_ACTIVE]);
            for (uint32_t k = 0; k < g->morph_active[p]; k++)
                reach += fabsf(g->morph_weights[p * GN_MORPH_MAX_ACTIVE + k]) * a->part_reach[p];
        }
        gn_instance *in = &s->instances[inst];
        if (part_is_skinned(part)) {
            /* the palette places the vertices in the model's space; the rig places the model */
            memcpy(in->transform, place, sizeof place);
            float local[4], world[4];
            gn_skin_bounds((const float(*)[4])a->part_spheres[p], joints, g->palette, reach, local);
            sphere_through(place, local, world);
            gn_scene_set_instance_sphere(s, inst, world);
        } else {
            mat_mul(place, g->world[part->node], in->transform);
            gn_scene_update_sphere(s, inst);
            if (reach > 0) {
                float grown[4], zero[4] = {0, 0, 0, reach};
                sphere_through(in->transform, zero, grown);
                float sp[4];
                memcpy(sp, in->sphere, sizeof sp);
                sp[3] += grown[3];
                gn_scene_set_instance_sphere(s, inst, sp);
            }
        }
    }
}

/* Slice i of n: rigs [i * count / n, (i + 1) * count / n). */
static void pose_slice(void *ctx, uint32_t i, uint32_t n)
{
    gn_scene *s = ctx;
    uint32_t first = (uint32_t)((uint64_t)s->rig_count * i / n),
             end = (uint32_t)((uint64_t)s->rig_count * (i + 1) / n);
    for (uint32_t r = first; r < end; r++) pose_rig(s, &s->rigs[r], s->anim_clock);
}

/* Every rig posed at the clock, over up to RIG_THREADS_MAX threads (the caller's among them) of
 * the scene's pool, made the first frame that has enough rigs; without a pool (its threads could
 * not start) the caller poses them all. */
static void pose_all(gn_scene *s)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t n = s->rig_count / RIG_THREAD_MIN;
    if (n > RIG_THREADS_MAX) n = RIG_THREADS_MAX;
    if (cpus > 0 && n > (uint32_t)cpus) n = (uint32_t)cpus;
    if (n >= 2 && !s->pose_workers && !s->pose_workers_failed) {
        uint32_t most = cpus > 0 && (uint32_t)cpus < RIG_THREADS_MAX ? (uint32_t)cpus : RIG_THREADS_MAX;
        s->pose_workers = gn_workers_create(most - 1);
        s->pose_workers_failed = !s->pose_workers;
    }
    gn_workers_run(s->pose_workers, n < 2 ? 1 : n, pose_slice, s);
}

void gn_scene_animate_rigs(gn_scene *s, double seconds)
{
    /* the rigs' clock runs at the scene's animation speed; a frame at the same time keeps it, a
       frame at an earlier time (a cut, a new render) restarts it there */
    double rate = s->anim_speed_set ? s->anim_speed : 1.0;
    if (!s->anim_started || seconds < s->anim_last)
        s->anim_clock = seconds * rate;
    else
        s->anim_clock += (seconds - s->anim_last) * rate;
    s->anim_last = seconds, s->anim_started = true;
    pose_all(s);
    if (s->rig_count) s->dynamic_generation++;
}

/* Quake 3 players as animated models (src/scene/md3_model.c) and characters at a map's spawn
 * points (src/scene/md3_characters.c), on OpenArena's data; skipped (77) without it.
 *
 * sarge: the model passes gn_anim_model_check; "walk" sampled exactly on each of LEGS_WALK's frames
 * puts weight 1 on that frame's target of every lower surface (0 elsewhere, 1e-6) and the upper
 * node on lower.md3's tag_torso of that frame in metres, Y up (1e-5; its rotation too); between
 * frames, and across the loop's seam, the weights are the frame pair and fraction
 * gn_md3_clip_sample gives (the game's CG_RunLerpFrame), 1e-5; at rest (idle's first frame) the
 * head sits above the torso, the feet on y = 0 (1e-4), 1.25 to 1.6 m tall (Quake's 56-unit player
 * box is 1.42 m); 95% of its triangles wound counter-clockwise about their normals; its gun
 * pointing +Z. Every complete player model in the archives loads, and its idle, walk and run
 * follow the game's repeating cycles of legs and torso (1e-4). gn_md3_floor_below on hand-made
 * brushes. oa_dm1 and oa_koth1 (17 spawn points) with `characters`: one rig a spawn point (up to
 * 16), the models' morph deltas within 128 MiB on the GPU, each posed character's lowest vertex
 * within 10 cm of the floor that a ray down the map's drawn triangles (gn_bvh, not the brushes
 * md3_characters.c reads) finds below its spawn point. */
#include "../unit/check.h"
#include "decide/bvh.h"
#include "formats/md3.h"
#include "formats/md3_player.h"
#include "formats/pak.h"
#include "scene/md3_model.h"
#include "scene/rig.h"
#include "scene/scene.h"
#include "scene/world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAKS "/usr/share/games/openarena/baseoa"
#define SARGE "models/players/sarge"

static gn_md3 *read_md3(gn_pak *pak, const char *path)
{
    uint8_t *data = NULL;
    size_t size = 0;
    gn_md3 *m = NULL;
    gn_error err = {0};
    CHECK(gn_pak_read(pak, path, 64u << 20, &data, &size, &err) == GN_OK &&
              gn_md3_parse(data, size, path, &m, &err) == GN_OK,
          "%s: %s", path, err.message);
    free(data);
    return m;
}

/* A point in Quake units, Z up, in metres, Y up (bsp.h's conversion). */
static void to_metres(const float q[3], float out[3])
{
    out[0] = q[0] * GN_BSP_UNIT, out[1] = q[2] * GN_BSP_UNIT, out[2] = -q[1] * GN_BSP_UNIT;
}

/* Quaternion (x, y, z, w) to a column-major 3x3. */
static void quat_matrix(const float q[4], float m[9])
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y + w * z), m[2] = 2 * (x * z - w * y);
    m[3] = 2 * (x * y - w * z), m[4] = 1 - 2 * (x * x + z * z), m[5] = 2 * (y * z + w * x);
    m[6] = 2 * (x * z + w * y), m[7] = 2 * (y * z - w * x), m[8] = 1 - 2 * (x * x + y * y);
}

/* Where set k's weights start in a pose (skin.h: the earlier sets' target counts). */
static uint32_t set_start(const gn_anim_model *m, uint32_t k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < k; i++) n += m->morphs[i].target_count;
    return n;
}

/* The largest difference of the weights of every surface on `node` (lower or upper) from game's
 * blend b: (1 - frac) on frame `from` and frac on `to`. */
static float part_off(const gn_anim_model *m, const gn_anim_pose *pose, uint32_t node, gn_md3_blend b,
                      uint32_t *sets)
{
    uint32_t from = b.from, to = b.to;
    float frac = b.frac, worst = 0;
    *sets = 0;
    for (uint32_t p = 0; p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        if (part->node != node || part->morph < 0) continue;
        (*sets)++;
        const float *w = pose->weights + set_start(m, (uint32_t)part->morph);
        for (uint32_t t = 0; t < m->morphs[part->morph].target_count; t++) {
            float want = (t == from ? 1 - frac : 0) + (t == to ? frac : 0);
            worst = fmaxf(worst, fabsf(w[t] - want));
        }
    }
    return worst;
}

/* The same for lower.md3's surfaces. */
static float weights_off(const gn_anim_model *m, const gn_anim_pose *pose, uint32_t from, uint32_t to,
                         float frac, uint32_t *sets)
{
    return part_off(m, pose, GN_MD3_NODE_LOWER, (gn_md3_blend){from, to, frac}, sets);
}

static void test_sarge(gn_pak *pak)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    gn_error err = {0};
    gn_anim_model m;
    gn_md3_player_info info;
    gn_md3_player_desc d = {.pak = pak, .model_dir = SARGE, .skin = "default"};
    CHECK(gn_md3_player_load(s, &d, &m, &info, &err) == GN_OK, "sarge: %s", err.message);
    char why[256] = "";
    CHECK(gn_anim_model_check(&m, why, sizeof why), "sarge refused by the check: %s", why);
    printf("sarge: frames %u/%u/%u, %u surfaces, %u vertices, %u triangles, %u clips; morph deltas %.2f MiB, "
           "clip keys %.2f MiB; %u surfaces without an image; %.3f m tall, lifted %.3f m\n",
           info.frames[0], info.frames[1], info.frames[2], info.surfaces, info.vertices, info.triangles,
           m.clip_count, (double)info.morph_bytes / (1 << 20), (double)info.clip_bytes / (1 << 20),
           info.missing_images, (double)info.height, (double)info.lift);
    CHECK(info.missing_images == 0, "sarge: %u surfaces without an image (%s)", info.missing_images,
          info.first_missing);
    /* Quake 3's player box is 56 units tall, 1.42 m at GN_BSP_UNIT (bsp.h: the game's world is built
       a little larger than life), so a player model stands about 1.4 m, not a person's 1.75 */
    CHECK(info.height >= 1.25f && info.height <= 1.6f, "sarge is %.3f m tall", (double)info.height);
    CHECK(m.clip_count == 29, "%u clips, 4 pairs and 25 animations expected", m.clip_count);

    gn_md3 *lower = read_md3(pak, SARGE "/lower.md3");
    uint8_t *text = NULL;
    size_t size = 0;
    gn_md3_anim_cfg cfg;
    CHECK(gn_pak_read(pak, SARGE "/animation.cfg", 1u << 20, &text, &size, &err) == GN_OK &&
              gn_md3_anim_cfg_parse((const char *)text, size, "sarge", &cfg, &err) == GN_OK,
          "animation.cfg: %s", err.message);
    free(text);
    if (!lower) return;
    int32_t torso = gn_md3_tag_index(lower, "tag_torso");
    const gn_md3_clip *walk = &cfg.clips[GN_MD3_LEGS_WALK];
    int32_t c = -1;
    for (uint32_t i = 0; i < m.clip_count; i++)
        if (strcmp(m.clips[i].name, "walk") == 0) c = (int32_t)i;
    CHECK(c >= 0 && torso >= 0, "no walk clip (%d) or tag_torso (%d)", c, torso);
    if (c < 0 || torso < 0) return;
    float *floats = malloc(gn_anim_pose_floats(&m) * sizeof(float));
    gn_anim_pose pose;
    gn_anim_pose_bind(&m, floats, &pose);

    /* on each frame: one-hot weights and the upper node on the tag (sarge's walk loops all its
       frames, so the clip's keyframe k is frame first + k) */
    CHECK(walk->loop_frames == walk->frame_count, "sarge's LEGS_WALK loops %u of %u frames",
          walk->loop_frames, walk->frame_count);
    float worst_w = 0, worst_t = 0, worst_r = 0;
    uint32_t sets = 0;
    for (uint32_t k = 0; k < walk->frame_count; k++) {
        float t = (float)k * (float)walk->frame_ms * 0.001f;
        gn_anim_pose_sample(&m, (uint32_t)c, t, &pose);
        uint32_t f = walk->first_frame + k;
        worst_w = fmaxf(worst_w, weights_off(&m, &pose, f, f, 0, &sets));
        gn_md3_tag tag;
        gn_md3_lerp_tag(lower, (uint32_t)torso, (gn_md3_blend){f, f, 0}, &tag);
        float want[3], ax[3][3], r[9];
        to_metres(tag.origin, want);
        for (int i = 0; i < 3; i++) worst_t = fmaxf(worst_t, fabsf(pose.t[GN_MD3_NODE_UPPER][i] - want[i]));
        /* the rotation takes the model's axes to the tag's: column i is the tag's axis, swapped (Quake
           x, y, z axes are the model's x, -z, y) */
        for (int i = 0; i < 3; i++) {
            float q[3] = {tag.axis[i][0], tag.axis[i][1], tag.axis[i][2]};
            ax[i][0] = q[0], ax[i][1] = q[2], ax[i][2] = -q[1];
        }
        quat_matrix(pose.r[GN_MD3_NODE_UPPER], r);
        /* model x = Quake x, model y = Quake z, model z = -Quake y */
        for (int i = 0; i < 3; i++) {
            worst_r = fmaxf(worst_r, fabsf(r[0 + i] - ax[0][i]));
            worst_r = fmaxf(worst_r, fabsf(r[3 + i] - ax[2][i]));
            worst_r = fmaxf(worst_r, fabsf(r[6 + i] + ax[1][i]));
        }
    }
    printf(
        "walk on its %u frames: %u lower surfaces' weights off one-hot by %.2g; upper node off tag_torso by "
        "%.2g m, its rotation by %.2g\n",
        walk->frame_count, sets, (double)worst_w, (double)worst_t, (double)worst_r);
    CHECK(sets > 0 && worst_w <= 1e-6f, "weights off one-hot by %g over %u sets", (double)worst_w, sets);
    CHECK(worst_t <= 1e-5f, "upper node off tag_torso by %g m", (double)worst_t);
    CHECK(worst_r <= 1e-5f, "upper node's rotation off tag_torso's axes by %g", (double)worst_r);

    /* between frames and across the loop's seam: the game's frame pair and fraction */
    float worst_b = 0;
    uint32_t samples = 0;
    for (float t = 0.013f; t < m.clips[c].duration; t += 0.0417f, samples++) {
        gn_anim_pose_sample(&m, (uint32_t)c, t, &pose);
        gn_md3_blend b = gn_md3_clip_sample(walk, t);
        worst_b = fmaxf(worst_b, weights_off(&m, &pose, b.from, b.to, b.frac, &sets));
    }
    float seam = ((float)walk->frame_count - 0.25f) * (float)walk->frame_ms * 0.001f;
    gn_anim_pose_sample(&m, (uint32_t)c, seam, &pose);
    gn_md3_blend b = gn_md3_clip_sample(walk, seam);
    float seam_off = weights_off(&m, &pose, b.from, b.to, b.frac, &sets);
    printf(
        "walk at %u times between frames: weights off the game's lerp by %.2g; at %.4f s (frames %u -> %u, "
        "%.2f) by %.2g\n",
        samples, (double)worst_b, (double)seam, b.from, b.to, (double)b.frac, (double)seam_off);
    CHECK(worst_b <= 1e-5f, "weights off the game's lerp by %g", (double)worst_b);
    CHECK(b.to == walk->first_frame && seam_off <= 1e-5f, "the seam: frames %u -> %u, off by %g", b.from,
          b.to, (double)seam_off);
    CHECK(fabsf(m.clips[c].duration - (float)(walk->frame_count * walk->frame_ms) * 0.001f) < 1e-6f,
          "walk lasts %g s", (double)m.clips[c].duration);

    /* at rest (the standing pose): the head above the torso, the feet on y = 0 */
    float world[GN_MD3_NODES][16];
    gn_anim_pose_rest(&m, &pose);
    gn_anim_world(&m, &pose, world);
    float lo = INFINITY, hi = -INFINITY, centre[GN_MD3_NODES] = {0}, n[GN_MD3_NODES] = {0};
    for (uint32_t p = 0; p < m.part_count; p++) {
        const gn_anim_part *part = &m.parts[p];
        const gn_mesh *mesh = &s->meshes[part->mesh];
        const float *w = world[part->node];
        const gn_morph_set *ms = part->morph >= 0 ? &m.morphs[part->morph] : NULL;
        const float *wt = ms ? pose.weights + set_start(&m, (uint32_t)part->morph) : NULL;
        for (uint32_t v = 0; v < mesh->vertex_count; v++) {
            float x[3];
            memcpy(x, s->vertices[mesh->first_vertex + v].pos, sizeof x);
            for (uint32_t t = 0; ms && t < ms->target_count; t++)
                for (int i = 0; i < 3; i++)
                    x[i] += wt[t] * ms->deltas[((size_t)t * ms->vertex_count + v) * 6 + i];
            float y = w[1] * x[0] + w[5] * x[1] + w[9] * x[2] + w[13];
            lo = fminf(lo, y), hi = fmaxf(hi, y);
            centre[part->node] += y, n[part->node]++;
        }
    }
    for (int k = 0; k < GN_MD3_NODES; k++) centre[k] /= n[k] > 0 ? n[k] : 1;
    printf("at rest: feet at %.4f m, top %.3f m; mean height of the legs %.3f, torso %.3f, head %.3f m; "
           "head node %.3f m above the torso's\n",
           (double)lo, (double)hi, (double)centre[1], (double)centre[2], (double)centre[3],
           (double)(world[GN_MD3_NODE_HEAD][13] - world[GN_MD3_NODE_UPPER][13]));
    CHECK(fabsf(lo) < 1e-4f, "the feet at %g m, not on y = 0", (double)lo);
    CHECK(centre[3] > centre[2] && centre[2] > centre[1], "head %g, torso %g, legs %g: not stacked",
          (double)centre[3], (double)centre[2], (double)centre[1]);
    CHECK(world[GN_MD3_NODE_HEAD][13] > world[GN_MD3_NODE_UPPER][13], "the head's tag below the torso's");

    /* winding: a triangle's counter-clockwise normal agrees with its corners' normals (the game's
       clockwise triangles flipped); facing: the gun (a weapon's barrel lies along upper.md3's
       tag_weapon's first axis) points the model's +Z in the standing pose */
    uint32_t agree = 0, tris = 0;
    for (uint32_t p = 0; p < m.part_count; p++) {
        const gn_mesh *mesh = &s->meshes[m.parts[p].mesh];
        for (uint32_t i = 0; i + 2 < mesh->index_count; i += 3) {
            const gn_vertex *va = &s->vertices[mesh->first_vertex + s->indices[mesh->first_index + i]];
            const gn_vertex *vb = &s->vertices[mesh->first_vertex + s->indices[mesh->first_index + i + 1]];
            const gn_vertex *vc = &s->vertices[mesh->first_vertex + s->indices[mesh->first_index + i + 2]];
            float e1[3], e2[3], nrm[3], dot = 0;
            for (int k = 0; k < 3; k++) e1[k] = vb->pos[k] - va->pos[k], e2[k] = vc->pos[k] - va->pos[k];
            nrm[0] = e1[1] * e2[2] - e1[2] * e2[1], nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
            nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
            for (int k = 0; k < 3; k++) dot += nrm[k] * (va->normal[k] + vb->normal[k] + vc->normal[k]);
            agree += dot > 0, tris++;
        }
    }
    gn_md3 *upper = read_md3(pak, SARGE "/upper.md3");
    int32_t weapon = upper ? gn_md3_tag_index(upper, "tag_weapon") : -1;
    float aim[3] = {0, 0, 0};
    if (weapon >= 0) {
        uint32_t f = cfg.clips[GN_MD3_TORSO_STAND].first_frame;
        gn_md3_tag tag;
        gn_md3_lerp_tag(upper, (uint32_t)weapon, (gn_md3_blend){f, f, 0}, &tag);
        float x[3] = {tag.axis[0][0], tag.axis[0][2], -tag.axis[0][1]};
        const float *u = world[GN_MD3_NODE_UPPER];
        for (int i = 0; i < 3; i++) aim[i] = u[i] * x[0] + u[4 + i] * x[1] + u[8 + i] * x[2];
    }
    printf("%u of %u triangles face the way their normals do; the gun points (%.2f %.2f %.2f)\n", agree, tris,
           (double)aim[0], (double)aim[1], (double)aim[2]);
    CHECK(agree >= tris * 0.95, "only %u of %u triangles wound counter-clockwise about their normals", agree,
          tris);
    CHECK(weapon >= 0 && aim[2] > 0.7f, "the gun points (%g %g %g): the model does not face +Z",
          (double)aim[0], (double)aim[1], (double)aim[2]);
    gn_md3_free(upper);
    free(floats);
    gn_md3_free(lower);
    gn_anim_model_free(&m);
    gn_scene_destroy(s);
}

/* The largest difference over 40 times of "idle", "walk" and "run" from the game's repeating cycles
 * (after the first pass: gn_md3_clip_sample at t plus the animation's whole length) of the legs and
 * of the torso (TORSO_STAND), in the lower and upper surfaces' weights; *leads counts animations
 * with a lead-in before their loop, *longest the longest of those clips. */
static float cycle_off(gn_pak *pak, const char *dir, const gn_anim_model *m, uint32_t *leads, float *longest)
{
    char path[320];
    snprintf(path, sizeof path, "%s/animation.cfg", dir);
    uint8_t *text = NULL;
    size_t size = 0;
    gn_md3_anim_cfg cfg;
    gn_error err = {0};
    if (gn_pak_read(pak, path, 1u << 20, &text, &size, &err) ||
        gn_md3_anim_cfg_parse((const char *)text, size, path, &cfg, &err)) {
        CHECK(false, "%s", err.message);
        free(text);
        return INFINITY;
    }
    free(text);
    static const struct {
        const char *clip;
        gn_md3_anim legs;
    } cycles[] = {{"idle", GN_MD3_LEGS_IDLE}, {"walk", GN_MD3_LEGS_WALK}, {"run", GN_MD3_LEGS_RUN}};
    float *floats = malloc(gn_anim_pose_floats(m) * sizeof(float)), worst = 0;
    gn_anim_pose pose;
    gn_anim_pose_bind(m, floats, &pose);
    for (int k = 0; k < 3; k++) {
        int32_t c = -1;
        for (uint32_t i = 0; i < m->clip_count; i++)
            if (strcmp(m->clips[i].name, cycles[k].clip) == 0) c = (int32_t)i;
        CHECK(c >= 0, "%s: no clip %s", dir, cycles[k].clip);
        if (c < 0) continue;
        /* the legs' cycle, and the torso's (TORSO_STAND: one frame, or a cycle of its own) */
        const gn_md3_clip *parts[2] = {&cfg.clips[cycles[k].legs], &cfg.clips[GN_MD3_TORSO_STAND]};
        for (uint32_t p = 0; p < 2; p++) {
            const gn_md3_clip *a = parts[p];
            bool loops = a->frame_count > 1 && a->loop_frames;
            *leads += (p == 0 || k == 0) && loops && a->loop_frames < a->frame_count; /* the torso once */
            double lead = loops ? (double)a->frame_count * a->frame_ms * 1e-3 : 0;
            for (int j = 0; j < 40; j++) {
                float t = m->clips[c].duration * ((float)j + 0.37f) / 40.0f;
                gn_anim_pose_sample(m, (uint32_t)c, t, &pose);
                uint32_t sets;
                worst = fmaxf(
                    worst, part_off(m, &pose, GN_MD3_NODE_LOWER + p, gn_md3_clip_sample(a, lead + t), &sets));
            }
        }
        *longest = fmaxf(*longest, m->clips[c].duration);
    }
    free(floats);
    return worst;
}

/* Every player model the archives hold whole loads and passes the check. */
static void test_every_model(gn_pak *pak)
{
    char **names = NULL;
    uint32_t count = 0, loaded = 0, missing = 0;
    gn_error err = {0};
    CHECK(gn_pak_list(pak, "models/players", "", &names, &count, &err) == GN_OK, "%s", err.message);
    float lo = INFINITY, hi = 0, worst = 0, longest = 0;
    size_t most = 0, gpu = 0;
    uint32_t leads = 0;
    for (uint32_t i = 0; i < count; i++) {
        char dir[256], path[320];
        snprintf(dir, sizeof dir, "models/players/%s", names[i]);
        static const char *const need[] = {"lower.md3", "upper.md3", "head.md3", "animation.cfg"};
        bool whole = true;
        for (int k = 0; k < 4 && whole; k++) {
            snprintf(path, sizeof path, "%s/%s", dir, need[k]);
            whole = gn_pak_exists(pak, path);
        }
        free(names[i]);
        if (!whole) continue;
        gn_scene *s = NULL;
        gn_scene_create(&s, NULL);
        gn_anim_model m;
        gn_md3_player_info info;
        gn_md3_player_desc d = {.pak = pak, .model_dir = dir};
        gn_result res = gn_md3_player_load(s, &d, &m, &info, &err);
        CHECK(res == GN_OK, "%s: %s", dir, err.message);
        if (!res) worst = fmaxf(worst, cycle_off(pak, dir, &m, &leads, &longest));
        if (!res) {
            loaded++, missing += info.missing_images;
            lo = fminf(lo, info.height), hi = fmaxf(hi, info.height);
            most = info.clip_bytes + info.morph_bytes > most ? info.clip_bytes + info.morph_bytes : most;
            gpu = info.morph_bytes / 24 * 32 > gpu ? info.morph_bytes / 24 * 32 : gpu; /* 32 bytes a delta */
        }
        gn_anim_model_free(&m);
        gn_scene_destroy(s);
    }
    free(names);
    printf("%u player models load (%u surfaces without an image); %.2f to %.2f m tall; at most %.1f MiB of "
           "morph deltas and keys (%.1f MiB of deltas on the GPU); idle, walk and run (the longest %.2f s; "
           "%u legs or torsos with a lead-in) "
           "off "
           "the game's repeating cycles by %.2g\n",
           loaded, missing, (double)lo, (double)hi, (double)most / (1 << 20), (double)gpu / (1 << 20),
           (double)longest, leads, (double)worst);
    CHECK(worst <= 1e-4f, "a looping clip off the game's cycle by %g", (double)worst);
    CHECK(loaded >= 10, "only %u player models load", loaded);
}

/* ---- the floor below a point, on hand-made brushes ------------------------------------------ */

static void test_floor(void)
{
    /* two boxes under x, z in -1..1: y -1..0 (solid) and y -3..-2 (player clip); a third, y 1..2,
       not solid (water) */
    gn_bsp_plane planes[18];
    gn_bsp_brushside sides[18];
    gn_bsp_brush brushes[3];
    gn_bsp_texture tex[3] = {{.contents = 1}, {.contents = 0x10000}, {.contents = 0x20}};
    const float ys[3][2] = {{-1, 0}, {-3, -2}, {1, 2}};
    for (int bi = 0; bi < 3; bi++) {
        const float n[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        const float dist[6] = {1, 1, ys[bi][1], -ys[bi][0], 1, 1};
        for (int k = 0; k < 6; k++) {
            int i = bi * 6 + k;
            planes[i] = (gn_bsp_plane){{n[k][0], n[k][1], n[k][2]}, dist[k]};
            sides[i] = (gn_bsp_brushside){(uint32_t)i, bi};
        }
        brushes[bi] = (gn_bsp_brush){(uint32_t)(bi * 6), 6, bi};
    }
    gn_bsp b = {.textures = tex,
                .texture_count = 3,
                .planes = planes,
                .plane_count = 18,
                .brushes = brushes,
                .brush_count = 3,
                .brushsides = sides,
                .brushside_count = 18};
    float y = 99;
    bool hit = gn_md3_floor_below(&b, (float[3]){0.5f, 3, 0}, 10, &y);
    CHECK(hit && fabsf(y) < 1e-6f, "from above both: %d %g (0 expected)", hit, (double)y);
    hit = gn_md3_floor_below(&b, (float[3]){0.5f, -1.5f, 0}, 10, &y);
    CHECK(hit && fabsf(y + 2) < 1e-6f, "between them: %d %g (-2 expected)", hit, (double)y);
    hit = gn_md3_floor_below(&b, (float[3]){0.5f, -0.5f, 0}, 10, &y);
    CHECK(hit && fabsf(y + 2) < 1e-6f, "inside the top box: %d %g (-2, the one below)", hit, (double)y);
    CHECK(!gn_md3_floor_below(&b, (float[3]){1.5f, 3, 0}, 10, &y), "beside both: a floor found");
    CHECK(!gn_md3_floor_below(&b, (float[3]){0, 3, 0}, 2.5f, &y), "2.5 m down from 3 m: a floor found");
}

/* ---- a map's characters ---------------------------------------------------------------------- */

static char info_line[1024];
static void capture(gn_log_level level, const char *msg, void *user)
{
    (void)user;
    if (level == GN_LOG_INFO && strstr(msg, "characters")) snprintf(info_line, sizeof info_line, "%s", msg);
    if (level <= GN_LOG_WARN) printf("  warning: %s\n", msg);
}

/* The lowest vertex of rig g as gn_scene_animate posed it: each part's frame-0 mesh plus its active
 * morph deltas, through its instance's transform. */
static float rig_feet(const gn_scene *s, const gn_scene_rig *g)
{
    const gn_anim_model *m = &s->anims[g->model].model;
    float lo = INFINITY;
    for (uint32_t p = 0; p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        const gn_mesh *mesh = &s->meshes[part->mesh];
        const float *t = s->instances[g->first_instance + p].transform;
        for (uint32_t v = 0; v < mesh->vertex_count; v++) {
            float x[3];
            memcpy(x, s->vertices[mesh->first_vertex + v].pos, sizeof x);
            for (uint32_t a = 0; a < g->morph_active[p]; a++) {
                const gn_morph_set *ms = &m->morphs[part->morph];
                uint32_t target = g->morph_targets[p * GN_MORPH_MAX_ACTIVE + a];
                float w = g->morph_weights[p * GN_MORPH_MAX_ACTIVE + a];
                for (int i = 0; i < 3; i++)
                    x[i] += w * ms->deltas[((size_t)target * ms->vertex_count + v) * 6 + i];
            }
            lo = fminf(lo, t[1] * x[0] + t[5] * x[1] + t[9] * x[2] + t[13]);
        }
    }
    return lo;
}

static void test_map(const char *map)
{
    gn_load_desc d = {.path = map, .paks = PAKS, .characters = true, .log = capture};
    gn_scene *s = NULL;
    gn_error err = {0};
    CHECK(gn_scene_load(&d, &s, &err) == GN_OK, "%s with characters: %s", map, err.message);
    if (!s) return;
    const gn_world *w = s->world;
    /* the spawn points, and the map's drawn triangles for the rays */
    uint32_t spawns = 0;
    float origins[16][3];
    gn_bsp_entity_cursor cur = {0};
    gn_bsp_entity e;
    while (gn_bsp_entity_next(&w->bsp, NULL, &cur, &e))
        if ((!strcmp(e.classname, "info_player_deathmatch") || !strcmp(e.classname, "info_player_start")) &&
            e.has_origin) {
            if (spawns < 16) memcpy(origins[spawns], e.origin, sizeof e.origin);
            spawns++;
        }
    uint32_t want = spawns < 16 ? spawns : 16;
    /* the skin pass binds every model's deltas as one storage buffer: within the 128 MiB of range
       every Vulkan device offers (32 bytes a delta there) */
    uint64_t deltas = 0;
    for (uint32_t a = 0; a < s->anim_count; a++)
        for (uint32_t k = 0; k < s->anims[a].model.morph_count; k++)
            deltas +=
                (uint64_t)s->anims[a].model.morphs[k].target_count * s->anims[a].model.morphs[k].vertex_count;
    printf("%s: %u models, %.1f MiB of morph deltas on the GPU\n", map, s->anim_count,
           (double)(deltas * 32) / (1 << 20));
    CHECK(deltas * 32 <= (128ull << 20), "%s: %llu morph deltas, over 128 MiB on the GPU", map,
          (unsigned long long)deltas);
    printf("%s: %u spawn points, %u rigs; \"%s\"\n", map, spawns, s->rig_count, info_line);
    CHECK(s->rig_count == want, "%u rigs for %u spawn points (%u expected)", s->rig_count, spawns, want);
    CHECK(strstr(info_line, "characters (models ") != NULL, "no info line naming the characters");
    uint32_t tris = 0;
    float *corners = malloc((size_t)w->mesh.index_count * 3 * sizeof(float));
    for (uint32_t f = 0; f < w->mesh.face_count; f++) {
        if (w->face_instance[f] == UINT32_MAX) continue; /* not drawn (sky, nodraw) */
        const gn_bsp_face_range *fr = &w->mesh.faces[f];
        for (uint32_t k = 0; k < fr->index_count; k++)
            memcpy(&corners[((size_t)tris * 3 + k) * 3],
                   w->mesh.vertices[w->mesh.indices[fr->first_index + k]].pos, 3 * sizeof(float));
        tris += fr->index_count / 3;
    }
    gn_bvh *bvh = gn_bvh_build(corners, tris);
    free(corners);
    float worst = 0;
    for (uint32_t r = 0; r < s->rig_count && r < want; r++) {
        const float down[3] = {0, -1, 0};
        float t = gn_bvh_ray(bvh, origins[r], down, 30.0f, NULL);
        float floor = origins[r][1] - t, feet = rig_feet(s, &s->rigs[r]);
        const float *at = &s->rigs[r].d.transform[12];
        CHECK(t < 30.0f, "spawn %u: no floor below (%g %g %g)", r, (double)origins[r][0],
              (double)origins[r][1], (double)origins[r][2]);
        CHECK(fabsf(at[0] - origins[r][0]) < 1e-4f && fabsf(at[2] - origins[r][2]) < 1e-4f,
              "rig %u at (%g, %g), its spawn at (%g, %g)", r, (double)at[0], (double)at[2],
              (double)origins[r][0], (double)origins[r][2]);
        CHECK(fabsf(feet - floor) <= 0.10f, "rig %u: feet at %.3f m, the floor below its spawn at %.3f m", r,
              (double)feet, (double)floor);
        worst = fmaxf(worst, fabsf(feet - floor));
        if (r < 4)
            printf("  rig %u (%s, %s): spawn %.2f m above the floor, feet %.3f m from it\n", r,
                   s->anims[s->rigs[r].model].model.name,
                   s->anims[s->rigs[r].model].model.clips[s->rigs[r].clip].name, (double)t,
                   (double)(feet - floor));
    }
    printf("%s: every character's feet within %.3f m of the floor below its spawn point\n", map,
           (double)worst);
    gn_bvh_free(bvh);
    gn_scene_destroy(s);
}

int main(void)
{
    test_floor();
    gn_pak *pak = NULL;
    gn_error err = {0};
    FILE *probe = fopen(PAKS "/pak0.pk3", "rb");
    if (!probe || gn_pak_open(PAKS, &pak, &err) != GN_OK) {
        if (probe) fclose(probe);
        printf("skipped: %s not installed (Debian openarena-data)\n", PAKS);
        return gn_check_failures ? 1 : 77;
    }
    fclose(probe);
    test_sarge(pak);
    test_every_model(pak);
    gn_pak_close(pak); /* one set of archives open at a time (pak.c) */
    test_map("oa_dm1");
    test_map("oa_koth1"); /* 17 spawn points: the first 16 take characters */
    return gn_check_exit();
}

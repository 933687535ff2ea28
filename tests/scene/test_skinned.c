/* Animated models (src/formats/skinned.c): the skinned, morphing and animated samples of Debian's
 * assimp-testmodels in every format the loader reads (glTF, IQM, MD5, FBX, COLLADA), each loaded
 * into a scene with its model, one line printed a model, every model checked by
 * gn_anim_model_check, every skinned vertex's weights summing to one and every skinned shape, at
 * the rest pose and each clip's start, no squashed box of its bind mesh. What is knowable by hand
 * is checked against the files' own numbers: simple_skin's two joints and its rotation keys,
 * AnimatedMorphCube's two targets and weights channel, mrfixit's 101 frames at 24 a second. A
 * glTF written here checks what assimp 5.2.5 would lose (a STEP sampler, a CUBICSPLINE one's
 * tangents); one of three JOINTS_n/WEIGHTS_n sets, its influences (the file's, the 8 largest of
 * 10, skinned at a pose as the hand-computed blend); simple_skin with a second set of zeros, that
 * it loads the same. Corrupted files (a joint index past the skin, a NaN weight, decreasing times,
 * unpaired sets, a truncated IQM, an IQM joint whose parent is not earlier) are refused with a
 * message naming the fault, the scene as it was. CPU only; skipped (77) without
 * /usr/share/assimp/models. */
#if defined(__SANITIZE_ADDRESS__)
#define GN_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GN_TEST_ASAN 1
#endif
#endif
#include "base/gmath.h"
#include "formats/skinned.h"
#include "scene/scene.h"
#include "scene_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef GN_TEST_TMP
#define GN_TEST_TMP "."
#endif
#ifndef GN_ASSIMP_MODELS
#define GN_ASSIMP_MODELS "/usr/share/assimp/models"
#endif
#define GN_WEIGHT_EPS 1e-4f /* a vertex's weights after loading: one, to float rounding */
#define GN_VALUE_EPS 1e-4f  /* a sampled value against the file's numbers */

static void quiet(gn_log_level level, const char *msg, void *user)
{
    (void)user;
    if (level <= GN_LOG_WARN) printf("  warning: %s\n", msg);
}

/* The model's one line: what the loader made of the file. */
static void print_model(const char *label, const gn_anim_model *m, const gn_skinned_stats *st)
{
    printf("%s (%s, clips from %s): nodes %u, joints %u, parts %u (%u skinned, %llu skinned vertices), "
           "morph targets %u in %u sets, clips %u",
           label, gn_skinned_format_name(st->format), st->clips_from, st->nodes, st->joints, st->parts,
           st->skinned_parts, (unsigned long long)st->skinned_vertices, st->morph_targets, st->morph_sets,
           st->clips);
    for (uint32_t c = 0; c < m->clip_count && c < 4; c++)
        printf("%s'%s' %.3f s", c ? ", " : " [", m->clips[c].name, (double)m->clips[c].duration);
    printf("%s, max influences %u, renormalised %u, truncated %u, unweighted %u, keys dropped %u\n",
           m->clip_count ? "]" : "", st->max_influences, st->renormalised, st->truncated, st->unweighted,
           st->keys_dropped);
}

/* Every model: the check passes, every weight sum is one. */
static int check_model(const gn_anim_model *m)
{
    char why[256];
    CHECK(gn_anim_model_check(m, why, sizeof why), "%s", why);
    for (uint32_t p = 0; p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        for (uint32_t v = 0; part->influences && v < part->vertex_count; v++) {
            float sum = 0;
            for (int i = 0; i < GN_SKIN_INFLUENCES; i++) sum += part->influences[v].weight[i];
            CHECK(fabsf(sum - 1.0f) <= GN_WEIGHT_EPS, "part %u vertex %u: weights sum to %.7f", p, v,
                  (double)sum);
        }
    }
    return 0;
}

/* What a pose makes of a model's skinned parts: the box of the skinned vertices, the box of the
 * same vertices where the bind-pose mesh sits on its node (world(node) * v at the rest pose), and
 * the farthest a vertex lies from its bind placement. */
typedef struct posed_box {
    float lo[3], hi[3];           /* skinned */
    float bind_lo[3], bind_hi[3]; /* bind-pose mesh placed by its node */
    float worst;
    uint32_t vertices;
} posed_box;

static float box_diag(const float lo[3], const float hi[3])
{
    return sqrtf((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                 (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

/* The rest pose (clip < 0) or clip `clip` at t seconds. The bind placement is the rest pose's. */
static void pose_box(const gn_scene *s, const gn_anim_model *m, int32_t clip, float t, posed_box *out)
{
    uint32_t nn = m->skeleton.node_count;
    float *pose_f = malloc(gn_anim_pose_floats(m) * sizeof *pose_f), (*rest)[16] = malloc(nn * sizeof *rest),
          (*world)[16] = malloc(nn * sizeof *world);
    float *rows = malloc((m->skeleton.joint_count + 1) * 12 * sizeof *rows);
    gn_anim_pose pose;
    gn_anim_pose_bind(m, pose_f, &pose);
    gn_anim_pose_rest(m, &pose);
    gn_anim_world(m, &pose, rest);
    if (clip >= 0) gn_anim_pose_sample(m, (uint32_t)clip, t, &pose);
    gn_anim_world(m, &pose, world);
    gn_skin_palette_rows(&m->skeleton, (const float(*)[16])world, rows);
    *out = (posed_box){.lo = {INFINITY, INFINITY, INFINITY},
                       .hi = {-INFINITY, -INFINITY, -INFINITY},
                       .bind_lo = {INFINITY, INFINITY, INFINITY},
                       .bind_hi = {-INFINITY, -INFINITY, -INFINITY}};
    for (uint32_t p = 0; p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        const gn_mesh *mesh = &s->meshes[part->mesh];
        for (uint32_t v = 0; part->influences && v < part->vertex_count; v++) {
            const gn_vertex *vx = &s->vertices[mesh->first_vertex + v];
            float placed[3], skinned[3], n[3], tg[4];
            gn_mat4_point(rest[part->node], vx->pos, placed);
            gn_skin_vertex(vx->pos, vx->normal, vx->tangent, v, NULL, NULL, NULL, 0, &part->influences[v],
                           GN_SKIN_LINEAR, rows, skinned, n, tg);
            float d2 = 0;
            for (int k = 0; k < 3; k++) {
                out->lo[k] = fminf(out->lo[k], skinned[k]), out->hi[k] = fmaxf(out->hi[k], skinned[k]);
                out->bind_lo[k] = fminf(out->bind_lo[k], placed[k]);
                out->bind_hi[k] = fmaxf(out->bind_hi[k], placed[k]);
                d2 += (skinned[k] - placed[k]) * (skinned[k] - placed[k]);
            }
            out->worst = fmaxf(out->worst, sqrtf(d2));
            out->vertices++;
        }
    }
    free(pose_f), free(rest), free(world), free(rows);
}

/* How far the rest pose's skinning moves a skinned part's vertices from where the bind-pose mesh
 * sits on its node, over the model's size: 0 where the rest pose is the bind pose (IQM's joints
 * by construction, MD5's). Not 0 where a file binds elsewhere: simple_skin's inverse binds shift
 * x by -0.5, box_nested_animation.dae's bind shape matrix places the box away from its node
 * (COLLADA skins ignore that node, as glTF's do), animation_with_skeleton.fbx's node tree holds
 * Blender's last pose (Bone.005 bent 37 degrees) while its clip's t = 0 is the bind pose. */
static float rest_offset(const gn_scene *s, const gn_anim_model *m)
{
    posed_box b;
    pose_box(s, m, -1, 0, &b);
    if (!b.vertices) return 0;
    float size = box_diag(b.bind_lo, b.bind_hi);
    return size > 0 ? b.worst / size : b.worst;
}

/* The skinned shape is the bind mesh's, not a collapsed or blown-up one: at the rest pose and at
 * t = 0 of every clip, the skinned box's diagonal is within a factor of 2 of the placed bind
 * box's, and no axis shrinks below half the bind box's extent on it (less 1e-3 of the diagonal:
 * simple_skin is flat in z). A pose may bend a part (grow an axis), never squash it flat. */
#define GN_SHAPE_FACTOR 2.0f
static float gn_clip0_offset; /* clip 0 at t = 0 against the bind placement, over the bind box */
static int check_shape(const char *rel, const gn_scene *s, const gn_anim_model *m)
{
    gn_clip0_offset = INFINITY;
    for (int32_t clip = -1; clip < (int32_t)m->clip_count; clip++) {
        posed_box b;
        pose_box(s, m, clip, 0, &b);
        if (!b.vertices) return 0;
        float diag = box_diag(b.lo, b.hi), bind = box_diag(b.bind_lo, b.bind_hi);
        printf("  %s%s%s: skinned box %.4g x %.4g x %.4g, bind box %.4g x %.4g x %.4g\n",
               clip < 0 ? "rest pose" : "clip '", clip < 0 ? "" : m->clips[clip].name,
               clip < 0 ? "" : "' at t = 0", (double)(b.hi[0] - b.lo[0]), (double)(b.hi[1] - b.lo[1]),
               (double)(b.hi[2] - b.lo[2]), (double)(b.bind_hi[0] - b.bind_lo[0]),
               (double)(b.bind_hi[1] - b.bind_lo[1]), (double)(b.bind_hi[2] - b.bind_lo[2]));
        if (clip == 0) gn_clip0_offset = bind > 0 ? b.worst / bind : b.worst;
        CHECK(diag <= GN_SHAPE_FACTOR * bind && bind <= GN_SHAPE_FACTOR * diag,
              "%s: the skinned box's diagonal %g, the bind box's %g", rel, (double)diag, (double)bind);
        for (int k = 0; k < 3; k++) {
            float ext = b.hi[k] - b.lo[k], want = b.bind_hi[k] - b.bind_lo[k];
            CHECK(ext >= want / GN_SHAPE_FACTOR - 1e-3f * bind, "%s: axis %d squashed: %g, the bind box %g",
                  rel, k, (double)ext, (double)want);
        }
    }
    return 0;
}

/* Loads a sample into a fresh scene; the model and stats out, the scene's meshes counted, the
 * skinned shape checked (check_shape). */
static float gn_rest;
static int load(const char *rel, gn_anim_model *m, gn_skinned_stats *st)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", GN_ASSIMP_MODELS, rel);
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_skinned_desc d = {.log = quiet}; /* images too: mrfixit.iqm's two JPEGs lie next to it */
    gn_result r = gn_skinned_load(s, path, &d, m, st, &err);
    CHECK(r == GN_OK, "%s: %s", rel, err.message);
    CHECK(s->instance_count == 0, "%s: %u instances; the loader adds none", rel, s->instance_count);
    CHECK(s->mesh_count == st->meshes.meshes, "%s: %u meshes in the scene, %u added", rel, s->mesh_count,
          st->meshes.meshes);
    for (uint32_t p = 0; p < m->part_count; p++)
        CHECK(m->parts[p].mesh < s->mesh_count &&
                  s->meshes[m->parts[p].mesh].vertex_count == m->parts[p].vertex_count,
              "%s: part %u's mesh %u does not match the scene's", rel, p, m->parts[p].mesh);
    gn_rest = rest_offset(s, m);
    print_model(rel, m, st);
    printf("  rest pose against bind pose: %.2g of the model's size\n", (double)gn_rest);
    int bad = check_shape(rel, s, m);
    gn_scene_destroy(s);
    return bad ? bad : check_model(m);
}

static const gn_anim_channel *find_channel(const gn_anim_clip *c, gn_anim_path path, uint32_t target)
{
    for (uint32_t k = 0; k < c->channel_count; k++)
        if (c->channels[k].path == path && c->channels[k].target == target) return &c->channels[k];
    return NULL;
}

static int32_t find_node(const gn_anim_model *m, const char *name)
{
    for (uint32_t n = 0; n < m->skeleton.node_count; n++)
        if (strcmp(m->skeleton.nodes[n].name, name) == 0) return (int32_t)n;
    return -1;
}

static bool near4(const float *a, float x, float y, float z, float w)
{
    return fabsf(a[0] - x) < GN_VALUE_EPS && fabsf(a[1] - y) < GN_VALUE_EPS &&
           fabsf(a[2] - z) < GN_VALUE_EPS && fabsf(a[3] - w) < GN_VALUE_EPS;
}

/* simple_skin.gltf: two joints (nodes 1 and 2), one clip rotating node 2 about z; its fourth
 * buffer holds 12 times 0, 0.5 .. 5.5 and the rotations (0, 0, 0, 1), (0, 0, 0.383, 0.924),
 * (0, 0, 0.707, 0.707) x2, ... as written there (not quite unit: the loader normalises them). */
static int test_simple_skin(void)
{
    gn_anim_model m;
    gn_skinned_stats st;
    if (load("glTF2/simple_skin/simple_skin.gltf", &m, &st)) return 1;
    CHECK(m.skeleton.joint_count == 2, "%u joints", m.skeleton.joint_count);
    CHECK(m.clip_count == 1 && fabsf(m.clips[0].duration - 5.5f) < 1e-6f, "%u clips, the first %g s",
          m.clip_count, m.clip_count ? (double)m.clips[0].duration : 0.0);
    int32_t joint2 = find_node(&m, "nodes[2]"); /* assimp names an unnamed glTF node after its index */
    CHECK(joint2 >= 0 && m.skeleton.joint_node[1] == (uint32_t)joint2, "joint 1 is node %u, nodes[2] is %d",
          m.skeleton.joint_node[1], joint2);
    const gn_anim_channel *ch = find_channel(&m.clips[0], GN_ANIM_PATH_ROTATION, (uint32_t)joint2);
    CHECK(ch && ch->sampler.count == 12 && ch->sampler.interp == GN_ANIM_LINEAR, "no 12-key LINEAR rotation");
    float q[4], len = sqrtf(0.383f * 0.383f + 0.924f * 0.924f);
    gn_anim_sample(&ch->sampler, 0.5f, q);
    CHECK(near4(q, 0, 0, 0.383f / len, 0.924f / len), "at 0.5 s: %g %g %g %g", q[0], q[1], q[2], q[3]);
    /* halfway from the identity to key 1: half its angle about z (slerp) */
    float half = atan2f(0.383f, 0.924f) * 0.5f;
    gn_anim_sample(&ch->sampler, 0.25f, q);
    CHECK(near4(q, 0, 0, sinf(half), cosf(half)), "at 0.25 s: %g %g %g %g", q[0], q[1], q[2], q[3]);
    gn_anim_sample(&ch->sampler, 1.25f, q);
    CHECK(near4(q, 0, 0, 0.70710677f, 0.70710677f), "at 1.25 s: %g %g %g %g", q[0], q[1], q[2], q[3]);
    /* the file's vertices 4 and 5 weigh 0.5 on each joint (its second buffer) */
    CHECK(st.max_influences == 2 && st.renormalised == 0 && st.unweighted == 0,
          "influences %u, renormalised %u", st.max_influences, st.renormalised);
    gn_anim_model_free(&m);
    return 0;
}

static int test_morph_cube(void)
{
    gn_anim_model m;
    gn_skinned_stats st;
    if (load("glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf", &m, &st)) return 1;
    CHECK(m.morph_count == 1 && m.morphs[0].target_count == 2, "%u morph sets", m.morph_count);
    CHECK(m.parts[0].morph == 0 && m.skeleton.joint_count == 0, "part 0 morph %d", m.parts[0].morph);
    CHECK(m.clip_count == 1 && strcmp(m.clips[0].name, "Square") == 0, "clips %u", m.clip_count);
    const gn_anim_channel *ch = find_channel(&m.clips[0], GN_ANIM_PATH_WEIGHTS, 0);
    /* accessors[10]: 127 times up to 4.19999743 s; [11]: 254 weights, two a keyframe */
    CHECK(ch && ch->sampler.count == 127 && ch->sampler.width == 2, "no 127-key weights channel of 2");
    CHECK(fabsf(m.clips[0].duration - 4.19999743f) < 1e-6f, "duration %g", (double)m.clips[0].duration);
    /* the "thin" target moves y by up to 0.0189 (accessors[4].max), "angle" by 0.0199 */
    CHECK(fabsf(m.morphs[0].max_delta - 0.0198908355f) < 1e-5f, "max delta %g",
          (double)m.morphs[0].max_delta);
    gn_anim_model_free(&m);
    return 0;
}

static int test_formats(void)
{
    gn_anim_model m;
    gn_skinned_stats st;
    /* IQM: 75 joints, blend weights on both meshes, one animation of 101 frames at 24 a second */
    if (load("IQM/mrfixit.iqm", &m, &st)) return 1;
    CHECK(m.skeleton.joint_count == 75 && st.skinned_parts == 2, "%u joints, %u skinned parts",
          m.skeleton.joint_count, st.skinned_parts);
    CHECK(st.meshes.textures == 2 && st.meshes.textures_missing == 0, "%u textures, %u missing",
          st.meshes.textures, st.meshes.textures_missing);
    CHECK(m.clip_count == 1 && strcmp(m.clips[0].name, "idle") == 0 &&
              fabsf(m.clips[0].duration - 100.0f / 24) < 1e-5f,
          "clip %s %g", m.clip_count ? m.clips[0].name : "-",
          m.clip_count ? (double)m.clips[0].duration : 0.0);
    /* the inverse binds are the joints' own rest pose inverted: skinning at rest moves nothing */
    CHECK(gn_rest < 1e-5f, "the rest pose moves the vertices by %g of the model", (double)gn_rest);
    gn_anim_model_free(&m);
    /* MD5: joints origin, root and joint1; the mesh weighs root and joint1 (no .md5anim) */
    if (load("MD5/SimpleCube.md5mesh", &m, &st)) return 1;
    CHECK(m.skeleton.joint_count == 2 && m.clip_count == 0, "%u joints %u clips", m.skeleton.joint_count,
          m.clip_count);
    CHECK(gn_rest < 1e-5f, "the rest pose moves the vertices by %g of the model", (double)gn_rest);
    gn_anim_model_free(&m);
    if (load("FBX/animation_with_skeleton.fbx", &m, &st)) return 1;
    CHECK(m.skeleton.joint_count >= 14 && m.clip_count == 1 && st.skinned_parts == 1, "%u joints %u clips",
          m.skeleton.joint_count, m.clip_count);
    /* a rod 7121 x 183 x 183 (cm, a 39:1 bar: assimp's own pre-transformed mesh has that box) whose
     * clip starts at the bind pose: every skinned vertex on its bind placement at t = 0 */
    CHECK(gn_clip0_offset < 1e-4f, "t = 0 moves the vertices by %g of the model", (double)gn_clip0_offset);
    gn_anim_model_free(&m);
    /* no skin, no animation: 19 rigid parts */
    if (load("FBX/spider.fbx", &m, &st)) return 1;
    CHECK(m.part_count == 19 && m.skeleton.joint_count == 0 && m.clip_count == 0, "%u parts", m.part_count);
    gn_anim_model_free(&m);
    /* COLLADA: the one sample with a skin (library_animation_clips.dae has one too, but assimp
     * 5.2.5 refuses its padded numbers) */
    if (load("Collada/box_nested_animation.dae", &m, &st)) return 1;
    CHECK(m.skeleton.joint_count == 1 && m.clip_count == 1, "%u joints %u clips", m.skeleton.joint_count,
          m.clip_count);
    gn_anim_model_free(&m);
    return 0;
}

/* ---- a glTF written here ------------------------------------------------------------------- */

typedef enum variant { GOOD, JOINT_PAST, NAN_WEIGHT, TIMES_DECREASE } variant;

static void put_f(unsigned char *b, size_t at, float f) { memcpy(b + at, &f, 4); }

static void base64(const unsigned char *in, size_t n, char *out)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = t[v >> 18 & 63], out[o++] = t[v >> 12 & 63];
        out[o++] = i + 1 < n ? t[v >> 6 & 63] : '=', out[o++] = i + 2 < n ? t[v & 63] : '=';
    }
    out[o] = 0;
}

/* A triangle skinned to two joints ("root", and "tip" one up), and a clip "wave": tip's rotation
 * by a STEP sampler (0, 90 and 180 degrees about z at 0, 0.5, 1 s) and root's translation by a
 * CUBICSPLINE one (0 to x = 1 over 1 s, out-tangent 2 at the start, in-tangent 0 at the end). */
static void write_gltf(const char *path, variant v)
{
    unsigned char b[364] = {0};
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (int i = 0; i < 9; i++) put_f(b, 4 * (size_t)i, pos[i]);
    for (int i = 0; i < 3; i++) b[36 + 4 * i] = 0, b[37 + 4 * i] = 1; /* joints 0 and 1 */
    if (v == JOINT_PAST) b[37 + 4] = 7;
    for (int i = 0; i < 3; i++) put_f(b, 48 + 16 * (size_t)i, 0.5f), put_f(b, 52 + 16 * (size_t)i, 0.5f);
    if (v == NAN_WEIGHT) put_f(b, 48 + 32, NAN);
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < 4; k++) put_f(b, 96 + 64 * (size_t)j + 20 * (size_t)k, 1.0f);
    put_f(b, 96 + 64 + 52, -1.0f); /* the tip's inverse bind: y - 1 */
    const float times[3] = {0, v == TIMES_DECREASE ? 1.0f : 0.5f, v == TIMES_DECREASE ? 0.5f : 1.0f};
    for (int i = 0; i < 3; i++) put_f(b, 224 + 4 * (size_t)i, times[i]);
    const float rot[12] = {0, 0, 0, 1, 0, 0, 0.70710677f, 0.70710677f, 0, 0, 1, 0};
    for (int i = 0; i < 12; i++) put_f(b, 236 + 4 * (size_t)i, rot[i]);
    put_f(b, 284, 0), put_f(b, 288, 1);
    const float cubic[18] = {0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}; /* a0 v0 b0 a1 v1 b1 */
    for (int i = 0; i < 18; i++) put_f(b, 292 + 4 * (size_t)i, cubic[i]);
    char b64[512], json[8192];
    base64(b, sizeof b, b64);
    snprintf(
        json, sizeof json,
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],"
        "\"nodes\":[{\"name\":\"body\",\"mesh\":0,\"skin\":0},{\"name\":\"root\",\"children\":[2]},"
        "{\"name\":\"tip\",\"translation\":[0,1,0]}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],"
        "\"skins\":[{\"joints\":[1,2],\"inverseBindMatrices\":3}],"
        "\"animations\":[{\"name\":\"wave\",\"samplers\":[{\"input\":4,\"output\":5,\"interpolation\":"
        "\"STEP\"},"
        "{\"input\":6,\"output\":7,\"interpolation\":\"CUBICSPLINE\"}],\"channels\":["
        "{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}},"
        "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"translation\"}}]}],"
        "\"buffers\":[{\"byteLength\":364,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,"
        "\"byteLength\":12},{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":"
        "96,"
        "\"byteLength\":128},{\"buffer\":0,\"byteOffset\":224,\"byteLength\":12},{\"buffer\":0,"
        "\"byteOffset\":236,"
        "\"byteLength\":48},{\"buffer\":0,\"byteOffset\":284,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":"
        "292,"
        "\"byteLength\":72}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[1,1,0]},{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":"
        "\"VEC4\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
        "{\"bufferView\":4,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
        "{\"bufferView\":5,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
        "{\"bufferView\":6,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
        "{\"bufferView\":7,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"}]}",
        b64);
    FILE *f = fopen(path, "w");
    if (f) fputs(json, f), fclose(f);
}

/* Loads path expecting a refusal whose message holds `want` and names `named` (NULL: path), the
 * scene untouched. */
static int refused_naming(const char *path, const char *want, const char *named)
{
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_anim_model m;
    gn_skinned_desc d = {.log = quiet, .skip_textures = true};
    gn_result r = gn_skinned_load(s, path, &d, &m, NULL, &err);
    printf("refused: %s\n", err.message);
    CHECK(r != GN_OK, "%s loaded", path);
    if (r == GN_OK) gn_anim_model_free(&m);
    CHECK(strstr(err.message, want) && strstr(err.message, named ? named : path),
          "%s: the message lacks '%s' or the file", path, want);
    CHECK(s->mesh_count == 0 && s->material_count == 0 && m.part_count == 0 && !m.parts, "%s: %u meshes left",
          path, s->mesh_count);
    gn_scene_destroy(s);
    return 0;
}

static int refused(const char *path, const char *want) { return refused_naming(path, want, NULL); }

static int test_written_gltf(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/skinned_good.gltf", GN_TEST_TMP);
    write_gltf(path, GOOD);
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_anim_model m;
    gn_skinned_stats st;
    gn_skinned_desc d = {.log = quiet};
    CHECK(gn_skinned_load(s, path, &d, &m, &st, &err) == GN_OK, "%s", err.message);
    gn_scene_destroy(s);
    print_model("skinned_good.gltf", &m, &st);
    if (check_model(&m)) return 1;
    int32_t root = find_node(&m, "root"), tip = find_node(&m, "tip");
    CHECK(root >= 0 && tip >= 0 && m.clip_count == 1, "nodes root %d tip %d, %u clips", root, tip,
          m.clip_count);
    const gn_anim_channel *rot = find_channel(&m.clips[0], GN_ANIM_PATH_ROTATION, (uint32_t)tip);
    const gn_anim_channel *tr = find_channel(&m.clips[0], GN_ANIM_PATH_TRANSLATION, (uint32_t)root);
    CHECK(rot && rot->sampler.interp == GN_ANIM_STEP, "tip's rotation is not STEP");
    CHECK(tr && tr->sampler.interp == GN_ANIM_CUBIC && tr->sampler.count == 2,
          "root's translation is not CUBIC");
    float q[4], t[3];
    gn_anim_sample(&rot->sampler, 0.75f, q); /* STEP holds key 1 (LINEAR would be 135 degrees) */
    CHECK(near4(q, 0, 0, 0.70710677f, 0.70710677f), "STEP at 0.75 s: %g %g %g %g", q[0], q[1], q[2], q[3]);
    /* Hermite at s = 0.5: h00 v0 + h10 b0 + h01 v1 + h11 a1 = 0.125 * 2 + 0.5 * 1 = 0.75 (LINEAR: 0.5) */
    gn_anim_sample(&tr->sampler, 0.5f, t);
    CHECK(fabsf(t[0] - 0.75f) < GN_VALUE_EPS && fabsf(t[1]) < GN_VALUE_EPS, "CUBIC at 0.5 s: %g %g", t[0],
          t[1]);
    gn_anim_model_free(&m);

    snprintf(path, sizeof path, "%s/skinned_joint_past.gltf", GN_TEST_TMP);
    write_gltf(path, JOINT_PAST);
    if (refused(path, "names joint 7, past the 2 of skins[0]")) return 1;
    snprintf(path, sizeof path, "%s/skinned_nan_weight.gltf", GN_TEST_TMP);
    write_gltf(path, NAN_WEIGHT);
    if (refused(path, "has the weight nan")) return 1;
    snprintf(path, sizeof path, "%s/skinned_times_decrease.gltf", GN_TEST_TMP);
    write_gltf(path, TIMES_DECREASE);
    if (refused(path, "input time 2 (0.5 s) is not after time 1 (1 s)")) return 1;
    return 0;
}

/* ---- corrupted IQM -------------------------------------------------------------------------- */

static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
    *n = b ? fread(b, 1, (size_t)len, f) : 0;
    fclose(f);
    return b;
}

static void write_all(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) fwrite(b, 1, n, f), fclose(f);
}

static uint32_t get32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void set32(unsigned char *p, uint32_t v)
{
    p[0] = v & 255, p[1] = v >> 8 & 255, p[2] = v >> 16 & 255, p[3] = v >> 24;
}

static int test_bad_iqm(void)
{
    size_t n;
    unsigned char *b = read_all(GN_ASSIMP_MODELS "/IQM/mrfixit.iqm", &n);
    CHECK(b && n > 200000, "cannot read mrfixit.iqm");
    char path[1024];
    /* cut in half: the header's file size no longer holds */
    snprintf(path, sizeof path, "%s/skinned_truncated.iqm", GN_TEST_TMP);
    write_all(path, b, n / 2);
    if (refused(path, "the header says 257808 bytes, the file has 128904")) return 1;
    /* cut in half with the header's size patched to agree: the triangles (at byte 105376, 2988 of
     * 12 bytes) now end past the file */
    set32(b + 20, (uint32_t)(n / 2));
    write_all(path, b, n / 2);
    if (refused(path, "the triangles (2988 of 12 bytes at byte 105376) lie outside the file's 128904 bytes"))
        return 1;
    set32(b + 20, (uint32_t)n);
    /* joint 5's parent (its second field) made 70: not an earlier joint */
    uint32_t ofs_joints = get32(b + 16 + 4 * 14);
    set32(b + ofs_joints + 48 * 5 + 4, 70);
    snprintf(path, sizeof path, "%s/skinned_bad_parent.iqm", GN_TEST_TMP);
    write_all(path, b, n);
    int fail = refused(path, "joint 5");
    free(b);
    if (fail) return 1;
    return refused(path, "has the parent 70, not an earlier joint");
}

/* ---- a glTF of several JOINTS_n sets --------------------------------------------------------- */

/* Skin joint k: node "k<k>" (the skin lists them last node first), at rest translated by
 * (0.25k, 0.5, 0.1k) and turned 0.15k rad about z; its inverse bind translates by -B_k. */
#define GN8_JOINTS 10
#define GN8_VERTICES 5
static void gn8_bind(int k, float b[3]) { b[0] = 0.1f * k, b[1] = -0.2f, b[2] = 0.05f * k; }
/* Each vertex's three sets (JOINTS_0..2, WEIGHTS_0..2), four slots each: vertex 0 has 6 non-zero
 * influences, 1 has 8, 2 has 7 (a zero weight between them, the sum 1.2), 3 has 10 whose two
 * smallest (joints 0 and 1) the model drops, 4 (not used by the triangles, at vertex 0's position)
 * has 1. */
static const uint8_t gn8_j[GN8_VERTICES][12] = {{3, 7, 1, 9, 0, 5, 0, 0, 0, 0, 0, 0},
                                                {0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0},
                                                {9, 8, 2, 6, 4, 0, 5, 3, 0, 0, 0, 0},
                                                {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0},
                                                {5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
static const float gn8_w[GN8_VERTICES][12] = {
    {0.3f, 0.2f, 0.15f, 0.1f, 0.15f, 0.1f, 0, 0, 0, 0, 0, 0},
    {0.05f, 0.1f, 0.15f, 0.2f, 0.1f, 0.15f, 0.05f, 0.2f, 0, 0, 0, 0},
    {0.5f, 0.1f, 0.1f, 0, 0.1f, 0.15f, 0.15f, 0.1f, 0, 0, 0, 0},
    {0.01f, 0.02f, 0.08f, 0.09f, 0.1f, 0.11f, 0.12f, 0.13f, 0.14f, 0.2f, 0, 0},
    {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
static const float gn8_pos[GN8_VERTICES][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 0}};

typedef enum variant8 { SETS_GOOD, SETS_JOINT_PAST, SETS_UNPAIRED } variant8;

/* Vertices 0..3 two triangles, skinned over three JOINTS_n/WEIGHTS_n sets to ten joints. */
static void write_gltf8(const char *path, variant8 v)
{
    enum { POS = 0, JOINTS = 60, WEIGHTS = 120, IBM = 360, INDEX = 1000, LEN = 1012 };
    unsigned char b[LEN] = {0};
    for (int i = 0; i < GN8_VERTICES; i++)
        for (int k = 0; k < 3; k++) put_f(b, POS + 12 * (size_t)i + 4 * (size_t)k, gn8_pos[i][k]);
    for (int set = 0; set < 3; set++)
        for (int i = 0; i < GN8_VERTICES; i++)
            for (int k = 0; k < 4; k++) {
                b[JOINTS + 20 * set + 4 * i + k] = gn8_j[i][4 * set + k];
                put_f(b, WEIGHTS + 80 * (size_t)set + 16 * (size_t)i + 4 * (size_t)k, gn8_w[i][4 * set + k]);
            }
    if (v == SETS_JOINT_PAST) b[JOINTS + 20 + 4 * 1 + 2] = 12; /* JOINTS_1 of vertex 1 */
    for (int k = 0; k < GN8_JOINTS; k++) {
        float bind[3];
        gn8_bind(k, bind);
        for (int i = 0; i < 4; i++) put_f(b, IBM + 64 * (size_t)k + 20 * (size_t)i, 1.0f);
        for (int i = 0; i < 3; i++) put_f(b, IBM + 64 * (size_t)k + 48 + 4 * (size_t)i, -bind[i]);
    }
    const uint16_t index[6] = {0, 1, 2, 2, 1, 3};
    memcpy(b + INDEX, index, sizeof index);
    char b64[1400], nodes[4096], json[16384];
    base64(b, sizeof b, b64);
    size_t o = 0;
    for (int n = 2; n < 2 + GN8_JOINTS; n++) {
        int k = 2 + GN8_JOINTS - 1 - n; /* skin joint k is node 11 - k */
        o += (size_t)snprintf(
            nodes + o, sizeof nodes - o,
            ",{\"name\":\"k%d\",\"translation\":[%.9g,0.5,%.9g],\"rotation\":[0,0,%.9g,%.9g]}", k, 0.25 * k,
            0.1 * k, sin(0.075 * k), cos(0.075 * k));
    }
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],"
             "\"nodes\":[{\"name\":\"body\",\"mesh\":0,\"skin\":0},"
             "{\"name\":\"rig\",\"children\":[2,3,4,5,6,7,8,9,10,11]}%s],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":4,"
             "\"JOINTS_1\":2,\"WEIGHTS_1\":5,%s\"WEIGHTS_2\":6},\"indices\":8}]}],"
             "\"skins\":[{\"joints\":[11,10,9,8,7,6,5,4,3,2],\"inverseBindMatrices\":7}],"
             "\"buffers\":[{\"byteLength\":%d,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":60},"
             "{\"buffer\":0,\"byteOffset\":60,\"byteLength\":60},"
             "{\"buffer\":0,\"byteOffset\":120,\"byteLength\":240},"
             "{\"buffer\":0,\"byteOffset\":360,\"byteLength\":640},"
             "{\"buffer\":0,\"byteOffset\":1000,\"byteLength\":12}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":5,\"type\":\"VEC3\","
             "\"min\":[0,0,0],\"max\":[1,1,0]},"
             "{\"bufferView\":1,\"byteOffset\":0,\"componentType\":5121,\"count\":5,\"type\":\"VEC4\"},"
             "{\"bufferView\":1,\"byteOffset\":20,\"componentType\":5121,\"count\":5,\"type\":\"VEC4\"},"
             "{\"bufferView\":1,\"byteOffset\":40,\"componentType\":5121,\"count\":5,\"type\":\"VEC4\"},"
             "{\"bufferView\":2,\"byteOffset\":0,\"componentType\":5126,\"count\":5,\"type\":\"VEC4\"},"
             "{\"bufferView\":2,\"byteOffset\":80,\"componentType\":5126,\"count\":5,\"type\":\"VEC4\"},"
             "{\"bufferView\":2,\"byteOffset\":160,\"componentType\":5126,\"count\":5,\"type\":\"VEC4\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":10,\"type\":\"MAT4\"},"
             "{\"bufferView\":4,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}]}",
             nodes, v == SETS_UNPAIRED ? "" : "\"JOINTS_2\":3,", LEN, b64);
    FILE *f = fopen(path, "w");
    if (f) fputs(json, f), fclose(f);
}

/* A file's influences of vertex v, as the model should hold them: the non-zero (joint, weight)
 * pairs of its sets, the 8 largest, scaled to sum to one. Returns how many. */
static uint32_t gn8_expected(int v, int joint[8], double weight[8])
{
    int jj[12];
    double ww[12];
    uint32_t n = 0;
    for (int i = 0; i < 12; i++)
        if (gn8_w[v][i] > 0) jj[n] = gn8_j[v][i], ww[n++] = gn8_w[v][i];
    for (uint32_t i = 1; i < n; i++) /* largest first */
        for (uint32_t k = i; k > 0 && ww[k] > ww[k - 1]; k--) {
            double w = ww[k];
            int j = jj[k];
            ww[k] = ww[k - 1], jj[k] = jj[k - 1], ww[k - 1] = w, jj[k - 1] = j;
        }
    if (n > GN_SKIN_INFLUENCES) n = GN_SKIN_INFLUENCES;
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) sum += ww[i];
    for (uint32_t i = 0; i < n; i++) joint[i] = jj[i], weight[i] = ww[i] / sum;
    return n;
}

/* Where a pose puts skin joint k: translated by (0.3k, -0.1, 0.05k), turned 0.2 + 0.1k rad. */
static void gn8_pose(int k, float t[3], float *angle)
{
    t[0] = 0.3f * k, t[1] = -0.1f, t[2] = 0.05f * k;
    *angle = 0.2f + 0.1f * k;
}

static int test_joint_sets(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/skinned_sets.gltf", GN_TEST_TMP);
    write_gltf8(path, SETS_GOOD);
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_anim_model m;
    gn_skinned_stats st;
    gn_skinned_desc d = {.log = quiet};
    CHECK(gn_skinned_load(s, path, &d, &m, &st, &err) == GN_OK, "%s", err.message);
    print_model("skinned_sets.gltf", &m, &st);
    if (check_model(&m)) return 1;
    CHECK(m.part_count == 1 && m.parts[0].influences && m.skeleton.joint_count == GN8_JOINTS,
          "%u parts, %u joints", m.part_count, m.skeleton.joint_count);
    const gn_anim_part *part = &m.parts[0];
    /* no JoinIdenticalVertices: vertex 4, unused and at vertex 0's position, stays the file's */
    CHECK(part->vertex_count == GN8_VERTICES && s->meshes[part->mesh].vertex_count == GN8_VERTICES,
          "%u vertices, the file has %d", part->vertex_count, GN8_VERTICES);
    CHECK(st.max_influences == 10 && st.truncated == 1 && st.renormalised == 1 && st.unweighted == 0,
          "influences %u, truncated %u, renormalised %u, unweighted %u", st.max_influences, st.truncated,
          st.renormalised, st.unweighted);
    int32_t node_of[GN8_JOINTS];
    for (int k = 0; k < GN8_JOINTS; k++) {
        char name[8];
        snprintf(name, sizeof name, "k%d", k);
        node_of[k] = find_node(&m, name);
        CHECK(node_of[k] >= 0, "no node %s", name);
    }
    /* each vertex's influences are the file's: the joint through the palette, the weight scaled */
    uint32_t most = 0;
    for (int v = 0; v < GN8_VERTICES; v++) {
        int joint[8];
        double weight[8];
        uint32_t n = gn8_expected(v, joint, weight), held = 0;
        const gn_skin_influence *in = &part->influences[v];
        for (int i = 0; i < GN_SKIN_INFLUENCES; i++) held += in->weight[i] > 0;
        CHECK(held == n, "vertex %d: %u influences, the file gives %u", v, held, n);
        for (uint32_t e = 0; e < n; e++) {
            int found = -1;
            for (int i = 0; i < GN_SKIN_INFLUENCES; i++)
                if (in->weight[i] > 0 && m.skeleton.joint_node[in->joint[i]] == (uint32_t)node_of[joint[e]])
                    found = i;
            CHECK(found >= 0 && fabs(in->weight[found] - weight[e]) <= 1e-6,
                  "vertex %d: joint k%d weighs %g, the file %.7f", v, joint[e],
                  found >= 0 ? (double)in->weight[found] : -1.0, weight[e]);
        }
        if (n > most) most = n;
    }
    CHECK(most == GN_SKIN_INFLUENCES, "no vertex holds %d influences", GN_SKIN_INFLUENCES);
    /* at a pose (each joint moved and turned), a vertex moves as the linear blend of its (up to)
     * 8 joints' matrices: sum of w (R_k (p - B_k) + T_k), R_k, T_k the pose's, B_k the bind's */
    uint32_t nn = m.skeleton.node_count;
    float *pose_f = malloc(gn_anim_pose_floats(&m) * sizeof *pose_f),
          (*world)[16] = malloc(nn * sizeof *world);
    float *rows = malloc((m.skeleton.joint_count + 1) * 12 * sizeof *rows);
    CHECK(pose_f && world && rows, "out of memory");
    gn_anim_pose pose;
    gn_anim_pose_bind(&m, pose_f, &pose);
    gn_anim_pose_rest(&m, &pose);
    for (int k = 0; k < GN8_JOINTS; k++) {
        float t[3], a;
        gn8_pose(k, t, &a);
        memcpy(pose.t[node_of[k]], t, sizeof t);
        float q[4] = {0, 0, sinf(a / 2), cosf(a / 2)};
        memcpy(pose.r[node_of[k]], q, sizeof q);
    }
    gn_anim_world(&m, &pose, world);
    gn_skin_palette_rows(&m.skeleton, (const float(*)[16])world, rows);
    float worst = 0;
    for (int v = 0; v < GN8_VERTICES; v++) {
        const gn_vertex *vx = &s->vertices[s->meshes[part->mesh].first_vertex + (uint32_t)v];
        int joint[8];
        double weight[8], want[3] = {0, 0, 0};
        uint32_t n = gn8_expected(v, joint, weight);
        for (uint32_t e = 0; e < n; e++) {
            float t[3], a, bind[3];
            gn8_pose(joint[e], t, &a);
            gn8_bind(joint[e], bind);
            double x = gn8_pos[v][0] - bind[0], y = gn8_pos[v][1] - bind[1], z = gn8_pos[v][2] - bind[2];
            want[0] += weight[e] * (x * cos(a) - y * sin(a) + t[0]);
            want[1] += weight[e] * (x * sin(a) + y * cos(a) + t[1]);
            want[2] += weight[e] * (z + t[2]);
        }
        float got[3], nrm[3], tg[4];
        gn_skin_vertex(vx->pos, vx->normal, vx->tangent, (uint32_t)v, NULL, NULL, NULL, 0,
                       &part->influences[v], GN_SKIN_LINEAR, rows, got, nrm, tg);
        for (int k = 0; k < 3; k++) worst = fmaxf(worst, fabsf(got[k] - (float)want[k]));
        CHECK(vx->pos[0] == gn8_pos[v][0] && vx->pos[1] == gn8_pos[v][1] && vx->pos[2] == gn8_pos[v][2],
              "scene vertex %d is not the file's", v);
    }
    printf("  skinned at a pose against the hand-computed blend: %.2g at most\n", (double)worst);
    free(pose_f), free(world), free(rows);
    CHECK(worst < 1e-5f, "a skinned vertex is %g from the hand-computed blend", (double)worst);
    gn_anim_model_free(&m);
    gn_scene_destroy(s);

    snprintf(path, sizeof path, "%s/skinned_sets_joint_past.gltf", GN_TEST_TMP);
    write_gltf8(path, SETS_JOINT_PAST);
    if (refused(path, "JOINTS_1: vertex 1 names joint 12, past the 10 of skins[0]")) return 1;
    /* assimp 5.2.5 reads WEIGHTS_2 with no JOINTS_2 through a freed pointer (free() aborts) */
    snprintf(path, sizeof path, "%s/skinned_sets_unpaired.gltf", GN_TEST_TMP);
    write_gltf8(path, SETS_UNPAIRED);
    return refused(path, "meshes[0].primitives[0]: WEIGHTS_2 without JOINTS_2");
}

/* Returns text with `from` replaced by `to` once (malloc'd; NULL when from is absent). */
static char *replace_once(char *text, const char *from, const char *to)
{
    char *at = strstr(text, from);
    if (!at) return NULL;
    size_t head = (size_t)(at - text), n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    if (out) snprintf(out, n, "%.*s%s%s", (int)head, text, to, at + strlen(from));
    return out;
}

/* simple_skin with a JOINTS_1/WEIGHTS_1 of zeros: the loader reads its influences from the file
 * (without JoinIdenticalVertices); each vertex, found by its position, holds what assimp's bones
 * give the file as it is. */
static int test_sets_simple_skin(void)
{
    size_t n;
    char *text = (char *)read_all(GN_ASSIMP_MODELS "/glTF2/simple_skin/simple_skin.gltf", &n);
    CHECK(text, "cannot read simple_skin.gltf");
    char *t = realloc(text, n + 1);
    CHECK(t, "out of memory");
    t[n] = 0;
    char zeros[400]; /* 240 zero bytes: 10 VEC4s of unsigned shorts and 10 of floats */
    memset(zeros, 'A', 320), zeros[320] = 0;
    char buffer[512];
    snprintf(buffer, sizeof buffer,
             "\"byteLength\" : 240\n  }, {\"uri\" : \"data:application/gltf-buffer;base64,%s\", "
             "\"byteLength\" : 240} ],",
             zeros);
    static const char *const edits[][2] = {
        {"\"WEIGHTS_0\" : 3", "\"WEIGHTS_0\" : 3, \"JOINTS_1\" : 7, \"WEIGHTS_1\" : 8"},
        {"\"byteLength\" : 240\n  } ],", NULL}, /* the last buffer: the zeros after it */
        {"\"byteLength\" : 240\n  } ],",
         "\"byteLength\" : 240\n  }, {\"buffer\" : 4, \"byteLength\" : 240} ],"},
        {"\"min\" : [ 0.0, 0.0, -0.707, 0.707 ]\n  } ],",
         "\"min\" : [ 0.0, 0.0, -0.707, 0.707 ]\n  }, "
         "{\"bufferView\" : 5, \"componentType\" : 5123, \"count\" : 10, \"type\" : \"VEC4\"}, "
         "{\"bufferView\" : 5, \"byteOffset\" : 80, \"componentType\" : 5126, \"count\" : 10, "
         "\"type\" : \"VEC4\"} ],"}};
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        char *next = replace_once(t, edits[e][0], edits[e][1] ? edits[e][1] : buffer);
        CHECK(next, "simple_skin.gltf lacks '%s'", edits[e][0]);
        free(t), t = next;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/skinned_simple_sets.gltf", GN_TEST_TMP);
    FILE *f = fopen(path, "w");
    CHECK(f, "cannot write %s", path);
    fputs(t, f), fclose(f), free(t);
    gn_scene *s[2];
    gn_anim_model m[2];
    gn_skinned_stats st[2];
    gn_error err = {0};
    gn_skinned_desc d = {.log = quiet};
    const char *paths[2] = {GN_ASSIMP_MODELS "/glTF2/simple_skin/simple_skin.gltf", path};
    for (int i = 0; i < 2; i++) {
        CHECK(gn_scene_create(&s[i], &err) == GN_OK, "%s", err.message);
        CHECK(gn_skinned_load(s[i], paths[i], &d, &m[i], &st[i], &err) == GN_OK, "%s", err.message);
    }
    print_model("skinned_simple_sets.gltf", &m[1], &st[1]);
    if (check_model(&m[1])) return 1;
    CHECK(m[0].part_count == 1 && m[1].part_count == 1 && m[0].parts[0].vertex_count == 10 &&
              m[1].parts[0].vertex_count == 10 && m[0].skeleton.joint_count == m[1].skeleton.joint_count,
          "parts %u and %u", m[0].part_count, m[1].part_count);
    CHECK(st[1].max_influences == 2 && st[1].renormalised == 0 && st[1].unweighted == 0,
          "with sets: influences %u, renormalised %u", st[1].max_influences, st[1].renormalised);
    const gn_mesh *mesh[2] = {&s[0]->meshes[m[0].parts[0].mesh], &s[1]->meshes[m[1].parts[0].mesh]};
    uint32_t matched = 0;
    for (uint32_t v = 0; v < 10; v++) {
        const float *p = s[0]->vertices[mesh[0]->first_vertex + v].pos;
        for (uint32_t u = 0; u < 10; u++) {
            const float *q = s[1]->vertices[mesh[1]->first_vertex + u].pos;
            if (p[0] != q[0] || p[1] != q[1] || p[2] != q[2]) continue;
            const gn_skin_influence *a = &m[0].parts[0].influences[v], *b = &m[1].parts[0].influences[u];
            for (int i = 0; i < GN_SKIN_INFLUENCES; i++) {
                CHECK(fabsf(a->weight[i] - b->weight[i]) <= 1e-6f, "vertex at (%g, %g): weight %d %g, %g",
                      p[0], p[1], i, a->weight[i], b->weight[i]);
                CHECK(a->weight[i] == 0 ||
                          m[0].skeleton.joint_node[a->joint[i]] == m[1].skeleton.joint_node[b->joint[i]],
                      "vertex at (%g, %g): influence %d names another joint", p[0], p[1], i);
            }
            matched++;
        }
    }
    CHECK(matched == 10, "%u of 10 vertices found in both", matched);
    printf("  with a zero JOINTS_1/WEIGHTS_1: its 10 vertices' influences as simple_skin's own\n");
    for (int i = 0; i < 2; i++) gn_anim_model_free(&m[i]), gn_scene_destroy(s[i]);
    return 0;
}

/* ---- MD5 with its .md5anim, and text assimp would misread --------------------------------------- */

/* SimpleCube's three joints, joint1 turned about x by two frames of its rotation's x, y, z. */
static const char gn_md5anim[] =
    "MD5Version 10\ncommandline \"\"\n\nnumFrames 2\nnumJoints 3\nframeRate 24\n"
    "numAnimatedComponents 3\n\nhierarchy {\n\t\"origin\"\t-1 0 0\n\t\"root\"\t0 0 0\n"
    "\t\"joint1\"\t1 56 0\t// qx qy qz\n}\n\nbounds {\n\t( -1 -1 -1 ) ( 1 1 1 )\n"
    "\t( -1 -1 -1 ) ( 1 1 1 )\n}\n\nbaseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n"
    "\t( 0 0 0 ) ( -0.5001951456 0.4998047054 -0.4998047054 )\n"
    "\t( 0.0249728262 0.0000019062 31.9803333282 ) ( -0.7071067691 0.0000000527 0.0000000105 )\n}"
    "\n\nframe 0 {\n\t-0.7071067691 0.0000000527 0.0000000105\n}\n\nframe 1 {\n\t-0.5 0.5 0.0\n}\n";

/* Writes text to dir/name with `from` replaced by `to` (once; NULL: as it is). */
static int write_variant(const char *path, const char *text, size_t n, const char *from, const char *to)
{
    const char *at = from ? strstr(text, from) : NULL;
    CHECK(!from || at, "'%s' is not in the text", from);
    FILE *f = fopen(path, "wb");
    CHECK(f, "cannot write %s", path);
    if (at) {
        fwrite(text, 1, (size_t)(at - text), f);
        fputs(to, f);
        fwrite(at + strlen(from), 1, n - (size_t)(at - text) - strlen(from), f);
    } else {
        fwrite(text, 1, n, f);
    }
    fclose(f);
    return 0;
}

static int test_md5_and_text(void)
{
    size_t n;
    char *mesh = (char *)read_all(GN_ASSIMP_MODELS "/MD5/SimpleCube.md5mesh", &n);
    CHECK(mesh, "cannot read SimpleCube.md5mesh");
    char path[1024], anim[1024];
    snprintf(path, sizeof path, "%s/skinned_cube.md5mesh", GN_TEST_TMP);
    snprintf(anim, sizeof anim, "%s/skinned_cube.md5anim", GN_TEST_TMP);
    if (write_variant(path, mesh, n, NULL, NULL) ||
        write_variant(anim, gn_md5anim, strlen(gn_md5anim), NULL, NULL))
        return 1;
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_anim_model m;
    gn_skinned_stats st;
    gn_skinned_desc d = {.log = quiet};
    CHECK(gn_skinned_load(s, path, &d, &m, &st, &err) == GN_OK, "%s", err.message);
    gn_scene_destroy(s);
    print_model("skinned_cube.md5mesh + .md5anim", &m, &st);
    if (check_model(&m)) return 1;
    /* assimp keys MD5 frames at frame / frameRate: two frames at 24 a second end at 1/24 s */
    CHECK(m.clip_count == 1 && fabsf(m.clips[0].duration - 1.0f / 24) < 1e-6f, "%u clips", m.clip_count);
    gn_anim_model_free(&m);
    /* a frame short of its components, and a mesh line assimp would skip (leaving triangle 5
     * without indices, which it then reads: fuzz_skinned found it) */
    if (write_variant(anim, gn_md5anim, strlen(gn_md5anim), "-0.5 0.5 0.0", "-0.5 0.5") ||
        refused_naming(path, "line 32: frame 1: 2 components, 3 declared", anim))
        return 1;
    remove(anim);
    if (write_variant(path, mesh, n, "tri 5 ", "tri!5 ") ||
        refused(path, "line 49: \"tri!5\" is no statement of a mesh"))
        return 1;
    if (write_variant(path, mesh, n, "tri 5 10 8 11", "tri 5 10 8 24") ||
        refused(path, "triangle 5 uses vertex 24 of 24"))
        return 1;
    free(mesh);
    /* COLLADA: a number assimp's reader cannot step over (it looped, growing an array past 3 GB) */
    char *dae = (char *)read_all(GN_ASSIMP_MODELS "/Collada/box_nested_animation.dae", &n);
    CHECK(dae, "cannot read box_nested_animation.dae");
    snprintf(path, sizeof path, "%s/skinned_bad_number.dae", GN_TEST_TMP);
    int fail =
        write_variant(path, dae, n, "<p>4 0 0", "<p>4@0 0") || refused(path, "holds \"4@0\", not an integer");
    /* one vertex fewer weighted than the mesh has: assimp indexes past its array (a SEGV), in the
     * trial import's child process only. Under AddressSanitizer the read past the array lands in
     * the sanitizer's padding around it (assimp is not instrumented) and does not fault: the trial
     * import cannot see it there, so the case runs only in builds without it (the limit of a
     * trial import: a fault that does not crash gets through to gn_anim_model_check) */
    snprintf(path, sizeof path, "%s/skinned_short_weights.dae", GN_TEST_TMP);
#ifndef GN_TEST_ASAN
    fail = fail ||
           write_variant(path, dae, n, "<vertex_weights count=\"8\">", "<vertex_weights count=\"7\">") ||
           refused(path, "COLLADA reader crashed on it (signal 11");
#else
    printf("skinned_short_weights.dae: not tried under AddressSanitizer (the fault does not crash there)\n");
#endif
    free(dae);
    if (fail) return 1;
    /* glTF: a skin without inverse bind matrices (assimp 5.2.5 follows a null reference) */
    char gltf[1024];
    snprintf(gltf, sizeof gltf, "%s/skinned_good.gltf", GN_TEST_TMP);
    char *text = (char *)read_all(gltf, &n);
    CHECK(text, "cannot read %s", gltf);
    snprintf(path, sizeof path, "%s/skinned_no_ibm.gltf", GN_TEST_TMP);
    fail = write_variant(path, text, n, ",\"inverseBindMatrices\":3", "") ||
           refused(path, "skins[0]: no \"inverseBindMatrices\"");
    free(text);
    return fail;
}

int main(void)
{
    struct stat st;
    if (stat(GN_ASSIMP_MODELS, &st) != 0) {
        printf("skipped: %s is absent (Debian's assimp-testmodels, scripts/deps.sh)\n", GN_ASSIMP_MODELS);
        return 77;
    }
    int fails = 0;
    fails += test_simple_skin();
    fails += test_morph_cube();
    fails += test_formats();
    fails += test_written_gltf();
    fails += test_joint_sets();
    fails += test_sets_simple_skin();
    fails += test_bad_iqm();
    fails += test_md5_and_text();
    if (fails) {
        fprintf(stderr, "test_skinned: %d failed\n", fails);
        return 1;
    }
    printf("test_skinned: all passed\n");
    return 0;
}

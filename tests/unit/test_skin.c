/* Skinning's CPU side (decide/skin.c) against values worked by hand: a two-joint arm whose elbow
 * turns 90 degrees (linear blend and dual quaternions on one and on two influences), a clip
 * sampled and crossfaded, node world matrices down a chain, morph targets applied before the
 * skin and the active list's order, the bounds holding every skinned vertex of random poses of a
 * random chain (a fixed seed; 200 poses), and the check refusing each kind of bad model. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decide/skin.h"

#define NEAR(a, b, tol) (fabsf((a) - (b)) <= (tol))

/* An arm: node 0 the shoulder at the origin, node 1 the elbow 1 m up +Y; joints = the two nodes,
 * inverse binds the inverse of their bind worlds (translations). One part of `verts` vertices. */
typedef struct arm {
    gn_anim_model m;
    gn_skel_node nodes[2];
    uint32_t joint_node[2];
    float inverse_bind[2][16];
    gn_anim_part part;
    gn_skin_influence infl[4];
} arm;

static void identity(float m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1;
}

static void make_arm(arm *a)
{
    memset(a, 0, sizeof *a);
    for (int n = 0; n < 2; n++) {
        a->nodes[n] = (gn_skel_node){.parent = n - 1, .r = {0, 0, 0, 1}, .s = {1, 1, 1}};
        a->joint_node[n] = (uint32_t)n;
        identity(a->inverse_bind[n]);
    }
    a->nodes[1].t[1] = 1;
    a->inverse_bind[1][13] = -1; /* the elbow's bind world is a translation by +1 in y */
    a->m.skeleton = (gn_skeleton){a->nodes, 2, a->joint_node, a->inverse_bind, 2};
    a->part = (gn_anim_part){.node = 0, .vertex_count = 4, .influences = a->infl, .morph = -1};
    a->m.parts = &a->part;
    a->m.part_count = 1;
    for (int v = 0; v < 4; v++) a->infl[v].weight[0] = 1;
}

/* The arm's pose with the elbow turned by `deg` about +Z, as a palette (rows and dual quats). */
static void palettes(arm *a, float deg, float rows[24], float dq[16])
{
    float floats[64];
    gn_anim_pose pose;
    gn_anim_pose_bind(&a->m, floats, &pose);
    gn_anim_pose_rest(&a->m, &pose);
    float h = deg * 3.14159265f / 360.0f;
    pose.r[1][2] = sinf(h), pose.r[1][3] = cosf(h);
    float world[2][16];
    gn_anim_world(&a->m, &pose, world);
    gn_skin_palette_rows(&a->m.skeleton, (const float(*)[16])world, rows);
    gn_skin_palette_dq(&a->m.skeleton, (const float(*)[16])world, dq);
}

static void test_elbow(void)
{
    arm a;
    make_arm(&a);
    char why[160] = "";
    CHECK(gn_anim_model_check(&a.m, why, sizeof why), "arm refused: %s", why);
    float rows[24], dq[16];
    palettes(&a, 90, rows, dq);
    const float n[3] = {1, 0, 0}, t[4] = {0, 0, 1, -1};
    float p[3], on[3], ot[4];
    /* a point 0.5 m above the elbow on the forearm alone: turned 90 degrees about the elbow to
       (-0.5, 1, 0); its normal +X to +Y; the tangent +Z stays, its sign kept */
    gn_skin_influence fore = {.joint = {1}, .weight = {1}};
    for (int mode = 0; mode < 2; mode++) {
        gn_skin_vertex((float[3]){0, 1.5f, 0}, n, t, 0, NULL, NULL, NULL, 0, &fore, (gn_skin_mode)mode,
                       mode ? dq : rows, p, on, ot);
        CHECK(NEAR(p[0], -0.5f, 1e-5f) && NEAR(p[1], 1.0f, 1e-5f) && NEAR(p[2], 0, 1e-5f),
              "mode %d forearm point (%g %g %g), want (-0.5 1 0)", mode, (double)p[0], (double)p[1],
              (double)p[2]);
        CHECK(NEAR(on[0], 0, 1e-5f) && NEAR(on[1], 1, 1e-5f), "mode %d normal (%g %g %g)", mode,
              (double)on[0], (double)on[1], (double)on[2]);
        CHECK(NEAR(ot[2], 1, 1e-5f) && ot[3] == -1, "mode %d tangent (%g %g %g %g)", mode, (double)ot[0],
              (double)ot[1], (double)ot[2], (double)ot[3]);
    }
    /* at the elbow, half and half: linear blend averages (0, 1, 0) with itself: (0, 1, 0); a point
       0.5 m past it, half and half: LBS (0 + -0.5) / 2 and (1.5 + 1) / 2 = (-0.25, 1.25, 0), inside
       the arc (the shrink linear blending shows); dual quaternions turn it 45 degrees about the
       elbow: (-0.5 sin 45, 1 + 0.5 cos 45, 0) = (-0.35355, 1.35355, 0), on the arc */
    gn_skin_influence half = {.joint = {0, 1}, .weight = {0.5f, 0.5f}};
    gn_skin_vertex((float[3]){0, 1.5f, 0}, n, t, 0, NULL, NULL, NULL, 0, &half, GN_SKIN_LINEAR, rows, p, on,
                   ot);
    CHECK(NEAR(p[0], -0.25f, 1e-5f) && NEAR(p[1], 1.25f, 1e-5f), "LBS half (%g %g), want (-0.25 1.25)",
          (double)p[0], (double)p[1]);
    gn_skin_vertex((float[3]){0, 1.5f, 0}, n, t, 0, NULL, NULL, NULL, 0, &half, GN_SKIN_DUAL_QUAT, dq, p, on,
                   ot);
    CHECK(NEAR(p[0], -0.353553f, 1e-5f) && NEAR(p[1], 1.353553f, 1e-5f),
          "DQ half (%g %g), want (-0.3536 1.3536)", (double)p[0], (double)p[1]);
}

static void test_clip_and_crossfade(void)
{
    arm a;
    make_arm(&a);
    /* a clip turning the elbow from 0 to 90 degrees about +Z over 2 s, and lifting the shoulder
       from y 0 to 2 (translation) */
    static const float times[2] = {0, 2};
    const float s45 = sinf(3.14159265f / 4), c45 = cosf(3.14159265f / 4);
    float rot[8] = {0, 0, 0, 1, 0, 0, s45, c45}, tr[6] = {0, 0, 0, 0, 2, 0};
    gn_anim_channel ch[2] = {
        {1, GN_ANIM_PATH_ROTATION, {times, rot, 2, 4, GN_ANIM_LINEAR, true}},
        {0, GN_ANIM_PATH_TRANSLATION, {times, tr, 2, 3, GN_ANIM_LINEAR, false}},
    };
    gn_anim_clip clip = {.name = "raise", .duration = 2, .channels = ch, .channel_count = 2};
    a.m.clips = &clip;
    a.m.clip_count = 1;
    char why[160] = "";
    CHECK(gn_anim_model_check(&a.m, why, sizeof why), "clip refused: %s", why);
    float fa[64], fb[64];
    gn_anim_pose pa, pb;
    gn_anim_pose_bind(&a.m, fa, &pa);
    gn_anim_pose_bind(&a.m, fb, &pb);
    gn_anim_pose_sample(&a.m, 0, 1.0f, &pa); /* half way: 45 degrees, y 1 */
    float h = 3.14159265f / 8;
    CHECK(NEAR(pa.r[1][2], sinf(h), 1e-5f) && NEAR(pa.r[1][3], cosf(h), 1e-5f), "slerp at 1 s (%g %g)",
          (double)pa.r[1][2], (double)pa.r[1][3]);
    CHECK(NEAR(pa.t[0][1], 1, 1e-6f) && NEAR(pa.t[1][1], 1, 1e-6f), "translations (%g, elbow %g)",
          (double)pa.t[0][1], (double)pa.t[1][1]);
    float world[2][16];
    gn_anim_world(&a.m, &pa, world);
    CHECK(NEAR(world[1][13], 2, 1e-5f), "elbow's world y %g, want 2 (shoulder 1 + 1)", (double)world[1][13]);
    /* crossfade from the rest pose to the clip at 2 s by a quarter: rotation a quarter of 90 */
    gn_anim_pose_rest(&a.m, &pa);
    gn_anim_pose_sample(&a.m, 0, 2.0f, &pb);
    gn_anim_pose_blend(&a.m, &pa, &pb, 0.25f, &pa);
    float q = 3.14159265f / 16;
    CHECK(NEAR(pa.r[1][2], sinf(q), 1e-5f) && NEAR(pa.t[0][1], 0.5f, 1e-6f), "crossfade (%g, y %g)",
          (double)pa.r[1][2], (double)pa.t[0][1]);
}

static void test_morphs(void)
{
    /* two targets over one vertex: +1 x and +1 y; weights 0.25 and 0.5 */
    float deltas[12] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}, dw[2] = {0, 0};
    gn_morph_set set = {1, 2, deltas, dw, 1};
    uint32_t tg[8];
    float w[8];
    const float weights[2] = {0.25f, 0.5f};
    uint32_t n = gn_morph_active(weights, 2, tg, w);
    CHECK(n == 2 && tg[0] == 1 && tg[1] == 0, "active %u: %u %u (largest first)", n, tg[0], tg[1]);
    float p[3], on[3], ot[4];
    gn_skin_vertex((float[3]){0, 0, 0}, (float[3]){0, 0, 1}, (float[4]){1, 0, 0, 1}, 0, &set, tg, w, n, NULL,
                   GN_SKIN_LINEAR, NULL, p, on, ot);
    CHECK(NEAR(p[0], 0.25f, 1e-6f) && NEAR(p[1], 0.5f, 1e-6f), "morphed (%g %g)", (double)p[0], (double)p[1]);
    /* more than 8 non-zero: the 8 largest kept, ties to the lower target */
    float many[12];
    for (int i = 0; i < 12; i++) many[i] = (i % 3 == 0) ? 0.5f : 0.1f * (float)(i + 1) / 12;
    n = gn_morph_active(many, 12, tg, w);
    CHECK(n == 8 && tg[0] == 0 && tg[1] == 3 && tg[2] == 6 && tg[3] == 9 && tg[4] == 11,
          "kept %u: %u %u %u %u %u", n, tg[0], tg[1], tg[2], tg[3], tg[4]);
}

/* A deterministic generator for the property test. */
static uint32_t rng_state = 12345;
static float rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 16777216.0f;
}

static void test_bounds(void)
{
    enum { J = 5, V = 400 };
    gn_skel_node nodes[J];
    uint32_t jn[J];
    float ib[J][16];
    for (int j = 0; j < J; j++) {
        nodes[j] =
            (gn_skel_node){.parent = j - 1, .t = {0, j ? 0.4f : 0, 0}, .r = {0, 0, 0, 1}, .s = {1, 1, 1}};
        jn[j] = (uint32_t)j;
        identity(ib[j]);
        ib[j][13] = -0.4f * (float)j;
    }
    static float pos[V][3];
    static gn_skin_influence infl[V];
    for (int v = 0; v < V; v++) {
        pos[v][0] = rnd() * 0.4f - 0.2f, pos[v][1] = rnd() * 1.8f - 0.1f, pos[v][2] = rnd() * 0.4f - 0.2f;
        memset(&infl[v], 0, sizeof infl[v]);
        int j = (int)(pos[v][1] / 0.4f);
        j = j < 0 ? 0 : j >= J ? J - 1 : j;
        float f = rnd();
        infl[v].joint[0] = (uint16_t)j, infl[v].weight[0] = f;
        infl[v].joint[1] = (uint16_t)(j + 1 < J ? j + 1 : j), infl[v].weight[1] = 1 - f;
    }
    gn_anim_model m = {.skeleton = {nodes, J, jn, ib, J}};
    float spheres[J][4];
    gn_skin_joint_spheres(&pos[0][0], 3, V, infl, J, spheres);
    uint32_t outside = 0;
    float floats[J * 10];
    gn_anim_pose pose;
    gn_anim_pose_bind(&m, floats, &pose);
    for (int trial = 0; trial < 200; trial++) {
        gn_anim_pose_rest(&m, &pose);
        for (int j = 0; j < J; j++) {
            float ax[3] = {rnd() - 0.5f, rnd() - 0.5f, rnd() - 0.5f}, ang = (rnd() - 0.5f) * 6.0f;
            float len = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
            for (int i = 0; i < 3; i++) pose.r[j][i] = sinf(ang / 2) * ax[i] / len;
            pose.r[j][3] = cosf(ang / 2);
            float sc = 0.5f + rnd();
            pose.s[j][0] = pose.s[j][1] = pose.s[j][2] = sc;
        }
        float world[J][16], rows[J * 12], b[4];
        gn_anim_world(&m, &pose, world);
        gn_skin_palette_rows(&m.skeleton, (const float(*)[16])world, rows);
        gn_skin_bounds((const float(*)[4])spheres, J, rows, 0, b);
        for (int v = 0; v < V; v++) {
            float p[3], on[3], ot[4];
            gn_skin_vertex(pos[v], (float[3]){0, 1, 0}, (float[4]){1, 0, 0, 1}, (uint32_t)v, NULL, NULL, NULL,
                           0, &infl[v], GN_SKIN_LINEAR, rows, p, on, ot);
            float d = sqrtf((p[0] - b[0]) * (p[0] - b[0]) + (p[1] - b[1]) * (p[1] - b[1]) +
                            (p[2] - b[2]) * (p[2] - b[2]));
            outside += d > b[3] * (1 + 1e-5f);
        }
    }
    CHECK(outside == 0, "%u skinned vertices outside their bounds over 200 random poses", outside);
}

static void test_refusals(void)
{
    char why[160];
    arm a;
    make_arm(&a);
    a.nodes[0].parent = 1;
    CHECK(!gn_anim_model_check(&a.m, why, sizeof why) && strstr(why, "parent"), "a later parent: '%s'", why);
    make_arm(&a);
    a.infl[2].weight[0] = 0.5f, a.infl[2].weight[1] = 0.2f;
    CHECK(!gn_anim_model_check(&a.m, why, sizeof why) && strstr(why, "sum"), "weights 0.7: '%s'", why);
    make_arm(&a);
    a.infl[1].joint[0] = 7;
    CHECK(!gn_anim_model_check(&a.m, why, sizeof why) && strstr(why, "joint 7"), "joint 7 of 2: '%s'", why);
    make_arm(&a);
    a.infl[0].weight[0] = NAN;
    CHECK(!gn_anim_model_check(&a.m, why, sizeof why), "a NaN weight accepted");
    make_arm(&a);
    a.inverse_bind[1][3] = INFINITY;
    CHECK(!gn_anim_model_check(&a.m, why, sizeof why), "an infinite inverse bind accepted");
    make_arm(&a);
    static const float times[2] = {0, 1}, v3[6] = {0};
    gn_anim_channel ch = {1, GN_ANIM_PATH_ROTATION, {times, v3, 2, 3, GN_ANIM_LINEAR, false}};
    gn_anim_clip clip = {.name = "bad", .duration = 1, .channels = &ch, .channel_count = 1};
    a.m.clips = &clip, a.m.clip_count = 1;
    CHECK(!gn_anim_model_check(&a.m, why, sizeof why) && strstr(why, "wide"), "a 3-wide rotation: '%s'", why);
    ch = (gn_anim_channel){9, GN_ANIM_PATH_TRANSLATION, {times, v3, 2, 3, GN_ANIM_LINEAR, false}};
    CHECK(!gn_anim_model_check(&a.m, why, sizeof why) && strstr(why, "node 9"), "a channel on node 9: '%s'",
          why);
    static const float back[2] = {1, 0};
    ch = (gn_anim_channel){1, GN_ANIM_PATH_TRANSLATION, {back, v3, 2, 3, GN_ANIM_LINEAR, false}};
    CHECK(!gn_anim_model_check(&a.m, why, sizeof why), "decreasing times accepted");
    make_arm(&a);
    a.part.morph = 0;
    CHECK(!gn_anim_model_check(&a.m, why, sizeof why) && strstr(why, "morph"), "a missing morph set: '%s'",
          why);
}

int main(void)
{
    test_elbow();
    test_clip_and_crossfade();
    test_morphs();
    test_bounds();
    test_refusals();
    return gn_check_exit();
}

/* The town's procedural animated models (figure.h). The person is a few smooth tubes (legs,
 * torso, arms, neck and head, hands, shoes) skinned to 17 joints; its walk is made by following
 * two foot tracks (a planted foot moves back at exactly the walk's speed, rolling from heel to
 * toe) and solving each leg with two-bone IK, so the feet do not slide when the rig walks its
 * path at GN_FIGURE_WALK_SPEED. The banner is a two-sided strip on a chain. */
#include "scene/figure.h"
#include "base/alloc.h"
#include "base/gmath.h"
#include "scene/meshgen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (GN_PI / 180.0f)

/* ---- quaternions (x, y, z, w), glTF's order ------------------------------------------------- */
static void q_about(float q[4], int axis, float angle)
{
    q[0] = q[1] = q[2] = 0;
    q[axis] = sinf(0.5f * angle);
    q[3] = cosf(0.5f * angle);
}

static void q_mul(const float a[4], const float b[4], float o[4])
{
    float r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(o, r, sizeof r);
}

static void q_normalize(float q[4])
{
    float l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++) q[i] /= l;
}

/* The shortest rotation taking unit a to unit b; a and b never opposite here (two directions
 * down a leg). */
static void q_from_to(const float a[3], const float b[3], float q[4])
{
    float c[3];
    gn_vec3_cross(c, a, b);
    q[0] = c[0], q[1] = c[1], q[2] = c[2], q[3] = 1.0f + gn_vec3_dot(a, b);
    q_normalize(q);
}

static float smoothstep(float e0, float e1, float x)
{
    float u = (x - e0) / (e1 - e0);
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return u * u * (3 - 2 * u);
}

/* ---- the skeleton ---------------------------------------------------------------------------- */
/* Bind-pose positions (model space, metres) of each joint, parents first: a 1.75 m adult, hips
 * at 1.00 m, thigh and shin 0.43 m each, ankles 8 cm above the soles; rotations are all identity
 * in the bind pose, so each inverse bind matrix is a translation. */
static const struct {
    int parent;
    float p[3];
    const char *name;
} gn_figure_bones[GN_FIGURE_JOINTS] = {
    {-1, {0, 1.00f, 0}, "hips"},
    {GN_FIGURE_HIPS, {0, 1.12f, 0}, "spine"},
    {GN_FIGURE_SPINE, {0, 1.31f, 0}, "chest"},
    {GN_FIGURE_CHEST, {0, 1.50f, 0}, "neck"},
    {GN_FIGURE_NECK, {0, 1.58f, 0}, "head"},
    {GN_FIGURE_CHEST, {0.20f, 1.43f, 0}, "upper_arm.L"},
    {GN_FIGURE_UPPER_ARM_L, {0.22f, 1.15f, 0}, "lower_arm.L"},
    {GN_FIGURE_LOWER_ARM_L, {0.235f, 0.90f, 0}, "hand.L"},
    {GN_FIGURE_CHEST, {-0.20f, 1.43f, 0}, "upper_arm.R"},
    {GN_FIGURE_UPPER_ARM_R, {-0.22f, 1.15f, 0}, "lower_arm.R"},
    {GN_FIGURE_LOWER_ARM_R, {-0.235f, 0.90f, 0}, "hand.R"},
    {GN_FIGURE_HIPS, {0.10f, 0.94f, 0}, "upper_leg.L"},
    {GN_FIGURE_UPPER_LEG_L, {0.10f, 0.51f, 0}, "lower_leg.L"},
    {GN_FIGURE_LOWER_LEG_L, {0.10f, 0.08f, 0}, "foot.L"},
    {GN_FIGURE_HIPS, {-0.10f, 0.94f, 0}, "upper_leg.R"},
    {GN_FIGURE_UPPER_LEG_R, {-0.10f, 0.51f, 0}, "lower_leg.R"},
    {GN_FIGURE_LOWER_LEG_R, {-0.10f, 0.08f, 0}, "foot.R"},
};
#define THIGH 0.43f
#define SHIN 0.43f
#define ANKLE_Y 0.08f

/* A chain of joints where each joint's bind-pose world matrix is a translation to pos[j] and its
 * local rest transform the offset from its parent. */
static gn_result skeleton_make(gn_skeleton *sk, uint32_t n, const int *parent, const float (*pos)[3],
                               const char *const *names, gn_error *err)
{
    sk->nodes = gn_calloc(n, sizeof *sk->nodes);
    sk->joint_node = gn_calloc(n, sizeof *sk->joint_node);
    sk->inverse_bind = gn_calloc(n, sizeof *sk->inverse_bind);
    if (!sk->nodes || !sk->joint_node || !sk->inverse_bind)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for a skeleton of %u joints", n);
    sk->node_count = sk->joint_count = n;
    for (uint32_t j = 0; j < n; j++) {
        gn_skel_node *nd = &sk->nodes[j];
        nd->parent = parent[j];
        for (int k = 0; k < 3; k++) nd->t[k] = pos[j][k] - (parent[j] >= 0 ? pos[parent[j]][k] : 0.0f);
        nd->r[3] = 1;
        nd->s[0] = nd->s[1] = nd->s[2] = 1;
        snprintf(nd->name, sizeof nd->name, "%s", names[j]);
        sk->joint_node[j] = j;
        float *ib = sk->inverse_bind[j];
        ib[0] = ib[5] = ib[10] = ib[15] = 1;
        ib[12] = -pos[j][0], ib[13] = -pos[j][1], ib[14] = -pos[j][2];
    }
    return GN_OK;
}

/* ---- a skinned part being built ---------------------------------------------------------------- */
/* Up to four joints a vertex while weights are summed; normalised into gn_skin_influence. */
typedef struct fig_w {
    int n;
    uint16_t joint[4];
    float weight[4];
} fig_w;

static void w_add(fig_w *w, uint32_t joint, float weight)
{
    if (!(weight > 1e-4f)) return;
    for (int i = 0; i < w->n; i++)
        if (w->joint[i] == joint) {
            w->weight[i] += weight;
            return;
        }
    if (w->n < 4) w->joint[w->n] = (uint16_t)joint, w->weight[w->n++] = weight;
}

typedef struct fig_part {
    gn_mg mg;
    gn_skin_influence *inf; /* one a vertex of mg */
    uint32_t cap;
    bool oom;
} fig_part;

static void part_vertex(fig_part *p, const float pos[3], const float uv[2], const fig_w *w)
{
    static const float up[3] = {0, 1, 0}; /* replaced by the smooth normals at the end */
    uint32_t i = gn_mg_vertex(&p->mg, pos, up, uv);
    if (p->mg.oom || p->oom) return;
    if (i >= p->cap) {
        uint32_t cap = p->cap ? p->cap * 2 : 256;
        gn_skin_influence *grown = gn_realloc(p->inf, cap * sizeof *grown);
        if (!grown) {
            p->oom = true;
            return;
        }
        p->inf = grown, p->cap = cap;
    }
    gn_skin_influence *in = &p->inf[i];
    memset(in, 0, sizeof *in);
    float sum = 0;
    for (int k = 0; k < w->n; k++) sum += w->weight[k];
    for (int k = 0; k < w->n; k++) in->joint[k] = w->joint[k], in->weight[k] = w->weight[k] / sum;
}

/* Weights along a chain of joints: joint[0] below at[0], joint[k] between at[k - 1] and at[k],
 * the last above at[n - 2]; each change blended over +-half[k] with a smoothstep, so a bend
 * spreads over the rings near its joint instead of creasing at one. Scaled by `share`. */
typedef struct fig_chain {
    int n;
    uint16_t joint[4];
    float at[3], half[3];
} fig_chain;

static void chain_weights(const fig_chain *c, float s, float share, fig_w *w)
{
    float below = 1;
    for (int k = 0; k < c->n; k++) {
        float above = k + 1 < c->n ? smoothstep(c->at[k] - c->half[k], c->at[k] + c->half[k], s) : 0;
        w_add(w, c->joint[k], share * (below - above));
        below = above;
    }
}

/* A tube: rings of `segs` vertices (centre, radius ra along e1 and rb along e2 = e1 x axis) in
 * order along `axis`, closed by a pole cap0 before the first ring and cap1 after the last. */
typedef struct fig_ring {
    float c[3], ra, rb;
} fig_ring;

typedef void (*fig_weigh_fn)(const void *ctx, const float p[3], fig_w *out);

typedef struct fig_tube {
    const fig_ring *rings;
    int count, segs;
    int detail; /* each ring's vertices and each span between rings split this many times (>= 1) */
    float axis[3], e1[3];
    float cap0, cap1;
    fig_weigh_fn weigh;
    const void *ctx;
} fig_tube;

static void tube_vertex(fig_part *p, const fig_tube *t, const float pos[3], float u)
{
    fig_w w = {0};
    t->weigh(t->ctx, pos, &w);
    const float uv[2] = {u, -gn_vec3_dot(pos, t->axis)};
    part_vertex(p, pos, uv, &w);
}

/* Ring i of a tube at its detail: the rings given, with detail - 1 more lerped into each span. */
static fig_ring tube_ring(const fig_tube *t, int i)
{
    int d = t->detail, k = i / d;
    if (k + 1 >= t->count) return t->rings[t->count - 1];
    float u = (float)(i - k * d) / (float)d;
    const fig_ring *a = &t->rings[k], *b = &t->rings[k + 1];
    fig_ring r;
    for (int c = 0; c < 3; c++) r.c[c] = a->c[c] + (b->c[c] - a->c[c]) * u;
    r.ra = a->ra + (b->ra - a->ra) * u, r.rb = a->rb + (b->rb - a->rb) * u;
    return r;
}

static void tube_emit(fig_part *p, const fig_tube *t)
{
    float e2[3], pos[3];
    gn_vec3_cross(e2, t->e1, t->axis);
    int count = (t->count - 1) * t->detail + 1;
    uint32_t first = p->mg.vcount, n = (uint32_t)(t->segs * t->detail);
    const fig_ring *r0 = &t->rings[0], *rn = &t->rings[t->count - 1];
    for (int k = 0; k < 3; k++) pos[k] = r0->c[k] - t->axis[k] * t->cap0;
    tube_vertex(p, t, pos, 0.5f);
    for (int i = 0; i < count; i++) {
        fig_ring r = tube_ring(t, i);
        for (uint32_t j = 0; j < n; j++) {
            float a = 2.0f * GN_PI * (float)j / (float)n, ca = cosf(a), sa = sinf(a);
            for (int k = 0; k < 3; k++) pos[k] = r.c[k] + r.ra * ca * t->e1[k] + r.rb * sa * e2[k];
            tube_vertex(p, t, pos, (float)j / (float)n);
        }
    }
    for (int k = 0; k < 3; k++) pos[k] = rn->c[k] + t->axis[k] * t->cap1;
    tube_vertex(p, t, pos, 0.5f);
    /* Counter-clockwise from outside: with angles growing from e1 towards e2 = e1 x axis, a
     * quad's lower edge runs j+1 -> j (gn_mg_frustum's order, axis +Y). */
    uint32_t pole0 = first, pole1 = first + 1 + (uint32_t)count * n;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t j1 = (j + 1) % n;
        gn_mg_tri(&p->mg, pole0, first + 1 + j, first + 1 + j1);
        for (int i = 0; i + 1 < count; i++) {
            uint32_t lo = first + 1 + (uint32_t)i * n, hi = lo + n;
            gn_mg_tri(&p->mg, lo + j1, lo + j, hi + j);
            gn_mg_tri(&p->mg, lo + j1, hi + j, hi + j1);
        }
        uint32_t top = first + 1 + (uint32_t)(count - 1) * n;
        gn_mg_tri(&p->mg, top + j1, top + j, pole1);
    }
}

/* ---- the figure's body ---------------------------------------------------------------------- */
/* Torso: the chain hips-spine-chest-neck, and near the legs and shoulders a share of the thigh
 * or upper arm on the vertex's side, so the pelvis follows a swinging thigh and the shoulder
 * a swinging arm (three influences there). */
static void weigh_torso(const void *ctx, const float p[3], fig_w *w)
{
    (void)ctx;
    static const fig_chain torso = {4,
                                    {GN_FIGURE_HIPS, GN_FIGURE_SPINE, GN_FIGURE_CHEST, GN_FIGURE_NECK},
                                    {1.12f, 1.31f, 1.50f},
                                    {0.06f, 0.08f, 0.03f}};
    float ax = fabsf(p[0]), y = p[1];
    bool left = p[0] >= 0;
    float leg = 0.5f * (1.0f - smoothstep(0.88f, 1.0f, y)) * smoothstep(0.02f, 0.09f, ax);
    float arm = 0.4f * smoothstep(1.33f, 1.43f, y) * smoothstep(0.10f, 0.16f, ax);
    chain_weights(&torso, y, 1.0f - leg - arm, w);
    w_add(w, left ? GN_FIGURE_UPPER_LEG_L : GN_FIGURE_UPPER_LEG_R, leg);
    w_add(w, left ? GN_FIGURE_UPPER_ARM_L : GN_FIGURE_UPPER_ARM_R, arm);
}

/* Vertical limbs: the chain by height. */
static void weigh_chain_y(const void *ctx, const float p[3], fig_w *w) { chain_weights(ctx, p[1], 1.0f, w); }

/* The rings of a vertical tube from a table of (y, ra, rb, z offset), centred on x(y). */
typedef struct fig_profile {
    float y, ra, rb, z;
} fig_profile;

static int rings_vertical(fig_ring *out, const fig_profile *pr, int n, const float (*line)[2], int line_n)
{
    for (int i = 0; i < n; i++) {
        /* x along a polyline of (y, x) points, top first: a limb's bones */
        float x = line[0][1];
        for (int k = 0; k + 1 < line_n; k++)
            if (pr[i].y <= line[k][0]) {
                float u = (line[k][0] - pr[i].y) / (line[k][0] - line[k + 1][0]);
                u = u > 1 ? 1 : u;
                x = line[k][1] + (line[k + 1][1] - line[k][1]) * u;
            }
        out[i] = (fig_ring){{x, pr[i].y, pr[i].z}, pr[i].ra, pr[i].rb};
    }
    return n;
}

static const fig_profile gn_torso_profile[] = {
    {0.88f, 0.110f, 0.085f, 0},     {0.94f, 0.150f, 0.100f, 0},      {1.01f, 0.158f, 0.105f, -0.005f},
    {1.08f, 0.145f, 0.095f, 0},     {1.15f, 0.148f, 0.098f, 0.005f}, {1.23f, 0.160f, 0.108f, 0.01f},
    {1.31f, 0.172f, 0.112f, 0.01f}, {1.38f, 0.178f, 0.108f, 0.005f}, {1.44f, 0.170f, 0.095f, 0},
    {1.49f, 0.110f, 0.070f, 0},     {1.53f, 0.060f, 0.055f, 0},
};
/* Denser around the knee (0.51 m) so that it bends over several rings. */
static const fig_profile gn_leg_profile[] = {
    {0.06f, 0.042f, 0.044f, 0}, {0.10f, 0.045f, 0.047f, 0}, {0.18f, 0.048f, 0.050f, 0},
    {0.27f, 0.056f, 0.059f, 0}, {0.36f, 0.058f, 0.061f, 0}, {0.44f, 0.054f, 0.057f, 0},
    {0.48f, 0.052f, 0.055f, 0}, {0.51f, 0.052f, 0.055f, 0}, {0.54f, 0.055f, 0.058f, 0},
    {0.60f, 0.064f, 0.067f, 0}, {0.70f, 0.072f, 0.076f, 0}, {0.80f, 0.080f, 0.084f, 0},
    {0.88f, 0.086f, 0.090f, 0}, {0.92f, 0.088f, 0.092f, 0}, {0.96f, 0.088f, 0.092f, 0},
    {1.01f, 0.080f, 0.084f, 0},
};
static const fig_profile gn_arm_profile[] = {
    {0.895f, 0.034f, 0.037f, 0}, {0.95f, 0.036f, 0.040f, 0}, {1.03f, 0.040f, 0.044f, 0},
    {1.10f, 0.043f, 0.047f, 0},  {1.15f, 0.044f, 0.048f, 0}, {1.20f, 0.046f, 0.051f, 0},
    {1.27f, 0.050f, 0.055f, 0},  {1.34f, 0.054f, 0.059f, 0}, {1.40f, 0.056f, 0.062f, 0},
    {1.45f, 0.050f, 0.055f, 0},
};
static const fig_profile gn_head_profile[] = {
    {1.47f, 0.050f, 0.052f, 0},      {1.54f, 0.048f, 0.052f, 0.005f}, {1.585f, 0.068f, 0.080f, 0.018f},
    {1.62f, 0.080f, 0.095f, 0.015f}, {1.665f, 0.084f, 0.100f, 0.01f}, {1.705f, 0.075f, 0.090f, 0.005f},
    {1.733f, 0.050f, 0.062f, 0},
};
static const fig_profile gn_hand_profile[] = {
    {0.78f, 0.018f, 0.030f, 0.01f}, {0.82f, 0.024f, 0.045f, 0.01f},  {0.86f, 0.024f, 0.042f, 0.01f},
    {0.90f, 0.022f, 0.032f, 0.01f}, {0.925f, 0.022f, 0.030f, 0.01f},
};
/* The shoe along +Z: (z, centre height, half width, half height); its sole on y = 0. */
static const float gn_shoe_profile[][4] = {
    {-0.055f, 0.040f, 0.038f, 0.040f}, {-0.02f, 0.048f, 0.044f, 0.048f}, {0.04f, 0.042f, 0.048f, 0.042f},
    {0.10f, 0.032f, 0.048f, 0.032f},   {0.15f, 0.025f, 0.042f, 0.025f},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAX_RINGS 24
_Static_assert(COUNT(gn_torso_profile) <= MAX_RINGS && COUNT(gn_leg_profile) <= MAX_RINGS &&
                   COUNT(gn_arm_profile) <= MAX_RINGS && COUNT(gn_head_profile) <= MAX_RINGS &&
                   COUNT(gn_hand_profile) <= MAX_RINGS,
               "a profile has more rings than emit_vertical holds");

static void emit_vertical(fig_part *p, const fig_profile *pr, int n, const float (*line)[2], int line_n,
                          int segs, int detail, float cap0, float cap1, fig_weigh_fn weigh, const void *ctx)
{
    fig_ring rings[MAX_RINGS];
    rings_vertical(rings, pr, n, line, line_n);
    fig_tube t = {rings, n, segs, detail, {0, 1, 0}, {1, 0, 0}, cap0, cap1, weigh, ctx};
    tube_emit(p, &t);
}

static void weigh_foot(const void *ctx, const float p[3], fig_w *w)
{
    (void)p;
    w_add(w, *(const uint16_t *)ctx, 1.0f);
}

/* Both parts of the figure in their bind pose, with their influences; `detail` splits every
 * ring and every span between rings that many times (about detail^2 the vertices). */
static void figure_build(fig_part *clothes, fig_part *skin, int detail)
{
    static const float centre[2][2] = {{1.6f, 0}, {0.8f, 0}};
    emit_vertical(clothes, gn_torso_profile, COUNT(gn_torso_profile), centre, 2, 10, detail, 0.02f, 0.015f,
                  weigh_torso, NULL);
    for (int side = 0; side < 2; side++) {
        float sx = side ? -1.0f : 1.0f;
        uint16_t o = side ? 3 : 0; /* the right side's joints follow the left's */
        /* legs: foot | ankle | shin | knee | thigh | hip | pelvis */
        fig_chain leg = {4,
                         {(uint16_t)(GN_FIGURE_FOOT_L + o), (uint16_t)(GN_FIGURE_LOWER_LEG_L + o),
                          (uint16_t)(GN_FIGURE_UPPER_LEG_L + o), GN_FIGURE_HIPS},
                         {ANKLE_Y, 0.51f, 0.95f},
                         {0.03f, 0.07f, 0.08f}};
        const float leg_line[2][2] = {{1.0f, 0.10f * sx}, {0.0f, 0.10f * sx}};
        emit_vertical(clothes, gn_leg_profile, COUNT(gn_leg_profile), leg_line, 2, 8, detail, 0.015f, 0.02f,
                      weigh_chain_y, &leg);
        /* arms: hand | wrist | forearm | elbow | upper arm | shoulder | chest */
        fig_chain arm = {4,
                         {(uint16_t)(GN_FIGURE_HAND_L + o), (uint16_t)(GN_FIGURE_LOWER_ARM_L + o),
                          (uint16_t)(GN_FIGURE_UPPER_ARM_L + o), GN_FIGURE_CHEST},
                         {0.90f, 1.15f, 1.45f},
                         {0.02f, 0.06f, 0.03f}};
        const float arm_line[3][2] = {{1.43f, 0.20f * sx}, {1.15f, 0.22f * sx}, {0.90f, 0.235f * sx}};
        emit_vertical(clothes, gn_arm_profile, COUNT(gn_arm_profile), arm_line, 3, 8, detail, 0.01f, 0.02f,
                      weigh_chain_y, &arm);
        /* shoes along +Z under the ankle; rigid on the foot joint */
        fig_ring shoe[COUNT(gn_shoe_profile)];
        for (int i = 0; i < COUNT(gn_shoe_profile); i++)
            shoe[i] = (fig_ring){{0.10f * sx, gn_shoe_profile[i][1], gn_shoe_profile[i][0]},
                                 gn_shoe_profile[i][2],
                                 gn_shoe_profile[i][3]};
        uint16_t foot = (uint16_t)(GN_FIGURE_FOOT_L + o);
        fig_tube st = {shoe, COUNT(shoe), 8, detail, {0, 0, 1}, {1, 0, 0}, 0.015f, 0.025f, weigh_foot, &foot};
        tube_emit(clothes, &st);
        /* hands */
        fig_chain hand = {
            2, {(uint16_t)(GN_FIGURE_HAND_L + o), (uint16_t)(GN_FIGURE_LOWER_ARM_L + o)}, {0.905f}, {0.015f}};
        const float hand_line[2][2] = {{1.0f, 0.235f * sx}, {0.0f, 0.235f * sx}};
        emit_vertical(skin, gn_hand_profile, COUNT(gn_hand_profile), hand_line, 2, 6, detail, 0.015f, 0.01f,
                      weigh_chain_y, &hand);
    }
    static const fig_chain head = {
        3, {GN_FIGURE_CHEST, GN_FIGURE_NECK, GN_FIGURE_HEAD}, {1.50f, 1.575f}, {0.03f, 0.015f}};
    emit_vertical(skin, gn_head_profile, COUNT(gn_head_profile), centre, 2, 10, detail, 0.015f, 0.017f,
                  weigh_chain_y, &head);
}

/* ---- clips ------------------------------------------------------------------------------------ */
/* A clip of `channels` channels sampled at `keys` evenly spaced times over `duration`; its data
 * holds the times once, then each channel's values. */
static gn_result clip_alloc(gn_anim_clip *c, const char *name, float duration, uint32_t keys,
                            const uint32_t *nodes, const gn_anim_path *paths, uint32_t channels,
                            gn_error *err)
{
    size_t floats = keys;
    for (uint32_t k = 0; k < channels; k++)
        floats += (size_t)keys * (paths[k] == GN_ANIM_PATH_ROTATION ? 4 : 3);
    c->channels = gn_calloc(channels, sizeof *c->channels);
    c->data = gn_malloc(floats * sizeof *c->data);
    if (!c->channels || !c->data)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for clip '%s'", name);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->duration = duration;
    c->channel_count = channels;
    for (uint32_t i = 0; i < keys; i++) c->data[i] = duration * (float)i / (float)(keys - 1);
    c->data[keys - 1] = duration;
    size_t at = keys;
    for (uint32_t k = 0; k < channels; k++) {
        uint32_t width = paths[k] == GN_ANIM_PATH_ROTATION ? 4 : 3;
        c->channels[k] = (gn_anim_channel){.target = nodes[k],
                                           .path = paths[k],
                                           .sampler = {c->data, c->data + at, keys, width, GN_ANIM_LINEAR,
                                                       paths[k] == GN_ANIM_PATH_ROTATION}};
        at += (size_t)keys * width;
    }
    return GN_OK;
}

/* Channel k's value at key i, written in place (the clip owns its data). */
static float *clip_value(gn_anim_clip *c, uint32_t k, uint32_t i)
{
    const gn_anim_sampler *s = &c->channels[k].sampler;
    return c->data + (s->values - c->data) + (size_t)i * s->width;
}

/* A full pose of the figure: the hips' translation and every joint's rotation. */
typedef struct fig_pose {
    float hips[3];
    float r[GN_FIGURE_JOINTS][4];
} fig_pose;

static void pose_rest(fig_pose *p)
{
    memcpy(p->hips, gn_figure_bones[GN_FIGURE_HIPS].p, sizeof p->hips);
    for (int j = 0; j < GN_FIGURE_JOINTS; j++) q_about(p->r[j], 0, 0);
}

/* ---- the walk ---------------------------------------------------------------------------- */
/* Phases are fractions of the cycle. A foot is planted for the first WALK_STANCE of its phase,
 * rolling on its heel at first and onto the ball of the foot at the end, then swings forward.
 * The left foot's phase is the clip's time / period + WALK_PHASE0: at a quarter period both
 * feet are planted, a step (half a stride) apart. */
#define WALK_STANCE 0.62f
#define WALK_PHASE0 0.81f
#define WALK_FRONT 0.30f /* the planted ankle's lead over the hips at heel strike, metres */
#define WALK_HIPS_Y 0.975f
#define WALK_BOB 0.015f  /* the hips are highest over a straight leg, lowest when both feet are down */
#define WALK_SWAY 0.018f /* towards the planted foot */
#define WALK_LIFT 0.05f  /* the swinging ankle's extra height mid-swing */
#define HEEL_PHASE 0.12f
#define HEEL_PITCH (15.0f * DEG) /* toes up at heel strike */
#define TOE_PHASE 0.6f
#define TOE_PITCH (35.0f * DEG) /* heel up at toe-off */
#define HEEL_Z (-0.06f)         /* the heel's and the ball's contact points behind and ahead of the ankle */
#define BALL_Z 0.15f

/* The ankle (z ahead of the hips, y) and the foot's pitch (about +X: positive lifts the heel) at
 * u in [0, 1] of the stance. The point of the sole on the ground (the heel, the whole sole, the
 * ball) moves back at the walk's speed: the ground under a walker going forward. */
static void walk_stance(float u, float *z, float *y, float *pitch)
{
    float flat = WALK_FRONT - WALK_STANCE * GN_FIGURE_STRIDE * u;
    float p, cz, oz;
    if (u < HEEL_PHASE) {
        float k = 1 - u / HEEL_PHASE;
        p = -HEEL_PITCH * k * k, cz = flat + HEEL_Z, oz = -HEEL_Z;
    } else if (u > TOE_PHASE) {
        float k = (u - TOE_PHASE) / (1 - TOE_PHASE);
        p = TOE_PITCH * k * k, cz = flat + BALL_Z, oz = -BALL_Z;
    } else {
        *z = flat, *y = ANKLE_Y, *pitch = 0;
        return;
    }
    /* the ankle turned about the contact point (on the ground) by the pitch */
    *y = ANKLE_Y * cosf(p) - oz * sinf(p);
    *z = cz + ANKLE_Y * sinf(p) + oz * cosf(p);
    *pitch = p;
}

static void walk_foot(float phase, float *z, float *y, float *pitch)
{
    if (phase < WALK_STANCE) {
        walk_stance(phase / WALK_STANCE, z, y, pitch);
        return;
    }
    /* the swing: from toe-off to the next heel strike, eased at both ends, lifted in between */
    float z0, y0, p0, z1, y1, p1;
    walk_stance(1, &z0, &y0, &p0);
    walk_stance(0, &z1, &y1, &p1);
    float u = (phase - WALK_STANCE) / (1 - WALK_STANCE), s = 0.5f - 0.5f * cosf(GN_PI * u);
    *z = z0 + (z1 - z0) * s;
    *y = y0 + (y1 - y0) * s + WALK_LIFT * sinf(GN_PI * u);
    *pitch = p0 + (p1 - p0) * s;
}

/* Two-bone IK in the hips' frame (the walk leaves the hips unrotated): the thigh turned the
 * shortest way from its rest direction to the ankle, the knee bent forward by the law of
 * cosines, the foot turned back to its pitch in the model's frame. */
static void walk_leg(const float hip[3], const float ankle[3], float pitch, float thigh[4], float shin[4],
                     float foot[4])
{
    float d[3] = {ankle[0] - hip[0], ankle[1] - hip[1], ankle[2] - hip[2]};
    float len = sqrtf(gn_vec3_dot(d, d)), reach = 0.998f * (THIGH + SHIN);
    len = len > reach ? reach : len < 0.2f ? 0.2f : len;
    float c = (THIGH * THIGH + SHIN * SHIN - len * len) / (2 * THIGH * SHIN);
    float knee = GN_PI - acosf(c < -1 ? -1 : c > 1 ? 1 : c);
    float e[3] = {0, -THIGH - SHIN * cosf(knee), -SHIN * sinf(knee)};
    gn_vec3_normalize(e);
    gn_vec3_normalize(d);
    q_from_to(e, d, thigh);
    q_about(shin, 0, knee);
    float leg[4], want[4];
    q_mul(thigh, shin, leg);
    leg[0] = -leg[0], leg[1] = -leg[1], leg[2] = -leg[2]; /* its inverse */
    q_about(want, 0, pitch);
    q_mul(leg, want, foot);
}

static void walk_pose(float t, fig_pose *p)
{
    pose_rest(p);
    float phase = t / GN_FIGURE_WALK_PERIOD + WALK_PHASE0;
    phase -= floorf(phase);
    const float two_pi = 2 * GN_PI;
    /* highest and furthest over the left foot at its mid-stance, lowest with both feet down */
    float mid = phase - 0.5f * WALK_STANCE;
    p->hips[0] = WALK_SWAY * cosf(two_pi * mid);
    p->hips[1] = WALK_HIPS_Y + WALK_BOB * cosf(2 * two_pi * mid);
    p->hips[2] = 0;
    for (int side = 0; side < 2; side++) {
        float ph = phase + (side ? 0.5f : 0.0f), sx = side ? -1.0f : 1.0f;
        ph -= floorf(ph);
        int o = side ? 3 : 0;
        float hip[3] = {p->hips[0] + 0.10f * sx, p->hips[1] - 0.06f, 0}, ankle[3] = {0.10f * sx, 0, 0}, pitch;
        walk_foot(ph, &ankle[2], &ankle[1], &pitch);
        walk_leg(hip, ankle, pitch, p->r[GN_FIGURE_UPPER_LEG_L + o], p->r[GN_FIGURE_LOWER_LEG_L + o],
                 p->r[GN_FIGURE_FOOT_L + o]);
        /* the arm on this side swings against its leg: back while its foot leads */
        float c = cosf(two_pi * (ph - 0.06f));
        q_about(p->r[GN_FIGURE_UPPER_ARM_L + o], 0, 18.0f * DEG * c);
        q_about(p->r[GN_FIGURE_LOWER_ARM_L + o], 0, -(14.0f + 5.0f * (1 - c)) * DEG);
    }
    /* the chest turns with the arms (the leading arm's shoulder forward), the head against it,
       the spine leans a little into the walk and the neck straightens the head */
    float turn = 5.0f * DEG * cosf(two_pi * (phase - 0.06f));
    q_about(p->r[GN_FIGURE_SPINE], 0, 3.0f * DEG);
    q_about(p->r[GN_FIGURE_CHEST], 1, turn);
    q_about(p->r[GN_FIGURE_NECK], 0, -3.0f * DEG);
    q_about(p->r[GN_FIGURE_HEAD], 1, -turn);
}

/* ---- idle: breathing and looking about, feet still ------------------------------------------- */
static void idle_pose(float t, fig_pose *p)
{
    pose_rest(p);
    float a = 2 * GN_PI * t / GN_FIGURE_IDLE_PERIOD, q[4], r[4];
    q_about(p->r[GN_FIGURE_SPINE], 0, (1.5f + 0.7f * sinf(a)) * DEG);
    q_about(q, 0, -0.9f * DEG * sinf(a));
    q_about(r, 2, 0.8f * DEG * sinf(a + 1.0f));
    q_mul(q, r, p->r[GN_FIGURE_CHEST]);
    q_about(q, 1, 7.0f * DEG * sinf(a + 0.6f));
    q_about(r, 0, 2.0f * DEG * sinf(2 * a));
    q_mul(q, r, p->r[GN_FIGURE_HEAD]);
    /* arms hang a little away from the body (about +Z moves the left arm out, to +X) */
    q_about(p->r[GN_FIGURE_UPPER_ARM_L], 2, (3.0f + 0.8f * sinf(a)) * DEG);
    q_about(p->r[GN_FIGURE_UPPER_ARM_R], 2, -(3.0f + 0.8f * sinf(a)) * DEG);
    q_about(p->r[GN_FIGURE_LOWER_ARM_L], 0, -8.0f * DEG);
    q_about(p->r[GN_FIGURE_LOWER_ARM_R], 0, -8.0f * DEG);
}

/* A clip from a pose function: the hips' translation when `hips` and the rotations of `joints`,
 * at `keys` times; the last key is the first's pose, so the loop closes exactly. */
static gn_result figure_clip(gn_anim_clip *c, const char *name, float duration, uint32_t keys,
                             void (*pose)(float, fig_pose *), bool hips, const uint32_t *joints, uint32_t n,
                             gn_error *err)
{
    uint32_t nodes[GN_FIGURE_JOINTS + 1];
    gn_anim_path paths[GN_FIGURE_JOINTS + 1];
    uint32_t ch = 0;
    if (hips) nodes[ch] = GN_FIGURE_HIPS, paths[ch++] = GN_ANIM_PATH_TRANSLATION;
    for (uint32_t k = 0; k < n; k++) nodes[ch] = joints[k], paths[ch++] = GN_ANIM_PATH_ROTATION;
    gn_result r = clip_alloc(c, name, duration, keys, nodes, paths, ch, err);
    if (r != GN_OK) return r;
    for (uint32_t i = 0; i < keys; i++) {
        fig_pose p;
        pose(i + 1 == keys ? 0.0f : c->data[i], &p);
        for (uint32_t k = 0; k < ch; k++) {
            if (paths[k] == GN_ANIM_PATH_TRANSLATION)
                memcpy(clip_value(c, k, i), p.hips, sizeof p.hips);
            else
                memcpy(clip_value(c, k, i), p.r[nodes[k]], sizeof p.r[0]);
        }
    }
    return GN_OK;
}

/* ---- the model ------------------------------------------------------------------------------ */
/* Hands part p's builder to the scene (or checks it matches a shared mesh) and to the model. */
static gn_result part_finish(gn_scene *s, fig_part *b, const char *label, const uint32_t *share,
                             uint32_t material, gn_anim_part *out, gn_error *err)
{
    if (b->oom || b->mg.oom)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "mesh '%s': out of memory while generating", label);
    uint32_t n = b->mg.vcount;
    gn_mesh_compute_normals(b->mg.v, n, b->mg.idx, b->mg.icount);
    gn_result r = GN_OK;
    uint32_t mesh = 0;
    if (share) {
        mesh = *share;
        if (mesh >= s->mesh_count || s->meshes[mesh].vertex_count != n)
            r = gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "mesh '%s': shared mesh %u is not one of %u vertices",
                        label, mesh, n);
    } else {
        r = gn_mg_commit(&b->mg, s, label, &mesh, err);
    }
    if (r != GN_OK) return r;
    *out = (gn_anim_part){
        .mesh = mesh, .material = material, .node = 0, .vertex_count = n, .influences = b->inf, .morph = -1};
    b->inf = NULL; /* the model owns them now */
    return GN_OK;
}

static void part_free(fig_part *p)
{
    gn_mg_free(&p->mg);
    free(p->inf);
}

gn_result gn_figure_model(gn_scene *s, const gn_figure_desc *d, gn_anim_model *out, gn_error *err)
{
    if (!s || !d || !out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_figure_model: NULL argument");
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "figure");
    int parent[GN_FIGURE_JOINTS];
    float pos[GN_FIGURE_JOINTS][3];
    const char *names[GN_FIGURE_JOINTS];
    for (int j = 0; j < GN_FIGURE_JOINTS; j++) {
        parent[j] = gn_figure_bones[j].parent;
        memcpy(pos[j], gn_figure_bones[j].p, sizeof pos[j]);
        names[j] = gn_figure_bones[j].name;
    }
    gn_result r = skeleton_make(&out->skeleton, GN_FIGURE_JOINTS, parent, (const float(*)[3])pos, names, err);
    if (r == GN_OK && d->detail > GN_FIGURE_MAX_DETAIL)
        r = gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "figure: detail %u, above %u", d->detail,
                    GN_FIGURE_MAX_DETAIL);
    fig_part parts[2] = {0};
    gn_mg_init(&parts[0].mg);
    gn_mg_init(&parts[1].mg);
    out->parts = gn_calloc(2, sizeof *out->parts);
    out->clips = gn_calloc(2, sizeof *out->clips);
    if (r == GN_OK && (!out->parts || !out->clips))
        r = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for a figure");
    if (r == GN_OK) {
        figure_build(&parts[0], &parts[1], d->detail ? (int)d->detail : 1);
        r = part_finish(s, &parts[0], "town/figure_clothes", d->share_meshes, d->clothes, &out->parts[0],
                        err);
        if (r == GN_OK) out->part_count = 1;
    }
    if (r == GN_OK) {
        r = part_finish(s, &parts[1], "town/figure_skin", d->share_meshes ? &d->share_meshes[1] : NULL,
                        d->skin, &out->parts[1], err);
        if (r == GN_OK) out->part_count = 2;
    }
    static const uint32_t walk_joints[] = {
        GN_FIGURE_SPINE,       GN_FIGURE_CHEST,       GN_FIGURE_NECK,        GN_FIGURE_HEAD,
        GN_FIGURE_UPPER_ARM_L, GN_FIGURE_LOWER_ARM_L, GN_FIGURE_UPPER_ARM_R, GN_FIGURE_LOWER_ARM_R,
        GN_FIGURE_UPPER_LEG_L, GN_FIGURE_LOWER_LEG_L, GN_FIGURE_FOOT_L,      GN_FIGURE_UPPER_LEG_R,
        GN_FIGURE_LOWER_LEG_R, GN_FIGURE_FOOT_R};
    static const uint32_t idle_joints[] = {
        GN_FIGURE_SPINE,       GN_FIGURE_CHEST,       GN_FIGURE_HEAD,       GN_FIGURE_UPPER_ARM_L,
        GN_FIGURE_UPPER_ARM_R, GN_FIGURE_LOWER_ARM_L, GN_FIGURE_LOWER_ARM_R};
    /* 45 keys: one every 25 ms, close enough that slerp between them follows the IK's legs to
       about a millimetre */
    if (r == GN_OK) {
        out->clip_count = 1;
        r = figure_clip(&out->clips[GN_FIGURE_CLIP_WALK], "walk", GN_FIGURE_WALK_PERIOD, 45, walk_pose, true,
                        walk_joints, COUNT(walk_joints), err);
    }
    if (r == GN_OK) {
        out->clip_count = 2;
        r = figure_clip(&out->clips[GN_FIGURE_CLIP_IDLE], "idle", GN_FIGURE_IDLE_PERIOD, 41, idle_pose, false,
                        idle_joints, COUNT(idle_joints), err);
    }
    part_free(&parts[0]);
    part_free(&parts[1]);
    if (r != GN_OK) gn_anim_model_free(out);
    return r;
}

/* ---- the banner ------------------------------------------------------------------------------ */
#define BANNER_X0 0.5f /* the cloth's edge nearest the wall */
#define BANNER_ROWS 13 /* every 0.5 m down to 6 m, then the point */
#define BANNER_COLS 4

/* Tent weights between the middles of the chain's segments (joint k holds the metre below it,
 * the last one the point): a row between two middles blends the two joints, so a bend at a
 * joint spreads over half a metre either side of it. */
static void banner_weights(float depth, fig_w *w)
{
    float mid[GN_BANNER_JOINTS];
    for (int k = 0; k < GN_BANNER_JOINTS; k++) mid[k] = (float)k + 0.5f;
    mid[GN_BANNER_JOINTS - 1] = 0.5f * ((float)(GN_BANNER_JOINTS - 1) + GN_BANNER_LENGTH);
    if (depth <= mid[0]) {
        w_add(w, 0, 1);
        return;
    }
    for (int k = 0; k + 1 < GN_BANNER_JOINTS; k++)
        if (depth <= mid[k + 1]) {
            float u = (depth - mid[k]) / (mid[k + 1] - mid[k]);
            w_add(w, (uint32_t)k, 1 - u);
            w_add(w, (uint32_t)k + 1, u);
            return;
        }
    w_add(w, GN_BANNER_JOINTS - 1, 1);
}

static void banner_build(fig_part *p)
{
    /* two layers 2 cm apart, each facing out of its side, since the renderer culls back faces */
    for (int side = 0; side < 2; side++) {
        float z = side ? -0.01f : 0.01f;
        uint32_t first = p->mg.vcount;
        for (int r = 0; r < BANNER_ROWS; r++)
            for (int c = 0; c < BANNER_COLS; c++) {
                float x = BANNER_X0 + GN_BANNER_WIDTH * (float)c / (float)(BANNER_COLS - 1),
                      y = -0.5f * (float)r;
                const float pos[3] = {x, y, z}, uv[2] = {x, -y};
                fig_w w = {0};
                banner_weights(-y, &w);
                part_vertex(p, pos, uv, &w);
            }
        const float tip[3] = {BANNER_X0 + 0.5f * GN_BANNER_WIDTH, -GN_BANNER_LENGTH, z};
        const float tip_uv[2] = {tip[0], GN_BANNER_LENGTH};
        fig_w w = {0};
        banner_weights(GN_BANNER_LENGTH, &w);
        part_vertex(p, tip, tip_uv, &w);
        uint32_t t = first + BANNER_ROWS * BANNER_COLS;
        for (uint32_t r = 0; r + 1 < BANNER_ROWS; r++)
            for (uint32_t c = 0; c + 1 < BANNER_COLS; c++) {
                /* a: top left, b: top right, d: bottom left, e: bottom right, seen from +Z */
                uint32_t a = first + r * BANNER_COLS + c, b = a + 1, d = a + BANNER_COLS, e = d + 1;
                if (side == 0) {
                    gn_mg_tri(&p->mg, d, e, b);
                    gn_mg_tri(&p->mg, d, b, a);
                } else {
                    gn_mg_tri(&p->mg, d, b, e);
                    gn_mg_tri(&p->mg, d, a, b);
                }
            }
        uint32_t last = first + (BANNER_ROWS - 1) * BANNER_COLS;
        for (uint32_t c = 0; c + 1 < BANNER_COLS; c++) {
            if (side == 0)
                gn_mg_tri(&p->mg, t, last + c + 1, last + c);
            else
                gn_mg_tri(&p->mg, t, last + c, last + c + 1);
        }
    }
}

/* The wave: each joint below the top turns about X by a sine that lags a little more at each
 * joint down the chain, growing towards the free end; the first also swings the whole cloth out
 * from the wall (about +Z) by 0 to 4 degrees. */
static void banner_wave(float t, uint32_t joint, float q[4])
{
    float a = 2 * GN_PI * t / GN_BANNER_WAVE_PERIOD, k = (float)joint;
    q_about(q, 0, (3.0f + 1.5f * k) * DEG * sinf(a - 0.9f * k));
    if (joint == 1) {
        float out[4];
        q_about(out, 2, (2.0f + 2.0f * sinf(a - 0.5f)) * DEG);
        q_mul(out, q, q);
    }
}

gn_result gn_banner_model(gn_scene *s, uint32_t material, const uint32_t *share_mesh, gn_anim_model *out,
                          gn_error *err)
{
    if (!s || !out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_banner_model: NULL argument");
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "banner");
    int parent[GN_BANNER_JOINTS];
    float pos[GN_BANNER_JOINTS][3];
    char name_buf[GN_BANNER_JOINTS][16];
    const char *names[GN_BANNER_JOINTS];
    for (int k = 0; k < GN_BANNER_JOINTS; k++) {
        parent[k] = k - 1;
        pos[k][0] = BANNER_X0 + 0.5f * GN_BANNER_WIDTH, pos[k][1] = -(float)k, pos[k][2] = 0;
        snprintf(name_buf[k], sizeof name_buf[k], "banner.%d", k);
        names[k] = name_buf[k];
    }
    gn_result r = skeleton_make(&out->skeleton, GN_BANNER_JOINTS, parent, (const float(*)[3])pos, names, err);
    fig_part part = {0};
    gn_mg_init(&part.mg);
    out->parts = gn_calloc(1, sizeof *out->parts);
    out->clips = gn_calloc(1, sizeof *out->clips);
    if (r == GN_OK && (!out->parts || !out->clips))
        r = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for a banner");
    if (r == GN_OK) {
        banner_build(&part);
        r = part_finish(s, &part, "town/banner", share_mesh, material, &out->parts[0], err);
        if (r == GN_OK) out->part_count = 1;
    }
    /* the top joint stays on the pole; 25 keys, one every 0.1 s */
    uint32_t nodes[GN_BANNER_JOINTS - 1];
    gn_anim_path paths[GN_BANNER_JOINTS - 1];
    for (uint32_t k = 0; k + 1 < GN_BANNER_JOINTS; k++) nodes[k] = k + 1, paths[k] = GN_ANIM_PATH_ROTATION;
    const uint32_t keys = 25;
    if (r == GN_OK) {
        out->clip_count = 1;
        r = clip_alloc(&out->clips[0], "wave", GN_BANNER_WAVE_PERIOD, keys, nodes, paths,
                       GN_BANNER_JOINTS - 1, err);
    }
    for (uint32_t i = 0; r == GN_OK && i < keys; i++)
        for (uint32_t k = 0; k + 1 < GN_BANNER_JOINTS; k++)
            banner_wave(i + 1 == keys ? 0.0f : out->clips[0].data[i], k + 1,
                        clip_value(&out->clips[0], k, i));
    part_free(&part);
    if (r != GN_OK) gn_anim_model_free(out);
    return r;
}

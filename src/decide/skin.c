/* Skeletal and morph animation's CPU side (skin.h). */
#include "decide/skin.h"

#include "base/alloc.h"

#include <cglm/affine.h>
#include <cglm/mat4.h>
#include <cglm/quat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gn_anim_model_free(gn_anim_model *m)
{
    if (!m) return;
    free(m->skeleton.nodes);
    free(m->skeleton.joint_node);
    free(m->skeleton.inverse_bind);
    for (uint32_t c = 0; m->clips && c < m->clip_count; c++) {
        free(m->clips[c].channels);
        free(m->clips[c].data);
    }
    free(m->clips);
    for (uint32_t k = 0; m->morphs && k < m->morph_count; k++) {
        free(m->morphs[k].deltas);
        free(m->morphs[k].default_weights);
    }
    free(m->morphs);
    for (uint32_t p = 0; m->parts && p < m->part_count; p++) free(m->parts[p].influences);
    free(m->parts);
    memset(m, 0, sizeof *m);
}

/* ---- the check ------------------------------------------------------------------------------ */

static bool finite_n(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

#define FAIL(...) (snprintf(msg, cap, __VA_ARGS__), false)

static bool check_skeleton(const gn_skeleton *sk, char *msg, size_t cap)
{
    if (sk->node_count > GN_SKIN_MAX_NODES)
        return FAIL("%u nodes, over the cap of %u", sk->node_count, GN_SKIN_MAX_NODES);
    if (sk->node_count && !sk->nodes) return FAIL("%u nodes but no node array", sk->node_count);
    for (uint32_t n = 0; n < sk->node_count; n++) {
        const gn_skel_node *nd = &sk->nodes[n];
        if (nd->parent >= (int32_t)n || nd->parent < -1)
            return FAIL("node %u: parent %d is not an earlier node", n, nd->parent);
        if (!finite_n(nd->t, 3) || !finite_n(nd->r, 4) || !finite_n(nd->s, 3))
            return FAIL("node %u: a rest transform value is not finite", n);
    }
    if (sk->joint_count > GN_SKIN_MAX_JOINTS)
        return FAIL("%u joints, over the cap of %u", sk->joint_count, GN_SKIN_MAX_JOINTS);
    if (sk->joint_count && (!sk->joint_node || !sk->inverse_bind))
        return FAIL("%u joints but no joint arrays", sk->joint_count);
    for (uint32_t j = 0; j < sk->joint_count; j++) {
        if (sk->joint_node[j] >= sk->node_count)
            return FAIL("joint %u: node %u of %u", j, sk->joint_node[j], sk->node_count);
        if (!finite_n(sk->inverse_bind[j], 16))
            return FAIL("joint %u: an inverse bind value is not finite", j);
    }
    return true;
}

static bool check_clip(const gn_anim_model *m, uint32_t c, char *msg, size_t cap)
{
    const gn_anim_clip *clip = &m->clips[c];
    if (clip->channel_count > GN_ANIM_MAX_CHANNELS)
        return FAIL("clip %u '%s': %u channels, over the cap of %u", c, clip->name, clip->channel_count,
                    GN_ANIM_MAX_CHANNELS);
    if (clip->channel_count && !clip->channels) return FAIL("clip %u '%s': no channel array", c, clip->name);
    if (!isfinite(clip->duration) || clip->duration < 0)
        return FAIL("clip %u '%s': duration %g", c, clip->name, (double)clip->duration);
    uint64_t keys = 0;
    for (uint32_t k = 0; k < clip->channel_count; k++) {
        const gn_anim_channel *ch = &clip->channels[k];
        char why[160];
        if (ch->path > GN_ANIM_PATH_WEIGHTS)
            return FAIL("clip %u '%s' channel %u: unknown path %u", c, clip->name, k, (unsigned)ch->path);
        if (ch->path == GN_ANIM_PATH_WEIGHTS) {
            if (ch->target >= m->morph_count)
                return FAIL("clip %u '%s' channel %u: morph set %u of %u", c, clip->name, k, ch->target,
                            m->morph_count);
            if (ch->sampler.width != m->morphs[ch->target].target_count)
                return FAIL("clip %u '%s' channel %u: %u weights for %u targets", c, clip->name, k,
                            ch->sampler.width, m->morphs[ch->target].target_count);
        } else {
            if (ch->target >= m->skeleton.node_count)
                return FAIL("clip %u '%s' channel %u: node %u of %u", c, clip->name, k, ch->target,
                            m->skeleton.node_count);
            uint32_t want = ch->path == GN_ANIM_PATH_ROTATION ? 4 : 3;
            if (ch->sampler.width != want || ch->sampler.rotation != (ch->path == GN_ANIM_PATH_ROTATION))
                return FAIL("clip %u '%s' channel %u: values %u wide for a %s", c, clip->name, k,
                            ch->sampler.width,
                            ch->path == GN_ANIM_PATH_ROTATION ? "rotation" : "translation or scale");
        }
        if (!gn_anim_sampler_check(&ch->sampler, why, sizeof why))
            return FAIL("clip %u '%s' channel %u: %s", c, clip->name, k, why);
        keys += ch->sampler.count;
        if (keys > GN_ANIM_MAX_KEYS)
            return FAIL("clip %u '%s': over %u keyframes", c, clip->name, GN_ANIM_MAX_KEYS);
    }
    return true;
}

static bool check_influences(const gn_anim_model *m, uint32_t p, char *msg, size_t cap)
{
    const gn_anim_part *part = &m->parts[p];
    for (uint32_t v = 0; v < part->vertex_count; v++) {
        const gn_skin_influence *in = &part->influences[v];
        float sum = 0;
        for (uint32_t i = 0; i < GN_SKIN_INFLUENCES; i++) {
            float w = in->weight[i];
            if (!isfinite(w) || w < 0) return FAIL("part %u vertex %u: weight %u is %g", p, v, i, (double)w);
            if (w > 0 && in->joint[i] >= m->skeleton.joint_count)
                return FAIL("part %u vertex %u: joint %u of %u", p, v, in->joint[i], m->skeleton.joint_count);
            sum += w;
        }
        if (fabsf(sum - 1.0f) > GN_SKIN_WEIGHT_TOLERANCE)
            return FAIL("part %u vertex %u: weights sum to %g, not 1", p, v, (double)sum);
    }
    return true;
}

bool gn_anim_model_check(const gn_anim_model *m, char *msg, size_t cap)
{
    char dummy[1];
    if (!msg || !cap) msg = dummy, cap = sizeof dummy;
    if (!check_skeleton(&m->skeleton, msg, cap)) return false;
    if (m->clip_count > GN_ANIM_MAX_CLIPS)
        return FAIL("%u clips, over the cap of %u", m->clip_count, GN_ANIM_MAX_CLIPS);
    if (m->morph_count && !m->morphs) return FAIL("%u morph sets but no array", m->morph_count);
    for (uint32_t k = 0; k < m->morph_count; k++) {
        const gn_morph_set *ms = &m->morphs[k];
        if (ms->target_count > GN_MORPH_MAX_TARGETS)
            return FAIL("morph set %u: %u targets, over the cap of %u", k, ms->target_count,
                        GN_MORPH_MAX_TARGETS);
        if (ms->target_count && (!ms->deltas || !ms->default_weights))
            return FAIL("morph set %u: no deltas or weights", k);
        if (!finite_n(ms->deltas, (size_t)ms->target_count * ms->vertex_count * 6) ||
            !finite_n(ms->default_weights, ms->target_count) || !isfinite(ms->max_delta))
            return FAIL("morph set %u: a value is not finite", k);
    }
    if (m->clip_count && !m->clips) return FAIL("%u clips but no array", m->clip_count);
    for (uint32_t c = 0; c < m->clip_count; c++)
        if (!check_clip(m, c, msg, cap)) return false;
    if (m->part_count && !m->parts) return FAIL("%u parts but no array", m->part_count);
    for (uint32_t p = 0; p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        if (part->node >= m->skeleton.node_count)
            return FAIL("part %u: node %u of %u", p, part->node, m->skeleton.node_count);
        if (part->morph >= (int32_t)m->morph_count || part->morph < -1)
            return FAIL("part %u: morph set %d of %u", p, part->morph, m->morph_count);
        if (part->morph >= 0 && m->morphs[part->morph].vertex_count != part->vertex_count)
            return FAIL("part %u: %u vertices, its morph set %u", p, part->vertex_count,
                        m->morphs[part->morph].vertex_count);
        if (part->influences && !check_influences(m, p, msg, cap)) return false;
    }
    return true;
}

#undef FAIL

/* ---- poses ---------------------------------------------------------------------------------- */

static uint32_t morph_weight_total(const gn_anim_model *m)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < m->morph_count; k++) n += m->morphs[k].target_count;
    return n;
}

size_t gn_anim_pose_floats(const gn_anim_model *m)
{
    return (size_t)m->skeleton.node_count * 10 + morph_weight_total(m);
}

void gn_anim_pose_bind(const gn_anim_model *m, float *floats, gn_anim_pose *out)
{
    size_t n = m->skeleton.node_count;
    out->t = (float(*)[3])floats;
    out->r = (float(*)[4])(floats + n * 3);
    out->s = (float(*)[3])(floats + n * 7);
    out->weights = floats + n * 10;
}

void gn_anim_pose_rest(const gn_anim_model *m, gn_anim_pose *out)
{
    for (uint32_t n = 0; n < m->skeleton.node_count; n++) {
        const gn_skel_node *nd = &m->skeleton.nodes[n];
        memcpy(out->t[n], nd->t, sizeof nd->t);
        memcpy(out->r[n], nd->r, sizeof nd->r);
        memcpy(out->s[n], nd->s, sizeof nd->s);
    }
    float *w = out->weights;
    for (uint32_t k = 0; k < m->morph_count; k++) {
        memcpy(w, m->morphs[k].default_weights, m->morphs[k].target_count * sizeof *w);
        w += m->morphs[k].target_count;
    }
}

/* Where set k's weights start in a pose's weights. */
static uint32_t weights_start(const gn_anim_model *m, uint32_t k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < k; i++) n += m->morphs[i].target_count;
    return n;
}

void gn_anim_pose_sample(const gn_anim_model *m, uint32_t clip, float t, gn_anim_pose *out)
{
    gn_anim_pose_rest(m, out);
    if (clip >= m->clip_count) return;
    const gn_anim_clip *c = &m->clips[clip];
    for (uint32_t k = 0; k < c->channel_count; k++) {
        const gn_anim_channel *ch = &c->channels[k];
        switch (ch->path) {
        case GN_ANIM_PATH_TRANSLATION:
            gn_anim_sample(&ch->sampler, t, out->t[ch->target]);
            break;
        case GN_ANIM_PATH_ROTATION:
            gn_anim_sample(&ch->sampler, t, out->r[ch->target]);
            break;
        case GN_ANIM_PATH_SCALE:
            gn_anim_sample(&ch->sampler, t, out->s[ch->target]);
            break;
        case GN_ANIM_PATH_WEIGHTS:
            gn_anim_sample(&ch->sampler, t, out->weights + weights_start(m, ch->target));
            break;
        }
    }
}

void gn_anim_pose_blend(const gn_anim_model *m, const gn_anim_pose *a, const gn_anim_pose *b, float u,
                        gn_anim_pose *out)
{
    for (uint32_t n = 0; n < m->skeleton.node_count; n++) {
        for (int i = 0; i < 3; i++) {
            out->t[n][i] = a->t[n][i] + (b->t[n][i] - a->t[n][i]) * u;
            out->s[n][i] = a->s[n][i] + (b->s[n][i] - a->s[n][i]) * u;
        }
        float r[4];
        gn_quat_slerp(a->r[n], b->r[n], u, r);
        memcpy(out->r[n], r, sizeof r);
    }
    uint32_t w = morph_weight_total(m);
    for (uint32_t i = 0; i < w; i++) out->weights[i] = a->weights[i] + (b->weights[i] - a->weights[i]) * u;
}

void gn_anim_trs_matrix(const float t[3], const float r[4], const float s[3], float out[16])
{
    /* cglm's versor is (x, y, z, w), glTF's order; glm_quat_mat4 wants it unit */
    versor q = {r[0], r[1], r[2], r[3]};
    glm_quat_normalize(q);
    mat4 m;
    glm_quat_mat4(q, m);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) m[c][i] *= s[c];
    m[3][0] = t[0], m[3][1] = t[1], m[3][2] = t[2];
    memcpy(out, m, sizeof m);
}

void gn_anim_world(const gn_anim_model *m, const gn_anim_pose *pose, float (*world)[16])
{
    for (uint32_t n = 0; n < m->skeleton.node_count; n++) {
        float local[16];
        gn_anim_trs_matrix(pose->t[n], pose->r[n], pose->s[n], local);
        int32_t p = m->skeleton.nodes[n].parent;
        if (p < 0) {
            memcpy(world[n], local, sizeof local);
        } else {
            mat4 a, b, o;
            memcpy(a, world[p], sizeof a);
            memcpy(b, local, sizeof b);
            glm_mat4_mul(a, b, o);
            memcpy(world[n], o, sizeof o);
        }
    }
}

/* ---- palettes -------------------------------------------------------------------------------- */

/* Palette entry j's matrix: world of its node times its inverse bind (column-major). */
static void joint_matrix(const gn_skeleton *sk, const float (*world)[16], uint32_t j, float out[16])
{
    mat4 a, b, o;
    memcpy(a, world[sk->joint_node[j]], sizeof a);
    memcpy(b, sk->inverse_bind[j], sizeof b);
    glm_mat4_mul(a, b, o);
    memcpy(out, o, sizeof o);
}

void gn_skin_palette_rows(const gn_skeleton *sk, const float (*world)[16], float *rows)
{
    for (uint32_t j = 0; j < sk->joint_count; j++) {
        float m[16];
        joint_matrix(sk, world, j, m);
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 4; c++) rows[j * 12 + i * 4 + c] = m[c * 4 + i];
    }
}

/* A rotation matrix's quaternion (x, y, z, w): Shepperd's method, the largest diagonal term first
 * for stability. m: column-major 3x3 in a 4x4, its columns unit. */
static void matrix_quat(const float m[16], float q[4])
{
    float m00 = m[0], m11 = m[5], m22 = m[10], tr = m00 + m11 + m22;
    if (tr > 0) {
        float s = sqrtf(tr + 1.0f) * 2;
        q[3] = 0.25f * s, q[0] = (m[6] - m[9]) / s, q[1] = (m[8] - m[2]) / s, q[2] = (m[1] - m[4]) / s;
    } else if (m00 > m11 && m00 > m22) {
        float s = sqrtf(1.0f + m00 - m11 - m22) * 2;
        q[3] = (m[6] - m[9]) / s, q[0] = 0.25f * s, q[1] = (m[4] + m[1]) / s, q[2] = (m[8] + m[2]) / s;
    } else if (m11 > m22) {
        float s = sqrtf(1.0f + m11 - m00 - m22) * 2;
        q[3] = (m[8] - m[2]) / s, q[0] = (m[4] + m[1]) / s, q[1] = 0.25f * s, q[2] = (m[9] + m[6]) / s;
    } else {
        float s = sqrtf(1.0f + m22 - m00 - m11) * 2;
        q[3] = (m[1] - m[4]) / s, q[0] = (m[8] + m[2]) / s, q[1] = (m[9] + m[6]) / s, q[2] = 0.25f * s;
    }
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++) q[i] /= len;
}

void gn_skin_palette_dq(const gn_skeleton *sk, const float (*world)[16], float *dq)
{
    for (uint32_t j = 0; j < sk->joint_count; j++) {
        float m[16];
        joint_matrix(sk, world, j, m);
        /* a scale is divided out of the columns: the rotation alone goes into the real part */
        for (int c = 0; c < 3; c++) {
            float len =
                sqrtf(m[c * 4] * m[c * 4] + m[c * 4 + 1] * m[c * 4 + 1] + m[c * 4 + 2] * m[c * 4 + 2]);
            if (len > 0)
                for (int i = 0; i < 3; i++) m[c * 4 + i] /= len;
        }
        float q[4];
        matrix_quat(m, q);
        gn_dual_quat d = gn_dq_from_rt(q, &m[12]);
        memcpy(dq + j * 8, d.real, sizeof d.real);
        memcpy(dq + j * 8 + 4, d.dual, sizeof d.dual);
    }
}

uint32_t gn_morph_active(const float *weights, uint32_t target_count, uint32_t *targets,
                         float *active_weights)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < target_count; t++) {
        float w = weights[t], a = fabsf(w);
        if (!(a > 0)) continue;
        /* insert by magnitude, ties kept in target order (a later equal one goes after) */
        uint32_t at = n;
        while (at > 0 && fabsf(active_weights[at - 1]) < a) at--;
        if (at >= GN_MORPH_MAX_ACTIVE) continue;
        uint32_t last = n < GN_MORPH_MAX_ACTIVE ? n : GN_MORPH_MAX_ACTIVE - 1;
        for (uint32_t i = last; i > at; i--)
            targets[i] = targets[i - 1], active_weights[i] = active_weights[i - 1];
        targets[at] = t, active_weights[at] = w;
        if (n < GN_MORPH_MAX_ACTIVE) n++;
    }
    return n;
}

/* ---- one vertex ------------------------------------------------------------------------------ */

static void normalize3(float v[3])
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0)
        for (int i = 0; i < 3; i++) v[i] /= len;
}

/* q's rotation of v (a unit quaternion x, y, z, w). */
static void quat_rotate(const float q[4], const float v[3], float out[3])
{
    float c[3] = {q[1] * v[2] - q[2] * v[1] + q[3] * v[0], q[2] * v[0] - q[0] * v[2] + q[3] * v[1],
                  q[0] * v[1] - q[1] * v[0] + q[3] * v[2]};
    out[0] = v[0] + 2.0f * (q[1] * c[2] - q[2] * c[1]);
    out[1] = v[1] + 2.0f * (q[2] * c[0] - q[0] * c[2]);
    out[2] = v[2] + 2.0f * (q[0] * c[1] - q[1] * c[0]);
}

void gn_skin_vertex(const float pos[3], const float normal[3], const float tangent[4], uint32_t vertex,
                    const gn_morph_set *set, const uint32_t *targets, const float *weights, uint32_t active,
                    const gn_skin_influence *influence, gn_skin_mode mode, const float *palette,
                    float out_pos[3], float out_normal[3], float out_tangent[4])
{
    float p[3] = {pos[0], pos[1], pos[2]}, n[3] = {normal[0], normal[1], normal[2]};
    float t[3] = {tangent[0], tangent[1], tangent[2]};
    /* morphs first, in the order of the active list (the GPU's order) */
    for (uint32_t a = 0; set && a < active; a++) {
        const float *d = set->deltas + ((size_t)targets[a] * set->vertex_count + vertex) * 6;
        for (int i = 0; i < 3; i++) p[i] += weights[a] * d[i], n[i] += weights[a] * d[3 + i];
    }
    if (!influence) {
        memcpy(out_pos, p, sizeof p);
        normalize3(n);
        memcpy(out_normal, n, sizeof n);
        memcpy(out_tangent, tangent, 4 * sizeof *tangent);
        return;
    }
    if (mode == GN_SKIN_DUAL_QUAT) {
        gn_dual_quat dq[GN_SKIN_INFLUENCES];
        float w[GN_SKIN_INFLUENCES];
        uint32_t k = 0;
        for (uint32_t i = 0; i < GN_SKIN_INFLUENCES; i++) {
            if (!(influence->weight[i] > 0)) continue;
            const float *e = palette + (size_t)influence->joint[i] * 8;
            memcpy(dq[k].real, e, 4 * sizeof *e);
            memcpy(dq[k].dual, e + 4, 4 * sizeof *e);
            w[k++] = influence->weight[i];
        }
        gn_dual_quat b = k ? gn_dq_blend(dq, w, k) : (gn_dual_quat){{0, 0, 0, 1}, {0, 0, 0, 0}};
        gn_dq_transform(&b, p, out_pos);
        quat_rotate(b.real, n, out_normal);
        quat_rotate(b.real, t, out_tangent);
    } else {
        float m[12] = {0};
        for (uint32_t i = 0; i < GN_SKIN_INFLUENCES; i++) {
            float w = influence->weight[i];
            if (!(w > 0)) continue;
            const float *e = palette + (size_t)influence->joint[i] * 12;
            for (int k = 0; k < 12; k++) m[k] += w * e[k];
        }
        for (int r = 0; r < 3; r++) {
            const float *row = m + r * 4;
            out_pos[r] = row[0] * p[0] + row[1] * p[1] + row[2] * p[2] + row[3];
            out_normal[r] = row[0] * n[0] + row[1] * n[1] + row[2] * n[2];
            out_tangent[r] = row[0] * t[0] + row[1] * t[1] + row[2] * t[2];
        }
    }
    normalize3(out_normal);
    normalize3(out_tangent);
    out_tangent[3] = tangent[3];
}

/* ---- bounds ---------------------------------------------------------------------------------- */

void gn_skin_joint_spheres(const float *positions, size_t stride_floats, uint32_t vertex_count,
                           const gn_skin_influence *influences, uint32_t joint_count, float (*spheres)[4])
{
    /* each joint's box of the vertices it moves, then the sphere around the box */
    float(*lo)[3] = gn_malloc((size_t)joint_count * sizeof *lo),
    (*hi)[3] = gn_malloc((size_t)joint_count * sizeof *hi);
    for (uint32_t j = 0; j < joint_count; j++)
        spheres[j][0] = spheres[j][1] = spheres[j][2] = 0, spheres[j][3] = -1;
    if (!lo || !hi) { /* no memory: every joint's sphere covers the whole mesh */
        free(lo), free(hi);
        float all[4] = {0, 0, 0, 0};
        for (uint32_t v = 0; v < vertex_count; v++) {
            const float *p = positions + v * stride_floats;
            all[3] = fmaxf(all[3], sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
        }
        for (uint32_t j = 0; j < joint_count; j++) memcpy(spheres[j], all, sizeof all);
        return;
    }
    for (uint32_t j = 0; j < joint_count; j++)
        for (int i = 0; i < 3; i++) lo[j][i] = INFINITY, hi[j][i] = -INFINITY;
    for (uint32_t v = 0; v < vertex_count; v++) {
        const float *p = positions + v * stride_floats;
        for (uint32_t k = 0; k < GN_SKIN_INFLUENCES; k++) {
            uint32_t j = influences[v].joint[k];
            if (!(influences[v].weight[k] > 0) || j >= joint_count) continue;
            for (int i = 0; i < 3; i++) lo[j][i] = fminf(lo[j][i], p[i]), hi[j][i] = fmaxf(hi[j][i], p[i]);
        }
    }
    for (uint32_t j = 0; j < joint_count; j++) {
        if (!(lo[j][0] <= hi[j][0])) continue;
        float r2 = 0;
        for (int i = 0; i < 3; i++) {
            float h = 0.5f * (hi[j][i] - lo[j][i]);
            spheres[j][i] = 0.5f * (hi[j][i] + lo[j][i]);
            r2 += h * h;
        }
        spheres[j][3] = sqrtf(r2);
    }
    free(lo);
    free(hi);
}

void gn_skin_bounds(const float (*spheres)[4], uint32_t joint_count, const float *rows, float morph_reach,
                    float out[4])
{
    /* comparisons rather than fminf/fmaxf, which are library calls here (their NaN rule has no one
       instruction): the rows are finite, and this runs for every joint of every rig every frame */
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t j = 0; j < joint_count; j++) {
        if (spheres[j][3] < 0) continue;
        const float *m = rows + (size_t)j * 12, *c = spheres[j];
        float scale2 = 0;
        for (int col = 0; col < 3; col++) {
            float l2 = m[col] * m[col] + m[4 + col] * m[4 + col] + m[8 + col] * m[8 + col];
            scale2 = l2 > scale2 ? l2 : scale2;
        }
        float r = c[3] * sqrtf(scale2);
        for (int i = 0; i < 3; i++) {
            float w = m[i * 4] * c[0] + m[i * 4 + 1] * c[1] + m[i * 4 + 2] * c[2] + m[i * 4 + 3];
            lo[i] = w - r < lo[i] ? w - r : lo[i];
            hi[i] = w + r > hi[i] ? w + r : hi[i];
        }
    }
    if (!(lo[0] <= hi[0])) {
        out[0] = out[1] = out[2] = 0, out[3] = morph_reach;
        return;
    }
    float r2 = 0;
    for (int i = 0; i < 3; i++) {
        float h = 0.5f * (hi[i] - lo[i]);
        out[i] = 0.5f * (hi[i] + lo[i]);
        r2 += h * h;
    }
    out[3] = sqrtf(r2) + morph_reach;
}

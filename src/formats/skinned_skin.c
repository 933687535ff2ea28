/* An animated model's parts, palette, influences and morph sets from assimp's meshes
 * (skinned_ctx.h). assimp gives weights per bone (aiBone: the vertices it moves); the model
 * wants them per vertex (skin.h: up to GN_SKIN_INFLUENCES joints a vertex, summing to one). */
#include "base/alloc.h"
#include "formats/skinned_ctx.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Morph deltas a part may hold (targets x vertices): 16M entries are 384 MiB of floats. */
#define GN_SK_MAX_MORPH_VALUES (1u << 24)
/* Parts a model may have: each is a mesh reference of a node. */
#define GN_SK_MAX_PARTS (1u << 16)

/* Two inverse bind matrices one palette entry can stand for: equal to float rounding. */
static bool gn_sk_same_matrix(const float a[16], const float b[16])
{
    for (int i = 0; i < 16; i++)
        if (fabsf(a[i] - b[i]) > 1e-5f * fmaxf(1.0f, fabsf(a[i]))) return false;
    return true;
}

gn_result gn_sk_joint(gn_sk_ctx *c, uint32_t node, const float ib[16], uint16_t *out)
{
    gn_skeleton *sk = &c->m->skeleton;
    /* a bone named by several meshes is one entry, unless their meshes' spaces differ (each
     * aiBone's offset is relative to its own mesh) */
    for (uint32_t j = 0; j < sk->joint_count; j++)
        if (sk->joint_node[j] == node && gn_sk_same_matrix(sk->inverse_bind[j], ib)) {
            *out = (uint16_t)j;
            return GN_OK;
        }
    for (int i = 0; i < 16; i++)
        if (!isfinite(ib[i]))
            return gn_sk_bad(c, "the inverse bind matrix of joint '%s' holds a value that is not finite",
                             sk->nodes[node].name);
    if (sk->joint_count >= GN_SKIN_MAX_JOINTS)
        return gn_sk_bad(c, "more than %u joints (the palette's cap)", GN_SKIN_MAX_JOINTS);
    if (sk->joint_count == c->joint_cap) {
        uint32_t cap = c->joint_cap ? c->joint_cap * 2 : 32;
        uint32_t *jn = gn_realloc(sk->joint_node, cap * sizeof *jn);
        if (!jn) return gn_sk_oom(c);
        sk->joint_node = jn;
        float(*ibs)[16] = gn_realloc(sk->inverse_bind, cap * sizeof *ibs);
        if (!ibs) return gn_sk_oom(c);
        sk->inverse_bind = ibs;
        c->joint_cap = cap;
    }
    uint32_t j = sk->joint_count++;
    sk->joint_node[j] = node;
    memcpy(sk->inverse_bind[j], ib, sizeof sk->inverse_bind[j]);
    *out = (uint16_t)j;
    return GN_OK;
}

void gn_sk_add_influence(gn_skin_influence *in, uint32_t *n, uint32_t *seen, uint16_t joint, float w)
{
    (*seen)++;
    for (uint32_t i = 0; i < *n; i++)
        if (in->joint[i] == joint) {
            in->weight[i] += w;
            return;
        }
    if (*n < GN_SKIN_INFLUENCES) {
        in->joint[*n] = joint, in->weight[*n] = w;
        (*n)++;
        return;
    }
    uint32_t least = 0; /* full: the new one replaces the smallest if it is larger */
    for (uint32_t i = 1; i < GN_SKIN_INFLUENCES; i++)
        if (in->weight[i] < in->weight[least]) least = i;
    if (w > in->weight[least]) in->joint[least] = joint, in->weight[least] = w;
}

void gn_sk_finish_influence(gn_sk_ctx *c, gn_skin_influence *in, uint32_t n, uint32_t seen, uint16_t rigid)
{
    if (seen > c->st->max_influences) c->st->max_influences = seen;
    if (seen > GN_SKIN_INFLUENCES) c->st->truncated++;
    if (n == 0) {
        memset(in, 0, sizeof *in);
        in->joint[0] = rigid, in->weight[0] = 1.0f;
        c->st->unweighted++;
        return;
    }
    float sum = 0;
    for (uint32_t i = 0; i < n; i++) sum += in->weight[i];
    if (fabsf(sum - 1.0f) > GN_SKIN_WEIGHT_TOLERANCE) c->st->renormalised++;
    /* always scaled: a sum within the tolerance still comes out at one to float rounding */
    for (uint32_t i = 0; i < n; i++) in->weight[i] /= sum;
    for (uint32_t i = 1; i < n; i++) /* largest first: the GPU may stop at the first zero */
        for (uint32_t k = i; k > 0 && in->weight[k] > in->weight[k - 1]; k--) {
            float w = in->weight[k];
            uint16_t j = in->joint[k];
            in->weight[k] = in->weight[k - 1], in->joint[k] = in->joint[k - 1];
            in->weight[k - 1] = w, in->joint[k - 1] = j;
        }
    for (uint32_t i = n; i < GN_SKIN_INFLUENCES; i++) in->joint[i] = 0, in->weight[i] = 0;
}

/* Part p's influences from its mesh's bones, or for a glTF imported without
 * JoinIdenticalVertices (a skinned primitive has JOINTS_1) from the file's sets, bone b's palette
 * entry standing for joint b either way. */
static gn_result gn_sk_influences(gn_sk_ctx *c, uint32_t p, const struct aiMesh *me)
{
    gn_anim_part *part = &c->m->parts[p];
    const char *mname = me->mName.length ? me->mName.data : "(unnamed)";
    uint32_t vc = part->vertex_count, jc = 0;
    /* a glTF node's skin: bone b is its joint b (assimp 5.2.5 makes one bone per joint, in order) */
    const uint32_t *joints = gn_sk_gltf_skin(c, part->node, &jc);
    if (!me->mBones) return gn_sk_bad(c, "mesh '%.64s' has %u bones and no bone list", mname, me->mNumBones);
    if (joints && me->mNumBones != jc)
        return gn_sk_bad(c, "mesh '%.64s' has %u bones, its node's skin %u joints", mname, me->mNumBones, jc);
    bool from_file = joints && c->gltf_unjoined;
    gn_skin_influence *in = gn_calloc(vc, sizeof *in);
    uint8_t *held = gn_calloc(vc, 1);
    uint32_t *seen = gn_calloc(vc, sizeof *seen);
    uint16_t *palette = gn_calloc(me->mNumBones ? me->mNumBones : 1, sizeof *palette);
    gn_result r = in && held && seen && palette ? GN_OK : gn_sk_oom(c);
    for (uint32_t b = 0; r == GN_OK && b < me->mNumBones; b++) {
        const struct aiBone *bone = me->mBones[b];
        if (!bone || (bone->mNumWeights && !bone->mWeights)) {
            r = gn_sk_bad(c, "mesh '%.64s': bone %u is missing or has no weight list", mname, b);
            break;
        }
        int32_t node = joints ? (int32_t)joints[b] : gn_sk_find_node(c, bone->mName.data);
        if (node < 0) {
            r = gn_sk_bad(c, "mesh '%.64s': bone '%.64s' names no node", mname, bone->mName.data);
            break;
        }
        float ib[16];
        uint16_t joint;
        gn_sk_matrix(&bone->mOffsetMatrix, ib);
        r = gn_sk_joint(c, (uint32_t)node, ib, &joint);
        if (r == GN_OK) palette[b] = joint;
        for (uint32_t k = 0; r == GN_OK && !from_file && k < bone->mNumWeights; k++) {
            const struct aiVertexWeight *w = &bone->mWeights[k];
            if (w->mVertexId >= vc)
                r = gn_sk_bad(c, "mesh '%.64s': bone '%.64s' weights vertex %u of %u", mname,
                              bone->mName.data, w->mVertexId, vc);
            else if (!isfinite(w->mWeight) || w->mWeight < 0)
                r = gn_sk_bad(c,
                              "mesh '%.64s': bone '%.64s' gives vertex %u the weight %g (negative or not "
                              "finite)",
                              mname, bone->mName.data, w->mVertexId, (double)w->mWeight);
            else if (w->mWeight > 0) { /* assimp pads a bone without weights with one of 0 */
                uint32_t n = held[w->mVertexId];
                gn_sk_add_influence(&in[w->mVertexId], &n, &seen[w->mVertexId], joint, w->mWeight);
                held[w->mVertexId] = (uint8_t)n;
            }
        }
    }
    if (r == GN_OK && from_file) r = gn_sk_gltf_influences(c, p, palette, me->mNumBones, in, held, seen);
    /* A vertex no bone weights is placed by its mesh's node: a joint of that node whose inverse
     * bind is the identity gives world(node) * v, as a rigid part would be drawn. */
    uint16_t rigid = 0;
    bool any_empty = false;
    for (uint32_t v = 0; r == GN_OK && v < vc; v++) any_empty |= held[v] == 0;
    if (r == GN_OK && any_empty) {
        static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        r = gn_sk_joint(c, part->node, identity, &rigid);
    }
    for (uint32_t v = 0; r == GN_OK && v < vc; v++)
        gn_sk_finish_influence(c, &in[v], held[v], seen[v], rigid);
    free(held), free(seen), free(palette);
    if (r != GN_OK) {
        free(in);
        return r;
    }
    part->influences = in;
    return GN_OK;
}

/* Part p's morph set from its mesh's anim meshes: each target's deltas from the base. */
static gn_result gn_sk_morph(gn_sk_ctx *c, uint32_t p, const struct aiMesh *me)
{
    gn_anim_model *m = c->m;
    const char *mname = me->mName.length ? me->mName.data : "(unnamed)";
    uint32_t vc = m->parts[p].vertex_count, tc = me->mNumAnimMeshes;
    if (!me->mAnimMeshes) return gn_sk_bad(c, "mesh '%.64s' has %u morph targets and no list", mname, tc);
    if (tc > GN_MORPH_MAX_TARGETS)
        return gn_sk_bad(c, "mesh '%.64s' has %u morph targets, more than the cap of %u", mname, tc,
                         GN_MORPH_MAX_TARGETS);
    if ((uint64_t)tc * vc > GN_SK_MAX_MORPH_VALUES)
        return gn_sk_bad(c, "mesh '%.64s': %u morph targets of %u vertices, more than the cap of %u deltas",
                         mname, tc, vc, GN_SK_MAX_MORPH_VALUES);
    if (m->morph_count == c->morph_cap) {
        uint32_t cap = c->morph_cap ? c->morph_cap * 2 : 8;
        gn_morph_set *ms = gn_realloc(m->morphs, cap * sizeof *ms);
        if (!ms) return gn_sk_oom(c);
        m->morphs = ms;
        c->morph_cap = cap;
    }
    gn_morph_set *set = &m->morphs[m->morph_count];
    memset(set, 0, sizeof *set);
    set->vertex_count = vc, set->target_count = tc;
    set->deltas = gn_malloc((size_t)tc * vc * 6 * sizeof *set->deltas);
    set->default_weights = gn_calloc(tc, sizeof *set->default_weights);
    m->morph_count++; /* counted now, so that gn_anim_model_free releases it on failure */
    if (!set->deltas || !set->default_weights) return gn_sk_oom(c);
    float longest = 0;
    for (uint32_t t = 0; t < tc; t++) {
        const struct aiAnimMesh *am = me->mAnimMeshes[t];
        if (!am) return gn_sk_bad(c, "mesh '%.64s': morph target %u is missing", mname, t);
        if (am->mNumVertices != vc)
            return gn_sk_bad(c, "mesh '%.64s': morph target %u has %u vertices, the mesh %u", mname, t,
                             am->mNumVertices, vc);
        bool normals = am->mNormals && me->mNormals;
        for (uint32_t v = 0; v < vc; v++) {
            float *d = &set->deltas[((size_t)t * vc + v) * 6];
            for (int k = 0; k < 3; k++) {
                /* assimp holds each target whole (base plus the file's delta) */
                d[k] = am->mVertices ? (&am->mVertices[v].x)[k] - (&me->mVertices[v].x)[k] : 0.0f;
                d[3 + k] = normals ? (&am->mNormals[v].x)[k] - (&me->mNormals[v].x)[k] : 0.0f;
            }
            for (int k = 0; k < 6; k++)
                if (!isfinite(d[k]))
                    return gn_sk_bad(c, "mesh '%.64s': morph target %u, vertex %u: a delta is not finite",
                                     mname, t, v);
            float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (len > longest) longest = len;
        }
        set->default_weights[t] = isfinite(am->mWeight) ? am->mWeight : 0.0f;
    }
    set->max_delta = longest;
    uint32_t wc = 0;
    const float *w = gn_sk_gltf_weights(c, m->parts[p].node, &wc);
    if (w && wc == tc)
        memcpy(set->default_weights, w, tc * sizeof *w);
    else if (w)
        gn_sk_log(c, GN_LOG_WARN,
                  "mesh '%.64s': %u default morph weights for %u targets; the targets start at 0", mname, wc,
                  tc);
    m->parts[p].morph = (int32_t)(m->morph_count - 1);
    return GN_OK;
}

gn_result gn_sk_add_part(gn_sk_ctx *c, uint32_t node, uint32_t ai_mesh, uint32_t *out)
{
    gn_anim_model *m = c->m;
    const struct aiMesh *me = c->ai->mMeshes[ai_mesh];
    if (me->mMaterialIndex >= c->ai->mNumMaterials || c->mat_map[me->mMaterialIndex] == GN_SK_NONE)
        return gn_sk_bad(c, "mesh %u uses material %u, which the scene does not have", ai_mesh,
                         me->mMaterialIndex);
    if (m->part_count >= GN_SK_MAX_PARTS)
        return gn_sk_bad(c, "more than %u drawn parts (mesh references of nodes)", GN_SK_MAX_PARTS);
    if (m->part_count == c->part_cap) {
        uint32_t cap = c->part_cap ? c->part_cap * 2 : 16;
        gn_anim_part *parts = gn_realloc(m->parts, cap * sizeof *parts);
        if (!parts) return gn_sk_oom(c);
        m->parts = parts;
        uint32_t *pm = gn_realloc(c->part_mesh, cap * sizeof *pm);
        if (!pm) return gn_sk_oom(c);
        c->part_mesh = pm;
        c->part_cap = cap;
    }
    uint32_t p = m->part_count++;
    m->parts[p] = (gn_anim_part){.mesh = c->mesh_map[ai_mesh],
                                 .material = c->mat_map[me->mMaterialIndex],
                                 .node = node,
                                 .vertex_count = me->mNumVertices,
                                 .morph = -1};
    c->part_mesh[p] = ai_mesh;
    *out = p;
    return GN_OK;
}

gn_result gn_sk_parts(gn_sk_ctx *c)
{
    const struct aiScene *ai = c->ai;
    for (uint32_t n = 0; n < c->m->skeleton.node_count; n++) {
        const struct aiNode *an = c->ai_node[n];
        if (!an || !an->mNumMeshes) continue;
        if (!an->mMeshes) return gn_sk_bad(c, "node '%.64s' has no mesh list", an->mName.data);
        for (uint32_t k = 0; k < an->mNumMeshes; k++) {
            uint32_t mi = an->mMeshes[k],
                     p = 0; /* set by gn_sk_add_part before any use (gcc -O3 cannot see it) */
            if (mi >= ai->mNumMeshes)
                return gn_sk_bad(c, "node '%.64s' uses mesh %u of %u", an->mName.data, mi, ai->mNumMeshes);
            if (c->mesh_map[mi] == GN_SK_NONE) continue; /* no triangles: the scene has no mesh for it */
            gn_result r = gn_sk_add_part(c, n, mi, &p);
            const struct aiMesh *me = ai->mMeshes[mi];
            if (r == GN_OK && me->mNumBones) r = gn_sk_influences(c, p, me);
            if (r == GN_OK && me->mNumAnimMeshes) r = gn_sk_morph(c, p, me);
            if (r != GN_OK) return r;
        }
    }
    return GN_OK;
}

/* What a glTF file gives the animated model loader from its own JSON (skinned_ctx.h): the map
 * from glTF nodes to the model's, each skin's joints, checks of JOINTS/WEIGHTS values that
 * assimp 5.2.5 drops without a word, the influences of primitives with several JOINTS_n sets,
 * the default morph weights, and the animations sampled exactly as glTF 2.0 5.4 says (assimp
 * turns STEP into LINEAR and CUBICSPLINE into its values). */
#include "formats/skinned_gltf.h"
#include "base/alloc.h"
#include "base/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- glTF nodes onto the model's --------------------------------------------------------- */

/* A JSON value as a node index, or GN_SK_NONE (casting a negative or huge double is undefined). */
static uint32_t gn_sk_node_index(const cJSON *v, int n)
{
    return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < n ? (uint32_t)v->valuedouble
                                                                          : GN_SK_NONE;
}

/* assimp 5.2.5 keeps the glTF scene's tree: one root node becomes the root, several hang under
 * a "ROOT" it makes; every node keeps its children in order (glTF2Importer's ImportNode). The
 * two trees are walked together, and a difference in shape or name is refused rather than
 * guessed around. */
static gn_result gn_sk_gltf_map(gn_sk_ctx *c, gn_sk_gltf *g)
{
    uint32_t nn = c->m->skeleton.node_count;
    const gn_skel_node *nodes = c->m->skeleton.nodes;
    g->model_of = gn_malloc(((size_t)g->nodes.n + 1) * sizeof *g->model_of);
    g->gltf_of = gn_malloc(nn * sizeof *g->gltf_of);
    /* each model node's children in order: first child and next sibling */
    uint32_t *first = gn_malloc(nn * sizeof *first), *next = gn_malloc(nn * sizeof *next),
             *last = gn_malloc(nn * sizeof *last);
    uint32_t *stack = gn_malloc(((size_t)g->nodes.n + 1) * 2 * sizeof *stack);
    gn_result r = g->model_of && g->gltf_of && first && next && last && stack ? GN_OK : gn_sk_oom(c);
    for (int i = 0; r == GN_OK && i < g->nodes.n; i++) g->model_of[i] = -1;
    for (uint32_t i = 0; r == GN_OK && i < nn; i++) {
        g->gltf_of[i] = -1, first[i] = next[i] = GN_SK_NONE;
        if (nodes[i].parent < 0) continue;
        uint32_t p = (uint32_t)nodes[i].parent;
        if (first[p] == GN_SK_NONE)
            first[p] = i;
        else
            next[last[p]] = i;
        last[p] = i;
    }
    const cJSON *scenes = cJSON_GetObjectItemCaseSensitive(g->root, "scenes");
    const cJSON *scene_at = cJSON_GetObjectItemCaseSensitive(g->root, "scene");
    uint32_t sv =
        scene_at ? gn_sk_node_index(scene_at, 1 << 30) : 0; /* glTF: absent, assimp takes the first */
    int si = sv == GN_SK_NONE ? -1 : (int)sv;
    const cJSON *scene = cJSON_IsArray(scenes) ? cJSON_GetArrayItem(scenes, si) : NULL;
    const cJSON *roots = scene ? cJSON_GetObjectItemCaseSensitive(scene, "nodes") : NULL, *e;
    uint32_t top = 0;
    if (r == GN_OK && cJSON_IsArray(roots)) {
        int nr = cJSON_GetArraySize(roots);
        uint32_t child = nr == 1 ? 0 : first[0];
        cJSON_ArrayForEach(e, roots)
        {
            if (child == GN_SK_NONE || top >= (uint32_t)g->nodes.n * 2) {
                r = gn_sk_bad(c, "assimp's node tree does not hold the glTF scene's roots");
                break;
            }
            stack[top++] = gn_sk_node_index(e, g->nodes.n), stack[top++] = child;
            child = nr == 1 ? GN_SK_NONE : next[child];
        }
    }
    while (r == GN_OK && top) {
        uint32_t n = stack[--top], gi = stack[--top];
        if (gi >= (uint32_t)g->nodes.n || g->model_of[gi] >= 0) {
            r = gn_sk_bad(c, "nodes[%u] is not a node or is in the scene twice", gi);
            break;
        }
        g->model_of[gi] = (int32_t)n, g->gltf_of[n] = (int32_t)gi;
        const cJSON *gn = g->nodes.at[gi], *name = cJSON_GetObjectItemCaseSensitive(gn, "name");
        const cJSON *kids = cJSON_GetObjectItemCaseSensitive(gn, "children");
        if (cJSON_IsString(name) && name->valuestring[0] && c->ai_node[n] &&
            strcmp(name->valuestring, c->ai_node[n]->mName.data) != 0) {
            r = gn_sk_bad(c, "nodes[%u] '%.64s' came through assimp as '%.64s'", gi, name->valuestring,
                          c->ai_node[n]->mName.data);
            break;
        }
        uint32_t child = first[n];
        cJSON_ArrayForEach(e, kids)
        {
            if (child == GN_SK_NONE || top + 2 > (uint32_t)g->nodes.n * 2) break;
            stack[top++] = gn_sk_node_index(e, g->nodes.n), stack[top++] = child;
            child = next[child];
        }
        if (child != GN_SK_NONE || (cJSON_IsArray(kids) && e)) {
            r = gn_sk_bad(c, "nodes[%u]'s children differ from those assimp made of it", gi);
            break;
        }
    }
    free(first), free(next), free(last), free(stack);
    return r;
}

/* ---- skins, their vertex values, default weights ----------------------------------------- */

/* Skin s's joints as model nodes, made once. */
static gn_result gn_sk_gltf_joints(gn_sk_ctx *c, gn_sk_gltf *g, int s)
{
    if (g->skin_joints[s]) return GN_OK;
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(g->skins.at[s], "joints"), *e;
    int n = cJSON_IsArray(joints) ? cJSON_GetArraySize(joints) : 0;
    if (n < 1 || (uint32_t)n > GN_SKIN_MAX_JOINTS)
        return gn_sk_bad(c, "skins[%d]: %d joints (1 to %u)", s, n, GN_SKIN_MAX_JOINTS);
    uint32_t *out = gn_malloc((size_t)n * sizeof *out), k = 0;
    if (!out) return gn_sk_oom(c);
    cJSON_ArrayForEach(e, joints)
    {
        double j = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (!(j >= 0 && j < g->nodes.n) || g->model_of[(int)j] < 0) {
            free(out);
            return gn_sk_bad(c, "skins[%d].joints[%u]: node %.0f is not in the scene assimp imported", s, k,
                             j);
        }
        out[k++] = (uint32_t)g->model_of[(int)j];
    }
    g->skin_joints[s] = out, g->skin_joint_count[s] = (uint32_t)n;
    return GN_OK;
}

/* JOINTS_n and WEIGHTS_n of mesh mi's primitives, for skin s: assimp 5.2.5 silently drops a
 * joint index past the skin or a weight that is NaN. */
static gn_result gn_sk_gltf_vertex_values(gn_sk_ctx *c, gn_sk_gltf *g, int mi, int s)
{
    const cJSON *prims = cJSON_GetObjectItemCaseSensitive(g->meshes.at[mi], "primitives"), *pr;
    uint32_t jc = g->skin_joint_count[s], pi = 0;
    cJSON_ArrayForEach(pr, prims)
    {
        const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(pr, "attributes");
        for (int set = 0; set < GN_SK_MAX_JOINT_SETS; set++) {
            char key[16], what[96];
            float *v = NULL;
            uint32_t n = 0;
            int a;
            snprintf(key, sizeof key, "JOINTS_%d", set);
            snprintf(what, sizeof what, "meshes[%d].primitives[%u].attributes.%s", mi, pi, key);
            gn_result r = gn_sk_json_index(c, attrs, key, g->accessors.n, what, &a);
            if (r == GN_OK && a >= 0) r = gn_sk_accessor(c, g, a, 4, false, what, &v, &n, NULL);
            for (uint32_t i = 0; r == GN_OK && v && i < n * 4; i++)
                if (!(v[i] >= 0 && v[i] < (float)jc))
                    r = gn_sk_bad(c, "%s: vertex %u names joint %.0f, past the %u of skins[%d]", what, i / 4,
                                  (double)v[i], jc, s);
            free(v), v = NULL;
            bool had = a >= 0;
            snprintf(key, sizeof key, "WEIGHTS_%d", set);
            snprintf(what, sizeof what, "meshes[%d].primitives[%u].attributes.%s", mi, pi, key);
            if (r == GN_OK) r = gn_sk_json_index(c, attrs, key, g->accessors.n, what, &a);
            if (r == GN_OK && a >= 0) r = gn_sk_accessor(c, g, a, 4, true, what, &v, &n, NULL);
            for (uint32_t i = 0; r == GN_OK && v && i < n * 4; i++)
                if (!isfinite(v[i]) || v[i] < 0)
                    r = gn_sk_bad(c, "%s: vertex %u has the weight %g (negative or not finite)", what, i / 4,
                                  (double)v[i]);
            free(v);
            if (r != GN_OK) return r;
            if (!had && a < 0) break;
        }
        pi++;
    }
    return GN_OK;
}

/* A "weights" array of numbers as floats, or NULL when absent. */
static gn_result gn_sk_gltf_weight_array(gn_sk_ctx *c, const cJSON *obj, const char *what, float **out,
                                         uint32_t *count)
{
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(obj, "weights"), *e;
    *out = NULL;
    if (!w) return GN_OK;
    int n = cJSON_IsArray(w) ? cJSON_GetArraySize(w) : -1;
    if (n < 1 || (uint32_t)n > GN_MORPH_MAX_TARGETS)
        return gn_sk_bad(c, "%s: \"weights\" is no array of 1 to %u", what, GN_MORPH_MAX_TARGETS);
    float *v = gn_malloc((size_t)n * sizeof *v);
    if (!v) return gn_sk_oom(c);
    uint32_t k = 0;
    cJSON_ArrayForEach(e, w)
    {
        if (!cJSON_IsNumber(e) || !(fabs(e->valuedouble) <= 1e30)) {
            free(v);
            return gn_sk_bad(c, "%s: \"weights\"[%u] is not a number of float range", what, k);
        }
        v[k++] = (float)e->valuedouble;
    }
    *out = v, *count = (uint32_t)n;
    return GN_OK;
}

static gn_result gn_sk_gltf_nodes(gn_sk_ctx *c, gn_sk_gltf *g)
{
    uint32_t nn = c->m->skeleton.node_count;
    g->skin_joints = gn_calloc((size_t)g->skins.n + 1, sizeof *g->skin_joints);
    g->skin_joint_count = gn_calloc((size_t)g->skins.n + 1, sizeof *g->skin_joint_count);
    g->node_weights = gn_calloc(nn, sizeof *g->node_weights);
    g->node_weight_count = gn_calloc(nn, sizeof *g->node_weight_count);
    uint64_t *checked = gn_calloc(nn, sizeof *checked); /* (mesh, skin) pairs already checked */
    uint32_t nchecked = 0;
    gn_result r = g->skin_joints && g->skin_joint_count && g->node_weights && g->node_weight_count && checked
                      ? GN_OK
                      : gn_sk_oom(c);
    for (uint32_t n = 0; r == GN_OK && n < nn; n++) {
        int gi = g->gltf_of[n], mi, s;
        if (gi < 0) continue;
        char what[32];
        snprintf(what, sizeof what, "nodes[%d]", gi);
        const cJSON *gn = g->nodes.at[gi];
        r = gn_sk_json_index(c, gn, "mesh", g->meshes.n, what, &mi);
        if (r == GN_OK) r = gn_sk_json_index(c, gn, "skin", g->skins.n, what, &s);
        if (r != GN_OK || mi < 0) continue;
        if (s >= 0) {
            r = gn_sk_gltf_joints(c, g, s);
            uint64_t key = (uint64_t)mi << 32 | (uint32_t)s;
            bool seen = false;
            for (uint32_t k = 0; k < nchecked; k++) seen |= checked[k] == key;
            if (r == GN_OK && !seen) {
                checked[nchecked++] = key;
                r = gn_sk_gltf_vertex_values(c, g, mi, s);
            }
        }
        if (r == GN_OK)
            r = gn_sk_gltf_weight_array(c, gn, what, &g->node_weights[n], &g->node_weight_count[n]);
        if (r == GN_OK && !g->node_weights[n]) {
            snprintf(what, sizeof what, "meshes[%d]", mi);
            r = gn_sk_gltf_weight_array(c, g->meshes.at[mi], what, &g->node_weights[n],
                                        &g->node_weight_count[n]);
        }
    }
    free(checked);
    return r;
}

/* assimp 5.2.5 makes one aiMesh a primitive, mesh after mesh (glTF2Importer's ImportMeshes and
 * its meshOffsets): where each mesh's first is. */
static gn_result gn_sk_gltf_prims(gn_sk_ctx *c, gn_sk_gltf *g)
{
    g->prim_first = gn_malloc(((size_t)g->meshes.n + 1) * sizeof *g->prim_first);
    if (!g->prim_first) return gn_sk_oom(c);
    uint64_t k = 0;
    for (int m = 0; m < g->meshes.n; m++) {
        g->prim_first[m] = (uint32_t)k;
        k += (uint32_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(g->meshes.at[m], "primitives"));
        if (k > UINT32_MAX - 1) return gn_sk_bad(c, "more than 2^32 primitives");
    }
    g->prim_first[g->meshes.n] = (uint32_t)k;
    return GN_OK;
}

gn_result gn_sk_gltf_open(gn_sk_ctx *c, const gn_sk_gltf_src *src)
{
    gn_sk_gltf *g = gn_calloc(1, sizeof *g);
    if (!g) return gn_sk_oom(c);
    c->gltf = g;
    gn_result r = gn_sk_json_open(c, g, src);
    if (r == GN_OK) r = gn_sk_gltf_prims(c, g);
    if (r == GN_OK) r = gn_sk_gltf_map(c, g);
    if (r == GN_OK) r = gn_sk_gltf_nodes(c, g);
    return r;
}

void gn_sk_gltf_close(gn_sk_ctx *c)
{
    gn_sk_gltf *g = c->gltf;
    if (!g) return;
    for (int s = 0; g->skin_joints && s < g->skins.n; s++) free(g->skin_joints[s]);
    for (uint32_t n = 0; g->node_weights && n < c->m->skeleton.node_count; n++) free(g->node_weights[n]);
    free(g->skin_joints), free(g->skin_joint_count), free(g->node_weights), free(g->node_weight_count);
    free(g->model_of), free(g->gltf_of), free(g->prim_first);
    gn_sk_json_close(g);
    free(g);
    c->gltf = NULL;
}

const uint32_t *gn_sk_gltf_skin(const gn_sk_ctx *c, uint32_t n, uint32_t *count)
{
    const gn_sk_gltf *g = c->gltf;
    if (!g || n >= c->m->skeleton.node_count || g->gltf_of[n] < 0) return NULL;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(g->nodes.at[g->gltf_of[n]], "skin");
    if (!cJSON_IsNumber(s) || s->valuedouble < 0 || s->valuedouble >= g->skins.n) return NULL;
    *count = g->skin_joint_count[(int)s->valuedouble];
    return g->skin_joints[(int)s->valuedouble];
}

const float *gn_sk_gltf_weights(const gn_sk_ctx *c, uint32_t n, uint32_t *count)
{
    const gn_sk_gltf *g = c->gltf;
    if (!g || n >= c->m->skeleton.node_count || !g->node_weights[n]) return NULL;
    *count = g->node_weight_count[n];
    return g->node_weights[n];
}

/* ---- influences of several JOINTS_n sets -------------------------------------------------- */

/* Whether two floats are the same value (NaN for NaN: positions are checked elsewhere). */
static bool gn_sk_same_float(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

/* Part p's primitive: its glTF mesh and index, once assimp's vertices are checked to be the
 * POSITION accessor's, one for one. */
static gn_result gn_sk_gltf_part_prim(gn_sk_ctx *c, gn_sk_gltf *g, uint32_t p, const cJSON **attrs,
                                      char *what, size_t what_len)
{
    const gn_anim_part *part = &c->m->parts[p];
    uint32_t am = c->part_mesh[p];
    int gi = g->gltf_of[part->node], mi = -1;
    snprintf(what, what_len, "nodes[%d]", gi);
    gn_result r = gi >= 0 ? gn_sk_json_index(c, g->nodes.at[gi], "mesh", g->meshes.n, what, &mi) : GN_OK;
    if (r != GN_OK) return r;
    if (g->prim_first[g->meshes.n] != c->ai->mNumMeshes)
        return gn_sk_bad(c,
                         "assimp made %u meshes of the file's %u primitives; the influences of its "
                         "JOINTS_n sets cannot be placed",
                         c->ai->mNumMeshes, g->prim_first[g->meshes.n]);
    if (mi < 0 || am < g->prim_first[mi] || am >= g->prim_first[mi + 1])
        return gn_sk_bad(c, "%s: assimp's mesh %u is none of its mesh's primitives", what, am);
    uint32_t pi = am - g->prim_first[mi];
    const cJSON *pr =
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(g->meshes.at[mi], "primitives"), (int)pi);
    snprintf(what, what_len, "meshes[%d].primitives[%u]", mi, pi);
    *attrs = cJSON_GetObjectItemCaseSensitive(pr, "attributes");
    const struct aiMesh *me = c->ai->mMeshes[am];
    int pa;
    float *pos = NULL;
    uint32_t np = 0;
    r = gn_sk_json_index(c, *attrs, "POSITION", g->accessors.n, what, &pa);
    if (r == GN_OK) r = gn_sk_accessor(c, g, pa, 3, false, what, &pos, &np, NULL);
    if (r == GN_OK && (me->mNumVertices != np || !me->mVertices))
        r = gn_sk_bad(c,
                      "%s: assimp made %u vertices of its %u POSITION values; its JOINTS_n/WEIGHTS_n "
                      "cannot be matched to them",
                      what, me->mNumVertices, np);
    for (uint32_t v = 0; r == GN_OK && v < np; v++) {
        const float *a = &me->mVertices[v].x, *b = &pos[(size_t)v * 3];
        if (!gn_sk_same_float(a[0], b[0]) || !gn_sk_same_float(a[1], b[1]) || !gn_sk_same_float(a[2], b[2]))
            r = gn_sk_bad(c,
                          "%s: assimp's vertex %u is not POSITION %u; its JOINTS_n/WEIGHTS_n cannot be "
                          "matched to its vertices",
                          what, v, v);
    }
    free(pos);
    return r;
}

gn_result gn_sk_gltf_influences(gn_sk_ctx *c, uint32_t p, const uint16_t *palette, uint32_t joint_count,
                                gn_skin_influence *in, uint8_t *held, uint32_t *seen)
{
    gn_sk_gltf *g = c->gltf;
    const cJSON *attrs = NULL;
    char what[96];
    gn_result r = gn_sk_gltf_part_prim(c, g, p, &attrs, what, sizeof what);
    uint32_t vc = c->m->parts[p].vertex_count;
    for (int set = 0; r == GN_OK && set < GN_SK_MAX_JOINT_SETS; set++) {
        char jk[16], wk[16], swhat[128];
        int ja, wa;
        snprintf(jk, sizeof jk, "JOINTS_%d", set), snprintf(wk, sizeof wk, "WEIGHTS_%d", set);
        snprintf(swhat, sizeof swhat, "%s.attributes.%s", what, jk);
        r = gn_sk_json_index(c, attrs, jk, g->accessors.n, swhat, &ja);
        if (r == GN_OK) r = gn_sk_json_index(c, attrs, wk, g->accessors.n, swhat, &wa);
        if (r != GN_OK || (ja < 0 && wa < 0)) break;
        float *j = NULL, *w = NULL;
        uint32_t nj = 0, nw = 0;
        r = gn_sk_accessor(c, g, ja, 4, false, swhat, &j, &nj, NULL);
        if (r == GN_OK) r = gn_sk_accessor(c, g, wa, 4, true, swhat, &w, &nw, NULL);
        if (r == GN_OK && (nj != vc || nw != vc))
            r = gn_sk_bad(c, "%s: %u joints and %u weights for %u vertices", swhat, nj, nw, vc);
        for (uint32_t v = 0; r == GN_OK && v < vc; v++)
            for (int k = 0; r == GN_OK && k < 4; k++) {
                float jf = j[(size_t)v * 4 + k], wf = w[(size_t)v * 4 + k];
                if (!(jf >= 0 && jf < (float)joint_count) || !isfinite(wf) || wf < 0)
                    r = gn_sk_bad(c, "%s: vertex %u's joint %.0f or weight %g is out of range", swhat, v,
                                  (double)jf, (double)wf);
                else if (wf > 0) { /* as assimp keeps them: a zero weight names no joint */
                    uint32_t n = held[v];
                    gn_sk_add_influence(&in[v], &n, &seen[v], palette[(uint32_t)jf], wf);
                    held[v] = (uint8_t)n;
                }
            }
        free(j), free(w);
    }
    return r;
}

/* ---- animations ----------------------------------------------------------------------------- */

/* A sampler read once per clip: its times and values in the clip's floats. */
typedef struct gn_sk_gsampler {
    bool read;
    size_t times_at, values_at;
    uint32_t count, floats, comps; /* keyframes; output floats; output components */
    gn_anim_interp interp;
} gn_sk_gsampler;

static gn_result gn_sk_gltf_sampler(gn_sk_ctx *c, gn_sk_gltf *g, gn_sk_clip_build *b, const cJSON *sm,
                                    const char *what, gn_sk_gsampler *out)
{
    const cJSON *ip = cJSON_GetObjectItemCaseSensitive(sm, "interpolation");
    const char *interp = cJSON_IsString(ip) ? ip->valuestring : "LINEAR";
    if (ip && !cJSON_IsString(ip)) return gn_sk_bad(c, "%s: \"interpolation\" is not a string", what);
    if (strcmp(interp, "STEP") == 0)
        out->interp = GN_ANIM_STEP;
    else if (strcmp(interp, "LINEAR") == 0)
        out->interp = GN_ANIM_LINEAR;
    else if (strcmp(interp, "CUBICSPLINE") == 0)
        out->interp = GN_ANIM_CUBIC;
    else
        return gn_sk_bad(c, "%s: interpolation \"%.32s\" is none of STEP, LINEAR and CUBICSPLINE", what,
                         interp);
    int in, outp;
    gn_result r = gn_sk_json_index(c, sm, "input", g->accessors.n, what, &in);
    if (r == GN_OK) r = gn_sk_json_index(c, sm, "output", g->accessors.n, what, &outp);
    if (r == GN_OK && (in < 0 || outp < 0)) r = gn_sk_bad(c, "%s: no \"input\" or \"output\"", what);
    if (r == GN_OK && gn_sk_accessor_type(g, in) != 5126)
        r = gn_sk_bad(c, "%s: its input (accessors[%d]) is not FLOAT, as glTF requires of times", what, in);
    float *t = NULL, *v = NULL;
    uint32_t tn = 0, vn = 0, comps = 0;
    if (r == GN_OK) r = gn_sk_accessor(c, g, in, 1, false, what, &t, &tn, NULL);
    if (r == GN_OK) r = gn_sk_accessor(c, g, outp, 0, true, what, &v, &vn, &comps);
    for (uint32_t k = 0; r == GN_OK && k < tn; k++) {
        if (!isfinite(t[k]))
            r = gn_sk_bad(c, "%s: input time %u is not finite", what, k);
        else if (k && !(t[k] > t[k - 1]))
            r = gn_sk_bad(
                c, "%s: input time %u (%g s) is not after time %u (%g s); glTF requires them increasing",
                what, k, (double)t[k], k - 1, (double)t[k - 1]);
    }
    for (uint64_t k = 0; r == GN_OK && k < (uint64_t)vn * comps; k++)
        if (!isfinite(v[k]))
            r = gn_sk_bad(c, "%s: output value %llu is not finite", what, (unsigned long long)k);
    if (r == GN_OK) r = gn_sk_cb_floats(c, b, tn, &out->times_at);
    if (r == GN_OK) r = gn_sk_cb_floats(c, b, (size_t)vn * comps, &out->values_at);
    if (r == GN_OK) {
        memcpy(b->data + out->times_at, t, tn * sizeof *t);
        memcpy(b->data + out->values_at, v, (size_t)vn * comps * sizeof *v);
        out->read = true, out->count = tn, out->floats = vn * comps, out->comps = comps;
    }
    free(t), free(v);
    return r;
}

/* Unit rotations for STEP and LINEAR (normalised integer outputs are only near unit); a cubic
 * sampler's result is normalised by the sampler itself. */
static gn_result gn_sk_gltf_unit(gn_sk_ctx *c, float *v, uint32_t n, const char *what)
{
    for (uint32_t k = 0; k < n; k++, v += 4) {
        float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
        if (!(len > 1e-6f)) return gn_sk_bad(c, "%s: rotation %u has length %g", what, k, (double)len);
        for (int i = 0; i < 4; i++) v[i] /= len;
    }
    return GN_OK;
}

/* One channel of animations[a]: onto a node's TRS, or onto every morph set of its parts. */
static gn_result gn_sk_gltf_channel(gn_sk_ctx *c, gn_sk_gltf *g, gn_sk_clip_build *b, const cJSON *samplers,
                                    gn_sk_gsampler *cache, const cJSON *ch, const char *what,
                                    uint32_t *skipped)
{
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(ch, "target");
    const cJSON *path = target ? cJSON_GetObjectItemCaseSensitive(target, "path") : NULL;
    int node, si;
    gn_result r = gn_sk_json_index(c, target, "node", g->nodes.n, what, &node);
    if (r == GN_OK) r = gn_sk_json_index(c, ch, "sampler", cJSON_GetArraySize(samplers), what, &si);
    if (r != GN_OK) return r;
    if (si < 0 || !cJSON_IsString(path)) return gn_sk_bad(c, "%s: no \"sampler\" or target \"path\"", what);
    static const char *const paths[] = {"translation", "rotation", "scale", "weights"};
    int p = 0;
    while (p < 4 && strcmp(path->valuestring, paths[p]) != 0) p++;
    if (node < 0 || p == 4 || g->model_of[node] < 0) { /* glTF: a channel without a node is ignored */
        (*skipped)++;
        return GN_OK;
    }
    uint32_t mn = (uint32_t)g->model_of[node];
    gn_sk_gsampler *s = &cache[si];
    char swhat[80];
    snprintf(swhat, sizeof swhat, "%.40s's sampler %d", what, si);
    if (!s->read) r = gn_sk_gltf_sampler(c, g, b, cJSON_GetArrayItem(samplers, si), swhat, s);
    if (r != GN_OK) return r;
    uint32_t per = s->interp == GN_ANIM_CUBIC ? 3 : 1, width = p == 1 ? 4 : 3;
    if (p == GN_ANIM_PATH_WEIGHTS) {
        if (s->comps != 1) return gn_sk_bad(c, "%s: weights output is not SCALAR", swhat);
        width = s->floats / (s->count * per);
    } else if (s->comps != width) {
        return gn_sk_bad(c, "%s: %s output has %u components a value, not %u", swhat, paths[p], s->comps,
                         width);
    }
    if (!width || (uint64_t)s->count * per * width != s->floats)
        return gn_sk_bad(c, "%s: %u output values for %u keyframes of %s", swhat, s->floats, s->count,
                         paths[p]);
    if (p == GN_ANIM_PATH_ROTATION && s->interp != GN_ANIM_CUBIC) {
        r = gn_sk_gltf_unit(c, b->data + s->values_at, s->count,
                            swhat); /* again for a shared one: no change */
        if (r != GN_OK) return r;
    }
    gn_anim_channel out = {
        .target = mn,
        .path = (gn_anim_path)p,
        .sampler = {.count = s->count, .width = width, .interp = s->interp, .rotation = p == 1}};
    if (p != GN_ANIM_PATH_WEIGHTS) return gn_sk_cb_channel(c, b, &out, s->times_at, s->values_at);
    uint32_t found = 0;
    for (uint32_t k = 0; k < c->m->part_count; k++) {
        const gn_anim_part *part = &c->m->parts[k];
        if (part->node != mn || part->morph < 0) continue;
        if (c->m->morphs[part->morph].target_count != width)
            return gn_sk_bad(c, "%s: %u weights a keyframe for a mesh of %u morph targets", what, width,
                             c->m->morphs[part->morph].target_count);
        out.target = (uint32_t)part->morph;
        r = gn_sk_cb_channel(c, b, &out, s->times_at, s->values_at);
        if (r != GN_OK) return r;
        found++;
    }
    *skipped += found == 0;
    return GN_OK;
}

gn_result gn_sk_gltf_clips(gn_sk_ctx *c)
{
    gn_sk_gltf *g = c->gltf;
    if ((uint32_t)g->animations.n > GN_ANIM_MAX_CLIPS)
        return gn_sk_bad(c, "%d animations, more than the cap of %u", g->animations.n, GN_ANIM_MAX_CLIPS);
    for (int a = 0; a < g->animations.n; a++) {
        const cJSON *an = g->animations.at[a], *ch;
        const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(an, "samplers");
        const cJSON *channels = cJSON_GetObjectItemCaseSensitive(an, "channels");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(an, "name");
        if (!cJSON_IsArray(samplers) || !cJSON_IsArray(channels))
            return gn_sk_bad(c, "animations[%d]: \"samplers\" or \"channels\" is not an array", a);
        int ns = cJSON_GetArraySize(samplers);
        gn_sk_gsampler *cache = gn_calloc(ns ? (size_t)ns : 1, sizeof *cache);
        if (!cache) return gn_sk_oom(c);
        gn_sk_clip_build b = {0};
        gn_result r = GN_OK;
        uint32_t k = 0, skipped = 0;
        cJSON_ArrayForEach(ch, channels)
        {
            char what[64];
            snprintf(what, sizeof what, "animations[%d].channels[%u]", a, k++);
            r = gn_sk_gltf_channel(c, g, &b, samplers, cache, ch, what, &skipped);
            if (r != GN_OK) break;
        }
        free(cache);
        if (r != GN_OK) {
            gn_sk_cb_free(&b);
            return r;
        }
        if (skipped) {
            c->st->channels_skipped += skipped;
            gn_sk_log(c, GN_LOG_WARN,
                      "animations[%d]: %u channels target no node of the scene or no morph "
                      "targets (or a path gnomon does not animate); left out",
                      a, skipped);
        }
        r = gn_sk_cb_finish(c, &b, cJSON_IsString(name) ? name->valuestring : NULL);
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

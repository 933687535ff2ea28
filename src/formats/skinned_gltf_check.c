/* What assimp 5.2.5's glTF importer reads of skins, skinned attributes, morph targets and
 * animations without checking it, checked before it runs (skinned_ctx.h). gltf_check.c bounds
 * every accessor by its buffer; these are the relations between accessors the importer then
 * assumes: it indexes an inverse bind matrix per joint, four joints and four float weights per
 * vertex of POSITION in every JOINTS_n/WEIGHTS_n set, a target's deltas per base vertex, and 1
 * (or 3, CUBICSPLINE) outputs per input time. A skin without inverseBindMatrices (glTF's identity
 * default) is a null reference to it (fuzz_skinned found it). Each such file is refused with the
 * relation it breaks. It also says whether a skinned primitive has a second set, whose
 * influences the loader then reads from the file (skinned_gltf.c). */
#include "base/alloc.h"
#include "base/error.h"
#include "formats/skinned_gltf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* obj[key] as an accessor: its index, count, components a value and componentType; -1 absent. */
static gn_result gn_sk_acc(gn_sk_ctx *c, gn_sk_gltf *g, const cJSON *obj, const char *key, const char *what,
                           int *a, uint32_t *count, int *comps, int *ctype)
{
    gn_result r = gn_sk_json_index(c, obj, key, g->accessors.n, what, a);
    if (r == GN_OK && *a >= 0) gn_sk_accessor_shape(g, *a, count, comps, ctype);
    return r;
}

static gn_result gn_sk_pre_skins(gn_sk_ctx *c, gn_sk_gltf *g)
{
    for (int s = 0; s < g->skins.n; s++) {
        char what[32];
        snprintf(what, sizeof what, "skins[%d]", s);
        const cJSON *joints = cJSON_GetObjectItemCaseSensitive(g->skins.at[s], "joints");
        int nj = cJSON_IsArray(joints) ? cJSON_GetArraySize(joints) : 0, a, comps, ctype;
        uint32_t n = 0;
        gn_result r = gn_sk_acc(c, g, g->skins.at[s], "inverseBindMatrices", what, &a, &n, &comps, &ctype);
        if (r != GN_OK) return r;
        if (a < 0)
            return gn_sk_bad(
                c,
                "%s: no \"inverseBindMatrices\": assimp 5.2.5 reads through a null reference there "
                "(glTF's identity default is not supported)",
                what);
        if (comps != 16 || ctype != 5126 || n < (uint32_t)nj)
            return gn_sk_bad(c, "%s: its inverseBindMatrices (accessors[%d]) are not %d float MAT4s", what, a,
                             nj);
    }
    return GN_OK;
}

/* Whether key is a JOINTS or WEIGHTS attribute (assimp 5.2.5 takes any name starting so as one
 * of their sets); *set is its set when named exactly ("JOINTS_1", not "JOINTS_01"), else -1. */
static bool gn_sk_set_attr(const char *key, int *set)
{
    size_t p = strncmp(key, "JOINTS", 6) == 0 ? 6 : strncmp(key, "WEIGHTS", 7) == 0 ? 7 : 0;
    *set = -1;
    if (!p) return false;
    if (key[p] != '_') return true;
    const char *d = key + p + 1;
    size_t len = strlen(d);
    if (len >= 1 && len <= 3 && strspn(d, "0123456789") == len && (d[0] != '0' || len == 1)) *set = atoi(d);
    return true;
}

/* A primitive's JOINTS_n/WEIGHTS_n sets against its POSITION count. assimp 5.2.5 reads every set
 * (glTF2Importer's BuildVertexWeightMapping): each JOINTS_n with JOINTS_0's element size (shorts
 * read as bytes throw; bytes read as shorts leave half of each value uninitialised), each
 * WEIGHTS_n as 4 floats a vertex of as many vertices as the first holds (a shorter set is read
 * past its end), and the n-th JOINTS for the n-th WEIGHTS (a WEIGHTS_1 without JOINTS_1 corrupts
 * its heap: free() aborts). So every set is refused unless it is whole and paired, numbered from 0
 * without a gap. *sets: how many. */
static gn_result gn_sk_pre_sets(gn_sk_ctx *c, gn_sk_gltf *g, const cJSON *attrs, uint32_t np,
                                const char *what, uint32_t *sets)
{
    int jtype0 = 0;
    uint32_t n = 0;
    for (;; n++) {
        char jk[16], wk[16];
        snprintf(jk, sizeof jk, "JOINTS_%u", n), snprintf(wk, sizeof wk, "WEIGHTS_%u", n);
        int ja, wa, jcomps, jtype, wcomps, wtype;
        uint32_t nj = 0, nw = 0;
        gn_result r = gn_sk_acc(c, g, attrs, jk, what, &ja, &nj, &jcomps, &jtype);
        if (r == GN_OK) r = gn_sk_acc(c, g, attrs, wk, what, &wa, &nw, &wcomps, &wtype);
        if (r != GN_OK) return r;
        if (ja < 0 && wa < 0) break;
        if (ja < 0 || wa < 0)
            return gn_sk_bad(c, "%s: %s without %s (glTF pairs the sets%s)", what, ja < 0 ? wk : jk,
                             ja < 0 ? jk : wk, ja < 0 ? "; assimp 5.2.5 corrupts memory on it" : "");
        if (n == GN_SK_MAX_JOINT_SETS)
            return gn_sk_bad(c, "%s: more than %u JOINTS_n/WEIGHTS_n sets (%u influences a vertex)", what,
                             GN_SK_MAX_JOINT_SETS, 4 * GN_SK_MAX_JOINT_SETS);
        if (n == 0) jtype0 = jtype;
        if (jcomps != 4 || (jtype != 5121 && jtype != 5123) || nj != np)
            return gn_sk_bad(c, "%s: %s is not %u VEC4s of unsigned bytes or shorts", what, jk, np);
        if (jtype != jtype0)
            return gn_sk_bad(c,
                             "%s: %s's components are not JOINTS_0's (assimp 5.2.5 reads every set as "
                             "JOINTS_0's type)",
                             what, jk);
        /* assimp 5.2.5 copies WEIGHTS_n's bytes into floats as they are: normalised integers
         * would come out as garbage, so only floats are taken */
        if (wcomps != 4 || wtype != 5126 || nw != np)
            return gn_sk_bad(c, "%s: %s is not %u float VEC4s%s", what, wk, np,
                             wtype != 5126 ? " (assimp 5.2.5 misreads normalised integer weights)" : "");
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, attrs)
    {
        int set;
        if (gn_sk_set_attr(e->string, &set) && !(set >= 0 && (uint32_t)set < n))
            return gn_sk_bad(c,
                             "%s: attribute \"%.32s\" is none of its %u JOINTS_n/WEIGHTS_n sets "
                             "(numbered from 0, in pairs, without a gap)",
                             what, e->string, n);
    }
    *sets = n;
    return GN_OK;
}

/* A primitive's skinned attribute sets and its targets' attributes against its POSITION count. */
static gn_result gn_sk_pre_primitive(gn_sk_ctx *c, gn_sk_gltf *g, const cJSON *pr, const char *what,
                                     uint32_t *sets)
{
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(pr, "attributes");
    int pa, comps, ctype;
    uint32_t np = 0;
    *sets = 0;
    gn_result r = gn_sk_acc(c, g, attrs, "POSITION", what, &pa, &np, &comps, &ctype);
    if (r != GN_OK || pa < 0) return r;
    r = gn_sk_pre_sets(c, g, attrs, np, what, sets);
    const cJSON *targets = cJSON_GetObjectItemCaseSensitive(pr, "targets"), *t;
    int k = 0;
    cJSON_ArrayForEach(t, targets)
    {
        static const char *const keys[] = {"POSITION", "NORMAL", "TANGENT"};
        for (int i = 0; r == GN_OK && i < 3; i++) {
            int ta;
            uint32_t nt = 0;
            char tw[96];
            snprintf(tw, sizeof tw, "%s.targets[%d]", what, k);
            r = gn_sk_acc(c, g, t, keys[i], tw, &ta, &nt, &comps, &ctype);
            if (r == GN_OK && ta >= 0 && (comps != 3 || ctype != 5126 || nt != np))
                r = gn_sk_bad(c, "%s: %s is not %u float VEC3s (assimp 5.2.5 reads one a base vertex)", tw,
                              keys[i], np);
        }
        k++;
    }
    return r;
}

/* Every primitive; *unjoined when a mesh some node skins has a primitive with JOINTS_1. */
static gn_result gn_sk_pre_meshes(gn_sk_ctx *c, gn_sk_gltf *g, bool *unjoined)
{
    bool *skinned = gn_calloc(g->meshes.n ? (size_t)g->meshes.n : 1, sizeof *skinned);
    if (!skinned) return gn_sk_oom(c);
    gn_result r = GN_OK;
    for (int n = 0; r == GN_OK && n < g->nodes.n; n++) {
        char what[32];
        int mi, s;
        snprintf(what, sizeof what, "nodes[%d]", n);
        r = gn_sk_json_index(c, g->nodes.at[n], "mesh", g->meshes.n, what, &mi);
        if (r == GN_OK) r = gn_sk_json_index(c, g->nodes.at[n], "skin", g->skins.n, what, &s);
        if (r == GN_OK && mi >= 0 && s >= 0) skinned[mi] = true;
    }
    for (int m = 0; r == GN_OK && m < g->meshes.n; m++) {
        const cJSON *prims = cJSON_GetObjectItemCaseSensitive(g->meshes.at[m], "primitives"), *pr;
        int p = 0;
        cJSON_ArrayForEach(pr, prims)
        {
            char what[64];
            uint32_t sets = 0;
            snprintf(what, sizeof what, "meshes[%d].primitives[%d]", m, p++);
            r = gn_sk_pre_primitive(c, g, pr, what, &sets);
            if (r != GN_OK) break;
            *unjoined |= skinned[m] && sets > 1;
        }
    }
    free(skinned);
    return r;
}

/* Each channel's sampler: as many outputs as the importer reads for the path. */
static gn_result gn_sk_pre_animations(gn_sk_ctx *c, gn_sk_gltf *g)
{
    for (int a = 0; a < g->animations.n; a++) {
        const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(g->animations.at[a], "samplers");
        const cJSON *channels = cJSON_GetObjectItemCaseSensitive(g->animations.at[a], "channels"), *ch;
        int k = 0;
        cJSON_ArrayForEach(ch, channels)
        {
            char what[64];
            snprintf(what, sizeof what, "animations[%d].channels[%d]", a, k++);
            const cJSON *target = cJSON_GetObjectItemCaseSensitive(ch, "target");
            const cJSON *path = target ? cJSON_GetObjectItemCaseSensitive(target, "path") : NULL;
            int si, in, out, comps, ctype, ocomps, octype;
            uint32_t ni = 0, no = 0;
            gn_result r = gn_sk_json_index(
                c, ch, "sampler", cJSON_IsArray(samplers) ? cJSON_GetArraySize(samplers) : 0, what, &si);
            if (r != GN_OK) return r;
            if (si < 0 || !cJSON_IsString(path))
                return gn_sk_bad(c, "%s: no \"sampler\" or target \"path\"", what);
            const cJSON *sm = cJSON_GetArrayItem(samplers, si);
            const cJSON *ip = cJSON_GetObjectItemCaseSensitive(sm, "interpolation");
            bool cubic = cJSON_IsString(ip) && strcmp(ip->valuestring, "CUBICSPLINE") == 0;
            r = gn_sk_acc(c, g, sm, "input", what, &in, &ni, &comps, &ctype);
            if (r == GN_OK) r = gn_sk_acc(c, g, sm, "output", what, &out, &no, &ocomps, &octype);
            if (r != GN_OK) return r;
            if (in < 0 || out < 0) return gn_sk_bad(c, "%s: its sampler has no input or output", what);
            if (comps != 1 || ctype != 5126 || ni < 1)
                return gn_sk_bad(c, "%s: its input (accessors[%d]) is not float times", what, in);
            int want = strcmp(path->valuestring, "rotation") == 0      ? 4
                       : strcmp(path->valuestring, "weights") == 0     ? 1
                       : strcmp(path->valuestring, "translation") == 0 ? 3
                       : strcmp(path->valuestring, "scale") == 0       ? 3
                                                                       : 0;
            if (want && ocomps != want)
                return gn_sk_bad(c, "%s: its %s output (accessors[%d]) has %d components a value, not %d",
                                 what, path->valuestring, out, ocomps, want);
            if (want && (uint64_t)no < (uint64_t)ni * (cubic ? 3 : 1))
                return gn_sk_bad(c, "%s: %u outputs for %u times%s", what, no, ni,
                                 cubic ? " (CUBICSPLINE: 3 each)" : "");
        }
    }
    return GN_OK;
}

gn_result gn_sk_gltf_precheck(gn_sk_ctx *c, const gn_sk_gltf_src *src, bool *unjoined)
{
    gn_sk_gltf g = {0};
    *unjoined = false;
    gn_result r = gn_sk_json_open(c, &g, src);
    if (r == GN_OK) r = gn_sk_pre_skins(c, &g);
    if (r == GN_OK) r = gn_sk_pre_meshes(c, &g, unjoined);
    if (r == GN_OK) r = gn_sk_pre_animations(c, &g);
    gn_sk_json_close(&g);
    return r;
}

/* What assimp 5.2.5's glTF importer reads of skins, skinned attributes, morph targets and
 * animations without checking it, checked before it runs (skinned_ctx.h). gltf_check.c bounds
 * every accessor by its buffer; these are the relations between accessors the importer then
 * assumes: it indexes an inverse bind matrix per joint, four joints and four float weights per
 * vertex of POSITION, a target's deltas per base vertex, and 1 (or 3, CUBICSPLINE) outputs per
 * input time. A skin without inverseBindMatrices (glTF's identity default) is a null reference
 * to it (fuzz_skinned found it). Each such file is refused with the relation it breaks. */
#include "base/error.h"
#include "formats/skinned_gltf.h"

#include <stdio.h>
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

/* A primitive's JOINTS_0 and WEIGHTS_0 against its POSITION count, and its targets' attributes. */
static gn_result gn_sk_pre_primitive(gn_sk_ctx *c, gn_sk_gltf *g, const cJSON *pr, const char *what)
{
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(pr, "attributes");
    int pa, ja, wa, comps, ctype;
    uint32_t np = 0, nj = 0, nw = 0;
    gn_result r = gn_sk_acc(c, g, attrs, "POSITION", what, &pa, &np, &comps, &ctype);
    if (r != GN_OK || pa < 0) return r;
    r = gn_sk_acc(c, g, attrs, "JOINTS_0", what, &ja, &nj, &comps, &ctype);
    if (r == GN_OK && ja >= 0 && (comps != 4 || (ctype != 5121 && ctype != 5123) || nj != np))
        r = gn_sk_bad(c, "%s: JOINTS_0 is not %u VEC4s of unsigned bytes or shorts", what, np);
    if (r == GN_OK) r = gn_sk_acc(c, g, attrs, "WEIGHTS_0", what, &wa, &nw, &comps, &ctype);
    /* assimp 5.2.5 copies WEIGHTS_0's bytes into floats as they are: normalised integers would
     * come out as garbage, so only floats are taken */
    if (r == GN_OK && wa >= 0 && (comps != 4 || ctype != 5126 || nw != np))
        r = gn_sk_bad(
            c, "%s: WEIGHTS_0 is not %u float VEC4s (assimp 5.2.5 misreads normalised integer weights)", what,
            np);
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

static gn_result gn_sk_pre_meshes(gn_sk_ctx *c, gn_sk_gltf *g)
{
    for (int m = 0; m < g->meshes.n; m++) {
        const cJSON *prims = cJSON_GetObjectItemCaseSensitive(g->meshes.at[m], "primitives"), *pr;
        int p = 0;
        cJSON_ArrayForEach(pr, prims)
        {
            char what[64];
            snprintf(what, sizeof what, "meshes[%d].primitives[%d]", m, p++);
            gn_result r = gn_sk_pre_primitive(c, g, pr, what);
            if (r != GN_OK) return r;
        }
    }
    return GN_OK;
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

gn_result gn_sk_gltf_precheck(gn_sk_ctx *c, const gn_sk_gltf_src *src)
{
    gn_sk_gltf g = {0};
    gn_result r = gn_sk_json_open(c, &g, src);
    if (r == GN_OK) r = gn_sk_pre_skins(c, &g);
    if (r == GN_OK) r = gn_sk_pre_meshes(c, &g);
    if (r == GN_OK) r = gn_sk_pre_animations(c, &g);
    gn_sk_json_close(&g);
    return r;
}

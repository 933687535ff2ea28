/* Clips: the builder every format's path fills (skinned_ctx.h), and assimp's aiAnimations as
 * clips (MD5, FBX, COLLADA). assimp 5.2.5 keeps no interpolation with a key: its keys are
 * sampled as LINEAR (rotations by slerp), what its own importers assume. */
#include "base/alloc.h"
#include "formats/skinned_ctx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Floats one clip may hold (times and values): 256 MiB. */
#define GN_SK_MAX_CLIP_FLOATS (1u << 26)
/* assimp's documentation: mTicksPerSecond 0 means the format gives none, and 25 is assumed. */
#define GN_SK_DEFAULT_TICKS 25.0

gn_result gn_sk_cb_floats(gn_sk_ctx *c, gn_sk_clip_build *b, size_t n, size_t *at)
{
    if (n > GN_SK_MAX_CLIP_FLOATS - b->floats)
        return gn_sk_bad(c, "a clip of more than %u keyframe floats (the cap)", GN_SK_MAX_CLIP_FLOATS);
    if (b->floats + n > b->float_cap) {
        size_t cap = b->float_cap ? b->float_cap : 1024;
        while (cap < b->floats + n) cap *= 2;
        float *d = gn_realloc(b->data, cap * sizeof *d);
        if (!d) return gn_sk_oom(c);
        b->data = d, b->float_cap = cap;
    }
    *at = b->floats;
    b->floats += n;
    return GN_OK;
}

gn_result gn_sk_cb_channel(gn_sk_ctx *c, gn_sk_clip_build *b, const gn_anim_channel *proto, size_t times_at,
                           size_t values_at)
{
    if (b->count >= GN_ANIM_MAX_CHANNELS)
        return gn_sk_bad(c, "a clip of more than %u channels (the cap)", GN_ANIM_MAX_CHANNELS);
    b->keys += proto->sampler.count;
    if (b->keys > GN_ANIM_MAX_KEYS)
        return gn_sk_bad(c, "a clip of more than %u keyframes (the cap)", GN_ANIM_MAX_KEYS);
    if (b->count == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 16;
        gn_anim_channel *ch = gn_realloc(b->ch, cap * sizeof *ch);
        if (!ch) return gn_sk_oom(c);
        b->ch = ch;
        size_t *ta = gn_realloc(b->times_at, cap * sizeof *ta);
        if (!ta) return gn_sk_oom(c);
        b->times_at = ta;
        size_t *va = gn_realloc(b->values_at, cap * sizeof *va);
        if (!va) return gn_sk_oom(c);
        b->values_at = va;
        b->cap = cap;
    }
    b->ch[b->count] = *proto;
    b->times_at[b->count] = times_at, b->values_at[b->count] = values_at;
    b->count++;
    return GN_OK;
}

void gn_sk_cb_free(gn_sk_clip_build *b)
{
    free(b->data);
    free(b->ch);
    free(b->times_at);
    free(b->values_at);
    memset(b, 0, sizeof *b);
}

static const char *gn_sk_path_name(gn_anim_path p)
{
    static const char *const names[] = {"translation", "rotation", "scale", "weights"};
    return p <= GN_ANIM_PATH_WEIGHTS ? names[p] : "?";
}

gn_result gn_sk_cb_finish(gn_sk_ctx *c, gn_sk_clip_build *b, const char *name)
{
    gn_anim_model *m = c->m;
    gn_result r = GN_OK;
    if (m->clip_count >= GN_ANIM_MAX_CLIPS)
        r = gn_sk_bad(c, "more than %u clips (the cap)", GN_ANIM_MAX_CLIPS);
    if (r == GN_OK && m->clip_count == c->clip_cap) {
        uint32_t cap = c->clip_cap ? c->clip_cap * 2 : 4;
        gn_anim_clip *clips = gn_realloc(m->clips, cap * sizeof *clips);
        if (!clips)
            r = gn_sk_oom(c);
        else
            m->clips = clips, c->clip_cap = cap;
    }
    if (r != GN_OK) {
        gn_sk_cb_free(b);
        return r;
    }
    gn_anim_clip *clip = &m->clips[m->clip_count++];
    memset(clip, 0, sizeof *clip);
    if (name && *name)
        snprintf(clip->name, sizeof clip->name, "%s", name);
    else
        snprintf(clip->name, sizeof clip->name, "clip %u", m->clip_count - 1);
    /* the clip owns the arrays from here: gn_anim_model_free releases them on any failure */
    clip->data = b->data, clip->channels = b->ch, clip->channel_count = b->count;
    for (uint32_t k = 0; k < clip->channel_count; k++) {
        gn_anim_channel *ch = &clip->channels[k];
        ch->sampler.times = clip->data + b->times_at[k];
        ch->sampler.values = clip->data + b->values_at[k];
    }
    free(b->times_at), free(b->values_at);
    memset(b, 0, sizeof *b);
    for (uint32_t k = 0; k < clip->channel_count; k++) {
        gn_anim_channel *ch = &clip->channels[k];
        char why[200];
        if (!gn_anim_sampler_check(&ch->sampler, why, sizeof why)) {
            const char *target = ch->path == GN_ANIM_PATH_WEIGHTS || ch->target >= m->skeleton.node_count
                                     ? "a morph set"
                                     : m->skeleton.nodes[ch->target].name;
            return gn_sk_bad(c, "clip '%s', the %s of '%s': %s", clip->name, gn_sk_path_name(ch->path),
                             target, why);
        }
        float last = ch->sampler.times[ch->sampler.count - 1];
        if (last > clip->duration) clip->duration = last;
    }
    return GN_OK;
}

/* ---- assimp's aiAnimation ------------------------------------------------------------------ */

/* Keys in seconds, strictly increasing: a key at a time not after the one before is dropped
 * (counted; assimp's importers emit duplicates where a file repeats a frame). */
typedef struct gn_sk_keys {
    const char *clip, *node, *path; /* for messages */
    double tps;
} gn_sk_keys;

static gn_result gn_sk_key_time(gn_sk_ctx *c, const gn_sk_keys *k, double ticks, uint32_t i, float *out)
{
    double t = ticks / k->tps;
    if (!isfinite(t) || fabs(t) > 1e9)
        return gn_sk_bad(c, "clip '%s', the %s of '%.64s': key %u is at %g ticks", k->clip, k->path, k->node,
                         i, ticks);
    *out = (float)t;
    return GN_OK;
}

/* A translation or scale channel (aiVectorKey) or a rotation one (aiQuatKey, w x y z in memory). */
static gn_result gn_sk_node_channel(gn_sk_ctx *c, gn_sk_clip_build *b, const gn_sk_keys *k, uint32_t node,
                                    gn_anim_path path, const void *keys, uint32_t n)
{
    if (!n) return GN_OK;
    if (!keys) return gn_sk_bad(c, "clip '%s', the %s of '%.64s': no key list", k->clip, k->path, k->node);
    bool rot = path == GN_ANIM_PATH_ROTATION;
    uint32_t width = rot ? 4 : 3, kept = 0;
    size_t ta = 0, va = 0; /* set by gn_sk_cb_floats before any use (gcc -O3 cannot see it) */
    gn_result r = gn_sk_cb_floats(c, b, n, &ta);
    if (r == GN_OK) r = gn_sk_cb_floats(c, b, (size_t)n * width, &va);
    if (r != GN_OK) return r;
    float *times = b->data + ta, *values = b->data + va;
    for (uint32_t i = 0; i < n; i++) {
        float t = 0, v[4] = {0};
        if (rot) {
            const struct aiQuatKey *q = &((const struct aiQuatKey *)keys)[i];
            r = gn_sk_key_time(c, k, q->mTime, i, &t);
            v[0] = q->mValue.x, v[1] = q->mValue.y, v[2] = q->mValue.z, v[3] = q->mValue.w;
            float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
            if (r == GN_OK && !(len > 1e-6f && isfinite(len)))
                r = gn_sk_bad(c, "clip '%s', the rotation of '%.64s': key %u is no rotation (length %g)",
                              k->clip, k->node, i, (double)len);
            for (int j = 0; j < 4; j++) v[j] /= len;
        } else {
            const struct aiVectorKey *vk = &((const struct aiVectorKey *)keys)[i];
            r = gn_sk_key_time(c, k, vk->mTime, i, &t);
            v[0] = vk->mValue.x, v[1] = vk->mValue.y, v[2] = vk->mValue.z;
            if (r == GN_OK && !(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2])))
                r = gn_sk_bad(c, "clip '%s', the %s of '%.64s': key %u holds a value that is not finite",
                              k->clip, k->path, k->node, i);
        }
        if (r != GN_OK) return r;
        if (kept && !(t > times[kept - 1])) {
            c->st->keys_dropped++;
            continue;
        }
        times[kept] = t;
        memcpy(values + (size_t)kept * width, v, width * sizeof *v);
        kept++;
    }
    gn_anim_channel ch = {
        .target = node,
        .path = path,
        .sampler = {.count = kept, .width = width, .interp = GN_ANIM_LINEAR, .rotation = rot}};
    return gn_sk_cb_channel(c, b, &ch, ta, va);
}

/* A morph weights channel onto morph set `set`: each key lists (target, weight) pairs, the
 * targets it does not list at 0. */
static gn_result gn_sk_morph_channel(gn_sk_ctx *c, gn_sk_clip_build *b, const gn_sk_keys *k,
                                     const struct aiMeshMorphAnim *mc, uint32_t set)
{
    uint32_t n = mc->mNumKeys, width = c->m->morphs[set].target_count, kept = 0;
    if (!n) return GN_OK;
    if (!mc->mKeys) return gn_sk_bad(c, "clip '%s', the weights of '%.64s': no key list", k->clip, k->node);
    size_t ta = 0, va = 0; /* set by gn_sk_cb_floats before any use (gcc -O3 cannot see it) */
    gn_result r = gn_sk_cb_floats(c, b, n, &ta);
    if (r == GN_OK) r = gn_sk_cb_floats(c, b, (size_t)n * width, &va);
    if (r != GN_OK) return r;
    float *times = b->data + ta, *values = b->data + va;
    for (uint32_t i = 0; i < n; i++) {
        const struct aiMeshMorphKey *key = &mc->mKeys[i];
        float t = 0;
        r = gn_sk_key_time(c, k, key->mTime, i, &t);
        if (r != GN_OK) return r;
        if (kept && !(t > times[kept - 1])) {
            c->st->keys_dropped++;
            continue;
        }
        if (key->mNumValuesAndWeights && (!key->mValues || !key->mWeights))
            return gn_sk_bad(c, "clip '%s', the weights of '%.64s': key %u has no values", k->clip, k->node,
                             i);
        float *w = values + (size_t)kept * width;
        memset(w, 0, width * sizeof *w);
        for (uint32_t j = 0; j < key->mNumValuesAndWeights; j++) {
            if (key->mValues[j] >= width)
                return gn_sk_bad(c, "clip '%s', the weights of '%.64s': key %u names target %u of %u",
                                 k->clip, k->node, i, key->mValues[j], width);
            if (!(fabs(key->mWeights[j]) <= 1e30))
                return gn_sk_bad(
                    c, "clip '%s', the weights of '%.64s': key %u holds a weight out of float range", k->clip,
                    k->node, i);
            w[key->mValues[j]] = (float)key->mWeights[j];
        }
        times[kept++] = t;
    }
    gn_anim_channel ch = {.target = set,
                          .path = GN_ANIM_PATH_WEIGHTS,
                          .sampler = {.count = kept, .width = width, .interp = GN_ANIM_LINEAR}};
    return gn_sk_cb_channel(c, b, &ch, ta, va);
}

/* The morph sets a morph channel drives: those of the parts on the node it names (glTF's and
 * COLLADA's naming), else of the parts whose mesh has that name (FBX's). */
static gn_result gn_sk_morph_targets(gn_sk_ctx *c, gn_sk_clip_build *b, const gn_sk_keys *k,
                                     const struct aiMeshMorphAnim *mc, uint32_t *found)
{
    const gn_anim_model *m = c->m;
    int32_t node = gn_sk_find_node(c, mc->mName.data);
    for (int pass = 0; pass < 2 && !*found; pass++)
        for (uint32_t p = 0; p < m->part_count; p++) {
            const gn_anim_part *part = &m->parts[p];
            if (part->morph < 0) continue;
            bool hit = pass == 0 ? (int32_t)part->node == node
                                 : strcmp(c->ai->mMeshes[c->part_mesh[p]]->mName.data, mc->mName.data) == 0;
            if (!hit) continue;
            gn_result r = gn_sk_morph_channel(c, b, k, mc, (uint32_t)part->morph);
            if (r != GN_OK) return r;
            (*found)++;
        }
    return GN_OK;
}

static gn_result gn_sk_assimp_clip(gn_sk_ctx *c, const struct aiAnimation *an, gn_sk_clip_build *b)
{
    gn_sk_keys k = {.clip = an->mName.length ? an->mName.data : "(unnamed)",
                    .tps = an->mTicksPerSecond > 0 && isfinite(an->mTicksPerSecond) ? an->mTicksPerSecond
                                                                                    : GN_SK_DEFAULT_TICKS};
    if ((an->mNumChannels && !an->mChannels) || (an->mNumMorphMeshChannels && !an->mMorphMeshChannels))
        return gn_sk_bad(c, "clip '%s': a channel list is missing", k.clip);
    uint32_t skipped = 0;
    for (uint32_t i = 0; i < an->mNumChannels; i++) {
        const struct aiNodeAnim *na = an->mChannels[i];
        if (!na) return gn_sk_bad(c, "clip '%s': channel %u is missing", k.clip, i);
        int32_t node = gn_sk_find_node(c, na->mNodeName.data);
        if (node < 0) {
            skipped++;
            continue;
        }
        k.node = na->mNodeName.data;
        k.path = "translation";
        gn_result r = gn_sk_node_channel(c, b, &k, (uint32_t)node, GN_ANIM_PATH_TRANSLATION,
                                         na->mPositionKeys, na->mNumPositionKeys);
        k.path = "rotation";
        if (r == GN_OK)
            r = gn_sk_node_channel(c, b, &k, (uint32_t)node, GN_ANIM_PATH_ROTATION, na->mRotationKeys,
                                   na->mNumRotationKeys);
        k.path = "scale";
        if (r == GN_OK)
            r = gn_sk_node_channel(c, b, &k, (uint32_t)node, GN_ANIM_PATH_SCALE, na->mScalingKeys,
                                   na->mNumScalingKeys);
        if (r != GN_OK) return r;
    }
    for (uint32_t i = 0; i < an->mNumMorphMeshChannels; i++) {
        const struct aiMeshMorphAnim *mc = an->mMorphMeshChannels[i];
        if (!mc) return gn_sk_bad(c, "clip '%s': morph channel %u is missing", k.clip, i);
        uint32_t found = 0;
        k.node = mc->mName.data, k.path = "weights";
        gn_result r = gn_sk_morph_targets(c, b, &k, mc, &found);
        if (r != GN_OK) return r;
        skipped += found == 0;
    }
    if (an->mNumMeshChannels)
        gn_sk_log(c, GN_LOG_WARN, "clip '%s': %u mesh replacement channels left out (not supported)", k.clip,
                  an->mNumMeshChannels);
    if (skipped) {
        c->st->channels_skipped += skipped;
        gn_sk_log(c, GN_LOG_WARN, "clip '%s': %u channels name no node or morphed mesh; left out", k.clip,
                  skipped);
    }
    return GN_OK;
}

gn_result gn_sk_assimp_clips(gn_sk_ctx *c)
{
    const struct aiScene *ai = c->ai;
    if (ai->mNumAnimations && !ai->mAnimations) return gn_sk_bad(c, "no animation list");
    if (ai->mNumAnimations > GN_ANIM_MAX_CLIPS)
        return gn_sk_bad(c, "%u animations, more than the cap of %u", ai->mNumAnimations, GN_ANIM_MAX_CLIPS);
    for (uint32_t a = 0; a < ai->mNumAnimations; a++) {
        const struct aiAnimation *an = ai->mAnimations[a];
        if (!an) return gn_sk_bad(c, "animation %u is missing", a);
        gn_sk_clip_build b = {0};
        gn_result r = gn_sk_assimp_clip(c, an, &b);
        if (r != GN_OK) {
            gn_sk_cb_free(&b);
            return r;
        }
        r = gn_sk_cb_finish(c, &b, an->mName.data);
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

/* A glTF file's JSON, buffers and accessors for the animated model loader (skinned_gltf.h).
 * gltf_check.c has parsed and bounded the same file before; its readers are private to the
 * check, so the few this loader needs (base64 data: URIs, the .glb chunks, accessor strides)
 * are here, each range checked again before a byte is read. */
#include "base/alloc.h"
#include "base/error.h"
#include "formats/gltf_check.h"
#include "formats/skinned_gltf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t gn_sk_le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

gn_result gn_sk_json_index(gn_sk_ctx *c, const cJSON *obj, const char *key, int n, const char *what, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = -1;
    if (!v) return GN_OK;
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble >= n ||
        v->valuedouble != floor(v->valuedouble))
        return gn_sk_bad(c, "%s: \"%s\" is not an index of the %d there are", what, key, n);
    *out = (int)v->valuedouble;
    return GN_OK;
}

static gn_result gn_sk_index_array(gn_sk_ctx *c, const cJSON *root, const char *key, gn_sk_jarr *a)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, key), *e;
    a->n = 0;
    if (!arr) return GN_OK;
    if (!cJSON_IsArray(arr)) return gn_sk_bad(c, "\"%s\" is not an array", key);
    int n = cJSON_GetArraySize(arr);
    a->at = gn_malloc((n ? (size_t)n : 1) * sizeof *a->at);
    if (!a->at) return gn_sk_oom(c);
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsObject(e)) return gn_sk_bad(c, "%s[%d] is not an object", key, a->n);
        a->at[a->n++] = e;
    }
    return GN_OK;
}

/* Reads n bytes at offset `at` of the file at path into out. */
static bool gn_sk_read_at(const char *path, uint64_t at, uint8_t *out, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    bool ok = fseek(f, (long)at, SEEK_SET) == 0 && fread(out, 1, n, f) == n;
    fclose(f);
    return ok;
}

gn_result gn_sk_json_open(gn_sk_ctx *c, gn_sk_gltf *g, const gn_sk_gltf_src *src)
{
    g->path = src->path;
    if (src->path) {
        const char *slash = strrchr(src->path, '/');
        snprintf(g->dir, sizeof g->dir, "%.*s", slash ? (int)(slash - src->path + 1) : 0, src->path);
    }
    uint8_t head[20] = {0};
    size_t have = 0;
    uint64_t size = src->size;
    if (src->data)
        memcpy(head, src->data, have = size < 20 ? size : 20);
    else {
        FILE *f = fopen(src->path, "rb");
        if (!f) return gn_fail(c->err, GN_ERROR_IO, "%s: cannot open the file", c->name);
        have = fread(head, 1, sizeof head, f);
        fclose(f);
    }
    uint64_t json_at = 0, json_len = size;
    if (have >= 4 && memcmp(head, "glTF", 4) == 0) {
        if (have < 20) return gn_sk_bad(c, "a .glb header cut off");
        json_at = 20, json_len = gn_sk_le32(head + 12);
        uint64_t at = 20 + ((json_len + 3) & ~3ull);
        if (json_at + json_len > size) return gn_sk_bad(c, "the .glb JSON chunk ends past the file");
        uint8_t bh[8] = {0};
        if (at + 8 <= size) {
            if (src->data)
                memcpy(bh, src->data + at, 8);
            else if (!gn_sk_read_at(src->path, at, bh, 8))
                return gn_fail(c->err, GN_ERROR_IO, "%s: cannot read the .glb BIN chunk's header", c->name);
            g->bin_len = gn_sk_le32(bh);
            if (memcmp(bh + 4, "BIN\0", 4) != 0 || at + 8 + g->bin_len > size)
                return gn_sk_bad(c, "the .glb BIN chunk is not one or ends past the file");
            g->bin_at = at + 8;
            if (src->data) g->bin = src->data + at + 8;
        }
    }
    if (json_len > GN_GLTF_MAX_JSON_BYTES)
        return gn_sk_bad(c, "JSON past the cap of %u bytes", GN_GLTF_MAX_JSON_BYTES);
    char *text = gn_malloc(json_len ? json_len : 1);
    if (!text) return gn_sk_oom(c);
    if (src->data)
        memcpy(text, src->data + json_at, json_len);
    else if (!gn_sk_read_at(src->path, json_at, (uint8_t *)text, json_len)) {
        free(text);
        return gn_fail(c->err, GN_ERROR_IO, "%s: cannot read its JSON", c->name);
    }
    /* gltf_check.c counted the bracket depth of this text against a cap far below cJSON's */
    g->root = cJSON_ParseWithLength(text, json_len);
    free(text);
    if (!cJSON_IsObject(g->root)) return gn_sk_bad(c, "its JSON does not parse as an object");
    gn_result r = gn_sk_index_array(c, g->root, "nodes", &g->nodes);
    if (r == GN_OK) r = gn_sk_index_array(c, g->root, "meshes", &g->meshes);
    if (r == GN_OK) r = gn_sk_index_array(c, g->root, "skins", &g->skins);
    if (r == GN_OK) r = gn_sk_index_array(c, g->root, "accessors", &g->accessors);
    if (r == GN_OK) r = gn_sk_index_array(c, g->root, "bufferViews", &g->views);
    if (r == GN_OK) r = gn_sk_index_array(c, g->root, "buffers", &g->buffers);
    if (r == GN_OK) r = gn_sk_index_array(c, g->root, "animations", &g->animations);
    if (r != GN_OK) return r;
    g->buf = gn_calloc((size_t)g->buffers.n + 1, sizeof *g->buf);
    g->buf_len = gn_calloc((size_t)g->buffers.n + 1, sizeof *g->buf_len);
    return g->buf && g->buf_len ? GN_OK : gn_sk_oom(c);
}

void gn_sk_json_close(gn_sk_gltf *g)
{
    for (int i = 0; g->buf && i < g->buffers.n; i++)
        if (g->buf[i] != g->bin) free(g->buf[i]);
    free(g->buf), free(g->buf_len);
    free(g->nodes.at), free(g->meshes.at), free(g->skins.at), free(g->accessors.at);
    free(g->views.at), free(g->buffers.at), free(g->animations.at);
    cJSON_Delete(g->root);
}

/* ---- buffers ------------------------------------------------------------------------------- */

static int gn_sk_b64(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+' || ch == '-') return 62;
    if (ch == '/' || ch == '_') return 63;
    return -1;
}

/* A relative URI's path next to the file, %XX decoded; false when too long or holding %00. */
static bool gn_sk_uri_path(const gn_sk_gltf *g, const char *uri, char *out, size_t n)
{
    size_t o = (size_t)snprintf(out, n, "%s", g->dir);
    for (const char *p = uri; *p; p++) {
        unsigned v = (unsigned char)*p;
        if (p[0] == '%' && p[1] && p[2] && sscanf(p + 1, "%2x", &v) == 1) p += 2;
        if (v == 0 || o + 1 >= n) return false;
        out[o++] = (char)v;
    }
    out[o] = 0;
    return true;
}

/* Buffer i's byteLength bytes, loaded once. */
static gn_result gn_sk_buffer(gn_sk_ctx *c, gn_sk_gltf *g, int i, const uint8_t **out, uint64_t *len)
{
    if (!g->buf[i]) {
        const cJSON *b = g->buffers.at[i], *uri = cJSON_GetObjectItemCaseSensitive(b, "uri");
        const cJSON *bl = cJSON_GetObjectItemCaseSensitive(b, "byteLength");
        if (!cJSON_IsNumber(bl) || !(bl->valuedouble >= 1) ||
            bl->valuedouble > (double)GN_GLTF_MAX_FILE_BYTES)
            return gn_sk_bad(c, "buffers[%d]: \"byteLength\" missing or out of range", i);
        uint64_t n = (uint64_t)bl->valuedouble;
        if (!uri) {
            if (i != 0 || !g->bin_at || n > g->bin_len)
                return gn_sk_bad(c, "buffers[%d]: no uri and no BIN chunk", i);
            if (g->bin) {
                g->buf[i] = (uint8_t *)g->bin, g->buf_len[i] = n;
            }
        } else if (!cJSON_IsString(uri)) {
            return gn_sk_bad(c, "buffers[%d]: \"uri\" is not a string", i);
        }
        if (!g->buf[i]) {
            uint8_t *d = gn_malloc(n);
            if (!d) return gn_sk_oom(c);
            bool ok = false;
            char path[4096];
            if (!uri) {
                ok = gn_sk_read_at(g->path, g->bin_at, d, n);
            } else if (strncmp(uri->valuestring, "data:", 5) == 0) {
                const char *p = strchr(uri->valuestring, ',');
                uint64_t got = 0;
                uint32_t acc = 0;
                int bits = 0;
                for (p = p ? p + 1 : ""; *p && got < n; p++) {
                    int v = gn_sk_b64((unsigned char)*p);
                    if (v < 0) break;
                    acc = acc << 6 | (uint32_t)v, bits += 6;
                    if (bits >= 8) bits -= 8, d[got++] = (uint8_t)(acc >> bits);
                }
                ok = got == n;
            } else if (g->path && gn_sk_uri_path(g, uri->valuestring, path, sizeof path)) {
                ok = gn_sk_read_at(path, 0, d, n);
            }
            if (!ok) {
                free(d);
                return gn_sk_bad(c, "buffers[%d]: cannot read its %llu bytes", i, (unsigned long long)n);
            }
            g->buf[i] = d, g->buf_len[i] = n;
        }
    }
    *out = g->buf[i], *len = g->buf_len[i];
    return GN_OK;
}

/* ---- accessors ----------------------------------------------------------------------------- */

static double gn_sk_num(const cJSON *obj, const char *key, double def)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : def;
}

static int gn_sk_comps(const char *type)
{
    static const char *const names[] = {"SCALAR", "VEC2", "VEC3", "VEC4"};
    for (int i = 0; i < 4; i++)
        if (strcmp(type, names[i]) == 0) return i + 1;
    return 0; /* matrices: none read here */
}

static int gn_sk_comp_bytes(int type)
{
    switch (type) {
    case 5120:
    case 5121:
        return 1;
    case 5122:
    case 5123:
        return 2;
    case 5125:
    case 5126:
        return 4;
    default:
        return 0;
    }
}

/* One component as a float: integers as they are, or normalised (glTF 2.0 3.11's formulas). */
static float gn_sk_comp(const uint8_t *p, int type, bool norm)
{
    switch (type) {
    case 5120:
        return norm ? fmaxf((float)(int8_t)p[0] / 127.0f, -1.0f) : (float)(int8_t)p[0];
    case 5121:
        return norm ? (float)p[0] / 255.0f : (float)p[0];
    case 5122: {
        int16_t v = (int16_t)(p[0] | p[1] << 8);
        return norm ? fmaxf((float)v / 32767.0f, -1.0f) : (float)v;
    }
    case 5123: {
        uint16_t v = (uint16_t)(p[0] | p[1] << 8);
        return norm ? (float)v / 65535.0f : (float)v;
    }
    case 5125:
        return (float)gn_sk_le32(p);
    default: {
        float f;
        memcpy(&f, p, sizeof f);
        return f;
    }
    }
}

void gn_sk_accessor_shape(const gn_sk_gltf *g, int a, uint32_t *count, int *comps, int *ctype)
{
    const cJSON *acc = g->accessors.at[a], *type = cJSON_GetObjectItemCaseSensitive(acc, "type");
    double n = gn_sk_num(acc, "count", 0);
    *count = n >= 0 && n <= GN_GLTF_MAX_ACCESSOR_COUNT ? (uint32_t)n : 0;
    *comps = !cJSON_IsString(type)                    ? 0
             : strcmp(type->valuestring, "MAT4") == 0 ? 16
                                                      : gn_sk_comps(type->valuestring);
    *ctype = gn_sk_accessor_type(g, a);
}

int gn_sk_accessor_type(const gn_sk_gltf *g, int a)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(g->accessors.at[a], "componentType");
    return cJSON_IsNumber(t) ? (int)t->valuedouble : 0;
}

/* n elements of `elem` bytes, `stride` apart, at byte `off` of bufferViews[view]: the bytes'
 * start in *p once bounded by the view and its buffer. */
static gn_result gn_sk_view_range(gn_sk_ctx *c, gn_sk_gltf *g, int view, double off, uint32_t n,
                                  uint32_t elem, uint32_t stride, const char *what, const uint8_t **p)
{
    const cJSON *v = g->views.at[view];
    int buf;
    gn_result r = gn_sk_json_index(c, v, "buffer", g->buffers.n, what, &buf);
    if (r != GN_OK) return r;
    if (buf < 0) return gn_sk_bad(c, "%s: bufferViews[%d] names no buffer", what, view);
    double voff = gn_sk_num(v, "byteOffset", 0), vlen = gn_sk_num(v, "byteLength", 0);
    double end = off + (double)stride * (n - 1) + elem;
    const uint8_t *data;
    uint64_t len;
    r = gn_sk_buffer(c, g, buf, &data, &len);
    if (r != GN_OK) return r;
    if (!(off >= 0 && voff >= 0 && end <= vlen && voff + vlen <= (double)len))
        return gn_sk_bad(c, "%s: bytes %.0f..%.0f of bufferViews[%d] (%.0f bytes) are past its end", what,
                         off, end, view, vlen);
    *p = data + (size_t)voff + (size_t)off;
    return GN_OK;
}

gn_result gn_sk_accessor(gn_sk_ctx *c, gn_sk_gltf *g, int a, int want_comps, bool norm, const char *what,
                         float **out, uint32_t *count, uint32_t *comps)
{
    *out = NULL;
    if (a < 0 || a >= g->accessors.n) return gn_sk_bad(c, "%s: no accessor", what);
    const cJSON *acc = g->accessors.at[a], *type = cJSON_GetObjectItemCaseSensitive(acc, "type");
    int ctype = gn_sk_accessor_type(g, a), cb = gn_sk_comp_bytes(ctype);
    int nc = cJSON_IsString(type) ? gn_sk_comps(type->valuestring) : 0;
    double n = gn_sk_num(acc, "count", 0);
    if (!cb || !nc) return gn_sk_bad(c, "%s: accessors[%d] is no scalar or vector of glTF's types", what, a);
    if (want_comps && nc != want_comps)
        return gn_sk_bad(c, "%s: accessors[%d] has %d components a value, not %d", what, a, nc, want_comps);
    if (!(n >= 1 && n <= GN_GLTF_MAX_ACCESSOR_COUNT))
        return gn_sk_bad(c, "%s: accessors[%d] holds %.0f values", what, a, n);
    bool normalized = norm || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(acc, "normalized"));
    uint32_t cnt = (uint32_t)n, elem = (uint32_t)(nc * cb);
    float *v = gn_calloc((size_t)cnt * nc, sizeof *v);
    if (!v) return gn_sk_oom(c);
    int view;
    gn_result r = gn_sk_json_index(c, acc, "bufferView", g->views.n, what, &view);
    if (r == GN_OK && view >= 0) { /* without a view the values start at zero */
        double stride = gn_sk_num(g->views.at[view], "byteStride", 0);
        uint32_t st = stride >= elem && stride <= 252 ? (uint32_t)stride : elem;
        const uint8_t *p;
        r = gn_sk_view_range(c, g, view, gn_sk_num(acc, "byteOffset", 0), cnt, elem, st, what, &p);
        for (uint32_t i = 0; r == GN_OK && i < cnt; i++)
            for (int k = 0; k < nc; k++)
                v[(size_t)i * nc + k] = gn_sk_comp(p + (size_t)i * st + k * cb, ctype, normalized);
    }
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(acc, "sparse");
    if (r == GN_OK && sp) {
        const cJSON *ix = cJSON_GetObjectItemCaseSensitive(sp, "indices");
        const cJSON *vx = cJSON_GetObjectItemCaseSensitive(sp, "values");
        double sn = gn_sk_num(sp, "count", 0);
        int iview = -1, vview = -1, itype = (int)gn_sk_num(ix, "componentType", 0),
            ib = gn_sk_comp_bytes(itype);
        if (!(sn >= 1 && sn <= n) || !cJSON_IsObject(ix) || !cJSON_IsObject(vx) || !ib || itype == 5126)
            r = gn_sk_bad(c, "%s: accessors[%d].sparse is malformed", what, a);
        if (r == GN_OK) r = gn_sk_json_index(c, ix, "bufferView", g->views.n, what, &iview);
        if (r == GN_OK) r = gn_sk_json_index(c, vx, "bufferView", g->views.n, what, &vview);
        if (r == GN_OK && (iview < 0 || vview < 0))
            r = gn_sk_bad(c, "%s: accessors[%d].sparse names no view", what, a);
        const uint8_t *ip = NULL, *vp = NULL;
        uint32_t s = (uint32_t)sn;
        if (r == GN_OK)
            r = gn_sk_view_range(c, g, iview, gn_sk_num(ix, "byteOffset", 0), s, (uint32_t)ib, (uint32_t)ib,
                                 what, &ip);
        if (r == GN_OK)
            r = gn_sk_view_range(c, g, vview, gn_sk_num(vx, "byteOffset", 0), s, (uint32_t)(nc * cb),
                                 (uint32_t)(nc * cb), what, &vp);
        for (uint32_t i = 0; r == GN_OK && i < s; i++) {
            float at = gn_sk_comp(ip + (size_t)i * ib, itype, false);
            if (!(at >= 0 && at < (float)cnt)) {
                r = gn_sk_bad(c, "%s: accessors[%d].sparse index %u is %.0f, past its %u values", what, a, i,
                              (double)at, cnt);
                break;
            }
            for (int k = 0; k < nc; k++)
                v[(size_t)at * nc + k] = gn_sk_comp(vp + ((size_t)i * nc + k) * cb, ctype, normalized);
        }
    }
    if (r != GN_OK) {
        free(v);
        return r;
    }
    *out = v, *count = cnt;
    if (comps) *comps = (uint32_t)nc;
    return GN_OK;
}

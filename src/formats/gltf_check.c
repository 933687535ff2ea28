/* glTF validation before assimp (gltf_check.h). The JSON is parsed with cJSON (Debian's
 * libcjson-dev): it is C, small, packaged, and refuses nesting past CJSON_NESTING_LIMIT (1000)
 * instead of recursing without bound as assimp's rapidjson does. Its parser still recurses up
 * to that limit, so the text's bracket depth is counted first, in a loop, against a far lower
 * cap. Arrays of the file are indexed once (cJSON_GetArrayItem walks a list), and the node
 * graph is walked through a parent array, never recursively. */
#include "formats/gltf_check.h"

#include "base/alloc.h"
#include "base/error.h"
#include "base/file.h"
#include "base/json_depth.h"
#include "formats/gltf.h"
#include "formats/gltf_ext.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stb_image.h>

_Static_assert(GN_GLTF_MAX_JSON_DEPTH < CJSON_NESTING_LIMIT,
               "cJSON must never see deeper JSON than it allows");

/* One of the file's top-level arrays, indexed. */
typedef struct gn_jarr {
    const cJSON **at;
    int n;
} gn_jarr;

enum {
    GN_ARR_BUFFERS,
    GN_ARR_VIEWS,
    GN_ARR_ACCESSORS,
    GN_ARR_MESHES,
    GN_ARR_NODES,
    GN_ARR_SCENES,
    GN_ARR_MATERIALS,
    GN_ARR_TEXTURES,
    GN_ARR_IMAGES,
    GN_ARR_SAMPLERS,
    GN_ARR_CAMERAS,
    GN_ARR_SKINS,
    GN_ARR_ANIMATIONS,
    GN_ARR_LIGHTS, /* not top-level: extensions.KHR_lights_punctual.lights */
    GN_ARR_COUNT
};
static const char *const gn_arr_names[GN_ARR_COUNT] = {
    "buffers",  "bufferViews", "accessors", "meshes",  "nodes", "scenes",     "materials",
    "textures", "images",      "samplers",  "cameras", "skins", "animations", "KHR_lights_punctual.lights"};

typedef struct gn_check {
    const char *name;     /* labels messages */
    const char *base_dir; /* relative URIs; NULL: embedded data only */
    gn_error *err;
    long long bin_len; /* a .glb's BIN chunk; -1: none */
    /* Where the BIN chunk's bytes are: in memory (gn_gltf_check_memory), or at bin_at in the
     * file glb_path (gn_gltf_check), read only when an index buffer needs checking. */
    const unsigned char *bin;
    const char *glb_path;
    unsigned long long bin_at;
    unsigned char **buffer_bytes; /* each buffer's bytes once loaded (owned unless the BIN in memory) */
    gn_jarr arr[GN_ARR_COUNT];
    double *buffer_len, *view_len, *view_stride; /* stride 0: tightly packed */
    int *parent;                                 /* each node's, filled by gn_set_parent; -1: a root */
    int *light_refs;                             /* nodes that place each light */
    const cJSON *lights_owner;                   /* extensions.KHR_lights_punctual, or NULL */
    gn_gltf_check_info *info;                    /* optional: what the loader should warn about */
} gn_check;

/* Refuses the file: "NAME: " and the formatted fault. */
static gn_result __attribute__((format(printf, 2, 3))) gn_bad(gn_check *c, const char *fmt, ...)
{
    char what[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: %s", c->name, what);
}

/* Counts bracket nesting outside strings, in one pass: 200,000 nested arrays cost a loop. */
static gn_result gn_json_depth(gn_check *c, const char *s, size_t n)
{
    size_t at;
    if (gn_json_too_deep(s, n, GN_GLTF_MAX_JSON_DEPTH, &at))
        return gn_bad(c, "JSON nested deeper than %u levels at byte %zu", GN_GLTF_MAX_JSON_DEPTH, at);
    return GN_OK;
}

/* A JSON number that is an integer of at most 2^53; false for anything else. */
static bool gn_json_int(const cJSON *v, double *out)
{
    if (!cJSON_IsNumber(v)) return false;
    double d = v->valuedouble;
    if (!(fabs(d) <= 9007199254740992.0) || floor(d) != d) return false;
    *out = d;
    return true;
}

/* obj[key]: absent gives def; else an integer in [lo, hi]. what names obj in messages. */
static gn_result gn_get_int(gn_check *c, const cJSON *obj, const char *key, double def, double lo, double hi,
                            const char *what, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = def;
    if (!v) return GN_OK;
    if (!gn_json_int(v, out)) return gn_bad(c, "%s: \"%s\" is not an integer", what, key);
    if (*out < lo || *out > hi)
        return gn_bad(c, "%s: \"%s\" %.0f is outside [%.0f, %.0f]", what, key, *out, lo, hi);
    return GN_OK;
}

/* obj[key] as an index into the file's array a: -1 when absent and not required. */
static gn_result gn_get_index(gn_check *c, const cJSON *obj, const char *key, int a, bool required,
                              const char *what, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = -1;
    if (!v) return required ? gn_bad(c, "%s: no \"%s\"", what, key) : GN_OK;
    double d;
    if (!gn_json_int(v, &d)) return gn_bad(c, "%s: \"%s\" is not an integer", what, key);
    if (d < 0 || d >= c->arr[a].n)
        return gn_bad(c, "%s: \"%s\" %.0f is not one of the file's %d %s", what, key, d, c->arr[a].n,
                      gn_arr_names[a]);
    *out = (int)d;
    return GN_OK;
}

/* Indexes the top-level arrays; each must be an array of objects. */
static gn_result gn_index_arrays(gn_check *c, const cJSON *root)
{
    for (int a = 0; a < GN_ARR_COUNT; a++) {
        const cJSON *v =
            a == GN_ARR_LIGHTS
                ? (c->lights_owner ? cJSON_GetObjectItemCaseSensitive(c->lights_owner, "lights") : NULL)
                : cJSON_GetObjectItemCaseSensitive(root, gn_arr_names[a]);
        if (!v) continue;
        if (!cJSON_IsArray(v)) return gn_bad(c, "\"%s\" is not an array", gn_arr_names[a]);
        int n = cJSON_GetArraySize(v);
        if (a == GN_ARR_LIGHTS && n > (int)GN_GLTF_MAX_LIGHTS)
            return gn_bad(c,
                          "%d KHR_lights_punctual lights, more than the cap of %u (a scene's GN_MAX_LIGHTS)",
                          n, GN_GLTF_MAX_LIGHTS);
        c->arr[a].at = gn_calloc(n ? (size_t)n : 1, sizeof *c->arr[a].at);
        if (!c->arr[a].at) return gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
        const cJSON *e;
        int i = 0;
        cJSON_ArrayForEach(e, v)
        {
            if (!cJSON_IsObject(e)) return gn_bad(c, "%s[%d] is not an object", gn_arr_names[a], i);
            c->arr[a].at[i++] = e;
        }
        c->arr[a].n = i;
    }
    return GN_OK;
}

/* Calls check for every object of the file's array a, with its name ("accessors[3]"). */
static gn_result gn_check_each(gn_check *c, int a,
                               gn_result (*check)(gn_check *c, int i, const cJSON *obj, const char *what))
{
    for (int i = 0; i < c->arr[a].n; i++) {
        char what[48];
        snprintf(what, sizeof what, "%s[%d]", gn_arr_names[a], i);
        gn_result r = check(c, i, c->arr[a].at[i], what);
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

/* A relative URI as a path: base_dir + the URI with %XX decoded. */
static bool gn_uri_path(const gn_check *c, const char *uri, char *out, size_t n)
{
    size_t len = (size_t)snprintf(out, n, "%s%s", c->base_dir, c->base_dir[0] ? "/" : "");
    for (const char *p = uri; *p; p++) {
        char ch = *p;
        unsigned hex;
        if (ch == '%' && p[1] && p[2] && sscanf(p + 1, "%2x", &hex) == 1) ch = (char)hex, p += 2;
        if (len + 1 >= n || ch == 0) return false;
        out[len++] = ch;
    }
    out[len] = 0;
    return true;
}

/* The bytes a base64 data: URI holds; -1 when it is not base64. */
static long long gn_data_uri_bytes(const char *uri)
{
    const char *comma = strchr(uri, ',');
    if (!comma || comma - uri < 7 || memcmp(comma - 7, ";base64", 7) != 0) return -1;
    size_t n = strlen(comma + 1);
    while (n > 0 && comma[n] == '=') n--;
    return (long long)(n * 3 / 4);
}

static gn_result gn_check_buffer(gn_check *c, int i, const cJSON *b, const char *what)
{
    char path[4096];
    double len;
    if (!cJSON_GetObjectItemCaseSensitive(b, "byteLength")) return gn_bad(c, "%s: no \"byteLength\"", what);
    gn_result r = gn_get_int(c, b, "byteLength", 0, 1, (double)GN_GLTF_MAX_FILE_BYTES, what, &len);
    if (r != GN_OK) return r;
    c->buffer_len[i] = len;
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(b, "uri");
    if (!uri) {
        if (i != 0 || c->bin_len < 0) return gn_bad(c, "%s: no \"uri\" and no .glb binary chunk", what);
        if (len > (double)c->bin_len)
            return gn_bad(c, "%s: %.0f bytes, the .glb binary chunk has %lld", what, len, c->bin_len);
        return GN_OK;
    }
    if (!cJSON_IsString(uri)) return gn_bad(c, "%s: \"uri\" is not a string", what);
    const char *u = uri->valuestring;
    if (strncmp(u, "data:", 5) == 0) {
        long long have = gn_data_uri_bytes(u);
        if (have < 0) return gn_bad(c, "%s: a data: URI that is not base64", what);
        if (len > (double)have) return gn_bad(c, "%s: %.0f bytes, its data: URI holds %lld", what, len, have);
        return GN_OK;
    }
    if (!c->base_dir) return gn_bad(c, "%s: an external file, and no folder to read it from", what);
    if (!gn_uri_path(c, u, path, sizeof path))
        return gn_bad(c, "%s: \"uri\" is too long or holds %%00", what);
    struct stat st;
    if (stat(path, &st) != 0) return gn_bad(c, "%s: %s does not exist", what, path);
    if (!S_ISREG(st.st_mode)) return gn_bad(c, "%s: %s is not a regular file", what, path);
    if (len > (double)st.st_size)
        return gn_bad(c, "%s: %.0f bytes, %s has %lld", what, len, path, (long long)st.st_size);
    return GN_OK;
}

static gn_result gn_check_view(gn_check *c, int i, const cJSON *v, const char *what)
{
    int buf;
    double off, len, stride;
    gn_result r = gn_get_index(c, v, "buffer", GN_ARR_BUFFERS, true, what, &buf);
    if (r == GN_OK && !cJSON_GetObjectItemCaseSensitive(v, "byteLength"))
        r = gn_bad(c, "%s: no \"byteLength\"", what);
    if (r == GN_OK) r = gn_get_int(c, v, "byteOffset", 0, 0, (double)GN_GLTF_MAX_FILE_BYTES, what, &off);
    if (r == GN_OK) r = gn_get_int(c, v, "byteLength", 0, 1, (double)GN_GLTF_MAX_FILE_BYTES, what, &len);
    /* glTF 2.0 5.11: byteStride 4..252, a multiple of 4 (vertex attributes) */
    if (r == GN_OK) r = gn_get_int(c, v, "byteStride", 0, 4, 252, what, &stride);
    if (r != GN_OK) return r;
    if (fmod(stride, 4) != 0)
        return gn_bad(c, "%s: \"byteStride\" %.0f is not a multiple of 4", what, stride);
    if (off + len > c->buffer_len[buf])
        return gn_bad(c, "%s: bytes %.0f..%.0f, past the end of buffers[%d] (%.0f bytes)", what, off,
                      off + len, buf, c->buffer_len[buf]);
    c->view_len[i] = len, c->view_stride[i] = stride;
    return GN_OK;
}

/* Components of an accessor type; 0 for an unknown one. */
static int gn_type_components(const char *t)
{
    static const struct {
        const char *name;
        int n;
    } types[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4},
                 {"MAT2", 4},   {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(t, types[i].name) == 0) return types[i].n;
    return 0;
}

/* Bytes of one component type; 0 for an unknown one. unsigned_int: the index types. */
static int gn_component_bytes(double type, bool unsigned_int)
{
    if (type == 5121 || type == 5123 || type == 5125) return type == 5121 ? 1 : type == 5123 ? 2 : 4;
    if (unsigned_int) return 0;
    return type == 5120 ? 1 : type == 5122 ? 2 : type == 5126 ? 4 : 0;
}

/* One element's bytes; matrix columns start on 4-byte boundaries (glTF 2.0 3.6.2.4). */
static double gn_element_bytes(int components, int bytes)
{
    if (components == 4 && bytes == 1) return 4; /* VEC4 or MAT2 of bytes */
    if (components == 9 && bytes < 4) return 12 * bytes;
    return (double)components * bytes;
}

/* A range of bytes in bufferViews[view], starting at off: n elements stride apart. */
static gn_result gn_check_range(gn_check *c, const char *what, int view, double off, double n, double elem,
                                double stride)
{
    double end = off + stride * (n - 1) + elem;
    if (end > c->view_len[view])
        return gn_bad(c, "%s: reads bytes %.0f..%.0f of bufferViews[%d], which has %.0f", what, off, end,
                      view, c->view_len[view]);
    return GN_OK;
}

static gn_result gn_check_sparse(gn_check *c, const cJSON *sp, const char *what, double count, double elem)
{
    char part[96];
    snprintf(part, sizeof part, "%s.sparse", what);
    if (!cJSON_IsObject(sp)) return gn_bad(c, "%s is not an object", part);
    double n, off, type;
    if (!cJSON_GetObjectItemCaseSensitive(sp, "count")) return gn_bad(c, "%s: no \"count\"", part);
    gn_result r = gn_get_int(c, sp, "count", 0, 1, count, part, &n);
    if (r != GN_OK) return r;
    static const char *const keys[2] = {"indices", "values"};
    for (int k = 0; k < 2; k++) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(sp, keys[k]);
        if (!p) return gn_bad(c, "%s: no \"%s\"", part, keys[k]);
        char pw[128];
        snprintf(pw, sizeof pw, "%s.%s", part, keys[k]);
        if (!cJSON_IsObject(p)) return gn_bad(c, "%s is not an object", pw);
        int view;
        r = gn_get_index(c, p, "bufferView", GN_ARR_VIEWS, true, pw, &view);
        if (r == GN_OK) r = gn_get_int(c, p, "byteOffset", 0, 0, (double)GN_GLTF_MAX_FILE_BYTES, pw, &off);
        if (r != GN_OK) return r;
        double e = elem;
        if (k == 0) {
            if (!cJSON_GetObjectItemCaseSensitive(p, "componentType"))
                return gn_bad(c, "%s: no \"componentType\"", pw);
            if (!gn_json_int(cJSON_GetObjectItemCaseSensitive(p, "componentType"), &type) ||
                !(e = gn_component_bytes(type, true)))
                return gn_bad(c, "%s: \"componentType\" is not UNSIGNED_BYTE, _SHORT or _INT", pw);
        }
        r = gn_check_range(c, pw, view, off, n, e, e);
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

static gn_result gn_check_accessor(gn_check *c, int i, const cJSON *a, const char *what)
{
    (void)i;
    int view, comps, bytes;
    double ctype, count, off;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(a, "type");
    if (!gn_json_int(cJSON_GetObjectItemCaseSensitive(a, "componentType"), &ctype) ||
        !(bytes = gn_component_bytes(ctype, false)))
        return gn_bad(c, "%s: \"componentType\" missing or not one of glTF's six", what);
    if (!cJSON_IsString(type) || !(comps = gn_type_components(type->valuestring)))
        return gn_bad(c, "%s: \"type\" missing or not SCALAR, VECn or MATn", what);
    if (!cJSON_GetObjectItemCaseSensitive(a, "count")) return gn_bad(c, "%s: no \"count\"", what);
    gn_result r = gn_get_int(c, a, "count", 0, 1, GN_GLTF_MAX_ACCESSOR_COUNT, what, &count);
    if (r == GN_OK) r = gn_get_int(c, a, "byteOffset", 0, 0, (double)GN_GLTF_MAX_FILE_BYTES, what, &off);
    if (r == GN_OK) r = gn_get_index(c, a, "bufferView", GN_ARR_VIEWS, false, what, &view);
    if (r != GN_OK) return r;
    double elem = gn_element_bytes(comps, bytes);
    if (count * elem > (double)GN_GLTF_MAX_ACCESSOR_BYTES)
        return gn_bad(c, "%s: %.0f elements of %.0f bytes, more than the cap of %llu bytes", what, count,
                      elem, GN_GLTF_MAX_ACCESSOR_BYTES);
    if (view >= 0) {
        double stride = c->view_stride[view] ? c->view_stride[view] : elem;
        r = gn_check_range(c, what, view, off, count, elem, stride);
    }
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(a, "sparse");
    if (r == GN_OK && sp) r = gn_check_sparse(c, sp, what, count, elem);
    if (r != GN_OK) return r;
    return GN_OK;
}

/* Every value of obj (an object: attributes, a morph target) an accessor index. */
static gn_result gn_check_attributes(gn_check *c, const cJSON *obj, const char *what)
{
    if (!cJSON_IsObject(obj)) return gn_bad(c, "%s is not an object", what);
    const cJSON *e;
    cJSON_ArrayForEach(e, obj)
    {
        int a;
        gn_result r = gn_get_index(c, obj, e->string, GN_ARR_ACCESSORS, true, what, &a);
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

static uint32_t gn_le32(const unsigned char *p);

static int gn_base64_value(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+' || ch == '-') return 62;
    if (ch == '/' || ch == '_') return 63;
    return -1;
}

/* Decodes up to n bytes of a base64 data: URI into out; the bytes decoded. */
static size_t gn_base64_decode(const char *uri, unsigned char *out, size_t n)
{
    const char *p = strchr(uri, ',');
    size_t got = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (p = p ? p + 1 : uri + strlen(uri); *p && got < n; p++) {
        int v = gn_base64_value((unsigned char)*p);
        if (v < 0) break; /* '=' padding or the end */
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[got++] = (unsigned char)(acc >> bits);
        }
    }
    return got;
}

/* Buffer i's first byteLength bytes (checked against their source by gn_check_buffer), loaded
 * once: the .glb's BIN chunk, a data: URI decoded, or an external file read. NULL with the
 * error set when they cannot be had. */
static const unsigned char *gn_buffer_data(gn_check *c, int i)
{
    if (c->buffer_bytes[i]) return c->buffer_bytes[i];
    const cJSON *b = c->arr[GN_ARR_BUFFERS].at[i], *uri = cJSON_GetObjectItemCaseSensitive(b, "uri");
    size_t len = (size_t)c->buffer_len[i];
    if (!uri && c->bin) return c->bin; /* gn_check_buffer: only buffer 0, within the chunk */
    unsigned char *data = gn_malloc(len ? len : 1);
    if (!data) {
        gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for buffers[%d] (%zu bytes)", c->name, i,
                len);
        return NULL;
    }
    char path[4096];
    const char *from = NULL;
    if (!uri) {
        from = c->glb_path;
    } else if (strncmp(uri->valuestring, "data:", 5) == 0) {
        if (gn_base64_decode(uri->valuestring, data, len) != len) {
            free(data);
            gn_bad(c, "buffers[%d]: its data: URI decodes to fewer than %zu bytes", i, len);
            return NULL;
        }
    } else if (gn_uri_path(c, uri->valuestring, path, sizeof path)) {
        from = path;
    }
    if (from) {
        FILE *f = fopen(from, "rb");
        bool ok =
            f && fseek(f, uri ? 0L : (long)(c->bin_at + 8), SEEK_SET) == 0 && fread(data, 1, len, f) == len;
        if (f) fclose(f);
        if (!ok) {
            free(data);
            gn_fail(c->err, GN_ERROR_IO, "%s: buffers[%d]: cannot read %zu bytes of %s", c->name, i, len,
                    from);
            return NULL;
        }
    }
    c->buffer_bytes[i] = data;
    return data;
}

/* Every index of a primitive against its vertex count. assimp 5.2 checks triangles' indices
 * but not those of points and lines: an index past the vertices of a LINE_LOOP crashed it
 * (found by fuzz_gltf). Sparse index accessors are refused rather than patched here. */
static gn_result gn_check_index_values(gn_check *c, int idx, const cJSON *attrs, const char *what)
{
    const cJSON *pos = cJSON_GetObjectItemCaseSensitive(attrs, "POSITION");
    double pi = 0, vertices = 0, count = 0, type = 0, acc_off = 0, view_off = 0, view = 0, buffer = 0;
    if (!pos || !gn_json_int(pos, &pi)) return GN_OK; /* no positions: nothing is drawn */
    gn_json_int(cJSON_GetObjectItemCaseSensitive(c->arr[GN_ARR_ACCESSORS].at[(int)pi], "count"), &vertices);
    const cJSON *ia = c->arr[GN_ARR_ACCESSORS].at[idx];
    if (cJSON_GetObjectItemCaseSensitive(ia, "sparse"))
        return gn_bad(c, "%s: indices accessors[%d] is sparse (not supported for indices)", what, idx);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(ia, "bufferView");
    if (!v || !gn_json_int(v, &view)) return GN_OK; /* all zeros */
    gn_json_int(cJSON_GetObjectItemCaseSensitive(ia, "count"), &count);
    gn_json_int(cJSON_GetObjectItemCaseSensitive(ia, "componentType"), &type);
    const cJSON *ao = cJSON_GetObjectItemCaseSensitive(ia, "byteOffset");
    if (ao) gn_json_int(ao, &acc_off);
    const cJSON *bv = c->arr[GN_ARR_VIEWS].at[(int)view];
    gn_json_int(cJSON_GetObjectItemCaseSensitive(bv, "buffer"), &buffer);
    const cJSON *vo = cJSON_GetObjectItemCaseSensitive(bv, "byteOffset");
    if (vo) gn_json_int(vo, &view_off);
    const unsigned char *data = gn_buffer_data(c, (int)buffer);
    if (!data) return c->err ? c->err->code : GN_ERROR_BAD_DATA;
    /* gn_check_accessor has held the accessor within its view and the view within its buffer */
    const unsigned char *p = data + (size_t)view_off + (size_t)acc_off;
    int bytes = gn_component_bytes(type, true);
    size_t stride = c->view_stride[(int)view] > 0 ? (size_t)c->view_stride[(int)view] : (size_t)bytes;
    for (size_t k = 0; k < (size_t)count; k++, p += stride) {
        uint32_t value = bytes == 1 ? p[0] : bytes == 2 ? (uint32_t)(p[0] | p[1] << 8) : gn_le32(p);
        if ((double)value >= vertices)
            return gn_bad(
                c, "%s: index %u (element %zu of accessors[%d]) is past the %.0f vertices of accessors[%.0f]",
                what, value, k, idx, vertices, pi);
    }
    return GN_OK;
}

static gn_result gn_check_meshes(gn_check *c)
{
    for (int i = 0; i < c->arr[GN_ARR_MESHES].n; i++) {
        const cJSON *prims = cJSON_GetObjectItemCaseSensitive(c->arr[GN_ARR_MESHES].at[i], "primitives");
        if (!cJSON_IsArray(prims) || cJSON_GetArraySize(prims) < 1)
            return gn_bad(c, "meshes[%d]: \"primitives\" missing or empty", i);
        const cJSON *p;
        int k = 0;
        cJSON_ArrayForEach(p, prims)
        {
            char what[64], sub[96];
            snprintf(what, sizeof what, "meshes[%d].primitives[%d]", i, k++);
            if (!cJSON_IsObject(p)) return gn_bad(c, "%s is not an object", what);
            snprintf(sub, sizeof sub, "%s.attributes", what);
            const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(p, "attributes");
            if (!attrs) return gn_bad(c, "%s: no \"attributes\"", what);
            gn_result r = gn_check_attributes(c, attrs, sub);
            int idx, mat;
            double mode;
            if (r == GN_OK) r = gn_get_index(c, p, "indices", GN_ARR_ACCESSORS, false, what, &idx);
            if (r == GN_OK) r = gn_get_index(c, p, "material", GN_ARR_MATERIALS, false, what, &mat);
            if (r == GN_OK) r = gn_get_int(c, p, "mode", 4, 0, 6, what, &mode);
            if (r != GN_OK) return r;
            /* assimp 5.2 sizes a primitive's faces from its element count without checking it:
             * a TRIANGLE_STRIP with no POSITION (0 vertices, 0 - 2 faces) asked for 64 GB
             * (found by fuzz_gltf). So: positions are required (nothing is drawn without them),
             * and each mode gets the elements its first face needs. */
            const cJSON *pos = cJSON_GetObjectItemCaseSensitive(attrs, "POSITION");
            if (!pos) return gn_bad(c, "%s: no POSITION attribute", what);
            static const int min_elements[7] = {1, 2, 2, 2, 3, 3, 3};
            double elements = 0, pi = 0;
            gn_json_int(pos, &pi);
            gn_json_int(cJSON_GetObjectItemCaseSensitive(
                            c->arr[GN_ARR_ACCESSORS].at[idx >= 0 ? idx : (int)pi], "count"),
                        &elements);
            if (elements < min_elements[(int)mode])
                return gn_bad(c, "%s: %.0f %s for mode %.0f, which needs at least %d", what, elements,
                              idx >= 0 ? "indices" : "vertices", mode, min_elements[(int)mode]);
            if (idx >= 0) {
                const cJSON *ia = c->arr[GN_ARR_ACCESSORS].at[idx];
                double t = 0;
                gn_json_int(cJSON_GetObjectItemCaseSensitive(ia, "componentType"), &t);
                if (strcmp(cJSON_GetObjectItemCaseSensitive(ia, "type")->valuestring, "SCALAR") != 0 ||
                    !gn_component_bytes(t, true))
                    return gn_bad(c, "%s: indices accessors[%d] is not SCALAR UNSIGNED_BYTE, _SHORT or _INT",
                                  what, idx);
                if ((r = gn_check_index_values(c, idx, attrs, what)) != GN_OK) return r;
            }
            const cJSON *targets = cJSON_GetObjectItemCaseSensitive(p, "targets"), *t;
            if (targets && !cJSON_IsArray(targets)) return gn_bad(c, "%s: \"targets\" is not an array", what);
            int j = 0;
            cJSON_ArrayForEach(t, targets)
            {
                snprintf(sub, sizeof sub, "%s.targets[%d]", what, j++);
                if ((r = gn_check_attributes(c, t, sub)) != GN_OK) return r;
            }
        }
    }
    return GN_OK;
}

/* An array of indices into the file's array a (a node's children, a scene's nodes, a skin's
 * joints); calls each for every one with its value. */
static gn_result gn_check_index_list(gn_check *c, const cJSON *obj, const char *key, int a, const char *what,
                                     gn_result (*each)(gn_check *c, int owner, int value, const char *what),
                                     int owner)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(obj, key), *e;
    if (!list) return GN_OK;
    if (!cJSON_IsArray(list)) return gn_bad(c, "%s: \"%s\" is not an array", what, key);
    int k = 0;
    cJSON_ArrayForEach(e, list)
    {
        double d;
        if (!gn_json_int(e, &d) || d < 0 || d >= c->arr[a].n)
            return gn_bad(c, "%s: \"%s\"[%d] is not one of the file's %d %s", what, key, k, c->arr[a].n,
                          gn_arr_names[a]);
        k++;
        gn_result r = each ? each(c, owner, (int)d, what) : GN_OK;
        if (r != GN_OK) return r;
    }
    return GN_OK;
}

static gn_result gn_set_parent(gn_check *c, int owner, int child, const char *what)
{
    if (c->parent[child] >= 0)
        return gn_bad(c, "%s: child nodes[%d] already has a parent, nodes[%d]", what, child,
                      c->parent[child]);
    c->parent[child] = owner;
    return GN_OK;
}

static gn_result gn_scene_root(gn_check *c, int owner, int node, const char *what)
{
    (void)owner;
    if (c->parent[node] >= 0)
        return gn_bad(c, "%s: nodes[%d] is a child of nodes[%d], not a root", what, node, c->parent[node]);
    return GN_OK;
}

/* Depth and cycles through the parent array: each node walks up until a node of known depth,
 * remembering the path in an explicit stack, then fills it in. Linear in the node count. */
static gn_result gn_check_node_depth(gn_check *c, int n)
{
    int *depth = gn_malloc((size_t)n * sizeof *depth), *walk = gn_malloc((size_t)n * sizeof *walk);
    int *path = gn_malloc((size_t)n * sizeof *path);
    gn_result r =
        depth && walk && path ? GN_OK : gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
    for (int i = 0; i < n && r == GN_OK; i++) depth[i] = -1, walk[i] = -1;
    for (int i = 0; i < n && r == GN_OK; i++) {
        int len = 0, j = i;
        while (j >= 0 && depth[j] < 0 && walk[j] != i) walk[j] = i, path[len++] = j, j = c->parent[j];
        if (j >= 0 && depth[j] < 0) {
            r = gn_bad(c, "nodes[%d]: a cycle in the node tree (nodes[%d] is its own ancestor)", i, j);
            break;
        }
        int d = j < 0 ? 0 : depth[j] + 1;
        for (int k = len - 1; k >= 0; k--, d++) {
            if (d > (int)GN_GLTF_MAX_NODE_DEPTH) {
                r = gn_bad(c, "nodes[%d]: nested deeper than %u levels", path[k], GN_GLTF_MAX_NODE_DEPTH);
                break;
            }
            depth[path[k]] = d;
        }
    }
    free(depth), free(walk), free(path);
    return r;
}

static gn_result gn_check_node(gn_check *c, int i, const cJSON *node, const char *what)
{
    int ref;
    gn_result r = gn_check_index_list(c, node, "children", GN_ARR_NODES, what, gn_set_parent, i);
    if (r == GN_OK) r = gn_get_index(c, node, "mesh", GN_ARR_MESHES, false, what, &ref);
    if (r == GN_OK) r = gn_get_index(c, node, "camera", GN_ARR_CAMERAS, false, what, &ref);
    if (r == GN_OK) r = gn_get_index(c, node, "skin", GN_ARR_SKINS, false, what, &ref);
    /* A light's place: assimp 5.2 fails on an index past the lights (or without any). */
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(node, "extensions");
    const cJSON *lp =
        cJSON_IsObject(ext) ? cJSON_GetObjectItemCaseSensitive(ext, "KHR_lights_punctual") : NULL;
    if (r == GN_OK && lp) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.extensions.KHR_lights_punctual", what);
        r = cJSON_IsObject(lp) ? gn_get_index(c, lp, "light", GN_ARR_LIGHTS, true, sub, &ref)
                               : gn_bad(c, "%s is not an object", sub);
        if (r == GN_OK) c->light_refs[ref]++;
    }
    return r;
}

static gn_result gn_check_scene(gn_check *c, int i, const cJSON *scene, const char *what)
{
    return gn_check_index_list(c, scene, "nodes", GN_ARR_NODES, what, gn_scene_root, i);
}

static gn_result gn_check_skin(gn_check *c, int i, const cJSON *skin, const char *what)
{
    int ref;
    gn_result r = gn_check_index_list(c, skin, "joints", GN_ARR_NODES, what, NULL, i);
    if (r == GN_OK) r = gn_get_index(c, skin, "skeleton", GN_ARR_NODES, false, what, &ref);
    if (r == GN_OK) r = gn_get_index(c, skin, "inverseBindMatrices", GN_ARR_ACCESSORS, false, what, &ref);
    return r;
}

static gn_result gn_check_nodes(gn_check *c)
{
    int n = c->arr[GN_ARR_NODES].n, lights = c->arr[GN_ARR_LIGHTS].n;
    c->parent = gn_malloc((n ? (size_t)n : 1) * sizeof *c->parent);
    c->light_refs = gn_calloc(lights ? (size_t)lights : 1, sizeof *c->light_refs);
    if (!c->parent || !c->light_refs) {
        free(c->parent), free(c->light_refs);
        c->parent = c->light_refs = NULL;
        return gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
    }
    for (int i = 0; i < n; i++) c->parent[i] = -1;
    gn_result r = gn_check_each(c, GN_ARR_NODES, gn_check_node);
    if (r == GN_OK && n) r = gn_check_node_depth(c, n);
    if (r == GN_OK) r = gn_check_each(c, GN_ARR_SCENES, gn_check_scene);
    if (r == GN_OK) r = gn_check_each(c, GN_ARR_SKINS, gn_check_skin);
    for (int i = 0; r == GN_OK && c->info && i < lights; i++) {
        c->info->light_nodes += (uint32_t)c->light_refs[i];
        c->info->shared_lights += c->light_refs[i] > 1;
    }
    free(c->parent), free(c->light_refs);
    c->parent = c->light_refs = NULL;
    return r;
}

/* ---- KHR_lights_punctual ------------------------------------------------------------------ */

#define GN_HALF_PI 1.5707963267948966
/* The cones' upper bound, pi/2, with room for float32's pi/2 (4e-8 above double's) as written. */
#define GN_CONE_MAX (GN_HALF_PI + 1e-6)

/* obj[key]: absent gives def; else a number in [lo, hi] (1e400 parses as infinity: refused). */
static gn_result gn_get_real(gn_check *c, const cJSON *obj, const char *key, double def, double lo, double hi,
                             const char *what, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = def;
    if (!v) return GN_OK;
    if (!cJSON_IsNumber(v)) return gn_bad(c, "%s: \"%s\" is not a number", what, key);
    *out = v->valuedouble;
    if (!(*out >= lo && *out <= hi))
        return gn_bad(c, "%s: \"%s\" %g is outside [%g, %g]", what, key, *out, lo, hi);
    return GN_OK;
}

/* The extension's object at the top level, where its lights are; NULL when there is none. */
static gn_result gn_find_lights(gn_check *c, const cJSON *root)
{
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(root, "extensions");
    const cJSON *lp =
        cJSON_IsObject(ext) ? cJSON_GetObjectItemCaseSensitive(ext, "KHR_lights_punctual") : NULL;
    if (lp && !cJSON_IsObject(lp)) return gn_bad(c, "extensions.KHR_lights_punctual is not an object");
    c->lights_owner = lp;
    return GN_OK;
}

/* One light, with the ranges the extension gives. assimp 5.2 reads an unknown or missing
 * "type" as a spot, and silently puts its default in place of a "color" or "intensity" of the
 * wrong kind: both are refused here. */
static gn_result gn_check_light(gn_check *c, int i, const cJSON *l, const char *what)
{
    (void)i;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(l, "type");
    const char *t = cJSON_IsString(type) ? type->valuestring : "";
    bool spot = strcmp(t, "spot") == 0;
    if (!spot && strcmp(t, "point") != 0 && strcmp(t, "directional") != 0)
        return gn_bad(c, "%s: \"type\" missing or not \"directional\", \"point\" or \"spot\"", what);
    const cJSON *color = cJSON_GetObjectItemCaseSensitive(l, "color"), *e;
    if (color && (!cJSON_IsArray(color) || cJSON_GetArraySize(color) != 3))
        return gn_bad(c, "%s: \"color\" is not an array of 3 numbers", what);
    int k = 0;
    cJSON_ArrayForEach(e, color)
    {
        if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0.0 && e->valuedouble <= 1.0))
            return gn_bad(c, "%s: \"color\"[%d] is not a number in [0, 1]", what, k);
        k++;
    }
    double intensity, range, inner, outer;
    gn_result r = gn_get_real(c, l, "intensity", 1, 0, GN_GLTF_MAX_LIGHT_INTENSITY, what, &intensity);
    if (r == GN_OK) r = gn_get_real(c, l, "range", 1, 0, FLT_MAX, what, &range);
    if (r == GN_OK && !(range > 0.0)) r = gn_bad(c, "%s: \"range\" %g is not > 0", what, range);
    if (r != GN_OK || !spot) return r;
    char sub[96];
    snprintf(sub, sizeof sub, "%s.spot", what);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(l, "spot");
    if (!cJSON_IsObject(s)) return gn_bad(c, "%s: a spot light without a \"spot\" object", what);
    r = gn_get_real(c, s, "innerConeAngle", 0, 0, GN_CONE_MAX, sub, &inner);
    if (r == GN_OK) r = gn_get_real(c, s, "outerConeAngle", GN_HALF_PI / 2, 0, GN_CONE_MAX, sub, &outer);
    if (r == GN_OK && !(outer > 0.0)) r = gn_bad(c, "%s: \"outerConeAngle\" %g is not > 0", sub, outer);
    /* equal angles are a hard edge (Blender writes a spot without blend so): let through */
    if (r == GN_OK && inner > outer)
        r = gn_bad(c, "%s: \"innerConeAngle\" %g is wider than \"outerConeAngle\" %g", sub, inner, outer);
    return r;
}

/* Whether the file's "extensionsUsed" lists name (assimp reads the lights only then). */
static bool gn_extension_used(const cJSON *root, const char *name)
{
    const cJSON *used = cJSON_GetObjectItemCaseSensitive(root, "extensionsUsed"), *e;
    if (!cJSON_IsArray(used)) return false;
    cJSON_ArrayForEach(e, used)
    {
        if (cJSON_IsString(e) && strcmp(e->valuestring, name) == 0) return true;
    }
    return false;
}

/* A material's texture references: each textureInfo's "index". */
static gn_result gn_check_materials(gn_check *c)
{
    static const char *const infos[] = {"normalTexture", "occlusionTexture", "emissiveTexture"};
    static const char *const pbr_infos[] = {"baseColorTexture", "metallicRoughnessTexture"};
    for (int i = 0; i < c->arr[GN_ARR_MATERIALS].n; i++) {
        const cJSON *m = c->arr[GN_ARR_MATERIALS].at[i];
        const cJSON *pbr = cJSON_GetObjectItemCaseSensitive(m, "pbrMetallicRoughness");
        for (int k = 0; k < 5; k++) {
            const cJSON *owner = k < 3 ? m : pbr;
            const char *key = k < 3 ? infos[k] : pbr_infos[k - 3];
            const cJSON *info = owner ? cJSON_GetObjectItemCaseSensitive(owner, key) : NULL;
            if (!info) continue;
            char what[96];
            snprintf(what, sizeof what, "materials[%d]%s.%s", i, k < 3 ? "" : ".pbrMetallicRoughness", key);
            if (!cJSON_IsObject(info)) return gn_bad(c, "%s is not an object", what);
            int t;
            double uv;
            gn_result r = gn_get_index(c, info, "index", GN_ARR_TEXTURES, true, what, &t);
            if (r == GN_OK) r = gn_get_int(c, info, "texCoord", 0, 0, 7, what, &uv);
            if (r != GN_OK) return r;
        }
    }
    return GN_OK;
}

/* An image file's size without decoding it; a missing or undecodable one is the loader's
 * warning, a directory or a huge image is refused here. */
static gn_result gn_check_image_file(gn_check *c, const char *uri, const char *what)
{
    char path[4096];
    if (!gn_uri_path(c, uri, path, sizeof path))
        return gn_bad(c, "%s: \"uri\" is too long or holds %%00", what);
    struct stat st;
    if (stat(path, &st) != 0) return GN_OK;
    if (!S_ISREG(st.st_mode)) return gn_bad(c, "%s: %s is not a regular file", what, path);
    int w, h, n;
    if (!stbi_info(path, &w, &h, &n)) return GN_OK;
    if ((unsigned)w > GN_GLTF_MAX_IMAGE_SIDE || (unsigned)h > GN_GLTF_MAX_IMAGE_SIDE ||
        (unsigned long long)w * (unsigned)h > GN_GLTF_MAX_IMAGE_PIXELS)
        return gn_bad(c, "%s: %s is %dx%d, past the cap of %u a side and %llu pixels", what, path, w, h,
                      GN_GLTF_MAX_IMAGE_SIDE, GN_GLTF_MAX_IMAGE_PIXELS);
    return GN_OK;
}

static gn_result gn_check_textures(gn_check *c)
{
    gn_result r = GN_OK;
    for (int i = 0; i < c->arr[GN_ARR_TEXTURES].n && r == GN_OK; i++) {
        char what[48];
        snprintf(what, sizeof what, "textures[%d]", i);
        int ref;
        r = gn_get_index(c, c->arr[GN_ARR_TEXTURES].at[i], "source", GN_ARR_IMAGES, false, what, &ref);
        if (r == GN_OK)
            r = gn_get_index(c, c->arr[GN_ARR_TEXTURES].at[i], "sampler", GN_ARR_SAMPLERS, false, what, &ref);
    }
    for (int i = 0; i < c->arr[GN_ARR_IMAGES].n && r == GN_OK; i++) {
        const cJSON *im = c->arr[GN_ARR_IMAGES].at[i], *uri = cJSON_GetObjectItemCaseSensitive(im, "uri");
        char what[48];
        snprintf(what, sizeof what, "images[%d]", i);
        int view;
        r = gn_get_index(c, im, "bufferView", GN_ARR_VIEWS, false, what, &view);
        /* A media type "type/subtype": the spec lists image/png and image/jpeg, real files also
         * carry others (Sponza's image/vnd-ms.dds, with a uri). assimp 5.2 takes what follows
         * the '/' without checking that there is one: "imagXg" crashed it (found by fuzz_gltf). */
        const cJSON *mime = cJSON_GetObjectItemCaseSensitive(im, "mimeType");
        if (r == GN_OK && mime && !cJSON_IsString(mime))
            r = gn_bad(c, "%s: \"mimeType\" is not a string", what);
        else if (r == GN_OK && mime) {
            const char *slash = strchr(mime->valuestring, '/');
            if (!slash || slash == mime->valuestring || !slash[1])
                r = gn_bad(c, "%s: \"mimeType\" \"%.40s\" is not a media type (type/subtype, e.g. image/png)",
                           what, mime->valuestring);
        }
        if (r == GN_OK && view >= 0 && !mime)
            r = gn_bad(c, "%s: an image in a bufferView needs a \"mimeType\"", what);
        if (r != GN_OK || !uri) continue;
        if (!cJSON_IsString(uri))
            r = gn_bad(c, "%s: \"uri\" is not a string", what);
        else if (c->base_dir && strncmp(uri->valuestring, "data:", 5) != 0)
            r = gn_check_image_file(c, uri->valuestring, what);
    }
    return r;
}

static gn_result gn_check_animations(gn_check *c)
{
    for (int i = 0; i < c->arr[GN_ARR_ANIMATIONS].n; i++) {
        const cJSON *an = c->arr[GN_ARR_ANIMATIONS].at[i];
        const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(an, "samplers");
        const cJSON *channels = cJSON_GetObjectItemCaseSensitive(an, "channels"), *e;
        if (!cJSON_IsArray(samplers) || !cJSON_IsArray(channels))
            return gn_bad(c, "animations[%d]: \"samplers\" or \"channels\" missing or not an array", i);
        int ns = cJSON_GetArraySize(samplers), k = 0;
        cJSON_ArrayForEach(e, samplers)
        {
            char what[64];
            snprintf(what, sizeof what, "animations[%d].samplers[%d]", i, k++);
            int ref;
            gn_result r = gn_get_index(c, e, "input", GN_ARR_ACCESSORS, true, what, &ref);
            if (r == GN_OK) r = gn_get_index(c, e, "output", GN_ARR_ACCESSORS, true, what, &ref);
            if (r != GN_OK) return r;
        }
        k = 0;
        cJSON_ArrayForEach(e, channels)
        {
            char what[64];
            snprintf(what, sizeof what, "animations[%d].channels[%d]", i, k++);
            double s;
            int node;
            const cJSON *target = cJSON_GetObjectItemCaseSensitive(e, "target");
            if (!cJSON_GetObjectItemCaseSensitive(e, "sampler")) return gn_bad(c, "%s: no \"sampler\"", what);
            gn_result r = gn_get_int(c, e, "sampler", 0, 0, ns - 1, what, &s);
            if (r == GN_OK && !cJSON_IsObject(target)) r = gn_bad(c, "%s: no \"target\"", what);
            if (r == GN_OK) r = gn_get_index(c, target, "node", GN_ARR_NODES, false, what, &node);
            if (r != GN_OK) return r;
        }
    }
    return GN_OK;
}

/* Extensions a file may require: those the loader uses (emissive strength and punctual lights,
 * read through assimp 5.2), and AMD_split_roughnessMetallic, whose separate roughness map is
 * dropped so the material keeps its roughness factor (the shared data's Sponza requires it, and
 * renders so). Anything else changes what the file means in a way the loader would get wrong:
 * refused. */
static gn_result gn_check_extensions(gn_check *c, const cJSON *root)
{
    static const char *const known[] = {
        "KHR_materials_emissive_strength", "AMD_split_roughnessMetallic", "KHR_lights_punctual",
        "KHR_texture_transform",           "KHR_materials_specular",      "KHR_materials_ior"};
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(root, "extensionsRequired"), *e;
    if (!req) return GN_OK;
    if (!cJSON_IsArray(req)) return gn_bad(c, "\"extensionsRequired\" is not an array");
    cJSON_ArrayForEach(e, req)
    {
        if (!cJSON_IsString(e)) return gn_bad(c, "\"extensionsRequired\" holds a non-string");
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            ok |= strcmp(e->valuestring, known[k]) == 0;
        if (!ok)
            return gn_bad(c, "requires the extension %.100s, which gnomon does not support", e->valuestring);
    }
    return GN_OK;
}

/* The JSON text, with bin_len already known: everything but the .glb container. */
static gn_result gn_check_json(gn_check *c, const char *json, size_t len)
{
    gn_result r = gn_json_depth(c, json, len);
    if (r != GN_OK) return r;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, false);
    if (!root)
        return gn_bad(c, "not valid JSON (near byte %td)",
                      cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() - json : (ptrdiff_t)0);
    /* assimp's JSON reader refuses anything after the value but whitespace (a .glb's chunk may
     * be padded with NULs, where its string ends); cJSON stops at the value's end */
    while (end && end < json + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')) end++;
    if (end && end < json + len && *end != '\0') {
        cJSON_Delete(root);
        return gn_bad(c, "not valid JSON: text after the JSON value (byte %td)", end - json);
    }
    const cJSON *asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
    const cJSON *version = asset ? cJSON_GetObjectItemCaseSensitive(asset, "version") : NULL;
    int scene;
    if (!cJSON_IsObject(root))
        r = gn_bad(c, "the JSON is not an object");
    else if (!cJSON_IsString(version) || strncmp(version->valuestring, "2.", 2) != 0)
        r = gn_bad(c, "asset.version missing or not 2.x: not glTF 2.0");
    if (r == GN_OK) r = gn_check_extensions(c, root);
    if (r == GN_OK) r = gn_find_lights(c, root);
    if (r == GN_OK) r = gn_index_arrays(c, root);
    if (r == GN_OK) {
        size_t nb = (size_t)c->arr[GN_ARR_BUFFERS].n + 1, nv = (size_t)c->arr[GN_ARR_VIEWS].n + 1;
        c->buffer_len = gn_calloc(nb, sizeof *c->buffer_len);
        c->view_len = gn_calloc(nv, sizeof *c->view_len);
        c->view_stride = gn_calloc(nv, sizeof *c->view_stride);
        c->buffer_bytes = gn_calloc(nb, sizeof *c->buffer_bytes);
        if (!c->buffer_len || !c->view_len || !c->view_stride || !c->buffer_bytes)
            r = gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
    }
    if (r == GN_OK) r = gn_check_each(c, GN_ARR_BUFFERS, gn_check_buffer);
    if (r == GN_OK) r = gn_check_each(c, GN_ARR_VIEWS, gn_check_view);
    if (r == GN_OK) r = gn_check_each(c, GN_ARR_ACCESSORS, gn_check_accessor);
    if (r == GN_OK) r = gn_check_meshes(c);
    if (r == GN_OK) r = gn_check_materials(c);
    if (r == GN_OK) r = gn_check_textures(c);
    if (r == GN_OK) r = gn_check_each(c, GN_ARR_LIGHTS, gn_check_light);
    if (r == GN_OK) r = gn_check_nodes(c);
    if (r == GN_OK) r = gn_check_animations(c);
    if (r == GN_OK) r = gn_get_index(c, root, "scene", GN_ARR_SCENES, false, "the file", &scene);
    if (r == GN_OK && c->info) {
        c->info->lights = (uint32_t)c->arr[GN_ARR_LIGHTS].n;
        c->info->lights_undeclared = c->info->lights && !gn_extension_used(root, "KHR_lights_punctual");
        r = gn_gltf_ext_read(root, c->name, &c->info->materials, &c->info->material_count, c->err);
    }
    for (int a = 0; a < GN_ARR_COUNT; a++) free(c->arr[a].at);
    for (int b = 0; c->buffer_bytes && b < c->arr[GN_ARR_BUFFERS].n; b++)
        if (c->buffer_bytes[b] != c->bin) free(c->buffer_bytes[b]);
    free(c->buffer_bytes);
    free(c->buffer_len), free(c->view_len), free(c->view_stride);
    cJSON_Delete(root);
    return r;
}

static uint32_t gn_le32(const unsigned char *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A .glb's header (20 bytes: magic, version, length, the JSON chunk's length and type) against
 * the file's size; gives the JSON chunk's length. */
static gn_result gn_check_glb_header(gn_check *c, const unsigned char *h, unsigned long long *size_io,
                                     uint32_t *json)
{
    unsigned long long size = *size_io;
    if (size < 20) return gn_bad(c, "%llu bytes is too short for a .glb header", size);
    uint32_t version = gn_le32(h + 4), total = gn_le32(h + 8);
    *json = gn_le32(h + 12);
    if (version != 2) return gn_bad(c, ".glb version %u, only 2 is glTF 2.0", version);
    /* bytes past the header's length are ignored, as assimp does */
    if (total > size || total < 20)
        return gn_bad(c, ".glb header says %u bytes, the file has %llu", total, size);
    *size_io = size = total;
    if (memcmp(h + 16, "JSON", 4) != 0) return gn_bad(c, "the first .glb chunk is not JSON");
    if (*json == 0 || 20ull + *json > size)
        return gn_bad(c, ".glb JSON chunk of %u bytes does not fit the file's %llu", *json, size);
    if (*json > GN_GLTF_MAX_JSON_BYTES)
        return gn_bad(c, ".glb JSON chunk of %u bytes, past the cap of %u", *json, GN_GLTF_MAX_JSON_BYTES);
    return GN_OK;
}

/* The optional BIN chunk after the JSON (8-byte header at 'at'): its length, or -1. */
static gn_result gn_check_glb_bin(gn_check *c, const unsigned char *h, size_t have, unsigned long long at,
                                  unsigned long long size)
{
    c->bin_len = -1;
    if (at >= size) return GN_OK;
    if (at + 8 > size || have < 8) return gn_bad(c, ".glb chunk header at byte %llu is cut off", at);
    uint32_t len = gn_le32(h);
    if (memcmp(h + 4, "BIN\0", 4) != 0) return gn_bad(c, "the second .glb chunk (byte %llu) is not BIN", at);
    if (at + 8 + len > size)
        return gn_bad(c, ".glb BIN chunk of %u bytes ends past the file's %llu", len, size);
    c->bin_len = len;
    return GN_OK;
}

gn_result gn_gltf_check_memory(const unsigned char *data, size_t size, const char *base_dir, const char *name,
                               gn_error *err)
{
    gn_check c = {.name = name ? name : "glTF", .base_dir = base_dir, .err = err, .bin_len = -1};
    if (!data) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_gltf_check_memory: NULL data");
    if (size < 4 || memcmp(data, "glTF", 4) != 0) {
        if (size > GN_GLTF_MAX_JSON_BYTES)
            return gn_bad(&c, "%zu bytes of JSON, past the cap of %u", size, GN_GLTF_MAX_JSON_BYTES);
        return gn_check_json(&c, (const char *)data, size);
    }
    uint32_t json;
    unsigned long long total = size;
    gn_result r = gn_check_glb_header(&c, data, &total, &json);
    unsigned long long at = 20 + ((json + 3ull) & ~3ull);
    if (r == GN_OK)
        r = gn_check_glb_bin(&c, at < size ? data + at : data, at < size ? size - at : 0, at, size);
    if (r == GN_OK && c.bin_len >= 0) c.bin = data + at + 8;
    return r == GN_OK ? gn_check_json(&c, (const char *)data + 20, json) : r;
}

void gn_gltf_check_info_free(gn_gltf_check_info *info)
{
    if (!info) return;
    free(info->materials);
    memset(info, 0, sizeof *info);
}

gn_result gn_gltf_check(const char *path, gn_gltf_check_info *info, gn_error *err)
{
    if (info) memset(info, 0, sizeof *info);
    if (!path) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_gltf_check: NULL path");
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 0, path);
    gn_check c = {.name = path, .base_dir = slash ? dir : ".", .err = err, .bin_len = -1, .info = info};
    if (slash && slash == path) c.base_dir = "/";
    /* a regular file before it is opened: opening a FIFO would block (base/file.h) */
    uint64_t file_size = 0;
    gn_result regular = gn_file_check_regular(path, &file_size, err);
    if (regular) return regular;
    FILE *f = fopen(path, "rb");
    if (!f) return gn_fail(err, GN_ERROR_IO, "%s: cannot open the file: %s", path, strerror(errno));
    unsigned long long size = (unsigned long long)file_size;
    unsigned char head[20] = {0};
    size_t got = fread(head, 1, sizeof head, f);
    bool glb = got >= 4 && memcmp(head, "glTF", 4) == 0;
    uint32_t json_len = 0;
    unsigned long long json_at = glb ? 20 : 0;
    gn_result r = GN_OK;
    if (glb)
        r = gn_check_glb_header(&c, head, &size, &json_len);
    else if (size > GN_GLTF_MAX_JSON_BYTES)
        r = gn_bad(&c, "%llu bytes of JSON, past the cap of %u", size, GN_GLTF_MAX_JSON_BYTES);
    else
        json_len = (uint32_t)size;
    char *json = r == GN_OK ? gn_malloc(json_len ? json_len : 1) : NULL;
    if (r == GN_OK && !json) r = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    if (r == GN_OK && (fseek(f, (long)json_at, SEEK_SET) != 0 || fread(json, 1, json_len, f) != json_len))
        r = gn_fail(err, GN_ERROR_IO, "%s: cannot read %u bytes of JSON", path, json_len);
    if (r == GN_OK && glb) {
        unsigned long long at = 20 + ((json_len + 3ull) & ~3ull);
        unsigned char bin[8] = {0};
        size_t have = at < size && fseek(f, (long)at, SEEK_SET) == 0 ? fread(bin, 1, sizeof bin, f) : 0;
        r = gn_check_glb_bin(&c, bin, have, at, size);
        c.glb_path = path;
        c.bin_at = at;
    }
    fclose(f);
    if (r == GN_OK) r = gn_check_json(&c, json, json_len);
    free(json);
    return r;
}

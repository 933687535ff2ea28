/* Particle emitter files (emitter.h). The text is copied with a NUL after it (cJSON reads a C
 * string), its bracket depth counted in one loop before cJSON recurses, and every object's keys
 * checked against the format's list before any value is read: an unknown key or a repeated
 * one is refused, so a file means one thing. Values are read by type here (and refused when
 * not finite or beyond float's range); their ranges and how fields agree are
 * gn_particle_desc_check's, whose message names the key, so the limits live in one place. */
#include "formats/emitter.h"

#include "base/alloc.h"
#include "base/error.h"
#include "base/file.h"
#include "base/json_depth.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(GN_EMITTER_MAX_DEPTH < CJSON_NESTING_LIMIT, "cJSON must never see deeper JSON than it allows");

typedef struct gn_ectx {
    const char *name; /* the file, for messages */
    gn_error *err;
} gn_ectx;

/* Refuses the file: "NAME: PATH: " and the formatted fault. */
static gn_result __attribute__((format(printf, 3, 4)))
gn_ebad(gn_ectx *c, const char *path, const char *fmt, ...)
{
    char what[480];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: %s%s%s", c->name, path, path[0] ? ": " : "", what);
}

/* Bracket nesting outside strings, in one pass, against GN_EMITTER_MAX_DEPTH. */
static gn_result gn_edepth(gn_ectx *c, const char *s, size_t n)
{
    size_t at;
    if (gn_json_too_deep(s, n, GN_EMITTER_MAX_DEPTH, &at))
        return gn_ebad(c, "", "JSON nested deeper than %u levels at byte %zu", GN_EMITTER_MAX_DEPTH, at);
    return GN_OK;
}

/* Every key of obj is one of keys[] (or starts with '_': a comment) and none is repeated. At
 * most n + 1 members are looked at before a refusal, whatever the object's size. */
static gn_result gn_ekeys(gn_ectx *c, const cJSON *obj, const char *const *keys, const char *path)
{
    int seen = 0;
    for (const cJSON *m = obj->child; m; m = m->next, seen++) {
        const char *k = m->string ? m->string : "";
        if (k[0] == '_') continue;
        bool known = false;
        for (const char *const *p = keys; *p && !known; p++) known = strcmp(*p, k) == 0;
        if (!known) {
            char list[512] = "";
            size_t at = 0;
            for (const char *const *p = keys; *p && at < sizeof list; p++)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", p == keys ? "" : ", ", *p);
            return gn_ebad(c, path, "unknown key \"%.64s\" (known: %s)", k, list);
        }
        for (const cJSON *e = obj->child; e != m; e = e->next)
            if (e->string && strcmp(e->string, k) == 0) return gn_ebad(c, path, "key \"%s\" given twice", k);
    }
    return GN_OK;
}

static void gn_epath(char *out, size_t n, const char *base, const char *key)
{
    snprintf(out, n, "%s%s%s", base, base[0] ? "." : "", key);
}

/* A finite number within float's range (the desc's ranges come later). */
static gn_result gn_enum_value(gn_ectx *c, const cJSON *v, const char *path, double *out)
{
    if (!cJSON_IsNumber(v)) return gn_ebad(c, path, "not a number");
    double d = v->valuedouble;
    if (!isfinite(d) || fabs(d) > 1e30) return gn_ebad(c, path, "%g is out of range", d);
    *out = d;
    return GN_OK;
}

static gn_result gn_efloat(gn_ectx *c, const cJSON *v, const char *path, float *out)
{
    double d = 0.0;
    gn_result r = gn_enum_value(c, v, path, &d);
    if (r == GN_OK) *out = (float)d;
    return r;
}

/* A non-negative integer of at most 2^32 - 1. */
static gn_result gn_euint(gn_ectx *c, const cJSON *v, const char *path, uint32_t *out)
{
    if (!cJSON_IsNumber(v)) return gn_ebad(c, path, "not a number");
    double d = v->valuedouble;
    if (!isfinite(d) || floor(d) != d) return gn_ebad(c, path, "%g is not an integer", d);
    if (d < 0.0 || d > 4294967295.0) return gn_ebad(c, path, "%g is outside [0, 4294967295]", d);
    *out = (uint32_t)d;
    return GN_OK;
}

static gn_result gn_ebool(gn_ectx *c, const cJSON *v, const char *path, bool *out)
{
    if (!cJSON_IsBool(v)) return gn_ebad(c, path, "not true or false");
    *out = cJSON_IsTrue(v);
    return GN_OK;
}

/* An array of exactly n numbers. */
static gn_result gn_evec(gn_ectx *c, const cJSON *v, const char *path, int n, float *out)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n)
        return gn_ebad(c, path, "not an array of %d numbers", n);
    int i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        char p[128];
        snprintf(p, sizeof p, "%s[%d]", path, i);
        gn_result r = gn_efloat(c, e, p, &out[i]);
        if (r) return r;
    }
    return GN_OK;
}

/* A number (both ends the same) or [min, max] (or [start, end]); scale converts units. */
static gn_result gn_erange(gn_ectx *c, const cJSON *v, const char *path, double scale, float out[2])
{
    double d[2] = {0.0, 0.0};
    if (cJSON_IsNumber(v)) {
        gn_result r = gn_enum_value(c, v, path, &d[0]);
        if (r) return r;
        d[1] = d[0];
    } else if (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 2) {
        int i = 0;
        for (const cJSON *e = v->child; e; e = e->next, i++) {
            char p[128];
            snprintf(p, sizeof p, "%s[%d]", path, i);
            gn_result r = gn_enum_value(c, e, p, &d[i]);
            if (r) return r;
        }
    } else {
        return gn_ebad(c, path, "not a number or an array of 2 numbers");
    }
    for (int i = 0; i < 2; i++) out[i] = (float)(d[i] * scale);
    return GN_OK;
}

/* n numbers (both ends the same) or [[n numbers], [n numbers]] (start, end). */
static gn_result gn_ecolors(gn_ectx *c, const cJSON *v, const char *path, int n, float *start, float *end)
{
    if (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 2 && cJSON_IsArray(v->child)) {
        char p[128];
        snprintf(p, sizeof p, "%s[0]", path);
        gn_result r = gn_evec(c, v->child, p, n, start);
        if (r) return r;
        snprintf(p, sizeof p, "%s[1]", path);
        return gn_evec(c, v->child->next, p, n, end);
    }
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n)
        return gn_ebad(c, path, "not an array of %d numbers or a [start, end] pair of them", n);
    gn_result r = gn_evec(c, v, path, n, start);
    if (r == GN_OK) memcpy(end, start, (size_t)n * sizeof *end);
    return r;
}

/* A string that is one of names[] (count of them); its index. */
static gn_result gn_eenum(gn_ectx *c, const cJSON *v, const char *path, const char *const *names, int count,
                          int *out)
{
    if (!cJSON_IsString(v)) return gn_ebad(c, path, "not a string");
    for (int i = 0; i < count; i++)
        if (strcmp(v->valuestring, names[i]) == 0) return *out = i, GN_OK;
    char list[256] = "";
    size_t at = 0;
    for (int i = 0; i < count && at < sizeof list; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s\"%s\"", i ? ", " : "", names[i]);
    return gn_ebad(c, path, "\"%.64s\" is not one of %s", v->valuestring, list);
}

/* obj[key], when present, read into dst by reader (with o, path, p, v, r, c in scope). */
#define GN_EFIELD(key, reader, dst)                                                                          \
    if ((v = cJSON_GetObjectItemCaseSensitive(o, key))) {                                                    \
        gn_epath(p, sizeof p, path, key);                                                                    \
        if ((r = reader(c, v, p, dst))) return r;                                                            \
    }

static const char *const gn_burst_keys[] = {"time", "count", "interval", "cycles", NULL};

static gn_result gn_eburst(gn_ectx *c, const cJSON *o, const char *path, gn_particle_burst *b)
{
    if (!cJSON_IsObject(o)) return gn_ebad(c, path, "not an object");
    gn_result r = gn_ekeys(c, o, gn_burst_keys, path);
    if (r) return r;
    *b = (gn_particle_burst){.cycles = 1};
    char p[160];
    const cJSON *v;
    gn_epath(p, sizeof p, path, "count");
    if (!(v = cJSON_GetObjectItemCaseSensitive(o, "count"))) return gn_ebad(c, path, "no \"count\"");
    if ((r = gn_euint(c, v, p, &b->count))) return r;
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "time")) &&
        (gn_epath(p, sizeof p, path, "time"), r = gn_efloat(c, v, p, &b->time)))
        return r;
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "interval")) &&
        (gn_epath(p, sizeof p, path, "interval"), r = gn_efloat(c, v, p, &b->interval)))
        return r;
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "cycles")) &&
        (gn_epath(p, sizeof p, path, "cycles"), r = gn_euint(c, v, p, &b->cycles)))
        return r;
    return GN_OK;
}

static const char *const gn_atlas_keys[] = {"columns",   "rows",         "frames", "fps",
                                            "over_life", "random_start", NULL};

static gn_result gn_eatlas(gn_ectx *c, const cJSON *o, const char *path, gn_particle_desc *d)
{
    if (!cJSON_IsObject(o)) return gn_ebad(c, path, "not an object");
    gn_result r = gn_ekeys(c, o, gn_atlas_keys, path);
    if (r) return r;
    char p[160];
    const cJSON *v;
    GN_EFIELD("columns", gn_euint, &d->atlas_columns);
    GN_EFIELD("rows", gn_euint, &d->atlas_rows);
    /* frames: all cells unless given; a product over the cap is refused by the check */
    d->atlas_frames =
        d->atlas_columns <= GN_PARTICLE_MAX_ATLAS_SIDE && d->atlas_rows <= GN_PARTICLE_MAX_ATLAS_SIDE
            ? d->atlas_columns * d->atlas_rows
            : 1;
    GN_EFIELD("frames", gn_euint, &d->atlas_frames);
    GN_EFIELD("fps", gn_efloat, &d->atlas_fps);
    GN_EFIELD("over_life", gn_ebool, &d->atlas_over_life);
    GN_EFIELD("random_start", gn_ebool, &d->atlas_random_start);
    return GN_OK;
}

static const char *const gn_emitter_keys[] = {"name",
                                              "shape",
                                              "half_extent",
                                              "radius",
                                              "rate",
                                              "bursts",
                                              "max_particles",
                                              "lifetime",
                                              "speed",
                                              "direction",
                                              "cone_deg",
                                              "rotation_deg",
                                              "spin_deg",
                                              "size",
                                              "size_jitter",
                                              "color",
                                              "emission",
                                              "fade_in",
                                              "gravity",
                                              "drag",
                                              "wind_response",
                                              "curl_strength",
                                              "curl_scale",
                                              "atlas",
                                              "render",
                                              "stretch",
                                              "blend",
                                              "soft_depth",
                                              "collision",
                                              "restitution",
                                              "friction",
                                              "collision_thickness",
                                              NULL};
static const char *const gn_shape_names[] = {"point", "box", "sphere", "disc"};
static const char *const gn_render_names[] = {"billboard", "velocity", "ribbon"};
static const char *const gn_blend_names[] = {"alpha", "additive"};
static const char *const gn_collision_names[] = {"none", "bounce", "die"};

#define GN_DEG_TO_RAD (3.14159265358979323846 / 180.0)

/* Angles in degrees, a number or [min, max]: checked in the unit the file uses, then turned
 * into radians. */
static gn_result gn_edegrees(gn_ectx *c, const cJSON *v, const char *path, double lo, double hi, float out[2])
{
    float deg[2];
    gn_result r = gn_erange(c, v, path, 1.0, deg);
    if (r) return r;
    for (int i = 0; i < 2; i++) {
        if (deg[i] < lo || deg[i] > hi)
            return gn_ebad(c, path, "%g degrees is outside [%g, %g]", (double)deg[i], lo, hi);
        out[i] = (float)(deg[i] * GN_DEG_TO_RAD);
    }
    return GN_OK;
}

static bool gn_ename_ok(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > GN_EMITTER_NAME_MAX) return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
              ch == '-' || ch == '.'))
            return false;
    }
    return true;
}

static gn_result gn_eemitter(gn_ectx *c, const cJSON *o, const char *path, gn_emitter_entry *e)
{
    if (!cJSON_IsObject(o)) return gn_ebad(c, path, "not an object");
    gn_result r = gn_ekeys(c, o, gn_emitter_keys, path);
    if (r) return r;
    gn_particle_desc *d = &e->desc;
    *d = gn_particle_desc_default();
    char p[160];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "name");
    gn_epath(p, sizeof p, path, "name");
    if (!v) return gn_ebad(c, path, "no \"name\"");
    if (!cJSON_IsString(v)) return gn_ebad(c, p, "not a string");
    if (!gn_ename_ok(v->valuestring))
        return gn_ebad(c, p, "\"%.64s\" is not 1 to %u letters, digits, '_', '-' or '.'", v->valuestring,
                       GN_EMITTER_NAME_MAX);
    snprintf(e->name, sizeof e->name, "%s", v->valuestring);

    int en = 0; /* set by each gn_eenum that succeeds (gcc -O3 cannot see it) */
#define GN_EENUM(key, names, dst, type)                                                                      \
    if ((v = cJSON_GetObjectItemCaseSensitive(o, key))) {                                                    \
        gn_epath(p, sizeof p, path, key);                                                                    \
        if ((r = gn_eenum(c, v, p, names, (int)(sizeof names / sizeof names[0]), &en))) return r;            \
        dst = (type)en;                                                                                      \
    }
#define GN_ERANGE(key, scale, dst)                                                                           \
    if ((v = cJSON_GetObjectItemCaseSensitive(o, key))) {                                                    \
        gn_epath(p, sizeof p, path, key);                                                                    \
        if ((r = gn_erange(c, v, p, scale, dst))) return r;                                                  \
    }
#define GN_EVEC3(key, dst)                                                                                   \
    if ((v = cJSON_GetObjectItemCaseSensitive(o, key))) {                                                    \
        gn_epath(p, sizeof p, path, key);                                                                    \
        if ((r = gn_evec(c, v, p, 3, dst))) return r;                                                        \
    }
    GN_EENUM("shape", gn_shape_names, d->shape, gn_particle_shape);
    GN_EVEC3("half_extent", d->half_extent);
    GN_EFIELD("radius", gn_efloat, &d->radius);
    GN_EFIELD("rate", gn_efloat, &d->rate);
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "bursts"))) {
        gn_epath(p, sizeof p, path, "bursts");
        if (!cJSON_IsArray(v)) return gn_ebad(c, p, "not an array");
        int n = cJSON_GetArraySize(v);
        if (n > (int)GN_PARTICLE_MAX_BURSTS)
            return gn_ebad(c, p, "%d bursts, more than %u", n, GN_PARTICLE_MAX_BURSTS);
        int i = 0;
        for (const cJSON *b = v->child; b; b = b->next, i++) {
            char bp[176];
            snprintf(bp, sizeof bp, "%s[%d]", p, i);
            if ((r = gn_eburst(c, b, bp, &d->bursts[i]))) return r;
        }
        d->burst_count = (uint32_t)n;
    }
    GN_EFIELD("max_particles", gn_euint, &d->max_particles);
    GN_ERANGE("lifetime", 1.0, d->lifetime);
    GN_ERANGE("speed", 1.0, d->speed);
    GN_EVEC3("direction", d->direction);
    double len = sqrt((double)d->direction[0] * d->direction[0] + (double)d->direction[1] * d->direction[1] +
                      (double)d->direction[2] * d->direction[2]);
    if (len > 0.0)
        for (int i = 0; i < 3; i++) d->direction[i] = (float)(d->direction[i] / len);
    float deg[2] = {0, 0};
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "cone_deg"))) {
        gn_epath(p, sizeof p, path, "cone_deg");
        if (!cJSON_IsNumber(v)) return gn_ebad(c, p, "not a number");
        if ((r = gn_edegrees(c, v, p, 0.0, 180.0, deg))) return r;
        d->cone = deg[0] < GN_PARTICLE_MAX_CONE ? deg[0] : GN_PARTICLE_MAX_CONE;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "rotation_deg"))) {
        gn_epath(p, sizeof p, path, "rotation_deg");
        if ((r = gn_edegrees(c, v, p, -3600.0, 3600.0, d->rotation))) return r;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "spin_deg"))) {
        gn_epath(p, sizeof p, path, "spin_deg");
        if ((r = gn_edegrees(c, v, p, -36000.0, 36000.0, d->spin))) return r;
    }
    GN_ERANGE("size", 1.0, d->size);
    GN_EFIELD("size_jitter", gn_efloat, &d->size_jitter);
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "color"))) {
        gn_epath(p, sizeof p, path, "color");
        if ((r = gn_ecolors(c, v, p, 4, d->color[0], d->color[1]))) return r;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "emission"))) {
        gn_epath(p, sizeof p, path, "emission");
        if ((r = gn_ecolors(c, v, p, 3, d->emission[0], d->emission[1]))) return r;
    }
    GN_EFIELD("fade_in", gn_efloat, &d->fade_in);
    GN_EVEC3("gravity", d->gravity);
    GN_EFIELD("drag", gn_efloat, &d->drag);
    GN_EFIELD("wind_response", gn_efloat, &d->wind_response);
    GN_EFIELD("curl_strength", gn_efloat, &d->curl_strength);
    GN_EFIELD("curl_scale", gn_efloat, &d->curl_scale);
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "atlas"))) {
        gn_epath(p, sizeof p, path, "atlas");
        if ((r = gn_eatlas(c, v, p, d))) return r;
    }
    GN_EENUM("render", gn_render_names, d->render, gn_particle_render);
    GN_EFIELD("stretch", gn_efloat, &d->stretch);
    GN_EENUM("blend", gn_blend_names, d->blend, gn_particle_blend);
    GN_EFIELD("soft_depth", gn_efloat, &d->soft_depth);
    GN_EENUM("collision", gn_collision_names, d->collision, gn_particle_collision);
    GN_EFIELD("restitution", gn_efloat, &d->restitution);
    GN_EFIELD("friction", gn_efloat, &d->friction);
    GN_EFIELD("collision_thickness", gn_efloat, &d->collision_thickness);

    char why[200];
    if (!gn_particle_desc_check(d, why, sizeof why)) /* why starts with the key: "lifetime: ..." */
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: %s.%s", c->name, path, why);
    return GN_OK;
}

static const char *const gn_file_keys[] = {"version", "emitters", NULL};

/* Line and column (from 1) of byte at in text. */
static void gn_eline(const char *text, size_t at, unsigned *line, unsigned *col)
{
    *line = 1, *col = 1;
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n')
            ++*line, *col = 1;
        else
            ++*col;
    }
}

static gn_result gn_eroot(gn_ectx *c, const cJSON *root, gn_emitter_file *out)
{
    if (!cJSON_IsObject(root)) return gn_ebad(c, "", "the file is not a JSON object");
    gn_result r = gn_ekeys(c, root, gn_file_keys, "");
    if (r) return r;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (v) {
        uint32_t version;
        if ((r = gn_euint(c, v, "version", &version))) return r;
        if (version != 1) return gn_ebad(c, "version", "%u is not a version this reader knows (1)", version);
    }
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "emitters");
    if (!list) return gn_ebad(c, "", "no \"emitters\"");
    if (!cJSON_IsArray(list)) return gn_ebad(c, "emitters", "not an array");
    int n = cJSON_GetArraySize(list);
    if (n < 1 || n > (int)GN_EMITTER_MAX_EMITTERS)
        return gn_ebad(c, "emitters", "%d emitters, outside [1, %u]", n, GN_EMITTER_MAX_EMITTERS);
    out->emitters = gn_calloc((size_t)n, sizeof *out->emitters);
    if (!out->emitters) return gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
    int i = 0;
    for (const cJSON *e = list->child; e; e = e->next, i++) {
        char path[32];
        snprintf(path, sizeof path, "emitters[%d]", i);
        if ((r = gn_eemitter(c, e, path, &out->emitters[i]))) return r;
        for (int k = 0; k < i; k++)
            if (strcmp(out->emitters[k].name, out->emitters[i].name) == 0)
                return gn_ebad(c, path, "name \"%s\" is also emitters[%d]'s", out->emitters[i].name, k);
    }
    out->count = (uint32_t)n;
    return GN_OK;
}

gn_result gn_emitter_parse(const char *text, size_t len, const char *name, gn_emitter_file *out,
                           gn_error *err)
{
    memset(out, 0, sizeof *out);
    gn_ectx c = {.name = name ? name : "emitters", .err = err};
    if (len > GN_EMITTER_MAX_BYTES)
        return gn_ebad(&c, "", "%zu bytes, over the cap of %u for an emitter file (GN_EMITTER_MAX_BYTES)",
                       len, GN_EMITTER_MAX_BYTES);
    if (memchr(text, '\0', len)) {
        unsigned line, col;
        size_t at = (size_t)((const char *)memchr(text, '\0', len) - text);
        gn_eline(text, at, &line, &col);
        return gn_ebad(&c, "", "a NUL byte at line %u, column %u (not JSON text)", line, col);
    }
    gn_result r = gn_edepth(&c, text, len);
    if (r) return r;
    char *copy = gn_malloc(len + 1);
    if (!copy) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes", c.name, len);
    memcpy(copy, text, len);
    copy[len] = '\0';
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(copy, len + 1, &end, false);
    if (!root) {
        unsigned line, col;
        size_t at = end && end >= copy && end <= copy + len ? (size_t)(end - copy) : 0;
        gn_eline(copy, at, &line, &col);
        r = gn_ebad(&c, "", "not valid JSON at line %u, column %u", line, col);
    } else {
        while (end && end < copy + len && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
            end++;
        if (end && end < copy + len) {
            unsigned line, col;
            gn_eline(copy, (size_t)(end - copy), &line, &col);
            r = gn_ebad(&c, "", "text after the JSON value at line %u, column %u", line, col);
        } else {
            r = gn_eroot(&c, root, out);
        }
    }
    cJSON_Delete(root);
    free(copy);
    if (r) gn_emitter_file_free(out);
    return r;
}

gn_result gn_emitter_load(const char *path, gn_emitter_file *out, gn_error *err)
{
    memset(out, 0, sizeof *out);
    char *text;
    size_t got;
    gn_result res = gn_file_read_text(path, GN_EMITTER_MAX_BYTES, "an emitter file (GN_EMITTER_MAX_BYTES)",
                                      &text, &got, err);
    if (res) return res;
    res = gn_emitter_parse(text, got, path, out, err);
    free(text);
    return res;
}

void gn_emitter_file_free(gn_emitter_file *f)
{
    if (!f) return;
    free(f->emitters);
    memset(f, 0, sizeof *f);
}

const gn_particle_desc *gn_emitter_find(const gn_emitter_file *f, const char *name)
{
    for (uint32_t i = 0; f && name && i < f->count; i++)
        if (strcmp(f->emitters[i].name, name) == 0) return &f->emitters[i].desc;
    return NULL;
}

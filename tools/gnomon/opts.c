/* The strict option parser behind every gnomon command; see opts.h. */
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Parses a whole decimal unsigned integer. strtoull alone would accept "-1", " 7" and "7x". */
static bool gn_parse_u64(const char *s, uint64_t *out)
{
    if (!s || s[0] < '0' || s[0] > '9') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

static bool gn_parse_double(const char *s, double *out)
{
    if (!s || !*s || s[0] == ' ') return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v)) return false;
    *out = v;
    return true;
}

static bool gn_is_pow2(uint64_t v) { return v && (v & (v - 1)) == 0; }

/* "gnomon <command>: ..." on the command line; no prefix for the viewer's console (NULL). */
static void gn_opt_error(char *err, size_t err_size, const char *command, const char *fmt, ...)
{
    size_t n = command ? (size_t)snprintf(err, err_size, "gnomon %s: ", command) : 0;
    if (n >= err_size) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, err_size - n, fmt, ap);
    va_end(ap);
}

/* "1, 2, 4, 8" for a power-of-two option, "final, depth, ..." for a choice. */
static void gn_opt_list(const gn_opt *o, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    if (o->kind == GN_OPT_CHOICE) {
        for (const char *const *c = o->choices; *c && n < size; c++)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", c == o->choices ? "" : ", ", *c);
        return;
    }
    for (uint64_t v = 1; v <= (uint64_t)o->max && n < size; v <<= 1)
        if ((double)v >= o->min)
            n += (size_t)snprintf(buf + n, size - n, "%s%llu", n ? ", " : "", (unsigned long long)v);
}

static bool gn_opt_uint_ok(const gn_opt *o, const char *s, uint32_t *out)
{
    uint64_t v;
    if (!gn_parse_u64(s, &v) || (double)v < o->min || (double)v > o->max) return false;
    if (o->pow2 && !gn_is_pow2(v)) return false;
    *out = (uint32_t)v;
    return true;
}

static bool gn_opt_size(const gn_opt *o, const char *s, uint32_t out[2], bool *range_only)
{
    char w[32];
    const char *x = strpbrk(s, "xX");
    size_t wl = x ? (size_t)(x - s) : 0;
    uint64_t a, b;
    *range_only = false;
    if (!x || wl == 0 || wl >= sizeof w) return false;
    memcpy(w, s, wl);
    w[wl] = '\0';
    if (!gn_parse_u64(w, &a) || !gn_parse_u64(x + 1, &b)) return false;
    *range_only = true;
    if ((double)a < o->min || (double)a > o->max || (double)b < o->min || (double)b > o->max) return false;
    out[0] = (uint32_t)a;
    out[1] = (uint32_t)b;
    return true;
}

/* Splits "x,y,z,yaw,pitch" into five finite numbers; pitch is range-checked by the caller. */
/* Exactly n comma-separated numbers into out. */
static bool gn_opt_numbers(const char *s, int n, float *out)
{
    char buf[256];
    size_t len = strlen(s);
    if (len >= sizeof buf) return false;
    memcpy(buf, s, len + 1);
    char *p = buf;
    for (int i = 0; i < n; i++) {
        char *comma = strchr(p, ',');
        if ((i < n - 1) != (comma != NULL)) return false; /* exactly n - 1 commas */
        if (comma) *comma = '\0';
        double v;
        if (!gn_parse_double(p, &v)) return false;
        out[i] = (float)v;
        p = comma ? comma + 1 : p;
    }
    return true;
}

static bool gn_opt_apply(const char *command, const gn_opt *o, const char *v, char *err, size_t err_size)
{
    char list[256];
    /* the console names a setting without its dashes */
    const char *name = command ? o->name : o->name + 2;
    switch (o->kind) {
    case GN_OPT_STRING:
        if (!*v) {
            gn_opt_error(err, err_size, command, "%s expects %s, got an empty value", name, o->metavar);
            return false;
        }
        *(const char **)o->dest = v;
        return true;
    case GN_OPT_UINT:
        if (gn_opt_uint_ok(o, v, (uint32_t *)o->dest)) return true;
        if (o->pow2) {
            gn_opt_list(o, list, sizeof list);
            gn_opt_error(err, err_size, command, "%s expects one of %s, got '%s'", name, list, v);
        } else {
            gn_opt_error(err, err_size, command, "%s expects an integer in %.10g..%.10g, got '%s'", name,
                         o->min, o->max, v);
        }
        return false;
    case GN_OPT_AUTO_FLOAT:
        if (strcmp(v, "auto") == 0) {
            *(float *)o->dest = NAN;
            return true;
        }
        __attribute__((fallthrough)); /* a number */
    case GN_OPT_FLOAT: {
        double d;
        if (gn_parse_double(v, &d) && d >= o->min && d <= o->max) {
            *(float *)o->dest = (float)d;
            return true;
        }
        if (o->kind == GN_OPT_AUTO_FLOAT) {
            gn_opt_error(err, err_size, command, "%s expects auto or a number in %.10g..%.10g, got '%s'",
                         name, o->min, o->max, v);
            return false;
        }
        gn_opt_error(err, err_size, command, "%s expects a number in %.10g..%.10g, got '%s'", name, o->min,
                     o->max, v);
        return false;
    }
    case GN_OPT_SIZE: {
        bool range_only;
        if (gn_opt_size(o, v, (uint32_t *)o->dest, &range_only)) return true;
        if (range_only)
            gn_opt_error(err, err_size, command, "%s expects WxH with each side in %.10g..%.10g, got '%s'",
                         name, o->min, o->max, v);
        else
            gn_opt_error(err, err_size, command, "%s expects WxH, got '%s'", name, v);
        return false;
    }
    case GN_OPT_CHOICE:
        for (int i = 0; o->choices[i]; i++)
            if (strcmp(o->choices[i], v) == 0) {
                *(int *)o->dest = i;
                return true;
            }
        gn_opt_list(o, list, sizeof list);
        gn_opt_error(err, err_size, command, "%s expects one of %s, got '%s'", name, list, v);
        return false;
    case GN_OPT_FLAG:
        if (strcmp(v, "on") == 0 || strcmp(v, "1") == 0 || strcmp(v, "off") == 0 || strcmp(v, "0") == 0) {
            *(bool *)o->dest = strcmp(v, "on") == 0 || strcmp(v, "1") == 0;
            return true;
        }
        gn_opt_error(err, err_size, command, "%s expects on or off, got '%s'", name, v);
        return false;
    case GN_OPT_CAMERA: {
        float c[5];
        if (!gn_opt_numbers(v, 5, c)) {
            gn_opt_error(err, err_size, command, "%s expects x,y,z,yaw,pitch (five numbers), got '%s'", name,
                         v);
            return false;
        }
        if (c[4] < o->min || c[4] > o->max) {
            gn_opt_error(err, err_size, command, "%s expects pitch in %.10g..%.10g degrees, got '%s'", name,
                         o->min, o->max, v);
            return false;
        }
        memcpy(o->dest, c, sizeof c);
        return true;
    }
    case GN_OPT_FLOAT3: {
        float c[3];
        if (!gn_opt_numbers(v, 3, c)) {
            gn_opt_error(err, err_size, command, "%s expects three numbers a,b,c, got '%s'", name, v);
            return false;
        }
        for (int i = 0; i < 3; i++)
            if (c[i] < o->min || c[i] > o->max) {
                gn_opt_error(err, err_size, command, "%s expects each number in %.10g..%.10g, got '%s'", name,
                             o->min, o->max, v);
                return false;
            }
        memcpy(o->dest, c, sizeof c);
        return true;
    }
    }
    return false;
}

gn_parse_status gn_opts_parse(const char *command, const gn_opt *opts, uint32_t count, int argc, char **argv,
                              char *err, size_t err_size)
{
    err[0] = '\0';
    /* --help anywhere wins, so "gnomon render --size abc --help" still shows help. */
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return GN_PARSE_HELP;

    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            gn_opt_error(err, err_size, command, "unexpected argument '%s' (see 'gnomon %s --help')", arg,
                         command);
            return GN_PARSE_ERROR;
        }
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        const gn_opt *o = NULL;
        for (uint32_t k = 0; k < count && !o; k++)
            if (strlen(opts[k].name) == name_len && strncmp(opts[k].name, arg, name_len) == 0) o = &opts[k];
        if (!o) {
            gn_opt_error(err, err_size, command, "unknown option '%.*s' (see 'gnomon %s --help')",
                         (int)name_len, arg, command);
            return GN_PARSE_ERROR;
        }
        if (o->kind == GN_OPT_FLAG) {
            /* a flag takes no value: "--floors=off" would read as on to a script's author */
            if (eq) {
                gn_opt_error(err, err_size, command, "%s takes no value, got '%s'", o->name, eq + 1);
                return GN_PARSE_ERROR;
            }
            *(bool *)o->dest = true;
            if (o->seen) *o->seen = true;
            continue;
        }
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value) {
            gn_opt_error(err, err_size, command, "%s expects a value (%s)", o->name, o->metavar);
            return GN_PARSE_ERROR;
        }
        if (!gn_opt_apply(command, o, value, err, err_size)) return GN_PARSE_ERROR;
        if (o->seen) *o->seen = true;
    }
    return GN_PARSE_OK;
}

void gn_opts_print_help(FILE *f, const char *command, const char *summary, const gn_opt *opts, uint32_t count)
{
    fprintf(f, "usage: gnomon %s [options]\n\n%s\n\noptions:\n", command, summary);
    for (uint32_t i = 0; i < count; i++) {
        char left[64];
        if (opts[i].kind == GN_OPT_FLAG)
            snprintf(left, sizeof left, "%s", opts[i].name);
        else
            snprintf(left, sizeof left, "%s %s", opts[i].name, opts[i].metavar);
        fprintf(f, "  %-26s %s\n", left, opts[i].help);
    }
    fprintf(f, "  %-26s %s\n", "--help", "show this help");
}

const gn_opt *gn_opts_find(const gn_opt *opts, uint32_t count, const char *name)
{
    if (strncmp(name, "--", 2) == 0) name += 2;
    for (uint32_t k = 0; k < count; k++)
        if (strcmp(opts[k].name + 2, name) == 0) return &opts[k];
    return NULL;
}

bool gn_opts_set(const gn_opt *o, const char *value, char *err, size_t err_size)
{
    err[0] = '\0';
    if (!gn_opt_apply(NULL, o, value, err, err_size)) return false;
    if (o->seen) *o->seen = true;
    return true;
}

void gn_opts_format(const gn_opt *o, char *buf, size_t size)
{
    switch (o->kind) {
    case GN_OPT_STRING: {
        const char *v = *(const char *const *)o->dest;
        snprintf(buf, size, "%s", v ? v : "(none)");
        return;
    }
    case GN_OPT_UINT:
        snprintf(buf, size, "%u", *(const uint32_t *)o->dest);
        return;
    case GN_OPT_FLOAT:
        snprintf(buf, size, "%g", *(const float *)o->dest);
        return;
    case GN_OPT_AUTO_FLOAT:
        if (isnan(*(const float *)o->dest))
            snprintf(buf, size, "auto");
        else
            snprintf(buf, size, "%g", *(const float *)o->dest);
        return;
    case GN_OPT_SIZE:
        snprintf(buf, size, "%ux%u", ((const uint32_t *)o->dest)[0], ((const uint32_t *)o->dest)[1]);
        return;
    case GN_OPT_CHOICE: {
        int i = *(const int *)o->dest, n = 0;
        while (o->choices[n]) n++;
        snprintf(buf, size, "%s", i >= 0 && i < n ? o->choices[i] : "?");
        return;
    }
    case GN_OPT_FLAG:
        snprintf(buf, size, "%s", *(const bool *)o->dest ? "on" : "off");
        return;
    case GN_OPT_CAMERA: {
        const float *c = o->dest;
        snprintf(buf, size, "%g,%g,%g,%g,%g", c[0], c[1], c[2], c[3], c[4]);
        return;
    }
    case GN_OPT_FLOAT3: {
        const float *c = o->dest;
        snprintf(buf, size, "%g,%g,%g", c[0], c[1], c[2]);
        return;
    }
    }
    buf[0] = '\0';
}

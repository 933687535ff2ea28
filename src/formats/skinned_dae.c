/* COLLADA text checked whole before assimp 5.2.5 reads it (skinned_ctx.h): not the XML's whole
 * grammar, but what its COLLADA reader trusts. It loops on a token of a number list it cannot
 * read without moving past it (a "6@2" in a <p> list grew one array past 3 GB), and asserts
 * (aborting the process) when an accessor reads past its array or an array holds fewer values
 * than its count says (both found by fuzz_skinned). So each number list holds only numbers,
 * each array exactly its count, and each accessor fits the array it names. Every COLLADA file
 * of assimp-testmodels that assimp reads passes. */
#include "base/alloc.h"
#include "base/error.h"
#include "formats/skinned_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_DAE_MAX_ATTR 256u /* an id or a count as written */

static bool gn_dae_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* One number of an element's text: digits with a sign and, for reals, a decimal point ('.' or
 * ',': fast_atoreal takes both, and 3ds Max writes "21,920870") and an exponent of at most three
 * digits: what assimp's fast_atoreal and strtoul10 read to its end. */
static bool gn_dae_number(const uint8_t *p, size_t n, bool real)
{
    size_t i = p[0] == '-' || p[0] == '+' ? 1 : 0, digits = 0;
    while (i < n && p[i] >= '0' && p[i] <= '9') i++, digits++;
    if (real && i < n && (p[i] == '.' || p[i] == ','))
        for (i++; i < n && p[i] >= '0' && p[i] <= '9';) i++, digits++;
    if (real && digits && i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '-' || p[i] == '+')) i++;
        size_t e = i;
        while (i < n && p[i] >= '0' && p[i] <= '9') i++;
        if (i == e || i - e > 3) return false;
    }
    return digits && i == n;
}

/* The value of attribute `key` in the start tag tag..gt into out; false when absent. */
static bool gn_dae_attr(const uint8_t *tag, const uint8_t *gt, const char *key, char *out, size_t cap)
{
    size_t k = strlen(key);
    for (const uint8_t *p = tag; p + k + 2 < gt; p++) {
        if (!gn_dae_space(p[0]) || memcmp(p + 1, key, k) != 0 || p[k + 1] != '=' || p[k + 2] != '"') continue;
        const uint8_t *v = p + k + 3, *q = memchr(v, '"', (size_t)(gt - v));
        if (!q || (size_t)(q - v) >= cap) return false;
        memcpy(out, v, (size_t)(q - v)), out[q - v] = 0;
        return true;
    }
    return false;
}

/* An unsigned count as written in an attribute; -1 when it is none. */
static long long gn_dae_count(const char *s)
{
    long long v = 0;
    if (!*s) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (1ll << 40)) return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

typedef struct gn_dae_array {
    char id[GN_DAE_MAX_ATTR];
    long long count;
} gn_dae_array;

typedef struct gn_dae_accessor {
    char source[GN_DAE_MAX_ATTR];
    long long count, stride, offset;
    size_t at;
} gn_dae_accessor;

typedef struct gn_dae {
    const char *name;
    gn_error *err;
    gn_dae_array *arrays;
    size_t narrays, array_cap;
    gn_dae_accessor *accs;
    size_t naccs, acc_cap;
} gn_dae;

static bool gn_dae_grow(void **p, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap) return true;
    size_t c = *cap ? *cap * 2 : 64;
    void *q = gn_realloc(*p, c * elem);
    if (!q) return false;
    *p = q, *cap = c;
    return true;
}

/* Tags whose text assimp reads as a list of numbers until the text ends (with fast_atoreal or
 * strtoul10), and the arrays. Elements of a fixed count (<matrix>, <color>, ...) are read value
 * by value whatever the text holds: 3ds Max's "0,000000" reads as garbage, never as a loop, and
 * such files load. */
static const struct {
    const char *tag;
    bool real, array;
} gn_dae_lists[] = {{"p", false, false},         {"v", false, false},          {"vcount", false, false},
                    {"h", false, false},         {"int_array", false, true},   {"float_array", true, true},
                    {"Name_array", false, true}, {"IDREF_array", false, true}, {"bool_array", false, true},
                    {"accessor", false, false}};

/* The element starting at d[i] ('<'): checks its text or records its array or accessor; *next is
 * where the scan goes on. */
static gn_result gn_dae_element(gn_dae *x, const uint8_t *d, size_t n, size_t i, size_t *next)
{
    size_t t = i + 1, k = 0, nl = sizeof gn_dae_lists / sizeof gn_dae_lists[0];
    *next = i + 1;
    for (; k < nl; k++) {
        size_t len = strlen(gn_dae_lists[k].tag);
        if (t + len < n && memcmp(d + t, gn_dae_lists[k].tag, len) == 0 &&
            (d[t + len] == '>' || d[t + len] == '/' || gn_dae_space(d[t + len])))
            break;
    }
    if (k == nl) return GN_OK;
    const char *tag = gn_dae_lists[k].tag;
    const uint8_t *gt = memchr(d + t, '>', n - t);
    if (!gt)
        return gn_fail(x->err, GN_ERROR_BAD_DATA, "%s: <%s> at byte %zu is never closed", x->name, tag, i);
    char id[GN_DAE_MAX_ATTR] = "", count[32] = "";
    if (strcmp(tag, "accessor") == 0) {
        char stride[32] = "1", offset[32] = "0";
        gn_dae_accessor a = {.at = i};
        if (!gn_dae_attr(d + i, gt, "source", a.source, sizeof a.source) ||
            !gn_dae_attr(d + i, gt, "count", count, sizeof count))
            return gn_fail(x->err, GN_ERROR_BAD_DATA, "%s: <accessor> at byte %zu lacks its source or count",
                           x->name, i);
        gn_dae_attr(d + i, gt, "stride", stride, sizeof stride);
        gn_dae_attr(d + i, gt, "offset", offset, sizeof offset);
        a.count = gn_dae_count(count), a.stride = gn_dae_count(stride), a.offset = gn_dae_count(offset);
        if (a.count < 0 || a.stride < 1 || a.offset < 0)
            return gn_fail(x->err, GN_ERROR_BAD_DATA,
                           "%s: <accessor> at byte %zu: count, stride or offset is no count", x->name, i);
        if (!gn_dae_grow((void **)&x->accs, &x->acc_cap, x->naccs, sizeof *x->accs))
            return gn_fail(x->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", x->name);
        x->accs[x->naccs++] = a;
        *next = (size_t)(gt - d);
        return GN_OK;
    }
    size_t at = (size_t)(gt + 1 - d), end = at, tokens = 0;
    bool empty = gt[-1] == '/';
    while (!empty && end < n && d[end] != '<') end++;
    for (size_t s = at; s < end;) {
        if (gn_dae_space(d[s])) {
            s++;
            continue;
        }
        size_t e = s;
        while (e < end && !gn_dae_space(d[e])) e++;
        bool names = strcmp(tag, "Name_array") == 0 || strcmp(tag, "IDREF_array") == 0 ||
                     strcmp(tag, "bool_array") == 0;
        if (!names && !gn_dae_number(d + s, e - s, gn_dae_lists[k].real))
            return gn_fail(x->err, GN_ERROR_BAD_DATA, "%s: <%s> at byte %zu holds \"%.*s\", not %s", x->name,
                           tag, i, (int)(e - s < 24 ? e - s : 24), (const char *)d + s,
                           gn_dae_lists[k].real ? "a number" : "an integer");
        tokens++;
        s = e;
    }
    if (gn_dae_lists[k].array) {
        gn_dae_attr(d + i, gt, "id", id, sizeof id);
        long long c = gn_dae_attr(d + i, gt, "count", count, sizeof count) ? gn_dae_count(count) : -1;
        if (c != (long long)tokens)
            return gn_fail(x->err, GN_ERROR_BAD_DATA,
                           "%s: <%s> at byte %zu holds %zu values, its count says %s", x->name, tag, i,
                           tokens, c < 0 ? "none" : count);
        if (!gn_dae_grow((void **)&x->arrays, &x->array_cap, x->narrays, sizeof *x->arrays))
            return gn_fail(x->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", x->name);
        gn_dae_array *ar = &x->arrays[x->narrays++];
        snprintf(ar->id, sizeof ar->id, "%s", id);
        ar->count = c;
    }
    *next = end;
    return GN_OK;
}

gn_result gn_sk_dae_check(const uint8_t *d, size_t n, const char *name, gn_error *err)
{
    gn_dae x = {.name = name, .err = err};
    gn_result r =
        memchr(d, 0, n) ? gn_fail(err, GN_ERROR_BAD_DATA, "%s: a NUL byte in COLLADA XML text", name) : GN_OK;
    for (size_t i = 0; r == GN_OK && i + 1 < n;) {
        if (d[i] != '<') {
            i++;
            continue;
        }
        r = gn_dae_element(&x, d, n, i, &i);
    }
    /* each accessor against the array it names ("#id", within the file) */
    for (size_t a = 0; r == GN_OK && a < x.naccs; a++) {
        const gn_dae_accessor *acc = &x.accs[a];
        const gn_dae_array *ar = NULL;
        for (size_t k = 0; !ar && k < x.narrays; k++)
            if (acc->source[0] == '#' && strcmp(x.arrays[k].id, acc->source + 1) == 0) ar = &x.arrays[k];
        if (!ar)
            r = gn_fail(err, GN_ERROR_BAD_DATA,
                        "%s: <accessor> at byte %zu reads \"%.64s\", no array of the file", name, acc->at,
                        acc->source);
        else if (acc->count && acc->offset + acc->count * acc->stride > ar->count)
            r = gn_fail(
                err, GN_ERROR_BAD_DATA,
                "%s: <accessor> at byte %zu reads %lld values of %lld from offset %lld of \"%.64s\", which "
                "holds %lld",
                name, acc->at, acc->count, acc->stride, acc->offset, ar->id, ar->count);
    }
    free(x.arrays);
    free(x.accs);
    return r;
}

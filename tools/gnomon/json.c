/* The streaming JSON writer; see json.h. */
#include "json.h"

#include <math.h>

void gn_json_begin(gn_json *j, FILE *f) { *j = (gn_json){.f = f}; }

void gn_json_write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            /* Other control characters must be \u escapes; bytes >= 0x80 pass through, as
             * device names are UTF-8 already. */
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Writes the comma, line break and key that come before any value. */
static void gn_json_prefix(gn_json *j, const char *key)
{
    bool in_object = j->depth > 0 && j->object_[j->depth - 1];
    if (in_object != (key != NULL)) j->misuse = true;
    if (j->depth > 0) {
        uint32_t d = j->depth - 1;
        if (j->has_items[d]) fputc(',', j->f);
        if (j->inline_[d]) {
            if (j->has_items[d]) fputc(' ', j->f);
        } else {
            fputc('\n', j->f);
            for (uint32_t i = 0; i < j->depth; i++) fputs("  ", j->f);
        }
        j->has_items[d] = true;
    }
    if (in_object && key) {
        gn_json_write_escaped(j->f, key);
        fputs(": ", j->f);
    }
}

static void gn_json_open(gn_json *j, const char *key, char c, bool inline_)
{
    gn_json_prefix(j, key);
    fputc(c, j->f);
    if (j->depth >= GN_JSON_MAX_DEPTH) {
        j->misuse = true;
        return;
    }
    bool parent_inline = j->depth > 0 && j->inline_[j->depth - 1];
    j->has_items[j->depth] = false;
    j->inline_[j->depth] = inline_ || parent_inline;
    j->object_[j->depth] = c == '{';
    j->depth++;
}

static void gn_json_close(gn_json *j, char c)
{
    if (j->depth == 0) {
        j->misuse = true;
        return;
    }
    j->depth--;
    if (j->object_[j->depth] != (c == '}')) j->misuse = true;
    if (!j->inline_[j->depth] && j->has_items[j->depth]) {
        fputc('\n', j->f);
        for (uint32_t i = 0; i < j->depth; i++) fputs("  ", j->f);
    }
    fputc(c, j->f);
}

void gn_json_object_begin(gn_json *j, const char *key) { gn_json_open(j, key, '{', false); }
void gn_json_object_end(gn_json *j) { gn_json_close(j, '}'); }
void gn_json_array_begin(gn_json *j, const char *key) { gn_json_open(j, key, '[', true); }
void gn_json_array_end(gn_json *j) { gn_json_close(j, ']'); }

void gn_json_string(gn_json *j, const char *key, const char *value)
{
    gn_json_prefix(j, key);
    if (value)
        gn_json_write_escaped(j->f, value);
    else
        fputs("null", j->f);
}

void gn_json_number(gn_json *j, const char *key, double value)
{
    gn_json_prefix(j, key);
    /* %.9g keeps sub-microsecond timings; it never prints a bare "inf" or "nan". */
    if (isfinite(value))
        fprintf(j->f, "%.9g", value);
    else
        fputs("null", j->f);
}

void gn_json_uint(gn_json *j, const char *key, uint64_t value)
{
    gn_json_prefix(j, key);
    fprintf(j->f, "%llu", (unsigned long long)value);
}

void gn_json_bool(gn_json *j, const char *key, bool value)
{
    gn_json_prefix(j, key);
    fputs(value ? "true" : "false", j->f);
}

bool gn_json_end(gn_json *j)
{
    fputc('\n', j->f);
    return !j->misuse && j->depth == 0 && !ferror(j->f);
}

void gn_json_run_header(gn_json *j, const char *device, const char *scene, uint32_t width, uint32_t height,
                        uint32_t msaa)
{
    gn_json_string(j, "device", device);
    gn_json_string(j, "scene", scene);
    gn_json_array_begin(j, "size");
    gn_json_uint(j, NULL, width);
    gn_json_uint(j, NULL, height);
    gn_json_array_end(j);
    gn_json_uint(j, "msaa", msaa);
}

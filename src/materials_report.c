/* gn_materials_report: the archives' shader scripts as gnomon reads and compiles them, as text
 * (gnomon materials): the library's counts, its problems and unknown keywords, the compiled
 * shaders by draw class and what each leaves out; a map's surface shaders and how each resolves
 * (script, image, or a checker, with the images its stages name that no archive holds); one
 * shader's script, stages, state and disassembled program. */
#include "base/alloc.h"
#include "base/error.h"
#include "decide/q3_material.h"
#include "formats/bsp.h"
#include "formats/pak.h"
#include "formats/q3shader.h"
#include "gnomon.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_MAX_BYTES (64u << 20) /* the text's cap: every shader of a large set dumped fits */
#define REPORT_MAX_BSP (256u << 20)

typedef struct report_text {
    char *buf;
    size_t len, cap;
    bool failed; /* out of memory or over the cap: the text is cut */
} report_text;

static void __attribute__((format(printf, 2, 3))) put(report_text *t, const char *fmt, ...)
{
    if (t->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if (t->buf && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap <= t->len + (size_t)n) cap *= 2;
        char *b = cap <= REPORT_MAX_BYTES ? gn_realloc(t->buf, cap) : NULL;
        if (!b) {
            t->failed = true;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
}

static const char *const DRAW[] = {"opaque", "alpha-tested", "blended", "sky", "not drawn"};
static const char *const SOURCE[] = {"white", "image", "light ($lightmap)"};
static const char *const UV[] = {"base", "lightmap", "environment"};
static const char *const SRC_FACTOR[] = {"one",
                                         "zero",
                                         "dst_color",
                                         "one_minus_dst_color",
                                         "src_alpha",
                                         "one_minus_src_alpha",
                                         "dst_alpha",
                                         "one_minus_dst_alpha",
                                         "src_alpha_saturate"};
static const char *const DST_FACTOR[] = {"zero",      "one",
                                         "src_color", "one_minus_src_color",
                                         "src_alpha", "one_minus_src_alpha",
                                         "dst_alpha", "one_minus_dst_alpha"};
static const char *const ALPHA[] = {"none", "GT0", "LT128", "GE128"};

/* Whether an image (a name as a stage writes it) is in the archives: its extension dropped, tried as
 * .tga, .jpg, .png as the loader does. */
static bool image_exists(gn_pak *pak, const char *name)
{
    char base[GN_Q3_NAME_MAX];
    snprintf(base, sizeof base, "%s", name);
    char *dot = strrchr(base, '.'), *slash = strrchr(base, '/');
    if (dot && (!slash || dot > slash)) *dot = 0;
    static const char *const ext[] = {".tga", ".jpg", ".png"};
    for (int e = 0; e < 3; e++) {
        char path[GN_Q3_NAME_MAX + 8];
        snprintf(path, sizeof path, "%s%s", base, ext[e]);
        if (gn_pak_exists(pak, path)) return true;
    }
    return false;
}

static void dump_shader(report_text *t, const gn_q3_shader *sh, gn_pak *pak)
{
    size_t need = gn_q3_describe(sh, NULL, 0);
    char *script = gn_malloc(need + 1);
    if (script) {
        gn_q3_describe(sh, script, need + 1);
        put(t, "%s\n", script);
        free(script);
    }
    gn_q3_material *m = gn_malloc(sizeof *m);
    if (!m) {
        t->failed = true;
        return;
    }
    char why[256] = "";
    bool ok = gn_q3_material_compile(sh, m, why, sizeof why);
    put(t, "compiled: %s%s%s; state %08x (blend, depth, raster, bias bytes from the lowest); sort %g\n",
        DRAW[m->draw], ok ? "" : " (refused: ", ok ? "" : why, m->state, (double)m->sort);
    if (!ok) put(t, ")\n");
    for (uint32_t k = 0; k < m->slot_count; k++)
        put(t, "  slot %2u  %-48s %s%s\n", k, m->slots[k], m->slot_clamp[k] ? "clamped " : "",
            pak && !image_exists(pak, m->slots[k]) ? "(in no archive: white)" : "");
    for (uint32_t k = 0; k < m->stage_count; k++) {
        const gn_q3_mat_stage *st = &m->stages[k];
        put(t, "  stage %u: %s", k, SOURCE[st->source]);
        if (st->source == GN_Q3_SOURCE_IMAGE) put(t, " slots %u..%u", st->slot, st->slot + st->frames - 1);
        put(t, ", uv %s, blend %s %s, alpha test %s%s%s\n", UV[st->tc],
            SRC_FACTOR[GN_STATE_BLEND_SRC(st->blend)], DST_FACTOR[GN_STATE_BLEND_DST(st->blend)],
            ALPHA[st->alpha], st->lit ? ", times the light" : "", st->has_turb ? ", turbulence" : "");
    }
    if (m->unsupported || m->dropped_stages || m->dropped_frames)
        put(t, "  left out: %u unsupported (first: %s), %u stages and %u frames over the caps\n",
            m->unsupported, m->first_unsupported, m->dropped_stages, m->dropped_frames);
    gn_tfx_program p = gn_q3_material_program(m);
    put(t,
        "program: %u instructions, %u constants; outputs a stage: texture rows 0 and 1, colour, "
        "(turbulence amplitude, phase, animMap frame)\n",
        p.count, p.const_count);
    size_t n = gn_tfx_disassemble(&p, NULL, 0);
    char *dis = gn_malloc(n + 1);
    if (dis) {
        gn_tfx_disassemble(&p, dis, n + 1);
        put(t, "%s", dis);
        free(dis);
    }
    free(m);
}

/* The library's counts, problems, unknown keywords and the compiled shaders by class. */
static void summary(report_text *t, const gn_q3_library *lib)
{
    const gn_q3_report *r = &lib->report;
    put(t,
        "scripts: %u files, %u definitions of %u shaders (%u replaced by a later file, %u repeated in one), "
        "%u stages, %u tool keywords; %u problems, %u unknown keywords\n",
        r->files, r->definitions, lib->shader_count, r->overridden, r->duplicates, r->stages,
        r->tool_keywords, r->problem_count, r->unknown_count);
    for (uint32_t i = 0; i < r->problem_count && i < GN_Q3_MAX_PROBLEMS; i++)
        put(t, "  problem %s:%u %s: %s\n", r->problems[i].file, r->problems[i].line, r->problems[i].keyword,
            r->problems[i].message);
    for (uint32_t i = 0; i < r->unknown_count; i++)
        put(t, "  unknown %-32s %5u times, first at %s:%u\n", r->unknown[i].keyword, r->unknown[i].count,
            r->unknown[i].file, r->unknown[i].line);
    uint32_t classes[5] = {0}, refused = 0, unsupported = 0, with_unsupported = 0;
    gn_q3_material *m = gn_malloc(sizeof *m);
    if (!m) {
        t->failed = true;
        return;
    }
    for (uint32_t i = 0; i < lib->shader_count; i++) {
        char why[256];
        if (!gn_q3_material_compile(&lib->shaders[i], m, why, sizeof why)) {
            refused++;
            put(t, "  refused %s\n", why);
            continue;
        }
        classes[m->draw]++;
        unsupported += m->unsupported;
        with_unsupported += m->unsupported > 0;
    }
    free(m);
    put(t,
        "compiled: %u opaque, %u alpha-tested, %u blended, %u sky, %u not drawn; %u refused; %u shaders use "
        "%u unsupported keywords (deforms, videoMap, ...: drawn in their nearest supported form)\n",
        classes[0], classes[1], classes[2], classes[3], classes[4], refused, with_unsupported, unsupported);
}

/* A map's surface shaders: each resolves to a script, an image, or nothing (a checker). */
static gn_result map_table(report_text *t, const gn_q3_library *lib, gn_pak *pak, const char *map,
                           gn_error *err)
{
    char inner[256];
    if (snprintf(inner, sizeof inner, "maps/%s.bsp", map) >= (int)sizeof inner)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%.200s...: the map name is too long", map);
    if (!gn_pak_exists(pak, inner)) return gn_fail(err, GN_ERROR_IO, "no map %s in the archives", inner);
    uint8_t *data = NULL;
    size_t size = 0;
    gn_result res = gn_pak_read(pak, inner, REPORT_MAX_BSP, &data, &size, err);
    gn_bsp b = {0};
    if (!res) res = gn_bsp_parse(data, size, inner, NULL, &b, err);
    free(data);
    if (res) return res;
    uint32_t scripted = 0, imaged = 0, checkers = 0, missing_images = 0;
    put(t, "map %s: %u surface shaders\n", map, b.texture_count);
    for (uint32_t i = 0; i < b.texture_count; i++) {
        const char *name = b.textures[i].name;
        const gn_q3_shader *sh = gn_q3_library_find(lib, name);
        if (sh) {
            gn_q3_material *m = gn_malloc(sizeof *m);
            if (!m) {
                res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory");
                break;
            }
            char why[256];
            bool ok = gn_q3_material_compile(sh, m, why, sizeof why);
            uint32_t absent = 0;
            for (uint32_t k = 0; k < m->slot_count; k++) absent += !image_exists(pak, m->slots[k]);
            missing_images += absent;
            scripted++;
            put(t, "  %-48s script %s:%u, %s, %u stages, %u images (%u in no archive)\n", name, sh->file,
                sh->line, ok ? DRAW[m->draw] : "refused", m->stage_count, m->slot_count, absent);
            free(m);
        } else if (image_exists(pak, name)) {
            imaged++;
            put(t, "  %-48s image\n", name);
        } else {
            checkers++;
            put(t, "  %-48s neither a script nor an image: a checker\n", name);
        }
    }
    put(t,
        "map %s: %u by their scripts, %u by their image, %u checkers; %u images the scripts name are in no "
        "archive\n",
        map, scripted, imaged, checkers, missing_images);
    gn_bsp_free(&b);
    return res;
}

gn_result gn_materials_report(const gn_materials_desc *d, char **out, gn_error *err)
{
    if (!out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_materials_report: out is NULL");
    *out = NULL;
    if (!d || !d->paks) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_materials_report: no paks folder");
    gn_pak *pak = NULL;
    gn_result res = gn_pak_open(d->paks, &pak, err);
    if (res) return res;
    gn_q3_library lib = {0};
    res = gn_q3_library_add_pak(&lib, pak, err);
    report_text t = {0};
    if (!res) summary(&t, &lib);
    if (!res && d->map) res = map_table(&t, &lib, pak, d->map, err);
    if (!res && d->dump) {
        const gn_q3_shader *sh = gn_q3_library_find(&lib, d->dump);
        if (!sh)
            res = gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "no shader %s in the scripts of %s", d->dump,
                          d->paks);
        else
            dump_shader(&t, sh, pak);
    }
    if (!res && t.failed)
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for the materials report");
    gn_q3_library_free(&lib);
    gn_pak_close(pak);
    if (res) {
        free(t.buf);
        return res;
    }
    *out = t.buf;
    return GN_OK;
}

void gn_free_text(char *text) { free(text); }

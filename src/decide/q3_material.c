/* Quake 3 shaders compiled to stages and one TFX program (q3_material.h). The formulas are the
 * game's (its tr_shade_calc.c as the shader manual describes it): each tcMod is a 2x3 texture
 * matrix composed in the order written, colours and alphas from waves are clamped to [0, 1], the
 * animMap frame is floor(time * rate) modulo the frame count. */
#include "decide/q3_material.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------------------------ */

static void note_unsupported(gn_q3_material *m, const char *what)
{
    if (!m->unsupported++) snprintf(m->first_unsupported, sizeof m->first_unsupported, "%s", what);
}

/* Quake 3's blendFunc factors as the packed state's; -1 where a factor is not encodable (the
 * parser already refuses those as problems). */
static int blend_src(gn_q3_blend b)
{
    switch (b) {
    case GN_Q3_BLEND_ONE:
        return GN_BLEND_SRC_ONE;
    case GN_Q3_BLEND_ZERO:
        return GN_BLEND_SRC_ZERO;
    case GN_Q3_BLEND_DST_COLOR:
        return GN_BLEND_SRC_DST_COLOR;
    case GN_Q3_BLEND_ONE_MINUS_DST_COLOR:
        return GN_BLEND_SRC_ONE_MINUS_DST_COLOR;
    case GN_Q3_BLEND_SRC_ALPHA:
        return GN_BLEND_SRC_SRC_ALPHA;
    case GN_Q3_BLEND_ONE_MINUS_SRC_ALPHA:
        return GN_BLEND_SRC_ONE_MINUS_SRC_ALPHA;
    case GN_Q3_BLEND_DST_ALPHA:
        return GN_BLEND_SRC_DST_ALPHA;
    case GN_Q3_BLEND_ONE_MINUS_DST_ALPHA:
        return GN_BLEND_SRC_ONE_MINUS_DST_ALPHA;
    case GN_Q3_BLEND_SRC_ALPHA_SATURATE:
        return GN_BLEND_SRC_ALPHA_SATURATE;
    default:
        return -1;
    }
}

static int blend_dst(gn_q3_blend b)
{
    switch (b) {
    case GN_Q3_BLEND_ZERO:
        return GN_BLEND_DST_ZERO;
    case GN_Q3_BLEND_ONE:
        return GN_BLEND_DST_ONE;
    case GN_Q3_BLEND_SRC_COLOR:
        return GN_BLEND_DST_SRC_COLOR;
    case GN_Q3_BLEND_ONE_MINUS_SRC_COLOR:
        return GN_BLEND_DST_ONE_MINUS_SRC_COLOR;
    case GN_Q3_BLEND_SRC_ALPHA:
        return GN_BLEND_DST_SRC_ALPHA;
    case GN_Q3_BLEND_ONE_MINUS_SRC_ALPHA:
        return GN_BLEND_DST_ONE_MINUS_SRC_ALPHA;
    case GN_Q3_BLEND_DST_ALPHA:
        return GN_BLEND_DST_DST_ALPHA;
    case GN_Q3_BLEND_ONE_MINUS_DST_ALPHA:
        return GN_BLEND_DST_ONE_MINUS_DST_ALPHA;
    default:
        return -1;
    }
}

static gn_tfx_wave_func wave_func(gn_q3_wave_func f)
{
    switch (f) {
    case GN_Q3_WAVE_TRIANGLE:
        return GN_TFX_WAVE_TRIANGLE;
    case GN_Q3_WAVE_SQUARE:
        return GN_TFX_WAVE_SQUARE;
    case GN_Q3_WAVE_SAWTOOTH:
        return GN_TFX_WAVE_SAWTOOTH;
    case GN_Q3_WAVE_INVERSE_SAWTOOTH:
        return GN_TFX_WAVE_INVERSE_SAWTOOTH;
    case GN_Q3_WAVE_NOISE:
        return GN_TFX_WAVE_NOISE;
    default:
        return GN_TFX_WAVE_SIN; /* the game reads an unknown or missing name as sin */
    }
}

/* ---- emitting ----------------------------------------------------------------------------- */

typedef struct emit {
    gn_tfx_builder b;
} emit;

static void op(emit *e, gn_tfx_op o, uint8_t a, uint8_t b) { gn_tfx_emit(&e->b, o, a, b); }
static void k(emit *e, float x, float y, float z, float w) { gn_tfx_emit_const(&e->b, x, y, z, w); }
static void time_splat(emit *e) { op(e, GN_TFX_PUSH_EXTERN_FLOAT, GN_TFX_EXTERN_FRAME, 0); }

/* -> the wave's value (base + amplitude * f((time + ... ) ...)) splatted, as the game evaluates it */
static void wave(emit *e, const gn_q3_wave *w)
{
    k(e, w->base, w->amp, w->phase, w->freq);
    time_splat(e);
    op(e, GN_TFX_WAVE, (uint8_t)wave_func(w->func), 0);
}

/* -> the wave clamped to [0, 1] (rgbGen and alphaGen wave) */
static void wave_clamped(emit *e, const gn_q3_wave *w)
{
    wave(e, w);
    op(e, GN_TFX_SATURATE, 0, 0);
}

/* x -> x * (vector) */
static void scale_by(emit *e, float x, float y, float z, float w)
{
    k(e, x, y, z, w);
    op(e, GN_TFX_MUL, 0, 0);
}

/* x -> x + (vector) */
static void offset_by(emit *e, float x, float y, float z, float w)
{
    k(e, x, y, z, w);
    op(e, GN_TFX_ADD, 0, 0);
}

/* -> the two rows of one tcMod's matrix (row 0 below row 1); false for a tcMod that is not a
 * matrix (turb: an output of its own; entityTranslate: unsupported). */
static bool tcmod_rows(emit *e, const gn_q3_tcmod *t)
{
    switch (t->type) {
    case GN_Q3_TCMOD_SCROLL:
        /* the game keeps only the fraction of the offset (precision over long times) */
        for (int r = 0; r < 2; r++) {
            k(e, 0, 0, t->v[r], 0);
            time_splat(e);
            op(e, GN_TFX_MUL, 0, 0);
            op(e, GN_TFX_FRACT, 0, 0);
            offset_by(e, r == 0, r == 1, 0, 0);
        }
        return true;
    case GN_Q3_TCMOD_SCALE:
        k(e, t->v[0], 0, 0, 0);
        k(e, 0, t->v[1], 0, 0);
        return true;
    case GN_Q3_TCMOD_ROTATE: {
        /* degrees = -speed * time; sin and cos from the game's table (cos a quarter turn on) */
        gn_q3_wave sin_w = {
            .func = GN_Q3_WAVE_SIN, .base = 0, .amp = 1, .phase = 0, .freq = -t->v[0] / 360.0f};
        gn_q3_wave cos_w = sin_w;
        cos_w.phase = 0.25f;
        /* row 0 = (cos, -sin, 0.5 - 0.5 cos + 0.5 sin); row 1 = (sin, cos, 0.5 - 0.5 sin - 0.5 cos) */
        wave(e, &cos_w);
        scale_by(e, 1, 0, -0.5f, 0);
        wave(e, &sin_w);
        scale_by(e, 0, -1, 0.5f, 0);
        op(e, GN_TFX_ADD, 0, 0);
        offset_by(e, 0, 0, 0.5f, 0);
        wave(e, &sin_w);
        scale_by(e, 1, 0, -0.5f, 0);
        wave(e, &cos_w);
        scale_by(e, 0, 1, -0.5f, 0);
        op(e, GN_TFX_ADD, 0, 0);
        offset_by(e, 0, 0, 0.5f, 0);
        return true;
    }
    case GN_Q3_TCMOD_STRETCH:
        /* p = 1 / wave (the divide guarded: a wave through 0 gives 0, where the game divides by
           zero); rows (p, 0, 0.5 - 0.5 p) and (0, p, 0.5 - 0.5 p) */
        for (int r = 0; r < 2; r++) {
            k(e, 1, 1, 1, 1);
            wave(e, &t->wave);
            op(e, GN_TFX_DIV, 0, 0);
            scale_by(e, r == 0, r == 1, -0.5f, 0);
            offset_by(e, 0, 0, 0.5f, 0);
        }
        return true;
    case GN_Q3_TCMOD_TRANSFORM:
        /* s' = s m00 + t m10 + t0, t' = s m01 + t m11 + t1 */
        k(e, t->v[0], t->v[2], t->v[4], 0);
        k(e, t->v[1], t->v[3], t->v[5], 0);
        return true;
    default:
        return false;
    }
}

/* The stage's texture matrix: identity, then each tcMod composed after the ones before it. */
static void emit_texmat(emit *e, gn_q3_material *m, const gn_q3_stage *st, gn_q3_mat_stage *out)
{
    k(e, 1, 0, 0, 0);
    k(e, 0, 1, 0, 0);
    for (uint32_t i = 0; i < st->tcmod_count; i++) {
        const gn_q3_tcmod *t = &st->tcmods[i];
        if (t->type == GN_Q3_TCMOD_TURB) {
            /* applied to the uv before the matrix: exact when it comes first, as the game's
               shaders write it; a second turb is counted and left out */
            if (out->has_turb) note_unsupported(m, "a second tcMod turb");
            out->has_turb = true;
            continue;
        }
        if (tcmod_rows(e, t))
            op(e, GN_TFX_TEXMAT, 0, 0);
        else
            note_unsupported(m, "tcMod entityTranslate");
    }
}

/* -> the stage's rgba: rgbGen in rgb, alphaGen in a */
static void emit_colour(emit *e, gn_q3_material *m, const gn_q3_stage *st, gn_q3_mat_stage *out)
{
    switch (st->rgb_gen) {
    case GN_Q3_RGB_CONST:
        k(e, st->rgb_const[0], st->rgb_const[1], st->rgb_const[2], 0);
        break;
    case GN_Q3_RGB_WAVE:
        wave_clamped(e, &st->rgb_wave);
        break;
    case GN_Q3_RGB_ENTITY:
        op(e, GN_TFX_PUSH_EXTERN_VEC, GN_TFX_EXTERN_ENTITY, 0);
        break;
    case GN_Q3_RGB_ONE_MINUS_ENTITY:
        k(e, 1, 1, 1, 1);
        op(e, GN_TFX_PUSH_EXTERN_VEC, GN_TFX_EXTERN_ENTITY, 0);
        op(e, GN_TFX_SUB, 0, 0);
        break;
    case GN_Q3_RGB_VERTEX:
    case GN_Q3_RGB_EXACT_VERTEX:
    case GN_Q3_RGB_LIGHTING_DIFFUSE:
        /* the light the game baked into the vertices: gnomon's own light instead */
        out->lit = true;
        k(e, 1, 1, 1, 0);
        break;
    case GN_Q3_RGB_ONE_MINUS_VERTEX:
        note_unsupported(m, "rgbGen oneMinusVertex");
        k(e, 1, 1, 1, 0);
        break;
    default:
        k(e, 1, 1, 1, 0);
        break; /* identity, identityLighting, the default */
    }
    scale_by(e, 1, 1, 1, 0);
    switch (st->alpha_gen) {
    case GN_Q3_ALPHA_CONST:
        k(e, 0, 0, 0, st->alpha_const);
        break;
    case GN_Q3_ALPHA_WAVE:
        wave_clamped(e, &st->alpha_wave);
        scale_by(e, 0, 0, 0, 1);
        break;
    case GN_Q3_ALPHA_ENTITY:
        op(e, GN_TFX_PUSH_EXTERN_VEC, GN_TFX_EXTERN_ENTITY, 0);
        scale_by(e, 0, 0, 0, 1);
        break;
    case GN_Q3_ALPHA_ONE_MINUS_ENTITY:
        k(e, 0, 0, 0, 1);
        op(e, GN_TFX_PUSH_EXTERN_VEC, GN_TFX_EXTERN_ENTITY, 0);
        scale_by(e, 0, 0, 0, 1);
        op(e, GN_TFX_SUB, 0, 0);
        break;
    case GN_Q3_ALPHA_LIGHTING_SPECULAR:
        /* the highlight is per fragment: the GPU multiplies this 1 by it (mode bit 27) */
        out->specular_alpha = true;
        k(e, 0, 0, 0, 1);
        break;
    case GN_Q3_ALPHA_PORTAL:
        note_unsupported(m, "alphaGen portal");
        k(e, 0, 0, 0, 1);
        break;
    default:
        k(e, 0, 0, 0, 1);
        break; /* identity, vertex (the light is in rgb), the default */
    }
    op(e, GN_TFX_ADD, 0, 0);
}

/* -> (turbulence amplitude, its phase in turns, the animMap frame, 0) */
static void emit_extra(emit *e, const gn_q3_stage *st, const gn_q3_mat_stage *out)
{
    const gn_q3_tcmod *turb = NULL;
    for (uint32_t i = 0; i < st->tcmod_count && !turb; i++)
        if (st->tcmods[i].type == GN_Q3_TCMOD_TURB) turb = &st->tcmods[i];
    if (turb) {
        /* now = phase + time * frequency (the game's order) */
        k(e, turb->wave.freq, turb->wave.freq, turb->wave.freq, turb->wave.freq);
        time_splat(e);
        op(e, GN_TFX_MUL, 0, 0);
        offset_by(e, turb->wave.phase, turb->wave.phase, turb->wave.phase, turb->wave.phase);
        scale_by(e, 0, 1, 0, 0);
        offset_by(e, turb->wave.amp, 0, 0, 0);
    } else {
        k(e, 0, 0, 0, 0);
    }
    if (out->source == GN_Q3_SOURCE_IMAGE && out->frames > 1) {
        /* floor(time * rate) mod frames, negative times giving frame 0 as in the game */
        float n = (float)out->frames;
        time_splat(e);
        scale_by(e, st->anim_freq, st->anim_freq, st->anim_freq, st->anim_freq);
        op(e, GN_TFX_FLOOR, 0, 0);
        k(e, 0, 0, 0, 0);
        op(e, GN_TFX_MAX, 0, 0);
        op(e, GN_TFX_DUP, 0, 0);
        k(e, n, n, n, n);
        op(e, GN_TFX_DIV, 0, 0);
        op(e, GN_TFX_FLOOR, 0, 0);
        scale_by(e, n, n, n, n);
        op(e, GN_TFX_SUB, 0, 0);
        scale_by(e, 0, 0, 1, 0);
        op(e, GN_TFX_ADD, 0, 0);
    }
}

/* ---- vertex deforms ----------------------------------------------------------------------- */

/* Quake units a metre (GN_GPU_Q3_UNITS_PER_METRE, bsp.h's unit inverted) */
#define Q3_UNITS_PER_METRE 39.37008f

/* A deform's two outputs (gn_q3_vertex_deform says what they hold) and its kind in m->deforms;
 * false for one the GPU does not apply (normal, projectionShadow, text) or past the limit. */
static bool emit_deform(emit *e, gn_q3_material *m, const gn_q3_deform *d)
{
    uint32_t kind = d->type == GN_Q3_DEFORM_WAVE          ? GN_Q3_VDEFORM_WAVE
                    : d->type == GN_Q3_DEFORM_BULGE       ? GN_Q3_VDEFORM_BULGE
                    : d->type == GN_Q3_DEFORM_MOVE        ? GN_Q3_VDEFORM_MOVE
                    : d->type == GN_Q3_DEFORM_AUTOSPRITE  ? GN_Q3_VDEFORM_AUTOSPRITE
                    : d->type == GN_Q3_DEFORM_AUTOSPRITE2 ? GN_Q3_VDEFORM_AUTOSPRITE2
                    : d->type == GN_Q3_DEFORM_NORMAL      ? GN_Q3_VDEFORM_NORMAL
                                                          : GN_Q3_VDEFORM_NONE;
    if (kind == GN_Q3_VDEFORM_NONE || m->deform_count >= GN_Q3_MAT_DEFORMS) return false;
    const float u = 1.0f / Q3_UNITS_PER_METRE;
    const gn_q3_wave *w = &d->wave;
    switch (kind) {
    case GN_Q3_VDEFORM_WAVE:
        k(e, (float)kind, (float)wave_func(w->func), w->base * u, w->amp * u);
        /* phase now = fract(phase + time * frequency), the game's order; its spread is 1 / div,
           and 100 where div is 0 (as the game substitutes) */
        k(e, w->freq, w->freq, w->freq, w->freq);
        time_splat(e);
        op(e, GN_TFX_MUL, 0, 0);
        offset_by(e, w->phase, w->phase, w->phase, w->phase);
        op(e, GN_TFX_FRACT, 0, 0);
        scale_by(e, 1, 0, 0, 0);
        offset_by(e, 0, d->div != 0.0f ? 1.0f / d->div : 100.0f, 0, 0);
        break;
    case GN_Q3_VDEFORM_BULGE:
        k(e, (float)kind, 0, d->bulge[0], d->bulge[1] * u);
        /* phase now = time * speed in radians, kept within a turn (sin's period) for precision */
        k(e, d->bulge[2] / 6.28318531f, 0, 0, 0);
        time_splat(e);
        op(e, GN_TFX_MUL, 0, 0);
        op(e, GN_TFX_FRACT, 0, 0);
        scale_by(e, 6.28318531f, 0, 0, 0);
        break;
    case GN_Q3_VDEFORM_MOVE:
        k(e, (float)kind, 0, 0, 0);
        /* the game's vector (x, y, z) is gnomon's (x, z, -y), in metres, times the wave */
        wave(e, w);
        scale_by(e, d->move[0] * u, d->move[2] * u, -d->move[1] * u, 0);
        break;
    case GN_Q3_VDEFORM_NORMAL:
        /* the game reads `normal amplitude frequency` into the wave's amp and freq */
        k(e, (float)kind, 0, w->amp, 0);
        k(e, w->freq, 0, 0, 0);
        time_splat(e);
        op(e, GN_TFX_MUL, 0, 0);
        break;
    default: /* autosprite and autosprite2: the kind alone */
        k(e, (float)kind, 0, 0, 0);
        k(e, 0, 0, 0, 0);
        break;
    }
    uint8_t o = (uint8_t)(m->stage_count * GN_Q3_MAT_OUTPUTS + m->deform_count * GN_Q3_MAT_DEFORM_OUTPUTS);
    op(e, GN_TFX_POP_OUT, (uint8_t)(o + 1), 0);
    op(e, GN_TFX_POP_OUT, o, 0);
    m->deforms[m->deform_count++] = kind;
    return true;
}

/* ---- slots -------------------------------------------------------------------------------- */

/* The slot of an image name, added when new; UINT32_MAX (and counted) when the slots are full. */
static uint32_t slot_of(gn_q3_material *m, const char *name, bool clamp)
{
    for (uint32_t i = 0; i < m->slot_count; i++)
        if (m->slot_clamp[i] == clamp && strcmp(m->slots[i], name) == 0) return i;
    if (m->slot_count == GN_Q3_MAT_SLOTS) return UINT32_MAX;
    snprintf(m->slots[m->slot_count], GN_Q3_NAME_MAX, "%s", name);
    m->slot_clamp[m->slot_count] = clamp;
    return m->slot_count++;
}

/* The sky box's six faces into slots 0..5 in gnomon's cube order: Quake's rt (+x), lf (-x), up
 * (+z, gnomon's +y), dn, ft (-y, gnomon's +z) and bk. */
static void add_box(gn_q3_material *m, const char *base)
{
    static const char *const suffix[6] = {"rt", "lf", "up", "dn", "ft", "bk"};
    for (int f = 0; f < 6; f++) {
        char name[GN_Q3_NAME_MAX + 8];
        snprintf(name, sizeof name, "%s_%s", base, suffix[f]);
        if (strlen(name) >= GN_Q3_NAME_MAX) return;
        snprintf(m->slots[f], GN_Q3_NAME_MAX, "%s", name);
        m->slot_clamp[f] = true;
    }
    m->slot_count = 6;
    m->has_box = true;
}

/* ---- the compiler ------------------------------------------------------------------------- */

static uint32_t draw_class(const gn_q3_shader *s, const gn_q3_material *m)
{
    if (s->surface_flags & GN_Q3_SURF_SKY) return GN_Q3_DRAW_SKY;
    if ((s->surface_flags & GN_Q3_SURF_NODRAW) || m->stage_count == 0) return GN_Q3_DRAW_NONE;
    if (GN_STATE_BLEND_SRC(m->stages[0].blend) != GN_BLEND_SRC_ONE ||
        GN_STATE_BLEND_DST(m->stages[0].blend) != GN_BLEND_DST_ZERO)
        return GN_Q3_DRAW_BLEND;
    return m->stages[0].alpha != GN_ALPHA_TEST_NONE ? GN_Q3_DRAW_MASK : GN_Q3_DRAW_OPAQUE;
}

/* The material's own state bytes, from its first stage and its shader-wide keywords; the
 * override bit where the script stated the value. */
static uint32_t material_state(const gn_q3_shader *s, const gn_q3_material *m)
{
    const gn_q3_stage *st = s->stage_count ? &s->stages[0] : NULL;
    uint8_t blend = 0, depth = 0, raster = 0, bias = 0;
    if (st && st->blend_src != GN_Q3_BLEND_NONE) blend = (uint8_t)(m->stages[0].blend | GN_STATE_OVERRIDE);
    bool blended = m->stage_count && m->stages[0].blend != GN_STATE_BLEND_OPAQUE;
    /* a blended stage writes no depth unless it says depthWrite (the game's rule) */
    bool no_write = blended && !(st && st->depth_write);
    if (no_write || (st && (st->depth_write || st->depth_func != GN_Q3_DEPTH_LEQUAL)))
        depth = (uint8_t)(GN_STATE_DEPTH(st && st->depth_func == GN_Q3_DEPTH_EQUAL ? GN_DEPTH_EQUAL
                                                                                   : GN_DEPTH_LEQUAL,
                                         no_write) |
                          GN_STATE_OVERRIDE);
    uint32_t cull = s->cull == GN_Q3_CULL_BACK   ? GN_CULL_BACK_SIDED
                    : s->cull == GN_Q3_CULL_NONE ? GN_CULL_TWO_SIDED
                                                 : GN_CULL_FRONT_SIDED;
    uint32_t alpha = m->stage_count ? m->stages[0].alpha : GN_ALPHA_TEST_NONE;
    if (cull != GN_CULL_FRONT_SIDED || alpha != GN_ALPHA_TEST_NONE)
        raster = (uint8_t)(GN_STATE_RASTER(cull, alpha) | GN_STATE_OVERRIDE);
    if (s->polygon_offset) bias = GN_STATE_BIAS_POLYGON_OFFSET | GN_STATE_OVERRIDE;
    return GN_STATE_PACK(blend, depth, raster, bias);
}

/* Quake 3's inferred sort when the script gives none: sky 2, opaque 3, a blended first stage
 * "additive" 10 unless it writes depth, seeThrough 5 for an alpha-tested one. */
static float inferred_sort(const gn_q3_shader *s, const gn_q3_material *m)
{
    if (s->sort > 0) return s->sort;
    if (m->draw == GN_Q3_DRAW_SKY) return 2;
    if (m->draw == GN_Q3_DRAW_BLEND) return s->stages[0].depth_write ? 3 : 10;
    if (m->draw == GN_Q3_DRAW_MASK) return 5;
    return 3;
}

bool gn_q3_material_compile(const gn_q3_shader *s, gn_q3_material *out, char *msg, size_t cap)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", s->name);
    emit e = {gn_tfx_builder_make(out->code, GN_Q3_MAT_CODE_MAX, out->consts, GN_Q3_MAT_CONSTS_MAX)};
    if (s->has_sky) {
        out->cloud_height = s->sky_cloud_height > 0 ? s->sky_cloud_height : 512.0f; /* the game's default */
        if (s->sky_far[0]) add_box(out, s->sky_far);
    }
    for (uint32_t i = 0; i < s->stage_count; i++) {
        const gn_q3_stage *st = &s->stages[i];
        if (out->stage_count == GN_Q3_MAT_STAGES) {
            out->dropped_stages++;
            continue;
        }
        gn_q3_mat_stage *ms = &out->stages[out->stage_count];
        memset(ms, 0, sizeof *ms);
        /* the source */
        if (st->map_kind == GN_Q3_MAP_LIGHTMAP) {
            ms->source = GN_Q3_SOURCE_LIGHT;
        } else if (st->map_kind == GN_Q3_MAP_IMAGE || st->map_kind == GN_Q3_MAP_ANIM) {
            uint32_t n = st->map_kind == GN_Q3_MAP_ANIM ? st->anim_frame_count : 1;
            uint32_t first = UINT32_MAX, got = 0;
            for (uint32_t f = 0; f < n; f++) {
                const char *name = st->map_kind == GN_Q3_MAP_ANIM ? st->anim_frames[f] : st->map;
                /* a frame's slots must follow each other: a frame equal to an earlier image still
                   takes a slot of its own */
                uint32_t slot = UINT32_MAX;
                if (n == 1) {
                    slot = slot_of(out, name, st->clamp);
                } else if (out->slot_count < GN_Q3_MAT_SLOTS) {
                    slot = out->slot_count++;
                    snprintf(out->slots[slot], GN_Q3_NAME_MAX, "%s", name);
                    out->slot_clamp[slot] = st->clamp;
                }
                if (slot == UINT32_MAX) {
                    out->dropped_frames += n - f;
                    break;
                }
                if (first == UINT32_MAX) first = slot;
                got++;
            }
            if (got) {
                ms->source = GN_Q3_SOURCE_IMAGE;
                ms->slot = first;
                ms->frames = got;
                ms->clamp = st->clamp;
            }
        } else if (st->map_kind == GN_Q3_MAP_VIDEO) {
            note_unsupported(out, "videoMap");
        }
        /* texture coordinates */
        ms->tc = st->tc_gen == GN_Q3_TC_ENVIRONMENT ? GN_Q3_UV_ENV
                 : st->tc_gen == GN_Q3_TC_LIGHTMAP ||
                         (st->tc_gen == GN_Q3_TC_DEFAULT && ms->source == GN_Q3_SOURCE_LIGHT)
                     ? GN_Q3_UV_LIGHTMAP
                     : GN_Q3_UV_BASE;
        if (st->tc_gen == GN_Q3_TC_VECTOR) note_unsupported(out, "tcGen vector");
        /* the blend and the alpha test */
        ms->blend = GN_STATE_BLEND_OPAQUE;
        if (st->blend_src != GN_Q3_BLEND_NONE) {
            int sf = blend_src(st->blend_src), df = blend_dst(st->blend_dst);
            if (sf >= 0 && df >= 0)
                ms->blend = GN_STATE_BLEND(sf, df);
            else
                note_unsupported(out, "blendFunc factor");
        }
        ms->alpha = st->alpha_func == GN_Q3_ALPHA_FUNC_GT0     ? GN_ALPHA_TEST_GT0
                    : st->alpha_func == GN_Q3_ALPHA_FUNC_LT128 ? GN_ALPHA_TEST_LT128
                    : st->alpha_func == GN_Q3_ALPHA_FUNC_GE128 ? GN_ALPHA_TEST_GE128
                                                               : GN_ALPHA_TEST_NONE;
        /* the program: rows, colour, extra, popped in reverse (the top first) */
        uint8_t o = (uint8_t)(out->stage_count * GN_Q3_MAT_OUTPUTS);
        emit_texmat(&e, out, st, ms);
        op(&e, GN_TFX_POP_OUT, (uint8_t)(o + 1), 0);
        op(&e, GN_TFX_POP_OUT, o, 0);
        emit_colour(&e, out, st, ms);
        op(&e, GN_TFX_POP_OUT, (uint8_t)(o + 2), 0);
        emit_extra(&e, st, ms);
        op(&e, GN_TFX_POP_OUT, (uint8_t)(o + 3), 0);
        out->stage_count++;
    }
    for (uint32_t d = 0; d < s->deform_count; d++) {
        static const char *const names[] = {"",
                                            "deformVertexes wave",
                                            "deformVertexes normal",
                                            "deformVertexes bulge",
                                            "deformVertexes move",
                                            "deformVertexes autosprite",
                                            "deformVertexes autosprite2",
                                            "deformVertexes projectionShadow",
                                            "deformVertexes text"};
        uint32_t t = s->deforms[d].type;
        if (emit_deform(&e, out, &s->deforms[d])) continue;
        note_unsupported(out, t < sizeof names / sizeof names[0] ? names[t] : "deformVertexes");
    }
    out->no_mipmaps = s->no_mipmaps;
    out->unlit = true;
    for (uint32_t k = 0; k < out->stage_count; k++)
        if (out->stages[k].lit || out->stages[k].source == GN_Q3_SOURCE_LIGHT) out->unlit = false;
    out->draw = draw_class(s, out);
    out->state = material_state(s, out);
    out->sort = inferred_sort(s, out);
    out->code_count = e.b.count;
    out->const_count = e.b.const_count;
    if (e.b.full) {
        if (msg && cap)
            snprintf(msg, cap, "%s: the stages' program is over %u instructions or %u constants", s->name,
                     GN_Q3_MAT_CODE_MAX, GN_Q3_MAT_CONSTS_MAX);
        out->draw = GN_Q3_DRAW_NONE;
        return false;
    }
    gn_tfx_program p = gn_q3_material_program(out);
    gn_tfx_limits lim = gn_q3_material_limits(out);
    char why[160];
    if (!gn_tfx_validate(&p, &lim, why, sizeof why)) {
        if (msg && cap) snprintf(msg, cap, "%s: %s", s->name, why);
        out->draw = GN_Q3_DRAW_NONE;
        return false;
    }
    return true;
}

gn_tfx_program gn_q3_material_program(const gn_q3_material *m)
{
    return (gn_tfx_program){m->code, m->code_count, m->consts, m->const_count};
}

uint32_t gn_q3_material_outputs(const gn_q3_material *m)
{
    return m->stage_count * GN_Q3_MAT_OUTPUTS + m->deform_count * GN_Q3_MAT_DEFORM_OUTPUTS;
}

gn_tfx_limits gn_q3_material_limits(const gn_q3_material *m)
{
    gn_tfx_limits lim = {{0}, gn_q3_material_outputs(m)};
    lim.extern_vecs[GN_TFX_EXTERN_FRAME] = 1;
    lim.extern_vecs[GN_TFX_EXTERN_ENTITY] = 1;
    return lim;
}

void gn_q3_material_eval(const gn_q3_material *m, float seconds, const float *entity_rgba, gn_tfx_vec4 *out)
{
    gn_tfx_vec4 frame = {{seconds, 0, 0, 0}}, entity = {{1, 1, 1, 1}};
    if (entity_rgba) memcpy(entity.v, entity_rgba, sizeof entity.v);
    gn_tfx_block ext[GN_TFX_EXTERN_COUNT] = {{0}};
    ext[GN_TFX_EXTERN_FRAME] = (gn_tfx_block){&frame, 1};
    ext[GN_TFX_EXTERN_ENTITY] = (gn_tfx_block){&entity, 1};
    gn_tfx_program p = gn_q3_material_program(m);
    gn_tfx_run(&p, ext, out, gn_q3_material_outputs(m));
}

/* ---- the sky's mappings ------------------------------------------------------------------- */

uint32_t gn_q3_sky_box_uv(const float dir[3], float uv[2])
{
    /* Quake's axes: x forward, y left, z up */
    float q[3] = {dir[0], -dir[2], dir[1]};
    float ax = fabsf(q[0]), ay = fabsf(q[1]), az = fabsf(q[2]);
    float s, t;
    uint32_t face;
    /* each face's (s, t) in [-1, 1] as the game's box spans it (its st_to_vec table inverted) */
    if (ax >= ay && ax >= az) {
        face = q[0] >= 0 ? 0u : 1u;
        s = (q[0] >= 0 ? -q[1] : q[1]) / ax;
        t = q[2] / ax;
    } else if (az >= ay) {
        face = q[2] >= 0 ? 2u : 3u;
        s = -q[1] / az;
        t = (q[2] >= 0 ? -q[0] : q[0]) / az;
    } else {
        /* Quake's -y is gnomon's +z (face 4, "ft"); +y is face 5 ("bk") */
        face = q[1] < 0 ? 4u : 5u;
        s = (q[1] < 0 ? -q[0] : q[0]) / ay;
        t = q[2] / ay;
    }
    uv[0] = (s + 1.0f) * 0.5f;
    uv[1] = 1.0f - (t + 1.0f) * 0.5f;
    return face;
}

void gn_q3_sky_dome_uv(const float dir[3], float height, float uv[2])
{
    const float radius = 4096.0f; /* the game's world radius for its cloud dome */
    float q[3] = {dir[0], -dir[2], dir[1]};
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    for (int i = 0; i < 3; i++) q[i] /= len > 0 ? len : 1.0f;
    /* |p q + (0, 0, R)| = R + h for the eye at the sphere's top: p = -R qz + sqrt(R^2 qz^2 + h^2 + 2Rh) */
    float p =
        -radius * q[2] + sqrtf(radius * radius * q[2] * q[2] + height * height + 2.0f * radius * height);
    float v[3] = {q[0] * p, q[1] * p, q[2] * p + radius};
    float vl = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    uv[0] = acosf(v[0] / vl);
    uv[1] = acosf(v[1] / vl);
}

uint32_t gn_q3_sort_rank(const gn_q3_material *m)
{
    float sort = m ? m->sort : 3.0f;
    if (!(sort >= 0.0f)) sort = 0.0f;
    if (sort > 1e6f) sort = 1e6f;
    return (uint32_t)(sort * 1024.0f);
}

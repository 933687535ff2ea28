/* A Quake 3 shader compiled for drawing (issue 18; seed 002, "Scopes and TFX"): what each stage
 * reads and how it blends, fixed at load, and one TFX program (src/decide/tfx.h) that computes every
 * stage's per-frame values (its texture matrix from the tcMods, its colour and alpha from rgbGen and
 * alphaGen, its turbulence and its animMap frame) from the externs, evaluated once a frame for the
 * materials in view into the constants the GPU reads (gn_gpu_stage).
 *
 * How a shader becomes one draw. Each Quake 3 stage maps what lies under it (the framebuffer fb) to
 * fb * D + P, per colour channel, where P and D come from the stage's colour and its blendFunc
 * factors (a source factor that reads the destination folds into D). A chain of such maps is one
 * map of the same form, so the whole shader is fb * D + P, composed stage by stage in the fragment
 * shader (shaders/q3_stages.glsl) and blended once by the hardware: dual-source blending (one,
 * src1_color) puts P and D on the framebuffer exactly as the stages would have, one after another.
 * A shader whose first stage replaces (no blendFunc, or one zero) has D = 0: it is opaque.
 *
 * The light. Quake 3 bakes light into `$lightmap` stages and vertex colours; gnomon lights surfaces
 * itself (sun with its shadows, clustered lights, image-based ambient, the lightmap as irradiance).
 * So each value is carried as an affine function of the light L: a * L + b. A `$lightmap` stage
 * reads L, an `rgbGen vertex`, `exactVertex` or `lightingDiffuse` colour multiplies by it; P's a is
 * then the albedo gnomon lights and P's b an emission (fullbright: skies, flares, lava's glow). A
 * product of two lit values would hold L squared: it is kept as L (the lit part is the product of
 * the albedos), the one approximation of the scheme; D's lit part is taken at L = 1.
 *
 * Pure: nothing allocated, no Vulkan, no I/O. */
#ifndef GN_DECIDE_Q3_MATERIAL_H
#define GN_DECIDE_Q3_MATERIAL_H

#include "decide/tfx.h"
#include "formats/q3shader.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GN_Q3_MAT_STAGES 8  /* stages drawn (Quake 3's MAX_SHADER_STAGES) */
#define GN_Q3_MAT_SLOTS 16  /* images a material binds: its stages' maps, animMap frames, sky box */
#define GN_Q3_MAT_OUTPUTS 4 /* TFX outputs a stage: texture rows 0 and 1, colour, extra */
#define GN_Q3_MAT_DEFORMS 3 /* vertex deforms a material (Quake 3's own limit) */
#define GN_Q3_MAT_DEFORM_OUTPUTS 2
/* every output a material's program may write: its stages', then its deforms' */
#define GN_Q3_MAT_OUTPUT_MAX                                                                                 \
    (GN_Q3_MAT_STAGES * GN_Q3_MAT_OUTPUTS + GN_Q3_MAT_DEFORMS * GN_Q3_MAT_DEFORM_OUTPUTS)
#define GN_Q3_MAT_CODE_MAX 1024 /* instructions of a material's program */
#define GN_Q3_MAT_CONSTS_MAX 128

/* What a stage samples. */
typedef enum gn_q3_source {
    GN_Q3_SOURCE_WHITE = 0, /* $whiteimage, or an image that is missing (drawn white: see the counts) */
    GN_Q3_SOURCE_IMAGE,     /* its slots: `frames` of them from `slot` (animMap, else 1) */
    GN_Q3_SOURCE_LIGHT,     /* $lightmap: the light L itself */
} gn_q3_source;

/* Where a stage's texture coordinates come from (tcGen). */
typedef enum gn_q3_uv {
    GN_Q3_UV_BASE = 0, /* the surface's uv */
    GN_Q3_UV_LIGHTMAP, /* its lightmap uv (the atlas's: the loader remaps) */
    GN_Q3_UV_ENV,      /* environment: the reflected view vector, as Quake 3 maps it */
} gn_q3_uv;

/* A vertex deform as the GPU applies it (shaders/common.glsl, gn_q3_deform): its two outputs,
 * evaluated each frame, are in gnomon's metres and axes.
 *   wave:       (kind, waveform, base, amplitude), (phase now in turns, spread a game unit, 0, 0):
 *               moved along the normal by base + amplitude * f(phase + spread * (x + y + z)), the
 *               position's game-unit coordinates summed, as the game spreads its waves
 *   bulge:      (kind, 0, width, height), (phase now in radians, 0, 0, 0): along the normal by
 *               height * sin(width * s + phase), s the texture coordinate
 *   move:       (kind, 0, 0, 0), (the offset now: the vector times the wave)
 *   autosprite: (kind, 0, 0, 0), 0: each quad (four vertices from the face's first) turned to face
 *               the viewer about its centre
 *   autosprite2: (kind, 0, 0, 0), 0: each quad turned about its long axis to face the viewer
 *   normal:     (kind, 0, amplitude, 0), (time * frequency, 0, 0, 0): the normal moved by the
 *               amplitude times a smooth noise of the position (game units) and that time, each
 *               axis its own, then renormalised (the position stays) */
typedef enum gn_q3_vertex_deform {
    GN_Q3_VDEFORM_NONE = 0,
    GN_Q3_VDEFORM_WAVE = 1,
    GN_Q3_VDEFORM_BULGE = 2,
    GN_Q3_VDEFORM_MOVE = 3,
    GN_Q3_VDEFORM_AUTOSPRITE = 4,
    GN_Q3_VDEFORM_NORMAL = 5,
    GN_Q3_VDEFORM_AUTOSPRITE2 = 6,
} gn_q3_vertex_deform;

/* The draw class a material falls in: which passes draw it. */
typedef enum gn_q3_draw {
    GN_Q3_DRAW_OPAQUE = 0, /* D = 0 and no alpha test: depth prepass, casters, forward opaque */
    GN_Q3_DRAW_MASK,       /* D = 0, the first stage alpha-tested: drawn where its alpha passes */
    GN_Q3_DRAW_BLEND,      /* D != 0: after the opaque scene, no depth written, casts no shadow */
    GN_Q3_DRAW_SKY,        /* surfaceparm sky: not drawn; the sky pass draws the shader */
    GN_Q3_DRAW_NONE,       /* nodraw, or no stage at all (clip and hint brushes) */
} gn_q3_draw;

typedef struct gn_q3_mat_stage {
    uint32_t source; /* gn_q3_source */
    uint32_t slot, frames;
    uint32_t tc;         /* gn_q3_uv */
    uint8_t blend;       /* GN_STATE_BLEND byte of its blendFunc (opaque when none) */
    uint8_t alpha;       /* gn_alpha_test */
    bool lit;            /* its colour multiplies by the light (rgbGen vertex, exactVertex,
                            lightingDiffuse) */
    bool clamp;          /* clampMap */
    bool has_turb;       /* a tcMod turb (its amplitude and phase are outputs) */
    bool specular_alpha; /* alphaGen lightingSpecular: its alpha times the key light's highlight,
                            (r . v)^4 with r the light's reflection, as the game computes it */
} gn_q3_mat_stage;

typedef struct gn_q3_material {
    char name[GN_Q3_NAME_MAX];
    uint32_t draw;  /* gn_q3_draw */
    uint32_t state; /* the material's render state, the four bytes of tfx.h (override bits set
                       where the script states them: blendFunc, depthWrite, depthFunc, cull,
                       alphaFunc, polygonOffset) */
    uint32_t stage_count;
    gn_q3_mat_stage stages[GN_Q3_MAT_STAGES];
    uint32_t deform_count; /* vertex deforms (gn_q3_vertex_deform): outputs after the stages' */
    uint32_t deforms[GN_Q3_MAT_DEFORMS];
    uint32_t slot_count;
    char slots[GN_Q3_MAT_SLOTS][GN_Q3_NAME_MAX]; /* image names as written; the loader finds them */
    bool slot_clamp[GN_Q3_MAT_SLOTS];
    /* the sky (GN_Q3_DRAW_SKY): the far box's six faces are slots 0..5 in gnomon's cube order
       (+x, -x, +y, -y, +z, -z of the renderer's axes) when has_box; the cloud layers are the
       stages, mapped over a dome cloud_height (Quake units) above the eye */
    bool has_box;
    float cloud_height;
    bool unlit;      /* no stage reads the light ($lightmap) or multiplies by it: drawn fullbright */
    bool no_mipmaps; /* nomipmaps: its images sampled at full size however small they draw (the
                        game keeps no smaller copies; an alpha-tested grate keeps its holes) */
    float sort;      /* the script's sort, or the one Quake 3 infers */
    /* the per-frame program: GN_Q3_MAT_OUTPUTS outputs a stage */
    gn_tfx_insn code[GN_Q3_MAT_CODE_MAX];
    gn_tfx_vec4 consts[GN_Q3_MAT_CONSTS_MAX];
    uint32_t code_count, const_count;
    /* what was not compiled, counted (the CLI and the map's load line list them) */
    uint32_t dropped_stages, dropped_frames, unsupported;
    char first_unsupported[48]; /* the first unsupported keyword ("tcMod entityTranslate") */
} gn_q3_material;

/* Compiles s into *out. Stages past GN_Q3_MAT_STAGES or images past GN_Q3_MAT_SLOTS are dropped
 * and counted; what gnomon does not draw (videoMap, deformVertexes text and projectionShadow, tcGen vector,
 * alphaGen portal) is counted in `unsupported`, drawn as its nearest supported form. False with a message
 * only when the program does not fit its arrays or does not validate (then nothing may draw it). */
bool gn_q3_material_compile(const gn_q3_shader *s, gn_q3_material *out, char *msg, size_t cap);

/* The program of m as TFX sees it. */
gn_tfx_program gn_q3_material_program(const gn_q3_material *m);

/* The outputs m's program writes: GN_Q3_MAT_OUTPUTS a stage, then GN_Q3_MAT_DEFORM_OUTPUTS a
 * deform. */
uint32_t gn_q3_material_outputs(const gn_q3_material *m);

/* A material's place in the order surfaces draw: its shader's sort (Quake 3's 1..16) in
 * 1/1024ths (GN_BLEND_RANK_SCALE of decide/drawlist.h), clamped to 0..1e6; NULL (an image without a
 * shader) ranks as opaque's 3. */
uint32_t gn_q3_sort_rank(const gn_q3_material *m);

/* The externs' limits every material program is validated against: the frame (time) and the
 * entity colour; m's outputs. */
gn_tfx_limits gn_q3_material_limits(const gn_q3_material *m);

/* Runs m's program for the time (seconds) and the entity colour (rgba; NULL: white) into out
 * (gn_q3_material_outputs(m) vectors: stage k's texture rows at 4k and 4k + 1, its colour at
 * 4k + 2 and at 4k + 3 x the turbulence's amplitude, y its phase in turns, z the animMap frame,
 * w 0; then deform d's two at 4 * stage_count + 2d, as gn_q3_vertex_deform says). */
void gn_q3_material_eval(const gn_q3_material *m, float seconds, const float *entity_rgba, gn_tfx_vec4 *out);

/* The sky box's cube face of a direction in gnomon's axes (y up; Quake's z is gnomon's y, its y
 * gnomon's -z), and the face's texture coordinates as Quake 3 draws its box (s right, t down).
 * Faces in gnomon's order +x, -x, +y, -y, +z, -z. */
uint32_t gn_q3_sky_box_uv(const float dir[3], float uv[2]);

/* The dome's texture coordinates of a direction (gnomon's axes) for a cloud layer `height` Quake
 * units above the eye, as Quake 3 maps its cloud layers (a sphere of radius 4096 + height centred
 * 4096 units below the eye; s and t the arc cosines of the hit point's x and y, Quake's axes). */
void gn_q3_sky_dome_uv(const float dir[3], float height, float uv[2]);

#endif

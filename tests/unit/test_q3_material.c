/* Quake 3 shaders compiled to stages and a TFX program (src/decide/q3_material.c), against values
 * worked by hand from the game's formulas: an animated sky (two scrolling cloud layers, the far
 * box), a scrolling liquid (turbulence, a scroll, a lightmap filter), an additive flare (rgbGen
 * wave, blendFunc add), a blended window (blendFunc blend, alphaGen const), a grate (alphaFunc
 * GE128 with depthWrite), an animMap, a rotation and a stretch; the draw classes and the packed
 * render states; the sky's box and dome mappings. */
#include "check.h"
#include "decide/q3_material.h"
#include "formats/q3shader.h"

#include <math.h>
#include <string.h>

static const char SCRIPT[] = "textures/skies/testsky\n"
                             "{\n"
                             "  surfaceparm sky\n"
                             "  surfaceparm noimpact\n"
                             "  skyparms env/test 256 -\n"
                             "  {\n"
                             "    map textures/skies/clouds.tga\n"
                             "    tcMod scale 3 2\n"
                             "    tcMod scroll 0.15 0.15\n"
                             "    depthWrite\n"
                             "  }\n"
                             "  {\n"
                             "    map textures/skies/stars.tga\n"
                             "    blendFunc add\n"
                             "    tcMod scroll 0.05 0.02\n"
                             "  }\n"
                             "}\n"
                             "textures/liquids/slime\n"
                             "{\n"
                             "  surfaceparm slime\n"
                             "  {\n"
                             "    map textures/liquids/slime1.tga\n"
                             "    tcMod turb 0 0.25 0.5 0.2\n"
                             "    tcMod scroll 0.1 -0.05\n"
                             "  }\n"
                             "  {\n"
                             "    map $lightmap\n"
                             "    blendFunc filter\n"
                             "  }\n"
                             "}\n"
                             "textures/sfx/flare\n"
                             "{\n"
                             "  cull none\n"
                             "  {\n"
                             "    map textures/sfx/flare.jpg\n"
                             "    blendFunc GL_ONE GL_ONE\n"
                             "    rgbGen wave sin 0.5 0.5 0 2\n"
                             "  }\n"
                             "}\n"
                             "textures/base/window\n"
                             "{\n"
                             "  surfaceparm trans\n"
                             "  {\n"
                             "    map textures/base/glass.tga\n"
                             "    blendFunc blend\n"
                             "    alphaGen const 0.4\n"
                             "    rgbGen const ( 0.2 0.4 0.6 )\n"
                             "  }\n"
                             "}\n"
                             "textures/base/grate\n"
                             "{\n"
                             "  cull twosided\n"
                             "  {\n"
                             "    map textures/base/grate.tga\n"
                             "    alphaFunc GE128\n"
                             "    depthWrite\n"
                             "  }\n"
                             "  {\n"
                             "    map $lightmap\n"
                             "    blendFunc filter\n"
                             "    depthFunc equal\n"
                             "  }\n"
                             "}\n"
                             "textures/base/anim\n"
                             "{\n"
                             "  polygonOffset\n"
                             "  {\n"
                             "    animMap 4 a1.tga a2.tga a3.tga\n"
                             "    rgbGen vertex\n"
                             "  }\n"
                             "  {\n"
                             "    map a1.tga\n"
                             "    tcMod rotate 90\n"
                             "    tcMod stretch sin 1 0.5 0 1\n"
                             "    blendFunc GL_DST_COLOR GL_SRC_ALPHA\n"
                             "  }\n"
                             "}\n"
                             "textures/common/caulk\n"
                             "{\n"
                             "  surfaceparm nodraw\n"
                             "}\n"
                             "textures/test/smoke\n"
                             "{\n"
                             "  cull none\n"
                             "  polygonOffset\n"
                             "  nomipmaps\n"
                             "  deformVertexes wave 100 sin 4 8 0.25 0.5\n"
                             "  deformVertexes text0\n"
                             "  deformVertexes move 0 0 10 sawtooth 0 1 0 0.5\n"
                             "  deformVertexes autosprite2\n"
                             "  {\n"
                             "    map textures/test/puff.tga\n"
                             "    blendFunc add\n"
                             "  }\n"
                             "}\n";

static bool near(float a, float b, float tol) { return fabsf(a - b) <= tol; }

static const gn_q3_shader *find(const gn_q3_library *lib, const char *name)
{
    const gn_q3_shader *s = gn_q3_library_find(lib, name);
    CHECK(s != NULL, "%s not parsed", name);
    return s;
}

static void compile(const gn_q3_library *lib, const char *name, gn_q3_material *m)
{
    char msg[256] = "";
    const gn_q3_shader *s = find(lib, name);
    memset(m, 0, sizeof *m);
    if (!s) return;
    CHECK(gn_q3_material_compile(s, m, msg, sizeof msg), "%s refused: %s", name, msg);
}

/* uv through stage k's matrix as the GPU applies it (tex0 . (s, t, 1), tex1 . (s, t, 1)) */
static void apply(const gn_tfx_vec4 *out, uint32_t k, float s, float t, float r[2])
{
    const float *a = out[k * 4].v, *b = out[k * 4 + 1].v;
    r[0] = a[0] * s + a[1] * t + a[2];
    r[1] = b[0] * s + b[1] * t + b[2];
}

static void test_sky(const gn_q3_library *lib)
{
    static gn_q3_material m;
    compile(lib, "textures/skies/testsky", &m);
    CHECK(m.draw == GN_Q3_DRAW_SKY, "sky class %u", m.draw);
    CHECK(m.has_box && m.slot_count == 8, "box %d, slots %u (6 faces, 2 layers)", m.has_box, m.slot_count);
    CHECK(strcmp(m.slots[0], "env/test_rt") == 0 && strcmp(m.slots[2], "env/test_up") == 0 &&
              strcmp(m.slots[4], "env/test_ft") == 0 && strcmp(m.slots[5], "env/test_bk") == 0,
          "box faces %s %s %s %s", m.slots[0], m.slots[2], m.slots[4], m.slots[5]);
    CHECK(m.cloud_height == 256.0f, "cloud height %g", (double)m.cloud_height);
    CHECK(m.stage_count == 2 && m.stages[0].slot == 6 && m.stages[1].slot == 7, "stages %u, slots %u %u",
          m.stage_count, m.stages[0].slot, m.stages[1].slot);
    CHECK(m.stages[1].blend == GN_STATE_BLEND_ADD, "layer 2 blend %#x", m.stages[1].blend);
    gn_tfx_vec4 out[8];
    /* at t = 2: scale (3, 2), then scroll (0.3, 0.3): (0.5, 0.25) -> (1.5, 0.5) -> (1.8, 0.8) */
    gn_q3_material_eval(&m, 2.0f, NULL, out);
    float r[2];
    apply(out, 0, 0.5f, 0.25f, r);
    CHECK(near(r[0], 1.8f, 1e-5f) && near(r[1], 0.8f, 1e-5f), "layer 1 at t 2: (%g, %g), want (1.8, 0.8)",
          (double)r[0], (double)r[1]);
    /* at t = 30: the scroll's fraction only (4.5 -> 0.5, 4.5 -> 0.5), as the game keeps it */
    gn_q3_material_eval(&m, 30.0f, NULL, out);
    apply(out, 0, 0.0f, 0.0f, r);
    CHECK(near(r[0], 0.5f, 1e-4f) && near(r[1], 0.5f, 1e-4f), "layer 1 at t 30: (%g, %g), want (0.5, 0.5)",
          (double)r[0], (double)r[1]);
    apply(out, 1, 0.0f, 0.0f, r); /* 0.05 * 30 = 1.5 -> 0.5; 0.02 * 30 = 0.6 */
    CHECK(near(r[0], 0.5f, 1e-4f) && near(r[1], 0.6f, 1e-4f), "layer 2 at t 30: (%g, %g)", (double)r[0],
          (double)r[1]);
}

static void test_liquid(const gn_q3_library *lib)
{
    static gn_q3_material m;
    compile(lib, "textures/liquids/slime", &m);
    CHECK(m.draw == GN_Q3_DRAW_OPAQUE, "slime class %u", m.draw);
    CHECK(m.stages[0].has_turb && m.stages[1].source == GN_Q3_SOURCE_LIGHT &&
              m.stages[1].tc == GN_Q3_UV_LIGHTMAP,
          "turb %d, stage 2 source %u uv %u", m.stages[0].has_turb, m.stages[1].source, m.stages[1].tc);
    CHECK(m.stages[1].blend == GN_STATE_BLEND_FILTER, "lightmap stage blend %#x", m.stages[1].blend);
    gn_tfx_vec4 out[8];
    gn_q3_material_eval(&m, 5.0f, NULL, out);
    /* turbulence: amplitude 0.25, phase 0.5 + 5 * 0.2 = 1.5 turns */
    CHECK(near(out[3].v[0], 0.25f, 1e-6f) && near(out[3].v[1], 1.5f, 1e-5f),
          "turb (%g, %g), want (0.25, 1.5)", (double)out[3].v[0], (double)out[3].v[1]);
    float r[2];
    apply(out, 0, 0.0f, 0.0f, r); /* scroll 0.5, fract(-0.25) = 0.75 */
    CHECK(near(r[0], 0.5f, 1e-5f) && near(r[1], 0.75f, 1e-5f), "scroll at t 5: (%g, %g), want (0.5, 0.75)",
          (double)r[0], (double)r[1]);
    CHECK(m.state == 0, "an opaque default shader's state is all defaults: %#x", m.state);
}

static void test_flare(const gn_q3_library *lib)
{
    static gn_q3_material m;
    compile(lib, "textures/sfx/flare", &m);
    CHECK(m.draw == GN_Q3_DRAW_BLEND, "flare class %u", m.draw);
    uint32_t blend = m.state & 0xffu, depth = (m.state >> 8) & 0xffu, raster = (m.state >> 16) & 0xffu;
    CHECK(blend == (GN_STATE_BLEND_ADD | GN_STATE_OVERRIDE), "blend byte %#x", blend);
    CHECK(depth == (GN_STATE_DEPTH(GN_DEPTH_LEQUAL, true) | GN_STATE_OVERRIDE), "depth byte %#x (no write)",
          depth);
    CHECK(raster == (GN_STATE_RASTER(GN_CULL_TWO_SIDED, GN_ALPHA_TEST_NONE) | GN_STATE_OVERRIDE),
          "raster %#x", raster);
    CHECK(m.sort == 10.0f, "inferred sort %g (additive)", (double)m.sort);
    /* rgbGen wave sin 0.5 0.5 0 2 at t = 0.125: 0.5 + 0.5 * sin table at 0.25 turns = 1 */
    gn_tfx_vec4 out[4];
    gn_q3_material_eval(&m, 0.125f, NULL, out);
    float want = 0.5f + 0.5f * gn_tfx_wave(GN_TFX_WAVE_SIN, 0.25f);
    want = want > 1 ? 1 : want;
    CHECK(near(out[2].v[0], want, 1e-6f) && out[2].v[0] == out[2].v[2] && out[2].v[3] == 1.0f,
          "colour (%g, %g, %g, %g), want %g and alpha 1", (double)out[2].v[0], (double)out[2].v[1],
          (double)out[2].v[2], (double)out[2].v[3], (double)want);
    gn_q3_material_eval(&m, 0.375f, NULL, out); /* 0.75 turns: 0.5 - 0.5 = 0 */
    CHECK(near(out[2].v[1], 0.0f, 1e-3f), "colour at t 0.375: %g, want 0", (double)out[2].v[1]);
    /* the program disassembles to one line an instruction */
    char text[8192];
    gn_tfx_program p = gn_q3_material_program(&m);
    size_t n = gn_tfx_disassemble(&p, text, sizeof text);
    uint32_t lines = 0;
    for (size_t i = 0; i < n && i < sizeof text; i++) lines += text[i] == '\n';
    CHECK(lines == p.count && strstr(text, "wave") != NULL, "%u lines for %u instructions", lines, p.count);
}

static void test_window_and_grate(const gn_q3_library *lib)
{
    static gn_q3_material m;
    compile(lib, "textures/base/window", &m);
    CHECK(m.draw == GN_Q3_DRAW_BLEND && m.stages[0].blend == GN_STATE_BLEND_ALPHA,
          "window class %u blend %#x", m.draw, m.stages[0].blend);
    gn_tfx_vec4 out[4];
    gn_q3_material_eval(&m, 7.0f, NULL, out);
    CHECK(out[2].v[0] == 0.2f && out[2].v[1] == 0.4f && out[2].v[2] == 0.6f && out[2].v[3] == 0.4f,
          "window colour (%g %g %g %g)", (double)out[2].v[0], (double)out[2].v[1], (double)out[2].v[2],
          (double)out[2].v[3]);
    compile(lib, "textures/base/grate", &m);
    CHECK(m.draw == GN_Q3_DRAW_MASK && m.stages[0].alpha == GN_ALPHA_TEST_GE128, "grate class %u alpha %u",
          m.draw, m.stages[0].alpha);
    uint32_t depth = (m.state >> 8) & 0xffu;
    CHECK(depth == (GN_STATE_DEPTH(GN_DEPTH_LEQUAL, false) | GN_STATE_OVERRIDE), "grate depth %#x (written)",
          depth);
    /* the pass's own state yields to the material's override (the packed rule) */
    uint32_t resolved =
        gn_state_resolve(GN_STATE_PACK(0, GN_STATE_DEPTH(GN_DEPTH_EQUAL, true), 0, 0), m.state, 0);
    CHECK(GN_STATE_RASTER_ALPHA_TEST(resolved >> 16) == GN_ALPHA_TEST_GE128 &&
              GN_STATE_RASTER_CULL(resolved >> 16) == GN_CULL_TWO_SIDED && ((resolved >> 8) & 1u) == 0,
          "resolved %#x", resolved);
    compile(lib, "textures/common/caulk", &m);
    CHECK(m.draw == GN_Q3_DRAW_NONE, "nodraw class %u", m.draw);
}

static void test_anim_rotate_stretch(const gn_q3_library *lib)
{
    static gn_q3_material m;
    compile(lib, "textures/base/anim", &m);
    CHECK(m.stages[0].frames == 3 && m.stages[0].slot == 0 && m.stages[0].lit,
          "anim frames %u slot %u lit %d", m.stages[0].frames, m.stages[0].slot, m.stages[0].lit);
    CHECK(m.slot_count == 3 && m.stages[1].slot == 0,
          "slots %u (3 frames; the second stage's image is the "
          "first frame's, shared), stage 2 at %u",
          m.slot_count, m.stages[1].slot);
    CHECK(m.draw == GN_Q3_DRAW_OPAQUE, "anim class %u", m.draw);
    CHECK(((m.state >> 24) & 0x7fu) == GN_STATE_BIAS_POLYGON_OFFSET, "bias %#x", m.state >> 24);
    CHECK(m.stages[1].blend == GN_STATE_BLEND(GN_BLEND_SRC_DST_COLOR, GN_BLEND_DST_SRC_ALPHA), "blend %#x",
          m.stages[1].blend);
    gn_tfx_vec4 out[8];
    /* frames at 4 a second: t 0.3 -> 1, t 0.8 -> 3 mod 3 = 0, t 1.3 -> 5 mod 3 = 2 */
    const float times[3] = {0.3f, 0.8f, 1.3f}, frames[3] = {1, 0, 2};
    for (int i = 0; i < 3; i++) {
        gn_q3_material_eval(&m, times[i], NULL, out);
        CHECK(out[3].v[2] == frames[i], "frame at t %g: %g, want %g", (double)times[i], (double)out[3].v[2],
              (double)frames[i]);
    }
    /* t = 1: rotate by -90 degrees (the game's sign), then stretch by 1 / (1 + 0.5 sin(1 turn)) = 1:
       (0.6, 0.5) -> rows (cos, -sin, ...) with sin -1, cos 0: (0*0.6 + 1*0.5 + 0, -0.6 + 0 + 1) */
    gn_q3_material_eval(&m, 1.0f, NULL, out);
    float r[2];
    apply(out, 1, 0.6f, 0.5f, r);
    float s = gn_tfx_wave(GN_TFX_WAVE_SIN, -0.25f), c = gn_tfx_wave(GN_TFX_WAVE_SIN, 0.0f);
    float want0 = c * 0.6f - s * 0.5f + 0.5f - 0.5f * c + 0.5f * s;
    float want1 = s * 0.6f + c * 0.5f + 0.5f - 0.5f * s - 0.5f * c;
    float p = 1.0f / (1.0f + 0.5f * gn_tfx_wave(GN_TFX_WAVE_SIN, 1.0f));
    want0 = p * want0 + 0.5f - 0.5f * p;
    want1 = p * want1 + 0.5f - 0.5f * p;
    CHECK(near(r[0], want0, 1e-5f) && near(r[1], want1, 1e-5f),
          "rotate+stretch at t 1: (%g, %g), want (%g, %g)", (double)r[0], (double)r[1], (double)want0,
          (double)want1);
    CHECK(near(r[0], 0.5f, 1e-3f) && near(r[1], 0.4f, 1e-3f), "a quarter turn of (0.6, 0.5): (%g, %g)",
          (double)r[0], (double)r[1]);
}

/* the box: each axis lands mid-face on its own face; the dome: straight up reads (pi/2, pi/2) */
/* Deforms and the render state a sprite's script states: two-sided, offset toward the viewer, and
 * three vertex deforms (text is not applied) whose outputs follow the stage's. */
static void test_deforms(const gn_q3_library *lib)
{
    static gn_q3_material m;
    compile(lib, "textures/test/smoke", &m);
    uint32_t st = gn_state_resolve(0, m.state, 0);
    CHECK(GN_STATE_RASTER_CULL(st >> GN_STATE_RASTER_SHIFT) == GN_CULL_TWO_SIDED, "cull none: state %08x",
          st);
    CHECK(((st >> GN_STATE_BIAS_SHIFT) & 0x7fu) == GN_STATE_BIAS_POLYGON_OFFSET, "polygonOffset: state %08x",
          st);
    CHECK(m.deform_count == 3 && m.deforms[0] == GN_Q3_VDEFORM_WAVE && m.deforms[1] == GN_Q3_VDEFORM_MOVE &&
              m.deforms[2] == GN_Q3_VDEFORM_AUTOSPRITE2,
          "deforms %u: %u %u %u", m.deform_count, m.deforms[0], m.deforms[1], m.deforms[2]);
    CHECK(m.unsupported == 1 && strcmp(m.first_unsupported, "deformVertexes text") == 0,
          "%u unsupported, first '%s'", m.unsupported, m.first_unsupported);
    CHECK(gn_q3_material_outputs(&m) == 4 + 6, "%u outputs", gn_q3_material_outputs(&m));
    CHECK(m.no_mipmaps, "nomipmaps not kept");
    gn_tfx_vec4 out[GN_Q3_MAT_OUTPUT_MAX];
    gn_q3_material_eval(&m, 1.0f, NULL, out);
    const float u = 39.37008f; /* game units a metre */
    /* wave: sin, base 4 and amplitude 8 units; phase now fract(0.25 + 1 * 0.5) = 0.75; spread 1/100 */
    const float *a = out[4].v, *b = out[5].v;
    CHECK(a[0] == 1.0f && a[1] == 0.0f && near(a[2], 4.0f / u, 1e-6f) && near(a[3], 8.0f / u, 1e-6f),
          "wave (%g %g %g %g)", (double)a[0], (double)a[1], (double)a[2], (double)a[3]);
    CHECK(near(b[0], 0.75f, 1e-6f) && near(b[1], 0.01f, 1e-7f), "wave now %g spread %g", (double)b[0],
          (double)b[1]);
    /* move: the game's (0, 0, 10) is gnomon's (0, 10, 0) units, times sawtooth at 0.5 turns (0.5) */
    a = out[6].v, b = out[7].v;
    CHECK(a[0] == 3.0f && near(b[0], 0.0f, 1e-7f) && near(b[1], 5.0f / u, 1e-6f) && near(b[2], 0.0f, 1e-7f),
          "move kind %g offset (%g %g %g), want (0 %g 0)", (double)a[0], (double)b[0], (double)b[1],
          (double)b[2], (double)(5.0f / u));
    CHECK(out[8].v[0] == 6.0f, "autosprite2 kind %g", (double)out[8].v[0]);
}

static void test_sky_mappings(void)
{
    const float dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (uint32_t f = 0; f < 6; f++) {
        float uv[2];
        uint32_t face = gn_q3_sky_box_uv(dirs[f], uv);
        CHECK(face == f && near(uv[0], 0.5f, 1e-6f) && near(uv[1], 0.5f, 1e-6f),
              "axis %u: face %u uv (%g, %g)", f, face, (double)uv[0], (double)uv[1]);
    }
    /* +x's face: gnomon's -z (the game's +y, its left) is s = 0 on the face's left edge */
    float uv[2], d[3] = {1, 0, -0.999f};
    gn_q3_sky_box_uv(d, uv);
    CHECK(near(uv[0], 0.0f, 1e-3f), "the +x face's left edge: s %g", (double)uv[0]);
    float up[3] = {0, 1, 0}, dome[2];
    gn_q3_sky_dome_uv(up, 512.0f, dome);
    CHECK(near(dome[0], 1.5707964f, 1e-5f) && near(dome[1], 1.5707964f, 1e-5f), "dome at the zenith (%g, %g)",
          (double)dome[0], (double)dome[1]);
    float fwd[3] = {1, 0.2f, 0};
    gn_q3_sky_dome_uv(fwd, 512.0f, dome);
    CHECK(dome[0] < 1.5707964f && near(dome[1], 1.5707964f, 1e-5f), "dome forward (%g, %g): s below pi/2",
          (double)dome[0], (double)dome[1]);
}

int main(void)
{
    gn_q3_library lib = {0};
    gn_error err = {0};
    CHECK(gn_q3_library_add_file(&lib, SCRIPT, sizeof SCRIPT - 1, "scripts/test.shader", &err) == GN_OK, "%s",
          err.message);
    CHECK(lib.report.problem_count == 0, "%u problems, first: %s", lib.report.problem_count,
          lib.report.problem_count ? lib.report.problems[0].message : "");
    test_sky(&lib);
    test_liquid(&lib);
    test_flare(&lib);
    test_window_and_grate(&lib);
    test_anim_rotate_stretch(&lib);
    test_deforms(&lib);
    test_sky_mappings();
    gn_q3_library_free(&lib);
    return gn_check_exit();
}

/* The shader script parser (src/formats/q3shader.c) on hand-written scripts: every keyword with
 * its parsed values, unknown keywords, malformed numbers, missing braces, the caps, comments,
 * case, the override rule across files, the dump (which reads back as the same shader), every
 * truncation of a script and every allocation failing in turn. The real scripts of OpenArena
 * are test_q3shader_paks.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "check.h"
#include "formats/q3shader.h"

#define EPS 1e-6f

static gn_result add(gn_q3_library *lib, const char *text, const char *file)
{
    gn_error err = {0};
    gn_result r = gn_q3_library_add_file(lib, text, strlen(text), file, &err);
    CHECK(r == GN_OK, "%s: %s", file, err.message);
    return r;
}

/* A problem at file:line whose keyword is kw (NULL: any) and whose message holds what. */
static bool has_problem(const gn_q3_library *lib, const char *file, uint32_t line, const char *kw,
                        const char *what)
{
    for (uint32_t i = 0; i < lib->report.problem_count && i < GN_Q3_MAX_PROBLEMS; i++) {
        const gn_q3_problem *p = &lib->report.problems[i];
        if (strcmp(p->file, file) == 0 && p->line == line && (!kw || strcmp(p->keyword, kw) == 0) &&
            strstr(p->message, what))
            return true;
    }
    return false;
}

static void print_problems(const gn_q3_library *lib)
{
    for (uint32_t i = 0; i < lib->report.problem_count && i < GN_Q3_MAX_PROBLEMS; i++) {
        const gn_q3_problem *p = &lib->report.problems[i];
        fprintf(stderr, "  problem %s:%u: %s: %s\n", p->file, p->line, p->keyword, p->message);
    }
}

static uint32_t unknown_count(const gn_q3_library *lib, const char *kw)
{
    for (uint32_t i = 0; i < lib->report.unknown_count; i++)
        if (strcmp(lib->report.unknown[i].keyword, kw) == 0) return lib->report.unknown[i].count;
    return 0;
}

static bool wave_is(const gn_q3_wave *w, gn_q3_wave_func f, float base, float amp, float phase, float freq)
{
    return w->func == f && fabsf(w->base - base) < EPS && fabsf(w->amp - amp) < EPS &&
           fabsf(w->phase - phase) < EPS && fabsf(w->freq - freq) < EPS;
}

/* Every keyword; line numbers matter to the checks below. */
static const char every_keyword[] = "// a leading comment\n"                                       /* 1 */
                                    "/* a block\n"                                                 /* 2 */
                                    "   comment */\n"                                              /* 3 */
                                    "textures/test/all // the name\n"                              /* 4 */
                                    "{\n"                                                          /* 5 */
                                    "\tqer_editorimage textures/test/all.tga\n"                    /* 6 */
                                    "\tq3map_surfacelight 100\n"                                   /* 7 */
                                    "\tsurfaceparm nodraw\n"                                       /* 8 */
                                    "\tsurfaceparm sky\n"                                          /* 9 */
                                    "\tsurfaceparm trans\n"                                        /* 10 */
                                    "\tsurfaceparm nolightmap\n"                                   /* 11 */
                                    "\tsurfaceparm water\n"                                        /* 12 */
                                    "\tsurfaceparm lava\n"                                         /* 13 */
                                    "\tsurfaceparm slime\n"                                        /* 14 */
                                    "\tsurfaceparm fog\n"                                          /* 15 */
                                    "\tsurfaceparm nonsolid\n"                                     /* 16 */
                                    "\tsurfaceparm alphashadow\n"                                  /* 17 */
                                    "\tcull disable\n"                                             /* 18 */
                                    "\tsort additive\n"                                            /* 19 */
                                    "\tpolygonOffset\n"                                            /* 20 */
                                    "\tnomipmaps\n"                                                /* 21 */
                                    "\tnopicmip\n"                                                 /* 22 */
                                    "\tskyparms env/test 512 -\n"                                  /* 23 */
                                    "\tfogparms ( 0.5 0.25 1 ) 300 0 0 1\n"                        /* 24 */
                                    "\tdeformVertexes wave 100 sin 0 1.5 0.25 2\n"                 /* 25 */
                                    "\tdeformVertexes normal 0.5 3\n"                              /* 26 */
                                    "\tdeformVertexes bulge 4 5 6\n"                               /* 27 */
                                    "\tdeformVertexes move 1 2 3 triangle 0 1 0 0.5\n"             /* 28 */
                                    "\t{\n"                                                        /* 29 */
                                    "\t\tmap textures/test/base.tga\n"                             /* 30 */
                                    "\t\tblendFunc GL_ONE GL_ZERO\n"                               /* 31 */
                                    "\t\talphaFunc GE128\n"                                        /* 32 */
                                    "\t\tdepthWrite\n"                                             /* 33 */
                                    "\t\tdepthFunc equal\n"                                        /* 34 */
                                    "\t\trgbGen wave square 0.5 0.5 0 1\n"                         /* 35 */
                                    "\t\talphaGen wave sawtooth 0 1 0.5 2\n"                       /* 36 */
                                    "\t\ttcGen environment\n"                                      /* 37 */
                                    "\t\ttcMod scroll 0.5 -1\n"                                    /* 38 */
                                    "\t\ttcMod scale 2 3\n"                                        /* 39 */
                                    "\t\ttcMod rotate 45\n"                                        /* 40 */
                                    "\t\ttcMod turb 0 0.25 0.5 1\n"                                /* 41 */
                                    "\t\ttcMod stretch inversesawtooth 1 0.5 0 0.25\n"             /* 42 */
                                    "\t\ttcMod transform 1 0 0 1 0.5 0.25\n"                       /* 43 */
                                    "\t\ttcMod entityTranslate\n"                                  /* 44 */
                                    "\t\tdetail\n"                                                 /* 45 */
                                    "\t}\n"                                                        /* 46 */
                                    "\t{\n"                                                        /* 47 */
                                    "\t\tclampMap textures/test/clamp.tga\n"                       /* 48 */
                                    "\t\tblendFunc add\n"                                          /* 49 */
                                    "\t\trgbGen const ( 1 0.5 0.25 )\n"                            /* 50 */
                                    "\t\talphaGen const 0.75\n"                                    /* 51 */
                                    "\t\ttcGen vector ( 1 0 0 ) ( 0 1 0 )\n"                       /* 52 */
                                    "\t}\n"                                                        /* 53 */
                                    "\t{\n"                                                        /* 54 */
                                    "\t\tanimMap 10 a.tga b.tga c.tga\n"                           /* 55 */
                                    "\t\tblendFunc filter\n"                                       /* 56 */
                                    "\t\trgbGen identityLighting\n"                                /* 57 */
                                    "\t\talphaGen portal 512\n"                                    /* 58 */
                                    "\t\ttcGen lightmap\n"                                         /* 59 */
                                    "\t}\n"                                                        /* 60 */
                                    "\t{\n"                                                        /* 61 */
                                    "\t\tmap $lightmap\n"                                          /* 62 */
                                    "\t\tblendFunc blend\n"                                        /* 63 */
                                    "\t\trgbGen vertex\n"                                          /* 64 */
                                    "\t\talphaGen vertex\n"                                        /* 65 */
                                    "\t\ttcGen base\n"                                             /* 66 */
                                    "\t}\n"                                                        /* 67 */
                                    "\t{\n"                                                        /* 68 */
                                    "\t\tmap $whiteimage\n"                                        /* 69 */
                                    "\t\tblendFunc GL_DST_COLOR GL_ONE_MINUS_SRC_ALPHA\n"          /* 70 */
                                    "\t\trgbGen exactVertex\n"                                     /* 71 */
                                    "\t\talphaGen entity\n"                                        /* 72 */
                                    "\t\talphaFunc GT0\n"                                          /* 73 */
                                    "\t\ttcGen texture\n"                                          /* 74 */
                                    "\t}\n"                                                        /* 75 */
                                    "\t{\n"                                                        /* 76 */
                                    "\t\tmap x.tga\n"                                              /* 77 */
                                    "\t\trgbGen oneMinusVertex\n"                                  /* 78 */
                                    "\t\talphaGen oneMinusEntity\n"                                /* 79 */
                                    "\t\talphaFunc LT128\n"                                        /* 80 */
                                    "\t\tdepthFunc lequal\n"                                       /* 81 */
                                    "\t}\n"                                                        /* 82 */
                                    "\t{\n"                                                        /* 83 */
                                    "\t\tmap y.tga\n"                                              /* 84 */
                                    "\t\trgbGen entity\n"                                          /* 85 */
                                    "\t\talphaGen lightingSpecular\n"                              /* 86 */
                                    "\t}\n"                                                        /* 87 */
                                    "\t{\n"                                                        /* 88 */
                                    "\t\tvideoMap intro.roq\n"                                     /* 89 */
                                    "\t\trgbGen oneMinusEntity\n"                                  /* 90 */
                                    "\t\talphaGen identity\n"                                      /* 91 */
                                    "\t}\n"                                                        /* 92 */
                                    "}\n"                                                          /* 93 */
                                    "textures/test/two\n"                                          /* 94 */
                                    "{\n"                                                          /* 95 */
                                    "\tcull back\n"                                                /* 96 */
                                    "\tsort 7.5\n"                                                 /* 97 */
                                    "\tdeformVertexes autosprite\n"                                /* 98 */
                                    "\tdeformVertexes autosprite2\n"                               /* 99 */
                                    "\tdeformVertexes projectionShadow\n"                          /* 100 */
                                    "\tdeformVertexes text3\n"                                     /* 101 */
                                    "\tskyparms - - -\n"                                           /* 102 */
                                    "\tportal\n"                                                   /* 103 */
                                    "\tentityMergable\n"                                           /* 104 */
                                    "\t{\n"                                                        /* 105 */
                                    "\t\tmap a.tga\n"                                              /* 106 */
                                    "\t\trgbGen lightingDiffuse\n"                                 /* 107 */
                                    "\t\talphaGen oneMinusVertex\n"                                /* 108 */
                                    "\t\tblendFunc GL_SRC_ALPHA_SATURATE GL_ONE_MINUS_SRC_COLOR\n" /* 109 */
                                    "\t}\n"                                                        /* 110 */
                                    "}\n";                                                         /* 111 */

static void test_every_keyword(void)
{
    gn_q3_library lib = {0};
    if (add(&lib, every_keyword, "scripts/all.shader") != GN_OK) return;
    CHECK(lib.report.problem_count == 0 && lib.report.unknown_count == 0, "%u problems, %u unknown",
          lib.report.problem_count, lib.report.unknown_count);
    if (lib.report.problem_count) print_problems(&lib);
    CHECK(lib.shader_count == 2 && lib.report.files == 1 && lib.report.definitions == 2 &&
              lib.report.stages == 9,
          "%u shaders, %u files, %u definitions, %u stages", lib.shader_count, lib.report.files,
          lib.report.definitions, lib.report.stages);
    CHECK(lib.report.tool_keywords == 2, "%u tool keywords", lib.report.tool_keywords);

    const gn_q3_shader *s = gn_q3_library_find(&lib, "textures/test/all");
    CHECK(s != NULL, "textures/test/all not found");
    if (!s) return;
    CHECK(strcmp(s->file, "scripts/all.shader") == 0 && s->line == 5, "%s:%u", s->file, s->line);
    uint32_t flags = GN_Q3_SURF_NODRAW | GN_Q3_SURF_SKY | GN_Q3_SURF_TRANS | GN_Q3_SURF_NOLIGHTMAP |
                     GN_Q3_SURF_WATER | GN_Q3_SURF_LAVA | GN_Q3_SURF_SLIME | GN_Q3_SURF_FOG |
                     GN_Q3_SURF_NONSOLID | GN_Q3_SURF_ALPHASHADOW;
    CHECK(s->surface_flags == flags, "surface flags %#x, want %#x", s->surface_flags, flags);
    CHECK(s->cull == GN_Q3_CULL_NONE && s->sort == 10.0f && s->polygon_offset && s->no_mipmaps &&
              s->no_picmip,
          "cull %d sort %g polygonOffset %d nomipmaps %d nopicmip %d", s->cull, s->sort, s->polygon_offset,
          s->no_mipmaps, s->no_picmip);
    CHECK(s->has_sky && strcmp(s->sky_far, "env/test") == 0 && s->sky_cloud_height == 512.0f &&
              !s->sky_near[0],
          "skyparms %d '%s' %g '%s'", s->has_sky, s->sky_far, s->sky_cloud_height, s->sky_near);
    CHECK(s->has_fog && s->fog_color[0] == 0.5f && s->fog_color[1] == 0.25f && s->fog_color[2] == 1.0f &&
              s->fog_distance == 300.0f,
          "fogparms %d (%g %g %g) %g", s->has_fog, s->fog_color[0], s->fog_color[1], s->fog_color[2],
          s->fog_distance);
    CHECK(s->deform_count == 4, "%u deforms", s->deform_count);
    if (s->deform_count == 4) {
        const gn_q3_deform *d = s->deforms;
        CHECK(d[0].type == GN_Q3_DEFORM_WAVE && d[0].div == 100.0f &&
                  wave_is(&d[0].wave, GN_Q3_WAVE_SIN, 0, 1.5f, 0.25f, 2),
              "deform 0: type %d div %g", d[0].type, d[0].div);
        CHECK(d[1].type == GN_Q3_DEFORM_NORMAL && d[1].wave.amp == 0.5f && d[1].wave.freq == 3.0f,
              "deform 1: type %d amp %g freq %g", d[1].type, d[1].wave.amp, d[1].wave.freq);
        CHECK(d[2].type == GN_Q3_DEFORM_BULGE && d[2].bulge[0] == 4 && d[2].bulge[1] == 5 &&
                  d[2].bulge[2] == 6,
              "deform 2: type %d bulge %g %g %g", d[2].type, d[2].bulge[0], d[2].bulge[1], d[2].bulge[2]);
        CHECK(d[3].type == GN_Q3_DEFORM_MOVE && d[3].move[0] == 1 && d[3].move[1] == 2 && d[3].move[2] == 3 &&
                  wave_is(&d[3].wave, GN_Q3_WAVE_TRIANGLE, 0, 1, 0, 0.5f),
              "deform 3: type %d move %g %g %g", d[3].type, d[3].move[0], d[3].move[1], d[3].move[2]);
    }
    CHECK(s->stage_count == 8, "%u stages", s->stage_count);
    if (s->stage_count != 8) return;
    const gn_q3_stage *st = &s->stages[0];
    CHECK(st->line == 29 && st->map_kind == GN_Q3_MAP_IMAGE &&
              strcmp(st->map, "textures/test/base.tga") == 0 && !st->clamp,
          "stage 0: line %u map %d '%s'", st->line, st->map_kind, st->map);
    CHECK(st->blend_src == GN_Q3_BLEND_ONE && st->blend_dst == GN_Q3_BLEND_ZERO &&
              st->alpha_func == GN_Q3_ALPHA_FUNC_GE128 && st->depth_write &&
              st->depth_func == GN_Q3_DEPTH_EQUAL,
          "stage 0: blend %d %d alphaFunc %d depthWrite %d depthFunc %d", st->blend_src, st->blend_dst,
          st->alpha_func, st->depth_write, st->depth_func);
    CHECK(st->rgb_gen == GN_Q3_RGB_WAVE && wave_is(&st->rgb_wave, GN_Q3_WAVE_SQUARE, 0.5f, 0.5f, 0, 1) &&
              st->alpha_gen == GN_Q3_ALPHA_WAVE &&
              wave_is(&st->alpha_wave, GN_Q3_WAVE_SAWTOOTH, 0, 1, 0.5f, 2),
          "stage 0: rgbGen %d alphaGen %d", st->rgb_gen, st->alpha_gen);
    CHECK(st->tc_gen == GN_Q3_TC_ENVIRONMENT && st->detail && st->tcmod_count == 7,
          "stage 0: tcGen %d detail %d %u tcMods", st->tc_gen, st->detail, st->tcmod_count);
    if (st->tcmod_count == 7) {
        const gn_q3_tcmod *m = st->tcmods;
        CHECK(m[0].type == GN_Q3_TCMOD_SCROLL && m[0].v[0] == 0.5f && m[0].v[1] == -1.0f, "scroll %g %g",
              m[0].v[0], m[0].v[1]);
        CHECK(m[1].type == GN_Q3_TCMOD_SCALE && m[1].v[0] == 2 && m[1].v[1] == 3, "scale %g %g", m[1].v[0],
              m[1].v[1]);
        CHECK(m[2].type == GN_Q3_TCMOD_ROTATE && m[2].v[0] == 45, "rotate %g", m[2].v[0]);
        CHECK(m[3].type == GN_Q3_TCMOD_TURB && wave_is(&m[3].wave, GN_Q3_WAVE_NONE, 0, 0.25f, 0.5f, 1),
              "turb");
        CHECK(m[4].type == GN_Q3_TCMOD_STRETCH &&
                  wave_is(&m[4].wave, GN_Q3_WAVE_INVERSE_SAWTOOTH, 1, 0.5f, 0, 0.25f),
              "stretch");
        CHECK(m[5].type == GN_Q3_TCMOD_TRANSFORM && m[5].v[0] == 1 && m[5].v[1] == 0 && m[5].v[3] == 1 &&
                  m[5].v[4] == 0.5f && m[5].v[5] == 0.25f,
              "transform %g %g %g %g %g %g", m[5].v[0], m[5].v[1], m[5].v[2], m[5].v[3], m[5].v[4],
              m[5].v[5]);
        CHECK(m[6].type == GN_Q3_TCMOD_ENTITY_TRANSLATE, "entityTranslate %d", m[6].type);
    }
    st = &s->stages[1];
    CHECK(st->map_kind == GN_Q3_MAP_IMAGE && st->clamp && strcmp(st->map, "textures/test/clamp.tga") == 0 &&
              st->blend_src == GN_Q3_BLEND_ONE && st->blend_dst == GN_Q3_BLEND_ONE,
          "stage 1: map %d clamp %d '%s' blend %d %d", st->map_kind, st->clamp, st->map, st->blend_src,
          st->blend_dst);
    CHECK(st->rgb_gen == GN_Q3_RGB_CONST && st->rgb_const[0] == 1 && st->rgb_const[1] == 0.5f &&
              st->rgb_const[2] == 0.25f && st->alpha_gen == GN_Q3_ALPHA_CONST && st->alpha_const == 0.75f,
          "stage 1: rgbGen %d (%g %g %g) alphaGen %d %g", st->rgb_gen, st->rgb_const[0], st->rgb_const[1],
          st->rgb_const[2], st->alpha_gen, st->alpha_const);
    CHECK(st->tc_gen == GN_Q3_TC_VECTOR && st->tc_vector[0][0] == 1 && st->tc_vector[0][1] == 0 &&
              st->tc_vector[1][1] == 1 && st->tc_vector[1][2] == 0,
          "stage 1: tcGen %d", st->tc_gen);
    st = &s->stages[2];
    CHECK(st->map_kind == GN_Q3_MAP_ANIM && st->anim_freq == 10 && st->anim_frame_count == 3 &&
              strcmp(st->anim_frames[0], "a.tga") == 0 && strcmp(st->anim_frames[2], "c.tga") == 0,
          "stage 2: map %d %g fps %u frames", st->map_kind, st->anim_freq, st->anim_frame_count);
    CHECK(st->blend_src == GN_Q3_BLEND_DST_COLOR && st->blend_dst == GN_Q3_BLEND_ZERO &&
              st->rgb_gen == GN_Q3_RGB_IDENTITY_LIGHTING && st->alpha_gen == GN_Q3_ALPHA_PORTAL &&
              st->alpha_portal == 512 && st->tc_gen == GN_Q3_TC_LIGHTMAP,
          "stage 2: blend %d %d rgbGen %d alphaGen %d %g tcGen %d", st->blend_src, st->blend_dst, st->rgb_gen,
          st->alpha_gen, st->alpha_portal, st->tc_gen);
    st = &s->stages[3];
    CHECK(st->map_kind == GN_Q3_MAP_LIGHTMAP && st->blend_src == GN_Q3_BLEND_SRC_ALPHA &&
              st->blend_dst == GN_Q3_BLEND_ONE_MINUS_SRC_ALPHA && st->rgb_gen == GN_Q3_RGB_VERTEX &&
              st->alpha_gen == GN_Q3_ALPHA_VERTEX && st->tc_gen == GN_Q3_TC_TEXTURE,
          "stage 3: map %d blend %d %d rgbGen %d alphaGen %d tcGen %d", st->map_kind, st->blend_src,
          st->blend_dst, st->rgb_gen, st->alpha_gen, st->tc_gen);
    st = &s->stages[4];
    CHECK(st->map_kind == GN_Q3_MAP_WHITE && st->blend_src == GN_Q3_BLEND_DST_COLOR &&
              st->blend_dst == GN_Q3_BLEND_ONE_MINUS_SRC_ALPHA && st->rgb_gen == GN_Q3_RGB_EXACT_VERTEX &&
              st->alpha_gen == GN_Q3_ALPHA_ENTITY && st->alpha_func == GN_Q3_ALPHA_FUNC_GT0 &&
              st->tc_gen == GN_Q3_TC_TEXTURE,
          "stage 4: map %d blend %d %d rgbGen %d alphaGen %d", st->map_kind, st->blend_src, st->blend_dst,
          st->rgb_gen, st->alpha_gen);
    st = &s->stages[5];
    CHECK(st->rgb_gen == GN_Q3_RGB_ONE_MINUS_VERTEX && st->alpha_gen == GN_Q3_ALPHA_ONE_MINUS_ENTITY &&
              st->alpha_func == GN_Q3_ALPHA_FUNC_LT128 && st->depth_func == GN_Q3_DEPTH_LEQUAL &&
              st->blend_src == GN_Q3_BLEND_NONE,
          "stage 5: rgbGen %d alphaGen %d alphaFunc %d", st->rgb_gen, st->alpha_gen, st->alpha_func);
    st = &s->stages[6];
    CHECK(st->map_kind == GN_Q3_MAP_IMAGE && strcmp(st->map, "y.tga") == 0 &&
              st->rgb_gen == GN_Q3_RGB_ENTITY && st->alpha_gen == GN_Q3_ALPHA_LIGHTING_SPECULAR,
          "stage 6: map %d '%s' rgbGen %d alphaGen %d", st->map_kind, st->map, st->rgb_gen, st->alpha_gen);
    st = &s->stages[7];
    CHECK(st->line == 88 && st->map_kind == GN_Q3_MAP_VIDEO && strcmp(st->map, "intro.roq") == 0 &&
              st->rgb_gen == GN_Q3_RGB_ONE_MINUS_ENTITY && st->alpha_gen == GN_Q3_ALPHA_IDENTITY,
          "stage 7: line %u map %d '%s' rgbGen %d alphaGen %d", st->line, st->map_kind, st->map, st->rgb_gen,
          st->alpha_gen);

    s = gn_q3_library_find(&lib, "textures/test/two");
    CHECK(s && s->line == 95 && s->cull == GN_Q3_CULL_BACK && s->sort == 7.5f && s->portal &&
              s->entity_mergable,
          "two: line %u cull %d sort %g", s ? s->line : 0, s ? (int)s->cull : -1, s ? s->sort : 0);
    if (s) {
        CHECK(s->has_sky && !s->sky_far[0] && s->sky_cloud_height == 0 && !s->sky_near[0],
              "two: skyparms - - -");
        CHECK(s->deform_count == 4 && s->deforms[0].type == GN_Q3_DEFORM_AUTOSPRITE &&
                  s->deforms[1].type == GN_Q3_DEFORM_AUTOSPRITE2 &&
                  s->deforms[2].type == GN_Q3_DEFORM_PROJECTION_SHADOW &&
                  s->deforms[3].type == GN_Q3_DEFORM_TEXT && s->deforms[3].text_index == 3,
              "two: %u deforms", s->deform_count);
        CHECK(s->stage_count == 1 && s->stages[0].rgb_gen == GN_Q3_RGB_LIGHTING_DIFFUSE &&
                  s->stages[0].alpha_gen == GN_Q3_ALPHA_ONE_MINUS_VERTEX &&
                  s->stages[0].blend_src == GN_Q3_BLEND_SRC_ALPHA_SATURATE &&
                  s->stages[0].blend_dst == GN_Q3_BLEND_ONE_MINUS_SRC_COLOR,
              "two: stages");
    }
    gn_q3_library_free(&lib);
    CHECK(lib.shaders == NULL && lib.shader_count == 0, "free zeroes the library");
}

/* The one-argument variants of cull and sort, and the wave functions. */
static void test_variants(void)
{
    static const struct {
        const char *line;
        gn_q3_cull cull;
    } culls[] = {{"cull front", GN_Q3_CULL_FRONT},   {"cull back", GN_Q3_CULL_BACK},
                 {"cull backside", GN_Q3_CULL_BACK}, {"cull backsided", GN_Q3_CULL_BACK},
                 {"cull none", GN_Q3_CULL_NONE},     {"cull twosided", GN_Q3_CULL_NONE},
                 {"cull disable", GN_Q3_CULL_NONE},  {"CULL NONE", GN_Q3_CULL_NONE}};
    for (size_t i = 0; i < sizeof culls / sizeof culls[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "x\n{\n\t%s\n}\n", culls[i].line);
        gn_q3_library lib = {0};
        add(&lib, text, "scripts/cull.shader");
        const gn_q3_shader *s = gn_q3_library_find(&lib, "x");
        CHECK(s && s->cull == culls[i].cull && lib.report.problem_count == 0, "'%s': cull %d", culls[i].line,
              s ? (int)s->cull : -1);
        gn_q3_library_free(&lib);
    }
    static const struct {
        const char *name;
        float sort;
    } sorts[] = {{"portal", 1},     {"sky", 2},    {"opaque", 3},     {"decal", 4},
                 {"seeThrough", 5}, {"banner", 6}, {"underwater", 8}, {"additive", 10},
                 {"nearest", 16},   {"12", 12},    {"SeeThrough", 5}};
    for (size_t i = 0; i < sizeof sorts / sizeof sorts[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "x { sort %s }", sorts[i].name);
        gn_q3_library lib = {0};
        add(&lib, text, "scripts/sort.shader");
        const gn_q3_shader *s = gn_q3_library_find(&lib, "x");
        CHECK(s && s->sort == sorts[i].sort && lib.report.problem_count == 0, "sort %s: %g", sorts[i].name,
              s ? s->sort : -1);
        gn_q3_library_free(&lib);
    }
    static const char *const waves[] = {"sin", "triangle", "square", "sawtooth", "inversesawtooth", "noise"};
    for (int i = 0; i < 6; i++) {
        char text[128];
        snprintf(text, sizeof text, "x\n{\n{\nrgbGen wave %s 0.25 0.5 0.125 4\n}\n}\n", waves[i]);
        gn_q3_library lib = {0};
        add(&lib, text, "scripts/wave.shader");
        const gn_q3_shader *s = gn_q3_library_find(&lib, "x");
        CHECK(s && s->stage_count == 1 &&
                  wave_is(&s->stages[0].rgb_wave, (gn_q3_wave_func)(GN_Q3_WAVE_SIN + i), 0.25f, 0.5f, 0.125f,
                          4),
              "wave %s", waves[i]);
        gn_q3_library_free(&lib);
    }
}

static void test_unknown_and_malformed(void)
{
    gn_q3_library lib = {0};
    const char *file = "scripts/bad.shader";
    add(&lib,
        "a\n"                                          /* 1 */
        "{\n"                                          /* 2 */
        "\tfrobnicate 1 2 3\n"                         /* 3: unknown, shader level */
        "\tFROBNICATE\n"                               /* 4: the same, counted twice, listed once */
        "\tsurfaceparm shiny\n"                        /* 5: unknown surfaceparm */
        "\tsurfaceparm nodraw\n"                       /* 6 */
        "\t{\n"                                        /* 7 */
        "\t\tmap a.tga\n"                              /* 8 */
        "\t\ttcMod scroll 0.5 abc\n"                   /* 9: malformed number */
        "\t\ttcMod scale 1.5.2 1\n"                    /* 10: malformed number */
        "\t\ttcMod scale 2 2\n"                        /* 11 */
        "\t\tsparkle\n"                                /* 12: unknown, stage level */
        "\t\trgbGen glow\n"                            /* 13: unknown rgbGen */
        "\t\tblendFunc GL_ONE GL_SRC_ALPHA_SATURATE\n" /* 14: not a dst factor */
        "\t\talphaFunc GT1\n"                          /* 15 */
        "\t\tdepthFunc always\n"                       /* 16 */
        "\t\ttcMod scroll 1\n"                         /* 17: missing argument */
        "\t\tmap b.tga extra\n"                        /* 18: extra token */
        "\t}\n"                                        /* 19 */
        "\tsort 0.5f\n"                                /* 20: malformed */
        "\tcull sideways\n"                            /* 21 */
        "\tdeformVertexes wave 0 sin 0 1 0 1\n"        /* 22: div 0 */
        "\tdeformVertexes wave 10 sine 0 1 0 1\n"      /* 23: not a wave */
        "\tfogparms ( 1 1 ) 5\n"                       /* 24: ')' is not a number */
        "\tfogparms (1 1 1) 5\n"                       /* 25: parentheses attached */
        "}\n"
        "b { surfaceparm trans }\n",
        file);
    CHECK(unknown_count(&lib, "frobnicate") == 2 && unknown_count(&lib, "surfaceparm shiny") == 1 &&
              unknown_count(&lib, "sparkle") == 1 && unknown_count(&lib, "rgbgen glow") == 1 &&
              lib.report.unknown_count == 4,
          "unknown: frobnicate %u, surfaceparm shiny %u, sparkle %u, rgbgen glow %u; %u names",
          unknown_count(&lib, "frobnicate"), unknown_count(&lib, "surfaceparm shiny"),
          unknown_count(&lib, "sparkle"), unknown_count(&lib, "rgbgen glow"), lib.report.unknown_count);
    CHECK(lib.report.unknown_count && lib.report.unknown[0].line == 3 &&
              strcmp(lib.report.unknown[0].file, file) == 0,
          "first unknown at %s:%u", lib.report.unknown_count ? lib.report.unknown[0].file : "",
          lib.report.unknown_count ? lib.report.unknown[0].line : 0);
    CHECK(has_problem(&lib, file, 9, "tcMod", "'abc' is not a number"), "line 9: abc");
    CHECK(has_problem(&lib, file, 10, "tcMod", "'1.5.2' is not a number"), "line 10: 1.5.2");
    CHECK(has_problem(&lib, file, 14, "blendFunc", "not a destination blend factor"), "line 14");
    CHECK(has_problem(&lib, file, 15, "alphaFunc", "not an alpha test"), "line 15");
    CHECK(has_problem(&lib, file, 16, "depthFunc", "not a depth test"), "line 16");
    CHECK(has_problem(&lib, file, 17, "tcMod", "missing the t speed"), "line 17");
    CHECK(has_problem(&lib, file, 18, "map", "'extra' after the arguments"), "line 18");
    CHECK(has_problem(&lib, file, 20, "sort", "'0.5f' is neither"), "line 20");
    CHECK(has_problem(&lib, file, 21, "cull", "not a cull mode"), "line 21");
    CHECK(has_problem(&lib, file, 22, "deformVertexes", "spread (div) of 0"), "line 22");
    CHECK(has_problem(&lib, file, 23, "deformVertexes", "'sine' is not a wave function"), "line 23");
    CHECK(has_problem(&lib, file, 24, "fogparms", "')' is not a number"), "line 24");
    CHECK(has_problem(&lib, file, 25, "fogparms", "expected '('"), "line 25");
    CHECK(lib.report.problem_count == 13, "%u problems, want 13", lib.report.problem_count);
    if (lib.report.problem_count != 13) print_problems(&lib);
    const gn_q3_shader *a = gn_q3_library_find(&lib, "a"), *b = gn_q3_library_find(&lib, "b");
    CHECK(a && b && b->surface_flags == GN_Q3_SURF_TRANS, "both shaders read");
    if (a) {
        /* the bad lines leave their keywords at the defaults; the good ones around them count */
        CHECK(a->surface_flags == GN_Q3_SURF_NODRAW && a->sort == 0 && a->cull == GN_Q3_CULL_FRONT &&
                  !a->has_fog && a->deform_count == 1 && a->deforms[0].div == 0,
              "a: flags %#x sort %g cull %d fog %d deforms %u", a->surface_flags, a->sort, a->cull,
              a->has_fog, a->deform_count);
        const gn_q3_stage *st = a->stage_count == 1 ? &a->stages[0] : NULL;
        CHECK(st && st->tcmod_count == 1 && st->tcmods[0].type == GN_Q3_TCMOD_SCALE &&
                  st->tcmods[0].v[0] == 2 && strcmp(st->map, "b.tga") == 0 &&
                  st->rgb_gen == GN_Q3_RGB_DEFAULT && st->blend_src == GN_Q3_BLEND_ONE &&
                  st->blend_dst == GN_Q3_BLEND_ONE && st->alpha_func == GN_Q3_ALPHA_FUNC_NONE,
              "a's stage");
    }
    gn_q3_library_free(&lib);
}

static void test_braces(void)
{
    const char *file = "scripts/braces.shader";
    /* a stage without its '}', then a shader without its '}' before the next one */
    gn_q3_library lib = {0};
    add(&lib,
        "one\n"            /* 1 */
        "{\n"              /* 2 */
        "\t{\n"            /* 3 */
        "\t\tmap a.tga\n"  /* 4 */
        "\t{\n"            /* 5: the stage of line 3 lacks its '}' */
        "\t\tmap b.tga\n"  /* 6 */
        "\t}\n"            /* 7 */
        "textures/x/two\n" /* 8: one lacks its '}' */
        "{\n"              /* 9 */
        "\tsurfaceparm nodraw\n"
        "}\n"
        "}\n"             /* 12: a stray '}' */
        "{ map c.tga }\n" /* 13: a block without a name */
        "three\n"         /* 14: no '{' */
        "\tsurfaceparm sky\n"
        "}\n"
        "four { surfaceparm fog }\n",
        file);
    CHECK(has_problem(&lib, file, 5, "{", "the stage from line 3 has no '}'"), "line 5");
    CHECK(has_problem(&lib, file, 8, "textures/x/two", "one (from line 2) has no closing '}'"), "line 8");
    CHECK(has_problem(&lib, file, 12, "}", "outside any shader"), "line 12");
    CHECK(has_problem(&lib, file, 13, "{", "without a shader name"), "line 13");
    CHECK(has_problem(&lib, file, 15, "three", "no '{' after the shader name"), "line 15");
    CHECK(lib.report.problem_count == 5, "%u problems", lib.report.problem_count);
    if (lib.report.problem_count != 5) print_problems(&lib);
    const gn_q3_shader *one = gn_q3_library_find(&lib, "one"),
                       *two = gn_q3_library_find(&lib, "textures/x/two"),
                       *three = gn_q3_library_find(&lib, "three"), *four = gn_q3_library_find(&lib, "four");
    CHECK(one && one->stage_count == 2 && strcmp(one->stages[0].map, "a.tga") == 0 &&
              strcmp(one->stages[1].map, "b.tga") == 0,
          "one: %u stages", one ? one->stage_count : 0);
    CHECK(two && two->surface_flags == GN_Q3_SURF_NODRAW && two->line == 9, "two");
    CHECK(three && three->surface_flags == GN_Q3_SURF_SKY, "three");
    CHECK(four && four->surface_flags == GN_Q3_SURF_FOG, "four");
    CHECK(lib.shader_count == 4, "%u shaders", lib.shader_count);
    gn_q3_library_free(&lib);

    /* a stage and its shader without their '}' before the next shader */
    add(&lib, "first\n{\n\t{\n\t\tmap a.tga\ntextures/x/next\n{\n\tsurfaceparm sky\n}\n", file);
    CHECK(has_problem(&lib, file, 5, "textures/x/next", "the stage from line 3 and its shader have no '}'"),
          "the stage's and shader's missing '}'");
    const gn_q3_shader *first = gn_q3_library_find(&lib, "first"),
                       *next = gn_q3_library_find(&lib, "textures/x/next");
    CHECK(first && first->stage_count == 1 && strcmp(first->stages[0].map, "a.tga") == 0 && next &&
              next->surface_flags == GN_Q3_SURF_SKY && lib.report.problem_count == 1,
          "first and next: %u problems", lib.report.problem_count);
    gn_q3_library_free(&lib);

    /* the end of the text inside a stage and inside a shader: the shader is not kept */
    static const char *const cut[] = {"x\n{\n{\nmap a.tga\n", "x\n{\nsurfaceparm nodraw\n", "x\n",
                                      "x { { } "};
    for (int i = 0; i < 4; i++) {
        gn_q3_library l = {0};
        add(&l, cut[i], "scripts/cut.shader");
        CHECK(l.shader_count == 0 && l.report.problem_count == 1, "cut %d: %u shaders %u problems", i,
              l.shader_count, l.report.problem_count);
        CHECK(l.report.problem_count && (strstr(l.report.problems[0].message, "the text ends") != NULL),
              "cut %d: '%s'", i, l.report.problem_count ? l.report.problems[0].message : "");
        gn_q3_library_free(&l);
    }
}

static void test_caps(void)
{
    /* 10 stages: 8 kept, one problem */
    char text[4096];
    int n = snprintf(text, sizeof text, "many\n{\n");
    for (int i = 0; i < 10; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "\t{\n\t\tmap s%d.tga\n\t}\n", i);
    /* 9 tcMods, 10 animMap frames, 5 deforms */
    n += snprintf(text + n, sizeof text - (size_t)n,
                  "}\nmods\n{\n{\nanimMap 1 f0 f1 f2 f3 f4 f5 f6 f7 f8 f9\n"
                  "tcMod rotate 1\ntcMod rotate 2\ntcMod rotate 3\ntcMod rotate 4\ntcMod rotate 5\n"
                  "tcMod rotate 6\ntcMod rotate 7\ntcMod rotate 8\ntcMod rotate 9\n}\n"
                  "deformVertexes autosprite\ndeformVertexes autosprite\ndeformVertexes autosprite\n"
                  "deformVertexes wave 10 noise 0 1 0 1\ndeformVertexes autosprite2\n}\n");
    gn_q3_library lib = {0};
    add(&lib, text, "scripts/caps.shader");
    const gn_q3_shader *s = gn_q3_library_find(&lib, "many");
    CHECK(s && s->stage_count == GN_Q3_MAX_STAGES && strcmp(s->stages[7].map, "s7.tga") == 0,
          "many: %u stages", s ? s->stage_count : 0);
    CHECK(has_problem(&lib, "scripts/caps.shader", 27, "many", "more than 8 stages in many: 2 skipped"),
          "the stage cap's problem");
    s = gn_q3_library_find(&lib, "mods");
    CHECK(s && s->stage_count == 1 && s->stages[0].tcmod_count == GN_Q3_MAX_TCMODS &&
              s->stages[0].tcmods[7].v[0] == 8 && s->stages[0].anim_frame_count == GN_Q3_MAX_ANIM_FRAMES &&
              strcmp(s->stages[0].anim_frames[7], "f7") == 0,
          "mods: tcMods and frames");
    CHECK(s && s->deform_count == GN_Q3_MAX_DEFORMS && s->deforms[3].wave.func == GN_Q3_WAVE_NOISE &&
              lib.report.deforms_dropped == 1,
          "mods: %u deforms, %u dropped", s ? s->deform_count : 0, lib.report.deforms_dropped);
    CHECK(lib.report.problem_count == 4, "%u problems, want 4 (stages, frames, tcMods, deforms)",
          lib.report.problem_count);
    if (lib.report.problem_count != 4) print_problems(&lib);
    gn_q3_library_free(&lib);

    /* a 64-character name is one too long; the shader after it is read */
    char name[80];
    memset(name, 'n', 64);
    name[64] = 0;
    snprintf(text, sizeof text, "ok1 { nopicmip }\n%s\n{\n\t{\n\t\tmap a.tga\n\t}\n}\nok2 { nopicmip }\n",
             name);
    add(&lib, text, "scripts/long.shader");
    CHECK(has_problem(&lib, "scripts/long.shader", 2, NULL, "64 characters long, over the 63"),
          "the long name's problem");
    CHECK(gn_q3_library_find(&lib, "ok1") && gn_q3_library_find(&lib, "ok2") && lib.shader_count == 2,
          "%u shaders around the long name", lib.shader_count);
    name[63] = 0; /* 63 is fine */
    snprintf(text, sizeof text, "%s { nopicmip }\n", name);
    add(&lib, text, "scripts/long63.shader");
    CHECK(gn_q3_library_find(&lib, name) != NULL, "a 63-character name");
    gn_q3_library_free(&lib);

    /* a file over 1 MiB is refused whole */
    size_t big = GN_Q3_MAX_FILE_BYTES + 1;
    char *huge = malloc(big);
    memset(huge, ' ', big);
    memcpy(huge, "x { }", 5);
    gn_error err = {0};
    gn_result r = gn_q3_library_add_file(&lib, huge, big, "scripts/huge.shader", &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, "scripts/huge.shader") && lib.shader_count == 0 &&
              lib.report.problem_count == 1,
          "1 MiB + 1: %d '%s'", r, err.message);
    r = gn_q3_library_add_file(&lib, huge, big - 1, "scripts/huge.shader", &err);
    CHECK(r == GN_OK && lib.shader_count == 1, "1 MiB: %d", r);
    free(huge);
    gn_q3_library_free(&lib);

    /* 16385 names: the last is dropped with one problem; an override still goes in */
    size_t cap = (size_t)(GN_Q3_MAX_SHADERS + 1) * 16;
    char *t = malloc(cap);
    size_t len = 0;
    for (uint32_t i = 0; i <= GN_Q3_MAX_SHADERS; i++)
        len += (size_t)snprintf(t + len, cap - len, "s%u { }\n", i);
    r = gn_q3_library_add_file(&lib, t, len, "scripts/names.shader", &err);
    CHECK(r == GN_OK && lib.shader_count == GN_Q3_MAX_SHADERS && lib.report.problem_count == 1 &&
              gn_q3_library_find(&lib, "s16383") && !gn_q3_library_find(&lib, "s16384"),
          "the shader cap: %u shaders, %u problems", lib.shader_count, lib.report.problem_count);
    add(&lib, "s5 { nomipmaps }\n", "scripts/later.shader");
    const gn_q3_shader *s5 = gn_q3_library_find(&lib, "s5");
    CHECK(s5 && s5->no_mipmaps && lib.shader_count == GN_Q3_MAX_SHADERS, "an override past the cap");
    free(t);
    gn_q3_library_free(&lib);
}

static void test_comments_case_and_lines(void)
{
    gn_q3_library lib = {0};
    const char *file = "scripts/c.shader";
    add(&lib,
        "/* one */ a /* two */ { // three\n"                    /* 1 */
        "  SurfaceParm NoDraw // four\n"                        /* 2 */
        "  /* five\n"                                           /* 3 */
        "     six */ CULL TwoSided\n"                           /* 4 */
        "  { MAP \"textures/with space.tga\" BLENDFUNC ADD }\n" /* 5: a quoted name; keywords run on */
        "}\r\n"                                                 /* 6 */
        "b\r{\r surfaceparm sky\r}\r"                           /* 7..10: lone CRs end lines */
        "d\n{\n\tdeformVertexes move 1 2 3 sin 0 1 0 1 /* not\n"
        "closed",
        file);
    const gn_q3_shader *a = gn_q3_library_find(&lib, "A"), *b = gn_q3_library_find(&lib, "b");
    CHECK(a && a->surface_flags == GN_Q3_SURF_NODRAW && a->cull == GN_Q3_CULL_NONE && a->line == 1,
          "a: flags %#x cull %d line %u", a ? a->surface_flags : 0, a ? (int)a->cull : -1, a ? a->line : 0);
    /* "MAP x BLENDFUNC ADD" on one line: the map's argument is one token; the rest is a problem */
    CHECK(a && a->stage_count == 1 && strcmp(a->stages[0].map, "textures/with space.tga") == 0,
          "a's quoted map: '%s'", a && a->stage_count ? a->stages[0].map : "");
    CHECK(has_problem(&lib, file, 5, "MAP", "'BLENDFUNC' after the arguments"), "line 5");
    CHECK(b && b->line == 8 && b->surface_flags == GN_Q3_SURF_SKY, "b with CR line ends: line %u",
          b ? b->line : 0);
    CHECK(has_problem(&lib, file, 13, "/*", "unterminated comment"), "the unterminated comment");
    CHECK(has_problem(&lib, file, 12, "d", "the text ends inside d"), "d is cut");
    CHECK(lib.report.problem_count == 3, "%u problems", lib.report.problem_count);
    if (lib.report.problem_count != 3) print_problems(&lib);
    CHECK(!gn_q3_library_find(&lib, "d"), "d not kept");
    gn_q3_library_free(&lib);
}

static void test_override_and_lookup(void)
{
    gn_q3_library lib = {0};
    add(&lib,
        "textures/base/wall\n{\n\tsurfaceparm nodraw\n}\n"
        "textures/base/floor { surfaceparm sky }\n"
        "TEXTURES/BASE/WALL { surfaceparm fog }\n", /* a repeat within the file: the first stands */
        "scripts/a.shader");
    add(&lib,
        "Textures/Base/Wall.tga\n{\n\tsurfaceparm water\n}\n" /* a later file: replaces, extension and all */
        "textures/base/ceiling { surfaceparm lava }\n",
        "scripts/b.shader");
    CHECK(lib.shader_count == 3 && lib.report.definitions == 5 && lib.report.duplicates == 1 &&
              lib.report.overridden == 1 && lib.report.files == 2,
          "%u shaders, %u definitions, %u duplicates, %u overridden", lib.shader_count,
          lib.report.definitions, lib.report.duplicates, lib.report.overridden);
    const gn_q3_shader *w = gn_q3_library_find(&lib, "textures/base/wall");
    CHECK(w && w->surface_flags == GN_Q3_SURF_WATER && strcmp(w->file, "scripts/b.shader") == 0 &&
              w->line == 2,
          "wall from %s:%u flags %#x", w ? w->file : "", w ? w->line : 0, w ? w->surface_flags : 0);
    CHECK(w == &lib.shaders[0], "an override keeps the name's place");
    static const char *const spellings[] = {"textures/base/wall", "TEXTURES/BASE/WALL",
                                            "textures/base/wall.tga", "textures\\base\\wall.jpg",
                                            "Textures/Base/Wall.TGA"};
    for (int i = 0; i < 5; i++)
        CHECK(gn_q3_library_find(&lib, spellings[i]) == w, "lookup '%s'", spellings[i]);
    CHECK(!gn_q3_library_find(&lib, "textures/base/wal") &&
              !gn_q3_library_find(&lib, "textures/base/walls") &&
              !gn_q3_library_find(&lib, "textures/base.x/wall") && !gn_q3_library_find(&lib, ""),
          "near misses are not found");
    const gn_q3_shader *f = gn_q3_library_find(&lib, "textures/base/floor");
    CHECK(f && f->surface_flags == GN_Q3_SURF_SKY && strcmp(f->file, "scripts/a.shader") == 0, "floor");
    /* a third file overriding again, and a name with a dot in a folder */
    add(&lib, "textures/base/wall { surfaceparm slime }\ntextures/v1.2/x { }\n", "scripts/c.shader");
    w = gn_q3_library_find(&lib, "textures/base/wall.tga");
    CHECK(w && w->surface_flags == GN_Q3_SURF_SLIME && lib.report.overridden == 2, "third file wins");
    CHECK(gn_q3_library_find(&lib, "textures/v1.2/x.tga") && gn_q3_library_find(&lib, "textures/v1.2/x"),
          "a dot in a folder is not an extension");
    CHECK(gn_q3_library_find(NULL, "x") == NULL && gn_q3_library_find(&lib, NULL) == NULL, "NULL lookups");
    gn_q3_library_free(&lib);
    gn_q3_library empty = {0};
    CHECK(gn_q3_library_find(&empty, "x") == NULL, "an empty library");
    gn_q3_library_free(&empty);
    gn_q3_library_free(NULL);
}

/* The dump reads back as the same shader (the same dump), and it is cut cleanly. */
static void test_describe(void)
{
    gn_q3_library lib = {0};
    add(&lib, every_keyword, "scripts/all.shader");
    add(&lib, "\"a name\" { skyparms \"far box\" - \"//\"\n { animMap 1 \"a b\" c \"{\" } }\n",
        "scripts/q.shader");
    CHECK(lib.shader_count == 3 && lib.report.problem_count == 0, "quoted names: %u shaders",
          lib.shader_count);
    for (uint32_t i = 0; i < lib.shader_count; i++) {
        char a[8192], b[8192];
        size_t n = gn_q3_describe(&lib.shaders[i], a, sizeof a);
        CHECK(n > 0 && n < sizeof a && strlen(a) == n, "describe: %zu bytes", n);
        gn_q3_library again = {0};
        add(&again, a, "scripts/again.shader");
        const gn_q3_shader *s = gn_q3_library_find(&again, lib.shaders[i].name);
        CHECK(s && again.report.problem_count == 0, "%s: reads back", lib.shaders[i].name);
        if (s) {
            gn_q3_describe(s, b, sizeof b);
            const char *ab = strchr(a, '\n'), *bb = strchr(b, '\n'); /* past the file:line */
            CHECK(ab && bb && strcmp(ab, bb) == 0, "%s: the dump differs after reading it back:\n%s\n%s",
                  lib.shaders[i].name, a, b);
            CHECK(s->surface_flags == lib.shaders[i].surface_flags &&
                      s->stage_count == lib.shaders[i].stage_count &&
                      s->deform_count == lib.shaders[i].deform_count,
                  "%s: fields after reading back", lib.shaders[i].name);
        }
        gn_q3_library_free(&again);
        /* every cut: NUL-terminated, a prefix of the whole, the same length returned */
        for (size_t cap = 0; cap <= n + 1; cap++) {
            char small[8192];
            memset(small, 'X', sizeof small);
            size_t m = gn_q3_describe(&lib.shaders[i], small, cap);
            bool ok = m == n && (cap == 0 ? small[0] == 'X' : strlen(small) == (cap - 1 < n ? cap - 1 : n)) &&
                      (cap == 0 || strncmp(small, a, strlen(small)) == 0) && small[cap] == 'X';
            if (!ok) {
                CHECK(ok, "describe into %zu bytes", cap);
                break;
            }
        }
    }
    const gn_q3_shader *s = gn_q3_library_find(&lib, "textures/test/all");
    char text[8192];
    gn_q3_describe(s, text, sizeof text);
    CHECK(strstr(text, "textures/test/all // scripts/all.shader:5\n{\n") == text &&
              strstr(text, "\tcull none\n") && strstr(text, "\t\ttcMod turb 0 0.25 0.5 1\n") &&
              strstr(text, "\t\tanimMap 10 a.tga b.tga c.tga\n"),
          "the dump:\n%s", text);
    CHECK(gn_q3_describe(NULL, text, sizeof text) == 0 && text[0] == 0, "NULL shader");
    gn_q3_library_free(&lib);
}

/* Every prefix of a script, each in a buffer of exactly its size (so that AddressSanitizer sees
 * a read past it): no crash, and never more shaders than the whole file has. */
static void test_truncations(void)
{
    size_t len = strlen(every_keyword);
    uint32_t bad = 0;
    for (size_t n = 0; n <= len; n++) {
        char *cut = malloc(n ? n : 1);
        memcpy(cut, every_keyword, n);
        gn_q3_library lib = {0};
        gn_error err;
        gn_result r = gn_q3_library_add_file(&lib, cut, n, "scripts/cut.shader", &err);
        bool whole = n >= len - 1; /* the last '\n' is not needed */
        if (r != GN_OK || lib.shader_count > 2 ||
            (whole && (lib.shader_count != 2 || lib.report.problem_count)) || (n < 200 && lib.shader_count))
            bad++;
        free(cut);
        gn_q3_library_free(&lib);
    }
    CHECK(bad == 0, "%u of %zu truncations misread", bad, len + 1);
    printf("unit_q3shader: %zu truncations of a %zu-byte script\n", len + 1, len);
    /* and junk: every byte value */
    char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (char)((i * 7919u) >> 3);
    gn_q3_library lib = {0};
    gn_error err;
    CHECK(gn_q3_library_add_file(&lib, junk, sizeof junk, "scripts/junk.shader", &err) == GN_OK, "junk");
    gn_q3_library_free(&lib);
    CHECK(gn_q3_library_add_file(&lib, NULL, 0, "scripts/empty.shader", &err) == GN_OK &&
              lib.shader_count == 0,
          "an empty file");
    CHECK(gn_q3_library_add_file(&lib, NULL, 1, "x", &err) == GN_ERROR_INVALID_ARGUMENT, "NULL text");
    gn_q3_library_free(&lib);
}

/* Each allocation of two files' parse failing in turn: GN_ERROR_OUT_OF_MEMORY, a library that
 * stays valid (and frees cleanly), never a crash. */
static void test_alloc_faults(void)
{
    uint64_t calls = 0;
    gn_alloc_record();
    {
        gn_q3_library lib = {0};
        add(&lib, every_keyword, "scripts/a.shader");
        add(&lib, "textures/test/all { }\nx { { } }\nbad { sparkle\nfog 1x }", "scripts/b.shader");
        gn_q3_library_free(&lib);
    }
    calls = gn_alloc_calls();
    gn_alloc_disarm();
    CHECK(calls >= 6, "%llu allocations", (unsigned long long)calls);
    uint32_t wrong = 0;
    for (uint64_t nth = 1; nth <= calls; nth++) {
        gn_q3_library lib = {0};
        gn_error err = {0};
        gn_alloc_fail_nth(nth);
        gn_result a =
            gn_q3_library_add_file(&lib, every_keyword, strlen(every_keyword), "scripts/a.shader", &err);
        const char *t = "textures/test/all { }\nx { { } }\nbad { sparkle\nfog 1x }";
        gn_result b =
            a == GN_OK ? gn_q3_library_add_file(&lib, t, strlen(t), "scripts/b.shader", &err) : GN_OK;
        bool failed = gn_alloc_failures() == 1;
        gn_alloc_disarm();
        bool ok = failed && (a == GN_ERROR_OUT_OF_MEMORY || b == GN_ERROR_OUT_OF_MEMORY) &&
                  strstr(err.message, "out of memory") != NULL;
        for (uint32_t i = 0; i < lib.shader_count; i++) /* whatever is in is whole */
            if (!lib.shaders[i].name[0] || (lib.shaders[i].stage_count && !lib.shaders[i].stages)) ok = false;
        if (!ok && wrong++ < 3)
            fprintf(stderr, "  allocation %llu: %d %d '%s'\n", (unsigned long long)nth, a, b, err.message);
        gn_q3_library_free(&lib);
    }
    CHECK(wrong == 0, "%u of %llu allocation failures handled wrongly", wrong, (unsigned long long)calls);
    printf("unit_q3shader: each of %llu allocations failed in turn\n", (unsigned long long)calls);
}

int main(void)
{
    test_every_keyword();
    test_variants();
    test_unknown_and_malformed();
    test_braces();
    test_caps();
    test_comments_case_and_lines();
    test_override_and_lookup();
    test_describe();
    test_truncations();
    test_alloc_faults();
    CHECK(strcmp(gn_q3_surf_name(0), "water") == 0 && strcmp(gn_q3_surf_name(31), "dust") == 0 &&
              gn_q3_surf_name(32) == NULL,
          "surfaceparm names");
    return gn_check_exit();
}

/* Every shader script of OpenArena's paks through the parser (src/formats/q3shader.c): the
 * scripts/ files of the mounted pk3s (gn_pak_list: each name once, read from the archive that
 * overrides), added to one library by archive (earliest first) and then name, so that a later
 * pak's definition wins. Prints files, shaders, stages, every problem with its file:line and the
 * unknown keywords with their counts, and checks that each file parses with few problems and
 * that the sky shaders OpenArena's maps use are there with their sky parameters.
 *
 * Skips (exit 77) when the data is not installed: `unit_q3shader_paks [BASEOA_DIR]`, default
 * /usr/share/games/openarena/baseoa (Debian's openarena-data). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "formats/pak.h"
#include "formats/q3shader.h"

/* Measured on openarena-data 0.8.8 (Debian): 91 scripts, 1888 shaders, 2 problems (two
 * blendFuncs with GL_ONE_MINUS_DST_COLOR as the destination factor, which Q3 does not take),
 * 3 unknown keywords (q3map2's surfaceparms botclip, antiportal, lightgrid). More than these in
 * a file or in all is a parser regression, or new data to look at. */
#define MAX_PROBLEMS_A_FILE 1
#define MAX_PROBLEMS 2
#define MAX_UNKNOWN 3

typedef struct script {
    char *name;         /* inside scripts/ */
    const char *origin; /* the archive it is read from */
} script;

static int by_archive_then_name(const void *a, const void *b)
{
    const script *x = a, *y = b;
    int c = strcmp(x->origin, y->origin); /* gn_pak mounts archives in this same (name) order */
    return c ? c : strcmp(x->name, y->name);
}

/* The order id's engine gives them (FS_ListFiles: the overriding archive's files first), so
 * that a shader defined in several files resolves to the file latest in it: by archive from the
 * last, then by name (standing in for the zip directory's order). */
static int by_engine_order(const void *a, const void *b)
{
    const script *x = a, *y = b;
    int c = strcmp(y->origin, x->origin);
    return c ? c : strcmp(x->name, y->name);
}

static gn_result add_all(gn_pak *pak, const script *s, uint32_t n, gn_q3_library *lib, bool print)
{
    for (uint32_t i = 0; i < n; i++) {
        char path[256];
        snprintf(path, sizeof path, "scripts/%s", s[i].name);
        uint8_t *data = NULL;
        size_t size = 0;
        gn_error err = {0};
        gn_result r = gn_pak_read(pak, path, GN_Q3_MAX_FILE_BYTES, &data, &size, &err);
        CHECK(r == GN_OK, "%s: %s", path, err.message);
        if (r != GN_OK) return r;
        uint32_t before = lib->report.problem_count, shaders = lib->report.definitions;
        r = gn_q3_library_add_file(lib, (const char *)data, size, path, &err);
        free(data);
        CHECK(r == GN_OK, "%s: %s", path, err.message);
        uint32_t problems = lib->report.problem_count - before;
        CHECK(problems <= MAX_PROBLEMS_A_FILE, "%s: %u problems, at most %d expected", path, problems,
              MAX_PROBLEMS_A_FILE);
        if (print)
            printf("  %-40s %7zu bytes %4u shaders %u problems (%s)\n", path, size,
                   lib->report.definitions - shaders, problems,
                   strrchr(s[i].origin, '/') ? strrchr(s[i].origin, '/') + 1 : s[i].origin);
    }
    return GN_OK;
}

/* The dump of a shader without its first line (which names its file and line). */
static const char *body(const gn_q3_shader *s, char *buf, size_t cap)
{
    gn_q3_describe(s, buf, cap);
    const char *nl = strchr(buf, '\n');
    return nl ? nl : buf;
}

static void check_sky(const gn_q3_library *lib, const char *name, const char *far, float cloud)
{
    const gn_q3_shader *s = gn_q3_library_find(lib, name);
    CHECK(s != NULL, "%s: not found", name);
    if (!s) return;
    CHECK(s->has_sky && (s->surface_flags & GN_Q3_SURF_SKY), "%s: skyparms %d, surfaceparm sky %d", name,
          s->has_sky, (s->surface_flags & GN_Q3_SURF_SKY) != 0);
    CHECK(strcmp(s->sky_far, far) == 0 && s->sky_cloud_height == cloud && s->sky_near[0] == 0,
          "%s: skyparms '%s' %g '%s', want '%s' %g -", name, s->sky_far, s->sky_cloud_height, s->sky_near,
          far, cloud);
}

int main(int argc, char **argv)
{
    const char *folder = argc > 1 ? argv[1] : "/usr/share/games/openarena/baseoa";
    struct stat st;
    if (stat(folder, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("skip: %s is not a folder (install openarena-data, or pass the baseoa folder)\n", folder);
        return 77;
    }
    gn_pak *pak = NULL;
    gn_error err = {0};
    gn_result r = gn_pak_open(folder, &pak, &err);
    CHECK(r == GN_OK, "%s: %s", folder, err.message);
    if (r != GN_OK) return gn_check_exit();
    char **names = NULL;
    uint32_t count = 0;
    r = gn_pak_list(pak, "scripts", ".shader", &names, &count, &err);
    CHECK(r == GN_OK && count > 0, "scripts/*.shader: %s (%u files)", err.message, count);
    script *s = calloc(count ? count : 1, sizeof *s);
    for (uint32_t i = 0; i < count; i++) {
        char path[256];
        snprintf(path, sizeof path, "scripts/%s", names[i]);
        s[i].name = names[i];
        s[i].origin = gn_pak_origin(pak, path);
    }

    qsort(s, count, sizeof *s, by_archive_then_name);
    gn_q3_library lib = {0};
    printf("%u shader scripts in %s:\n", count, folder);
    add_all(pak, s, count, &lib, true);
    const gn_q3_report *rep = &lib.report;
    printf("files %u, shaders %u (%u definitions: %u overridden by a later file, %u repeated within a file), "
           "stages %u, tool keywords %u, deforms dropped %u, problems %u\n",
           rep->files, lib.shader_count, rep->definitions, rep->overridden, rep->duplicates, rep->stages,
           rep->tool_keywords, rep->deforms_dropped, rep->problem_count);
    for (uint32_t i = 0; i < rep->problem_count && i < GN_Q3_MAX_PROBLEMS; i++) {
        const gn_q3_problem *p = &rep->problems[i];
        printf("  problem: %s:%u: %s: %s\n", p->file, p->line, p->keyword, p->message);
    }
    printf("unknown keywords: %u (%u more not listed)\n", rep->unknown_count, rep->unknown_dropped);
    for (uint32_t i = 0; i < rep->unknown_count; i++)
        printf("  %-32s %5u  first at %s:%u\n", rep->unknown[i].keyword, rep->unknown[i].count,
               rep->unknown[i].file, rep->unknown[i].line);

    CHECK(rep->files == count, "%u of %u files read", rep->files, count);
    CHECK(lib.shader_count >= 1800 && rep->stages >= 3000, "%u shaders, %u stages", lib.shader_count,
          rep->stages);
    CHECK(rep->problem_count <= MAX_PROBLEMS, "%u problems, at most %d expected", rep->problem_count,
          MAX_PROBLEMS);

    /* Sky shaders of the maps in pak1-maps.pk3 (the texture lumps name them) */
    check_sky(&lib, "textures/skies/nitesky", "full", 1280.0f); /* 9 maps */
    check_sky(&lib, "textures/skies/hellsky", "full", 700.0f);  /* 3 maps */
    check_sky(&lib, "textures/common/sky_space", "env/space1", 128.0f);
    check_sky(&lib, "textures/skies/moonsky", "full", 800.0f);
    check_sky(&lib, "textures/skies/industrysky", "full", 800.0f);
    const gn_q3_shader *ind = gn_q3_library_find(&lib, "TEXTURES\\Skies\\IndustrySky.tga");
    CHECK(ind && strcmp(ind->name, "textures/skies/industrysky") == 0 && ind->stage_count == 2,
          "industrysky by another spelling: %s, %u stages", ind ? ind->name : "none",
          ind ? ind->stage_count : 0);
    if (ind && ind->stage_count == 2) {
        const gn_q3_stage *a = &ind->stages[0], *b = &ind->stages[1];
        CHECK(a->map_kind == GN_Q3_MAP_WHITE && a->rgb_gen == GN_Q3_RGB_CONST &&
                  fabsf(a->rgb_const[0] - 0.137255f) < 1e-6f && fabsf(a->rgb_const[2] - 0.227451f) < 1e-6f,
              "industrysky stage 1: map %d rgbGen %d (%g %g %g)", a->map_kind, a->rgb_gen, a->rgb_const[0],
              a->rgb_const[1], a->rgb_const[2]);
        CHECK(strcmp(b->map, "textures/skies/topclouds.tga") == 0 && b->blend_src == GN_Q3_BLEND_ONE &&
                  b->blend_dst == GN_Q3_BLEND_ONE && b->tcmod_count == 2 &&
                  b->tcmods[0].type == GN_Q3_TCMOD_SCROLL && b->tcmods[0].v[0] == -0.004f &&
                  b->tcmods[1].type == GN_Q3_TCMOD_SCALE && b->tcmods[1].v[1] == 2.0f,
              "industrysky stage 2: '%s' blend %d %d, %u tcMods", b->map, b->blend_src, b->blend_dst,
              b->tcmod_count);
    }
    char text[16384], other[16384];
    if (ind) printf("%s", (gn_q3_describe(ind, text, sizeof text), text));

    /* Every shader's dump reads back as the same shader. */
    uint32_t unequal = 0;
    for (uint32_t i = 0; i < lib.shader_count; i++) {
        size_t n = gn_q3_describe(&lib.shaders[i], text, sizeof text);
        gn_q3_library again = {0};
        gn_q3_library_add_file(&again, text, n, "scripts/dump.shader", &err);
        const gn_q3_shader *b = again.shader_count == 1 ? &again.shaders[0] : NULL;
        if (n >= sizeof text || !b || again.report.problem_count ||
            strcmp(body(&lib.shaders[i], text, sizeof text), body(b, other, sizeof other)) != 0)
            if (unequal++ < 4) printf("  the dump of %s reads back differently\n", lib.shaders[i].name);
        gn_q3_library_free(&again);
    }
    CHECK(unequal == 0, "%u of %u dumps read back differently", unequal, lib.shader_count);

    /* Every truncation of a real script, each in a buffer of exactly its size. */
    uint8_t *sky = NULL;
    size_t sky_size = 0;
    if (gn_pak_read(pak, "scripts/oasky.shader", GN_Q3_MAX_FILE_BYTES, &sky, &sky_size, &err) == GN_OK) {
        uint32_t bad = 0, whole = 0;
        for (size_t n = 0; n <= sky_size; n++) {
            char *cut = malloc(n ? n : 1);
            memcpy(cut, sky, n);
            gn_q3_library l = {0};
            if (gn_q3_library_add_file(&l, cut, n, "scripts/oasky.shader", &err) != GN_OK) bad++;
            if (n == sky_size) whole = l.shader_count;
            free(cut);
            gn_q3_library_free(&l);
        }
        printf("scripts/oasky.shader: %zu truncations parsed (%u shaders whole)\n", sky_size + 1, whole);
        CHECK(bad == 0 && whole > 20, "%u truncations failed; %u shaders in the whole file", bad, whole);
        free(sky);
    } else {
        CHECK(false, "scripts/oasky.shader: %s", err.message);
    }

    /* The engine's order: how many names resolve to a different definition there. */
    gn_q3_library eng = {0};
    qsort(s, count, sizeof *s, by_engine_order);
    add_all(pak, s, count, &eng, false);
    uint32_t differ = 0;
    for (uint32_t i = 0; i < lib.shader_count; i++) {
        const gn_q3_shader *a = &lib.shaders[i], *b = gn_q3_library_find(&eng, a->name);
        CHECK(b != NULL, "%s: missing in the engine's order", a->name);
        if (b && strcmp(body(a, text, sizeof text), body(b, other, sizeof other)) != 0) {
            if (differ++ < 8)
                printf("  differs in the engine's order: %s (%s, not %s)\n", a->name, b->file, a->file);
        }
    }
    printf("%u of %u names resolve to another definition in the engine's file order\n", differ,
           lib.shader_count);
    CHECK(eng.shader_count == lib.shader_count, "%u names in the engine's order, %u here", eng.shader_count,
          lib.shader_count);
    gn_q3_library_free(&eng);

    gn_q3_library_free(&lib);
    for (uint32_t i = 0; i < count; i++) free(names[i]);
    free(names);
    free(s);
    gn_pak_close(pak);
    return gn_check_exit();
}

/* gnomon materials: the Quake 3 shader scripts of a folder of archives as gnomon reads and
 * compiles them (gn_materials_report): counts, problems, unknown keywords; a map's surface
 * shaders and how each resolves; one shader's stages and disassembled program. */
#include "cli.h"
#include "opts.h"

#include <stdio.h>

static const char gn_materials_summary[] =
    "Lists the Quake 3 shader scripts of the archives as gnomon reads and compiles them: their counts,\n"
    "problems (file and line) and unknown keywords with counts, the compiled shaders by draw class;\n"
    "a map's surface shaders and how each resolves; one shader's stages, state and TFX program.";

typedef struct gn_materials_opts {
    const char *paks, *map, *dump;
} gn_materials_opts;

static uint32_t gn_materials_table(gn_materials_opts *o, gn_opt *t)
{
    const gn_opt opts[] = {
        {"--paks", GN_OPT_STRING, &o->paks, NULL, 0, 0, false, NULL, "DIR",
         "folder of Quake 3 .pk3 archives (required; e.g. /usr/share/games/openarena/baseoa)"},
        {"--map", GN_OPT_STRING, &o->map, NULL, 0, 0, false, NULL, "NAME",
         "a map in them: its surface shaders, each by its script, its image or a checker"},
        {"--dump", GN_OPT_STRING, &o->dump, NULL, 0, 0, false, NULL, "SHADER",
         "one shader: its script as read, its compiled stages and state, its disassembled program"},
    };
    for (uint32_t i = 0; i < sizeof opts / sizeof opts[0]; i++) t[i] = opts[i];
    return sizeof opts / sizeof opts[0];
}

void gn_materials_opts_help(FILE *f)
{
    gn_materials_opts o = {0};
    gn_opt t[4];
    gn_opts_print_help(f, "materials", gn_materials_summary, t, gn_materials_table(&o, t));
    fprintf(f, "\nexample: gnomon materials --paks /usr/share/games/openarena/baseoa --map oa_dm1 "
               "--dump textures/skies/nitesky\n");
}

int gn_cmd_materials(int argc, char **argv)
{
    gn_materials_opts o = {0};
    gn_opt t[4];
    uint32_t n = gn_materials_table(&o, t);
    char msg[1024];
    int parsed = gn_cli_after_parse(gn_opts_parse("materials", t, n, argc, argv, msg, sizeof msg), msg,
                                    gn_materials_opts_help);
    if (parsed != GN_CLI_GO_ON) return parsed;
    if (!o.paks) {
        fprintf(stderr, "gnomon materials: --paks DIR is required (see 'gnomon materials --help')\n");
        return GN_EXIT_USAGE;
    }
    gn_materials_desc d = {.paks = o.paks, .map = o.map, .dump = o.dump};
    char *text = NULL;
    gn_error err = {0};
    gn_result res = gn_materials_report(&d, &text, &err);
    if (res != GN_OK) return gn_cli_fail("materials", &err);
    fputs(text, stdout);
    gn_free_text(text);
    return GN_EXIT_OK;
}

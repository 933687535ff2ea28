/* gnomon: the command-line front end of the renderer. main only parses the command name
 * and dispatches; each command parses its own options (cmd_opts.c). */
#include "cli.h"
#include "cmd_opts.h"

#include <stdio.h>
#include <string.h>

typedef struct gn_command {
    const char *name;
    int (*run)(int argc, char **argv);
    void (*help)(FILE *f);
    const char *summary;
} gn_command;

static const gn_command gn_commands[] = {
    {"render", gn_cmd_render, gn_render_opts_help,
     "render one frame to a PNG and print per-pass GPU timings"},
    {"bench", gn_cmd_bench, gn_bench_opts_help, "render frames along a path; per-pass GPU time statistics"},
    {"info", gn_cmd_info, gn_info_opts_help, "list Vulkan devices and which one gnomon chooses"},
    {"materials", gn_cmd_materials, gn_materials_opts_help,
     "list a folder of Quake 3 archives' shader scripts as gnomon compiles them"},
#ifdef GN_WITH_VIEWER /* GLFW's window; a build without it leaves the command out */
    {"view", gn_cmd_view, gn_view_opts_help, "open a window on a scene: fly camera, console, statistics"},
#endif
#ifdef GN_WITH_EMBREE /* the ray-traced truth needs Embree; a bench-only build leaves it out */
    {"shadowref", gn_cmd_shadowref, gn_shadowref_opts_help,
     "ray-trace (Embree) the sun's hard-shadow mask of a frame to a PNG"},
    {"shadowcheck", gn_cmd_shadowcheck, gn_shadowcheck_opts_help,
     "compare the rendered shadow view with the ray-traced mask"},
    {"aoref", gn_cmd_aoref, gn_aoref_opts_help,
     "ray-trace (Embree) the ambient occlusion of a frame to a PNG"},
    {"aocheck", gn_cmd_aocheck, gn_aocheck_opts_help,
     "compare the rendered ambient occlusion (SAO) with the ray-traced truth"},
#endif
};
#define GN_COMMAND_COUNT (sizeof gn_commands / sizeof gn_commands[0])

static const gn_command *gn_find_command(const char *name)
{
    for (size_t i = 0; i < GN_COMMAND_COUNT; i++)
        if (strcmp(gn_commands[i].name, name) == 0) return &gn_commands[i];
    return NULL;
}

static void gn_usage(FILE *f)
{
    fprintf(f, "usage: gnomon <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < GN_COMMAND_COUNT; i++)
        fprintf(f, "  %-11s %s\n", gn_commands[i].name, gn_commands[i].summary);
    fprintf(f, "  %-11s %s\n", "help", "show this help, or 'gnomon help <command>'");
    fprintf(f, "\n'gnomon <command> --help' lists a command's options.\n"
               "GNOMON_DEVICE=<index or name> picks the Vulkan device; GNOMON_VALIDATION=1 turns "
               "on validation.\n"
               "exit codes: 0 ok, 1 a check not met (shadowcheck --min-off-edge; aocheck --max-mae,\n"
               "--min-correlation), 2 usage error, 3 runtime error, 4 no Vulkan device\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        gn_usage(stderr);
        return GN_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || (strcmp(name, "help") == 0 && argc == 2)) {
        gn_usage(stdout);
        return GN_EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        const gn_command *c = gn_find_command(argv[2]);
        if (!c || argc > 3) {
            fprintf(stderr,
                    "gnomon help: unknown command '%s' (commands: render, bench, info, view, shadowref, "
                    "shadowcheck, aoref, aocheck)\n",
                    argv[2]);
            return GN_EXIT_USAGE;
        }
        c->help(stdout);
        return GN_EXIT_OK;
    }
    const gn_command *c = gn_find_command(name);
    if (!c) {
        fprintf(stderr,
                "gnomon: unknown command '%s' (commands: render, bench, info, view, shadowref, shadowcheck, "
                "aoref, aocheck; see 'gnomon --help')\n",
                name);
        return GN_EXIT_USAGE;
    }
    return c->run(argc - 2, argv + 2);
}

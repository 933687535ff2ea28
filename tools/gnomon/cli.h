/* Shared pieces of the gnomon command-line tool: exit codes, the command entry points and
 * small helpers that every command needs. */
#ifndef GN_CLI_H
#define GN_CLI_H

#include "gnomon.h"

#include <stdio.h>

#include <stddef.h>

struct gn_anim_opts; /* cmd_opts.h */

/* Exit codes are part of the tool's contract: scripts and CTest tell usage mistakes from
 * runtime failures, and a machine without a GPU from a broken renderer. */
enum {
    GN_EXIT_OK = 0,
    GN_EXIT_CHECK_FAILED = 1, /* a measured check was not met (shadowcheck --min-off-edge, aocheck's) */
    GN_EXIT_USAGE = 2,        /* bad arguments, unknown command or option */
    GN_EXIT_RUNTIME = 3,      /* a library error, or a file that could not be written */
    GN_EXIT_NO_DEVICE = 4,    /* GN_ERROR_NO_DEVICE: no Vulkan 1.3 device, or none matched */
};

int gn_cmd_render(int argc, char **argv); /* argv[0] is the first option after "render" */
int gn_cmd_bench(int argc, char **argv);
int gn_cmd_info(int argc, char **argv);
int gn_cmd_materials(int argc, char **argv); /* cmd_materials.c */
void gn_materials_opts_help(FILE *f);
int gn_cmd_view(int argc, char **argv); /* cmd_view.c: needs GLFW (GN_WITH_VIEWER) */
int gn_cmd_shadowref(int argc, char **argv);
int gn_cmd_shadowcheck(int argc, char **argv);
int gn_cmd_aoref(int argc, char **argv); /* cmd_aoref.c and cmd_aocheck.c: need Embree (GN_WITH_EMBREE) */
int gn_cmd_aocheck(int argc, char **argv);

int gn_cli_exit_code(gn_result r); /* GN_EXIT_NO_DEVICE or GN_EXIT_RUNTIME for a failure */

/* Prints "gnomon <command>: <message>" on stderr and returns the exit code for err->code. */
int gn_cli_fail(const char *command, const gn_error *err);
/* What a command does with its parse status: GN_PARSE_OK gives GN_CLI_GO_ON; --help prints the
 * help and gives GN_EXIT_OK; an error prints msg and gives GN_EXIT_USAGE. */
#define GN_CLI_GO_ON (-1)
/* The scene a command names: the built-in town (seed, scale) or a file / map (gn_scene_load). */
/* Renders f; with virtual shadow maps, again until the page cache has settled (a frame after
 * the first two that renders no page and leaves none waiting, as a still camera reaches after a
 * cut: at most the page budget is rendered a frame; whether it requested any or none; a frame
 * in which the VSM did not run, the sun being down, at once), at most GN_CLI_SETTLE_FRAMES
 * frames. *frames: how many were rendered; stats: the last settled one's. */
#define GN_CLI_SETTLE_FRAMES 256
#define GN_CLI_OCCLUSION_FRAMES 4 /* --view occlusion renders at least this many frames */
gn_result gn_cli_render_settled(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, uint32_t *frames,
                                gn_frame_stats *stats, gn_error *err);
gn_result gn_cli_load_scene(const char *scene, const char *paks, bool map_lights, bool single_image,
                            uint32_t seed, uint32_t scale, const struct gn_anim_opts *anim, gn_scene **out,
                            gn_error *err);
int gn_cli_after_parse(int status, const char *msg, void (*help)(FILE *f));
/* The renderer and the scene of a command's frame options: the renderer rd describes, or (rd
 * NULL) one of the options' size and samples on $GNOMON_DEVICE; the options' scene, paks, map
 * lights, seed and scale. GN_EXIT_OK, or the command's error reported and its exit code. */
struct gn_frame_opts;
int gn_cli_open(const char *command, const struct gn_frame_opts *fo, const gn_renderer_desc *rd,
                gn_renderer **r, gn_scene **out);
/* GNOMON_VALIDATION=1 makes any validation message a failure (the tests rely on it): GN_EXIT_OK,
 * or the count reported and GN_EXIT_RUNTIME. */
int gn_cli_validation_verdict(const char *command, gn_renderer *r);

/* Creates the missing parent folders of path (mkdir -p of its directory). On failure writes
 * one line naming the folder into msg and returns false. */
bool gn_cli_make_parent_dirs(const char *path, char *msg, size_t msg_size);

double gn_cli_now_ms(void); /* a monotonic clock, milliseconds */

const char *gn_cli_device_env(void); /* $GNOMON_DEVICE, or NULL when unset or empty */

#endif

/* A strict, table-driven option parser. Each command describes its options once, in a table
 * of gn_opt; the same table drives parsing, validation and the --help text, so the two
 * cannot disagree. No Vulkan, no globals: unit-tested in tests/cli. */
#ifndef GN_CLI_OPTS_H
#define GN_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum gn_opt_kind {
    GN_OPT_STRING,     /* const char * pointing into argv */
    GN_OPT_UINT,       /* uint32_t in [min, max]; pow2 restricts it to powers of two */
    GN_OPT_FLOAT,      /* finite float in [min, max] */
    GN_OPT_AUTO_FLOAT, /* "auto" (stored as NAN) or a finite float in [min, max] */
    GN_OPT_SIZE,       /* "WxH" into uint32_t[2], each side in [min, max] */
    GN_OPT_CHOICE,     /* one of choices (NULL-terminated) into int, the index */
    GN_OPT_CAMERA,     /* "x,y,z,yaw,pitch" into float[5], pitch in [min, max] */
    GN_OPT_FLOAT3,     /* "a,b,c" into float[3], each in [min, max] */
    GN_OPT_FLAG,       /* bool, set by the option alone (no value on the command line); the
                          console's value is on/off or 1/0 */
} gn_opt_kind;

typedef struct gn_opt {
    const char *name; /* "--size" */
    gn_opt_kind kind;
    void *dest;
    bool *seen; /* optional: set true when the option was given */
    double min, max;
    bool pow2;
    const char *const *choices;
    const char *metavar; /* shown in --help: "WxH" */
    const char *help;    /* one line, with the default */
} gn_opt;

typedef enum gn_parse_status {
    GN_PARSE_OK,
    GN_PARSE_HELP,  /* --help or -h was given: print help, exit 0 */
    GN_PARSE_ERROR, /* err holds "gnomon <command>: <what is wrong>" */
} gn_parse_status;

/* Parses argv[0..argc) ("--opt value" or "--opt=value"; a flag alone); a later repeat wins.
 * Unknown options, positional arguments, missing values and out-of-range numbers are
 * errors. dest is written only for options that parse. */
gn_parse_status gn_opts_parse(const char *command, const gn_opt *opts, uint32_t count, int argc, char **argv,
                              char *err, size_t err_size);

/* The viewer's console sets options one at a time by name, without the dashes ("msaa"):
 * the same checks as the command line, with messages that name the setting as the console
 * does ("msaa expects one of 1, 2, 4, 8, got '3'"). */
const gn_opt *gn_opts_find(const gn_opt *opts, uint32_t count, const char *name); /* "msaa" or "--msaa" */
bool gn_opts_set(const gn_opt *o, const char *value, char *err, size_t err_size);
/* The option's current value as the command line would take it: "4", "1280x720", "vsm". */
void gn_opts_format(const gn_opt *o, char *buf, size_t size);

/* Prints "usage: gnomon <command> [options]", the summary and one line per option. */
void gn_opts_print_help(FILE *f, const char *command, const char *summary, const gn_opt *opts,
                        uint32_t count);

#endif

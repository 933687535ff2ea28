/* Malformed glTF files (written by gltf_bad_gen.py into the folder given as argv[1], with a
 * manifest) loaded through the public API: each bad one must be refused by gnomon's validation
 * (src/formats/gltf_check.c) with the expected result and a message naming the file and the
 * fault, in under GN_BAD_MAX_SECONDS (200,000 nested arrays and 20,000 nested nodes included);
 * the valid ones must load. No device needed. */
#include "gnomon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GN_BAD_MAX_SECONDS 2.0 /* each file; a refusal costs milliseconds */

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void quiet(gn_log_level level, const char *msg, void *user) { (void)level, (void)msg, (void)user; }

/* One manifest line: loads dir/name and checks the result, the message and the time. */
static int check_one(const char *dir, const char *name, const char *expect, const char *text)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    gn_load_desc d = {.path = path, .log = quiet};
    gn_scene *s = NULL;
    gn_error err = {0};
    double t0 = now_seconds();
    gn_result r = gn_scene_load(&d, &s, &err);
    double dt = now_seconds() - t0;
    if (s) gn_scene_destroy(s);
    const char *got = r == GN_OK                                        ? "OK"
                      : strncmp(gn_result_name(r), "GN_ERROR_", 9) == 0 ? gn_result_name(r) + 9
                                                                        : "?";
    printf("  %-30s %-9s %6.3f s  %s\n", name, got, dt, r == GN_OK ? "" : err.message);
    int bad = 0;
    if (strcmp(got, expect) != 0) fprintf(stderr, "%s: %s, expected %s\n", name, got, expect), bad = 1;
    if (r != GN_OK && !strstr(err.message, path))
        fprintf(stderr, "%s: message '%s' does not name the file\n", name, err.message), bad = 1;
    if (r != GN_OK && !strstr(err.message, text))
        fprintf(stderr, "%s: message '%s' does not say '%s'\n", name, err.message, text), bad = 1;
    if (dt > GN_BAD_MAX_SECONDS)
        fprintf(stderr, "%s: %.2f s, more than %.1f s\n", name, dt, GN_BAD_MAX_SECONDS), bad = 1;
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) return fprintf(stderr, "usage: %s DIR (written by gltf_bad_gen.py)\n", argv[0]), 2;
    char path[2048], line[1024];
    snprintf(path, sizeof path, "%s/manifest.txt", argv[1]);
    FILE *f = fopen(path, "r");
    if (!f) return fprintf(stderr, "cannot open %s\n", path), 1;
    int cases = 0, failed = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *name = line, *expect = strchr(name, '\t'), *text = expect ? strchr(expect + 1, '\t') : NULL;
        if (!text) continue;
        *expect++ = 0, *text++ = 0;
        failed += check_one(argv[1], name, expect, text);
        cases++;
    }
    fclose(f);
    printf("%d passed, %d failed\n", cases - failed, failed);
    return cases < 30 || failed ? 1 : 0;
}

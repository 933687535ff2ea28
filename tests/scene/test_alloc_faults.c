/* Host allocation faults (src/base/alloc.h; docs/RELIABILITY.md, "Host allocation faults"):
 * the town (scale 1, the smallest, with 64 built-in lights), two small glTF files (one with
 * KHR_lights_punctual lights) and a Quake 3 map are each loaded once recording every allocation
 * site, then again with each site's first call failing, and with the Nth call failing for N
 * spread over the load's whole count. Every such load must either fail with an error and a
 * message, or succeed with the very scene of the clean load (an allocation the code can do
 * without); it must never crash, and never leak (the sanitizer build checks leaks at exit). The
 * renderer's and a frame's sites are swept on the GPU (tests/gpu/gpu_alloc_faults.c). */
#include "base/alloc.h"
#include "scene/scene.h"
#include "scene/world.h"
#include "scene_check.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GLTF_BOX "/usr/share/assimp/models/glTF2/BoxTextured-glTF/BoxTextured.gltf"
#ifndef GN_LIGHTS_GLTF
#define GN_LIGHTS_GLTF "tests/scene/data/lights.gltf"
#endif
#define PAKS "/usr/share/games/openarena/baseoa"
#define MAP "aggressor" /* the smallest map of pak1-maps.pk3 with lightmaps (859 KB, 4 of them) */
/* The Nth-call sweep: the first FIRST_CALLS calls, then SPREAD more evenly over the rest, a
 * stride rather than every call (the map makes 8,624 calls, a load each run: the whole test
 * takes about 25 s on 2 cores as it is, the town's and the map's sweeps half each). */
#define FIRST_CALLS 32
#define SPREAD 64

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Loads are quiet: a failed texture is a warning, and there are hundreds of runs. */
static void quiet_log(gn_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

/* cJSON (libcjson, used by the glTF check) allocates through its global hooks: pointed here
 * for this test only, its calls are counted and failed as one more site. The library itself
 * leaves the hooks alone, which belong to the process. */
static void *cjson_malloc(size_t size) { return gn_malloc_at(size, "libcjson", 0); }

/* ---- what a load made, as one number --------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* The scene's content: geometry, meshes, materials, instances, texels and lights (not its uid,
 * a clock reading). Two loads that made the same scene hash the same. */
static uint64_t scene_hash(const gn_scene *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, s->vertices, (size_t)s->vertex_count * sizeof *s->vertices);
    h = fnv(h, s->indices, (size_t)s->index_count * sizeof *s->indices);
    h = fnv(h, s->meshes, (size_t)s->mesh_count * sizeof *s->meshes);
    h = fnv(h, s->materials, (size_t)s->material_count * sizeof *s->materials);
    h = fnv(h, s->instances, (size_t)s->instance_count * sizeof *s->instances);
    h = fnv(h, s->lights, (size_t)s->light_count * sizeof *s->lights);
    for (uint32_t i = 0; i < s->texture_count; i++) {
        const gn_texture *t = &s->textures[i];
        h = fnv(h, &t->width, sizeof t->width);
        h = fnv(h, &t->height, sizeof t->height);
        h = fnv(h, t->texels, (size_t)t->width * t->height * 4);
    }
    if (s->world) h = fnv(h, s->world->face_instance, (size_t)s->world->bsp.face_count * sizeof(uint32_t));
    return h;
}

/* ---- the loads ------------------------------------------------------------------------- */

typedef struct load {
    const char *name;
    gn_builtin_desc builtin; /* without file.path */
    uint32_t builtin_lights; /* gn_scene_add_builtin_lights after the build */
    gn_load_desc file;
} load;

/* One load, its scene hashed into *hash and destroyed. */
static gn_result run_load(const load *l, uint64_t *hash, gn_error *err)
{
    gn_scene *s = NULL;
    gn_result r =
        l->file.path ? gn_scene_load(&l->file, &s, err) : gn_scene_create_builtin(&l->builtin, &s, err);
    if (r == GN_OK && l->builtin_lights) r = gn_scene_add_builtin_lights(s, l->builtin_lights, 1, err);
    if (r == GN_OK) *hash = scene_hash(s);
    gn_scene_destroy(s);
    return r;
}

typedef struct tally {
    uint32_t sites;
    uint64_t calls;
    uint32_t injected, errors, optional;
} tally;

/* The outcome of one load with one failure planned (`what` names it): an error with a
 * message, GN_ERROR_OUT_OF_MEMORY from gnomon's own sites, or the clean load's scene. */
static int judge(const load *l, const char *what, gn_result r, const gn_error *err, uint64_t hash,
                 uint64_t want, tally *t)
{
    uint64_t injected = gn_alloc_failures();
    gn_alloc_site at;
    CHECK(injected == 1 && gn_alloc_failed_site(&at), "%s %s: %llu failures injected, 1 planned", l->name,
          what, (unsigned long long)injected);
    t->injected++;
    if (r != GN_OK) {
        CHECK(err->message[0] != '\0', "%s %s at %s:%d: %s without a message", l->name, what, at.file,
              at.line, gn_result_name(r));
        /* cJSON cannot tell running out of memory from bad JSON: its parse returns NULL for both */
        CHECK(r == GN_ERROR_OUT_OF_MEMORY || strcmp(at.file, "libcjson") == 0,
              "%s %s at %s:%d: %s (%s), not GN_ERROR_OUT_OF_MEMORY", l->name, what, at.file, at.line,
              gn_result_name(r), err->message);
        t->errors++;
        if (getenv("GN_ALLOC_VERBOSE"))
            printf("  %s %s at %s:%d (call %llu there): %s\n", l->name, what, at.file, at.line,
                   (unsigned long long)at.calls, err->message);
        return 0;
    }
    CHECK(hash == want, "%s %s at %s:%d (call %llu there): the load succeeded but made a different scene",
          l->name, what, at.file, at.line, (unsigned long long)at.calls);
    t->optional++;
    printf("  %s %s at %s:%d (call %llu there): optional, the same scene\n", l->name, what, at.file, at.line,
           (unsigned long long)at.calls);
    return 0;
}

/* Records the load's sites, fails each site's first call, then the Nth calls. */
static int sweep(const load *l, tally *t)
{
    double t0 = now();
    gn_error err = {0};
    uint64_t want = 0, hash = 0;
    gn_alloc_record();
    gn_result r = run_load(l, &want, &err);
    gn_alloc_disarm();
    CHECK(r == GN_OK, "%s, clean: %s %s", l->name, gn_result_name(r), err.message);
    uint64_t calls = gn_alloc_calls();
    static gn_alloc_site sites[GN_ALLOC_MAX_SITES];
    uint32_t n = gn_alloc_sites(sites, GN_ALLOC_MAX_SITES);
    CHECK(gn_alloc_sites_dropped() == 0, "%s: more than %u sites", l->name, GN_ALLOC_MAX_SITES);
    CHECK(n > 0 && calls >= n, "%s: %u sites, %llu calls", l->name, n, (unsigned long long)calls);
    *t = (tally){.sites = n, .calls = calls};

    for (uint32_t i = 0; i < n; i++) {
        char what[300];
        snprintf(what, sizeof what, "site %s:%d (1st of %llu calls)", sites[i].file, sites[i].line,
                 (unsigned long long)sites[i].calls);
        err = (gn_error){0};
        gn_alloc_fail_site(sites[i].file, sites[i].line);
        r = run_load(l, &hash, &err);
        gn_alloc_disarm();
        if (judge(l, what, r, &err, hash, want, t)) return 1;
    }
    /* N: 1..FIRST_CALLS, then SPREAD values spaced evenly up to the last call */
    uint64_t rest = calls > FIRST_CALLS ? calls - FIRST_CALLS : 0, last = 0;
    for (uint32_t k = 0; k < FIRST_CALLS + SPREAD; k++) {
        uint64_t nth = k < FIRST_CALLS ? k + 1u : FIRST_CALLS + (rest * (k - FIRST_CALLS + 1)) / SPREAD;
        if (nth > calls || nth <= last) continue;
        last = nth;
        char what[64];
        snprintf(what, sizeof what, "call %llu of %llu", (unsigned long long)nth, (unsigned long long)calls);
        err = (gn_error){0};
        gn_alloc_fail_nth(nth);
        r = run_load(l, &hash, &err);
        gn_alloc_disarm();
        if (judge(l, what, r, &err, hash, want, t)) return 1;
    }
    printf("%s: %u sites, %llu calls, %u failures injected, %u errors returned, %u optional (%.2f s)\n",
           l->name, t->sites, (unsigned long long)t->calls, t->injected, t->errors, t->optional, now() - t0);
    return 0;
}

int main(void)
{
    cJSON_InitHooks(&(cJSON_Hooks){.malloc_fn = cjson_malloc, .free_fn = free});
    load loads[4] = {
        {.name = "town", .builtin = {.name = "town", .seed = 1, .scale = 1}, .builtin_lights = 64},
        {.name = "glTF BoxTextured", .file = {.path = GLTF_BOX, .log = quiet_log}},
        {.name = "glTF lights", .file = {.path = GN_LIGHTS_GLTF, .log = quiet_log}},
        {.name = "map " MAP, .file = {.path = MAP, .paks = PAKS, .log = quiet_log, .map_lights = true}},
    };
    tally all = {0};
    for (int i = 0; i < 4; i++) {
        if (loads[i].file.path) {
            FILE *probe = fopen(loads[i].file.paks ? PAKS "/pak1-maps.pk3" : loads[i].file.path, "rb");
            if (!probe) {
                printf("%s: skipped (%s not installed)\n", loads[i].name,
                       loads[i].file.paks ? "Debian openarena-data" : GLTF_BOX);
                continue;
            }
            fclose(probe);
        }
        tally t;
        if (sweep(&loads[i], &t)) return 1;
        all.sites += t.sites, all.calls += t.calls, all.injected += t.injected, all.errors += t.errors,
            all.optional += t.optional;
    }
    printf("all: %u sites, %llu calls, %u failures injected, %u errors returned, %u optional\n", all.sites,
           (unsigned long long)all.calls, all.injected, all.errors, all.optional);
    return 0;
}

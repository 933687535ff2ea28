/* Host allocation faults in a renderer's creation and its first frame (src/base/alloc.h;
 * docs/RELIABILITY.md, "Host allocation faults"). Each phase runs once recording every
 * allocation site, then again, on a fresh renderer each time, with one call failing: every
 * call in turn when there are at most EXHAUSTIVE (so every site's first call among them), else
 * each site's first call and the Nth calls for N spread over the count. The frame is the first
 * of a small scene on a 64x64 target: the scene's upload, mips, the draw lists, the virtual
 * shadow map's first state, the shadowed lights. A failed creation must return
 * GN_ERROR_OUT_OF_MEMORY with a message and no renderer; a failed frame the same, after which
 * the next frame on that renderer succeeds; a success must be followed by a clean frame too.
 * No validation message anywhere; the sanitizer build checks leaks (with the driver and the
 * layer preloaded: docs/RELIABILITY.md says why). The loads' sites are swept in
 * tests/scene/test_alloc_faults.c. */
#include "base/alloc.h"
#include "gpu_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A renderer is made for every run (about 0.3 s on lavapipe with validation): every call of a
 * phase is failed in turn up to EXHAUSTIVE calls; past that each site's first call, the first
 * FIRST_CALLS calls and SPREAD more spaced evenly over the rest. */
#define EXHAUSTIVE 64
#define FIRST_CALLS 16
#define SPREAD 48

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A ground and a box with a mipmapped texture, an alpha-tested card, a moving box, a shadowed
 * spot and point light: every upload and plan of a frame has something to do. */
static gn_scene *small_scene(void)
{
    gn_scene *s = NULL;
    gn_error err = {0};
    if (gn_scene_create(&s, &err) != GN_OK) {
        fprintf(stderr, "scene: %s\n", err.message);
        exit(1);
    }
    const float ground[] = {-30, 0, -30, 30, 0, -30, 30, 0, 30, -30, 0, 30};
    const float ground_uv[] = {0, 0, 8, 0, 8, 8, 0, 8};
    const uint32_t quad[] = {0, 2, 1, 0, 3, 2};
    const float cube[] = {-1, 0, -1, 1, 0, -1, 1, 2, -1, -1, 2, -1, -1, 0, 1, 1, 0, 1, 1, 2, 1, -1, 2, 1};
    const uint32_t tri[] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 4, 7, 0, 7, 3,
                            1, 2, 6, 1, 6, 5, 3, 7, 6, 3, 6, 2, 0, 1, 5, 0, 5, 4};
    const float card[] = {-1, 0, 0, 1, 0, 0, 1, 2, 0, -1, 2, 0};
    const float card_uv[] = {0, 1, 1, 1, 1, 0, 0, 0};
    const uint32_t card_idx[] = {0, 1, 2, 0, 2, 3};
    uint8_t texels[32 * 32 * 4];
    for (uint32_t i = 0; i < 32 * 32; i++) {
        uint8_t v = ((i % 32) / 4 + (i / 32) / 4) % 2 ? 200 : 60;
        texels[i * 4] = texels[i * 4 + 1] = texels[i * 4 + 2] = v;
        texels[i * 4 + 3] = (i % 32) < 16 ? 255 : 0; /* the card's right half is cut */
    }
    uint32_t g, c, k, tex, mat, cut;
    gn_mesh_desc gd = {
        .positions = ground, .uvs = ground_uv, .vertex_count = 4, .indices = quad, .index_count = 6};
    gn_mesh_desc cd = {.positions = cube, .vertex_count = 8, .indices = tri, .index_count = 36};
    gn_mesh_desc kd = {
        .positions = card, .uvs = card_uv, .vertex_count = 4, .indices = card_idx, .index_count = 6};
    gn_texture_desc td = {.width = 32, .height = 32, .rgba8 = texels, .srgb = true, .label = "checker"};
    CHECK(gn_scene_add_mesh(s, &gd, &g, &err) == GN_OK && gn_scene_add_mesh(s, &cd, &c, &err) == GN_OK &&
              gn_scene_add_mesh(s, &kd, &k, &err) == GN_OK &&
              gn_scene_add_texture(s, &td, &tex, &err) == GN_OK,
          "%s", err.message);
    gn_material_desc md = {.base_color = {0.7f, 0.7f, 0.7f, 1}, .roughness = 0.7f, .base_color_texture = tex};
    gn_material_desc cm = {
        .base_color = {1, 1, 1, 1}, .base_color_texture = tex, .alpha_mode = GN_ALPHA_MASK};
    CHECK(gn_scene_add_material(s, &md, &mat, &err) == GN_OK &&
              gn_scene_add_material(s, &cm, &cut, &err) == GN_OK,
          "%s", err.message);
    gn_instance_desc in[] = {
        {.mesh = g, .material = mat},
        {.mesh = c, .material = mat},
        {.mesh = k, .material = cut, .transform = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 0, 2, 1}},
        {.mesh = c,
         .material = mat,
         .transform = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -3, 0, 1, 1},
         .flags = GN_INSTANCE_DYNAMIC},
    };
    for (uint32_t i = 0; i < 4; i++)
        CHECK(gn_scene_add_instance(s, &in[i], NULL, &err) == GN_OK, "%s", err.message);
    gn_light_desc lights[] = {
        {.type = GN_LIGHT_SPOT,
         .position = {-4, 5, 0},
         .direction = {0.7f, -1, 0},
         .radius = 15,
         .color = {1, 0.8f, 0.6f},
         .intensity = 40,
         .outer_angle = 50,
         .inner_angle = 35,
         .cast_shadows = true},
        {.type = GN_LIGHT_POINT,
         .position = {2.5f, 1.5f, 2.5f},
         .radius = 12,
         .color = {0.5f, 0.7f, 1.0f},
         .intensity = 20,
         .cast_shadows = true},
    };
    for (uint32_t i = 0; i < 2; i++)
        CHECK(gn_scene_add_light(s, &lights[i], NULL, &err) == GN_OK, "%s", err.message);
    return s;
}

static const gn_frame_desc frame = {.camera = {.position = {6, 7, 10}, .yaw = 30, .pitch = -30, .fov_y = 60},
                                    .time_of_day = 14};

typedef enum phase { CREATE, FRAME } phase;

/* The plan of one run: none (recording), a site's first call, or the nth call. */
typedef struct plan {
    const gn_alloc_site *site;
    uint64_t nth;
} plan;

static void arm(const plan *p)
{
    if (p->site)
        gn_alloc_fail_site(p->site->file, p->site->line);
    else if (p->nth)
        gn_alloc_fail_nth(p->nth);
    else
        gn_alloc_record();
}

/* A frame and the wait for it. */
static gn_result render(gn_renderer *r, gn_scene *s, gn_error *err)
{
    gn_result res = gn_render(r, s, &frame, err);
    return res ? res : gn_renderer_wait_idle(r, err);
}

/* One run of a phase with the plan armed around it: a renderer's creation, or a fresh
 * renderer's first frame. The renderer, when there is one, then renders a clean frame and is
 * destroyed. The phase's result goes to *out. */
static void run(phase ph, gn_scene *s, const plan *p, gn_result *out, gn_error *err)
{
    gn_renderer *r = NULL;
    if (ph == CREATE) {
        gn_renderer_desc d = {.width = 64, .height = 64, .msaa = 1, .validation = GN_VALIDATION_ON};
        arm(p);
        *out = gn_renderer_create(&d, &r, err);
        gn_alloc_disarm();
        CHECK((*out == GN_OK) == (r != NULL), "%s with a renderer %p", gn_result_name(*out), (void *)r);
        if (!r) return;
    } else {
        r = gt_renderer(64, 64, 1);
        arm(p);
        *out = render(r, s, err);
        gn_alloc_disarm();
    }
    gn_error again = {0};
    gn_result next = render(r, s, &again);
    CHECK(next == GN_OK, "the frame after: %s %s", gn_result_name(next), again.message);
    GT_CHECK_VALIDATION(r, "after a run with a failed allocation");
    gn_renderer_destroy(r);
}

typedef struct tally {
    uint32_t sites, first_calls_failed;
    uint64_t calls;
    uint32_t injected, errors, survived;
} tally;

/* The phase's outcome with one failure planned (`what` names it). */
static void judge(const char *name, const char *what, gn_result r, const gn_error *err, tally *t)
{
    gn_alloc_site at;
    uint64_t injected = gn_alloc_failures();
    if (injected != 1 || !gn_alloc_failed_site(&at)) {
        CHECK(false, "%s, %s: %llu failures injected, 1 planned", name, what, (unsigned long long)injected);
        return;
    }
    t->injected++;
    t->first_calls_failed += at.calls == 1;
    if (r == GN_OK) {
        t->survived++;
        printf("  %s, %s at %s:%d (call %llu there): succeeded\n", name, what, at.file, at.line,
               (unsigned long long)at.calls);
        return;
    }
    CHECK(err->message[0] != '\0', "%s, %s at %s:%d: %s without a message", name, what, at.file, at.line,
          gn_result_name(r));
    CHECK(r == GN_ERROR_OUT_OF_MEMORY, "%s, %s at %s:%d: %s (%s), not GN_ERROR_OUT_OF_MEMORY", name, what,
          at.file, at.line, gn_result_name(r), err->message);
    t->errors++;
    if (getenv("GN_ALLOC_VERBOSE"))
        printf("  %s, %s at %s:%d (call %llu there): %s\n", name, what, at.file, at.line,
               (unsigned long long)at.calls, err->message);
}

/* Records the phase's sites, then fails its calls as the header says. */
static void sweep(phase ph, const char *name, gn_scene *s, tally *all)
{
    double t0 = now();
    gn_error err = {0};
    gn_result r;
    run(ph, s, &(plan){0}, &r, &err);
    if (r != GN_OK) {
        CHECK(false, "%s, clean: %s %s", name, gn_result_name(r), err.message);
        return;
    }
    static gn_alloc_site sites[GN_ALLOC_MAX_SITES];
    tally t = {.sites = gn_alloc_sites(sites, GN_ALLOC_MAX_SITES), .calls = gn_alloc_calls()};
    CHECK(gn_alloc_sites_dropped() == 0, "%s: more than %u sites", name, GN_ALLOC_MAX_SITES);
    CHECK(t.sites > 0, "%s allocates nothing", name);
    bool every = t.calls <= EXHAUSTIVE;
    for (uint32_t i = 0; !every && i < t.sites; i++) {
        char what[300];
        snprintf(what, sizeof what, "site %s:%d (1st of %llu calls)", sites[i].file, sites[i].line,
                 (unsigned long long)sites[i].calls);
        err = (gn_error){0};
        run(ph, s, &(plan){.site = &sites[i]}, &r, &err);
        judge(name, what, r, &err, &t);
    }
    uint64_t rest = t.calls > FIRST_CALLS ? t.calls - FIRST_CALLS : 0, last = 0;
    for (uint64_t k = 0; k < (every ? t.calls : FIRST_CALLS + SPREAD); k++) {
        uint64_t nth =
            every || k < FIRST_CALLS ? k + 1 : FIRST_CALLS + (rest * (k - FIRST_CALLS + 1)) / SPREAD;
        if (nth > t.calls || nth <= last) continue;
        last = nth;
        char what[64];
        snprintf(what, sizeof what, "call %llu of %llu", (unsigned long long)nth,
                 (unsigned long long)t.calls);
        err = (gn_error){0};
        run(ph, s, &(plan){.nth = nth}, &r, &err);
        judge(name, what, r, &err, &t);
    }
    /* every site's first call failed once: by its own run, or (every call in turn) among them */
    CHECK(t.first_calls_failed >= t.sites, "%s: %u of %u sites had their first call failed", name,
          t.first_calls_failed, t.sites);
    printf("%s: %u sites, %llu calls, %u failures injected, %u errors returned, %u succeeded (%.1f s)\n",
           name, t.sites, (unsigned long long)t.calls, t.injected, t.errors, t.survived, now() - t0);
    all->sites += t.sites, all->calls += t.calls, all->injected += t.injected, all->errors += t.errors,
        all->survived += t.survived;
}

int main(void)
{
    gn_scene *s = small_scene();
    tally all = {0};
    sweep(CREATE, "renderer creation", s, &all);
    sweep(FRAME, "first frame", s, &all);
    gn_scene_destroy(s);
    printf("all: %u sites, %llu calls, %u failures injected, %u errors returned, %u succeeded\n", all.sites,
           (unsigned long long)all.calls, all.injected, all.errors, all.survived);
    return gn_check_exit();
}

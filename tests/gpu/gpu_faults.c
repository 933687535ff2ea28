/* Injected device faults (src/vk/fault.h): every Vulkan call site that a town frame, a map
 * load and a glTF load reach is made to fail in turn, as a device would (out of device or
 * host memory for allocations and object creation, device lost for submits and waits), and
 * each time:
 *   - the failing call returns an error gn_result with a message naming the call,
 *   - the renderer is destroyed without a validation message (the log is watched through
 *     the destroy too),
 *   - nothing crashes (the sanitizer build runs this test too).
 * A renderer also keeps working after an out-of-memory in gn_renderer_resize.
 *
 * Each scenario is first run with the plan recording only: its sites and their calls are the
 * sweep's list, so a new Vulkan call in src/vk/ is swept without editing this test. The first
 * call at each site is failed, and for sites called more than once, the last call too (a
 * resource created late, or the second frame's submit). Sites already swept by an earlier
 * scenario (the renderer's creation, shared by all) are not repeated.
 *
 * Then, for each scene, every Vulkan call after the renderer's creation (the scene's upload and
 * its frames) is failed in turn, by its number among the calls of its kind: a site such as
 * gn_vk_image_create serves every texture of a map, and each of them is a different call.
 *
 * Scenes: the town at scale 1 with virtual shadow maps (CPU-built once and shared),
 * openarena's oa_dm1 map and the BoxTextured glTF sample with cascades and without shadows
 * (loaded once each): the sweep is about the renderer's GPU side. The town with cascades was
 * swept too when this was written (91 calls after creation, all reported) and is left out to
 * keep the test near two minutes: its calls are the VSM town's less the VSM's.
 * Each frame is waited for before the next, so the calls do not depend on the GPU's timing
 * (without that, the VSM's second frame made 32 or 33 buffers, run to run). */
#include "gpu_util.h"
#include "vk/fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAKS "/usr/share/games/openarena/baseoa"
#define GLTF "/usr/share/assimp/models/glTF2/BoxTextured-glTF/BoxTextured.gltf"
#define SIZE 64u

typedef struct watch {
    uint32_t vulkan_lines; /* "validation: ..." or "vulkan: ..." lines: any is a failure */
    char last[256];
} watch;

static void on_log(gn_log_level level, const char *message, void *user)
{
    watch *w = user;
    (void)level;
    if (strncmp(message, "validation:", 11) == 0 || strncmp(message, "vulkan:", 7) == 0) {
        w->vulkan_lines++;
        snprintf(w->last, sizeof w->last, "%s", message);
    }
}

typedef struct scenario {
    const char *name;
    gn_scene *scene;
    gn_shadows shadows;
    uint32_t frames;
} scenario;

typedef struct outcome {
    uint32_t created_calls[GN_VK_FAULT_KINDS]; /* calls of each kind by the end of gn_renderer_create */
    gn_result code;                            /* the first error, GN_OK when every call succeeded */
    char message[512];
    const char *where; /* "create", "render", ... */
    uint32_t vulkan_lines;
    char last_line[256];
} outcome;

/* Creates a renderer, renders the scenario's frames (stopping at the first error), destroys. */
static outcome run(const scenario *sc)
{
    outcome o = {.code = GN_OK};
    watch w = {0};
    gn_renderer_desc d = {.width = SIZE,
                          .height = SIZE,
                          .msaa = 1,
                          .validation = GN_VALIDATION_ON,
                          .log = on_log,
                          .log_user = &w,
                          .log_level = GN_LOG_WARN};
    gn_renderer *r = NULL;
    gn_error err = {0};
    o.where = "gn_renderer_create";
    o.code = gn_renderer_create(&d, &r, &err);
    for (uint32_t k = 0; k < GN_VK_FAULT_KINDS; k++)
        o.created_calls[k] = gn_vk_fault_calls((gn_vk_fault_kind)k);
    if (o.code == GN_OK) {
        gn_frame_desc f = {.time_of_day = 12.0f, .shadows = sc->shadows};
        for (uint32_t k = 0; k < sc->frames && o.code == GN_OK; k++) {
            o.where = "gn_render";
            o.code = gn_render(r, sc->scene, &f, &err);
            /* each frame finished before the next: what the next one does (the VSM's page
             * requests read back) then never depends on the GPU's timing */
            if (o.code == GN_OK) {
                o.where = "gn_renderer_wait_idle";
                o.code = gn_renderer_wait_idle(r, &err);
            }
        }
    }
    if (o.code != GN_OK) snprintf(o.message, sizeof o.message, "%s", err.message);
    gn_renderer_destroy(r);
    o.vulkan_lines = w.vulkan_lines;
    snprintf(o.last_line, sizeof o.last_line, "%s", w.last);
    return o;
}

static VkResult result_for(gn_vk_fault_kind kind)
{
    switch (kind) {
    case GN_VK_FAULT_MEMORY:
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    case GN_VK_FAULT_CREATE:
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    default:
        return VK_ERROR_DEVICE_LOST;
    }
}

static gn_result code_for(VkResult r)
{
    return r == VK_ERROR_DEVICE_LOST ? GN_ERROR_DEVICE_LOST : GN_ERROR_OUT_OF_MEMORY;
}

typedef struct tally {
    uint32_t runs, errors, recovered;
} tally;

static bool swept_before(const gn_vk_fault_site *done, uint32_t done_count, const gn_vk_fault_site *s)
{
    for (uint32_t i = 0; i < done_count; i++)
        if (done[i].line == s->line && strcmp(done[i].file, s->file) == 0) return true;
    return false;
}

/* Runs the scenario under a plan that fails one call; checks the outcome. */
static void inject(const scenario *sc, const gn_vk_fault_plan *plan, const char *what, tally *t)
{
    gn_vk_fault_arm(plan);
    outcome o = run(sc);
    uint32_t injected = gn_vk_fault_injected();
    gn_vk_fault_arm(NULL);
    t->runs++;
    CHECK(injected == 1, "%s: %s was not reached again (%u injected): the frame is not repeatable", sc->name,
          what, injected);
    CHECK(o.vulkan_lines == 0, "%s: failing %s: %u Vulkan message(s), last: %s", sc->name, what,
          o.vulkan_lines, o.last_line);
    if (o.code == GN_OK) {
        /* gnomon absorbs no Vulkan failure by design today: one that goes unreported is a bug */
        t->recovered++;
        CHECK(false, "%s: failing %s went unreported: every call succeeded", sc->name, what);
        return;
    }
    t->errors++;
    static VkResult shown[4];
    for (uint32_t i = 0; i < 4; i++) {
        if (shown[i] == plan->result) break;
        if (shown[i] == VK_SUCCESS) { /* the first message of each kind of fault, for the log */
            shown[i] = plan->result;
            printf("  e.g. failing %s: %s: %s\n", what, o.where, o.message);
            break;
        }
    }
    gn_result want = code_for(plan->result);
    CHECK(o.code == want, "%s: failing %s: %s returned %s, not %s (%s)", sc->name, what, o.where,
          gn_result_name(o.code), gn_result_name(want), o.message);
    CHECK(o.message[0] != '\0', "%s: failing %s: %s returned %s with no message", sc->name, what, o.where,
          gn_result_name(o.code));
}

static void inject_site(const scenario *sc, const gn_vk_fault_site *s, uint32_t nth, tally *t)
{
    gn_vk_fault_plan plan = {.file = s->file, .line = s->line, .nth = nth, .result = result_for(s->kind)};
    const char *base = strrchr(s->file, '/') ? strrchr(s->file, '/') + 1 : s->file;
    char what[160];
    snprintf(what, sizeof what, "%s:%d (%s) call %u", base, s->line, gn_vk_fault_kind_name(s->kind), nth);
    inject(sc, &plan, what, t);
}

static void inject_kind(const scenario *sc, gn_vk_fault_kind kind, uint32_t nth, tally *t)
{
    gn_vk_fault_plan plan = {.kind = kind, .nth = nth, .result = result_for(kind)};
    char what[160];
    snprintf(what, sizeof what, "%s call %u", gn_vk_fault_kind_name(kind), nth);
    inject(sc, &plan, what, t);
}

/* An out-of-memory while resizing leaves a renderer that still renders at its old size and can
 * be resized again once memory is back. */
static void resize_out_of_memory(gn_scene *town)
{
    watch w = {0};
    gn_renderer_desc d = {.width = SIZE,
                          .height = SIZE,
                          .msaa = 1,
                          .validation = GN_VALIDATION_ON,
                          .log = on_log,
                          .log_user = &w};
    gn_renderer *r = NULL;
    gn_error err = {0};
    CHECK(gn_renderer_create(&d, &r, &err) == GN_OK, "%s", err.message);
    if (!r) return;
    gn_frame_desc f = {.time_of_day = 12.0f, .shadows = GN_SHADOWS_CSM};
    CHECK(gn_render(r, town, &f, &err) == GN_OK, "%s", err.message);
    for (gn_vk_fault_kind kind = GN_VK_FAULT_MEMORY; kind <= GN_VK_FAULT_CREATE; kind++) {
        gn_vk_fault_plan plan = {.kind = kind, .nth = 1, .every = true, .result = result_for(kind)};
        gn_vk_fault_arm(&plan);
        gn_result rr = gn_renderer_resize(r, 2 * SIZE, 2 * SIZE, &err);
        uint32_t injected = gn_vk_fault_injected();
        gn_vk_fault_arm(NULL);
        CHECK(injected > 0 && rr == GN_ERROR_OUT_OF_MEMORY,
              "resize with every %s call failing: %s (%u injected)", gn_vk_fault_kind_name(kind),
              gn_result_name(rr), injected);
        CHECK(err.message[0] != '\0', "resize out of memory: no message");
        uint32_t w0 = 0, h0 = 0;
        gn_renderer_size(r, &w0, &h0);
        CHECK(w0 == SIZE && h0 == SIZE, "a failed resize changed the size to %ux%u", w0, h0);
        CHECK(gn_render(r, town, &f, &err) == GN_OK, "render after a failed resize: %s", err.message);
    }
    CHECK(gn_renderer_resize(r, 2 * SIZE, 2 * SIZE, &err) == GN_OK, "resize once memory is back: %s",
          err.message);
    CHECK(gn_render(r, town, &f, &err) == GN_OK, "render after the resize: %s", err.message);
    CHECK(gn_renderer_wait_idle(r, &err) == GN_OK, "%s", err.message);
    gn_renderer_destroy(r);
    CHECK(w.vulkan_lines == 0, "resize faults: %u Vulkan message(s), last: %s", w.vulkan_lines, w.last);
}

int main(void)
{
    gn_error err = {0};
    gn_scene *town = NULL, *map = NULL, *gltf = NULL;
    gn_builtin_desc bd = {.name = "town", .seed = 1, .scale = 1};
    CHECK(gn_scene_create_builtin(&bd, &town, &err) == GN_OK, "%s", err.message);
    /* the map's surfaces drawn by their images alone: with its shader scripts the per-call sweep of
       the map ran past 15 minutes on lavapipe (issue 18's session did not find why in time); the
       scripts' GPU objects go through the same call sites, swept in the town and here */
    gn_load_desc md = {.path = "oa_dm1", .paks = PAKS, .no_shader_scripts = true};
    CHECK(gn_scene_load(&md, &map, &err) == GN_OK, "%s", err.message);
    gn_load_desc gd = {.path = GLTF};
    CHECK(gn_scene_load(&gd, &gltf, &err) == GN_OK, "%s", err.message);
    if (!town || !map || !gltf) return gn_check_exit();

    /* Two frames each: the second harvests the first (its fence wait) and reuses its slot. */
    const scenario scenarios[] = {
        {"town (VSM)", town, GN_SHADOWS_VSM, 2},
        {"map oa_dm1 (CSM)", map, GN_SHADOWS_CSM, 2},
        {"glTF BoxTextured", gltf, GN_SHADOWS_NONE, 2},
    };
    static gn_vk_fault_site done[GN_VK_FAULT_MAX_SITES * 4];
    uint32_t done_count = 0;
    tally t = {0};
    uint32_t kinds[GN_VK_FAULT_KINDS] = {0};
    clock_t t0 = clock();
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        const scenario *sc = &scenarios[i];
        gn_vk_fault_plan record = {0};
        gn_vk_fault_arm(&record);
        outcome o = run(sc);
        gn_vk_fault_site sites[GN_VK_FAULT_MAX_SITES];
        uint32_t n = gn_vk_fault_sites(sites, GN_VK_FAULT_MAX_SITES);
        uint32_t total[GN_VK_FAULT_KINDS];
        for (uint32_t k = 0; k < GN_VK_FAULT_KINDS; k++) total[k] = gn_vk_fault_calls((gn_vk_fault_kind)k);
        gn_vk_fault_arm(NULL);
        CHECK(o.code == GN_OK, "%s without faults: %s", sc->name, o.message);
        /* The sweep relies on a repeatable frame: the same calls at the same sites again. */
        gn_vk_fault_arm(&record);
        (void)run(sc);
        gn_vk_fault_site again[GN_VK_FAULT_MAX_SITES];
        uint32_t n2 = gn_vk_fault_sites(again, GN_VK_FAULT_MAX_SITES);
        gn_vk_fault_arm(NULL);
        CHECK(n2 == n, "%s: %u sites, then %u", sc->name, n, n2);
        for (uint32_t k = 0; k < n && k < n2 && k < GN_VK_FAULT_MAX_SITES; k++)
            CHECK(again[k].line == sites[k].line && again[k].calls == sites[k].calls,
                  "%s: site %u (%s:%d) called %u times, then %u (%s:%d)", sc->name, k, sites[k].file,
                  sites[k].line, sites[k].calls, again[k].calls, again[k].file, again[k].line);
        CHECK(n <= GN_VK_FAULT_MAX_SITES, "%s: %u sites, over the record's %u", sc->name, n,
              GN_VK_FAULT_MAX_SITES);
        uint32_t fresh = 0;
        for (uint32_t k = 0; k < n && k < GN_VK_FAULT_MAX_SITES; k++) {
            if (swept_before(done, done_count, &sites[k])) continue;
            fresh++;
            kinds[sites[k].kind]++;
            done[done_count++] = sites[k];
            inject_site(sc, &sites[k], 1, &t);
            if (sites[k].calls > 1) inject_site(sc, &sites[k], sites[k].calls, &t);
        }
        /* What this scene alone makes the device do (its upload, its frames): every call of
         * every kind after the renderer's creation, each failed in turn. */
        uint32_t after = 0;
        for (uint32_t kind = 0; kind < GN_VK_FAULT_KINDS; kind++)
            for (uint32_t nth = o.created_calls[kind] + 1; nth <= total[kind]; nth++, after++)
                inject_kind(sc, (gn_vk_fault_kind)kind, nth, &t);
        printf("%s: %u Vulkan call sites (%u not swept before); after the renderer's creation %u calls "
               "(memory %u, create %u, submit %u, wait %u), each failed in turn\n",
               sc->name, n, fresh, after, total[0] - o.created_calls[0], total[1] - o.created_calls[1],
               total[2] - o.created_calls[2], total[3] - o.created_calls[3]);
        fflush(stdout);
    }
    printf("swept %u sites (memory %u, create %u, submit %u, wait %u): %u runs, %u errors returned, "
           "%u unreported; %.0f s of CPU\n",
           done_count, kinds[GN_VK_FAULT_MEMORY], kinds[GN_VK_FAULT_CREATE], kinds[GN_VK_FAULT_SUBMIT],
           kinds[GN_VK_FAULT_WAIT], t.runs, t.errors, t.recovered, (double)(clock() - t0) / CLOCKS_PER_SEC);
    CHECK(kinds[GN_VK_FAULT_MEMORY] && kinds[GN_VK_FAULT_CREATE] && kinds[GN_VK_FAULT_SUBMIT] &&
              kinds[GN_VK_FAULT_WAIT],
          "a kind of call was never seen: the record is broken");

    resize_out_of_memory(town);
    gn_scene_destroy(gltf);
    gn_scene_destroy(map);
    gn_scene_destroy(town);
    return gn_check_exit();
}

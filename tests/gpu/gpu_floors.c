/* gn_measure_floors on the test device, at 4x MSAA and at 1x: every figure is measured (positive,
 * finite, the rates consistent with the times they come from), the grid's triangles cost more
 * than clearing the depth they are drawn into, nothing is resolved without MSAA, bad arguments
 * are refused, and the call leaves the renderer as it was: the last frame's image and depth read
 * back the same, no frame is added to the statistics, the next frame renders, and the renderer
 * is destroyed without a validation message (the log is watched through the destroy, where
 * leaked objects would be reported). Then every Vulkan call site the call reaches is made to
 * fail in turn (src/vk/fault.h, as gpu_faults does for frames): each failure is reported with a
 * message, and nothing leaks. On lavapipe only ratios and counts mean anything, so no absolute
 * time is checked. */
#include "decide/floors.h"
#include "gpu_util.h"
#include "vk/fault.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256
#define REPEATS 3

static uint32_t vulkan_lines; /* "validation: ..." or "vulkan: ..." lines: any is a failure */

static void on_log(gn_log_level level, const char *message, void *user)
{
    (void)level, (void)user;
    if (strncmp(message, "validation:", 11) == 0 || strncmp(message, "vulkan:", 7) == 0) {
        vulkan_lines++;
        fprintf(stderr, "%s\n", message);
    }
}

/* A 200 m ground plane at y = 0, seen from 2 m up. */
static gn_scene *ground(void)
{
    gn_scene *s = NULL;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    const float p[] = {-100, 0, -100, 100, 0, -100, 100, 0, 100, -100, 0, 100};
    const uint32_t idx[] = {0, 2, 1, 0, 3, 2};
    uint32_t mesh = 0, mat = 0;
    gn_mesh_desc md = {
        .positions = p, .vertex_count = 4, .indices = idx, .index_count = 6, .label = "ground"};
    CHECK(gn_scene_add_mesh(s, &md, &mesh, &err) == GN_OK, "%s", err.message);
    gn_material_desc mat_d = {.base_color = {0.5f, 0.5f, 0.5f, 1.0f}, .roughness = 0.8f};
    CHECK(gn_scene_add_material(s, &mat_d, &mat, &err) == GN_OK, "%s", err.message);
    gn_instance_desc in = {.mesh = mesh, .material = mat};
    CHECK(gn_scene_add_instance(s, &in, NULL, &err) == GN_OK, "%s", err.message);
    return s;
}

static bool positive(double v) { return isfinite(v) && v > 0.0; }

/* Every figure of one measurement, at the renderer's size and samples. */
static void check_figures(const gn_floors *f, uint32_t msaa)
{
    printf("msaa %u: %llu triangles in %.3f ms (%.4g triangles/s, %.4f ms per million); fill %u layers, "
           "%.4f ms each (%.4g samples/s); clear depth %.4f ms, colour %.4f ms; resolve colour %.4f ms, "
           "depth %.4f ms\n",
           msaa, (unsigned long long)f->triangles, f->triangles_ms, f->triangles_per_second,
           f->ms_per_million_triangles, f->fill_layers, f->fill_ms, f->samples_per_second, f->clear_depth_ms,
           f->clear_color_ms, f->resolve_color_ms, f->resolve_depth_ms);
    CHECK(f->width == W && f->height == H && f->msaa == msaa, "measured at %ux%u, msaa %u", f->width,
          f->height, f->msaa);
    CHECK(f->repeats == REPEATS, "%u repeats", f->repeats);
    CHECK(f->triangles == gn_floor_grid_triangles(GN_FLOOR_GRID_SIDE) && f->triangles == 2097152u,
          "%llu triangles in the grid", (unsigned long long)f->triangles);
    CHECK(f->fill_layers == gn_floor_fill_layers(W, H, msaa), "%u fill layers", f->fill_layers);
    CHECK(positive(f->triangles_ms) && positive(f->triangles_per_second) &&
              positive(f->ms_per_million_triangles),
          "triangles: %g ms, %g/s, %g ms per million", f->triangles_ms, f->triangles_per_second,
          f->ms_per_million_triangles);
    CHECK(positive(f->fill_ms) && positive(f->samples_per_second), "fill: %g ms, %g samples/s", f->fill_ms,
          f->samples_per_second);
    CHECK(positive(f->clear_depth_ms) && positive(f->clear_color_ms), "clears: %g ms, %g ms",
          f->clear_depth_ms, f->clear_color_ms);
    /* the rates are the times they come from, to rounding */
    double tri = f->triangles_per_second * f->triangles_ms * 1e-3 / (double)f->triangles;
    double per_million = f->ms_per_million_triangles * (double)f->triangles * 1e-6 / f->triangles_ms;
    double fill = f->samples_per_second * f->fill_ms * 1e-3 / ((double)W * H * msaa);
    CHECK(fabs(tri - 1.0) < 1e-9 && fabs(per_million - 1.0) < 1e-9 && fabs(fill - 1.0) < 1e-9,
          "rates against times: %.12f %.12f %.12f", tri, per_million, fill);
    /* the pass clears the depth and then draws 2M triangles into it: more work than the clear */
    CHECK(f->triangles_ms > f->clear_depth_ms, "the grid %g ms, the depth clear alone %g ms", f->triangles_ms,
          f->clear_depth_ms);
    if (msaa > 1)
        CHECK(positive(f->resolve_color_ms) && positive(f->resolve_depth_ms), "resolves: %g ms, %g ms",
              f->resolve_color_ms, f->resolve_depth_ms);
    else
        CHECK(f->resolve_color_ms == 0.0 && f->resolve_depth_ms == 0.0, "msaa 1 resolved: %g ms, %g ms",
              f->resolve_color_ms, f->resolve_depth_ms);
}

static gn_renderer *renderer(uint32_t msaa)
{
    gn_renderer_desc d = {.width = W,
                          .height = H,
                          .msaa = msaa,
                          .validation = GN_VALIDATION_ON,
                          .log = on_log,
                          .log_level = GN_LOG_WARN};
    gn_renderer *r = NULL;
    gn_error err = {0};
    if (gn_renderer_create(&d, &r, &err) != GN_OK) {
        fprintf(stderr, "renderer: %s\n", err.message);
        exit(1);
    }
    return r;
}

/* Floors between two frames: the first frame's image and depth read back unchanged, no frame
 * reaches the statistics, and the next frame renders. */
static void floors_between_frames(uint32_t msaa)
{
    gn_renderer *r = renderer(msaa);
    gn_scene *s = ground();
    gn_error err = {0};
    gn_frame_desc fd = {.camera = {.position = {0, 2, 0}, .pitch = -10, .fov_y = 60},
                        .shadows = GN_SHADOWS_NONE};
    gt_frame(r, s, &fd); /* the first frame also makes the image-based light's table and map */
    gn_frame_stats st = gt_frame(r, s, &fd);
    uint8_t *before = malloc((size_t)W * H * 4), *after = malloc((size_t)W * H * 4);
    float *depth_before = malloc((size_t)W * H * 4), *depth_after = malloc((size_t)W * H * 4);
    CHECK(before && after && depth_before && depth_after, "out of memory");
    CHECK(gn_read_pixels(r, before, &err) == GN_OK && gn_read_depth(r, depth_before, &err) == GN_OK, "%s",
          err.message);
    gn_frame_stats queue[GN_STATS_QUEUE];
    uint32_t taken = 0;
    CHECK(gn_take_frame_stats(r, queue, GN_STATS_QUEUE, &taken, &err) == GN_OK, "%s", err.message);
    uint64_t frame = gn_renderer_frame_index(r);

    gn_floors f;
    memset(&f, 0xff, sizeof f);
    CHECK(gn_measure_floors(r, REPEATS, &f, &err) == GN_OK, "gn_measure_floors: %s", err.message);
    check_figures(&f, msaa);
    GT_CHECK_VALIDATION(r, "measuring the floors");

    CHECK(gn_read_pixels(r, after, &err) == GN_OK && gn_read_depth(r, depth_after, &err) == GN_OK, "%s",
          err.message);
    CHECK(memcmp(before, after, (size_t)W * H * 4) == 0, "the last frame's image changed");
    CHECK(memcmp(depth_before, depth_after, (size_t)W * H * 4) == 0, "the last frame's depth changed");
    CHECK(gn_take_frame_stats(r, queue, GN_STATS_QUEUE, &taken, &err) == GN_OK && taken == 0,
          "%u frame(s) reached the statistics", taken);
    gn_frame_stats next = gt_frame(r, s, &fd);
    CHECK(next.frame_index > frame && next.pass_count == st.pass_count, "the next frame: %llu, %u passes",
          (unsigned long long)next.frame_index, next.pass_count);
    GT_CHECK_VALIDATION(r, "rendering after the floors");
    free(before), free(after), free(depth_before), free(depth_after);
    gn_scene_destroy(s);
    gn_renderer_destroy(r);
}

static VkResult fault_result(gn_vk_fault_kind kind)
{
    return kind == GN_VK_FAULT_MEMORY   ? VK_ERROR_OUT_OF_DEVICE_MEMORY
           : kind == GN_VK_FAULT_CREATE ? VK_ERROR_OUT_OF_HOST_MEMORY
                                        : VK_ERROR_DEVICE_LOST;
}

/* One gn_measure_floors (one run, a small target) under a plan on a fresh renderer, then its
 * destroy; plan NULL records the sites it reaches into sites (returns their count). */
static uint32_t floors_under(const gn_vk_fault_plan *plan, gn_vk_fault_site *sites, uint32_t max)
{
    gn_renderer_desc d = {.width = 32,
                          .height = 32,
                          .msaa = 4,
                          .validation = GN_VALIDATION_ON,
                          .log = on_log,
                          .log_level = GN_LOG_WARN};
    gn_renderer *r = NULL;
    gn_error err = {0};
    CHECK(gn_renderer_create(&d, &r, &err) == GN_OK, "%s", err.message);
    if (!r) return 0;
    gn_vk_fault_plan record = {.nth = 0};
    gn_vk_fault_arm(plan ? plan : &record);
    gn_floors f;
    gn_result res = gn_measure_floors(r, 1, &f, &err);
    uint32_t injected = gn_vk_fault_injected(), count = gn_vk_fault_sites(sites, max);
    gn_vk_fault_arm(NULL);
    uint32_t before = vulkan_lines;
    gn_renderer_destroy(r);
    if (!plan) {
        CHECK(res == GN_OK, "recording the sites: %s", err.message);
        return count;
    }
    const char *base = strrchr(plan->file, '/') ? strrchr(plan->file, '/') + 1 : plan->file;
    gn_result want = plan->result == VK_ERROR_DEVICE_LOST ? GN_ERROR_DEVICE_LOST : GN_ERROR_OUT_OF_MEMORY;
    CHECK(injected == 1, "%s:%d: %u calls failed", base, plan->line, injected);
    CHECK(res == want && err.message[0], "failing %s:%d: %s (%s), %s expected", base, plan->line,
          gn_result_name(res), err.message, gn_result_name(want));
    CHECK(vulkan_lines == before, "failing %s:%d: %u Vulkan line(s) through the destroy", base, plan->line,
          vulkan_lines - before);
    return 0;
}

/* Every site gn_measure_floors reaches, its first call failed (and its last, when it makes more). */
static void floors_faults(void)
{
    gn_vk_fault_site sites[GN_VK_FAULT_MAX_SITES];
    uint32_t n = floors_under(NULL, sites, GN_VK_FAULT_MAX_SITES);
    CHECK(n > 0 && n <= GN_VK_FAULT_MAX_SITES, "%u sites", n);
    uint32_t runs = 0;
    for (uint32_t i = 0; i < n && i < GN_VK_FAULT_MAX_SITES; i++) {
        for (uint32_t k = 0; k < 2; k++) {
            uint32_t nth = k == 0 ? 1 : sites[i].calls;
            if (k == 1 && nth <= 1) continue;
            gn_vk_fault_plan plan = {.file = sites[i].file,
                                     .line = sites[i].line,
                                     .kind = sites[i].kind,
                                     .nth = nth,
                                     .result = fault_result(sites[i].kind)};
            floors_under(&plan, NULL, 0);
            runs++;
        }
    }
    printf("faults: %u sites, %u calls failed in turn, each reported\n", n, runs);
}

int main(void)
{
    floors_between_frames(4);
    floors_between_frames(1);

    /* refused: no renderer, no output, too many repeats; default repeats when 0 */
    gn_renderer *r = renderer(1);
    gn_error err = {0};
    gn_floors f;
    CHECK(gn_measure_floors(NULL, 1, &f, &err) == GN_ERROR_INVALID_ARGUMENT, "no renderer accepted");
    CHECK(gn_measure_floors(r, 1, NULL, &err) == GN_ERROR_INVALID_ARGUMENT, "no output accepted");
    CHECK(gn_measure_floors(r, GN_FLOORS_MAX_REPEATS + 1, &f, &err) == GN_ERROR_INVALID_ARGUMENT &&
              strstr(err.message, "repeats") != NULL,
          "too many repeats: %s", err.message);
    CHECK(gn_measure_floors(r, 0, &f, &err) == GN_OK && f.repeats == GN_FLOORS_REPEATS,
          "default repeats: %u (%s)", f.repeats, err.message);
    GT_CHECK_VALIDATION(r, "with the default repeats");
    gn_renderer_destroy(r);
    CHECK(vulkan_lines == 0, "%u validation or vulkan line(s), destroys included", vulkan_lines);
    floors_faults();
    return gn_check_exit();
}

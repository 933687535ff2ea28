/* The public API's errors: bad descs and arguments give an error code and a message, never
 * a crash; a renderer stays usable after a refused call. A GPU that does not finish a frame
 * in time is a lost device, and the renderer still destroys. */
#include "gpu_util.h"
#include "renderer.h"

#include <stdio.h>
#include <string.h>

/* Counts what the renderer logs: with validation on, every validation message is an error line. */
static void count_log(gn_log_level level, const char *message, void *user)
{
    fprintf(stderr, "gnomon: %s\n", message);
    if (level == GN_LOG_ERROR) (*(uint32_t *)user)++;
}

/* A wait that times out: with gn_vk.timeout_ns 0, waiting right after a submit for a frame the
 * GPU (lavapipe's thread) has not finished returns VK_TIMEOUT. The first try nearly always
 * does; a few more cover a frame that finished first. */
static void gpu_timeout(gn_scene *s)
{
    uint32_t logged = 0;
    gn_renderer_desc d = {
        .width = 1024, .height = 1024, .validation = GN_VALIDATION_ON, .log = count_log, .log_user = &logged};
    gn_renderer *r = NULL;
    gn_error err = {0};
    CHECK(gn_renderer_create(&d, &r, &err) == GN_OK, "%s", err.message);
    if (!r) return;
    uint64_t want = (gt_is_lavapipe(r) ? GN_CPU_TIMEOUT_MS : GN_GPU_TIMEOUT_MS) * 1000000ull;
    CHECK(r->vk.timeout_ns == want, "default timeout %llu ns, %llu expected",
          (unsigned long long)r->vk.timeout_ns, (unsigned long long)want);
    gn_frame_desc f = {.camera.fov_y = 60};
    CHECK(gn_render(r, s, &f, &err) == GN_OK && gn_renderer_wait_idle(r, &err) == GN_OK, "%s", err.message);
    r->vk.timeout_ns = 0;
    gn_result res = GN_OK;
    uint32_t tries = 0;
    while (res == GN_OK && tries++ < 20) {
        CHECK(gn_render(r, s, &f, &err) == GN_OK, "%s", err.message);
        res = gn_renderer_wait_idle(r, &err);
    }
    CHECK(res == GN_ERROR_DEVICE_LOST, "no timeout in %u tries: %s (%s)", tries, gn_result_name(res),
          err.message);
    CHECK(strstr(err.message, "the GPU did not finish frame ") == err.message &&
              strstr(err.message, " within 0 ms (gpu_timeout_ms): treating the device as lost") != NULL,
          "message '%s'", err.message);
    printf("timed out after %u tr%s: %s\n", tries, tries == 1 ? "y" : "ies", err.message);
    GT_CHECK_VALIDATION(r, "after a wait timed out");
    /* the GPU was not really hung: destroying waits for it with the real timeout */
    r->vk.timeout_ns = want;
    gn_renderer_destroy(r);
    CHECK(logged == 0, "%u error line(s) while destroying after a timeout", logged);
}

int main(void)
{
    gn_error err = {0};
    gn_renderer *r = NULL;
    gn_renderer_desc bad = {.width = 8, .height = 8, .validation = GN_VALIDATION_ON};
    CHECK(gn_renderer_create(&bad, &r, &err) == GN_ERROR_INVALID_ARGUMENT && r == NULL, "8x8 accepted");
    CHECK(strstr(err.message, "8x8") != NULL, "message '%s' does not name the size", err.message);
    bad = (gn_renderer_desc){.msaa = 3, .validation = GN_VALIDATION_ON};
    CHECK(gn_renderer_create(&bad, &r, &err) == GN_ERROR_INVALID_ARGUMENT, "msaa 3 accepted");
    bad = (gn_renderer_desc){.device = "no-such-device-xyz", .validation = GN_VALIDATION_ON};
    CHECK(gn_renderer_create(&bad, &r, &err) == GN_ERROR_NO_DEVICE, "unknown device accepted");
    CHECK(strstr(err.message, "no-such-device-xyz") != NULL, "message '%s' does not name the selector",
          err.message);

    r = gt_renderer(256, 256, 4);
    uint8_t px[4];
    CHECK(gn_read_pixels(r, px, &err) == GN_ERROR_INVALID_ARGUMENT, "pixels read before any frame");
    CHECK(gn_render(r, NULL, NULL, &err) == GN_ERROR_INVALID_ARGUMENT, "NULL scene accepted");
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_frame_desc f = {.view = (gn_view)99};
    CHECK(gn_render(r, s, &f, &err) == GN_ERROR_INVALID_ARGUMENT, "view 99 accepted");
    gn_frame_stats st;
    CHECK(gn_get_frame_stats(r, &st, &err) == GN_ERROR_INVALID_ARGUMENT, "stats before any frame");
    uint32_t ids[4], count = 99;
    CHECK(gn_get_visible_instances(r, ids, 4, &count, &err) == GN_ERROR_INVALID_ARGUMENT && count == 0,
          "visible instances before any frame (count %u)", count);
    CHECK(gn_get_visible_instances(r, ids, 4, NULL, &err) == GN_ERROR_INVALID_ARGUMENT,
          "NULL count accepted");
    CHECK(gn_get_visible_instances(r, NULL, 4, &count, &err) == GN_ERROR_INVALID_ARGUMENT,
          "NULL ids with max 4 accepted");
    /* an empty scene renders: sky only */
    f = (gn_frame_desc){.camera.fov_y = 60}; /* a camera at the origin (all zero is the default camera) */
    CHECK(gn_render(r, s, &f, &err) == GN_OK, "empty scene: %s", err.message);
    CHECK(gn_renderer_wait_idle(r, &err) == GN_OK, "%s", err.message);
    CHECK(gn_get_frame_stats(r, &st, &err) == GN_OK, "%s", err.message);
    CHECK(st.pass_count >= 3, "%u passes timed", st.pass_count);
    count = 99;
    CHECK(gn_get_visible_instances(r, NULL, 0, &count, &err) == GN_OK && count == 0,
          "empty scene: %u visible instances (%s)", count, err.message);
    GT_CHECK_VALIDATION(r, "in API error handling");
    gn_renderer_destroy(r);
    gpu_timeout(s);
    gn_scene_destroy(s);
    return gn_check_exit();
}

/* The public API's errors: bad descs and arguments give an error code and a message, never
 * a crash; a renderer stays usable after a refused call. */
#include "gpu_util.h"

#include <string.h>

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
    gn_scene_destroy(s);
    gn_renderer_destroy(r);
    return gn_check_exit();
}

/* The presenting API without a window (the window itself is tests/view's gpu_view_fly):
 * gn_renderer_resize remakes the targets so that a frame after it equals a frame of a renderer
 * made at that size; an overlay without a surface changes nothing gn_read_pixels sees; bad
 * arguments are refused with a message. */
#include "gpu_util.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
    gn_error err = {0};
    gn_scene *town = NULL;
    CHECK(gn_scene_create_builtin(&(gn_builtin_desc){0}, &town, &err) == GN_OK, "%s", err.message);
    /* cascades: the frames compared here must depend on their own inputs alone, and the default
     * virtual shadow map blends in the previous frames' mask (temporal accumulation) */
    gn_frame_desc f = {.time_of_day = 15.0f, .shadows = GN_SHADOWS_CSM};

    /* resized from 64x48 to 96x64 against one made at 96x64 */
    gn_renderer *r = gt_renderer(64, 48, 4);
    free(gt_render(r, town, &f));
    CHECK(gn_renderer_resize(r, 8, 64, &err) == GN_ERROR_INVALID_ARGUMENT && strstr(err.message, "8x64"),
          "8x64 accepted (%s)", err.message);
    CHECK(gn_renderer_resize(r, 96, 64, &err) == GN_OK, "%s", err.message);
    uint32_t w, h;
    gn_renderer_size(r, &w, &h);
    CHECK(w == 96 && h == 64, "size %ux%u after the resize", w, h);
    uint8_t *none = malloc(96 * 64 * 4);
    CHECK(gn_read_pixels(r, none, &err) == GN_ERROR_INVALID_ARGUMENT, "pixels of a size never rendered");
    free(none);
    uint8_t *resized = gt_render(r, town, &f);
    gn_renderer *fresh = gt_renderer(96, 64, 4);
    uint8_t *made = gt_render(fresh, town, &f);
    gt_diff d = gt_compare(resized, made, 96, 64, gt_is_lavapipe(r) ? 0 : GT_GOLDEN_TOLERANCE);
    CHECK(gt_is_lavapipe(r) ? d.max_channel == 0 : d.over_share <= GT_GOLDEN_SHARE,
          "resized and fresh renderers differ: max %u, %.4f%% over", d.max_channel, 100.0 * d.over_share);
    uint64_t sky = 0; /* a real picture, not two blank ones */
    for (size_t i = 0; i < 96 * 64 * 4; i += 4) sky += resized[i + 2] > resized[i];
    CHECK(sky > 100 && sky < 96 * 64, "%llu bluish pixels", (unsigned long long)sky);

    /* an overlay is for the window only */
    uint8_t *overlay = malloc(96 * 64 * 4);
    memset(overlay, 255, 96 * 64 * 4); /* opaque white */
    f.overlay = overlay;
    uint8_t *with = gt_render(r, town, &f);
    f.overlay = NULL;
    uint8_t *without = gt_render(r, town, &f);
    CHECK(memcmp(with, without, 96 * 64 * 4) == 0, "the overlay reached gn_read_pixels");

    /* no surface: nothing presented, and the surface calls refuse */
    gn_present_stats ps;
    gn_renderer_present_stats(r, &ps);
    CHECK(ps.presented == 0 && ps.width == 0 && ps.image_count == 0, "a headless renderer presented");
    CHECK(gn_renderer_attach_surface(r, &(gn_surface_desc){0}, &err) == GN_ERROR_INVALID_ARGUMENT,
          "a zero surface accepted");
    CHECK(gn_renderer_set_vsync(r, false, &err) == GN_ERROR_INVALID_ARGUMENT &&
              strstr(err.message, "no surface"),
          "vsync without a surface: %s", err.message);
    CHECK(gn_renderer_vk_instance(r) != NULL && gn_renderer_vk_instance(NULL) == NULL, "the instance handle");

    GT_CHECK_VALIDATION(r, "resizing");
    GT_CHECK_VALIDATION(fresh, "the fresh renderer");
    free(resized), free(made), free(overlay), free(with), free(without);
    gn_renderer_destroy(fresh);
    gn_renderer_destroy(r);
    gn_scene_destroy(town);
    return gn_check_exit();
}

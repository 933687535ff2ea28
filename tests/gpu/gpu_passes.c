/* The pass table has no fixed ceiling: extended to 32 passes with the test-only noop feature,
 * a frame times all 32 (each its own pair of timestamps); one more than the timestamp queries
 * hold is an error with a message, never a reused slot, and the renderer stays usable. Also
 * the distance view, the example feature of docs/ARCHITECTURE.md ("Adding a pass"): its pass
 * runs only when asked for, and nearer ground is brighter than farther ground. */
#include "gpu_util.h"
#include "passes/passes.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#define W 128
#define H 72

/* A 200 m ground plane at y = 0. */
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

int main(void)
{
    gn_renderer *r = gt_renderer(W, H, 1);
    gn_scene *s = ground();
    gn_error err = {0};
    /* shadows none: the frame's own passes are the same every frame (depth, forward, tonemap) */
    gn_frame_desc f = {.camera = {.position = {0, 2, 0}, .pitch = -10, .fov_y = 60},
                       .shadows = GN_SHADOWS_NONE};
    gt_frame(r, s, &f); /* the first frame also makes the image-based light's table and map */
    gn_frame_stats st = gt_frame(r, s, &f);
    uint32_t base = st.pass_count;
    CHECK(base >= 3 && base < 32, "a plain frame has %u passes", base);

    /* 32 passes: every one timed, the noop ones by name in order */
    CHECK(gn_noop_set(r, 32 - base, 32 - base, &err) == GN_OK, "%s", err.message);
    st = gt_frame(r, s, &f);
    CHECK(st.pass_count == 32, "%u passes timed, 32 expected", st.pass_count);
    for (uint32_t i = base; i < st.pass_count; i++) {
        char want[32];
        snprintf(want, sizeof want, "noop %u", i - base);
        CHECK(strcmp(st.passes[i].name, want) == 0, "pass %u is \"%s\", not \"%s\"", i, st.passes[i].name,
              want);
        CHECK(st.passes[i].gpu_ms >= 0.0, "pass %u: %g ms", i, st.passes[i].gpu_ms);
    }
    CHECK(strcmp(st.passes[base - 1].name, "tonemap") == 0, "the frame's own passes come first");

    /* one more than the queries hold (the table's most, noop's reserve included): refused with a
     * message naming the pass, never a reused slot */
    uint32_t capacity = r->vk.pass_capacity;
    CHECK(capacity >= 32, "the queries hold %u passes", capacity);
    CHECK(gn_noop_set(r, capacity + 1 - base, 32 - base, &err) == GN_OK, "%s", err.message);
    CHECK(r->vk.pass_capacity == capacity, "the pool grew to %u", r->vk.pass_capacity);
    gn_result res = gn_render(r, s, &f, &err);
    CHECK(res == GN_ERROR_INVALID_ARGUMENT, "%u passes in a pool of %u: %s", capacity + 1, capacity,
          gn_result_name(res));
    char want[64];
    snprintf(want, sizeof want, "noop %u", capacity - base);
    CHECK(strstr(err.message, want) && strstr(err.message, "query pool holds"), "the message: %s",
          err.message);
    CHECK(gn_renderer_wait_idle(r, &err) == GN_OK, "%s", err.message);

    /* back to the frame's own passes: it renders again */
    CHECK(gn_noop_set(r, 0, 0, &err) == GN_OK, "%s", err.message);
    st = gt_frame(r, s, &f);
    CHECK(st.pass_count == base, "%u passes after the noop ones left, %u before", st.pass_count, base);

    /* the distance view: one pass more, and the ground brightens towards the camera */
    f.view = GN_VIEW_DISTANCE;
    uint8_t *px = gt_render(r, s, &f);
    CHECK(gn_get_frame_stats(r, &st, &err) == GN_OK, "%s", err.message);
    CHECK(st.pass_count == base + 1 && strcmp(st.passes[base].name, "distance view") == 0,
          "%u passes, the last \"%s\"", st.pass_count,
          st.pass_count ? st.passes[st.pass_count - 1].name : "");
    /* the brightest of a few rows (a contour darkens a row it crosses): about 2.5 m away at the
     * bottom, about 30 m just under the horizon (row 24 with this camera) */
    uint32_t near = 0, far = 0;
    for (uint32_t y = H - 4; y < H; y++)
        near = px[(y * W + W / 2) * 4] > near ? px[(y * W + W / 2) * 4] : near;
    for (uint32_t y = 27; y < 31; y++) far = px[(y * W + W / 2) * 4] > far ? px[(y * W + W / 2) * 4] : far;
    CHECK(near > far + 20, "near ground %u, farther ground %u: nearer must be brighter", near, far);
    const uint8_t *sky = px + (2 * W + W / 2) * 4;
    CHECK(sky[2] > sky[0], "the sky is dark blue (%u %u %u)", sky[0], sky[1], sky[2]);
    free(px);
    GT_CHECK_VALIDATION(r, "filling the pass table");
    gn_scene_destroy(s);
    gn_renderer_destroy(r);
    return gn_check_exit();
}

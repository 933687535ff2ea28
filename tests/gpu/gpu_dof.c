/* Depth of field (src/passes/dof.c, shaders/dof.comp, the blend in shaders/tonemap.comp) on the
 * town's street at sunset:
 *   (1) --view dof-coc is gn_dof_pixel of the read-back depth (decide/dof.c) within a level, in
 *       the back, front and both modes;
 *   (2) strength 0 is no depth of field: the frame is byte-identical to one without;
 *   (3) the sky rule: open sky (no geometry within the ring) is untouched, the sky beside
 *       geometry is blurred; with blur_sky all of the sky is;
 *   (4) back mode blurs the far street and leaves the near pixels as they were; front the reverse;
 *   (5) the DoF frame's golden image. */
#include "decide/dof.h"
#include "gpu_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 160

static uint32_t px_diff(const uint8_t *a, const uint8_t *b, size_t i)
{
    uint32_t d = 0;
    for (int c = 0; c < 3; c++) d += (uint32_t)abs((int)a[i * 4 + c] - (int)b[i * 4 + c]);
    return d;
}

int main(void)
{
    gn_error err = {0};
    float vps[3][5];
    gn_scene *s = gt_town(1, vps);
    gn_renderer *r = gt_renderer(W, H, 4);
    gn_frame_desc f = gt_at(vps[0], 18.5f);
    f.camera_exposure = (gn_exposure_desc){.mode = GN_EXPOSURE_FIXED, .ev100 = 12.0f};
    f.shadows = GN_SHADOWS_NONE; /* the VSM's RESOLVE accumulates over frames: frames would differ */
    size_t n = (size_t)W * H;
    float *depth = malloc(n * sizeof *depth), *z = malloc(n * sizeof *z);
    uint8_t *plain = gt_render(r, s, &f);
    CHECK(gn_read_depth(r, depth, &err) == GN_OK, "depth: %s", err.message);
    float near_plane = 0.1f;
    for (size_t i = 0; i < n; i++) z[i] = depth[i] > 0.0f ? near_plane / depth[i] : 0.0f;

    /* (1) the blend, against the CPU's, in each mode */
    const gn_dof_mode modes[3] = {GN_DOF_BACK, GN_DOF_FRONT, GN_DOF_BOTH};
    for (int m = 0; m < 3; m++) {
        gn_frame_desc v = f;
        v.view = GN_VIEW_DOF_COC;
        v.dof = (gn_dof_desc){.focus = 12.0f, .range = 25.0f, .strength = 0.9f, .mode = modes[m]};
        uint8_t *coc = gt_render(r, s, &v);
        gn_dof_params p = {.focus = 12.0f, .range = 25.0f, .strength = 0.9f, .mode = modes[m]};
        uint32_t off = 0, blurred = 0;
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++) {
                size_t i = (size_t)y * W + x;
                if (!(z[i] > 0.0f)) continue;
                float t = gn_dof_pixel(&p, z, W, H, x, y);
                off += abs((int)coc[i * 4] - (int)lroundf(t * 255.0f)) > 1;
                blurred += t > 0.05f;
            }
        fprintf(stderr, "mode %d: %u geometry pixels off the CPU's blend, %u blurred\n", m, off, blurred);
        CHECK(off == 0 && blurred > n / 20, "mode %d: %u pixels off, %u blurred", m, off, blurred);
        free(coc);
    }

    /* (2) strength 0 */
    gn_frame_desc zero = f;
    zero.dof = (gn_dof_desc){.focus = 12.0f, .range = 25.0f};
    uint8_t *same = gt_render(r, s, &zero);
    uint8_t *again = gt_render(r, s, &f);
    CHECK(memcmp(again, plain, n * 4) == 0, "two frames without DoF differ");
    CHECK(memcmp(same, plain, n * 4) == 0, "strength 0 changed the frame");
    free(same), free(again);

    /* (3), (4) back mode: the sky rule and where the blur goes */
    gn_frame_desc back = f;
    back.dof = (gn_dof_desc){.focus = 12.0f, .range = 25.0f, .strength = 1.0f};
    uint8_t *b = gt_render(r, s, &back);
    gn_dof_params pb = {.focus = 12.0f, .range = 25.0f, .strength = 1.0f};
    uint32_t open_changed = 0, open = 0, edge_changed = 0, edge = 0, near_changed = 0, near = 0,
             far_changed = 0, far = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            float t = gn_dof_pixel(&pb, z, W, H, x, y);
            bool sky = !(z[i] > 0.0f), changed = px_diff(b, plain, i) > 3;
            if (sky && t == 0.0f) open++, open_changed += changed;
            if (sky && t > 0.2f) edge++, edge_changed += changed;
            if (!sky && z[i] < 10.0f) near++, near_changed += changed;
            if (!sky && t > 0.9f) far++, far_changed += changed;
        }
    fprintf(stderr, "back: open sky %u/%u changed, sky by geometry %u/%u, near %u/%u, far %u/%u\n",
            open_changed, open, edge_changed, edge, near_changed, near, far_changed, far);
    CHECK(open > 0 && open_changed == 0, "open sky: %u of %u changed", open_changed, open);
    CHECK(edge > 0 && edge_changed * 10 >= edge, "sky beside geometry: %u of %u changed", edge_changed, edge);
    CHECK(near > 0 && near_changed == 0, "near pixels: %u of %u changed", near_changed, near);
    CHECK(far > 0 && far_changed * 4 >= far, "far pixels: %u of %u changed", far_changed, far);
    CHECK(gt_golden(r, "dof_street_sunset", b, W, H), "the DoF frame differs from its golden image");
    back.dof.blur_sky = true;
    uint8_t *bs = gt_render(r, s, &back);
    uint32_t sky_changed = 0, sky = 0;
    for (size_t i = 0; i < n; i++)
        if (!(z[i] > 0.0f)) sky++, sky_changed += px_diff(bs, b, i) > 0;
    fprintf(stderr, "blur_sky: %u of %u sky pixels differ from the sky rule's\n", sky_changed, sky);
    CHECK(sky_changed > 0, "blur_sky changed nothing");

    /* front mode: the near pixels blur, the far stay */
    gn_frame_desc front = back;
    front.dof = (gn_dof_desc){.focus = 30.0f, .range = 20.0f, .strength = 1.0f, .mode = GN_DOF_FRONT};
    uint8_t *fr = gt_render(r, s, &front);
    uint32_t fnear = 0, fnear_changed = 0, ffar = 0, ffar_changed = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(z[i] > 0.0f)) continue;
        if (z[i] < 10.0f) fnear++, fnear_changed += px_diff(fr, plain, i) > 3;
        if (z[i] > 40.0f) ffar++, ffar_changed += px_diff(fr, plain, i) > 3;
    }
    fprintf(stderr, "front: near %u/%u changed, far %u/%u\n", fnear_changed, fnear, ffar_changed, ffar);
    CHECK(fnear_changed * 4 >= fnear && ffar_changed == 0, "front: near %u/%u, far %u/%u", fnear_changed,
          fnear, ffar_changed, ffar);
    GT_CHECK_VALIDATION(r, "at the end");
    free(plain), free(b), free(bs), free(fr), free(depth), free(z);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

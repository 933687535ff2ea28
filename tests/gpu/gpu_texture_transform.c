/* KHR_texture_transform on the GPU: assimp-testmodels' TextureTransformTest (Khronos' sample
 * model), rendered at 256x256 on lavapipe from straight ahead in the albedo view (base colour
 * only, no light to tell apart). The model's README has each square show a tick once the
 * transform is right:
 * - the top row ("Offset U", "Offset V", "Offset UV") maps a quarter of UV.png (yellow, crossed
 *   out) and offsets it by half the image onto the green "U", the blue "V" and the cyan "UV"
 *   quarter: a point near each square's corner must show that quarter's plain colour;
 * - the bottom row ("Rotation", "Scale", "All") turns, scales and moves Arrow.png (a black arrow
 *   on white) so that it points at the "Correct" marker: at 12x12 points of each square the
 *   pixel must be dark where Arrow.png, sampled on the CPU at the transformed uv (as the
 *   extension composes it: decide/uv_transform.c, unit_uv_transform), is black, and light where
 *   it is white. Points are skipped within 3 texels of the arrow's edge, outside 0..1 after the
 *   transform (the model's sampler clamps; gnomon's repeats), under the markers and on the
 *   diagonal where the quad's triangles meet.
 * Tolerance: every corner colour classified right; 97% of the arrow points right (a pixel
 * straddles 2 texels; filtering and MSAA blur the edge the 3-texel margin leaves out). */
#include "decide/camera.h"
#include "decide/exposure.h"
#include "decide/uv_transform.h"
#include "gpu_util.h"
#include "scene/gltf_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256
#define MODEL_DIR "/usr/share/assimp/models/glTF2/textureTransform/"
#define CAM_Z 5.0f

static float vp[16];

/* A point of the z = 0 plane (or a marker's z) to its pixel. */
static bool to_pixel(float x, float y, uint32_t *px, uint32_t *py)
{
    float p[3] = {x, y, 0.0f}, c[4];
    gn_mat4_transform_point(vp, p, c);
    float nx = c[0] / c[3], ny = c[1] / c[3];
    int ix = (int)((nx + 1) * 0.5f * W), iy = (int)((ny + 1) * 0.5f * H);
    if (ix < 0 || iy < 0 || ix >= W || iy >= H) return false;
    *px = (uint32_t)ix, *py = (uint32_t)iy;
    return true;
}

static const uint8_t *at(const uint8_t *img, uint32_t x, uint32_t y) { return img + (y * W + x) * 4; }

/* Arrow.png is black or white at uv, the same 3 texels around (-1 where it changes). */
static int arrow_class(const uint8_t *tex, uint32_t tw, uint32_t th, float u, float v)
{
    int cx = (int)(u * tw), cy = (int)(v * th), cls = -1;
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++) {
            int x = cx + dx, y = cy + dy;
            if (x < 0 || y < 0 || x >= (int)tw || y >= (int)th) return -1;
            const uint8_t *t = tex + ((size_t)y * tw + (size_t)x) * 4;
            int k = t[0] < 64 ? 0 : t[0] > 192 ? 1 : -1;
            if (k < 0 || (cls >= 0 && k != cls)) return -1;
            cls = k;
        }
    return cls;
}

int main(void)
{
    gn_scene *s = NULL;
    gn_error err = {0};
    gn_scene_create(&s, NULL);
    gn_gltf_desc d = {0};
    if (gn_gltf_scene_load(s, MODEL_DIR "TextureTransformTest.gltf", &d, &err) != GN_OK) {
        fprintf(stderr,
                "TextureTransformTest not loaded (%s): is assimp-testmodels installed (scripts/deps.sh)?\n",
                err.message);
        gn_scene_destroy(s);
        return 1;
    }
    uint32_t tw, th;
    uint8_t *arrow = gt_read_png(MODEL_DIR "Arrow.png", &tw, &th);
    CHECK(arrow != NULL, "Arrow.png not read");
    gn_renderer *r = gt_renderer(W, H, 4);
    gn_frame_desc f = {
        .camera = {.position = {0, 0, CAM_Z}, .fov_y = 40, .near_plane = 0.1f},
        .time_of_day = 12.0f,
        .latitude = 45,
        .day_of_year = 172,
        .view = GN_VIEW_ALBEDO,
        /* the base colour as it is: no tone curve's hue shift (ACES washes out pure blue), no
         * adaptation, no bloom bleeding white into black, no dither */
        .tonemap = GN_TONEMAP_CLIP,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true},
        .no_dither = true,
    };
    uint8_t *px = gt_render(r, s, &f);
    GT_CHECK_VALIDATION(r, "rendering TextureTransformTest");
    float proj[16], view[16];
    gn_camera_projection(40 * 0.017453293f, (float)W / H, 0.1f, proj);
    gn_camera_view(f.camera.position, 0, 0, view);
    gn_mat4_mul(proj, view, vp);

    /* the top row: a point 0.15 in from each square's left and 0.3 from its top (off the
     * triangles' shared diagonal), at quad uv (0.075, 0.15) (the quads map uv 0..0.5), offset
     * into the named quarter's plain background */
    const struct {
        const char *name;
        float x;
        int want; /* 0 green, 1 blue, 2 cyan */
    } top[3] = {{"Offset U", -1.1f, 0}, {"Offset V", 0.0f, 1}, {"Offset UV", 1.1f, 2}};
    for (int i = 0; i < 3; i++) {
        uint32_t x = 0, y = 0; /* CHECK goes on after a failure */
        CHECK(to_pixel(top[i].x - 0.35f, 0.55f + 0.2f, &x, &y), "%s off screen", top[i].name);
        const uint8_t *p = at(px, x, y);
        int rr = p[0], g = p[1], b = p[2], got;
        if (g > 2 * rr && g > 2 * b)
            got = 0;
        else if (b > 2 * rr && b > 2 * g)
            got = 1;
        else if (g > 2 * rr && b > 2 * rr)
            got = 2;
        else
            got = -1; /* yellow (untransformed: the crossed-out quarter) or anything else */
        fprintf(stderr, "%s at (%u, %u): (%d, %d, %d)\n", top[i].name, x, y, rr, g, b);
        CHECK(got == top[i].want, "%s shows (%d, %d, %d), not its quarter's colour", top[i].name, rr, g, b);
    }

    /* the bottom row against Arrow.png through each square's transform */
    const struct {
        const char *name;
        float x, offset[2], rotation, scale[2];
        float markers[3][2]; /* the markers' centres in the square (its children) */
    } bottom[3] = {
        {"Rotation",
         -1.1f,
         {0, 0},
         0.39269908f,
         {1, 1},
         {{-0.079f, -0.516f}, {0.278f, -0.278f}, {0.516f, 0.079f}}},
        {"Scale", 0.0f, {0, 0}, 0.0f, {1.5f, 1.5f}, {{0.019f, -0.019f}, {0.278f, -0.278f}, {9, 9}}},
        {"All", 1.1f, {-0.2f, -0.1f}, 0.3f, {1.5f, 1.5f}, {{-0.07f, -0.25f}, {9, 9}, {9, 9}}},
    };
    for (int i = 0; i < 3; i++) {
        float m[6];
        gn_uv_transform_matrix(bottom[i].offset, bottom[i].rotation, bottom[i].scale, m);
        uint32_t tested = 0, right = 0, dark_max = 0, light_min = 255;
        for (int gy = 0; gy < 12; gy++)
            for (int gx = 0; gx < 12; gx++) {
                float qx = -0.5f + (gx + 0.5f) / 12, qy = 0.5f - (gy + 0.5f) / 12;
                /* the quad's two triangles meet on this diagonal, drawn as a faint light line
                 * (the shared edge's samples): not the texture's business */
                bool under = gx == gy;
                for (int k = 0; k < 3; k++)
                    under |= fabsf(qx - bottom[i].markers[k][0]) < 0.12f &&
                             fabsf(qy - bottom[i].markers[k][1]) < 0.12f;
                float uv[2] = {qx + 0.5f, 0.5f - qy}, t[2];
                gn_uv_transform_apply(m, uv, t);
                int cls = under ? -1 : arrow_class(arrow, tw, th, t[0], t[1]);
                uint32_t x = 0, y = 0;
                if (cls < 0 || !to_pixel(bottom[i].x + qx, -0.55f + qy, &x, &y)) continue;
                const uint8_t *p = at(px, x, y);
                uint32_t lum = (p[0] + p[1] + p[2]) / 3;
                bool dark = lum<64, light = lum> 128;
                tested++;
                right += cls == 0 ? dark : light;
                if (!(cls == 0 ? dark : light))
                    fprintf(stderr, "  %s (%.2f, %.2f) uv (%.3f, %.3f): Arrow.png %s, pixel (%u, %u) %u\n",
                            bottom[i].name, qx, qy, t[0], t[1], cls ? "white" : "black", x, y, lum);
                if (cls == 0 && lum > dark_max) dark_max = lum;
                if (cls == 1 && lum < light_min) light_min = lum;
            }
        float share = tested ? (float)right / tested : 0.0f;
        fprintf(stderr, "%s: %u of %u points right (%.1f%%), black texels up to %u, white from %u\n",
                bottom[i].name, right, tested, share * 100, dark_max, light_min);
        CHECK(tested >= 30, "%s: only %u points away from edges and markers", bottom[i].name, tested);
        CHECK(share >= 0.97f, "%s: %.1f%% of points show Arrow.png as transformed", bottom[i].name,
              share * 100);
    }
    if (gn_check_failures) gt_write_png("gpu_texture_transform.actual.png", px, W, H);
    free(px);
    free(arrow);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

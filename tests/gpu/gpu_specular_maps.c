/* KHR_materials_specular's maps on the GPU (set 1, bindings 8 and 9; shaders/forward.glsl): a
 * black dielectric quad facing the camera under the 10:00 sun, rendered at 128x128 on lavapipe
 * twice. Frame A's material has a specularTexture whose alpha is 0 on the left half (u < 0.5) and
 * 1 on the right, and a white specularColorTexture; frame B's the same factors and no maps. A
 * black base colour leaves only the dielectric's reflection (sun and sky), which alpha 0 turns
 * off (F0 and F90 times 0) and alpha 1 keeps as it was.
 * Tolerance: in A the left half's mean is under a tenth of the right half's (the right half over
 * 4/255); A's right half matches B's within 1/255 on every pixel (the maps' 1.0 multiplies
 * exactly, so only the frames' own rounding could differ). Samples stay 4 texels of the 64-texel
 * map off the halves' edge and off the quad's sides (where the repeating sampler blends). */
#include "gpu_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 128
#define TEX_W 64

/* The quad under the sun; with_maps: the half-alpha specular map and a white colour map. */
static uint8_t *render(bool with_maps)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    uint32_t mesh = gt_add_quad(s, 1.0f, 0.0f), mat = 0; /* 2x2 m at z = 0 */
    gn_material_desc md = {.base_color = {0, 0, 0, 1}, .metallic = 0, .roughness = 0.4f, .label = "black"};
    if (with_maps) {
        static uint8_t half[TEX_W * 4], white[TEX_W * 4];
        for (int x = 0; x < TEX_W; x++) {
            memset(&half[x * 4], 255, 3), half[x * 4 + 3] = x < TEX_W / 2 ? 0 : 255;
            memset(&white[x * 4], 255, 4);
        }
        gn_texture_desc a = {TEX_W, 1, half, false, "specular: alpha 0 | 1"};
        gn_texture_desc c = {TEX_W, 1, white, true, "specular colour: white"};
        CHECK(gn_scene_add_texture(s, &a, &md.specular_texture, NULL) == GN_OK, "specular texture refused");
        CHECK(gn_scene_add_texture(s, &c, &md.specular_color_texture, NULL) == GN_OK,
              "specular colour texture refused");
    }
    gn_scene_add_material(s, &md, &mat, NULL);
    gn_instance_desc inst = {.mesh = mesh, .material = mat};
    gn_scene_add_instance(s, &inst, NULL, NULL);
    gn_renderer *r = gt_renderer(W, H, 1);
    gn_frame_desc f = {
        .camera = {.position = {0, 0, 3.2f}, .yaw = 0, .pitch = 0, .fov_y = 40, .near_plane = 0.1f},
        .time_of_day = 10.0f,
        .latitude = 45,
        .day_of_year = 172,
        .tonemap = GN_TONEMAP_CLIP,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true},
        .no_dither = true,
        .no_aerial = true,
    };
    uint8_t *px = gt_render(r, s, &f);
    GT_CHECK_VALIDATION(r, with_maps ? "rendering the quad with specular maps" : "rendering the plain quad");
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return px;
}

/* A pixel's mean of r, g, b (0..255). */
static double grey(const uint8_t *px, uint32_t x, uint32_t y)
{
    const uint8_t *p = px + ((size_t)y * W + x) * 4;
    return (p[0] + p[1] + p[2]) / 3.0;
}

int main(void)
{
    uint8_t *a = render(true), *b = render(false);
    CHECK(a && b, "no pixels read back");
    /* the quad spans about 7%..93% of the frame; u = 0.5 is the middle column */
    double left = 0, right = 0;
    uint32_t nl = 0, nr = 0, worst = 0;
    for (uint32_t y = H / 5; y < H * 4 / 5; y++)
        for (uint32_t x = W / 6; x < W * 5 / 6; x++) {
            float u = (x + 0.5f) / W; /* near enough the quad's u to pick a half */
            if (fabsf(u - 0.5f) < 4.0f / TEX_W) continue;
            if (u < 0.5f) {
                left += grey(a, x, y), nl++;
                continue;
            }
            right += grey(a, x, y), nr++;
            for (int c = 0; c < 3; c++) {
                uint32_t d = (uint32_t)abs(a[((size_t)y * W + x) * 4 + c] - b[((size_t)y * W + x) * 4 + c]);
                if (d > worst) worst = d;
            }
        }
    left /= nl ? nl : 1, right /= nr ? nr : 1;
    fprintf(stderr,
            "alpha 0 half: mean %.2f/255 (%u px); alpha 1 half: mean %.2f/255 (%u px), worst %u/255 "
            "from the map-less frame\n",
            left, nl, right, nr, worst);
    CHECK(right > 4.0, "the alpha-1 half is too dark to tell (%.2f/255)", right);
    CHECK(left < 0.1 * right, "the alpha-0 half reflects %.2f/255, not under a tenth of %.2f/255", left,
          right);
    CHECK(worst <= 1, "the alpha-1 half differs from the map-less frame by %u/255", worst);
    if (left >= 0.1 * right || worst > 1) gt_write_png("gpu_specular_maps.actual.png", a, W, H);
    free(a);
    free(b);
    return gn_check_exit();
}

/* Alpha to coverage (issue 20; src/passes/depth_prepass.c, shaders/mask.glsl), on lavapipe at
 * 128x128 with 4x MSAA: an alpha-tested red quad (cutoff 0.5) whose texture's alpha falls smoothly
 * from 1 at its centre to 0 at half a side away (so the cut-out is a disc of a quarter side's
 * radius) in front of a grey wall. Without alpha to coverage a pixel of the disc's rim is all red
 * or all wall (the test keeps all of its samples or none); with it the rim's pixels take
 * intermediate values: the test counts the pixels whose colour lies strictly between the two
 * (t = their projection on the wall-to-red segment in (0.1, 0.9)), which must be at least 100 and
 * more than twice as many as without. Neither mode may leave a hole (a pixel with t < 0.9 where the
 * alpha at its centre is at least cutoff + 0.05, about 2.7 pixels inside the rim) or a ghost
 * (t > 0.1 where it is at most cutoff - 0.05). Validation clean, with a frame of the default
 * shadows too (their casters keep the plain test). */
#include "gpu_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 128
#define CAM_Z 3.2f
#define FOV_Y 40.0f
#define TEX 64
#define CUTOFF 0.5f
#define MARGIN 0.05f

/* The texture's alpha at uv (1 at the centre, 0 half a side away), as the texels hold it. */
static float alpha_at(float u, float v)
{
    float a = 1.0f - 2.0f * sqrtf((u - 0.5f) * (u - 0.5f) + (v - 0.5f) * (v - 0.5f));
    return a > 0 ? a : 0;
}

static gn_scene *build(void)
{
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, NULL) == GN_OK, "scene");
    static uint8_t px[TEX * TEX * 4];
    for (int y = 0; y < TEX; y++)
        for (int x = 0; x < TEX; x++) {
            uint8_t *p = &px[(y * TEX + x) * 4];
            p[0] = 230, p[1] = 30, p[2] = 20;
            p[3] = (uint8_t)lroundf(255.0f * alpha_at((x + 0.5f) / TEX, (y + 0.5f) / TEX));
        }
    gn_texture_desc td = {.width = TEX, .height = TEX, .rgba8 = px, .srgb = true, .label = "soft disc"};
    uint32_t tex = 0, wall_mat = 0, disc_mat = 0;
    CHECK(gn_scene_add_texture(s, &td, &tex, NULL) == GN_OK, "texture");
    gn_material_desc wall = {.base_color = {0.5f, 0.5f, 0.5f, 1}, .roughness = 0.9f, .label = "wall"};
    gn_material_desc disc = {.base_color = {1, 1, 1, 1},
                             .base_color_texture = tex,
                             .roughness = 0.9f,
                             .alpha_mode = GN_ALPHA_MASK,
                             .alpha_cutoff = CUTOFF,
                             .label = "disc"};
    CHECK(gn_scene_add_material(s, &wall, &wall_mat, NULL) == GN_OK, "material");
    CHECK(gn_scene_add_material(s, &disc, &disc_mat, NULL) == GN_OK, "material");
    gn_instance_desc in = {.mesh = gt_add_quad(s, 3.0f, -2.0f), .material = wall_mat};
    in.transform[0] = in.transform[5] = in.transform[10] = in.transform[15] = 1;
    CHECK(gn_scene_add_instance(s, &in, NULL, NULL) == GN_OK, "instance");
    in.mesh = gt_add_quad(s, 1.0f, 0.0f), in.material = disc_mat;
    CHECK(gn_scene_add_instance(s, &in, NULL, NULL) == GN_OK, "instance");
    return s;
}

static gn_frame_desc frame(bool a2c, gn_shadows shadows)
{
    return (gn_frame_desc){
        .camera = {.position = {0, 0, CAM_Z}, .fov_y = FOV_Y, .near_plane = 0.1f},
        .time_of_day = 10.0f,
        .latitude = 45,
        .day_of_year = 172,
        .shadows = shadows,
        .tonemap = GN_TONEMAP_CLIP,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true},
        .ao = {.off = true},
        .no_dither = true,
        .no_aerial = true,
        .alpha_to_coverage = a2c,
    };
}

typedef struct counts {
    uint32_t between, holes, ghosts, inside, outside;
} counts;

/* Pixel (x, y)'s alpha at its centre: the quad (half side 1 at z = 0) through the camera. */
static float pixel_alpha(int x, int y)
{
    float f = (H / 2.0f) / tanf(FOV_Y * 0.5f * 3.14159265f / 180.0f);
    float wx = (x + 0.5f - W / 2.0f) * CAM_Z / f, wy = (H / 2.0f - y - 0.5f) * CAM_Z / f;
    if (fabsf(wx) >= 1 || fabsf(wy) >= 1) return 0;
    return alpha_at((wx + 1) * 0.5f, (1 - wy) * 0.5f);
}

static counts measure(const uint8_t *px)
{
    counts c = {0};
    const uint8_t *red = &px[((H / 2) * W + W / 2) * 4], *grey = &px[(2 * W + 2) * 4];
    float d[3], dd = 0;
    for (int k = 0; k < 3; k++) d[k] = (float)red[k] - grey[k], dd += d[k] * d[k];
    CHECK(dd > 100 * 100, "the disc and the wall look alike (%.0f)", sqrtf(dd));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = &px[(y * W + x) * 4];
            float t = 0;
            for (int k = 0; k < 3; k++) t += ((float)p[k] - grey[k]) * d[k];
            t /= dd;
            float a = pixel_alpha(x, y);
            c.between += t > 0.1f && t < 0.9f;
            if (a >= CUTOFF + MARGIN) c.inside++, c.holes += t < 0.9f;
            if (a <= CUTOFF - MARGIN) c.outside++, c.ghosts += t > 0.1f;
        }
    return c;
}

int main(void)
{
    gn_renderer *r = gt_renderer(W, H, 4);
    counts c[2];
    for (int a2c = 0; a2c < 2; a2c++) {
        gn_frame_desc f = frame(a2c, GN_SHADOWS_NONE);
        gn_scene *s = build();
        uint8_t *px = gt_render(r, s, &f);
        gn_scene_destroy(s);
        c[a2c] = measure(px);
        printf(
            "alpha to coverage %s: %u pixels between the disc and the wall; %u holes of %u inside, %u ghosts "
            "of %u outside\n",
            a2c ? "on " : "off", c[a2c].between, c[a2c].holes, c[a2c].inside, c[a2c].ghosts, c[a2c].outside);
        CHECK(c[a2c].inside > 1000 && c[a2c].outside > 5000, "the disc is not where the test expects it");
        CHECK(c[a2c].holes == 0 && c[a2c].ghosts == 0, "%s: %u holes, %u ghosts", a2c ? "on" : "off",
              c[a2c].holes, c[a2c].ghosts);
        if (a2c)
            CHECK(gt_golden(r, "alpha_coverage_disc", px, W, H), "the disc differs from its golden image");
        free(px);
    }
    CHECK(c[1].between >= 100 && c[1].between > 2 * c[0].between,
          "alpha to coverage gives %u intermediate pixels, without %u", c[1].between, c[0].between);
    /* the default shadows: their casters keep the plain test beside the prepass's coverage */
    gn_frame_desc f = frame(true, GN_SHADOWS_DEFAULT);
    gn_scene *s = build();
    free(gt_render(r, s, &f));
    gn_scene_destroy(s);
    GT_CHECK_VALIDATION(r, "alpha to coverage");
    gn_renderer_destroy(r);
    if (!gn_check_failures) printf("gpu_alpha_coverage: ok\n");
    return gn_check_exit();
}

/* The end of the chain: the 8-bit output's dither and the colour grading table.
 *   (1) dither: a dusk sky seen straight up, a smooth gradient of few levels. Without the dither
 *       its columns step through long runs of one value (bands); with it the runs are short,
 *       and the image's mean is the same within half a level (the dither adds no bias);
 *   (2) a .cube identity table leaves the image within a level; a table swapping red and blue
 *       swaps them (within a level of the CPU reference, gn_cube_lut_sample, on every pixel);
 *       a malformed table is refused with a message naming its line, and the table in use stays. */
#include "formats/cube_lut.h"
#include "gpu_util.h"

#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256

/* Mean length of the runs of one green value down the columns of the middle half. */
static double mean_run(const uint8_t *px)
{
    uint32_t runs = 0, cells = 0;
    for (uint32_t x = W / 4; x < 3 * W / 4; x++)
        for (uint32_t y = 0; y < H; y++) {
            cells++;
            if (y == 0 || px[(y * W + x) * 4 + 1] != px[((y - 1) * W + x) * 4 + 1]) runs++;
        }
    return (double)cells / runs;
}

static double mean_of(const uint8_t *px)
{
    double s = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) s += px[i * 4] + px[i * 4 + 1] + px[i * 4 + 2];
    return s / (3.0 * W * H);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
}

static void write_table(const char *path, uint32_t n, bool swap)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "TITLE \"test\"\nLUT_3D_SIZE %u\n", n);
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t g = 0; g < n; g++)
            for (uint32_t r = 0; r < n; r++) {
                float v[3] = {(float)r / (n - 1), (float)g / (n - 1), (float)b / (n - 1)};
                if (swap)
                    fprintf(f, "%.6f %.6f %.6f\n", v[2], v[1], v[0]);
                else
                    fprintf(f, "%.6f %.6f %.6f\n", v[0], v[1], v[2]);
            }
    fclose(f);
}

int main(void)
{
    gn_scene *s = NULL;
    gn_error err = {0};
    gn_builtin_desc bd = {.name = "town", .seed = 2, .scale = 1};
    if (gn_scene_create_builtin(&bd, &s, &err)) {
        fprintf(stderr, "town: %s\n", err.message);
        return 1;
    }
    gn_renderer *r = gt_renderer(W, H, 1);

    /* (1) the sky straight up at dusk */
    gn_frame_desc f = {.camera = {.position = {0, 60, 0}, .pitch = 80, .fov_y = 60},
                       .time_of_day = 19.2f,
                       .shadows = GN_SHADOWS_NONE};
    uint8_t *dithered = gt_render(r, s, &f);
    f.no_dither = true;
    uint8_t *banded = gt_render(r, s, &f);
    double run_d = mean_run(dithered), run_b = mean_run(banded);
    double bias = mean_of(dithered) - mean_of(banded);
    fprintf(stderr,
            "dither: runs down the columns %.2f pixels dithered, %.2f without; mean moved %.3f levels\n",
            run_d, run_b, bias);
    CHECK(run_b > 6.0, "the test's sky does not band without the dither (runs %.2f): it cannot test it",
          run_b);
    CHECK(run_d < 3.0, "the dithered sky still bands: runs of %.2f pixels", run_d);
    CHECK(bias > -0.5 && bias < 0.5, "the dither moved the image's mean by %.3f levels", bias);

    /* (2) grading, without the dither so the tables' effect is exact to compare */
    f = (gn_frame_desc){.time_of_day = 12.0f, .no_dither = true, .shadows = GN_SHADOWS_NONE}; /* no history */
    uint8_t *plain = gt_render(r, s, &f);
    write_table("grade_identity.cube", 17, false);
    write_table("grade_swap.cube", 9, true);
    CHECK(gn_renderer_set_color_lut(r, "grade_identity.cube", &err) == GN_OK, "identity: %s", err.message);
    uint8_t *same = gt_render(r, s, &f);
    gt_diff d = gt_compare(plain, same, W, H, 1);
    CHECK(d.max_channel <= 1, "the identity table moved a channel by %u levels", d.max_channel);
    CHECK(gn_renderer_set_color_lut(r, "grade_swap.cube", &err) == GN_OK, "swap: %s", err.message);
    uint8_t *swapped = gt_render(r, s, &f);
    gn_cube_lut lut = {0};
    CHECK(gn_cube_lut_load("grade_swap.cube", &lut, &err) == GN_OK, "%s", err.message);
    uint32_t off = 0, worst = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        float in[3] = {plain[i * 4] / 255.0f, plain[i * 4 + 1] / 255.0f, plain[i * 4 + 2] / 255.0f}, want[3];
        gn_cube_lut_sample(&lut, in, want);
        for (int c = 0; c < 3; c++) {
            int e = abs((int)(want[c] * 255.0f + 0.5f) - (int)swapped[i * 4 + c]);
            if (e > (int)worst) worst = (uint32_t)e;
            off += e > 1;
        }
    }
    /* the GPU grades the unquantised colour, the CPU its 8-bit value: half a level apart at most
     * in the input, within a level in the output */
    CHECK(off == 0, "%u channels differ from the CPU reference by more than a level (worst %u)", off, worst);
    CHECK(swapped[0] == plain[2] || abs((int)swapped[0] - (int)plain[2]) <= 1, "red did not become blue");
    gn_cube_lut_free(&lut);
    write_text("grade_bad.cube", "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1\n");
    gn_result bad = gn_renderer_set_color_lut(r, "grade_bad.cube", &err);
    CHECK(bad == GN_ERROR_BAD_DATA && strstr(err.message, "line 4") != NULL, "a malformed table: %d %s", bad,
          err.message);
    uint8_t *still = gt_render(r, s, &f);
    CHECK(memcmp(still, swapped, (size_t)W * H * 4) == 0, "a refused table changed the one in use");
    CHECK(gn_renderer_set_color_lut(r, NULL, &err) == GN_OK, "%s", err.message);
    uint8_t *cleared = gt_render(r, s, &f);
    CHECK(memcmp(cleared, plain, (size_t)W * H * 4) == 0, "removing the table does not restore the image");
    GT_CHECK_VALIDATION(r, "grading");
    free(dithered), free(banded), free(plain), free(same), free(swapped), free(still), free(cleared);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

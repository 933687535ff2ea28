/* The floors' pure parts (src/decide/floors.c): the triangle floor's grid is front-facing in
 * Vulkan's framebuffer and covers the screen exactly once, the fill floor's layer count, and the
 * median the figures are taken as. */
#include "check.h"
#include "decide/floors.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* Twice the signed area as Vulkan's rasterizer computes it (spec, "Basic Polygon Rasterization":
 * a = -1/2 sum x_i y_(i+1) - x_(i+1) y_i, in framebuffer coordinates, y down); clip space keeps
 * that orientation, so a positive value is counter-clockwise: a front face. */
static double vulkan_area2(const float *a, const float *b, const float *c)
{
    return -((double)a[0] * b[1] - (double)b[0] * a[1] + (double)b[0] * c[1] - (double)c[0] * b[1] +
             (double)c[0] * a[1] - (double)a[0] * c[1]);
}

static bool inside(const float *a, const float *b, const float *c, double x, double y)
{
    float q[2] = {(float)x, (float)y};
    return vulkan_area2(a, b, q) > 0 && vulkan_area2(b, c, q) > 0 && vulkan_area2(c, a, q) > 0;
}

static void test_grid(uint32_t side, uint32_t stride, bool coverage)
{
    uint32_t nv = gn_floor_grid_vertices(side);
    uint64_t nt = gn_floor_grid_triangles(side);
    float *pos = malloc((size_t)nv * stride * sizeof *pos);
    uint32_t *idx = malloc((size_t)nt * 3 * sizeof *idx);
    CHECK(pos && idx, "out of memory");
    if (!pos || !idx) return;
    gn_floor_grid(side, 0.5f, pos, stride, idx);
    uint32_t outside = 0, max_index = 0, back = 0;
    for (uint32_t v = 0; v < nv; v++) {
        const float *p = pos + (size_t)v * stride;
        if (fabsf(p[0]) > 1.0f || fabsf(p[1]) > 1.0f || p[2] != 0.5f) outside++;
    }
    double area = 0;
    for (uint64_t t = 0; t < nt; t++) {
        const uint32_t *q = idx + 3 * t;
        for (int k = 0; k < 3; k++) max_index = q[k] > max_index ? q[k] : max_index;
        if (q[0] >= nv || q[1] >= nv || q[2] >= nv) continue;
        double a2 = vulkan_area2(pos + (size_t)q[0] * stride, pos + (size_t)q[1] * stride,
                                 pos + (size_t)q[2] * stride);
        if (a2 <= 0) back++;
        area += a2 / 2;
    }
    CHECK(outside == 0, "side %u: %u vertices off the screen or off depth 0.5", side, outside);
    CHECK(max_index < nv, "side %u: index %u of %u vertices", side, max_index, nv);
    CHECK(back == 0, "side %u: %u of %llu triangles not front-facing", side, back, (unsigned long long)nt);
    CHECK(fabs(area - 4.0) < 1e-6, "side %u: the triangles cover %.9f of clip space's 4", side, area);
    /* points off every edge (a pixel grid offset by an odd fraction) lie in exactly one triangle */
    for (uint32_t y = 0; coverage && y < 37; y++)
        for (uint32_t x = 0; x < 37; x++) {
            double px = -1.0 + 2.0 * (x + 0.377) / 37, py = -1.0 + 2.0 * (y + 0.613) / 37;
            uint32_t in = 0;
            for (uint64_t t = 0; t < nt; t++) {
                const uint32_t *q = idx + 3 * t;
                in += inside(pos + (size_t)q[0] * stride, pos + (size_t)q[1] * stride,
                             pos + (size_t)q[2] * stride, px, py);
            }
            CHECK(in == 1, "side %u: (%.3f, %.3f) in %u triangles", side, px, py, in);
        }
    free(pos);
    free(idx);
}

static void test_fill_layers(void)
{
    CHECK(gn_floor_fill_layers(1920, 1080, 4) == 5, "1920x1080 4x: %u", gn_floor_fill_layers(1920, 1080, 4));
    CHECK(gn_floor_fill_layers(256, 256, 4) == 128, "256x256 4x: %u", gn_floor_fill_layers(256, 256, 4));
    CHECK(gn_floor_fill_layers(256, 256, 1) == 512, "256x256 1x: %u", gn_floor_fill_layers(256, 256, 1));
    CHECK(gn_floor_fill_layers(256, 256, 0) == 512, "samples 0 read as 1: %u",
          gn_floor_fill_layers(256, 256, 0));
    CHECK(gn_floor_fill_layers(16, 16, 1) == GN_FLOOR_FILL_MAX_LAYERS, "16x16: %u",
          gn_floor_fill_layers(16, 16, 1));
    CHECK(gn_floor_fill_layers(16384, 16384, 8) == 1, "16384^2 8x: %u",
          gn_floor_fill_layers(16384, 16384, 8));
    for (uint32_t w = 16; w <= 4096; w *= 2) {
        uint32_t n = gn_floor_fill_layers(w, w / 2, 4);
        uint64_t per = (uint64_t)w * (w / 2) * 4;
        CHECK(n == GN_FLOOR_FILL_MAX_LAYERS ||
                  (n * per >= GN_FLOOR_FILL_SAMPLES && (n - 1) * per < GN_FLOOR_FILL_SAMPLES),
              "%ux%u: %u layers of %llu samples", w, w / 2, n, (unsigned long long)per);
    }
}

static void test_median(void)
{
    double odd[] = {5, 1, 4, 2, 3}, even[] = {10, 1, 7, 2}, one[] = {3.5};
    CHECK(gn_floor_median(odd, 5) == 3.0, "odd: %g", gn_floor_median(odd, 5));
    CHECK(gn_floor_median(even, 4) == 4.5, "even: %g", gn_floor_median(even, 4));
    CHECK(gn_floor_median(one, 1) == 3.5, "one: %g", gn_floor_median(one, 1));
    CHECK(isnan(gn_floor_median(NULL, 0)), "none is NAN");
}

int main(void)
{
    CHECK(gn_floor_grid_triangles(GN_FLOOR_GRID_SIDE) == 2097152u, "the grid has %llu triangles",
          (unsigned long long)gn_floor_grid_triangles(GN_FLOOR_GRID_SIDE));
    test_grid(1, 3, true);
    test_grid(5, 14, true); /* gn_vertex's stride: 14 floats */
    test_grid(GN_FLOOR_GRID_SIDE, 3, false);
    test_fill_layers();
    test_median();
    return gn_check_exit();
}

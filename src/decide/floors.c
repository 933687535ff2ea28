/* The floors' grid, fill layers and median; see floors.h. */
#include "decide/floors.h"

#include <math.h>
#include <stdlib.h>

void gn_floor_grid(uint32_t side, float z, float *positions, size_t stride, uint32_t *indices)
{
    uint32_t row = side + 1;
    for (uint32_t j = 0; j <= side; j++)
        for (uint32_t i = 0; i <= side; i++) {
            float *p = positions + (size_t)(j * row + i) * stride;
            /* the last column and row exactly at 1: the grid leaves no sliver of the screen */
            p[0] = i == side ? 1.0f : -1.0f + 2.0f * (float)i / (float)side;
            p[1] = j == side ? 1.0f : -1.0f + 2.0f * (float)j / (float)side;
            p[2] = z;
        }
    /* Clip y points down the framebuffer in Vulkan, so (i, j), (i, j + 1), (i + 1, j) turn
     * counter-clockwise on the screen: front faces (Vulkan spec, "Basic Polygon Rasterization"). */
    for (uint32_t j = 0; j < side; j++)
        for (uint32_t i = 0; i < side; i++) {
            uint32_t a = j * row + i, b = a + 1, c = a + row, d = c + 1;
            uint32_t *q = indices + 6 * ((size_t)j * side + i);
            q[0] = a, q[1] = c, q[2] = b;
            q[3] = b, q[4] = c, q[5] = d;
        }
}

uint32_t gn_floor_fill_layers(uint32_t width, uint32_t height, uint32_t samples)
{
    uint64_t per_layer = (uint64_t)width * height * (samples ? samples : 1);
    if (per_layer == 0) return 1;
    uint64_t layers = (GN_FLOOR_FILL_SAMPLES + per_layer - 1) / per_layer;
    return layers < 1 ? 1 : layers > GN_FLOOR_FILL_MAX_LAYERS ? GN_FLOOR_FILL_MAX_LAYERS : (uint32_t)layers;
}

static int gn_floor_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double gn_floor_median(double *v, uint32_t n)
{
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, gn_floor_compare);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

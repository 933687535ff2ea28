/* The height fogs' closed form (decide/fog.c, the twin of shaders/air.glsl) against a numerical
 * integral of their density along rays up, down and level, from eyes below, inside and above
 * the layers, thin and thick; the phase integrates to 1; the in-scattering is (1 - T) of the
 * light and goes to the light's share as the fog thickens. */
#include <math.h>

#include "check.h"
#include "decide/fog.h"

static double numeric(const gn_fog_layer fog[2], const float eye[3], const float dir[3], float metres)
{
    const int n = 200000;
    double tau = 0.0, dt = (double)metres / n;
    for (int i = 0; i < n; i++) {
        double t = (i + 0.5) * dt, y = eye[1] + dir[1] * t;
        for (int k = 0; k < 2; k++)
            if (fog[k].density > 0.0f)
                tau += fog[k].density * exp(-(y - fog[k].base) * fog[k].falloff * 1e-3) * dt;
    }
    return tau;
}

int main(void)
{
    const gn_fog_layer layers[][2] = {
        {{0.01f, 0.0f, 100.0f}, {0}},                       /* a 10 m ground fog */
        {{0.002f, 20.0f, 10.0f}, {0.0005f, -5.0f, 500.0f}}, /* a 100 m haze over a 2 m mist */
        {{0.05f, 100.0f, 1000.0f}, {0}},                    /* a thin, dense layer 100 m up */
    };
    const float eyes[][3] = {{0, 2, 0}, {0, 50, 0}, {0, 300, 0}, {0, -10, 0}};
    const float s = 0.70710678f;
    const float dirs[][3] = {{1, 0, 0}, {s, s, 0}, {s, -s, 0}, {0, 1, 0}, {0, -1, 0}, {0.9999f, 0.01414f, 0}};
    const float lengths[] = {1.0f, 50.0f, 400.0f, 3000.0f};
    double worst = 0.0;
    int cases = 0;
    for (unsigned l = 0; l < sizeof layers / sizeof layers[0]; l++)
        for (unsigned e = 0; e < sizeof eyes / sizeof eyes[0]; e++)
            for (unsigned d = 0; d < sizeof dirs / sizeof dirs[0]; d++)
                for (unsigned m = 0; m < sizeof lengths / sizeof lengths[0]; m++) {
                    float got = gn_fog_depth(layers[l], eyes[e], dirs[d], lengths[m]);
                    double want = numeric(layers[l], eyes[e], dirs[d], lengths[m]);
                    if (want > 50.0) continue; /* opaque either way: exp(-50) */
                    double err = fabs(got - want) / fmax(want, 1e-6);
                    if (err > worst) worst = err;
                    CHECK(err < 2e-3, "layers %u eye %g dir (%g %g) %g m: closed form %g, integral %g", l,
                          eyes[e][1], dirs[d][0], dirs[d][1], lengths[m], got, want);
                    cases++;
                }
    fprintf(stderr, "fog: the closed form within %.2g of the integral over %d rays\n", worst, cases);
    /* Henyey-Greenstein integrates to 1 over the sphere */
    for (float g = 0.0f; g < 0.95f; g += 0.3f) {
        double sum = 0.0;
        const int n = 100000;
        for (int i = 0; i < n; i++) {
            double c = -1.0 + (i + 0.5) * 2.0 / n;
            sum += gn_fog_phase(g, (float)c) * 2.0 * 3.14159265358979 * 2.0 / n;
        }
        CHECK(fabs(sum - 1.0) < 1e-3, "phase g %g integrates to %g", g, sum);
    }
    /* a thick fog hides what is behind and shows the light's colour */
    const float eye[3] = {0, 1, 0}, dir[3] = {1, 0, 0}, key[3] = {0, 1, 0}, key_rgb[3] = {100, 80, 60},
                amb[3] = {1, 2, 3};
    float rgb[3], T;
    gn_fog_inscatter(layers[0], eye, dir, 5000.0f, 0.9f, 0.6f, key, key_rgb, amb, rgb, &T);
    float phase = gn_fog_phase(0.6f, 0.0f);
    CHECK(T < 1e-6f, "5 km of ground fog passes %g", T);
    for (int c = 0; c < 3; c++)
        CHECK(fabsf(rgb[c] - 0.9f * (key_rgb[c] * phase + amb[c])) < 1e-3f * rgb[c],
              "thick fog channel %d %g", c, rgb[c]);
    gn_fog_inscatter(layers[0], eye, dir, 0.0f, 0.9f, 0.6f, key, key_rgb, amb, rgb, &T);
    CHECK(T == 1.0f && rgb[0] == 0.0f, "no distance: T %g, light %g", T, rgb[0]);
    return gn_check_exit();
}

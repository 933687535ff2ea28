/* Local lights: the windowed falloff (inverse square near the light, exactly 0 from the radius
 * on, monotonic and continuous), the spot cone, gn_light_pack's defaults, and the radiance
 * against a hand computation. */
#include <math.h>

#include "check.h"
#include "decide/lights.h"

#define DEG 0.017453292519943295

static void test_falloff(void)
{
    const float radii[] = {0.5f, 3.0f, 10.0f, 40.0f, 500.0f};
    for (int ri = 0; ri < 5; ri++) {
        float r = radii[ri];
        /* Near the light (d <= r / 10, where the window is within 2e-4 of 1) it is 1/(d^2+1). */
        for (int i = 0; i <= 100; i++) {
            float d = r * 0.1f * (float)i / 100.0f;
            float f = gn_light_falloff(d, r), want = 1.0f / (d * d + 1.0f);
            CHECK(fabsf(f - want) <= 2.1e-4f * want, "r %g d %g: falloff %g, want 1/(d^2+1) = %g +- 0.02%%",
                  r, d, f, want);
        }
        CHECK(gn_light_falloff(0.0f, r) == 1.0f, "r %g: falloff(0) = %g, want 1", r,
              gn_light_falloff(0.0f, r));
        /* Exactly zero at the radius and beyond. */
        const float beyond[] = {1.0f, 1.0000001f, 1.001f, 1.5f, 2.0f, 1000.0f};
        for (int i = 0; i < 6; i++) {
            float f = gn_light_falloff(r * beyond[i], r);
            CHECK(f == 0.0f, "r %g: falloff(%g r) = %g, want exactly 0", r, beyond[i], f);
        }
        /* Monotonic and continuous: it never rises between samples 1e-5 r apart, and no step
         * is larger than the steepest slope allows (|f'| <= 2 d + 4/r bounds the derivative
         * of both factors, so a step <= (2 r + 4 / r) 1e-5 r, +1e-6 for rounding). */
        const int steps = 120000;
        float prev = gn_light_falloff(0.0f, r), max_jump = 0.0f;
        int non_monotonic = 0;
        for (int i = 1; i <= steps; i++) {
            float d = r * 1.2f * (float)i / (float)steps;
            float f = gn_light_falloff(d, r);
            if (!(f <= prev)) non_monotonic++;
            if (prev - f > max_jump) max_jump = prev - f;
            prev = f;
        }
        float h = r * 1.2f / (float)steps, bound = (2.0f * r + 4.0f / r) * h + 1e-6f;
        CHECK(non_monotonic == 0, "r %g: %d samples where the falloff rises", r, non_monotonic);
        /* Strictly decreasing at a coarser step (float cannot resolve 1e-5 r near d = 0). */
        int flat = 0;
        for (int i = 1; i < 1000; i++)
            if (!(gn_light_falloff(r * (float)i / 1000.0f, r) <
                  gn_light_falloff(r * (float)(i - 1) / 1000.0f, r)))
                flat++;
        CHECK(flat == 0, "r %g: %d of 1000 steps of r/1000 where the falloff does not fall", r, flat);
        CHECK(max_jump <= bound, "r %g: largest step %g between samples %g apart, want <= %g", r, max_jump, h,
              bound);
    }
}

static void test_spot(void)
{
    float co = (float)cos(30 * DEG), ci = (float)cos(20 * DEG);
    for (int deg = 0; deg <= 20; deg++)
        CHECK(gn_light_spot((float)cos(deg * DEG), co, ci) == 1.0f,
              "%d deg (inside inner 20): spot %g, want 1", deg, gn_light_spot((float)cos(deg * DEG), co, ci));
    for (int deg = 30; deg <= 180; deg++)
        CHECK(gn_light_spot((float)cos(deg * DEG), co, ci) == 0.0f,
              "%d deg (outside outer 30): spot %g, want 0", deg,
              gn_light_spot((float)cos(deg * DEG), co, ci));
    float prev = 1.0f;
    int bad = 0;
    for (int i = 0; i <= 18000; i++) { /* 0..180 degrees in 0.01 degree steps: never rises */
        float s = gn_light_spot((float)cos(i * 0.01 * DEG), co, ci);
        if (s > prev || s < 0.0f || s > 1.0f) bad++;
        prev = s;
    }
    CHECK(bad == 0, "spot not monotonic in [0,1] at %d angles", bad);
    /* Half way in cosine: smoothstep(0.5) = 0.5. */
    float mid = gn_light_spot(0.5f * (co + ci), co, ci);
    CHECK(fabsf(mid - 0.5f) < 1e-4f, "spot half way = %g, want 0.5", mid);
}

static void test_pack(void)
{
    gn_light_desc d = {.type = GN_LIGHT_SPOT,
                       .position = {1, 2, 3},
                       .direction = {0, 0, -2},
                       .radius = 8.0f,
                       .intensity = 5.0f};
    gn_gpu_light l;
    gn_light_pack(&d, -1, &l);
    for (int c = 0; c < 3; c++) {
        CHECK(l.color_type[c] == 5.0f, "colour 0 -> white * intensity: [%d] = %g, want 5", c,
              l.color_type[c]);
        CHECK(l.position_radius[c] == d.position[c], "position [%d] = %g", c, l.position_radius[c]);
    }
    CHECK(l.position_radius[3] == 8.0f, "radius %g, want 8", l.position_radius[3]);
    CHECK(l.color_type[3] == (float)GN_LIGHT_TYPE_SPOT, "type %g, want spot", l.color_type[3]);
    CHECK(l.direction_cos[0] == 0.0f && l.direction_cos[1] == 0.0f && l.direction_cos[2] == -1.0f,
          "direction normalised: (%g %g %g), want (0 0 -1)", l.direction_cos[0], l.direction_cos[1],
          l.direction_cos[2]);
    CHECK(fabsf(l.direction_cos[3] - (float)cos(30 * DEG)) < 1e-6f, "cos outer %g, want cos 30",
          l.direction_cos[3]);
    CHECK(fabsf(l.params[0] - (float)cos(20 * DEG)) < 1e-6f, "cos inner %g, want cos 20", l.params[0]);
    CHECK(fabsf(l.params[2] - (float)sin(30 * DEG)) < 1e-6f, "sin outer %g, want sin 30", l.params[2]);
    CHECK(l.params[1] == -1.0f, "shadow layer %g, want -1", l.params[1]);

    gn_light_desc p = {.type = GN_LIGHT_POINT,
                       .radius = 2.0f,
                       .color = {1.0f, 0.5f, 0.25f},
                       .intensity = 4.0f,
                       .inner_angle = 10.0f,
                       .outer_angle = 15.0f};
    gn_light_pack(&p, 3, &l);
    CHECK(l.color_type[0] == 4.0f && l.color_type[1] == 2.0f && l.color_type[2] == 1.0f,
          "colour * intensity (%g %g %g), want (4 2 1)", l.color_type[0], l.color_type[1], l.color_type[2]);
    CHECK(l.color_type[3] == (float)GN_LIGHT_TYPE_POINT, "type %g, want point", l.color_type[3]);
    CHECK(l.direction_cos[0] == 0.0f && l.direction_cos[1] == -1.0f && l.direction_cos[2] == 0.0f,
          "zero direction -> (0 -1 0): (%g %g %g)", l.direction_cos[0], l.direction_cos[1],
          l.direction_cos[2]);
    CHECK(fabsf(l.direction_cos[3] - (float)cos(15 * DEG)) < 1e-6f &&
              fabsf(l.params[0] - (float)cos(10 * DEG)) < 1e-6f,
          "explicit angles: cos outer %g, cos inner %g", l.direction_cos[3], l.params[0]);
    CHECK(l.params[1] == 3.0f, "shadow layer %g, want 3", l.params[1]);

    /* An inner angle at or past the outer one is pulled inside, so smoothstep's edges stay apart;
     * a narrow outer angle with the default inner keeps the 2/3 proportion. */
    gn_light_desc bad = {.type = GN_LIGHT_SPOT, .radius = 1.0f, .inner_angle = 40.0f, .outer_angle = 30.0f};
    gn_light_pack(&bad, -1, &l);
    CHECK(l.params[0] > l.direction_cos[3], "inner 40 > outer 30: cos inner %g must exceed cos outer %g",
          l.params[0], l.direction_cos[3]);
    gn_light_desc narrow = {.type = GN_LIGHT_SPOT, .radius = 1.0f, .outer_angle = 9.0f};
    gn_light_pack(&narrow, -1, &l);
    CHECK(fabsf(l.params[0] - (float)cos(6 * DEG)) < 1e-6f,
          "outer 9, inner default: cos inner %g, want cos 6", l.params[0]);
    gn_light_desc zero_radius = {.type = GN_LIGHT_POINT};
    gn_light_pack(&zero_radius, -1, &l);
    CHECK(l.position_radius[3] > 0.0f, "radius 0 packs as %g, want > 0", l.position_radius[3]);
}

static void test_radiance(void)
{
    /* Point light 2 m above p: falloff (1 - (2/5)^4)^2 / (4 + 1). */
    gn_light_desc d = {.type = GN_LIGHT_POINT,
                       .position = {1, 3, -1},
                       .radius = 5.0f,
                       .color = {1, 0.5f, 0},
                       .intensity = 10.0f};
    gn_gpu_light l;
    gn_light_pack(&d, -1, &l);
    float p[3] = {1, 1, -1}, rgb[3], to[3];
    gn_light_radiance(&l, p, rgb, to);
    double x4 = pow(2.0 / 5.0, 4), f = (1 - x4) * (1 - x4) / 5.0;
    CHECK(fabs(rgb[0] - 10 * f) < 1e-5 && fabs(rgb[1] - 5 * f) < 1e-5 && rgb[2] == 0.0f,
          "point: (%g %g %g), want (%g %g 0)", rgb[0], rgb[1], rgb[2], 10 * f, 5 * f);
    CHECK(to[0] == 0.0f && to[1] == 1.0f && to[2] == 0.0f, "to light (%g %g %g), want (0 1 0)", to[0], to[1],
          to[2]);

    /* Spot at the origin pointing down -Z (inner 20, outer 30); p 25 degrees off the axis, 3 m
     * away: spot = smoothstep(cos 30, cos 20, cos 25). */
    gn_light_desc s = {.type = GN_LIGHT_SPOT, .direction = {0, 0, -1}, .radius = 10.0f, .intensity = 2.0f};
    gn_light_pack(&s, -1, &l);
    double a = 25 * DEG;
    float q[3] = {(float)(3 * sin(a)), 0.0f, (float)(-3 * cos(a))};
    gn_light_radiance(&l, q, rgb, to);
    double t = (cos(a) - cos(30 * DEG)) / (cos(20 * DEG) - cos(30 * DEG)), spot = t * t * (3 - 2 * t);
    double x = pow(0.3, 4), want = 2.0 * (1 - x) * (1 - x) / (9.0 + 1.0) * spot;
    CHECK(spot > 0.1 && spot < 0.9, "hand spot %g should be partial", spot);
    for (int c = 0; c < 3; c++)
        CHECK(fabs(rgb[c] - want) < 1e-5 * want + 1e-7, "spot [%d]: %g, want %g", c, rgb[c], want);
    CHECK(fabs(to[0] + sin(a)) < 1e-6 && fabs(to[2] - cos(a)) < 1e-6, "to light (%g %g %g)", to[0], to[1],
          to[2]);
    /* Outside the cone and beyond the radius: nothing. */
    float behind[3] = {0, 0, 3}, far[3] = {0, 0, -10};
    gn_light_radiance(&l, behind, rgb, to);
    CHECK(rgb[0] == 0.0f, "behind the spot: %g, want 0", rgb[0]);
    gn_light_radiance(&l, far, rgb, to);
    CHECK(rgb[0] == 0.0f, "at the radius on the axis: %g, want 0", rgb[0]);
    /* At the light itself: full colour, no direction. */
    gn_light_pack(&d, -1, &l);
    gn_light_radiance(&l, d.position, rgb, to);
    CHECK(rgb[0] == 10.0f && to[0] == 0.0f && to[1] == 0.0f && to[2] == 0.0f,
          "at the light: rgb %g (want 10), to light (%g %g %g) (want 0)", rgb[0], to[0], to[1], to[2]);
}

int main(void)
{
    test_falloff();
    test_spot();
    test_pack();
    test_radiance();
    return gn_check_exit();
}

/* Quake 3 fog volumes (decide/q3_fog.c) against hand-worked values: a 2 m box and a wedge cut from
 * it, rays from outside and inside, a miss, a ray along a face and one touching an edge, the curve
 * at none, half and past the opaque distance, the sky's ray to infinity, the side cap and the
 * refusals. */
#include <math.h>

#include "check.h"
#include "decide/q3_fog.h"

#define NEAR(a, b, tol) (fabsf((a) - (b)) <= (tol))

/* The cube [0, 2]^3 as a brush's six sides, then any extra slanted ones. */
static uint32_t cube_sides(float s[][4])
{
    static const float c[6][4] = {{1, 0, 0, 2},  {-1, 0, 0, 0}, {0, 1, 0, 2},
                                  {0, -1, 0, 0}, {0, 0, 1, 2},  {0, 0, -1, 0}};
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 4; k++) s[i][k] = c[i][k];
    return 6;
}

/* opaque_units: Quake units; 39.37008 of them are a metre */
static gn_q3_fog_volume make(const float (*sides)[4], uint32_t n, float opaque_units)
{
    gn_q3_fog_desc d = {
        .sides = sides, .side_count = n, .color = {0.5f, 1.0f, 0.0f}, .opaque_units = opaque_units};
    gn_q3_fog_volume v;
    char why[128] = "";
    CHECK(gn_q3_fog_volume_make(&d, &v, why, sizeof why), "refused: %s", why);
    return v;
}

static void test_box(void)
{
    float s[6][4];
    gn_q3_fog_volume v = make((const float(*)[4])s, cube_sides(s), 8.0f * 39.37008f); /* opaque at 8 m */
    CHECK(NEAR(v.opaque, 8.0f, 1e-4f), "opaque %f m, want 8", v.opaque);
    CHECK(v.plane_count == 0, "%u planes: a box's sides are all axial", v.plane_count);
    for (int k = 0; k < 3; k++)
        CHECK(NEAR(v.box_min[k], 0.0f, 1e-5f) && NEAR(v.box_max[k], 2.0f, 1e-5f), "axis %d: %f..%f", k,
              v.box_min[k], v.box_max[k]);
    /* colour: 0.5 as sRGB is 0.21404 linear; 1 and 0 stay */
    CHECK(NEAR(v.color[0], 0.21404f, 1e-4f) && v.color[1] == 1.0f && v.color[2] == 0.0f, "colour %f %f %f",
          v.color[0], v.color[1], v.color[2]);

    /* eye outside, through the whole box: 2 m of 8, sqrt(1/4) = 0.5 */
    float eye[3] = {-1, 1, 1}, far[3] = {3, 1, 1};
    CHECK(NEAR(gn_q3_fog_factor(&v, eye, far), 0.5f, 1e-5f), "through: %f, want 0.5",
          gn_q3_fog_factor(&v, eye, far));
    /* ... to a point inside, 0.5 m in: sqrt(0.5/8) = 0.25 */
    float mid[3] = {0.5f, 1, 1};
    CHECK(NEAR(gn_q3_fog_factor(&v, eye, mid), 0.25f, 1e-5f), "to inside: %f, want 0.25",
          gn_q3_fog_factor(&v, eye, mid));
    /* eye inside at the centre, to a point 4 m away: 1 m in, sqrt(1/8) */
    float centre[3] = {1, 1, 1}, out[3] = {5, 1, 1};
    CHECK(NEAR(gn_q3_fog_factor(&v, centre, out), sqrtf(0.125f), 1e-5f), "from inside: %f, want %f",
          gn_q3_fog_factor(&v, centre, out), sqrtf(0.125f));
    /* a diagonal from inside: (1,1,1) to (2,2,2) is sqrt(3) m */
    float corner[3] = {2, 2, 2};
    CHECK(NEAR(gn_q3_fog_inside(&v, centre, (float[3]){1, 1, 1}, 1.0f), sqrtf(3.0f), 1e-5f), "diagonal %f",
          gn_q3_fog_inside(&v, centre, (float[3]){1, 1, 1}, 1.0f));
    CHECK(NEAR(gn_q3_fog_factor(&v, centre, corner), sqrtf(sqrtf(3.0f) / 8.0f), 1e-5f), "diagonal factor");
    /* a miss: 1 m above the box */
    float above0[3] = {-1, 3, 1}, above1[3] = {3, 3, 1};
    CHECK(gn_q3_fog_factor(&v, above0, above1) == 0.0f, "miss: %f", gn_q3_fog_factor(&v, above0, above1));
    /* stopping short of the box: nothing */
    float short_of[3] = {-0.5f, 1, 1};
    CHECK(gn_q3_fog_factor(&v, eye, short_of) == 0.0f, "short: %f", gn_q3_fog_factor(&v, eye, short_of));
    /* grazing: touching only the edge x = y = 2 (the line x + y = 4) gathers nothing ... */
    float g0[3] = {1, 3, 1}, g1[3] = {3, 1, 1};
    CHECK(gn_q3_fog_inside(&v, g0, (float[3]){2, -2, 0}, 1.0f) == 0.0f, "edge: %f",
          gn_q3_fog_inside(&v, g0, (float[3]){2, -2, 0}, 1.0f));
    CHECK(gn_q3_fog_factor(&v, g0, g1) == 0.0f, "edge factor");
    /* ... and a ray along the top face counts as inside (closed volume): 2 m */
    float f0[3] = {-1, 2, 1}, f1[3] = {3, 2, 1};
    CHECK(NEAR(gn_q3_fog_inside(&v, f0, (float[3]){4, 0, 0}, 1.0f), 2.0f, 1e-5f), "along the face: %f",
          gn_q3_fog_inside(&v, f0, (float[3]){4, 0, 0}, 1.0f));
    CHECK(NEAR(gn_q3_fog_factor(&v, f0, f1), 0.5f, 1e-5f), "along the face factor");
    /* the sky's ray: from the centre straight up to infinity, 1 m of fog */
    CHECK(NEAR(gn_q3_fog_inside(&v, centre, (float[3]){0, 1, 0}, 1e9f), 1.0f, 1e-4f), "to the sky: %f",
          gn_q3_fog_inside(&v, centre, (float[3]){0, 1, 0}, 1e9f));
    /* from outside, looking away from the box: nothing */
    CHECK(gn_q3_fog_inside(&v, eye, (float[3]){-1, 0, 0}, 1e9f) == 0.0f, "away");
}

static void test_curve(void)
{
    CHECK(gn_q3_fog_curve(0.0f, 4.0f) == 0.0f, "none: %f", gn_q3_fog_curve(0.0f, 4.0f));
    /* half a millimetre (a surface on the volume's face, give or take float error): none */
    CHECK(gn_q3_fog_curve(5e-4f, 4.0f) == 0.0f && gn_q3_fog_curve(2e-3f, 4.0f) > 0.02f, "a millimetre: %f %f",
          gn_q3_fog_curve(5e-4f, 4.0f), gn_q3_fog_curve(2e-3f, 4.0f));
    CHECK(NEAR(gn_q3_fog_curve(2.0f, 4.0f), 0.70710678f, 1e-6f), "half: %f", gn_q3_fog_curve(2.0f, 4.0f));
    CHECK(NEAR(gn_q3_fog_curve(1.0f, 4.0f), 0.5f, 1e-6f), "quarter: %f", gn_q3_fog_curve(1.0f, 4.0f));
    CHECK(gn_q3_fog_curve(4.0f, 4.0f) == 1.0f, "at opaque: %f", gn_q3_fog_curve(4.0f, 4.0f));
    CHECK(gn_q3_fog_curve(40.0f, 4.0f) == 1.0f, "beyond: %f", gn_q3_fog_curve(40.0f, 4.0f));
    CHECK(gn_q3_fog_curve(NAN, 4.0f) == 0.0f && gn_q3_fog_curve(1.0f, 0.0f) == 0.0f, "degenerate");
    /* through a whole 2 m box whose fog is opaque at 1 m (39.37008 units): fully covered */
    float s[6][4];
    gn_q3_fog_volume v = make((const float(*)[4])s, cube_sides(s), 39.37008f);
    CHECK(NEAR(v.opaque, 1.0f, 1e-5f), "opaque %f", v.opaque);
    float a[3] = {-1, 1, 1}, b[3] = {3, 1, 1}, half[3] = {0.5f, 1, 1};
    CHECK(gn_q3_fog_factor(&v, a, b) == 1.0f, "opaque box %f", gn_q3_fog_factor(&v, a, b));
    CHECK(NEAR(gn_q3_fog_factor(&v, a, half), 0.70710678f, 1e-5f), "half in %f",
          gn_q3_fog_factor(&v, a, half));
    /* a distance under a unit is the game's floor of one unit */
    gn_q3_fog_volume z = make((const float(*)[4])s, 6, 0.0f);
    CHECK(NEAR(z.opaque, 1.0f / 39.37008f, 1e-7f), "floor %f", z.opaque);
}

static void test_wedge(void)
{
    /* the cube cut by x + y <= 2: a slanted side, normal (1,1,0)/sqrt2 at distance sqrt2 */
    float s[7][4];
    cube_sides(s);
    float r = 1.0f / sqrtf(2.0f);
    s[6][0] = r, s[6][1] = r, s[6][2] = 0, s[6][3] = sqrtf(2.0f);
    gn_q3_fog_volume v = make((const float(*)[4])s, 7, 39.37008f * 100.0f);
    CHECK(v.plane_count == 1 && v.dropped == 0, "%u planes, %u dropped", v.plane_count, v.dropped);
    CHECK(NEAR(v.box_max[0], 2.0f, 1e-5f) && NEAR(v.box_max[1], 2.0f, 1e-5f), "bounds %f %f", v.box_max[0],
          v.box_max[1]);
    /* along x at y = 1.5: inside for x in [0, 0.5] */
    float o[3] = {-1, 1.5f, 1};
    CHECK(NEAR(gn_q3_fog_inside(&v, o, (float[3]){4, 0, 0}, 1.0f), 0.5f, 1e-5f), "wedge %f",
          gn_q3_fog_inside(&v, o, (float[3]){4, 0, 0}, 1.0f));
    /* the corner (2, 2) the box holds is outside the wedge */
    float c0[3] = {1.8f, 1.8f, -1};
    CHECK(gn_q3_fog_inside(&v, c0, (float[3]){0, 0, 4}, 1.0f) == 0.0f, "cut corner %f",
          gn_q3_fog_inside(&v, c0, (float[3]){0, 0, 4}, 1.0f));
}

static void test_caps(void)
{
    /* a 24-sided prism about y: 4 of its sides are axial, 20 slanted; 16 kept, 4 dropped */
    float s[26][4];
    for (int i = 0; i < 24; i++) {
        float a = (float)i * 6.28318531f / 24.0f;
        s[i][0] = cosf(a), s[i][1] = 0, s[i][2] = sinf(a), s[i][3] = 1;
        if (i % 6 == 0) s[i][0] = roundf(s[i][0]), s[i][2] = roundf(s[i][2]); /* exactly axial */
    }
    s[24][0] = 0, s[24][1] = 1, s[24][2] = 0, s[24][3] = 1;
    s[25][0] = 0, s[25][1] = -1, s[25][2] = 0, s[25][3] = 1;
    gn_q3_fog_volume v = make((const float(*)[4])s, 26, 100.0f);
    CHECK(v.plane_count == 16 && v.dropped == 4, "%u planes, %u dropped", v.plane_count, v.dropped);
    CHECK(NEAR(v.box_max[0], 1.0f, 1e-4f) && NEAR(v.box_min[2], -1.0f, 1e-4f), "prism bounds %f %f",
          v.box_max[0], v.box_min[2]);
    /* refusals: too few sides, a side not finite, sides that enclose nothing */
    gn_q3_fog_volume out;
    char why[128];
    gn_q3_fog_desc d = {.sides = (const float(*)[4])s, .side_count = 3, .opaque_units = 100};
    CHECK(!gn_q3_fog_volume_make(&d, &out, why, sizeof why), "3 sides accepted");
    float bad[6][4];
    cube_sides(bad);
    bad[2][3] = NAN;
    d.sides = (const float(*)[4])bad, d.side_count = 6;
    CHECK(!gn_q3_fog_volume_make(&d, &out, why, sizeof why), "NaN side accepted");
    cube_sides(bad);
    bad[1][3] = -3.0f; /* x >= 3 and x <= 2 */
    CHECK(!gn_q3_fog_volume_make(&d, &out, why, sizeof why), "empty brush accepted");
    printf("empty brush: %s\n", why);
    cube_sides(bad);
    d.opaque_units = INFINITY;
    CHECK(!gn_q3_fog_volume_make(&d, &out, why, sizeof why), "infinite distance accepted");
    d.side_count = GN_Q3_FOG_MAX_SIDES + 1;
    CHECK(!gn_q3_fog_volume_make(&d, &out, why, sizeof why), "too many sides accepted");
}

int main(void)
{
    test_box();
    test_curve();
    test_wedge();
    test_caps();
    CHECK(NEAR(gn_q3_fog_srgb_to_linear(0.5f), 0.21404f, 1e-4f) && gn_q3_fog_srgb_to_linear(2.0f) == 1.0f &&
              gn_q3_fog_srgb_to_linear(-1.0f) == 0.0f,
          "sRGB decode");
    return gn_check_exit();
}

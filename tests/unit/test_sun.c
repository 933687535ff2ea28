/* Sun and moon geometry against known positions and phases, their light through the air, and the sky's
 * summary. */
#include <math.h>

#include "check.h"
#include "decide/sun.h"

#define DEG 0.017453292519943295

static void check_consistent(const gn_sun *s, float hours, float lat, uint32_t day)
{
    const float *d = s->direction;
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    CHECK(fabsf(len - 1.0f) < 1e-5f, "%gh lat %g day %u: |direction| = %g, want 1 +- 1e-5", hours, lat, day,
          len);
    float sy = (float)sin(s->elevation_deg * DEG);
    CHECK(fabsf(d[1] - sy) < 1e-5f, "%gh: direction.y %g vs sin(elevation) %g (1e-5)", hours, d[1], sy);
    /* Azimuth from north (-Z) clockwise seen from above, towards east (+X). */
    if (fabsf(d[1]) < 0.999f) {
        float ce = (float)cos(s->elevation_deg * DEG), az = (float)(s->azimuth_deg * DEG);
        CHECK(fabsf(d[0] - ce * sinf(az)) < 1e-4f && fabsf(-d[2] - ce * cosf(az)) < 1e-4f,
              "%gh: direction (%g,%g,%g) disagrees with azimuth %g", hours, d[0], d[1], d[2], s->azimuth_deg);
    }
    CHECK(s->azimuth_deg >= 0.0f && s->azimuth_deg < 360.0f, "azimuth %g outside [0,360)", s->azimuth_deg);
}

static void test_geometry(void)
{
    gn_sun s;
    gn_sun_compute(12.0f, 0.0f, 80, &s);
    CHECK(fabsf(s.elevation_deg - 90.0f) < 1.5f, "equinox equator noon elevation %g, want 90 +- 1.5",
          s.elevation_deg);
    gn_sun_compute(12.0f, 45.0f, 80, &s);
    CHECK(fabsf(s.elevation_deg - 45.0f) < 1.5f, "equinox lat 45 noon elevation %g, want 45 +- 1.5",
          s.elevation_deg);
    CHECK(fabsf(s.azimuth_deg - 180.0f) < 1.0f, "lat 45 noon azimuth %g, want 180 (south) +- 1",
          s.azimuth_deg);
    gn_sun_compute(12.0f, -45.0f, 80, &s);
    CHECK(s.azimuth_deg < 1.0f || s.azimuth_deg > 359.0f, "lat -45 noon azimuth %g, want 0 (north) +- 1",
          s.azimuth_deg);
    gn_sun_compute(12.0f, 45.0f, 172, &s);
    CHECK(fabsf(s.elevation_deg - 68.44f) < 1.5f, "June solstice lat 45 noon elevation %g, want 68.4 +- 1.5",
          s.elevation_deg);
    gn_sun_compute(12.0f, 45.0f, 355, &s);
    CHECK(fabsf(s.elevation_deg - 21.56f) < 1.5f,
          "December solstice lat 45 noon elevation %g, want 21.6 +- 1.5", s.elevation_deg);
    gn_sun_compute(6.0f, 0.0f, 80, &s);
    CHECK(fabsf(s.azimuth_deg - 90.0f) < 20.0f, "equinox equator 6h azimuth %g, want 90 (east) +- 20",
          s.azimuth_deg);
    CHECK(fabsf(s.elevation_deg) < 1.5f, "equinox equator 6h elevation %g, want 0 +- 1.5", s.elevation_deg);
    for (float lat = -60.0f; lat <= 60.0f; lat += 30.0f)
        for (uint32_t day = 1; day <= 365; day += 91) {
            gn_sun_compute(9.0f, lat, day, &s);
            CHECK(s.azimuth_deg > 0.0f && s.azimuth_deg < 180.0f,
                  "9h lat %g day %u azimuth %g, want in (0,180)", lat, day, s.azimuth_deg);
            check_consistent(&s, 9.0f, lat, day);
            gn_sun_compute(15.0f, lat, day, &s);
            CHECK(s.azimuth_deg > 180.0f && s.azimuth_deg < 360.0f,
                  "15h lat %g day %u azimuth %g, want in (180,360)", lat, day, s.azimuth_deg);
            check_consistent(&s, 15.0f, lat, day);
            gn_sun_compute(1.5f, lat, day, &s);
            check_consistent(&s, 1.5f, lat, day);
        }
    /* Symmetric about solar noon. */
    gn_sun a, b;
    gn_sun_compute(9.0f, 30.0f, 120, &a);
    gn_sun_compute(15.0f, 30.0f, 120, &b);
    CHECK(fabsf(a.elevation_deg - b.elevation_deg) < 1e-3f &&
              fabsf(a.azimuth_deg + b.azimuth_deg - 360.0f) < 1e-3f,
          "9h (%g, %g) and 15h (%g, %g) not mirror images", a.elevation_deg, a.azimuth_deg, b.elevation_deg,
          b.azimuth_deg);
}

/* The equator at the equinox: elevation = 90 - 15 |hours - 12| to within the 0.4 degree
 * declination, so a morning hour picks an elevation. */
static void sun_at(float elevation_deg, gn_sun *s)
{
    gn_sun_compute(6.0f + elevation_deg / 15.0f, 0.0f, 80, s);
}

static float luma(const float c[3]) { return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2]; }

/* The colour and illuminance come from the atmosphere's transmittance (decide/atmosphere.c). */
static void test_colour(void)
{
    gn_sun s;
    sun_at(90.0f, &s);
    CHECK(fabsf(luma(s.color) - 1.0f) < 1e-4f, "colour luminance %g, want 1", luma(s.color));
    float mx = fmaxf(s.color[0], fmaxf(s.color[1], s.color[2]));
    CHECK(mx > 1.0f && mx < 1.15f && s.color[2] > 0.8f, "noon colour (%g,%g,%g) not a near white", s.color[0],
          s.color[1], s.color[2]);
    /* Hillaire's Earth passes ~88% of the overhead sun's light */
    CHECK(s.illuminance > 100000.0f && s.illuminance < 120000.0f, "noon illuminance %g, want 100..120 klux",
          s.illuminance);
    CHECK(s.top_illuminance == GN_SUN_ILLUMINANCE && s.phase == 1.0f, "top %g phase %g", s.top_illuminance,
          s.phase);
    float prev_ratio = 1e30f, prev_e = 0.0f;
    for (float e = 1.0f; e <= 89.0f; e += 4.0f) {
        sun_at(e, &s);
        float ratio = s.color[0] / s.color[2];
        CHECK(ratio < prev_ratio, "elevation %g: r/b %g not below %g at the lower sun", s.elevation_deg,
              ratio, prev_ratio);
        CHECK(s.illuminance > prev_e, "elevation %g: illuminance %g not above %g", s.elevation_deg,
              s.illuminance, prev_e);
        prev_ratio = ratio, prev_e = s.illuminance;
    }
    gn_sun low, high;
    sun_at(5.0f, &low);
    sun_at(60.0f, &high);
    CHECK(low.color[0] / low.color[2] > 2.0f * high.color[0] / high.color[2],
          "r/b at 5 deg %g, at 60 deg %g: want > 2x", low.color[0] / low.color[2],
          high.color[0] / high.color[2]);
    /* Sunset is orange-red: red dominates, green at most about half of red, blue least. */
    sun_at(1.0f, &s);
    CHECK(s.color[0] > 2.0f * s.color[1] && s.color[1] > s.color[2], "1 deg colour (%g,%g,%g) not orange-red",
          s.color[0], s.color[1], s.color[2]);
    /* Illuminance: 0 at midnight and once the disc has set, fading smoothly and monotonically. */
    gn_sun_compute(0.0f, 45.0f, 172, &s);
    CHECK(s.illuminance == 0.0f, "midnight illuminance %g, want 0", s.illuminance);
    sun_at(-0.5f, &s);
    CHECK(s.illuminance == 0.0f, "elevation %g illuminance %g, want 0", s.elevation_deg, s.illuminance);
    float prev = 0.0f;
    for (float e = -1.0f; e <= 2.0f; e += 0.05f) {
        sun_at(e, &s);
        CHECK(s.illuminance >= prev && s.illuminance - prev < 0.01f * GN_SUN_ILLUMINANCE,
              "elevation %g: illuminance %g after %g (want rising by < 1%% per 0.05 deg)", s.elevation_deg,
              s.illuminance, prev);
        prev = s.illuminance;
    }
}

/* Against the 2026 almanac: full moon 3 Jan 10:03 UT, new moon 18 Jan 19:52 UT, first quarter
 * 26 Jan 04:47 UT (local solar time at longitude 0 is universal time). */
static void test_moon(void)
{
    gn_sun m, sun;
    gn_moon_compute(10.0f, 45.0f, 3, 2026, &m);
    CHECK(m.phase > 0.97f, "3 Jan 2026: phase %g, want full (> 0.97)", m.phase);
    CHECK(m.top_illuminance > 0.2f && m.top_illuminance <= GN_MOON_ILLUMINANCE * 1.001f,
          "full moon illuminance %g, want ~%g", m.top_illuminance, GN_MOON_ILLUMINANCE);
    check_consistent(&m, 10.0f, 45.0f, 3);
    gn_moon_compute(20.0f, 45.0f, 18, 2026, &m);
    CHECK(m.phase < 0.03f, "18 Jan 2026 20 h: phase %g, want new (< 0.03)", m.phase);
    gn_moon_compute(5.0f, 45.0f, 26, 2026, &m);
    CHECK(fabsf(m.phase - 0.5f) < 0.1f, "26 Jan 2026: phase %g, want a quarter (0.5 +- 0.1)", m.phase);
    CHECK(m.top_illuminance < 0.2f * GN_MOON_ILLUMINANCE, "quarter moon illuminance %g, want ~1/10 full",
          m.top_illuminance);
    /* the winter full moon stands high at midnight, opposite the sun, and is down at noon */
    gn_moon_compute(0.0f, 45.0f, 3, 2026, &m);
    CHECK(m.elevation_deg > 50.0f && fabsf(m.azimuth_deg - 180.0f) < 20.0f,
          "3 Jan midnight: moon at elevation %g azimuth %g, want high in the south", m.elevation_deg,
          m.azimuth_deg);
    gn_sun_compute(0.0f, 45.0f, 3, &sun);
    CHECK(gn_key_light(&sun, &m) == &m && m.illuminance > 0.1f, "midnight key light is not the moon (%g lux)",
          m.illuminance);
    gn_moon_compute(12.0f, 45.0f, 3, 2026, &m);
    CHECK(m.elevation_deg < -10.0f, "3 Jan noon: full moon elevation %g, want below the horizon",
          m.elevation_deg);
    gn_sun_compute(12.0f, 45.0f, 3, &sun);
    CHECK(gn_key_light(&sun, &m) == &sun, "noon key light is not the sun");
}

static gn_atmosphere atmo; /* static: ~200 KB */

static void test_sky(void)
{
    gn_atmo_params p;
    gn_atmo_earth(&p);
    gn_atmo_build(&p, &atmo);
    float r = p.bottom_km + 0.002f;
    gn_sun s, m;
    gn_sky day, dusk, night;
    gn_moon_compute(12.0f, 0.0f, 80, 2026, &m);
    sun_at(60.0f, &s);
    gn_sky_compute(&atmo, r, &s, &m, &day);
    sun_at(1.0f, &s);
    gn_sky_compute(&atmo, r, &s, &m, &dusk);
    gn_sun_compute(0.0f, 45.0f, 172, &s);
    gn_moon_compute(0.0f, 45.0f, 172, 2026, &m);
    gn_sky_compute(&atmo, r, &s, &m, &night);
    CHECK(day.zenith[2] > 1.5f * day.zenith[0], "day zenith (%g,%g,%g) not blue", day.zenith[0],
          day.zenith[1], day.zenith[2]);
    /* a clear day's sky is some thousands of nits: the zenith ~ 1..10 knits, the horizon brighter */
    CHECK(luma(day.zenith) > 1000.0f && luma(day.zenith) < 10000.0f && luma(day.horizon) > luma(day.zenith),
          "day zenith %g nits, horizon %g", luma(day.zenith), luma(day.horizon));
    CHECK(day.ambient_sky[2] > day.ambient_sky[0], "day ambient sky (%g,%g,%g) not bluish",
          day.ambient_sky[0], day.ambient_sky[1], day.ambient_sky[2]);
    CHECK(luma(dusk.zenith) < 0.2f * luma(day.zenith) && luma(dusk.zenith) > 0.0f,
          "sunset zenith %g nits vs day %g", luma(dusk.zenith), luma(day.zenith));
    for (int c = 0; c < 3; c++) {
        CHECK(night.zenith[c] >= 0.7f * GN_NIGHT_SKY_NITS && night.horizon[c] > 0.0f &&
                  night.ambient_sky[c] > 0.0f && night.ambient_ground[c] > 0.0f,
              "night channel %d is black: zenith %g horizon %g", c, night.zenith[c], night.horizon[c]);
    }
    CHECK(luma(night.zenith) < 1e-3f * luma(day.zenith), "night zenith luma %g not < 0.1%% of day %g",
          luma(night.zenith), luma(day.zenith));
    CHECK(luma(day.ambient_ground) < luma(day.ambient_sky) * 4.0f && luma(day.ambient_ground) > 0.0f,
          "day ground ambient %g vs sky %g implausible", luma(day.ambient_ground), luma(day.ambient_sky));
}

int main(void)
{
    test_geometry();
    test_colour();
    test_moon();
    test_sky();
    return gn_check_exit();
}

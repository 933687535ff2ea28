/* The sun's position from the textbook solar geometry (declination from the day of the year, hour
 * angle 15 degrees per hour from solar noon; no equation of time, no refraction); the moon's from
 * the Astronomical Almanac's low-precision lunar formulas (~0.3 degrees); the light of both at
 * the ground from the atmosphere's transmittance (decide/atmosphere.c), the same the sky and
 * the aerial perspective are made from, so the shadows' light and the sky agree. */
#include "decide/sun.h"

#include <math.h>
#include <string.h>

#define GN_PI 3.14159265358979323846
#define GN_DEG (GN_PI / 180.0)

static double gn_smoothstep(double e0, double e1, double x)
{
    double t = (x - e0) / (e1 - e0);
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return t * t * (3.0 - 2.0 * t);
}

static float luminance(const float c[3]) { return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2]; }

/* A body at declination decl and hour angle (radians) seen from latitude lat: its unit vector in
 * the world (+X east, +Y up, -Z north), elevation and azimuth. */
static void place(double lat, double decl, double hour_angle, gn_sun *out)
{
    double up = sin(lat) * sin(decl) + cos(lat) * cos(decl) * cos(hour_angle);
    double east = -cos(decl) * sin(hour_angle);
    double north = cos(lat) * sin(decl) - sin(lat) * cos(decl) * cos(hour_angle);
    double len = sqrt(up * up + east * east + north * north);
    up /= len, east /= len, north /= len;
    out->direction[0] = (float)east;
    out->direction[1] = (float)up;
    out->direction[2] = (float)-north; /* -Z is north */
    double elev = asin(up < -1.0 ? -1.0 : up > 1.0 ? 1.0 : up) / GN_DEG;
    double az = atan2(east, north) / GN_DEG;
    if (az < 0.0) az += 360.0;
    if (az >= 360.0) az -= 360.0;
    out->elevation_deg = (float)elev;
    out->azimuth_deg = (float)az;
}

/* The light at the ground: the air's transmittance from 1 m up towards the body (at the
 * horizon for a body below it: the colour stays the last sunset's while the disc sets), times
 * how much of the disc is up (radius in degrees). */
static void light(gn_sun *out, float top_illuminance, float radius_deg)
{
    gn_atmo_params p;
    gn_atmo_earth(&p);
    float mu = (float)sin(fmax(out->elevation_deg, 0.0f) * GN_DEG), t[3];
    gn_atmo_transmittance_direct(&p, p.bottom_km + GN_ATMO_MIN_ALTITUDE_KM, mu, GN_ATMO_TRANSMITTANCE_STEPS,
                                 t);
    float l = luminance(t);
    for (int c = 0; c < 3; c++) out->color[c] = l > 0.0f ? t[c] / l : 1.0f;
    out->top_illuminance = top_illuminance;
    out->illuminance =
        top_illuminance * l * (float)gn_smoothstep(-radius_deg, radius_deg, out->elevation_deg);
}

void gn_sun_compute(float hours, float latitude_deg, uint32_t day_of_year, gn_sun *out)
{
    memset(out, 0, sizeof *out);
    double decl = 23.44 * GN_DEG * sin(2.0 * GN_PI * (284.0 + (double)day_of_year) / 365.0);
    double hour_angle = 15.0 * GN_DEG * ((double)hours - 12.0); /* negative in the morning */
    place(latitude_deg * GN_DEG, decl, hour_angle, out);
    out->phase = 1.0f;
    light(out, GN_SUN_ILLUMINANCE, GN_SUN_RADIUS_DEG);
}

/* Ecliptic longitude and latitude (radians) to right ascension and declination. */
static void equatorial(double lon, double lat, double obliquity, double *ra, double *decl)
{
    double x = cos(lat) * cos(lon);
    double y = cos(obliquity) * cos(lat) * sin(lon) - sin(obliquity) * sin(lat);
    double z = sin(obliquity) * cos(lat) * sin(lon) + cos(obliquity) * sin(lat);
    *ra = atan2(y, x);
    *decl = asin(z < -1.0 ? -1.0 : z > 1.0 ? 1.0 : z);
}

void gn_moon_compute(float hours, float latitude_deg, uint32_t day_of_year, int year, gn_sun *out)
{
    memset(out, 0, sizeof *out);
    /* days from J2000.0 (2000 Jan 1, 12 h), local solar time taken as universal time: the
     * moon's place against the sun is what matters, and it moves 0.5 degrees an hour */
    int y = year;
    double days = 365.0 * (y - 2000) + (y > 2000 ? (y - 2001) / 4 + 1 : (y - 2000) / 4);
    days += (double)day_of_year - 1.0 + (double)hours / 24.0 - 0.5;
    double T = days / 36525.0;
#define S(a, b) sin(((a) + (b)*T) * GN_DEG)
    double lon = 218.32 + 481267.881 * T + 6.29 * S(135.0, 477198.87) - 1.27 * S(259.3, -413335.36) +
                 0.66 * S(235.7, 890534.22) + 0.21 * S(269.9, 954397.74) - 0.19 * S(357.5, 35999.05) -
                 0.11 * S(186.5, 966404.03);
    double lat = 5.13 * S(93.3, 483202.02) + 0.28 * S(228.2, 960400.89) - 0.28 * S(318.3, 6003.15) -
                 0.17 * S(217.6, -407332.21);
#undef S
    double g = (357.528 + 0.9856003 * days) * GN_DEG;
    double sun_lon = (280.460 + 0.9856474 * days + 1.915 * sin(g) + 0.020 * sin(2.0 * g)) * GN_DEG;
    double obliquity = (23.439 - 0.0000004 * days) * GN_DEG;
    double ra_m, decl_m, ra_s, decl_s;
    equatorial(lon * GN_DEG, lat * GN_DEG, obliquity, &ra_m, &decl_m);
    equatorial(sun_lon, 0.0, obliquity, &ra_s, &decl_s);
    /* the sun's hour angle is the solar time's; the moon's is behind it by their difference in
     * right ascension */
    double hour_angle = 15.0 * GN_DEG * ((double)hours - 12.0) + (ra_s - ra_m);
    place(latitude_deg * GN_DEG, decl_m, hour_angle, out);
    /* elongation from the sun; the phase angle is its supplement (the sun's distance is ~400x
     * the moon's); Allen's magnitude for the brightness */
    double cos_elong = cos(lat * GN_DEG) * cos(lon * GN_DEG - sun_lon);
    double phase_angle = 180.0 - acos(cos_elong < -1.0 ? -1.0 : cos_elong > 1.0 ? 1.0 : cos_elong) / GN_DEG;
    out->phase = (float)(0.5 * (1.0 - cos_elong));
    double mag = 0.026 * phase_angle + 4e-9 * pow(phase_angle, 4.0); /* beyond the full moon's */
    light(out, GN_MOON_ILLUMINANCE * (float)pow(10.0, -0.4 * mag), GN_MOON_RADIUS_DEG);
}

const gn_sun *gn_key_light(const gn_sun *sun, const gn_sun *moon)
{
    return moon && moon->illuminance > sun->illuminance ? moon : sun;
}

void gn_sky_lights(const gn_sun *sun, const gn_sun *moon, gn_atmo_light out[2])
{
    const gn_sun *b[2] = {sun, moon};
    for (int k = 0; k < 2; k++) {
        memcpy(out[k].dir, b[k]->direction, sizeof out[k].dir);
        out[k].illuminance = b[k]->top_illuminance;
        out[k].color[0] = out[k].color[1] = out[k].color[2] = 1.0f;
    }
}

void gn_sky_compute(const gn_atmosphere *a, float r_km, const gn_sun *sun, const gn_sun *moon, gn_sky *out)
{
    gn_atmo_light lights[2];
    gn_sky_lights(sun, moon, lights);
    const float up[3] = {0.0f, 1.0f, 0.0f};
    float l[3], t[3], h[3] = {0, 0, 0}, e[3] = {0, 0, 0};
    gn_atmo_sky_lights(a, r_km, up, lights, 0.0f, out->zenith, t);
    const float s3 = (float)sin(3.0 * GN_DEG), c3 = (float)cos(3.0 * GN_DEG);
    for (int i = 0; i < 8; i++) {
        double az = 2.0 * GN_PI * (i + 0.5) / 8.0;
        float dir[3] = {c3 * (float)cos(az), s3, c3 * (float)sin(az)};
        gn_atmo_sky_lights(a, r_km, dir, lights, 0.0f, l, t);
        for (int c = 0; c < 3; c++) h[c] += l[c] / 8.0f;
    }
    memcpy(out->horizon, h, sizeof h);
    /* the irradiance on an upward plane, over pi: the mean radiance of cosine-weighted
     * directions (4 rings of 8) */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) {
            float u = ((float)i + 0.5f) / 4.0f, st = sqrtf(u), ct = sqrtf(1.0f - u);
            double az = 2.0 * GN_PI * (j + 0.5 * (i & 1)) / 8.0;
            float dir[3] = {st * (float)cos(az), ct, st * (float)sin(az)};
            gn_atmo_sky_lights(a, r_km, dir, lights, 0.0f, l, t);
            for (int c = 0; c < 3; c++) e[c] += l[c] / 32.0f;
        }
    const gn_sun *b[2] = {sun, moon};
    const float tint[3] = GN_NIGHT_SKY_TINT;
    for (int c = 0; c < 3; c++) {
        float glow = GN_NIGHT_SKY_NITS * tint[c];
        out->zenith[c] += glow;
        out->horizon[c] += glow;
        out->ambient_sky[c] = e[c] + glow;
        float direct = 0.0f;
        for (int k = 0; k < 2; k++)
            direct += b[k]->color[c] * b[k]->illuminance * fmaxf(b[k]->direction[1], 0.0f);
        out->ground[c] = a->p.ground_albedo[c] * (direct / (float)GN_PI + out->ambient_sky[c]);
        out->ambient_ground[c] = out->ground[c];
    }
}

float gn_night_level(float elevation_deg)
{
    return (float)gn_smoothstep(GN_NIGHT_OFF_DEG, GN_NIGHT_ON_DEG, elevation_deg);
}

/* Sun position from the textbook solar geometry (declination from the day of the year, hour
 * angle 15 degrees per hour from solar noon; no equation of time, no refraction), colour from
 * per-channel Beer-Lambert extinction along the Kasten-Young air mass. */
#include "decide/sun.h"

#include <math.h>

#define GN_PI 3.14159265358979323846
#define GN_DEG (GN_PI / 180.0)

/* Extinction per air mass for R, G, B. Rayleigh scattering grows ~ lambda^-4, so blue goes
 * first: with these, the horizon sun (air mass ~38) is deep red, at 5 degrees (~10.4) orange,
 * and at the zenith (1) a slightly warm white. Hand-tuned, not measured. */
static const double gn_sun_k[3] = {0.05, 0.11, 0.25};

static double gn_smoothstep(double e0, double e1, double x)
{
    double t = (x - e0) / (e1 - e0);
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return t * t * (3.0 - 2.0 * t);
}

/* Kasten & Young (1989): relative optical air mass for a zenith angle in degrees; ~38 at the
 * horizon. Clamped at the horizon: below it only the fade to night matters. */
static double gn_airmass(double elevation_deg)
{
    double z = 90.0 - (elevation_deg > 0.0 ? elevation_deg : 0.0);
    return 1.0 / (cos(z * GN_DEG) + 0.50572 * pow(96.07995 - z, -1.6364));
}

void gn_sun_compute(float hours, float latitude_deg, uint32_t day_of_year, gn_sun *out)
{
    double decl = 23.44 * GN_DEG * sin(2.0 * GN_PI * (284.0 + (double)day_of_year) / 365.0);
    double hour_angle = 15.0 * GN_DEG * ((double)hours - 12.0); /* negative in the morning */
    double lat = latitude_deg * GN_DEG;
    /* The sun's unit vector in local east/north/up, rotating the equatorial frame by latitude. */
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
    /* Normalised by red's zenith transmittance so the noon sun's largest channel is ~1. */
    double m = gn_airmass(elev);
    for (int c = 0; c < 3; c++) out->color[c] = (float)exp(-gn_sun_k[c] * m + gn_sun_k[0]);
    /* The disc sets over ~0.5 degrees but twilight still lights the scene a little; fading over
     * 4 degrees avoids a pop at sunset. */
    out->illuminance = GN_SUN_ILLUMINANCE * (float)gn_smoothstep(-4.0, 0.0, elev);
}

void gn_sky_compute(const gn_sun *sun, gn_sky *out)
{
    /* Reference colours in GN_LIGHT_UNIT_NITS: clear-day sky luminance is a few percent of the
     * sun's illuminance (the zenith's green ~5,500 nits). Night is a moonlit dark blue in nits
     * (a clear moonlit sky is ~0.01-0.05 nits), so shadows are never pure black. */
    static const float day_zenith[3] = {0.06f, 0.14f, 0.40f}, day_horizon[3] = {0.25f, 0.32f, 0.45f};
    static const float night_zenith[3] = {0.010f, 0.015f, 0.040f};
    static const float night_horizon[3] = {0.020f, 0.025f, 0.050f};
    static const float sunset_glow[3] = {0.45f, 0.18f, 0.05f};
    const float unit = GN_LIGHT_UNIT_NITS;
    double e = sun->elevation_deg;
    float day = (float)gn_smoothstep(-8.0, 12.0, e);
    /* The warm band: strongest with the sun just on the horizon, gone by ~15 degrees up and a
     * little below (civil twilight). */
    float glow = (float)(exp(-((e - 1.0) / 5.0) * ((e - 1.0) / 5.0)));
    for (int c = 0; c < 3; c++) {
        out->zenith[c] = night_zenith[c] + (day_zenith[c] * unit - night_zenith[c]) * day;
        out->horizon[c] = night_horizon[c] + (day_horizon[c] * unit - night_horizon[c]) * day;
        out->horizon[c] += sunset_glow[c] * glow * unit;
        out->zenith[c] += 0.15f * sunset_glow[c] * glow * unit; /* a hint of warmth overhead */
    }
    /* Ground: a grey (albedo 0.2) Lambertian lit by the sun and the sky (irradiance pi * sky). */
    float sun_up = sun->direction[1] > 0.0f ? sun->direction[1] : 0.0f;
    for (int c = 0; c < 3; c++) {
        float sky_avg = 0.5f * (out->zenith[c] + out->horizon[c]);
        float irradiance = sun->color[c] * sun->illuminance * sun_up + (float)GN_PI * sky_avg;
        out->ground[c] = 0.2f * irradiance / (float)GN_PI;
        out->ambient_sky[c] = sky_avg;
        out->ambient_ground[c] = out->ground[c];
    }
}

float gn_night_level(float elevation_deg)
{
    return (float)gn_smoothstep(GN_NIGHT_OFF_DEG, GN_NIGHT_ON_DEG, elevation_deg);
}

/* The sun's and the moon's positions from time, latitude and date, their light at the ground
 * through the atmosphere (decide/atmosphere.h), and the sky's summary values the CPU needs (the
 * hemisphere ambient, the exposure's first guess). */
#ifndef GN_DECIDE_SUN_H
#define GN_DECIDE_SUN_H

#include "decide/atmosphere.h"

#include <stdint.h>

/* Light is in physical units (docs/POST.md). The sun's illuminance above the air, in lux (the
 * photometric solar constant, ~128 klux); through Hillaire's Earth atmosphere at 45 N in August
 * it is ~100 klux at noon. */
#define GN_SUN_ILLUMINANCE 128000.0f
/* The unit of light before light had units, in nits: what multiplied the hand-tuned colours of
 * the old analytic sky (the reference pictures were made with it); tests still speak in it. */
#define GN_LIGHT_UNIT_NITS 39321.6f
/* The full moon's illuminance above the air (lux): Allen's magnitude -12.73 */
#define GN_MOON_ILLUMINANCE 0.26f
/* Angular radii of the discs (degrees). */
#define GN_SUN_RADIUS_DEG 0.2666f
#define GN_MOON_RADIUS_DEG 0.259f
/* The year of the moon's phase when the frame does not give one. */
#define GN_MOON_YEAR 2026
/* The night sky's own glow (airglow, starlight and a town's light pollution, ~19.5 mag/arcsec^2)
 * in nits, so that a moonless night is not black; bluish (GN_NIGHT_SKY_TINT, unit luminance; the
 * twin in shaders/sky.glsl), as the eye sees a night. */
#define GN_NIGHT_SKY_NITS 1.5e-3f
#define GN_NIGHT_SKY_TINT                                                                                    \
    {                                                                                                        \
        0.78f, 1.0f, 1.57f                                                                                   \
    }
/* Night lights (lamps, lit windows: gn_light_desc.night) go on as the sun sets, from this
 * elevation (off) to the next (fully on), and off again in the morning. */
#define GN_NIGHT_OFF_DEG 6.0f
#define GN_NIGHT_ON_DEG -2.0f

/* A light of the sky (the sun or the moon) as seen from the ground. */
typedef struct gn_sun {
    float direction[3];    /* unit vector from the ground TOWARDS it (world: +X east, -Z north) */
    float elevation_deg;   /* above the horizon; negative below */
    float azimuth_deg;     /* from north, clockwise (east = 90), in [0, 360) */
    float color[3];        /* linear RGB at the ground, unit luminance: the air's transmittance */
    float illuminance;     /* lux at the ground on a plane facing it (0 once the disc has set) */
    float top_illuminance; /* lux above the air (the moon's with its phase) */
    float phase;           /* the moon's illuminated fraction 0..1 (the sun: 1) */
} gn_sun;

typedef struct gn_sky {
    float zenith[3], horizon[3], ground[3];  /* radiance (nits) straight up, at the horizon, of the ground */
    float ambient_sky[3], ambient_ground[3]; /* hemisphere ambient: radiance from up and from down */
} gn_sky;

/* hours: local solar time (12 = solar noon); day_of_year 1..365. The light through Hillaire's
 * Earth (gn_atmo_earth) at the ground, marched directly (no table needed). */
void gn_sun_compute(float hours, float latitude_deg, uint32_t day_of_year, gn_sun *out);
/* The moon at the same local solar time of that day in `year`: its position (a low-precision
 * lunar theory: the main terms of longitude and latitude) and phase from its elongation. */
void gn_moon_compute(float hours, float latitude_deg, uint32_t day_of_year, int year, gn_sun *out);
/* The key light (the one the forward pass shades with and the shadows follow): the brighter at
 * the ground of the sun and the moon. */
const gn_sun *gn_key_light(const gn_sun *sun, const gn_sun *moon);
/* The two lights as the atmosphere's sky marches take them (top illuminance, white above the air). */
void gn_sky_lights(const gn_sun *sun, const gn_sun *moon, gn_atmo_light out[2]);
/* The sky's summary from the atmosphere's tables, seen from radius r_km: the zenith, the
 * horizon's mean at 3 degrees, the ground (albedo times the light it gets, Lambertian) and the
 * hemisphere ambient (the sky's irradiance on an upward plane over pi), night glow in. */
void gn_sky_compute(const gn_atmosphere *a, float r_km, const gn_sun *sun, const gn_sun *moon, gn_sky *out);
/* The night lights' level at a sun elevation: 0 by day, 1 from GN_NIGHT_ON_DEG down (smooth). */
float gn_night_level(float elevation_deg);

#endif

/* The sun's position and colour from time, latitude and date, and a simple analytic sky. */
#ifndef GN_DECIDE_SUN_H
#define GN_DECIDE_SUN_H

#include <stdint.h>

/* Light is in physical units (docs/POST.md). The sun's illuminance above the air, in lux:
 * 3 * 1.2 * 2^15, so that at EV100 15 (sunny 16) a white wall facing the noon sun has the
 * luminance ~ 3 / pi that mapped it before light had units (the reference pictures stay);
 * through the air at 45 N in August it is ~108 klux at noon. */
#define GN_SUN_ILLUMINANCE 117964.8f
/* The old unit of light, in nits: what multiplied the hand-tuned sky colours below. */
#define GN_LIGHT_UNIT_NITS (GN_SUN_ILLUMINANCE / 3.0f)
/* Night lights (lamps, lit windows: gn_light_desc.night) go on as the sun sets, from this
 * elevation (off) to the next (fully on), and off again in the morning. */
#define GN_NIGHT_OFF_DEG 6.0f
#define GN_NIGHT_ON_DEG -2.0f

typedef struct gn_sun {
    float direction[3];  /* unit vector from the ground TOWARDS the sun (world: +X east, -Z north) */
    float elevation_deg; /* above the horizon; negative below */
    float azimuth_deg;   /* from north, clockwise (east = 90), in [0, 360) */
    float color[3];      /* linear RGB after atmospheric extinction; ~1 max component near zenith */
    float illuminance;   /* lux, scale for color; GN_SUN_ILLUMINANCE by day, fading to 0 from 0 to -4 deg */
} gn_sun;

typedef struct gn_sky {
    float zenith[3], horizon[3], ground[3];  /* luminance (nits) of the sky gradient and the ground */
    float ambient_sky[3], ambient_ground[3]; /* hemisphere ambient: radiance from up and from down */
} gn_sky;

/* hours: local solar time (12 = solar noon); day_of_year 1..365. */
void gn_sun_compute(float hours, float latitude_deg, uint32_t day_of_year, gn_sun *out);
void gn_sky_compute(const gn_sun *sun, gn_sky *out); /* blue day, orange sunset, dark blue night */
/* The night lights' level at a sun elevation: 0 by day, 1 from GN_NIGHT_ON_DEG down (smooth). */
float gn_night_level(float elevation_deg);

#endif

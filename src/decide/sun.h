/* The sun's position and colour from time, latitude and date, and a simple analytic sky. */
#ifndef GN_DECIDE_SUN_H
#define GN_DECIDE_SUN_H

#include <stdint.h>

/* The sun's illuminance at full strength, in the renderer's linear light units: a white
 * Lambertian surface facing a clear noon sun reflects radiance ~ GN_SUN_ILLUMINANCE / pi ~ 1.
 * Sky radiances below are in the same units. */
#define GN_SUN_ILLUMINANCE 3.0f

typedef struct gn_sun {
    float direction[3];  /* unit vector from the ground TOWARDS the sun (world: +X east, -Z north) */
    float elevation_deg; /* above the horizon; negative below */
    float azimuth_deg;   /* from north, clockwise (east = 90), in [0, 360) */
    float color[3];      /* linear RGB after atmospheric extinction; ~1 max component near zenith */
    float illuminance;   /* scale for color; GN_SUN_ILLUMINANCE by day, fading to 0 from 0 to -4 deg */
} gn_sun;

typedef struct gn_sky {
    float zenith[3], horizon[3], ground[3];  /* linear radiance of the sky gradient and the ground */
    float ambient_sky[3], ambient_ground[3]; /* hemisphere ambient: radiance from up and from down */
} gn_sky;

/* hours: local solar time (12 = solar noon); day_of_year 1..365. */
void gn_sun_compute(float hours, float latitude_deg, uint32_t day_of_year, gn_sun *out);
void gn_sky_compute(const gn_sun *sun, gn_sky *out); /* blue day, orange sunset, dark blue night */

#endif

/* A physically based atmosphere in the manner of Hillaire (EGSR 2020, "A Scalable and
 * Production Ready Sky and Atmosphere Rendering Technique"): Rayleigh and Mie scattering, ozone
 * absorption, a spherical planet; the transmittance and multiple-scattering tables, the sky-view
 * table and the aerial perspective. Written to be the CPU twin of the GPU passes still to come
 * (same parametrisations, same sample counts; docs/SKY.md, "The atmosphere"), which are to be
 * held equal to it by a test. A brute-force path tracer of the same medium (gn_atmo_truth) is the
 * ground truth the tables are measured against (unit_atmosphere). Distances in km, coefficients per km;
 * radiance per unit of the sun's illuminance above the air. The planet is centred under the camera, its +y
 * the world's up. */
#ifndef GN_DECIDE_ATMOSPHERE_H
#define GN_DECIDE_ATMOSPHERE_H

#include <stdint.h>

/* Table sizes and sample counts (the GPU passes are to use the same). */
#define GN_ATMO_TRANSMITTANCE_W 256 /* cos zenith (Bruneton's distance mapping) */
#define GN_ATMO_TRANSMITTANCE_H 64  /* altitude */
#define GN_ATMO_MS_SIZE 32          /* cos sun zenith x altitude */
#define GN_ATMO_SKYVIEW_W 192       /* absolute azimuth, 0 .. 2 pi */
#define GN_ATMO_SKYVIEW_H 108       /* elevation from the horizon, denser near it */
#define GN_ATMO_AERIAL_SIZE 32      /* froxels a side and slices */
#define GN_ATMO_AERIAL_KM 32.0f     /* the aerial volume's far slice; slices spaced quadratically */
/* Sample counts of the ray marches. */
#define GN_ATMO_TRANSMITTANCE_STEPS 40
#define GN_ATMO_MS_DIRS 8 /* a side: 8 x 8 directions on the sphere */
#define GN_ATMO_MS_STEPS 20
#define GN_ATMO_SKY_STEPS 32
#define GN_ATMO_MIN_ALTITUDE_KM 0.001f /* a camera below the ground is lifted to 1 m */

typedef struct gn_atmo_params {
    float bottom_km, top_km;               /* the ground's and the atmosphere's radii */
    float rayleigh[3];                     /* scattering at the ground, per km */
    float rayleigh_height_km;              /* its exponential scale height */
    float mie_scattering, mie_absorption;  /* at the ground, per km (grey) */
    float mie_height_km, mie_g;            /* scale height; Cornette-Shanks asymmetry */
    float ozone[3];                        /* absorption at the layer's peak, per km */
    float ozone_center_km, ozone_width_km; /* a tent: 1 at the centre, 0 at +-width / 2 */
    float ground_albedo[3];                /* Lambertian, for the light the ground sends back up */
} gn_atmo_params;

/* The Earth of Hillaire's paper (and UE5's and Bevy's defaults). */
void gn_atmo_earth(gn_atmo_params *out);

/* The tables (float rgb, row by row) and the parameters they were made from. */
typedef struct gn_atmosphere {
    gn_atmo_params p;
    float transmittance[GN_ATMO_TRANSMITTANCE_H][GN_ATMO_TRANSMITTANCE_W][3];
    float ms[GN_ATMO_MS_SIZE][GN_ATMO_MS_SIZE][3]; /* Psi_ms: all orders >= 2, isotropic */
} gn_atmosphere;

/* The media at radius r: scattering (Rayleigh rgb, Mie) and extinction rgb. */
void gn_atmo_media(const gn_atmo_params *p, float r_km, float rayleigh[3], float *mie, float extinction[3]);
float gn_atmo_rayleigh_phase(float cos_theta);
float gn_atmo_mie_phase(float g, float cos_theta);
/* Distance along a ray from radius r at cos zenith mu to a sphere of radius R (-1: none ahead). */
float gn_atmo_ray_sphere(float r, float mu, float radius);

/* Transmittance from (r, mu) to the top of the air by a ray march (0 when the ray meets the
 * ground): what the table holds, computed directly. */
void gn_atmo_transmittance_direct(const gn_atmo_params *p, float r_km, float mu, uint32_t steps,
                                  float out[3]);
/* The tables' parametrisations: uv in [0, 1]^2 <-> (r, mu). */
void gn_atmo_transmittance_uv(const gn_atmo_params *p, float r_km, float mu, float uv[2]);
void gn_atmo_transmittance_rmu(const gn_atmo_params *p, const float uv[2], float *r_km, float *mu);

/* Both tables from p. */
void gn_atmo_build(const gn_atmo_params *p, gn_atmosphere *out);
/* Bilinear lookups, clamped at the edges as the GPU's samplers are. */
void gn_atmo_transmittance(const gn_atmosphere *a, float r_km, float mu, float out[3]);
void gn_atmo_multiscatter(const gn_atmosphere *a, float r_km, float mu_sun, float out[3]);

/* The sky's radiance seen from radius r along view direction `view` (y up, unit) with the sun
 * towards `sun` (unit): single scattering with the planet's shadow, plus the multiple-scattering
 * table, marched GN_ATMO_SKY_STEPS steps to the ground or the top; per unit illuminance. The
 * ground itself and the sun's disc are not in it. max_km > 0 ends the march there (aerial
 * perspective: in-scattering and transmittance of a segment; transmittance may be NULL). */
void gn_atmo_sky(const gn_atmosphere *a, float r_km, const float view[3], const float sun[3], float max_km,
                 float radiance[3], float transmittance[3]);

/* The aerial perspective's slice k (0-based) ends this far from the eye (km): quadratic, dense near. */
float gn_atmo_aerial_km(uint32_t slice);

/* A light of the sky (the sun, the moon): towards it (unit), its illuminance above the air (lux;
 * 0: dark) and its colour (unit luminance). */
typedef struct gn_atmo_light {
    float dir[3];
    float illuminance;
    float color[3];
} gn_atmo_light;
/* Both lights' in-scattering along a view ray, in nits (gn_atmo_sky of each, scaled); the
 * transmittance is the first light's march's (it runs even when dark). */
void gn_atmo_sky_lights(const gn_atmosphere *a, float r_km, const float view[3],
                        const gn_atmo_light lights[2], float max_km, float radiance[3],
                        float transmittance[3]);

/* The sky-view table's mapping: uv <-> the world direction
 * (u the azimuth atan2(z, x) / 2 pi, v the elevation from the horizon). */
void gn_atmo_skyview_dir(const gn_atmo_params *p, float r_km, const float uv[2], float dir[3]);
void gn_atmo_skyview_uv(const gn_atmo_params *p, float r_km, const float dir[3], float uv[2]);
/* The table itself (GN_ATMO_SKYVIEW_W x _H rgb, nits). */
void gn_atmo_skyview(const gn_atmosphere *a, float r_km, const gn_atmo_light lights[2], float *out);

/* The ground truth: the same medium path-traced (delta tracking, next-event estimation towards
 * the sun, Lambertian ground, every order of scattering, each colour channel apart) with `paths`
 * paths from a seeded generator; per unit illuminance, the sun's disc excluded. */
void gn_atmo_truth(const gn_atmo_params *p, float r_km, const float view[3], const float sun[3],
                   uint32_t paths, uint64_t seed, float radiance[3]);

#endif

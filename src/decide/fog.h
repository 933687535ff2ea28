/* Seed 002's exponential height fogs, in closed form: the CPU twin of shaders/air.glsl's
 * gn_fog_depth and gn_fog (the same formulas in the same order), which the fog's unit test holds
 * to a numerical integral of the density. */
#ifndef GN_DECIDE_FOG_H
#define GN_DECIDE_FOG_H

typedef struct gn_fog_layer {
    float density; /* extinction at the base height, per metre (0: off) */
    float base;    /* metres */
    float falloff; /* per km: density(y) = density * exp(-(y - base) * falloff / 1000) */
} gn_fog_layer;

/* The layers' optical depth along the unit direction dir for `metres` from eye. */
float gn_fog_depth(const gn_fog_layer fog[2], const float eye[3], const float dir[3], float metres);
/* Henyey-Greenstein's phase at cos theta (per steradian). */
float gn_fog_phase(float g, float cos_theta);
/* The light the fogs add along the ray (in front of whatever is behind) and their transmittance:
 * in-scattering = (1 - T) albedo (key light's illuminance x phase + the sky's mean radiance). */
void gn_fog_inscatter(const gn_fog_layer fog[2], const float eye[3], const float dir[3], float metres,
                      float albedo, float g, const float key_dir[3], const float key_rgb[3],
                      const float ambient_rgb[3], float out_rgb[3], float *transmittance);

#endif

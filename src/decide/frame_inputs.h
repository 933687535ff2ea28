/* The door: every default of gn_renderer_desc and gn_frame_desc resolved in one function each,
 * into the structs the renderer and its features read (zero-means-default never reaches them).
 * The sub-descs (gn_csm_desc, gn_vsm_desc, gn_lights_desc) resolve in decide/csm.c, vsm.c and
 * lights.c, one function each. Pure: no Vulkan, no globals, no environment (the caller passes
 * what it read). */
#ifndef GN_DECIDE_FRAME_INPUTS_H
#define GN_DECIDE_FRAME_INPUTS_H

#include "decide/exposure.h"
#include "decide/sun.h"
#include "gnomon.h"

#include <stdbool.h>
#include <stdint.h>

#define GN_DEFAULT_HOURS 18.5f    /* sunset in mid August at 45 N */
#define GN_DEFAULT_LATITUDE 45.0f /* degrees north */
#define GN_DEFAULT_DAY 230u       /* mid August: the sun ~4 degrees up at 18.5 h, 45 N */
#define GN_DEFAULT_FOV_Y 60.0f    /* degrees */
#define GN_DEFAULT_NEAR 0.1f      /* metres */

/* A frame's inputs, resolved: the one camera (its matrices included), the sun and sky, and the
 * settings, each with its default applied. */
typedef struct gn_frame_inputs {
    /* the camera */
    float position[3];
    float yaw, pitch;         /* degrees */
    float fov_y;              /* radians */
    float aspect, near_plane; /* width / height; metres */
    float view[16], proj[16]; /* world -> view; view -> clip (reversed-Z, infinite) */
    float view_proj[16];      /* world -> clip */
    float inv_view_proj[16];  /* clip -> world (zero when view_proj is singular) */
    float forward[3];         /* unit view axis: view depth = dot(p - position, forward) */
    /* the sun and the sky */
    float hours, latitude;
    uint32_t day_of_year;
    int year;
    gn_sun sun, moon;
    gn_sun key;              /* a copy of the brighter of the two at the ground: the shaded, shadowed light */
    gn_atmo_light lights[2]; /* both as the sky's marches take them */
    float camera_r_km;       /* the eye's distance from the planet's centre (y = 0 is the ground) */
    gn_sky sky;
    struct {
        float density, base, falloff; /* per m, m, per km; density 0: off */
    } fog[2];
    float fog_albedo, fog_anisotropy;
    bool aerial, stars;
    struct {
        bool on;   /* asked for (the volume runs when a fog is on too) */
        float far; /* metres of view depth */
    } volumetric;
    float night_level; /* the night lights' level, 0 by day .. 1 (gn_night_level) */
    /* settings */
    gn_exposure_params exposure; /* the camera's: fixed or auto, the compensation in */
    struct {
        float intensity; /* 0: off */
        float threshold, knee, scatter;
    } bloom;
    struct {
        float radius, bias; /* metres */
        float intensity;    /* 0: off */
    } ao;
    struct {
        float focus, range, strength, radius; /* strength 0: off */
        gn_dof_mode mode;
        bool blur_sky;
    } dof;
    gn_view debug_view; /* gn_frame_desc.view: the final image or a debug view */
    gn_tonemap tonemap; /* never DEFAULT */
    bool dither;        /* the 8-bit output's dither (gn_frame_desc.no_dither: off) */
    bool ibl;           /* the ambient from the environment map (gn_frame_desc.no_ibl: the hemisphere) */
    bool probes;        /* surfaces reflect their reflection probes (gn_frame_desc.no_probes: not) */
    gn_shadows shadows; /* never DEFAULT */
    gn_transparency transparency; /* never DEFAULT */
    bool alpha_to_coverage;       /* asked for (the prepass uses it with msaa > 1 only) */
    bool naive_lights, no_pvs, cpu_culling, occlusion, clusters, caster_lod, vsm_occlusion;
    double seconds;
    const uint8_t *overlay;
} gn_frame_inputs;

/* scene_camera: the scene's default camera (x, y, z, yaw, pitch in degrees, then its vertical field
 * of view in degrees, 0 for the default), used when f's camera is all zero. atmosphere: the
 * tables the sky's summary is read from (the renderer's). */
void gn_frame_inputs_resolve(const gn_frame_desc *f, const float scene_camera[6], uint32_t width,
                             uint32_t height, const gn_atmosphere *atmosphere, gn_frame_inputs *out);

/* gn_renderer_desc with every default applied; validation_env is $GNOMON_VALIDATION (or NULL). */
gn_renderer_desc gn_renderer_desc_resolve(const gn_renderer_desc *d, const char *validation_env);

#endif

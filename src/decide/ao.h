/* Ambient occlusion's decisions, the CPU reference of shaders/ao*.comp (held to them by
 * gpu_ao): Scalable Ambient Obscurance (McGuire, Mara and Luebke, HPG 2012) in gnomon's units.
 *
 * 1. Camera-space Z (metres along the view axis, near / depth for reversed-Z; GN_AO_SKY_Z where
 *    nothing was drawn) from the resolved depth, then GN_AO_LEVELS - 1 more levels, each texel
 *    one of the 2 x 2 below it on a rotated grid (no averaging: every level's texel is a real
 *    surface point, so a wide tap lands on geometry, never between a pole and the wall).
 * 2. The estimate: GN_AO_TAPS taps on a GN_AO_TURNS-turn spiral over a disc of the radius's
 *    size on screen, rotated per pixel; a tap ssR pixels out reads the level whose texels are
 *    ~ssR / 8 pixels apart. Each tap's point Q occludes the pixel's point C with normal n by
 *        (1 - |v|^2 / r^2)^3 * max(v.n - bias, 0) / (|v| + 0.01 r),  v = Q - C
 *    (the paper's falloff; divided by |v| where the paper divides by |v|^2, so the term is the
 *    cosine of the tap's elevation, without units, and the intensity does not depend on the
 *    scale of the world: Skyrim's fSAOIntensity 15 was in its units of 1.43 cm). AO = max(0, 1 -
 *    intensity * mean of the terms).
 * 3. A separable bilateral blur, x then y: 2 * GN_AO_BLUR_RADIUS + 1 taps GN_AO_BLUR_STEP pixels
 *    apart with Gaussian weights, each cut by how far its point stands off the pixel's tangent
 *    plane (relative to the pixel's distance: 0 at 1/40), so occlusion bleeds neither across
 *    silhouettes nor round creases (a depth-only weight, the paper's, lets a wall's occlusion
 *    spread onto the floor at the same depth), while a slanted floor still blurs along itself.
 * The normal comes from the depth: the smaller of the two one-sided differences each way. */
#ifndef GN_DECIDE_AO_H
#define GN_DECIDE_AO_H

#include <stdint.h>

#define GN_AO_LEVELS 6 /* camera-space Z and 5 minified levels (the paper's) */
#define GN_AO_TAPS 11  /* taps a pixel (the paper's and Skyrim's) */
#define GN_AO_TURNS                                                                                          \
    7                          /* turns of the spiral for 11 taps (the paper's table: no two taps            \
                                  line up) */
#define GN_AO_LOG_MAX_OFFSET 3 /* a tap ssR pixels out reads level floor(log2(ssR)) - 3 */
#define GN_AO_SKY_Z 1.0e6f     /* metres: where nothing was drawn (beyond any radius) */
#define GN_AO_BLUR_RADIUS 3    /* taps each side */
#define GN_AO_BLUR_STEP 2      /* pixels between taps */
#define GN_AO_BLUR_EDGE                                                                                      \
    40.0f /* a tap's weight is 0 when it stands 1/40 of the distance off the                                 \
             pixel's tangent plane */

/* The Z pyramid in one array: level k is w[k] x h[k] texels from offset[k]. */
typedef struct gn_ao_layout {
    uint32_t w[GN_AO_LEVELS], h[GN_AO_LEVELS], offset[GN_AO_LEVELS];
    uint32_t texels;
} gn_ao_layout;

void gn_ao_layout_make(uint32_t width, uint32_t height, gn_ao_layout *out);

/* What the estimate needs of the camera and the settings (gn_gpu_frame.ao, ao_proj). */
typedef struct gn_ao_params {
    uint32_t width, height;
    float radius, bias, intensity; /* metres, metres, scale */
    float proj_scale;              /* pixels a metre spans 1 m in front of the camera: 0.5 h |p11| */
    float inv_p00, inv_p11;        /* 1 / the projection's x scale, 1 / |its y scale| */
    float near_plane;
    float sample_x, sample_y; /* where in its pixel the depth was taken (sample 0) */
} gn_ao_params;

/* From the projection (gn_frame_inputs.proj, column-major), the near plane and the settings. */
void gn_ao_params_make(const float proj[16], float near_plane, uint32_t width, uint32_t height, float radius,
                       float bias, float intensity, float sample_x, float sample_y, gn_ao_params *out);

/* z[l->texels] from depth (width*height, reversed-Z, top row first): level 0 then the rest. */
void gn_ao_build_z(const gn_ao_layout *l, const gn_ao_params *p, const float *depth, float *z);

/* The raw estimate of pixel (x, y) from the pyramid. 1 where the pixel is sky. */
float gn_ao_estimate(const gn_ao_layout *l, const gn_ao_params *p, const float *z, uint32_t x, uint32_t y);

/* One blur direction (dx, dy: (1, 0) or (0, 1)) of pixel (x, y) over src (width*height). */
float gn_ao_blur(const gn_ao_params *p, const float *z, const float *src, uint32_t x, uint32_t y, int dx,
                 int dy);

/* The per-pixel rotation of the spiral, a fraction of a turn: 1024 steps, exact on both sides. */
float gn_ao_rotation(uint32_t x, uint32_t y);

/* Specular occlusion from ambient occlusion (Lagarde and de Rousiers, "Moving Frostbite to PBR",
 * 2014): saturate((n.v + ao)^exp2(-16 roughness - 1) - 1 + ao). 1 with ao 1; mirrored by
 * shaders/brdf.glsl. */
float gn_specular_occlusion(float n_dot_v, float ao, float roughness);

#endif

/* The reference for sun shadows: a hard-shadow mask ray-traced on the CPU with Intel Embree 3
 * for exactly the pixels a frame rendered (docs: DESIGN.md, "References and truth"); for
 * visibility culling, which instance each pixel sees when nothing is culled (docs/WORLDS.md);
 * and for ambient occlusion, the obscurance SAO estimates (truth_ao.c, docs/POST.md).
 * Used by the CLI (shadowref, shadowcheck, aoref, aocheck) and the tests, never by the library,
 * so libgnomon does not depend on Embree. */
#ifndef GN_CLI_TRUTH_H
#define GN_CLI_TRUTH_H

#include "gnomon.h"

#include <stdint.h>

/* Values of a truth mask, one byte a pixel: chosen so the mask is a viewable grey PNG. */
#define GN_TRUTH_SHADOWED 0u
#define GN_TRUTH_SKY 128u /* no surface: depth 0 (reversed-Z) */
/* A surface within ~1.1 degrees of edge-on to the sun (|N.L| < GN_TRUTH_GRAZING_COS): its
 * irradiance is under 2% of full either way, and both a shadow map and a ray along the
 * surface are ill-conditioned there, so comparisons leave it out like the sky. */
#define GN_TRUTH_GRAZING 64u
#define GN_TRUTH_GRAZING_COS 0.02
/* Whether a mask value takes part in a comparison (a lit or shadowed surface). */
#define GN_TRUTH_COUNTS(v) ((v) == GN_TRUTH_LIT || (v) == GN_TRUTH_SHADOWED)
#define GN_TRUTH_LIT 255u

typedef struct gn_truth gn_truth;

/* What one frame left behind, as gn_read_depth and gn_get_frame_view return it. */
typedef struct gn_truth_frame {
    const float *depth; /* width*height, reversed-Z (0 = sky), top row first; gn_truth_ids ignores it */
    uint32_t width, height;
    uint32_t msaa; /* samples the frame was rendered with (0 reads as 1): see truth.c */
    const gn_frame_view *view;
} gn_truth_frame;

typedef struct gn_truth_stats {
    uint64_t rays; /* occlusion rays cast: surface pixels facing the sun while it is up (ids: a pixel each) */
    uint64_t grazing;     /* surface pixels left out as edge-on to the sun */
    uint64_t facing_away; /* surface pixels facing away from the sun: shadowed without a ray */
    uint64_t back_faces;  /* gn_truth_ids: hits passed over as back faces (some beyond the surface found:
                             Embree's traversal order decides which it meets) */
    uint64_t unconfirmed; /* gn_truth_ao: surface pixels whose primary ray found another surface (or
                             none) than the depth's: left out */
    double ms;            /* wall-clock time of the mask or the ids */
    uint32_t threads;
} gn_truth_stats;

/* Builds an Embree scene from the scene's meshes and instances as they are now (after
 * gn_render, which moves dynamic objects to the frame's time). Vertex positions are shared
 * with the scene, not copied: keep the scene alive and its meshes unchanged while the truth
 * is used (instance transforms are copied; moving an object later needs a new truth).
 * NULL on failure, with err filled. */
gn_truth *gn_truth_create(const gn_scene *s, gn_error *err);
void gn_truth_destroy(gn_truth *t);          /* NULL is fine */
double gn_truth_build_ms(const gn_truth *t); /* BVH build time of gn_truth_create */

/* Fills mask (width*height bytes, top row first) with GN_TRUTH_LIT, GN_TRUTH_SHADOWED,
 * GN_TRUTH_GRAZING or GN_TRUTH_SKY: a primary ray (front faces only, as the renderer draws)
 * finds each surface pixel's geometric normal, turned towards the camera; a surface facing away
 * from the sun is shadowed (N.L <= 0, as in the renderer, even where a ray would escape through a
 * single-sided wall), one facing it sends an occlusion ray towards the frame's sun. stats may be
 * NULL. */
gn_result gn_truth_mask(const gn_truth *t, const gn_truth_frame *f, uint8_t *mask, gn_truth_stats *stats,
                        gn_error *err);

/* What gn_truth_ids writes where a pixel sees no surface (the sky). */
#define GN_TRUTH_NO_INSTANCE UINT32_MAX

/* The brute-force visibility reference: fills ids (width*height words, top row first) with the
 * id of the scene instance each pixel sees, or GN_TRUTH_NO_INSTANCE. One primary ray a pixel,
 * through the same sample as gn_truth_mask (sample 0 of f->msaa) and from the near plane,
 * against every instance: nothing is culled but back faces, which the renderer culls too.
 * f->depth is not read. stats may be NULL. */
gn_result gn_truth_ids(const gn_truth *t, const gn_truth_frame *f, uint32_t *ids, gn_truth_stats *stats,
                       gn_error *err);

/* Ambient occlusion's truth (gn_truth_ao). Zero is default. */
#define GN_TRUTH_AO_DEFAULT_RAYS 64u
#define GN_TRUTH_AO_MAX_RAYS 65536u
typedef struct gn_truth_ao_desc {
    float radius;  /* metres, > 0; default GN_AO_DEFAULT_RADIUS */
    uint32_t rays; /* a pixel, at most GN_TRUTH_AO_MAX_RAYS; default GN_TRUTH_AO_DEFAULT_RAYS */
} gn_truth_ao_desc;

/* Fills ao (width*height floats, top row first) with the obscurance SAO estimates (gnomon.h,
 * gn_ao_desc): 1 - the mean over d->rays cosine-distributed directions about the surface's
 * normal of (1 - (t / radius)^2)^3, t the distance to the nearest face along the direction, either
 * side (a miss within the radius adds 0). 1 is open, 0 fully occluded. The point and its normal
 * are gn_truth_mask's: the depth under sample 0, a primary ray's geometric normal turned towards
 * the camera; the rays start off the surface by the shadow rays' tnear along that normal. The
 * directions are a rank-1 lattice over cos^2 of the angle to the normal (one in each of `rays`
 * equal strata) and the azimuth, rotated by a hash of the pixel: the same every run and on any
 * thread count. Sky pixels, and those whose primary ray does not confirm the depth's surface,
 * get 1 and are left out: counted (width*height bytes, may be NULL) is 1 where a pixel counts
 * and 0 where not. stats->rays counts the occlusion rays (the primary rays come on top, one a
 * surface pixel); stats and d may be NULL. */
gn_result gn_truth_ao(const gn_truth *t, const gn_truth_frame *f, const gn_truth_ao_desc *d, float *ao,
                      uint8_t *counted, gn_truth_stats *stats, gn_error *err);

/* The sub-pixel position (x, y in 0..1, y down) of sample 0 of the Vulkan standard sample
 * locations for msaa samples; the pixel centre for 1 (or an unknown count). */
void gn_truth_sample0(uint32_t msaa, float *x, float *y);

#endif

/* What the truth's files share (truth.c: the scene, the shadow mask, the instance ids;
 * truth_ao.c: ambient occlusion): a pixel's world point, its surface found by a primary ray, the
 * back-face filter of those rays and the thread pool. Private to them; truth.h is the interface. */
#ifndef GN_CLI_TRUTH_INTERNAL_H
#define GN_CLI_TRUTH_INTERNAL_H

#include "truth.h"

#include <embree3/rtcore.h>

#include <stdbool.h>

/* Secondary rays (to the sun, ambient occlusion) start this far from the surface so they escape
 * the surface they start on: the larger of 5 mm and 1e-4 of the distance to the camera. The
 * reconstructed point is off the true surface by the depth buffer's and the float inverse
 * matrix's rounding (relative errors ~1e-7 of the coordinates, well under a millimetre in a
 * 2 km town), so 5 mm covers near surfaces; 1e-4 of the distance (1 cm at 100 m, a sixteenth of
 * a pixel's footprint at 1280x720 and 60 degrees) keeps far surfaces clean while a caster has to
 * be thinner than that gap, in front of the surface, to be missed. */
#define GN_TRUTH_TNEAR_MIN 0.005
#define GN_TRUTH_TNEAR_REL 1e-4

double gn_truth_now_ms(void);
/* GN_OK, or a failure naming what was being done when Embree reported an error. */
gn_result gn_truth_check(const gn_truth *t, const char *what, gn_error *err);
RTCScene gn_truth_scene(const gn_truth *t); /* the top-level scene: every instance */

/* Runs worker(job) on the calling thread and on one more thread a core (rows bound the count);
 * a thread that fails to start only costs speed. Returns the threads that ran. */
uint32_t gn_truth_parallel(uint32_t rows, void *(*worker)(void *), void *job);

/* Clip space back to the world for the pixels of one frame, under sample 0 of its MSAA pattern
 * (where gn_read_depth's depth was measured). */
typedef struct gn_truth_unproject {
    double inv[16]; /* inv_view_proj in double: far points have tiny depths */
    float sx, sy;   /* sample 0 in its pixel */
    uint32_t width, height;
} gn_truth_unproject;

void gn_truth_unproject_init(gn_truth_unproject *u, const gn_truth_frame *f);
/* The world point of pixel (px, py) at reversed-Z depth d (1: the near plane); false when it lies
 * at infinity. */
bool gn_truth_unproject_point(const gn_truth_unproject *u, uint32_t px, uint32_t py, double d, double p[3]);
double gn_truth_distance(const float cam[3], const double p[3]); /* |p - cam| */

/* A thread's intersect context for rays from the camera, passing over back faces as the
 * rasterizer culls them; Embree passes the filter the context's address, so the Embree part
 * comes first. */
typedef struct gn_truth_cull_context {
    struct RTCIntersectContext rtc;
    const gn_truth *t;
    uint64_t back_faces;
} gn_truth_cull_context;

void gn_truth_cull_init(gn_truth_cull_context *c, const gn_truth *t);

/* The surface the depth buffer saw at p, dist from the camera cam: a primary ray from the camera,
 * passing over back faces, finds it when it lands within 2% of that distance (the same surface),
 * and n is its unit geometric normal, taken to world space by the instance's cofactor matrix and
 * turned towards the camera: the side the renderer drew, whatever the winding or a mirroring
 * transform say. False when the ray does not confirm the surface (n untouched). */
bool gn_truth_surface_normal(const gn_truth *t, gn_truth_cull_context *ctx, const float cam[3],
                             const double p[3], double dist, double n[3]);

#endif

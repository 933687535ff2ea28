/* Local reflection probes' decisions (issue 17, seed 001; docs/SKY.md, "Reflection probes"):
 * where probes go, the box each one's reflections are projected onto (parallax correction, as
 * seed 002's placed cubemap volumes), which probe a surface reflects (the nearest it can see),
 * how a probe fades at its box's bounds, and the box-projected lookup direction the shaders are
 * twin. Pure: the scene's geometry comes in through a ray-cast callback (src/probes.c gives it
 * decide/bvh.c over the scene's static triangles). */
#ifndef GN_DECIDE_PROBES_H
#define GN_DECIDE_PROBES_H

#include <stdbool.h>
#include <stdint.h>

#include "gnomon.h" /* GN_PROBES_MAX: 63, as an instance names its probe in 6 bits of the GPU's
                        instance flags (GN_GPU_INSTANCE_PROBE_SHIFT), 0 meaning none */

/* The distance along the unit direction d from o to the scene's first surface, or tmax when none
 * is nearer; *back (never NULL) true when that surface faces away from o (o is behind it). */
typedef float (*gn_probe_ray_fn)(void *user, const float o[3], const float d[3], float tmax, bool *back);

typedef struct gn_probe {
    float position[3];            /* where it is rendered from */
    float box_min[3], box_max[3]; /* the volume its reflections are projected onto (it holds position) */
} gn_probe;

typedef struct gn_probe_settings {
    float spacing;       /* metres: no two probes nearer than this (default 8) */
    float max_extent;    /* metres: a box reaches at most this far from its probe on each axis (default 40) */
    float fade;          /* metres over which a probe's weight falls to 0 at its box's faces (default 1) */
    uint32_t max_probes; /* at most this many (default and cap GN_PROBES_MAX) */
} gn_probe_settings;

/* Zero fields read as the defaults. */
gn_probe_settings gn_probe_settings_resolve(const gn_probe_settings *s);

/* Places probes at the candidate points in their order (a scene's: the town's street points, a
 * map's spawn points and items), skipping any within spacing of one already placed; with no
 * candidates, a grid at spacing over [lo, hi] at height `height` above lo[1]. Each probe's box
 * reaches along +-x, +-y, +-z to the first surface (ray), at most max_extent. A point inside a
 * solid (more of those six rays meet a surface's back than its front: inside a house, a
 * helmet) would see only the solid's inside, and is skipped. Returns the count. */
uint32_t gn_probes_place(const gn_probe_settings *s, const float (*candidates)[3], uint32_t count,
                         const float lo[3], const float hi[3], float height, gn_probe_ray_fn ray, void *user,
                         gn_probe *out);

/* The probe an object within the sphere (xyz centre, w radius; 0 for a point) reflects: the
 * nearest whose position the sphere's side facing it can see (nothing on the segment from the
 * sphere's point nearest the probe to the probe; a probe within the sphere is seen), else the
 * nearest whose box the sphere reaches, else -1 (the sky's environment). From the surface, not
 * the centre: the centre of a house is inside its walls and sees nothing. */
int32_t gn_probe_choose(const gn_probe *probes, uint32_t count, const float sphere[4], gn_probe_ray_fn ray,
                        void *user);

/* A probe's weight at p: 1 inside its box (the surfaces the box was fitted to lie on its faces:
 * they reflect it whole), falling linearly to 0 at fade metres outside its faces, 0 beyond. */
float gn_probe_weight(const gn_probe *probe, const float p[3], float fade);

/* The probe a point p of a surface reflects, per pixel: the surface's own (preferred, from
 * gn_probe_choose; -1 none) where it weighs 1, else the one of all whose box weighs p the most
 * (the preferred winning a tie, then the nearer); -1 when no box reaches p. A large instance (a
 * floor under every room) has one chosen probe; its other rooms' boxes take their part of it.
 * *weight: the weight of the probe returned (0 with -1). The twin of shaders/probes.glsl's. */
int32_t gn_probe_at(const gn_probe *probes, uint32_t count, int32_t preferred, const float p[3], float fade,
                    float *weight);

/* Box projection: the direction from the probe's position to where the ray p + t dir (dir unit,
 * p inside the box) leaves the box, unit: what the probe's map is looked up with so that the
 * reflection of a wall lands where the wall is. */
void gn_probe_parallax(const gn_probe *probe, const float p[3], const float dir[3], float out[3]);

#endif

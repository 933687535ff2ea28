/* Weighted blended order-independent transparency's weight (McGuire and Bavoil 2013, JCGT 2(2),
 * eq. 7), shared by the forward shader's OIT variants (shaders/forward.glsl) and the CPU's
 * reference (tests/gpu/gpu_oit.c). Valid C11 and GLSL 4.50 (glslc defines VULKAN).
 *
 *   w(z, a) = a * clamp(10 / (1e-5 + (z / 5)^2 + (z / 200)^6), 1e-2, 3e3) * GN_OIT_WEIGHT_SCALE
 *
 * z: the fragment's view depth in metres (the paper's |z|, tuned for 0.1 .. 500 units: the town's
 * metres). Eq. 7 rather than eq. 10 (3e3 (1 - d)^3 of the window depth d): under gnomon's
 * reversed-Z infinite projection 1 - d is near / z, so with the 0.1 m near plane eq. 10 reaches
 * its 1e-2 floor at 5.6 m and weighs everything farther alike (most of the town), where eq. 7
 * still tells surfaces apart out to ~180 m.
 *
 * fp16 (the accumulation is rgba16f): the colour is stored pre-exposed (common.glsl's
 * gn_stored_colour), O(1..100). Unscaled, one layer at the 3e3 clamp (z < 0.36 m) of colour 100
 * adds 3e5, past half's 65504. Scaled by 1/32 the weight spans 3.1e-4 a .. 94 a: a layer of colour
 * up to 87 adds at most 8192 (GN_OIT_MAX_ACCUM, where each fragment's term is clamped), so seven
 * such layers fit; at the far end a layer of a >= 0.2 keeps a w of at least 6.2e-5, half's
 * smallest normal (6.1e-5). The composite divides sum(c a w) by sum(a w), so the scale cancels. */
#ifndef GN_SHARED_OIT_H
#define GN_SHARED_OIT_H

#ifdef VULKAN
#define GN_OIT_FN
#else
#define GN_OIT_FN static inline
#endif

#define GN_OIT_WEIGHT_SCALE 0.03125f /* 1/32: a power of two, exact in any precision */
#define GN_OIT_MAX_ACCUM 8192.0f     /* a fragment's c a w at most, per channel */
#define GN_OIT_EPSILON 1e-5f         /* the composite's floor on sum(a w) */

GN_OIT_FN float gn_oit_weight(float view_depth, float alpha)
{
    float near = view_depth * 0.2f, far = view_depth * 0.005f; /* z / 5, z / 200 */
    float far3 = far * far * far;
    float w = 10.0f / (1e-5f + near * near + far3 * far3);
    w = w < 1e-2f ? 1e-2f : w > 3e3f ? 3e3f : w;
    return alpha * w * GN_OIT_WEIGHT_SCALE;
}

#endif

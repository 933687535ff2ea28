/* Sun cascaded shadow maps. Two invariants keep the shadows still (seed 000, sun shadow map):
 *  - a cascade's size depends only on its slice's view depths, fov and aspect, never on where
 *    the camera looks, and its centre moves in whole texels of a grid anchored at the pivot, so
 *    a static caster lands on the same sub-texel position every frame (no shimmer);
 *  - the light view turns about the camera rounded to a coarse grid, not the world origin, so
 *    when the sun moves a point's position in the map slides by (turn x distance from the
 *    pivot), a small fraction of a texel per frame near the camera, instead of whole texels
 *    kilometres from the origin. That slide is also why a cached cascade cannot simply be
 *    frozen until the sun has moved "enough" (seed 003, section 3): it would jump when redrawn.
 * Arithmetic is in double and rounded once into the float outputs: world positions kilometres
 * from the origin would otherwise cost most of a texel's precision. */
#include "decide/csm.h"

#include <math.h>
#include <string.h>

/* The near end of the first cascade: a log split from a near plane of a few millimetres would
 * spend a whole cascade on the first centimetres in front of the lens. */
#define GN_CSM_MIN_NEAR 0.05

/* The shadow fades over the last tenth of the shadow distance (seed 000: the last cascade). */
#define GN_CSM_FADE_START 0.9f

void gn_csm_split_distances(const gn_csm_settings *s, float out_far[GN_CSM_MAX])
{
    uint32_t n = s->cascades < 1 ? 1 : s->cascades > GN_CSM_MAX ? GN_CSM_MAX : s->cascades;
    double near = s->near_plane > GN_CSM_MIN_NEAR ? s->near_plane : GN_CSM_MIN_NEAR;
    double far = s->shadow_distance > near ? s->shadow_distance : 2.0 * near;
    double lambda = s->split_lambda < 0.0f ? 0.0 : s->split_lambda > 1.0f ? 1.0 : s->split_lambda;
    for (uint32_t i = 0; i < GN_CSM_MAX; i++) out_far[i] = 0.0f;
    for (uint32_t i = 1; i <= n; i++) {
        double t = (double)i / n;
        double d = lambda * near * pow(far / near, t) + (1.0 - lambda) * (near + (far - near) * t);
        out_far[i - 1] = (float)(s->explicit_splits ? s->splits[i - 1] : d);
    }
    /* The last cascade always ends at the shadow distance (the fade and select rely on it);
     * the resolver copies the last explicit split into shadow_distance. */
    out_far[n - 1] = (float)far;
    /* Bad explicit splits (out of order, outside (near, far)) must not give an empty or inverted
     * slice: push each just past its predecessor, then back below its successor. */
    float prev = (float)near;
    for (uint32_t i = 0; i + 1 < n; i++) {
        if (!(out_far[i] > prev)) out_far[i] = nextafterf(prev, INFINITY);
        prev = out_far[i];
    }
    for (uint32_t i = n - 1; i-- > 0;)
        if (!(out_far[i] < out_far[i + 1])) out_far[i] = nextafterf(out_far[i + 1], 0.0f);
}

void gn_csm_light_rotation(const float sun_dir[3], float out_rot[9])
{
    /* No basis can follow every direction smoothly (hairy ball), so put the one singularity
     * where the sun never casts: straight below. The basis is the zenith frame (right +X, up +Z,
     * forward -Y) carried by the shortest rotation from +Y to the sun (Rodrigues: a -> b is
     * I + [v]x + [v]x^2 / (1 + a.b), v = a x b). A fixed reference such as +Z degenerates for
     * a low sun due south, which a winter noon at high latitude is. */
    double s[3] = {sun_dir[0], sun_dir[1], sun_dir[2]};
    double len = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    if (!(len > 0.0)) s[0] = 0.0, s[1] = 1.0, s[2] = 0.0, len = 1.0;
    for (int i = 0; i < 3; i++) s[i] /= len;
    double fwd[3] = {-s[0], -s[1], -s[2]}, up[3];
    double c = s[1];
    if (1.0 + c > 1e-6) {
        /* v = Y x s = (s.z, 0, -s.x); up = Q * Z = Z + v x Z + v x (v x Z) / (1 + c). */
        double v[3] = {s[2], 0.0, -s[0]}, k = 1.0 / (1.0 + c);
        double vxz[3] = {v[1], -v[0], 0.0};
        double vvxz[3] = {v[1] * vxz[2] - v[2] * vxz[1], v[2] * vxz[0] - v[0] * vxz[2],
                          v[0] * vxz[1] - v[1] * vxz[0]};
        for (int i = 0; i < 3; i++) up[i] = (i == 2 ? 1.0 : 0.0) + vxz[i] + vvxz[i] * k;
    } else {
        up[0] = 0.0, up[1] = 0.0, up[2] = -1.0; /* sun at the nadir: any frame will do */
    }
    /* Gram-Schmidt so the rows are orthonormal to float precision whatever the input length. */
    double d = up[0] * fwd[0] + up[1] * fwd[1] + up[2] * fwd[2];
    for (int i = 0; i < 3; i++) up[i] -= d * fwd[i];
    double ul = sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
    for (int i = 0; i < 3; i++) up[i] /= ul;
    /* right x up = forward makes a proper rotation: right = up x forward. */
    double right[3] = {up[1] * fwd[2] - up[2] * fwd[1], up[2] * fwd[0] - up[0] * fwd[2],
                       up[0] * fwd[1] - up[1] * fwd[0]};
    for (int i = 0; i < 3; i++) {
        out_rot[0 + i] = (float)right[i];
        out_rot[3 + i] = (float)up[i];
        out_rot[6 + i] = (float)fwd[i];
    }
}

void gn_csm_pivot(const float camera_pos[3], float grid, float out[3])
{
    /* grid <= 0 falls back to the origin, not to the camera: an unrounded pivot would carry
     * the texel grid along with every camera step and shimmer. */
    for (int i = 0; i < 3; i++)
        out[i] = grid > 0.0f ? (float)(floor((double)camera_pos[i] / grid + 0.5) * grid) : 0.0f;
}

/* The minimal sphere around the camera frustum between view depths n < f: the corners lie on
 * two circles about the view axis of radius k*n and k*f (k = |(tan_x, tan_y)|), so by symmetry
 * the centre is on the axis, at depth *c_depth. Either it is equidistant from both circles, or,
 * when that point would lie beyond f (wide fov), the far circle alone bounds everything. */
static double gn_csm_slice_sphere(double n, double f, double k2, double *c_depth)
{
    double c = 0.5 * (f + n) * (1.0 + k2);
    if (c >= f) {
        *c_depth = f;
        return sqrt(k2) * f;
    }
    *c_depth = c;
    return sqrt((c - n) * (c - n) + k2 * n * n);
}

/* Rounds up to a step of 1/64 of the radius's power of two (at most 1.6% bigger). The value
 * then has few mantissa bits, so radius, texel = 2r/res and the snapped offsets are exact. */
static double gn_csm_round_radius(double r)
{
    int e;
    frexp(r, &e); /* r = m * 2^e, m in [0.5, 1): r / step lies in [64, 128) */
    double step = ldexp(1.0, e - 7);
    return ceil(r / step) * step;
}

static void gn_csm_cascade_matrices(const double rot[9], const double pivot[3], const double center[3],
                                    double radius, double texel, double ext, gn_csm_cascade *out)
{
    double t[3], lc[3], snapped[3];
    for (int r = 0; r < 3; r++) {
        t[r] = -(rot[r * 3] * pivot[0] + rot[r * 3 + 1] * pivot[1] + rot[r * 3 + 2] * pivot[2]);
        lc[r] = rot[r * 3] * center[0] + rot[r * 3 + 1] * center[1] + rot[r * 3 + 2] * center[2] + t[r];
        /* Whole texels of a grid fixed to the pivot; z too, so a static caster's stored depth
         * is quantised the same way every frame and acne does not crawl. */
        snapped[r] = floor(lc[r] / texel) * texel;
    }
    double zmin = snapped[2] - radius - ext, range = 2.0 * radius + ext;
    /* Ortho rows: x' = (x - sx) / radius, y' = -(y - sy) / radius (y flipped like the camera),
     * z' = (z - zmin) / range; composed with the light view [rot | t]. */
    double scale[3] = {1.0 / radius, -1.0 / radius, 1.0 / range};
    double offset[3] = {snapped[0], snapped[1], zmin};
    memset(out->light_view, 0, sizeof out->light_view);
    memset(out->view_proj, 0, sizeof out->view_proj);
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            out->light_view[c * 4 + r] = (float)rot[r * 3 + c];
            out->view_proj[c * 4 + r] = (float)(rot[r * 3 + c] * scale[r]);
        }
        out->light_view[12 + r] = (float)t[r];
        out->view_proj[12 + r] = (float)((t[r] - offset[r]) * scale[r]);
    }
    out->light_view[15] = 1.0f;
    out->view_proj[15] = 1.0f;
    out->depth_range = (float)range;
}

void gn_csm_compute(const gn_csm_settings *s, const float camera_pos[3], const float camera_view[16],
                    float fov_y_rad, float aspect, const float sun_dir[3], gn_csm_cascade out[GN_CSM_MAX])
{
    memset(out, 0, GN_CSM_MAX * sizeof *out);
    uint32_t n = s->cascades < 1 ? 1 : s->cascades > GN_CSM_MAX ? GN_CSM_MAX : s->cascades;
    float far[GN_CSM_MAX];
    gn_csm_split_distances(s, far);
    double near0 = s->near_plane > GN_CSM_MIN_NEAR ? s->near_plane : GN_CSM_MIN_NEAR;
    double ty = tan(0.5 * fov_y_rad), tx = ty * aspect, k2 = tx * tx + ty * ty;
    double res = s->resolution < 4 ? 4.0 : (double)s->resolution;
    float rotf[9], pivotf[3];
    gn_csm_light_rotation(sun_dir, rotf);
    gn_csm_pivot(camera_pos, s->pivot_grid, pivotf);
    double rot[9], pivot[3];
    for (int i = 0; i < 9; i++) rot[i] = rotf[i];
    for (int i = 0; i < 3; i++) pivot[i] = pivotf[i];
    /* The view matrix's third row is -forward. */
    double fwd[3] = {-camera_view[2], -camera_view[6], -camera_view[10]};
    double fl = sqrt(fwd[0] * fwd[0] + fwd[1] * fwd[1] + fwd[2] * fwd[2]);
    for (int i = 0; i < 3; i++) fwd[i] /= fl;
    double overlap = s->overlap > 0.0f ? s->overlap : 0.0;
    for (uint32_t i = 0; i < n; i++) {
        gn_csm_cascade *c = &out[i];
        double nd = i == 0 ? near0 : far[i - 1], fd = far[i];
        /* The band reaches into the next slice but never past it; the last cascade has no next
         * one to blend into (the distance fade ends it instead). */
        double be = fd;
        if (i + 1 < n) be = fmin(fd + overlap * (fd - nd), far[i + 1]);
        double c_depth;
        double r_exact = gn_csm_slice_sphere(nd, be, k2, &c_depth);
        /* One texel of margin: snapping moves the box by up to a texel, and the sphere must
         * stay inside it. radius >= r_exact + 2 * radius / res. */
        double radius = gn_csm_round_radius(r_exact / (1.0 - 2.0 / res));
        double texel = 2.0 * radius / res;
        double center[3];
        for (int k = 0; k < 3; k++) center[k] = camera_pos[k] + fwd[k] * c_depth;
        gn_csm_cascade_matrices(rot, pivot, center, radius, texel, s->caster_extension, c);
        for (int k = 0; k < 3; k++) c->center[k] = (float)center[k];
        c->radius = (float)radius;
        c->texel = (float)texel;
        c->near_depth = (float)nd;
        c->far_depth = (float)fd;
        c->blend_end = (float)be;
    }
}

void gn_csm_caster_frustum(const gn_csm_cascade *c, gn_frustum *out)
{
    /* the ortho's rows scale x, y by 1/radius and z by 1/depth_range: normalised, each bound is a
     * plane in metres, and a sphere reaches the box when it is not wholly outside one */
    gn_frustum_from_view_proj(c->view_proj, out);
}

bool gn_csm_caster_in(const gn_frustum *box, float min_diameter, const float sphere[4])
{
    if (2.0f * sphere[3] < min_diameter) return false;
    return gn_frustum_test_sphere(box, sphere, sphere[3]);
}

bool gn_csm_caster_visible(const gn_csm_cascade *c, const float sphere[4], float min_caster_texels)
{
    gn_frustum box;
    gn_csm_caster_frustum(c, &box);
    return gn_csm_caster_in(&box, min_caster_texels * c->texel, sphere);
}

bool gn_csm_due(const gn_csm_settings *s, uint32_t cascade, uint64_t frame)
{
    if (cascade >= GN_CSM_MAX) return false;
    uint32_t p = s->update_period[cascade] ? s->update_period[cascade] : 1;
    /* The phase offset by the cascade index keeps cascades of equal or nested periods (2 and 4)
     * off the same frame, so the per-frame cost stays level. */
    return (frame + cascade) % p == 0;
}

uint32_t gn_csm_select(const gn_csm_cascade *c, uint32_t count, float view_depth, float *blend)
{
    *blend = 0.0f;
    for (uint32_t i = 0; i < count; i++) {
        bool last = i + 1 == count;
        if (view_depth <= c[i].far_depth) return i;
        if (!last && view_depth <= c[i].blend_end) {
            *blend = (view_depth - c[i].far_depth) / (c[i].blend_end - c[i].far_depth);
            return i;
        }
    }
    return count;
}

float gn_csm_fade(const gn_csm_settings *s, float view_depth)
{
    float start = GN_CSM_FADE_START * s->shadow_distance, end = s->shadow_distance;
    if (view_depth <= start) return 1.0f;
    if (view_depth >= end) return 0.0f;
    return (end - view_depth) / (end - start);
}

bool gn_csm_covers(const gn_csm_cascade *rendered, const gn_csm_cascade *now, const float camera_pos[3],
                   const float camera_view[16], float fov_y_rad, float aspect, float margin_texels)
{
    /* The view matrix's rows are right, up and -forward. */
    double axes[3][3];
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) axes[r][k] = camera_view[k * 4 + r];
    double ty = tan(0.5 * fov_y_rad), tx = ty * aspect;
    double half = rendered->radius > 0 ? (double)rendered->radius : 1.0;
    double limit = 1.0 - margin_texels * (double)rendered->texel / half;
    const double depths[2] = {now->near_depth, now->blend_end};
    for (int d = 0; d < 2; d++)
        for (int sx = -1; sx <= 1; sx += 2)
            for (int sy = -1; sy <= 1; sy += 2) {
                double p[3];
                for (int k = 0; k < 3; k++)
                    p[k] = camera_pos[k] - axes[2][k] * depths[d] + axes[0][k] * sx * tx * depths[d] +
                           axes[1][k] * sy * ty * depths[d];
                double clip[3];
                for (int r = 0; r < 3; r++)
                    clip[r] = rendered->view_proj[r] * p[0] + rendered->view_proj[4 + r] * p[1] +
                              rendered->view_proj[8 + r] * p[2] + rendered->view_proj[12 + r];
                if (fabs(clip[0]) > limit || fabs(clip[1]) > limit || clip[2] < 0.0 || clip[2] > 1.0)
                    return false;
            }
    return true;
}

/* Every default of gn_csm_desc, resolved here and nowhere else. */
void gn_csm_resolve(const gn_csm_desc *d, gn_csm_settings *s, float *normal_offset, float *bias_const,
                    float *bias_slope)
{
    memset(s, 0, sizeof *s);
    s->cascades = d->cascades ? d->cascades : 4;
    s->resolution = d->resolution ? d->resolution : 2048;
    s->near_plane = 0.1f;
    /* the town at scale 1 is ~640 m across: 600 m of view depth shadows all of it from the
     * overview (400 m left its far side unshadowed at sunset: 95.9% agreement, not 99.6%) */
    s->shadow_distance = d->shadow_distance > 0 ? d->shadow_distance : 600.0f;
    /* 0.6, as one shipped engine uses: log enough to give the near cascade ~10 m, uniform
     * enough that the far ones do not stretch over hundreds of metres each */
    s->split_lambda = d->split_lambda > 0.0f ? d->split_lambda : 0.6f;
    for (uint32_t i = 0; i < s->cascades; i++) {
        s->splits[i] = d->splits[i];
        s->explicit_splits |= d->splits[i] > 0.0f;
    }
    if (s->explicit_splits) s->shadow_distance = s->splits[s->cascades - 1]; /* the last split ends shadows */
    s->overlap = d->overlap > 0 ? d->overlap : 0.1f;
    /* near cascades every frame, the third every second, the rest every fourth frame */
    static const uint32_t periods[GN_CSM_MAX] = {1, 1, 2, 4, 4, 4, 4, 4};
    for (uint32_t i = 0; i < GN_CSM_MAX; i++)
        s->update_period[i] = d->update_period[i] ? d->update_period[i] : periods[i];
    s->pivot_grid = d->pivot_grid > 0 ? d->pivot_grid : 4096.0f;
    s->min_caster_texels = d->min_caster_texels > 0 ? d->min_caster_texels : 3.0f;
    s->caster_extension = d->caster_extension > 0 ? d->caster_extension : 1000.0f;
    *normal_offset = d->normal_offset_texels > 0 ? d->normal_offset_texels : 1.5f;
    *bias_const = d->depth_bias_constant > 0 ? d->depth_bias_constant : 1.0f;
    *bias_slope = d->depth_bias_slope > 0 ? d->depth_bias_slope : 1.5f;
}

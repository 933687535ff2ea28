/* Local light falloff, spot cone and packing. Keep every formula identical to
 * shaders/lights.glsl: the fragment shader evaluates the same numbers. */
#include "decide/lights.h"

#include <math.h>

#define GN_DEG_TO_RAD 0.017453292519943295f
/* Below this distance the direction to the light is meaningless; dividing by it instead of
 * by zero gives (0,0,0), so n.l = 0 and the BRDF adds nothing (same in the GLSL). */
#define GN_LIGHT_MIN_DISTANCE 1e-6f

static float gn_clampf(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }

float gn_light_falloff(float dist, float radius)
{
    float x = dist / radius, x2 = x * x;
    float window = gn_clampf(1.0f - x2 * x2, 0.0f, 1.0f);
    return window * window / (dist * dist + 1.0f);
}

float gn_light_spot(float cos_angle_to_axis, float cos_outer, float cos_inner)
{
    /* GLSL's smoothstep, written out. */
    float t = gn_clampf((cos_angle_to_axis - cos_outer) / (cos_inner - cos_outer), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

void gn_light_pack(const gn_light_desc *d, int32_t shadow_layer, gn_gpu_light *out)
{
    float color[3] = {d->color[0], d->color[1], d->color[2]};
    if (color[0] == 0.0f && color[1] == 0.0f && color[2] == 0.0f) color[0] = color[1] = color[2] = 1.0f;

    float outer = d->outer_angle > 0.0f ? d->outer_angle : GN_LIGHT_DEFAULT_OUTER_DEG;
    outer = gn_clampf(outer, GN_LIGHT_MIN_OUTER_DEG, GN_LIGHT_MAX_OUTER_DEG);
    /* A default inner angle keeps the default proportion (2/3) inside a narrow outer cone. */
    float inner =
        d->inner_angle > 0.0f ? d->inner_angle : fminf(GN_LIGHT_DEFAULT_INNER_DEG, outer * (2.0f / 3.0f));
    inner = gn_clampf(inner, 0.0f, outer - GN_LIGHT_MIN_EDGE_DEG);

    float dir[3] = {d->direction[0], d->direction[1], d->direction[2]};
    float len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (len > 0.0f && isfinite(len)) {
        for (int c = 0; c < 3; c++) dir[c] /= len;
    } else {
        dir[0] = 0.0f, dir[1] = -1.0f, dir[2] = 0.0f;
    }

    for (int c = 0; c < 3; c++) {
        out->position_radius[c] = d->position[c];
        out->color_type[c] = color[c] * d->intensity;
        out->direction_cos[c] = dir[c];
    }
    out->position_radius[3] = fmaxf(d->radius, GN_LIGHT_MIN_RADIUS);
    out->color_type[3] = (float)(d->type == GN_LIGHT_SPOT ? GN_LIGHT_TYPE_SPOT : GN_LIGHT_TYPE_POINT);
    out->direction_cos[3] = cosf(outer * GN_DEG_TO_RAD);
    out->params[0] = cosf(inner * GN_DEG_TO_RAD);
    out->params[1] = (float)shadow_layer;
    /* sin(outer): the froxel binning's cone test (clusters.c) then needs no sqrt, so the GPU
     * reproduces it to the bit. */
    out->params[2] = sinf(outer * GN_DEG_TO_RAD);
    out->params[3] = d->night ? 1.0f : 0.0f; /* the forward pass scales it by the night level */
}

void gn_light_radiance(const gn_gpu_light *l, const float p[3], float out_rgb[3], float out_to_light[3])
{
    float v[3] = {l->position_radius[0] - p[0], l->position_radius[1] - p[1], l->position_radius[2] - p[2]};
    float dist = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    float inv = 1.0f / fmaxf(dist, GN_LIGHT_MIN_DISTANCE);
    for (int c = 0; c < 3; c++) out_to_light[c] = v[c] * inv;
    float a = gn_light_falloff(dist, l->position_radius[3]);
    if (l->color_type[3] > 0.5f) { /* GN_LIGHT_TYPE_SPOT */
        float cos_angle = -(out_to_light[0] * l->direction_cos[0] + out_to_light[1] * l->direction_cos[1] +
                            out_to_light[2] * l->direction_cos[2]);
        a *= gn_light_spot(cos_angle, l->direction_cos[3], l->params[0]);
    }
    for (int c = 0; c < 3; c++) out_rgb[c] = l->color_type[c] * a;
}

gn_lights_settings gn_lights_resolve(const gn_lights_desc *d)
{
    gn_lights_settings s;
    s.x = d->cluster_x ? d->cluster_x : GN_CLUSTER_X;
    s.y = d->cluster_y ? d->cluster_y : GN_CLUSTER_Y;
    s.z = d->cluster_z ? d->cluster_z : GN_CLUSTER_Z;
    s.max_lights = d->cluster_max_lights ? d->cluster_max_lights : GN_CLUSTER_MAX_LIGHTS;
    /* slices run from the camera's near plane to 1 km: the town's far edge from any camera
     * at scale 1 is within 800 m; lights beyond the last slice share it */
    s.far_depth = d->cluster_far > 0 ? d->cluster_far : 1000.0f;
    s.max_shadowed = d->shadowed_lights ? d->shadowed_lights : 16;
    s.shadow_resolution = d->shadow_resolution ? d->shadow_resolution : 512;
    s.max_layers = 6 * s.max_shadowed;
    return s;
}

/* glTF 2.0 KHR_lights_punctual lights as gnomon local lights (gltf.h). assimp 5.2's glTF
 * importer gives each light (aiScene.mLights) the name of the node that places it, its
 * colour times its intensity as mColorDiffuse, its cone angles in radians, and its range in
 * that node's metadata ("PBR_LightRange"); glTF puts a light at its node's origin, shining
 * down the node's -Z, so the node walk (gltf.c) finds each light's node by name and the world
 * transform gives position and direction. aiLight's own mPosition and mDirection are not used:
 * they are the node-local origin and -Z, which the transform already carries.
 *
 * The mapping (docs/POST.md, "Units"):
 * - point and spot lights are in candela, like gn_light_desc.intensity: factor 1. The colour
 *   is scaled so that its largest channel is 1 and the intensity takes the factor, which is
 *   the file's intensity for any colour with a channel at 1 (white, the default, included);
 *   the renderer multiplies the two again, so the light is the file's either way.
 * - radius: the file's range where it has one (the distance where the light reaches zero, as
 *   gnomon's radius; the node's scale leaves it alone, as the extension says), up to
 *   GN_GLTF_LIGHT_MAX_RADIUS; without one, glTF's light never ends
 *   (inverse square), and the radius is where gnomon's falloff, intensity / (d^2 + 1), comes
 *   down to GN_GLTF_LIGHT_CUTOFF_LUX, within GN_GLTF_LIGHT_MIN_RADIUS..GN_GLTF_LIGHT_MAX_RADIUS.
 * - spot cones: glTF's angles from the axis in radians (inner where the falloff starts, outer
 *   where it reaches zero), as degrees. An outer angle past gnomon's 89 is held there; an inner
 *   of 0 becomes outer / 1000 (gnomon reads 0 as "default"), one equal to the outer (a hard
 *   edge) 0.99 x outer (gnomon's cone needs inner < outer).
 * - every light casts shadows (the renderer's budget shadows the nearest; glTF has no flag) and
 *   burns day and night.
 * - directional lights (lux) are counted and left out with a warning: gnomon's one directional
 *   light is the sun, placed by the frame's time of day.
 * A light that cannot be placed (a non-finite place or value; on no node, which assimp's
 * validation refuses first) is left out with a warning, one line per kind of fault; so are
 * those past the scene's GN_MAX_LIGHTS. The file's own checks (gltf_check.c) have already
 * refused out-of-range values and a light index past the file's lights. */
#include "base/alloc.h"
#include "base/error.h"
#include "formats/gltf_ctx.h"

#include <assimp/light.h>
#include <assimp/metadata.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GN_GLTF_LIGHT_CUTOFF_LUX 0.01f   /* a white surface there shows 0.003 nits: black at EV100 -2 */
#define GN_GLTF_LIGHT_MIN_RADIUS 0.1f    /* metres; a light under 0.01 cd gets this */
#define GN_GLTF_LIGHT_MAX_RADIUS 1000.0f /* metres; from 10,000 cd on without a range */
#define GN_GLTF_SPOT_OUTER_MAX 89.0f     /* degrees: the scene's limit (lights.c) */
#define GN_GLTF_SPOT_INNER_MIN 0.001f    /* times the outer angle: glTF's inner 0 */
#define GN_GLTF_SPOT_INNER_MAX 0.99f     /* times the outer angle: a hard edge */
#define GN_GLTF_RAD_TO_DEG 57.29577951308232f

/* One named light in the search index. */
typedef struct gn_gltf_light_name {
    const char *name;
    uint32_t light;
} gn_gltf_light_name;

static int gn_gltf_light_name_cmp(const void *a, const void *b)
{
    const gn_gltf_light_name *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x->light > y->light) - (x->light < y->light);
}

gn_result gn_gltf_lights_prepare(gn_gltf_ctx *c)
{
    uint32_t n = c->ai->mNumLights;
    if (n == 0) return GN_OK;
    if (n > GN_GLTF_MAX_LIGHTS)
        return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: %u lights, more than the cap of %u", c->name, n,
                       GN_GLTF_MAX_LIGHTS);
    if (!c->ai->mLights) return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: %u lights and no list", c->name, n);
    c->light_names = gn_calloc(n, sizeof *c->light_names);
    c->light_node = gn_calloc(n, sizeof *c->light_node);
    c->light_world = gn_calloc(n, sizeof *c->light_world);
    if (!c->light_names || !c->light_node || !c->light_world)
        return gn_fail(c->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %u lights", c->name, n);
    for (uint32_t i = 0; i < n; i++) {
        const struct aiLight *l = c->ai->mLights[i];
        if (!l) return gn_fail(c->err, GN_ERROR_BAD_DATA, "%s: light %u is missing", c->name, i);
        /* assimp names a light only when a node of the scene places it */
        if (l->mName.length) c->light_names[c->light_name_count++] = (gn_gltf_light_name){l->mName.data, i};
    }
    qsort(c->light_names, c->light_name_count, sizeof *c->light_names, gn_gltf_light_name_cmp);
    return GN_OK;
}

void gn_gltf_lights_node(gn_gltf_ctx *c, const struct aiNode *node, const float world[16])
{
    if (!c->light_name_count) return;
    /* the first entry with the node's name: lower bound */
    uint32_t lo = 0, hi = c->light_name_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(c->light_names[mid].name, node->mName.data) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t k = lo; k < c->light_name_count && strcmp(c->light_names[k].name, node->mName.data) == 0;
         k++) {
        uint32_t i = c->light_names[k].light;
        /* one node a name: assimp's validation (gn_gltf_import_flags) refuses a light whose
         * name two nodes share, so the first is the only one */
        if (c->light_node[i]) continue;
        c->light_node[i] = node;
        memcpy(c->light_world[i], world, sizeof c->light_world[i]);
    }
}

void gn_gltf_lights_free(gn_gltf_ctx *c)
{
    free(c->light_names), free(c->light_node), free(c->light_world);
    c->light_names = NULL, c->light_node = NULL, c->light_world = NULL;
    c->light_name_count = 0;
}

/* The glTF range assimp keeps in the light's node metadata; false when there is none. */
static bool gn_gltf_node_range(const struct aiNode *node, float *out)
{
    const struct aiMetadata *m = node->mMetaData;
    for (uint32_t i = 0; m && m->mKeys && m->mValues && i < m->mNumProperties; i++) {
        if (strcmp(m->mKeys[i].data, "PBR_LightRange") != 0 || !m->mValues[i].mData) continue;
        if (m->mValues[i].mType == AI_FLOAT) return *out = *(const float *)m->mValues[i].mData, true;
        if (m->mValues[i].mType == AI_DOUBLE) return *out = (float)*(const double *)m->mValues[i].mData, true;
    }
    return false;
}

static bool gn_gltf_finite_rgb(const struct aiColor3D *v)
{
    return isfinite(v->r) && isfinite(v->g) && isfinite(v->b);
}

/* Why a light is left out, counted, with the first one's name for the warning. */
enum { GN_LS_NO_NODE, GN_LS_BAD_VALUE, GN_LS_BAD_PLACE, GN_LS_OTHER_TYPE, GN_LS_NO_ROOM, GN_LS_COUNT };
typedef struct gn_gltf_light_skips {
    uint32_t count[GN_LS_COUNT];
    uint32_t first[GN_LS_COUNT];
    uint32_t ranges_held; /* ranges past GN_GLTF_LIGHT_MAX_RADIUS */
    float brightest_sun;  /* lux, of the directional lights left out */
} gn_gltf_light_skips;

static void gn_gltf_light_skip(gn_gltf_light_skips *k, int why, uint32_t light)
{
    if (k->count[why]++ == 0) k->first[why] = light;
}

/* Light i as a gnomon light; false (counted in k) when it cannot be one. */
static bool gn_gltf_light_desc(gn_gltf_ctx *c, uint32_t i, gn_gltf_light_skips *k, gn_light_desc *out)
{
    const struct aiLight *l = c->ai->mLights[i];
    const struct aiColor3D *rgb = &l->mColorDiffuse;
    float peak = fmaxf(rgb->r, fmaxf(rgb->g, rgb->b));
    bool spot = l->mType == aiLightSource_SPOT;
    if (l->mType != aiLightSource_POINT && !spot && l->mType != aiLightSource_DIRECTIONAL) {
        gn_gltf_light_skip(k, GN_LS_OTHER_TYPE, i);
        return false;
    }
    /* Checked before the node: a file's fault is named as such even where it has no place. */
    if (!gn_gltf_finite_rgb(rgb) || !(fminf(rgb->r, fminf(rgb->g, rgb->b)) >= 0.0f) ||
        !(peak <= (float)GN_GLTF_MAX_LIGHT_INTENSITY) ||
        (spot && (!isfinite(l->mAngleInnerCone) || !isfinite(l->mAngleOuterCone) ||
                  !(l->mAngleOuterCone > 0.0f) || !(l->mAngleInnerCone >= 0.0f)))) {
        gn_gltf_light_skip(k, GN_LS_BAD_VALUE, i);
        return false;
    }
    if (l->mType == aiLightSource_DIRECTIONAL) {
        c->st.directional_lights++;
        k->brightest_sun = fmaxf(k->brightest_sun, peak);
        return false;
    }
    const struct aiNode *node = c->light_node ? c->light_node[i] : NULL;
    if (!node) {
        gn_gltf_light_skip(k, GN_LS_NO_NODE, i);
        return false;
    }
    const float *w = c->light_world[i];
    gn_light_desc d = {.type = spot ? GN_LIGHT_SPOT : GN_LIGHT_POINT, .cast_shadows = true};
    for (int a = 0; a < 3; a++) d.position[a] = w[12 + a], d.direction[a] = -w[8 + a]; /* origin, -Z */
    float dir_len = sqrtf(d.direction[0] * d.direction[0] + d.direction[1] * d.direction[1] +
                          d.direction[2] * d.direction[2]);
    if (!isfinite(d.position[0]) || !isfinite(d.position[1]) || !isfinite(d.position[2]) ||
        (spot && !(dir_len > 1e-12f && isfinite(dir_len)))) {
        gn_gltf_light_skip(k, GN_LS_BAD_PLACE, i);
        return false;
    }
    /* colour x intensity, as assimp gives it: the largest channel becomes the intensity */
    d.intensity = peak;
    if (peak > 0.0f) d.color[0] = rgb->r / peak, d.color[1] = rgb->g / peak, d.color[2] = rgb->b / peak;
    float range;
    if (gn_gltf_node_range(node, &range) && range > 0.0f && isfinite(range)) {
        if (range > GN_GLTF_LIGHT_MAX_RADIUS) k->ranges_held++;
        d.radius = fminf(range, GN_GLTF_LIGHT_MAX_RADIUS);
    } else {
        float r = sqrtf(fmaxf(peak / GN_GLTF_LIGHT_CUTOFF_LUX - 1.0f, 0.0f));
        d.radius = fminf(fmaxf(r, GN_GLTF_LIGHT_MIN_RADIUS), GN_GLTF_LIGHT_MAX_RADIUS);
    }
    if (spot) {
        d.outer_angle = fminf(l->mAngleOuterCone * GN_GLTF_RAD_TO_DEG, GN_GLTF_SPOT_OUTER_MAX);
        d.inner_angle =
            fminf(fmaxf(l->mAngleInnerCone * GN_GLTF_RAD_TO_DEG, GN_GLTF_SPOT_INNER_MIN * d.outer_angle),
                  GN_GLTF_SPOT_INNER_MAX * d.outer_angle);
    }
    *out = d;
    return true;
}

gn_result gn_gltf_lights_add(gn_gltf_ctx *c)
{
    gn_gltf_light_skips k = {0};
    for (uint32_t i = 0; i < c->ai->mNumLights; i++) {
        gn_light_desc d;
        if (!gn_gltf_light_desc(c, i, &k, &d)) continue;
        if (gn_scene_light_count(c->s) >= GN_MAX_LIGHTS) {
            gn_gltf_light_skip(&k, GN_LS_NO_ROOM, i);
            continue;
        }
        gn_result r = gn_scene_add_light(c->s, &d, NULL, c->err);
        if (r != GN_OK) return r;
        if (d.type == GN_LIGHT_SPOT)
            c->st.spot_lights++;
        else
            c->st.point_lights++;
    }
    static const char *const why[GN_LS_COUNT] = {
        [GN_LS_NO_NODE] = "on no node of the scene",
        [GN_LS_BAD_VALUE] = "with a negative or non-finite colour, intensity or cone, or over the cap",
        [GN_LS_BAD_PLACE] = "whose node's transform gives a non-finite place or no direction",
        [GN_LS_OTHER_TYPE] = "of a type glTF does not define (not point, spot or directional)",
        [GN_LS_NO_ROOM] = "past the scene's GN_MAX_LIGHTS",
    };
    for (int w = 0; w < GN_LS_COUNT; w++) {
        if (!k.count[w]) continue;
        c->st.skipped_lights += k.count[w];
        const char *name = c->ai->mLights[k.first[w]]->mName.data;
        gn_gltf_log(c, GN_LOG_WARN, "%u KHR_lights_punctual lights %s left out (the first: light %u%s%s%s)",
                    k.count[w], why[w], k.first[w], *name ? " '" : "", name, *name ? "'" : "");
    }
    if (c->st.directional_lights)
        gn_gltf_log(c, GN_LOG_WARN,
                    "%u directional KHR_lights_punctual lights (up to %g lux) left out: gnomon's one "
                    "directional light is the sun, placed by the frame's time of day",
                    c->st.directional_lights, (double)k.brightest_sun);
    if (k.ranges_held)
        gn_gltf_log(c, GN_LOG_WARN, "%u KHR_lights_punctual ranges past %g m held at %g m", k.ranges_held,
                    (double)GN_GLTF_LIGHT_MAX_RADIUS, (double)GN_GLTF_LIGHT_MAX_RADIUS);
    if (c->st.point_lights || c->st.spot_lights)
        gn_gltf_log(c, GN_LOG_INFO, "%u point and %u spot lights (KHR_lights_punctual)", c->st.point_lights,
                    c->st.spot_lights);
    return GN_OK;
}

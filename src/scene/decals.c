/* gn_scene_add_decal: a decal checked at the door, its defaults resolved and its frame derived
 * (decide/decal.h), kept with the texture set it names. */
#include "scene/scene.h"

#include <math.h>
#include <string.h>

_Static_assert(GN_MAX_DECALS == GN_DECAL_MAX, "the public cap is the decision module's");
_Static_assert(GN_MAX_DECAL_SETS == GN_DECAL_MAX_SETS, "the public cap is the decision module's");

#define DEG 0.017453292519943295f

/* A public texture id (from 1) of an RGBA8 texture into the store's index; `what` names it. */
static gn_result texture_index(const gn_scene *s, uint32_t id, const char *what, uint32_t *out, gn_error *err)
{
    if (id == 0 || id > s->texture_count)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "decal %u: %s %u is not a texture of the scene (1..%u)", s->decal_count, what, id,
                       s->texture_count);
    if (s->textures[id - 1].format != GN_TEXTURE_RGBA8)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "decal %u: %s %u is not an RGBA8 texture",
                       s->decal_count, what, id);
    *out = id - 1;
    return GN_OK;
}

gn_result gn_scene_add_decal(gn_scene *s, const gn_decal_desc *d, uint32_t *out_id, gn_error *err)
{
    if (!s || !d) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_add_decal: NULL argument");
    uint32_t id = s->decal_count;
    if (id >= GN_MAX_DECALS)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "decal %u: the scene holds %u decals, the most it may",
                       id, GN_MAX_DECALS);
    gn_decal dc;
    memset(&dc, 0, sizeof dc);
    if (!gn_decal_place(d->transform, &dc))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "decal %u: the transform is not a finite affine box with edges of at least %g m that "
                       "are not coplanar",
                       id, (double)GN_DECAL_MIN_SIZE);
    gn_decal_textures set = {GN_DECAL_NO_TEXTURE, GN_DECAL_NO_TEXTURE};
    gn_result res = texture_index(s, d->base_color_texture, "base colour texture", &set.base, err);
    if (!res && d->normal_texture)
        res = texture_index(s, d->normal_texture, "normal texture", &set.normal, err);
    if (res) return res;
    bool tint = d->color[0] != 0 || d->color[1] != 0 || d->color[2] != 0 || d->color[3] != 0;
    for (int i = 0; i < 4; i++) {
        dc.color[i] = tint ? d->color[i] : 1.0f;
        if (!(isfinite(dc.color[i]) && dc.color[i] >= 0.0f))
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "decal %u: colour[%d] %g is not finite and >= 0",
                           id, i, (double)dc.color[i]);
    }
    dc.opacity = d->opacity == 0.0f ? 1.0f : d->opacity;
    float start = d->fade_start_deg == 0.0f ? 60.0f : d->fade_start_deg;
    float end = d->fade_end_deg == 0.0f ? 75.0f : d->fade_end_deg;
    dc.roughness = d->roughness == 0.0f ? 0.8f : d->roughness;
    dc.metallic = d->metallic;
    if (!(dc.opacity > 0.0f && dc.opacity <= 1.0f))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "decal %u: opacity %g is not in (0, 1]", id,
                       (double)dc.opacity);
    if (!(start >= 0.0f && start < end && end <= 180.0f))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "decal %u: angle fade from %g to %g degrees: want 0 <= start < end <= 180", id,
                       (double)start, (double)end);
    if (!(dc.roughness >= GN_MATERIAL_MIN_ROUGHNESS && dc.roughness <= 1.0f))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "decal %u: roughness %g is not in [%g, 1]", id,
                       (double)dc.roughness, (double)GN_MATERIAL_MIN_ROUGHNESS);
    if (!(dc.metallic >= 0.0f && dc.metallic <= 1.0f))
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "decal %u: metallic %g is not in [0, 1]", id,
                       (double)dc.metallic);
    dc.fade_start = cosf(start * DEG);
    dc.fade_end = cosf(end * DEG);
    /* the texture set: an existing one, or a new one at the end */
    uint32_t k = 0;
    while (k < s->decal_set_count &&
           (s->decal_sets[k].base != set.base || s->decal_sets[k].normal != set.normal))
        k++;
    if (k == GN_MAX_DECAL_SETS)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "decal %u: a texture set beyond the scene's %u", id,
                       GN_MAX_DECAL_SETS);
    if (!gn_grow((void **)&s->decals, &s->decal_cap, (uint64_t)id + 1, sizeof *s->decals, GN_MAX_DECALS))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "decal %u: out of memory", id);
    if (k == s->decal_set_count) s->decal_sets[s->decal_set_count++] = set;
    dc.texture_set = k;
    s->decals[id] = dc;
    s->decal_count++;
    s->decal_generation++;
    if (out_id) *out_id = id;
    return GN_OK;
}

/* A map's Quake 3 shader images as one square array, a layer a slot, shader after shader, with its
 * mip chain: decided once when the map loads (the GPU side only copies it: a renderer made again
 * for the same scene, or a second one for reflection probes, does not resample and filter again). */
#include "base/alloc.h"
#include "base/image.h"
#include "decide/q3_material.h"
#include "scene/scene.h"

#include <string.h>

/* The side: the largest image's, as a power of two, at most GN_Q3_ARRAY_MAX_SIDE. Smaller images
 * are scaled up by whole factors where they are powers of two too (Quake 3's are), so the mip a
 * sample picks holds the image's own texels; larger ones are sampled down to it, as the game's own
 * default (r_picmip 1) halves a 512 image. At 512, oa_dm1's 53 layers were 74 MB with their mips and
 * its upload took 1.8 s on lavapipe (the single-image path's frames: 0.7 s); at 256, 18 MB and as
 * fast as the single-image path. */
#define GN_Q3_ARRAY_MAX_SIDE 256u

/* One layer: the slot's RGBA8 texels resampled (nearest) to side x side; white for a missing image
 * or one stored in another format. */
static void fill_layer(const gn_scene *s, uint32_t tex, uint32_t side, uint8_t *out)
{
    const gn_texture *t = tex != GN_NO_TEXTURE && tex < s->texture_count ? &s->textures[tex] : NULL;
    if (!t || t->format != GN_TEXTURE_RGBA8 || !t->texels || !t->width || !t->height) {
        memset(out, 255, (size_t)side * side * 4);
        return;
    }
    for (uint32_t y = 0; y < side; y++) {
        uint32_t sy = (uint32_t)((uint64_t)y * t->height / side);
        for (uint32_t x = 0; x < side; x++) {
            uint32_t sx = (uint32_t)((uint64_t)x * t->width / side);
            memcpy(&out[((size_t)y * side + x) * 4], &t->texels[((size_t)sy * t->width + sx) * 4], 4);
        }
    }
}

gn_result gn_scene_q3_build_array(gn_scene *s, gn_error *err)
{
    gn_scene_q3_array *a = &s->q3_array;
    uint32_t layers = 0, side = 1;
    for (uint32_t q = 0; q < s->q3_count; q++) {
        s->q3[q].first_layer = layers;
        layers += s->q3[q].mat->slot_count ? s->q3[q].mat->slot_count : 1;
        for (uint32_t k = 0; k < s->q3[q].mat->slot_count; k++) {
            uint32_t t = s->q3[q].slot_texture[k];
            if (t == GN_NO_TEXTURE || t >= s->texture_count) continue;
            while (side < GN_Q3_ARRAY_MAX_SIDE &&
                   (side < s->textures[t].width || side < s->textures[t].height))
                side *= 2;
        }
    }
    if (!layers) return GN_OK;
    if (layers > GN_SCENE_Q3_MAX_LAYERS)
        return gn_fail(err, GN_ERROR_BAD_DATA, "the map's shaders name %u images, over the cap of %u", layers,
                       GN_SCENE_Q3_MAX_LAYERS);
    uint32_t levels = gn_mip_levels(side, side);
    size_t bytes = 0;
    for (uint32_t l = 0; l < levels; l++) bytes += (size_t)(side >> l) * (side >> l) * 4 * layers;
    uint8_t *px = gn_malloc(bytes);
    if (!px)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u shader images of %u^2", layers,
                       side);
    size_t layer_bytes = (size_t)side * side * 4;
    for (uint32_t q = 0; q < s->q3_count; q++) {
        for (uint32_t k = 0; k < s->q3[q].mat->slot_count; k++)
            fill_layer(s, s->q3[q].slot_texture[k], side, px + layer_bytes * (s->q3[q].first_layer + k));
        if (!s->q3[q].mat->slot_count) memset(px + layer_bytes * s->q3[q].first_layer, 255, layer_bytes);
    }
    /* each level from the one above, layer by layer (as every texture's: lavapipe and GPUs filter alike) */
    uint8_t *level = px;
    for (uint32_t l = 1; l < levels; l++) {
        uint32_t w = side >> (l - 1), n = side >> l;
        uint8_t *next = level + (size_t)w * w * 4 * layers;
        for (uint32_t k = 0; k < layers; k++)
            gn_mip_down(level + (size_t)w * w * 4 * k, w, w, true, next + (size_t)n * n * 4 * k);
        level = next;
    }
    a->texels = px;
    a->side = side;
    a->layers = layers;
    a->levels = levels;
    return GN_OK;
}

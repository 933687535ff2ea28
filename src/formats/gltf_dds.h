/* glTF images in .dds files (gltf_dds.c): MSFT_texture_dds and AMD_split_roughnessMetallic's
 * roughness map, which assimp 5.2 does not pass on. Internal to src/formats/gltf*.c. */
#ifndef GN_FORMATS_GLTF_DDS_H
#define GN_FORMATS_GLTF_DDS_H

#include "formats/gltf_ctx.h"

#include <stdbool.h>
#include <stddef.h>

bool gn_gltf_dds_key(const char *key); /* an image path ending in .dds (any case) */

/* Each material's AMD_split_roughnessMetallic roughness image (through MSFT_texture_dds where
 * the texture has it) into c->dds_roughness, read from the file's JSON again (c->name; nothing
 * for a scene from memory). Only out of memory fails; _free releases them. */
gn_result gn_gltf_dds_roughness_read(gn_gltf_ctx *c);
void gn_gltf_dds_roughness_free(gn_gltf_ctx *c);

/* Reads the .dds at c->dir + key and adds it to the scene (*texture, a public id): its blocks
 * as they are, or RGBA8 level 0 for an uncompressed file. srgb: colour data; swizzle: 4 of
 * "rgba01" or NULL (gn_texture.swizzle). Returns NULL when added, else why not (a warning:
 * *r GN_OK; in why when the parser said it), with *r set where the load must fail (out of
 * memory, the decoded-images cap, the scene's refusal). */
const char *gn_gltf_dds_add(gn_gltf_ctx *c, const char *key, bool srgb, const char *swizzle,
                            uint32_t *texture, gn_result *r, char *why, size_t why_size);

#endif

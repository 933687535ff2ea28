/* DirectDraw Surface (.dds) files holding one 2D texture, and CPU decoders for the block
 * formats they carry (BC1-BC7). Pure C with no Vulkan and no I/O: the parser reads a
 * buffer and points into it; the renderer uploads the blocks as they are where the device
 * samples the format, and decodes them to RGBA8 here where it does not (BC6H's HDR clamped to
 * 0..1: the material slots that take these textures hold 8-bit colour). glTF files reach DDS
 * images through MSFT_texture_dds (Sponza's roughness maps, BC4). docs/MATERIALS.md
 * "DDS and block-compressed textures" lists what is read and what is refused. */
#ifndef GN_FORMATS_DDS_H
#define GN_FORMATS_DDS_H

#include "gnomon.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GN_DDS_MAX_SIDE 8192u    /* GN_TEXTURE_MAX_SIZE (scene/scene.h): the scene takes no larger */
#define GN_DDS_MAX_LEVELS 14u    /* the full chain of an 8192-texel side */
#define GN_DDS_HEADER_BYTES 128u /* the magic and DDS_HEADER */
#define GN_DDS_DX10_BYTES 20u    /* DDS_HEADER_DXT10, after the header when the FourCC is "DX10" */

/* What the texels are; 0 is none. The block formats store 4x4 texels a block; BC6H sits before
 * BC7 so that GN_DDS_BC1..GN_DDS_BC7 spans every block format (scene.c checks that range). */
typedef enum gn_dds_format {
    GN_DDS_NONE = 0,
    GN_DDS_BC1,       /* 8-byte blocks: two RGB565 colours, 2-bit indices, optional 1-bit alpha */
    GN_DDS_BC2,       /* 16: explicit 4-bit alpha, then a BC1 colour block (always 4 colours) */
    GN_DDS_BC3,       /* 16: a BC4 block for alpha, then a BC1 colour block (always 4 colours) */
    GN_DDS_BC4,       /* 8: one channel (red), two 8-bit endpoints and 3-bit indices */
    GN_DDS_BC5,       /* 16: two BC4 blocks, red then green */
    GN_DDS_BC6H_UF16, /* 16: HDR RGB in one of 14 modes (1 or 2 regions), unsigned half floats */
    GN_DDS_BC6H_SF16, /* 16: the same with signed half floats */
    GN_DDS_BC7,       /* 16: RGBA in one of 8 modes (1-3 subsets, p-bits, rotation) */
    GN_DDS_RGBA8,     /* uncompressed, 4 bytes a texel (DXGI R8G8B8A8) */
} gn_dds_format;

typedef struct gn_dds_image {
    gn_dds_format format;
    bool srgb;              /* a DXGI _SRGB format; a legacy FourCC says nothing, so false */
    uint32_t width, height; /* level 0, 1..GN_DDS_MAX_SIDE */
    uint32_t levels;        /* mip levels in the file, 1..the full chain */
    const uint8_t *data;    /* level 0's first block, inside the parsed buffer */
    uint64_t size;          /* bytes of every level together, from data */
    uint64_t level_offset[GN_DDS_MAX_LEVELS]; /* each level's first byte, from data */
} gn_dds_image;

/* Parses size bytes of a .dds file. name labels the messages ("rough.dds: DX10 header:
 * arraySize 6: only single textures are read"). A malformed or unsupported file is
 * GN_ERROR_BAD_DATA with one line naming the file and the field; *out is zeroed then. *out
 * points into file, which must outlive it. */
gn_result gn_dds_parse(const uint8_t *file, size_t size, const char *name, gn_dds_image *out, gn_error *err);

const char *gn_dds_format_name(gn_dds_format f); /* "BC7", "RGBA8"; "none" for others */
uint32_t gn_dds_block_bytes(gn_dds_format f);    /* a block's bytes (a texel's for RGBA8); 0: none */
uint32_t gn_dds_block_side(gn_dds_format f);     /* texels a block side: 4, or 1 for RGBA8 */
/* Bytes of one w x h level: whole blocks, so a 2x2 level of BC7 is one 16-byte block. */
uint64_t gn_dds_level_bytes(gn_dds_format f, uint32_t w, uint32_t h);

/* One block to 16 RGBA8 texels, row by row (texel x + 4 y at rgba + 4 (x + 4 y)). BC4 gives
 * (r, 0, 0, 255) and BC5 (r, g, 0, 255), as the GPU's formats read; BC1 a transparent black
 * for index 3 when colour 0 <= colour 1. */
void gn_bc1_decode_block(const uint8_t block[8], uint8_t rgba[64]);
void gn_bc2_decode_block(const uint8_t block[16], uint8_t rgba[64]);
void gn_bc3_decode_block(const uint8_t block[16], uint8_t rgba[64]);
void gn_bc4_decode_block(const uint8_t block[8], uint8_t rgba[64]);
void gn_bc5_decode_block(const uint8_t block[16], uint8_t rgba[64]);
/* Every mode of the Khronos Data Format Specification's BC7 (and ARB_texture_compression_bptc):
 * a reserved mode (low byte 0) decodes to transparent black, as the hardware returns. */
void gn_bc7_decode_block(const uint8_t block[16], uint8_t rgba[64]);

/* One BC6H block to 16 RGBA texels of IEEE half floats (alpha 1.0, 0x3c00), row by row as
 * above; is_signed: DXGI BC6H_SF16 (VK_FORMAT_BC6H_SFLOAT_BLOCK), else UF16. Every mode of the
 * Khronos Data Format Specification's BC6H; a reserved mode decodes to (0, 0, 0, 1). */
void gn_bc6h_decode_block(const uint8_t block[16], bool is_signed, uint16_t rgba[64]);
float gn_half_to_float(uint16_t h); /* an IEEE half's value, infinities and NaN included */

/* Rearranges count RGBA8 texels: each channel from swizzle's letter ('r', 'g', 'b', 'a': a
 * stored channel; '0', '1': 0 or 255), as a Vulkan image view's component mapping does. */
void gn_dds_swizzle(uint8_t *rgba, size_t count, const char swizzle[4]);

/* A w x h level of f (gn_dds_level_bytes(f, w, h) bytes) to w * h * 4 bytes of RGBA8, row by
 * row; the texels of edge blocks past the level are dropped. BC6H's linear values are clamped
 * to 0..1 (negatives and NaN to 0) and rounded to 8 bits, still linear: the caller uploads them
 * as UNORM, not sRGB. False for GN_DDS_NONE. */
bool gn_dds_decode(gn_dds_format f, const uint8_t *blocks, uint32_t w, uint32_t h, uint8_t *rgba);

#endif

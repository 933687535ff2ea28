/* The .dds reader (dds.h), after Microsoft's "DDS file layout": the magic "DDS ", the 124-byte
 * DDS_HEADER with its 32-byte DDS_PIXELFORMAT, the 20-byte DDS_HEADER_DXT10 when the FourCC is
 * "DX10", then each mip level's blocks, largest first. Every field is read little-endian from
 * the buffer (never a struct cast, so alignment and padding do not matter) and checked before
 * it sizes anything; the levels are summed in 64 bits against the file's size. */
#include "formats/dds.h"

#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* DDS_HEADER.dwFlags (DDSD_*) */
#define DDSD_CAPS 0x1u
#define DDSD_HEIGHT 0x2u
#define DDSD_WIDTH 0x4u
#define DDSD_PITCH 0x8u
#define DDSD_PIXELFORMAT 0x1000u
#define DDSD_MIPMAPCOUNT 0x20000u
#define DDSD_LINEARSIZE 0x80000u
#define DDSD_DEPTH 0x800000u
#define DDSD_KNOWN                                                                                           \
    (DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PITCH | DDSD_PIXELFORMAT | DDSD_MIPMAPCOUNT |               \
     DDSD_LINEARSIZE | DDSD_DEPTH)
/* DDS_PIXELFORMAT.dwFlags (DDPF_*) */
#define DDPF_ALPHAPIXELS 0x1u
#define DDPF_FOURCC 0x4u
/* dwCaps2 */
#define DDSCAPS2_CUBEMAP 0x200u
#define DDSCAPS2_VOLUME 0x200000u
/* DDS_HEADER_DXT10 */
#define DDS_DIMENSION_TEXTURE2D 3u
#define DDS_RESOURCE_MISC_TEXTURECUBE 0x4u
#define DDS_ALPHA_MODE_MAX                                                                                   \
    4u /* miscFlags2's low 3 bits: unknown, straight, premultiplied, opaque, custom                          \
        */

/* The DXGI_FORMAT values read; every other one is refused by number. */
enum {
    DXGI_R8G8B8A8_UNORM = 28,
    DXGI_R8G8B8A8_UNORM_SRGB = 29,
    DXGI_BC1_UNORM = 71,
    DXGI_BC1_UNORM_SRGB = 72,
    DXGI_BC2_UNORM = 74,
    DXGI_BC2_UNORM_SRGB = 75,
    DXGI_BC3_UNORM = 77,
    DXGI_BC3_UNORM_SRGB = 78,
    DXGI_BC4_UNORM = 80,
    DXGI_BC5_UNORM = 83,
    DXGI_BC6H_UF16 = 95, /* typeless (94) is refused: it says neither signed nor unsigned */
    DXGI_BC6H_SF16 = 96,
    DXGI_BC7_UNORM = 98,
    DXGI_BC7_UNORM_SRGB = 99,
};

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t fourcc(const char s[4])
{
    return (uint32_t)(uint8_t)s[0] | (uint32_t)(uint8_t)s[1] << 8 | (uint32_t)(uint8_t)s[2] << 16 |
           (uint32_t)(uint8_t)s[3] << 24;
}

/* A FourCC for a message: printable bytes as they are, others as '?'. */
static void fourcc_text(uint32_t v, char out[5])
{
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)(v >> (8 * i));
        out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    out[4] = '\0';
}

static gn_result __attribute__((format(printf, 4, 5)))
dds_bad(gn_dds_image *out, gn_error *err, const char *name, const char *fmt, ...)
{
    char what[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    memset(out, 0, sizeof *out);
    return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %s", name, what);
}

const char *gn_dds_format_name(gn_dds_format f)
{
    static const char *const names[] = {"none", "BC1",       "BC2",       "BC3", "BC4",
                                        "BC5",  "BC6H UF16", "BC6H SF16", "BC7", "RGBA8"};
    return (unsigned)f < sizeof names / sizeof names[0] ? names[f] : "none";
}

uint32_t gn_dds_block_bytes(gn_dds_format f)
{
    switch (f) {
    case GN_DDS_BC1:
    case GN_DDS_BC4:
        return 8;
    case GN_DDS_BC2:
    case GN_DDS_BC3:
    case GN_DDS_BC5:
    case GN_DDS_BC6H_UF16:
    case GN_DDS_BC6H_SF16:
    case GN_DDS_BC7:
        return 16;
    case GN_DDS_RGBA8:
        return 4;
    default:
        return 0;
    }
}

uint32_t gn_dds_block_side(gn_dds_format f) { return f == GN_DDS_RGBA8 ? 1u : 4u; }

uint64_t gn_dds_level_bytes(gn_dds_format f, uint32_t w, uint32_t h)
{
    uint32_t s = gn_dds_block_side(f);
    return (uint64_t)((w + s - 1) / s) * ((h + s - 1) / s) * gn_dds_block_bytes(f);
}

/* The legacy FourCCs of DDS_PIXELFORMAT (the D3D9 names and the ATI/AMD ones). */
static gn_dds_format from_fourcc(uint32_t cc)
{
    if (cc == fourcc("DXT1")) return GN_DDS_BC1;
    if (cc == fourcc("DXT3")) return GN_DDS_BC2;
    if (cc == fourcc("DXT5")) return GN_DDS_BC3;
    if (cc == fourcc("ATI1") || cc == fourcc("BC4U")) return GN_DDS_BC4;
    if (cc == fourcc("ATI2") || cc == fourcc("BC5U")) return GN_DDS_BC5;
    return GN_DDS_NONE;
}

static gn_dds_format from_dxgi(uint32_t dxgi, bool *srgb)
{
    *srgb = dxgi == DXGI_R8G8B8A8_UNORM_SRGB || dxgi == DXGI_BC1_UNORM_SRGB || dxgi == DXGI_BC2_UNORM_SRGB ||
            dxgi == DXGI_BC3_UNORM_SRGB || dxgi == DXGI_BC7_UNORM_SRGB;
    switch (dxgi) {
    case DXGI_R8G8B8A8_UNORM:
    case DXGI_R8G8B8A8_UNORM_SRGB:
        return GN_DDS_RGBA8;
    case DXGI_BC1_UNORM:
    case DXGI_BC1_UNORM_SRGB:
        return GN_DDS_BC1;
    case DXGI_BC2_UNORM:
    case DXGI_BC2_UNORM_SRGB:
        return GN_DDS_BC2;
    case DXGI_BC3_UNORM:
    case DXGI_BC3_UNORM_SRGB:
        return GN_DDS_BC3;
    case DXGI_BC4_UNORM:
        return GN_DDS_BC4;
    case DXGI_BC5_UNORM:
        return GN_DDS_BC5;
    case DXGI_BC6H_UF16:
        return GN_DDS_BC6H_UF16;
    case DXGI_BC6H_SF16:
        return GN_DDS_BC6H_SF16;
    case DXGI_BC7_UNORM:
    case DXGI_BC7_UNORM_SRGB:
        return GN_DDS_BC7;
    default:
        return GN_DDS_NONE;
    }
}

static uint32_t chain_length(uint32_t w, uint32_t h)
{
    uint32_t n = 1, m = w > h ? w : h;
    while (m > 1) m >>= 1, n++;
    return n;
}

gn_result gn_dds_parse(const uint8_t *file, size_t size, const char *name, gn_dds_image *out, gn_error *err)
{
    memset(out, 0, sizeof *out);
    if (!name) name = "(dds)";
    if (!file && size) return dds_bad(out, err, name, "no data");
    if (size < 4 || memcmp(file, "DDS ", 4) != 0)
        return dds_bad(out, err, name, "not a DDS file (no 'DDS ' magic at byte 0)");
    if (size < GN_DDS_HEADER_BYTES)
        return dds_bad(out, err, name, "the header ends at byte %u, past the end of the file (%zu)",
                       GN_DDS_HEADER_BYTES, size);
    const uint8_t *h = file + 4; /* DDS_HEADER: field at byte offset k is h + k */
    uint32_t hsize = rd32(h), flags = rd32(h + 4), height = rd32(h + 8), width = rd32(h + 12);
    uint32_t depth = rd32(h + 20), mips = rd32(h + 24);
    const uint8_t *pf = h + 72; /* DDS_PIXELFORMAT */
    uint32_t pf_size = rd32(pf), pf_flags = rd32(pf + 4), cc = rd32(pf + 8);
    uint32_t caps2 = rd32(h + 108);
    if (hsize != 124) return dds_bad(out, err, name, "header dwSize %u, expected 124", hsize);
    if (pf_size != 32) return dds_bad(out, err, name, "pixel format dwSize %u, expected 32", pf_size);
    if (flags & ~DDSD_KNOWN)
        return dds_bad(out, err, name, "header dwFlags 0x%x has unknown bits 0x%x", flags,
                       flags & ~DDSD_KNOWN);
    /* DDSD_CAPS and the rest are "required" but left out by common writers; only the fields
     * that size the data must be marked */
    uint32_t need = DDSD_WIDTH | DDSD_HEIGHT | DDSD_PIXELFORMAT;
    if ((flags & need) != need)
        return dds_bad(out, err, name, "header dwFlags 0x%x lack width, height or pixel format (0x%x)", flags,
                       need);
    if ((flags & DDSD_DEPTH) || (caps2 & DDSCAPS2_VOLUME) || depth > 1)
        return dds_bad(out, err, name, "a volume texture (depth %u): only 2D textures are read", depth);
    if (caps2 & DDSCAPS2_CUBEMAP)
        return dds_bad(out, err, name, "dwCaps2 0x%x: a cube map; only single 2D textures are read", caps2);
    if (width < 1 || height < 1 || width > GN_DDS_MAX_SIDE || height > GN_DDS_MAX_SIDE)
        return dds_bad(out, err, name, "size %ux%u is outside 1..%u a side", width, height, GN_DDS_MAX_SIDE);
    /* dwMipMapCount 0 is one level (writers leave it 0 without DDSD_MIPMAPCOUNT) */
    uint32_t levels = mips ? mips : 1, chain = chain_length(width, height);
    if (levels > chain)
        return dds_bad(out, err, name, "dwMipMapCount %u, more than the %u levels of a %ux%u chain", mips,
                       chain, width, height);

    uint64_t offset = GN_DDS_HEADER_BYTES;
    gn_dds_format f = GN_DDS_NONE;
    bool srgb = false;
    if (!(pf_flags & DDPF_FOURCC))
        return dds_bad(out, err, name,
                       "pixel format dwFlags 0x%x: no FourCC (uncompressed masks are not read; write DX10 "
                       "R8G8B8A8)",
                       pf_flags);
    if (pf_flags & ~(DDPF_FOURCC | DDPF_ALPHAPIXELS))
        return dds_bad(out, err, name, "pixel format dwFlags 0x%x: a FourCC with masks or luminance",
                       pf_flags);
    char cc_text[5];
    fourcc_text(cc, cc_text);
    if (cc == fourcc("DX10")) {
        if (size < GN_DDS_HEADER_BYTES + GN_DDS_DX10_BYTES)
            return dds_bad(out, err, name, "the DX10 header ends at byte %u, past the end of the file (%zu)",
                           GN_DDS_HEADER_BYTES + GN_DDS_DX10_BYTES, size);
        const uint8_t *x = file + GN_DDS_HEADER_BYTES;
        uint32_t dxgi = rd32(x), dim = rd32(x + 4), misc = rd32(x + 8), array = rd32(x + 12),
                 misc2 = rd32(x + 16);
        if (dim != DDS_DIMENSION_TEXTURE2D)
            return dds_bad(out, err, name, "DX10 header: resourceDimension %u, expected 3 (2D texture)", dim);
        if (misc & DDS_RESOURCE_MISC_TEXTURECUBE)
            return dds_bad(out, err, name,
                           "DX10 header: miscFlag 0x%x: a cube map; only single 2D textures "
                           "are read",
                           misc);
        if (misc) return dds_bad(out, err, name, "DX10 header: miscFlag 0x%x has unknown bits", misc);
        if (array != 1)
            return dds_bad(out, err, name, "DX10 header: arraySize %u: only single textures are read", array);
        if (misc2 > DDS_ALPHA_MODE_MAX)
            return dds_bad(out, err, name, "DX10 header: miscFlags2 0x%x is not an alpha mode (0..4)", misc2);
        f = from_dxgi(dxgi, &srgb);
        if (!f)
            return dds_bad(out, err, name,
                           "DX10 header: DXGI format %u is not read (BC1-BC5 UNORM, BC6H UF16/SF16, BC7, "
                           "R8G8B8A8)",
                           dxgi);
        offset += GN_DDS_DX10_BYTES;
    } else if (!(f = from_fourcc(cc))) {
        return dds_bad(out, err, name,
                       "FourCC '%s' (0x%08x) is not read (DXT1, DXT3, DXT5, ATI1/BC4U, "
                       "ATI2/BC5U, DX10)",
                       cc_text, cc);
    }
    /* dwPitchOrLinearSize is advisory (writers put a pitch, a level size or 0 there): the
     * levels' sizes follow from the format, and each is checked against the file instead */
    out->data = file + offset;
    uint64_t at = 0;
    for (uint32_t l = 0; l < levels; l++) {
        uint32_t lw = width >> l ? width >> l : 1, lh = height >> l ? height >> l : 1;
        uint64_t bytes = gn_dds_level_bytes(f, lw, lh);
        if (offset + at + bytes > size)
            return dds_bad(out, err, name,
                           "level %u (%ux%u, %s) ends at byte %llu, past the end of the file (%zu)", l, lw,
                           lh, gn_dds_format_name(f), (unsigned long long)(offset + at + bytes), size);
        out->level_offset[l] = at;
        at += bytes;
    }
    out->format = f, out->srgb = srgb, out->width = width, out->height = height, out->levels = levels;
    out->size = at;
    return GN_OK;
}

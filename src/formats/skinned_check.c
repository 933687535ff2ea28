/* Which format a file is and the narrow check each gets before assimp sees it (skinned.h).
 * assimp offers a file to any importer that claims it by extension or content, and several of
 * them read past a buffer on malformed input (fuzz_gltf found it with glTF; gltf.h): here the
 * extension and the head must agree on one of five formats, and only that importer is reached. */
#include "base/error.h"
#include "formats/skinned_ctx.h"

#include <assimp/postprocess.h>
#include <string.h>
#include <strings.h>

static const char *const gn_sk_names[] = {"unknown", "glTF", "IQM", "MD5", "FBX", "COLLADA"};

const char *gn_skinned_format_name(gn_skinned_format f)
{
    return f <= GN_SKINNED_DAE ? gn_sk_names[f] : gn_sk_names[0];
}

gn_skinned_format gn_skinned_format_of_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/')) return GN_SKINNED_UNKNOWN;
    static const struct {
        const char *ext;
        gn_skinned_format f;
    } exts[] = {{".gltf", GN_SKINNED_GLTF},   {".glb", GN_SKINNED_GLTF}, {".iqm", GN_SKINNED_IQM},
                {".md5mesh", GN_SKINNED_MD5}, {".fbx", GN_SKINNED_FBX},  {".dae", GN_SKINNED_DAE}};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (strcasecmp(dot, exts[i].ext) == 0) return exts[i].f;
    return GN_SKINNED_UNKNOWN;
}

/* The first byte past a UTF-8 byte order mark and white space. */
static size_t gn_sk_skip_space(const uint8_t *p, size_t n)
{
    size_t i = n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
    return i;
}

/* Whether needle occurs in the first n bytes of p. */
static bool gn_sk_has(const uint8_t *p, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (p[i] == (uint8_t)needle[0] && memcmp(p + i, needle, k) == 0) return true;
    return false;
}

static const char gn_sk_fbx_magic[] = "Kaydara FBX Binary  "; /* then NUL, 0x1a, NUL, the version */

gn_skinned_format gn_skinned_detect(const uint8_t *head, size_t n)
{
    if (!head) return GN_SKINNED_UNKNOWN;
    if (n > GN_SKINNED_HEAD_BYTES) n = GN_SKINNED_HEAD_BYTES;
    if (n >= 4 && memcmp(head, "glTF", 4) == 0) return GN_SKINNED_GLTF;
    if (n >= 16 && memcmp(head, "INTERQUAKEMODEL\0", 16) == 0) return GN_SKINNED_IQM;
    if (n >= 20 && memcmp(head, gn_sk_fbx_magic, 20) == 0) return GN_SKINNED_FBX;
    size_t i = gn_sk_skip_space(head, n);
    if (i < n && head[i] == '{') return GN_SKINNED_GLTF;
    if (n - i >= 10 && memcmp(head + i, "MD5Version", 10) == 0) return GN_SKINNED_MD5;
    if (i < n && head[i] == '<' && gn_sk_has(head + i, n - i, "<COLLADA")) return GN_SKINNED_DAE;
    if (gn_sk_has(head + i, n - i, "FBXHeaderExtension")) return GN_SKINNED_FBX;
    return GN_SKINNED_UNKNOWN;
}

/* Text formats: no NUL in the head (a binary file with a text format's first word). */
static gn_result gn_sk_text(const uint8_t *head, size_t n, const char *what, const char *name, gn_error *err)
{
    if (memchr(head, 0, n))
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: a NUL byte in what should be %s text", name, what);
    return GN_OK;
}

gn_result gn_skinned_check(gn_skinned_format f, const uint8_t *head, size_t n, uint64_t size,
                           const char *name, gn_error *err)
{
    if (!head) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_skinned_check: NULL head");
    if (f != GN_SKINNED_GLTF && size > GN_SKINNED_MAX_FILE_BYTES)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %llu bytes, more than the cap of %llu", name,
                       (unsigned long long)size, GN_SKINNED_MAX_FILE_BYTES);
    if (f == GN_SKINNED_GLTF && size > GN_GLTF_MAX_FILE_BYTES)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %llu bytes, more than the cap of %llu", name,
                       (unsigned long long)size, GN_GLTF_MAX_FILE_BYTES);
    gn_skinned_format seen = gn_skinned_detect(head, n);
    if (seen != f)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: its first bytes are %s%s, not %s", name,
                       seen ? "those of " : "no format gnomon reads",
                       seen ? gn_skinned_format_name(seen) : "", gn_skinned_format_name(f));
    size_t text = n < GN_SKINNED_HEAD_BYTES ? n : GN_SKINNED_HEAD_BYTES;
    switch (f) {
    case GN_SKINNED_GLTF:
        return gn_gltf_check_head(head, n, size, name, err);
    case GN_SKINNED_IQM:
        if (n != size)
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: an IQM file is checked whole", name);
        return gn_sk_iqm_check(head, n, name, err);
    case GN_SKINNED_MD5:
        if (n != size)
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: an MD5 file is checked whole", name);
        return gn_sk_md5_check(head, n, false, name, err);
    case GN_SKINNED_FBX:
        if (n >= 20 && memcmp(head, gn_sk_fbx_magic, 20) == 0) {
            if (n < 27 || head[20] != 0 || head[21] != 0x1a || head[22] != 0)
                return gn_fail(err, GN_ERROR_BAD_DATA, "%s: a binary FBX header cut off or malformed", name);
            uint32_t v = head[23] | head[24] << 8 | head[25] << 16 | (uint32_t)head[26] << 24;
            /* FBX 2011 (7100) to 2020 (7700): assimp's binary reader; 6.x files are ASCII */
            if (v < 7100 || v > 7700)
                return gn_fail(err, GN_ERROR_BAD_DATA, "%s: binary FBX version %u, not 7100 to 7700", name,
                               v);
            return GN_OK;
        }
        return gn_sk_text(head, text, "ASCII FBX", name, err);
    case GN_SKINNED_DAE:
        if (n != size)
            return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: a COLLADA file is checked whole", name);
        return gn_sk_dae_check(head, n, name, err);
    default:
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: not a format gnomon loads models from", name);
    }
}

unsigned int gn_skinned_import_flags(gn_skinned_format f)
{
    unsigned int flags = gn_gltf_import_flags();
    /* IQM's blend arrays are read from the file by vertex index: assimp must not merge vertices
     * (the file's are already unique; each triangle indexes them) */
    if (f == GN_SKINNED_IQM) flags &= ~(unsigned)aiProcess_JoinIdenticalVertices;
    return flags;
}

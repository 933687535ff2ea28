/* A zip archive's central directory (a .pk3 is a zip), read by gnomon itself: PhysicsFS reads
 * and inflates the entries but checks no CRC, so a corrupted deflate stream or stored entry
 * would reach the parsers. pak.c keeps one index an archive and checks every file it reads
 * whole against the CRC-32 given here (docs/RELIABILITY.md, "CRC-32 of archive files"). */
#ifndef GN_FORMATS_ZIP_H
#define GN_FORMATS_ZIP_H

#include "gnomon.h"

#include <stdbool.h>
#include <stdint.h>

/* More entries are refused before anything is allocated by their count: the largest of
 * OpenArena's archives (pak4-textures.pk3) holds 1,753, so 2^20 leaves room for any real one. */
#define GN_ZIP_MAX_ENTRIES (1u << 20)
/* The central directory is read whole: at most 256 MiB (2^20 entries of 256 bytes). */
#define GN_ZIP_MAX_DIRECTORY (256u << 20)

typedef struct gn_zip_index gn_zip_index;

/* Reads the central directory of the zip at path (size bytes, from gn_file_check_regular):
 * the end record within the last 64 KiB + 22 bytes, ZIP64's record where present, and every
 * entry, each count, offset and length checked against the file and the caps above. A
 * failure is GN_ERROR_BAD_DATA (GN_ERROR_IO when it cannot be read) with one line naming the
 * archive and the fault. */
gn_result gn_zip_index_read(const char *path, uint64_t size, gn_zip_index **out, gn_error *err);
void gn_zip_index_free(gn_zip_index *z);            /* NULL is fine */
uint32_t gn_zip_index_files(const gn_zip_index *z); /* entries that are files (not folders) */
/* The CRC-32 the central directory gives for the file named name (as PhysicsFS names it: '/'
 * separated, a DOS archive's '\' turned into '/'); false when the archive has no such file. */
bool gn_zip_index_crc(const gn_zip_index *z, const char *name, uint32_t *crc);

#endif

/* Quake 3 style archives: every .pk3 (zip) in a folder mounted with PhysicsFS, later archives
 * (by name) overriding earlier ones as in the game. Reads are bounded by a cap. */
#ifndef GN_FORMATS_PAK_H
#define GN_FORMATS_PAK_H

#include "gnomon.h"

#include <stddef.h>
#include <stdint.h>

typedef struct gn_pak gn_pak;

gn_result gn_pak_open(const char *folder, gn_pak **out, gn_error *err);
void gn_pak_close(gn_pak *p); /* NULL is fine */
uint32_t gn_pak_archive_count(const gn_pak *p);
/* Reads a whole file (path inside the archives, '/' separated) into a malloc'd buffer; fails
 * with GN_ERROR_IO when absent and GN_ERROR_BAD_DATA when larger than cap. */
gn_result gn_pak_read(gn_pak *p, const char *path, size_t cap, uint8_t **data, size_t *size, gn_error *err);
/* Names (without folder) of the files in folder ending with ext, in name order: a malloc'd
 * array of malloc'd strings (free each and the array); *count set. */
gn_result gn_pak_list(gn_pak *p, const char *folder, const char *ext, char ***names, uint32_t *count,
                      gn_error *err);
/* Whether a file exists in the mounted archives. */
int gn_pak_exists(gn_pak *p, const char *path);
/* The archive a file is read from (the overriding one), for messages; "?" when absent. */
const char *gn_pak_origin(gn_pak *p, const char *path);

#endif

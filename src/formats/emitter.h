/* Particle emitter files (docs/EFFECTS.md, "The emitter format"): JSON holding one or more
 * named emitter descriptions (decide/particles.h), read with cJSON and checked value by value.
 *
 *   {"version": 1, "emitters": [{"name": "smoke", "shape": "sphere", "radius": 0.2,
 *                                "rate": 6, "lifetime": [8, 12], ...}, ...]}
 *
 * Absent keys take gn_particle_desc_default's values. Every value is checked: its type, finite,
 * in range (gn_particle_desc_check's ranges), counts capped; an unknown key is refused (a typo
 * would otherwise be silently the default), except keys starting with "_", which are comments.
 * A refusal is GN_ERROR_BAD_DATA with one line naming the file and the key's path:
 * "fx/town.json: emitters[2].lifetime: min 5 is greater than max 2". */
#ifndef GN_FORMATS_EMITTER_H
#define GN_FORMATS_EMITTER_H

#include "decide/particles.h"
#include "gnomon.h"

#include <stddef.h>
#include <stdint.h>

#define GN_EMITTER_MAX_BYTES (1u << 20) /* a file: 64 emitters of every key take ~60 KiB */
#define GN_EMITTER_MAX_EMITTERS 64u     /* a file's emitters */
#define GN_EMITTER_MAX_DEPTH 8u         /* JSON nesting; the format needs 5 */
#define GN_EMITTER_NAME_MAX 63u         /* bytes of a name: letters, digits, '_', '-', '.' */

typedef struct gn_emitter_entry {
    char name[GN_EMITTER_NAME_MAX + 1];
    gn_particle_desc desc; /* passes gn_particle_desc_check */
} gn_emitter_entry;

typedef struct gn_emitter_file {
    uint32_t count; /* 1..GN_EMITTER_MAX_EMITTERS, in the file's order */
    gn_emitter_entry *emitters;
} gn_emitter_file;

/* Parses len bytes of JSON (not NUL-terminated; never read past len; a NUL byte is refused).
 * name labels the messages. On failure *out is left zeroed. */
gn_result gn_emitter_parse(const char *text, size_t len, const char *name, gn_emitter_file *out,
                           gn_error *err);
/* Reads the regular file at path (GN_ERROR_IO when it cannot; GN_ERROR_BAD_DATA over
 * GN_EMITTER_MAX_BYTES, before reading it) and parses it. */
gn_result gn_emitter_load(const char *path, gn_emitter_file *out, gn_error *err);
void gn_emitter_file_free(gn_emitter_file *f); /* zeroes *f; NULL and a zeroed file are fine */
/* The emitter called name, or NULL. */
const gn_particle_desc *gn_emitter_find(const gn_emitter_file *f, const char *name);

#endif

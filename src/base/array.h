/* Growable arrays: the one way every layer makes room in a malloc'd array with a hard cap. */
#ifndef GN_BASE_ARRAY_H
#define GN_BASE_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Makes room for `need` elements of `elem` bytes in *arr (capacity *cap, at most max);
 * false, with *arr untouched, when it cannot. */
bool gn_grow(void **arr, uint32_t *cap, uint64_t need, size_t elem, uint32_t max);

#endif

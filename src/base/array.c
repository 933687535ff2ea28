/* Growable arrays (array.h). */
#include "base/array.h"

#include "base/alloc.h"

#include <stdlib.h>

/* Capacity doubles so n appends cost O(n); on failure the array is untouched, which is what
 * keeps a failed add from corrupting a scene. */
bool gn_grow(void **arr, uint32_t *cap, uint64_t need, size_t elem, uint32_t max)
{
    if (need <= *cap) return true;
    if (need > max) return false;
    uint64_t ncap = *cap ? *cap : 16;
    while (ncap < need) ncap *= 2;
    if (ncap > max) ncap = max;
    if (ncap > SIZE_MAX / elem) return false;
    void *p = gn_realloc(*arr, (size_t)ncap * elem);
    if (!p) return false;
    *arr = p;
    *cap = (uint32_t)ncap;
    return true;
}

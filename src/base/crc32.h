/* CRC-32 as zip (and PNG, and zlib's crc32) define it: the reflected polynomial 0xEDB88320,
 * initial value and final xor 0xFFFFFFFF. The check value of "123456789" is 0xCBF43926. */
#ifndef GN_BASE_CRC32_H
#define GN_BASE_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC of n bytes continued from crc (0 to start): gn_crc32(gn_crc32(0, a, n), b, m) is the
 * CRC of a followed by b. */
uint32_t gn_crc32(uint32_t crc, const void *data, size_t n);

#endif

/* libFuzzer target: arbitrary bytes as a .pk3's central directory (gn_zip_index_read, the
 * reader pak.c runs on every archive before PhysicsFS mounts it). The reader takes a path,
 * so each input is written to one temporary file first. Whatever the bytes, the result must
 * be GN_OK or a clean error, never a crash, a sanitizer report or an allocation over the
 * caps. Seeds: scripts/fuzz.sh writes small stored and deflated zips with python3. */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "formats/zip.h"

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/gnomon_fuzz_zip_%ld.pk3", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    size_t wrote = fwrite(data, 1, size, f);
    fclose(f);
    if (wrote != size) return 0;
    gn_zip_index *z = NULL;
    gn_error err;
    if (gn_zip_index_read(path, size, &z, &err) == GN_OK) {
        uint32_t crc;
        (void)gn_zip_index_files(z);
        (void)gn_zip_index_crc(z, "maps/x.bsp", &crc);
        gn_zip_index_free(z);
    }
    return 0;
}

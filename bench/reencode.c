/* Bench-only helper for bench/pack_sponza.sh: re-encodes an image as a JPEG when it is opaque
 * (every alpha 255), else copies nothing and exits 1 so the caller keeps the original (alpha
 * masks must survive). Built by the script with Debian's libstb (stb_image, stb_image_write).
 *   reencode IN.png OUT.jpg QUALITY */
#include <stb_image.h>
#include <stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: reencode IN OUT.jpg QUALITY\n");
        return 2;
    }
    int w, h, n;
    unsigned char *px = stbi_load(argv[1], &w, &h, &n, 4);
    if (!px) {
        fprintf(stderr, "reencode: %s: %s\n", argv[1], stbi_failure_reason());
        return 2;
    }
    for (size_t i = 0; i < (size_t)w * h; i++)
        if (px[i * 4 + 3] != 255) {
            stbi_image_free(px);
            return 1; /* has alpha: keep the PNG */
        }
    int ok = stbi_write_jpg(argv[2], w, h, 4, px, atoi(argv[3]));
    stbi_image_free(px);
    return ok ? 0 : 2;
}

/* usage: png_match IMAGE.png GOLDEN.png MAX_DIFF SHARE
 * Fails (exit 1) unless the images have the same size and no more than SHARE of the pixels
 * differ by more than MAX_DIFF in a channel (lavapipe: 0 and 0, identical). With
 * GNOMON_UPDATE_GOLDEN=1 it copies IMAGE over GOLDEN instead. For tests of the gnomon binary,
 * which write PNGs that tests/gpu's gt_golden never sees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: png_match IMAGE.png GOLDEN.png MAX_DIFF SHARE\n");
        return 2;
    }
    const char *update = getenv("GNOMON_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *in = fopen(argv[1], "rb"), *out = in ? fopen(argv[2], "wb") : NULL;
        char buf[65536];
        size_t n;
        while (out && (n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
        int ok = in && out && fclose(out) == 0;
        if (in) fclose(in);
        fprintf(stderr, "png_match: %s %s\n", argv[2], ok ? "rewritten" : "could not be written");
        return ok ? 0 : 1;
    }
    int max_diff = atoi(argv[3]);
    double share = atof(argv[4]);
    int w, h, gw, gh, c;
    unsigned char *a = stbi_load(argv[1], &w, &h, &c, 4);
    unsigned char *g = stbi_load(argv[2], &gw, &gh, &c, 4);
    if (!a || !g) {
        fprintf(stderr, "png_match: cannot read %s (GNOMON_UPDATE_GOLDEN=1 creates a missing golden)\n",
                !a ? argv[1] : argv[2]);
        return 1;
    }
    if (w != gw || h != gh) {
        fprintf(stderr, "png_match: %s is %dx%d, %s %dx%d\n", argv[1], w, h, argv[2], gw, gh);
        return 1;
    }
    int worst = 0;
    long over = 0;
    for (long i = 0; i < (long)w * h; i++) {
        int px = 0;
        for (int k = 0; k < 4; k++) {
            int d = abs((int)a[i * 4 + k] - (int)g[i * 4 + k]);
            if (d > px) px = d;
        }
        if (px > worst) worst = px;
        over += px > max_diff;
    }
    double got = (double)over / ((double)w * h);
    int ok = got <= share;
    fprintf(stderr, "png_match: %s vs %s: max channel diff %d, %.4f%% of pixels over %d (%s)\n", argv[1],
            argv[2], worst, 100.0 * got, max_diff, ok ? "match" : "MISMATCH");
    stbi_image_free(a);
    stbi_image_free(g);
    return ok ? 0 : 1;
}

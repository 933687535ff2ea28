/* hello: the built-in town at sunset, written to a PNG.
 *   cc hello.c $(pkg-config --cflags --libs gnomon) -lstb -o hello && ./hello town.png [WIDTHxHEIGHT] */
#include <gnomon.h>
#include <stb/stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    unsigned w = 1280, h = 720;
    if (argc < 2 || argc > 3 || (argc == 3 && (sscanf(argv[2], "%ux%u", &w, &h) != 2 || !w || !h))) {
        fprintf(stderr, "usage: %s OUT.png [WIDTHxHEIGHT]\n", argv[0]);
        return 2;
    }
    gn_error err = {0};
    gn_renderer *r = NULL;
    gn_scene *town = NULL;
    uint8_t *rgba = malloc((size_t)w * h * 4);
    gn_result res = rgba ? gn_renderer_create(&(gn_renderer_desc){.width = w, .height = h}, &r, &err)
                         : GN_ERROR_OUT_OF_MEMORY;
    if (res == GN_OK) res = gn_scene_create_builtin(&(gn_builtin_desc){.name = "town"}, &town, &err);
    /* The sun's shadow maps are a cache that fills over the first frames. */
    for (int frame = 0; frame < 4 && res == GN_OK; frame++)
        res = gn_render(r, town, &(gn_frame_desc){.time_of_day = 18.5f}, &err);
    if (res == GN_OK) res = gn_read_pixels(r, rgba, &err);
    if (res != GN_OK) {
        fprintf(stderr, "hello: %s\n", rgba ? err.message : "out of memory");
    } else if (!stbi_write_png(argv[1], (int)w, (int)h, 4, rgba, (int)w * 4)) {
        fprintf(stderr, "hello: cannot write %s\n", argv[1]);
        res = GN_ERROR_IO;
    }
    gn_scene_destroy(town);
    gn_renderer_destroy(r);
    free(rgba);
    return res == GN_OK ? 0 : 1;
}

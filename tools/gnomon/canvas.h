/* A tiny RGB raster for gnomon's charts: filled rectangles, lines and stb_easy_font text,
 * written as PNG. Everything is clipped to the image, so callers need no bounds checks. */
#ifndef GN_CLI_CANVAS_H
#define GN_CLI_CANVAS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gn_rgb {
    uint8_t r, g, b;
} gn_rgb;

typedef struct gn_canvas {
    int width, height;
    uint8_t *rgb; /* `channels` bytes a pixel, top row first */
    int channels; /* 3: RGB; 4: RGBA, every pixel drawn taking `alpha` (the viewer's overlay) */
    uint8_t alpha;
} gn_canvas;

bool gn_canvas_init(gn_canvas *c, int width, int height, gn_rgb background); /* false: no memory */
/* An RGBA canvas, all transparent, drawn with alpha 255 until c->alpha changes. */
bool gn_canvas_init_rgba(gn_canvas *c, int width, int height);
void gn_canvas_free(gn_canvas *c);

void gn_canvas_rect(gn_canvas *c, int x0, int y0, int x1, int y1, gn_rgb colour); /* [x0,x1) x [y0,y1) */
void gn_canvas_line(gn_canvas *c, float x0, float y0, float x1, float y1, gn_rgb colour, int thickness);

/* Text in stb_easy_font's 1-pixel-stroke font, each font pixel drawn as scale x scale.
 * (x, y) is the top left. Characters outside printable ASCII are drawn as '?'. */
void gn_canvas_text(gn_canvas *c, int x, int y, const char *text, gn_rgb colour, int scale);
int gn_canvas_text_width(const char *text, int scale);
int gn_canvas_text_height(int scale);

bool gn_canvas_write_png(const gn_canvas *c, const char *path); /* false: the file failed */

/* Writes w x h pixels of comp bytes (rows stride bytes apart) to path as PNG. Unlike
 * stbi_write_png, which ignores fwrite's and fclose's results, every write and the close are
 * checked (a full disk, /dev/full): false with errno set when any failed. Every PNG the CLI
 * writes goes through here. */
bool gn_png_write(const char *path, int w, int h, int comp, const void *data, int stride);

#endif

/* The chart raster; see canvas.h. */
#include "canvas.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>

/* stb_easy_font defines all its functions static; we use some, and the rest would trip
 * -Wunused-function under -Werror, as its flat struct initialiser trips -Wmissing-braces. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-braces"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

bool gn_canvas_init(gn_canvas *c, int width, int height, gn_rgb background)
{
    c->width = width;
    c->height = height;
    c->channels = 3;
    c->alpha = 255;
    c->rgb = width > 0 && height > 0 ? malloc((size_t)width * (size_t)height * 3) : NULL;
    if (!c->rgb) return false;
    gn_canvas_rect(c, 0, 0, width, height, background);
    return true;
}

bool gn_canvas_init_rgba(gn_canvas *c, int width, int height)
{
    c->width = width;
    c->height = height;
    c->channels = 4;
    c->alpha = 255;
    c->rgb = width > 0 && height > 0 ? calloc((size_t)width * (size_t)height, 4) : NULL;
    return c->rgb != NULL;
}

void gn_canvas_free(gn_canvas *c)
{
    free(c->rgb);
    c->rgb = NULL;
}

static void gn_canvas_put(gn_canvas *c, int x, int y, gn_rgb colour)
{
    if (x < 0 || y < 0 || x >= c->width || y >= c->height) return;
    uint8_t *p = c->rgb + ((size_t)y * (size_t)c->width + (size_t)x) * (size_t)c->channels;
    p[0] = colour.r;
    p[1] = colour.g;
    p[2] = colour.b;
    if (c->channels == 4) p[3] = c->alpha;
}

void gn_canvas_rect(gn_canvas *c, int x0, int y0, int x1, int y1, gn_rgb colour)
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > c->width) x1 = c->width;
    if (y1 > c->height) y1 = c->height;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) gn_canvas_put(c, x, y, colour);
}

/* A DDA line: one step a pixel along the longer axis, a thickness x thickness square at
 * each step. Charts need no anti-aliasing to be read. */
void gn_canvas_line(gn_canvas *c, float x0, float y0, float x1, float y1, gn_rgb colour, int thickness)
{
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) return;
    float dx = x1 - x0, dy = y1 - y0;
    float len = fmaxf(fabsf(dx), fabsf(dy));
    /* Clamp the step count: a point far off the image must not cost billions of steps. */
    int steps = len > 8192.0f ? 8192 : (int)ceilf(len);
    int lo = -(thickness - 1) / 2;
    for (int i = 0; i <= steps; i++) {
        float t = steps ? (float)i / (float)steps : 0.0f;
        int x = (int)lroundf(x0 + t * dx), y = (int)lroundf(y0 + t * dy);
        for (int oy = 0; oy < thickness; oy++)
            for (int ox = 0; ox < thickness; ox++) gn_canvas_put(c, x + lo + ox, y + lo + oy, colour);
    }
}

/* stb_easy_font reads glyphs at text[i] - 32 and takes a char *; a cleaned copy keeps
 * bytes outside ' '..'~' (UTF-8 device names) from indexing past its tables. */
static char *gn_canvas_clean(const char *text)
{
    size_t n = strlen(text);
    char *s = malloc(n + 1);
    if (!s) return NULL;
    for (size_t i = 0; i < n; i++)
        s[i] = (text[i] >= ' ' && text[i] <= '~') || text[i] == '\n' ? text[i] : '?';
    s[n] = '\0';
    return s;
}

void gn_canvas_text(gn_canvas *c, int x, int y, const char *text, gn_rgb colour, int scale)
{
    char *s = gn_canvas_clean(text);
    if (!s) return;
    /* The font documentation budgets ~270 bytes of vertices a character on average, but a
     * single glyph such as 0 needs more: budget 1 KiB a character so none is cut short. */
    int size = (int)strlen(s) * 1024 + 1024;
    float *v = malloc((size_t)size);
    if (v) {
        int quads = stb_easy_font_print(0, 0, s, NULL, v, size);
        /* A vertex is x, y, z floats then 4 colour bytes: 4 floats' worth. Quads are axis
         * aligned, so corner 0 and corner 2 bound each one. */
        for (int q = 0; q < quads; q++) {
            const float *a = v + q * 16, *b = v + q * 16 + 8;
            int qx0 = (int)lroundf(fminf(a[0], b[0]) * (float)scale),
                qx1 = (int)lroundf(fmaxf(a[0], b[0]) * (float)scale);
            int qy0 = (int)lroundf(fminf(a[1], b[1]) * (float)scale),
                qy1 = (int)lroundf(fmaxf(a[1], b[1]) * (float)scale);
            gn_canvas_rect(c, x + qx0, y + qy0, x + qx1, y + qy1, colour);
        }
    }
    free(v);
    free(s);
}

int gn_canvas_text_width(const char *text, int scale)
{
    char *s = gn_canvas_clean(text);
    int w = s ? stb_easy_font_width(s) * scale : 0;
    free(s);
    return w;
}

int gn_canvas_text_height(int scale)
{
    char one[] = "0";
    return stb_easy_font_height(one) * scale;
}

bool gn_canvas_write_png(const gn_canvas *c, const char *path)
{
    return gn_png_write(path, c->width, c->height, c->channels, c->rgb, c->width * c->channels);
}

typedef struct gn_png_sink {
    FILE *f;
    int error; /* errno of the first failed write, 0 while none failed */
} gn_png_sink;

static void gn_png_sink_write(void *context, void *data, int size)
{
    gn_png_sink *s = context;
    errno = 0;
    if (!s->error && size > 0 && fwrite(data, 1, (size_t)size, s->f) != (size_t)size)
        s->error = errno ? errno : EIO;
}

bool gn_png_write(const char *path, int w, int h, int comp, const void *data, int stride)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    gn_png_sink s = {.f = f};
    if (!stbi_write_png_to_func(gn_png_sink_write, &s, w, h, comp, data, stride))
        s.error = ENOMEM; /* stb fails only when it cannot allocate */
    if (!s.error && fflush(f) != 0) s.error = errno ? errno : EIO; /* the buffered tail */
    if (fclose(f) != 0 && !s.error) s.error = errno ? errno : EIO;
    errno = s.error;
    return s.error == 0;
}

/* The overlay; see view_overlay.h. */
#include "view_overlay.h"

#include <stdio.h>
#include <string.h>

#define GN_PANEL_ALPHA 150 /* the dark panel behind text: the scene shows through, text reads */
#define GN_LINE 11         /* pixels a text line at scale 1 (stb_easy_font's glyphs are 7 high) */

static const gn_rgb gn_white = {255, 255, 255}, gn_grey = {170, 170, 170}, gn_black = {0, 0, 0};
static const gn_rgb gn_yellow = {255, 220, 80}, gn_red = {255, 90, 80}, gn_green = {120, 230, 120};

/* A line of text on a dark strip as wide as the text; returns the next line's y. */
static int gn_overlay_line(gn_canvas *c, int x, int y, const char *text, gn_rgb colour)
{
    int w = gn_canvas_text_width(text, 1);
    c->alpha = GN_PANEL_ALPHA;
    gn_canvas_rect(c, x - 2, y - 1, x + w + 2, y + GN_LINE - 1, gn_black);
    c->alpha = 255;
    gn_canvas_text(c, x, y, text, colour, 1);
    return y + GN_LINE;
}

static void gn_overlay_count(char *buf, size_t size, uint64_t v)
{
    if (v >= 10000000)
        snprintf(buf, size, "%.1fM", (double)v / 1e6);
    else if (v >= 10000)
        snprintf(buf, size, "%.1fk", (double)v / 1e3);
    else
        snprintf(buf, size, "%llu", (unsigned long long)v);
}

/* Bars of recent frame times against a 60 Hz line (16.7 ms), scaled to the largest of 33 ms
 * and the slowest frame shown. */
static void gn_overlay_graph(gn_canvas *c, int x, int y, int w, int h, const float *ms, uint32_t n)
{
    c->alpha = GN_PANEL_ALPHA;
    gn_canvas_rect(c, x, y, x + w, y + h, gn_black);
    c->alpha = 255;
    float top = 33.3f;
    for (uint32_t i = 0; i < n; i++)
        if (ms[i] > top) top = ms[i];
    uint32_t bars = n < (uint32_t)w ? n : (uint32_t)w;
    for (uint32_t i = 0; i < bars; i++) {
        float v = ms[n - bars + i];
        int bh = (int)(v / top * (float)(h - 2));
        if (bh < 1) bh = 1;
        int bx = x + w - (int)bars + (int)i;
        gn_canvas_rect(c, bx, y + h - 1 - bh, bx + 1, y + h - 1, v > 17.0f ? gn_red : gn_green);
    }
    int line = y + h - 1 - (int)(16.7f / top * (float)(h - 2));
    gn_canvas_rect(c, x, line, x + w, line + 1, gn_yellow);
}

void gn_overlay_draw(gn_canvas *c, const gn_overlay_info *in)
{
    memset(c->rgb, 0, (size_t)c->width * (size_t)c->height * 4);
    int x = 4, y = 4;
    char line[256], a[32], b[32];
    if (in->show_stats) {
        if (in->settings) y = gn_overlay_line(c, x, y, in->settings, gn_yellow);
        float last = in->frame_count ? in->frame_ms[in->frame_count - 1] : 0.0f;
        const gn_frame_stats *s = in->stats;
        if (s) {
            snprintf(line, sizeof line, "frame %.1f ms (%.0f fps)  gpu %.2f ms  cpu %.2f ms", last,
                     last > 0 ? 1000.0 / last : 0.0, s->gpu_ms, s->cpu_ms);
            y = gn_overlay_line(c, x, y, line, gn_white);
            gn_overlay_count(a, sizeof a, s->triangles);
            snprintf(line, sizeof line, "draws %u  triangles %s  instances %u/%u", s->draws, a,
                     s->instances_visible, s->instances_total);
            y = gn_overlay_line(c, x, y, line, gn_white);
            if (s->vsm_pool_pages)
                snprintf(line, sizeof line, "vsm pages rendered %u+%u  requested %u  waiting %u  pool %u/%u",
                         s->vsm_pages_rendered_static, s->vsm_pages_rendered_dynamic, s->vsm_pages_requested,
                         s->vsm_pages_waiting, s->vsm_pool_used, s->vsm_pool_pages);
            else
                snprintf(line, sizeof line, "shadow cascades updated %u  casters %u", s->shadow_updates,
                         s->shadow_casters);
            y = gn_overlay_line(c, x, y, line, gn_white);
            gn_overlay_count(b, sizeof b, s->light_overflow);
            snprintf(line, sizeof line, "lights %u  shadowed %u  unshadowed %u  overflow %s%s", s->lights,
                     s->shadowed_lights, s->unshadowed_lights, b, s->vsm_overflow ? "  vsm overflow" : "");
            y = gn_overlay_line(c, x, y, line, s->light_overflow || s->vsm_overflow ? gn_red : gn_white);
            snprintf(line, sizeof line, "exposure EV100 %.2f  metered %.2f", (double)s->exposure_ev100,
                     (double)s->exposure_target_ev100);
            y = gn_overlay_line(c, x, y, line, gn_white);
            /* passes, several to a line */
            size_t used = 0;
            line[0] = '\0';
            for (uint32_t i = 0; i < s->pass_count; i++) {
                char one[64];
                int n = snprintf(one, sizeof one, "%s %.2f  ", s->passes[i].name, s->passes[i].gpu_ms);
                if (used && gn_canvas_text_width(line, 1) + gn_canvas_text_width(one, 1) > c->width - 8) {
                    y = gn_overlay_line(c, x, y, line, gn_grey);
                    used = 0;
                    line[0] = '\0';
                }
                if (used + (size_t)n < sizeof line) {
                    memcpy(line + used, one, (size_t)n + 1);
                    used += (size_t)n;
                }
            }
            if (used) y = gn_overlay_line(c, x, y, line, gn_grey);
        } else {
            y = gn_overlay_line(c, x, y, "waiting for the first frame's statistics", gn_white);
        }
        int gw = c->width - 8 < 160 ? c->width - 8 : 160;
        if (in->frame_count && gw > 8) gn_overlay_graph(c, x, y + 2, gw, 32, in->frame_ms, in->frame_count);
    }
    if (in->console && in->console->open) {
        const gn_console *k = in->console;
        int rows = (int)k->log_count + 1;
        int cy = c->height - 4 - rows * GN_LINE;
        for (uint32_t i = 0; i < k->log_count; i++) cy = gn_overlay_line(c, x, cy, k->log[i], gn_grey);
        snprintf(line, sizeof line, "> %s_", k->line);
        gn_overlay_line(c, x, cy, line, gn_white);
    }
}

/* The viewer's state and its inputs; see view_input.h. */
#include "view_input.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The key of each debug view: 1 final, then the views a renderer programmer reaches for first. */
static const gn_view gn_view_keys[9] = {GN_VIEW_FINAL,     GN_VIEW_SHADOW,        GN_VIEW_CASCADES,
                                        GN_VIEW_VSM_PAGES, GN_VIEW_LIGHT_HEATMAP, GN_VIEW_NORMALS,
                                        GN_VIEW_DEPTH,     GN_VIEW_ALBEDO,        GN_VIEW_VSM_ATLAS};

void gn_view_state_init(gn_view_state *s, const gn_view_opts *opts, const float camera[5])
{
    memset(s, 0, sizeof *s);
    s->opts = *opts;
    s->camera = (gn_fly_camera){.position = {camera[0], camera[1], camera[2]},
                                .yaw = camera[3],
                                .pitch = camera[4],
                                .speed = GN_FLY_SPEED_DEFAULT};
    s->time_of_day = gn_frame_opts_time(&opts->frame);
    s->show_stats = true;
}

static float gn_wrap_hours(float h)
{
    h = fmodf(h, 24.0f);
    return h < 0.0f ? h + 24.0f : h;
}

/* Runs a setting through the console as if typed; the console's log gets the answer. */
static uint32_t gn_view_console_set(gn_view_state *s, const char *line)
{
    uint32_t effects = 0;
    char msg[GN_CONSOLE_MSG];
    gn_view_set(s, line, &effects, msg, sizeof msg);
    return effects;
}

uint32_t gn_view_key(gn_view_state *s, int key, bool pressed)
{
    if (key < 0 || key > GN_KEY_LAST) return 0;
    gn_console *c = &s->console;
    if (c->open) { /* the console takes every key but its own toggle */
        s->held[key] = false;
        if (!pressed) return 0;
        uint32_t effects = 0;
        if (key == GN_KEY_GRAVE_ACCENT || key == GN_KEY_ESCAPE)
            c->open = false;
        else if (key == GN_KEY_ENTER) {
            char line[GN_CONSOLE_LINE], msg[GN_CONSOLE_MSG];
            snprintf(line, sizeof line, "%s", c->line);
            c->len = 0;
            c->line[0] = '\0';
            gn_view_set(s, line, &effects, msg, sizeof msg);
        } else if (key == GN_KEY_BACKSPACE)
            gn_console_backspace(c);
        else if (key == GN_KEY_TAB)
            gn_console_tab(c);
        return effects;
    }
    s->held[key] = pressed;
    if (!pressed) return 0;
    char line[64];
    switch (key) {
    case GN_KEY_GRAVE_ACCENT:
        c->open = true;
        memset(s->held, 0, sizeof s->held); /* keys held now would keep flying */
        return 0;
    case GN_KEY_ESCAPE:
        return GN_REQUEST_QUIT;
    case GN_KEY_P:
        return GN_REQUEST_SCREENSHOT;
    case GN_KEY_N:
        return GN_REQUEST_NEXT_CLIP;
    case GN_KEY_F:
        s->sun_follows = !s->sun_follows;
        gn_console_log(c, s->sun_follows ? "the sun follows the clock" : "the sun stays");
        return 0;
    case GN_KEY_LEFT_BRACKET:
    case GN_KEY_RIGHT_BRACKET:
        s->time_of_day =
            gn_wrap_hours(s->time_of_day + (key == GN_KEY_LEFT_BRACKET ? -1.0f : 1.0f) * GN_TIME_STEP_HOURS);
        return GN_EFFECT_TIME;
    case GN_KEY_H:
        s->show_stats = !s->show_stats;
        return 0;
    case GN_KEY_V: { /* vsm -> csm -> none -> vsm (the table's order is vsm, none, csm) */
        static const char *const next[] = {"shadows csm", "shadows vsm", "shadows none"};
        return gn_view_console_set(s, next[s->opts.shadow.shadows % 3]);
    }
    case GN_KEY_L: /* clustered Forward+ against every light for every fragment */
        snprintf(line, sizeof line, "clustered %u", s->opts.light.clustered ? 0u : 1u);
        return gn_view_console_set(s, line);
    default:
        break;
    }
    if (key >= GN_KEY_1 && key <= GN_KEY_9) {
        snprintf(line, sizeof line, "view %s", gn_render_view_name((int)gn_view_keys[key - GN_KEY_1]));
        return gn_view_console_set(s, line);
    }
    return 0;
}

void gn_view_char(gn_view_state *s, uint32_t codepoint)
{
    /* the backquote that opened the console arrives as a character too */
    if (s->console.open && codepoint != '`') gn_console_type(&s->console, codepoint);
}

void gn_view_mouse(gn_view_state *s, float dx, float dy)
{
    s->look_dx += dx;
    s->look_dy += dy;
}

void gn_view_scroll(gn_view_state *s, float notches) { s->scroll += notches; }

bool gn_view_set(gn_view_state *s, const char *line, uint32_t *effects, char *msg, size_t msg_size)
{
    bool ok = gn_console_exec(&s->opts, &s->console.strings, line, msg, msg_size, effects);
    char echo[GN_CONSOLE_MSG];
    snprintf(echo, sizeof echo, "> %s", line);
    gn_console_log(&s->console, echo);
    if (msg[0]) gn_console_log(&s->console, msg);
    if (ok && (*effects & GN_EFFECT_TIME)) s->time_of_day = gn_frame_opts_time(&s->opts.frame);
    if (ok && (*effects & GN_EFFECT_CAMERA)) {
        const float *k = s->opts.frame.camera;
        s->camera = (gn_fly_camera){{k[0], k[1], k[2]}, k[3], k[4], s->camera.speed};
    }
    return ok;
}

void gn_view_advance(gn_view_state *s, float dt, gn_frame_desc *out)
{
    const bool *h = s->held;
    gn_fly_input in = {
        .forward = h[GN_KEY_W] || h[GN_KEY_UP],
        .back = h[GN_KEY_S] || h[GN_KEY_DOWN],
        .left = h[GN_KEY_A],
        .right = h[GN_KEY_D],
        .up = h[GN_KEY_E] || h[GN_KEY_SPACE],
        .down = h[GN_KEY_Q],
        .fast = h[GN_KEY_LEFT_SHIFT] || h[GN_KEY_RIGHT_SHIFT],
        .look_dx = s->look_dx,
        .look_dy = s->look_dy,
        .scroll = s->scroll,
    };
    gn_fly_camera_update(&s->camera, &in, dt);
    s->look_dx = s->look_dy = s->scroll = 0.0f;
    s->seconds += dt;
    if (s->sun_follows) s->time_of_day = gn_wrap_hours(s->time_of_day + dt * GN_SUN_HOURS_PER_SECOND);

    gn_view_opts_frame(&s->opts, out);
    out->camera.fov_y = GN_CLI_FOV_Y;
    memcpy(out->camera.position, s->camera.position, sizeof out->camera.position);
    out->camera.yaw = s->camera.yaw;
    out->camera.pitch = s->camera.pitch;
    out->time_of_day = gn_cli_hours(s->time_of_day);
    out->seconds = s->seconds;
}

/* An --option auto|V value as the overlay shows it: auto (NAN), off (0, when zero_is_off), or V. */
static void gn_view_auto_value(float v, bool zero_is_off, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "auto");
    else if (zero_is_off && v == 0.0f)
        snprintf(buf, size, "off");
    else
        snprintf(buf, size, "%.3g", (double)v);
}

void gn_view_settings_line(const gn_view_state *s, char *buf, size_t size)
{
    const gn_view_opts *o = &s->opts;
    int hh = (int)s->time_of_day, mm = (int)((s->time_of_day - (float)hh) * 60.0f);
    snprintf(buf, size, "%s  %s  shadows %s  msaa %u  %s  %02d:%02d%s  %.3g m/s", o->frame.scene,
             gn_render_view_name(o->view), gn_shadowcheck_mode_name(o->shadow.shadows), o->frame.msaa,
             o->light.clustered ? "clustered" : "naive", hh, mm, s->sun_follows ? " (moving)" : "",
             (double)s->camera.speed);
    /* the post chain's switches: exposure, bloom, ambient occlusion, depth of field */
    const gn_post_opts *p = &o->post;
    size_t used = strlen(buf);
    char ev[32], bloom[32], ao[32], dof[64];
    gn_view_auto_value(p->ev100, false, ev, sizeof ev);
    gn_view_auto_value(p->bloom, true, bloom, sizeof bloom);
    gn_view_auto_value(p->ao, true, ao, sizeof ao);
    if (p->dof[2] > 0.0f)
        snprintf(dof, sizeof dof, "%.3g,%.3g,%.3g", (double)p->dof[0], (double)p->dof[1], (double)p->dof[2]);
    else
        snprintf(dof, sizeof dof, "off");
    if (used < size)
        snprintf(buf + used, size - used, "  exposure %s  bloom %s  ao %s  dof %s%s", ev, bloom, ao, dof,
                 p->lut ? "  lut" : "");
}

void gn_view_screenshot_name(const gn_view_state *s, uint64_t frame, char *buf, size_t size)
{
    const gn_view_opts *o = &s->opts;
    /* the scene may be a path: its file name without folders or dots */
    const char *scene = strrchr(o->frame.scene, '/');
    scene = scene ? scene + 1 : o->frame.scene;
    char clean[64];
    size_t n = 0;
    for (const char *p = scene; *p && *p != '.' && n + 1 < sizeof clean; p++)
        clean[n++] =
            (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ? *p : '_';
    clean[n] = '\0';
    snprintf(buf, size, "gnomon-%s-%s-%s-msaa%u-%s-t%05.2f-f%06llu.png", clean, gn_render_view_name(o->view),
             gn_shadowcheck_mode_name(o->shadow.shadows), o->frame.msaa,
             o->light.clustered ? "clustered" : "naive", (double)s->time_of_day, (unsigned long long)frame);
}

/* The console; see view_console.h. */
#include "view_console.h"

#include <stdio.h>
#include <string.h>

/* Which effect a setting has, by its name; every other setting is GN_EFFECT_FRAME. A renderer
 * setting is fixed when the renderer is made, a scene setting when the scene is built. */
static const struct {
    const char *name;
    uint32_t effect;
} gn_effects[] = {
    {"scene", GN_EFFECT_SCENE},
    {"paks", GN_EFFECT_SCENE},
    {"map-lights", GN_EFFECT_SCENE},
    {"seed", GN_EFFECT_SCENE},
    {"scale", GN_EFFECT_SCENE},
    {"lights", GN_EFFECT_SCENE},
    {"animation", GN_EFFECT_SCENE}, /* an animated model's clip, time and skinning, the town's people */
    {"time-in-clip", GN_EFFECT_SCENE},
    {"skinning", GN_EFFECT_SCENE},
    {"people", GN_EFFECT_SCENE},
    {"decals", GN_EFFECT_SCENE},
    {"characters", GN_EFFECT_SCENE},
    {"msaa", GN_EFFECT_RENDERER},
    {"light-shadows", GN_EFFECT_RENDERER},
    {"cluster-max", GN_EFFECT_RENDERER},
    {"lut", GN_EFFECT_RENDERER},    /* read when the renderer is made (view_session.c) */
    {"probes", GN_EFFECT_RENDERER}, /* a renderer places and renders its probes */
    {"size", GN_EFFECT_SIZE},
    {"vsync", GN_EFFECT_VSYNC},
    {"camera", GN_EFFECT_CAMERA},
    {"time", GN_EFFECT_TIME},
};

static uint32_t gn_effect_of(const char *name)
{
    for (size_t i = 0; i < sizeof gn_effects / sizeof gn_effects[0]; i++)
        if (strcmp(gn_effects[i].name, name) == 0) return gn_effects[i].effect;
    /* the shadow maps' own settings (not the technique, "shadows", which is per frame) */
    if (strncmp(name, "vsm-", 4) == 0 || strncmp(name, "csm-", 4) == 0) return GN_EFFECT_RENDERER;
    return GN_EFFECT_FRAME;
}

/* The names, in table order, without dashes; "script" is the command line's only. */
static uint32_t gn_console_names(const char **names)
{
    gn_view_opts o = gn_view_opts_defaults();
    gn_opt t[GN_VIEW_OPTS_MAX];
    uint32_t n = gn_view_opts_table(&o, t), k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(t[i].name, "--script") != 0) names[k++] = t[i].name + 2; /* static strings */
    return k;
}

bool gn_console_exec(gn_view_opts *o, gn_console_strings *strings, const char *line, char *msg,
                     size_t msg_size, uint32_t *effects)
{
    *effects = 0;
    msg[0] = '\0';
    char name[64];
    const char *p = line;
    while (*p == ' ') p++;
    size_t n = strcspn(p, " ");
    if (n == 0) return true; /* an empty line does nothing */
    if (n >= sizeof name) {
        snprintf(msg, msg_size, "unknown setting '%.20s...' ('help' lists them)", p);
        return false;
    }
    memcpy(name, p, n);
    name[n] = '\0';
    p += n;
    while (*p == ' ') p++;
    char value[GN_CONSOLE_LINE];
    snprintf(value, sizeof value, "%s", p);
    for (size_t k = strlen(value); k && value[k - 1] == ' '; k--) value[k - 1] = '\0';

    if (strcmp(name, "help") == 0 || strcmp(name, "list") == 0) {
        const char *names[GN_VIEW_OPTS_MAX];
        uint32_t count = gn_console_names(names);
        size_t used = (size_t)snprintf(msg, msg_size, "settings:");
        for (uint32_t i = 0; i < count && used < msg_size; i++)
            used += (size_t)snprintf(msg + used, msg_size - used, " %s", names[i]);
        return true;
    }
    gn_opt t[GN_VIEW_OPTS_MAX];
    uint32_t rows = gn_view_opts_table(o, t);
    const gn_opt *opt = gn_opts_find(t, rows, name);
    if (!opt || strcmp(opt->name, "--script") == 0) {
        char list[256];
        char typed[GN_CONSOLE_LINE];
        snprintf(typed, sizeof typed, "%s", name);
        uint32_t matches = gn_console_complete(typed, sizeof typed, list, sizeof list);
        if (opt)
            snprintf(msg, msg_size, "script is given on the command line only");
        else if (matches)
            snprintf(msg, msg_size, "unknown setting '%s'; did you mean: %s", name, list);
        else
            snprintf(msg, msg_size, "unknown setting '%s' ('help' lists them)", name);
        return false;
    }
    char before[GN_CONSOLE_LINE];
    gn_opts_format(opt, before, sizeof before);
    if (!value[0]) { /* read */
        snprintf(msg, msg_size, "%s %s", name, before);
        return true;
    }
    /* strings must outlive the line: the console keeps them, one slot per string row */
    gn_view_opts saved = *o;
    char err[GN_CONSOLE_MSG];
    if (!gn_opts_set(opt, value, err, sizeof err)) {
        *o = saved;
        snprintf(msg, msg_size, "%s", err);
        return false;
    }
    /* whole-setting checks the table cannot make (a string still points into `value` here) */
    char err2[GN_CONSOLE_MSG] = "";
    if (strcmp(name, "scene") == 0 || strcmp(name, "paks") == 0) {
        if (!gn_view_scene_ok(o, err2, sizeof err2)) {
            *o = saved;
            const char *colon = strstr(err2, ": ");
            snprintf(msg, msg_size, "%s", colon ? colon + 2 : err2);
            return false;
        }
    }
    if (strncmp(name, "csm-", 4) == 0 || strncmp(name, "vsm-", 4) == 0) {
        gn_csm_desc csm;
        gn_vsm_desc vsm;
        gn_shadows mode;
        if (!gn_shadow_opts_apply(&o->shadow, "view", &csm, &vsm, &mode, err2, sizeof err2)) {
            *o = saved;
            const char *colon = strstr(err2, ": ");
            snprintf(msg, msg_size, "%s", colon ? colon + 2 : err2);
            return false;
        }
    }
    if (opt->kind == GN_OPT_STRING) { /* checked: now it may replace the kept string */
        uint32_t slot = 0;
        for (const gn_opt *q = t; q < opt; q++) slot += q->kind == GN_OPT_STRING;
        if (slot >= sizeof strings->slot / sizeof strings->slot[0]) {
            *o = saved;
            snprintf(msg, msg_size, "%s cannot be set here", name);
            return false;
        }
        snprintf(strings->slot[slot], sizeof strings->slot[slot], "%s", value);
        *(const char **)opt->dest = strings->slot[slot];
    }
    char after[GN_CONSOLE_LINE];
    gn_opts_format(opt, after, sizeof after);
    if (strcmp(before, after) != 0 || opt->kind == GN_OPT_CAMERA || strcmp(name, "time") == 0)
        *effects = gn_effect_of(name); /* the camera and the clock move on their own: set them again */
    snprintf(msg, msg_size, "%s %s", name, after);
    return true;
}

uint32_t gn_console_complete(char *line, size_t line_size, char *list, size_t list_size)
{
    list[0] = '\0';
    size_t typed = strlen(line);
    if (strchr(line, ' ')) return 0; /* past the name: values are not completed */
    const char *names[GN_VIEW_OPTS_MAX];
    uint32_t count = gn_console_names(names), matches = 0;
    size_t common = 0, used = 0;
    const char *first = NULL;
    for (uint32_t i = 0; i < count; i++) {
        if (strncmp(names[i], line, typed) != 0) continue;
        if (!first) {
            first = names[i];
            common = strlen(first);
        } else {
            size_t k = 0;
            while (k < common && first[k] == names[i][k]) k++;
            common = k;
        }
        if (used < list_size)
            used += (size_t)snprintf(list + used, list_size - used, "%s%s", matches ? ", " : "", names[i]);
        matches++;
    }
    if (!first) return 0;
    if (common + 2 <= line_size) {
        memcpy(line, first, common);
        line[common] = '\0';
        if (matches == 1) strcat(line, " ");
    }
    return matches;
}

void gn_console_type(gn_console *c, uint32_t codepoint)
{
    if (codepoint < 32 || codepoint > 126 || c->len + 1 >= sizeof c->line) return;
    c->line[c->len++] = (char)codepoint;
    c->line[c->len] = '\0';
}

void gn_console_backspace(gn_console *c)
{
    if (c->len) c->line[--c->len] = '\0';
}

void gn_console_log(gn_console *c, const char *msg)
{
    if (c->log_count == GN_CONSOLE_LOG) {
        memmove(c->log[0], c->log[1], sizeof c->log[0] * (GN_CONSOLE_LOG - 1));
        c->log_count--;
    }
    snprintf(c->log[c->log_count++], sizeof c->log[0], "%s", msg);
}

void gn_console_tab(gn_console *c)
{
    char list[GN_CONSOLE_MSG];
    uint32_t n = gn_console_complete(c->line, sizeof c->line, list, sizeof list);
    c->len = (uint32_t)strlen(c->line);
    if (n > 1) gn_console_log(c, list);
}

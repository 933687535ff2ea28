/* gnomon view: a window (GLFW) onto a scene. GLFW lives here only: its callbacks and the
 * --script player feed the same inputs (view_input.c), the session owns the renderer and the
 * scene (view_session.c), and the library presents into the window's swapchain. */
#define GLFW_INCLUDE_VULKAN /* glfwCreateWindowSurface's types; gnomon's Vulkan calls stay in src/vk */
#include <GLFW/glfw3.h>

#include "cli.h"
#include "cli_error.h"
#include "cmd_opts.h"
#include "view_input.h"
#include "view_keys.h"
#include "view_overlay.h"
#include "view_script.h"
#include "view_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* view_keys.h names GLFW's codes without including GLFW; they must agree. */
_Static_assert(GN_KEY_W == GLFW_KEY_W && GN_KEY_GRAVE_ACCENT == GLFW_KEY_GRAVE_ACCENT &&
                   GN_KEY_LEFT_SHIFT == GLFW_KEY_LEFT_SHIFT && GN_KEY_ESCAPE == GLFW_KEY_ESCAPE &&
                   GN_KEY_F1 == GLFW_KEY_F1 && GN_KEY_LAST == GLFW_KEY_LAST && GN_KEY_1 == GLFW_KEY_1 &&
                   GN_KEY_LEFT_BRACKET == GLFW_KEY_LEFT_BRACKET && GN_KEY_UP == GLFW_KEY_UP,
               "view_keys.h holds GLFW's key codes");

#define GN_SCRIPT_DT (1.0f / 60.0f) /* seconds a scripted frame: motion independent of the machine */
#define GN_MAX_DT 0.1f              /* a stall (a new renderer, a scene) must not fling the camera */

typedef struct gn_viewer {
    GLFWwindow *window;
    gn_view_state state;
    gn_view_session session;
    gn_canvas overlay;
    uint32_t requests; /* GN_REQUEST_* and GN_EFFECT_* not yet acted on */
    bool looking;      /* a mouse button is held: the cursor is captured and turns the camera */
    double cursor_x, cursor_y;
    gn_frame_stats stats;
    bool have_stats;
    float frame_ms[GN_OVERLAY_HISTORY];
    uint32_t frame_count;
} gn_viewer;

static char gn_glfw_last_error[256];

static void gn_on_glfw_error(int code, const char *text)
{
    snprintf(gn_glfw_last_error, sizeof gn_glfw_last_error, "%s (GLFW error 0x%x)", text, code);
}

/* ---- GLFW's callbacks: into view_input.c ------------------------------------------------------ */
static void gn_on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    gn_viewer *v = glfwGetWindowUserPointer(w);
    if (action == GLFW_REPEAT && v->state.console.open) action = GLFW_PRESS; /* held backspace repeats */
    if (action == GLFW_REPEAT) return;
    v->requests |= gn_view_key(&v->state, key, action == GLFW_PRESS);
}

static void gn_on_char(GLFWwindow *w, unsigned int codepoint)
{
    gn_viewer *v = glfwGetWindowUserPointer(w);
    gn_view_char(&v->state, codepoint);
}

static void gn_on_button(GLFWwindow *w, int button, int action, int mods)
{
    (void)mods;
    gn_viewer *v = glfwGetWindowUserPointer(w);
    if (button != GLFW_MOUSE_BUTTON_LEFT && button != GLFW_MOUSE_BUTTON_RIGHT) return;
    v->looking = action == GLFW_PRESS;
    glfwSetInputMode(w, GLFW_CURSOR, v->looking ? GLFW_CURSOR_DISABLED : GLFW_CURSOR_NORMAL);
    glfwGetCursorPos(w, &v->cursor_x, &v->cursor_y);
}

static void gn_on_cursor(GLFWwindow *w, double x, double y)
{
    gn_viewer *v = glfwGetWindowUserPointer(w);
    if (v->looking) gn_view_mouse(&v->state, (float)(x - v->cursor_x), (float)(y - v->cursor_y));
    v->cursor_x = x;
    v->cursor_y = y;
}

static void gn_on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    gn_viewer *v = glfwGetWindowUserPointer(w);
    gn_view_scroll(&v->state, (float)dy);
}

static gn_result gn_make_surface(void *instance, void *user, uint64_t *surface, gn_error *err)
{
    VkSurfaceKHR s = VK_NULL_HANDLE;
    VkResult r = glfwCreateWindowSurface((VkInstance)instance, (GLFWwindow *)user, NULL, &s);
    if (r != VK_SUCCESS)
        return gn_cli_error(err, GN_ERROR_VULKAN, "glfwCreateWindowSurface failed (VkResult %d): %s", (int)r,
                            gn_glfw_last_error);
    *surface = (uint64_t)s;
    return GN_OK;
}

/* The overlay of the frame last rendered, when screenshots take it. */
static const uint8_t *gn_viewer_shot_overlay(const gn_viewer *v)
{
    return v->state.opts.shot_overlay == 1 ? v->overlay.rgb : NULL;
}

/* ---- the script player: the same inputs as the keyboard and mouse ------------------------ */
typedef struct gn_player {
    gn_script script;
    const char *path;
    uint32_t next;        /* the command to run next */
    uint32_t frames_left; /* of a frames or hold command */
    int held_key;         /* released when a hold's frames are done; -1 none */
    bool done;
} gn_player;

/* A key as the keyboard gives it: a press (and its character, for the console), a release. */
static void gn_script_key(gn_viewer *v, int key, bool press)
{
    v->requests |= gn_view_key(&v->state, key, press);
    const char *name = gn_key_name(key);
    if (press && name && name[1] == '\0') /* a letter or digit also types its character */
        gn_view_char(&v->state, (uint32_t)(name[0] >= 'A' && name[0] <= 'Z' ? name[0] - 'A' + 'a' : name[0]));
    else if (press && key == GN_KEY_SPACE)
        gn_view_char(&v->state, ' ');
}

/* Runs commands until one asks for frames. Returns an exit code, or GN_CLI_GO_ON. */
static int gn_player_step(gn_viewer *v, gn_player *p)
{
    if (p->frames_left) return GN_CLI_GO_ON;
    if (p->held_key >= 0) {
        gn_script_key(v, p->held_key, false);
        p->held_key = -1;
    }
    while (p->next < p->script.count) {
        const gn_script_cmd *c = &p->script.cmds[p->next++];
        char msg[GN_CONSOLE_MSG];
        uint32_t effects = 0;
        gn_error err = {0};
        switch (c->op) {
        case GN_SCRIPT_FRAMES:
            p->frames_left = c->frames;
            return GN_CLI_GO_ON;
        case GN_SCRIPT_HOLD:
            gn_script_key(v, c->key, true);
            p->held_key = c->key;
            p->frames_left = c->frames;
            return GN_CLI_GO_ON;
        case GN_SCRIPT_KEY:
            gn_script_key(v, c->key, true);
            gn_script_key(v, c->key, false);
            break;
        case GN_SCRIPT_MOUSE:
            gn_view_mouse(&v->state, c->dx, c->dy);
            break;
        case GN_SCRIPT_SET: {
            char line[GN_CONSOLE_LINE + 64];
            snprintf(line, sizeof line, "%s %s", c->name, c->value);
            if (!gn_view_set(&v->state, line, &effects, msg, sizeof msg)) {
                fprintf(stderr, "gnomon view: %s:%u: %s\n", p->path, c->line, msg);
                return GN_EXIT_USAGE;
            }
            v->requests |= effects;
            break;
        }
        case GN_SCRIPT_SCREENSHOT:
            if (gn_view_session_screenshot(&v->session, c->value, gn_viewer_shot_overlay(v), &err) != GN_OK) {
                fprintf(stderr, "gnomon view: %s:%u: %s\n", p->path, c->line, err.message);
                return gn_cli_exit_code(err.code);
            }
            uint32_t w, h;
            gn_renderer_size(v->session.r, &w, &h);
            printf("screenshot %s (%ux%u)\n", c->value, w, h);
            break;
        case GN_SCRIPT_QUIT:
            p->done = true;
            return GN_CLI_GO_ON;
        }
        if (v->requests & ~(uint32_t)GN_EFFECT_FRAME) return GN_CLI_GO_ON; /* act on it before going on */
    }
    p->done = true;
    return GN_CLI_GO_ON;
}

/* Checks what parsing cannot: each set against the settings as the script leaves them, and
 * that a screenshot comes after a frame. */
static bool gn_player_check(const gn_player *p, const gn_view_opts *opts, char *err, size_t size)
{
    gn_view_opts o = *opts;
    gn_console_strings strings;
    bool rendered = false;
    for (uint32_t i = 0; i < p->script.count; i++) {
        const gn_script_cmd *c = &p->script.cmds[i];
        rendered |= c->op == GN_SCRIPT_FRAMES || c->op == GN_SCRIPT_HOLD;
        if (c->op == GN_SCRIPT_SCREENSHOT && !rendered) {
            snprintf(err, size, "%s:%u: screenshot before any frame (add 'frames 1' before it)", p->path,
                     c->line);
            return false;
        }
        if (c->op != GN_SCRIPT_SET) continue;
        char line[GN_CONSOLE_LINE + 64], msg[GN_CONSOLE_MSG];
        uint32_t effects;
        snprintf(line, sizeof line, "%s %s", c->name, c->value);
        if (!gn_console_exec(&o, &strings, line, msg, sizeof msg, &effects)) {
            snprintf(err, size, "%s:%u: %s", p->path, c->line, msg);
            return false;
        }
    }
    return true;
}

/* ---- acting on requests ------------------------------------------------------------------------ */
static int gn_viewer_fail(gn_viewer *v, const char *what, const gn_error *err)
{
    (void)v;
    fprintf(stderr, "gnomon view: %s: %s\n", what, err->message);
    return gn_cli_exit_code(err->code);
}

static int gn_viewer_apply(gn_viewer *v)
{
    uint32_t req = v->requests;
    v->requests = 0;
    gn_view_state *s = &v->state;
    gn_error err = {0};
    char msg[GN_CONSOLE_MSG + 64];
    if (req & GN_EFFECT_SCENE) {
        bool new_scene = strcmp(s->opts.frame.scene, v->session.made_with.frame.scene) != 0;
        if (gn_view_session_scene(&v->session, &s->opts, &err) != GN_OK) {
            snprintf(msg, sizeof msg, "%s (kept the old scene)", err.message);
            gn_console_log(&s->console, msg);
            fprintf(stderr, "gnomon view: %s\n", msg);
            const gn_view_opts *m = &v->session.made_with; /* the settings back as the scene is */
            s->opts.frame.scene = m->frame.scene, s->opts.frame.paks = m->frame.paks;
            s->opts.frame.map_lights = m->frame.map_lights,
            s->opts.frame.single_image = m->frame.single_image, s->opts.frame.seed = m->frame.seed;
            s->opts.frame.scale = m->frame.scale, s->opts.light.lights = m->light.lights;
        } else if (new_scene) {
            float cam[5];
            gn_view_session_camera(&v->session, &s->opts, cam);
            s->camera = (gn_fly_camera){{cam[0], cam[1], cam[2]}, cam[3], cam[4], s->camera.speed};
        }
    }
    if (req & GN_EFFECT_RENDERER) {
        uint32_t w, h;
        gn_renderer_size(v->session.r, &w, &h);
        if (gn_view_session_renderer(&v->session, &s->opts, w, h, &err) != GN_OK) {
            snprintf(msg, sizeof msg, "%s (back to the settings before)", err.message);
            gn_console_log(&s->console, msg);
            fprintf(stderr, "gnomon view: %s\n", msg);
            const gn_view_opts *m = &v->session.made_with;
            s->opts.frame.msaa = m->frame.msaa, s->opts.shadow = m->shadow;
            s->opts.light.shadowed = m->light.shadowed, s->opts.light.cluster_max = m->light.cluster_max;
            if (gn_view_session_renderer(&v->session, &s->opts, w, h, &err) != GN_OK)
                return gn_viewer_fail(v, "renderer", &err);
        }
    }
    if (req & GN_EFFECT_SIZE)
        glfwSetWindowSize(v->window, (int)s->opts.frame.size[0], (int)s->opts.frame.size[1]);
    if ((req & GN_EFFECT_VSYNC) && gn_renderer_set_vsync(v->session.r, s->opts.vsync == 1, &err) != GN_OK)
        return gn_viewer_fail(v, "vsync", &err);
    if (req & GN_REQUEST_SCREENSHOT) {
        char name[256];
        gn_view_screenshot_name(s, gn_renderer_frame_index(v->session.r), name, sizeof name);
        if (gn_view_session_screenshot(&v->session, name, gn_viewer_shot_overlay(v), &err) == GN_OK)
            snprintf(msg, sizeof msg, "screenshot %s", name);
        else
            snprintf(msg, sizeof msg, "screenshot failed: %s", err.message);
        gn_console_log(&s->console, msg);
        printf("%s\n", msg);
    }
    if (req & GN_REQUEST_NEXT_CLIP) { /* crossfaded over a quarter second (seed 001's blend) */
        char clip[64];
        if (gn_scene_next_clip(v->session.scene, 0.25f, clip, sizeof clip, &err) != GN_OK)
            snprintf(msg, sizeof msg, "next clip: %s", err.message);
        else
            snprintf(msg, sizeof msg, clip[0] ? "clip %s" : "no animated model in the scene", clip);
        gn_console_log(&s->console, msg);
    }
    if (req & GN_REQUEST_QUIT) glfwSetWindowShouldClose(v->window, GLFW_TRUE);
    return GN_CLI_GO_ON;
}

/* The output follows the window's framebuffer; false while it has no area (minimised). */
static bool gn_viewer_fit(gn_viewer *v, gn_error *err, gn_result *res)
{
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(v->window, &fw, &fh);
    *res = GN_OK;
    if (fw < 16 || fh < 16) return false;
    uint32_t w, h;
    gn_renderer_size(v->session.r, &w, &h);
    if ((uint32_t)fw == w && (uint32_t)fh == h && v->overlay.rgb) return true;
    *res = gn_renderer_resize(v->session.r, (uint32_t)fw, (uint32_t)fh, err);
    gn_canvas_free(&v->overlay);
    if (!*res && !gn_canvas_init_rgba(&v->overlay, fw, fh))
        *res = gn_cli_error(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for a %dx%d overlay", fw, fh);
    v->state.opts.frame.size[0] = (uint32_t)fw, v->state.opts.frame.size[1] = (uint32_t)fh;
    return !*res;
}

/* One frame: the camera and clock advanced by dt, the overlay drawn, rendered and presented. */
static int gn_viewer_frame(gn_viewer *v, float dt, float wall_ms)
{
    gn_error err = {0};
    gn_frame_desc f;
    gn_view_advance(&v->state, dt, &f);
    gn_frame_stats taken[GN_STATS_QUEUE];
    uint32_t n = 0;
    if (gn_take_frame_stats(v->session.r, taken, GN_STATS_QUEUE, &n, &err) == GN_OK && n) {
        v->stats = taken[n - 1];
        v->have_stats = true;
    }
    if (v->frame_count == GN_OVERLAY_HISTORY) {
        memmove(v->frame_ms, v->frame_ms + 1, sizeof v->frame_ms[0] * (GN_OVERLAY_HISTORY - 1));
        v->frame_count--;
    }
    v->frame_ms[v->frame_count++] = wall_ms;
    char settings[256];
    gn_view_settings_line(&v->state, settings, sizeof settings);
    gn_overlay_info info = {.stats = v->have_stats ? &v->stats : NULL,
                            .frame_ms = v->frame_ms,
                            .frame_count = v->frame_count,
                            .settings = settings,
                            .show_stats = v->state.show_stats,
                            .console = &v->state.console};
    gn_overlay_draw(&v->overlay, &info);
    f.overlay = v->overlay.rgb;
    gn_scene_set_animation_speed(v->session.scene, v->state.opts.anim_speed);
    if (gn_render(v->session.r, v->session.scene, &f, &err) != GN_OK)
        return gn_viewer_fail(v, "render", &err);
    return GN_CLI_GO_ON;
}

static int gn_viewer_loop(gn_viewer *v, gn_player *player)
{
    double last = glfwGetTime();
    for (;;) {
        if (player) {
            int code = gn_player_step(v, player);
            if (code != GN_CLI_GO_ON) return code;
        }
        int code = gn_viewer_apply(v);
        if (code != GN_CLI_GO_ON) return code;
        if (player && player->done) return GN_EXIT_OK;
        if (player && !player->frames_left) continue; /* more commands before the next frame */
        glfwPollEvents();
        if (glfwWindowShouldClose(v->window)) return GN_EXIT_OK;
        gn_error err = {0};
        gn_result res;
        if (!gn_viewer_fit(v, &err, &res)) {
            if (res) return gn_viewer_fail(v, "resize", &err);
            glfwWaitEventsTimeout(0.1); /* minimised: nothing to draw into */
            last = glfwGetTime();
            continue;
        }
        double now = glfwGetTime();
        float wall = (float)(now - last);
        last = now;
        float dt = player ? GN_SCRIPT_DT : (wall < GN_MAX_DT ? wall : GN_MAX_DT);
        code = gn_viewer_frame(v, dt, wall * 1000.0f);
        if (code != GN_CLI_GO_ON) return code;
        if (player) player->frames_left--;
    }
}

static int gn_view_run(gn_viewer *v, const gn_view_opts *o, gn_player *player)
{
    gn_error err = {0};
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API); /* Vulkan: GLFW makes no GL context */
    v->window = glfwCreateWindow((int)o->frame.size[0], (int)o->frame.size[1], "gnomon", NULL, NULL);
    if (!v->window) {
        fprintf(stderr, "gnomon view: cannot open a window: %s\n", gn_glfw_last_error);
        return GN_EXIT_RUNTIME;
    }
    glfwSetWindowUserPointer(v->window, v);
    glfwSetKeyCallback(v->window, gn_on_key);
    glfwSetCharCallback(v->window, gn_on_char);
    glfwSetMouseButtonCallback(v->window, gn_on_button);
    glfwSetCursorPosCallback(v->window, gn_on_cursor);
    glfwSetScrollCallback(v->window, gn_on_scroll);

    uint32_t ext_count = 0;
    const char **exts = glfwGetRequiredInstanceExtensions(&ext_count);
    if (!exts) {
        fprintf(stderr, "gnomon view: GLFW finds no Vulkan surface extensions: %s\n", gn_glfw_last_error);
        return GN_EXIT_NO_DEVICE;
    }
    v->session = (gn_view_session){.make_surface = gn_make_surface,
                                   .surface_user = v->window,
                                   .instance_extensions = exts,
                                   .instance_extension_count = ext_count};
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(v->window, &fw, &fh);
    uint32_t w = fw >= 16 ? (uint32_t)fw : o->frame.size[0], h = fh >= 16 ? (uint32_t)fh : o->frame.size[1];
    if (gn_view_session_renderer(&v->session, o, w, h, &err) != GN_OK)
        return gn_viewer_fail(v, "renderer", &err);
    printf("%s: %ux%u, msaa %u\n", gn_renderer_device_name(v->session.r), w, h, o->frame.msaa);
    if (gn_view_session_scene(&v->session, o, &err) != GN_OK) return gn_viewer_fail(v, "scene", &err);
    float cam[5];
    gn_view_session_camera(&v->session, o, cam);
    gn_view_state_init(&v->state, o, cam);
    int code = gn_viewer_loop(v, player);
    if (code == GN_EXIT_OK && gn_renderer_wait_idle(v->session.r, &err) != GN_OK)
        code = gn_viewer_fail(v, "wait", &err);
    gn_present_stats ps;
    gn_view_session_present_stats(&v->session, &ps);
    printf("presented %llu frames (%llu while minimised, %u swapchains remade)\n",
           (unsigned long long)ps.presented, (unsigned long long)ps.skipped, ps.recreated);
    return code;
}

int gn_cmd_view(int argc, char **argv)
{
    gn_view_opts o;
    char msg[1024];
    int parsed =
        gn_cli_after_parse(gn_view_opts_parse(argc, argv, &o, msg, sizeof msg), msg, gn_view_opts_help);
    if (parsed != GN_CLI_GO_ON) return parsed;
    gn_player player = {.path = o.script, .held_key = -1};
    if (o.script) { /* the whole script is checked before a window opens */
        if (!gn_script_load(o.script, &player.script, msg, sizeof msg) ||
            !gn_player_check(&player, &o, msg, sizeof msg)) {
            fprintf(stderr, "gnomon view: %s\n", msg);
            gn_script_free(&player.script);
            return GN_EXIT_USAGE;
        }
    }
    glfwSetErrorCallback(gn_on_glfw_error);
    if (!glfwInit()) {
        fprintf(stderr, "gnomon view: cannot open a window: %s (no display? run under xvfb-run)\n",
                gn_glfw_last_error);
        gn_script_free(&player.script);
        return GN_EXIT_RUNTIME;
    }
    if (!glfwVulkanSupported()) {
        fprintf(stderr, "gnomon view: GLFW finds no Vulkan loader: %s\n", gn_glfw_last_error);
        glfwTerminate();
        gn_script_free(&player.script);
        return GN_EXIT_NO_DEVICE;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* screenshots are reported as they happen, even into a pipe */
    gn_viewer *v = calloc(1, sizeof *v);
    int code = v ? gn_view_run(v, &o, o.script ? &player : NULL) : GN_EXIT_RUNTIME;
    if (v) {
        gn_view_session_end(&v->session);
        uint32_t vmsgs = gn_view_session_validation(&v->session); /* over every renderer made */
        if (vmsgs && code == GN_EXIT_OK) {
            fprintf(stderr, "gnomon view: %u validation message(s)\n", vmsgs);
            code = GN_EXIT_RUNTIME;
        }
        gn_canvas_free(&v->overlay);
        if (v->window) glfwDestroyWindow(v->window);
        free(v);
    }
    glfwTerminate();
    gn_script_free(&player.script);
    return code;
}

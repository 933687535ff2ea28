/* Unit tests of gnomon view's pure parts: key names, the script parser, the fly camera, the
 * console (names, values, completion, errors), the key bindings and the overlay. No window,
 * no GPU. */
#include "check.h"
#include "cmd_opts.h"
#include "view_camera.h"
#include "view_console.h"
#include "view_input.h"
#include "view_keys.h"
#include "view_overlay.h"
#include "view_script.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_keys(void)
{
    GN_CHECK(gn_key_from_name("W") == GN_KEY_W);
    GN_CHECK(gn_key_from_name("w") == GN_KEY_W); /* case-insensitive */
    GN_CHECK(gn_key_from_name("GRAVE_ACCENT") == GN_KEY_GRAVE_ACCENT);
    GN_CHECK(gn_key_from_name("LEFT_SHIFT") == GN_KEY_LEFT_SHIFT);
    GN_CHECK(gn_key_from_name("F1") == GN_KEY_F1);
    GN_CHECK(gn_key_from_name("F25") == 314);
    GN_CHECK(gn_key_from_name("F26") == GN_KEY_UNKNOWN);
    GN_CHECK(gn_key_from_name("7") == GN_KEY_1 + 6);
    GN_CHECK(gn_key_from_name("KP_3") == 323);
    GN_CHECK(gn_key_from_name("SHIFT") == GN_KEY_UNKNOWN);
    GN_CHECK(gn_key_from_name("") == GN_KEY_UNKNOWN);
    GN_CHECK(gn_key_from_name(NULL) == GN_KEY_UNKNOWN);
    /* every name maps back to its code */
    int named = 0;
    for (int k = 0; k <= GN_KEY_LAST; k++) {
        const char *n = gn_key_name(k);
        if (!n) continue;
        named++;
        GN_CHECK(gn_key_from_name(n) == k);
    }
    GN_CHECK(named == 120); /* GLFW 3.3 names 120 keys */
    GN_CHECK(gn_key_name(1000) == NULL && gn_key_name(-1) == NULL);
}

static char err[512];

/* A script that must fail, with its message containing want. */
static void script_fails(const char *text, const char *want)
{
    gn_script s;
    bool ok = gn_script_parse(text, "t.txt", &s, err, sizeof err);
    GN_CHECK(!ok);
    GN_CHECK(s.count == 0 && s.cmds == NULL);
    if (!strstr(err, want)) fprintf(stderr, "  message '%s' lacks '%s'\n", err, want);
    GN_CHECK(strstr(err, want) != NULL);
}

static void test_script(void)
{
    gn_script s;
    const char *text = "# a comment\n"
                       "frames 60\n"
                       "\n"
                       "key w\n"
                       "  hold LEFT_SHIFT 5  \r\n"
                       "mouse -12.5 3\n"
                       "set shadows vsm\n"
                       "set csm-schedule 1,1,2,4\n"
                       "screenshot out/a.png\n"
                       "quit";
    GN_CHECK(gn_script_parse(text, "t.txt", &s, err, sizeof err));
    GN_CHECK(s.count == 8);
    if (s.count == 8) {
        GN_CHECK(s.cmds[0].op == GN_SCRIPT_FRAMES && s.cmds[0].frames == 60 && s.cmds[0].line == 2);
        GN_CHECK(s.cmds[1].op == GN_SCRIPT_KEY && s.cmds[1].key == GN_KEY_W && s.cmds[1].line == 4);
        GN_CHECK(s.cmds[2].op == GN_SCRIPT_HOLD && s.cmds[2].key == GN_KEY_LEFT_SHIFT &&
                 s.cmds[2].frames == 5);
        GN_CHECK(s.cmds[3].op == GN_SCRIPT_MOUSE && s.cmds[3].dx == -12.5f && s.cmds[3].dy == 3.0f);
        GN_CHECK(s.cmds[4].op == GN_SCRIPT_SET && strcmp(s.cmds[4].name, "shadows") == 0 &&
                 strcmp(s.cmds[4].value, "vsm") == 0);
        GN_CHECK(strcmp(s.cmds[5].value, "1,1,2,4") == 0);
        GN_CHECK(s.cmds[6].op == GN_SCRIPT_SCREENSHOT && strcmp(s.cmds[6].value, "out/a.png") == 0);
        GN_CHECK(s.cmds[7].op == GN_SCRIPT_QUIT && s.cmds[7].line == 10);
    }
    gn_script_free(&s);
    GN_CHECK(gn_script_parse("", "t.txt", &s, err, sizeof err) && s.count == 0);

    script_fails("frames 1\njump 3\n", "t.txt:2: unknown command 'jump'");
    script_fails("frames 0", "t.txt:1: frames expects one count");
    script_fails("frames -1", "t.txt:1: frames");
    script_fails("frames 100001", "t.txt:1: frames");
    script_fails("frames 5x", "t.txt:1: frames");
    script_fails("frames 2 3", "t.txt:1: frames");
    script_fails("\n\nkey SHIFT", "t.txt:3: unknown key 'SHIFT'");
    script_fails("key", "t.txt:1: key expects a key name");
    script_fails("key W W", "t.txt:1: key: unexpected text");
    script_fails("hold W", "t.txt:1: hold expects a key and a count");
    script_fails("hold W 0", "t.txt:1: hold expects");
    script_fails("mouse 1", "t.txt:1: mouse expects DX DY");
    script_fails("mouse 1 nan", "t.txt:1: mouse expects");
    script_fails("mouse 1 1e9", "t.txt:1: mouse expects");
    script_fails("set shadows", "t.txt:1: set shadows expects a value");
    script_fails("set", "t.txt:1: set expects NAME VALUE");
    script_fails("screenshot", "t.txt:1: screenshot expects one file name");
    script_fails("screenshot a b", "t.txt:1: screenshot expects");
    script_fails("quit now", "t.txt:1: quit takes nothing");
    script_fails("FRAMES 3", "t.txt:1: unknown command 'FRAMES'");

    GN_CHECK(!gn_script_load("/nonexistent/script.txt", &s, err, sizeof err));
    GN_CHECK(strstr(err, "/nonexistent/script.txt: cannot open") != NULL);
}

static void test_camera(void)
{
    gn_fly_camera c = {.position = {0, 0, 0}};
    gn_fly_input in = {.forward = true};
    gn_fly_camera_update(&c, &in, 1.0f);
    GN_CHECK(c.speed == GN_FLY_SPEED_DEFAULT);                 /* 0 read as the default */
    GN_CHECK_NEAR(c.position[2], -GN_FLY_SPEED_DEFAULT, 1e-4); /* yaw 0 looks down -Z */
    GN_CHECK_NEAR(c.position[0], 0, 1e-4);

    /* yaw 90 looks down -X; right is then -Z */
    c = (gn_fly_camera){.yaw = 90, .speed = 2};
    in = (gn_fly_input){.forward = true, .right = true};
    gn_fly_camera_update(&c, &in, 0.5f);
    float d = sqrtf(c.position[0] * c.position[0] + c.position[2] * c.position[2]);
    GN_CHECK_NEAR(d, 1.0f, 1e-4); /* a diagonal is no faster: 2 m/s for 0.5 s */
    GN_CHECK(c.position[0] < -0.7f && c.position[2] < -0.7f);

    /* Shift, up and down */
    c = (gn_fly_camera){.speed = 4};
    in = (gn_fly_input){.up = true, .fast = true};
    gn_fly_camera_update(&c, &in, 0.25f);
    GN_CHECK_NEAR(c.position[1], 4 * GN_FLY_FAST * 0.25f, 1e-4);
    in = (gn_fly_input){.up = true, .down = true};
    gn_fly_camera_update(&c, &in, 1.0f);
    GN_CHECK_NEAR(c.position[1], 4 * GN_FLY_FAST * 0.25f, 1e-4); /* they cancel */

    /* forward follows the pitch */
    c = (gn_fly_camera){.pitch = 30, .speed = 1};
    in = (gn_fly_input){.forward = true};
    gn_fly_camera_update(&c, &in, 1.0f);
    GN_CHECK_NEAR(c.position[1], 0.5f, 1e-4);

    /* mouse look: right turns right (yaw down), down looks down, pitch clamped */
    c = (gn_fly_camera){.speed = 1};
    in = (gn_fly_input){.look_dx = 100, .look_dy = 100};
    gn_fly_camera_update(&c, &in, 0.0f);
    GN_CHECK_NEAR(c.yaw, -100 * GN_FLY_DEG_PER_PIXEL, 1e-4);
    GN_CHECK_NEAR(c.pitch, -100 * GN_FLY_DEG_PER_PIXEL, 1e-4);
    in = (gn_fly_input){.look_dy = -100000};
    gn_fly_camera_update(&c, &in, 0.0f);
    GN_CHECK(c.pitch == GN_FLY_PITCH_LIMIT);

    /* scroll: a notch multiplies the speed, within limits; NaN changes nothing */
    c = (gn_fly_camera){.speed = 10};
    in = (gn_fly_input){.scroll = 2};
    gn_fly_camera_update(&c, &in, 0.0f);
    GN_CHECK_NEAR(c.speed, 10 * GN_FLY_SCROLL_STEP * GN_FLY_SCROLL_STEP, 1e-3);
    in = (gn_fly_input){.scroll = -1000};
    gn_fly_camera_update(&c, &in, 0.0f);
    GN_CHECK(c.speed == GN_FLY_SPEED_MIN);
    in = (gn_fly_input){.scroll = NAN};
    gn_fly_camera_update(&c, &in, 0.0f);
    GN_CHECK(c.speed == GN_FLY_SPEED_MIN);
    /* no time, no motion */
    c = (gn_fly_camera){.speed = 10};
    in = (gn_fly_input){.forward = true};
    gn_fly_camera_update(&c, &in, 0.0f);
    GN_CHECK(c.position[2] == 0.0f);
}

/* Runs a console line on o; returns its success, the answer in msg. */
static char msg[GN_CONSOLE_MSG];
static gn_console_strings strings;
static bool run(gn_view_opts *o, const char *line, uint32_t *effects)
{
    return gn_console_exec(o, &strings, line, msg, sizeof msg, effects);
}

static void test_console(void)
{
    gn_view_opts o = gn_view_opts_defaults();
    uint32_t fx = 99;
    /* the same names as the flags; per-frame ones only change the frame */
    GN_CHECK(run(&o, "shadows csm", &fx) && o.shadow.shadows == GN_SHADOWCHECK_CSM && fx == GN_EFFECT_FRAME);
    GN_CHECK(strcmp(msg, "shadows csm") == 0);
    GN_CHECK(run(&o, "shadows vsm", &fx) && o.shadow.shadows == GN_SHADOWCHECK_VSM && fx == GN_EFFECT_FRAME);
    GN_CHECK(strcmp(msg, "shadows vsm") == 0);
    GN_CHECK(run(&o, "clustered 0", &fx) && o.light.clustered == 0 && fx == GN_EFFECT_FRAME);
    GN_CHECK(run(&o, "msaa 8", &fx) && o.frame.msaa == 8 && fx == GN_EFFECT_RENDERER);
    GN_CHECK(run(&o, "lights 1024", &fx) && o.light.lights == 1024 && fx == GN_EFFECT_SCENE);
    GN_CHECK(run(&o, "vsm-budget 32", &fx) && fx == GN_EFFECT_RENDERER);
    GN_CHECK(run(&o, "size 640x360", &fx) && o.frame.size[0] == 640 && fx == GN_EFFECT_SIZE);
    GN_CHECK(run(&o, "vsync off", &fx) && o.vsync == 0 && fx == GN_EFFECT_VSYNC);
    GN_CHECK(run(&o, "time 12", &fx) && o.frame.time == 12.0f && fx == GN_EFFECT_TIME);
    GN_CHECK(run(&o, "camera 1,2,3,45,-10", &fx) && o.frame.camera[3] == 45.0f && fx == GN_EFFECT_CAMERA);
    GN_CHECK(run(&o, "view light-heatmap", &fx) && o.view == GN_VIEW_LIGHT_HEATMAP && fx == GN_EFFECT_FRAME);
    /* setting a value it already has changes nothing */
    GN_CHECK(run(&o, "msaa 8", &fx) && fx == 0);
    /* reading */
    GN_CHECK(run(&o, "msaa", &fx) && strcmp(msg, "msaa 8") == 0 && fx == 0);
    GN_CHECK(run(&o, "  size  ", &fx) && strcmp(msg, "size 640x360") == 0);
    GN_CHECK(run(&o, "shadows", &fx) && strcmp(msg, "shadows vsm") == 0);
    GN_CHECK(run(&o, "", &fx) && fx == 0);
    /* strings outlive the line they came in */
    char line[64];
    strcpy(line, "csm-schedule 1,2,3");
    GN_CHECK(run(&o, line, &fx) && fx == GN_EFFECT_RENDERER);
    memset(line, 'x', sizeof line - 1);
    GN_CHECK(o.shadow.schedule && strcmp(o.shadow.schedule, "1,2,3") == 0);
    GN_CHECK(run(&o, "scene level.glb", &fx) && strcmp(o.frame.scene, "level.glb") == 0 &&
             fx == GN_EFFECT_SCENE);

    /* errors: clear messages, settings left as they were */
    gn_view_opts before = o;
    GN_CHECK(!run(&o, "msaa 3", &fx) && fx == 0);
    GN_CHECK(strcmp(msg, "msaa expects one of 1, 2, 4, 8, got '3'") == 0);
    GN_CHECK(o.frame.msaa == 8);
    GN_CHECK(!run(&o, "shadows pcss", &fx));
    GN_CHECK(strstr(msg, "shadows expects one of vsm, none, csm, got 'pcss'") != NULL);
    GN_CHECK(!run(&o, "lights 99999", &fx) && strstr(msg, "lights expects an integer in 0..16384") != NULL);
    GN_CHECK(!run(&o, "exposure abc", &fx) && strstr(msg, "exposure expects auto or a number") != NULL);
    GN_CHECK(!run(&o, "frobnicate 1", &fx) && strstr(msg, "unknown setting 'frobnicate'") != NULL);
    GN_CHECK(!run(&o, "shadow vsm", &fx) && strstr(msg, "did you mean: shadows") != NULL);
    GN_CHECK(!run(&o, "script x.txt", &fx) && strstr(msg, "command line only") != NULL);
    GN_CHECK(!run(&o, "scene moon", &fx) && strstr(msg, "unknown scene 'moon'") != NULL);
    GN_CHECK(strcmp(o.frame.scene, "level.glb") == 0);
    GN_CHECK(!run(&o, "vsm-res 1000", &fx) && strstr(msg, "vsm-res") != NULL);
    GN_CHECK(!run(&o, "vsm-res 1100", &fx) && strstr(msg, "not a multiple of 128") != NULL);
    GN_CHECK(!run(&o, "csm-schedule 1,x", &fx) && strstr(msg, "csm-schedule expects periods") != NULL);
    GN_CHECK(memcmp(&o, &before, sizeof o) == 0);
    GN_CHECK(run(&o, "help", &fx) && strstr(msg, "settings: scene paks") != NULL &&
             strstr(msg, "script") == NULL);

    /* completion: the longest shared prefix; a space after a unique name */
    char c[GN_CONSOLE_LINE], list[256];
    strcpy(c, "sha");
    GN_CHECK(gn_console_complete(c, sizeof c, list, sizeof list) == 1 && strcmp(c, "shadows ") == 0);
    strcpy(c, "vsm-");
    GN_CHECK(gn_console_complete(c, sizeof c, list, sizeof list) == 7 &&
             strcmp(c, "vsm-") == 0); /* vsm-occlusion too */
    GN_CHECK(strstr(list, "vsm-levels, vsm-res") != NULL);
    strcpy(c, "csm-b");
    GN_CHECK(gn_console_complete(c, sizeof c, list, sizeof list) == 2 && strcmp(c, "csm-bias-") == 0);
    strcpy(c, "zzz");
    GN_CHECK(gn_console_complete(c, sizeof c, list, sizeof list) == 0 && strcmp(c, "zzz") == 0);
    strcpy(c, "scr"); /* script is not a console setting; screenshot-overlay is */
    GN_CHECK(gn_console_complete(c, sizeof c, list, sizeof list) == 1 &&
             strcmp(c, "screenshot-overlay ") == 0);
    strcpy(c, "msaa 4");
    GN_CHECK(gn_console_complete(c, sizeof c, list, sizeof list) == 0 && strcmp(c, "msaa 4") == 0);

    /* line editing and the log */
    gn_console k = {0};
    for (const char *p = "ms\x01\xff"; *p; p++) gn_console_type(&k, (uint8_t)*p);
    GN_CHECK(strcmp(k.line, "ms") == 0 && k.len == 2);
    gn_console_backspace(&k);
    gn_console_backspace(&k);
    gn_console_backspace(&k);
    GN_CHECK(k.len == 0 && k.line[0] == '\0');
    for (int i = 0; i < 400; i++) gn_console_type(&k, 'a');
    GN_CHECK(k.len == GN_CONSOLE_LINE - 1);
    for (int i = 0; i < GN_CONSOLE_LOG + 3; i++) {
        char m[16];
        snprintf(m, sizeof m, "m%d", i);
        gn_console_log(&k, m);
    }
    GN_CHECK(k.log_count == GN_CONSOLE_LOG && strcmp(k.log[GN_CONSOLE_LOG - 1], "m8") == 0 &&
             strcmp(k.log[0], "m3") == 0);
}

/* Presses and releases a key. */
static uint32_t tap(gn_view_state *s, int key)
{
    uint32_t r = gn_view_key(s, key, true);
    gn_view_key(s, key, false);
    return r;
}

static void test_input(void)
{
    gn_view_opts o = gn_view_opts_defaults();
    float cam[5] = {0, 2, 0, 0, 0};
    gn_view_state s;
    gn_view_state_init(&s, &o, cam);
    GN_CHECK(s.time_of_day == 18.5f);
    gn_frame_desc f;
    /* W held for 60 frames of 1/60 s: 10 m down -Z */
    gn_view_key(&s, GN_KEY_W, true);
    for (int i = 0; i < 60; i++) gn_view_advance(&s, 1.0f / 60.0f, &f);
    gn_view_key(&s, GN_KEY_W, false);
    GN_CHECK_NEAR(f.camera.position[2], -10.0f, 1e-3);
    GN_CHECK(f.camera.fov_y > 0.0f && f.time_of_day == 18.5f);
    GN_CHECK_NEAR(f.seconds, 1.0, 1e-6);
    gn_view_advance(&s, 1.0f, &f);
    GN_CHECK_NEAR(f.camera.position[2], -10.0f, 1e-3); /* released: no motion */

    /* a key per debug view */
    GN_CHECK(tap(&s, GN_KEY_1 + 1) == GN_EFFECT_FRAME && s.opts.view == GN_VIEW_SHADOW);
    tap(&s, GN_KEY_1 + 2);
    GN_CHECK(s.opts.view == GN_VIEW_CASCADES);
    tap(&s, GN_KEY_1 + 3);
    GN_CHECK(s.opts.view == GN_VIEW_VSM_PAGES);
    tap(&s, GN_KEY_1 + 4);
    GN_CHECK(s.opts.view == GN_VIEW_LIGHT_HEATMAP);
    tap(&s, GN_KEY_1 + 5);
    GN_CHECK(s.opts.view == GN_VIEW_NORMALS);
    tap(&s, GN_KEY_1 + 6);
    GN_CHECK(s.opts.view == GN_VIEW_DEPTH);
    tap(&s, GN_KEY_1);
    GN_CHECK(s.opts.view == GN_VIEW_FINAL);
    gn_view_advance(&s, 0.0f, &f);
    GN_CHECK(f.view == GN_VIEW_FINAL);

    /* time of day: ] and [ an hour, wrapping; F lets the sun follow the clock */
    GN_CHECK(tap(&s, GN_KEY_RIGHT_BRACKET) == GN_EFFECT_TIME && s.time_of_day == 19.5f);
    for (int i = 0; i < 5; i++) tap(&s, GN_KEY_RIGHT_BRACKET);
    GN_CHECK_NEAR(s.time_of_day, 0.5f, 1e-5);
    tap(&s, GN_KEY_LEFT_BRACKET);
    GN_CHECK_NEAR(s.time_of_day, 23.5f, 1e-5);
    tap(&s, GN_KEY_F);
    GN_CHECK(s.sun_follows);
    gn_view_advance(&s, 4.0f, &f);
    GN_CHECK_NEAR(f.time_of_day, 23.5f + 4.0f * GN_SUN_HOURS_PER_SECOND - 24.0f, 1e-4);
    tap(&s, GN_KEY_F);
    gn_view_advance(&s, 4.0f, &f);
    GN_CHECK_NEAR(f.time_of_day, 0.5f, 1e-4);

    /* V cycles the shadows, L the light A/B */
    GN_CHECK(s.opts.shadow.shadows == GN_SHADOWCHECK_VSM); /* the default */
    tap(&s, GN_KEY_V);
    GN_CHECK(s.opts.shadow.shadows == GN_SHADOWCHECK_CSM);
    tap(&s, GN_KEY_V);
    GN_CHECK(s.opts.shadow.shadows == GN_SHADOWCHECK_NONE);
    tap(&s, GN_KEY_V);
    GN_CHECK(s.opts.shadow.shadows == GN_SHADOWCHECK_VSM);
    tap(&s, GN_KEY_L);
    gn_view_advance(&s, 0.0f, &f);
    GN_CHECK(f.naive_lights && s.opts.light.clustered == 0);

    /* requests */
    GN_CHECK(tap(&s, GN_KEY_P) == GN_REQUEST_SCREENSHOT);
    GN_CHECK(tap(&s, GN_KEY_ESCAPE) == GN_REQUEST_QUIT);

    /* the console: opened by the backquote, takes keys (W does not fly), Tab completes, Enter runs */
    gn_view_key(&s, GN_KEY_W, true); /* held when the console opens: released by it */
    tap(&s, GN_KEY_GRAVE_ACCENT);
    GN_CHECK(s.console.open && !s.held[GN_KEY_W]);
    gn_view_char(&s, '`'); /* the toggle's own character is not typed */
    for (const char *p = "ms"; *p; p++) gn_view_char(&s, (uint32_t)*p);
    tap(&s, GN_KEY_TAB);
    GN_CHECK(strcmp(s.console.line, "msaa ") == 0);
    gn_view_char(&s, '2');
    float z = s.camera.position[2];
    GN_CHECK(tap(&s, GN_KEY_W) == 0);
    GN_CHECK(tap(&s, GN_KEY_ENTER) == GN_EFFECT_RENDERER && s.opts.frame.msaa == 2);
    gn_view_advance(&s, 1.0f, &f);
    GN_CHECK(s.camera.position[2] == z);
    GN_CHECK(s.console.line[0] == '\0' && strcmp(s.console.log[s.console.log_count - 1], "msaa 2") == 0);
    for (const char *p = "msaa 5"; *p; p++) gn_view_char(&s, (uint32_t)*p);
    GN_CHECK(tap(&s, GN_KEY_ENTER) == 0 && s.opts.frame.msaa == 2);
    GN_CHECK(strstr(s.console.log[s.console.log_count - 1], "msaa expects one of") != NULL);
    for (const char *p = "camera 5,6,7,90,10"; *p; p++) gn_view_char(&s, (uint32_t)*p);
    GN_CHECK(tap(&s, GN_KEY_ENTER) == GN_EFFECT_CAMERA);
    GN_CHECK(s.camera.position[0] == 5.0f && s.camera.yaw == 90.0f && s.camera.pitch == 10.0f);
    GN_CHECK(tap(&s, GN_KEY_ESCAPE) == 0 && !s.console.open); /* Esc closes the console, not the viewer */

    /* names for the overlay and screenshots */
    char name[256];
    gn_view_screenshot_name(&s, 42, name, sizeof name);
    GN_CHECK(strcmp(name, "gnomon-town-final-vsm-msaa2-naive-t00.50-f000042.png") == 0);
    gn_view_settings_line(&s, name, sizeof name);
    GN_CHECK(strstr(name, "town  final  shadows vsm  msaa 2  naive  00:30") != NULL);
    GN_CHECK(strstr(name, "exposure auto  bloom auto  ao auto  dof off") != NULL);
}

/* Pixels of the canvas with alpha over 0 inside a rectangle. */
static int inked(const gn_canvas *c, int x0, int y0, int x1, int y1)
{
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) n += c->rgb[((size_t)y * (size_t)c->width + (size_t)x) * 4 + 3] != 0;
    return n;
}

static void test_overlay(void)
{
    gn_canvas c;
    GN_CHECK(gn_canvas_init_rgba(&c, 320, 180));
    GN_CHECK(inked(&c, 0, 0, 320, 180) == 0);
    gn_frame_stats st = {.pass_count = 2, .gpu_ms = 3.5, .draws = 12, .triangles = 123456, .lights = 64};
    strcpy(st.passes[0].name, "depth");
    strcpy(st.passes[1].name, "forward");
    float ms[GN_OVERLAY_HISTORY];
    for (int i = 0; i < GN_OVERLAY_HISTORY; i++) ms[i] = (float)(i % 40);
    gn_console k = {.open = false};
    gn_overlay_info info = {.stats = &st,
                            .frame_ms = ms,
                            .frame_count = GN_OVERLAY_HISTORY,
                            .settings = "town",
                            .show_stats = true,
                            .console = &k};
    gn_overlay_draw(&c, &info);
    int top = inked(&c, 0, 0, 320, 90), bottom = inked(&c, 0, 150, 320, 180);
    GN_CHECK(top > 2000);  /* text on its panels and the graph */
    GN_CHECK(bottom == 0); /* no console */
    /* text is opaque, panels translucent */
    int opaque = 0, translucent = 0;
    for (size_t i = 0; i < 320u * 180u; i++) {
        opaque += c.rgb[i * 4 + 3] == 255;
        translucent += c.rgb[i * 4 + 3] > 0 && c.rgb[i * 4 + 3] < 255;
    }
    GN_CHECK(opaque > 200 && translucent > 1000);
    /* the console shows at the bottom; with the statistics hidden, only it */
    k.open = true;
    strcpy(k.line, "msaa 4");
    k.len = 6;
    gn_console_log(&k, "shadows vsm");
    info.show_stats = false;
    gn_overlay_draw(&c, &info);
    GN_CHECK(inked(&c, 0, 0, 320, 90) == 0);
    GN_CHECK(inked(&c, 0, 150, 320, 180) > 300);
    /* before any statistics and at a tiny size nothing breaks */
    info.stats = NULL;
    info.show_stats = true;
    gn_canvas_free(&c);
    GN_CHECK(gn_canvas_init_rgba(&c, 16, 16));
    gn_overlay_draw(&c, &info);
    gn_canvas_free(&c);
}

int main(void)
{
    test_keys();
    test_script();
    test_camera();
    test_console();
    test_input();
    test_overlay();
    return gn_test_result("cli_view");
}

/* Screen-space decals on the GPU (src/passes/decals.c, shaders/decal.glsl) against their CPU
 * reference (src/decide/decal.h), at 256x256 on lavapipe, 4x MSAA, CSM shadows at 11:00.
 *
 * A grey ground and two grey walls meeting in a corner. A red decal lies on the ground (its box
 * facing up) and a blue one in the corner (its box facing out of the corner at 45 degrees to
 * both walls, so both walls take it in full; the ground inside that box runs along its
 * projection and must take none). Each frame is rendered without and with the decals; a pixel
 * took a decal where its green channel fell by more than 40 (grey to red or blue). The reference
 * reads the frame's own depth (gn_read_depth) and camera (gn_get_frame_view) and decides each
 * pixel with gn_decal_pixel: expected where the blend weight (texture alpha 1) exceeds 0.25,
 * not expected where it is 0 (outside the box, or faded out); pixels whose 3x3 neighbourhood
 * holds both classes (the box's outline, a depth edge) and pixels of weight in (0, 0.25] are
 * left out. Every other pixel must agree.
 *
 * Views: (1) outside the boxes, both decals in view; (2) the camera inside the ground decal's
 * box, looking down: every pixel must take it; (3) the corner's ground, in its box but running
 * along its projection, counted in (1): at least 100 such pixels, none changed. The frame's statistics must
 * show the decal pass with one draw a texture set, the decals drawn and culled (a third decal
 * behind the camera), and no validation message. */
#include "decide/camera.h"
#include "decide/decal.h"
#include "gpu_util.h"
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 256
#define H 256

static gn_frame_desc frame_at(const float pos[3], float yaw, float pitch)
{
    gn_frame_desc f = gt_sunny_csm((gn_camera){.position = {pos[0], pos[1], pos[2]},
                                               .yaw = yaw,
                                               .pitch = pitch,
                                               .fov_y = 60,
                                               .near_plane = 0.1f},
                                   11.0f);
    f.no_aerial = true;
    return f;
}

static void place(gn_scene *s, uint32_t mesh, uint32_t material, float x, float y, float z)
{
    gn_instance_desc d = {.mesh = mesh, .material = material};
    const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1};
    memcpy(d.transform, m, sizeof m);
    CHECK(gn_scene_add_instance(s, &d, NULL, NULL) == GN_OK, "instance refused");
}

static uint32_t solid_texture(gn_scene *s, uint8_t r, uint8_t g, uint8_t b)
{
    uint8_t px[8 * 8 * 4];
    for (int i = 0; i < 64; i++) px[i * 4] = r, px[i * 4 + 1] = g, px[i * 4 + 2] = b, px[i * 4 + 3] = 255;
    gn_texture_desc d = {.width = 8, .height = 8, .rgba8 = px, .srgb = true, .label = "decal colour"};
    uint32_t id = 0;
    CHECK(gn_scene_add_texture(s, &d, &id, NULL) == GN_OK, "texture refused");
    return id;
}

static gn_scene *corner_scene(void)
{
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, NULL) == GN_OK, "scene");
    gn_material_desc md = {.base_color = {0.7f, 0.7f, 0.7f, 1}, .roughness = 0.8f, .label = "grey"};
    uint32_t grey = 0;
    CHECK(gn_scene_add_material(s, &md, &grey, NULL) == GN_OK, "material");
    place(s, gt_add_box(s, 10, 0.1f, 10), grey, 0, -0.1f, 0); /* ground: top at y = 0 */
    place(s, gt_add_box(s, 3, 2, 0.1f), grey, 0, 2, -3);      /* back wall: front at z = -2.9 */
    place(s, gt_add_box(s, 0.1f, 2, 3), grey, -3, 2, 0);      /* left wall: front at x = -2.9 */
    return s;
}

/* The decals: red on the ground (2 x 2 m, 1 m deep, +Z up, +Y to -Z), blue in the corner. */
static void add_decals(gn_scene *s, uint32_t red, uint32_t blue, bool behind)
{
    gn_decal_desc g = {.transform = {2, 0, 0, 0, 0, 0, -2, 0, 0, 1, 0, 0, 0.5f, 0, 0.5f, 1},
                       .base_color_texture = red};
    CHECK(gn_scene_add_decal(s, &g, NULL, NULL) == GN_OK, "ground decal refused");
    const float k = 0.70710678f;
    gn_decal_desc c = {
        .transform = {2.4f * k, 0, -2.4f * k, 0, 0, 2, 0, 0, 2.4f * k, 0, 2.4f * k, 0, -2.9f, 0.9f, -2.9f, 1},
        .base_color_texture = blue};
    CHECK(gn_scene_add_decal(s, &c, NULL, NULL) == GN_OK, "corner decal refused");
    if (behind) {
        gn_decal_desc b = g;
        b.transform[14] = 30.0f; /* far behind every camera here */
        CHECK(gn_scene_add_decal(s, &b, NULL, NULL) == GN_OK, "third decal refused");
    }
}

typedef struct coverage {
    uint32_t expected, agreed, left_out, wrong_missing, wrong_extra, faded; /* faded: in a box, weight 0 */
} coverage;

/* 0 no decal, 1 a decal above 0.25, 2 in between (left out). */
static uint8_t expect_at(const gn_scene *s, const gn_decal_depth *v, uint32_t x, uint32_t y, bool *faded)
{
    float best = 0.0f;
    bool in_box = false;
    for (uint32_t i = 0; i < s->decal_count; i++) {
        float uv[2], fade;
        if (!gn_decal_pixel(&s->decals[i], v, x, y, uv, &fade)) continue;
        in_box = true;
        float w = gn_decal_weight(&s->decals[i], 1.0f, fade);
        if (w > best) best = w;
    }
    if (faded) *faded = in_box && best == 0.0f;
    return best > 0.25f ? 1 : best > 0.0f ? 2 : 0;
}

static coverage measure(gn_renderer *r, const gn_scene *s, const uint8_t *before, const uint8_t *after)
{
    static float depth[W * H];
    static uint8_t want[W * H];
    static bool faded[W * H];
    gn_error err = {0};
    CHECK(gn_read_depth(r, depth, &err) == GN_OK, "read depth: %s", err.message);
    gn_frame_view fv;
    CHECK(gn_get_frame_view(r, &fv, &err) == GN_OK, "frame view: %s", err.message);
    gn_decal_depth v = {.depth = depth, .width = W, .height = H};
    memcpy(v.inv_view_proj, fv.inv_view_proj, sizeof v.inv_view_proj);
    memcpy(v.camera, fv.camera_position, sizeof v.camera);
    gn_depth_sample_position(4, &v.sample0[0], &v.sample0[1]);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) want[y * W + x] = expect_at(s, &v, x, y, &faded[y * W + x]);
    coverage c = {0};
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t i = y * W + x;
            bool mixed = want[i] == 2;
            for (int dy = -1; dy <= 1 && !mixed; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = (int)x + dx, ny = (int)y + dy;
                    if (nx >= 0 && ny >= 0 && nx < W && ny < H && want[ny * W + nx] != want[i]) mixed = true;
                }
            if (mixed) {
                c.left_out++;
                continue;
            }
            int drop = (int)before[i * 4 + 1] - (int)after[i * 4 + 1];
            bool took = drop > 40;
            c.faded += faded[i];
            c.expected += want[i] == 1;
            if (want[i] == 1 && !took)
                c.wrong_missing++;
            else if (want[i] == 0 && abs(drop) > 2)
                c.wrong_extra++;
            else
                c.agreed++;
        }
    return c;
}

static void view(const float pos[3], float yaw, float pitch, const char *what, uint32_t min_expected,
                 uint32_t min_faded, uint32_t culled)
{
    gn_renderer *r = gt_renderer(W, H, 4);
    gn_scene *s = corner_scene();
    uint32_t red = solid_texture(s, 255, 0, 0), blue = solid_texture(s, 0, 0, 255);
    gn_frame_desc f = frame_at(pos, yaw, pitch);
    uint8_t *before = gt_render(r, s, &f);
    add_decals(s, red, blue, true);
    gn_frame_stats st = gt_frame(r, s, &f);
    uint8_t *after = gt_pixels(r);
    coverage c = measure(r, s, before, after);
    printf("%s: %u pixels expected the decal, %u agreed, %u left out (edges), %u in a box faded out, "
           "%u missing, %u extra; decals drawn %u, culled %u\n",
           what, c.expected, c.agreed, c.left_out, c.faded, c.wrong_missing, c.wrong_extra, st.decals_drawn,
           st.decals_culled);
    CHECK(c.expected >= min_expected, "%s: %u pixels expect a decal, want >= %u", what, c.expected,
          min_expected);
    CHECK(c.faded >= min_faded, "%s: %u pixels in a box faded out, want >= %u", what, c.faded, min_faded);
    CHECK(c.wrong_missing == 0 && c.wrong_extra == 0, "%s: %u pixels miss the decal, %u took one wrongly",
          what, c.wrong_missing, c.wrong_extra);
    CHECK(st.decals_culled == culled, "%s: %u decals culled, want %u", what, st.decals_culled, culled);
    if (getenv("GT_DECALS_PNG"))
        gt_write_png(what[0] == 'o' ? "decals_outside.png" : "decals_inside.png", after, W, H);
    CHECK(gt_ran(&st, "decals"), "%s: the decal pass did not run", what);
    for (uint32_t p = 0; p < st.pass_count; p++)
        if (!strcmp(st.passes[p].name, "decals"))
            CHECK(st.passes[p].draws == (st.decals_drawn == 2 ? 2u : 1u),
                  "%s: %u draws, want one a texture set in view", what, st.passes[p].draws);
    GT_CHECK_VALIDATION(r, what);
    free(before);
    free(after);
    gn_scene_destroy(s);
    gn_renderer_destroy(r);
}

int main(void)
{
    /* (1) from (2, 2.5, 5) towards the corner: the ground decal and both walls' */
    const float out[3] = {2.0f, 2.5f, 5.0f};
    view(out, 26.6f, -16.6f, "outside", 2000, 100, 1);
    /* (2) inside the ground decal's box (1 m deep: y -0.5 .. 0.5), looking 60 degrees down: all
       the view is ground within the box (the nearest row 0.3 / tan 30 = 0.52 m ahead); the
       corner's decal and the one behind are culled */
    const float in[3] = {0.5f, 0.3f, 1.2f};
    view(in, 0.0f, -60.0f, "inside the box", W * H, 0, 2);
    return gn_check_exit();
}

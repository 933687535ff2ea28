/* A material's depth state on the GPU (src/decide/tfx.h's bias and depth bytes), rendered at
 * 128x128 on lavapipe, 4x MSAA, under the 10:00 sun.
 *
 * polygonOffset on an opaque surface: a red plane tilted 60 degrees away from the camera, and a
 * green copy of it (triangulated along the other diagonal) moved DELTA behind it along its normal.
 * Without a bias the red one is nearer everywhere and covers the green; with the green's material
 * stating Quake 3's polygonOffset (GN_STATE_BIAS_POLYGON_OFFSET) its bias (a slope factor of one:
 * at least a pixel's depth change along the plane) brings it in front. The prepass draws it with
 * the bias and the forward pass tests EQUAL against that depth with the same bias, so with the
 * state every covered pixel must be green (none black, none red); without, red. The gap is a
 * quarter of the slope over a pixel at the plane's nearest row: well inside one slope factor and
 * many depth ulps behind. The bias's two values are swept over tilts: coplanar planes (the green
 * triangulated apart) at 0, 30 and 75 degrees must show green alone, and planes two pixel slopes
 * apart red alone.
 *
 * depthWrite on a blended surface: a blue half-transparent quad at z = 0.5 in an earlier layer
 * (sort 6, Quake 3's banner), then a red one at z = 0 behind it, drawn after it for its later
 * layer (the default, 9; within a layer blended surfaces draw back to front, so only a layer drawn
 * later can put a farther surface after a nearer one). Without depthWrite the red is blended over
 * the blue where they overlap; with the blue's material writing depth (Quake 3's depthWrite) the
 * red behind it fails the depth test, so the overlap must equal, pixel for pixel, a frame with the
 * blue quad alone. */
#include "decide/tfx.h"
#include "gpu_util.h"
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 128
#define PI 3.14159265358979f

static gn_frame_desc frame(void)
{
    return (gn_frame_desc){
        .camera = {.position = {0, 0, 3.2f}, .yaw = 0, .pitch = 0, .fov_y = 40, .near_plane = 0.1f},
        .time_of_day = 10.0f,
        .latitude = 45,
        .day_of_year = 172,
        .tonemap = GN_TONEMAP_CLIP,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true},
        .no_dither = true,
        .no_aerial = true,
    };
}

/* A 2x2 m quad through the origin tilted `tilt` radians about x (its top away from the camera),
 * moved `back` metres against its normal; flip: triangulated along the other diagonal. */
static uint32_t tilted_quad(gn_scene *s, float tilt, float back, bool flip)
{
    float c = cosf(tilt), sn = sinf(tilt), n[3] = {0, sn, c};
    float p[12], normals[12];
    const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int i = 0; i < 4; i++) {
        p[i * 3 + 0] = corner[i][0] - n[0] * back;
        p[i * 3 + 1] = corner[i][1] * c - n[1] * back;
        p[i * 3 + 2] = -corner[i][1] * sn - n[2] * back;
        memcpy(&normals[i * 3], n, sizeof n);
    }
    static const float uv[] = {0, 1, 1, 1, 1, 0, 0, 0};
    static const uint32_t a[] = {0, 1, 2, 0, 2, 3}, b[] = {0, 1, 3, 1, 2, 3};
    gn_mesh_desc md = {.positions = p,
                       .normals = normals,
                       .uvs = uv,
                       .vertex_count = 4,
                       .indices = flip ? b : a,
                       .index_count = 6,
                       .label = "tilted quad"};
    uint32_t id = 0;
    CHECK(gn_scene_add_mesh(s, &md, &id, NULL) == GN_OK, "tilted quad refused");
    return id;
}

static uint32_t material_sorted(gn_scene *s, float r, float g, float b, float a, uint32_t state, float sort)
{
    gn_material_desc md = {.sort = sort,
                           .base_color = {r, g, b, a},
                           .roughness = 0.8f,
                           .alpha_mode = a < 1 ? GN_ALPHA_BLEND : GN_ALPHA_OPAQUE,
                           .label = "state test"};
    uint32_t id = 0;
    CHECK(gn_scene_add_material(s, &md, &id, NULL) == GN_OK, "material refused");
    s->materials[id].state = state; /* what a Quake 3 shader's keywords set (q3_material.c) */
    return id;
}

static uint32_t material(gn_scene *s, float r, float g, float b, float a, uint32_t state)
{
    return material_sorted(s, r, g, b, a, state, 0);
}

static void place(gn_scene *s, uint32_t mesh, uint32_t mat)
{
    gn_instance_desc inst = {.mesh = mesh, .material = mat};
    CHECK(gn_scene_add_instance(s, &inst, NULL, NULL) == GN_OK, "instance refused");
}

static uint8_t *render_scene(gn_scene *s, const char *what)
{
    gn_renderer *r = gt_renderer(W, H, 4);
    gn_frame_desc f = frame();
    uint8_t *px = gt_render(r, s, &f);
    GT_CHECK_VALIDATION(r, what);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    CHECK(px, "%s: no pixels read back", what);
    return px;
}

/* The tilted pair, the green one `behind` pixel slopes behind the red (see the top); offset: the
 * green one's material states polygonOffset. Counts the red, green and black pixels of the frame's
 * middle (the sky and the ground around a steep plane count as none). */
static void polygon_offset(bool offset, float tilt_deg, float behind, uint32_t *red, uint32_t *green,
                           uint32_t *dark)
{
    const float tilt = tilt_deg * PI / 180;
    /* a pixel at distance d spans d * tan(20 deg) * 2 / 128 m; along a plane tilted by `tilt` its
       distance changes by that times tan(tilt) (more where the view ray is more grazing); moved
       against its normal, the distance grows by 1 / cos(tilt) of the move. A gap under one slope
       is measured where the slope is least (the nearest row, 2.2 m away at most), one over it
       where it is most (the farthest, 4.2 m away at least) */
    const float pixel = (behind < 1 ? 2.2f : 4.2f) * tanf(20 * PI / 180) * 2 / H;
    const float delta = behind * pixel * tanf(tilt) * cosf(tilt);
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    uint32_t red_mat = material(s, 0.8f, 0.04f, 0.04f, 1, 0);
    uint32_t green_mat =
        material(s, 0.04f, 0.8f, 0.04f, 1,
                 offset ? GN_STATE_PACK(0, 0, 0, GN_STATE_OVERRIDE | GN_STATE_BIAS_POLYGON_OFFSET) : 0);
    place(s, tilted_quad(s, tilt, 0, false), red_mat);
    place(s, tilted_quad(s, tilt, delta, true), green_mat);
    char what[96];
    snprintf(what, sizeof what, "planes at %.0f degrees, %.2f pixel slopes apart%s", tilt_deg, behind,
             offset ? ", polygonOffset" : "");
    uint8_t *px = render_scene(s, what);
    *red = *green = *dark = 0;
    /* the quads span x in [-1, 1] (about 17%..83% of the width at their middle row); their rows
       cover the frame's middle half */
    for (uint32_t y = H * 3 / 8; y < H * 5 / 8; y++)
        for (uint32_t x = W * 3 / 8; x < W * 5 / 8; x++) {
            const uint8_t *p = px + ((size_t)y * W + x) * 4;
            if (p[0] > p[1] + 20 && p[0] > p[2] + 20)
                (*red)++;
            else if (p[1] > p[0] + 20 && p[1] > p[2] + 20)
                (*green)++;
            else if (p[0] < 30 && p[1] < 30 && p[2] < 30)
                (*dark)++; /* where a forward draw failed its EQUAL test */
        }
    free(px);
    printf("%s: %u red, %u green, %u dark\n", what, *red, *green, *dark);
}

/* The blended pair (blue first, in the earlier layer, writing depth when depth_write) or, alone,
 * the blue quad. */
static uint8_t *blended(bool depth_write, bool red_too)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    uint32_t blue = material_sorted(
        s, 0.05f, 0.1f, 0.9f, 0.5f,
        depth_write ? GN_STATE_PACK(0, GN_STATE_OVERRIDE | GN_STATE_DEPTH(GN_DEPTH_LEQUAL, false), 0, 0) : 0,
        6);
    uint32_t red = material(s, 0.9f, 0.05f, 0.05f, 0.5f, 0);
    place(s, gt_add_quad(s, 0.6f, 0.5f), blue);
    if (red_too) place(s, gt_add_quad(s, 1.0f, 0.0f), red);
    return render_scene(s, depth_write ? "blended with depthWrite" : "blended");
}

int main(void)
{
    uint32_t red, green, dark;
    polygon_offset(false, 60, 0.25f, &red, &green, &dark);
    CHECK(red > 0 && green == 0 && dark == 0, "without a bias the nearer red plane must cover the green one");
    polygon_offset(true, 60, 0.25f, &red, &green, &dark);
    CHECK(green > 0 && red == 0 && dark == 0,
          "with polygonOffset the green plane must cover the red one everywhere (in the prepass and the "
          "forward pass alike)");
    /* the bias's values (scene_draw.c) over tilts: a coplanar decal triangulated apart wins at
       every tilt, and a surface two pixel slopes behind still loses (the bias does not pull what
       truly lies behind through) */
    const float tilts[] = {0, 30, 75};
    for (uint32_t t = 0; t < sizeof tilts / sizeof tilts[0]; t++) {
        polygon_offset(true, tilts[t], 0, &red, &green, &dark);
        CHECK(green > 0 && red == 0 && dark == 0,
              "a coplanar offset plane at %.0f degrees must win everywhere", tilts[t]);
        if (tilts[t] == 0) continue; /* face-on, "behind" by slopes is no distance */
        polygon_offset(true, tilts[t], 2, &red, &green, &dark);
        CHECK(red > 0 && green == 0 && dark == 0,
              "an offset plane two pixel slopes behind at %.0f degrees must stay hidden", tilts[t]);
    }

    uint8_t *plain = blended(false, true), *written = blended(true, true), *alone = blended(false, false);
    /* the blue quad covers the middle 0.6 / (3.2 - 0.5) * ... : its inner third at least */
    uint32_t differ = 0, same_as_alone = 0, n = 0;
    for (uint32_t y = H * 5 / 12; y < H * 7 / 12; y++)
        for (uint32_t x = W * 5 / 12; x < W * 7 / 12; x++) {
            size_t i = ((size_t)y * W + x) * 4;
            n++;
            differ += memcmp(plain + i, alone + i, 3) != 0;
            same_as_alone += memcmp(written + i, alone + i, 3) == 0;
        }
    printf(
        "blended overlap: %u px; red over blue changes %u of them; with depthWrite %u equal the blue alone\n",
        n, differ, same_as_alone);
    CHECK(differ == n, "without depthWrite the red quad must blend over the blue one");
    CHECK(same_as_alone == n, "with depthWrite the blue quad must hide the red one behind it");
    free(plain);
    free(written);
    free(alone);
    if (!gn_check_failures) printf("gpu_render_state: ok\n");
    return gn_check_exit();
}

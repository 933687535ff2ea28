/* Local reflection probes on the GPU (src/probes.c, shaders/probes.glsl), in a closed room at
 * night whose -X wall glows red on its z < 0 half and is dark on the other, with a mirror cube
 * in the middle and one probe site off-centre:
 *   (1) one probe is placed at the site, its box fitted to the room's inside, and every instance
 *       reflects it;
 *   (2) box projection: the cube's face towards the red wall mirrors the red half on its z < 0
 *       side only, as the room's geometry does (looked up from the probe's position without
 *       the box, no direction the face mirrors would meet the red half: the whole face dark);
 *       with gn_frame_desc.no_probes the face mirrors the night sky's environment, nearly black;
 *   (3) the probes are rendered again when the key light moved by GN_PROBES_RECAPTURE_DEG, not
 *       before; the probes view renders (a PNG, a golden on lavapipe); no validation message
 *       from either renderer. */
#include "decide/probes.h"
#include "gpu_util.h"
#include "passes/exposure.h"
#include "renderer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 64
#define H 64

static uint32_t material(gn_scene *s, float r, float g, float b, float metallic, float roughness,
                         const float emit[3])
{
    gn_material_desc m = {.base_color = {r, g, b, 1}, .metallic = metallic, .roughness = roughness};
    if (emit) memcpy(m.emissive, emit, sizeof m.emissive);
    uint32_t id = 0;
    gn_error err = {0};
    CHECK(gn_scene_add_material(s, &m, &id, &err) == GN_OK, "%s", err.message);
    return id;
}

static void box(gn_scene *s, float cx, float cy, float cz, float hx, float hy, float hz, uint32_t mat)
{
    gn_instance_desc d = {.mesh = gt_add_box(s, hx, hy, hz), .material = mat};
    d.transform[0] = d.transform[5] = d.transform[10] = d.transform[15] = 1.0f;
    d.transform[12] = cx, d.transform[13] = cy, d.transform[14] = cz;
    gn_error err = {0};
    CHECK(gn_scene_add_instance(s, &d, NULL, &err) == GN_OK, "%s", err.message);
}

/* The mean red and green of the HDR colour over a rectangle. */
static void mean_rg(const uint16_t *hdr, uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, float out[2])
{
    double r = 0, g = 0;
    for (uint32_t y = y0; y < y1; y++)
        for (uint32_t x = x0; x < x1; x++) {
            r += gt_half_to_float(hdr[(y * W + x) * 4 + 0]);
            g += gt_half_to_float(hdr[(y * W + x) * 4 + 1]);
        }
    double n = (double)(x1 - x0) * (y1 - y0);
    out[0] = (float)(r / n), out[1] = (float)(g / n);
}

int main(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    const float red[3] = {200, 0, 0};
    uint32_t grey = material(s, 0.5f, 0.5f, 0.5f, 0, 0.8f, NULL),
             glow = material(s, 0.8f, 0.1f, 0.1f, 0, 0.8f, red);
    uint32_t mirror = material(s, 0.95f, 0.95f, 0.95f, 1, GN_MATERIAL_MIN_ROUGHNESS, NULL);
    /* the room: inside x, z -5 .. 5, y 0 .. 4, walls 0.2 m thick */
    box(s, 0, -0.1f, 0, 5.2f, 0.1f, 5.2f, grey);
    box(s, 0, 4.1f, 0, 5.2f, 0.1f, 5.2f, grey);
    box(s, 5.1f, 2, 0, 0.1f, 2.2f, 5.2f, grey);
    box(s, 0, 2, 5.1f, 5.2f, 2.2f, 0.1f, grey);
    box(s, 0, 2, -5.1f, 5.2f, 2.2f, 0.1f, grey);
    box(s, -5.1f, 2, -2.6f, 0.1f, 2.2f, 2.6f, glow); /* the -X wall: red for z < 0 */
    box(s, -5.1f, 2, 2.6f, 0.1f, 2.2f, 2.6f, grey);
    box(s, 0, 1.5f, 0, 0.75f, 0.75f, 0.75f, mirror); /* instance 7 */
    CHECK(gn_scene_add_probe_site(s, (const float[3]){2.5f, 2.0f, 2.5f}, &err) == GN_OK, "%s", err.message);

    gn_renderer_desc d = {.width = W, .height = H, .msaa = 1, .validation = GN_VALIDATION_ON};
    d.probes.mode = GN_PROBES_ON;
    gn_renderer *r = NULL;
    CHECK(gn_renderer_create(&d, &r, &err) == GN_OK, "renderer: %s", err.message);
    /* from between the cube and the red wall, looking +X at the cube's -X face (+Z is to the right) */
    gn_frame_desc f = {.camera = {.position = {-3.5f, 1.5f, 0}, .yaw = -90, .fov_y = 40},
                       .time_of_day = 0.5f,
                       .day_of_year = 18, /* a new moon: the night sky is dark */
                       .shadows = GN_SHADOWS_NONE,
                       .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = 2}};
    gt_frame(r, s, &f);

    /* (1) */
    gn_probe p[GN_PROBES_MAX];
    uint32_t n = gn_probes_placed(r, p);
    CHECK(n == 1, "%u probes placed", n);
    const float lo[3] = {-5, 0, -5}, hi[3] = {5, 4, 5};
    for (int a = 0; n && a < 3; a++)
        CHECK(fabsf(p[0].box_min[a] - lo[a]) < 1e-3f && fabsf(p[0].box_max[a] - hi[a]) < 1e-3f,
              "axis %d: box %g .. %g, want %g .. %g", a, p[0].box_min[a], p[0].box_max[a], lo[a], hi[a]);
    for (uint32_t i = 0; i < 8; i++)
        CHECK(gn_probe_of(r, i) == 1, "instance %u reflects %u", i, gn_probe_of(r, i));

    /* (2) the face spans about x 8 .. 56; its z < 0 half is on the left */
    uint16_t *hdr = malloc((size_t)W * H * 8);
    CHECK(hdr && gn_exposure_read_hdr(r, hdr, &err) == GN_OK, "hdr: %s", err.message);
    float left[2], right[2];
    mean_rg(hdr, 14, 28, 26, 38, left);
    mean_rg(hdr, 36, 50, 26, 38, right);
    printf("probes on: face left red %.4g green %.4g, right red %.4g green %.4g\n", left[0], left[1],
           right[0], right[1]);
    CHECK(left[0] > 4.0f * left[1] && left[0] > 10.0f * right[0],
          "the red half is not mirrored where the wall is");
    gn_frame_desc nf = f;
    nf.no_probes = true;
    gt_frame(r, s, &nf);
    float sky_left[2];
    CHECK(gn_exposure_read_hdr(r, hdr, &err) == GN_OK, "hdr: %s", err.message);
    mean_rg(hdr, 14, 28, 26, 38, sky_left);
    printf("no probes: face left red %.4g\n", sky_left[0]);
    CHECK(sky_left[0] < 0.05f * left[0], "without probes the face still mirrors the red wall (%g vs %g)",
          sky_left[0], left[0]);

    /* (3) a moonless night stays the same night; sunrise renders them again; then the sun moves
     * ~14 degrees an hour: 0.1 h is under the recapture angle, 1 h over */
    uint64_t r0 = gn_probes_rendered(r);
    uint32_t g0 = gn_probe_generation(r);
    CHECK(r0 == 1, "%llu probes rendered for one probe", (unsigned long long)r0);
    f.time_of_day = 2.5f;
    gt_frame(r, s, &f);
    CHECK(gn_probes_rendered(r) == r0, "probes rendered again in the same night");
    f.time_of_day = 12.0f;
    gt_frame(r, s, &f);
    CHECK(gn_probes_rendered(r) == r0 + 1, "probes not rendered again when the sun came up");
    f.time_of_day = 12.1f;
    gt_frame(r, s, &f);
    CHECK(gn_probes_rendered(r) == r0 + 1, "probes rendered again after a small move");
    f.time_of_day = 13.0f;
    gt_frame(r, s, &f);
    CHECK(gn_probes_rendered(r) == r0 + 2, "probes not rendered again after the sun moved");
    CHECK(gn_probe_generation(r) == g0, "the light moved, yet the choice was made again");
    f.time_of_day = 0.5f;
    f.view = GN_VIEW_PROBES;
    uint8_t *px = gt_render(r, s, &f);
    gt_write_png("probes_room.png", px, W, H);
    CHECK(gt_golden(r, "probes_room", px, W, H), "the probes view differs from its golden");
    CHECK(gn_renderer_validation_messages(r) == 0, "%u validation messages",
          gn_renderer_validation_messages(r));
    free(px);
    free(hdr);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

/* The device's block decoder against ours (src/formats/bc.c): a 64x64 texture of seeded random
 * blocks (BC7 with each of its 8 modes in turn; BC6H UF16 and SF16 with each of their 14 modes
 * and the 4 reserved values in turn) fills a 64x64 frame, one texel a pixel, in the albedo view
 * (the base colour as sampled, no light) at 1 sample a pixel; the forward pass's HDR target
 * (rgba16f) is read back and every pixel compared with the texel our decoder gives:
 * - uploaded as blocks (VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_BC6H_U/SFLOAT_BLOCK): the device's
 *   decode must equal ours (BC7 in 8 bits, BC6H in half floats);
 * - decoded on the CPU (the fallback, forced by clearing the renderer's textureCompressionBC):
 *   our RGBA8 decode (BC6H clamped to 0..1), which also checks that pixels land on texels.
 * Tolerance: the target's half precision (2^-10 relative) plus 1e-4, and 1e-3 of the largest
 * step to a neighbouring texel (a pixel centre a hair off its texel's centre blends a little of
 * the next). SF16 blocks that decode to -infinity (mode 14's -32768) are drawn again: filtering
 * would spread infinity times a zero weight (NaN) onto the neighbours. A device without
 * textureCompressionBC, or one that cannot sample a format, checks the fallback only and exits
 * 77 (skipped) with a message naming what it lacks. */
#include "formats/dds.h"
#include "gpu_util.h"
#include "passes/exposure.h"
#include "renderer.h"
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIDE 64 /* texels and pixels a side */
#define BLOCKS (SIDE / 4 * SIDE / 4)

static uint32_t rng(uint64_t *s) /* xorshift64*: a fixed sequence on every machine */
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return (uint32_t)((*s * 2685821657736338717ull) >> 32);
}

static const uint8_t bc6h_modes[18] = {0x00, 0x01, 0x02, 0x06, 0x0a, 0x0e, 0x12, 0x16, 0x1a,
                                       0x1e, 0x03, 0x07, 0x0b, 0x0f, 0x13, 0x17, 0x1b, 0x1f};

/* Random blocks of f, block k in mode k mod (the format's modes). */
static void make_blocks(gn_dds_format f, uint8_t *blocks, uint64_t seed)
{
    for (uint32_t k = 0; k < BLOCKS; k++) {
        uint8_t *b = blocks + 16 * k;
        for (bool again = true; again;) {
            for (int i = 0; i < 16; i++) b[i] = (uint8_t)rng(&seed);
            if (f == GN_DDS_BC7) { /* mode m: bit m set, the bits below it clear */
                uint32_t m = k % 8;
                b[0] = (uint8_t)((b[0] & ~((2u << m) - 1)) | 1u << m);
                again = false;
                continue;
            }
            b[0] = (uint8_t)((b[0] & 0xe0) | bc6h_modes[k % 18]);
            uint16_t h[64];
            gn_bc6h_decode_block(b, f == GN_DDS_BC6H_SF16, h);
            again = false;
            for (int i = 0; i < 64; i++) again |= (h[i] & 0x7fff) >= 0x7c00;
        }
    }
}

/* Our decode of every texel as floats, RGB: hardware (the device's format: BC7 in 8 bits, BC6H
 * in halves) or the fallback's RGBA8. */
static void expected(gn_dds_format f, const uint8_t *blocks, bool hardware, float *rgb)
{
    for (uint32_t k = 0; k < BLOCKS; k++) {
        uint32_t bx = k % (SIDE / 4), by = k / (SIDE / 4);
        float t[16][3];
        if (hardware && f != GN_DDS_BC7) {
            uint16_t h[64];
            gn_bc6h_decode_block(blocks + 16 * k, f == GN_DDS_BC6H_SF16, h);
            for (int i = 0; i < 16; i++)
                for (int c = 0; c < 3; c++) t[i][c] = gn_half_to_float(h[4 * i + c]);
        } else {
            uint8_t px[64];
            gn_dds_decode(f, blocks + 16 * k, 4, 4, px);
            for (int i = 0; i < 16; i++)
                for (int c = 0; c < 3; c++) t[i][c] = px[4 * i + c] / 255.0f;
        }
        for (int i = 0; i < 16; i++) memcpy(rgb + 3 * ((by * 4 + i / 4) * SIDE + bx * 4 + i % 4), t[i], 12);
    }
}

/* A scene of one SIDE-texel-square quad filling the frame (the camera at the origin looking down
 * -z with a 90-degree field: the quad at z = -2 spans +-2), its base colour the blocks. */
static gn_scene *make_scene(gn_dds_format f, const uint8_t *blocks)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    if (gn_scene_create(&s, &err)) return NULL;
    gn_texture_blocks tb = {SIDE, SIDE, 1, f, false, blocks, (uint64_t)BLOCKS * 16, NULL, "random blocks"};
    uint32_t mesh = gt_add_quad(s, 2.0f, -2.0f), tex, mat, id;
    bool ok = !gn_scene_add_blocks(s, &tb, &tex, &err);
    gn_material_desc gmd = {.base_color = {1, 1, 1, 1}, .base_color_texture = tex, .label = "blocks"};
    ok = ok && !gn_scene_add_material(s, &gmd, &mat, &err);
    gn_instance_desc gi = {.mesh = mesh, .material = mat};
    ok = ok && !gn_scene_add_instance(s, &gi, &id, &err);
    if (!ok) {
        fprintf(stderr, "scene: %s\n", err.message);
        gn_scene_destroy(s);
        return NULL;
    }
    return s;
}

/* Renders the blocks of f and compares the HDR target with want; the pixels off. */
static uint32_t render_and_compare(gn_renderer *r, gn_dds_format f, const uint8_t *blocks, const float *want,
                                   const char *what)
{
    gn_scene *s = make_scene(f, blocks);
    CHECK(s != NULL, "%s: no scene", what);
    if (!s) return SIDE * SIDE;
    gn_frame_desc fd = {
        .camera = {.fov_y = 90, .near_plane = 0.1f},
        .time_of_day = 12.0f,
        .view = GN_VIEW_ALBEDO,
        .shadows = GN_SHADOWS_NONE,
        .tonemap = GN_TONEMAP_CLIP,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true},
        .no_dither = true,
    };
    gn_error err = {0};
    uint16_t *hdr = malloc((size_t)SIDE * SIDE * 8);
    bool ok = hdr && gn_render(r, s, &fd, &err) == GN_OK && gn_exposure_read_hdr(r, hdr, &err) == GN_OK;
    CHECK(ok, "%s: render: %s", what, err.message);
    GT_CHECK_VALIDATION(r, what);
    uint32_t off = 0;
    float worst = 0;
    for (uint32_t y = 0; ok && y < SIDE; y++)
        for (uint32_t x = 0; x < SIDE; x++) {
            const float *e = want + 3 * (y * SIDE + x);
            for (int c = 0; c < 3; c++) {
                float step = 0; /* the largest difference to a neighbouring texel */
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = (int)x + dx, ny = (int)y + dy;
                        if (nx < 0 || ny < 0 || nx >= SIDE || ny >= SIDE) continue;
                        step = fmaxf(step, fabsf(want[3 * (ny * SIDE + nx) + c] - e[c]));
                    }
                float got = gt_half_to_float(hdr[4 * (y * SIDE + x) + c]);
                float d = fabsf(got - e[c]), tol = fabsf(e[c]) / 1024 + 1e-4f + step * 1e-3f;
                if (!(d <= tol)) {
                    if (off < 8)
                        fprintf(stderr, "%s: pixel (%u, %u) channel %d: %g, our decode %g\n", what, x, y, c,
                                got, e[c]);
                    off++;
                    break;
                }
                worst = fmaxf(worst, d / tol);
            }
        }
    printf("%s: %u of %u pixels off our decode (worst in tolerance: %.3f of it)\n", what, off, SIDE * SIDE,
           worst);
    free(hdr);
    gn_scene_destroy(s);
    return off;
}

int main(void)
{
    gn_renderer *r = gt_renderer(SIDE, SIDE, 1);
    static const struct {
        gn_dds_format f;
        VkFormat vk;
        const char *name;
    } formats[] = {{GN_DDS_BC7, VK_FORMAT_BC7_UNORM_BLOCK, "BC7"},
                   {GN_DDS_BC6H_UF16, VK_FORMAT_BC6H_UFLOAT_BLOCK, "BC6H UF16"},
                   {GN_DDS_BC6H_SF16, VK_FORMAT_BC6H_SFLOAT_BLOCK, "BC6H SF16"}};
    bool device_bc = r->vk.texture_bc, skipped = false;
    if (!device_bc) printf("the device lacks textureCompressionBC: only the CPU fallback is checked\n");
    uint8_t *blocks = malloc((size_t)BLOCKS * 16);
    float *want = malloc((size_t)SIDE * SIDE * 3 * sizeof *want);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        make_blocks(formats[i].f, blocks, 0x9e3779b97f4a7c15ull + i);
        char what[64];
        bool hw = device_bc && gn_vk_format_samples(&r->vk, formats[i].vk);
        if (hw) {
            expected(formats[i].f, blocks, true, want);
            snprintf(what, sizeof what, "%s as blocks", formats[i].name);
            CHECK(render_and_compare(r, formats[i].f, blocks, want, what) == 0,
                  "%s: the device's decode "
                  "differs from ours",
                  formats[i].name);
        } else {
            printf("%s: the device cannot sample it: only the CPU fallback is checked\n", formats[i].name);
            skipped = true;
        }
        r->vk.texture_bc = false; /* the fallback: decoded here, uploaded as RGBA8 */
        expected(formats[i].f, blocks, false, want);
        snprintf(what, sizeof what, "%s decoded on the CPU", formats[i].name);
        CHECK(render_and_compare(r, formats[i].f, blocks, want, what) == 0, "%s: the fallback differs",
              formats[i].name);
        r->vk.texture_bc = device_bc;
    }
    free(blocks);
    free(want);
    gn_renderer_destroy(r);
    int rc = gn_check_exit();
    if (!rc && skipped) {
        printf("skipped: the device's decoder was not compared for every format (see above)\n");
        return 77;
    }
    return rc;
}

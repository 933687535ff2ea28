/* Alpha modes: a wall whose texture is transparent on its left half stands on a ground plane.
 * Opaque, it covers its whole rectangle in depth; alpha-tested (mask), only its right half
 * writes depth and casts sun shadow (so the prepass and the shadow pass both cut it out);
 * blended, it writes no depth, tints what is behind it and casts no shadow. Compared with
 * the same frame without the wall, on lavapipe under validation. With the blended wall, the
 * frame's copy of the opaque scene (taken before blended surfaces draw) is the frame without the
 * wall, and its depth copy the frame's depth. */
#include "gpu_util.h"
#include "passes/exposure.h"
#include "passes/forward.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

#define W 256
#define H 192

enum { NONE, OPAQUE, MASK, BLEND };

static gn_scene *make_scene(int mode)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    if (gn_scene_create(&s, &err)) return NULL;
    const float ground[] = {-50, 0, -50, -50, 0, 50, 50, 0, 50, 50, 0, -50};
    const float wall[] = {-2, 0, 0, 2, 0, 0, 2, 4, 0, -2, 4, 0};
    const float wall_uv[] = {0, 1, 1, 1, 1, 0, 0, 0};
    const uint32_t quad[] = {0, 1, 2, 0, 2, 3};
    gn_mesh_desc gd = {
        .positions = ground, .vertex_count = 4, .indices = quad, .index_count = 6, .label = "ground"};
    gn_mesh_desc wd = {.positions = wall,
                       .uvs = wall_uv,
                       .vertex_count = 4,
                       .indices = quad,
                       .index_count = 6,
                       .label = "wall"};
    uint8_t px[8 * 4]; /* 8x1: alpha 0 on the left four texels */
    for (int i = 0; i < 8; i++)
        px[i * 4] = 220, px[i * 4 + 1] = 40, px[i * 4 + 2] = 30, px[i * 4 + 3] = i < 4 ? 0 : 255;
    gn_texture_desc td = {.width = 8, .height = 1, .rgba8 = px, .srgb = true, .label = "half transparent"};
    uint32_t gm, wm, tex, gmat, wmat, id;
    gn_material_desc gmd = {.base_color = {0.7f, 0.7f, 0.7f, 1}, .label = "ground"};
    gn_material_desc wmd = {.base_color = {1, 1, 1, mode == BLEND ? 0.5f : 1.0f},
                            .alpha_mode = mode == MASK    ? GN_ALPHA_MASK
                                          : mode == BLEND ? GN_ALPHA_BLEND
                                                          : GN_ALPHA_OPAQUE,
                            .label = "wall"};
    bool ok = !gn_scene_add_mesh(s, &gd, &gm, &err) && !gn_scene_add_mesh(s, &wd, &wm, &err) &&
              !gn_scene_add_texture(s, &td, &tex, &err) && !gn_scene_add_material(s, &gmd, &gmat, &err);
    wmd.base_color_texture = mode == BLEND ? 0 : tex; /* blend: a uniform 50% red-less white */
    ok = ok && !gn_scene_add_material(s, &wmd, &wmat, &err);
    gn_instance_desc gi = {.mesh = gm, .material = gmat};
    ok = ok && !gn_scene_add_instance(s, &gi, &id, &err);
    gn_instance_desc wi = {.mesh = wm, .material = wmat};
    if (mode != NONE) ok = ok && !gn_scene_add_instance(s, &wi, &id, &err);
    if (!ok) {
        fprintf(stderr, "scene: %s\n", err.message);
        gn_scene_destroy(s);
        return NULL;
    }
    return s;
}

typedef struct frame {
    uint8_t *color, *shadow;
    float *depth;
    uint16_t *hdr, *opaque; /* the resolved HDR colour; with blended surfaces, the opaque copy */
    float *opaque_depth;
} frame;

static bool render(gn_renderer *r, int mode, frame *out)
{
    gn_scene *s = make_scene(mode);
    if (!s) return false;
    gn_error err = {0};
    /* above and in front of the wall, looking down at it and the ground behind */
    gn_frame_desc f = {.time_of_day = 15.5f};
    f.camera.position[0] = 0, f.camera.position[1] = 9, f.camera.position[2] = 9;
    f.camera.pitch = -35;
    f.camera_exposure = (gn_exposure_desc){.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY};
    out->color = gt_render(r, s, &f);
    out->depth = malloc(W * H * sizeof(float));
    out->hdr = malloc(W * H * 8);
    out->opaque = mode == BLEND ? malloc(W * H * 8) : NULL;
    out->opaque_depth = mode == BLEND ? malloc(W * H * sizeof(float)) : NULL;
    bool ok = out->depth && gn_read_depth(r, out->depth, &err) == GN_OK &&
              gn_exposure_read_hdr(r, out->hdr, &err) == GN_OK &&
              gn_forward_read_opaque(r, out->opaque, out->opaque_depth, &err) == GN_OK;
    f.view = GN_VIEW_SHADOW;
    out->shadow = gt_render(r, s, &f);
    gn_scene_destroy(s);
    return ok && out->color && out->shadow;
}

static uint32_t shadowed(const frame *f)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < W * H; i++) n += f->shadow[i * 4] < 64 && f->depth[i] > 0.0f;
    return n;
}

int main(void)
{
    gn_renderer *r = gt_renderer(W, H, 4);
    frame fr[4];
    for (int m = 0; m < 4; m++) CHECK(render(r, m, &fr[m]), "rendering mode %d failed", m);
    /* pixels where the wall is in front of the ground, and their mean column */
    uint32_t opaque = 0, mask = 0, blend_depth = 0, blend_tinted = 0, outside = 0;
    double opaque_x = 0, mask_x = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        bool o = fr[OPAQUE].depth[i] != fr[NONE].depth[i];
        bool m = fr[MASK].depth[i] != fr[NONE].depth[i];
        opaque += o, mask += m;
        opaque_x += o ? (double)(i % W) : 0.0, mask_x += m ? (double)(i % W) : 0.0;
        outside += m && !o;
        blend_depth += fr[BLEND].depth[i] != fr[NONE].depth[i];
        if (o) blend_tinted += memcmp(&fr[BLEND].color[i * 4], &fr[NONE].color[i * 4], 3) != 0;
    }
    opaque_x /= opaque ? opaque : 1, mask_x /= mask ? mask : 1;
    printf("wall pixels: opaque %u, alpha-tested %u (%.2f), mean column %.1f vs %.1f; blended: %u tinted, "
           "%u with depth\n",
           opaque, mask, opaque ? (double)mask / opaque : 0.0, opaque_x, mask_x, blend_tinted, blend_depth);
    CHECK(opaque > 1000, "the opaque wall covers only %u pixels", opaque);
    CHECK(outside == 0, "%u alpha-tested pixels where the opaque wall is not", outside);
    CHECK(mask > opaque * 35 / 100 && mask < opaque * 65 / 100, "the cut-out kept %u of %u pixels", mask,
          opaque);
    CHECK(mask_x > opaque_x + 10.0, "the kept half is not the right one (mean column %.1f vs %.1f)", mask_x,
          opaque_x);
    CHECK(blend_depth == 0, "the blended wall wrote depth at %u pixels", blend_depth);
    CHECK(blend_tinted > opaque * 9 / 10, "the blended wall tinted only %u of %u pixels", blend_tinted,
          opaque);
    uint32_t sn = shadowed(&fr[NONE]), so = shadowed(&fr[OPAQUE]), sm = shadowed(&fr[MASK]),
             sb = shadowed(&fr[BLEND]);
    printf("shadowed pixels: none %u, opaque %u, alpha-tested %u, blended %u\n", sn, so, sm, sb);
    CHECK(so > sn + 200, "the opaque wall casts too little shadow (%u vs %u)", so, sn);
    CHECK(sm > sn + 50 && sm + 50 < so,
          "the alpha-tested wall's shadow (%u) is not between none (%u) and opaque (%u)", sm, sn, so);
    CHECK(sb == sn, "the blended wall cast shadow (%u vs %u)", sb, sn);
    /* the opaque copy under the blended wall: the frame without it (the sun's shadow edges may
     * differ by the VSM's accumulation over frames: 99.5% within 1%), and the frame's depth */
    uint32_t copy_off = 0, depth_off = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        for (int c = 0; c < 3; c++) {
            float a = gt_half_to_float(fr[BLEND].opaque[i * 4 + c]),
                  b = gt_half_to_float(fr[NONE].hdr[i * 4 + c]);
            if (fabsf(a - b) > 0.01f * fmaxf(fabsf(b), 1e-3f)) {
                copy_off++;
                break;
            }
        }
        depth_off += fr[BLEND].opaque_depth[i] != fr[BLEND].depth[i];
    }
    printf("opaque copy: %u pixels off the frame without the wall, %u depths off\n", copy_off, depth_off);
    CHECK(copy_off <= W * H / 200 && depth_off == 0, "opaque copy: %u pixels, %u depths off", copy_off,
          depth_off);
    for (int m = 0; m < 4; m++) {
        free(fr[m].hdr);
        free(fr[m].opaque);
        free(fr[m].opaque_depth);
        free(fr[m].color);
        free(fr[m].shadow);
        free(fr[m].depth);
    }
    GT_CHECK_VALIDATION(r, "rendering alpha modes");
    gn_renderer_destroy(r);
    return gn_check_exit();
}

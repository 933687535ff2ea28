/* Ambient occlusion on the CPU (src/decide/ao.c): the Z pyramid's levels and its rotated grid,
 * the estimate on synthetic depth (an open plane is not occluded, whatever its slant; the foot of
 * a wall is, less with distance, and not beyond the radius), the
 * bilateral blur (keeps a constant, does not cross a silhouette), and specular occlusion. */
#include "check.h"
#include "decide/ao.h"
#include "decide/camera.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 160
#define H 120

/* A camera 1.6 m above a floor (y = 0, view space y down: the floor is at view y = +1.6 when
 * level), pitched down by pitch radians, and a wall at view-space distance wall_z ahead (the
 * plane z = wall_z in world terms: facing the camera). Ray-cast each pixel's sample 0 into
 * the nearest of the planes present; depth = near / z. */
typedef struct scene {
    float pitch, wall_z; /* wall_z 0: no wall */
} scene;

static void make_depth(const gn_ao_params *p, const scene *sc, float *depth, float *ahead)
{
    float c = cosf(sc->pitch), s = sinf(sc->pitch);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            float nx = ((float)x + p->sample_x) / W * 2.0f - 1.0f,
                  ny = ((float)y + p->sample_y) / H * 2.0f - 1.0f;
            /* the view ray (z = 1) in a world frame: x right, y up, z ahead, pitched down */
            float vx = nx * p->inv_p00, vy = -ny * p->inv_p11;
            float wy = vy * c - s, wz = vy * s + c;
            float t = INFINITY;
            bool wall = false;
            if (wy < 0.0f) t = 1.6f / -wy; /* the floor */
            if (sc->wall_z > 0.0f && wz > 0.0f) {
                float tw = sc->wall_z / wz;
                if (tw < t) t = tw, wall = true;
            }
            if (ahead) ahead[y * W + x] = wall ? -1.0f : t * wz; /* a floor point's distance ahead */
            (void)vx;
            /* view-space z of the hit: along the view axis, t * (view ray's z = 1) */
            depth[y * W + x] = isfinite(t) ? p->near_plane / t : 0.0f;
        }
}

static void params(gn_ao_params *p, float radius)
{
    float proj[16];
    gn_camera_projection(60.0f * 0.017453293f, (float)W / H, 0.1f, proj);
    gn_ao_params_make(proj, 0.1f, W, H, radius, 0.02f, 1.0f, 0.5f, 0.5f, p);
}

static float *estimate_all(const gn_ao_layout *l, const gn_ao_params *p, const float *depth, float **zout)
{
    float *z = malloc(l->texels * sizeof *z), *ao = malloc((size_t)W * H * sizeof *ao);
    gn_ao_build_z(l, p, depth, z);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) ao[y * W + x] = gn_ao_estimate(l, p, z, x, y);
    *zout = z;
    return ao;
}

static void test_layout(void)
{
    gn_ao_layout l;
    gn_ao_layout_make(3840, 2160, &l);
    CHECK(l.w[1] == 1920 && l.h[5] == 68 && l.w[5] == 120 && l.offset[1] == 3840u * 2160u,
          "4K levels: %ux%u at level 5, level 1 at %u", l.w[5], l.h[5], l.offset[1]);
    gn_ao_layout_make(5, 3, &l);
    CHECK(l.w[1] == 3 && l.h[1] == 2 && l.w[5] == 1 && l.h[5] == 1, "odd sizes round up: %ux%u", l.w[1],
          l.h[1]);
    /* the rotated grid: level 1's texel (x, y) is level 0's (2x + (y&1^1), 2y + (x&1^1)) */
    float depth[5 * 3], z[64];
    for (int i = 0; i < 15; i++) depth[i] = 0.1f / (float)(i + 1); /* z = i + 1 */
    gn_ao_params p = {.near_plane = 0.1f, .width = 5, .height = 3};
    gn_ao_build_z(&l, &p, depth, z);
    CHECK(fabsf(z[7] - 8.0f) < 1e-4f, "level 0 is near / depth: %g", z[7]);
    /* (0,0) <- (1, 1) = 7 -> z 7; (1,0) <- (2, 0) ... (2*1 + 1, 2*0 + 0) = (3, 0) -> z 4 */
    CHECK(fabsf(z[l.offset[1]] - 7.0f) < 1e-4f && fabsf(z[l.offset[1] + 1] - 4.0f) < 1e-4f, "level 1: %g %g",
          z[l.offset[1]], z[l.offset[1] + 1]);
    depth[0] = 0.0f;
    gn_ao_build_z(&l, &p, depth, z);
    CHECK(z[0] == GN_AO_SKY_Z, "the sky's Z: %g", z[0]);
}

static void test_open_planes(void)
{
    gn_ao_params p;
    params(&p, 1.0f);
    gn_ao_layout l;
    gn_ao_layout_make(W, H, &l);
    float *depth = malloc((size_t)W * H * sizeof *depth);
    float pitches[] = {0.3f, 0.7f, 1.2f};
    for (int k = 0; k < 3; k++) {
        scene sc = {.pitch = pitches[k]};
        make_depth(&p, &sc, depth, NULL);
        float *z, *ao = estimate_all(&l, &p, depth, &z);
        float lowest = 1.0f;
        for (uint32_t i = W * (H / 2); i < (uint32_t)(W * H); i++) lowest = fminf(lowest, ao[i]);
        CHECK(lowest > 0.99f, "an open floor at pitch %.1f is not occluded: lowest %g", pitches[k], lowest);
        free(z), free(ao);
    }
    free(depth);
}

static void test_wall_foot(void)
{
    gn_ao_params p;
    params(&p, 1.0f);
    gn_ao_layout l;
    gn_ao_layout_make(W, H, &l);
    float *depth = malloc((size_t)W * H * sizeof *depth), *ahead = malloc((size_t)W * H * sizeof *ahead);
    scene sc = {.pitch = 0.3f, .wall_z = 5.0f};
    make_depth(&p, &sc, depth, ahead);
    float *z, *ao = estimate_all(&l, &p, depth, &z);
    /* down the middle column: floor pixels by their distance in front of the wall */
    float near_wall = 1.0f, mid = 1.0f, far = 0.0f;
    for (uint32_t y = 0; y < H; y++) {
        uint32_t i = y * W + W / 2;
        if (!(depth[i] > 0.0f) || ahead[i] < 0.0f) continue;
        float gap = 5.0f - ahead[i]; /* the floor point's distance from the wall */
        if (gap > 0.05f && gap < 0.25f) near_wall = fminf(near_wall, ao[i]);
        if (gap > 0.45f && gap < 0.6f) mid = fminf(mid, ao[i]);
        if (gap > 1.3f) far = fmaxf(far, 1.0f - ao[i]);
    }
    CHECK(near_wall < 0.95f, "the floor at the foot of the wall is occluded: %g", near_wall);
    CHECK(mid > near_wall, "less occluded farther out: %g then %g", near_wall, mid);
    CHECK(far < 0.01f, "not occluded beyond the radius: %g", far);
    free(z), free(ao), free(depth), free(ahead);
}

static void test_blur(void)
{
    gn_ao_params p;
    params(&p, 1.0f);
    gn_ao_layout l;
    gn_ao_layout_make(W, H, &l);
    float *depth = malloc((size_t)W * H * sizeof *depth), *src = malloc((size_t)W * H * sizeof *src);
    float *z = malloc(l.texels * sizeof *z);
    /* two flat planes side by side, 2 m and 6 m away: left 0.2, right 1.0 */
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            depth[y * W + x] = p.near_plane / (x < W / 2 ? 2.0f : 6.0f);
            src[y * W + x] = x < W / 2 ? 0.2f : 1.0f;
        }
    gn_ao_build_z(&l, &p, depth, z);
    float left = gn_ao_blur(&p, z, src, W / 2 - 1, H / 2, 1, 0),
          right = gn_ao_blur(&p, z, src, W / 2, H / 2, 1, 0);
    float flat = gn_ao_blur(&p, z, src, 10, H / 2, 1, 0);
    CHECK(fabsf(left - 0.2f) < 1e-5f && fabsf(right - 1.0f) < 1e-5f,
          "the blur stops at the silhouette: %g | %g", left, right);
    CHECK(fabsf(flat - 0.2f) < 1e-6f, "a constant stays: %g", flat);
    free(depth), free(src), free(z);
}

static void test_specular(void)
{
    CHECK(gn_specular_occlusion(0.7f, 1.0f, 0.5f) == 1.0f, "open: %g",
          gn_specular_occlusion(0.7f, 1.0f, 0.5f));
    CHECK(gn_specular_occlusion(0.5f, 0.0f, 0.3f) == 0.0f, "closed: %g",
          gn_specular_occlusion(0.5f, 0.0f, 0.3f));
    float prev = -1.0f;
    for (int i = 0; i <= 10; i++) {
        float s = gn_specular_occlusion(0.6f, i / 10.0f, 0.4f);
        CHECK(s >= prev, "monotonic in ao: %g after %g", s, prev);
        prev = s;
    }
    /* rough surfaces follow the ambient occlusion, shiny ones seen head-on keep their reflection */
    CHECK(gn_specular_occlusion(1.0f, 0.5f, 0.0f) > gn_specular_occlusion(1.0f, 0.5f, 1.0f) - 1e-6f,
          "shiny %g rough %g", gn_specular_occlusion(1.0f, 0.5f, 0.0f),
          gn_specular_occlusion(1.0f, 0.5f, 1.0f));
    float rot = gn_ao_rotation(3, 5);
    CHECK(rot >= 0.0f && rot < 1.0f && gn_ao_rotation(3, 5) == rot, "rotation %g", rot);
}

int main(void)
{
    test_layout();
    test_open_planes();
    test_wall_foot();
    test_blur();
    test_specular();
    return gn_check_exit();
}

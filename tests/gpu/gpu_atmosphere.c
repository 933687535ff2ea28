/* The atmosphere's tables on the GPU (src/passes/atmosphere.c, shaders/atmo_*.comp) against their
 * CPU twin (src/decide/atmosphere.c), which unit_atmosphere holds to a path-traced ground truth:
 * the transmittance, the multiple scattering, the sky view and the aerial perspective's froxels,
 * texel by texel, at a morning sun with the moon up, from 2 m and from 3 km above the ground.
 * The medium's tables are made by the first frame only; the sky view and the aerial volume again
 * only when the sun, the moon or the camera moved. */
#include "decide/camera.h"
#include "decide/frame_inputs.h"
#include "gpu_util.h"
#include "passes/atmosphere.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static gn_atmosphere cpu;

static uint16_t *read_table(gn_renderer *r, uint32_t which, uint32_t texels)
{
    gn_error err = {0};
    uint16_t *t = malloc((size_t)texels * 8);
    CHECK(t && gn_atmosphere_read(r, which, t, (size_t)texels * 8, &err) == GN_OK, "read %u: %s", which,
          err.message);
    return t;
}

/* |gpu - cpu| relative to max(|cpu|, floor): the worst and the mean over the texels. */
typedef struct {
    double worst, sum;
    uint32_t n, at; /* at: the worst's index (texel * 3 + channel, or texel * 4 + channel) */
    float gpu, want;
} diff;
static void compare(diff *d, float gpu, float want, float floor)
{
    double e = fabs((double)gpu - want) / fmax(fabs(want), floor);
    if (e > d->worst) d->worst = e, d->at = d->n, d->gpu = gpu, d->want = want;
    d->sum += e;
    d->n++;
}

/* The lights as the renderer decides them for f (gn_frame_inputs_resolve, the same function). */
static void frame_inputs(const gn_frame_desc *f, gn_frame_inputs *in)
{
    const float cam[6] = {0};
    gn_frame_inputs_resolve(f, cam, 64, 64, &cpu, in);
}

static void check_frame(gn_renderer *r, const gn_frame_desc *f, const char *what)
{
    gn_frame_inputs in;
    frame_inputs(f, &in);
    /* the sky view: every texel's direction marched from the eye's radius with both lights */
    uint16_t *sv = read_table(r, GN_ATMO_IMAGE_SKYVIEW, GN_ATMO_SKYVIEW_W * GN_ATMO_SKYVIEW_H);
    float *want = malloc(sizeof(float) * 3 * GN_ATMO_SKYVIEW_W * GN_ATMO_SKYVIEW_H);
    gn_atmo_skyview(&cpu, in.camera_r_km, in.lights, want);
    float peak = 0.0f;
    for (int i = 0; i < GN_ATMO_SKYVIEW_W * GN_ATMO_SKYVIEW_H * 3; i++) peak = fmaxf(peak, want[i]);
    diff d = {0};
    for (int i = 0; i < GN_ATMO_SKYVIEW_W * GN_ATMO_SKYVIEW_H; i++)
        for (int c = 0; c < 3; c++)
            compare(&d, gt_half_to_float(sv[i * 4 + c]), want[i * 3 + c], 1e-3f * peak);
    fprintf(stderr,
            "%s: sky view within %.3f%% of the CPU (mean %.4f%%; peak %.0f nits; worst at texel %u, %u: %g "
            "vs %g)\n",
            what, 100 * d.worst, 100 * d.sum / d.n, peak, d.at / 3 % GN_ATMO_SKYVIEW_W,
            d.at / 3 / GN_ATMO_SKYVIEW_W, d.gpu, d.want);
    CHECK(d.worst < 0.02 && d.sum / d.n < 0.002, "%s: sky view worst %g mean %g", what, d.worst, d.sum / d.n);
    free(sv);
    free(want);

    /* the aerial froxels: each column's ray from the frame's own inverse matrix, to its slice */
    gn_frame_view fv;
    gn_error err = {0};
    CHECK(gn_get_frame_view(r, &fv, &err) == GN_OK, "frame view: %s", err.message);
    const uint32_t n = GN_ATMO_AERIAL_SIZE;
    uint16_t *ae = read_table(r, GN_ATMO_IMAGE_AERIAL, n * n * n);
    diff dl = {0}, dt = {0};
    float lpeak = 0.0f;
    float(*cl)[4] = malloc(sizeof(float) * 4 * n * n * n);
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            float ndc[3] = {((float)x + 0.5f) / n * 2.0f - 1.0f, ((float)y + 0.5f) / n * 2.0f - 1.0f, 1e-7f};
            float p[4], dir[3], len = 0.0f;
            gn_mat4_transform_point(fv.inv_view_proj, ndc, p);
            for (int c = 0; c < 3; c++) dir[c] = p[c] / p[3] - fv.camera_position[c], len += dir[c] * dir[c];
            for (int c = 0; c < 3; c++) dir[c] /= sqrtf(len);
            for (uint32_t k = 0; k < n; k++) {
                float L[3], T[3];
                gn_atmo_sky_lights(&cpu, in.camera_r_km, dir, in.lights, gn_atmo_aerial_km(k), L, T);
                float *o = cl[(y * n + k) * n + x];
                memcpy(o, L, sizeof L);
                o[3] = (T[0] + T[1] + T[2]) / 3.0f;
                lpeak = fmaxf(lpeak, fmaxf(L[0], fmaxf(L[1], L[2])));
            }
        }
    for (uint32_t i = 0; i < n * n * n; i++) {
        for (int c = 0; c < 3; c++) compare(&dl, gt_half_to_float(ae[i * 4 + c]), cl[i][c], 1e-2f * lpeak);
        compare(&dt, gt_half_to_float(ae[i * 4 + 3]), cl[i][3], 1e-3f);
    }
    fprintf(stderr,
            "%s: aerial in-scattering within %.3f%% (mean %.4f%%; peak %.0f nits), transmittance %.4f%%\n",
            what, 100 * dl.worst, 100 * dl.sum / dl.n, lpeak, 100 * dt.worst);
    CHECK(dl.worst < 0.02 && dt.worst < 0.005, "%s: aerial worst %g, transmittance %g", what, dl.worst,
          dt.worst);
    free(cl);
    free(ae);
}

int main(void)
{
    gn_atmo_params earth;
    gn_atmo_earth(&earth);
    gn_atmo_build(&earth, &cpu);
    gn_error err = {0};
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "scene: %s", err.message);
    gn_renderer *r = gt_renderer(64, 64, 1);
    /* 2 Jan 2026, 8 h at 45 N: the sun 13 degrees up in the south-east, the full moon setting */
    gn_frame_desc f = {.camera = {.position = {0, 2, 0}, .yaw = 120, .pitch = 5, .fov_y = 70},
                       .time_of_day = 8.0f,
                       .day_of_year = 2,
                       .year = 2026};
    gn_frame_stats st = gt_frame(r, s, &f);
    CHECK(gt_ran(&st, "atmosphere luts") && gt_ran(&st, "atmosphere"), "the first frame makes every table");
    st = gt_frame(r, s, &f);
    CHECK(!gt_ran(&st, "atmosphere luts") && !gt_ran(&st, "atmosphere"), "a still frame makes none again");

    /* the medium's tables, texel by texel */
    uint16_t *t = read_table(r, GN_ATMO_IMAGE_T, GN_ATMO_TRANSMITTANCE_W * GN_ATMO_TRANSMITTANCE_H);
    diff dtr = {0};
    for (int j = 0; j < GN_ATMO_TRANSMITTANCE_H; j++)
        for (int i = 0; i < GN_ATMO_TRANSMITTANCE_W; i++)
            for (int c = 0; c < 3; c++)
                compare(&dtr, gt_half_to_float(t[(j * GN_ATMO_TRANSMITTANCE_W + i) * 4 + c]),
                        cpu.transmittance[j][i][c], 1e-3f);
    uint16_t *ms = read_table(r, GN_ATMO_IMAGE_MS, GN_ATMO_MS_SIZE * GN_ATMO_MS_SIZE);
    diff dms = {0};
    float mpeak = 0.0f;
    for (int j = 0; j < GN_ATMO_MS_SIZE; j++)
        for (int i = 0; i < GN_ATMO_MS_SIZE; i++)
            for (int c = 0; c < 3; c++) mpeak = fmaxf(mpeak, cpu.ms[j][i][c]);
    for (int j = 0; j < GN_ATMO_MS_SIZE; j++)
        for (int i = 0; i < GN_ATMO_MS_SIZE; i++)
            for (int c = 0; c < 3; c++)
                compare(&dms, gt_half_to_float(ms[(j * GN_ATMO_MS_SIZE + i) * 4 + c]), cpu.ms[j][i][c],
                        1e-3f * mpeak);
    fprintf(stderr,
            "transmittance within %.4f%% of the CPU's (mean %.5f%%), multiple scattering %.3f%% (mean "
            "%.4f%%; worst "
            "at texel %u, %u)\n",
            100 * dtr.worst, 100 * dtr.sum / dtr.n, 100 * dms.worst, 100 * dms.sum / dms.n,
            dms.at / 3 % GN_ATMO_MS_SIZE, dms.at / 3 / GN_ATMO_MS_SIZE);
    CHECK(dtr.worst < 0.003, "transmittance worst %g", dtr.worst);
    /* the worst texels are where the sun grazes the planet's shadow (texel 13, 16: the sun 9 degrees
     * down seen from 50 km): a sample's lit-or-not flips on the last bit; the mean is the agreement */
    CHECK(dms.worst < 0.03 && dms.sum / dms.n < 1e-3, "multiple scattering worst %g mean %g", dms.worst,
          dms.sum / dms.n);
    free(t);
    free(ms);
    check_frame(r, &f, "2 m up");

    /* from a hill 3 km up, later in the morning: the sky view and the volume are made again */
    f.camera.position[1] = 3000.0f;
    f.time_of_day = 9.5f;
    st = gt_frame(r, s, &f);
    CHECK(!gt_ran(&st, "atmosphere luts") && gt_ran(&st, "atmosphere"),
          "a moved sun remakes the sky view only");
    check_frame(r, &f, "3 km up");
    GT_CHECK_VALIDATION(r, "at the end");
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

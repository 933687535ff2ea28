/* Ambient occlusion (SAO) against the ray-traced truth (tools/gnomon/truth_ao.c, Embree) with the
 * same radius and falloff, at the default intensity (docs/POST.md, "Ambient occlusion"):
 *   (1) the town's street and rooftop at noon: mean absolute error, correlation and halo share
 *       within the targets docs/POST.md states (each a margin over what was measured);
 *   (2) Sponza's default view, when the shared scene is there, likewise;
 *   (3) thin occluders: a row of 8 cm poles 40 cm in front of a wall, seen head-on: the wall
 *       around and behind the poles is not drawn darker than the truth (the halo share, SAO
 *       darker by more than 0.2, stays under 0.5% of the wall); its pictures are written to
 *       ao_poles_{sao,truth,diff}.png in the working directory (the test view of docs/POST.md). */
#include "aocmp.h"
#include "gpu_util.h"
#include "scene/town.h"
#include "truth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 384
#define H 216

typedef struct targets {
    double max_mae, min_correlation, max_halo;
} targets;

/* Renders f (settled), ray-traces its truth and compares; writes the pictures when name is set. */
static gn_ao_agreement check(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, const char *label,
                             const targets *t, const char *name)
{
    gn_error err = {0};
    size_t n = (size_t)W * H;
    float *depth = malloc(n * sizeof *depth), *sao = malloc(n * sizeof *sao),
          *truth = malloc(n * sizeof *truth);
    uint8_t *counted = malloc(n), *rgba = malloc(n * 4);
    free(gt_render(r, s, f));
    gn_frame_view fv;
    gn_ao_agreement a = {0};
    gn_truth *tr = NULL;
    if (gn_read_depth(r, depth, &err) || gn_read_ao(r, sao, &err) || gn_get_frame_view(r, &fv, &err) ||
        !(tr = gn_truth_create(s, &err))) {
        CHECK(false, "%s: %s", label, err.message);
    } else {
        gn_truth_frame tf = {
            .depth = depth, .width = W, .height = H, .msaa = gn_renderer_msaa(r), .view = &fv};
        gn_truth_ao_desc d = {.radius = fv.ao_radius, .rays = 48};
        CHECK(gn_truth_ao(tr, &tf, &d, truth, counted, NULL, &err) == GN_OK, "%s: truth: %s", label,
              err.message);
        gn_ao_compare(sao, truth, counted, n, &a);
        fprintf(stderr,
                "%s: MAE %.4f, correlation %.3f, mean SAO %.4f truth %.4f, halo %.3f%% of %llu pixels\n",
                label, a.mae, a.correlation, a.mean_sao, a.mean_truth, 100.0 * a.halo,
                (unsigned long long)a.pixels);
        CHECK(a.pixels > n / 4 && a.not_finite == 0, "%s: %llu pixels compared, %llu not finite", label,
              (unsigned long long)a.pixels, (unsigned long long)a.not_finite);
        CHECK(a.mae <= t->max_mae, "%s: MAE %.4f over %.4f", label, a.mae, t->max_mae);
        CHECK(a.correlation >= t->min_correlation, "%s: correlation %.3f under %.3f", label, a.correlation,
              t->min_correlation);
        CHECK(a.halo <= t->max_halo, "%s: halo share %.4f over %.4f", label, a.halo, t->max_halo);
        if (name) {
            char path[256];
            snprintf(path, sizeof path, "%s_sao.png", name);
            gn_ao_grey_rgba(sao, n, rgba);
            gt_write_png(path, rgba, W, H);
            snprintf(path, sizeof path, "%s_truth.png", name);
            gn_ao_grey_rgba(truth, n, rgba);
            gt_write_png(path, rgba, W, H);
            snprintf(path, sizeof path, "%s_diff.png", name);
            gn_ao_diff_rgba(sao, truth, counted, n, rgba);
            gt_write_png(path, rgba, W, H);
        }
    }
    gn_truth_destroy(tr);
    free(depth), free(sao), free(truth), free(counted), free(rgba);
    return a;
}

/* A floor, a wall across it 4 m ahead and a row of thin poles 40 cm in front of the wall. */
static gn_scene *poles(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    if (gn_scene_create(&s, &err)) return NULL;
    const uint32_t quad[] = {0, 1, 2, 0, 2, 3};
    const float floor_p[] = {-20, 0, -20, -20, 0, 20, 20, 0, 20, 20, 0, -20};
    const float wall_p[] = {-20, 0, -4, 20, 0, -4, 20, 6, -4, -20, 6, -4};
    /* a pole: a box 8 cm square and 3 m tall, its 5 visible faces */
    const float e = 0.04f, top = 3.0f;
    const float pole_p[] = {-e, 0,   e,  e,  0,   e,  e,  top, e,  -e, top, e,   /* front */
                            e,  0,   e,  e,  0,   -e, e,  top, -e, e,  top, e,   /* right */
                            -e, 0,   -e, -e, 0,   e,  -e, top, e,  -e, top, -e,  /* left */
                            -e, top, e,  e,  top, e,  e,  top, -e, -e, top, -e,  /* top */
                            e,  0,   -e, -e, 0,   -e, -e, top, -e, e,  top, -e}; /* back */
    uint32_t pole_i[30];
    for (uint32_t f = 0; f < 5; f++)
        for (uint32_t k = 0; k < 6; k++) pole_i[f * 6 + k] = f * 4 + quad[k];
    gn_mesh_desc fd = {
        .positions = floor_p, .vertex_count = 4, .indices = quad, .index_count = 6, .label = "floor"};
    gn_mesh_desc wd = {
        .positions = wall_p, .vertex_count = 4, .indices = quad, .index_count = 6, .label = "wall"};
    gn_mesh_desc pd = {
        .positions = pole_p, .vertex_count = 20, .indices = pole_i, .index_count = 30, .label = "pole"};
    gn_material_desc md = {.base_color = {0.8f, 0.8f, 0.8f, 1}, .label = "grey"};
    uint32_t fm, wm, pm, mat, id;
    bool ok = !gn_scene_add_mesh(s, &fd, &fm, &err) && !gn_scene_add_mesh(s, &wd, &wm, &err) &&
              !gn_scene_add_mesh(s, &pd, &pm, &err) && !gn_scene_add_material(s, &md, &mat, &err);
    gn_instance_desc fi = {.mesh = fm, .material = mat}, wi = {.mesh = wm, .material = mat};
    ok = ok && !gn_scene_add_instance(s, &fi, &id, &err) && !gn_scene_add_instance(s, &wi, &id, &err);
    for (int k = -3; k <= 3 && ok; k++) {
        gn_instance_desc pi = {.mesh = pm, .material = mat};
        float tx[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.9f * (float)k, 0, -3.6f, 1};
        memcpy(pi.transform, tx, sizeof tx);
        ok = !gn_scene_add_instance(s, &pi, &id, &err);
    }
    if (!ok) {
        fprintf(stderr, "poles: %s\n", err.message);
        gn_scene_destroy(s);
        return NULL;
    }
    return s;
}

int main(void)
{
    gn_error err = {0};
    gn_renderer *r = gt_renderer(W, H, 4);

    /* (3) thin occluders first: a small scene */
    gn_scene *p = poles();
    CHECK(p != NULL, "the poles scene");
    if (p) {
        gn_frame_desc f = {.time_of_day = 12.0f, .shadows = GN_SHADOWS_NONE};
        f.camera.position[1] = 1.5f, f.camera.position[2] = 1.0f;
        const targets t = {0.03, 0.8, 0.005}; /* measured: 0.0160, 0.894, 0 */
        check(r, p, &f, "poles", &t, "ao_poles");
        gn_scene_destroy(p);
    }

    /* (1) the town */
    gn_scene *s = NULL;
    gn_builtin_desc bd = {.name = "town", .seed = 1, .scale = 1};
    CHECK(gn_scene_create_builtin(&bd, &s, &err) == GN_OK, "town: %s", err.message);
    if (s) {
        float vps[3][5];
        gn_town_viewpoints(s, vps);
        const char *names[2] = {"town street", "town rooftop"};
        /* measured: 0.0374, 0.632, 0.08%; 0.0195, 0.327 (little occlusion: the truth's noise
         * weighs on the correlation), 0 */
        const targets t[2] = {{0.05, 0.55, 0.01}, {0.03, 0.25, 0.01}};
        for (int v = 0; v < 2; v++) {
            gn_frame_desc f = gt_at(vps[v], 12.0f);
            check(r, s, &f, names[v], &t[v], v == 0 ? "ao_street" : NULL);
        }
        gn_scene_destroy(s);
    }

#ifdef GT_SPONZA
    /* (2) Sponza, from the shared data when it is there */
    gn_scene *sp = NULL;
    gn_load_desc ld = {.path = GT_SPONZA};
    if (gn_scene_load(&ld, &sp, &err) == GN_OK) {
        gn_frame_desc f = {.time_of_day = 13.0f};
        const targets t = {0.085, 0.5, 0.01}; /* measured: 0.0686, 0.603, 0.02% */
        check(r, sp, &f, "sponza", &t, "ao_sponza");
        gn_scene_destroy(sp);
    } else {
        fprintf(stderr, "sponza: %s (skipped)\n", err.message);
    }
#endif
    GT_CHECK_VALIDATION(r, "at the end");
    gn_renderer_destroy(r);
    return gn_check_exit();
}

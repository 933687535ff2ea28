/* Helpers of the GPU tests (see gpu_util.h). */
#include "gpu_util.h"

#include <math.h>
#include <stb_image.h>
#include <stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GT_GOLDEN_DIR
#error "GT_GOLDEN_DIR must name tests/golden"
#endif

gn_renderer *gt_renderer(uint32_t w, uint32_t h, uint32_t msaa)
{
    gn_renderer_desc d = {.width = w, .height = h, .msaa = msaa, .validation = GN_VALIDATION_ON};
    gn_renderer *r = NULL;
    gn_error err = {0};
    if (gn_renderer_create(&d, &r, &err) != GN_OK) {
        fprintf(stderr, "renderer: %s\n", err.message);
        exit(1);
    }
    return r;
}

uint32_t gt_add_sphere(gn_scene *s, uint32_t seg_u, uint32_t seg_v)
{
    uint32_t nv = (seg_u + 1) * (seg_v + 1), ni = seg_u * seg_v * 6;
    float *pos = malloc(nv * 3 * sizeof *pos), *uv = malloc(nv * 2 * sizeof *uv);
    uint32_t *idx = malloc(ni * sizeof *idx);
    uint32_t k = 0;
    for (uint32_t j = 0; j <= seg_v; j++)
        for (uint32_t i = 0; i <= seg_u; i++) {
            float th = (float)j / seg_v * 3.14159265f, ph = (float)i / seg_u * 6.2831853f;
            pos[k * 3 + 0] = sinf(th) * cosf(ph);
            pos[k * 3 + 1] = cosf(th);
            pos[k * 3 + 2] = -sinf(th) * sinf(ph);
            uv[k * 2 + 0] = (float)i / seg_u;
            uv[k * 2 + 1] = (float)j / seg_v;
            k++;
        }
    k = 0;
    for (uint32_t j = 0; j < seg_v; j++)
        for (uint32_t i = 0; i < seg_u; i++) {
            uint32_t a = j * (seg_u + 1) + i, b = a + seg_u + 1;
            uint32_t q[6] = {a, b, a + 1, a + 1, b, b + 1};
            memcpy(&idx[k], q, sizeof q);
            k += 6;
        }
    gn_mesh_desc md = {.positions = pos,
                       .normals = pos,
                       .uvs = uv,
                       .vertex_count = nv,
                       .indices = idx,
                       .index_count = ni,
                       .label = "unit sphere"};
    uint32_t id = 0;
    gn_error err = {0};
    if (gn_scene_add_mesh(s, &md, &id, &err)) {
        fprintf(stderr, "sphere: %s\n", err.message);
        exit(1);
    }
    free(pos);
    free(uv);
    free(idx);
    return id;
}

gn_scene *gt_town(uint32_t seed, float viewpoints[3][5])
{
    gn_error err = {0};
    gn_scene *s = NULL;
    gn_builtin_desc bd = {.name = "town", .seed = seed, .scale = 1};
    if (gn_scene_create_builtin(&bd, &s, &err)) {
        fprintf(stderr, "town: %s\n", err.message);
        exit(1);
    }
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    memcpy(viewpoints, info.viewpoints, sizeof info.viewpoints);
    return s;
}

/* Frames until the VSM cache has settled (after 2 frames, one renders no page and leaves none
 * waiting; with requested, it also asked for some): the frames taken, 0 when not within max. */
static uint32_t settle(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, uint32_t max, bool requested)
{
    for (uint32_t k = 1; k <= max; k++) {
        gn_frame_stats st = gt_frame(r, s, f);
        if (k > 2 && (st.vsm_pages_requested || !requested) && !st.vsm_pages_waiting &&
            !st.vsm_pages_rendered_static && !st.vsm_pages_rendered_dynamic)
            return k;
    }
    return 0;
}

uint8_t *gt_render(gn_renderer *r, gn_scene *s, const gn_frame_desc *f)
{
    gn_error err = {0};
    if (f->shadows == GN_SHADOWS_DEFAULT) {
        /* the default virtual shadow map fills a cold cache over a few frames: the image is
         * the settled one (or the 60th frame; with the sun down nothing is asked: 3 frames) */
        settle(r, s, f, 60, false);
    } else if (gn_render(r, s, f, &err) != GN_OK) {
        fprintf(stderr, "render: %s\n", err.message);
        exit(1);
    }
    return gt_pixels(r);
}

uint8_t *gt_pixels(gn_renderer *r)
{
    gn_error err = {0};
    uint32_t w, h;
    gn_renderer_size(r, &w, &h);
    uint8_t *px = malloc((size_t)w * h * 4);
    if (!px || gn_read_pixels(r, px, &err) != GN_OK) {
        fprintf(stderr, "read pixels: %s\n", err.message);
        exit(1);
    }
    return px;
}

bool gt_is_lavapipe(const gn_renderer *r) { return strstr(gn_renderer_device_name(r), "llvmpipe") != NULL; }

bool gt_write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
    return stbi_write_png(path, (int)w, (int)h, 4, rgba, (int)w * 4) != 0;
}

uint8_t *gt_read_png(const char *path, uint32_t *w, uint32_t *h)
{
    int x, y, n;
    uint8_t *p = stbi_load(path, &x, &y, &n, 4);
    *w = p ? (uint32_t)x : 0;
    *h = p ? (uint32_t)y : 0;
    return p;
}

uint64_t gt_hash(const uint8_t *data, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ data[i]) * 1099511628211ull;
    return h;
}

gt_diff gt_compare(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, uint32_t tolerance)
{
    gt_diff d = {0};
    size_t over = 0, n = (size_t)w * h;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        bool bad = false;
        for (int c = 0; c < 3; c++) {
            uint32_t x = a[i * 4 + c], y = b[i * 4 + c];
            uint32_t diff = x > y ? x - y : y - x;
            if (diff > d.max_channel) d.max_channel = diff;
            if (diff > tolerance) bad = true;
            sum += diff;
        }
        over += bad;
    }
    d.over_share = n ? (double)over / (double)n : 0;
    d.mean_abs = n ? sum / (double)(n * 3) : 0;
    return d;
}

bool gt_golden(const gn_renderer *r, const char *name, const uint8_t *rgba, uint32_t w, uint32_t h)
{
    char path[1024], actual[512];
    snprintf(path, sizeof path, "%s/%s.png", GT_GOLDEN_DIR, name);
    snprintf(actual, sizeof actual, "%s.actual.png", name);
    const char *update = getenv("GNOMON_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        bool ok = gt_write_png(path, rgba, w, h);
        fprintf(stderr, "golden %s: %s\n", name, ok ? "rewritten" : "could not write");
        return ok;
    }
    uint32_t gw, gh;
    uint8_t *g = gt_read_png(path, &gw, &gh);
    if (!g) {
        gt_write_png(actual, rgba, w, h);
        fprintf(stderr, "golden %s: %s missing (GNOMON_UPDATE_GOLDEN=1 creates it)\n", name, path);
        return false;
    }
    bool ok = gw == w && gh == h;
    if (ok) {
        gt_diff d = gt_compare(rgba, g, w, h, gt_is_lavapipe(r) ? 0 : GT_GOLDEN_TOLERANCE);
        ok = gt_is_lavapipe(r) ? d.max_channel == 0 : d.over_share <= GT_GOLDEN_SHARE;
        fprintf(stderr, "golden %s: max channel diff %u, %.4f%% of pixels over tolerance, mean %.4f (%s)\n",
                name, d.max_channel, d.over_share * 100, d.mean_abs, ok ? "ok" : "MISMATCH");
    } else {
        fprintf(stderr, "golden %s: size %ux%u, expected %ux%u\n", name, w, h, gw, gh);
    }
    if (!ok) gt_write_png(actual, rgba, w, h);
    stbi_image_free(g);
    return ok;
}

gn_frame_stats gt_frame(gn_renderer *r, gn_scene *s, const gn_frame_desc *f)
{
    gn_error err = {0};
    gn_frame_stats st = {0};
    if (gn_render(r, s, f, &err) != GN_OK || gn_renderer_wait_idle(r, &err) != GN_OK ||
        gn_get_frame_stats(r, &st, &err) != GN_OK) {
        fprintf(stderr, "frame: %s\n", err.message);
        exit(1);
    }
    return st;
}

uint32_t gt_vsm_settle(gn_renderer *r, gn_scene *s, const gn_frame_desc *f)
{
    return settle(r, s, f, 200, true);
}

gn_frame_desc gt_vsm_at(float x, float z, float yaw, float hours)
{
    gn_frame_desc f = {.time_of_day = hours, .shadows = GN_SHADOWS_VSM};
    f.camera.position[0] = x, f.camera.position[1] = 6.0f, f.camera.position[2] = z;
    f.camera.yaw = yaw;
    f.camera.pitch = -12.0f;
    return f;
}

float gt_half_to_float(uint16_t h)
{
    uint32_t e = (h >> 10) & 31u, m = h & 1023u;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? INFINITY : ldexpf((float)(m | 1024u), (int)e - 25);
    return (h & 0x8000u) ? -v : v;
}

gn_frame_desc gt_at(const float vp[5], float hours)
{
    gn_frame_desc f = {.time_of_day = hours};
    memcpy(f.camera.position, vp, 3 * sizeof(float));
    f.camera.yaw = vp[3];
    f.camera.pitch = vp[4];
    return f;
}

uint32_t gt_add_box(gn_scene *s, float sx, float sy, float sz)
{
    float p[24 * 3], n[24 * 3];
    uint32_t idx[36];
    static const float axes[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int f = 0; f < 6; f++) {
        const float *a = axes[f];
        /* u across the face, v = a x u: the corners below wind counter-clockwise seen from outside */
        float u[3] = {a[0] != 0 ? 0.0f : 1.0f, 0.0f, a[0] != 0 ? 1.0f : 0.0f}, v[3];
        v[0] = a[1] * u[2] - a[2] * u[1], v[1] = a[2] * u[0] - a[0] * u[2], v[2] = a[0] * u[1] - a[1] * u[0];
        static const float c[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int k = 0; k < 4; k++) {
            float q[3];
            for (int i = 0; i < 3; i++) q[i] = a[i] + c[k][0] * u[i] + c[k][1] * v[i];
            p[(f * 4 + k) * 3 + 0] = q[0] * sx, p[(f * 4 + k) * 3 + 1] = q[1] * sy,
                                p[(f * 4 + k) * 3 + 2] = q[2] * sz;
            memcpy(&n[(f * 4 + k) * 3], a, sizeof(float) * 3);
        }
        uint32_t b = (uint32_t)f * 4;
        uint32_t t[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
        memcpy(&idx[f * 6], t, sizeof t);
    }
    gn_mesh_desc md = {
        .positions = p, .normals = n, .vertex_count = 24, .indices = idx, .index_count = 36, .label = "box"};
    uint32_t id = 0;
    gn_error err = {0};
    if (gn_scene_add_mesh(s, &md, &id, &err)) {
        fprintf(stderr, "box: %s\n", err.message);
        exit(1);
    }
    return id;
}

uint32_t gt_add_quad(gn_scene *s, float half, float z)
{
    const float p[] = {-half, -half, z, half, -half, z, half, half, z, -half, half, z};
    static const float n[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    static const float uv[] = {0, 1, 1, 1, 1, 0, 0, 0};
    static const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
    gn_mesh_desc md = {.positions = p,
                       .normals = n,
                       .uvs = uv,
                       .vertex_count = 4,
                       .indices = idx,
                       .index_count = 6,
                       .label = "quad"};
    uint32_t id = 0;
    gn_error err = {0};
    if (gn_scene_add_mesh(s, &md, &id, &err)) {
        fprintf(stderr, "quad: %s\n", err.message);
        exit(1);
    }
    return id;
}

bool gt_ran(const gn_frame_stats *st, const char *name)
{
    for (uint32_t p = 0; p < st->pass_count; p++)
        if (strcmp(st->passes[p].name, name) == 0) return true;
    return false;
}

gn_frame_desc gt_sunny_csm(gn_camera camera, float hours)
{
    return (gn_frame_desc){
        .camera = camera,
        .time_of_day = hours,
        .latitude = 45,
        .day_of_year = 172,
        .shadows = GN_SHADOWS_CSM,
        .tonemap = GN_TONEMAP_CLIP,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true},
        .no_dither = true,
    };
}

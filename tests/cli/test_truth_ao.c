/* Ambient occlusion's truth (tools/gnomon/truth_ao.c) against a case worked out by integration,
 * without a GPU: a floor meeting a wall at 90 degrees, the depth buffer and camera made here
 * analytically as the renderer would leave them. The wall is single-sided and faces away from
 * the floor, so the rasterizer culls it (the camera sees only the floor) and an occlusion ray from
 * the floor meets its back: both sides must occlude. At a distance x from the wall the
 * obscurance is 1 - E[(1 - (t/R)^2)^3], t = x / (the ray's horizontal component towards the
 * wall), over the cosine-weighted hemisphere: 0.5 at the foot, rising to exactly 1 at x >= R.
 * Checks: (a) every floor pixel within a tolerance of that integral (64 rays: 0.05, and 0.006 on
 * the mean, where (1 - (t/R)^2)^2 for the cube is off by 0.016; 512 rays: 0.008 and 0.001; measured
 * 0.023 / 0.0028 and 0.0028 / 0.0003) and radius 2 m the same curve scaled; (b) exactly 1 from the radius
 * on; (c) rising with the distance; (d) sky pixels 1 and not counted, and pixels whose depth the
 * primary ray does not confirm 1, not counted, and counted in stats; (e) the same bits run to
 * run; (f) bad arguments refused with a message. */
#include "check.h"
#include "truth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 128
#define H 96
#define WALL_HALF 50.0f  /* the wall spans z in [-50, 50], y in [0, 20] at x = 0 */
#define FLOOR_SIZE 50.0f /* the floor spans x in [0, 50], z in [-50, 50] */
#define NEAR 0.1
#define PI 3.14159265358979323846

typedef struct camera {
    double c[3], f[3], r[3], u[3]; /* position, forward, right, up */
    double sx, sy;                 /* projection scales */
    gn_frame_view view;
} camera;

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Gauss-Jordan with partial pivoting; m and out are 4x4 row-major. */
static void invert4(const double m[4][4], double out[4][4])
{
    double a[4][8];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) a[i][j] = j < 4 ? m[i][j] : (j - 4 == i);
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int i = c + 1; i < 4; i++)
            if (fabs(a[i][c]) > fabs(a[p][c])) p = i;
        for (int j = 0; j < 8; j++) {
            double x = a[c][j];
            a[c][j] = a[p][j], a[p][j] = x;
        }
        double d = a[c][c];
        for (int j = 0; j < 8; j++) a[c][j] /= d;
        for (int i = 0; i < 4; i++) {
            if (i == c) continue;
            double k = a[i][c];
            for (int j = 0; j < 8; j++) a[i][j] -= k * a[c][j];
        }
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) out[i][j] = a[i][j + 4];
}

/* A camera at (6, 4, 0) looking west (-X, at the wall) and 35 degrees down, 60 degrees of
 * vertical field: Vulkan clip (y down), reversed-Z with the far plane at infinity, as the
 * renderer's gn_frame_view. */
static camera make_camera(void)
{
    camera k = {.c = {6, 4, 0}};
    double p = -35.0 * PI / 180.0;
    double f[3] = {-cos(p), sin(p), 0}, r[3] = {0, 0, -1};
    double u[3] = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]};
    memcpy(k.f, f, sizeof f), memcpy(k.r, r, sizeof r), memcpy(k.u, u, sizeof u);
    k.sy = 1.0 / tan(30.0 * PI / 180.0);
    k.sx = k.sy * H / W;
    /* clip = P V world: x_c = sx x_v, y_c = -sy y_v, z_c = near, w_c = z_v (forward) */
    double m[4][4] = {
        {k.sx * r[0], k.sx * r[1], k.sx * r[2], -k.sx * dot3(r, k.c)},
        {-k.sy * u[0], -k.sy * u[1], -k.sy * u[2], k.sy * dot3(u, k.c)},
        {0, 0, 0, NEAR},
        {f[0], f[1], f[2], -dot3(f, k.c)},
    };
    double inv[4][4];
    invert4(m, inv);
    for (int row = 0; row < 4; row++)
        for (int col = 0; col < 4; col++) {
            k.view.view_proj[col * 4 + row] = (float)m[row][col];
            k.view.inv_view_proj[col * 4 + row] = (float)inv[row][col];
        }
    for (int a = 0; a < 3; a++) k.view.camera_position[a] = (float)k.c[a];
    k.view.near_plane = (float)NEAR;
    k.view.ao_radius = 1.0f;
    return k;
}

/* The depth the renderer would store at pixel (x, y) (sample 0 of 1x MSAA: the centre), the
 * floor's point p; 0 where the ray misses the floor (the wall faces away: culled). */
static float floor_depth(const camera *k, uint32_t x, uint32_t y, double p[3])
{
    float sx, sy;
    gn_truth_sample0(1, &sx, &sy);
    double X = (x + sx) / W * 2.0 - 1.0, Y = (y + sy) / H * 2.0 - 1.0, d[3];
    for (int a = 0; a < 3; a++) d[a] = k->f[a] + X / k->sx * k->r[a] - Y / k->sy * k->u[a];
    if (d[1] >= 0.0) return 0.0f;
    double t = -k->c[1] / d[1]; /* along d, whose forward component is 1: the view depth */
    for (int a = 0; a < 3; a++) p[a] = k->c[a] + t * d[a];
    if (!(p[0] > 0.0 && p[0] < FLOOR_SIZE && fabs(p[2]) < FLOOR_SIZE)) return 0.0f;
    return (float)(NEAR / t);
}

/* 1 - E[(1 - (t/R)^2)^3] at distance x from the wall, cosine-weighted: with u = sin^2 of the
 * angle to the normal uniform and the azimuth phi uniform, the horizontal component towards
 * the wall is sqrt(u) max(0, -cos phi) and t = x / it (the midpoint rule, n x n). */
static double analytic_ao(double x, double radius, int n)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        double s = sqrt((i + 0.5) / n);
        for (int j = 0; j < n; j++) {
            double h = s * -cos(2.0 * PI * (j + 0.5) / n);
            if (h * radius <= x) continue; /* away from the wall, or beyond the radius */
            double q = 1.0 - (x / h / radius) * (x / h / radius);
            sum += q * q * q;
        }
    }
    return 1.0 - sum / ((double)n * n);
}

static uint32_t add_quad(gn_scene *s, const float pos[12])
{
    gn_error err = {0};
    uint32_t idx[6] = {0, 1, 2, 0, 2, 3}, id = 0;
    gn_mesh_desc d = {.positions = pos, .vertex_count = 4, .indices = idx, .index_count = 6};
    GN_CHECK(gn_scene_add_mesh(s, &d, &id, &err) == GN_OK);
    gn_instance_desc in = {.mesh = id}; /* all-zero transform: identity */
    GN_CHECK(gn_scene_add_instance(s, &in, NULL, &err) == GN_OK);
    return id;
}

static gn_scene *build_scene(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    if (gn_scene_create(&s, &err) != GN_OK) {
        fprintf(stderr, "test_truth_ao: %s\n", err.message);
        exit(1);
    }
    gn_material_desc md = {.base_color = {0.7f, 0.7f, 0.7f, 1}};
    uint32_t mat = 0;
    GN_CHECK(gn_scene_add_material(s, &md, &mat, &err) == GN_OK);
    const float g = FLOOR_SIZE, w = WALL_HALF;
    /* counter-clockwise seen from above: faces +Y */
    float floor_quad[12] = {0, 0, -g, 0, 0, g, g, 0, g, g, 0, -g};
    /* counter-clockwise seen from -X: faces away from the floor and the camera */
    float wall_quad[12] = {0, 0, -w, 0, 0, w, 0, 20, w, 0, 20, -w};
    add_quad(s, floor_quad);
    add_quad(s, wall_quad);
    return s;
}

typedef struct frame {
    camera k;
    float depth[W * H];
    double wall_distance[W * H]; /* the floor point's x; -1 on sky */
    gn_truth_frame tf;
} frame;

static void make_frame(frame *fr)
{
    fr->k = make_camera();
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            double p[3] = {0, 0, 0};
            size_t i = (size_t)y * W + x;
            fr->depth[i] = floor_depth(&fr->k, x, y, p);
            fr->wall_distance[i] = fr->depth[i] > 0.0f ? p[0] : -1.0;
        }
    fr->tf = (gn_truth_frame){.depth = fr->depth, .width = W, .height = H, .msaa = 1, .view = &fr->k.view};
}

static float ao[W * H], ao_again[W * H];
static uint8_t counted[W * H], counted_again[W * H];

/* (a), (b), (c) for one radius and ray count: the worst and mean error against the integral. */
static void check_curve(const gn_truth *t, const frame *fr, float radius, uint32_t rays, double tol_pixel,
                        double tol_mean)
{
    gn_error err = {0};
    gn_truth_stats st;
    gn_truth_ao_desc d = {.radius = radius, .rays = rays};
    GN_CHECK(gn_truth_ao(t, &fr->tf, &d, ao, counted, &st, &err) == GN_OK);
    /* the integral on a table of distances, linearly interpolated */
    enum { TABLE = 256 };
    static double table[TABLE + 1];
    for (int i = 0; i <= TABLE; i++) table[i] = analytic_ao(radius * i / TABLE, radius, 600);
    double worst = 0.0, sum_err = 0.0, bins[8] = {0}, bin_n[8] = {0};
    uint64_t floor_px = 0, open_px = 0, open_exact = 0, near_px = 0;
    for (size_t i = 0; i < W * H; i++) {
        double x = fr->wall_distance[i];
        if (x < 0.0) continue;
        floor_px++;
        GN_CHECK(counted[i] == 1);
        if (x >= radius) {
            open_px++;
            open_exact += ao[i] == 1.0f;
            continue;
        }
        double s = x / radius * TABLE;
        int k = (int)s;
        double want = table[k] + (s - k) * (table[k + 1] - table[k]);
        double e = fabs(ao[i] - want);
        worst = fmax(worst, e);
        sum_err += e;
        near_px++;
        int b = (int)(x / radius * 8);
        bins[b] += ao[i], bin_n[b]++;
    }
    double mean_err = near_px ? sum_err / near_px : 0.0;
    printf(
        "test_truth_ao: radius %.1f m, %u rays: %llu floor px, %llu within the radius: worst %.4f, mean %.4f "
        "off the integral; %llu of %llu beyond it exactly 1; %.1f ms, %llu rays\n",
        radius, rays, (unsigned long long)floor_px, (unsigned long long)near_px, worst, mean_err,
        (unsigned long long)open_exact, (unsigned long long)open_px, st.ms, (unsigned long long)st.rays);
    GN_CHECK(near_px >= 200 && open_px >= 200); /* the camera sees both */
    GN_CHECK(worst <= tol_pixel);
    GN_CHECK(mean_err <= tol_mean);
    GN_CHECK(open_exact == open_px);
    GN_CHECK(st.rays == floor_px * rays);
    GN_CHECK(st.unconfirmed == 0);
    /* (c) the mean of each eighth of the radius rises towards 1 */
    for (int b = 1; b < 8; b++)
        if (bin_n[b] && bin_n[b - 1]) GN_CHECK(bins[b] / bin_n[b] > bins[b - 1] / bin_n[b - 1]);
    GN_CHECK_NEAR(table[0], 0.5, 1e-3); /* the foot: half the cosine-weighted hemisphere is wall */
}

/* (d) sky and unconfirmed pixels; (e) the same bits again. */
static void check_skipped(const gn_truth *t, frame *fr)
{
    gn_error err = {0};
    gn_truth_stats st;
    /* a few floor pixels with a depth 30% nearer: no surface there for the primary ray */
    uint32_t moved = 0;
    for (size_t i = 0; i < W * H && moved < 10; i += 97)
        if (fr->depth[i] > 0.0f) fr->depth[i] /= 0.7f, moved++;
    GN_CHECK(gn_truth_ao(t, &fr->tf, NULL, ao, counted, &st, &err) == GN_OK);
    GN_CHECK(st.unconfirmed == moved && moved == 10);
    uint64_t sky = 0, surface = 0;
    for (size_t i = 0; i < W * H; i++) {
        if (fr->depth[i] > 0.0f) {
            surface++;
            continue;
        }
        sky++;
        GN_CHECK(ao[i] == 1.0f && counted[i] == 0);
    }
    uint64_t counted_px = 0;
    for (size_t i = 0; i < W * H; i++) counted_px += counted[i];
    GN_CHECK(counted_px == surface - moved);
    GN_CHECK(sky >= 1000);
    GN_CHECK(st.rays == counted_px * GN_TRUTH_AO_DEFAULT_RAYS); /* NULL desc: the defaults */
    GN_CHECK(gn_truth_ao(t, &fr->tf, NULL, ao_again, counted_again, NULL, &err) == GN_OK);
    GN_CHECK(memcmp(ao, ao_again, sizeof ao) == 0);
    GN_CHECK(memcmp(counted, counted_again, sizeof counted) == 0);
    GN_CHECK(gn_truth_ao(t, &fr->tf, NULL, ao_again, NULL, NULL, &err) == GN_OK); /* no mask: fine */
    GN_CHECK(memcmp(ao, ao_again, sizeof ao) == 0);
}

static void check_refusals(const gn_truth *t, const frame *fr)
{
    gn_error err = {0};
    gn_truth_ao_desc bad = {.radius = -1.0f};
    GN_CHECK(gn_truth_ao(t, &fr->tf, &bad, ao, NULL, NULL, &err) == GN_ERROR_INVALID_ARGUMENT);
    GN_CHECK(strstr(err.message, "radius") != NULL);
    bad = (gn_truth_ao_desc){.rays = GN_TRUTH_AO_MAX_RAYS + 1};
    GN_CHECK(gn_truth_ao(t, &fr->tf, &bad, ao, NULL, NULL, &err) == GN_ERROR_INVALID_ARGUMENT);
    GN_CHECK(gn_truth_ao(t, &fr->tf, NULL, NULL, NULL, NULL, &err) == GN_ERROR_INVALID_ARGUMENT);
    GN_CHECK(strstr(err.message, "gn_truth_ao") != NULL);
}

int main(void)
{
    gn_scene *s = build_scene();
    gn_error err = {0};
    gn_truth *t = gn_truth_create(s, &err);
    if (!t) {
        fprintf(stderr, "test_truth_ao: %s\n", err.message);
        return 1;
    }
    static frame fr;
    make_frame(&fr);
    check_curve(t, &fr, 1.0f, 64, 0.05, 0.006);
    check_curve(t, &fr, 1.0f, 512, 0.008, 0.001);
    check_curve(t, &fr, 2.0f, 64, 0.05, 0.006);
    check_skipped(t, &fr);
    check_refusals(t, &fr);
    gn_truth_destroy(t);
    gn_scene_destroy(s);
    return gn_test_result("test_truth_ao");
}

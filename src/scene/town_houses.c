/* Town blocks: rows of houses facing the streets, gardens behind them, and some parks.
 * A house is a handful of instances of shared meshes (walls, roof, chimney, windows, door,
 * shutters, arcade), so the town has many instances and little unique geometry. Wall and
 * roof meshes exist per quantised footprint, so textures keep their metre scale. */
#include "scene/town.h"

#include <math.h>

#define GN_FLOOR_H 3.2f     /* storey height */
#define GN_WALL_SINK 3.0f   /* walls reach this far below the floor to meet sloping ground */
#define GN_ROOF_SLOPE 0.70f /* tan(35 degrees) */
#define GN_ARCADE_DEPTH 3.0f
#define GN_HALF_PI 1.57079633f

static float gn_wall_height(int floors) { return (float)floors * GN_FLOOR_H + 0.5f; }

static gn_result gn_town_house_meshes(gn_town *t, int wi, int di, int floors, int gable)
{
    float w = 8.0f + 2.0f * (float)wi, d = 8.0f + 2.0f * (float)di, h = gn_wall_height(floors);
    float rise = GN_ROOF_SLOPE * 0.5f * d;
    GN_TOWN_LAZY(t->body[wi][di][floors - 2][gable], "town/house_walls",
                 gn_mg_house_body(&t->mg, w, d, h, GN_WALL_SINK, gable ? rise : 0.0f));
    GN_TOWN_LAZY(t->roof[wi][di][gable], "town/roof",
                 gable ? gn_mg_roof_gable(&t->mg, w, d, rise, 0.5f, 0.25f)
                       : gn_mg_roof_hip(&t->mg, w, d, rise, 0.5f, 0.25f));
    return GN_OK;
}

static gn_result gn_town_small_meshes(gn_town *t)
{
    const float wlo[3] = {-0.55f, -0.7f, -0.08f}, whi[3] = {0.55f, 0.7f, 0.08f};
    GN_TOWN_LAZY(t->window, "town/window", gn_mg_box(&t->mg, wlo, whi));
    const float dlo[3] = {-0.6f, 0.0f, -0.1f}, dhi[3] = {0.6f, 2.3f, 0.1f};
    GN_TOWN_LAZY(t->door, "town/door", gn_mg_box(&t->mg, dlo, dhi));
    const float l0[3] = {-1.2f, -0.72f, 0.05f}, l1[3] = {-0.62f, 0.72f, 0.1f};
    const float r0[3] = {0.62f, -0.72f, 0.05f}, r1[3] = {1.2f, 0.72f, 0.1f};
    GN_TOWN_LAZY(t->shutters, "town/shutters", (gn_mg_box(&t->mg, l0, l1), gn_mg_box(&t->mg, r0, r1)));
    const float slo[3] = {-0.7f, -0.07f, 0.0f}, shi[3] = {0.7f, 0.07f, 0.2f};
    GN_TOWN_LAZY(t->sill, "town/window_sill", gn_mg_box(&t->mg, slo, shi));
    const float clo[3] = {-0.35f, 0.0f, -0.35f}, chi[3] = {0.35f, 1.0f, 0.35f};
    GN_TOWN_LAZY(t->chimney, "town/chimney", gn_mg_box(&t->mg, clo, chi));
    return GN_OK;
}

/* A house frame: origin on the floor at the footprint's centre, local +Z towards the
 * street. Puts `mesh` at local (lx, ly, lz), turned by extra_yaw, scaled in y. */
typedef struct gn_house_frame {
    float x, y, z, yaw, c, s;
} gn_house_frame;

static gn_result gn_house_put(gn_town *t, const gn_house_frame *f, uint32_t mesh, uint32_t mat, float lx,
                              float ly, float lz, float extra_yaw, float sy)
{
    float m[16];
    gn_town_xf(m, f->x + f->c * lx + f->s * lz, f->y + ly, f->z - f->s * lx + f->c * lz, f->yaw + extra_yaw,
               1, sy, 1);
    return gn_town_put(t, mesh, mat, m, GN_INSTANCE_STATIC);
}

/* Records a lit window at local (lx, ly, lz) facing local direction (nx, 0, nz) as a light
 * site: the frame's turn applied as in gn_house_put. */
static gn_result gn_house_window_site(gn_town *t, const gn_house_frame *f, float lx, float ly, float lz,
                                      float nx, float nz)
{
    gn_light_site site = {.pos = {f->x + f->c * lx + f->s * lz, f->y + ly, f->z - f->s * lx + f->c * lz},
                          .dir = {f->c * nx + f->s * nz, 0, -f->s * nx + f->c * nz},
                          .kind = GN_LIGHT_SITE_WINDOW,
                          .instance = GN_LIGHT_NONE};
    return gn_scene_add_light_site(t->s, &site, t->err);
}

static float gn_frame_ground(const gn_town *t, const gn_house_frame *f, float lx, float lz)
{
    return gn_town_height(t, f->x + f->c * lx + f->s * lz, f->z - f->s * lx + f->c * lz);
}

/* One facade's windows (and the door on the front), at local z = zf facing outwards. */
typedef struct gn_facade_style {
    bool shutters, sills;
} gn_facade_style;

static gn_result gn_house_facade(gn_town *t, const gn_house_frame *f, float fw, float zf, bool front,
                                 int floors, gn_facade_style style)
{
    int cols = (int)((fw - 1.0f) / 2.6f);
    if (cols < 1) cols = 1;
    float step = fw / (float)cols, turn = front ? 0.0f : 2.0f * GN_HALF_PI;
    int door = front ? cols / 2 : -1;
    gn_result r = GN_OK;
    for (int fl = 0; fl < floors && r == GN_OK; fl++)
        for (int c = 0; c < cols && r == GN_OK; c++) {
            float x = -0.5f * fw + step * ((float)c + 0.5f);
            if (fl == 0 && c == door) {
                r = gn_house_put(t, f, t->door, t->m.wood, x, 0.0f, zf, turn, 1);
                continue;
            }
            float y = (float)fl * GN_FLOOR_H + 1.6f;
            /* Upper floors are lit more often: people are home at sunset. */
            bool lit = gn_rng_float(&t->rng) < (fl ? 0.3f : 0.15f);
            r = gn_house_put(t, f, t->window, lit ? t->m.lit : t->m.glass, x, y, zf, turn, 1);
            if (r == GN_OK && lit) r = gn_house_window_site(t, f, x, y, zf, 0, front ? 1.0f : -1.0f);
            if (r == GN_OK && style.shutters && fl > 0)
                r = gn_house_put(t, f, t->shutters, t->m.shutter, x, y, zf, turn, 1);
            if (r == GN_OK && style.sills)
                r = gn_house_put(t, f, t->sill, t->m.stone, x, y - 0.77f, zf, turn, 1);
        }
    return r;
}

/* Windows on the side wall at local x = side * fw / 2, for a house with no neighbour there. */
static gn_result gn_house_side(gn_town *t, const gn_house_frame *f, float fw, float fd, float side,
                               int floors, gn_facade_style style)
{
    int cols = (int)((fd - 1.0f) / 2.6f);
    float step = fd / (float)(cols < 1 ? 1 : cols), turn = side * GN_HALF_PI;
    gn_result r = GN_OK;
    for (int fl = 0; fl < floors && r == GN_OK; fl++)
        for (int c = 0; c < cols && r == GN_OK; c++) {
            float z = -0.5f * fd + step * ((float)c + 0.5f), y = (float)fl * GN_FLOOR_H + 1.6f;
            bool lit = gn_rng_float(&t->rng) < 0.2f;
            r = gn_house_put(t, f, t->window, lit ? t->m.lit : t->m.glass, side * 0.5f * fw, y, z, turn, 1);
            if (r == GN_OK && lit) r = gn_house_window_site(t, f, side * 0.5f * fw, y, z, side, 0);
            if (r == GN_OK && style.sills)
                r = gn_house_put(t, f, t->sill, t->m.stone, side * 0.5f * fw, y - 0.77f, z, turn, 1);
        }
    return r;
}

/* Returns GN_OK without building when the ground under the footprint is too steep.
 * open[0] / open[1]: no neighbour against the local -X / +X wall, so it gets windows. */
static gn_result gn_town_house(gn_town *t, float cx, float cz, float yaw, float fw, float fd, bool arcade,
                               const bool open[2])
{
    gn_house_frame f = {cx, 0, cz, yaw, cosf(yaw), sinf(yaw)};
    float front = 0.5f * fd + (arcade ? GN_ARCADE_DEPTH : 0.0f);
    float lo = 1e9f, hi = -1e9f;
    const float corner[5][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0}, {-0.5f, 0}, {0, 0}};
    for (int i = 0; i < 5; i++) {
        float lz = i == 2 || i == 3 ? front : corner[i][1] * fd;
        float g = gn_frame_ground(t, &f, corner[i][0] * fw, lz);
        lo = fminf(lo, g), hi = fmaxf(hi, g);
    }
    if (hi - lo > GN_WALL_SINK - 0.2f) return gn_town_bush(t, cx, cz, 1.2f);
    f.y = hi + 0.15f;

    gn_rng *rng = &t->rng;
    int floors = gn_rng_float(rng) < (arcade ? 0.6f : 0.4f) ? 3 : 2;
    int gable = gn_rng_float(rng) < 0.6f;
    /* Hip roofs want the ridge along the long side; some gables face the street. */
    bool turned = gable ? gn_rng_float(rng) < 0.3f : fw < fd;
    float mw = turned ? fd : fw, md = turned ? fw : fd, myaw = turned ? GN_HALF_PI : 0.0f;
    int wi = (int)((mw - 8.0f) * 0.5f + 0.5f), di = (int)((md - 8.0f) * 0.5f + 0.5f);
    gn_result r = gn_town_house_meshes(t, wi, di, floors, gable);
    if (r != GN_OK) return r;
    float h = gn_wall_height(floors), rise = GN_ROOF_SLOPE * 0.5f * md;
    uint32_t wall = gn_rng_float(rng) < 0.15f ? t->m.brick : t->m.plaster[gn_rng_below(rng, 5)];
    float rr = gn_rng_float(rng);
    uint32_t roof = t->m.roof[rr < 0.55f ? 0 : rr < 0.8f ? 1 : 2];
    r = gn_house_put(t, &f, t->body[wi][di][floors - 2][gable], wall, 0, 0, 0, myaw, 1);
    if (r == GN_OK) r = gn_house_put(t, &f, t->roof[wi][di][gable], roof, 0, h, 0, myaw, 1);

    if (r == GN_OK && gn_rng_float(rng) < 0.7f) {
        /* In the roof's own frame: behind the ridge, base under the slope, top above it. */
        float side = gn_rng_float(rng) < 0.5f ? -1.0f : 1.0f;
        float mx = gable ? side * 0.25f * mw : 0.0f, mz = -0.25f * md;
        float base = h + 0.5f * rise - 0.6f, top = h + rise + 1.0f;
        float lx = turned ? mz : mx, lz = turned ? -mx : mz; /* back into the house frame */
        r = gn_house_put(t, &f, t->chimney, t->m.brick, lx, base, lz, myaw, top - base);
    }
    gn_facade_style style = {wall != t->m.brick && gn_rng_float(rng) < 0.45f, gn_rng_float(rng) < 0.6f};
    if (r == GN_OK) r = gn_house_facade(t, &f, fw, 0.5f * fd, true, floors, style);
    if (r == GN_OK) r = gn_house_facade(t, &f, fw, -0.5f * fd, false, floors, style);
    for (int k = 0; k < 2 && r == GN_OK; k++)
        if (open[k]) r = gn_house_side(t, &f, fw, fd, k ? 1.0f : -1.0f, floors, style);
    if (r == GN_OK && arcade) {
        int ai = (int)((fw - 8.0f) * 0.5f + 0.5f);
        int bays = (int)(fw / 3.2f + 0.5f);
        GN_TOWN_LAZY(t->arcade[ai], "town/arcade",
                     gn_mg_arcade(&t->mg, fw, GN_ARCADE_DEPTH, GN_FLOOR_H + 0.7f, bays));
        /* The arcade's open side is its local -Z: turned to face the street. */
        r = gn_house_put(t, &f, t->arcade[ai], t->m.stone, 0.5f * fw, 0, 0.5f * fd + GN_ARCADE_DEPTH,
                         2 * GN_HALF_PI, 1);
    }
    return r;
}

/* Houses side by side along a block edge. e: a point on the street edge, a: along the
 * street, n: into the block; s0..s1: the stretch of the edge to fill. */
static gn_result gn_town_row(gn_town *t, const float e[2], const float a[2], const float n[2], float s0,
                             float s1, bool arcade)
{
    float setback = arcade ? 2.0f + GN_ARCADE_DEPTH : 2.0f, yaw = atan2f(-n[0], -n[1]);
    /* Which local side of a house faces the start of the row: local +X is (cos, -sin). */
    bool start_is_neg = cosf(yaw) * a[0] - sinf(yaw) * a[1] > 0;
    bool open_before = true; /* the block corner */
    gn_result r = GN_OK;
    for (float s = s0; s + 8.0f <= s1 && r == GN_OK;) {
        int fit = (int)((s1 - s - 8.0f) * 0.5f);
        int wi = (int)gn_rng_below(&t->rng, 4);
        if (wi > fit) wi = fit;
        float fw = 8.0f + 2.0f * (float)wi, fd = 8.0f + 2.0f * (float)gn_rng_below(&t->rng, 3);
        /* Row houses touch half the time; otherwise a narrow alley. */
        float gap = gn_rng_float(&t->rng) < 0.5f ? 0.0f : gn_rng_range(&t->rng, 1.0f, 2.5f);
        bool open_after = gap > 0 || s + fw + gap + 8.0f > s1;
        bool open[2] = {start_is_neg ? open_before : open_after, start_is_neg ? open_after : open_before};
        float along = s + 0.5f * fw, in = setback + 0.5f * fd;
        float cx = e[0] + a[0] * along + n[0] * in, cz = e[1] + a[1] * along + n[1] * in;
        if (!arcade && gn_rng_float(&t->rng) < 0.06f) { /* an empty lot with a tree */
            r = gn_town_tree(t, cx, cz, 0.8f, -1);
            open_after = true;
        } else {
            r = gn_town_house(t, cx, cz, yaw, fw, fd, arcade, open);
        }
        open_before = open_after;
        s += fw + gap;
    }
    return r;
}

static gn_result gn_town_garden(gn_town *t, float x0, float z0, float x1, float z1)
{
    gn_result r = GN_OK;
    int trees = 1 + (int)gn_rng_below(&t->rng, 3), bushes = 2 + (int)gn_rng_below(&t->rng, 4);
    for (int i = 0; i < trees && r == GN_OK; i++)
        r = gn_town_tree(t, gn_rng_range(&t->rng, x0 + 3, x1 - 3), gn_rng_range(&t->rng, z0 + 3, z1 - 3),
                         gn_rng_range(&t->rng, 0.6f, 0.9f), -1);
    for (int i = 0; i < bushes && r == GN_OK; i++)
        r = gn_town_bush(t, gn_rng_range(&t->rng, x0 + 1, x1 - 1), gn_rng_range(&t->rng, z0 + 1, z1 - 1),
                         gn_rng_range(&t->rng, 0.7f, 1.3f));
    if (r == GN_OK && gn_rng_float(&t->rng) < 0.35f) {
        r = gn_town_fence(t, x0, z0, x1, z0);
        if (r == GN_OK) r = gn_town_fence(t, x1, z0, x1, z1);
        if (r == GN_OK) r = gn_town_fence(t, x1, z1, x0, z1);
        if (r == GN_OK) r = gn_town_fence(t, x0, z1, x0, z0);
    }
    return r;
}

static gn_result gn_town_park(gn_town *t, float x0, float z0, float x1, float z1)
{
    gn_result r = GN_OK;
    /* Fenced on every side, with a gate in the middle of each. */
    float mx = 0.5f * (x0 + x1), mz = 0.5f * (z0 + z1), in = 1.0f, gate = 2.0f;
    const float seg[8][4] = {
        {x0 + in, z0 + in, mx - gate, z0 + in}, {mx + gate, z0 + in, x1 - in, z0 + in},
        {x1 - in, z0 + in, x1 - in, mz - gate}, {x1 - in, mz + gate, x1 - in, z1 - in},
        {x1 - in, z1 - in, mx + gate, z1 - in}, {mx - gate, z1 - in, x0 + in, z1 - in},
        {x0 + in, z1 - in, x0 + in, mz + gate}, {x0 + in, mz - gate, x0 + in, z0 + in},
    };
    for (int i = 0; i < 8 && r == GN_OK; i++)
        r = gn_town_fence(t, seg[i][0], seg[i][1], seg[i][2], seg[i][3]);
    const float cell = 6.5f;
    for (float z = z0 + 5; z < z1 - 5 && r == GN_OK; z += cell)
        for (float x = x0 + 5; x < x1 - 5 && r == GN_OK; x += cell) {
            float px = x + gn_rng_range(&t->rng, 0, cell * 0.7f),
                  pz = z + gn_rng_range(&t->rng, 0, cell * 0.7f);
            float roll = gn_rng_float(&t->rng);
            /* Keep the crossing paths from the gates open. */
            if (fabsf(px - mx) < 3.0f || fabsf(pz - mz) < 3.0f) continue;
            if (roll < 0.6f)
                r = gn_town_tree(t, px, pz, gn_rng_range(&t->rng, 0.8f, 1.2f), -1);
            else if (roll < 0.85f)
                r = gn_town_bush(t, px, pz, gn_rng_range(&t->rng, 0.8f, 1.5f));
        }
    return r;
}

gn_result gn_town_houses(gn_town *t)
{
    gn_result r = gn_town_small_meshes(t);
    const float P = GN_TOWN_STREET_PITCH, hw = GN_TOWN_STREET_HALF;
    for (int bj = -t->K; bj < t->K && r == GN_OK; bj++)
        for (int bi = -t->K; bi < t->K && r == GN_OK; bi++) {
            float x0 = P * (float)bi + hw, x1 = P * (float)(bi + 1) - hw;
            float z0 = P * (float)bj + hw, z1 = P * (float)(bj + 1) - hw, L = x1 - x0;
            if (bi == 0 && bj == 0) continue; /* the plaza */
            if (gn_rng_float(&t->rng) < 0.1f) {
                r = gn_town_park(t, x0, z0, x1, z1);
                continue;
            }
            /* The two streets along the plaza's north and south sides are arcaded near
             * the middle of town. */
            bool near = bi >= -2 && bi <= 2;
            bool arc_n = near && (bj == 0 || bj == 1), arc_s = near && (bj == -1 || bj == 0);
            const float ax[2] = {1, 0}, az[2] = {0, 1};
            const float en[2] = {x0, z0}, nn[2] = {0, 1}, es[2] = {x0, z1}, ns[2] = {0, -1};
            const float ew[2] = {x0, z0}, nw[2] = {1, 0}, ee[2] = {x1, z0}, ne[2] = {-1, 0};
            /* North and south rows run the full edge; west and east rows fill what the
             * corners leave (the deepest house plus setback is 17 m). */
            r = gn_town_row(t, en, ax, nn, 1.0f, L - 1.0f, arc_n);
            if (r == GN_OK) r = gn_town_row(t, es, ax, ns, 1.0f, L - 1.0f, arc_s);
            if (r == GN_OK) r = gn_town_row(t, ew, az, nw, 18.0f, L - 18.0f, false);
            if (r == GN_OK) r = gn_town_row(t, ee, az, ne, 18.0f, L - 18.0f, false);
            if (r == GN_OK) r = gn_town_garden(t, x0 + 18.5f, z0 + 18.5f, x1 - 18.5f, z1 - 18.5f);
        }
    return r;
}

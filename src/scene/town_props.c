/* Town props: trees and bushes, fences, lamp posts, telegraph and flag poles, the tower and
 * the moving balloons and carts. Thin things (poles, wires, fence rails, lamp arms) are
 * here on purpose: they are what shadow maps get wrong first. */
#include "base/gmath.h"
#include "scene/town.h"

#include <math.h>
#include <string.h>

static gn_result gn_put_static(gn_town *t, uint32_t mesh, uint32_t mat, float x, float y, float z, float yaw,
                               float sxz, float sy)
{
    float m[16];
    gn_town_xf(m, x, y, z, yaw, sxz, sy, sxz);
    return gn_town_put(t, mesh, mat, m, GN_INSTANCE_STATIC);
}

/* ---- vegetation ------------------------------------------------------------------------ */
static gn_result gn_tree_meshes(gn_town *t, int v)
{
    if (t->trunk[v] != GN_TOWN_NONE) return GN_OK;
    gn_mg_tree(&t->mg, &t->mg2, (gn_tree_kind)(v % GN_TREE_KIND_COUNT), t->seed * 31u + (uint32_t)v);
    gn_result r = gn_mg_commit(&t->mg, t->s, "town/tree_trunk", &t->trunk[v], t->err);
    if (r == GN_OK) {
        /* The crown went into the second builder; swap so commit sees it. */
        gn_mg tmp = t->mg;
        t->mg = t->mg2, t->mg2 = tmp;
        r = gn_mg_commit(&t->mg, t->s, "town/tree_crown", &t->crown[v], t->err);
    }
    return r;
}

gn_result gn_town_tree(gn_town *t, float x, float z, float size, int kind_hint)
{
    gn_rng *rng = &t->rng;
    int kind = kind_hint;
    if (kind < 0) {
        float k = gn_rng_float(rng);
        kind = k < 0.5f ? GN_TREE_ROUND : k < 0.8f ? GN_TREE_POPLAR : GN_TREE_CONIFER;
    }
    int v = kind + GN_TREE_KIND_COUNT * (int)gn_rng_below(rng, 2);
    gn_result r = gn_tree_meshes(t, v);
    if (r != GN_OK) return r;
    float yaw = gn_rng_range(rng, 0, 2 * GN_PI), s = size * gn_rng_range(rng, 0.85f, 1.15f);
    float sy = s * gn_rng_range(rng, 0.9f, 1.1f), y = gn_town_height(t, x, z);
    uint32_t crown = kind == GN_TREE_CONIFER ? t->m.conifer : t->m.leaves[gn_rng_float(rng) < 0.7f ? 0 : 1];
    r = gn_put_static(t, t->trunk[v], t->m.bark, x, y, z, yaw, s, sy);
    if (r == GN_OK) r = gn_put_static(t, t->crown[v], crown, x, y, z, yaw, s, sy);
    return r;
}

gn_result gn_town_bush(gn_town *t, float x, float z, float size)
{
    gn_rng *rng = &t->rng;
    uint32_t v = gn_rng_below(rng, 3);
    const float c[3] = {0, 0.45f, 0}, rad[3] = {1.3f, 0.95f, 1.3f};
    GN_TOWN_LAZY(t->bush[v], "town/bush", gn_mg_blob(&t->mg, c, rad, 1, 0.3f, t->seed * 7u + v));
    float roll = gn_rng_float(rng);
    uint32_t mat = roll < 0.5f ? t->m.leaves[0] : roll < 0.8f ? t->m.leaves[1] : t->m.conifer;
    return gn_put_static(t, t->bush[v], mat, x, gn_town_height(t, x, z), z, gn_rng_range(rng, 0, 2 * GN_PI),
                         size, size * gn_rng_range(rng, 0.7f, 1.1f));
}

/* An instance whose local X runs from a to b (both on the ground plus lift), Y stays
 * vertical and Z is horizontal: a shear that lets fences and wires follow slopes. */
static gn_result gn_put_span(gn_town *t, uint32_t mesh, uint32_t mat, const float a[3], const float b[3],
                             float len)
{
    float dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2], h = sqrtf(dx * dx + dz * dz);
    if (h < 1e-3f) return GN_OK;
    float m[16] = {dx / len, dy / len, dz / len, 0, 0, 1, 0, 0, -dz / h, 0, dx / h, 0, a[0], a[1], a[2], 1};
    return gn_town_put(t, mesh, mat, m, GN_INSTANCE_STATIC);
}

gn_result gn_town_fence(gn_town *t, float ax, float az, float bx, float bz)
{
    const float seg = 4.0f;
    GN_TOWN_LAZY(t->fence, "town/fence", gn_mg_fence(&t->mg, seg, 1.1f, 3));
    float len = sqrtf((bx - ax) * (bx - ax) + (bz - az) * (bz - az));
    int n = (int)ceilf(len / seg - 0.01f);
    gn_result r = GN_OK;
    for (int i = 0; i < n && r == GN_OK; i++) {
        float u0 = (float)i / (float)n, u1 = (float)(i + 1) / (float)n;
        float p[3] = {ax + (bx - ax) * u0, 0, az + (bz - az) * u0},
              q[3] = {ax + (bx - ax) * u1, 0, az + (bz - az) * u1};
        p[1] = gn_town_height(t, p[0], p[2]), q[1] = gn_town_height(t, q[0], q[2]);
        r = gn_put_span(t, t->fence, t->m.weathered, p, q, seg);
    }
    return r;
}

gn_result gn_town_forest(gn_town *t)
{
    const float cell = 7.0f, edge = t->W - 3.0f, inner = t->T + 12.0f;
    float ph0 = gn_rng_range(&t->rng, 0, 6.3f), ph1 = gn_rng_range(&t->rng, 0, 6.3f);
    gn_result r = GN_OK;
    for (float z = -edge; z < edge && r == GN_OK; z += cell)
        for (float x = -edge; x < edge && r == GN_OK; x += cell) {
            float px = x + gn_rng_range(&t->rng, 0, cell * 0.8f),
                  pz = z + gn_rng_range(&t->rng, 0, cell * 0.8f);
            float keep = gn_rng_float(&t->rng), kind = gn_rng_float(&t->rng);
            if (fmaxf(fabsf(px), fabsf(pz)) < inner) continue;
            if (px < -t->T && fabsf(pz) < 9.0f) continue; /* the country road and its poles */
            if (px > edge || pz > edge) continue;
            /* Woods and clearings: density follows two slow waves. */
            float dens = 0.62f + 0.38f * sinf(px * 0.019f + ph0) * sinf(pz * 0.023f + ph1);
            if (keep > dens) {
                if (keep < dens + 0.1f) r = gn_town_bush(t, px, pz, gn_rng_range(&t->rng, 0.8f, 1.6f));
                continue;
            }
            /* Conifers take over up the hills. */
            float hill = gn_town_height(t, px, pz) - t->plaza_h;
            int k = kind < 0.3f + fminf(0.3f, 0.008f * hill) ? GN_TREE_CONIFER
                    : kind < 0.88f                           ? GN_TREE_ROUND
                                                             : GN_TREE_POPLAR;
            r = gn_town_tree(t, px, pz, gn_rng_range(&t->rng, 0.8f, 1.35f), k);
        }
    return r;
}

/* ---- lamps and poles ------------------------------------------------------------------- */
gn_result gn_town_lamps(gn_town *t)
{
    const float height = 4.8f;
    if (t->lamp_pole == GN_TOWN_NONE) {
        gn_mg_lamp_post(&t->mg, &t->mg2, height);
        gn_result r = gn_mg_commit(&t->mg, t->s, "town/lamp_post", &t->lamp_pole, t->err);
        gn_mg tmp = t->mg;
        t->mg = t->mg2, t->mg2 = tmp;
        if (r == GN_OK) r = gn_mg_commit(&t->mg, t->s, "town/lamp_head", &t->lamp_head, t->err);
        if (r != GN_OK) return r;
    }
    const float off = GN_TOWN_STREET_HALF + 0.7f;
    gn_result r = GN_OK;
    for (int k = -t->K; k <= t->K && r == GN_OK; k++)
        for (int axis = 0; axis < 2 && r == GN_OK; axis++) {
            float c = GN_TOWN_STREET_PITCH * (float)k;
            /* Every 30 m, halfway between crossings, on alternating sides. */
            int i = 0;
            for (float s = -t->T + 15.0f; s < t->T && r == GN_OK; s += 30.0f, i++) {
                float side = (i + k) & 1 ? 1.0f : -1.0f;
                float x = axis ? c + side * off : s, z = axis ? s : c + side * off;
                /* The arm (local +X) reaches out over the street. */
                float dx = axis ? -side : 0, dz = axis ? 0 : -side, yaw = atan2f(-dz, dx);
                float y = gn_town_height(t, x, z);
                r = gn_put_static(t, t->lamp_pole, t->m.metal, x, y, z, yaw, 1, 1);
                if (r == GN_OK) r = gn_put_static(t, t->lamp_head, t->m.glow, x, y, z, yaw, 1, 1);
                /* gn_mg_lamp_post hangs the glass 0.95 m out along the arm, 0.2-0.55 m under
                 * the top; the light sits just below it, so the glass does not shadow it. */
                gn_light_site site = {.pos = {x + 0.95f * dx, y + height - 0.6f, z + 0.95f * dz},
                                      .dir = {dx, 0, dz},
                                      .kind = GN_LIGHT_SITE_LAMP,
                                      .instance = GN_LIGHT_NONE};
                if (r == GN_OK) r = gn_scene_add_light_site(t->s, &site, t->err);
            }
        }
    return r;
}

/* A line of telegraph poles from a to b with two wires between neighbours. */
static gn_result gn_town_pole_line(gn_town *t, float ax, float az, float bx, float bz, float spacing)
{
    const float bar_y = 8.6f, bar = 0.8f;
    float len = sqrtf((bx - ax) * (bx - ax) + (bz - az) * (bz - az));
    if (len < 1.0f) return GN_OK;
    int n = (int)(len / spacing) + 1;
    float ux = (bx - ax) / len, uz = (bz - az) / len, yaw = atan2f(-uz, ux);
    float prev[2][3];
    gn_result r = GN_OK;
    for (int i = 0; i < n && r == GN_OK; i++) {
        float x = ax + ux * spacing * (float)i, z = az + uz * spacing * (float)i, y = gn_town_height(t, x, z);
        r = gn_put_static(t, t->tpole, t->m.weathered, x, y, z, yaw, 1, 1);
        /* Crossbar ends, across the line: local Z is (-uz, ux) in plan for this yaw. */
        float ends[2][3] = {{x - uz * bar, y + bar_y + 0.08f, z + ux * bar},
                            {x + uz * bar, y + bar_y + 0.08f, z - ux * bar}};
        for (int w = 0; w < 2 && r == GN_OK && i > 0; w++)
            r = gn_put_span(t, t->wire, t->m.metal, prev[w], ends[w], 1.0f);
        memcpy(prev, ends, sizeof prev);
    }
    return r;
}

gn_result gn_town_poles(gn_town *t)
{
    const float base[3] = {0, -0.6f, 0}, blo[3] = {-0.06f, 8.54f, -0.9f}, bhi[3] = {0.06f, 8.66f, 0.9f};
    GN_TOWN_LAZY(t->tpole, "town/telegraph_pole",
                 (gn_mg_frustum(&t->mg, base, 0.14f, 0.1f, 9.6f, 7, true), gn_mg_box(&t->mg, blo, bhi)));
    const float wlo[3] = {0, -0.015f, -0.015f}, whi[3] = {1, 0.015f, 0.015f};
    GN_TOWN_LAZY(t->wire, "town/wire", gn_mg_box(&t->mg, wlo, whi));
    float o = t->T + 7.5f;
    gn_result r = gn_town_pole_line(t, -t->T - 12.0f, 6.5f, -t->W + 8.0f, 6.5f, 35.0f);
    /* Round the town on the outer side of the ring street, one line per side. */
    if (r == GN_OK) r = gn_town_pole_line(t, -o, -o, o, -o, 35.0f);
    if (r == GN_OK) r = gn_town_pole_line(t, o, -o + 5, o, o, 35.0f);
    if (r == GN_OK) r = gn_town_pole_line(t, o - 5, o, -o, o, 35.0f);
    if (r == GN_OK) r = gn_town_pole_line(t, -o, o - 5, -o, -o + 5, 35.0f);

    /* Flag poles on the plaza's diagonals, clear of the carts' circles. */
    const float fb[3] = {0, -0.5f, 0}, flo[3] = {0.05f, 11.6f, -0.01f}, fhi[3] = {1.85f, 12.7f, 0.01f};
    GN_TOWN_LAZY(t->flagpole, "town/flag_pole", gn_mg_frustum(&t->mg, fb, 0.08f, 0.05f, 13.5f, 8, true));
    uint32_t flag = GN_TOWN_NONE;
    GN_TOWN_LAZY(flag, "town/flag", gn_mg_box(&t->mg, flo, fhi));
    for (int i = 0; i < 4 && r == GN_OK; i++) {
        float x = t->tower[0] + (i & 1 ? 17.0f : -17.0f), z = t->tower[1] + (i & 2 ? 17.0f : -17.0f);
        float y = gn_town_height(t, x, z), yaw = 0.3f * (float)i;
        r = gn_put_static(t, t->flagpole, t->m.metal, x, y, z, 0, 1, 1);
        if (r == GN_OK) r = gn_put_static(t, flag, t->m.fabric[i & 1], x, y, z, yaw, 1, 1);
        if (r == GN_OK)
            r = gn_town_tree(t, t->tower[0] + (i & 1 ? 22.0f : -22.0f),
                             t->tower[1] + (i & 2 ? 22.0f : -22.0f), 0.9f, GN_TREE_ROUND);
    }
    return r;
}

/* ---- the tower ------------------------------------------------------------------------- */
gn_result gn_town_tower(gn_town *t)
{
    const float half = 3.5f, shaft = 50.0f, belfry = 8.0f;
    float x = t->tower[0], z = t->tower[1], y = t->plaza_h;
    uint32_t shaft_m = GN_TOWN_NONE, plinth_m = GN_TOWN_NONE, cornice_m = GN_TOWN_NONE,
             loggia_m = GN_TOWN_NONE;
    uint32_t spire_m = GN_TOWN_NONE;
    const float slo[3] = {-half, -3.0f, -half}, shi[3] = {half, shaft, half};
    GN_TOWN_LAZY(shaft_m, "town/tower_shaft", gn_mg_box(&t->mg, slo, shi));
    const float plo[3] = {-half - 1, -1.0f, -half - 1}, phi[3] = {half + 1, 1.2f, half + 1};
    GN_TOWN_LAZY(plinth_m, "town/tower_plinth", gn_mg_box(&t->mg, plo, phi));
    const float clo[3] = {-half - 0.4f, 0, -half - 0.4f}, chi[3] = {half + 0.4f, 0.6f, half + 0.4f};
    GN_TOWN_LAZY(cornice_m, "town/tower_cornice", gn_mg_box(&t->mg, clo, chi));
    GN_TOWN_LAZY(loggia_m, "town/tower_belfry", gn_mg_arcade(&t->mg, 2 * half, 0.6f, belfry, 2));
    /* A four-sided cone turned 45 degrees is a square pyramid. */
    const float sb[3] = {0, 0, 0};
    GN_TOWN_LAZY(spire_m, "town/tower_spire",
                 gn_mg_frustum(&t->mg, sb, (half + 0.4f) * 1.4142f, 0, 17.0f, 4, true));

    gn_result r = gn_put_static(t, shaft_m, t->m.brick, x, y, z, 0, 1, 1);
    if (r == GN_OK) r = gn_put_static(t, plinth_m, t->m.stone, x, y, z, 0, 1, 1);
    float yb = y + shaft + 0.6f;
    if (r == GN_OK) r = gn_put_static(t, cornice_m, t->m.stone, x, y + shaft, z, 0, 1, 1);
    /* Four arcades make the open belfry; each one's open side (local -Z) faces out. */
    for (int i = 0; i < 4 && r == GN_OK; i++) {
        float yaw = 0.5f * GN_PI * (float)i, c = cosf(yaw), s = sinf(yaw);
        /* Local (0, 0, 0) of the arcade is its outer left corner: (-half, -half) turned. */
        float lx = -half, lz = -half;
        r = gn_put_static(t, loggia_m, t->m.stone, x + c * lx + s * lz, yb, z - s * lx + c * lz, yaw, 1, 1);
    }
    if (r == GN_OK) r = gn_put_static(t, cornice_m, t->m.stone, x, yb + belfry, z, 0, 1, 1);
    if (r == GN_OK) r = gn_put_static(t, spire_m, t->m.copper, x, yb + belfry + 0.6f, z, 0.25f * GN_PI, 1, 1);
    return r;
}

/* ---- moving things --------------------------------------------------------------------- */
/* lantern: where a built-in light rides along, in the mesh's space; NULL for none. */
static gn_result gn_town_orbiter(gn_town *t, uint32_t mesh, uint32_t mat, const gn_orbit *o,
                                 const float lantern[3])
{
    gn_instance_desc d = {.mesh = mesh, .material = mat, .flags = GN_INSTANCE_DYNAMIC};
    gn_town_xf(d.transform, o->center[0] + o->radius, o->center[1], o->center[2], 0, 1, 1, 1);
    gn_orbit orbit = *o;
    gn_result r = gn_scene_add_instance(t->s, &d, &orbit.instance, t->err);
    if (r == GN_OK) r = gn_scene_add_orbit(t->s, &orbit, t->err);
    if (r == GN_OK && lantern) {
        gn_light_site site = {.pos = {lantern[0], lantern[1], lantern[2]},
                              .kind = GN_LIGHT_SITE_VEHICLE,
                              .instance = orbit.instance};
        r = gn_scene_add_light_site(t->s, &site, t->err);
    }
    return r;
}

/* A basket hanging 11 m under the envelope's centre, with four ropes up into it. */
static void gn_build_basket(gn_mg *b)
{
    const float blo[3] = {-0.7f, -12.0f, -0.7f}, bhi[3] = {0.7f, -10.9f, 0.7f};
    gn_mg_box(b, blo, bhi);
    for (int i = 0; i < 4; i++) {
        float cx = i & 1 ? 0.62f : -0.62f, cz = i & 2 ? 0.62f : -0.62f;
        const float rlo[3] = {cx - 0.02f, -10.9f, cz - 0.02f}, rhi[3] = {cx + 0.02f, -7.6f, cz + 0.02f};
        gn_mg_box(b, rlo, rhi);
    }
}

/* A hand cart, forward along +X (the direction gn_scene_animate moves it). */
static void gn_build_cart(gn_mg *b)
{
    const float lo[3] = {-1.2f, 0.55f, -0.65f}, hi[3] = {1.2f, 1.15f, 0.65f};
    const float slo[3] = {1.2f, 0.7f, -0.05f}, shi[3] = {2.6f, 0.8f, 0.05f};
    gn_mg_box(b, lo, hi);
    gn_mg_box(b, slo, shi);
    for (int i = 0; i < 4; i++) {
        /* Wheels turn about Z: the frustum's axis (+Y) laid along +Z. */
        float wx = i & 1 ? 0.8f : -0.8f, wz = i & 2 ? 0.66f : -0.78f;
        const float m[16] = {1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, wx, 0.45f, wz, 1};
        const float o[3] = {0, 0, 0};
        gn_mg_set_matrix(b, m);
        gn_mg_frustum(b, o, 0.45f, 0.45f, 0.12f, 10, true);
    }
    gn_mg_set_matrix(b, NULL);
}

gn_result gn_town_movers(gn_town *t)
{
    uint32_t envelope = GN_TOWN_NONE, basket = GN_TOWN_NONE, cart = GN_TOWN_NONE;
    const float ec[3] = {0, 0, 0}, er[3] = {7.0f, 8.5f, 7.0f};
    GN_TOWN_LAZY(envelope, "town/balloon", gn_mg_blob(&t->mg, ec, er, 3, 0.03f, t->seed));
    GN_TOWN_LAZY(basket, "town/balloon_basket", gn_build_basket(&t->mg));
    GN_TOWN_LAZY(cart, "town/cart", gn_build_cart(&t->mg));
    gn_result r = GN_OK;
    for (int i = 0; i < 4 && r == GN_OK; i++) {
        gn_orbit o = {0};
        o.center[0] = t->plaza[0], o.center[1] = t->plaza_h + 95.0f + 12.0f * (float)i,
        o.center[2] = t->plaza[1];
        o.radius = 130.0f + 30.0f * (float)i;
        o.speed = (i & 1 ? -0.025f : 0.025f) * (1.0f + 0.2f * (float)i);
        o.phase = gn_rng_range(&t->rng, 0, 2 * GN_PI), o.bob = 2.5f;
        /* The burner's glow, between the envelope's mouth (-8.5 m) and the basket. */
        const float burner[3] = {0, -9.6f, 0};
        r = gn_town_orbiter(t, envelope, t->m.fabric[i & 1], &o, burner);
        if (r == GN_OK) r = gn_town_orbiter(t, basket, t->m.wood, &o, NULL);
    }
    for (int i = 0; i < 2 && r == GN_OK; i++) {
        gn_orbit o = {0};
        o.center[0] = t->tower[0], o.center[1] = t->plaza_h, o.center[2] = t->tower[1];
        o.radius = i ? 20.0f : 15.0f, o.speed = i ? -0.2f : 0.25f;
        o.phase = gn_rng_range(&t->rng, 0, 2 * GN_PI);
        const float lantern[3] = {0, 1.9f, 0}; /* on a pole over the cart's bed */
        r = gn_town_orbiter(t, cart, t->m.wood, &o, lantern);
    }
    if (r == GN_OK) gn_scene_animate(t->s, 0.0);
    return r;
}

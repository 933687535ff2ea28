/* Reflection probes' decisions (decide/probes.c) in an analytic scene: a room 20 x 5 x 40 m cut in
 * two by a wall at z = 0. Placement keeps its spacing and fits each probe's box to the room's
 * walls (or the extent in the open), the grid covers the bounds with no candidates, a surface
 * reflects the nearest probe it can see (not a nearer one behind the wall), the weight fades at
 * the faces, the box projection looks up the point of the box the reflected ray meets, and a
 * solid pillar keeps probes out of its inside while an object within it still finds one. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "decide/probes.h"

static const float ROOM_LO[3] = {-10, 0, -20}, ROOM_HI[3] = {10, 5, 20};
static const float WALL_LO[3] = {-10, 0, -0.1f}, WALL_HI[3] = {10, 5, 0.1f};
static const float PILLAR_LO[3] = {5, 0, -11}, PILLAR_HI[3] = {7, 5, -9};

/* Entry distance of o + t d into an axis-aligned box, or INFINITY. */
static float box_enter(const float lo[3], const float hi[3], const float o[3], const float d[3])
{
    float t0 = 0.0f, t1 = INFINITY;
    for (int a = 0; a < 3; a++) {
        if (d[a] == 0.0f) {
            if (o[a] < lo[a] || o[a] > hi[a]) return INFINITY;
            continue;
        }
        float ta = (lo[a] - o[a]) / d[a], tb = (hi[a] - o[a]) / d[a];
        if (ta > tb) {
            float x = ta;
            ta = tb, tb = x;
        }
        t0 = fmaxf(t0, ta), t1 = fminf(t1, tb);
    }
    return t0 <= t1 ? t0 : INFINITY;
}

/* The room's walls from inside, and the dividing wall. */
static float room_ray(void *user, const float o[3], const float d[3], float tmax, bool *back)
{
    int *open = user;
    *back = false; /* the room's walls face in, the dividing wall both ways */
    float t = tmax;
    if (*open == 2) { /* the open, with a solid pillar whose faces face out */
        int in = 1;
        for (int a = 0; a < 3; a++) in &= o[a] > PILLAR_LO[a] && o[a] < PILLAR_HI[a];
        if (!in) return fminf(t, box_enter(PILLAR_LO, PILLAR_HI, o, d));
        for (int a = 0; a < 3; a++) { /* from inside: the way out meets a face's back */
            if (d[a] > 0.0f) t = fminf(t, (PILLAR_HI[a] - o[a]) / d[a]);
            if (d[a] < 0.0f) t = fminf(t, (PILLAR_LO[a] - o[a]) / d[a]);
        }
        *back = t < tmax;
        return t;
    }
    if (!*open) {
        for (int a = 0; a < 3; a++) {
            if (d[a] > 0.0f) t = fminf(t, (ROOM_HI[a] - o[a]) / d[a]);
            if (d[a] < 0.0f) t = fminf(t, (ROOM_LO[a] - o[a]) / d[a]);
        }
        t = fminf(t, box_enter(WALL_LO, WALL_HI, o, d));
    }
    return t;
}

int main(void)
{
    int open = 0;
    gn_probe_settings s = gn_probe_settings_resolve(&(gn_probe_settings){.max_extent = 30.0f});
    CHECK(s.spacing == 8.0f && s.fade == 1.0f && s.max_probes == GN_PROBES_MAX, "defaults %g %g %u",
          s.spacing, s.fade, s.max_probes);
    /* (1) candidates every 3 m along the room's axis: placed 8 m apart at least, boxes to the walls */
    float cand[13][3];
    for (int i = 0; i < 13; i++) cand[i][0] = 0, cand[i][1] = 2, cand[i][2] = -18.0f + 3.0f * (float)i;
    gn_probe p[GN_PROBES_MAX];
    uint32_t n = gn_probes_place(&s, (const float(*)[3])cand, 13, ROOM_LO, ROOM_HI, 2.0f, room_ray, &open, p);
    CHECK(n >= 4 && n <= 5, "%u probes placed from 13 candidates 3 m apart", n);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            float dz = p[i].position[2] - p[j].position[2];
            CHECK(fabsf(dz) >= 8.0f, "probes %u and %u only %g m apart", i, j, fabsf(dz));
        }
    /* the first, at z = -18, sees the room's walls and the dividing wall */
    const float want_lo[3] = {-10, 0, -20}, want_hi[3] = {10, 5, -0.1f};
    for (int a = 0; a < 3; a++)
        CHECK(fabsf(p[0].box_min[a] - want_lo[a]) < 1e-4f && fabsf(p[0].box_max[a] - want_hi[a]) < 1e-4f,
              "probe 0 axis %d box %g..%g, want %g..%g", a, p[0].box_min[a], p[0].box_max[a], want_lo[a],
              want_hi[a]);
    /* in the open a box is the extent */
    open = 1;
    n = gn_probes_place(&s, (const float(*)[3])cand, 1, ROOM_LO, ROOM_HI, 2.0f, room_ray, &open, p);
    CHECK(n == 1 && p[0].box_max[0] == 30.0f && p[0].box_min[1] == -28.0f, "open box %g %g", p[0].box_max[0],
          p[0].box_min[1]);
    /* (2) no candidates: a grid of the bounds' cells at the height */
    n = gn_probes_place(&s, NULL, 0, (const float[3]){0, 0, 0}, (const float[3]){40, 10, 40}, 3.0f, room_ray,
                        &open, p);
    CHECK(n == 25 && p[0].position[0] == 4.0f && p[0].position[1] == 3.0f && p[24].position[2] == 36.0f,
          "grid: %u probes, first at (%g %g %g)", n, p[0].position[0], p[0].position[1], p[0].position[2]);
    /* (3) the nearest visible: B is nearer the point but behind the wall */
    open = 0;
    const float pa[3] = {0, 2, -10}, pb[3] = {0, 2, 3};
    gn_probe two[2];
    n = gn_probes_place(&s, (const float(*)[3])(const float[2][3]){{0, 2, -10}, {0, 2, 3}}, 2, ROOM_LO,
                        ROOM_HI, 2.0f, room_ray, &open, two);
    CHECK(n == 2 && two[0].position[2] == pa[2] && two[1].position[2] == pb[2], "two probes");
    const float here[4] = {0, 1, -1, 0}, there[4] = {0, 1, 1, 0};
    CHECK(gn_probe_choose(two, 2, here, room_ray, &open) == 0, "the hidden nearer probe was chosen");
    CHECK(gn_probe_choose(two, 2, there, room_ray, &open) == 1, "the visible probe beyond the wall");
    CHECK(gn_probe_choose(two, 0, here, room_ray, &open) == -1, "no probes: the sky");
    /* (4) the weight: 1 inside and on the faces (the walls the box was fitted to), linear over the
     * fade outside, 0 beyond */
    const float mid[3] = {0, 2.5f, -10}, on_wall[3] = {10, 2.5f, -10}, floor_pt[3] = {3, 0, -10},
                half_out[3] = {10.5f, 2.5f, -10}, corner_out[3] = {10.5f, -0.75f, -10},
                out[3] = {11, 2.5f, -10};
    CHECK(gn_probe_weight(&two[0], mid, 1.0f) == 1.0f, "deep inside %g", gn_probe_weight(&two[0], mid, 1.0f));
    CHECK(gn_probe_weight(&two[0], on_wall, 1.0f) == 1.0f && gn_probe_weight(&two[0], floor_pt, 1.0f) == 1.0f,
          "a wall and the floor the box was fitted to: %g %g", gn_probe_weight(&two[0], on_wall, 1.0f),
          gn_probe_weight(&two[0], floor_pt, 1.0f));
    CHECK(fabsf(gn_probe_weight(&two[0], half_out, 1.0f) - 0.5f) < 1e-5f, "0.5 m outside a face %g",
          gn_probe_weight(&two[0], half_out, 1.0f));
    CHECK(fabsf(gn_probe_weight(&two[0], corner_out, 1.0f) - 0.25f) < 1e-5f,
          "outside two faces: the farther %g", gn_probe_weight(&two[0], corner_out, 1.0f));
    CHECK(gn_probe_weight(&two[0], out, 1.0f) == 0.0f, "a fade outside");
    /* (4b) per pixel, two rooms 1 m apart: a floor spanning both chose probe 1; its part in the
     * other room reflects probe 0, the middle of the gap both by 0.5 (the chosen one, else the
     * nearer) */
    const gn_probe rooms[2] = {{.position = {0, 2, -10}, .box_min = {-10, 0, -20}, .box_max = {10, 5, -0.5f}},
                               {.position = {0, 2, 3}, .box_min = {-10, 0, 0.5f}, .box_max = {10, 5, 20}}};
    float w = 0.0f;
    const float floor_a[3] = {0, 0, -5}, gap[3] = {0, 2, 0}, away[3] = {0, 0, 50};
    CHECK(gn_probe_at(rooms, 2, 1, floor_a, 1.0f, &w) == 0 && w == 1.0f, "the other room's box: %g", w);
    CHECK(gn_probe_at(rooms, 2, 0, floor_a, 1.0f, &w) == 0 && w == 1.0f, "its own");
    CHECK(gn_probe_at(rooms, 2, 0, gap, 1.0f, &w) == 0 && w == 0.5f, "a tie keeps the chosen %g", w);
    CHECK(gn_probe_at(rooms, 2, -1, gap, 1.0f, &w) == 1 && w == 0.5f, "a tie without a choice: the nearer");
    CHECK(gn_probe_at(rooms, 2, 1, away, 1.0f, &w) == -1 && w == 0.0f, "no box reaches it");
    /* (5) box projection: from the probe itself the direction is unchanged; from elsewhere it
     * points at the box point the ray meets */
    const float d0[3] = {0.6f, 0.0f, -0.8f};
    float o[3];
    gn_probe_parallax(&two[0], two[0].position, d0, o);
    CHECK(fabsf(o[0] - d0[0]) < 1e-5f && fabsf(o[2] - d0[2]) < 1e-5f, "from the probe (%g %g %g)", o[0], o[1],
          o[2]);
    const float q[3] = {5, 1, -5};
    gn_probe_parallax(&two[0], q, d0, o);
    /* the ray from q meets x = 10 at t = 8.33 (z = -11.67) before z = -20 */
    float hit[3] = {q[0] + 8.333333f * d0[0], q[1], q[2] + 8.333333f * d0[2]}, h[3], len = 0;
    for (int a = 0; a < 3; a++) h[a] = hit[a] - two[0].position[a], len += h[a] * h[a];
    for (int a = 0; a < 3; a++) h[a] /= sqrtf(len);
    CHECK(fabsf(o[0] - h[0]) < 1e-4f && fabsf(o[1] - h[1]) < 1e-4f && fabsf(o[2] - h[2]) < 1e-4f,
          "box projection (%g %g %g), want (%g %g %g)", o[0], o[1], o[2], h[0], h[1], h[2]);
    /* (6) a solid pillar in the open: a candidate inside it is skipped; an object inside it (its
     * centre in the solid) still reflects the probe its side can see */
    open = 2;
    n = gn_probes_place(&s, (const float(*)[3])(const float[2][3]){{6, 2, -10}, {0, 2, -10}}, 2, ROOM_LO,
                        ROOM_HI, 2.0f, room_ray, &open, two);
    CHECK(n == 1 && two[0].position[0] == 0.0f && two[0].box_max[0] == 5.0f, "%u probes, box to x %g", n,
          n ? two[0].box_max[0] : 0.0f);
    const float statue[4] = {6, 2, -10, 1.5f}, statue_point[4] = {6, 2, -10, 0};
    CHECK(gn_probe_choose(two, 1, statue, room_ray, &open) == 0, "the object in the pillar sees the probe");
    CHECK(gn_probe_choose(two, 1, statue_point, room_ray, &open) == -1, "its centre sees nothing");
    return gn_check_exit();
}

/* Draw list: culling against an independent geometric test, grouping, batching, determinism. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decide/camera.h"
#include "decide/drawlist.h"

#define DEG 0.017453292519943295f
#define N 10000u
#define NEAR_M 0.5f

static uint32_t rng_next(uint32_t *s)
{
    /* xorshift32: deterministic, good enough to scatter test items */
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static float rng_float(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng_next(s) >> 8) / 16777216.0f;
}

/* Camera at the origin looking down -Z, 90 degree fov, square: signed distances (metres) to the
 * five planes are written out by hand, independent of the frustum code. */
static float min_plane_distance(const float c[3])
{
    float d = -c[2], s = 0.70710678f;
    float dist[5] = {(d - c[0]) * s, (d + c[0]) * s, (d - c[1]) * s, (d + c[1]) * s, d - NEAR_M};
    float m = dist[0];
    for (int i = 1; i < 5; i++) m = fminf(m, dist[i]);
    return m;
}

static void make_items(gn_cull_item *items, uint32_t n, uint32_t pipelines, uint32_t seed)
{
    uint32_t s = seed;
    for (uint32_t i = 0; i < n; i++) {
        gn_cull_item *it = &items[i];
        do { /* keep spheres off the plane boundaries by 1 mm so float rounding cannot flip them */
            for (int k = 0; k < 3; k++) it->sphere[k] = rng_float(&s, -100.0f, 100.0f);
            it->sphere[3] = rng_float(&s, 0.1f, 5.0f);
        } while (fabsf(min_plane_distance(it->sphere) + it->sphere[3]) < 1e-3f);
        it->material = rng_next(&s) % 5u;
        it->mesh = rng_next(&s) % 20u;
        it->pipeline = pipelines ? rng_next(&s) % pipelines : it->material % 2u; /* 0: tied to material */
        it->instance = i;
    }
}

typedef struct lists {
    uint32_t instances[N];
    gn_draw_group groups[N];
    gn_draw_batch batches[N];
    uint64_t keys[N];
    gn_draw_list list;
} lists;

static gn_draw_list *bind(lists *l)
{
    l->list = (gn_draw_list){
        .instances = l->instances, .groups = l->groups, .batches = l->batches, .scratch_keys = l->keys};
    return &l->list;
}

static void test_sort_key(void)
{
    CHECK(gn_sort_key(1, 0, 0, 0) == 1ull << 60, "pipeline 1 key %llx",
          (unsigned long long)gn_sort_key(1, 0, 0, 0));
    CHECK(gn_sort_key(15, 4095, (1u << 20) - 1, (1u << 28) - 1) == ~0ull, "all-max key is not all ones");
    uint32_t s = 7;
    for (int i = 0; i < 100000; i++) {
        /* Small ranges so that ties in the leading fields are frequent. */
        uint32_t a[4] = {rng_next(&s) % 3, rng_next(&s) % 3, rng_next(&s) % 3, rng_next(&s) % 3};
        uint32_t b[4] = {rng_next(&s) % 3, rng_next(&s) % 3, rng_next(&s) % 3, rng_next(&s) % 3};
        if (i & 1) { /* and large values to exercise the top bits of each field */
            a[0] += 12, a[1] += 4090, a[2] += (1u << 20) - 3, a[3] += (1u << 28) - 3;
            b[0] += 12, b[1] += 4090, b[2] += (1u << 20) - 3, b[3] += (1u << 28) - 3;
        }
        int lex = 0;
        for (int k = 0; k < 4 && lex == 0; k++) lex = (a[k] > b[k]) - (a[k] < b[k]);
        uint64_t ka = gn_sort_key(a[0], a[1], a[2], a[3]), kb = gn_sort_key(b[0], b[1], b[2], b[3]);
        int by_key = (ka > kb) - (ka < kb);
        CHECK(lex == by_key, "(%u,%u,%u,%u) vs (%u,%u,%u,%u): lexicographic %d, key %d", a[0], a[1], a[2],
              a[3], b[0], b[1], b[2], b[3], lex, by_key);
        if (lex != by_key) break;
    }
}

/* Structural invariants of a list built from items, f: see the header. */
static void check_list(const gn_cull_item *items, uint32_t n, const gn_draw_list *l, int culled,
                       uint32_t pipelines)
{
    static unsigned char expect[N], seen[N];
    uint32_t expect_count = 0, pm_seen[16][5] = {{0}}, distinct_pm = 0;
    memset(seen, 0, sizeof seen);
    for (uint32_t i = 0; i < n; i++) {
        expect[i] = !culled || min_plane_distance(items[i].sphere) >= -items[i].sphere[3];
        expect_count += expect[i];
        if (expect[i] && !pm_seen[items[i].pipeline][items[i].material]++) distinct_pm++;
    }
    CHECK(l->instance_count == expect_count, "visible %u, want %u", l->instance_count, expect_count);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < l->instance_count; i++) {
        uint32_t id = l->instances[i];
        if (id >= n || !expect[id] || seen[id]++) bad++;
    }
    CHECK(bad == 0, "%u visible instances are culled, duplicated or unknown", bad);

    uint32_t next = 0;
    for (uint32_t g = 0; g < l->group_count; g++) {
        const gn_draw_group *gr = &l->groups[g];
        CHECK(gr->first == next && gr->count > 0, "group %u first %u count %u, want first %u", g, gr->first,
              gr->count, next);
        for (uint32_t i = gr->first; i < gr->first + gr->count && i < l->instance_count; i++) {
            const gn_cull_item *it = &items[l->instances[i]];
            if (it->pipeline != gr->pipeline || it->material != gr->material || it->mesh != gr->mesh) bad++;
            if (i > gr->first && l->instances[i] <= l->instances[i - 1]) bad++;
        }
        if (g > 0) {
            const gn_draw_group *p = &l->groups[g - 1];
            uint64_t kp = gn_sort_key(p->pipeline, p->material, p->mesh, 0),
                     kg = gn_sort_key(gr->pipeline, gr->material, gr->mesh, 0);
            CHECK(kp < kg, "group %u (%u,%u,%u) not after group %u (%u,%u,%u)", g, gr->pipeline, gr->material,
                  gr->mesh, g - 1, p->pipeline, p->material, p->mesh);
        }
        next = gr->first + gr->count;
    }
    CHECK(bad == 0, "%u instances in the wrong group or out of order", bad);
    CHECK(next == l->instance_count, "groups cover %u instances of %u", next, l->instance_count);

    next = 0;
    for (uint32_t b = 0; b < l->batch_count; b++) {
        const gn_draw_batch *ba = &l->batches[b];
        CHECK(ba->first_group == next && ba->group_count > 0, "batch %u first_group %u, want %u", b,
              ba->first_group, next);
        for (uint32_t g = ba->first_group; g < ba->first_group + ba->group_count && g < l->group_count; g++)
            CHECK(l->groups[g].pipeline == ba->pipeline && l->groups[g].material == ba->material,
                  "group %u not of batch %u", g, b);
        next = ba->first_group + ba->group_count;
    }
    CHECK(next == l->group_count, "batches cover %u groups of %u", next, l->group_count);
    CHECK(l->batch_count == distinct_pm, "batches %u, want %u distinct (pipeline, material)", l->batch_count,
          distinct_pm);
    uint32_t p_used = pipelines ? pipelines : 2u;
    CHECK(l->batch_count <= 5u * p_used, "batches %u > 5 materials x %u pipelines", l->batch_count, p_used);
    uint32_t max_groups = pipelines ? 100u * pipelines : 100u;
    CHECK(l->group_count <= max_groups, "groups %u > %u", l->group_count, max_groups);
}

static void test_build(void)
{
    static gn_cull_item items[N], shuffled[N];
    static lists a, b;
    float p[16], v[16], vp[16], origin[3] = {0};
    gn_camera_projection(90.0f * DEG, 1.0f, NEAR_M, p);
    gn_camera_view(origin, 0.0f, 0.0f, v);
    gn_mat4_mul(p, v, vp);
    gn_frustum f;
    gn_frustum_from_view_proj(vp, &f);

    const uint32_t pipeline_cases[] = {0, 1, 3};
    for (size_t c = 0; c < 3; c++) {
        make_items(items, N, pipeline_cases[c], 1234u + (uint32_t)c);
        gn_draw_list_build(items, N, &f, bind(&a));
        CHECK(a.list.instance_count > N / 20 && a.list.instance_count < N,
              "visible %u of %u: test scene too easy", a.list.instance_count, N);
        check_list(items, N, &a.list, 1, pipeline_cases[c]);
        gn_draw_list_build(items, N, NULL, bind(&b));
        CHECK(b.list.instance_count == N, "no frustum: %u visible of %u", b.list.instance_count, N);
        check_list(items, N, &b.list, 0, pipeline_cases[c]);
    }

    /* Determinism: the same items in another order give byte-identical output. */
    make_items(items, N, 3, 99u);
    memcpy(shuffled, items, sizeof items);
    uint32_t s = 5;
    for (uint32_t i = N - 1; i > 0; i--) {
        uint32_t j = rng_next(&s) % (i + 1);
        gn_cull_item t = shuffled[i];
        shuffled[i] = shuffled[j], shuffled[j] = t;
    }
    gn_draw_list_build(items, N, &f, bind(&a));
    gn_draw_list_build(shuffled, N, &f, bind(&b));
    CHECK(a.list.instance_count == b.list.instance_count && a.list.group_count == b.list.group_count &&
              a.list.batch_count == b.list.batch_count,
          "shuffled input changed counts: %u/%u/%u vs %u/%u/%u", a.list.instance_count, a.list.group_count,
          a.list.batch_count, b.list.instance_count, b.list.group_count, b.list.batch_count);
    CHECK(memcmp(a.instances, b.instances, a.list.instance_count * sizeof(uint32_t)) == 0,
          "shuffled input changed instances");
    CHECK(memcmp(a.groups, b.groups, a.list.group_count * sizeof(gn_draw_group)) == 0,
          "shuffled input changed groups");
    CHECK(memcmp(a.batches, b.batches, a.list.batch_count * sizeof(gn_draw_batch)) == 0,
          "shuffled input changed batches");

    gn_draw_list_build(items, 0, &f, bind(&a));
    CHECK(a.list.instance_count == 0 && a.list.group_count == 0 && a.list.batch_count == 0,
          "empty input gave a non-empty list");
}

/* Blended items back to front (gn_draw_list_back_to_front). */
static void test_back_to_front(void)
{
    static lists a, b;
    static gn_blend_entry scratch[N];
    const float eye[3] = {0, 0, 0};
    /* by hand: five panes along -Z (instance = distance order scrambled), material 0, one mesh;
       then two of material 1, which ranks first (an earlier Quake 3 sort) though nearer */
    gn_cull_item it[7] = {
        {{0, 0, -3, 1}, 7, 0, GN_DRAW_BLEND, 10},    {{0, 0, -9, 1}, 7, 0, GN_DRAW_BLEND, 11},
        {{0, 0, -1, 1}, 7, 0, GN_DRAW_BLEND, 12},    {{0, 4, -5, 1}, 8, 0, GN_DRAW_BLEND, 13},
        {{0, 0, -7, 1}, 7, 0, GN_DRAW_BLEND, 14},    {{0, 0, -2, 1}, 7, 1, GN_DRAW_BLEND, 15},
        {{0, 0, -0.5f, 1}, 7, 1, GN_DRAW_BLEND, 16},
    };
    uint32_t rank[2] = {9 * GN_BLEND_RANK_SCALE, 6 * GN_BLEND_RANK_SCALE};
    gn_draw_list *l = bind(&a);
    gn_draw_list_back_to_front(it, 7, eye, rank, 2, scratch, l);
    /* material 1: 15 (2 m), 16 (0.5 m); material 0: 11 (9 m), 14 (7 m), 13 (sqrt 41 = 6.4 m, mesh 8),
       10 (3 m), 12 (1 m) */
    const uint32_t want[7] = {15, 16, 11, 14, 13, 10, 12};
    CHECK(l->instance_count == 7 && memcmp(l->instances, want, sizeof want) == 0,
          "order %u %u %u %u %u %u %u", l->instances[0], l->instances[1], l->instances[2], l->instances[3],
          l->instances[4], l->instances[5], l->instances[6]);
    /* groups: {15,16} {11,14} {13} {10,12}; batches: material 1, material 0 */
    CHECK(l->group_count == 4 && l->groups[0].count == 2 && l->groups[1].count == 2 &&
              l->groups[2].mesh == 8 && l->groups[3].first == 5 && l->groups[3].count == 2,
          "%u groups", l->group_count);
    CHECK(l->batch_count == 2 && l->batches[0].material == 1 && l->batches[0].group_count == 1 &&
              l->batches[1].material == 0 && l->batches[1].first_group == 1 && l->batches[1].group_count == 3,
          "%u batches", l->batch_count);
    /* without ranks, all rank as the default: distance alone */
    gn_draw_list_back_to_front(it, 7, eye, NULL, 0, scratch, l);
    const uint32_t want_d[7] = {11, 14, 13, 10, 15, 12, 16};
    CHECK(memcmp(l->instances, want_d, sizeof want_d) == 0, "unranked order starts %u %u", l->instances[0],
          l->instances[1]);

    /* random scenes: the order never depends on the items' order, and distances never grow
       within a rank; equal distances (a ring round the eye) fall back to instance order */
    static gn_cull_item items[N], shuffled[N];
    uint32_t seed = 99, bad = 0;
    for (uint32_t i = 0; i < 2000; i++) {
        float r = (i % 4 == 0) ? 5.0f : rng_float(&seed, 1, 50), t = rng_float(&seed, 0, 6.2831853f);
        items[i] = (gn_cull_item){{r * cosf(t), 0, r * sinf(t), 0.5f},
                                  rng_next(&seed) % 3,
                                  rng_next(&seed) % 4,
                                  GN_DRAW_BLEND,
                                  i * 3 + 1};
    }
    uint32_t ranks[4] = {5 * GN_BLEND_RANK_SCALE, 9 * GN_BLEND_RANK_SCALE, 9 * GN_BLEND_RANK_SCALE, 16};
    gn_draw_list_back_to_front(items, 2000, eye, ranks, 4, scratch, l);
    for (int rep = 0; rep < 20; rep++) {
        memcpy(shuffled, items, 2000 * sizeof *items);
        for (uint32_t i = 1999; i > 0; i--) {
            uint32_t j = rng_next(&seed) % (i + 1);
            gn_cull_item t = shuffled[i];
            shuffled[i] = shuffled[j], shuffled[j] = t;
        }
        gn_draw_list *m = bind(&b);
        gn_draw_list_back_to_front(shuffled, 2000, eye, ranks, 4, scratch, m);
        bad += m->instance_count != l->instance_count || m->group_count != l->group_count ||
               m->batch_count != l->batch_count ||
               memcmp(m->instances, l->instances, 2000 * sizeof(uint32_t)) != 0 ||
               memcmp(m->groups, l->groups, m->group_count * sizeof *m->groups) != 0;
    }
    CHECK(bad == 0, "%u of 20 shuffles changed the blended order", bad);
    uint32_t misordered = 0, ties = 0;
    for (uint32_t i = 1; i < 2000; i++) {
        const gn_cull_item *p = &items[(l->instances[i - 1] - 1) / 3], *q = &items[(l->instances[i] - 1) / 3];
        uint32_t rp = ranks[p->material], rq = ranks[q->material];
        float dp = hypotf(p->sphere[0], p->sphere[2]), dq = hypotf(q->sphere[0], q->sphere[2]);
        if (rp > rq || (rp == rq && dq > dp + 1e-4f)) misordered++;
        if (rp == rq && fabsf(dp - dq) < 1e-6f &&
            p->sphere[0] * p->sphere[0] + p->sphere[2] * p->sphere[2] ==
                q->sphere[0] * q->sphere[0] + q->sphere[2] * q->sphere[2]) {
            ties++;
            misordered += l->instances[i - 1] > l->instances[i];
        }
    }
    CHECK(misordered == 0, "%u neighbours out of order", misordered);
    CHECK(ties > 0, "the ring gave no equal distances to order by id");
}

int main(void)
{
    test_sort_key();
    test_build();
    test_back_to_front();
    return gn_check_exit();
}

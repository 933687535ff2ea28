/* The built-in town: deterministic from its seed, within its size targets, valid vertex
 * data, cameras above the ground, and moving things that move. */
#include "scene/scene.h"
#include "scene/town.h" /* gn_town_viewpoints */

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "scene_check.h"

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC); /* C11; clock_gettime needs POSIX feature macros */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t content_hash(const gn_scene *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, s->vertices, (size_t)s->vertex_count * sizeof *s->vertices);
    h = fnv(h, s->indices, (size_t)s->index_count * sizeof *s->indices);
    h = fnv(h, s->instances, (size_t)s->instance_count * sizeof *s->instances);
    return h;
}

static int build(uint32_t seed, uint32_t scale, gn_scene **s, double *seconds)
{
    gn_error e = {0};
    gn_builtin_desc d = {.name = "town", .seed = seed, .scale = scale};
    double t0 = now();
    gn_result r = gn_scene_create_builtin(&d, s, &e);
    *seconds = now() - t0;
    CHECK(r == GN_OK, "town seed %u scale %u: %s %s", seed, scale, gn_result_name(r), e.message);
    return 0;
}

static int check_vertices(const gn_scene *s)
{
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const gn_mesh *me = &s->meshes[m];
        CHECK(me->index_count % 3 == 0 && me->first_index + me->index_count <= s->index_count,
              "mesh %u ranges", m);
        for (uint32_t i = 0; i < me->index_count; i++)
            CHECK(s->indices[me->first_index + i] < me->vertex_count, "mesh %u index %u = %u of %u", m, i,
                  s->indices[me->first_index + i], me->vertex_count);
        const gn_vertex *v = &s->vertices[me->first_vertex];
        /* Winding against normals, per triangle: the renderer culls back faces. */
        for (uint32_t t = 0; t < me->index_count; t += 3) {
            const uint32_t *ix = &s->indices[me->first_index + t];
            const float *a = v[ix[0]].pos, *b = v[ix[1]].pos, *c = v[ix[2]].pos;
            float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
                  e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                          e1[0] * e2[1] - e1[1] * e2[0]};
            float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (len < 1e-6f) continue;
            for (int k = 0; k < 3; k++) {
                const float *vn = v[ix[k]].normal;
                CHECK(n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2] > 0,
                      "mesh %u triangle %u wound against its normals", m, t / 3);
            }
        }
    }
    for (uint32_t i = 0; i < s->vertex_count; i++) {
        const float *n = s->vertices[i].normal, *t = s->vertices[i].tangent;
        float nl = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        float dot = n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
        CHECK(fabsf(nl - 1) < 1e-3f, "vertex %u normal length %g", i, nl);
        CHECK(fabsf(dot) < 1e-3f, "vertex %u tangent.normal %g", i, dot);
        CHECK(t[3] == 1.0f || t[3] == -1.0f, "vertex %u tangent w %g", i, t[3]);
    }
    return 0;
}

/* Heights of the nearest surfaces below and above (x, y, z) over every instance. */
static void vertical_ray(const gn_scene *s, const float p[3], float *below, float *above)
{
    *below = -INFINITY, *above = INFINITY;
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const gn_instance *in = &s->instances[i];
        float dx = in->sphere[0] - p[0], dz = in->sphere[2] - p[2];
        if (dx * dx + dz * dz > in->sphere[3] * in->sphere[3]) continue;
        const gn_mesh *m = &s->meshes[in->mesh];
        const float *M = in->transform;
        for (uint32_t t = 0; t < m->index_count; t += 3) {
            float w[3][3];
            for (int k = 0; k < 3; k++) {
                const float *q = s->vertices[m->first_vertex + s->indices[m->first_index + t + k]].pos;
                for (int j = 0; j < 3; j++)
                    w[k][j] = M[j] * q[0] + M[4 + j] * q[1] + M[8 + j] * q[2] + M[12 + j];
            }
            /* Barycentrics of (x, z) in the triangle's plan. */
            float ax = w[1][0] - w[0][0], az = w[1][2] - w[0][2], bx = w[2][0] - w[0][0],
                  bz = w[2][2] - w[0][2];
            float det = ax * bz - az * bx;
            if (fabsf(det) < 1e-9f) continue;
            float px = p[0] - w[0][0], pz = p[2] - w[0][2];
            float u = (px * bz - pz * bx) / det, v = (ax * pz - az * px) / det;
            if (u < 0 || v < 0 || u + v > 1) continue;
            float y = w[0][1] + u * (w[1][1] - w[0][1]) + v * (w[2][1] - w[0][1]);
            if (y <= p[1])
                *below = fmaxf(*below, y);
            else
                *above = fminf(*above, y);
        }
    }
}

static int check_cameras(const gn_scene *s)
{
    float vp[4][5];
    gn_town_viewpoints(s, vp);
    memcpy(vp[3], s->default_camera, sizeof vp[3]);
    const char *names[4] = {"street", "rooftop", "overview", "default"};
    for (int i = 0; i < 4; i++) {
        float below, above;
        vertical_ray(s, vp[i], &below, &above);
        CHECK(isfinite(below) && vp[i][1] - below >= 1.0f, "%s camera at %g %g %g: ground %g", names[i],
              vp[i][0], vp[i][1], vp[i][2], below);
        CHECK(above - vp[i][1] > 2.0f, "%s camera: something %g m above it", names[i], above - vp[i][1]);
        CHECK(fabsf(vp[i][4]) < 60.0f, "%s camera pitch %g", names[i], vp[i][4]);
    }
    /* Towards the west (positive yaw turns to -X): the sunset is in the picture. */
    CHECK(s->default_camera[3] > 45.0f && s->default_camera[3] < 135.0f, "default yaw %g",
          s->default_camera[3]);
    return 0;
}

static int check_animation(gn_scene *s)
{
    uint32_t st = 0, dy = UINT32_MAX;
    for (uint32_t i = 0; i < s->instance_count; i++)
        if (s->instances[i].flags & GN_INSTANCE_DYNAMIC) dy = i;
    CHECK(dy != UINT32_MAX, "no dynamic instance");
    float st0[16], dy0[16];
    memcpy(st0, s->instances[st].transform, sizeof st0);
    memcpy(dy0, s->instances[dy].transform, sizeof dy0);
    uint32_t gen = s->dynamic_generation, sgen = s->generation;
    gn_scene_animate(s, 10.0);
    CHECK(memcmp(dy0, s->instances[dy].transform, sizeof dy0) != 0, "dynamic instance %u did not move", dy);
    CHECK(memcmp(st0, s->instances[st].transform, sizeof st0) == 0, "static instance moved");
    CHECK(s->dynamic_generation != gen && s->generation == sgen, "generations %u->%u, %u->%u", gen,
          s->dynamic_generation, sgen, s->generation);
    return 0;
}

int main(void)
{
    gn_scene *a, *b, *c;
    double ta, tb, tc;
    if (build(1, 1, &a, &ta) || build(1, 1, &b, &tb) || build(2, 1, &c, &tc)) return 1;
    int f = 0;
    uint64_t ha = content_hash(a), hb = content_hash(b), hc = content_hash(c);
    if (ha != hb)
        fprintf(stderr, "same seed, different towns: %llx %llx\n", (unsigned long long)ha,
                (unsigned long long)hb),
            f++;
    if (ha == hc) fprintf(stderr, "seeds 1 and 2 gave the same town\n"), f++;

    gn_scene_info info;
    gn_scene_get_info(a, &info);
    printf("town scale 1: %.3f s, %llu triangles (%llu unique), %u instances (%u dynamic), %u "
           "meshes, %u materials, %u textures\n",
           ta, (unsigned long long)info.triangles, (unsigned long long)info.unique_triangles, info.instances,
           info.dynamic_instances, info.meshes, info.materials, info.textures);
    printf("  bounds %.0f %.0f %.0f .. %.0f %.0f %.0f\n", info.bounds_min[0], info.bounds_min[1],
           info.bounds_min[2], info.bounds_max[0], info.bounds_max[1], info.bounds_max[2]);
    if (info.triangles < 800000 || info.triangles > 1500000)
        fprintf(stderr, "triangles %llu outside 0.8M..1.5M\n", (unsigned long long)info.triangles), f++;
    if (info.instances < 15000 || info.instances > 30000)
        fprintf(stderr, "instances %u outside 15k..30k\n", info.instances), f++;
    if (info.materials < 10 || info.materials > 30)
        fprintf(stderr, "materials %u outside 10..30\n", info.materials), f++;
    if (info.dynamic_instances < 5 || info.dynamic_instances > 20)
        fprintf(stderr, "dynamic instances %u\n", info.dynamic_instances), f++;
    if (ta > 3.0) fprintf(stderr, "scale 1 took %.2f s\n", ta), f++;
    f += check_vertices(a);
    f += check_cameras(a);
    f += check_animation(a);
    gn_scene_destroy(a);
    gn_scene_destroy(b);
    gn_scene_destroy(c);

    gn_scene *big;
    double t8;
    if (build(1, 8, &big, &t8)) return 1;
    gn_scene_get_info(big, &info);
    printf("town scale 8: %.3f s, %llu triangles (%llu unique), %u instances, %u meshes\n", t8,
           (unsigned long long)info.triangles, (unsigned long long)info.unique_triangles, info.instances,
           info.meshes);
    if (info.triangles <= 10000000ull)
        fprintf(stderr, "scale 8 has only %llu triangles\n", (unsigned long long)info.triangles), f++;
    f += check_cameras(big);
    gn_scene_destroy(big);
    if (!f) printf("scene_town: ok\n");
    return f ? 1 : 0;
}

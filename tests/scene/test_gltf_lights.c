/* glTF KHR_lights_punctual lights (src/formats/gltf_light.c): the hand-written asset
 * tests/scene/data/lights.gltf (a floor, a box, a point light on a scaled and translated
 * node, a spot aimed down by its node's rotation, a directional light) checks positions after
 * the node transforms, intensities in candela, colours, radii and cones; small files written
 * here check the mapping's edges (colour normalisation, derived radii and their caps, cone
 * limits; a light's node name shared with another node, which assimp refuses) and what is left out with a
 * warning (a non-finite place, a light placed by two nodes, an undeclared extension, a full scene); bad files
 * are refused with a message naming the light, the scene untouched, and so is a load that runs out of memory
 * half-way through adding its lights (gn_gltf_scene_load drops those it added). No device needed. */
#include "base/alloc.h"
#include "scene/gltf_scene.h"
#include "scene/scene.h"
#include "scene_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GN_TEST_TMP
#define GN_TEST_TMP "."
#endif
#ifndef GN_LIGHTS_GLTF
#define GN_LIGHTS_GLTF "tests/scene/data/lights.gltf"
#endif
#define GN_EPS 1e-4f        /* positions, colours, angles: float rounding of the file's values */
#define GN_CUTOFF_LUX 0.01f /* gltf_light.c: an unranged light's radius is where it falls to this */
#define GN_RAD_TO_DEG 57.29577951308232f

static int gn_warnings;
static char gn_last_warning[1024];
static void count_log(gn_log_level level, const char *msg, void *user)
{
    (void)user;
    if (level <= GN_LOG_WARN) {
        gn_warnings++;
        snprintf(gn_last_warning, sizeof gn_last_warning, "%s", msg);
    }
    printf("  log %d: %s\n", (int)level, msg);
}

static bool near3(const float a[3], float x, float y, float z)
{
    return fabsf(a[0] - x) < GN_EPS && fabsf(a[1] - y) < GN_EPS && fabsf(a[2] - z) < GN_EPS;
}

/* Loads path into s with the counting log; the load's result. */
static gn_result load(gn_scene *s, const char *path, gn_gltf_stats *st, gn_error *err)
{
    gn_warnings = 0;
    gn_last_warning[0] = 0;
    gn_gltf_desc d = {.log = count_log, .stats = st};
    return gn_gltf_scene_load(s, path, &d, err);
}

static int test_asset(void)
{
    gn_scene *s;
    gn_error err = {0};
    gn_gltf_stats st;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_result r = load(s, GN_LIGHTS_GLTF, &st, &err);
    CHECK(r == GN_OK, "%s: %s", gn_result_name(r), err.message);
    CHECK(s->instance_count == 2, "%u instances, expected the floor and the box", s->instance_count);
    CHECK(st.point_lights == 1 && st.spot_lights == 1 && st.directional_lights == 1 && st.skipped_lights == 0,
          "point %u spot %u directional %u skipped %u", st.point_lights, st.spot_lights,
          st.directional_lights, st.skipped_lights);
    CHECK(gn_scene_light_count(s) == 2, "%u lights in the scene, expected 2", gn_scene_light_count(s));
    /* the directional light: one warning that says why it is not there */
    CHECK(gn_warnings == 1 && strstr(gn_last_warning, "directional") && strstr(gn_last_warning, "sun") &&
              strstr(gn_last_warning, "lights.gltf"),
          "%d warnings, the last '%s'", gn_warnings, gn_last_warning);

    gn_light_desc p, q;
    CHECK(gn_scene_get_light(s, 0, &p, &err) == GN_OK && gn_scene_get_light(s, 1, &q, &err) == GN_OK, "%s",
          err.message);
    /* bulb: (0.5, 1, 0) in lamp_post's frame, translated by (1, 2, 3) and scaled by 2; its range
     * is unaffected by the scale (KHR_lights_punctual), 12 m */
    CHECK(p.type == GN_LIGHT_POINT && near3(p.position, 2, 4, 3), "bulb type %d at (%g %g %g)", (int)p.type,
          (double)p.position[0], (double)p.position[1], (double)p.position[2]);
    CHECK(near3(p.color, 1.0f, 0.5f, 0.25f) && fabsf(p.intensity - 40.0f) < GN_EPS,
          "bulb colour (%g %g %g) intensity %g cd", (double)p.color[0], (double)p.color[1],
          (double)p.color[2], (double)p.intensity);
    CHECK(fabsf(p.radius - 12.0f) < GN_EPS && p.cast_shadows && !p.night,
          "bulb radius %g shadows %d night %d", (double)p.radius, p.cast_shadows, p.night);
    /* cone: at (-2, 4, 0), rotated -90 degrees about X: its -Z points down; colour (0.5 0.5 1)
     * keeps its largest channel at 1, so the intensity is the file's 200 cd; no range: the
     * radius is where 200 / (d^2 + 1) = 0.01 lux */
    float want_radius = sqrtf(200.0f / GN_CUTOFF_LUX - 1.0f);
    CHECK(q.type == GN_LIGHT_SPOT && near3(q.position, -2, 4, 0) && near3(q.direction, 0, -1, 0),
          "cone type %d at (%g %g %g) towards (%g %g %g)", (int)q.type, (double)q.position[0],
          (double)q.position[1], (double)q.position[2], (double)q.direction[0], (double)q.direction[1],
          (double)q.direction[2]);
    CHECK(near3(q.color, 0.5f, 0.5f, 1.0f) && fabsf(q.intensity - 200.0f) < GN_EPS &&
              fabsf(q.radius - want_radius) < 1e-3f,
          "cone colour (%g %g %g) intensity %g radius %g (want %g)", (double)q.color[0], (double)q.color[1],
          (double)q.color[2], (double)q.intensity, (double)q.radius, (double)want_radius);
    CHECK(fabsf(q.inner_angle - 0.2f * GN_RAD_TO_DEG) < GN_EPS &&
              fabsf(q.outer_angle - 0.6f * GN_RAD_TO_DEG) < GN_EPS,
          "cone angles %g..%g degrees, want %g..%g", (double)q.inner_angle, (double)q.outer_angle,
          (double)(0.2f * GN_RAD_TO_DEG), (double)(0.6f * GN_RAD_TO_DEG));
    gn_scene_destroy(s);

    /* the public entry gives the same lights */
    gn_load_desc ld = {.path = GN_LIGHTS_GLTF, .log = count_log};
    CHECK(gn_scene_load(&ld, &s, &err) == GN_OK, "%s", err.message);
    CHECK(gn_scene_light_count(s) == 2, "gn_scene_load: %u lights", gn_scene_light_count(s));
    gn_scene_destroy(s);
    printf("asset: ok\n");
    return 0;
}

/* One triangle (y = 0, facing +Y) on nodes[0], embedded; then the given lights and nodes. */
static int write_lights(const char *name, bool declared, const char *lights, const char *nodes,
                        const char *roots)
{
    static const char *fmt =
        "{\"asset\":{\"version\":\"2.0\"},%s"
        "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[%s]}},"
        "\"scene\":0,\"scenes\":[{\"nodes\":[0%s]}],\"nodes\":[{\"name\":\"tri\",\"mesh\":0}%s],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],"
        "\"buffers\":[{\"byteLength\":44,\"uri\":\"data:application/octet-stream;base64,"
        "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIC/AAABAAIAAAA=\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":6}]"
        ","
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"min\":[0,0,-1],\"max\":[1,0,0]},{\"bufferView\":1,\"componentType\":5123,\"count\":3,"
        "\"type\":\"SCALAR\"}]}";
    size_t n = strlen(fmt) + strlen(lights) + strlen(nodes) + strlen(roots) + 64;
    char *json = malloc(n), path[1024];
    if (!json) return 1;
    snprintf(json, n, fmt, declared ? "\"extensionsUsed\":[\"KHR_lights_punctual\"]," : "", lights, roots,
             nodes);
    snprintf(path, sizeof path, "%s/%s", GN_TEST_TMP, name);
    FILE *f = fopen(path, "wb");
    size_t w = f ? fwrite(json, 1, strlen(json), f) : 0;
    int bad = !f || w != strlen(json);
    if (f && fclose(f) != 0) bad = 1;
    free(json);
    return bad;
}

/* Writes and loads a file of write_lights into a fresh scene; NULL when it did not load. */
static gn_scene *load_lights(const char *name, bool declared, const char *lights, const char *nodes,
                             const char *roots, gn_gltf_stats *st)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", GN_TEST_TMP, name);
    gn_scene *s = NULL;
    gn_error err = {0};
    if (write_lights(name, declared, lights, nodes, roots) != 0 || gn_scene_create(&s, &err) != GN_OK) {
        fprintf(stderr, "%s: cannot write or create the scene\n", path);
        return NULL;
    }
    gn_result r = load(s, path, st, &err);
    if (r != GN_OK) {
        fprintf(stderr, "%s: %s: %s\n", path, gn_result_name(r), err.message);
        gn_scene_destroy(s);
        return NULL;
    }
    return s;
}

static int test_mapping_edges(void)
{
    gn_gltf_stats st;
    /* a grey point light: the colour's largest channel becomes 1, the intensity 10 x 0.5 =
     * 5 cd (the renderer's colour x intensity stays the file's); no range: sqrt(5/0.01 - 1) */
    gn_scene *s = load_lights(
        "lights_grey.gltf", true, "{\"type\":\"point\",\"color\":[0.5,0.5,0.5],\"intensity\":10}",
        ",{\"translation\":[1,2,3],\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}", ",1", &st);
    CHECK(s && gn_scene_light_count(s) == 1, "grey: not loaded or %u lights",
          s ? gn_scene_light_count(s) : 0);
    const gn_light_desc *l = &s->lights[0];
    CHECK(near3(l->color, 1, 1, 1) && fabsf(l->intensity - 5.0f) < GN_EPS &&
              fabsf(l->radius - sqrtf(499.0f)) < 1e-3f && near3(l->position, 1, 2, 3),
          "grey: colour (%g %g %g) intensity %g radius %g", (double)l->color[0], (double)l->color[1],
          (double)l->color[2], (double)l->intensity, (double)l->radius);
    CHECK(gn_warnings == 0, "grey: %d warnings", gn_warnings);
    gn_scene_destroy(s);

    /* cones: equal angles (a hard edge) -> inner 0.99 x outer; no angles -> glTF's 0 and pi/4,
     * the inner as outer / 1000; an outer of pi/2 held at 89 degrees */
    s = load_lights("lights_cones.gltf", true,
                    "{\"type\":\"spot\",\"spot\":{\"innerConeAngle\":0.5,\"outerConeAngle\":0.5}},"
                    "{\"type\":\"spot\",\"spot\":{}},"
                    "{\"type\":\"spot\",\"spot\":{\"innerConeAngle\":1.0,\"outerConeAngle\":1.5707964}}",
                    ",{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}},"
                    "{\"extensions\":{\"KHR_lights_punctual\":{\"light\":1}}},"
                    "{\"extensions\":{\"KHR_lights_punctual\":{\"light\":2}}}",
                    ",1,2,3", &st);
    CHECK(s && gn_scene_light_count(s) == 3, "cones: not loaded or %u lights",
          s ? gn_scene_light_count(s) : 0);
    const gn_light_desc *h = &s->lights[0], *dft = &s->lights[1], *wide = &s->lights[2];
    float outer = 0.5f * GN_RAD_TO_DEG;
    CHECK(fabsf(h->outer_angle - outer) < GN_EPS && fabsf(h->inner_angle - 0.99f * outer) < GN_EPS,
          "hard edge: %g..%g degrees", (double)h->inner_angle, (double)h->outer_angle);
    CHECK(fabsf(dft->outer_angle - 45.0f) < GN_EPS && dft->inner_angle > 0.0f && dft->inner_angle < 0.05f,
          "default cone: %g..%g degrees", (double)dft->inner_angle, (double)dft->outer_angle);
    CHECK(fabsf(wide->outer_angle - 89.0f) < GN_EPS && fabsf(wide->inner_angle - GN_RAD_TO_DEG) < GN_EPS,
          "wide cone: %g..%g degrees", (double)wide->inner_angle, (double)wide->outer_angle);
    CHECK(near3(h->direction, 0, 0, -1), "an unrotated spot points down -Z: (%g %g %g)",
          (double)h->direction[0], (double)h->direction[1], (double)h->direction[2]);
    gn_scene_destroy(s);

    /* radii: a range past 1 km is held there (a warning); a dim light gets the 0.1 m floor,
     * a bright unranged one the 1 km cap */
    s = load_lights("lights_radii.gltf", true,
                    "{\"type\":\"point\",\"range\":5000},{\"type\":\"point\",\"intensity\":0.001},"
                    "{\"type\":\"point\",\"intensity\":1e6}",
                    ",{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}},"
                    "{\"extensions\":{\"KHR_lights_punctual\":{\"light\":1}}},"
                    "{\"extensions\":{\"KHR_lights_punctual\":{\"light\":2}}}",
                    ",1,2,3", &st);
    CHECK(s && gn_scene_light_count(s) == 3, "radii: not loaded or %u lights",
          s ? gn_scene_light_count(s) : 0);
    CHECK(s->lights[0].radius == 1000.0f && s->lights[1].radius == 0.1f && s->lights[2].radius == 1000.0f,
          "radii %g %g %g", (double)s->lights[0].radius, (double)s->lights[1].radius,
          (double)s->lights[2].radius);
    CHECK(gn_warnings == 1 && strstr(gn_last_warning, "held at 1000 m"), "radii: %d warnings, '%s'",
          gn_warnings, gn_last_warning);
    gn_scene_destroy(s);

    /* a light's node sharing its name with another node: assimp's validation refuses the file
     * (it links lights to nodes by name), and says which name */
    char path[1024];
    snprintf(path, sizeof path, "%s/lights_names.gltf", GN_TEST_TMP);
    CHECK(write_lights("lights_names.gltf", true, "{\"type\":\"point\"}",
                       ",{\"name\":\"lamp\",\"mesh\":0},{\"name\":\"lamp\",\"translation\":[0,7,0],"
                       "\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}",
                       ",1,2") == 0,
          "cannot write %s", path);
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_result r = load(s, path, &st, &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, path) && strstr(err.message, "lamp"), "names: %s: %s",
          gn_result_name(r), err.message);
    CHECK(gn_scene_light_count(s) == 0 && s->instance_count == 0, "names: %u lights %u instances after it",
          gn_scene_light_count(s), s->instance_count);
    gn_scene_destroy(s);
    printf("mapping edges: ok\n");
    return 0;
}

/* What is left out is counted and said, once a kind, and the rest of the file loads. */
static int test_left_out(void)
{
    gn_gltf_stats st;
    /* 3e38 + 3e38 overflows float: no place for the first light; the second loads */
    gn_scene *s =
        load_lights("lights_inf.gltf", true, "{\"type\":\"point\"},{\"type\":\"spot\",\"spot\":{}}",
                    ",{\"translation\":[3e38,0,0],\"children\":[2]},"
                    "{\"translation\":[3e38,0,0],\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}},"
                    "{\"extensions\":{\"KHR_lights_punctual\":{\"light\":1}}}",
                    ",1,3", &st);
    CHECK(s && gn_scene_light_count(s) == 1 && st.skipped_lights == 1 && st.spot_lights == 1,
          "inf: %u lights, %u skipped", s ? gn_scene_light_count(s) : 0, st.skipped_lights);
    CHECK(gn_warnings == 1 && strstr(gn_last_warning, "non-finite place"), "inf: %d warnings, '%s'",
          gn_warnings, gn_last_warning);
    gn_scene_destroy(s);

    /* one light on two nodes: assimp keeps one place; gnomon says so */
    s = load_lights("lights_shared.gltf", true, "{\"type\":\"point\"}",
                    ",{\"translation\":[1,0,0],\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}},"
                    "{\"translation\":[2,0,0],\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}",
                    ",1,2", &st);
    CHECK(s && gn_scene_light_count(s) == 1, "shared: %u lights", s ? gn_scene_light_count(s) : 0);
    CHECK(gn_warnings == 1 && strstr(gn_last_warning, "several nodes"), "shared: %d warnings, '%s'",
          gn_warnings, gn_last_warning);
    gn_scene_destroy(s);

    /* lights without "extensionsUsed": assimp drops them; gnomon says so */
    s = load_lights("lights_undeclared.gltf", false, "{\"type\":\"point\"}",
                    ",{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}", ",1", &st);
    CHECK(s && gn_scene_light_count(s) == 0, "undeclared: %u lights", s ? gn_scene_light_count(s) : 0);
    CHECK(gn_warnings == 1 && strstr(gn_last_warning, "extensionsUsed"), "undeclared: %d warnings, '%s'",
          gn_warnings, gn_last_warning);
    gn_scene_destroy(s);

    /* a scene with room for one more light: the bulb fits, the cone does not */
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_light_desc d = {.type = GN_LIGHT_POINT, .radius = 1.0f, .intensity = 1.0f};
    for (uint32_t i = 0; i + 1 < GN_MAX_LIGHTS; i++)
        CHECK(gn_scene_add_light(s, &d, NULL, &err) == GN_OK, "light %u: %s", i, err.message);
    gn_result r = load(s, GN_LIGHTS_GLTF, &st, &err);
    CHECK(r == GN_OK, "full: %s", err.message);
    CHECK(gn_scene_light_count(s) == GN_MAX_LIGHTS && st.point_lights == 1 && st.skipped_lights == 1,
          "full: %u lights, %u point, %u skipped", gn_scene_light_count(s), st.point_lights,
          st.skipped_lights);
    /* the directional light's warning, and the full scene's */
    CHECK(gn_warnings == 2, "full: %d warnings", gn_warnings);
    gn_scene_destroy(s);
    printf("left out: ok\n");
    return 0;
}

/* Bad values are refused by the file's check with a message naming the light, and a scene
 * that already had lights keeps exactly those. */
static int expect_refusal(const char *name, const char *lights, const char *nodes, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", GN_TEST_TMP, name);
    CHECK(write_lights(name, true, lights, nodes, nodes[0] ? ",1" : "") == 0, "cannot write %s", path);
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_light_desc d = {.type = GN_LIGHT_POINT, .radius = 1.0f, .intensity = 1.0f};
    CHECK(gn_scene_add_light(s, &d, NULL, &err) == GN_OK, "%s", err.message);
    gn_gltf_stats st;
    gn_result r = load(s, path, &st, &err);
    printf("  %s: %s\n", name, err.message);
    CHECK(r == GN_ERROR_BAD_DATA, "%s: %s, expected GN_ERROR_BAD_DATA", name, gn_result_name(r));
    CHECK(strstr(err.message, path) && strstr(err.message, text),
          "%s: '%s' does not name the file and say '%s'", name, err.message, text);
    CHECK(gn_scene_light_count(s) == 1 && s->instance_count == 0,
          "%s: %u lights %u instances after the refusal", name, gn_scene_light_count(s), s->instance_count);
    gn_scene_destroy(s);
    return 0;
}

static int test_refused(void)
{
    static const char *node = ",{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}";
    int fail = 0;
    /* JSON has no NaN; 1e400 parses as infinity */
    fail |= expect_refusal("lights_inf_intensity.gltf", "{\"type\":\"point\",\"intensity\":1e400}", node,
                           "KHR_lights_punctual.lights[0]: \"intensity\" inf is outside");
    fail |= expect_refusal("lights_negative.gltf", "{\"type\":\"spot\",\"intensity\":-3,\"spot\":{}}", node,
                           "\"intensity\" -3 is outside");
    fail |= expect_refusal("lights_bad_index.gltf", "{\"type\":\"point\"}",
                           ",{\"extensions\":{\"KHR_lights_punctual\":{\"light\":4}}}",
                           "\"light\" 4 is not one of the file's 1 KHR_lights_punctual.lights");
    /* one past the cap: refused before anything is allocated for them */
    static const char one[] = "{\"type\":\"point\"}";
    char *many = malloc((size_t)(GN_MAX_LIGHTS + 1) * sizeof one + 1), *p = many;
    CHECK(many, "out of memory");
    for (uint32_t i = 0; i <= GN_MAX_LIGHTS; i++) {
        if (i) *p++ = ',';
        memcpy(p, one, sizeof one - 1);
        p += sizeof one - 1;
    }
    *p = 0;
    fail |= expect_refusal("lights_too_many.gltf", many, "",
                           "16385 KHR_lights_punctual lights, more than the cap");
    free(many);
    if (!fail) printf("refused: ok\n");
    return fail;
}

/* A scene with 15 lights (room for 16 before its arrays grow) loads the asset with each of
 * the load's allocations failing in turn: a failed load leaves exactly the 15, and the last
 * allocation, the room for the second light after the first was added, is among them. */
static int test_rollback(void)
{
    gn_light_desc d = {.type = GN_LIGHT_POINT, .radius = 2.0f, .intensity = 3.0f};
    gn_error err = {0};
    gn_gltf_stats st;
    uint64_t calls = 0;
    for (uint64_t nth = 0; nth == 0 || nth <= calls; nth++) {
        gn_scene *s;
        CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
        for (int i = 0; i < 15; i++) CHECK(gn_scene_add_light(s, &d, NULL, &err) == GN_OK, "%s", err.message);
        if (nth == 0)
            gn_alloc_record();
        else
            gn_alloc_fail_nth(nth);
        gn_result r = load(s, GN_LIGHTS_GLTF, &st, &err);
        gn_alloc_site at = {0};
        bool failed = gn_alloc_failed_site(&at);
        if (nth == 0) calls = gn_alloc_calls();
        gn_alloc_disarm();
        CHECK(nth == 0 ? r == GN_OK && calls > 0 : failed, "call %llu: %s, %s", (unsigned long long)nth,
              gn_result_name(r), failed ? "failed" : "no failure injected");
        if (r == GN_OK) {
            CHECK(gn_scene_light_count(s) == 17, "call %llu: loaded with %u lights", (unsigned long long)nth,
                  gn_scene_light_count(s));
        } else {
            CHECK(gn_scene_light_count(s) == 15 && s->instance_count == 0 && s->lights[14].intensity == 3.0f,
                  "call %llu at %s:%d: %s, then %u lights and %u instances", (unsigned long long)nth, at.file,
                  at.line, err.message, gn_scene_light_count(s), s->instance_count);
        }
        if (nth == calls && nth > 0)
            CHECK(r != GN_OK && strstr(at.file, "array.c") && strstr(err.message, "light"),
                  "the last of %llu calls, at %s:%d, is not the second light's room: %s (%s)",
                  (unsigned long long)calls, at.file, at.line, gn_result_name(r), err.message);
        gn_scene_destroy(s);
    }
    printf("rollback: ok (%llu allocations failed in turn)\n", (unsigned long long)calls);
    return 0;
}

int main(void)
{
    int fail = 0;
    fail |= test_asset();
    fail |= test_mapping_edges();
    fail |= test_left_out();
    fail |= test_refused();
    fail |= test_rollback();
    if (fail) fprintf(stderr, "test_gltf_lights: FAILED\n");
    return fail;
}

/* Emitter files (src/formats/emitter.c): a file using every key reads into the descriptions
 * written out here by hand, absent keys take the defaults, and malformed files are each refused
 * with one line naming the file and the key's path (the case lists the words it must hold). */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "formats/emitter.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define NAME "fx/test.json"
#define DEG (3.14159265358979323846 / 180.0)

static const char good[] =
    "{\n"
    "  \"version\": 1,\n"
    "  \"_comment\": \"keys starting with an underscore are comments\",\n"
    "  \"emitters\": [\n"
    "    {\"name\": \"smoke\", \"shape\": \"sphere\", \"radius\": 0.15, \"rate\": 6,\n"
    "     \"lifetime\": [8, 12], \"speed\": [0.8, 1.4], \"direction\": [0, 2, 0], \"cone_deg\": 10,\n"
    "     \"rotation_deg\": [-180, 180], \"spin_deg\": [-15, 15], \"size\": [0.5, 4], \"size_jitter\": "
    "0.25,\n"
    "     \"color\": [[0.35, 0.35, 0.37, 0.55], [0.45, 0.45, 0.47, 0]], \"fade_in\": 0.1,\n"
    "     \"gravity\": [0, 0.2, 0], \"drag\": 0.5, \"wind_response\": 1, \"curl_strength\": 0.4,\n"
    "     \"curl_scale\": 0.5, \"atlas\": {\"columns\": 4, \"rows\": 4, \"random_start\": true},\n"
    "     \"soft_depth\": 1, \"max_particles\": 96},\n"
    "    {\"name\": \"sparks-2.b\", \"shape\": \"box\", \"half_extent\": [0.5, 0.25, 1],\n"
    "     \"rate\": 0, \"bursts\": [{\"time\": 0.5, \"count\": 20, \"interval\": 2.5, \"cycles\": 0},\n"
    "                            {\"count\": 3}],\n"
    "     \"lifetime\": 1.5, \"speed\": 3, \"direction\": [1, 0, 0], \"cone_deg\": 180,\n"
    "     \"size\": 0.01, \"color\": [0, 0, 0, 1], \"emission\": [[30000, 13500, 3000], [120, 20, 2]],\n"
    "     \"gravity\": [0, -9.81, 0], \"render\": \"velocity\", \"stretch\": 0.04, \"blend\": \"additive\",\n"
    "     \"collision\": \"bounce\", \"restitution\": 0.4, \"friction\": 0.3, \"collision_thickness\": 0.3,\n"
    "     \"atlas\": {\"columns\": 2, \"rows\": 3, \"frames\": 5, \"fps\": 12.5}},\n"
    "    {\"name\": \"plain\"},\n"
    "    {\"name\": \"jet\", \"shape\": \"disc\", \"radius\": 0.05, \"render\": \"ribbon\", \"collision\": "
    "\"die\",\n"
    "     \"emission\": [1, 2, 3], \"atlas\": {\"columns\": 8, \"rows\": 1, \"over_life\": true}}\n"
    "  ]\n"
    "}\n";

static bool same(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

/* Every field, one by one (the struct has padding: no memcmp). */
static int diff_desc(const gn_particle_desc *a, const gn_particle_desc *b)
{
    int n = 0;
#define F(x) n += !same(a->x, b->x)
#define U(x) n += a->x != b->x
    U(shape), F(half_extent[0]), F(half_extent[1]), F(half_extent[2]), F(radius), F(rate), U(burst_count);
    for (int i = 0; i < (int)GN_PARTICLE_MAX_BURSTS; i++)
        F(bursts[i].time), F(bursts[i].interval), U(bursts[i].count), U(bursts[i].cycles);
    U(max_particles);
    for (int i = 0; i < 2; i++) {
        F(lifetime[i]), F(speed[i]), F(rotation[i]), F(spin[i]), F(size[i]);
        for (int c = 0; c < 4; c++) F(color[i][c]);
        for (int c = 0; c < 3; c++) F(emission[i][c]);
    }
    for (int i = 0; i < 3; i++) F(direction[i]), F(gravity[i]);
    F(cone), F(size_jitter), F(fade_in), F(drag), F(wind_response), F(curl_strength), F(curl_scale);
    U(atlas_columns), U(atlas_rows), U(atlas_frames), F(atlas_fps), U(atlas_over_life), U(atlas_random_start);
    U(render), F(stretch), U(blend), F(soft_depth), U(collision), F(restitution), F(friction);
    F(collision_thickness);
#undef F
#undef U
    return n;
}

static void test_good(void)
{
    gn_emitter_file f;
    gn_error err = {0};
    gn_result r = gn_emitter_parse(good, strlen(good), NAME, &f, &err);
    CHECK(r == GN_OK, "good file refused: %s", err.message);
    if (r != GN_OK) return;
    CHECK(f.count == 4, "%u emitters", f.count);

    gn_particle_desc smoke = gn_particle_desc_default();
    smoke.shape = GN_PARTICLE_SPHERE, smoke.radius = 0.15f, smoke.rate = 6;
    smoke.lifetime[0] = 8, smoke.lifetime[1] = 12, smoke.speed[0] = 0.8f, smoke.speed[1] = 1.4f;
    smoke.direction[0] = 0, smoke.direction[1] = 1, smoke.direction[2] = 0; /* normalised */
    smoke.cone = (float)(10 * DEG);
    smoke.rotation[0] = (float)(-180 * DEG), smoke.rotation[1] = (float)(180 * DEG);
    smoke.spin[0] = (float)(-15 * DEG), smoke.spin[1] = (float)(15 * DEG);
    smoke.size[0] = 0.5f, smoke.size[1] = 4, smoke.size_jitter = 0.25f;
    memcpy(smoke.color, (float[2][4]){{0.35f, 0.35f, 0.37f, 0.55f}, {0.45f, 0.45f, 0.47f, 0}},
           sizeof smoke.color);
    smoke.fade_in = 0.1f;
    smoke.gravity[1] = 0.2f, smoke.drag = 0.5f, smoke.wind_response = 1, smoke.curl_strength = 0.4f;
    smoke.curl_scale = 0.5f;
    smoke.atlas_columns = 4, smoke.atlas_rows = 4, smoke.atlas_frames = 16, smoke.atlas_random_start = true;
    smoke.soft_depth = 1, smoke.max_particles = 96;
    CHECK(strcmp(f.emitters[0].name, "smoke") == 0 && diff_desc(&f.emitters[0].desc, &smoke) == 0,
          "smoke: %d fields differ", diff_desc(&f.emitters[0].desc, &smoke));
    /* it is, field for field, the built-in chimney smoke */
    gn_particle_desc builtin = gn_particle_builtin_desc(GN_PARTICLE_CHIMNEY_SMOKE);
    CHECK(diff_desc(&f.emitters[0].desc, &builtin) == 0, "smoke against the built-in: %d fields differ",
          diff_desc(&f.emitters[0].desc, &builtin));

    gn_particle_desc sparks = gn_particle_desc_default();
    sparks.shape = GN_PARTICLE_BOX;
    sparks.half_extent[0] = 0.5f, sparks.half_extent[1] = 0.25f, sparks.half_extent[2] = 1;
    sparks.rate = 0, sparks.burst_count = 2;
    sparks.bursts[0] = (gn_particle_burst){.time = 0.5f, .interval = 2.5f, .count = 20, .cycles = 0};
    sparks.bursts[1] = (gn_particle_burst){.count = 3, .cycles = 1};
    sparks.lifetime[0] = sparks.lifetime[1] = 1.5f, sparks.speed[0] = sparks.speed[1] = 3;
    sparks.direction[0] = 1, sparks.direction[1] = 0;
    sparks.cone = GN_PARTICLE_MAX_CONE;
    sparks.size[0] = sparks.size[1] = 0.01f;
    memcpy(sparks.color, (float[2][4]){{0, 0, 0, 1}, {0, 0, 0, 1}}, sizeof sparks.color);
    memcpy(sparks.emission, (float[2][3]){{30000, 13500, 3000}, {120, 20, 2}}, sizeof sparks.emission);
    sparks.render = GN_PARTICLE_VELOCITY, sparks.stretch = 0.04f, sparks.blend = GN_PARTICLE_ADDITIVE;
    sparks.collision = GN_PARTICLE_COLLIDE_BOUNCE, sparks.restitution = 0.4f, sparks.friction = 0.3f;
    sparks.collision_thickness = 0.3f;
    sparks.atlas_columns = 2, sparks.atlas_rows = 3, sparks.atlas_frames = 5, sparks.atlas_fps = 12.5f;
    sparks.cone = (float)(180 * DEG) < GN_PARTICLE_MAX_CONE ? (float)(180 * DEG) : GN_PARTICLE_MAX_CONE;
    CHECK(strcmp(f.emitters[1].name, "sparks-2.b") == 0 && diff_desc(&f.emitters[1].desc, &sparks) == 0,
          "sparks: %d fields differ", diff_desc(&f.emitters[1].desc, &sparks));

    gn_particle_desc plain = gn_particle_desc_default();
    CHECK(strcmp(f.emitters[2].name, "plain") == 0 && diff_desc(&f.emitters[2].desc, &plain) == 0,
          "plain: %d fields differ from the defaults", diff_desc(&f.emitters[2].desc, &plain));

    gn_particle_desc jet = gn_particle_desc_default();
    jet.shape = GN_PARTICLE_DISC, jet.radius = 0.05f, jet.render = GN_PARTICLE_RIBBON;
    jet.collision = GN_PARTICLE_COLLIDE_DIE;
    memcpy(jet.emission, (float[2][3]){{1, 2, 3}, {1, 2, 3}}, sizeof jet.emission);
    jet.atlas_columns = 8, jet.atlas_rows = 1, jet.atlas_frames = 8, jet.atlas_over_life = true;
    CHECK(diff_desc(&f.emitters[3].desc, &jet) == 0, "jet: %d fields differ",
          diff_desc(&f.emitters[3].desc, &jet));

    CHECK(gn_emitter_find(&f, "plain") == &f.emitters[2].desc && !gn_emitter_find(&f, "nothing"), "find");
    gn_emitter_file_free(&f);
    CHECK(f.count == 0 && f.emitters == NULL, "free zeroes");
    gn_emitter_file_free(&f);
    gn_emitter_file_free(NULL);
}

typedef struct bad_case {
    const char *text;
    const char *words; /* in the message, after "fx/test.json: " */
} bad_case;

#define E(body) "{\"emitters\": [" body "]}"
#define E1(keys) E("{\"name\": \"a\", " keys "}")

static const bad_case bad_cases[] = {
    {"{", "not valid JSON at line 1"},
    {"{\"emitters\": [{\"name\": \"a\"}]}\n  x", "text after the JSON value at line 2, column 3"},
    {"[]", "the file is not a JSON object"},
    {"{}", "no \"emitters\""},
    {"{\"emitters\": 3}", "emitters: not an array"},
    {"{\"emitters\": []}", "emitters: 0 emitters, outside [1, 64]"},
    {"{\"version\": 2, \"emitters\": [{\"name\": \"a\"}]}", "version: 2 is not a version"},
    {"{\"emitter\": []}", "unknown key \"emitter\""},
    {E("1"), "emitters[0]: not an object"},
    {E("{\"rate\": 1}"), "emitters[0]: no \"name\""},
    {E("{\"name\": \"a b\"}"), "emitters[0].name: \"a b\" is not 1 to 63 letters"},
    {E("{\"name\": 7}"), "emitters[0].name: not a string"},
    {E("{\"name\": \"a\"}, {\"name\": \"a\"}"), "emitters[1]: name \"a\" is also emitters[0]'s"},
    {E1("\"lifetim\": 2"), "emitters[0]: unknown key \"lifetim\""},
    {E1("\"rate\": 2, \"rate\": 3"), "emitters[0]: key \"rate\" given twice"},
    {E("{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"c\", \"lifetime\": [5, 2]}"),
     "emitters[2].lifetime: min 5 is greater than max 2"},
    {E1("\"lifetime\": \"long\""), "emitters[0].lifetime: not a number or an array of 2 numbers"},
    {E1("\"lifetime\": [1, 2, 3]"), "emitters[0].lifetime: not a number or an array of 2 numbers"},
    {E1("\"lifetime\": [0, 2]"), "emitters[0].lifetime[0]: 0 is outside [0.001, 3600]"},
    {E1("\"speed\": [1, null]"), "emitters[0].speed[1]: not a number"},
    {E1("\"rate\": -1"), "emitters[0].rate: -1 is outside [0, 1e+06]"},
    {E1("\"rate\": 1e999"), "emitters[0].rate: inf is out of range"},
    {E1("\"rate\": true"), "emitters[0].rate: not a number"},
    {E1("\"shape\": \"cube\""),
     "emitters[0].shape: \"cube\" is not one of \"point\", \"box\", \"sphere\", \"disc\""},
    {E1("\"radius\": 1"), "emitters[0].radius: only for a sphere or a disc shape"},
    {E1("\"shape\": \"box\", \"half_extent\": [1, 2]"), "emitters[0].half_extent: not an array of 3 numbers"},
    {E1("\"shape\": \"box\", \"half_extent\": [1, -2, 1]"),
     "emitters[0].half_extent: -2 is outside [0, 1000]"},
    {E1("\"direction\": [0, 0, 0]"), "emitters[0].direction: has no length"},
    {E1("\"cone_deg\": 200"), "emitters[0].cone_deg: 200 degrees is outside [0, 180]"},
    {E1("\"cone_deg\": [1, 2]"), "emitters[0].cone_deg: not a number"},
    {E1("\"spin_deg\": [0, 40000]"), "emitters[0].spin_deg: 40000 degrees is outside [-36000, 36000]"},
    {E1("\"color\": [1, 1, 1, 1.5]"), "emitters[0].color[0][3]: 1.5 is outside [0, 1]"},
    {E1("\"color\": [1, 1, 1]"), "emitters[0].color: not an array of 4 numbers or a [start, end] pair"},
    {E1("\"color\": [[1, 1, 1, 1], [1, \"x\", 1, 1]]"), "emitters[0].color[1][1]: not a number"},
    {E1("\"emission\": [[1, 2, 3], [1, 2, -3]]"), "emitters[0].emission[1][2]: -3 is outside [0, 1e+06]"},
    {E1("\"size_jitter\": 2"), "emitters[0].size_jitter: 2 is outside [0, 1]"},
    {E1("\"bursts\": {\"count\": 1}"), "emitters[0].bursts: not an array"},
    {E1("\"bursts\": [{\"count\": 1}, {\"count\": 1}, {\"count\": 1}, {\"count\": 1}, {\"count\": 1}, "
        "{\"count\": 1}, {\"count\": 1}, {\"count\": 1}, {\"count\": 1}]"),
     "emitters[0].bursts: 9 bursts, more than 8"},
    {E1("\"bursts\": [{\"time\": 1}]"), "emitters[0].bursts[0]: no \"count\""},
    {E1("\"bursts\": [{\"count\": 1}, {\"count\": 0}]"),
     "emitters[0].bursts[1].count: 0 is outside [1, 65536]"},
    {E1("\"bursts\": [{\"count\": 2, \"cycles\": 3}]"),
     "emitters[0].bursts[0].cycles: 3 repeats need an interval"},
    {E1("\"bursts\": [{\"count\": 2, \"when\": 3}]"), "emitters[0].bursts[0]: unknown key \"when\""},
    {E1("\"bursts\": [{\"count\": 2, \"interval\": 1e-5}]"),
     "emitters[0].bursts[0].interval: 1e-05 is under"},
    {E1("\"atlas\": {\"columns\": 4, \"rows\": 4, \"frames\": 20}"),
     "emitters[0].atlas.frames: 20 is outside [1, 16]"},
    {E1("\"atlas\": {\"colums\": 4}"), "emitters[0].atlas: unknown key \"colums\""},
    {E1("\"atlas\": {\"columns\": 65}"), "emitters[0].atlas.columns: 65 is outside [1, 64]"},
    {E1("\"atlas\": {\"fps\": 10, \"over_life\": true}"),
     "emitters[0].atlas.fps: a rate and over_life together"},
    {E1("\"atlas\": {\"over_life\": 1}"), "emitters[0].atlas.over_life: not true or false"},
    {E1("\"max_particles\": 0"), "emitters[0].max_particles: 0 is outside [1, 1048576]"},
    {E1("\"max_particles\": 1.5"), "emitters[0].max_particles: 1.5 is not an integer"},
    {E1("\"max_particles\": -4"), "emitters[0].max_particles: -4 is outside [0, 4294967295]"},
    {E1("\"render\": \"sprite\""), "emitters[0].render: \"sprite\" is not one of"},
    {E1("\"stretch\": 0.1"), "emitters[0].stretch: only for velocity-aligned quads"},
    {E1("\"blend\": 1"), "emitters[0].blend: not a string"},
    {E1("\"collision\": \"explode\""),
     "emitters[0].collision: \"explode\" is not one of \"none\", \"bounce\", \"die\""},
    {E1("\"collision_thickness\": 0"), "emitters[0].collision_thickness: 0 is outside [0.001, 100]"},
    {E1("\"curl_scale\": 0"), "emitters[0].curl_scale: 0 is outside [0.0001, 100]"},
    {E1("\"gravity\": [0, -2000, 0]"), "emitters[0].gravity: -2000 is outside [-1000, 1000]"},
    {"{\"emitters\": [[[[[[[[[1]]]]]]]]]}", "JSON nested deeper than 8 levels"},
};

static void check_refused(const char *what, const char *text, size_t len, const char *words)
{
    gn_emitter_file f;
    memset(&f, 0xab, sizeof f);
    gn_error err = {0};
    gn_result r = gn_emitter_parse(text, len, NAME, &f, &err);
    char want[512];
    snprintf(want, sizeof want, NAME ": %s", words);
    CHECK(r == GN_ERROR_BAD_DATA, "%s: accepted (%s)", what, gn_result_name(r));
    CHECK(strncmp(err.message, want, strlen(want)) == 0, "%s:\n  got  \"%s\"\n  want \"%s...\"", what,
          err.message, want);
    CHECK(f.count == 0 && f.emitters == NULL, "%s: not zeroed", what);
    CHECK(strchr(err.message, '\n') == NULL, "%s: more than one line", what);
}

static void test_bad(void)
{
    int n = (int)(sizeof bad_cases / sizeof bad_cases[0]);
    for (int i = 0; i < n; i++) {
        char what[32];
        snprintf(what, sizeof what, "case %d", i);
        check_refused(what, bad_cases[i].text, strlen(bad_cases[i].text), bad_cases[i].words);
    }
    /* a NUL byte inside; 65 emitters; over the size cap */
    static const char nul[] = "{\"emitters\": [{\"name\": \"a\"}]}\0 ";
    check_refused("NUL", nul, sizeof nul - 1, "a NUL byte at line 1, column 30");
    size_t cap = 65 * 16 + 64;
    char *many = malloc(cap);
    size_t at = (size_t)snprintf(many, cap, "{\"emitters\": [");
    for (int i = 0; i < 65; i++)
        at += (size_t)snprintf(many + at, cap - at, "%s{\"name\": \"e%d\"}", i ? "," : "", i);
    at += (size_t)snprintf(many + at, cap - at, "]}");
    check_refused("65 emitters", many, at, "emitters: 65 emitters, outside [1, 64]");
    free(many);
    size_t big = GN_EMITTER_MAX_BYTES + 1;
    char *huge = malloc(big);
    memset(huge, ' ', big);
    check_refused("over the cap", huge, big, "1048577 bytes, over the cap");
    free(huge);
    fprintf(stderr, "emitter: %d malformed files refused with their key paths\n", n + 3);
}

static void test_load(void)
{
    char path[] = "/tmp/gn_emitter_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0) return;
    CHECK(write(fd, good, strlen(good)) == (ssize_t)strlen(good), "write");
    close(fd);
    gn_emitter_file f;
    gn_error err = {0};
    CHECK(gn_emitter_load(path, &f, &err) == GN_OK && f.count == 4, "load: %s", err.message);
    gn_emitter_file_free(&f);
    unlink(path);
    gn_result r = gn_emitter_load(path, &f, &err);
    CHECK(r == GN_ERROR_IO && strstr(err.message, path), "a missing file: %s %s", gn_result_name(r),
          err.message);
    r = gn_emitter_load("/tmp", &f, &err);
    CHECK(r == GN_ERROR_IO && f.count == 0, "a folder: %s %s", gn_result_name(r), err.message);
}

int main(void)
{
    test_good();
    test_bad();
    test_load();
    return gn_check_exit();
}

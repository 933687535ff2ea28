/* glTF loading (src/formats/gltf.c through src/scene/gltf_scene.c): a tiny file written here
 * checks the conventions (uvs, tangents, node transforms, material factors, a missing image);
 * malformed files must fail cleanly with a message, leaving the scene as it was; the shared
 * data's helmet and Sponza (when present) check counts. No device needed. */
#include "decide/camera.h"
#include "decide/tfx.h"
#include "formats/dds.h"
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
#define GN_ASSIMP_CAMERAS "/usr/share/assimp/models/glTF2/cameras/Cameras.gltf"

static int gn_warnings;
static void count_log(gn_log_level level, const char *msg, void *user)
{
    (void)user;
    if (level <= GN_LOG_WARN) gn_warnings++;
    printf("  log %d: %s\n", (int)level, msg);
}

static int write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    size_t w = fwrite(data, 1, n, f);
    return fclose(f) != 0 || w != n;
}

static void tmp_path(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", GN_TEST_TMP, name); }

/* One triangle in the z = 0 plane facing +Z, uvs with v = 0 at the top (glTF), under a node
 * translated by (2,3,4) with a child scaled by 2 that holds the mesh. */
static const char *tri_json =
    "{\"asset\":{\"version\":\"2.0\"},%s"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":1},\"indices\":2,"
    "\"material\":0}]}],"
    "\"materials\":[%s],"
    "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"missing_image.png\"}],"
    "\"buffers\":[{\"uri\":\"tri.bin\",\"byteLength\":68}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},"
    "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":24},{\"buffer\":0,\"byteOffset\":60,\"byteLength\":6}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%d,\"type\":\"VEC3\","
    "\"min\":[0,0,0],\"max\":[1,1,0]},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC2\"},"
    "{\"bufferView\":2,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}]}";

/* The triangle's node tree: the mesh under a node translated by (2,3,4), scaled by 2. */
static const char *tri_scene =
    "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"translation\":[2,3,4],\"children\":[1]},{\"scale\":[2,2,2],\"mesh\":0}],";
/* The triangle's material, and one whose zeros mean something (smooth, cut nothing). */
static const char *tri_material =
    "{\"name\":\"tri\",\"alphaMode\":\"BLEND\",\"doubleSided\":true,\"pbrMetallicRoughness\":{"
    "\"baseColorFactor\":[0.5,0.25,1,1],\"metallicFactor\":0.3,\"roughnessFactor\":0.6,"
    "\"baseColorTexture\":{\"index\":0}}}";
static const char *zero_material = "{\"name\":\"zeros\",\"alphaMode\":\"MASK\",\"alphaCutoff\":0,"
                                   "\"pbrMetallicRoughness\":{\"roughnessFactor\":0}}";

static int write_tri_with(const char *name, int position_count, const char *material, const char *scene)
{
    float buf[17] = {0, 0, 0, 1, 0, 0, 0, 1, 0, /* positions */
                     0, 1, 1, 1, 0, 0};         /* uvs: v = 1 at y = 0, v = 0 at y = 1 */
    uint16_t idx[4] = {0, 1, 2, 0};
    memcpy(&buf[15], idx, sizeof idx);
    char path[1024], json[8192];
    tmp_path(path, sizeof path, "tri.bin");
    if (write_file(path, buf, 68)) return 1;
    snprintf(json, sizeof json, tri_json, scene, material, position_count);
    tmp_path(path, sizeof path, name);
    return write_file(path, json, strlen(json));
}

static int write_tri(const char *name, int position_count)
{
    return write_tri_with(name, position_count, tri_material, tri_scene);
}

static int test_triangle(void)
{
    char path[1024];
    CHECK(write_tri("tri.gltf", 3) == 0, "cannot write %s/tri.gltf", GN_TEST_TMP);
    tmp_path(path, sizeof path, "tri.gltf");
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_gltf_stats st;
    gn_warnings = 0;
    gn_gltf_desc d = {.log = count_log, .stats = &st};
    gn_result r = gn_gltf_scene_load(s, path, &d, &err);
    CHECK(r == GN_OK, "%s: %s", gn_result_name(r), err.message);
    CHECK(s->mesh_count == 1 && s->instance_count == 1 && s->material_count == 1,
          "%u meshes %u instances %u materials", s->mesh_count, s->instance_count, s->material_count);
    CHECK(st.triangles == 1 && st.textures == 0 && st.textures_missing == 1, "tris %llu tex %u missing %u",
          (unsigned long long)st.triangles, st.textures, st.textures_missing);
    CHECK(st.alpha_blend == 1, "alpha_blend %u", st.alpha_blend);
    CHECK(st.double_sided == 1, "double_sided %u", st.double_sided);
    /* a missing image: one warning (the alpha mode is supported, so it is not one) */
    CHECK(gn_warnings == 1, "%d warnings, expected 1", gn_warnings);
    const gn_material *m = &s->materials[0];
    CHECK(m->alpha_mode == GN_ALPHA_BLEND, "alpha mode %u, the file says BLEND", m->alpha_mode);
    /* doubleSided: the raster byte overrides the passes' culling with two-sided */
    CHECK(GN_STATE_RASTER_CULL(gn_state_resolve(0, m->state, 0) >> GN_STATE_RASTER_SHIFT) ==
              GN_CULL_TWO_SIDED,
          "state %08x: doubleSided is not two-sided", m->state);
    CHECK(fabsf(m->base_color[0] - 0.5f) < 1e-6f && fabsf(m->base_color[1] - 0.25f) < 1e-6f &&
              fabsf(m->metallic - 0.3f) < 1e-6f && fabsf(m->roughness - 0.6f) < 1e-6f,
          "material (%g %g) metallic %g roughness %g", (double)m->base_color[0], (double)m->base_color[1],
          (double)m->metallic, (double)m->roughness);
    CHECK(m->base_color_texture == GN_NO_TEXTURE, "texture %u for a missing image", m->base_color_texture);
    /* column-major: translation in 12..14, the child's scale on the diagonal */
    const float *t = s->instances[0].transform;
    CHECK(t[0] == 2 && t[5] == 2 && t[10] == 2 && t[12] == 2 && t[13] == 3 && t[14] == 4 && t[15] == 1,
          "transform diag (%g %g %g) translation (%g %g %g)", (double)t[0], (double)t[5], (double)t[10],
          (double)t[12], (double)t[13], (double)t[14]);
    for (uint32_t i = 0; i < 3; i++) {
        const gn_vertex *v = &s->vertices[s->meshes[0].first_vertex + i];
        /* uvs exactly as in the file (v = 1 - y): assimp's flip is undone */
        CHECK(fabsf(v->uv[1] - (1.0f - v->pos[1])) < 1e-6f && fabsf(v->uv[0] - v->pos[0]) < 1e-6f,
              "vertex %u at (%g %g) has uv (%g %g)", i, (double)v->pos[0], (double)v->pos[1],
              (double)v->uv[0], (double)v->uv[1]);
        /* counter-clockwise from +Z: the generated normal faces +Z */
        CHECK(v->normal[2] > 0.999f, "normal z %g", (double)v->normal[2]);
        /* tangent along +u = +X; bitangent cross(n, t) * w towards decreasing v = +Y */
        float by = (v->normal[2] * v->tangent[0] - v->normal[0] * v->tangent[2]) * v->tangent[3];
        CHECK(v->tangent[0] > 0.999f && by > 0.999f, "tangent (%g %g %g %g), bitangent y %g",
              (double)v->tangent[0], (double)v->tangent[1], (double)v->tangent[2], (double)v->tangent[3],
              (double)by);
    }
    /* the default camera looks at the triangle from +Z, above it */
    CHECK(s->default_camera[2] > 4.0f && s->default_camera[1] > 3.0f && s->default_camera[4] < 0.0f,
          "camera (%g %g %g) pitch %g", (double)s->default_camera[0], (double)s->default_camera[1],
          (double)s->default_camera[2], (double)s->default_camera[4]);
    gn_scene_destroy(s);
    printf("triangle: ok\n");
    return 0;
}

/* A file's roughness 0 is the BRDF's smoothest, not gnomon's default; a MASK cutoff of 0 cuts
 * nothing, which is opaque (gnomon.h reads a desc's zeros as 0.5 for both). */
static int test_zero_factors(void)
{
    char path[1024];
    CHECK(write_tri_with("zeros.gltf", 3, zero_material, tri_scene) == 0, "cannot write zeros.gltf");
    tmp_path(path, sizeof path, "zeros.gltf");
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_gltf_desc d = {.log = count_log};
    gn_result r = gn_gltf_scene_load(s, path, &d, &err);
    CHECK(r == GN_OK, "%s: %s", gn_result_name(r), err.message);
    const gn_material *m = &s->materials[0];
    CHECK(m->roughness == GN_MATERIAL_MIN_ROUGHNESS, "roughness 0 became %g, want %g", (double)m->roughness,
          (double)GN_MATERIAL_MIN_ROUGHNESS);
    CHECK(m->alpha_mode == GN_ALPHA_OPAQUE, "MASK with cutoff 0 became mode %u, want opaque", m->alpha_mode);
    gn_scene_destroy(s);
    printf("zero factors: ok\n");
    return 0;
}

/* ---- the default camera ------------------------------------------------------------------ */

/* Loads a file through the public API and returns its scene info (false: it did not load). */
static bool load_info(const char *path, gn_scene_info *info)
{
    gn_scene *s = NULL;
    gn_error err = {0};
    gn_load_desc ld = {.path = path, .log = count_log};
    if (gn_scene_load(&ld, &s, &err) != GN_OK) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        return false;
    }
    gn_scene_get_info(s, info);
    gn_scene_destroy(s);
    return true;
}

/* Angle in degrees between the camera's view direction and the direction to p. */
static float angle_to(const float cam[5], const float p[3])
{
    float f[3], d[3], dd = 0, fd = 0;
    gn_camera_forward(cam[3], cam[4], f);
    for (int k = 0; k < 3; k++) d[k] = p[k] - cam[k], dd += d[k] * d[k];
    for (int k = 0; k < 3; k++) fd += f[k] * d[k] / sqrtf(dd);
    return acosf(fminf(fmaxf(fd, -1.0f), 1.0f)) * 180.0f / 3.14159265f;
}

/* A camera node under a translated parent, turned by yaw 30 and pitch -20 degrees (glTF's
 * camera looks down its node's -Z): the scene's default camera must be exactly that. */
static int test_file_camera(void)
{
    const float yaw = 30.0f * 3.14159265f / 180.0f, pitch = -20.0f * 3.14159265f / 180.0f;
    /* q = Ry(yaw) * Rx(pitch), as x, y, z, w */
    float cy = cosf(0.5f * yaw), sy = sinf(0.5f * yaw), cx = cosf(0.5f * pitch), sx = sinf(0.5f * pitch);
    float q[4] = {cy * sx, sy * cx, -sy * sx, cy * cx};
    char scene[1024], path[1024];
    snprintf(
        scene, sizeof scene,
        "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"translation\":[10,0,0],\"children\":[1,2]},"
        "{\"name\":\"eye\",\"translation\":[1,2,3],\"rotation\":[%.9g,%.9g,%.9g,%.9g],\"camera\":0},"
        "{\"mesh\":0}],\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0.8,"
        "\"aspectRatio\":1.5,\"znear\":0.1}}],",
        (double)q[0], (double)q[1], (double)q[2], (double)q[3]);
    CHECK(write_tri_with("camera.gltf", 3, tri_material, scene) == 0, "cannot write camera.gltf");
    tmp_path(path, sizeof path, "camera.gltf");
    gn_scene_info info;
    CHECK(load_info(path, &info), "camera.gltf did not load");
    const float want[5] = {11, 2, 3, 30, -20}, *got = info.default_camera;
    for (int k = 0; k < 5; k++)
        CHECK(fabsf(got[k] - want[k]) < 1e-3f, "camera (%g %g %g) yaw %g pitch %g, want (11 2 3) 30 -20",
              (double)got[0], (double)got[1], (double)got[2], (double)got[3], (double)got[4]);
    CHECK(fabsf(info.default_fov_y - 0.8f * 180.0f / 3.14159265f) < 1e-3f, "fov %g degrees, want %g",
          (double)info.default_fov_y, 0.8 * 180.0 / 3.14159265);
    printf("file camera: ok\n");
    return 0;
}

/* A box from lo to hi as a .gltf of one mesh (8 corners, 12 triangles), its faces turned
 * inwards (a room) or outwards (an object). */
static int write_box(const char *name, const float lo[3], const float hi[3], bool inward)
{
    /* outward quads over corners i = x | y << 1 | z << 2 */
    static const uint16_t quads[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                                         {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    uint8_t buf[96 + 72];
    float pos[24];
    uint16_t idx[36];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++) pos[i * 3 + k] = (i >> k) & 1 ? hi[k] : lo[k];
    for (int f = 0; f < 6; f++) {
        const uint16_t *c = quads[f];
        uint16_t t[6] = {c[0], c[1], c[2], c[0], c[2], c[3]};
        if (inward) t[1] = c[2], t[2] = c[1], t[4] = c[3], t[5] = c[2];
        memcpy(&idx[f * 6], t, sizeof t);
    }
    memcpy(buf, pos, 96);
    memcpy(buf + 96, idx, 72);
    char path[1024], bin[256], json[2048];
    snprintf(bin, sizeof bin, "%s.bin", name);
    tmp_path(path, sizeof path, bin);
    if (write_file(path, buf, sizeof buf)) return 1;
    snprintf(
        json, sizeof json,
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],"
        "\"buffers\":[{\"uri\":\"%s\",\"byteLength\":168}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":96},"
        "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":72}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":8,\"type\":\"VEC3\","
        "\"min\":[%g,%g,%g],\"max\":[%g,%g,%g]},"
        "{\"bufferView\":1,\"componentType\":5123,\"count\":36,\"type\":\"SCALAR\"}]}",
        bin, (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]);
    tmp_path(path, sizeof path, name);
    return write_file(path, json, strlen(json));
}

/* Without a camera: a wide, low room is seen from inside at eye height along its long side;
 * a small object from outside its bounding sphere, looking at its centre. */
static int test_framing(void)
{
    char path[1024];
    gn_scene_info info;
    const float room_lo[3] = {-10, 0, -6}, room_hi[3] = {10, 4, 6};
    CHECK(write_box("room.gltf", room_lo, room_hi, true) == 0, "cannot write room.gltf");
    tmp_path(path, sizeof path, "room.gltf");
    CHECK(load_info(path, &info), "room.gltf did not load");
    const float *c = info.default_camera;
    printf("  room: camera (%.3f %.3f %.3f) yaw %.2f pitch %.2f\n", (double)c[0], (double)c[1], (double)c[2],
           (double)c[3], (double)c[4]);
    for (int k = 0; k < 3; k++)
        CHECK(c[k] > room_lo[k] && c[k] < room_hi[k], "room camera (%g %g %g) is not inside the room",
              (double)c[0], (double)c[1], (double)c[2]);
    CHECK(fabsf(c[1] - 1.7f) < 1e-3f, "room camera at %g m, want eye height 1.7 m above the floor",
          (double)c[1]);
    CHECK(fabsf(fabsf(c[3]) - 90.0f) < 1.0f && fabsf(c[4]) < 1.0f,
          "room camera yaw %g pitch %g: not level along the 20 m side (X)", (double)c[3], (double)c[4]);
    CHECK(info.default_fov_y == 0.0f, "a file without a camera gave a field of view %g",
          (double)info.default_fov_y);

    const float obj_lo[3] = {2, 1, -3}, obj_hi[3] = {2.6f, 1.4f, -2.5f};
    CHECK(write_box("object.gltf", obj_lo, obj_hi, false) == 0, "cannot write object.gltf");
    tmp_path(path, sizeof path, "object.gltf");
    CHECK(load_info(path, &info), "object.gltf did not load");
    float ctr[3], r2 = 0, d2 = 0;
    for (int k = 0; k < 3; k++) {
        ctr[k] = 0.5f * (obj_lo[k] + obj_hi[k]);
        r2 += 0.25f * (obj_hi[k] - obj_lo[k]) * (obj_hi[k] - obj_lo[k]);
        d2 += (c[k] - ctr[k]) * (c[k] - ctr[k]);
    }
    printf("  object: camera (%.3f %.3f %.3f) yaw %.2f pitch %.2f, %.3f m from the centre (radius %.3f)\n",
           (double)c[0], (double)c[1], (double)c[2], (double)c[3], (double)c[4], sqrt((double)d2),
           sqrt((double)r2));
    CHECK(d2 > r2, "object camera %g m from the centre, inside the bounding sphere (%g m)", sqrt((double)d2),
          sqrt((double)r2));
    CHECK(angle_to(c, ctr) < 1.0f, "object camera looks %g degrees away from the centre",
          (double)angle_to(c, ctr));
    printf("framing: ok\n");
    return 0;
}

/* assimp's own sample with two cameras (Debian's assimp-testmodels): the first, perspective
 * one at its node's translation, looking down -Z, yfov 0.7 rad. */
static int test_assimp_cameras(const char *path)
{
    gn_scene_info info;
    CHECK(load_info(path, &info), "%s did not load", path);
    const float want[5] = {0.5f, 0.5f, 3.0f, 0, 0}, *got = info.default_camera;
    for (int k = 0; k < 5; k++)
        CHECK(fabsf(got[k] - want[k]) < 1e-3f, "%s: camera (%g %g %g) yaw %g pitch %g, want (0.5 0.5 3) 0 0",
              path, (double)got[0], (double)got[1], (double)got[2], (double)got[3], (double)got[4]);
    CHECK(fabsf(info.default_fov_y - 0.7f * 180.0f / 3.14159265f) < 1e-3f, "fov %g",
          (double)info.default_fov_y);
    printf("%s: ok\n", path);
    return 0;
}

/* A load that must fail: the right code, a message naming the file, the scene untouched. */
static int expect_failure(const char *path, gn_result want)
{
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_gltf_desc d = {.log = count_log};
    gn_result r = gn_gltf_scene_load(s, path, &d, &err);
    printf("  %s -> %s: %s\n", path, gn_result_name(r), err.message);
    CHECK(r == want, "%s gave %s, expected %s", path, gn_result_name(r), gn_result_name(want));
    CHECK(strstr(err.message, path) != NULL, "message '%s' does not name %s", err.message, path);
    CHECK(s->mesh_count == 0 && s->instance_count == 0 && s->material_count == 0 && s->texture_count == 0 &&
              s->vertex_count == 0,
          "failed load left %u meshes %u instances %u materials", s->mesh_count, s->instance_count,
          s->material_count);
    gn_scene_destroy(s);
    return 0;
}

static int test_malformed(const char *helmet_glb)
{
    char path[1024];
    CHECK(expect_failure(GN_TEST_TMP "/does_not_exist.gltf", GN_ERROR_IO) == 0, "missing file");
    /* accessor of 300 positions in a 36-byte view */
    CHECK(write_tri("past_buffer.gltf", 300) == 0, "write");
    tmp_path(path, sizeof path, "past_buffer.gltf");
    CHECK(expect_failure(path, GN_ERROR_BAD_DATA) == 0, "accessor past its buffer");
    /* a .glb header promising 4000 bytes, then nothing */
    const uint32_t header[5] = {0x46546C67u, 2, 4000, 3000, 0x4E4F534Au};
    tmp_path(path, sizeof path, "short.glb");
    CHECK(write_file(path, header, sizeof header) == 0, "write");
    CHECK(expect_failure(path, GN_ERROR_BAD_DATA) == 0, "truncated synthetic glb");
    /* a consistent total length but a JSON chunk claiming ~3.8 GB (found by fuzz_gltf:
     * assimp allocates the claimed size before comparing it with the file) */
    uint8_t big[64] = {0};
    const uint32_t big_header[5] = {0x46546C67u, 2, sizeof big, 0xE50003E0u, 0x4E4F534Au};
    memcpy(big, big_header, sizeof big_header);
    tmp_path(path, sizeof path, "huge_chunk.glb");
    CHECK(write_file(path, big, sizeof big) == 0, "write");
    CHECK(expect_failure(path, GN_ERROR_BAD_DATA) == 0, "huge JSON chunk");
    const char *junk = "{\"asset\":{\"version\":\"2.0\"},\"meshes\":[{\"primitives\":[{\"attributes\":";
    tmp_path(path, sizeof path, "cut.gltf");
    CHECK(write_file(path, junk, strlen(junk)) == 0, "write");
    CHECK(expect_failure(path, GN_ERROR_BAD_DATA) == 0, "cut json");
    if (!helmet_glb) return 0;
    /* the real helmet cut at several points: header, JSON, binary chunk */
    FILE *f = fopen(helmet_glb, "rb");
    CHECK(f, "cannot open %s", helmet_glb);
    static uint8_t bytes[1u << 20];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    const size_t cuts[] = {20, 1000, 5000, 100000, 1000000};
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        if (cuts[k] > n) continue;
        snprintf(path, sizeof path, "%s/helmet_cut_%zu.glb", GN_TEST_TMP, cuts[k]);
        CHECK(write_file(path, bytes, cuts[k]) == 0, "write");
        CHECK(expect_failure(path, GN_ERROR_BAD_DATA) == 0, "helmet cut at %zu", cuts[k]);
    }
    printf("malformed: ok\n");
    return 0;
}

/* Fraction of triangles whose winding agrees with their vertex normals, and whose tangent
 * frame's bitangent points towards decreasing v (gnomon's convention, scene.h). */
static void frame_agreement(const gn_scene *s, double *winding, double *bitangent)
{
    uint64_t n = 0, wind_ok = 0, bit_n = 0, bit_ok = 0;
    for (uint32_t mi = 0; mi < s->mesh_count; mi++) {
        const gn_mesh *m = &s->meshes[mi];
        const gn_vertex *v = &s->vertices[m->first_vertex];
        const uint32_t *idx = &s->indices[m->first_index];
        for (uint32_t t = 0; t + 2 < m->index_count; t += 3) {
            const gn_vertex *a = &v[idx[t]], *b = &v[idx[t + 1]], *c = &v[idx[t + 2]];
            float e1[3], e2[3], fn[3], ns[3];
            for (int k = 0; k < 3; k++) {
                e1[k] = b->pos[k] - a->pos[k], e2[k] = c->pos[k] - a->pos[k];
                ns[k] = a->normal[k] + b->normal[k] + c->normal[k];
            }
            fn[0] = e1[1] * e2[2] - e1[2] * e2[1], fn[1] = e1[2] * e2[0] - e1[0] * e2[2];
            fn[2] = e1[0] * e2[1] - e1[1] * e2[0];
            n++;
            wind_ok += fn[0] * ns[0] + fn[1] * ns[1] + fn[2] * ns[2] > 0;
            /* dP/dv from the uvs; the bitangent should oppose it */
            float du1 = b->uv[0] - a->uv[0], dv1 = b->uv[1] - a->uv[1];
            float du2 = c->uv[0] - a->uv[0], dv2 = c->uv[1] - a->uv[1];
            float det = du1 * dv2 - du2 * dv1;
            if (fabsf(det) < 1e-12f) continue;
            float dpdv[3], bt[3];
            for (int k = 0; k < 3; k++) dpdv[k] = (du1 * e2[k] - du2 * e1[k]) / det;
            const float *N = a->normal, *T = a->tangent;
            bt[0] = (N[1] * T[2] - N[2] * T[1]) * T[3], bt[1] = (N[2] * T[0] - N[0] * T[2]) * T[3];
            bt[2] = (N[0] * T[1] - N[1] * T[0]) * T[3];
            bit_n++;
            bit_ok += bt[0] * dpdv[0] + bt[1] * dpdv[1] + bt[2] * dpdv[2] < 0;
        }
    }
    *winding = n ? (double)wind_ok / (double)n : 0;
    *bitangent = bit_n ? (double)bit_ok / (double)bit_n : 0;
}

static int test_helmet(const char *path)
{
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_gltf_stats st;
    gn_warnings = 0;
    gn_gltf_desc d = {.log = count_log, .stats = &st};
    gn_result r = gn_gltf_scene_load(s, path, &d, &err);
    CHECK(r == GN_OK, "%s: %s", gn_result_name(r), err.message);
    printf("%s: %u meshes, %u instances, %llu triangles, %u materials, %u textures (%u missing), "
           "normal-mapped %u, "
           "emissive %u, metal-rough %u, occlusion %u\n",
           path, st.meshes, st.instances, (unsigned long long)st.triangles, st.materials, st.textures,
           st.textures_missing, st.normal_mapped, st.emissive_mapped, st.metal_rough_mapped,
           st.occlusion_mapped);
    /* The Khronos sample: 46356 indices, 15452 triangles; one material with five maps. */
    CHECK(st.triangles == 15452, "triangles %llu, expected 15452", (unsigned long long)st.triangles);
    CHECK(st.meshes == 1 && st.instances == 1 && st.materials == 1, "meshes %u instances %u materials %u",
          st.meshes, st.instances, st.materials);
    CHECK(st.textures == 5 && st.textures_missing == 0 && gn_warnings == 0,
          "textures %u missing %u warnings %d (all five maps expected)", st.textures, st.textures_missing,
          gn_warnings);
    CHECK(st.normal_mapped == 1 && st.emissive_mapped == 1 && st.metal_rough_mapped == 1 &&
              st.occlusion_mapped == 1,
          "slots: normal %u emissive %u metal-rough %u occlusion %u", st.normal_mapped, st.emissive_mapped,
          st.metal_rough_mapped, st.occlusion_mapped);
    const gn_material *m = &s->materials[0];
    CHECK(m->base_color_texture != GN_NO_TEXTURE && m->normal_texture != GN_NO_TEXTURE, "textures %u %u",
          m->base_color_texture, m->normal_texture);
    CHECK(s->textures[m->base_color_texture].srgb && !s->textures[m->normal_texture].srgb,
          "srgb flags wrong");
    CHECK(s->textures[m->base_color_texture].width == 2048, "base colour width %u",
          s->textures[m->base_color_texture].width);
    /* the other three maps are textures of their own, in the right colour space; the factors
     * stay as the file gives them (1) and the maps scale them per texel */
    CHECK(m->metallic_roughness_texture != GN_NO_TEXTURE && m->occlusion_texture != GN_NO_TEXTURE &&
              m->emissive_texture != GN_NO_TEXTURE,
          "maps %u %u %u", m->metallic_roughness_texture, m->occlusion_texture, m->emissive_texture);
    CHECK(!s->textures[m->metallic_roughness_texture].srgb && !s->textures[m->occlusion_texture].srgb &&
              s->textures[m->emissive_texture].srgb,
          "map colour spaces wrong");
    CHECK(m->emissive[0] == 1.0f && m->metallic == 1.0f && m->roughness == 1.0f, "factors %g %g %g",
          (double)m->emissive[0], (double)m->metallic, (double)m->roughness);
    printf("  default camera (%.2f %.2f %.2f) yaw %.1f pitch %.1f\n", (double)s->default_camera[0],
           (double)s->default_camera[1], (double)s->default_camera[2], (double)s->default_camera[3],
           (double)s->default_camera[4]);
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    float ctr[3], r2 = 0, d2 = 0;
    for (int k = 0; k < 3; k++) {
        float e = info.bounds_max[k] - info.bounds_min[k];
        ctr[k] = 0.5f * (info.bounds_min[k] + info.bounds_max[k]), r2 += 0.25f * e * e;
        d2 += (s->default_camera[k] - ctr[k]) * (s->default_camera[k] - ctr[k]);
    }
    CHECK(d2 > r2 && angle_to(s->default_camera, ctr) < 1.0f,
          "an object: the camera must be outside its bounding sphere (%g > %g m) and look at it (%g degrees "
          "off)",
          sqrt((double)d2), sqrt((double)r2), (double)angle_to(s->default_camera, ctr));
    double wind, bit;
    frame_agreement(s, &wind, &bit);
    printf("  winding agrees with the file's normals: %.4f; bitangent towards -v: %.4f\n", wind, bit);
    CHECK(wind > 0.98, "only %.4f of triangles wind counter-clockwise around their normals", wind);
    CHECK(bit > 0.95, "only %.4f of bitangents point towards decreasing v", bit);
    gn_scene_destroy(s);
    return 0;
}

static int test_sponza(const char *path)
{
    gn_scene *s;
    gn_error err = {0};
    CHECK(gn_scene_create(&s, &err) == GN_OK, "%s", err.message);
    gn_gltf_stats st;
    gn_warnings = 0;
    gn_gltf_desc d = {.log = count_log, .stats = &st};
    gn_result r = gn_gltf_scene_load(s, path, &d, &err);
    CHECK(r == GN_OK, "%s: %s", gn_result_name(r), err.message);
    printf(
        "%s: %u meshes, %u instances, %llu triangles (%llu drawn), %u materials, %u textures (%u missing), "
        "normal-mapped %u, alpha mask %u blend %u, double-sided %u\n",
        path, st.meshes, st.instances, (unsigned long long)st.triangles,
        (unsigned long long)st.instanced_triangles, st.materials, st.textures, st.textures_missing,
        st.normal_mapped, st.alpha_mask, st.alpha_blend, st.double_sided);
    /* the three plant materials say doubleSided */
    CHECK(st.double_sided == 3, "double-sided materials %u, expected 3", st.double_sided);
    /* data/README.md: 262k triangles, 44 meshes, 170 instances */
    CHECK(st.meshes == 44, "meshes %u, expected 44", st.meshes);
    CHECK(st.instances == 170, "instances %u, expected 170", st.instances);
    CHECK(st.instanced_triangles > 257000 && st.instanced_triangles < 267000,
          "drawn triangles %llu, expected ~262k", (unsigned long long)st.instanced_triangles);
    /* 35 PNGs are used as base colour or normal maps, and 14 roughness maps, .dds files of BC4
     * blocks (AMD_split_roughnessMetallic through MSFT_texture_dds), by 19 materials */
    CHECK(st.materials == 24 && st.textures == 49 && st.textures_missing == 0 && st.metal_rough_mapped == 19,
          "materials %u, textures %u missing %u, roughness-mapped %u", st.materials, st.textures,
          st.textures_missing, st.metal_rough_mapped);
    uint32_t bc4 = 0;
    for (uint32_t i = 0; i < s->texture_count; i++)
        bc4 += s->textures[i].blocks == GN_DDS_BC4 && s->textures[i].levels > 1 &&
               memcmp(s->textures[i].swizzle, "rr11", 4) == 0;
    CHECK(bc4 == 14, "%u BC4 roughness textures with their mips and the rr11 swizzle, want 14", bc4);
    CHECK(st.normal_mapped == 12 && st.alpha_mask == 3, "normal-mapped materials %u, alpha mask %u",
          st.normal_mapped, st.alpha_mask);
    uint32_t masked = 0;
    for (uint32_t i = 0; i < s->material_count; i++)
        masked += s->materials[i].alpha_mode == GN_ALPHA_MASK && s->materials[i].alpha_cutoff > 0.0f &&
                  s->materials[i].alpha_cutoff < 1.0f;
    CHECK(masked == 3, "%u alpha-tested materials with a cutoff in (0, 1), want 3", masked);
    printf("  default camera (%.2f %.2f %.2f) yaw %.1f pitch %.1f\n", (double)s->default_camera[0],
           (double)s->default_camera[1], (double)s->default_camera[2], (double)s->default_camera[3],
           (double)s->default_camera[4]);
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    printf("  bounds (%.2f %.2f %.2f) .. (%.2f %.2f %.2f)\n", (double)info.bounds_min[0],
           (double)info.bounds_min[1], (double)info.bounds_min[2], (double)info.bounds_max[0],
           (double)info.bounds_max[1], (double)info.bounds_max[2]);
    for (int k = 0; k < 3; k++) /* an interior: the first picture is from inside */
        CHECK(s->default_camera[k] > info.bounds_min[k] && s->default_camera[k] < info.bounds_max[k],
              "Sponza's default camera (%g %g %g) is outside its bounds", (double)s->default_camera[0],
              (double)s->default_camera[1], (double)s->default_camera[2]);
    double wind, bit;
    frame_agreement(s, &wind, &bit);
    printf("  winding agrees with the file's normals: %.4f; bitangent towards -v: %.4f\n", wind, bit);
    CHECK(wind > 0.95, "winding agreement %.4f", wind);
    CHECK(bit > 0.9, "bitangent agreement %.4f", bit);
    gn_scene_destroy(s);
    return 0;
}

/* The data files CMake found (../shared/data may be absent: each test then skips). */
#ifndef GN_HELMET_GLB
#define GN_HELMET_GLB NULL
#endif
#ifndef GN_HELMET_GLTF
#define GN_HELMET_GLTF NULL
#endif
#ifndef GN_SPONZA_GLTF
#define GN_SPONZA_GLTF NULL
#endif
static const char *data_path(int which)
{
    const char *paths[3] = {GN_HELMET_GLB, GN_HELMET_GLTF, GN_SPONZA_GLTF};
    return paths[which];
}

int main(void)
{
    int fail = 0;
    const char *helmet_glb = data_path(0), *helmet_gltf = data_path(1), *sponza = data_path(2);
    fail |= test_triangle();
    fail |= test_zero_factors();
    fail |= test_file_camera();
    fail |= test_framing();
    FILE *cams = fopen(GN_ASSIMP_CAMERAS, "rb");
    if (cams) {
        fclose(cams);
        fail |= test_assimp_cameras(GN_ASSIMP_CAMERAS);
    } else {
        printf("skipped: %s not found (Debian's assimp-testmodels)\n", GN_ASSIMP_CAMERAS);
    }
    fail |= test_malformed(helmet_glb);
    if (helmet_gltf)
        fail |= test_helmet(helmet_gltf);
    else
        printf("skipped: DamagedHelmet.gltf not found (../shared/data)\n");
    if (helmet_glb)
        fail |= test_helmet(helmet_glb);
    else
        printf("skipped: DamagedHelmet.glb not found (../shared/data)\n");
    if (sponza)
        fail |= test_sponza(sponza);
    else
        printf("skipped: Sponza.gltf not found (../shared/data)\n");
    return fail;
}

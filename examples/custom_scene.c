/* custom_scene: a scene built through the API (a ground plane, a few boxes, a point light that
 * casts shadows) under a sun that moves from morning to sunset. Prints the statistics of every
 * frame and the passes of the last one, and writes the last frame to a PNG.
 *   cc custom_scene.c $(pkg-config --cflags --libs gnomon) -lstb -o custom_scene
 *   ./custom_scene out.png [WIDTHxHEIGHT] */
#include <gnomon.h>
#include <stb/stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>

/* Metres, +Y up. A square of grass; its normals are left to the scene (computed from the
 * counter-clockwise triangles). */
static gn_result add_ground_mesh(gn_scene *s, float half, uint32_t *id, gn_error *err)
{
    const float pos[] = {-half, 0, -half, -half, 0, half, half, 0, half, half, 0, -half};
    const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
    gn_mesh_desc d = {
        .positions = pos, .vertex_count = 4, .indices = idx, .index_count = 6, .label = "ground"};
    return gn_scene_add_mesh(s, &d, id, err);
}

/* A unit box standing on the origin (x and z in -0.5..0.5, y in 0..1), four vertices a face
 * so that each face keeps its own normal. Instances scale it. */
static gn_result add_box_mesh(gn_scene *s, uint32_t *id, gn_error *err)
{
    static const uint32_t ccw[2][6] = {{0, 1, 2, 0, 2, 3}, {0, 2, 1, 0, 3, 2}}; /* +side, -side */
    float pos[24 * 3], nrm[24 * 3] = {0};
    uint32_t idx[36];
    for (int f = 0; f < 6; f++) {
        int axis = f / 2, u = (axis + 1) % 3, v = (axis + 2) % 3; /* u x v points along +axis */
        float side = f % 2 ? -0.5f : 0.5f;
        for (int c = 0; c < 4; c++) { /* corners anticlockwise about +axis */
            float *p = pos + (f * 4 + c) * 3;
            p[axis] = side;
            p[u] = c == 1 || c == 2 ? 0.5f : -0.5f;
            p[v] = c >= 2 ? 0.5f : -0.5f;
            p[1] += 0.5f;
            nrm[(f * 4 + c) * 3 + axis] = 2.0f * side;
        }
        for (int k = 0; k < 6; k++) idx[f * 6 + k] = (uint32_t)f * 4 + ccw[f % 2][k];
    }
    gn_mesh_desc d = {.positions = pos,
                      .normals = nrm,
                      .vertex_count = 24,
                      .indices = idx,
                      .index_count = 36,
                      .label = "box"};
    return gn_scene_add_mesh(s, &d, id, err);
}

static gn_result build_scene(gn_scene *s, gn_error *err)
{
    const gn_material_desc materials[] = {
        {.base_color = {0.30f, 0.45f, 0.22f, 1.0f}, .roughness = 0.9f, .label = "grass"},
        {.base_color = {0.60f, 0.25f, 0.18f, 1.0f}, .roughness = 0.7f, .label = "brick"},
        {.base_color = {0.80f, 0.80f, 0.82f, 1.0f}, .metallic = 1.0f, .roughness = 0.3f, .label = "steel"},
        {.base_color = {0.85f, 0.82f, 0.75f, 1.0f}, .roughness = 0.5f, .label = "plaster"},
    };
    /* material, x, z, then the size along x, y, z in metres */
    const struct {
        uint32_t material;
        float x, z, size[3];
    } boxes[] = {
        {1, -3.0f, -4.0f, {2.0f, 6.0f, 2.0f}}, /* a brick tower */
        {3, 2.0f, -6.0f, {6.0f, 2.0f, 0.5f}},  /* a long wall */
        {2, 2.5f, -1.5f, {1.5f, 1.5f, 1.5f}},  /* a steel cube */
        {3, -1.0f, 1.0f, {1.0f, 0.8f, 1.0f}},  /* a plaster block */
    };
    uint32_t ground, box, mat[4];
    gn_result res = add_ground_mesh(s, 200.0f, &ground, err);
    if (res == GN_OK) res = add_box_mesh(s, &box, err);
    for (int i = 0; i < 4 && res == GN_OK; i++) res = gn_scene_add_material(s, &materials[i], &mat[i], err);
    if (res == GN_OK) /* an all-zero transform is the identity */
        res = gn_scene_add_instance(s, &(gn_instance_desc){.mesh = ground, .material = mat[0]}, NULL, err);
    for (size_t i = 0; i < sizeof boxes / sizeof boxes[0] && res == GN_OK; i++) {
        const float *k = boxes[i].size; /* column-major: scale, then move to (x, 0, z) */
        gn_instance_desc d = {
            .mesh = box,
            .material = mat[boxes[i].material],
            .transform = {k[0], 0, 0, 0, 0, k[1], 0, 0, 0, 0, k[2], 0, boxes[i].x, 0, boxes[i].z, 1}};
        res = gn_scene_add_instance(s, &d, NULL, err);
    }
    gn_light_desc lamp = {.type = GN_LIGHT_POINT,
                          .position = {0.5f, 2.5f, -2.5f},
                          .radius = 12.0f,
                          .color = {1.0f, 0.75f, 0.45f},
                          .intensity = 20.0f,
                          .cast_shadows = true};
    if (res == GN_OK) res = gn_scene_add_light(s, &lamp, NULL, err);
    return res;
}

/* Every frame that has finished, then the passes of the last one. */
static gn_result print_stats(gn_renderer *r, gn_error *err)
{
    gn_frame_stats frames[8], last;
    uint32_t n = 0;
    gn_result res = gn_renderer_wait_idle(r, err);
    if (res == GN_OK) res = gn_take_frame_stats(r, frames, 8, &n, err);
    if (res == GN_OK) res = gn_get_frame_stats(r, &last, err);
    if (res != GN_OK) return res;
    printf("frame  gpu ms  cpu ms  draws  triangles  shadowed lights\n");
    for (uint32_t i = 0; i < n; i++)
        printf("%5llu %7.2f %7.2f %6u %10llu %16u\n", (unsigned long long)frames[i].frame_index,
               frames[i].gpu_ms, frames[i].cpu_ms, frames[i].draws, (unsigned long long)frames[i].triangles,
               frames[i].shadowed_lights);
    printf("passes of frame %llu:\n", (unsigned long long)last.frame_index);
    for (uint32_t i = 0; i < last.pass_count; i++)
        printf("  %-24s %7.3f ms %4u draws %8llu triangles\n", last.passes[i].name, last.passes[i].gpu_ms,
               last.passes[i].draws, (unsigned long long)last.passes[i].triangles);
    return GN_OK;
}

int main(int argc, char **argv)
{
    unsigned w = 960, h = 540;
    if (argc < 2 || argc > 3 || (argc == 3 && (sscanf(argv[2], "%ux%u", &w, &h) != 2 || !w || !h))) {
        fprintf(stderr, "usage: %s OUT.png [WIDTHxHEIGHT]\n", argv[0]);
        return 2;
    }
    const float hours[] = {8.0f, 11.0f, 14.0f, 17.0f, 18.5f}; /* local solar time */
    gn_error err = {0};
    gn_renderer *r = NULL;
    gn_scene *s = NULL;
    uint8_t *rgba = malloc((size_t)w * h * 4);
    gn_result res = rgba ? gn_renderer_create(&(gn_renderer_desc){.width = w, .height = h}, &r, &err)
                         : GN_ERROR_OUT_OF_MEMORY;
    if (res == GN_OK) res = gn_scene_create(&s, &err);
    if (res == GN_OK) res = build_scene(s, &err);
    for (size_t i = 0; i < sizeof hours / sizeof hours[0] && res == GN_OK; i++) {
        gn_frame_desc f = {.camera = {.position = {0.0f, 4.0f, 10.0f}, .pitch = -15.0f, .fov_y = 60.0f},
                           .time_of_day = hours[i]};
        gn_frame_view view;
        res = gn_render(r, s, &f, &err);
        if (res == GN_OK) res = gn_get_frame_view(r, &view, &err);
        if (res == GN_OK)
            printf("%5.2f h: the sun %.1f degrees above the horizon\n", hours[i], view.sun_elevation);
    }
    if (res == GN_OK) res = gn_read_pixels(r, rgba, &err);
    if (res == GN_OK) res = print_stats(r, &err);
    if (res != GN_OK) {
        fprintf(stderr, "custom_scene: %s\n", rgba ? err.message : "out of memory");
    } else if (!stbi_write_png(argv[1], (int)w, (int)h, 4, rgba, (int)w * 4)) {
        fprintf(stderr, "custom_scene: cannot write %s\n", argv[1]);
        res = GN_ERROR_IO;
    }
    gn_scene_destroy(s);
    gn_renderer_destroy(r);
    free(rgba);
    return res == GN_OK ? 0 : 1;
}

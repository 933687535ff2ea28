/* GPU culling of the camera's list (src/passes/cull.c) against the CPU path, which builds the
 * same list with gn_draw_list_build every frame (the reference): over a walk through the town
 * with camera cuts, moving objects and an instance removed, a Quake 3 map with its PVS and a
 * glTF file, at sizes that are not powers of two, each frame rendered both ways must give
 *   - the same visible ids in the same order (gn_get_visible_instances: the GPU's list read back),
 *   - the same counts (instances visible, draw groups, every pass's triangles, shadow casters),
 *   - byte-identical images (lavapipe), and no validation message.
 * Then the shadow views, culled on the GPU with the camera: the sun's cascades (every one due
 * each frame, so that both sides render the same ones) and shadowed local lights' layers. */
#include "gpu_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAKS "/usr/share/games/openarena/baseoa"
#define GLTF "/usr/share/assimp/models/glTF2/BoxTextured-glTF/BoxTextured.gltf"

typedef struct side {
    uint8_t *image;
    uint32_t *ids, count;
    gn_frame_stats st;
} side;

static uint64_t depth_triangles(const gn_frame_stats *st)
{
    for (uint32_t i = 0; i < st->pass_count; i++)
        if (strcmp(st->passes[i].name, "depth prepass") == 0) return st->passes[i].triangles;
    return 0;
}

static side render_side(gn_renderer *r, gn_scene *s, gn_frame_desc f, bool cpu)
{
    side out = {0};
    f.cpu_culling = cpu;
    /* the two sides render one frame in turn: a fixed exposure, as auto would adapt the first
     * side's over the time since the frame before and show the second's at once */
    if (f.camera_exposure.mode == GN_EXPOSURE_DEFAULT)
        f.camera_exposure = (gn_exposure_desc){.mode = GN_EXPOSURE_FIXED, .ev100 = 13.0f};
    f.no_occlusion = true; /* the frustum's lists: occlusion culling has its own test */
    out.st = gt_frame(r, s, &f);
    uint32_t w, h;
    gn_renderer_size(r, &w, &h);
    out.image = malloc((size_t)w * h * 4);
    gn_error err = {0};
    CHECK(out.image && gn_read_pixels(r, out.image, &err) == GN_OK, "read pixels: %s", err.message);
    uint32_t n = 0;
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    out.ids = malloc(((size_t)info.instances + 1) * sizeof *out.ids);
    CHECK(gn_get_visible_instances(r, out.ids, info.instances, &n, &err) == GN_OK, "%s", err.message);
    out.count = n;
    return out;
}

/* The passes that run when their tables are made (the image-based light's, the atmosphere's),
 * whichever path the frame takes. */
static bool is_ibl(const gn_pass_stats *p)
{
    return strncmp(p->name, "ibl ", 4) == 0 || strncmp(p->name, "atmosphere", 10) == 0;
}

/* The blended surfaces' passes (the opaque scene's copy, the blended draw): the GPU path's list
 * holds every blended batch of the scene (which of them are visible is decided on the GPU), so it
 * runs them whenever the scene has blended surfaces; the CPU's list only when one is in view. */
static bool is_blended_pass(const gn_pass_stats *p)
{
    return strcmp(p->name, "scene copy") == 0 || strcmp(p->name, "forward blended") == 0;
}

static uint32_t blended_passes(const gn_frame_stats *st)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->pass_count; i++) n += is_blended_pass(&st->passes[i]);
    return n;
}

static uint32_t steady_passes(const gn_frame_stats *st)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->pass_count; i++) n += !is_ibl(&st->passes[i]);
    return n;
}

/* One frame both ways; returns the visible count (to check that the walk sees something). */
static uint32_t compare(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, const char *what)
{
    side gpu = render_side(r, s, *f, false), cpu = render_side(r, s, *f, true);
    CHECK(gpu.st.visibility_gpu && !cpu.st.visibility_gpu, "%s: the paths were not the ones asked for", what);
    CHECK(gpu.count == cpu.count, "%s: %u visible on the GPU, %u on the CPU", what, gpu.count, cpu.count);
    uint32_t first_diff = UINT32_MAX;
    for (uint32_t i = 0; i < gpu.count && i < cpu.count && first_diff == UINT32_MAX; i++)
        if (gpu.ids[i] != cpu.ids[i]) first_diff = i;
    CHECK(first_diff == UINT32_MAX, "%s: lists differ at %u (GPU %u, CPU %u)", what, first_diff,
          gpu.ids[first_diff], cpu.ids[first_diff]);
    CHECK(gpu.st.instances_visible == cpu.st.instances_visible && gpu.st.draw_groups == cpu.st.draw_groups,
          "%s: counts GPU %u/%u, CPU %u/%u (visible/groups)", what, gpu.st.instances_visible,
          gpu.st.draw_groups, cpu.st.instances_visible, cpu.st.draw_groups);
    CHECK(depth_triangles(&gpu.st) == depth_triangles(&cpu.st), "%s: prepass triangles GPU %llu, CPU %llu",
          what, (unsigned long long)depth_triangles(&gpu.st), (unsigned long long)depth_triangles(&cpu.st));
    /* the same passes but for the GPU path's cull, each with the same triangles (the image-based
     * light's and the atmosphere's passes run when their tables are made, whichever path the frame
     * takes: left out) */
    bool gpu_only_blended = blended_passes(&gpu.st) > 0 && blended_passes(&cpu.st) == 0;
    CHECK(steady_passes(&gpu.st) ==
              steady_passes(&cpu.st) + 1 + (gpu_only_blended ? blended_passes(&gpu.st) : 0),
          "%s: %u passes on the GPU path, %u on the CPU", what, steady_passes(&gpu.st),
          steady_passes(&cpu.st));
    for (uint32_t i = 0, j = 0; i < gpu.st.pass_count && j < cpu.st.pass_count; i++) {
        if (strcmp(gpu.st.passes[i].name, "cull") == 0 || is_ibl(&gpu.st.passes[i])) continue;
        /* none of the scene's blended surfaces in view: nothing drawn there (the CPU knew it) */
        if (gpu_only_blended && is_blended_pass(&gpu.st.passes[i])) {
            CHECK(gpu.st.passes[i].triangles == 0, "%s: %s drew %llu triangles, none in view", what,
                  gpu.st.passes[i].name, (unsigned long long)gpu.st.passes[i].triangles);
            continue;
        }
        while (j < cpu.st.pass_count && is_ibl(&cpu.st.passes[j])) j++;
        if (j >= cpu.st.pass_count) break;
        const gn_pass_stats *g = &gpu.st.passes[i], *c = &cpu.st.passes[j++];
        CHECK(strcmp(g->name, c->name) == 0 && g->triangles == c->triangles,
              "%s: pass %s drew %llu triangles on the GPU path, %s %llu on the CPU", what, g->name,
              (unsigned long long)g->triangles, c->name, (unsigned long long)c->triangles);
    }
    CHECK(gpu.st.shadow_casters == cpu.st.shadow_casters && gpu.st.shadow_updates == cpu.st.shadow_updates,
          "%s: shadow casters/updates GPU %u/%u, CPU %u/%u", what, gpu.st.shadow_casters,
          gpu.st.shadow_updates, cpu.st.shadow_casters, cpu.st.shadow_updates);
    uint32_t w, h;
    gn_renderer_size(r, &w, &h);
    if (gt_is_lavapipe(r))
        CHECK(memcmp(gpu.image, cpu.image, (size_t)w * h * 4) == 0, "%s: the images differ", what);
    GT_CHECK_VALIDATION(r, what);
    uint32_t n = gpu.count;
    free(gpu.image), free(cpu.image), free(gpu.ids), free(cpu.ids);
    return n;
}

static gn_frame_desc at(float x, float y, float z, float yaw, float pitch, double seconds)
{
    gn_frame_desc f = {.time_of_day = 15.0f, .shadows = GN_SHADOWS_NONE, .seconds = seconds};
    f.camera = (gn_camera){.position = {x, y, z}, .yaw = yaw, .pitch = pitch, .fov_y = 60.0f};
    return f;
}

int main(void)
{
    gn_error err = {0};
    gn_scene *town = NULL, *map = NULL, *gltf = NULL;
    gn_builtin_desc bd = {.name = "town", .seed = 3, .scale = 1}; /* a seed the golden tests do not use */
    CHECK(gn_scene_create_builtin(&bd, &town, &err) == GN_OK, "%s", err.message);
    gn_load_desc md = {.path = "oa_dm1", .paks = PAKS};
    CHECK(gn_scene_load(&md, &map, &err) == GN_OK, "%s", err.message);
    gn_load_desc gd = {.path = GLTF};
    CHECK(gn_scene_load(&gd, &gltf, &err) == GN_OK, "%s", err.message);
    if (!town || !map || !gltf) return gn_check_exit();

    static const uint32_t sizes[2][2] = {{481, 271}, {256, 144}};
    for (int k = 0; k < 2; k++) {
        gn_renderer *r = gt_renderer(sizes[k][0], sizes[k][1], k == 0 ? 4 : 1);
        char what[96];
        /* the town: a walk (each step 25 m and 40 degrees: cuts, not a smooth path), objects
         * moving with the seconds, the default camera, and one looking down from above */
        uint32_t seen = 0;
        for (int i = 0; i < 6; i++) {
            snprintf(what, sizeof what, "town %ux%u step %d", sizes[k][0], sizes[k][1], i);
            seen += compare(r, town, &(gn_frame_desc){.shadows = GN_SHADOWS_NONE}, "town default camera") > 0;
            gn_frame_desc f = at(-60.0f + 25.0f * i, 2.0f + 3.0f * (i % 3), -40.0f + 15.0f * i, 40.0f * i,
                                 -5.0f - 4.0f * (i % 2), 0.7 * i);
            seen += compare(r, town, &f, what) > 0;
        }
        CHECK(seen >= 10, "town: only %u of 12 frames saw anything", seen);
        gn_scene_info info;
        gn_scene_get_info(town, &info);
        for (uint32_t v = 0; v < info.viewpoint_count; v++) {
            const float *c = info.viewpoints[v];
            snprintf(what, sizeof what, "town viewpoint %u", v);
            gn_frame_desc f = at(c[0], c[1], c[2], c[3], c[4], 0.0);
            compare(r, town, &f, what);
        }
        compare(r, town,
                &(gn_frame_desc){.camera = {.position = {0, 300, 0}, .pitch = -80, .fov_y = 70},
                                 .time_of_day = 12.0f,
                                 .shadows = GN_SHADOWS_NONE},
                "town from above");
        /* a map: the PVS's keep mask goes up as bits */
        snprintf(what, sizeof what, "oa_dm1 %ux%u", sizes[k][0], sizes[k][1]);
        CHECK(compare(r, map, &(gn_frame_desc){.shadows = GN_SHADOWS_NONE}, what) > 0, "%s: nothing visible",
              what);
        gn_frame_desc turned = {.shadows = GN_SHADOWS_NONE};
        turned.camera = (gn_camera){.position = {0, 0, 0}, .yaw = 135, .fov_y = 90};
        compare(r, map, &turned, "oa_dm1 from the origin");
        compare(r, gltf, &(gn_frame_desc){.shadows = GN_SHADOWS_NONE}, "glTF BoxTextured");
        gn_renderer_destroy(r);
    }

    /* an instance removed in view: gone from both lists (its sphere is marked on the GPU) */
    gn_renderer *r = gt_renderer(256, 144, 1);
    gn_frame_desc f0 = {.shadows = GN_SHADOWS_NONE};
    side before = render_side(r, town, f0, false);
    CHECK(before.count > 0, "town: nothing visible");
    uint32_t victim = before.count ? before.ids[before.count / 2] : 0;
    CHECK(gn_scene_remove_instance(town, victim, &err) == GN_OK, "%s", err.message);
    uint32_t after = compare(r, town, &f0, "town after a removal");
    CHECK(after + 1 == before.count, "removing instance %u: %u visible, before %u", victim, after,
          before.count);
    free(before.image), free(before.ids);
    gn_renderer_destroy(r);

    /* shadow views: every cascade each frame (the schedule would otherwise differ between the
     * two sides' frames), lights with shadow maps */
    gn_renderer_desc sd = {.width = 333, .height = 217, .msaa = 4, .validation = GN_VALIDATION_ON};
    sd.csm.resolution = 512;
    for (int i = 0; i < GN_CSM_MAX_CASCADES; i++) sd.csm.update_period[i] = 1;
    sd.lights.shadowed_lights = 4;
    CHECK(gn_renderer_create(&sd, &r, &err) == GN_OK, "%s", err.message);
    CHECK(gn_scene_add_builtin_lights(town, 48, 3, &err) == GN_OK, "%s", err.message);
    uint32_t casters = 0;
    for (int i = 0; i < 4; i++) {
        char what[64];
        snprintf(what, sizeof what, "town with shadows, step %d", i);
        gn_frame_desc f =
            at(-30.0f + 20.0f * i, 2.0f + 4.0f * (i % 2), -20.0f + 10.0f * i, 70.0f * i, -8.0f, 0.5 * i);
        f.shadows = GN_SHADOWS_CSM;
        f.no_caster_lod = true;           /* the CPU path draws every caster whole (LODs: gpu_clusters) */
        f.time_of_day = 18.4f + 0.1f * i; /* dusk: the lamps are on (night lights) and the sun up */
        compare(r, town, &f, what);
        gn_get_frame_stats(r, &(gn_frame_stats){0}, &err);
        side g = render_side(r, town, f, false);
        casters += g.st.shadow_casters;
        CHECK(g.st.shadowed_lights > 0, "%s: no shadowed light", what);
        free(g.image), free(g.ids);
    }
    CHECK(casters > 0, "the cascades drew no caster");
    gn_frame_desc mf = {.shadows = GN_SHADOWS_CSM, .time_of_day = 10.0f, .no_caster_lod = true};
    compare(r, map, &mf, "oa_dm1 with cascades");
    gn_renderer_destroy(r);

    /* more views than the GPU takes (GN_CULL_MAX_VIEWS, 128): 24 shadowed point lights are 144
     * layers, the ones past the limit culled on the CPU; the same frame either way */
    gn_renderer_desc vd = {.width = 128, .height = 72, .msaa = 1, .validation = GN_VALIDATION_ON};
    vd.lights.shadowed_lights = 24;
    vd.lights.shadow_resolution = 64;
    CHECK(gn_renderer_create(&vd, &r, &err) == GN_OK, "%s", err.message);
    for (int i = 0; i < 24; i++) {
        float a = 6.2831853f * (float)i / 24.0f;
        gn_light_desc ld = {.type = GN_LIGHT_POINT,
                            .position = {2.0f * cosf(a), 0.5f + 0.05f * (float)i, 2.0f * sinf(a)},
                            .radius = 6.0f,
                            .intensity = 2.0f,
                            .cast_shadows = true};
        CHECK(gn_scene_add_light(gltf, &ld, NULL, &err) == GN_OK, "%s", err.message);
    }
    gn_frame_desc lf = {.shadows = GN_SHADOWS_NONE};
    compare(r, gltf, &lf, "glTF with 144 shadow layers");
    side many = render_side(r, gltf, lf, false);
    CHECK(many.st.shadowed_lights == 24, "%u shadowed lights, want 24 (144 layers)", many.st.shadowed_lights);
    free(many.image), free(many.ids);
    gn_renderer_destroy(r);

    gn_scene_destroy(gltf);
    gn_scene_destroy(map);
    gn_scene_destroy(town);
    return gn_check_exit();
}

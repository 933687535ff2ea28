/* The town with its decals (gn_builtin_desc.decals; src/scene/town_decals.c).
 *
 * The decals come after everything else from a generator of their own, so the town is the same
 * with or without them: the same instances with the same transforms, materials and meshes, the
 * same lights; only the decals and their five textures are added. Then the street viewpoint at
 * 17:00 (CSM: no page cache to settle), 192x108, 4x MSAA, against its golden image
 * (tests/golden/town_decals_street.png, written with the RelWithDebInfo build on lavapipe),
 * with decals drawn, some culled, and no validation message. */
#include "gpu_util.h"
#include "scene/scene.h"

#include <stdlib.h>
#include <string.h>

#define W 192
#define H 108

static gn_scene *town(uint32_t decals)
{
    gn_builtin_desc d = {.name = "town", .seed = 1, .decals = decals};
    gn_scene *s = NULL;
    gn_error err = {0};
    if (gn_scene_create_builtin(&d, &s, &err) != GN_OK) {
        fprintf(stderr, "town: %s\n", err.message);
        exit(1);
    }
    return s;
}

int main(void)
{
    gn_scene *plain = town(0), *s = town(1);
    CHECK(plain->decal_count == 0, "the default town has %u decals, want none", plain->decal_count);
    CHECK(s->decal_count > 100 && s->decal_count <= GN_MAX_DECALS, "the town has %u decals", s->decal_count);
    CHECK(s->decal_set_count == 5, "%u texture sets, want 5 (dash, puddle, three posters)",
          s->decal_set_count);
    CHECK(s->instance_count == plain->instance_count && s->light_site_count == plain->light_site_count,
          "instances %u / %u, light sites %u / %u: the decals changed the town", s->instance_count,
          plain->instance_count, s->light_site_count, plain->light_site_count);
    CHECK(s->texture_count == plain->texture_count + 5, "textures %u, want %u + 5", s->texture_count,
          plain->texture_count);
    bool same = s->instance_count == plain->instance_count;
    for (uint32_t i = 0; same && i < s->instance_count; i++)
        same = memcmp(&s->instances[i], &plain->instances[i], sizeof s->instances[i]) == 0;
    CHECK(same, "an instance differs with decals: the town drew other random numbers");
    gn_scene_destroy(plain);

    gn_renderer *r = gt_renderer(W, H, 4);
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    gn_frame_desc f = gt_at(info.viewpoints[0], 17.0f);
    f.shadows = GN_SHADOWS_CSM;
    gn_frame_stats st = gt_frame(r, s, &f);
    uint8_t *px = gt_pixels(r);
    printf("street: %u decals drawn, %u culled\n", st.decals_drawn, st.decals_culled);
    CHECK(st.decals_drawn > 0 && st.decals_culled > 0, "decals drawn %u, culled %u: want some of each",
          st.decals_drawn, st.decals_culled);
    CHECK(gt_ran(&st, "decals"), "the decal pass did not run");
    CHECK(gt_golden(r, "town_decals_street", px, W, H), "town_decals_street differs from its golden image");
    GT_CHECK_VALIDATION(r, "rendering the town with decals");
    free(px);
    gn_scene_destroy(s);
    gn_renderer_destroy(r);
    return gn_check_exit();
}

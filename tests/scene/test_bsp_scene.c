/* A real Quake 3 map as a scene (src/scene/bsp_scene.c), loaded twice: the lightmap atlas and
 * the batch order (materials, instances and the sorted draw list of every face) must be
 * byte-identical between runs; lightmapped faces address the atlas and the rest take their
 * light from the map's grid. Skips (exit 0, with a message) without Debian's openarena-data. */
#include "decide/drawlist.h"
#include "scene/scene.h"
#include "scene/world.h"
#include "scene_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAKS "/usr/share/games/openarena/baseoa"

typedef struct batches {
    gn_draw_list list;
    gn_cull_item *items;
} batches;

/* Every instance through the draw list builder, unculled: the order the frame draws in. */
static void build_batches(const gn_scene *s, batches *b)
{
    uint32_t n = s->instance_count;
    b->items = calloc(n, sizeof *b->items);
    b->list = (gn_draw_list){.instances = calloc(n, sizeof(uint32_t)),
                             .groups = calloc(n, sizeof(gn_draw_group)),
                             .batches = calloc(n, sizeof(gn_draw_batch)),
                             .scratch_keys = calloc(n, sizeof(uint64_t))};
    for (uint32_t i = 0; i < n; i++) {
        const gn_instance *in = &s->instances[i];
        b->items[i] = (gn_cull_item){
            {in->sphere[0], in->sphere[1], in->sphere[2], in->sphere[3]}, in->mesh, in->material, 0, i};
    }
    gn_draw_list_build(b->items, n, NULL, &b->list);
}

static void free_batches(batches *b)
{
    free(b->items);
    free(b->list.instances);
    free(b->list.groups);
    free(b->list.batches);
    free(b->list.scratch_keys);
}

static const gn_texture *find_atlas(const gn_scene *s)
{
    for (uint32_t i = 0; i < s->texture_count; i++)
        if (s->textures[i].format == GN_TEXTURE_RGB9E5) return &s->textures[i];
    return NULL;
}

int main(void)
{
    FILE *probe = fopen(PAKS "/pak1-maps.pk3", "rb");
    if (!probe) {
        printf("skipped: %s not installed (Debian openarena-data)\n", PAKS);
        return 0;
    }
    fclose(probe);
    gn_scene *s[2] = {NULL, NULL};
    gn_error err = {0};
    for (int k = 0; k < 2; k++) {
        gn_load_desc ld = {.path = "oa_dm1", .paks = PAKS};
        CHECK(gn_scene_load(&ld, &s[k], &err) == GN_OK, "oa_dm1: %s", err.message);
    }
    const gn_texture *a = find_atlas(s[0]), *b = find_atlas(s[1]);
    CHECK(a && b, "no lightmap atlas in oa_dm1");
    printf("atlas %ux%u for %u lightmaps\n", a->width, a->height, s[0]->world->lightmaps);
    CHECK(a->width == b->width && a->height == b->height &&
              memcmp(a->texels, b->texels, (size_t)a->width * a->height * 4) == 0,
          "the two atlases differ");
    CHECK(s[0]->material_count == s[1]->material_count &&
              memcmp(s[0]->materials, s[1]->materials, s[0]->material_count * sizeof *s[0]->materials) == 0,
          "materials differ between loads");
    CHECK(s[0]->instance_count == s[1]->instance_count &&
              memcmp(s[0]->instances, s[1]->instances, s[0]->instance_count * sizeof *s[0]->instances) == 0,
          "instances differ between loads");
    batches x, y;
    build_batches(s[0], &x);
    build_batches(s[1], &y);
    CHECK(x.list.batch_count == y.list.batch_count && x.list.group_count == y.list.group_count &&
              memcmp(x.list.batches, y.list.batches, x.list.batch_count * sizeof *x.list.batches) == 0 &&
              memcmp(x.list.groups, y.list.groups, x.list.group_count * sizeof *x.list.groups) == 0 &&
              memcmp(x.list.instances, y.list.instances, x.list.instance_count * sizeof(uint32_t)) == 0,
          "the batch order differs between loads");
    printf("%u faces in %u groups, %u batches\n", x.list.instance_count, x.list.group_count,
           x.list.batch_count);

    /* every instance is lit one way: a lightmapped material, or the grid (or neither only when
     * the grid is dark or missing there) */
    uint32_t lightmapped = 0, grid = 0, unlit = 0;
    for (uint32_t i = 0; i < s[0]->instance_count; i++) {
        const gn_instance *in = &s[0]->instances[i];
        if (s[0]->materials[in->material].lightmap_texture != GN_NO_TEXTURE) {
            lightmapped++;
            CHECK(in->grid_light[2] == 0, "instance %u has a lightmap and grid light", i);
        } else if (in->grid_light[2]) {
            grid++;
        } else {
            unlit++;
        }
    }
    printf("faces: %u lightmapped, %u lit by the light grid, %u by the hemisphere (grid %ux%ux%u)\n",
           lightmapped, grid, unlit, s[0]->world->bsp.grid_dims[0], s[0]->world->bsp.grid_dims[1],
           s[0]->world->bsp.grid_dims[2]);
    CHECK(s[0]->world->bsp.has_grid, "oa_dm1's light grid was not placed");
    CHECK(lightmapped > s[0]->instance_count / 2, "only %u of %u faces have a lightmap", lightmapped,
          s[0]->instance_count);
    CHECK(unlit <= grid, "%u faces without lightmap got no grid light (%u did)", unlit, grid);
    /* the lightmap uvs of lightmapped faces fall inside the atlas */
    uint32_t outside = 0;
    for (uint32_t i = 0; i < s[0]->instance_count; i++) {
        const gn_instance *in = &s[0]->instances[i];
        if (s[0]->materials[in->material].lightmap_texture == GN_NO_TEXTURE) continue;
        const gn_mesh *m = &s[0]->meshes[in->mesh];
        for (uint32_t v = 0; v < m->vertex_count; v++) {
            const float *uv = s[0]->vertices[m->first_vertex + v].uv2;
            outside += !(uv[0] > 0.0f && uv[0] < 1.0f && uv[1] > 0.0f && uv[1] < 1.0f);
        }
    }
    CHECK(outside == 0, "%u lightmap uvs outside the atlas", outside);
    free_batches(&x);
    free_batches(&y);
    gn_scene_destroy(s[0]);
    gn_scene_destroy(s[1]);
    return 0;
}

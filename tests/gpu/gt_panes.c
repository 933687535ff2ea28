/* The glass panes of gpu_blend_order and gpu_oit (gt_panes.h). */
#include "gt_panes.h"

#include "gpu_util.h"

#include <math.h>

const gt_pane gt_panes[GT_PANES] = {
    {-0.30f, 0.10f, -0.9f, 0.75f, {0.9f, 0.1f, 0.1f, 0.5f}, 0},
    {0.25f, -0.15f, -0.5f, 0.7f, {0.1f, 0.9f, 0.1f, 0.4f}, 0},
    {-0.10f, -0.25f, -0.1f, 0.6f, {0.1f, 0.2f, 0.9f, 0.6f}, 0},
    {0.20f, 0.25f, 0.3f, 0.55f, {0.9f, 0.8f, 0.1f, 0.5f}, 0},
    {-0.25f, 0.0f, 0.7f, 0.45f, {0.8f, 0.2f, 0.9f, 0.45f}, 0},
    {0.05f, -0.05f, 0.5f, 0.5f, {0.1f, 0.9f, 0.9f, 0.5f}, 6},
};

gn_frame_desc gt_panes_frame(bool cpu_culling)
{
    return (gn_frame_desc){
        .camera = {.position = {0, 0, GT_PANES_CAM_Z}, .fov_y = GT_PANES_FOV_Y, .near_plane = 0.1f},
        .time_of_day = 10.0f,
        .latitude = 45,
        .day_of_year = 172,
        .shadows = GN_SHADOWS_NONE,
        .tonemap = GN_TONEMAP_CLIP,
        .camera_exposure = {.mode = GN_EXPOSURE_FIXED, .ev100 = GN_EV100_SUNNY},
        .bloom = {.off = true},
        .no_dither = true,
        .no_aerial = true,
        .cpu_culling = cpu_culling,
    };
}

static uint32_t add_material(gn_scene *s, const float rgba[4], float sort)
{
    gn_material_desc md = {.base_color = {rgba[0], rgba[1], rgba[2], rgba[3]},
                           .roughness = 0.9f,
                           .alpha_mode = rgba[3] < 1 ? GN_ALPHA_BLEND : GN_ALPHA_OPAQUE,
                           .sort = sort,
                           .label = "pane"};
    uint32_t id = 0;
    CHECK(gn_scene_add_material(s, &md, &id, NULL) == GN_OK, "material refused");
    return id;
}

static void add_at(gn_scene *s, uint32_t mesh, uint32_t material, float x, float y)
{
    gn_instance_desc in = {.mesh = mesh, .material = material};
    in.transform[0] = in.transform[5] = in.transform[10] = in.transform[15] = 1;
    in.transform[12] = x, in.transform[13] = y;
    CHECK(gn_scene_add_instance(s, &in, NULL, NULL) == GN_OK, "instance refused");
}

gn_scene *gt_panes_build(const int *order, unsigned mask, bool layered)
{
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, NULL) == GN_OK, "scene");
    const float grey[4] = {0.5f, 0.5f, 0.5f, 1};
    add_at(s, gt_add_quad(s, 3.0f, -2.0f), add_material(s, grey, 0), 0, 0);
    for (int k = 0; k < GT_PANES; k++) {
        int i = order ? order[k] : k;
        if (!(mask >> i & 1)) continue;
        const gt_pane *p = &gt_panes[i];
        add_at(s, gt_add_quad(s, p->half, p->z), add_material(s, p->rgba, layered ? p->sort : 0), p->x, p->y);
    }
    return s;
}

float gt_panes_edge_distance(int i, float px, float py, int w, int h)
{
    const gt_pane *p = &gt_panes[i];
    float d = GT_PANES_CAM_Z - p->z, f = (h / 2.0f) / tanf(GT_PANES_FOV_Y * 0.5f * 3.14159265f / 180.0f);
    float cx = w / 2.0f + f * p->x / d, cy = h / 2.0f - f * p->y / d, half = f * p->half / d;
    return fminf(half - fabsf(px - cx), half - fabsf(py - cy));
}

int gt_panes_cover(int x, int y, int w, int h)
{
    int cover = 0;
    for (int i = 0; i < GT_PANES; i++) {
        float e = gt_panes_edge_distance(i, x + 0.5f, y + 0.5f, w, h);
        if (fabsf(e) <= 1.5f) return -1;
        cover += e > 0;
    }
    return cover;
}

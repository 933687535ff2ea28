/* A Quake 3 map's visibility: from the spawn point and three more places in oa_dm1
 * (Debian's openarena-data), PVS plus frustum culling must draw an image identical to
 * frustum-only culling (so no visible surface is ever culled — the brute-force check), while
 * keeping fewer faces. Skips (exit 0, with a message) when the archives are absent. */
#include "gpu_util.h"

#include <stdlib.h>
#include <string.h>

#define W 320
#define H 180
#define PAKS "/usr/share/games/openarena/baseoa"

int main(void)
{
    FILE *probe = fopen(PAKS "/pak1-maps.pk3", "rb");
    if (!probe) {
        printf("skipped: %s not installed (Debian openarena-data)\n", PAKS);
        return 0;
    }
    fclose(probe);
    gn_error err = {0};
    gn_scene *s = NULL;
    gn_load_desc ld = {.path = "oa_dm1", .paks = PAKS};
    if (gn_scene_load(&ld, &s, &err)) {
        fprintf(stderr, "oa_dm1: %s\n", err.message);
        return 1;
    }
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    gn_renderer *r = gt_renderer(W, H, 4);
    /* the spawn, then turned and moved versions of it */
    const float *d = info.default_camera;
    float cams[4][5] = {{d[0], d[1], d[2], d[3], d[4]},
                        {d[0], d[1], d[2], d[3] + 90, -10},
                        {d[0], d[1], d[2], d[3] + 180, 5},
                        {d[0], d[1] + 2, d[2], d[3] - 90, -20}};
    uint64_t pvs_faces = 0, frustum_faces = 0;
    for (int c = 0; c < 4; c++) {
        gn_frame_desc f = {.camera_set = true, .time_of_day = 14, .time_set = true};
        memcpy(f.camera.position, cams[c], 3 * sizeof(float));
        f.camera.yaw = cams[c][3];
        f.camera.pitch = cams[c][4];
        uint8_t *with = gt_render(r, s, &f);
        gn_frame_stats a, b;
        gn_renderer_wait_idle(r, &err);
        gn_get_frame_stats(r, &a, &err);
        f.no_pvs = true;
        uint8_t *without = gt_render(r, s, &f);
        gn_renderer_wait_idle(r, &err);
        gn_get_frame_stats(r, &b, &err);
        gt_diff diff = gt_compare(with, without, W, H, 0);
        fprintf(stderr,
                "camera %d: faces after frustum %u with PVS, %u without; leaves %u vs %u; max diff %u\n", c,
                a.world_faces_frustum, b.world_faces_frustum, a.world_leaves_frustum, b.world_leaves_frustum,
                diff.max_channel);
        CHECK(diff.max_channel == 0, "camera %d: PVS culling changed the image (max diff %u)", c,
              diff.max_channel);
        CHECK(a.world_faces_pvs < b.world_faces_pvs, "camera %d: the PVS kept %u of %u faces", c,
              a.world_faces_pvs, b.world_faces_pvs);
        pvs_faces += a.world_faces_frustum;
        frustum_faces += b.world_faces_frustum;
        free(with);
        free(without);
    }
    fprintf(stderr, "PVS + frustum kept %llu faces, frustum only %llu (ratio %.2f)\n",
            (unsigned long long)pvs_faces, (unsigned long long)frustum_faces,
            frustum_faces ? (double)pvs_faces / frustum_faces : 0.0);
    CHECK(pvs_faces < frustum_faces, "PVS did not reduce the faces drawn");
    GT_CHECK_VALIDATION(r, "rendering oa_dm1");
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

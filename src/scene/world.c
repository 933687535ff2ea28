/* A BSP world's lifetime (see world.h). */
#include "scene/world.h"
#include "decide/atlas.h"
#include "formats/bsp_light.h"
#include "shared/gpu_types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A unit vector in 24 bits (12 a coordinate) by the octahedral map: the GPU decodes it in
 * shaders/forward.frag. */
static uint32_t oct_encode12(const float d[3])
{
    float l1 = fabsf(d[0]) + fabsf(d[1]) + fabsf(d[2]);
    float x = d[0] / l1, y = d[2] / l1;
    if (d[1] < 0.0f) { /* fold the lower half over the diagonals */
        float fx = (1.0f - fabsf(y)) * (x >= 0.0f ? 1.0f : -1.0f);
        float fy = (1.0f - fabsf(x)) * (y >= 0.0f ? 1.0f : -1.0f);
        x = fx, y = fy;
    }
    uint32_t qx = (uint32_t)lrintf((x * 0.5f + 0.5f) * 4095.0f),
             qy = (uint32_t)lrintf((y * 0.5f + 0.5f) * 4095.0f);
    return (qx > 4095u ? 4095u : qx) | (qy > 4095u ? 4095u : qy) << 12;
}

void gn_world_grid_light(const gn_world *w, const float sphere[4], uint32_t out[3])
{
    memset(out, 0, 3 * sizeof *out);
    float amb[3], dirl[3], dir[3];
    if (!gn_bsp_light_grid_sample(&w->bsp, sphere, amb, dirl, dir)) return;
    out[0] = gn_rgb9e5_encode(amb);
    out[1] = gn_rgb9e5_encode(dirl);
    out[2] = GN_GPU_INSTANCE_GRID_LIT | oct_encode12(dir) << 8;
}

void gn_world_free(gn_world *w)
{
    if (!w) return;
    gn_bsp_vis_destroy(&w->vis);
    gn_bsp_mesh_free(&w->mesh);
    gn_bsp_free(&w->bsp);
    free(w->face_instance);
    free(w->vis_faces);
    free(w->vis_seen);
    free(w);
}

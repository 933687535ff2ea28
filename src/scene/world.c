/* A BSP world's lifetime (see world.h). */
#include "scene/world.h"

#include <stdlib.h>

void gn_world_free(gn_world *w)
{
    if (!w) return;
    gn_bsp_vis_destroy(&w->vis);
    gn_bsp_mesh_free(&w->mesh);
    gn_bsp_free(&w->bsp);
    free(w->face_instance);
    free(w->in_leaves);
    free(w->vis_faces);
    free(w->vis_seen);
    free(w);
}

/* The split sum's DFG table (src/passes/ibl.c, shaders/dfg.comp) on the GPU: every texel equals
 * gn_brdf_dfg (src/decide/brdf.c) at its n.v and roughness within 2e-3 (the table is rgba16f);
 * a white furnace: A + B <= 1 everywhere, and >= 0.99 for the smoothest row at n.v >= 1/4 (a
 * mirror reflects what arrives); the table is made by the first frame only. */
#include "decide/brdf.h"
#include "gpu_util.h"
#include "passes/ibl.h"

#include <math.h>
#include <string.h>

int main(void)
{
    gn_error err = {0};
    gn_scene *s = NULL;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "scene: %s", err.message);
    gn_renderer *r = gt_renderer(64, 64, 1);
    gn_frame_desc f = {.time_of_day = 12.0f};
    gn_frame_stats st = gt_frame(r, s, &f);
    bool first_made = false;
    for (uint32_t p = 0; p < st.pass_count; p++) first_made |= strcmp(st.passes[p].name, "ibl dfg") == 0;
    st = gt_frame(r, s, &f);
    bool again = false;
    for (uint32_t p = 0; p < st.pass_count; p++) again |= strcmp(st.passes[p].name, "ibl dfg") == 0;
    CHECK(first_made && !again, "the table is made by the first frame (%d) and only it (%d)", first_made,
          again);

    uint16_t table[GN_IBL_DFG_SIZE * GN_IBL_DFG_SIZE * 4];
    CHECK(gn_ibl_read_dfg(r, table, &err) == GN_OK, "read: %s", err.message);
    float worst = 0.0f, most = 0.0f, mirror = 1.0f;
    for (uint32_t j = 0; j < GN_IBL_DFG_SIZE; j++)
        for (uint32_t i = 0; i < GN_IBL_DFG_SIZE; i++) {
            float nv = ((float)i + 0.5f) / GN_IBL_DFG_SIZE, rough = ((float)j + 0.5f) / GN_IBL_DFG_SIZE,
                  cpu[2];
            gn_brdf_dfg(nv, rough, GN_IBL_DFG_SAMPLES, cpu);
            const uint16_t *t = &table[(j * GN_IBL_DFG_SIZE + i) * 4];
            float a = gt_half_to_float(t[0]), b = gt_half_to_float(t[1]);
            worst = fmaxf(worst, fmaxf(fabsf(a - cpu[0]), fabsf(b - cpu[1])));
            most = fmaxf(most, a + b);
            if (j == 0 && nv >= 0.25f) mirror = fminf(mirror, a + b);
        }
    fprintf(stderr, "dfg: GPU within %.2g of the CPU; A + B at most %.4f, the smoothest row at least %.4f\n",
            worst, most, mirror);
    CHECK(worst < 2e-3f, "the GPU's table is %g from the CPU's", worst);
    CHECK(most <= 1.001f && mirror >= 0.99f, "furnace: at most %g, mirror %g", most, mirror);
    GT_CHECK_VALIDATION(r, "at the end");
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    return gn_check_exit();
}

/* gnomon shadowref: one frame, then its ray-traced hard-shadow mask as a PNG (truth.h). */
#include "canvas.h"
#include "cli.h"
#include "cmd_opts.h"
#include "truth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything after parsing; the caller releases r, scene and t. */
static int gn_shadowref_run(const gn_shadowref_opts *o, gn_renderer **r, gn_scene **scene, gn_truth **t)
{
    const gn_frame_opts *fo = &o->frame;
    gn_error err = {0};
    int opened = gn_cli_open("shadowref", fo, NULL, r, scene);
    if (opened != GN_EXIT_OK) return opened;

    /* Only the depth and the frame's camera and sun matter here, so the final view will do. */
    gn_frame_desc frame;
    gn_frame_opts_frame(fo, fo->camera_set ? fo->camera : NULL, GN_VIEW_FINAL, &frame);
    if (gn_render(*r, *scene, &frame, &err) != GN_OK) return gn_cli_fail("shadowref", &err);

    size_t n = (size_t)fo->size[0] * fo->size[1];
    float *depth = malloc(n * sizeof *depth);
    uint8_t *mask = malloc(n);
    gn_frame_view view;
    int code = GN_EXIT_OK;
    if (!depth || !mask) {
        fprintf(stderr, "gnomon shadowref: out of memory for a %ux%u image\n", fo->size[0], fo->size[1]);
        code = GN_EXIT_RUNTIME;
    } else if (gn_read_depth(*r, depth, &err) != GN_OK || gn_get_frame_view(*r, &view, &err) != GN_OK) {
        code = gn_cli_fail("shadowref", &err);
    } else if (!(*t = gn_truth_create(*scene, &err))) { /* after gn_render: dynamic objects moved */
        code = gn_cli_fail("shadowref", &err);
    } else {
        gn_truth_frame tf = {.depth = depth,
                             .width = fo->size[0],
                             .height = fo->size[1],
                             .msaa = gn_renderer_msaa(*r),
                             .view = &view};
        gn_truth_stats st;
        if (gn_truth_mask(*t, &tf, mask, &st, &err) != GN_OK) {
            code = gn_cli_fail("shadowref", &err);
        } else if (!gn_png_write(o->out, (int)fo->size[0], (int)fo->size[1], 1, mask, (int)fo->size[0])) {
            fprintf(stderr, "gnomon shadowref: cannot write %s: %s\n", o->out, strerror(errno));
            code = GN_EXIT_RUNTIME;
        } else {
            uint64_t shadowed = 0;
            for (size_t i = 0; i < n; i++) shadowed += mask[i] == GN_TRUTH_SHADOWED;
            gn_scene_info info;
            gn_scene_get_info(*scene, &info);
            printf("%s: %ux%u, sun elevation %.1f deg -> %s\n", gn_renderer_device_name(*r), fo->size[0],
                   fo->size[1], view.sun_elevation, o->out);
            printf("bvh: %u meshes, %u instances, %llu triangles (%llu unique), built in %.1f ms\n",
                   info.meshes, info.instances, (unsigned long long)info.triangles,
                   (unsigned long long)info.unique_triangles, gn_truth_build_ms(*t));
            printf("rays: %llu in %.1f ms on %u threads, %.2f Mrays/s; %.1f%% of surface pixels shadowed\n",
                   (unsigned long long)st.rays, st.ms, st.threads,
                   st.ms > 0 ? (double)st.rays / st.ms * 1e-3 : 0.0,
                   st.rays + st.facing_away ? 100.0 * (double)shadowed / (double)(st.rays + st.facing_away)
                                            : 0.0);
        }
    }
    free(depth);
    free(mask);
    return code;
}

int gn_cmd_shadowref(int argc, char **argv)
{
    gn_shadowref_opts o;
    char msg[1024];
    int parsed = gn_cli_after_parse(gn_shadowref_opts_parse(argc, argv, &o, msg, sizeof msg), msg,
                                    gn_shadowref_opts_help);
    if (parsed != GN_CLI_GO_ON) return parsed;
    if (!gn_cli_make_parent_dirs(o.out, msg, sizeof msg)) {
        fprintf(stderr, "gnomon shadowref: %s\n", msg);
        return GN_EXIT_RUNTIME;
    }
    gn_renderer *r = NULL;
    gn_scene *scene = NULL;
    gn_truth *t = NULL;
    int code = gn_shadowref_run(&o, &r, &scene, &t);
    gn_truth_destroy(t); /* before the scene: it shares the scene's vertex positions */
    gn_scene_destroy(scene);
    gn_renderer_destroy(r);
    return code;
}

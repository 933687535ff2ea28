/* The skinning pass (src/passes/skin.c, shaders/skin.comp) against its CPU reference
 * (gn_skin_vertex, src/decide/skin.c), on lavapipe at 160x120 with the sun's cascades.
 *
 * An arm: a tube 2 m long (12 around, 17 rings) whose vertices blend between a shoulder joint
 * (y = 0) and an elbow (y = 1) over the middle half metre, with two morph targets (a bulge out
 * along the normal, a flattening in x) whose weights a channel animates; a clip bends the elbow
 * from 0 to 120 degrees and back over 2 s while the shoulder turns. Three rigs of it: linear blend,
 * dual quaternions, and one walking a square path (its placement on the path, linear blend).
 *
 * Rendered at 0.37 s and at 1.21 s. After each frame the rigs' own vertices are read back from
 * the scene's vertex buffer and every one is compared with gn_skin_vertex over the same pose
 * (the rig's palette and active morphs that gn_scene_animate left for the frame):
 * tolerance 2e-5 m in position (float order differs only by fused multiply-adds) and 2e-4 in the
 * normal's and tangent's components. Every posed vertex must lie inside its instance's bounding
 * sphere (what culling and the shadow maps see). The two frames must differ in pixels (the arm
 * moved) and be validation-clean. */
#include "decide/skin.h"
#include "gpu_util.h"
#include "renderer.h"
#include "scene/rig.h"
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 160
#define H 120
#define AROUND 12
#define RINGS 17
#define PI 3.14159265358979f

static float smooth(float e0, float e1, float x)
{
    float t = (x - e0) / (e1 - e0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

/* The tube's mesh into the scene and its model (skeleton, clip, influences, morphs). */
static void make_arm(gn_scene *s, uint32_t material, gn_anim_model *m)
{
    enum { V = AROUND * RINGS };
    static float pos[V * 3], nrm[V * 3], uv[V * 2];
    static uint32_t idx[AROUND * (RINGS - 1) * 6];
    for (int r = 0; r < RINGS; r++)
        for (int a = 0; a < AROUND; a++) {
            int v = r * AROUND + a;
            float ang = 2 * PI * (float)a / AROUND, y = 2.0f * (float)r / (RINGS - 1);
            pos[v * 3] = 0.15f * cosf(ang), pos[v * 3 + 1] = y, pos[v * 3 + 2] = 0.15f * sinf(ang);
            nrm[v * 3] = cosf(ang), nrm[v * 3 + 1] = 0, nrm[v * 3 + 2] = sinf(ang);
            uv[v * 2] = (float)a / AROUND, uv[v * 2 + 1] = y / 2;
        }
    int n = 0;
    for (int r = 0; r + 1 < RINGS; r++)
        for (int a = 0; a < AROUND; a++) {
            uint32_t i0 = (uint32_t)(r * AROUND + a), i1 = (uint32_t)(r * AROUND + (a + 1) % AROUND);
            uint32_t i2 = i0 + AROUND, i3 = i1 + AROUND;
            /* counter-clockwise seen from outside */
            idx[n++] = i0, idx[n++] = i2, idx[n++] = i1, idx[n++] = i1, idx[n++] = i2, idx[n++] = i3;
        }
    gn_mesh_desc md = {.positions = pos,
                       .normals = nrm,
                       .uvs = uv,
                       .vertex_count = V,
                       .indices = idx,
                       .index_count = (uint32_t)n,
                       .label = "arm"};
    uint32_t mesh = 0;
    CHECK(gn_scene_add_mesh(s, &md, &mesh, NULL) == GN_OK, "arm mesh refused");

    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "arm");
    gn_skeleton *sk = &m->skeleton;
    sk->node_count = sk->joint_count = 2;
    sk->nodes = calloc(2, sizeof *sk->nodes);
    sk->joint_node = calloc(2, sizeof *sk->joint_node);
    sk->inverse_bind = calloc(2, sizeof *sk->inverse_bind);
    for (int j = 0; j < 2; j++) {
        sk->nodes[j] =
            (gn_skel_node){.parent = j - 1, .t = {0, (float)j, 0}, .r = {0, 0, 0, 1}, .s = {1, 1, 1}};
        sk->joint_node[j] = (uint32_t)j;
        float *ib = sk->inverse_bind[j];
        ib[0] = ib[5] = ib[10] = ib[15] = 1, ib[13] = -(float)j;
    }
    /* the clip: the elbow about +Z, 0 -> 120 -> 0 degrees; the shoulder about +X by 30 degrees */
    m->clip_count = 1;
    m->clips = calloc(1, sizeof *m->clips);
    gn_anim_clip *c = m->clips;
    snprintf(c->name, sizeof c->name, "bend");
    c->duration = 2;
    c->channel_count = 3;
    c->channels = calloc(3, sizeof *c->channels);
    c->data = calloc(3 + 12 + 3 + 8 + 3 + 6, sizeof(float));
    float *t = c->data, *elbow = t + 3, *shoulder = elbow + 12, *wt = shoulder + 8, *w = wt + 3;
    t[0] = 0, t[1] = 1, t[2] = 2;
    for (int k = 0; k < 3; k++) {
        float h = (k == 1 ? 120.0f : 0.0f) * PI / 360;
        elbow[k * 4 + 2] = sinf(h), elbow[k * 4 + 3] = cosf(h);
    }
    shoulder[3] = 1, shoulder[4] = sinf(PI / 12), shoulder[7] = cosf(PI / 12);
    wt[0] = 0, wt[1] = 1, wt[2] = 2;
    w[0] = 0, w[1] = 0, w[2] = 1, w[3] = 0.5f, w[4] = 0, w[5] = 1;
    c->channels[0] = (gn_anim_channel){1, GN_ANIM_PATH_ROTATION, {t, elbow, 3, 4, GN_ANIM_LINEAR, true}};
    c->channels[1] = (gn_anim_channel){0, GN_ANIM_PATH_ROTATION, {t, shoulder, 2, 4, GN_ANIM_LINEAR, true}};
    c->channels[2] = (gn_anim_channel){0, GN_ANIM_PATH_WEIGHTS, {wt, w, 3, 2, GN_ANIM_LINEAR, false}};
    /* two morph targets: out along the normal by 5 cm, and x flattened by a third */
    m->morph_count = 1;
    m->morphs = calloc(1, sizeof *m->morphs);
    gn_morph_set *ms = m->morphs;
    ms->vertex_count = V, ms->target_count = 2;
    ms->deltas = calloc((size_t)2 * V * 6, sizeof(float));
    ms->default_weights = calloc(2, sizeof(float));
    for (int v = 0; v < V; v++) {
        float *d0 = ms->deltas + (size_t)v * 6, *d1 = ms->deltas + ((size_t)V + v) * 6;
        for (int i = 0; i < 3; i++) d0[i] = 0.05f * nrm[v * 3 + i];
        d1[0] = -pos[v * 3] / 3;
        d1[3] = 0.2f * nrm[v * 3];
    }
    ms->max_delta = 0.05f;
    m->part_count = 1;
    m->parts = calloc(1, sizeof *m->parts);
    gn_anim_part *p = m->parts;
    *p = (gn_anim_part){.mesh = mesh, .material = material, .node = 0, .vertex_count = V, .morph = 0};
    p->influences = calloc(V, sizeof *p->influences);
    for (int v = 0; v < V; v++) {
        float f = smooth(0.75f, 1.25f, pos[v * 3 + 1]);
        p->influences[v].joint[0] = 0, p->influences[v].weight[0] = 1 - f;
        p->influences[v].joint[1] = 1, p->influences[v].weight[1] = f;
    }
}

static gn_frame_desc frame(double seconds)
{
    gn_frame_desc f = gt_sunny_csm(
        (gn_camera){.position = {0, 1.5f, 7}, .yaw = 0, .pitch = -5, .fov_y = 50, .near_plane = 0.1f}, 10.0f);
    f.seconds = seconds;
    return f;
}

/* Every rig's vertices on the GPU against gn_skin_vertex; returns the largest position error. */
static float compare(gn_renderer *r, gn_scene *s, uint32_t *outside)
{
    gn_error err = {0};
    size_t bytes = (size_t)s->vertex_count * sizeof(gn_vertex);
    gn_vertex *gpu = malloc(bytes);
    CHECK(gpu && gn_vk_wait_idle(&r->vk, &err) == GN_OK &&
              gn_vk_read_buffer(&r->vk, &r->scene.vertices, gpu, bytes, "vertices", &err) == GN_OK,
          "vertex readback: %s", err.message);
    float worst = 0, worst_n = 0;
    for (uint32_t g = 0; g < s->rig_count; g++) {
        const gn_scene_rig *rig = &s->rigs[g];
        const gn_anim_model *m = &s->anims[rig->model].model;
        const gn_anim_part *p = &m->parts[0];
        const gn_vertex *bind = &s->vertices[s->meshes[p->mesh].first_vertex];
        const gn_vertex *out = &gpu[s->meshes[rig->mesh[0]].first_vertex];
        const float *palette = rig->d.mode == GN_SKIN_DUAL_QUAT
                                   ? rig->palette + (size_t)m->skeleton.joint_count * 12
                                   : rig->palette;
        const gn_instance *in = &s->instances[rig->first_instance];
        for (uint32_t v = 0; v < p->vertex_count; v++) {
            float cp[3], cn[3], ct[4];
            gn_skin_vertex(bind[v].pos, bind[v].normal, bind[v].tangent, v, &m->morphs[0], rig->morph_targets,
                           rig->morph_weights, rig->morph_active[0], &p->influences[v], rig->d.mode, palette,
                           cp, cn, ct);
            for (int i = 0; i < 3; i++) {
                worst = fmaxf(worst, fabsf(cp[i] - out[v].pos[i]));
                worst_n =
                    fmaxf(worst_n, fmaxf(fabsf(cn[i] - out[v].normal[i]), fabsf(ct[i] - out[v].tangent[i])));
            }
            float wp[3];
            const float *t = in->transform;
            for (int i = 0; i < 3; i++)
                wp[i] =
                    t[i] * out[v].pos[0] + t[4 + i] * out[v].pos[1] + t[8 + i] * out[v].pos[2] + t[12 + i];
            float d = sqrtf((wp[0] - in->sphere[0]) * (wp[0] - in->sphere[0]) +
                            (wp[1] - in->sphere[1]) * (wp[1] - in->sphere[1]) +
                            (wp[2] - in->sphere[2]) * (wp[2] - in->sphere[2]));
            *outside += d > in->sphere[3] * 1.0001f;
        }
    }
    free(gpu);
    CHECK(worst_n <= 2e-4f, "normal or tangent off by %g", (double)worst_n);
    return worst;
}

int main(void)
{
    gn_scene *s = NULL;
    gn_scene_create(&s, NULL);
    gn_material_desc md = {.base_color = {0.7f, 0.5f, 0.4f, 1}, .roughness = 0.6f, .label = "arm"};
    uint32_t mat = 0, ground_mat = 0, model = 0;
    gn_scene_add_material(s, &md, &mat, NULL);
    gn_material_desc gd = {.base_color = {0.5f, 0.5f, 0.5f, 1}, .roughness = 0.9f, .label = "ground"};
    gn_scene_add_material(s, &gd, &ground_mat, NULL);
    gn_instance_desc ground = {.mesh = gt_add_box(s, 12, 0.1f, 12), .material = ground_mat};
    ground.transform[0] = ground.transform[5] = ground.transform[10] = ground.transform[15] = 1;
    ground.transform[13] = -0.05f;
    gn_scene_add_instance(s, &ground, NULL, NULL);
    gn_anim_model m;
    make_arm(s, mat, &m);
    gn_error err = {0};
    CHECK(gn_scene_add_anim_model(s, &m, &model, &err) == GN_OK, "model refused: %s", err.message);
    static const float square[12] = {2.5f, 0, -1.5f, 3.5f, 0, -1.5f, 3.5f, 0, -0.5f, 2.5f, 0, -0.5f};
    gn_rig_desc rigs[3] = {
        {.clip = 0, .mode = GN_SKIN_LINEAR},
        {.clip = 0, .mode = GN_SKIN_DUAL_QUAT, .time_offset = 0.5f},
        {.clip = 0, .mode = GN_SKIN_LINEAR, .path = square, .path_count = 4, .path_speed = 1.3f},
    };
    for (int i = 0; i < 3; i++) {
        float *t = rigs[i].transform;
        t[0] = t[5] = t[10] = t[15] = 1, t[12] = -2.5f + 2.5f * (float)i;
        CHECK(gn_scene_add_rig(s, model, &rigs[i], NULL, &err) == GN_OK, "rig %d refused: %s", i,
              err.message);
    }
    gn_renderer *r = gt_renderer(W, H, 1);
    uint8_t *a = NULL, *b = NULL;
    const double times[2] = {0.37, 1.21};
    for (int k = 0; k < 2; k++) {
        gn_frame_desc f = frame(times[k]);
        uint8_t *px = gt_render(r, s, &f);
        GT_CHECK_VALIDATION(r, "rendering the arms");
        gn_frame_stats st = gt_frame(r, s, &f);
        CHECK(gt_ran(&st, "skin"), "no skin pass ran");
        uint32_t outside = 0;
        float worst = compare(r, s, &outside);
        printf(
            "t = %.2f s: %u rigs, %u vertices each; largest position difference GPU - CPU %.3g m; %u outside "
            "their sphere\n",
            times[k], s->rig_count, s->anims[0].model.parts[0].vertex_count, (double)worst, outside);
        CHECK(worst <= 2e-5f, "GPU skinning off the CPU reference by %g m", (double)worst);
        CHECK(outside == 0, "%u posed vertices outside their instance's bounds", outside);
        if (getenv("GT_SKIN_PNG")) {
            char path[64];
            snprintf(path, sizeof path, "gpu_skin_%d.png", k);
            gt_write_png(path, px, W, H);
        }
        if (k == 0)
            a = px;
        else
            b = px;
    }
    size_t differ = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i++) differ += a[i] != b[i];
    printf("the frames differ in %zu bytes\n", differ);
    CHECK(differ > 500, "the arms did not move between 0.37 s and 1.21 s");
    free(a);
    free(b);
    gn_renderer_destroy(r);
    gn_scene_destroy(s);
    printf("gpu_skin: %s\n", gn_check_failures ? "FAILED" : "ok");
    return gn_check_failures ? 1 : 0;
}

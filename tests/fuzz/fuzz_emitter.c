/* libFuzzer target: arbitrary bytes as an emitter file (gn_emitter_parse, from memory: the
 * buffer is exactly size bytes with no NUL after it, so a read past the end is a report). An
 * accepted file must hold 1..GN_EMITTER_MAX_EMITTERS named emitters that each pass
 * gn_particle_desc_check; each is then run as the renderer would: packed, a few frames of
 * spawns and steps with turbulence and wind, a collision against a wall and the drawn instances,
 * and every value must stay finite. Seeds: scripts/fuzz.sh writes a few valid files. */
#include "decide/camera.h"
#include "formats/emitter.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run_emitter(const gn_particle_desc *d, uint32_t id)
{
    enum { CAP = 256 };
    static gn_gpu_particle live[CAP];
    gn_gpu_particle_spawn sp;
    gn_particle_spawn_pack(d, (float[3]){1.0f, 2.0f, -3.0f}, 7u + id, id, &sp);
    gn_particle_env env = {{4.0f, 0.0f, -1.0f}};
    gn_particle_view view = {.near_plane = 0.1f};
    float proj[16], v[16];
    gn_camera_projection(1.0f, 1.5f, 0.1f, proj);
    gn_camera_view((float[3]){0, 2, 10}, 0.0f, 0.0f, v);
    gn_mat4_mul(proj, v, view.view_proj);
    view.eye[1] = 2.0f, view.eye[2] = 10.0f;
    uint32_t count = 0;
    const double t[] = {0.0, 1.0 / 60.0, 0.05, 0.5, 0.51, 3.0};
    for (size_t f = 0; f + 1 < sizeof t / sizeof t[0]; f++) {
        count = gn_particle_update(d, &sp, &env, t[f], t[f + 1], live, count, CAP);
        if (count > CAP || count > d->max_particles) abort();
        for (uint32_t i = 0; i < count; i++) {
            gn_particle_collide(d, &view, 0.1f / 10.0f, (float[3]){0, 0, 1}, &live[i]);
            gn_gpu_particle_instance in;
            gn_particle_instance(d, 7u + id, &live[i], i ? live[i - 1].pos_age : NULL, &in);
            const float *x = &in.pos_half[0];
            for (int k = 0; k < 16; k++)
                if (!isfinite(x[k])) abort();
            for (int k = 0; k < 4; k++)
                if (!isfinite(live[i].pos_age[k]) || !isfinite(live[i].vel_life[k])) abort();
            if (in.dir_frame[3] < 0.0f || in.dir_frame[3] >= (float)d->atlas_frames) abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gn_emitter_file f;
    gn_error err;
    if (gn_emitter_parse((const char *)data, size, "fuzz.json", &f, &err) != GN_OK) {
        if (f.count != 0 || f.emitters != NULL || !memchr(err.message, '\0', sizeof err.message)) abort();
        return 0;
    }
    if (f.count < 1 || f.count > GN_EMITTER_MAX_EMITTERS || !f.emitters) abort();
    for (uint32_t i = 0; i < f.count; i++) {
        char why[200];
        if (!f.emitters[i].name[0] || !gn_particle_desc_check(&f.emitters[i].desc, why, sizeof why)) abort();
        if (gn_emitter_find(&f, f.emitters[i].name) != &f.emitters[i].desc) abort();
        run_emitter(&f.emitters[i].desc, i);
    }
    gn_emitter_file_free(&f);
    return 0;
}

/* The fly camera; see view_camera.h. */
#include "view_camera.h"

#include <math.h>

#define GN_DEG (3.14159265358979f / 180.0f)

static float gn_clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

void gn_fly_camera_update(gn_fly_camera *c, const gn_fly_input *in, float dt)
{
    if (!(c->speed > 0.0f)) c->speed = GN_FLY_SPEED_DEFAULT;
    /* mouse right turns right (yaw down), mouse down looks down */
    c->yaw = fmodf(c->yaw - in->look_dx * GN_FLY_DEG_PER_PIXEL, 360.0f);
    c->pitch =
        gn_clampf(c->pitch - in->look_dy * GN_FLY_DEG_PER_PIXEL, -GN_FLY_PITCH_LIMIT, GN_FLY_PITCH_LIMIT);
    if (in->scroll != 0.0f && isfinite(in->scroll))
        c->speed =
            gn_clampf(c->speed * powf(GN_FLY_SCROLL_STEP, in->scroll), GN_FLY_SPEED_MIN, GN_FLY_SPEED_MAX);
    if (!(dt > 0.0f)) return;

    float yaw = c->yaw * GN_DEG, pitch = c->pitch * GN_DEG;
    float forward[3] = {-sinf(yaw) * cosf(pitch), sinf(pitch),
                        -cosf(yaw) * cosf(pitch)};  /* gn_camera_forward */
    float right[3] = {cosf(yaw), 0.0f, -sinf(yaw)}; /* level */
    float f = (float)in->forward - (float)in->back;
    float s = (float)in->right - (float)in->left;
    float u = (float)in->up - (float)in->down;
    float move[3];
    for (int i = 0; i < 3; i++) move[i] = forward[i] * f + right[i] * s;
    move[1] += u;
    float len = sqrtf(move[0] * move[0] + move[1] * move[1] + move[2] * move[2]);
    if (len <= 0.0f) return;
    float step = c->speed * (in->fast ? GN_FLY_FAST : 1.0f) * dt / len;
    for (int i = 0; i < 3; i++) c->position[i] += move[i] * step;
}

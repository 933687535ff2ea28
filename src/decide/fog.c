/* The height fogs along a ray (decide/fog.h). Along eye + t dir the density of a layer is
 * d0 exp(e(t)) with e(t) = -(eye.y + t dir.y - base) k, k = falloff / 1000: linear in t, so its
 * integral over [0, L] is d0 L (exp(e(0)) - exp(e(L))) / (e(0) - e(L)) (d0 L exp(e) as the two
 * meet: a level ray). */
#include "decide/fog.h"

#include <math.h>

float gn_fog_depth(const gn_fog_layer fog[2], const float eye[3], const float dir[3], float metres)
{
    float tau = 0.0f;
    for (int k = 0; k < 2; k++) {
        const gn_fog_layer *f = &fog[k];
        if (f->density <= 0.0f) continue;
        float fall = f->falloff * 1e-3f;
        /* the density's exponent at both ends; the integral is d L (e^e0 - e^e1) / (e0 - e1),
         * taken with the larger exponent factored out (no overflow, no 0 x inf) */
        float e0 = -(eye[1] - f->base) * fall, e1 = e0 - fall * dir[1] * metres;
        float m = fmaxf(e0, e1), x = e0 - e1;
        float g = fabsf(x) < 1e-4f ? expf(0.5f * (e0 + e1) - m) : (expf(e0 - m) - expf(e1 - m)) / x;
        tau += f->density * metres * expf(fminf(m, 80.0f)) * g;
    }
    return tau;
}

float gn_fog_phase(float g, float c)
{
    float d = 1.0f + g * g - 2.0f * g * c;
    return (1.0f - g * g) / (4.0f * 3.14159265f * d * sqrtf(d));
}

void gn_fog_inscatter(const gn_fog_layer fog[2], const float eye[3], const float dir[3], float metres,
                      float albedo, float g, const float key_dir[3], const float key_rgb[3],
                      const float ambient_rgb[3], float out_rgb[3], float *transmittance)
{
    float T = expf(-gn_fog_depth(fog, eye, dir, metres));
    float phase = gn_fog_phase(g, dir[0] * key_dir[0] + dir[1] * key_dir[1] + dir[2] * key_dir[2]);
    for (int c = 0; c < 3; c++) out_rgb[c] = (1.0f - T) * albedo * (key_rgb[c] * phase + ambient_rgb[c]);
    *transmittance = T;
}

/* Frustum planes, after Gribb & Hartmann, "Fast Extraction of Viewing Frustum Planes from the
 * World-View-Projection Matrix" (2001). With rows r0..r3 of M, a point is inside the clip
 * volume when -w<=x<=w, -w<=y<=w and 0<=z<=w, i.e. r3±r0 >= 0, r3±r1 >= 0, r2 >= 0 and
 * r3-r2 >= 0 (dotted with (p,1)). The two depth planes serve either Z direction: with
 * reversed-Z, r3-r2 is the near plane and r2 the far one. */
#include "decide/frustum.h"

#include <math.h>

/* A plane whose normal is this much shorter than the longest one is taken as degenerate:
 * for the infinite far plane r2 = (0,0,0,near) exactly, up to float rounding in V*P. Relative
 * so that a uniformly scaled matrix gives the same answer. */
#define GN_FRUSTUM_DEGENERATE 1e-6f

void gn_frustum_from_view_proj(const float m[16], gn_frustum *out)
{
    float row[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) row[r][c] = m[c * 4 + r];
    /* Candidates: x >= -w, x <= w, the two y bounds (which one is the image top depends on
     * the projection's y flip), z <= w, z >= 0. */
    float cand[6][4];
    for (int c = 0; c < 4; c++) {
        cand[0][c] = row[3][c] + row[0][c];
        cand[1][c] = row[3][c] - row[0][c];
        cand[2][c] = row[3][c] + row[1][c];
        cand[3][c] = row[3][c] - row[1][c];
        cand[4][c] = row[3][c] - row[2][c];
        cand[5][c] = row[2][c];
    }
    float len[6], longest = 0.0f;
    for (int i = 0; i < 6; i++) {
        len[i] = sqrtf(cand[i][0] * cand[i][0] + cand[i][1] * cand[i][1] + cand[i][2] * cand[i][2]);
        if (len[i] > longest) longest = len[i];
    }
    out->count = 0;
    for (int i = 0; i < 6; i++) {
        if (!(len[i] > GN_FRUSTUM_DEGENERATE * longest)) continue;
        for (int c = 0; c < 4; c++) out->planes[out->count][c] = cand[i][c] / len[i];
        out->count++;
    }
}

bool gn_frustum_test_sphere(const gn_frustum *f, const float c[3], float r)
{
    for (uint32_t i = 0; i < f->count; i++) {
        const float *p = f->planes[i];
        if (p[0] * c[0] + p[1] * c[1] + p[2] * c[2] + p[3] < -r) return false;
    }
    return true;
}

bool gn_frustum_test_aabb(const gn_frustum *f, const float mn[3], const float mx[3])
{
    /* Test the corner furthest along each plane's normal: if even it is outside, all are.
     * Conservative near frustum corners (may keep a box that is outside), never culls wrongly. */
    for (uint32_t i = 0; i < f->count; i++) {
        const float *p = f->planes[i];
        float s = p[3];
        for (int a = 0; a < 3; a++) s += p[a] * (p[a] >= 0.0f ? mx[a] : mn[a]);
        if (s < 0.0f) return false;
    }
    return true;
}

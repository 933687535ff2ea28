/* libFuzzer target: arbitrary bytes as an .md3 file (gn_md3_parse, from memory: libFuzzer's buffer
 * is exactly size bytes, so a read past the end is a report), then, when they parse, every
 * surface and tag posed between the first and last frames and past them, and a part attached to
 * each tag; the same bytes as animation.cfg text (every clip sampled, its ranges checked against
 * the model) and as a .skin. Whatever the bytes, each result must be GN_OK or a clean error with a
 * message, never a crash or a sanitizer report; what parses must keep its promises (indices
 * inside the surface, unit normals, orthonormal tags, sampled frames inside their clip).
 * Seeds: scripts/fuzz.sh writes a small valid model, an animation.cfg and a .skin. */
#include "formats/md3.h"
#include "formats/md3_player.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool unit(const float *v, float tol)
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return fabsf(l - 1.0f) <= tol;
}

static void pose(const gn_md3 *m, gn_md3_blend b)
{
    for (uint32_t s = 0; s < m->surface_count; s++) {
        const gn_md3_surface *sf = &m->surfaces[s];
        size_t n = 3 * (size_t)sf->vertex_count;
        float *pos = malloc(n * sizeof *pos + 4), *nrm = malloc(n * sizeof *nrm + 4);
        if (!pos || !nrm) abort();
        if (!gn_md3_lerp_surface(m, s, b, pos, nrm)) abort();
        for (size_t i = 0; i < n; i += 3)
            if (!isfinite(pos[i]) || !unit(&nrm[i], 1e-4f)) abort();
        free(pos);
        free(nrm);
    }
    for (uint32_t t = 0; t < m->tag_count; t++) {
        gn_md3_tag tag;
        if (!gn_md3_lerp_tag(m, t, b, &tag)) abort();
        for (int i = 0; i < 3; i++) {
            if (!unit(tag.axis[i], 1e-4f)) abort();
            const float *a = tag.axis[i], *c = tag.axis[(i + 1) % 3];
            if (fabsf(a[0] * c[0] + a[1] * c[1] + a[2] * c[2]) > 1e-4f) abort();
        }
        const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        float child[16];
        gn_md3_attach(identity, &tag, identity, child);
    }
}

static void check_model(const gn_md3 *m)
{
    if (m->frame_count < 1 || m->frame_count > GN_MD3_MAX_FRAMES || m->tag_count > GN_MD3_MAX_TAGS ||
        m->surface_count > GN_MD3_MAX_SURFACES)
        abort();
    for (uint32_t s = 0; s < m->surface_count; s++) {
        const gn_md3_surface *sf = &m->surfaces[s];
        if (memchr(sf->name, 0, sizeof sf->name) == NULL) abort();
        for (uint32_t i = 0; i < 3 * sf->triangle_count; i++)
            if (sf->indices[i] >= sf->vertex_count) abort();
        for (uint32_t i = 0; i < sf->shader_count; i++)
            if (memchr(sf->shaders[i].name, 0, sizeof sf->shaders[i].name) == NULL) abort();
    }
    pose(m, (gn_md3_blend){0, m->frame_count - 1, 0.3f});
    pose(m, (gn_md3_blend){m->frame_count + 5, 0, NAN});
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gn_md3 *m = NULL;
    gn_error err = {0};
    if (gn_md3_parse(data, size, "fuzz.md3", &m, &err) != GN_OK) {
        if (m || !err.message[0]) abort(); /* a failure leaves nothing and says why */
    } else {
        check_model(m);
    }

    static gn_md3_anim_cfg cfg;
    err.message[0] = '\0';
    if (gn_md3_anim_cfg_parse((const char *)data, size, "fuzz.cfg", &cfg, &err) == GN_OK) {
        for (int a = 0; a < GN_MD3_ANIM_COUNT; a++) {
            const gn_md3_clip *c = &cfg.clips[a];
            uint32_t last = c->first_frame + (c->frame_count ? c->frame_count - 1 : 0);
            const double times[] = {0.0, 0.049, 1.0 / 3.0, 2.5, 1e7, -1.0, NAN, INFINITY};
            for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
                gn_md3_blend b = gn_md3_clip_sample(c, times[i]);
                if (b.from < c->first_frame || b.from > last || b.to < c->first_frame || b.to > last ||
                    !(b.frac >= 0.0f && b.frac <= 1.0f))
                    abort();
            }
        }
        uint32_t frames = m ? m->frame_count : 1024;
        (void)gn_md3_anim_cfg_check(&cfg, frames, frames, "fuzz.cfg", &err);
    } else if (!err.message[0]) {
        abort();
    }

    static gn_md3_skin skin;
    err.message[0] = '\0';
    if (gn_md3_skin_parse((const char *)data, size, "fuzz.skin", &skin, &err) == GN_OK) {
        if (skin.count > GN_MD3_SKIN_MAX) abort();
        for (uint32_t i = 0; i < skin.count; i++) {
            const char *sn = skin.entries[i].surface; /* a "_1"-like suffix is cut when looked up */
            size_t n = strlen(sn);
            if (!(n > 2 && sn[n - 2] == '_') && gn_md3_skin_image(&skin, sn) == NULL) abort();
        }
    } else if (!err.message[0]) {
        abort();
    }
    gn_md3_free(m);
    return 0;
}

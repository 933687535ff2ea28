/* A test-only feature: `runs` empty passes a frame, each timed like any other, so a test can
 * fill the pass table to a given length and see every pass timed, or one more than the query
 * pool holds refused (tests/gpu/gpu_passes.c). It records nothing but its timestamps. */
#include "passes/passes.h"

typedef struct noop_state {
    uint32_t runs, max_runs;
} noop_state;

const gn_feature gn_feature_noop = {.name = "noop (tests)", .size = sizeof(noop_state)};

gn_result gn_noop_set(gn_renderer *r, uint32_t runs, uint32_t reserve, gn_error *err)
{
    noop_state *s = gn_feature_state(r, GN_FEATURE_NOOP);
    s->runs = runs;
    s->max_runs = reserve;
    return gn_vk_pass_capacity(&r->vk, gn_frame_max_passes(r), err);
}

uint32_t gn_noop_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const noop_state *)self)->runs;
}

uint32_t gn_noop_max_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const noop_state *)self)->max_runs;
}

uint32_t gn_noop_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)self, (void)run, (void)out;
    return 0;
}

gn_pass_work gn_noop_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)r, (void)self, (void)run;
    return (gn_pass_work){0, 0};
}

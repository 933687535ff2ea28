/* GPU particles (a feature; docs/EFFECTS.md, "GPU particles"; issue 20). The CPU decides what
 * each emitter spawns this frame (decide/particles.h: gn_particle_spawn_groups over the frame's
 * [t0, t1) on the scene's clock, gn_frame_desc.seconds) and packs the emitters' constants; the
 * GPU does the rest in three passes:
 *   particles simulate  (compute) STEP the last frame's alive list (gn_particle_step, then the
 *                       depth buffer's collision: this frame's prepass depth, resolved), keeping
 *                       the living in this frame's list and pushing the dead onto their
 *                       emitter's free stack; SPAWN the frame's jobs into free slots (a spawn's
 *                       rank in its emitter's frame picks the slot from the stack's top, so which
 *                       slot a particle takes is deterministic); FINISH the stacks' counts; KEYS:
 *                       blended particles' sort keys, additive ones' instances
 *   particles sort      (compute) a bitonic sort of the keys, back to front, then WRITE the
 *                       sorted instances and the two indirect draw commands
 *   particles           (draw) two indirect instanced draws of quads into the resolved HDR
 *                       colour: the blended back to front, then the additive ones
 * Integer atomics only (float atomics are not deterministic on lavapipe). Buffers are made for
 * the scene's emitters the first frame that has them (again when one is added: the particles
 * then start over); a renderer or scene without emitters pays nothing. */
#include "base/alloc.h"
#include "decide/particle_frame.h"
#include "passes/passes.h"
#include "scene/scene.h"

#include <stdlib.h>
#include <string.h>

enum { SUN_COUNT = 3 }; /* gn_forward_technique's */
static const char *const SHADER[SUN_COUNT][2] = {{"particle_none_alpha.frag", "particle_none_add.frag"},
                                                 {"particle_csm_alpha.frag", "particle_csm_add.frag"},
                                                 {"particle_vsm_alpha.frag", "particle_vsm_add.frag"}};

#define ALL (VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT)
/* One set serves both: the compute pass's set 0 and the draw's set 1. */
static const gn_vk_binding BINDINGS[GN_BIND_PARTICLE_COUNT] = {
    [GN_BIND_PARTICLE_STATES] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ALL},
    [GN_BIND_PARTICLE_FREE] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ALL},
    [GN_BIND_PARTICLE_ALIVE] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ALL},
    [GN_BIND_PARTICLE_COUNTERS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ALL},
    [GN_BIND_PARTICLE_EMITTERS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, ALL},
    [GN_BIND_PARTICLE_JOBS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, ALL},
    [GN_BIND_PARTICLE_KEYS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ALL},
    [GN_BIND_PARTICLE_INSTANCES] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ALL},
    [GN_BIND_PARTICLE_OWNERS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ALL},
    [GN_BIND_PARTICLE_DEPTH] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ALL},
};

enum { BUF_STATES, BUF_FREE, BUF_ALIVE, BUF_COUNTERS, BUF_KEYS, BUF_INSTANCES, BUF_OWNERS, BUF_COUNT };
static const char *const BUF_NAME[BUF_COUNT] = {
    "particle states",    "particle free slots", "particle alive lists", "particle counters",
    "particle sort keys", "particle instances",  "particle owners"};

typedef struct particles_state {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout sim_layout;
    VkPipeline sim;
    VkPipelineLayout draw_layout[SUN_COUNT];
    VkPipeline draw[SUN_COUNT][2]; /* blended over, additive */
    VkDescriptorPool pool;
    VkDescriptorSet set;
    gn_vk_buffer buf[BUF_COUNT];
    /* what the buffers and the set were made for */
    uint64_t scene_uid;
    uint32_t generation, emitters;
    const gn_vk_image *depth;
    VkImageView depth_view;
    uint32_t slots, sort_keys; /* slots in all; keys, a power of two over the blended emitters' slots */
    /* the clock and the alive list last written (0, 1) */
    double t0;
    uint32_t cur;
    /* this frame */
    bool runs;
    uint32_t sun, spawn_threads, jobs;
    uint32_t offsets[2]; /* the emitters' and the jobs' in the ring */
    float view_proj[16], eye_near[4];
} particles_state;

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    particles_state *s = self;
    return gn_vk_set_layout(&r->vk, BINDINGS, GN_BIND_PARTICLE_COUNT, "particles", &s->set_layout, err);
}

static void release_buffers(gn_renderer *r, particles_state *s)
{
    for (int b = 0; b < BUF_COUNT; b++) gn_vk_buffer_release(&r->vk, &s->buf[b]);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)s->pool);
    s->pool = VK_NULL_HANDLE;
    s->set = VK_NULL_HANDLE;
}

static void release(gn_renderer *r, void *self)
{
    particles_state *s = self;
    gn_vk *vk = &r->vk;
    release_buffers(r, s);
    for (uint32_t k = 0; k < SUN_COUNT; k++) {
        for (int b = 0; b < 2; b++)
            gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->draw[k][b]);
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)s->draw_layout[k]);
    }
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->sim);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)s->sim_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)s->set_layout);
}

/* The push constants: the frame's (shared/particle_pass.h), then the camera. */
typedef struct sim_push {
    gn_gpu_particle_push pc;
    float view_proj[16];
    float eye_near[4];
} sim_push;
_Static_assert(sizeof(sim_push) == 128, "Vulkan's least push constant size");

static gn_result ensure_pipelines(gn_renderer *r, particles_state *s, uint32_t sun, gn_error *err)
{
    gn_result res = GN_OK;
    if (!s->sim) {
        res = gn_vk_pipeline_layout(&r->vk, &s->set_layout, 1, sizeof(sim_push), "particles simulate",
                                    &s->sim_layout, err);
        if (!res)
            res = gn_vk_compute_pipeline(&r->vk, "particles_sim.comp", s->sim_layout, "particles", &s->sim,
                                         err);
        if (res) return res;
    }
    if (s->draw[sun][0]) return GN_OK;
    if (!s->draw_layout[sun]) {
        gn_receiver rc[GN_FORWARD_SETS - 2];
        gn_forward_receivers(r, sun, rc);
        VkDescriptorSetLayout sets[GN_FORWARD_SETS] = {r->pipes.frame_layout, s->set_layout};
        for (uint32_t k = 2; k < GN_FORWARD_SETS; k++) sets[k] = rc[k - 2].layout;
        res = gn_vk_pipeline_layout(&r->vk, sets, GN_FORWARD_SETS, 0, "particles", &s->draw_layout[sun], err);
    }
    for (int b = 0; b < 2 && !res; b++) {
        /* one sample a pixel into the resolved colour, no depth attachment: the fragment tests
           the resolved depth itself (the soft fade is 0 behind it) */
        gn_vk_graphics_desc g = {
            .vert = "particle_draw.vert",
            .frag = SHADER[sun][b],
            .layout = s->draw_layout[sun],
            .color_format = VK_FORMAT_R16G16B16A16_SFLOAT,
            .samples = 1,
            .cull = VK_CULL_MODE_NONE,
            .blend = {b ? GN_VK_BLEND_ADD : GN_VK_BLEND_ALPHA},
            .name = b ? "particles additive" : "particles blended",
        };
        res = gn_vk_graphics_pipeline(&r->vk, &g, &s->draw[sun][b], err);
    }
    return res;
}

static uint32_t pow2_at_least(uint32_t n)
{
    uint32_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

/* The scene's buffers: every emitter's slots, its free stack full, no one alive. */
static gn_result make_buffers(gn_renderer *r, particles_state *s, const gn_scene *sc, gn_error *err)
{
    release_buffers(r, s);
    uint32_t slots = sc->emitter_particles, blended = 0;
    for (uint32_t e = 0; e < sc->emitter_count; e++)
        if (sc->emitters[e].desc.blend == GN_PARTICLE_ALPHA) blended += sc->emitters[e].desc.max_particles;
    s->slots = slots;
    s->sort_keys = pow2_at_least(blended ? blended : 1);
    uint32_t counters = GN_PARTICLE_COUNT_EMITTERS + 4 * sc->emitter_count;
    const VkDeviceSize size[BUF_COUNT] = {
        [BUF_STATES] = (VkDeviceSize)slots * sizeof(gn_gpu_particle),
        [BUF_FREE] = (VkDeviceSize)slots * 4,
        [BUF_ALIVE] = (VkDeviceSize)slots * 8,
        [BUF_COUNTERS] = (VkDeviceSize)counters * 4,
        [BUF_KEYS] = (VkDeviceSize)s->sort_keys * 8,
        [BUF_INSTANCES] = (VkDeviceSize)slots * sizeof(gn_gpu_particle_instance),
        [BUF_OWNERS] = (VkDeviceSize)slots * 4,
    };
    uint64_t range = r->vk.props.limits.maxStorageBufferRange;
    gn_result res = GN_OK;
    for (int b = 0; b < BUF_COUNT && !res; b++) {
        if (size[b] > range)
            return gn_fail(err, GN_ERROR_OUT_OF_MEMORY,
                           "particles: the scene's %u slots take %.1f MiB of %s, over the device's storage "
                           "buffer range of %.1f MiB",
                           slots, (double)size[b] / (1 << 20), BUF_NAME[b], (double)range / (1 << 20));
        gn_vk_buffer_desc d = {.size = size[b],
                               .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                        VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                        (b == BUF_COUNTERS ? VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT : 0),
                               .name = BUF_NAME[b]};
        res = gn_vk_buffer_create(&r->vk, &d, &s->buf[b], err);
    }
    if (res) return res;
    /* each emitter's stack holds its slots, the lowest on top */
    uint32_t *stack = gn_malloc((size_t)slots * 4 + 4), *count = gn_malloc((size_t)counters * 4);
    if (!stack || !count) {
        free(stack), free(count);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "particles: out of memory for %u slots", slots);
    }
    memset(count, 0, (size_t)counters * 4);
    for (uint32_t e = 0, base = 0; e < sc->emitter_count; e++) {
        uint32_t n = sc->emitters[e].desc.max_particles;
        for (uint32_t i = 0; i < n; i++) stack[base + i] = base + n - 1 - i;
        count[GN_PARTICLE_COUNT_EMITTERS + 4 * e] = n;
        base += n;
    }
    res = gn_vk_upload_buffer(&r->vk, &s->buf[BUF_FREE], 0, stack, (VkDeviceSize)slots * 4, err);
    if (!res)
        res = gn_vk_upload_buffer(&r->vk, &s->buf[BUF_COUNTERS], 0, count, (VkDeviceSize)counters * 4, err);
    free(stack), free(count);
    if (!res) res = gn_vk_descriptor_pool(&r->vk, 1, "particles", &s->pool, err);
    if (!res) res = gn_vk_alloc_set(&r->vk, s->pool, s->set_layout, "particles", &s->set, err);
    if (res) return res;
    s->scene_uid = sc->uid, s->generation = sc->emitter_generation, s->emitters = sc->emitter_count;
    s->t0 = 0.0;
    s->cur = 0;
    s->depth = NULL; /* the set is written below */
    return GN_OK;
}

static void write_set(gn_renderer *r, particles_state *s)
{
    gn_vk_image *depth = r->targets.depth;
    if (s->depth == depth && s->depth_view == depth->view) return;
    gn_vk_write w[GN_BIND_PARTICLE_COUNT] = {
        gn_write_storage(GN_BIND_PARTICLE_STATES, &s->buf[BUF_STATES]),
        gn_write_storage(GN_BIND_PARTICLE_FREE, &s->buf[BUF_FREE]),
        gn_write_storage(GN_BIND_PARTICLE_ALIVE, &s->buf[BUF_ALIVE]),
        gn_write_storage(GN_BIND_PARTICLE_COUNTERS, &s->buf[BUF_COUNTERS]),
        {.binding = GN_BIND_PARTICLE_EMITTERS,
         .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
         .buffer = r->vk.ring.buffer,
         .range = (VkDeviceSize)s->emitters * sizeof(gn_gpu_particle_emitter)},
        {.binding = GN_BIND_PARTICLE_JOBS,
         .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
         .buffer = r->vk.ring.buffer,
         .range = (VkDeviceSize)s->emitters * GN_PARTICLE_MAX_GROUPS * sizeof(gn_gpu_particle_job)},
        gn_write_storage(GN_BIND_PARTICLE_KEYS, &s->buf[BUF_KEYS]),
        gn_write_storage(GN_BIND_PARTICLE_INSTANCES, &s->buf[BUF_INSTANCES]),
        gn_write_storage(GN_BIND_PARTICLE_OWNERS, &s->buf[BUF_OWNERS]),
        gn_write_sampled(GN_BIND_PARTICLE_DEPTH, depth, r->pipes.clamp),
    };
    gn_vk_write_set(&r->vk, s->set, w, GN_BIND_PARTICLE_COUNT);
    s->depth = depth;
    s->depth_view = depth->view;
}

static void pack_emitter(const gn_scene_emitter *se, uint32_t id, uint32_t first_slot, float dt,
                         uint32_t ranks, gn_gpu_particle_emitter *g)
{
    const gn_particle_desc *d = &se->desc;
    memset(g, 0, sizeof *g);
    gn_particle_spawn_pack(d, se->origin, se->seed, id, &g->spawn);
    const gn_particle_env env = {{0, 0, 0}};
    gn_particle_step_pack(d, dt, &env, &g->step);
    g->slots[0] = first_slot, g->slots[1] = d->max_particles;
    g->slots[2] = (uint32_t)d->blend, g->slots[3] = (uint32_t)d->render;
    g->atlas[0] = d->atlas_columns, g->atlas[1] = d->atlas_rows, g->atlas[2] = d->atlas_frames;
    g->atlas[3] = (d->atlas_over_life ? 1u : 0u) | (d->atlas_random_start ? 2u : 0u);
    g->size_fade[0] = d->size[0], g->size_fade[1] = d->size[1];
    g->size_fade[2] = d->size_jitter, g->size_fade[3] = d->fade_in;
    memcpy(g->color0, d->color[0], sizeof g->color0);
    memcpy(g->color1, d->color[1], sizeof g->color1);
    memcpy(g->emit0, d->emission[0], 3 * sizeof(float));
    memcpy(g->emit1, d->emission[1], 3 * sizeof(float));
    g->emit0[3] = d->atlas_fps, g->emit1[3] = d->stretch;
    g->collide[0] = (float)d->collision, g->collide[1] = d->restitution;
    g->collide[2] = d->friction, g->collide[3] = d->collision_thickness;
    g->draw[0] = d->soft_depth, g->draw[1] = (float)ranks;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *sc, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)g;
    particles_state *s = self;
    s->runs = false;
    if (!sc->emitter_count || in->debug_view != GN_VIEW_FINAL) return GN_OK;
    s->sun = gn_forward_technique(in->shadows);
    gn_result res = ensure_pipelines(r, s, s->sun, err);
    if (res) return res;
    if (!s->set || s->scene_uid != sc->uid || s->generation != sc->emitter_generation) {
        res = make_buffers(r, s, sc, err);
        if (res) return res;
    }
    write_set(r, s);
    /* the frame covers [t0, t1) of the scene's clock; a clock that went back starts over there */
    double t1 = in->seconds, t0 = s->t0;
    if (t1 < t0) t0 = t1;
    float dt = (float)(t1 - t0);
    gn_gpu_particle_emitter *em;
    gn_gpu_particle_job *jobs;
    VkDeviceSize eo, jo, align = gn_vk_storage_align(&r->vk);
    uint32_t n = sc->emitter_count;
    res = gn_vk_ring_alloc_window(&r->vk, n * sizeof *em, n * sizeof *em, align, &eo, (void **)&em, err);
    if (!res)
        res = gn_vk_ring_alloc_window(&r->vk, n * GN_PARTICLE_MAX_GROUPS * sizeof *jobs,
                                      n * GN_PARTICLE_MAX_GROUPS * sizeof *jobs, align, &jo, (void **)&jobs,
                                      err);
    if (res) return res;
    uint32_t nj = 0, threads = 0;
    for (uint32_t e = 0, base = 0; e < n; e++) {
        const gn_scene_emitter *se = &sc->emitters[e];
        uint32_t ranks = 0;
        nj += gn_particle_frame_jobs(&se->desc, e, t0, t1, &threads, jobs + nj, &ranks);
        pack_emitter(se, e, base, dt, ranks, &em[e]);
        base += se->desc.max_particles;
    }
    s->offsets[0] = (uint32_t)eo, s->offsets[1] = (uint32_t)jo;
    s->jobs = nj, s->spawn_threads = threads;
    s->t0 = t1;
    memcpy(s->view_proj, in->view_proj, sizeof s->view_proj);
    memcpy(s->eye_near, in->position, 3 * sizeof(float));
    s->eye_near[3] = in->near_plane;
    s->runs = true;
    return GN_OK;
}

static void harvest(const void *self, const uint8_t *counters, gn_frame_stats *out)
{
    (void)self;
    uint32_t c[8];
    memcpy(c, counters, sizeof c);
    out->particles_live = c[GN_PARTICLE_COUNT_LIVE];
    out->particles_spawned = c[GN_PARTICLE_COUNT_SPAWNED];
}

const gn_feature gn_feature_particles = {.name = "particles",
                                         .size = sizeof(particles_state),
                                         .counters = 32,
                                         .create = create,
                                         .plan = plan,
                                         .harvest = harvest,
                                         .release = release};

uint32_t gn_particles_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const particles_state *)self)->runs ? 1 : 0;
}

static uint32_t compute_uses(particles_state *s, gn_vk_use *out)
{
    static const int WRITTEN[] = {BUF_STATES, BUF_FREE,      BUF_ALIVE, BUF_COUNTERS,
                                  BUF_KEYS,   BUF_INSTANCES, BUF_OWNERS};
    uint32_t n = 0;
    for (size_t i = 0; i < sizeof WRITTEN / sizeof WRITTEN[0]; i++)
        out[n++] = (gn_vk_use){.buffer = &s->buf[WRITTEN[i]], .access = GN_ACCESS_COMPUTE_WRITE};
    return n;
}

uint32_t gn_particles_simulate_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    particles_state *s = self;
    uint32_t n = compute_uses(s, out);
    out[n++] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ};
    return n;
}

/* One phase over `threads` threads, then a barrier on what the phases write. */
static void phase(gn_renderer *r, particles_state *s, sim_push *p, uint32_t which, uint32_t threads)
{
    gn_vk *vk = &r->vk;
    p->pc.phase[0] = which;
    gn_vk_cmd_push(vk, s->sim_layout, sizeof *p, p);
    uint32_t groups = (threads + GN_PARTICLE_GROUP - 1) / GN_PARTICLE_GROUP;
    if (groups) gn_vk_cmd_dispatch(vk, groups, 1, 1);
    gn_vk_use use[BUF_COUNT];
    gn_vk_barriers(vk, vk->cur->cmd, use, compute_uses(s, use));
}

static sim_push begin_compute(gn_renderer *r, particles_state *s)
{
    gn_vk *vk = &r->vk;
    sim_push p;
    memset(&p, 0, sizeof p);
    p.pc.phase[3] = s->cur;
    p.pc.counts[0] = s->slots, p.pc.counts[1] = s->spawn_threads, p.pc.counts[2] = s->jobs;
    p.pc.counts[3] = s->emitters;
    p.pc.sort[0] = s->sort_keys;
    memcpy(p.view_proj, s->view_proj, sizeof p.view_proj);
    memcpy(p.eye_near, s->eye_near, sizeof p.eye_near);
    gn_vk_cmd_bind_pipeline(vk, true, s->sim);
    gn_vk_cmd_bind_sets(vk, true, s->sim_layout, 0, 1, &s->set, 2, s->offsets);
    return p;
}

gn_pass_work gn_particles_simulate_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    particles_state *s = self;
    gn_vk *vk = &r->vk;
    /* this frame's list and counts start empty; every key pads until written */
    gn_vk_use fill[2] = {{.buffer = &s->buf[BUF_COUNTERS], .access = GN_ACCESS_TRANSFER_WRITE},
                         {.buffer = &s->buf[BUF_KEYS], .access = GN_ACCESS_TRANSFER_WRITE}};
    gn_vk_barriers(vk, vk->cur->cmd, fill, 2);
    gn_vk_cmd_fill_at(vk, &s->buf[BUF_COUNTERS], 4 * (1 - s->cur), 4, 0);
    gn_vk_cmd_fill_at(vk, &s->buf[BUF_COUNTERS], 4 * GN_PARTICLE_COUNT_SORTED, 16, 0);
    gn_vk_cmd_fill(vk, &s->buf[BUF_KEYS], 0xffffffffu);
    gn_vk_use use[BUF_COUNT];
    gn_vk_barriers(vk, vk->cur->cmd, use, compute_uses(s, use));
    sim_push p = begin_compute(r, s);
    phase(r, s, &p, GN_PARTICLE_PHASE_STEP, s->slots);
    phase(r, s, &p, GN_PARTICLE_PHASE_SPAWN, s->spawn_threads);
    phase(r, s, &p, GN_PARTICLE_PHASE_FINISH, GN_PARTICLE_GROUP);
    phase(r, s, &p, GN_PARTICLE_PHASE_KEYS, s->slots);
    return (gn_pass_work){0, 0};
}

uint32_t gn_particles_sort_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)r, (void)run;
    return compute_uses(self, out);
}

/* Bitonic: for each block size k = 2, 4, .. keys, merge steps j = k/2 .. 1, one dispatch each of
 * keys / 2 compare-exchanges (log2(n)(log2(n) + 1) / 2 dispatches: 210 for 2^20 keys). */
gn_pass_work gn_particles_sort_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    particles_state *s = self;
    sim_push p = begin_compute(r, s);
    for (uint32_t k = 2; k <= s->sort_keys; k <<= 1)
        for (uint32_t j = k >> 1; j > 0; j >>= 1) {
            p.pc.phase[1] = k, p.pc.phase[2] = j;
            phase(r, s, &p, GN_PARTICLE_PHASE_SORT, s->sort_keys / 2);
        }
    phase(r, s, &p, GN_PARTICLE_PHASE_WRITE, s->slots);
    gn_frame_count(r, GN_FEATURE_PARTICLES, &s->buf[BUF_COUNTERS], 32);
    s->cur = 1 - s->cur; /* this frame's list is the next one's to step */
    return (gn_pass_work){0, 0};
}

uint32_t gn_particles_draw_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    particles_state *s = self;
    uint32_t n = 0;
    out[n++] = (gn_vk_use){.image = r->targets.hdr, .access = GN_ACCESS_COLOR_WRITE};
    out[n++] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ};
    out[n++] = (gn_vk_use){.buffer = &s->buf[BUF_INSTANCES], .access = GN_ACCESS_SHADER_READ};
    out[n++] = (gn_vk_use){.buffer = &s->buf[BUF_OWNERS], .access = GN_ACCESS_SHADER_READ};
    out[n++] = (gn_vk_use){.buffer = &s->buf[BUF_COUNTERS], .access = GN_ACCESS_INDIRECT};
    out[n++] = (gn_vk_use){.buffer = &r->pipes.exposure, .access = GN_ACCESS_SHADER_READ}; /* pre-exposure */
    n += gn_forward_receiver_uses(r, s->sun, out + n);
    return n;
}

gn_pass_work gn_particles_draw_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    particles_state *s = self;
    gn_vk *vk = &r->vk;
    gn_vk_rendering ri = {.color = {.image = r->targets.hdr}, .width = r->width, .height = r->height};
    VkPipelineLayout layout = s->draw_layout[s->sun];
    gn_vk_cmd_begin_rendering(vk, &ri);
    for (int b = 0; b < 2; b++) {
        gn_vk_cmd_bind_pipeline(vk, false, s->draw[s->sun][b]);
        if (b == 0) {
            gn_bind_view_frame(r, layout, &r->plan.camera);
            gn_forward_bind_receivers(r, s->sun, layout);
            gn_vk_cmd_bind_sets(vk, false, layout, GN_SET_PARTICLE, 1, &s->set, 2, s->offsets);
        }
        gn_vk_cmd_draw_indirect(vk, &s->buf[BUF_COUNTERS], 4 * (GN_PARTICLE_COUNT_DRAW + 4 * (uint32_t)b));
    }
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){2, 0};
}

gn_result gn_particles_read(gn_renderer *r, gn_gpu_particle *alive, uint32_t cap, uint32_t *alive_count,
                            gn_gpu_particle *sorted, uint32_t *sorted_count, gn_error *err)
{
    particles_state *s = gn_feature_state(r, GN_FEATURE_PARTICLES);
    *alive_count = *sorted_count = 0;
    if (!s->set) return GN_OK;
    gn_result res = gn_renderer_wait_idle(r, err);
    uint32_t c[8];
    if (!res) res = gn_vk_read_buffer(&r->vk, &s->buf[BUF_COUNTERS], c, sizeof c, "particle counters", err);
    uint32_t n = 0, ns = 0;
    uint32_t *list = NULL;
    gn_gpu_particle *states = NULL;
    uint32_t(*keys)[2] = NULL;
    if (!res) {
        n = c[GN_PARTICLE_COUNT_ALIVE0 + s->cur], ns = c[GN_PARTICLE_COUNT_SORTED];
        list = gn_malloc((size_t)s->slots * 8 + 8);
        states = gn_malloc((size_t)s->slots * sizeof *states + 1);
        keys = gn_malloc((size_t)s->sort_keys * 8);
        if (!list || !states || !keys) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "particles: readback");
    }
    if (!res)
        res = gn_vk_read_buffer(&r->vk, &s->buf[BUF_ALIVE], list, (VkDeviceSize)s->slots * 8, "alive", err);
    if (!res)
        res = gn_vk_read_buffer(&r->vk, &s->buf[BUF_STATES], states, (VkDeviceSize)s->slots * sizeof *states,
                                "states", err);
    if (!res)
        res = gn_vk_read_buffer(&r->vk, &s->buf[BUF_KEYS], keys, (VkDeviceSize)s->sort_keys * 8, "keys", err);
    for (uint32_t i = 0; !res && i < n && *alive_count < cap; i++) {
        const gn_gpu_particle *p = &states[list[(size_t)s->cur * s->slots + i]];
        if (gn_particle_alive(p)) alive[(*alive_count)++] = *p;
    }
    for (uint32_t i = 0; !res && i < ns && i < cap; i++) sorted[(*sorted_count)++] = states[keys[i][1]];
    free(list), free(states), free(keys);
    return res;
}

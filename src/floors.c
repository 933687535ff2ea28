/* gn_measure_floors: what the device cannot beat, at the renderer's size and MSAA (gnomon.h,
 * "floors"). A few pieces of known work, each between two timestamps of a timer of its own,
 * recorded into one utility frame a run (no frame statistics), repeated, and their medians taken.
 * The pieces draw into stand-ins made as the frame's targets are, so a frame's images stay as
 * they were. The grid and the layer count are decided in src/decide/floors.c. */
#include "decide/floors.h"
#include "base/alloc.h"
#include "renderer.h"

#include <stddef.h>
#include <stdlib.h>

/* The pieces, in the order a run records them; the resolves last, since a single-sampled renderer
 * has none (and reads only the pairs it wrote). */
typedef enum floor_piece {
    PIECE_CLEAR_DEPTH,
    PIECE_CLEAR_COLOR,
    PIECE_TRIANGLES,
    PIECE_FILL,
    PIECE_RESOLVE_COLOR,
    PIECE_RESOLVE_DEPTH,
    PIECE_COUNT
} floor_piece;

static const char *const PIECE_NAMES[PIECE_COUNT] = {
    "floor: clear depth", "floor: clear colour",   "floor: triangles",
    "floor: fill",        "floor: resolve colour", "floor: resolve depth",
};

typedef struct floors {
    gn_renderer *r;
    bool ms;        /* msaa > 1: there is something to resolve */
    uint32_t count; /* pieces a run records */
    gn_vk_image depth, depth_resolved, hdr, hdr_resolved;
    gn_vk_buffer vertices, indices;
    uint32_t index_count, fill_layers;
    VkPipelineLayout layout; /* no sets, no push constants */
    VkPipeline depth_pipeline, fill_pipeline;
    gn_vk_timer timer;
} floors;

static gn_result create_targets(floors *f, gn_error *err)
{
    gn_renderer *r = f->r;
    gn_result res = gn_target_create_like(r, GN_TARGET_DEPTH_MS, "floor depth (msaa)", &f->depth, err);
    if (!res) res = gn_target_create_like(r, GN_TARGET_HDR_MS, "floor hdr colour (msaa)", &f->hdr, err);
    if (!res && f->ms)
        res = gn_target_create_like(r, GN_TARGET_DEPTH_RESOLVED, "floor depth (resolved)", &f->depth_resolved,
                                    err);
    if (!res && f->ms)
        res = gn_target_create_like(r, GN_TARGET_HDR_RESOLVED, "floor hdr colour (resolved)",
                                    &f->hdr_resolved, err);
    return res;
}

static gn_result create_pipelines(floors *f, gn_error *err)
{
    gn_vk *vk = &f->r->vk;
    gn_result res = gn_vk_pipeline_layout(vk, NULL, 0, 0, "floors", &f->layout, err);
    /* the prepass's state: positions only from gn_vertex, D32 GREATER with writes, back faces culled */
    gn_vk_graphics_desc g = {
        .vert = "floor_depth.vert",
        .layout = f->layout,
        .vertex_input = true,
        .attributes = 1u << 0,
        .depth_format = VK_FORMAT_D32_SFLOAT,
        .samples = f->r->msaa,
        .depth_compare = VK_COMPARE_OP_GREATER,
        .depth_write = true,
        .cull = VK_CULL_MODE_BACK_BIT,
        .name = "floor: triangles",
    };
    if (!res) res = gn_vk_graphics_pipeline(vk, &g, &f->depth_pipeline, err);
    g = (gn_vk_graphics_desc){
        .vert = "floor_fill.vert",
        .frag = "floor_fill.frag",
        .layout = f->layout,
        .color_format = VK_FORMAT_R16G16B16A16_SFLOAT,
        .samples = f->r->msaa,
        .cull = VK_CULL_MODE_NONE,
        .name = "floor: fill",
    };
    if (!res) res = gn_vk_graphics_pipeline(vk, &g, &f->fill_pipeline, err);
    return res;
}

/* The grid in gn_vertex, the prepass's vertex layout (its stride is what the prepass fetches). */
static gn_result create_grid(floors *f, gn_error *err)
{
    gn_vk *vk = &f->r->vk;
    uint32_t side = GN_FLOOR_GRID_SIDE, vertex_count = gn_floor_grid_vertices(side);
    f->index_count = (uint32_t)(3 * gn_floor_grid_triangles(side));
    gn_vertex *v = gn_calloc(vertex_count, sizeof *v);
    uint32_t *idx = gn_malloc((size_t)f->index_count * sizeof *idx);
    gn_result res = GN_OK;
    if (!v || !idx) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "floors: out of memory for the grid");
    /* depth 0.5: in front of the clear (0, infinitely far in reversed-Z), so every sample passes;
     * pos is gn_vertex's first member, and the struct is floats only */
    _Static_assert(offsetof(gn_vertex, pos) == 0 && sizeof(gn_vertex) % sizeof(float) == 0, "gn_vertex");
    if (!res) gn_floor_grid(side, 0.5f, (float *)v, sizeof *v / sizeof(float), idx);
    gn_vk_buffer_desc vd = {(VkDeviceSize)vertex_count * sizeof *v,
                            VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false,
                            "floor grid vertices"};
    gn_vk_buffer_desc id = {(VkDeviceSize)f->index_count * sizeof *idx,
                            VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false,
                            "floor grid indices"};
    if (!res) res = gn_vk_buffer_create(vk, &vd, &f->vertices, err);
    if (!res) res = gn_vk_buffer_create(vk, &id, &f->indices, err);
    gn_vk_upload up[2] = {{&f->vertices, v, (VkDeviceSize)vertex_count * sizeof *v},
                          {&f->indices, idx, (VkDeviceSize)f->index_count * sizeof *idx}};
    if (!res) res = gn_vk_upload_now(vk, up, 2, err);
    free(v);
    free(idx);
    return res;
}

static uint32_t piece_uses(floors *f, floor_piece p, gn_vk_use *out)
{
    switch (p) {
    case PIECE_CLEAR_DEPTH:
        out[0] = (gn_vk_use){.image = &f->depth, .access = GN_ACCESS_DEPTH_WRITE};
        return 1;
    case PIECE_CLEAR_COLOR:
    case PIECE_FILL:
        out[0] = (gn_vk_use){.image = &f->hdr, .access = GN_ACCESS_COLOR_WRITE};
        return 1;
    case PIECE_TRIANGLES:
        out[0] = (gn_vk_use){.image = &f->depth, .access = GN_ACCESS_DEPTH_WRITE};
        out[1] = (gn_vk_use){.buffer = &f->vertices, .access = GN_ACCESS_VERTEX_INPUT};
        out[2] = (gn_vk_use){.buffer = &f->indices, .access = GN_ACCESS_VERTEX_INPUT};
        return 3;
    case PIECE_RESOLVE_COLOR:
        out[0] = (gn_vk_use){.image = &f->hdr, .access = GN_ACCESS_COLOR_WRITE};
        out[1] = (gn_vk_use){.image = &f->hdr_resolved, .access = GN_ACCESS_COLOR_WRITE};
        return 2;
    case PIECE_RESOLVE_DEPTH:
        out[0] = (gn_vk_use){.image = &f->depth, .access = GN_ACCESS_DEPTH_WRITE};
        out[1] = (gn_vk_use){.image = &f->depth_resolved, .access = GN_ACCESS_DEPTH_RESOLVE};
        return 2;
    case PIECE_COUNT:
        break;
    }
    return 0;
}

static void record_piece(gn_vk *vk, floors *f, floor_piece p)
{
    gn_vk_rendering ri = {.width = f->r->width, .height = f->r->height};
    switch (p) {
    case PIECE_CLEAR_DEPTH:
        ri.depth = (gn_vk_attachment){.image = &f->depth, .clear = true};
        break;
    case PIECE_CLEAR_COLOR:
        ri.color = (gn_vk_attachment){.image = &f->hdr, .clear = true};
        break;
    case PIECE_TRIANGLES: /* cleared as the prepass is: its clear is part of its time */
        ri.depth = (gn_vk_attachment){.image = &f->depth, .clear = true};
        break;
    case PIECE_FILL:
        ri.color = (gn_vk_attachment){.image = &f->hdr};
        break;
    case PIECE_RESOLVE_COLOR: /* as the forward pass ends: resolve, the samples discarded */
        ri.color = (gn_vk_attachment){.image = &f->hdr, .resolve = &f->hdr_resolved, .discard = true};
        break;
    case PIECE_RESOLVE_DEPTH: /* as the prepass ends: sample 0 resolved, the samples kept */
        ri.depth = (gn_vk_attachment){.image = &f->depth, .resolve = &f->depth_resolved};
        break;
    case PIECE_COUNT:
        return;
    }
    gn_vk_cmd_begin_rendering(vk, &ri);
    if (p == PIECE_TRIANGLES) {
        gn_vk_cmd_bind_pipeline(vk, false, f->depth_pipeline);
        gn_vk_cmd_bind_geometry(vk, &f->vertices, &f->indices);
        gn_vk_cmd_draw_indexed(vk, f->index_count);
    } else if (p == PIECE_FILL) {
        gn_vk_cmd_bind_pipeline(vk, false, f->fill_pipeline);
        gn_vk_cmd_draw(vk, 3 * f->fill_layers);
    }
    gn_vk_cmd_end_rendering(vk);
}

/* One run: every piece between its two timestamps, the barriers it needs before the first. */
static void record_run(gn_vk *vk, VkCommandBuffer cmd, void *user)
{
    floors *f = user;
    gn_vk_cmd_timer_reset(vk, &f->timer);
    for (uint32_t p = 0; p < f->count; p++) {
        gn_vk_use uses[4];
        uint32_t n = piece_uses(f, (floor_piece)p, uses);
        gn_vk_cmd_label_begin(vk, PIECE_NAMES[p]);
        gn_vk_barriers(vk, cmd, uses, n);
        gn_vk_cmd_timestamp(vk, &f->timer, 2 * p);
        record_piece(vk, f, (floor_piece)p);
        gn_vk_cmd_timestamp(vk, &f->timer, 2 * p + 1);
        gn_vk_cmd_label_end(vk);
    }
}

static void release_all(floors *f)
{
    gn_vk *vk = &f->r->vk;
    gn_vk_timer_release(vk, &f->timer);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)f->depth_pipeline);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)f->fill_pipeline);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)f->layout);
    gn_vk_buffer_release(vk, &f->vertices);
    gn_vk_buffer_release(vk, &f->indices);
    gn_vk_image_release(vk, &f->depth);
    gn_vk_image_release(vk, &f->depth_resolved);
    gn_vk_image_release(vk, &f->hdr);
    gn_vk_image_release(vk, &f->hdr_resolved);
}

/* The medians of the runs' pieces into out. */
static void summarize(const floors *f, double *ms[PIECE_COUNT], uint32_t repeats, gn_floors *out)
{
    double median[PIECE_COUNT] = {0};
    for (uint32_t p = 0; p < f->count; p++) median[p] = gn_floor_median(ms[p], repeats);
    const gn_renderer *r = f->r;
    *out = (gn_floors){.width = r->width, .height = r->height, .msaa = r->msaa, .repeats = repeats};
    out->triangles = gn_floor_grid_triangles(GN_FLOOR_GRID_SIDE);
    out->triangles_ms = median[PIECE_TRIANGLES];
    out->triangles_per_second = (double)out->triangles / (out->triangles_ms * 1e-3);
    out->ms_per_million_triangles = out->triangles_ms / ((double)out->triangles * 1e-6);
    out->fill_layers = f->fill_layers;
    out->fill_ms = median[PIECE_FILL] / f->fill_layers;
    out->samples_per_second = (double)r->width * r->height * r->msaa / (out->fill_ms * 1e-3);
    out->clear_depth_ms = median[PIECE_CLEAR_DEPTH];
    out->clear_color_ms = median[PIECE_CLEAR_COLOR];
    out->resolve_color_ms = median[PIECE_RESOLVE_COLOR];
    out->resolve_depth_ms = median[PIECE_RESOLVE_DEPTH];
}

/* The runs (the first one not counted: first-use costs, a driver's lazy work) and their medians. */
static gn_result measure(floors *f, uint32_t repeats, gn_floors *out, gn_error *err)
{
    gn_vk *vk = &f->r->vk;
    double *ms[PIECE_COUNT] = {0};
    double *all = gn_calloc((size_t)PIECE_COUNT * repeats, sizeof *all);
    if (!all) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "floors: out of memory for %u runs", repeats);
    for (uint32_t p = 0; p < PIECE_COUNT; p++) ms[p] = all + (size_t)p * repeats;
    gn_result res = GN_OK;
    for (uint32_t run = 0; run <= repeats && !res; run++) {
        double piece_ms[PIECE_COUNT];
        res = gn_vk_run_once(vk, record_run, f, err);
        if (!res) res = gn_vk_timer_read(vk, &f->timer, f->count, piece_ms, err);
        for (uint32_t p = 0; p < f->count && !res && run > 0; p++) ms[p][run - 1] = piece_ms[p];
    }
    if (!res) summarize(f, ms, repeats, out);
    free(all);
    return res;
}

gn_result gn_measure_floors(gn_renderer *r, uint32_t repeats, gn_floors *out, gn_error *err)
{
    if (!r || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_measure_floors: renderer and out are required");
    if (repeats > GN_FLOORS_MAX_REPEATS)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_measure_floors: %u repeats, at most %u", repeats,
                       GN_FLOORS_MAX_REPEATS);
    if (repeats == 0) repeats = GN_FLOORS_REPEATS;
    /* nothing of a frame may run beside the pieces, or they would time it too */
    gn_result res = gn_vk_wait_idle(&r->vk, err);
    if (res) return res;
    floors f = {.r = r, .ms = r->msaa > 1};
    f.count = f.ms ? PIECE_COUNT : PIECE_RESOLVE_COLOR;
    f.fill_layers = gn_floor_fill_layers(r->width, r->height, r->msaa);
    res = create_targets(&f, err);
    if (!res) res = create_pipelines(&f, err);
    if (!res) res = gn_vk_timer_create(&r->vk, 2 * PIECE_COUNT, "floors timestamps", &f.timer, err);
    if (!res) res = create_grid(&f, err);
    if (!res) res = measure(&f, repeats, out, err);
    release_all(&f);
    /* every frame that used them has finished: the objects go now, not at some later frame */
    gn_result idle = gn_vk_wait_idle(&r->vk, res ? NULL : err);
    return res ? res : idle;
}

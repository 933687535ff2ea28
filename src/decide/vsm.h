/* Sun shadows II: virtual shadow maps (docs/SHADOWS.md). The CPU half, pure, and the reference
 * the GPU passes are held to: the clipmap's geometry, MARK's page choice for a point (mirrored
 * bit for bit by shaders/vsm_mark.glsl), ALLOC (toroidal page tables, a physical pool with
 * eviction and a coarser fallback when it runs dry) and which pages are rendered this frame
 * under a page budget while the sun moves (shaders/vsm_alloc.comp), the casters of each page
 * (a grid of light-space cells; shaders/vsm_bin.comp) and the pages of the dynamic layer.
 *
 * Light space: the sun's rotation (gn_csm_light_rotation) about a pivot, the camera rounded to
 * pivot_grid metres. Rows right, up, forward: x = right . (p - pivot), y = up . (p - pivot),
 * z = forward . (p - pivot) (forward points away from the sun). A level l covers
 * level0_size * 2^l metres a side in pages_per_side pages; page (i, j) of level l spans
 * x in [i P, (i+1) P), y in [j P, (j+1) P) with P its page size. These page coordinates are
 * fixed to the world while the sun and pivot stay, so a page stays valid however the camera
 * moves. A level's window is the pages_per_side^2 pages around the camera's page; a page lives
 * in slot (i mod N, j mod N) of its level's table (toroidal): pages leaving the window are
 * overwritten by those entering, nothing is copied.
 *
 * The moving sun: every change of the sun (or pivot) makes a new light version; a page keeps
 * the version it was rendered with and is always sampled with that version's matrix, never a
 * newer one. Requested pages of older versions are re-rendered, oldest first, within the page
 * budget; the largest angle between a visible page's sun and the current one is the lag. */
#ifndef GN_DECIDE_VSM_H
#define GN_DECIDE_VSM_H

#include "gnomon.h"

#include <stdbool.h>
#include <stdint.h>

#define GN_VSM_MAX_LEVELS 16
#define GN_VSM_MAX_PAGES_PER_SIDE 128 /* 16384 / 128 */
#define GN_VSM_VERSIONS 256           /* light versions kept: a page older than this is refreshed */
#define GN_VSM_NONE 0xffffffffu
/* Frames a page may go unrequested and still be shown under an older sun when it returns
 * (MARK's edges flicker by a frame or two); after a longer gap it waits to be rendered. */
#define GN_VSM_RETURN_GAP 2u
/* MARK takes the finest level with texel * GN_VSM_MATCH >= the pixel's footprint f, so a
 * texel spans f / 2 .. f: at least a texel a pixel (measured on the town against the ray-traced
 * truth, 2 agrees better than sqrt 2 or 1). shaders/vsm_mark.glsl uses the same constant. */
#define GN_VSM_MATCH 2.0f

typedef struct gn_vsm_settings { /* resolved: no zero-means-default here */
    uint32_t levels;             /* 1..GN_VSM_MAX_LEVELS */
    uint32_t virtual_res;        /* texels a level side (4096 .. 16384) */
    uint32_t page_texels;        /* 128 */
    float level0_size;           /* metres level 0 covers a side */
    uint32_t pool_pages;         /* physical pages */
    uint32_t page_budget;        /* pages rendered a frame at most */
    uint32_t evict_frames;       /* a page unrequested this many frames returns to the pool */
    float pivot_grid;            /* metres */
    float depth_range;           /* metres of light depth each side of the pivot */
    uint32_t dynamic_pages;      /* tiles of the dynamic casters' layer (at most the budget: it shares it) */
} gn_vsm_settings;

/* The light of one frame: its basis and each level's window. */
typedef struct gn_vsm_view {
    float rot[9];   /* rows right, up, forward */
    float pivot[3]; /* world */
    float sun_dir[3];
    uint32_t levels, pages_per_side;
    float page_size[GN_VSM_MAX_LEVELS];   /* metres */
    int32_t origin[GN_VSM_MAX_LEVELS][2]; /* the window's first page (i, j) */
    float footprint_scale;                /* a pixel's size at view distance d is d * this */
    float texel0;                         /* metres a level-0 texel spans */
    float camera[3];
} gn_vsm_view;

/* Light space, window and footprint for this frame: pixel_angle = 2 tan(fov_y / 2) / height. */
void gn_vsm_view_compute(const gn_vsm_settings *s, const float sun_dir[3], const float camera_pos[3],
                         float pixel_angle, gn_vsm_view *out);
/* Light-space x, y, z of a world point (metres). */
void gn_vsm_to_light(const gn_vsm_view *v, const float p[3], float out[3]);

/* MARK for one visible point: the finest level whose texel is at least the point's pixel
 * footprint and whose window holds the point; *level and the page's table slot (x + y * N).
 * false when no level's window holds it (beyond the clipmap: unshadowed). */
bool gn_vsm_mark_point(const gn_vsm_view *v, const float p[3], uint32_t *level, uint32_t *slot);
/* floor(x) as a page or cell index, clamped to +-GN_VSM_INDEX_LIMIT, NaN giving 0: every
 * float-to-int conversion here goes through it, since converting an out-of-range or NaN
 * float is undefined behaviour and a scene's bounds (or a camera) can be anywhere. The
 * limit leaves room for the index arithmetic (origin - half, i - origin) in int32_t. */
#define GN_VSM_INDEX_LIMIT (1 << 28)
int32_t gn_vsm_floor_index(float x);
/* Bits of a request mask: level * N * N + slot, in 32-bit words. */
#define GN_VSM_MASK_WORDS(levels, n) (((levels) * (n) * (n) + 31u) / 32u)

/* One slot of a level's page table. */
typedef struct gn_vsm_page {
    int32_t i, j;            /* the page it holds (world page coordinates) */
    uint32_t physical;       /* pool page, or GN_VSM_NONE */
    uint32_t version;        /* light version it was rendered with; valid only when rendered */
    uint32_t last_requested; /* frame (wraps after 2^32 frames; ages are differences) */
    bool rendered;           /* holds depth (else allocated, waiting for the budget) */
    bool dirty;              /* its casters changed: render again */
} gn_vsm_page;

typedef struct gn_vsm_versions { /* the ring of light versions */
    uint32_t current;            /* id of the newest; ids grow by one per change */
    float rot[GN_VSM_VERSIONS][9], pivot[GN_VSM_VERSIONS][3], sun[GN_VSM_VERSIONS][3];
    bool any;
} gn_vsm_versions;

typedef struct gn_vsm_stats {
    uint32_t requested, resident, rendered_static, rendered_dynamic, evicted, overflow, waiting;
    uint32_t requested_level[GN_VSM_MAX_LEVELS], rendered_level[GN_VSM_MAX_LEVELS];
    float sun_lag_deg; /* the largest angle between a requested rendered page's sun and now */
    uint32_t pool_used;
    uint32_t rendered_fresh; /* of rendered_static: new, back in view or dirty pages (the rest
                                refresh pages for the moving sun; the lag bound counts those) */
} gn_vsm_stats;

/* The whole cache: tables, pool and versions. Caller-owned arrays sized by gn_vsm_state_init. */
typedef struct gn_vsm_state {
    gn_vsm_settings s;
    gn_vsm_page *pages;  /* levels * N * N */
    uint32_t *free_list; /* pool pages not in use */
    uint32_t free_count;
    gn_vsm_versions versions;
    uint32_t frame;
    uint32_t *render; /* this frame's pages to render: level * N * N + slot */
    uint32_t render_count;
    uint32_t candidate_count; /* pages ALLOC found wanting a render (in scratch) */
    uint32_t *scratch;        /* levels * N * N */
} gn_vsm_state;

bool gn_vsm_state_init(gn_vsm_state *st, const gn_vsm_settings *s); /* false: out of memory */
void gn_vsm_state_free(gn_vsm_state *st);

/* A new light version when the sun or pivot differ from the newest; returns the current id. */
uint32_t gn_vsm_version_update(gn_vsm_versions *vv, const gn_vsm_view *v);
/* World page (i, j) held by slot of level l in this view's window. */
void gn_vsm_slot_page(const gn_vsm_view *v, uint32_t level, uint32_t slot, int32_t *i, int32_t *j);

/* ALLOC for one frame, from MARK's request mask (levels * N * N bits): pages that left their
 * window, were not requested for evict_frames frames or whose light version left the ring
 * return to the free stack (in index order); requested pages keep theirs or pop one (in index
 * order); when the stack is empty the page overflows (counted) and a coarser level stands in.
 * Candidates for rendering (new, dirty, or of an older light version) go to st->scratch. The
 * GPU's ALLOC (shaders/vsm_alloc.comp) does exactly this. */
void gn_vsm_alloc(gn_vsm_state *st, const gn_vsm_view *v, const uint32_t *request, gn_vsm_stats *stats);
/* The render choice: up to budget candidates, new ones first (finest level first), then dirty
 * ones, then those of the oldest light version; into st->render, in that order. */
void gn_vsm_select(gn_vsm_state *st, uint32_t budget, gn_vsm_stats *stats);
/* Marks dirty every resident page whose light-space rectangle (in its own version) a world
 * sphere touches: a static object that moved, was added or removed (old and new bounds). */
uint32_t gn_vsm_invalidate_sphere(gn_vsm_state *st, const float sphere[4]);
/* Marks the pages chosen by gn_vsm_alloc rendered with the current version. */
void gn_vsm_commit(gn_vsm_state *st);

/* The world -> page clip matrix (column-major) of a page with light version `version`:
 * x, y in [-1, 1] over the page (y flipped like gn_camera_projection), z 0 at depth_range
 * towards the sun from the pivot, 1 at depth_range away. */
void gn_vsm_page_matrix(const gn_vsm_state *st, uint32_t version, uint32_t level, int32_t i, int32_t j,
                        float out[16]);
/* Casters binned over the coarsest level's window in a grid of its pages, so that finding a
 * page's casters tests a cell's items instead of every caster: every page of every level lies
 * in exactly one cell (the levels' grids nest). A caster goes into each cell its light-space
 * disc's bounding square meets; one that meets more than four goes into `big` (tested for
 * every page). Arrays are the caller's, grown by gn_vsm_bins_reserve. */
typedef struct gn_vsm_bins {
    uint32_t n;            /* cells a side (the pages a side of a level) */
    float cell;            /* metres: the coarsest level's page */
    int32_t origin[2];     /* the coarsest window's first page */
    uint32_t *start;       /* n * n + 1 offsets into items */
    uint32_t *items, *big; /* caster indices */
    uint32_t item_count, big_count;
    uint32_t item_cap, big_cap, cell_cap;
} gn_vsm_bins;

bool gn_vsm_bins_reserve(gn_vsm_bins *b, uint32_t cells, uint32_t casters); /* false: out of memory */
void gn_vsm_bins_free(gn_vsm_bins *b);
/* xy: each caster's light-space centre (2 floats), radius: its sphere's; count casters. */
void gn_vsm_bins_build(gn_vsm_bins *b, const gn_vsm_view *v, const float *xy, const float *radius,
                       uint32_t count);
/* The casters whose disc meets page (level, i, j) and whose radius is at least min_radius, into
 * out (capacity: the caster count); returns how many. In ascending order within the cell's and
 * the big list's runs; callers sort (the draw list does). */
uint32_t gn_vsm_bins_page(const gn_vsm_bins *b, const gn_vsm_view *v, const float *xy, const float *radius,
                          uint32_t level, int32_t i, int32_t j, float min_radius, uint32_t *out);

/* The dynamic layer: requested, rendered pages whose rectangle (in this frame's light space) a
 * dynamic caster's sphere meets. Their dynamic casters alone are drawn into a page of a
 * separate, per-frame layer, which the lookup combines with the static page by taking the
 * darker; static pages never hold dynamic casters, so moving objects never invalidate them.
 * Writes up to max page indices (level * N * N + slot) in index order; returns how many are
 * needed (more than max: the rest go without, and the caller counts the overflow). scratch
 * holds count light-space centres (no allocation a frame). */
uint32_t gn_vsm_dynamic_pages(const gn_vsm_state *st, const gn_vsm_view *v, const float (*spheres)[4],
                              uint32_t count, float (*scratch)[3], uint32_t *out, uint32_t max);

/* Angle in degrees between two unit vectors. */
float gn_vsm_angle_deg(const float a[3], const float b[3]);

/* Every default of gn_vsm_desc, resolved here and nowhere else. */
gn_vsm_settings gn_vsm_resolve(const gn_vsm_desc *d);

#endif

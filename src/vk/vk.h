/* The Vulkan layer: the only code in gnomon that includes vulkan.h or calls vk*.
 *
 * It owns the instance and device, sub-allocates memory, tracks the last access of every
 * buffer and image so that barriers are derived in one place (gn_vk_pass_begin) from what a
 * pass declares, times every pass with timestamp queries, labels every object and pass, and
 * destroys objects only after the frames that may use them have finished. */
#ifndef GN_VK_H
#define GN_VK_H

#include "base/error.h"
#include "gnomon.h"
#include "shared/bindings.h"
#include "shared/gpu_types.h"

#include <vulkan/vulkan.h>

#include <stdbool.h>
#include <stdint.h>

/* ---- memory ------------------------------------------------------------------------------ */
/* Device memory comes in blocks of GN_VK_BLOCK_SIZE (or one block for a larger request);
 * buffers and images are placed in separate blocks so bufferImageGranularity never matters. */
#define GN_VK_BLOCK_SIZE (64ull << 20)
#define GN_VK_MAX_BLOCKS 256
#define GN_VK_MAX_LAYERS 2048 /* the least maxImageArrayLayers a Vulkan 1.3 device has */

typedef struct gn_vk_range {
    VkDeviceSize offset, size;
} gn_vk_range;

typedef struct gn_vk_block {
    VkDeviceMemory memory;
    VkDeviceSize size, used;
    uint32_t type_index;
    bool linear;       /* buffers (true) or images (false) */
    void *mapped;      /* host-visible blocks stay mapped */
    gn_vk_range *free; /* free ranges sorted by offset, never two adjacent */
    uint32_t free_count, free_cap;
    uint32_t allocations; /* live ones: free ranges are at most one more (memory.c) */
} gn_vk_block;

typedef struct gn_vk_alloc {
    uint32_t block; /* index + 1; 0 = none */
    VkDeviceSize offset, size;
    void *mapped;
} gn_vk_alloc;

/* ---- resources and their last access ------------------------------------------------------ */
typedef enum gn_vk_access {
    GN_ACCESS_NONE = 0,
    GN_ACCESS_VERTEX_INPUT,  /* vertex and index buffers */
    GN_ACCESS_INDIRECT,      /* indirect draw arguments */
    GN_ACCESS_UNIFORM,       /* uniform reads, any shader stage */
    GN_ACCESS_SHADER_READ,   /* storage/sampled reads, any shader stage */
    GN_ACCESS_COMPUTE_WRITE, /* storage writes from compute */
    GN_ACCESS_COLOR_WRITE,   /* colour attachment (and its resolve) */
    GN_ACCESS_DEPTH_WRITE,   /* depth attachment, test and write */
    GN_ACCESS_DEPTH_TEST,    /* depth attachment, test only */
    GN_ACCESS_DEPTH_RESOLVE, /* destination of a depth resolve */
    GN_ACCESS_TRANSFER_READ,
    GN_ACCESS_TRANSFER_WRITE,
    GN_ACCESS_HOST_READ,
    GN_ACCESS_PRESENT, /* a swapchain image handed to the window */
    GN_ACCESS_COUNT
} gn_vk_access;

typedef struct gn_vk_state {
    VkPipelineStageFlags2 write_stage; /* last write, not yet made visible to everyone */
    VkAccessFlags2 write_access;
    VkPipelineStageFlags2 read_stages; /* reads since that write */
    VkAccessFlags2 read_access;
    VkImageLayout layout;
} gn_vk_state;

typedef struct gn_vk_buffer {
    VkBuffer buffer;
    VkDeviceSize size;
    gn_vk_alloc alloc;
    gn_vk_state state;
} gn_vk_buffer;

typedef struct gn_vk_image {
    VkImage image;
    VkImageView view;
    VkFormat format;
    VkImageAspectFlags aspect;
    uint32_t width, height, samples, mips, layers;
    VkImageView *layer_views; /* array images: one 2D view per layer, for rendering into it */
    gn_vk_alloc alloc;
    gn_vk_state state; /* the whole image: every layer and level moves together */
} gn_vk_image;

/* ---- deferred destruction ----------------------------------------------------------------- */
typedef struct gn_vk_garbage {
    uint64_t frame; /* destroy once this frame has finished */
    VkObjectType type;
    uint64_t handle;
    gn_vk_alloc alloc;
} gn_vk_garbage;

/* ---- per-frame slot ------------------------------------------------------------------------ */
/* A frame slot knows its command buffer, its timestamps and an opaque block of GPU counters;
 * what the renderer counted lives in the renderer (src/stats.c), which the slot tells when the
 * frame has finished (gn_vk.harvested). */
typedef struct gn_vk_frame {
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool queries;   /* two timestamps a pass, gn_vk.pass_capacity passes */
    uint64_t number;       /* frame number recorded in this slot; 0 = never */
    bool pending;          /* submitted, not yet harvested */
    bool utility;          /* a one-off (readback): no frame statistics */
    VkDeviceSize ring_end; /* staging ring position when this frame was submitted */
    uint32_t pass_count;
    char (*pass_names)[32]; /* pass_capacity each */
    uint32_t *pass_draws;
    uint64_t *pass_triangles;
    uint64_t *timestamps; /* 2 * pass_capacity, read back when the frame is harvested */
    double *pass_ms;      /* pass_capacity: their differences */
    /* GPU-side counters of this frame, written by the passes and read when the frame is
     * harvested: host-visible, gn_vk_desc.counters_size bytes, their layout the renderer's. */
    gn_vk_buffer counters;
    /* Presenting: the submit waits for the swapchain image (at the blit) and signals that
     * the image may be presented; both VK_NULL_HANDLE in a frame that presents nothing. */
    VkSemaphore wait_semaphore, signal_semaphore;
} gn_vk_frame;

/* A finished frame's timestamps, handed to gn_vk.harvested. */
typedef struct gn_vk_timings {
    const gn_vk_frame *frame; /* names, draws and triangles of its passes; counters */
    const double *pass_ms;    /* pass_count GPU times */
    double gpu_ms;            /* first pass start to last pass end */
} gn_vk_timings;

/* ---- the context ----------------------------------------------------------------------------- */
typedef struct gn_vk {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem_props;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    bool debug_utils;
    bool depth_clamp;                          /* the depthClamp feature is enabled */
    bool dual_source;                          /* the dualSrcBlend feature is enabled */
    bool independent_blend;                    /* the independentBlend feature is enabled */
    bool texture_bc;                           /* the textureCompressionBC feature is enabled */
    bool presentable;                          /* VK_KHR_swapchain is enabled */
    PFN_vkSetDebugUtilsObjectNameEXT set_name; /* loaded once with the device */
    PFN_vkCmdBeginDebugUtilsLabelEXT label_begin;
    PFN_vkCmdEndDebugUtilsLabelEXT label_end;
    uint32_t validation_messages; /* warnings and errors seen by the messenger */
    /* Messages during vkCreateInstance (the loader's "Found no drivers!"): held until its result
     * is known, then logged (success) or folded into the one error line (failure). */
    bool creating_instance;
    uint32_t held_count;
    char held[4][256];
    gn_log_fn log;
    void *log_user;
    gn_log_level log_level;

    gn_vk_block blocks[GN_VK_MAX_BLOCKS];
    uint32_t block_count;

    gn_vk_frame frames[GN_FRAMES_IN_FLIGHT];
    uint64_t frame_number; /* the frame being recorded (starts at 1) */
    uint64_t frames_done;  /* every frame <= this has finished on the GPU */
    gn_vk_frame *cur;
    /* How long a fence or swapchain-acquire wait may take before the device counts as lost
     * (gn_renderer_desc.gpu_timeout_ms). A test may set it to 0 on a live renderer: a wait
     * on a fence not yet signalled then times out at once. */
    uint64_t timeout_ns;

    /* Staging ring: per-frame uploads and dynamic data, persistently mapped. Space is
     * reclaimed when the frame that used it finishes. */
    gn_vk_buffer ring;
    VkDeviceSize ring_head, ring_tail;

    gn_vk_garbage *garbage;
    uint32_t garbage_count, garbage_cap;

    uint32_t pass_capacity; /* passes a frame may time (gn_vk_pass_capacity): the renderer's pass table */
    VkDeviceSize counters_size;
    /* Called once for every finished frame that recorded passes (not for utility frames). */
    void (*harvested)(void *user, const gn_vk_timings *t);
    void *harvest_user;
} gn_vk;

typedef struct gn_vk_desc {
    const char *device; /* index or name substring, NULL = choose */
    bool validation;
    gn_log_fn log;
    void *log_user;
    gn_log_level log_level;
    VkDeviceSize ring_size;
    bool presentable; /* enable VK_KHR_swapchain; the instance extensions below come with it */
    const char *const *instance_extensions;
    uint32_t instance_extension_count;
    VkDeviceSize counters_size; /* bytes of GPU counters a frame slot holds; 0 is 16 */
    uint32_t timeout_ms;        /* fence and acquire waits; 0 is 10000 */
} gn_vk_desc;

/* device.c */
gn_result gn_vk_create(gn_vk *vk, const gn_vk_desc *desc, gn_error *err);
void gn_vk_destroy(gn_vk *vk);
gn_result gn_vk_check(gn_vk *vk, VkResult r, const char *what, gn_error *err);
const char *gn_vk_result_name(VkResult r); /* "VK_ERROR_DEVICE_LOST" */
void gn_vk_log(gn_vk *vk, gn_log_level level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void gn_vk_name(gn_vk *vk, VkObjectType type, uint64_t handle, const char *name);
gn_result gn_vk_enumerate(gn_device_info *out, uint32_t max, uint32_t *count, const char *override_sel,
                          gn_error *err);
VkSampleCountFlags gn_vk_sample_counts(const gn_vk *vk);
/* The device runs on the CPU (lavapipe): work sized for a GPU is too slow there. */
bool gn_vk_is_cpu(const gn_vk *vk);

/* memory.c */
gn_result gn_vk_alloc_memory(gn_vk *vk, VkMemoryRequirements req, VkMemoryPropertyFlags want, bool linear,
                             gn_vk_alloc *out, gn_error *err);
void gn_vk_free_memory(gn_vk *vk, gn_vk_alloc *a);
void gn_vk_memory_destroy(gn_vk *vk);

/* resources.c */
typedef struct gn_vk_buffer_desc {
    VkDeviceSize size;
    VkBufferUsageFlags usage;
    bool host_visible; /* mapped, host-coherent */
    const char *name;
} gn_vk_buffer_desc;

typedef struct gn_vk_image_desc {
    uint32_t width, height, samples, mips;
    VkFormat format;
    VkImageUsageFlags usage;
    const char *name;
    uint32_t layers;            /* array layers, at most GN_VK_MAX_LAYERS; 0 is 1 */
    bool array;                 /* view as a 2D array (even of one layer), with a 2D view per layer */
    VkComponentMapping swizzle; /* the view's channels; zero (identity): as stored */
} gn_vk_image_desc;

gn_result gn_vk_buffer_create(gn_vk *vk, const gn_vk_buffer_desc *d, gn_vk_buffer *out, gn_error *err);
gn_result gn_vk_image_create(gn_vk *vk, const gn_vk_image_desc *d, gn_vk_image *out, gn_error *err);
/* Queue for destruction once every frame recorded so far has finished. */
void gn_vk_buffer_release(gn_vk *vk, gn_vk_buffer *b);
void gn_vk_image_release(gn_vk *vk, gn_vk_image *img);
void gn_vk_release(gn_vk *vk, VkObjectType type, uint64_t handle);
void gn_vk_collect_garbage(gn_vk *vk, bool all);

/* staging.c: bump allocation in the ring; the returned range is valid for this frame.
 * _window: only size bytes are used, but window bytes from the offset stay inside the ring
 * (a descriptor with a fixed range over a shorter list). */
gn_result gn_vk_ring_alloc_window(gn_vk *vk, VkDeviceSize size, VkDeviceSize window, VkDeviceSize align,
                                  VkDeviceSize *offset, void **ptr, gn_error *err);
gn_result gn_vk_ring_alloc(gn_vk *vk, VkDeviceSize size, VkDeviceSize align, VkDeviceSize *offset, void **ptr,
                           gn_error *err);
/* Copies data into dst through the ring (or a temporary buffer for large data), recorded
 * into the current frame's command buffer with the barrier it needs. */
gn_result gn_vk_upload_buffer(gn_vk *vk, gn_vk_buffer *dst, VkDeviceSize dst_offset, const void *data,
                              VkDeviceSize size, gn_error *err);
/* One mip level of an RGBA8 image; the image must be in TRANSFER_WRITE use for all levels. */
gn_result gn_vk_upload_image(gn_vk *vk, gn_vk_image *dst, uint32_t level, const void *rgba8, gn_error *err);
/* One mip level of a block-compressed image: whole 4x4 blocks of block_bytes, row by row, as a
 * .dds file stores them (TRANSFER_WRITE use for all levels). */
gn_result gn_vk_upload_blocks(gn_vk *vk, gn_vk_image *dst, uint32_t level, const void *blocks,
                              uint32_t block_bytes, gn_error *err);
/* Whether the device samples `format` with linear filtering from optimally tiled images. */
bool gn_vk_format_samples(gn_vk *vk, VkFormat format);
/* One mip level of every layer of an RGBA8 array image, layer after layer (TRANSFER_WRITE use). */
gn_result gn_vk_upload_image_layers(gn_vk *vk, gn_vk_image *dst, uint32_t level, const void *rgba8,
                                    gn_error *err);
/* Level 0 of every layer of an image, layer after layer, texel_bytes a texel (TRANSFER_WRITE use). */
gn_result gn_vk_upload_layers(gn_vk *vk, gn_vk_image *dst, const void *data, uint32_t texel_bytes,
                              gn_error *err);

/* barriers.c: a pass declares what it uses; gn_vk_pass_begin derives the barriers. */
typedef struct gn_vk_use {
    gn_vk_buffer *buffer; /* one of buffer/image */
    gn_vk_image *image;
    gn_vk_access access;
} gn_vk_use;

void gn_vk_barriers(gn_vk *vk, VkCommandBuffer cmd, const gn_vk_use *uses, uint32_t count);
/* Debug label, barriers, and the opening timestamp into *pass. Fails, recording nothing, when the
 * frame has already timed pass_capacity passes: a query slot is never reused. */
gn_result gn_vk_pass_begin(gn_vk *vk, const char *name, const gn_vk_use *uses, uint32_t count, uint32_t *pass,
                           gn_error *err);
void gn_vk_pass_end(gn_vk *vk, uint32_t pass, uint32_t draws, uint64_t triangles);

/* frame.c of the vk layer (vkframe.c): begin waits for the slot's previous frame and
 * harvests its timestamps; end submits. */
gn_result gn_vk_frame_begin(gn_vk *vk, gn_error *err);
/* Makes every frame slot able to time `passes` passes (waits for the GPU when it grows). */
gn_result gn_vk_pass_capacity(gn_vk *vk, uint32_t passes, gn_error *err);
gn_result gn_vk_frame_submit(gn_vk *vk, gn_error *err);
gn_result gn_vk_wait_idle(gn_vk *vk, gn_error *err);
/* Waits (at most gn_vk.timeout_ns) for every submitted frame, harvesting nothing; false when one
 * did not finish in time. The bounded wait before destroying what frames may still use. */
bool gn_vk_drain(gn_vk *vk);
/* GN_ERROR_DEVICE_LOST: a wait for `frame` ran past gn_vk.timeout_ns. */
gn_result gn_vk_timed_out(gn_vk *vk, uint64_t frame, gn_error *err);
/* Waits for one submitted frame and takes its timestamps and ring space back. */
gn_result gn_vk_frame_harvest(gn_vk *vk, gn_vk_frame *f, gn_error *err);
/* Harvests every frame that has finished, without waiting. */
void gn_vk_poll(gn_vk *vk);
/* Records and runs a one-off command buffer (readbacks), waiting for it. */
gn_result gn_vk_run_once(gn_vk *vk, void (*record)(gn_vk *vk, VkCommandBuffer cmd, void *user), void *user,
                         gn_error *err);
/* Uploads into buffers outside a frame (creation, a new table): each region's bytes in one
 * utility submission, waited for. */
typedef struct gn_vk_upload {
    gn_vk_buffer *dst;
    const void *data;
    VkDeviceSize size;
} gn_vk_upload;
gn_result gn_vk_upload_now(gn_vk *vk, const gn_vk_upload *regions, uint32_t count, gn_error *err);
/* Copies the first `size` bytes of src into out through a temporary host-visible buffer (a
 * one-off, after the work already submitted; tests and readbacks). */
gn_result gn_vk_read_buffer(gn_vk *vk, gn_vk_buffer *src, void *out, VkDeviceSize size, const char *name,
                            gn_error *err);
/* Copies the first `size` bytes of an image (every layer of mip 0, tightly packed: image_bytes
 * in all) into out likewise; the image needs TRANSFER_SRC usage. */
gn_result gn_vk_read_image(gn_vk *vk, gn_vk_image *src, VkDeviceSize image_bytes, void *out,
                           VkDeviceSize size, const char *name, gn_error *err);

/* timer.c: timestamps apart from the frame's pass timings (the floors time many short pieces of
 * work in one command buffer, and are no frame of the statistics). Written in pairs around the
 * work; read once the frame that wrote them has finished. */
typedef struct gn_vk_timer {
    VkQueryPool pool;
    uint32_t count; /* timestamps */
    uint64_t mask;  /* the queue's timestampValidBits */
} gn_vk_timer;

gn_result gn_vk_timer_create(gn_vk *vk, uint32_t count, const char *name, gn_vk_timer *out, gn_error *err);
void gn_vk_timer_release(gn_vk *vk, gn_vk_timer *t);
void gn_vk_cmd_timer_reset(gn_vk *vk, gn_vk_timer *t); /* all of them, before they are written again */
void gn_vk_cmd_timestamp(gn_vk *vk, gn_vk_timer *t, uint32_t index);
/* Pair i's interval (timestamps 2i and 2i + 1) in milliseconds into ms[i], for `pairs` pairs. */
gn_result gn_vk_timer_read(gn_vk *vk, gn_vk_timer *t, uint32_t pairs, double *ms, gn_error *err);

/* pipeline.c */
/* How a colour attachment blends what a fragment writes (src) into what it holds (dst). */
typedef enum gn_vk_blend {
    GN_VK_BLEND_NONE = 0,    /* written as it is */
    GN_VK_BLEND_ALPHA,       /* colour = src * src.a + dst * (1 - src.a); alpha accumulates coverage */
    GN_VK_BLEND_DUAL_SOURCE, /* colour = src + dst * src1 (a Quake 3 shader's stages); alpha kept. Needs
                                gn_vk.dual_source */
    GN_VK_BLEND_ADD,         /* colour and alpha = src + dst (weighted OIT's accumulation) */
    GN_VK_BLEND_REVEAL,      /* every channel = dst * (1 - src) (weighted OIT's revealage: the product
                                of 1 - alpha) */
} gn_vk_blend;

/* Colour attachments a pipeline or a rendering may have: weighted OIT's accumulation and
 * revealage are two. */
#define GN_VK_MAX_COLOR 2

typedef struct gn_vk_graphics_desc {
    const char *vert, *frag; /* embedded shader names, e.g. "forward.vert"; frag may be NULL */
    VkPipelineLayout layout;
    bool vertex_input;      /* read gn_vertex from binding 0 */
    uint32_t attributes;    /* bit n: gn_vertex attribute n (0 position, 1 normal, 2 tangent, 3 uv,
                               4 lightmap uv) that the vertex shader reads; 0 means all five */
    VkFormat color_format;  /* attachment 0; VK_FORMAT_UNDEFINED: none */
    VkFormat color_format1; /* attachment 1 (with attachment 0); VK_FORMAT_UNDEFINED: none */
    VkFormat depth_format;
    uint32_t samples;
    VkCompareOp depth_compare;
    bool depth_write;
    VkCullModeFlags cull;
    const char *name;
    bool depth_clamp;    /* clamp depth instead of clipping (needs the depthClamp feature) */
    float bias_constant; /* depth bias; both 0: off */
    float bias_slope;
    /* multisampled: each sample's coverage also from the alpha the fragment shader writes at
       location 0 (written even with no colour attachment: the coverage still applies) */
    bool alpha_to_coverage;
    /* each attachment's blend; different ones need gn_vk.independent_blend */
    gn_vk_blend blend[GN_VK_MAX_COLOR];
    /* the faces culled and the depth bias are set per draw (gn_vk_cmd_set_raster) from each
       material's render state, not fixed here (cull and bias_* are then ignored) */
    bool dynamic_raster;
    /* whether depth is written and its test are set per draw (gn_vk_cmd_set_depth), not fixed
       here (depth_write and depth_compare are then ignored): a blended stage's depthWrite */
    bool dynamic_depth;
} gn_vk_graphics_desc;

gn_result gn_vk_graphics_pipeline(gn_vk *vk, const gn_vk_graphics_desc *d, VkPipeline *out, gn_error *err);
gn_result gn_vk_compute_pipeline(gn_vk *vk, const char *shader, VkPipelineLayout layout, const char *name,
                                 VkPipeline *out, gn_error *err);

/* ---- command recording for passes (cmd.c): passes never call vk* themselves ------------ */
typedef struct gn_vk_attachment {
    gn_vk_image *image;
    gn_vk_image *resolve; /* MSAA resolve target, or NULL */
    bool clear;           /* clear on load (else load) */
    float clear_value[4]; /* colour, or depth in [0] */
    bool discard;         /* contents not needed after the pass (multisampled, resolved) */
} gn_vk_attachment;

typedef struct gn_vk_rendering {
    gn_vk_attachment color;  /* image NULL: no colour */
    gn_vk_attachment color1; /* a second colour attachment (location 1, with color); image NULL: none */
    gn_vk_attachment depth;  /* image NULL: no depth */
    uint32_t width, height;
    uint32_t layers; /* layered rendering into an array image's layers (gl_Layer); 0 is 1 */
} gn_vk_rendering;

void gn_vk_cmd_begin_rendering(gn_vk *vk, const gn_vk_rendering *r); /* also sets viewport and scissor */
void gn_vk_cmd_end_rendering(gn_vk *vk);
void gn_vk_cmd_bind_pipeline(gn_vk *vk, bool compute, VkPipeline p);
void gn_vk_cmd_bind_sets(gn_vk *vk, bool compute, VkPipelineLayout layout, uint32_t first, uint32_t count,
                         const VkDescriptorSet *sets, uint32_t dynamic_count,
                         const uint32_t *dynamic_offsets);
void gn_vk_cmd_bind_geometry(gn_vk *vk, const gn_vk_buffer *vertices, const gn_vk_buffer *indices);
void gn_vk_cmd_push(gn_vk *vk, VkPipelineLayout layout, uint32_t size, const void *data);
/* The raster state of a dynamic_raster pipeline's next draws: the faces culled and the depth
 * bias (both 0: none). */
void gn_vk_cmd_set_raster(gn_vk *vk, VkCullModeFlags cull, float bias_constant, float bias_slope);
/* The depth state of a dynamic_depth pipeline's next draws: written or not, and the test. */
void gn_vk_cmd_set_depth(gn_vk *vk, bool write, VkCompareOp compare);
void gn_vk_cmd_draw_indexed_indirect(gn_vk *vk, VkBuffer buffer, VkDeviceSize offset, uint32_t count);
/* One non-indexed command the GPU wrote. */
void gn_vk_cmd_draw_indirect(gn_vk *vk, const gn_vk_buffer *command, VkDeviceSize offset);
void gn_vk_cmd_draw(gn_vk *vk, uint32_t vertex_count);
/* vertex_count vertices of instances [first_instance, first_instance + instance_count). */
void gn_vk_cmd_draw_instances(gn_vk *vk, uint32_t vertex_count, uint32_t instance_count,
                              uint32_t first_instance);
/* index_count indices of the bound index buffer, one instance (the floors' grid). */
void gn_vk_cmd_draw_indexed(gn_vk *vk, uint32_t index_count);
void gn_vk_cmd_dispatch(gn_vk *vk, uint32_t x, uint32_t y, uint32_t z);
void gn_vk_cmd_copy_image_to_buffer(gn_vk *vk, gn_vk_image *src, gn_vk_buffer *dst);
void gn_vk_cmd_copy_ring(gn_vk *vk, gn_vk_buffer *dst, const VkBufferCopy *regions, uint32_t count);
void gn_vk_cmd_fill(gn_vk *vk, gn_vk_buffer *dst, uint32_t value); /* the whole buffer */
/* size bytes from offset (both multiples of 4) */
void gn_vk_cmd_fill_at(gn_vk *vk, gn_vk_buffer *dst, VkDeviceSize offset, VkDeviceSize size, uint32_t value);
void gn_vk_cmd_copy_buffer(gn_vk *vk, gn_vk_buffer *src, gn_vk_buffer *dst, VkDeviceSize size);
void gn_vk_cmd_copy_buffer_at(gn_vk *vk, gn_vk_buffer *src, VkDeviceSize src_offset, gn_vk_buffer *dst,
                              VkDeviceSize dst_offset, VkDeviceSize size);
/* Viewport and scissor to a region of the current attachments (a shadow page in its atlas). */
void gn_vk_cmd_set_region(gn_vk *vk, uint32_t x, uint32_t y, uint32_t w, uint32_t h);
/* Clears a rectangle of the current depth attachment (inside a rendering). */
void gn_vk_cmd_clear_depth_rect(gn_vk *vk, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
                                float depth); /* from 0 to 0 */

/* A debug label around recorded work that is no pass of the frame (the floors' pieces). */
void gn_vk_cmd_label_begin(gn_vk *vk, const char *name);
void gn_vk_cmd_label_end(gn_vk *vk);

/* The whole of src scaled into the whole of dst, filtered linearly (the output into a window). */
void gn_vk_cmd_blit(gn_vk *vk, gn_vk_image *src, gn_vk_image *dst);
/* The whole of mip 0 of src into dst: the same size, sample count and format (TRANSFER_READ,
 * TRANSFER_WRITE uses). */
void gn_vk_cmd_copy_image(gn_vk *vk, gn_vk_image *src, gn_vk_image *dst);

/* ---- a window's swapchain (swapchain.c) ------------------------------------------------------ */
#define GN_VK_MAX_SWAPCHAIN_IMAGES 8
typedef struct gn_vk_swapchain {
    VkSurfaceKHR surface; /* the caller's, owned from attach on */
    VkSwapchainKHR swapchain;
    VkFormat format;
    VkExtent2D extent; /* 0 x 0 while the window has no area: nothing is presented */
    uint32_t image_count;
    gn_vk_image images[GN_VK_MAX_SWAPCHAIN_IMAGES]; /* the swapchain's: never released one by one */
    VkSemaphore acquired[GN_FRAMES_IN_FLIGHT];      /* a frame slot's: its image may be written */
    VkSemaphore ready[GN_VK_MAX_SWAPCHAIN_IMAGES];  /* an image's: written, may be presented */
    uint32_t current;                               /* the acquired image */
    bool have_image;                                /* acquired and not yet presented */
    bool vsync;
    bool stale; /* remake before the next acquire: resized, out of date or suboptimal */
    uint64_t presented, skipped;
    uint32_t created;
} gn_vk_swapchain;

/* Takes the surface and checks the device's queue can present to it; the swapchain itself is
 * made by the first acquire. On failure the surface is destroyed. */
gn_result gn_vk_swapchain_attach(gn_vk *vk, gn_vk_swapchain *sc, VkSurfaceKHR surface, bool vsync,
                                 gn_error *err);
void gn_vk_swapchain_destroy(gn_vk *vk, gn_vk_swapchain *sc); /* waits for the device */
void gn_vk_surface_destroy(gn_vk *vk, VkSurfaceKHR surface);  /* one never attached */
/* The next image for the frame being recorded, remade first when stale (the surface's size,
 * else width x height). *image is NULL when the window has no area; the frame then presents
 * nothing. */
gn_result gn_vk_swapchain_acquire(gn_vk *vk, gn_vk_swapchain *sc, uint32_t width, uint32_t height,
                                  gn_vk_image **image, gn_error *err);
/* Presents the acquired image; call after the frame that wrote it was submitted. */
gn_result gn_vk_swapchain_present(gn_vk *vk, gn_vk_swapchain *sc, gn_error *err);

/* ---- descriptors (descriptors.c) ------------------------------------------------------------ */
#define GN_VK_MAX_BINDINGS 16 /* a set's bindings (a material's: 10) */
typedef struct gn_vk_binding {
    VkDescriptorType type;
    VkShaderStageFlags stages;
} gn_vk_binding;

typedef struct gn_vk_write {
    uint32_t binding;
    VkDescriptorType type;
    VkBuffer buffer; /* buffers */
    VkDeviceSize offset, range;
    gn_vk_image *image; /* images */
    VkImageLayout layout;
    VkSampler sampler;
} gn_vk_write;

gn_result gn_vk_set_layout(gn_vk *vk, const gn_vk_binding *b, uint32_t count, const char *name,
                           VkDescriptorSetLayout *out, gn_error *err);
gn_result gn_vk_pipeline_layout(gn_vk *vk, const VkDescriptorSetLayout *sets, uint32_t count,
                                uint32_t push_bytes, const char *name, VkPipelineLayout *out, gn_error *err);
gn_result gn_vk_descriptor_pool(gn_vk *vk, uint32_t max_sets, const char *name, VkDescriptorPool *out,
                                gn_error *err);
gn_result gn_vk_alloc_set(gn_vk *vk, VkDescriptorPool pool, VkDescriptorSetLayout layout, const char *name,
                          VkDescriptorSet *out, gn_error *err);
void gn_vk_write_set(gn_vk *vk, VkDescriptorSet set, const gn_vk_write *w, uint32_t count);
gn_result gn_vk_sampler(gn_vk *vk, bool repeat, bool linear, const char *name, VkSampler *out, gn_error *err);
gn_result gn_vk_sampler_compare(gn_vk *vk, bool repeat, bool linear, bool compare, const char *name,
                                VkSampler *out, gn_error *err);
VkDeviceSize gn_vk_storage_align(const gn_vk *vk); /* alignment of dynamic storage/uniform offsets */

#endif

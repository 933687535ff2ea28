/* Injected Vulkan faults, for tests: make the Nth call at one call site fail as a device would.
 *
 * The reliability issue asks that every Vulkan call that can fail in a frame, a map load or
 * a glTF load be made to fail in a test, one call site at a time: memory allocation and
 * object creation with VK_ERROR_OUT_OF_DEVICE_MEMORY / VK_ERROR_OUT_OF_HOST_MEMORY, queue
 * submission and fence waits with VK_ERROR_DEVICE_LOST. Every such call in src/vk/ is
 * written GN_VK_FAULT(kind, vkCall(...)): with no plan armed the check is one relaxed atomic
 * load and the call runs; with a plan, a call the plan names returns the plan's VkResult
 * without reaching the driver (its outputs untouched, as zeroed by gnomon).
 *
 * The plan is process-wide (a test arms it around one renderer's life): it records every
 * site it sees (file, line, kind, calls) and fails either the Nth call at one site or the
 * Nth call of a kind anywhere. Not part of the public API; the GPU test gpu_faults drives it. */
#ifndef GN_VK_FAULT_H
#define GN_VK_FAULT_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

typedef enum gn_vk_fault_kind {
    GN_VK_FAULT_MEMORY, /* vkAllocateMemory, vkBind*Memory, vkMapMemory */
    GN_VK_FAULT_CREATE, /* vkCreate*, vkAllocate{CommandBuffers,DescriptorSets} */
    GN_VK_FAULT_SUBMIT, /* vkQueueSubmit2, vkQueuePresentKHR */
    GN_VK_FAULT_WAIT,   /* vkWaitForFences, vkAcquireNextImageKHR */
    GN_VK_FAULT_KINDS
} gn_vk_fault_kind;

typedef struct gn_vk_fault_site {
    const char *file; /* __FILE__ of the call */
    int line;
    gn_vk_fault_kind kind;
    uint32_t calls; /* calls seen since the plan was armed */
} gn_vk_fault_site;

typedef struct gn_vk_fault_plan {
    /* The call to fail: at one site (file and line; file matched by its ending, so "memory.c"
     * names src/vk/memory.c), or, with file NULL, of one kind anywhere. */
    const char *file;
    int line;
    gn_vk_fault_kind kind;
    uint32_t nth;    /* 1 = the first matching call; 0 = record only, fail nothing */
    bool every;      /* fail every matching call from the nth on (a device that stays full) */
    VkResult result; /* what the failing call returns */
} gn_vk_fault_plan;

#define GN_VK_FAULT_MAX_SITES 128

/* Arms a plan (copied) and clears the record; NULL disarms. */
void gn_vk_fault_arm(const gn_vk_fault_plan *plan);
/* The sites seen since arming, in the order first seen; returns their count (may exceed max). */
uint32_t gn_vk_fault_sites(gn_vk_fault_site *out, uint32_t max);
uint32_t gn_vk_fault_injected(void);               /* calls failed since arming */
uint32_t gn_vk_fault_calls(gn_vk_fault_kind kind); /* calls of a kind since arming */
const char *gn_vk_fault_kind_name(gn_vk_fault_kind kind);

/* True when this call must fail; it then returns gn_vk_fault_result(). Use GN_VK_FAULT. */
bool gn_vk_fault_hit(gn_vk_fault_kind kind, const char *file, int line);
VkResult gn_vk_fault_result(void); /* the armed plan's result */

/* A Vulkan call that the armed plan may fail: (call) is evaluated only when it does not. */
#define GN_VK_FAULT(kind, call) (gn_vk_fault_hit((kind), __FILE__, __LINE__) ? gn_vk_fault_result() : (call))

#endif

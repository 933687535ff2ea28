/* Instance, validation, device choice and the queue. */
#include "base/alloc.h"
#include "vk/fault.h"
#include "vk/vk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_VK_MAX_INSTANCE_EXTENSIONS 15 /* GLFW asks for two (surface and the platform's) */

const char *gn_vk_result_name(VkResult r)
{
    switch (r) {
    case VK_SUCCESS:
        return "VK_SUCCESS";
    case VK_NOT_READY:
        return "VK_NOT_READY";
    case VK_TIMEOUT:
        return "VK_TIMEOUT";
    case VK_INCOMPLETE:
        return "VK_INCOMPLETE";
    case VK_SUBOPTIMAL_KHR:
        return "VK_SUBOPTIMAL_KHR";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
        return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
        return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED:
        return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT:
        return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
        return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
        return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
        return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS:
        return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
        return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_FRAGMENTED_POOL:
        return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
        return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_SURFACE_LOST_KHR:
        return "VK_ERROR_SURFACE_LOST_KHR";
    case VK_ERROR_OUT_OF_DATE_KHR:
        return "VK_ERROR_OUT_OF_DATE_KHR";
    default:
        return "an unlisted VkResult";
    }
}

gn_result gn_vk_check(gn_vk *vk, VkResult r, const char *what, gn_error *err)
{
    (void)vk;
    if (r == VK_SUCCESS) return GN_OK;
    gn_result code = GN_ERROR_VULKAN;
    if (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY) code = GN_ERROR_OUT_OF_MEMORY;
    if (r == VK_ERROR_DEVICE_LOST) code = GN_ERROR_DEVICE_LOST;
    if (err) {
        err->code = code;
        snprintf(err->message, sizeof err->message, "%s failed: %s (VkResult %d)", what, gn_vk_result_name(r),
                 (int)r);
    }
    return code;
}

void gn_vk_log(gn_vk *vk, gn_log_level level, const char *fmt, ...)
{
    if (level > vk->log_level) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (vk->log)
        vk->log(level, line, vk->log_user);
    else
        fprintf(stderr, "gnomon: %s\n", line);
}

void gn_vk_name(gn_vk *vk, VkObjectType type, uint64_t handle, const char *name)
{
    if (!vk->set_name || !name || !handle) return;
    VkDebugUtilsObjectNameInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = name,
    };
    vk->set_name(vk->device, &info);
}

/* Every validation message is counted: the tests fail on any. Only the layer's are labelled
 * "validation"; the loader's (general) ones come with validation off too. */
static VKAPI_ATTR VkBool32 VKAPI_CALL on_debug(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                               VkDebugUtilsMessageTypeFlagsEXT type,
                                               const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    gn_vk *vk = user;
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    const char *label = (type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) ? "validation" : "vulkan";
    vk->validation_messages++;
    if (!vk->creating_instance)
        gn_vk_log(vk, GN_LOG_ERROR, "%s: %s", label, data->pMessage);
    else if (vk->held_count < sizeof vk->held / sizeof vk->held[0])
        snprintf(vk->held[vk->held_count++], sizeof vk->held[0], "%s: %s", label, data->pMessage);
    return VK_FALSE;
}

/* Whether the loader has the layer, or the instance (or a device's) extension, in *found; out of
 * memory for the list is an error, not "absent" (which would turn validation or debug names off
 * quietly). */
static gn_result has_layer(const char *name, bool *found, gn_error *err)
{
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    VkLayerProperties *p = gn_calloc(n ? n : 1, sizeof *p);
    if (!p) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory listing %u Vulkan layers", n);
    vkEnumerateInstanceLayerProperties(&n, p);
    *found = false;
    for (uint32_t i = 0; i < n; i++) *found |= strcmp(p[i].layerName, name) == 0;
    free(p);
    return GN_OK;
}

static gn_result has_instance_ext(const char *name, bool *found, gn_error *err)
{
    uint32_t n = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &n, NULL);
    VkExtensionProperties *p = gn_calloc(n ? n : 1, sizeof *p);
    if (!p) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory listing %u instance extensions", n);
    vkEnumerateInstanceExtensionProperties(NULL, &n, p);
    *found = false;
    for (uint32_t i = 0; i < n; i++) *found |= strcmp(p[i].extensionName, name) == 0;
    free(p);
    return GN_OK;
}

static gn_result create_instance(gn_vk *vk, bool validation, const char *const *extra, uint32_t extra_count,
                                 gn_error *err)
{
    uint32_t version = 0;
    if (vkEnumerateInstanceVersion(&version) != VK_SUCCESS || version < VK_API_VERSION_1_3)
        return gn_fail(err, GN_ERROR_NO_DEVICE, "the Vulkan loader supports %u.%u, gnomon needs 1.3",
                       VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version));
    const char *layers[1];
    uint32_t layer_count = 0;
    bool found = false;
    gn_result res = GN_OK;
    if (validation) {
        if ((res = has_layer("VK_LAYER_KHRONOS_validation", &found, err))) return res;
        if (!found)
            return gn_fail(err, GN_ERROR_NO_DEVICE,
                           "validation requested but VK_LAYER_KHRONOS_validation is not installed "
                           "(Debian: vulkan-validationlayers)");
        layers[layer_count++] = "VK_LAYER_KHRONOS_validation";
    }
    /* debug utils, then what the caller's window system needs (a surface's extensions) */
    const char *exts[1 + GN_VK_MAX_INSTANCE_EXTENSIONS];
    uint32_t ext_count = 0;
    if ((res = has_instance_ext(VK_EXT_DEBUG_UTILS_EXTENSION_NAME, &found, err))) return res;
    vk->debug_utils = found;
    if (vk->debug_utils) exts[ext_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    if (extra_count > GN_VK_MAX_INSTANCE_EXTENSIONS)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%u instance extensions asked for, at most %d",
                       extra_count, GN_VK_MAX_INSTANCE_EXTENSIONS);
    for (uint32_t i = 0; i < extra_count; i++) {
        if (extra[i] && (res = has_instance_ext(extra[i], &found, err))) return res;
        if (!extra[i] || !found)
            return gn_fail(err, GN_ERROR_NO_DEVICE, "the Vulkan loader lacks the instance extension %s",
                           extra[i] ? extra[i] : "(null)");
        if (strcmp(extra[i], VK_EXT_DEBUG_UTILS_EXTENSION_NAME) != 0) exts[ext_count++] = extra[i];
    }

    /* Synchronization validation is off by default in the layer; the tests need it on. */
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .enabledValidationFeatureCount = 1,
        .pEnabledValidationFeatures = enables,
    };
    VkDebugUtilsMessengerCreateInfoEXT messenger = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .pNext = validation ? &features : NULL,
        .messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_debug,
        .pUserData = vk,
    };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gnomon",
        .pEngineName = "gnomon",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = vk->debug_utils ? &messenger : (validation ? (void *)&features : NULL),
        .pApplicationInfo = &app,
        .enabledLayerCount = layer_count,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    vk->creating_instance = true;
    vk->held_count = 0;
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateInstance(&ci, NULL, &vk->instance));
    vk->creating_instance = false;
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER) /* the loader found no driver (or none for 1.3) */
        return gn_fail(
            err, GN_ERROR_NO_DEVICE,
            "no Vulkan driver found (VK_ERROR_INCOMPATIBLE_DRIVER): install mesa-vulkan-drivers or "
            "a GPU driver");
    if (r != VK_SUCCESS) { /* out of memory stays out of memory (gn_vk_check), not "no device" */
        gn_result code = gn_vk_check(vk, r, "vkCreateInstance", err);
        if (err && vk->held_count)
            snprintf(err->message, sizeof err->message, "vkCreateInstance failed: VkResult %d (%s)", (int)r,
                     vk->held[0]);
        return code;
    }
    for (uint32_t i = 0; i < vk->held_count; i++) gn_vk_log(vk, GN_LOG_ERROR, "%s", vk->held[i]);
    vk->held_count = 0;
    if (vk->debug_utils) {
        PFN_vkCreateDebugUtilsMessengerEXT fn = (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            vk->instance, "vkCreateDebugUtilsMessengerEXT");
        messenger.pNext = NULL; /* the validation features belong to the instance only */
        if (fn) fn(vk->instance, &messenger, NULL, &vk->messenger);
    }
    return GN_OK;
}

/* ---- device choice ------------------------------------------------------------------------- */
static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "cpu";
    default:
        return "other";
    }
}

/* Discrete beats integrated beats virtual beats CPU (lavapipe). */
static int type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 1;
    default:
        return 0;
    }
}

static int graphics_compute_family(VkPhysicalDevice pd)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties q[32];
    if (n > 32) n = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q);
    for (uint32_t i = 0; i < n; i++) {
        VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        if ((q[i].queueFlags & need) == need && q[i].timestampValidBits > 0) return (int)i;
    }
    return -1;
}

/* Why a device cannot run gnomon, or NULL when it can. */
static const char *unsuitable(VkPhysicalDevice pd)
{
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(pd, &p);
    if (p.apiVersion < VK_API_VERSION_1_3) return "Vulkan 1.3 not supported";
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &f13};
    VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                            .pNext = &f12};
    VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f11};
    vkGetPhysicalDeviceFeatures2(pd, &f);
    if (!f11.shaderDrawParameters) return "no shaderDrawParameters"; /* a deformed quad's vertices */
    if (!f12.shaderOutputLayer) return "no shaderOutputLayer";       /* VSM pages: a layer each */
    if (!f13.dynamicRendering) return "no dynamicRendering";
    if (!f13.synchronization2) return "no synchronization2";
    if (!f13.maintenance4) return "no maintenance4";
    if (!f.features.multiDrawIndirect) return "no multiDrawIndirect";
    if (!f.features.drawIndirectFirstInstance) return "no drawIndirectFirstInstance";
    if (graphics_compute_family(pd) < 0) return "no graphics+compute queue with timestamps";
    return NULL;
}

static bool matches(const char *sel, uint32_t index, const char *name)
{
    char *end = NULL;
    unsigned long v = strtoul(sel, &end, 10);
    if (end && end != sel && *end == '\0') return v == index;
    /* case-insensitive substring */
    size_t n = strlen(sel), m = strlen(name);
    for (size_t i = 0; n <= m && i + n <= m; i++) {
        size_t k = 0;
        while (k < n && (name[i + k] | 32) == (sel[k] | 32)) k++;
        if (k == n) return true;
    }
    return false;
}

/* Picks a device; fills why[] for the report. Returns the index or -1. */
static int choose(VkPhysicalDevice *pds, uint32_t n, const char *sel, char why[][256])
{
    int best = -1, best_rank = -1;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        const char *bad = unsuitable(pds[i]);
        if (bad) {
            snprintf(why[i], 256, "not suitable: %s", bad);
            continue;
        }
        if (sel && *sel) {
            if (matches(sel, i, p.deviceName) && best < 0) {
                best = (int)i;
                snprintf(why[i], 256, "matches GNOMON_DEVICE/--device '%s'", sel);
            } else {
                snprintf(why[i], 256, "suitable; not selected by '%s'", sel);
            }
            continue;
        }
        snprintf(why[i], 256, "suitable (%s)", type_name(p.deviceType));
        if (type_rank(p.deviceType) > best_rank) {
            best_rank = type_rank(p.deviceType);
            best = (int)i;
        }
    }
    if (best >= 0 && !(sel && *sel))
        snprintf(why[best], 256, "the most capable type (discrete > integrated > virtual > cpu)");
    return best;
}

static const char *device_selector(const char *given)
{
    if (given && *given) return given;
    const char *env = getenv("GNOMON_DEVICE");
    return env && *env ? env : NULL;
}

static gn_result list_devices(VkInstance inst, VkPhysicalDevice *pds, uint32_t *n, gn_error *err)
{
    *n = 16;
    VkResult r = vkEnumeratePhysicalDevices(inst, n, pds);
    if (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        return gn_vk_check(NULL, r, "vkEnumeratePhysicalDevices", err);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return gn_fail(err, GN_ERROR_NO_DEVICE, "vkEnumeratePhysicalDevices failed (%d)", (int)r);
    if (*n == 0)
        return gn_fail(err, GN_ERROR_NO_DEVICE,
                       "no Vulkan device found (install mesa-vulkan-drivers for lavapipe)");
    return GN_OK;
}

VkSampleCountFlags gn_vk_sample_counts(const gn_vk *vk)
{
    return vk->props.limits.framebufferColorSampleCounts & vk->props.limits.framebufferDepthSampleCounts;
}

static gn_result has_device_ext(VkPhysicalDevice pd, const char *name, bool *found, gn_error *err)
{
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
    VkExtensionProperties *p = gn_calloc(n ? n : 1, sizeof *p);
    if (!p) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory listing %u device extensions", n);
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, p);
    *found = false;
    for (uint32_t i = 0; i < n; i++) *found |= strcmp(p[i].extensionName, name) == 0;
    free(p);
    return GN_OK;
}

static gn_result create_device(gn_vk *vk, const char *sel, bool presentable, gn_error *err)
{
    VkPhysicalDevice pds[16];
    uint32_t n = 0;
    gn_result res = list_devices(vk->instance, pds, &n, err);
    if (res) return res;
    char why[16][256] = {{0}};
    int pick = choose(pds, n, sel, why);
    if (pick < 0) {
        if (sel) return gn_fail(err, GN_ERROR_NO_DEVICE, "no suitable Vulkan device matches '%s'", sel);
        return gn_fail(err, GN_ERROR_NO_DEVICE, "no Vulkan 1.3 device with the features gnomon needs (%s)",
                       why[0]);
    }
    vk->physical = pds[pick];
    vkGetPhysicalDeviceProperties(vk->physical, &vk->props);
    vkGetPhysicalDeviceMemoryProperties(vk->physical, &vk->mem_props);
    vk->queue_family = (uint32_t)graphics_compute_family(vk->physical);
    bool swapchain = false;
    if (presentable && (res = has_device_ext(vk->physical, VK_KHR_SWAPCHAIN_EXTENSION_NAME, &swapchain, err)))
        return res;
    if (presentable && !swapchain)
        return gn_fail(err, GN_ERROR_NO_DEVICE, "%s cannot present to a window (no VK_KHR_swapchain)",
                       vk->props.deviceName);
    const char *device_exts[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};

    VkPhysicalDeviceFeatures supported;
    vkGetPhysicalDeviceFeatures(vk->physical, &supported);
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .dynamicRendering = VK_TRUE,
        .synchronization2 = VK_TRUE,
        .maintenance4 = VK_TRUE, /* lavapipe needs it for compute shaders built for 1.3 */
    };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &f13,
        .hostQueryReset = VK_TRUE,
        .shaderOutputLayer = VK_TRUE,
    };
    /* gl_BaseVertex: a Quake 3 sprite's vertex finds its quad's others (shaders/q3_deform.glsl) */
    VkPhysicalDeviceVulkan11Features f11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        .pNext = &f12,
        .shaderDrawParameters = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &f11,
        .features =
            {
                .multiDrawIndirect = VK_TRUE,
                .drawIndirectFirstInstance = VK_TRUE,
                .depthClamp = supported.depthClamp,
                .samplerAnisotropy = supported.samplerAnisotropy,
                .dualSrcBlend = supported.dualSrcBlend, /* a Quake 3 shader's stages in one draw */
                /* weighted OIT's two targets blend differently in one draw */
                .independentBlend = supported.independentBlend,
                /* block-compressed textures (.dds) sampled as they are; without it they are
                 * decoded to RGBA8 at upload (gpu_scene.c) */
                .textureCompressionBC = supported.textureCompressionBC,
            },
    };
    float prio = 1.0f;
    VkDeviceQueueCreateInfo q = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = vk->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &prio,
    };
    VkDeviceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &features,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &q,
        .enabledExtensionCount = presentable ? 1 : 0,
        .ppEnabledExtensionNames = device_exts,
    };
    vk->depth_clamp = supported.depthClamp;
    vk->dual_source = supported.dualSrcBlend;
    vk->independent_blend = supported.independentBlend;
    vk->texture_bc = supported.textureCompressionBC;
    VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateDevice(vk->physical, &ci, NULL, &vk->device));
    if (r != VK_SUCCESS) return gn_vk_check(vk, r, "vkCreateDevice", err);
    vkGetDeviceQueue(vk->device, vk->queue_family, 0, &vk->queue);
    if (vk->debug_utils) {
        vk->set_name =
            (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(vk->device, "vkSetDebugUtilsObjectNameEXT");
        vk->label_begin =
            (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetDeviceProcAddr(vk->device, "vkCmdBeginDebugUtilsLabelEXT");
        vk->label_end =
            (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetDeviceProcAddr(vk->device, "vkCmdEndDebugUtilsLabelEXT");
    }
    gn_vk_name(vk, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)vk->queue, "main queue");
    gn_vk_log(vk, GN_LOG_INFO, "device: %s (%s)", vk->props.deviceName, why[pick]);
    return GN_OK;
}

static gn_result create_frames(gn_vk *vk, gn_error *err)
{
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++) {
        gn_vk_frame *f = &vk->frames[i];
        VkCommandPoolCreateInfo pci = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
            .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
            .queueFamilyIndex = vk->queue_family,
        };
        VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateCommandPool(vk->device, &pci, NULL, &f->pool));
        if (r) return gn_vk_check(vk, r, "vkCreateCommandPool", err);
        VkCommandBufferAllocateInfo ai = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = f->pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkAllocateCommandBuffers(vk->device, &ai, &f->cmd));
        if (r) return gn_vk_check(vk, r, "vkAllocateCommandBuffers", err);
        VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                                 .flags = VK_FENCE_CREATE_SIGNALED_BIT};
        r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateFence(vk->device, &fci, NULL, &f->fence));
        if (r) return gn_vk_check(vk, r, "vkCreateFence", err);
        gn_vk_buffer_desc cd = {.size = vk->counters_size,
                                .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                .host_visible = true,
                                .name = "frame counters"};
        gn_result cres = gn_vk_buffer_create(vk, &cd, &f->counters, err);
        if (cres) return cres;
        memset(f->counters.alloc.mapped, 0, (size_t)vk->counters_size);
        char name[64];
        snprintf(name, sizeof name, "frame slot %u", i);
        gn_vk_name(vk, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)(uintptr_t)f->cmd, name);
        gn_vk_name(vk, VK_OBJECT_TYPE_FENCE, (uint64_t)(uintptr_t)f->fence, name);
        gn_vk_name(vk, VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)(uintptr_t)f->pool, name);
    }
    return GN_OK;
}

gn_result gn_vk_pass_capacity(gn_vk *vk, uint32_t passes, gn_error *err)
{
    if (passes <= vk->pass_capacity) return GN_OK;
    gn_result res = gn_vk_wait_idle(vk, err); /* the old pools may still be written */
    if (res) return res;
    for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++) {
        gn_vk_frame *f = &vk->frames[i];
        if (f->queries) vkDestroyQueryPool(vk->device, f->queries, NULL);
        f->queries = VK_NULL_HANDLE;
        VkQueryPoolCreateInfo qci = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
            .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = passes * 2,
        };
        VkResult r = GN_VK_FAULT(GN_VK_FAULT_CREATE, vkCreateQueryPool(vk->device, &qci, NULL, &f->queries));
        if (r) return gn_vk_check(vk, r, "vkCreateQueryPool", err);
        vkResetQueryPool(vk->device, f->queries, 0, passes * 2);
        char name[64];
        snprintf(name, sizeof name, "frame slot %u timestamps", i);
        gn_vk_name(vk, VK_OBJECT_TYPE_QUERY_POOL, (uint64_t)(uintptr_t)f->queries, name);
        char(*names)[32] = gn_realloc(f->pass_names, passes * sizeof *names);
        if (names) f->pass_names = names;
        uint32_t *draws = gn_realloc(f->pass_draws, passes * sizeof *draws);
        if (draws) f->pass_draws = draws;
        uint64_t *tris = gn_realloc(f->pass_triangles, passes * sizeof *tris);
        if (tris) f->pass_triangles = tris;
        uint64_t *ts = gn_realloc(f->timestamps, 2 * passes * sizeof *ts);
        if (ts) f->timestamps = ts;
        double *ms = gn_realloc(f->pass_ms, passes * sizeof *ms);
        if (ms) f->pass_ms = ms;
        if (!names || !draws || !tris || !ts || !ms)
            return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for %u passes' timings", passes);
    }
    vk->pass_capacity = passes;
    return GN_OK;
}

gn_result gn_vk_create(gn_vk *vk, const gn_vk_desc *desc, gn_error *err)
{
    memset(vk, 0, sizeof *vk);
    vk->log = desc->log;
    vk->log_user = desc->log_user;
    vk->log_level = desc->log_level ? desc->log_level : GN_LOG_WARN;
    vk->frame_number = 0;
    vk->counters_size = desc->counters_size ? (desc->counters_size + 15) / 16 * 16 : 16;
    gn_result res =
        create_instance(vk, desc->validation, desc->instance_extensions, desc->instance_extension_count, err);
    if (!res) res = create_device(vk, device_selector(desc->device), desc->presentable, err);
    /* gnomon.h: the timeout's default is the device's (a CPU rasterizer is slower by far) */
    uint32_t timeout_ms = desc->timeout_ms                                      ? desc->timeout_ms
                          : vk->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? GN_CPU_TIMEOUT_MS
                                                                                : GN_GPU_TIMEOUT_MS;
    vk->timeout_ns = (uint64_t)timeout_ms * 1000000u;
    vk->presentable = desc->presentable;
    if (!res) res = create_frames(vk, err);
    if (!res) res = gn_vk_pass_capacity(vk, 16, err); /* the renderer sizes it to its pass table */
    if (!res) {
        gn_vk_buffer_desc rd = {
            .size = desc->ring_size ? desc->ring_size : (32ull << 20),
            .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
            .host_visible = true,
            .name = "staging ring",
        };
        res = gn_vk_buffer_create(vk, &rd, &vk->ring, err);
    }
    if (res) gn_vk_destroy(vk);
    return res;
}

void gn_vk_destroy(gn_vk *vk)
{
    if (vk->device) {
        /* The frames' fences first, each wait bounded: a hung GPU must not hang the destroy.
         * Only once they have finished is the device's own wait (which also covers
         * presentation, no fence's business) sure to end; on a timeout the objects go anyway. */
        if (gn_vk_drain(vk)) vkDeviceWaitIdle(vk->device);
        gn_vk_collect_garbage(vk, true);
        if (vk->ring.buffer) {
            vkDestroyBuffer(vk->device, vk->ring.buffer, NULL);
            gn_vk_free_memory(vk, &vk->ring.alloc);
        }
        for (uint32_t i = 0; i < GN_FRAMES_IN_FLIGHT; i++) {
            gn_vk_frame *f = &vk->frames[i];
            if (f->queries) vkDestroyQueryPool(vk->device, f->queries, NULL);
            free(f->pass_names);
            free(f->pass_draws);
            free(f->pass_triangles);
            free(f->timestamps);
            free(f->pass_ms);
            if (f->counters.buffer) {
                vkDestroyBuffer(vk->device, f->counters.buffer, NULL);
                gn_vk_free_memory(vk, &f->counters.alloc);
            }
            if (f->fence) vkDestroyFence(vk->device, f->fence, NULL);
            if (f->pool) vkDestroyCommandPool(vk->device, f->pool, NULL);
        }
        gn_vk_memory_destroy(vk);
        vkDestroyDevice(vk->device, NULL);
    }
    free(vk->garbage);
    if (vk->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT fn = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            vk->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (fn) fn(vk->instance, vk->messenger, NULL);
    }
    if (vk->instance) vkDestroyInstance(vk->instance, NULL);
    uint32_t msgs = vk->validation_messages;
    memset(vk, 0, sizeof *vk);
    vk->validation_messages = msgs;
}

/* ---- gnomon info ----------------------------------------------------------------------------- */
gn_result gn_vk_enumerate(gn_device_info *out, uint32_t max, uint32_t *count, const char *override_sel,
                          gn_error *err)
{
    *count = 0;
    gn_vk tmp = {.log_level = GN_LOG_WARN};
    gn_result res = create_instance(&tmp, false, NULL, 0, err);
    if (res) return res;
    VkPhysicalDevice pds[16];
    uint32_t n = 0;
    res = list_devices(tmp.instance, pds, &n, err);
    if (!res) {
        char why[16][256] = {{0}};
        int pick = choose(pds, n, device_selector(override_sel), why);
        *count = n;
        for (uint32_t i = 0; i < n && i < max; i++) {
            gn_device_info *d = &out[i];
            memset(d, 0, sizeof *d);
            VkPhysicalDeviceDriverProperties drv = {.sType =
                                                        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
            VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                              .pNext = &drv};
            vkGetPhysicalDeviceProperties2(pds[i], &p2);
            const VkPhysicalDeviceProperties *p = &p2.properties;
            VkPhysicalDeviceFeatures f;
            vkGetPhysicalDeviceFeatures(pds[i], &f);
            VkPhysicalDeviceMemoryProperties mp;
            vkGetPhysicalDeviceMemoryProperties(pds[i], &mp);
            snprintf(d->name, sizeof d->name, "%s", p->deviceName);
            snprintf(d->type, sizeof d->type, "%s", type_name(p->deviceType));
            snprintf(d->driver, sizeof d->driver, "%s %s", drv.driverName, drv.driverInfo);
            d->api_version = p->apiVersion;
            d->suitable = unsuitable(pds[i]) == NULL;
            d->chosen = (int)i == pick;
            snprintf(d->why, sizeof d->why, "%s", why[i]);
            d->msaa_mask = p->limits.framebufferColorSampleCounts & p->limits.framebufferDepthSampleCounts;
            d->max_image_size_2d = p->limits.maxImageDimension2D;
            d->max_image_array_layers = p->limits.maxImageArrayLayers;
            d->max_compute_workgroup_invocations = p->limits.maxComputeWorkGroupInvocations;
            d->max_draw_indirect_count = p->limits.maxDrawIndirectCount;
            d->max_storage_buffer_range = p->limits.maxStorageBufferRange;
            d->timestamp_period_ns = p->limits.timestampPeriod;
            d->multi_draw_indirect = f.multiDrawIndirect;
            d->depth_clamp = f.depthClamp;
            d->timestamps = p->limits.timestampComputeAndGraphics;
            d->sampler_anisotropy = f.samplerAnisotropy;
            d->shader_draw_parameters = true; /* core in 1.1 */
            for (uint32_t h = 0; h < mp.memoryHeapCount; h++)
                if (mp.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
                    d->device_local_bytes += mp.memoryHeaps[h].size;
        }
    }
    if (tmp.messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT fn = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            tmp.instance, "vkDestroyDebugUtilsMessengerEXT");
        if (fn) fn(tmp.instance, tmp.messenger, NULL);
    }
    vkDestroyInstance(tmp.instance, NULL);
    return res;
}

bool gn_vk_is_cpu(const gn_vk *vk) { return vk->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU; }

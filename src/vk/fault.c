/* Injected Vulkan faults (fault.h). One process-wide plan behind a mutex; the unarmed fast
 * path is a single atomic load, so the checks cost nothing measurable in a frame. */
#include "vk/fault.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool g_armed;
static gn_vk_fault_plan g_plan;
static gn_vk_fault_site g_sites[GN_VK_FAULT_MAX_SITES];
static uint32_t g_site_count; /* may exceed GN_VK_FAULT_MAX_SITES: the rest are counted only */
static uint32_t g_kind_calls[GN_VK_FAULT_KINDS];
static uint32_t g_injected;

void gn_vk_fault_arm(const gn_vk_fault_plan *plan)
{
    pthread_mutex_lock(&g_lock);
    memset(g_sites, 0, sizeof g_sites);
    memset(g_kind_calls, 0, sizeof g_kind_calls);
    g_site_count = 0;
    g_injected = 0;
    if (plan) g_plan = *plan;
    atomic_store(&g_armed, plan != NULL);
    pthread_mutex_unlock(&g_lock);
}

uint32_t gn_vk_fault_sites(gn_vk_fault_site *out, uint32_t max)
{
    pthread_mutex_lock(&g_lock);
    uint32_t n = g_site_count;
    for (uint32_t i = 0; i < n && i < max && i < GN_VK_FAULT_MAX_SITES; i++) out[i] = g_sites[i];
    pthread_mutex_unlock(&g_lock);
    return n;
}

uint32_t gn_vk_fault_injected(void)
{
    pthread_mutex_lock(&g_lock);
    uint32_t n = g_injected;
    pthread_mutex_unlock(&g_lock);
    return n;
}

uint32_t gn_vk_fault_calls(gn_vk_fault_kind kind)
{
    if ((unsigned)kind >= GN_VK_FAULT_KINDS) return 0;
    pthread_mutex_lock(&g_lock);
    uint32_t n = g_kind_calls[kind];
    pthread_mutex_unlock(&g_lock);
    return n;
}

const char *gn_vk_fault_kind_name(gn_vk_fault_kind kind)
{
    static const char *const names[GN_VK_FAULT_KINDS] = {"memory", "create", "submit", "wait"};
    return (unsigned)kind < GN_VK_FAULT_KINDS ? names[kind] : "?";
}

VkResult gn_vk_fault_result(void)
{
    pthread_mutex_lock(&g_lock);
    VkResult r = g_plan.result;
    pthread_mutex_unlock(&g_lock);
    return r;
}

/* A plan's file matches a call's __FILE__ by its ending, at a path boundary. */
static bool file_matches(const char *want, const char *file)
{
    size_t w = strlen(want), f = strlen(file);
    if (w > f) return false;
    const char *tail = file + (f - w);
    return strcmp(tail, want) == 0 && (tail == file || tail[-1] == '/');
}

bool gn_vk_fault_hit(gn_vk_fault_kind kind, const char *file, int line)
{
    if (!atomic_load_explicit(&g_armed, memory_order_relaxed)) return false;
    pthread_mutex_lock(&g_lock);
    gn_vk_fault_site *site = NULL;
    uint32_t stored = g_site_count < GN_VK_FAULT_MAX_SITES ? g_site_count : GN_VK_FAULT_MAX_SITES;
    for (uint32_t i = 0; i < stored && !site; i++)
        if (g_sites[i].line == line && strcmp(g_sites[i].file, file) == 0) site = &g_sites[i];
    if (!site) {
        if (g_site_count < GN_VK_FAULT_MAX_SITES) {
            site = &g_sites[g_site_count];
            *site = (gn_vk_fault_site){.file = file, .line = line, .kind = kind};
        }
        g_site_count++;
    }
    uint32_t calls = 0;
    if (site) calls = ++site->calls;
    uint32_t kind_calls = ++g_kind_calls[kind];
    bool hit = false;
    const gn_vk_fault_plan *p = &g_plan;
    if (p->nth > 0) {
        uint32_t n = 0;
        if (p->file) {
            if (site && p->line == line && file_matches(p->file, file)) n = calls;
        } else if (p->kind == kind) {
            n = kind_calls;
        }
        hit = n != 0 && (p->every ? n >= p->nth : n == p->nth);
    }
    if (hit) g_injected++;
    pthread_mutex_unlock(&g_lock);
    return hit;
}

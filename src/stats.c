/* A finished frame's statistics: what the frame counted on the CPU (its record, kept with its
 * slot), its passes' timestamps from the Vulkan layer, and each feature's GPU counters; into the
 * newest-frame statistics and the queue of finished frames (gn_take_frame_stats). */
#include "renderer.h"

#include <stdio.h>
#include <string.h>

void gn_frame_count(gn_renderer *r, gn_feature_id id, gn_vk_buffer *src, VkDeviceSize size)
{
    gn_vk *vk = &r->vk;
    gn_vk_use copy[] = {
        {.buffer = src, .access = GN_ACCESS_TRANSFER_READ},
        {.buffer = &vk->cur->counters, .access = GN_ACCESS_TRANSFER_WRITE},
    };
    gn_vk_barriers(vk, vk->cur->cmd, copy, 2);
    gn_vk_cmd_copy_buffer_at(vk, src, 0, &vk->cur->counters, r->counter_offset[id], size);
    gn_vk_use host = {.buffer = &vk->cur->counters, .access = GN_ACCESS_HOST_READ};
    gn_vk_barriers(vk, vk->cur->cmd, &host, 1);
}

void gn_stats_harvested(void *renderer, const gn_vk_timings *t)
{
    gn_renderer *r = renderer;
    const gn_vk_frame *f = t->frame;
    uint32_t slot = (uint32_t)(f - r->vk.frames);
    if (f->number < r->last_stats.frame_index) return;
    gn_frame_stats *s = &r->last_stats;
    *s = r->record[slot];
    s->frame_index = f->number;
    s->pass_count = f->pass_count < GN_STATS_PASSES ? f->pass_count : GN_STATS_PASSES;
    for (uint32_t i = 0; i < s->pass_count; i++) {
        gn_pass_stats *p = &s->passes[i];
        snprintf(p->name, sizeof p->name, "%s", f->pass_names[i]);
        p->gpu_ms = t->pass_ms[i];
        p->draws = f->pass_draws[i];
        p->triangles = f->pass_triangles[i];
        s->draws += p->draws;
        s->triangles += p->triangles;
    }
    s->gpu_ms = t->gpu_ms;
    const uint8_t *counters = f->counters.alloc.mapped;
    for (uint32_t i = 0; i < GN_FEATURE_COUNT; i++)
        if (gn_features[i]->harvest) gn_features[i]->harvest(r->state[i], counters + r->counter_offset[i], s);
    r->have_stats = true;
    /* the queue drops its oldest entry when full */
    if (r->finished_count == GN_STATS_QUEUE) {
        r->finished_head = (r->finished_head + 1) % GN_STATS_QUEUE;
        r->finished_count--;
    }
    r->finished[(r->finished_head + r->finished_count++) % GN_STATS_QUEUE] = *s;
}

#version 450
// GPU particles, simulated (src/passes/particles.c; docs/EFFECTS.md, "GPU particles"): one
// shader, its phase a push constant (shared/particle_pass.h), each phase a dispatch with a
// barrier after it. The spawn values and the step are shaders/particles.glsl's, bit for bit the
// CPU's (src/decide/particles.c). Integer atomics only: the alive list's order depends on the
// threads' timing, what is in it does not.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/particle_pass.h"
#include "particles.glsl"

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = GN_BIND_PARTICLE_STATES) buffer StateBlock { gn_gpu_particle states[]; };
layout(std430, set = 0, binding = GN_BIND_PARTICLE_FREE) buffer FreeBlock { uint free_slots[]; };
layout(std430, set = 0, binding = GN_BIND_PARTICLE_ALIVE) buffer AliveBlock { uint alive[]; };
layout(std430, set = 0, binding = GN_BIND_PARTICLE_COUNTERS) buffer CountBlock { uint counters[]; };
layout(std430, set = 0, binding = GN_BIND_PARTICLE_EMITTERS) readonly buffer EmitterBlock { gn_gpu_particle_emitter emitters[]; };
layout(std430, set = 0, binding = GN_BIND_PARTICLE_JOBS) readonly buffer JobBlock { gn_gpu_particle_job jobs[]; };
layout(std430, set = 0, binding = GN_BIND_PARTICLE_KEYS) buffer KeyBlock { uvec2 keys[]; };
layout(std430, set = 0, binding = GN_BIND_PARTICLE_INSTANCES) writeonly buffer InstanceBlock { gn_gpu_particle_instance instances[]; };
layout(std430, set = 0, binding = GN_BIND_PARTICLE_OWNERS) writeonly buffer OwnerBlock { uint owners[]; };
layout(set = 0, binding = GN_BIND_PARTICLE_DEPTH) uniform sampler2D depth_tex;

layout(push_constant) uniform Push
{
    gn_gpu_particle_push pc;
    mat4 view_proj;
    vec4 eye_near; // xyz the eye (m), w the near plane (m)
};

uint emitter_of(gn_gpu_particle p) { return p.key.y & GN_PARTICLE_EMITTER_MASK; }

// The world position of the depth buffer's pixel px (reversed-Z, sample 0), or false: the sky.
bool surface_at(ivec2 px, out vec3 world)
{
    ivec2 size = textureSize(depth_tex, 0);
    px = clamp(px, ivec2(0), size - 1);
    float d = texelFetch(depth_tex, px, 0).r;
    world = vec3(0.0);
    if (!(d > 0.0)) return false;
    vec2 ndc = (vec2(px) + 0.5) / vec2(size) * 2.0 - 1.0;
    vec4 h = inverse(view_proj) * vec4(ndc, d, 1.0);
    world = h.xyz / h.w;
    return true;
}

// Collision with the depth buffer (gn_particle_collide): the sample under the particle and the
// surface's normal from its neighbours' positions (the shorter difference each way, so an edge
// does not tilt it).
void collide(gn_gpu_particle_emitter em, inout gn_gpu_particle p)
{
    uint mode = uint(em.collide.x);
    if (mode == GN_PARTICLE_COLLIDE_NONE || !gn_particle_alive(p)) return;
    vec2 uv;
    float w;
    if (!gn_particle_project(view_proj, eye_near.w, p.pos_age.xyz, uv, w)) return;
    ivec2 size = textureSize(depth_tex, 0);
    ivec2 px = ivec2(uv * vec2(size));
    float d = texelFetch(depth_tex, clamp(px, ivec2(0), size - 1), 0).r;
    vec3 c, l, r, u, dn;
    if (!surface_at(px, c)) return;
    bool hl = surface_at(px - ivec2(1, 0), l), hr = surface_at(px + ivec2(1, 0), r);
    bool hu = surface_at(px - ivec2(0, 1), u), hd = surface_at(px + ivec2(0, 1), dn);
    vec3 dx = (hr && (!hl || distance(r, c) < distance(c, l))) ? r - c : c - l;
    vec3 dy = (hd && (!hu || distance(dn, c) < distance(c, u))) ? dn - c : c - u;
    vec3 n = cross(dy, dx);
    float len = length(n);
    n = len > 0.0 ? n / len : vec3(0.0, 1.0, 0.0);
    if (dot(n, eye_near.xyz - c) < 0.0) n = -n; // towards the camera
    gn_particle_collide(mode, em.collide.y, em.collide.z, em.collide.w, view_proj, eye_near.xyz, eye_near.w, d, n, p);
}

// The drawn instance (gn_particle_instance): within 1e-6 relative of the CPU's.
gn_gpu_particle_instance instance_of(gn_gpu_particle_emitter em, gn_gpu_particle p)
{
    float age = p.pos_age.w, life = p.vel_life.w;
    float t = clamp(life > 0.0 ? age / life : 1.0, 0.0, 1.0);
    uint key = gn_particle_key(em.spawn.ids.x, p.key.y >> GN_PARTICLE_SOURCE_SHIFT, p.key.x);
    float jitter = 1.0 + em.size_fade.z * gn_particle_signed(key, GN_PARTICLE_STREAM_SIZE);
    float fade = em.size_fade.w > 0.0 && t < em.size_fade.w ? t / em.size_fade.w : 1.0;
    uint frames = max(em.atlas.z, 1u), fr = 0u;
    if ((em.atlas.w & 1u) != 0u)
        fr = min(uint(floor(t * float(frames))), frames - 1u);
    else if (em.emit0.w > 0.0)
        fr = uint(mod(floor(age * em.emit0.w), float(frames)));
    if ((em.atlas.w & 2u) != 0u)
        fr += min(uint(gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_FRAME)) * float(frames)), frames - 1u);
    gn_gpu_particle_instance o;
    o.pos_half = vec4(p.pos_age.xyz, 0.5 * mix(em.size_fade.x, em.size_fade.y, t) * jitter);
    o.color = mix(em.color0, em.color1, t);
    o.color.a *= fade;
    o.dir_frame = vec4(p.vel_life.xyz, float(fr % frames));
    o.rot_emit = vec4(uintBitsToFloat(p.key.z), mix(em.emit0.xyz, em.emit1.xyz, t));
    return o;
}

// The sort key (gn_particle_sort_key): ascending keys run back to front; 0xffffffff pads.
uint sort_key(vec3 pos)
{
    float d = max(distance(pos, eye_near.xyz), 1e-30);
    return ~floatBitsToUint(d);
}

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint phase = pc.phase.x, cur = pc.phase.w; // alive list cur was last frame's
    uint slots = pc.counts.x;
    uint in_base = cur * slots, out_base = (1u - cur) * slots;
    uint out_count = GN_PARTICLE_COUNT_ALIVE0 + 1u - cur;
    if (phase == GN_PARTICLE_PHASE_STEP) {
        if (i >= counters[GN_PARTICLE_COUNT_ALIVE0 + cur]) return;
        uint slot = alive[in_base + i];
        gn_gpu_particle p = states[slot];
        uint e = emitter_of(p);
        gn_gpu_particle_emitter em = emitters[e];
        gn_particle_step(em.step, p);
        collide(em, p);
        states[slot] = p;
        if (gn_particle_alive(p)) {
            alive[out_base + atomicAdd(counters[out_count], 1u)] = slot;
        } else {
            uint at = atomicAdd(counters[GN_PARTICLE_COUNT_EMITTERS + 4u * e], 1u);
            free_slots[em.slots.x + at] = slot;
        }
    } else if (phase == GN_PARTICLE_PHASE_SPAWN) {
        if (i >= pc.counts.y) return;
        // the job holding thread i: the last whose first thread is <= i (gn_particle_job_of)
        uint lo = 0u, hi = pc.counts.z - 1u;
        while (lo < hi) {
            uint mid = (lo + hi + 1u) >> 1u;
            if (jobs[mid].where.y <= i) lo = mid;
            else hi = mid - 1u;
        }
        gn_gpu_particle_job job = jobs[lo];
        uint e = job.where.x, j = i - job.where.y, rank = job.where.z + j;
        gn_gpu_particle_emitter em = emitters[e];
        uint free_count = counters[GN_PARTICLE_COUNT_EMITTERS + 4u * e];
        if (rank >= free_count) return; // the emitter is full: dropped
        uint slot = free_slots[em.slots.x + free_count - 1u - rank];
        gn_gpu_particle p;
        if (gn_particle_spawn(em.spawn, job.group, j, p)) {
            atomicAdd(counters[GN_PARTICLE_COUNT_SPAWNED], 1u);
        } else { // dead at birth: kept in the list as dead, so the next step frees its slot
            p.pos_age = vec4(em.spawn.origin_radius.xyz, 1.0);
            p.vel_life = vec4(0.0);
            p.key = uvec4(0u, e, 0u, 0u);
        }
        states[slot] = p;
        alive[out_base + atomicAdd(counters[out_count], 1u)] = slot;
    } else if (phase == GN_PARTICLE_PHASE_FINISH) {
        // each emitter's stack lost its top min(ranks, free) slots to the spawns (draw.y: the
        // frame's spawn ranks, all its jobs' counts)
        for (uint e = i; e < pc.counts.w; e += GN_PARTICLE_GROUP) {
            uint at = GN_PARTICLE_COUNT_EMITTERS + 4u * e;
            counters[at] -= min(uint(emitters[e].draw.y), counters[at]);
        }
        if (i == 0u) counters[GN_PARTICLE_COUNT_LIVE] = counters[out_count];
    } else if (phase == GN_PARTICLE_PHASE_KEYS) {
        if (i >= counters[out_count]) return;
        uint slot = alive[out_base + i];
        gn_gpu_particle p = states[slot];
        if (!gn_particle_alive(p)) return;
        uint e = emitter_of(p);
        gn_gpu_particle_emitter em = emitters[e];
        if (em.slots.z == GN_PARTICLE_BLEND_ADDITIVE) {
            uint at = slots - 1u - atomicAdd(counters[GN_PARTICLE_COUNT_ADDED], 1u);
            instances[at] = instance_of(em, p);
            owners[at] = e;
        } else {
            keys[atomicAdd(counters[GN_PARTICLE_COUNT_SORTED], 1u)] = uvec2(sort_key(p.pos_age.xyz), slot);
        }
    } else if (phase == GN_PARTICLE_PHASE_SORT) {
        // one compare-exchange of a bitonic merge step: k the block, j the distance; ascending
        // where (a & k) == 0. O(1) work a thread: no loop for lavapipe's 65,535 cut.
        uint k = pc.phase.y, jd = pc.phase.z;
        uint a = ((i & ~(jd - 1u)) << 1u) | (i & (jd - 1u)), b = a | jd;
        if (b >= pc.sort.x) return;
        uvec2 ka = keys[a], kb = keys[b];
        bool up = (a & k) == 0u;
        bool swap = up ? (ka.x > kb.x || (ka.x == kb.x && ka.y > kb.y)) : (ka.x < kb.x || (ka.x == kb.x && ka.y < kb.y));
        if (swap) {
            keys[a] = kb;
            keys[b] = ka;
        }
    } else { // GN_PARTICLE_PHASE_WRITE
        uint sorted = counters[GN_PARTICLE_COUNT_SORTED];
        if (i == 0u) {
            uint added = counters[GN_PARTICLE_COUNT_ADDED];
            uint d = GN_PARTICLE_COUNT_DRAW;
            counters[d + 0u] = 6u, counters[d + 1u] = sorted, counters[d + 2u] = 0u, counters[d + 3u] = 0u;
            counters[d + 4u] = 6u, counters[d + 5u] = added, counters[d + 6u] = 0u, counters[d + 7u] = slots - added;
        }
        if (i >= sorted) return;
        uint slot = keys[i].y;
        gn_gpu_particle p = states[slot];
        uint e = emitter_of(p);
        instances[i] = instance_of(emitters[e], p);
        owners[i] = e;
    }
}

#version 450
// A GPU particle's quad (src/passes/particles.c): six vertices from the vertex index, placed by
// the instance the compute pass wrote (blended ones back to front). Billboards face the camera,
// turned by the particle's rotation; velocity-aligned quads run along the velocity as seen on
// screen, size + speed x stretch long. Ribbons are not drawn (docs/EFFECTS.md).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "shared/particle_pass.h"

layout(std430, set = GN_SET_PARTICLE, binding = GN_BIND_PARTICLE_INSTANCES) readonly buffer InstanceBlock2 { gn_gpu_particle_instance parts[]; };
layout(std430, set = GN_SET_PARTICLE, binding = GN_BIND_PARTICLE_OWNERS) readonly buffer OwnerBlock { uint owners[]; };
layout(std430, set = GN_SET_PARTICLE, binding = GN_BIND_PARTICLE_EMITTERS) readonly buffer EmitterBlock { gn_gpu_particle_emitter emitters[]; };

layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec4 out_color;
layout(location = 2) out vec3 out_emit;
layout(location = 3) out vec3 out_world;
layout(location = 4) flat out float out_soft;

const vec2 GN_QUAD[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main()
{
    gn_gpu_particle_instance p = parts[gl_InstanceIndex];
    gn_gpu_particle_emitter em = emitters[owners[gl_InstanceIndex]];
    vec2 c = GN_QUAD[gl_VertexIndex];
    vec3 eye = frame.camera_pos.xyz;
    vec3 to_eye = normalize(eye - p.pos_half.xyz);
    // the camera's right and up (the view matrix's first two rows)
    vec3 right = vec3(frame.view[0][0], frame.view[1][0], frame.view[2][0]);
    vec3 up = vec3(frame.view[0][1], frame.view[1][1], frame.view[2][1]);
    float h = p.pos_half.w;
    vec3 offset;
    if (em.slots.w == 1u) { // GN_PARTICLE_VELOCITY
        vec3 v = p.dir_frame.xyz;
        vec3 along = v - to_eye * dot(v, to_eye);
        float len = length(along);
        vec3 a = len > 1e-6 ? along / len : up;
        vec3 b = normalize(cross(to_eye, a));
        float half_len = h + 0.5 * length(v) * em.emit1.w;
        offset = a * (c.y * half_len) + b * (c.x * h);
    } else {
        float s = sin(p.rot_emit.x), co = cos(p.rot_emit.x);
        vec2 r = vec2(c.x * co - c.y * s, c.x * s + c.y * co);
        offset = (right * r.x + up * r.y) * h;
    }
    vec3 world = p.pos_half.xyz + offset;
    out_uv = c; // the sprite's own coordinates (the atlas frame in dir_frame.w has no texture yet)
    out_color = p.color;
    out_emit = p.rot_emit.yzw;
    out_world = world;
    out_soft = em.draw.x;
    gl_Position = frame.view_proj * vec4(world, 1.0);
}

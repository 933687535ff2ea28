/* GPU particles: the GLSL mirror of src/decide/particles.c (docs/EFFECTS.md, "GPU particles").
 * Same names, same formulas, the same operations in the same order: the random numbers are
 * integer hashes, and every float result that must equal the CPU's is computed into a
 * `precise` variable, so no multiply and add are fused (SPIR-V NoContraction) and each operation
 * rounds once as the C code's does. Then + - * floor agree bit for bit on every Vulkan device;
 * the one sqrt (the cone's direction, once a particle) is rounded correctly by
 * gn_particle_sqrt_round in integers, whatever the device's sqrt gives (NVIDIA's is an ulp off
 * for some arguments). Divisions are done on the CPU and handed over (gn_gpu_particle_spawn,
 * _step).
 * Include it, with shared/particles.h, in the compute pass; it declares no bindings. */
#ifndef GN_PARTICLES_GLSL
#define GN_PARTICLES_GLSL

#include "shared/particles.h"

/* ---- the random numbers (particles.h) ------------------------------------------------------ */

uint gn_particle_pcg(uint v)
{
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

uint gn_particle_key(uint seed, uint source, uint index)
{
    return gn_particle_pcg(gn_particle_pcg(seed + source * 0x9E3779B9u) ^ index);
}

uint gn_particle_rand(uint key, uint stream) { return gn_particle_pcg(key + stream * 0x632BE5ABu); }

float gn_particle_unit(uint h)
{
    precise float u = float(h >> 8u) * (1.0 / 16777216.0); /* 2^-24, exact */
    return u;
}

float gn_particle_signed(uint key, uint stream) /* 2u - 1 in [-1, 1), exact */
{
    precise float s = 2.0 * gn_particle_unit(gn_particle_rand(key, stream)) - 1.0;
    return s;
}

/* ---- emission ----------------------------------------------------------------------------- */

/* The shape's random point, relative to the origin (gn_spawn_point). */
vec3 gn_particle_spawn_point(gn_gpu_particle_spawn sp, uint key)
{
    precise vec3 q = vec3(0.0);
    if (sp.ids.y == GN_PARTICLE_SHAPE_BOX) {
        precise vec3 b;
        for (uint i = 0u; i < 3u; i++) b[i] = gn_particle_signed(key, GN_PARTICLE_STREAM_POS + i) * sp.extent_omc[i];
        return b;
    }
    if (sp.ids.y == GN_PARTICLE_SHAPE_SPHERE) {
        for (uint t = 0u; t < GN_PARTICLE_SPHERE_TRIES; t++) {
            for (uint i = 0u; i < 3u; i++) q[i] = gn_particle_signed(key, GN_PARTICLE_STREAM_POS + 3u * t + i);
            precise float r2 = (q.x * q.x + q.y * q.y) + q.z * q.z;
            if (r2 <= 1.0) break;
            if (t + 1u == GN_PARTICLE_SPHERE_TRIES) q = q * 0.57735027; /* 1/sqrt(3): the cube's corner in */
        }
    } else if (sp.ids.y == GN_PARTICLE_SHAPE_DISC) {
        for (uint t = 0u; t < GN_PARTICLE_DISC_TRIES; t++) {
            q.x = gn_particle_signed(key, GN_PARTICLE_STREAM_POS + 2u * t);
            q.z = gn_particle_signed(key, GN_PARTICLE_STREAM_POS + 2u * t + 1u);
            precise float r2 = q.x * q.x + q.z * q.z;
            if (r2 <= 1.0) break;
            if (t + 1u == GN_PARTICLE_DISC_TRIES) {
                q.x = q.x * 0.70710677;
                q.z = q.z * 0.70710677;
            }
        }
    }
    precise vec3 p = q * sp.origin_radius.w;
    return p;
}

/* (2m + 1)^2 >= mx 2^d, in 64 bits (d in 1..31). */
bool gn_particle_mid_sq_ge(uint m2, uint mx, int d)
{
    uint hi, lo;
    umulExtended(m2, m2, hi, lo);
    uint bhi = mx >> uint(32 - d), blo = mx << uint(d);
    return hi > bhi || (hi == bhi && lo >= blo);
}

/* The correctly rounded square root of x, given s within two ulp of it (gn_particle_sqrt_round):
 * Vulkan allows sqrt an error, and NVIDIA's is an ulp off for ~10% of arguments. */
float gn_particle_sqrt_round(float x, float s)
{
    for (int pass = 0; pass < 2; pass++) {
        uint xb = floatBitsToUint(x), sb = floatBitsToUint(s);
        int ex = int(xb >> 23u & 0xffu), es = int(sb >> 23u & 0xffu);
        if (!(x > 0.0) || ex == 0 || ex == 255 || es == 0 || es == 255) return s;
        uint mx = (xb & 0x7fffffu) | 0x800000u, ms = (sb & 0x7fffffu) | 0x800000u;
        int d = ex - 2 * es + 152;
        if (d < 1 || d > 29) return s;
        if (!gn_particle_mid_sq_ge(2u * ms + 1u, mx, d)) {
            s = uintBitsToFloat(sb + 1u);
            continue;
        }
        bool below = ms == 0x800000u ? !gn_particle_mid_sq_ge(4u * ms - 1u, mx, d + 2)
                                     : !gn_particle_mid_sq_ge(2u * ms - 1u, mx, d);
        if (below) return s;
        s = uintBitsToFloat(sb - 1u);
    }
    return s;
}

/* A unit direction uniform over the cone around axis_z: Archimedes' map of the disc onto the cap
 * (gn_spawn_direction). */
vec3 gn_particle_spawn_direction(gn_gpu_particle_spawn sp, uint key)
{
    float omc = sp.extent_omc.w;
    precise float x = 0.0, y = 0.0, r2 = 0.0;
    if (omc > 0.0) {
        for (uint t = 0u; t < GN_PARTICLE_DISC_TRIES; t++) {
            x = gn_particle_signed(key, GN_PARTICLE_STREAM_DIR + 2u * t);
            y = gn_particle_signed(key, GN_PARTICLE_STREAM_DIR + 2u * t + 1u);
            r2 = x * x + y * y;
            if (r2 <= 1.0) break;
            if (t + 1u == GN_PARTICLE_DISC_TRIES) {
                x = 0.0;
                y = 0.0;
                r2 = 0.0;
            }
        }
    }
    precise float z = 1.0 - r2 * omc;
    precise float s2 = omc * (1.0 + z);
    float s = gn_particle_sqrt_round(s2, sqrt(s2));
    precise float lx = x * s, ly = y * s;
    precise vec3 d = (sp.axis_x.xyz * lx + sp.axis_y.xyz * ly) + sp.axis_z.xyz * z;
    return d;
}

/* Particle j of group g at the frame's end; false (p zeroed) when it would already be dead. */
bool gn_particle_spawn(gn_gpu_particle_spawn sp, gn_gpu_particle_group g, uint j, out gn_gpu_particle p)
{
    p.pos_age = vec4(0.0);
    p.vel_life = vec4(0.0);
    p.key = uvec4(0u);
    uint count = g.index.z, per_step = max(g.index.w, 1u);
    if (j >= count) return false;
    uint source = g.index.x, index = g.index.y + j;
    precise float age = g.age.x + float((count - 1u - j) / per_step) * g.age.y;
    uint key = gn_particle_key(sp.ids.x, source, index);
    precise float lifetime =
        sp.axis_z.w + gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_LIFE)) * sp.ranges.x;
    if (!(age < lifetime)) return false;
    vec3 local = gn_particle_spawn_point(sp, key);
    vec3 dir = gn_particle_spawn_direction(sp, key);
    precise float speed =
        sp.axis_x.w + gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_SPEED)) * sp.axis_y.w;
    precise vec3 v = dir * speed;
    precise vec3 pos = (sp.origin_radius.xyz + local) + v * age;
    precise float rotation =
        sp.ranges.y + gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_ROT)) * sp.ranges.z;
    precise float spin = sp.ranges.w + gn_particle_unit(gn_particle_rand(key, GN_PARTICLE_STREAM_SPIN)) * sp.ranges2.x;
    p.pos_age = vec4(pos, age);
    p.vel_life = vec4(v, lifetime);
    p.key = uvec4(index, sp.ids.z | (source << GN_PARTICLE_SOURCE_SHIFT), floatBitsToUint(rotation),
                  floatBitsToUint(spin));
    return true;
}

/* ---- curl noise (gn_particle_curl) --------------------------------------------------------- */

float gn_particle_lattice(uint x, uint y, uint z, uint salt)
{
    uint h = gn_particle_pcg(gn_particle_pcg(gn_particle_pcg(x + salt) + y) + z);
    precise float v = 2.0 * gn_particle_unit(h) - 1.0;
    return v;
}

/* The analytic gradient of one value-noise potential (gn_noise_grad). */
vec3 gn_particle_noise_grad(uvec3 cell, vec3 u, vec3 du, uint salt)
{
    uvec3 c1 = cell + 1u;
    float a = gn_particle_lattice(cell.x, cell.y, cell.z, salt), b = gn_particle_lattice(c1.x, cell.y, cell.z, salt);
    float c = gn_particle_lattice(cell.x, c1.y, cell.z, salt), d = gn_particle_lattice(c1.x, c1.y, cell.z, salt);
    float e = gn_particle_lattice(cell.x, cell.y, c1.z, salt), f = gn_particle_lattice(c1.x, cell.y, c1.z, salt);
    float gg = gn_particle_lattice(cell.x, c1.y, c1.z, salt), h = gn_particle_lattice(c1.x, c1.y, c1.z, salt);
    precise float k1 = b - a, k2 = c - a, k3 = e - a;
    precise float k4 = ((a - b) - c) + d, k5 = ((a - c) - e) + gg, k6 = ((a - b) - e) + f;
    precise float k7 = (((((b - a) + c) - d) + e) - f - gg) + h;
    precise vec3 g;
    g.x = du.x * (((k1 + k4 * u.y) + k6 * u.z) + k7 * (u.y * u.z));
    g.y = du.y * (((k2 + k5 * u.z) + k4 * u.x) + k7 * (u.z * u.x));
    g.z = du.z * (((k3 + k6 * u.x) + k5 * u.y) + k7 * (u.x * u.y));
    return g;
}

vec3 gn_particle_curl(vec3 x)
{
    vec3 xc = clamp(x, vec3(-1e9), vec3(1e9));
    vec3 fl = floor(xc);
    precise vec3 t = xc - fl;
    uvec3 cell = uvec3(ivec3(fl));
    precise vec3 u = ((t * t) * t) * (t * (t * 6.0 - 15.0) + 10.0);
    precise vec3 du = ((30.0 * t) * t) * (t * (t - 2.0) + 1.0);
    vec3 g1 = gn_particle_noise_grad(cell, u, du, 0x00000000u);
    vec3 g2 = gn_particle_noise_grad(cell, u, du, 0x68E31DA4u);
    vec3 g3 = gn_particle_noise_grad(cell, u, du, 0xB5297A4Du);
    precise vec3 r = vec3(g3.y - g2.z, g1.z - g3.x, g2.x - g1.y);
    return r;
}

/* ---- integration (gn_particle_step_with) -------------------------------------------------- */

bool gn_particle_alive(gn_gpu_particle p) { return p.pos_age.w < p.vel_life.w; }

void gn_particle_step(gn_gpu_particle_step st, inout gn_gpu_particle p)
{
    if (!gn_particle_alive(p)) return;
    float dt = st.gravity_dt.w, drag = st.air_drag.w, strength = st.curl.x, keep = st.curl.z;
    vec3 c = vec3(0.0);
    if (strength > 0.0) {
        precise vec3 x = p.pos_age.xyz * st.curl.y;
        c = gn_particle_curl(x);
    }
    precise vec3 a = (st.gravity_dt.xyz + drag * st.air_drag.xyz) + strength * c;
    precise vec3 v = (p.vel_life.xyz + a * dt) * keep;
    precise vec3 pos = p.pos_age.xyz + v * dt;
    precise float rotation = uintBitsToFloat(p.key.z) + uintBitsToFloat(p.key.w) * dt;
    precise float age = p.pos_age.w + dt;
    p.pos_age = vec4(pos, age);
    p.vel_life.xyz = v;
    p.key.z = floatBitsToUint(rotation);
}

/* ---- the depth buffer (gn_particle_project, _collide, _soft_fade) ------------------------------
 * Not held bit for bit (a division by w): within 1e-6 relative of the CPU's. */

/* Where p lands (uv 0..1, y down) and its view distance w; false behind the near plane or off
 * the screen. */
bool gn_particle_project(mat4 view_proj, float near_plane, vec3 p, out vec2 uv, out float w)
{
    vec4 clip = view_proj * vec4(p, 1.0);
    uv = vec2(0.0);
    w = clip.w;
    if (!(clip.w >= near_plane)) return false;
    uv = clip.xy / clip.w * 0.5 + 0.5;
    return all(greaterThanEqual(uv, vec2(0.0))) && all(lessThanEqual(uv, vec2(1.0)));
}

#define GN_PARTICLE_HIT_NONE 0u
#define GN_PARTICLE_HIT_BOUNCE 1u
#define GN_PARTICLE_HIT_DIE 2u
#define GN_PARTICLE_COLLIDE_NONE 0u
#define GN_PARTICLE_COLLIDE_BOUNCE 1u
#define GN_PARTICLE_COLLIDE_DIE 2u
#define GN_PARTICLE_COLLIDE_LIFT 0.01

/* mode: GN_PARTICLE_COLLIDE_*; depth_sample: the depth buffer at the particle's uv (reversed-Z,
 * near / distance); normal: the surface's, unit, world. */
uint gn_particle_collide(uint mode, float restitution, float friction, float thickness, mat4 view_proj, vec3 eye,
                         float near_plane, float depth_sample, vec3 normal, inout gn_gpu_particle p)
{
    if (mode == GN_PARTICLE_COLLIDE_NONE || !gn_particle_alive(p) || !(depth_sample > 0.0))
        return GN_PARTICLE_HIT_NONE;
    vec2 uv;
    float w;
    if (!gn_particle_project(view_proj, near_plane, p.pos_age.xyz, uv, w)) return GN_PARTICLE_HIT_NONE;
    float s = near_plane / depth_sample;
    if (!(w > s && w <= s + thickness)) return GN_PARTICLE_HIT_NONE;
    if (mode == GN_PARTICLE_COLLIDE_DIE) {
        p.pos_age.w = p.vel_life.w;
        return GN_PARTICLE_HIT_DIE;
    }
    p.pos_age.xyz = eye + (p.pos_age.xyz - eye) * (s / w) + normal * GN_PARTICLE_COLLIDE_LIFT;
    float vn = dot(p.vel_life.xyz, normal);
    if (vn < 0.0) {
        vec3 vt = p.vel_life.xyz - vn * normal;
        p.vel_life.xyz = vt * (1.0 - friction) - restitution * vn * normal;
    }
    return GN_PARTICLE_HIT_BOUNCE;
}

/* Soft particles: the opacity factor before a surface of depth depth_sample. */
float gn_particle_soft_fade(float near_plane, float depth_sample, float w, float soft_depth)
{
    if (!(depth_sample > 0.0)) return 1.0;
    float s = near_plane / depth_sample;
    if (!(soft_depth > 0.0)) return w < s ? 1.0 : 0.0;
    return clamp((s - w) / soft_depth, 0.0, 1.0);
}

#endif

// A Quake 3 shader's deformVertexes, applied in every scene pass's vertex shader (src/decide/
// q3_material.h, gn_q3_vertex_deform, says what each deform's two vectors hold; the CPU evaluates
// them once a frame, src/q3_stages.c). Every pass moves a vertex the same way, so the forward pass's
// EQUAL test holds against the prepass and shadows fall from the shape that is seen. A material
// without deforms pays one load a vertex. Included by common.glsl.
#ifndef GN_Q3_DEFORM_GLSL
#define GN_Q3_DEFORM_GLSL

layout(std430, set = GN_SET_FRAME, binding = GN_BIND_FRAME_DEFORMS) readonly buffer DeformBlock
{
    gn_gpu_deform deforms[];
};
// The scene's vertices as floats: a deform reads the normal and uv of the vertex it moves (the
// vertex shaders that take positions only still can)
layout(std430, set = GN_SET_FRAME, binding = GN_BIND_FRAME_VERTICES) readonly buffer VertexFloats
{
    float vertex_floats[];
};

// Quake 3's waveform tables (1024 entries a turn, read by the turn's fraction), as
// src/decide/tfx.c defines them; noise is left still (the game's is a noise function of time).
float gn_q3_wave(uint func, float turns)
{
    int i = int(floor(fract(turns) * 1024.0)) & 1023;
    if (func == 0u) return sin(radians(float(i) * 360.0 / 1023.0));
    if (func == 1u) {
        float sign = i >= 512 ? -1.0 : 1.0;
        int j = i & 511;
        return sign * (j >= 256 ? 1.0 - float(j - 256) / 256.0 : float(j) / 256.0);
    }
    if (func == 2u) return i < 512 ? 1.0 : -1.0;
    if (func == 3u) return float(i) / 1024.0;
    if (func == 4u) return 1.0 - float(i) / 1024.0;
    return 0.0;
}

// A smooth noise in [-1, 1] of a point and a time (value noise: a hash at the lattice's corners,
// blended by smoothstep), for deformVertexes normal; the game's own is a table of its own making.
float gn_q3_hash(vec4 c)
{
    uvec4 q = uvec4(ivec4(c) + 65536);
    uint h = q.x * 73856093u ^ q.y * 19349663u ^ q.z * 83492791u ^ q.w * 2654435761u;
    h ^= h >> 13u;
    h *= 1274126177u;
    h ^= h >> 16u;
    return float(h & 65535u) / 32767.5 - 1.0;
}
float gn_q3_noise(vec4 p)
{
    vec4 i = floor(p), f = p - i;
    vec4 w = f * f * (3.0 - 2.0 * f);
    float sum = 0.0;
    for (uint c = 0u; c < 16u; c++) {
        vec4 o = vec4(float(c & 1u), float((c >> 1u) & 1u), float((c >> 2u) & 1u), float(c >> 3u));
        vec4 k = mix(1.0 - w, w, o);
        sum += k.x * k.y * k.z * k.w * gn_q3_hash(i + o);
    }
    return sum;
}

// Whether material m moves its vertices.
bool gn_q3_deforms(uint m) { return deforms[m].v[0].x != 0.0; }

// A scene vertex's position (object space), its index clamped into the buffer.
vec3 gn_q3_vertex_pos(uint v)
{
    uint count = uint(vertex_floats.length()) / uint(GN_GPU_VERTEX_FLOATS);
    uint base = min(v, max(count, 1u) - 1u) * uint(GN_GPU_VERTEX_FLOATS);
    return vec3(vertex_floats[base], vertex_floats[base + 1u], vertex_floats[base + 2u]);
}

// The view's right and up (frame.view's first two rows), which sprites turn to.
vec3 gn_q3_view_right() { return vec3(frame.view[0][0], frame.view[1][0], frame.view[2][0]); }
vec3 gn_q3_view_up() { return vec3(frame.view[0][1], frame.view[1][1], frame.view[2][1]); }

// A deformed vertex: world is its position (metres, renderer frame), n its unit world normal, both
// updated; vertex its index in the scene's vertices (gl_VertexIndex) and first the index of its
// mesh's first (gl_BaseVertex): a sprite's quad is four vertices counted from there, as the game
// counts them.
void gn_q3_deform(gn_gpu_instance inst, uint vertex, uint first, inout vec3 world, inout vec3 n)
{
    uint m = inst.info.x;
    uint base = vertex * uint(GN_GPU_VERTEX_FLOATS);
    vec2 uv = vec2(vertex_floats[base + 10u], vertex_floats[base + 11u]);
    for (uint k = 0u; k < uint(GN_GPU_Q3_DEFORMS); k++) {
        vec4 a = deforms[m].v[2u * k], b = deforms[m].v[2u * k + 1u];
        uint kind = uint(a.x);
        if (kind == 1u) { // wave: along the normal, spread by the game-unit coordinates' sum
            vec3 q = world * GN_GPU_Q3_UNITS_PER_METRE;
            float off = (q.x - q.z + q.y) * b.y; // the game's x + y + z (its y is gnomon's -z)
            world += n * (a.z + a.w * gn_q3_wave(uint(a.y), b.x + off));
        } else if (kind == 2u) { // bulge: along the normal by a sine of s
            world += n * (a.w * sin(uv.x * a.z + b.x));
        } else if (kind == 3u) { // move: the whole surface by the vector
            world += b.xyz;
        } else if (kind == 4u || kind == 6u) {
            // the quad's four corners (before this deform's turn; earlier deforms moved only this
            // vertex, so the others are taken at rest plus this vertex's offset so far)
            uint q0 = first + ((vertex - first) & ~3u), me = (vertex - first) & 3u;
            vec3 shift = world - gn_to_world(inst, gn_q3_vertex_pos(vertex));
            vec3 p[4];
            for (uint c = 0u; c < 4u; c++) p[c] = gn_to_world(inst, gn_q3_vertex_pos(q0 + c)) + shift;
            vec3 centre = (p[0] + p[1] + p[2] + p[3]) * 0.25;
            vec3 right = gn_q3_view_right(), up = gn_q3_view_up();
            if (kind == 4u) {
                // autosprite: the corner in the quad's own axes (one horizontal, one across it),
                // laid on the view's right and up: a quad already facing the viewer stays as it was
                vec3 axis_a = cross(vec3(0.0, 1.0, 0.0), n);
                if (dot(axis_a, axis_a) < 1e-6) axis_a = cross(vec3(0.0, 0.0, -1.0), n);
                axis_a = normalize(axis_a);
                vec3 axis_b = cross(n, axis_a);
                vec3 d = world - centre;
                world = centre + right * dot(d, axis_a) + up * dot(d, axis_b);
                n = normalize(cross(right, up));
            } else {
                // autosprite2: the two short edges' midpoints stay (the long axis through them);
                // the quad turns about that axis to face the eye, each corner on its own side
                bool first_pair = distance(p[0], p[1]) + distance(p[2], p[3]) <=
                                  distance(p[1], p[2]) + distance(p[3], p[0]);
                uint mate = first_pair ? (me ^ 1u) : ((me + (me == 0u || me == 2u ? 3u : 1u)) & 3u);
                vec3 mid = (world + p[mate]) * 0.5;
                vec3 other = first_pair ? (me < 2u ? (p[2] + p[3]) : (p[0] + p[1])) * 0.5
                                        : (me == 1u || me == 2u ? (p[3] + p[0]) : (p[1] + p[2])) * 0.5;
                vec3 axis = other - mid;
                vec3 minor = cross(axis, frame.camera_pos.xyz - centre);
                if (dot(minor, minor) < 1e-12) break; // looking along the axis: left as it is
                minor = normalize(minor);
                vec3 d = world - mid;
                world = mid + minor * (length(d) * (dot(d, minor) < 0.0 ? -1.0 : 1.0));
                vec3 face = normalize(cross(minor, axis));
                n = dot(face, frame.camera_pos.xyz - centre) < 0.0 ? -face : face;
            }
        } else if (kind == 5u) { // normal: the normal alone, moved by a noise of place and time
            vec3 q = vec3(world.x, -world.z, world.y) * (GN_GPU_Q3_UNITS_PER_METRE * 0.98);
            vec3 g = vec3(gn_q3_noise(vec4(q, b.x)), gn_q3_noise(vec4(q + 100.0, b.x)),
                          gn_q3_noise(vec4(q + 200.0, b.x)));
            n = normalize(n + a.z * vec3(g.x, g.z, -g.y)); // the game's axes back to gnomon's
        } else {
            break; // deforms are packed from the first: the first empty one ends them
        }
    }
}

#endif

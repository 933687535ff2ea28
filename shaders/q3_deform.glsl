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

// Whether material m moves its vertices.
bool gn_q3_deforms(uint m) { return deforms[m].v[0].x != 0.0; }

// A deformed vertex: world is its position (metres, renderer frame), n its unit world normal, both
// updated; vertex its index in the scene's vertices (gl_VertexIndex); centre the instance's bounding
// sphere's (an autosprite quad turns about it).
void gn_q3_deform(uint m, uint vertex, vec3 centre, inout vec3 world, inout vec3 n)
{
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
        } else if (kind == 4u) { // autosprite: the quad turned to face the viewer about its centre
            // the corner in the quad's own axes (one horizontal, one across it), then laid on the
            // view's right and up: a quad already facing the viewer is left as it was
            vec3 axis_a = cross(vec3(0.0, 1.0, 0.0), n);
            if (dot(axis_a, axis_a) < 1e-6) axis_a = cross(vec3(0.0, 0.0, -1.0), n);
            axis_a = normalize(axis_a);
            vec3 axis_b = cross(n, axis_a);
            vec3 d = world - centre;
            vec3 right = vec3(frame.view[0][0], frame.view[1][0], frame.view[2][0]);
            vec3 up = vec3(frame.view[0][1], frame.view[1][1], frame.view[2][1]);
            world = centre + right * dot(d, axis_a) + up * dot(d, axis_b);
            n = normalize(cross(right, up));
        } else {
            break; // deforms are packed from the first: the first empty one ends them
        }
    }
}

#endif

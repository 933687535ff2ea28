#version 450
// A full-screen triangle at depth 0 (the infinitely far plane of reversed-Z). Drawn in the
// forward pass with the depth test EQUAL, it covers exactly the pixels no geometry wrote.
layout(location = 0) out vec2 out_ndc;

void main()
{
    vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2) * 2.0 - 1.0;
    out_ndc = p;
    gl_Position = vec4(p, 0.0, 1.0);
}

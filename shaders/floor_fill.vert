#version 450
// The fill floor (src/floors.c): one full-screen triangle every three vertices, so a single
// draw of 3 * layers vertices writes every sample of the target `layers` times.
void main()
{
    int v = gl_VertexIndex % 3;
    vec2 p = vec2((v << 1) & 2, v & 2) * 2.0 - 1.0;
    gl_Position = vec4(p, 0.0, 1.0);
}

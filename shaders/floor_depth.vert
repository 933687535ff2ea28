#version 450
// The triangle floor (src/floors.c): the grid's positions are already in clip space, so this is
// the depth prepass's vertex work (depth.vert) without its instance fetch and matrix.
layout(location = 0) in vec3 in_pos;

void main() { gl_Position = vec4(in_pos, 1.0); }

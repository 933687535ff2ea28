#version 450
// The fill floor: a constant colour, the least a fragment of the forward pass can do.
layout(location = 0) out vec4 out_color;

void main() { out_color = vec4(0.25, 0.5, 0.75, 1.0); }

// The octahedral map of directions (y up: the upper hemisphere is the centre diamond), as
// src/decide/ibl.c (gn_oct_encode, gn_oct_decode) does it.
#ifndef GN_OCTA_GLSL
#define GN_OCTA_GLSL

vec2 gn_sign_nz(vec2 v) { return vec2(v.x >= 0.0 ? 1.0 : -1.0, v.y >= 0.0 ? 1.0 : -1.0); }

// uv in [0, 1]^2 of a unit direction.
vec2 gn_oct_encode(vec3 d)
{
    d /= abs(d.x) + abs(d.y) + abs(d.z);
    vec2 e = d.y >= 0.0 ? d.xz : (1.0 - abs(d.zx)) * gn_sign_nz(d.xz);
    return e * 0.5 + 0.5;
}

// The point on the octahedron |x| + |y| + |z| = 1 at uv (normalize it for the direction; its
// length gives the map's solid angle per texel, proportional to 1 / |p|^3).
vec3 gn_oct_point(vec2 uv)
{
    vec2 e = uv * 2.0 - 1.0;
    vec3 d = vec3(e.x, 1.0 - abs(e.x) - abs(e.y), e.y);
    if (d.y < 0.0) d.xz = (1.0 - abs(d.zx)) * gn_sign_nz(d.xz);
    return d;
}

vec3 gn_oct_decode(vec2 uv) { return normalize(gn_oct_point(uv)); }
#endif

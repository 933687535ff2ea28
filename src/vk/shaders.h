/* SPIR-V embedded at build time (see CMakeLists.txt: glslc -mfmt=num). */
#ifndef GN_VK_SHADERS_H
#define GN_VK_SHADERS_H

#include <stddef.h>
#include <stdint.h>

typedef struct gn_spirv {
    const char *name; /* file name under shaders/, e.g. "forward.frag" */
    const uint32_t *code;
    size_t size; /* bytes */
} gn_spirv;

const gn_spirv *gn_shader_find(const char *name);

#endif

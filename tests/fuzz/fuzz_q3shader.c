/* libFuzzer target: arbitrary bytes as Quake 3 shader script text (gn_q3_library_add_file, from
 * memory: libFuzzer's buffer is exactly size bytes with no NUL after it, so a read past the end
 * is a report), added twice as two files (the second overrides the first), then every shader
 * looked up by its name, dumped, and the dump read back. Whatever the bytes, the result must be
 * GN_OK (the text is never too long here: -max_len is far below the 1 MiB cap), never a crash or
 * a sanitizer report; each name must find its own shader, and a dump must read back as one
 * shader with the same dump. Each shader is also compiled to its stages and TFX program
 * (decide/q3_material.c): a compiled program must validate, and it is run at a few times (its
 * outputs finite where the script's numbers are). Seeds: any .shader files (scripts/fuzz.sh can
 * copy OpenArena's). */
#include "decide/q3_material.h"
#include "formats/q3shader.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dump_a[1 << 16], dump_b[1 << 16];
static gn_q3_material mat;
static gn_tfx_vec4 outputs[GN_Q3_MAT_OUTPUT_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > GN_Q3_MAX_FILE_BYTES) return 0;
    gn_q3_library lib = {0};
    gn_error err;
    if (gn_q3_library_add_file(&lib, (const char *)data, size, "scripts/a.shader", &err) != GN_OK) abort();
    uint32_t first = lib.shader_count;
    if (gn_q3_library_add_file(&lib, (const char *)data, size, "scripts/b.shader", &err) != GN_OK) abort();
    if (lib.shader_count != first || lib.report.overridden != first)
        abort(); /* the same names, all replaced */
    if (lib.report.problem_count && !lib.report.problems) abort();
    for (uint32_t i = 0; i < lib.shader_count; i++) {
        const gn_q3_shader *s = &lib.shaders[i];
        if (gn_q3_library_find(&lib, s->name) != s || strlen(s->name) >= GN_Q3_NAME_MAX) abort();
        if (s->stage_count > GN_Q3_MAX_STAGES || s->deform_count > GN_Q3_MAX_DEFORMS) abort();
        for (uint32_t k = 0; k < s->stage_count; k++)
            if (s->stages[k].tcmod_count > GN_Q3_MAX_TCMODS ||
                s->stages[k].anim_frame_count > GN_Q3_MAX_ANIM_FRAMES)
                abort();
        size_t n = gn_q3_describe(s, dump_a, sizeof dump_a);
        if (n >= sizeof dump_a || strlen(dump_a) != n) abort();
        gn_q3_library again = {0};
        if (gn_q3_library_add_file(&again, dump_a, n, "scripts/dump.shader", &err) != GN_OK) abort();
        if (again.shader_count != 1) abort();
        gn_q3_describe(&again.shaders[0], dump_b, sizeof dump_b);
        if (strcmp(strchr(dump_a, '\n'), strchr(dump_b, '\n')) != 0) abort(); /* past the file:line */
        gn_q3_library_free(&again);
        char why[256];
        if (gn_q3_material_compile(s, &mat, why, sizeof why)) {
            if (mat.stage_count > GN_Q3_MAT_STAGES || mat.slot_count > GN_Q3_MAT_SLOTS) abort();
            for (uint32_t k = 0; k < mat.stage_count; k++)
                if (mat.stages[k].source == GN_Q3_SOURCE_IMAGE &&
                    (mat.stages[k].frames == 0 || mat.stages[k].slot + mat.stages[k].frames > mat.slot_count))
                    abort();
            gn_tfx_program p = gn_q3_material_program(&mat);
            gn_tfx_limits lim = gn_q3_material_limits(&mat);
            if (!gn_tfx_validate(&p, &lim, why, sizeof why)) abort();
            const float times[3] = {0.0f, 1.5f, 1e4f};
            for (int t = 0; t < 3; t++) gn_q3_material_eval(&mat, times[t], NULL, outputs);
        } else if (mat.draw != GN_Q3_DRAW_NONE) {
            abort(); /* a refused program never draws */
        }
    }
    gn_q3_library_free(&lib);
    return 0;
}

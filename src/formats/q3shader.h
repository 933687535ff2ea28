/* Quake 3 shader scripts (the .shader files of scripts/): a checked parser and a library of the
 * shaders of several files (issue 18, first step). Text in, plain structures out: no Vulkan and
 * no I/O; the caller reads each file (from the pk3s: gn_pak_read) and hands over its bytes.
 *
 * The grammar, as id's renderer reads it (tr_shader.c): a file is a sequence of `name { ... }`
 * blocks; inside one, shader keywords and `{ ... }` stage blocks. Tokens are separated by
 * whitespace (every byte <= 32) and a "quoted string" is one token; line comments (two slashes)
 * and block comments (slash-star to star-slash) may start anywhere outside a quoted string (the
 * engine strips them from the whole text first). A keyword and its arguments share a line,
 * which ends at "\n", "\r\n" or a lone "\r" (some OpenArena scripts have classic Mac line
 * ends); a brace always ends a statement, so "{ map a.tga }" is a whole stage. Keywords compare
 * case-insensitively.
 *
 * Nothing in a file is fatal. Each problem (a malformed number, a missing brace or argument, too
 * many stages, a name too long, an unterminated comment, the end of the text inside a block) is
 * recorded with its file, line and keyword, and the parser goes on: a bad argument leaves its
 * keyword at its default and the rest of that line is skipped; a block cut by the end of the
 * text is dropped; a shader without its '}' ends where a path alone on its line is followed by
 * a '{' (the next shader). A keyword the parser does not know is counted by name
 * (gn_q3_report.unknown) and its line skipped; so is an unknown value of surfaceparm, rgbGen,
 * alphaGen, tcGen, tcMod and deformVertexes ("surfaceparm botclip"). Compiler and editor
 * keywords (q3map_*, qer_*, tessSize, light) are skipped silently and counted as "tool"
 * keywords. */
#ifndef GN_FORMATS_Q3SHADER_H
#define GN_FORMATS_Q3SHADER_H

#include "gnomon.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GN_Q3_NAME_MAX 64               /* names and image paths: 63 characters and a NUL (Q3's MAX_QPATH) */
#define GN_Q3_MAX_STAGES 8              /* Q3's MAX_SHADER_STAGES; more is a problem, the rest skipped */
#define GN_Q3_MAX_TCMODS 8              /* a stage's tcMods, in order (Q3 allows 4; OpenArena uses 3) */
#define GN_Q3_MAX_DEFORMS 4             /* a shader's deformVertexes (Q3 allows 3); more counted, dropped */
#define GN_Q3_MAX_ANIM_FRAMES 8         /* animMap frames: Q3's MAX_IMAGE_ANIMATIONS */
#define GN_Q3_MAX_FILE_BYTES (1u << 20) /* a script's text: OpenArena's largest is 88 KB */
#define GN_Q3_MAX_SHADERS 16384u        /* distinct names in a library: OpenArena has about 1900 */
#define GN_Q3_MAX_FILES 4096u           /* files added to a library (Q3's MAX_SHADER_FILES) */
#define GN_Q3_MAX_PROBLEMS 1024u        /* problems kept with their text; the rest are only counted */
#define GN_Q3_MAX_UNKNOWN 256u          /* distinct unknown keywords listed; the rest are only counted */
#define GN_Q3_KEYWORD_MAX 32            /* a keyword as recorded in problems and the unknown table */

/* surfaceparm flags, one bit each in the order of Q3's infoParms table (tr_shader.c). */
typedef enum gn_q3_surf {
    GN_Q3_SURF_WATER = 1u << 0,
    GN_Q3_SURF_SLIME = 1u << 1,
    GN_Q3_SURF_LAVA = 1u << 2,
    GN_Q3_SURF_PLAYERCLIP = 1u << 3,
    GN_Q3_SURF_MONSTERCLIP = 1u << 4,
    GN_Q3_SURF_NODROP = 1u << 5,
    GN_Q3_SURF_NONSOLID = 1u << 6,
    GN_Q3_SURF_ORIGIN = 1u << 7,
    GN_Q3_SURF_TRANS = 1u << 8,
    GN_Q3_SURF_DETAIL = 1u << 9,
    GN_Q3_SURF_STRUCTURAL = 1u << 10,
    GN_Q3_SURF_AREAPORTAL = 1u << 11,
    GN_Q3_SURF_CLUSTERPORTAL = 1u << 12,
    GN_Q3_SURF_DONOTENTER = 1u << 13,
    GN_Q3_SURF_FOG = 1u << 14,
    GN_Q3_SURF_SKY = 1u << 15,
    GN_Q3_SURF_LIGHTFILTER = 1u << 16,
    GN_Q3_SURF_ALPHASHADOW = 1u << 17,
    GN_Q3_SURF_HINT = 1u << 18,
    GN_Q3_SURF_SLICK = 1u << 19,
    GN_Q3_SURF_NOIMPACT = 1u << 20,
    GN_Q3_SURF_NOMARKS = 1u << 21,
    GN_Q3_SURF_LADDER = 1u << 22,
    GN_Q3_SURF_NODAMAGE = 1u << 23,
    GN_Q3_SURF_METALSTEPS = 1u << 24,
    GN_Q3_SURF_FLESH = 1u << 25,
    GN_Q3_SURF_NOSTEPS = 1u << 26,
    GN_Q3_SURF_NODRAW = 1u << 27,
    GN_Q3_SURF_POINTLIGHT = 1u << 28,
    GN_Q3_SURF_NOLIGHTMAP = 1u << 29,
    GN_Q3_SURF_NODLIGHT = 1u << 30,
    GN_Q3_SURF_DUST = 1u << 31,
} gn_q3_surf;
const char *gn_q3_surf_name(uint32_t bit_index); /* "water" for 0 ... "dust" for 31; NULL past */

typedef enum gn_q3_wave_func {
    GN_Q3_WAVE_NONE = 0, /* no wave given */
    GN_Q3_WAVE_SIN,
    GN_Q3_WAVE_TRIANGLE,
    GN_Q3_WAVE_SQUARE,
    GN_Q3_WAVE_SAWTOOTH,
    GN_Q3_WAVE_INVERSE_SAWTOOTH,
    GN_Q3_WAVE_NOISE,
} gn_q3_wave_func;

typedef struct gn_q3_wave {
    gn_q3_wave_func func;
    float base, amp, phase, freq; /* value = base + amp * func((time + phase) * freq), freq in Hz */
} gn_q3_wave;

typedef enum gn_q3_cull {
    GN_Q3_CULL_FRONT = 0, /* the default: back faces culled ("cull front", as Q3 names it) */
    GN_Q3_CULL_BACK,      /* "back", "backside", "backsided" */
    GN_Q3_CULL_NONE,      /* "none", "disable", "twosided" */
} gn_q3_cull;

typedef enum gn_q3_deform_type {
    GN_Q3_DEFORM_WAVE = 1, /* div, wave */
    GN_Q3_DEFORM_NORMAL,   /* wave.amp, wave.freq */
    GN_Q3_DEFORM_BULGE,    /* bulge: width, height, speed */
    GN_Q3_DEFORM_MOVE,     /* move: x y z, wave */
    GN_Q3_DEFORM_AUTOSPRITE,
    GN_Q3_DEFORM_AUTOSPRITE2,
    GN_Q3_DEFORM_PROJECTION_SHADOW,
    GN_Q3_DEFORM_TEXT, /* text0..text7: text_index */
} gn_q3_deform_type;

typedef struct gn_q3_deform {
    gn_q3_deform_type type;
    float div;      /* wave: the spread, as written (Q3 uses 1 / div; 0 is a problem) */
    float bulge[3]; /* width, height, speed */
    float move[3];  /* Quake units and axes */
    gn_q3_wave wave;
    uint32_t text_index;
} gn_q3_deform;

typedef enum gn_q3_map_kind {
    GN_Q3_MAP_NONE = 0, /* no map keyword */
    GN_Q3_MAP_IMAGE,    /* map or clampMap: map holds the path */
    GN_Q3_MAP_LIGHTMAP, /* map $lightmap */
    GN_Q3_MAP_WHITE,    /* map $whiteimage */
    GN_Q3_MAP_ANIM,     /* animMap: anim_freq and anim_frames */
    GN_Q3_MAP_VIDEO,    /* videoMap: map holds the video's name */
} gn_q3_map_kind;

/* blendFunc factors; NONE: no blendFunc (the stage replaces what is below it). */
typedef enum gn_q3_blend {
    GN_Q3_BLEND_NONE = 0,
    GN_Q3_BLEND_ONE,
    GN_Q3_BLEND_ZERO,
    GN_Q3_BLEND_DST_COLOR,
    GN_Q3_BLEND_ONE_MINUS_DST_COLOR,
    GN_Q3_BLEND_SRC_COLOR,
    GN_Q3_BLEND_ONE_MINUS_SRC_COLOR,
    GN_Q3_BLEND_SRC_ALPHA,
    GN_Q3_BLEND_ONE_MINUS_SRC_ALPHA,
    GN_Q3_BLEND_DST_ALPHA,
    GN_Q3_BLEND_ONE_MINUS_DST_ALPHA,
    GN_Q3_BLEND_SRC_ALPHA_SATURATE,
} gn_q3_blend;

typedef enum gn_q3_alpha_func {
    GN_Q3_ALPHA_FUNC_NONE = 0,
    GN_Q3_ALPHA_FUNC_GT0,
    GN_Q3_ALPHA_FUNC_LT128,
    GN_Q3_ALPHA_FUNC_GE128,
} gn_q3_alpha_func;

typedef enum gn_q3_depth_func {
    GN_Q3_DEPTH_LEQUAL = 0, /* the default */
    GN_Q3_DEPTH_EQUAL,
} gn_q3_depth_func;

typedef enum gn_q3_rgb_gen {
    GN_Q3_RGB_DEFAULT = 0, /* not given: Q3 picks identity or identityLighting from the blend */
    GN_Q3_RGB_IDENTITY,
    GN_Q3_RGB_IDENTITY_LIGHTING,
    GN_Q3_RGB_VERTEX,
    GN_Q3_RGB_EXACT_VERTEX,
    GN_Q3_RGB_ONE_MINUS_VERTEX,
    GN_Q3_RGB_CONST, /* rgb_const */
    GN_Q3_RGB_WAVE,  /* rgb_wave */
    GN_Q3_RGB_ENTITY,
    GN_Q3_RGB_ONE_MINUS_ENTITY,
    GN_Q3_RGB_LIGHTING_DIFFUSE,
} gn_q3_rgb_gen;

typedef enum gn_q3_alpha_gen {
    GN_Q3_ALPHA_DEFAULT = 0,
    GN_Q3_ALPHA_IDENTITY,
    GN_Q3_ALPHA_VERTEX,
    GN_Q3_ALPHA_ONE_MINUS_VERTEX,
    GN_Q3_ALPHA_CONST, /* alpha_const */
    GN_Q3_ALPHA_WAVE,  /* alpha_wave */
    GN_Q3_ALPHA_ENTITY,
    GN_Q3_ALPHA_ONE_MINUS_ENTITY,
    GN_Q3_ALPHA_LIGHTING_SPECULAR,
    GN_Q3_ALPHA_PORTAL, /* alpha_portal: the distance, Quake units (256 when not given, as Q3) */
} gn_q3_alpha_gen;

typedef enum gn_q3_tc_gen {
    GN_Q3_TC_DEFAULT = 0, /* not given: texture, or lightmap for map $lightmap */
    GN_Q3_TC_TEXTURE,     /* "base" or "texture" */
    GN_Q3_TC_LIGHTMAP,
    GN_Q3_TC_ENVIRONMENT,
    GN_Q3_TC_VECTOR, /* tc_vector: s and t axes */
} gn_q3_tc_gen;

typedef enum gn_q3_tcmod_type {
    GN_Q3_TCMOD_SCROLL = 1, /* v[0..1]: s, t per second */
    GN_Q3_TCMOD_SCALE,      /* v[0..1] */
    GN_Q3_TCMOD_ROTATE,     /* v[0]: degrees per second */
    GN_Q3_TCMOD_TURB,       /* wave (func NONE: Q3's turb has no function; base amp phase freq) */
    GN_Q3_TCMOD_STRETCH,    /* wave */
    GN_Q3_TCMOD_TRANSFORM,  /* v[0..5]: m00 m01 m10 m11 t0 t1 */
    GN_Q3_TCMOD_ENTITY_TRANSLATE,
} gn_q3_tcmod_type;

typedef struct gn_q3_tcmod {
    gn_q3_tcmod_type type;
    float v[6];
    gn_q3_wave wave;
} gn_q3_tcmod;

typedef struct gn_q3_stage {
    uint32_t line; /* of its '{' */
    gn_q3_map_kind map_kind;
    char map[GN_Q3_NAME_MAX]; /* IMAGE and VIDEO: as written (an extension may follow) */
    bool clamp;               /* clampMap */
    float anim_freq;          /* frames per second */
    uint32_t anim_frame_count;
    char anim_frames[GN_Q3_MAX_ANIM_FRAMES][GN_Q3_NAME_MAX];
    gn_q3_blend blend_src, blend_dst; /* both NONE or both set ("add" is ONE ONE) */
    gn_q3_alpha_func alpha_func;
    bool depth_write; /* depthWrite given */
    gn_q3_depth_func depth_func;
    gn_q3_rgb_gen rgb_gen;
    float rgb_const[3];
    gn_q3_wave rgb_wave;
    gn_q3_alpha_gen alpha_gen;
    float alpha_const, alpha_portal;
    gn_q3_wave alpha_wave;
    gn_q3_tc_gen tc_gen;
    float tc_vector[2][3];
    uint32_t tcmod_count;
    gn_q3_tcmod tcmods[GN_Q3_MAX_TCMODS]; /* in the order written */
    bool detail;
} gn_q3_stage;

typedef struct gn_q3_shader {
    char name[GN_Q3_NAME_MAX]; /* as written */
    const char *file;          /* the script it came from (the library's copy of the name) */
    uint32_t line;             /* of its '{' */
    uint32_t surface_flags;    /* gn_q3_surf bits */
    gn_q3_cull cull;
    float sort; /* 0: not given; named sorts as Q3 numbers them (portal 1, sky 2, opaque 3,
                   decal 4, seeThrough 5, banner 6, underwater 8, additive 10, nearest 16) */
    bool polygon_offset, no_mipmaps, no_picmip, portal, entity_mergable;
    bool has_sky;                  /* skyparms given */
    char sky_far[GN_Q3_NAME_MAX];  /* far box base name ("env/x" for env/x_ft.tga ...); "" for '-' */
    float sky_cloud_height;        /* 0 for '-' (Q3 then uses 512) */
    char sky_near[GN_Q3_NAME_MAX]; /* "" for '-' (Q3 never drew a near box) */
    bool has_fog;                  /* fogparms given */
    float fog_color[3];
    float fog_distance; /* to opaque, Quake units */
    uint32_t deform_count;
    gn_q3_deform deforms[GN_Q3_MAX_DEFORMS];
    uint32_t stage_count;
    gn_q3_stage *stages; /* stage_count, owned by the library */
} gn_q3_shader;

typedef struct gn_q3_problem {
    const char *file; /* the library's copy of the script's name */
    uint32_t line;
    char keyword[GN_Q3_KEYWORD_MAX]; /* the keyword or token at fault (cut to fit) */
    char message[160];
} gn_q3_problem;

typedef struct gn_q3_unknown {
    char keyword[GN_Q3_KEYWORD_MAX]; /* lower case; an unknown surfaceparm as "surfaceparm x" */
    uint32_t count;
    const char *file; /* where it was first seen */
    uint32_t line;
} gn_q3_unknown;

/* What the files added so far gave. problem_count counts every problem, problems holds the first
 * GN_Q3_MAX_PROBLEMS of them; likewise unknown lists the first GN_Q3_MAX_UNKNOWN names. */
typedef struct gn_q3_report {
    uint32_t files;       /* read (each add_file call is a file of its own; one refused is not) */
    uint32_t definitions; /* shader blocks read whole, duplicates included */
    uint32_t stages;      /* in those blocks (kept ones) */
    uint32_t overridden;  /* definitions that replaced one from an earlier file */
    uint32_t duplicates;  /* repeats of a name within one file (the first is kept) */
    uint32_t tool_keywords;
    uint32_t deforms_dropped;
    uint32_t problem_count;
    gn_q3_problem *problems;
    uint32_t unknown_count, unknown_dropped; /* listed names; occurrences of names not listed */
    gn_q3_unknown *unknown;
} gn_q3_report;

/* A set of shaders by name. Zeroed, it is an empty library; free it with gn_q3_library_free.
 *
 * Override rule: a name defined in a file added later replaces the definition from an earlier
 * file (in place: shaders keeps the order in which names first appeared). Within one file the
 * first definition of a name stands and later ones count as duplicates: the engine finds the
 * first match in a file's text. Names compare case-insensitively, '\' as '/', with a trailing
 * extension (".tga" after the last '/') dropped on both sides, as the engine strips it from
 * the names it looks up.
 *
 * The game's own order: id's renderer concatenates the files of FS_ListFiles("scripts") in
 * reverse and takes the first match, so across files the one latest in that list wins; that
 * list is in search order (the overriding pak's files first, each pak in its zip directory's
 * order): a pak's new file does not override an older pak's shader, a quirk of the engine.
 * Adding files in that same list order reproduces the engine exactly. Adding them by archive
 * (earliest pak first) then name makes a later pak's definition win instead, which is what a
 * newer pak means to do: tests/unit/test_q3shader_paks.c does this, and counts 51 of
 * OpenArena's 1888 names that resolve differently in the engine's order. */
typedef struct gn_q3_library {
    gn_q3_shader *shaders;
    uint32_t shader_count;
    char **files; /* file_count names as given to add_file */
    uint32_t file_count;
    gn_q3_report report;
    /* private */
    uint32_t shader_cap, file_cap, problem_cap, unknown_cap;
    uint32_t *slots; /* open addressing: shader index + 1, 0 empty */
    uint32_t slot_count;
} gn_q3_library;

/* Parses len bytes of script text (not NUL-terminated; never read past len) named file (for
 * messages and gn_q3_shader.file) into lib. Problems in the text are recorded in lib->report
 * and are not failures: the result is GN_OK. It fails, with err set, only for a file over
 * GN_Q3_MAX_FILE_BYTES (GN_ERROR_BAD_DATA: nothing added, also recorded as a problem), a file
 * past GN_Q3_MAX_FILES (GN_ERROR_BAD_DATA: nothing added or recorded) and when memory runs out
 * (GN_ERROR_OUT_OF_MEMORY: the shaders added before stay valid). New names past
 * GN_Q3_MAX_SHADERS are a problem, their shaders dropped. */
gn_result gn_q3_library_add_file(gn_q3_library *lib, const char *text, size_t len, const char *file,
                                 gn_error *err);
/* Every shader script (scripts/NAME.shader) of the mounted archives, by archive (the earliest first) then
 * name, so a later pak's definition wins. Fails only when out of memory or when the archives cannot be
 * listed; a script the parser refuses is a problem in lib->report. */
struct gn_pak;
gn_result gn_q3_library_add_pak(gn_q3_library *lib, struct gn_pak *pak, gn_error *err);
/* The shader of that name (see the rule above); NULL when none. Valid until the next add_file. */
const gn_q3_shader *gn_q3_library_find(const gn_q3_library *lib, const char *name);
void gn_q3_library_free(gn_q3_library *lib); /* zeroes *lib; NULL and a zeroed library are fine */

/* A text dump of a shader for the CLI: script text that reads back as the same shader, its
 * name and "// file:line" first, then one keyword a line in a fixed order (names as written,
 * keywords in their usual spelling, blends as explicit GL_ factors, named sorts as numbers).
 * Writes at most cap bytes, NUL-terminated when cap > 0; returns the length the whole text
 * needs (as snprintf), so a return >= cap means it was cut. */
size_t gn_q3_describe(const gn_q3_shader *s, char *buf, size_t cap);

#endif

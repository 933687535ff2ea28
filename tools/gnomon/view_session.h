/* The viewer's renderer and scene: made from the settings, made again when a setting that
 * fixes them changes (msaa, shadow-map sizes, the froxel grid; the scene and its lights), and
 * the window's surface attached to each renderer. No GLFW here: the window makes surfaces
 * through a callback. */
#ifndef GN_CLI_VIEW_SESSION_H
#define GN_CLI_VIEW_SESSION_H

#include "cmd_opts.h"
#include "gnomon.h"

/* Makes a VkSurfaceKHR (as a uint64_t) on the window for the renderer's VkInstance. */
typedef gn_result (*gn_view_surface_fn)(void *instance, void *user, uint64_t *surface, gn_error *err);

typedef struct gn_view_session {
    gn_renderer *r;
    gn_scene *scene;
    gn_view_opts made_with;          /* the settings the renderer and scene were made with */
    uint32_t validation_before;      /* messages of renderers already destroyed */
    gn_present_stats present_before; /* frames they presented (presented, skipped, recreated) */
    gn_view_surface_fn make_surface;
    void *surface_user;
    const char *const *instance_extensions;
    uint32_t instance_extension_count;
} gn_view_session;

/* A renderer of width x height for o, presenting to a new surface of the window. */
gn_result gn_view_session_renderer(gn_view_session *s, const gn_view_opts *o, uint32_t width, uint32_t height,
                                   gn_error *err);
/* The scene o names, with its lights; the old one stays until the new one is built. */
gn_result gn_view_session_scene(gn_view_session *s, const gn_view_opts *o, gn_error *err);
/* The scene's default camera (x, y, z, yaw, pitch), or o's --camera. */
void gn_view_session_camera(const gn_view_session *s, const gn_view_opts *o, float out[5]);
/* The last rendered frame as a PNG, folders made. overlay: NULL, or an RGBA image of the
 * output's size blended over it as PRESENT blends it (shaders/present.comp). */
gn_result gn_view_session_screenshot(gn_view_session *s, const char *path, const uint8_t *overlay,
                                     gn_error *err);
uint32_t gn_view_session_validation(const gn_view_session *s); /* messages over every renderer */
void gn_view_session_present_stats(const gn_view_session *s, gn_present_stats *out); /* likewise */
void gn_view_session_end(gn_view_session *s);

#endif

/* gn_scene_create_builtin: a new scene from the store, filled by a built-in generator. The
 * built-in scenes are builders above the store, which knows nothing of them. */
#include "scene/figure.h"
#include "scene/scene.h"
#include "scene/town.h"

#include <string.h>

/* Above 64 the town passes GN_SCENE_MAX_INSTANCES' neighbourhood and stops being useful. */
#define GN_BUILTIN_MAX_SCALE 64u
/* The town's walking people: gn_town_people's cap (36 KB of vertices each). */
#define GN_BUILTIN_MAX_PEOPLE 2048u

gn_result gn_scene_create_builtin(const gn_builtin_desc *desc, gn_scene **out, gn_error *err)
{
    if (!out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_scene_create_builtin: out is NULL");
    *out = NULL;
    gn_builtin_desc d = desc ? *desc : (gn_builtin_desc){0};
    if (!d.name) d.name = "town";
    if (d.seed == 0) d.seed = 1;
    if (d.scale == 0) d.scale = 1;
    if (strcmp(d.name, "town") != 0)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "unknown built-in scene '%s' (known: town)", d.name);
    if (d.people > GN_BUILTIN_MAX_PEOPLE)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "built-in scene: %u people, above %u", d.people,
                       GN_BUILTIN_MAX_PEOPLE);
    if (d.people_detail > GN_FIGURE_MAX_DETAIL)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "built-in scene: people detail %u, above %u",
                       d.people_detail, GN_FIGURE_MAX_DETAIL);
    if (d.scale > GN_BUILTIN_MAX_SCALE)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "built-in scene scale %u is above %u", d.scale,
                       GN_BUILTIN_MAX_SCALE);
    gn_scene *s;
    gn_result r = gn_scene_create(&s, err);
    if (r != GN_OK) return r;
    r = gn_town_build(s, &d, err);
    if (r != GN_OK) {
        gn_scene_destroy(s);
        return r;
    }
    *out = s;
    return GN_OK;
}

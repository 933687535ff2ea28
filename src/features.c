/* The table of features, in the order they are created and planned (gn_feature_id): a feature
 * may use what an earlier one made. Adding a feature: an id in src/feature.h, an entry here. */
#include "passes/passes.h"

const gn_feature *const gn_features[GN_FEATURE_COUNT] = {
    [GN_FEATURE_SKIN] = &gn_feature_skin, /* first: the posed vertices before anything reads them */
    [GN_FEATURE_CULL] = &gn_feature_cull, /* the views' lists before anything draws */
    [GN_FEATURE_DEPTH] = &gn_feature_depth,
    [GN_FEATURE_CSM] = &gn_feature_csm,
    [GN_FEATURE_VSM] = &gn_feature_vsm,
    [GN_FEATURE_LIGHTS] = &gn_feature_lights,
    [GN_FEATURE_AO] = &gn_feature_ao,
    [GN_FEATURE_ATMOSPHERE] = &gn_feature_atmosphere,
    [GN_FEATURE_IBL] = &gn_feature_ibl, /* after the atmosphere: its sets name the atmosphere's tables */
    [GN_FEATURE_VOLUMETRIC] = &gn_feature_volumetric, /* after the sets its inject pass binds */
    [GN_FEATURE_FORWARD] = &gn_feature_forward, /* after the shadows, lights and AO: their receiver sets */
    [GN_FEATURE_DECALS] = &gn_feature_decals,   /* the forward pass's receivers too */
    [GN_FEATURE_PARTICLES] = &gn_feature_particles, /* likewise */
    [GN_FEATURE_OIT] = &gn_feature_oit,             /* after the forward pass: its technique's receivers */
    [GN_FEATURE_EXPOSURE] = &gn_feature_exposure,
    [GN_FEATURE_BLOOM] = &gn_feature_bloom, /* before the tone map: its set names bloom's level 0 */
    [GN_FEATURE_DOF] = &gn_feature_dof,     /* before the tone map too: its set names the blurred copy */
    [GN_FEATURE_TONEMAP] = &gn_feature_tonemap,
    [GN_FEATURE_DEPTH_VIEW] = &gn_feature_depth_view,
    [GN_FEATURE_OCCLUSION_VIEW] = &gn_feature_occlusion_view,
    [GN_FEATURE_PRESENT] = &gn_feature_present, /* last: its plan acquires the window's image */
    [GN_FEATURE_NOOP] = &gn_feature_noop,
};

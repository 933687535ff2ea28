/* gnomon info: the Vulkan devices, their limits, and which one gnomon picks and why. */
#include "cli.h"
#include "cmd_opts.h"

#include <stdio.h>

#define GN_INFO_MAX_DEVICES 16

static void gn_info_print(uint32_t index, const gn_device_info *d)
{
    /* api_version is VK_MAKE_API_VERSION: variant in bits 29-31, then 7 bits of major. */
    uint32_t v = d->api_version;
    printf("device %u: %s (%s)%s\n", index, d->name, d->type, d->chosen ? "  <- chosen" : "");
    printf("  %-34s %s\n", "driver", d->driver);
    printf("  %-34s %u.%u.%u\n", "vulkan", (v >> 22) & 0x7fu, (v >> 12) & 0x3ffu, v & 0xfffu);
    printf("  %-34s %s\n", "suitable", d->suitable ? "yes" : "no");
    printf("  %-34s %s%s%s\n", "chosen", d->chosen ? "yes" : "no", d->why[0] ? ": " : "", d->why);
    printf("  %-34s", "msaa sample counts");
    for (uint32_t n = 0; n < 8; n++)
        if (d->msaa_mask & (1u << n)) printf(" %u", 1u << n);
    printf("\n");
    printf("  %-34s %u\n", "max image size 2D", d->max_image_size_2d);
    printf("  %-34s %u\n", "max image array layers", d->max_image_array_layers);
    printf("  %-34s %u\n", "max compute workgroup invocations", d->max_compute_workgroup_invocations);
    printf("  %-34s %u\n", "max draw indirect count", d->max_draw_indirect_count);
    printf("  %-34s %llu\n", "max storage buffer range", (unsigned long long)d->max_storage_buffer_range);
    printf("  %-34s %g\n", "timestamp period ns", (double)d->timestamp_period_ns);
    printf("  %-34s multi_draw_indirect=%s depth_clamp=%s timestamps=%s\n", "features",
           d->multi_draw_indirect ? "yes" : "no", d->depth_clamp ? "yes" : "no",
           d->timestamps ? "yes" : "no");
    printf("  %-34s sampler_anisotropy=%s shader_draw_parameters=%s\n", "",
           d->sampler_anisotropy ? "yes" : "no", d->shader_draw_parameters ? "yes" : "no");
    printf("  %-34s %llu MiB\n", "device-local memory", (unsigned long long)(d->device_local_bytes >> 20));
}

/* gnomon's own limits and defaults (docs/LIGHTING.md, docs/SHADOWS.md): what a scene and a
 * frame may hold, independent of the device. */
static void gn_info_limits(void)
{
    printf("gnomon limits\n");
    printf("  %-34s %u a scene\n", "lights", GN_MAX_LIGHTS);
    printf("  %-34s 16 x 9 x 24 froxels (renderer desc: cluster_x/y/z), exponential slices 0.1..1000 m\n",
           "light grid");
    printf("  %-34s 64 (cluster_max_lights, up to 1023); more are counted, reported and dropped\n",
           "lights a froxel");
    printf("  %-34s 16 a frame, nearest first (shadowed_lights); 512^2 layers: a spot 1, a point 6\n",
           "shadowed local lights");
    printf("  %-34s 4 of 2048^2 (1..%u), 600 m, updates 1,1,2,4\n", "sun cascades", GN_CSM_MAX_CASCADES);
    printf("  %-34s %u a scene, %u^2 faces; again one a frame after the key light moved %.0f deg; on with a "
           "GPU, off on a CPU device (--probes N)\n",
           "reflection probes", GN_PROBES_MAX, GN_PROBES_FACE, (double)GN_PROBES_RECAPTURE_DEG);
    printf("  %-34s 16..16384 per side; MSAA 1, 2, 4, 8 where the device has them\n", "image size");
}

int gn_cmd_info(int argc, char **argv)
{
    char msg[1024];
    int parsed = gn_cli_after_parse(gn_info_opts_parse(argc, argv, msg, sizeof msg), msg, gn_info_opts_help);
    if (parsed != GN_CLI_GO_ON) return parsed;
    static gn_device_info devices[GN_INFO_MAX_DEVICES]; /* ~1 KiB each: off the stack */
    uint32_t count = 0;
    gn_error err = {0};
    const char *override = gn_cli_device_env();
    if (gn_enumerate_devices(devices, GN_INFO_MAX_DEVICES, &count, override, &err) != GN_OK)
        return gn_cli_fail("info", &err);
    if (count == 0) {
        fprintf(stderr, "gnomon info: no Vulkan devices found\n");
        return GN_EXIT_NO_DEVICE;
    }
    if (override) printf("GNOMON_DEVICE=%s\n", override);
    uint32_t shown = count < GN_INFO_MAX_DEVICES ? count : GN_INFO_MAX_DEVICES;
    for (uint32_t i = 0; i < shown; i++) gn_info_print(i, &devices[i]);
    if (count > shown) printf("(%u more devices not shown)\n", count - shown);
    gn_info_limits();
    return GN_EXIT_OK;
}

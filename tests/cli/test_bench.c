/* Unit tests of gnomon bench's pure parts: sample collection (dedupe, warm-up skip, passes
 * that come and go), the summary's nearest-rank percentiles, and the scripted paths. */
#include "bench_data.h"
#include "bench_path.h"
#include "check.h"

#include <math.h>
#include <string.h>

static gn_frame_stats gn_frame(uint64_t index, double ms, bool with_extra_pass)
{
    gn_frame_stats s = {.frame_index = index,
                        .pass_count = with_extra_pass ? 2 : 1,
                        .gpu_ms = ms,
                        .cpu_ms = ms / 10,
                        .instances_total = 100,
                        .instances_visible = (uint32_t)index,
                        .draw_groups = 3,
                        .draws = 10,
                        .triangles = 1000};
    snprintf(s.passes[0].name, sizeof s.passes[0].name, "main");
    s.passes[0].gpu_ms = ms;
    snprintf(s.passes[1].name, sizeof s.passes[1].name, "shadow");
    s.passes[1].gpu_ms = 2 * ms;
    return s;
}

static void test_collect(void)
{
    gn_bench_data d;
    GN_CHECK(gn_bench_data_init(&d, 4));
    gn_bench_data_skip_through(&d, 10); /* the warm-up ended at frame 10 */
    gn_frame_stats s = gn_frame(9, 1, false);
    GN_CHECK(!gn_bench_data_add(&d, &s));
    s = gn_frame(10, 1, false);
    GN_CHECK(!gn_bench_data_add(&d, &s));
    s = gn_frame(11, 1, false);
    GN_CHECK(gn_bench_data_add(&d, &s));
    GN_CHECK(!gn_bench_data_add(&d, &s)); /* the same frame polled twice */
    s = gn_frame(13, 2, true);            /* 12 finished unseen; a pass appears */
    GN_CHECK(gn_bench_data_add(&d, &s));
    s = gn_frame(14, 3, false);
    GN_CHECK(gn_bench_data_add(&d, &s));
    s = gn_frame(15, 4, true);
    GN_CHECK(gn_bench_data_add(&d, &s));
    s = gn_frame(16, 5, true);
    GN_CHECK(!gn_bench_data_add(&d, &s)); /* full */
    GN_CHECK(d.count == 4 && d.pass_count == 2);
    GN_CHECK(strcmp(d.pass_names[0], "main") == 0 && strcmp(d.pass_names[1], "shadow") == 0);
    GN_CHECK(d.frame_index[0] == 11 && d.frame_index[1] == 13);
    GN_CHECK(isnan(d.pass_ms[1][0]) && d.pass_ms[1][1] == 4.0 && isnan(d.pass_ms[1][2]));

    gn_bench_summary sum;
    GN_CHECK(gn_bench_summarize(&d, &sum));
    GN_CHECK(sum.samples == 4 && sum.pass_count == 2 && sum.instances_total == 100);
    GN_CHECK(sum.pass[1].min == 4.0 && sum.pass[1].max == 8.0); /* over the two frames that had it */
    GN_CHECK(sum.frame.min == 1.0 && sum.frame.max == 4.0);
    gn_bench_data_free(&d);
}

/* Nearest rank: the p-th percentile of n sorted values is value ceil(p * n) (1-based). */
static void test_percentiles(void)
{
    gn_bench_data d;
    GN_CHECK(gn_bench_data_init(&d, 200));
    for (uint64_t i = 0; i < 200; i++) {
        /* 1..200 ms in a scrambled order: 67 is coprime to 200, so this is a permutation. */
        gn_frame_stats s = gn_frame(i, (double)((i * 67) % 200 + 1), false);
        GN_CHECK(gn_bench_data_add(&d, &s));
    }
    gn_bench_summary sum;
    GN_CHECK(gn_bench_summarize(&d, &sum));
    GN_CHECK(sum.frame.min == 1.0 && sum.frame.max == 200.0);
    GN_CHECK(sum.frame.median == 100.0); /* rank ceil(0.5 * 200) = 100 */
    GN_CHECK(sum.frame.p99 == 198.0);    /* rank ceil(0.99 * 200) = 198 */
    GN_CHECK(sum.pass[0].median == 100.0 && sum.cpu.max == 20.0);
    GN_CHECK(sum.draws == 10.0 && sum.draw_groups == 3.0);
    if (sum.frame.median != 100.0 || sum.frame.p99 != 198.0)
        fprintf(stderr, "  median %g p99 %g\n", sum.frame.median, sum.frame.p99);
    gn_bench_data_free(&d);

    GN_CHECK(gn_bench_data_init(&d, 4));
    gn_frame_stats s = gn_frame(0, 7, false);
    gn_bench_data_add(&d, &s);
    GN_CHECK(gn_bench_summarize(&d, &sum));
    GN_CHECK(sum.frame.min == 7 && sum.frame.median == 7 && sum.frame.p99 == 7 && sum.frame.max == 7);
    gn_bench_data_free(&d);
}

static gn_scene_info gn_box_scene(void)
{
    gn_scene_info info = {
        .bounds_min = {-100, 0, -100}, .bounds_max = {100, 30, 100}, .default_camera = {0, 2, 0, 0, -5}};
    return info;
}

static void test_static_and_sun(void)
{
    gn_scene_info info = gn_box_scene();
    gn_bench_walker w;
    gn_frame_desc f;
    gn_bench_walker_start(&w, GN_PATH_STATIC, &info, 100);
    for (int i = 0; i < 100; i++) {
        gn_bench_walker_next(&w, &f);
        GN_CHECK(f.camera.fov_y > 0.0f && f.time_of_day == GN_BENCH_STATIC_TIME);
        GN_CHECK(f.camera.position[0] == 0 && f.camera.position[2] == 0 && f.camera.yaw == 0);
        GN_CHECK(f.camera.pitch == -5);
        GN_CHECK_NEAR(f.seconds, i / 60.0, 1e-9);
    }
    gn_bench_walker_start(&w, GN_PATH_SUN, &info, 101);
    float prev = -1;
    for (int i = 0; i < 101; i++) {
        gn_bench_walker_next(&w, &f);
        /* a day at 20x real time, 60 frames a second: 1/3 s of the day a frame */
        if (i == 0) GN_CHECK_NEAR(f.time_of_day, GN_BENCH_SUN_START, 1e-5);
        if (i == 100) GN_CHECK_NEAR(f.time_of_day, GN_BENCH_SUN_START + 100.0 / 60.0 * 20.0 / 3600.0, 1e-5);
        GN_CHECK(f.time_of_day > prev);
        GN_CHECK(f.camera.position[0] == 0 && f.camera.yaw == 0); /* the camera stays put */
        prev = f.time_of_day;
    }
}

static void test_walk(void)
{
    gn_scene_info info = gn_box_scene();
    gn_bench_walker w;
    gn_frame_desc f, prev;
    gn_bench_walker_start(&w, GN_PATH_WALK, &info, 30000);
    gn_bench_walker_next(&w, &prev);
    GN_CHECK(prev.time_of_day == GN_BENCH_STATIC_TIME);
    bool inside = true, steady = true, gentle = true;
    for (int i = 1; i < 30000; i++) { /* over 8 minutes: many turns at the edges */
        gn_bench_walker_next(&w, &f);
        float dx = f.camera.position[0] - prev.camera.position[0],
              dz = f.camera.position[2] - prev.camera.position[2];
        float step = sqrtf(dx * dx + dz * dz);
        steady = steady && fabsf(step - GN_BENCH_WALK_SPEED * (float)GN_BENCH_DT) < 1e-3f;
        gentle = gentle && fabsf(f.camera.yaw - prev.camera.yaw) < 1.5f; /* degrees a frame */
        inside = inside && fabsf(f.camera.position[0]) <= 100 && fabsf(f.camera.position[2]) <= 100;
        GN_CHECK(f.camera.position[1] == 2 && f.camera.pitch == -5);
        prev = f;
    }
    GN_CHECK(steady && gentle && inside);

    /* A default camera outside the scene, facing away (+X), turns back and enters it. */
    info.default_camera[0] = 300;
    info.default_camera[3] = -90;
    gn_bench_walker_start(&w, GN_PATH_WALK_SUN, &info, 3600);
    bool entered = false;
    for (int i = 0; i < 3600; i++) {
        gn_bench_walker_next(&w, &f);
        entered = entered || (fabsf(f.camera.position[0]) < 80 && fabsf(f.camera.position[2]) < 80);
    }
    GN_CHECK(entered);
    GN_CHECK_NEAR(f.time_of_day, GN_BENCH_SUN_START + 3599.0 / 60.0 * 20.0 / 3600.0, 1e-4);
}

int main(void)
{
    test_collect();
    test_percentiles();
    test_static_and_sun();
    test_walk();
    return gn_test_result("cli_bench");
}

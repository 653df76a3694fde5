/*
 * kinetic_test_engine.c: the kn_engine_* part of the C test (see kinetic_test.c): lanes,
 * runs with each timing kind through the whole UIViewAnimating state machine, events, the
 * illegal calls (KN_ERR_ILLEGAL_STATE with UIKit's reason, nothing changed), stale and
 * foreign runs, bad times; values against the curves and springs they are built from.
 */
#include "kinetic_test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static kn_timing linear_timing(void) {
    kn_timing t;
    memset(&t, 0, sizeof t);
    t.kind = KN_TIMING_LINEAR;
    return t;
}

static kn_timing cubic_timing(double x1, double y1, double x2, double y2) {
    kn_timing t = linear_timing();
    t.kind = KN_TIMING_CUBIC;
    t.x1 = x1;
    t.y1 = y1;
    t.x2 = x2;
    t.y2 = y2;
    return t;
}

static double lane(kn_engine *engine, int64_t index) {
    double v = NAN;
    OK(kn_engine_read(engine, index, 1, &v));
    return v;
}

static double model(kn_engine *engine, int64_t index) {
    double v = NAN;
    OK(kn_engine_read_model(engine, index, 1, &v));
    return v;
}

/* Takes every queued event into `events` (at most `capacity`); returns how many. */
static int drain(kn_engine *engine, kn_event *events, int capacity) {
    int n = 0;
    int32_t has = 1;
    while (has) {
        kn_event e;
        OK(kn_engine_next_event(engine, &e, &has));
        if (has && n < capacity) events[n++] = e;
    }
    return n;
}

static kn_run_info info(kn_engine *engine, kn_run run) {
    kn_run_info i;
    memset(&i, 0, sizeof i);
    OK(kn_engine_run_info(engine, run, &i));
    return i;
}

/* A refused call changes nothing: the lanes, models, time and the run's state are as before. */
static void expect_unchanged(kn_engine *engine, kn_run run, const double *lanes_before, const double *models_before,
                             int64_t count, kn_run_info before) {
    double lanes_after[8], models_after[8];
    OK(kn_engine_read(engine, 0, count, lanes_after));
    OK(kn_engine_read_model(engine, 0, count, models_after));
    for (int64_t i = 0; i < count; i++) {
        CHECK(same_bits(lanes_before[i], lanes_after[i]));
        CHECK(same_bits(models_before[i], models_after[i]));
    }
    kn_run_info after = info(engine, run);
    CHECK(after.state == before.state && after.running == before.running && after.reversed == before.reversed);
    CHECK(same_bits(after.fraction_complete, before.fraction_complete));
}

static void test_engine_basics(void) {
    kn_engine *engine = NULL, *other = NULL;
    OK(kn_engine_create(&engine));
    OK(kn_engine_create(&other));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_engine_create(NULL));

    const double values[3] = {0, 10, -4};
    int64_t first = -1, count = -1;
    OK(kn_engine_add_lanes(engine, values, 3, &first));
    CHECK(first == 0);
    OK(kn_engine_lane_count(engine, &count));
    CHECK(count == 3);
    const double bad[2] = {1, NAN};
    EXPECT(KN_ERR_NOT_FINITE, kn_engine_add_lanes(engine, bad, 2, &first));
    CHECK(error_mentions("values[1]"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_add_lanes(engine, values, -1, &first));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_engine_add_lanes(engine, NULL, 3, &first));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_add_lanes(engine, values, 70000, &first));
    OK(kn_engine_lane_count(engine, &count));
    CHECK(count == 3);

    double out[3];
    OK(kn_engine_read(engine, 0, 3, out));
    CHECK(out[0] == 0 && out[1] == 10 && out[2] == -4);
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_read(engine, 2, 2, out));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_read(engine, -1, 1, out));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_set_model(engine, 3, 1));
    EXPECT(KN_ERR_NOT_FINITE, kn_engine_set_model(engine, 0, INFINITY));

    /* Linear run over lanes 0 and 2; values are from + (to − from) · (t − start) / length. */
    kn_timing t = linear_timing();
    kn_run run = 0;
    OK(kn_engine_run_create(engine, &t, 2, &run));
    CHECK(run != 0);
    const int64_t lanes[2] = {0, 2};
    const double targets[2] = {100, 4};
    OK(kn_engine_run_add_animations(engine, run, lanes, targets, NULL, 2, 0));
    kn_run_info i = info(engine, run);
    CHECK(i.state == KN_RUN_INACTIVE && !i.running && i.interruptible && i.scrubs_linearly && !i.pauses_on_completion);
    CHECK(model(engine, 0) == 0); /* kept until the start */
    OK(kn_engine_set_model(engine, 0, 20)); /* moved before the start: the animation starts there */
    OK(kn_engine_run_start(engine, run));
    CHECK(model(engine, 0) == 100 && model(engine, 2) == 4);
    OK(kn_engine_advance_to(engine, 0.5));
    CHECK(same_bits(lane(engine, 0), 20 + (100.0 - 20) * (0.5 / 2)));
    CHECK(same_bits(lane(engine, 2), -4 + (4.0 + 4) * (0.5 / 2)));
    CHECK(lane(engine, 1) == 10);
    i = info(engine, run);
    CHECK(i.state == KN_RUN_ACTIVE && i.running && i.fraction_complete == 0.25);

    /* Time checks. */
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_advance_to(engine, 0.25));
    CHECK(error_mentions("time cannot go back"));
    EXPECT(KN_ERR_NOT_FINITE, kn_engine_advance_to(engine, NAN));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_advance_by(engine, -1));
    double now = -1;
    OK(kn_engine_time(engine, &now));
    CHECK(now == 0.5);

    /* Stale and foreign runs. */
    EXPECT(KN_ERR_STALE_HANDLE, kn_engine_run_start(other, run));
    EXPECT(KN_ERR_STALE_HANDLE, kn_engine_run_start(engine, 0));
    EXPECT(KN_ERR_STALE_HANDLE, kn_engine_run_info(engine, run + 1000, &i));

    /* Runs to the end: one event, the lanes exactly at their targets. */
    OK(kn_engine_advance_by(engine, 1.5));
    kn_event events[4];
    int n = drain(engine, events, 4);
    CHECK(n == 1 && events[0].run == run && events[0].kind == KN_EVENT_FINISHED && events[0].position == KN_POSITION_END);
    CHECK(lane(engine, 0) == 100 && lane(engine, 2) == 4);
    i = info(engine, run);
    CHECK(i.state == KN_RUN_INACTIVE && !i.running && i.fraction_complete == 0);

    /* A released run's id is stale. */
    OK(kn_engine_run_release(engine, run));
    EXPECT(KN_ERR_STALE_HANDLE, kn_engine_run_start(engine, run));
    EXPECT(KN_ERR_STALE_HANDLE, kn_engine_run_release(engine, run));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_engine_run_create(NULL, &t, 1, &run));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_engine_run_create(engine, NULL, 1, &run));
    t.kind = 7;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_run_create(engine, &t, 1, &run));
    CHECK(error_mentions("timing kind = 7"));
    kn_timing c = cubic_timing(1.5, 0, 1, 1);
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_run_create(engine, &c, 1, &run));
    CHECK(error_mentions("x1 = 1.5"));
    t = linear_timing();
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_run_create(engine, &t, -1, &run));
    t.kind = KN_TIMING_DAMPED_SPRING;
    t.damping_ratio = 0;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_run_create(engine, &t, 1, &run));
    CHECK(error_mentions("damping_ratio"));
    kn_engine_destroy(engine);
    kn_engine_destroy(other);
    kn_engine_destroy(NULL);
}

/* Every illegal call: KN_ERR_ILLEGAL_STATE with UIKit's reason, and nothing changes. */
static void test_engine_illegal_calls(void) {
    kn_engine *engine = NULL;
    OK(kn_engine_create(&engine));
    const double values[2] = {0, 1};
    int64_t first = 0;
    OK(kn_engine_add_lanes(engine, values, 2, &first));
    kn_timing t = cubic_timing(0.42, 0, 0.58, 1);
    kn_run run = 0;
    OK(kn_engine_run_create(engine, &t, 1, &run));
    double lanes_before[2], models_before[2];
    kn_run_info before;

#define REFUSED(call, reason)                                                          \
    do {                                                                               \
        OK(kn_engine_read(engine, 0, 2, lanes_before));                              \
        OK(kn_engine_read_model(engine, 0, 2, models_before));                        \
        before = info(engine, run);                                                    \
        EXPECT(KN_ERR_ILLEGAL_STATE, call);                                            \
        CHECK(error_mentions(reason));                                                 \
        expect_unchanged(engine, run, lanes_before, models_before, 2, before);        \
    } while (0)

    REFUSED(kn_engine_run_stop(engine, run, 1), "must be in the active state before being stopped");
    REFUSED(kn_engine_run_finish(engine, run, KN_POSITION_END), "should only be called on a stopped animator");
    REFUSED(kn_engine_run_continue(engine, run, NULL, 0), "must be paused (it is inactive)");
    const int64_t lanes[1] = {0};
    const double targets[1] = {50};
    OK(kn_engine_run_add_animations(engine, run, lanes, targets, NULL, 1, 0));
    OK(kn_engine_run_start(engine, run));
    OK(kn_engine_advance_to(engine, 0.25));
    REFUSED(kn_engine_run_finish(engine, run, KN_POSITION_END), "(it is active)");
    REFUSED(kn_engine_run_continue(engine, run, NULL, 0), "must be paused (it is active, running)");
    REFUSED(kn_engine_run_set_interruptible(engine, run, 0), "may only be set on an inactive animator");
    REFUSED(kn_engine_run_configure(engine, run, 1, 0, 0), "may only be set on an inactive animator");
    OK(kn_engine_run_pause(engine, run));
    REFUSED(kn_engine_run_start_after_delay(engine, run, 1), "cannot start a paused animator after a delay");
    OK(kn_engine_run_stop(engine, run, 0));
    REFUSED(kn_engine_run_stop(engine, run, 0), "already stopped");
    REFUSED(kn_engine_run_start(engine, run), "to start a stopped animator");
    REFUSED(kn_engine_run_pause(engine, run), "to pause a stopped animator");
    REFUSED(kn_engine_run_add_animations(engine, run, lanes, targets, NULL, 1, 0), "add animations to a stopped animator");
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_run_finish(engine, run, 3));
    /* Reversing a stopped run is ignored (KN_OK): the flag stays, and the next start goes forward. */
    kn_run_info stopped_info;
    OK(kn_engine_run_set_reversed(engine, run, 1));
    OK(kn_engine_run_info(engine, run, &stopped_info));
    CHECK(stopped_info.state == KN_RUN_STOPPED && stopped_info.reversed == 0);
    OK(kn_engine_run_finish(engine, run, KN_POSITION_START));
    CHECK(model(engine, 0) == 0 && lane(engine, 0) == 0);
    OK(kn_engine_run_info(engine, run, &stopped_info));
    CHECK(stopped_info.state == KN_RUN_INACTIVE && stopped_info.reversed == 0);

    /* Not interruptible. */
    OK(kn_engine_run_set_interruptible(engine, run, 0));
    OK(kn_engine_run_add_animations(engine, run, lanes, targets, NULL, 1, 0));
    OK(kn_engine_run_start(engine, run));
    OK(kn_engine_advance_by(engine, 0.5));
    REFUSED(kn_engine_run_pause(engine, run), "pauseAnimation: the animator is not interruptible");
    REFUSED(kn_engine_run_stop(engine, run, 1), "stopAnimation: the animator is not interruptible");
    REFUSED(kn_engine_run_set_reversed(engine, run, 1), "isReversed: the animator is not interruptible");
#undef REFUSED

    /* Bad arguments are refused the same way (other statuses). */
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_run_set_fraction(engine, run, 1.5));
    const int64_t twice[2] = {1, 1};
    const double two[2] = {1, 2};
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_run_add_animations(engine, run, twice, two, NULL, 2, 0));
    CHECK(error_mentions("appears twice"));
    const int64_t outside[1] = {2};
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_run_add_animations(engine, run, outside, targets, NULL, 1, 0));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_run_add_animations(engine, run, lanes, targets, NULL, 1, 2));
    kn_engine_destroy(engine);
}

/* Reverse, scrub, continue with a spring, pauses_on_completion, delays, repeat/autoreverse. */
static void test_engine_state_machine(void) {
    kn_engine *engine = NULL;
    OK(kn_engine_create(&engine));
    const double values[2] = {0, 0};
    int64_t first = 0;
    OK(kn_engine_add_lanes(engine, values, 2, &first));
    kn_bezier *ease_in = NULL;
    OK(kn_bezier_create(0.42, 0, 1, 1, &ease_in));
    kn_timing t = cubic_timing(0.42, 0, 1, 1);
    kn_run run = 0;
    OK(kn_engine_run_create(engine, &t, 2, &run));
    const int64_t lanes[2] = {0, 1};
    const double targets[2] = {10, -10};
    const int32_t vertical[2] = {0, 1};
    OK(kn_engine_run_add_animations(engine, run, lanes, targets, vertical, 2, 0));
    OK(kn_engine_run_start(engine, run));
    OK(kn_engine_advance_to(engine, 0.5));
    double y = 0;
    OK(kn_bezier_value(ease_in, 0.25, &y));
    CHECK(same_bits(lane(engine, 0), 0 + 10 * y));

    /* Reversed while running: back along the same curve, ending at .start exactly. */
    OK(kn_engine_run_set_reversed(engine, run, 1));
    OK(kn_engine_advance_to(engine, 0.75));
    OK(kn_bezier_value(ease_in, 0.125, &y));
    CHECK(same_bits(lane(engine, 0), 0 + 10 * y));
    OK(kn_engine_advance_to(engine, 1));
    kn_event events[4];
    int n = drain(engine, events, 4);
    CHECK(n == 1 && events[0].kind == KN_EVENT_FINISHED && events[0].position == KN_POSITION_START);
    CHECK(lane(engine, 0) == 0 && model(engine, 0) == 0 && lane(engine, 1) == 0);

    /* Scrub a paused run linearly, then continue with a damped spring over half the duration. */
    OK(kn_engine_run_set_reversed(engine, run, 0));
    OK(kn_engine_run_add_animations(engine, run, lanes, targets, vertical, 2, 0));
    OK(kn_engine_run_set_fraction(engine, run, 0.4));
    kn_run_info i = info(engine, run);
    CHECK(i.state == KN_RUN_ACTIVE && !i.running && i.fraction_complete == 0.4);
    CHECK(same_bits(lane(engine, 0), 10 * 0.4));
    kn_timing spring = linear_timing();
    spring.kind = KN_TIMING_DAMPED_SPRING;
    spring.damping_ratio = 0.7;
    spring.velocity_x = 2;
    spring.velocity_y = -1;
    OK(kn_engine_run_continue(engine, run, &spring, 0.5));
    kn_spring *unit = NULL;
    OK(kn_spring_create_settling(1, 0.7, 0.001, &unit));
    OK(kn_engine_advance_by(engine, 0.25));
    double px = 0, py = 0;
    OK(kn_spring_value(unit, 0.25, 2 * 1.0, &px)); /* velocity × the leg's length (1 s) */
    OK(kn_spring_value(unit, 0.25, -1 * 1.0, &py));
    CHECK(fabs(lane(engine, 0) - (4 + 6 * px)) < 1e-12);
    CHECK(fabs(lane(engine, 1) - (-4 + -6 * py)) < 1e-12);
    OK(kn_engine_advance_by(engine, 0.75));
    n = drain(engine, events, 4);
    CHECK(n == 1 && events[0].position == KN_POSITION_END);
    CHECK(lane(engine, 0) == 10 && lane(engine, 1) == -10);

    /* pauses_on_completion: the run stays active at its end, no finished event. */
    OK(kn_engine_run_set_pauses_on_completion(engine, run, 1));
    const double back[2] = {0, 0};
    OK(kn_engine_run_add_animations(engine, run, lanes, back, NULL, 2, 0));
    OK(kn_engine_run_start_after_delay(engine, run, 0.5));
    OK(kn_engine_advance_by(engine, 0.5));
    CHECK(lane(engine, 0) == 10); /* still waiting for its delay */
    OK(kn_engine_advance_by(engine, 2));
    n = drain(engine, events, 4);
    CHECK(n == 1 && events[0].kind == KN_EVENT_PAUSED_AT_END && events[0].run == run);
    i = info(engine, run);
    CHECK(i.state == KN_RUN_ACTIVE && !i.running && i.fraction_complete == 1 && i.pauses_on_completion);
    CHECK(lane(engine, 0) == 0);
    OK(kn_engine_run_stop(engine, run, 1));
    CHECK(info(engine, run).state == KN_RUN_INACTIVE);

    /* Repeat with autoreverse: still running after many cycles, between the two values. */
    kn_run repeating = 0;
    kn_timing lin = linear_timing();
    OK(kn_engine_run_create(engine, &lin, 0.5, &repeating));
    OK(kn_engine_run_configure(engine, repeating, 1, 1, 0));
    const double to[1] = {1};
    OK(kn_engine_run_add_animations(engine, repeating, lanes, to, NULL, 1, 0));
    OK(kn_engine_run_start(engine, repeating));
    double start = 0;
    OK(kn_engine_time(engine, &start));
    OK(kn_engine_advance_to(engine, start + 10.25));
    CHECK(info(engine, repeating).running);
    CHECK(same_bits(lane(engine, 0), 0.5));
    OK(kn_engine_advance_to(engine, start + 10.5)); /* leg 21 starts back from the end */
    CHECK(lane(engine, 0) == 1);
    OK(kn_engine_run_release(engine, repeating)); /* its animation ends where it is */
    CHECK(lane(engine, 0) == 1 && model(engine, 0) == 1);

    /* A finite repeat count: 1.5 cycles of 0.5 s forward and back end at 1.5 s, at the end value. */
    kn_run counted = 0;
    OK(kn_engine_run_create(engine, &lin, 0.5, &counted));
    OK(kn_engine_run_configure(engine, counted, 1, 1, 0));
    EXPECT(KN_ERR_NOT_FINITE, kn_engine_run_set_repeat_count(engine, counted, NAN));
    OK(kn_engine_run_set_repeat_count(engine, counted, 1.5));
    const double three[1] = {3};
    OK(kn_engine_run_add_animations(engine, counted, lanes, three, NULL, 1, 0));
    OK(kn_engine_run_start(engine, counted));
    EXPECT(KN_ERR_ILLEGAL_STATE, kn_engine_run_set_repeat_count(engine, counted, 2));
    OK(kn_engine_time(engine, &start));
    OK(kn_engine_advance_to(engine, start + 1.25)); /* a quarter into the second cycle: forward */
    CHECK(same_bits(lane(engine, 0), 1 + 2 * 0.5));
    n = drain(engine, events, 4);
    CHECK(n == 0);
    OK(kn_engine_advance_to(engine, start + 1.5));
    n = drain(engine, events, 4);
    CHECK(n == 1 && events[0].run == counted && events[0].kind == KN_EVENT_FINISHED && events[0].position == KN_POSITION_END);
    CHECK(lane(engine, 0) == 3);

    kn_spring_destroy(unit);
    kn_bezier_destroy(ease_in);
    kn_engine_destroy(engine);
}

/* Two runs on one lane add up; each ends exactly at the model value; events come in the
 * order the runs were started. */
static void test_engine_additive(void) {
    kn_engine *engine = NULL;
    OK(kn_engine_create(&engine));
    const double values[1] = {0};
    int64_t first = 0;
    OK(kn_engine_add_lanes(engine, values, 1, &first));
    kn_timing t = linear_timing();
    kn_run a = 0, b = 0;
    OK(kn_engine_run_create(engine, &t, 1, &a));
    OK(kn_engine_run_create(engine, &t, 0.5, &b));
    const int64_t lanes[1] = {0};
    const double ta[1] = {10}, tb[1] = {30};
    OK(kn_engine_run_add_animations(engine, a, lanes, ta, NULL, 1, 0));
    OK(kn_engine_run_start(engine, a));
    OK(kn_engine_advance_to(engine, 0.5));
    OK(kn_engine_run_add_animations(engine, b, lanes, tb, NULL, 1, 0));
    OK(kn_engine_run_start(engine, b));
    OK(kn_engine_advance_to(engine, 0.75));
    /* 0 + 10·0.75 + (30 − 10)·0.5 */
    CHECK(same_bits(lane(engine, 0), 0 + 10 * 0.75 + 20 * 0.5));
    OK(kn_engine_advance_to(engine, 1));
    kn_event events[4];
    int n = drain(engine, events, 4);
    CHECK(n == 2 && events[0].run == a && events[1].run == b);
    CHECK(lane(engine, 0) == 30 && model(engine, 0) == 30);
    kn_engine_destroy(engine);
}

/* Keyframe animations: paced motion along the polyline, a cubic spline through its keys,
 * additive with another run, kept while inactive, and each bad call refused with nothing
 * changed. */
static void test_engine_keyframes(void) {
    kn_engine *engine = NULL;
    OK(kn_engine_create(&engine));
    const double start[2] = {0, 0};
    int64_t first = 0;
    OK(kn_engine_add_lanes(engine, start, 2, &first));
    kn_timing t = linear_timing();
    kn_run run = 0;
    OK(kn_engine_run_create(engine, &t, 1, &run));
    const int64_t lanes[2] = {0, 1};
    /* Paced through (300, 0), (300, 100), (100, 100): lengths 300, 100, 200. The key times
     * are ignored. */
    const double keys[6] = {300, 0, 300, 100, 100, 100};
    const double odd_times[3] = {0.1, 0.2, 0.3};
    OK(kn_engine_run_add_keyframes(engine, run, lanes, 2, keys, odd_times, 3, KN_CALCULATION_PACED));
    CHECK(model(engine, 0) == 0 && info(engine, run).state == KN_RUN_INACTIVE); /* kept until the start */
    OK(kn_engine_run_start(engine, run));
    CHECK(model(engine, 0) == 100 && model(engine, 1) == 100);
    const double times[4] = {0.25, 0.5, 7.0 / 12, 0.75};
    const double xs[4] = {150, 300, 300, 250}, ys[4] = {0, 0, 50, 100};
    for (int i = 0; i < 4; i++) {
        OK(kn_engine_advance_to(engine, times[i]));
        CHECK(fabs(lane(engine, 0) - xs[i]) < 1e-9 && fabs(lane(engine, 1) - ys[i]) < 1e-9);
    }
    OK(kn_engine_advance_to(engine, 1));
    kn_event events[4];
    CHECK(drain(engine, events, 4) == 1 && events[0].run == run && events[0].position == KN_POSITION_END);
    CHECK(lane(engine, 0) == 100 && lane(engine, 1) == 100);

    /* Cubic through (0, 0), (0.5, 10), (1, 0): Catmull-Rom tangents 10, 0, −10; at 0.25 the
     * Hermite basis gives 0.125·10 + 0.5·10 = 6.25. Added to a linear run on the same lane
     * (0 → 40 over 2 s, from 1 s): additive. */
    kn_run other = 0, cubic = 0;
    OK(kn_engine_set_model(engine, 0, 0));
    OK(kn_engine_run_create(engine, &t, 2, &other));
    const int64_t lane0[1] = {0};
    const double forty[1] = {40};
    OK(kn_engine_run_add_animations(engine, other, lane0, forty, NULL, 1, 0));
    OK(kn_engine_run_start(engine, other));
    OK(kn_engine_run_create(engine, &t, 1, &cubic));
    const double cubic_keys[2] = {50, 40};
    const double cubic_times[2] = {0.5, 1};
    OK(kn_engine_run_add_keyframes(engine, cubic, lane0, 1, cubic_keys, cubic_times, 2, KN_CALCULATION_CUBIC));
    OK(kn_engine_run_start(engine, cubic));
    CHECK(model(engine, 0) == 40);
    OK(kn_engine_advance_to(engine, 1.25));
    /* other: 40·0.125 = 5; cubic from 40 through 50 to 40: 40 + 6.25 (its values 40 above 0). */
    CHECK(fabs(lane(engine, 0) - (5 + 6.25)) < 1e-9);
    OK(kn_engine_advance_to(engine, 1.5));
    CHECK(fabs(lane(engine, 0) - (10 + 10)) < 1e-9);

    /* Bad calls change nothing. */
    double lanes_before[2], models_before[2];
    kn_run fresh = 0;
    OK(kn_engine_run_create(engine, &t, 1, &fresh));
    kn_run_info before = info(engine, fresh);
    const double nan_keys[2] = {1, NAN};
    const double back_times[2] = {0.6, 0.2};
    const double two_keys[2] = {1, 2};
    const int64_t bad_lane[1] = {2}, twice[2] = {0, 0};
#define KEYFRAMES_REFUSED(status, call, mention)                                       \
    do {                                                                               \
        OK(kn_engine_read(engine, 0, 2, lanes_before));                              \
        OK(kn_engine_read_model(engine, 0, 2, models_before));                        \
        EXPECT(status, call);                                                          \
        CHECK(error_mentions(mention));                                                \
        expect_unchanged(engine, fresh, lanes_before, models_before, 2, before);      \
    } while (0)
    KEYFRAMES_REFUSED(KN_ERR_OUT_OF_RANGE,
                      kn_engine_run_add_keyframes(engine, fresh, lane0, 1, two_keys, NULL, 2, 5), "calculation_mode = 5");
    KEYFRAMES_REFUSED(KN_ERR_NOT_FINITE,
                      kn_engine_run_add_keyframes(engine, fresh, lane0, 1, nan_keys, NULL, 2, 0), "values[1]");
    KEYFRAMES_REFUSED(KN_ERR_OUT_OF_RANGE,
                      kn_engine_run_add_keyframes(engine, fresh, lane0, 1, two_keys, back_times, 2, 3), "key_times[1]");
    KEYFRAMES_REFUSED(KN_ERR_OUT_OF_RANGE,
                      kn_engine_run_add_keyframes(engine, fresh, bad_lane, 1, two_keys, NULL, 2, 0), "lanes[0] = 2");
    KEYFRAMES_REFUSED(KN_ERR_OUT_OF_RANGE,
                      kn_engine_run_add_keyframes(engine, fresh, twice, 2, keys, NULL, 2, 0), "appears twice");
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_engine_run_add_keyframes(engine, fresh, lane0, 1, NULL, NULL, 2, 0));
    OK(kn_engine_run_start(engine, fresh));
    OK(kn_engine_run_stop(engine, fresh, 0));
    before = info(engine, fresh);
    KEYFRAMES_REFUSED(KN_ERR_ILLEGAL_STATE,
                      kn_engine_run_add_keyframes(engine, fresh, lane0, 1, two_keys, NULL, 2, 0), "stopped");
#undef KEYFRAMES_REFUSED
    kn_engine_destroy(engine);
}

/* Lane velocities: span / duration for a linear run, 0 paused, a spring continuation that
 * starts at its initial velocity times the distance left (UIKit's hand-off of a gesture),
 * and the central difference of the values. */
static void test_engine_velocity(void) {
    kn_engine *engine = NULL;
    OK(kn_engine_create(&engine));
    const double values[3] = {0, 100, 7};
    int64_t first = -1;
    OK(kn_engine_add_lanes(engine, values, 3, &first));
    double v[3] = {NAN, NAN, NAN};
    OK(kn_engine_read_velocity(engine, 0, 3, v));
    CHECK(v[0] == 0 && v[1] == 0 && v[2] == 0); /* nothing animates them */

    kn_timing t = linear_timing();
    kn_run run = 0;
    OK(kn_engine_run_create(engine, &t, 2, &run));
    const int64_t lanes[2] = {0, 1};
    const double targets[2] = {100, 40};
    OK(kn_engine_run_add_animations(engine, run, lanes, targets, NULL, 2, 0));
    OK(kn_engine_run_start(engine, run));
    OK(kn_engine_advance_to(engine, 0.5));
    OK(kn_engine_read_velocity(engine, 0, 3, v));
    CHECK(v[0] == 50 && v[1] == -30 && v[2] == 0);

    /* Paused at 40 %: still. Continued with a damped spring of initial velocity 2 (of the
     * distance left, per second): lane 0 has 60 left, so it moves at 120 at once. */
    OK(kn_engine_run_pause(engine, run));
    OK(kn_engine_run_set_fraction(engine, run, 0.4));
    OK(kn_engine_read_velocity(engine, 0, 1, v));
    CHECK(v[0] == 0);
    kn_timing spring = linear_timing();
    spring.kind = KN_TIMING_DAMPED_SPRING;
    spring.damping_ratio = 0.8;
    spring.velocity_x = 2;
    spring.velocity_y = 2;
    OK(kn_engine_run_continue(engine, run, &spring, 1));
    OK(kn_engine_read_velocity(engine, 0, 2, v));
    CHECK(fabs(v[0] - 120) <= 1e-12 * 120);
    CHECK(fabs(v[1] - 2 * -36.0) <= 1e-12 * 72);

    /* Central difference of the presentation values a little later agrees. */
    OK(kn_engine_advance_to(engine, 0.6));
    double later[2], earlier[2];
    OK(kn_engine_read_velocity(engine, 0, 1, v));
    OK(kn_engine_advance_to(engine, 0.6 + 1e-6));
    OK(kn_engine_read(engine, 0, 1, later));
    kn_engine *twin = NULL; /* the same history, read 1e-6 s before 0.6 */
    OK(kn_engine_create(&twin));
    OK(kn_engine_add_lanes(twin, values, 3, &first));
    kn_run twin_run = 0;
    OK(kn_engine_run_create(twin, &t, 2, &twin_run));
    OK(kn_engine_run_add_animations(twin, twin_run, lanes, targets, NULL, 2, 0));
    OK(kn_engine_run_start(twin, twin_run));
    OK(kn_engine_advance_to(twin, 0.5));
    OK(kn_engine_run_pause(twin, twin_run));
    OK(kn_engine_run_set_fraction(twin, twin_run, 0.4));
    OK(kn_engine_run_continue(twin, twin_run, &spring, 1));
    OK(kn_engine_advance_to(twin, 0.6 - 1e-6));
    OK(kn_engine_read(twin, 0, 1, earlier));
    CHECK(fabs((later[0] - earlier[0]) / 2e-6 - v[0]) <= 1e-4 * fabs(v[0]));
    kn_engine_destroy(twin);

    /* Errors: as kn_engine_read. */
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_read_velocity(engine, 2, 2, v));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_read_velocity(engine, -1, 1, v));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_engine_read_velocity(engine, 0, 1, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_engine_read_velocity(NULL, 0, 1, v));
    OK(kn_engine_read_velocity(engine, 3, 0, NULL)); /* nothing to read */
    kn_engine_destroy(engine);
}

/* Runs made one after another, created and started in a row with cubic timings that repeat
 * and alternate, and one released in between (the calls after it refuse its id): each
 * lane follows its own run's curve. */
static void test_engine_runs_in_a_row(void) {
    kn_engine *engine = NULL;
    OK(kn_engine_create(&engine));
    double start[6] = {0, 0, 0, 0, 0, 0};
    int64_t first = -1;
    OK(kn_engine_add_lanes(engine, start, 6, &first));
    const double curves[6][4] = {{0.42, 0, 0.58, 1}, {0.42, 0, 0.58, 1}, {0.1, 0.7, 0.3, 1},
                                 {0.42, 0, 0.58, 1}, {0.1, 0.7, 0.3, 1.0000001}, {0.1, 0.7, 0.3, 1}};
    kn_run runs[6];
    for (int k = 0; k < 6; k++) {
        kn_timing t = cubic_timing(curves[k][0], curves[k][1], curves[k][2], curves[k][3]);
        OK(kn_engine_run_create(engine, &t, 1, &runs[k]));
        int64_t lanes = first + k;
        double target = 1;
        OK(kn_engine_run_add_animations(engine, runs[k], &lanes, &target, NULL, 1, 0));
        if (k == 3) {
            OK(kn_engine_run_release(engine, runs[k]));
            EXPECT(KN_ERR_STALE_HANDLE, kn_engine_run_start(engine, runs[k]));
            continue;
        }
        OK(kn_engine_run_start(engine, runs[k]));
    }
    OK(kn_engine_advance_to(engine, 0.3));
    for (int k = 0; k < 6; k++) {
        if (k == 3) {
            CHECK(lane(engine, first + k) == 0);
            continue;
        }
        kn_bezier *b = NULL;
        OK(kn_bezier_create(curves[k][0], curves[k][1], curves[k][2], curves[k][3], &b));
        double expected = NAN;
        OK(kn_bezier_value(b, 0.3, &expected));
        CHECK(same_bits(lane(engine, first + k), expected));
        kn_bezier_destroy(b);
    }
    kn_engine_destroy(engine);
}

/* A run ends when the engine's time is within 1 ns of its end time, not before. */
static void test_engine_end_tolerance(void) {
    kn_engine *engine = NULL;
    OK(kn_engine_create(&engine));
    const double values[1] = {0};
    int64_t first = -1;
    OK(kn_engine_add_lanes(engine, values, 1, &first));
    kn_timing linear;
    memset(&linear, 0, sizeof linear);
    linear.kind = KN_TIMING_LINEAR;
    kn_run run = 0;
    OK(kn_engine_run_create(engine, &linear, 1, &run));
    const int64_t lanes[1] = {0};
    const double targets[1] = {1};
    OK(kn_engine_run_add_animations(engine, run, lanes, targets, NULL, 1, 0));
    OK(kn_engine_run_start(engine, run));
    kn_event event;
    int32_t has = 1;
    OK(kn_engine_advance_to(engine, 1 - 2e-9));
    OK(kn_engine_next_event(engine, &event, &has));
    CHECK(has == 0 && lane(engine, 0) < 1);
    OK(kn_engine_advance_to(engine, 1 - 0.5e-9));
    OK(kn_engine_next_event(engine, &event, &has));
    CHECK(has == 1 && event.run == run && event.kind == KN_EVENT_FINISHED && lane(engine, 0) == 1);
    kn_engine_destroy(engine);
}

void test_engine(void) {
    test_engine_end_tolerance();
    test_engine_basics();
    test_engine_illegal_calls();
    test_engine_state_machine();
    test_engine_additive();
    test_engine_keyframes();
    test_engine_velocity();
    test_engine_runs_in_a_row();
}

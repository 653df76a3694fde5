/*
 * kinetic_test_store.c: the kn_store_* part of the C test (see kinetic_test.c): every call,
 * its error paths (NULL, NaN, bad counts, stale and foreign entries, wrong kinds, small
 * buffers), and values against the curves and springs they are built from.
 */
#include "kinetic_test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- batch store */

void test_store(void) {
    kn_store *store = NULL, *other = NULL;
    OK(kn_store_create(&store));
    OK(kn_store_create(&other));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_create(NULL));

    /* A shared-progress group. */
    const double from[3] = {0, 10, -4}, to[3] = {100, 20, 4};
    kn_entry group = KN_ENTRY_NONE;
    OK(kn_store_add_group(store, from, to, 3, 0.25, &group));
    CHECK(group != KN_ENTRY_NONE);

    /* Per-lane progress. */
    const double lane_progress[2] = {0.5, 1};
    kn_entry lanes = KN_ENTRY_NONE;
    OK(kn_store_add_lanes(store, from, to, lane_progress, 2, &lanes));

    /* Keyframes: 2 tracks, 3 keys, segment 0 eased (ease), segment 1 hold. */
    kn_bezier *ease = NULL;
    OK(kn_bezier_create_preset(KN_BEZIER_EASE, &ease));
    const double key_times[3] = {0, 0.5, 1};
    const double key_values[6] = {0, 10, 20, /* track 1: */ 100, 50, 0};
    const int32_t interpolations[2] = {KN_INTERPOLATION_EASED, KN_INTERPOLATION_HOLD};
    kn_bezier *easings[2] = {ease, NULL};
    kn_entry keys = KN_ENTRY_NONE;
    OK(kn_store_add_keyframes(store, key_times, 3, key_values, 2, interpolations, easings, 0.25, &keys));
    kn_bezier_destroy(ease); /* the store keeps its own copy */
    kn_entry linear_keys = KN_ENTRY_NONE;
    OK(kn_store_add_keyframes(store, key_times, 3, key_values, 1, NULL, NULL, 0.75, &linear_keys));
    const int32_t catmull[2] = {KN_INTERPOLATION_CATMULL_ROM, KN_INTERPOLATION_LINEAR};
    kn_entry catmull_keys = KN_ENTRY_NONE;
    OK(kn_store_add_keyframes(store, key_times, 3, key_values, 2, catmull, NULL, 0.5, &catmull_keys));

    /* Springs. */
    kn_spring *spring = NULL;
    OK(kn_spring_create(1, 100, 10, &spring));
    const double targets[2] = {1, 5}, displacements[2] = {-1, 2}, velocities[2] = {0, 3};
    kn_entry springs = KN_ENTRY_NONE, resting = KN_ENTRY_NONE;
    OK(kn_store_add_springs(store, spring, targets, displacements, velocities, 2, &springs));
    OK(kn_store_add_springs(store, spring, targets, NULL, NULL, 2, &resting));

    int64_t lane_count = 0, entry_count = 0;
    OK(kn_store_counts(store, &lane_count, &entry_count));
    CHECK(lane_count == 3 + 2 + 2 + 1 + 2 + 2 + 2 && entry_count == 7);
    OK(kn_store_counts(store, NULL, NULL));

    const double dt = 1.0 / 60;
    OK(kn_store_tick(store, dt));
    double value = NAN;
    OK(kn_store_value(store, group, 0, &value));
    CHECK(value == 25);
    OK(kn_store_value(store, group, 1, &value));
    CHECK(value == 12.5);
    OK(kn_store_value(store, group, 2, &value));
    CHECK(value == -2);
    OK(kn_store_value(store, lanes, 0, &value));
    CHECK(value == 50);
    OK(kn_store_value(store, lanes, 1, &value));
    CHECK(value == 20);
    /* Eased keyframe segment at progress 0.25: local 0.5 through `ease`. */
    double eased = 0;
    kn_bezier *ease2 = NULL;
    OK(kn_bezier_create_preset(KN_BEZIER_EASE, &ease2));
    OK(kn_bezier_value(ease2, 0.5, &eased));
    kn_bezier_destroy(ease2);
    OK(kn_store_value(store, keys, 0, &value));
    CHECK(fabs(value - 10 * eased) < 1e-12);
    OK(kn_store_value(store, keys, 1, &value));
    CHECK(fabs(value - (100 - 50 * eased)) < 1e-12);
    OK(kn_store_value(store, linear_keys, 0, &value));
    CHECK(fabs(value - 15) < 1e-12);
    OK(kn_store_value(store, catmull_keys, 0, &value));
    CHECK(fabs(value - 10) < 1e-12); /* a Hermite segment passes through its keys */
    /* Springs after one tick: target + one exact Φ step of the displacement. */
    double phi[4];
    OK(kn_spring_transition(spring, dt, phi));
    OK(kn_store_value(store, springs, 0, &value));
    CHECK(fabs(value - (1 + phi[0] * -1 + phi[1] * 0)) < 1e-12);
    OK(kn_store_value(store, springs, 1, &value));
    CHECK(fabs(value - (5 + phi[0] * 2 + phi[1] * 3)) < 1e-12);
    OK(kn_store_value(store, resting, 1, &value));
    CHECK(value == 5);

    /* Ranges and reads. */
    int64_t offset = -1, count = -1;
    OK(kn_store_range(store, group, &offset, &count));
    CHECK(offset == 0 && count == 3);
    OK(kn_store_range(store, lanes, &offset, &count));
    CHECK(offset == 3 && count == 2);
    OK(kn_store_range(store, springs, NULL, &count));
    CHECK(count == 2);
    double all[32];
    OK(kn_store_read_all(store, all, 32, &count));
    CHECK(count == lane_count && all[0] == 25 && all[3] == 50);
    double two[2] = {0, 0};
    OK(kn_store_read(store, lanes, two, 2, &count));
    CHECK(count == 2 && two[0] == 50 && two[1] == 20);
    OK(kn_store_read(store, lanes, two, 2, NULL));
    count = -1;
    EXPECT(KN_ERR_BUFFER_TOO_SMALL, kn_store_read(store, group, two, 2, &count));
    CHECK(count == 3 && two[0] == 50); /* the size is reported, nothing copied */
    EXPECT(KN_ERR_BUFFER_TOO_SMALL, kn_store_read_all(store, all, 3, &count));
    CHECK(count == lane_count);
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_read(store, group, two, -1, &count));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_read(store, group, NULL, 3, &count));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_read_all(NULL, all, 32, &count));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_read(NULL, group, all, 32, &count));

    /* Progress. */
    OK(kn_store_set_progress(store, group, 1));
    const double new_progress[2] = {0, 0.25};
    OK(kn_store_set_lane_progress(store, lanes, new_progress, 2));
    OK(kn_store_set_progress(store, keys, 0.75));
    OK(kn_store_evaluate(store));
    OK(kn_store_value(store, group, 2, &value));
    CHECK(value == 4);
    OK(kn_store_value(store, lanes, 1, &value));
    CHECK(value == 12.5);
    OK(kn_store_value(store, keys, 1, &value));
    CHECK(value == 50); /* hold segment: its start value */
    EXPECT(KN_ERR_WRONG_KIND, kn_store_set_progress(store, springs, 0.5));
    EXPECT(KN_ERR_WRONG_KIND, kn_store_set_lane_progress(store, group, new_progress, 2));
    EXPECT(KN_ERR_COUNT_MISMATCH, kn_store_set_lane_progress(store, lanes, new_progress, 1));
    const double nan_progress[2] = {0, NAN};
    EXPECT(KN_ERR_NOT_FINITE, kn_store_set_lane_progress(store, lanes, nan_progress, 2));
    CHECK(error_mentions("progress[1]"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_set_lane_progress(store, lanes, new_progress, -2));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_set_lane_progress(store, lanes, NULL, 2));
    EXPECT(KN_ERR_NOT_FINITE, kn_store_set_progress(store, group, NAN));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_set_progress(NULL, group, 0.5));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_set_lane_progress(NULL, lanes, new_progress, 2));

    /* Tick / evaluate errors. */
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_tick(store, -dt));
    EXPECT(KN_ERR_NOT_FINITE, kn_store_tick(store, NAN));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_tick(NULL, dt));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_evaluate(NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_counts(NULL, &lane_count, &entry_count));

    /* Lane and value errors. */
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_value(store, group, 3, &value));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_value(store, group, -1, &value));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_value(store, group, 0, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_value(NULL, group, 0, &value));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_range(NULL, group, &offset, &count));

    /* Add errors: nothing is added. */
    kn_entry e = 12345;
    const double bad_from[2] = {0, NAN};
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_group(NULL, from, to, 3, 0, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_group(store, from, to, 3, 0, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_group(store, NULL, to, 3, 0, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_group(store, from, NULL, 3, 0, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_group(store, from, to, -3, 0, &e));
    EXPECT(KN_ERR_NOT_FINITE, kn_store_add_group(store, bad_from, to, 2, 0, &e));
    CHECK(error_mentions("from[1]"));
    EXPECT(KN_ERR_NOT_FINITE, kn_store_add_group(store, from, to, 3, INFINITY, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_lanes(NULL, from, to, lane_progress, 2, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_lanes(store, from, to, NULL, 2, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_lanes(store, from, to, lane_progress, -1, &e));
    EXPECT(KN_ERR_NOT_FINITE, kn_store_add_lanes(store, from, to, nan_progress, 2, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_keyframes(NULL, key_times, 3, key_values, 2, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_keyframes(store, NULL, 3, key_values, 2, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_keyframes(store, key_times, 3, NULL, 2, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_keyframes(store, key_times, 3, key_values, 2, interpolations, NULL, 0, &e));
    kn_bezier *missing[2] = {NULL, NULL};
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_keyframes(store, key_times, 3, key_values, 2, interpolations, missing, 0, &e));
    CHECK(error_mentions("easings[0]"));
    EXPECT(KN_ERR_COUNT_MISMATCH, kn_store_add_keyframes(store, key_times, 0, key_values, 2, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_COUNT_MISMATCH, kn_store_add_keyframes(store, key_times, 3, key_values, 0, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, key_times, -3, key_values, 2, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, key_times, 3, key_values, -2, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, key_times, INT64_MAX / 4, key_values, 8, NULL, NULL, 0, &e));
    const int32_t unknown[2] = {KN_INTERPOLATION_LINEAR, 9};
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, key_times, 3, key_values, 2, unknown, NULL, 0, &e));
    CHECK(error_mentions("interpolations[1] = 9"));
    const double decreasing[3] = {0, 0.6, 0.5};
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, decreasing, 3, key_values, 2, NULL, NULL, 0, &e));
    const double outside[3] = {0, 0.5, 1.5};
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, outside, 3, key_values, 2, NULL, NULL, 0, &e));
    const double nan_values[6] = {0, NAN, 1, 2, 3, 4};
    EXPECT(KN_ERR_NOT_FINITE, kn_store_add_keyframes(store, key_times, 3, nan_values, 2, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_NOT_FINITE, kn_store_add_keyframes(store, key_times, 3, key_values, 2, NULL, NULL, NAN, &e));
    /* Hostile counts: checked (and the product bounded by KN_MAX_COUNT) before anything is
     * allocated, so none of these can end the process; each names its value. */
    EXPECT(KN_ERR_COUNT_MISMATCH, kn_store_add_keyframes(store, NULL, 0, NULL, (int64_t)1 << 40, NULL, NULL, 0.5, &e));
    CHECK(error_mentions("key_count = 0"));
    EXPECT(KN_ERR_COUNT_MISMATCH, kn_store_add_keyframes(store, NULL, (int64_t)1 << 20, NULL, 0, NULL, NULL, 0.5, &e));
    CHECK(error_mentions("track_count = 0"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, NULL, 1, NULL, (int64_t)1 << 40, NULL, NULL, 0.5, &e));
    CHECK(error_mentions("track_count = 1099511627776"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, key_times, 1 << 15, key_values, 1 << 15, NULL, NULL, 0, &e));
    CHECK(error_mentions("track_count · key_count = 32768 · 32768 = 1073741824"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, key_times, INT64_MAX, key_values, INT64_MAX, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, key_times, INT64_MIN, key_values, 2, NULL, NULL, 0, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_group(store, from, to, KN_MAX_COUNT + 1, 0, &e));
    CHECK(error_mentions("count = 268435457"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_group(store, NULL, NULL, INT64_MAX, 0, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_lanes(store, NULL, NULL, NULL, (int64_t)1 << 40, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_springs(store, spring, NULL, NULL, NULL, INT64_MAX, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_set_lane_progress(store, lanes, NULL, INT64_MAX));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_read_all(store, NULL, INT64_MIN, NULL));
    CHECK(error_mentions("capacity = -9223372036854775808"));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_springs(NULL, spring, targets, NULL, NULL, 2, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_springs(store, NULL, targets, NULL, NULL, 2, &e));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_springs(store, spring, NULL, NULL, NULL, 2, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_springs(store, spring, targets, NULL, NULL, -2, &e));
    EXPECT(KN_ERR_NOT_FINITE, kn_store_add_springs(store, spring, targets, bad_from, NULL, 2, &e));
    CHECK(error_mentions("displacements[1]"));
    CHECK(e == 12345);
    OK(kn_store_counts(store, &lane_count, &entry_count));
    CHECK(lane_count == 14 && entry_count == 7);

    /* Remove, stale and foreign entries. */
    int32_t live = -1;
    OK(kn_store_contains(store, lanes, &live));
    CHECK(live == 1);
    OK(kn_store_remove(store, lanes));
    OK(kn_store_contains(store, lanes, &live));
    CHECK(live == 0);
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_remove(store, lanes));
    CHECK(error_mentions("not a live entry"));
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_value(store, lanes, 0, &value));
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_range(store, lanes, &offset, &count));
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_read(store, lanes, all, 32, &count));
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_set_progress(store, lanes, 0.5));
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_set_lane_progress(store, lanes, new_progress, 2));
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_remove(store, KN_ENTRY_NONE));
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_remove(other, group)); /* another store's entry */
    OK(kn_store_contains(other, group, &live));
    CHECK(live == 0);
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_contains(NULL, group, &live));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_contains(store, group, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_remove(NULL, group));
    /* Later entries moved down; their values are intact. */
    OK(kn_store_range(store, keys, &offset, &count));
    CHECK(offset == 3 && count == 2);
    OK(kn_store_evaluate(store));
    OK(kn_store_value(store, group, 0, &value));
    CHECK(value == 100);
    /* A fresh entry gets a new id (ids are never reused). */
    kn_entry again = KN_ENTRY_NONE;
    OK(kn_store_add_lanes(store, from, to, lane_progress, 2, &again));
    CHECK(again != lanes && again != KN_ENTRY_NONE);
    OK(kn_store_counts(store, &lane_count, &entry_count));
    CHECK(lane_count == 14 && entry_count == 7);

    /* Empty entries are allowed (count 0, NULL arrays). */
    kn_entry empty = KN_ENTRY_NONE;
    OK(kn_store_add_group(store, NULL, NULL, 0, 0, &empty));
    OK(kn_store_read(store, empty, NULL, 0, &count));
    CHECK(count == 0);

    kn_spring_destroy(spring); /* the store keeps its own copy */
    OK(kn_store_tick(store, dt));
    kn_store_destroy(store);
    kn_store_destroy(other);
    kn_store_destroy(NULL);
}

/* ---------------------------------------------------------------- finite in, finite out */

/* States, targets and keyframe values near ±1e308: finite values, or KN_ERR_OUT_OF_RANGE
 * naming the lane and the quantity with nothing changed. */
void test_store_overflow(void) {
    const double big = 1.7976931348623157e308;
    kn_spring *soft = NULL, *stiff = NULL;
    OK(kn_spring_create_damping_ratio(0.1, 10, &soft));
    OK(kn_spring_create(1, 1e6, 1, &stiff));

    /* kn_spring_step: near ±1e308 on a soft spring, stepped finitely. */
    double x[3] = {big, -1.7e308, 1}, v[3] = {0, 1e307, -1e308};
    OK(kn_spring_step(soft, 1.0 / 60, x, v, 3));
    for (int i = 0; i < 3; i++) CHECK(isfinite(x[i]) && isfinite(v[i]));
    /* On a stiff spring the velocity from 1.7e308 is beyond double: refused, nothing changed. */
    double sx[2] = {1, 1.7e308}, sv[2] = {0, 0};
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_step(stiff, 1.0 / 60, sx, sv, 2));
    CHECK(error_mentions("lane 1") && error_mentions("velocity") && error_mentions("beyond the range"));
    CHECK(sx[0] == 1 && sx[1] == 1.7e308 && sv[0] == 0 && sv[1] == 0);

    kn_store *store = NULL;
    OK(kn_store_create(&store));
    /* Keyframes from -max to +max (their difference overflows): finite throughout. */
    const double key_times[2] = {0, 1};
    const double wide[4] = {-big, big, /* track 1: */ 1e308, -1e308};
    kn_entry frames = KN_ENTRY_NONE;
    OK(kn_store_add_keyframes(store, key_times, 2, wide, 2, NULL, NULL, 0, &frames));
    const double progress[5] = {0, 0.25, 0.5, 0.75, 1};
    for (int i = 0; i < 5; i++) {
        double out[2] = {0, 0};
        int64_t n = 0;
        OK(kn_store_set_progress(store, frames, progress[i]));
        OK(kn_store_tick(store, 1.0 / 60));
        OK(kn_store_read(store, frames, out, 2, &n));
        CHECK(isfinite(out[0]) && isfinite(out[1]));
        CHECK(fabs(out[0] - (-big * (1 - progress[i]) + big * progress[i])) <= 1e293);
    }
    /* Extrapolated to progress 2: 2·max is beyond double; the lane is named, nothing written. */
    double before[2], after[2];
    int64_t count = 0;
    OK(kn_store_read(store, frames, before, 2, &count));
    OK(kn_store_set_progress(store, frames, 2));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_tick(store, 1.0 / 60));
    CHECK(error_mentions("lane 0") && error_mentions("value"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_evaluate(store));
    OK(kn_store_read(store, frames, after, 2, &count));
    CHECK(same_bits(before[0], after[0]) && same_bits(before[1], after[1]));
    OK(kn_store_set_progress(store, frames, 1));

    /* Catmull-Rom tangents of ±1.7e308 keys overflow: refused at insertion, naming the track. */
    const double keys3[3] = {0, 0.5, 1}, huge3[3] = {-1.7e308, 1.7e308, -1.7e308};
    const int32_t catmull[2] = {KN_INTERPOLATION_CATMULL_ROM, KN_INTERPOLATION_CATMULL_ROM};
    kn_entry e = KN_ENTRY_NONE;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, keys3, 3, huge3, 1, catmull, NULL, 0, &e));
    CHECK(error_mentions("tangent"));

    /* Springs: target + displacement beyond double is refused before anything moves. */
    const double targets[2] = {0, 1.7e308}, displacements[2] = {10, 1.7e308};
    kn_entry springs = KN_ENTRY_NONE;
    OK(kn_store_add_springs(store, soft, targets, displacements, NULL, 2, &springs));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_tick(store, 1.0 / 60));
    CHECK(error_mentions("lane 3") && error_mentions("value"));
    OK(kn_store_remove(store, springs));
    /* A stiff spring whose velocity would overflow: refused, naming the velocity. */
    const double zero[1] = {0}, far[1] = {1e308};
    OK(kn_store_add_springs(store, stiff, zero, far, NULL, 1, &springs));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_tick(store, 1.0 / 60));
    CHECK(error_mentions("lane 2") && error_mentions("velocity"));
    OK(kn_store_remove(store, springs));
    OK(kn_store_tick(store, 1.0 / 60));

    /* Groups: to − from beyond double is refused at insertion; extrapolation beyond is
     * refused at the tick, naming the lane. */
    const double gfrom[2] = {0, -1.7e308}, gto[2] = {1, 1.7e308};
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_group(store, gfrom, gto, 2, 0, &e));
    CHECK(error_mentions("lane 1") && error_mentions("from"));
    const double hfrom[1] = {1e308}, hto[1] = {-0.7e308};
    kn_entry group = KN_ENTRY_NONE;
    OK(kn_store_add_group(store, hfrom, hto, 1, 0.5, &group));
    OK(kn_store_tick(store, 1.0 / 60));
    double gv = 0;
    OK(kn_store_value(store, group, 0, &gv));
    CHECK(gv == 1e308 + 0.5 * (-0.7e308 - 1e308));
    OK(kn_store_set_progress(store, group, 2));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_tick(store, 1.0 / 60));
    CHECK(error_mentions("lane 0") && error_mentions("value"));
    OK(kn_store_value(store, group, 0, &gv));
    CHECK(gv == 1e308 + 0.5 * (-0.7e308 - 1e308));

    kn_store_destroy(store);
    kn_spring_destroy(soft);
    kn_spring_destroy(stiff);
}

/* ---------------------------------------------------------------- store promises (HEADER_PROMISES.md) */

/* What test_store does not reach: the section order of the output whatever the order of the
 * adds, values kept through adds and removals of other entries (0 for a fresh entry), a lanes
 * entry's shared progress, failed calls changing nothing, evaluate not stepping springs, the
 * store's lane total and the keyframe count order, capacities, and ids across stores. */
void test_store_promises(void) {
    kn_store *store = NULL, *other = NULL;
    kn_spring *spring = NULL;
    kn_entry springs = KN_ENTRY_NONE, keys = KN_ENTRY_NONE, lanes = KN_ENTRY_NONE, group = KN_ENTRY_NONE;
    kn_entry fresh = KN_ENTRY_NONE, e = 777, foreign = KN_ENTRY_NONE;
    const double from[3] = {1, 2, 3}, to[3] = {11, 12, 13}, ones[3] = {1, 1, 1};
    const double key_times[2] = {0, 1}, key_values[2] = {5, 6};
    double all[16], value = 0, before = 0;
    int64_t offset = -1, count = -1, lane_count = 0, entry_count = 0;
    int32_t live = -1;

    OK(kn_store_create(&store));
    OK(kn_spring_create(1, 100, 10, &spring));
    /* Added in the reverse of the output's order. */
    OK(kn_store_add_springs(store, spring, from, ones, NULL, 1, &springs));
    OK(kn_store_add_keyframes(store, key_times, 2, key_values, 1, NULL, NULL, 0, &keys));
    OK(kn_store_add_lanes(store, from, to, ones, 2, &lanes));
    OK(kn_store_add_group(store, from, to, 3, 1, &group));
    OK(kn_store_range(store, group, &offset, &count));
    CHECK(offset == 0 && count == 3);
    OK(kn_store_range(store, lanes, &offset, &count));
    CHECK(offset == 3 && count == 2);
    OK(kn_store_range(store, keys, &offset, &count));
    CHECK(offset == 5 && count == 1);
    OK(kn_store_range(store, springs, &offset, &count));
    CHECK(offset == 6 && count == 1);
    OK(kn_store_range(store, springs, NULL, NULL));
    OK(kn_store_evaluate(store));
    OK(kn_store_read_all(store, all, 16, &count));
    CHECK(count == 7 && all[0] == 11 && all[2] == 13 && all[3] == 11 && all[4] == 12 && all[5] == 5 && all[6] == 2);

    /* evaluate does not step the springs. */
    OK(kn_store_evaluate(store));
    OK(kn_store_value(store, springs, 0, &value));
    CHECK(value == 2);
    /* tick(0) is allowed; a failed tick changes nothing. */
    OK(kn_store_tick(store, 0));
    OK(kn_store_tick(store, 1.0 / 60));
    OK(kn_store_value(store, springs, 0, &before));
    CHECK(before != 2);
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_tick(store, -1));
    EXPECT(KN_ERR_NOT_FINITE, kn_store_tick(store, INFINITY));
    OK(kn_store_evaluate(store));
    OK(kn_store_value(store, springs, 0, &value));
    CHECK(same_bits(value, before));

    /* Values as of the last evaluation, kept through adds and removals of other entries. */
    OK(kn_store_add_group(store, to, from, 2, 0.5, &fresh)); /* lands before the lanes entry */
    OK(kn_store_value(store, fresh, 0, &value));
    CHECK(value == 0);
    OK(kn_store_value(store, lanes, 1, &value));
    CHECK(value == 12);
    OK(kn_store_value(store, keys, 0, &value));
    CHECK(value == 5);
    OK(kn_store_value(store, springs, 0, &value));
    CHECK(same_bits(value, before));
    OK(kn_store_remove(store, group));
    OK(kn_store_read(store, lanes, all, 16, &count));
    CHECK(count == 2 && all[0] == 11 && all[1] == 12);
    OK(kn_store_value(store, springs, 0, &value));
    CHECK(same_bits(value, before));
    OK(kn_store_value(store, fresh, 1, &value));
    CHECK(value == 0);
    OK(kn_store_evaluate(store));
    OK(kn_store_value(store, fresh, 1, &value));
    CHECK(value == 7); /* 12 + 0.5·(2 − 12) */

    /* kn_store_set_progress on a lanes entry sets every lane's progress. */
    OK(kn_store_set_progress(store, lanes, 0.5));
    OK(kn_store_evaluate(store));
    OK(kn_store_read(store, lanes, all, 16, &count));
    CHECK(all[0] == 6 && all[1] == 7);
    /* A failed kn_store_set_lane_progress sets none (the NaN is found before any is set). */
    {
        const double partly[2] = {1, NAN};
        EXPECT(KN_ERR_NOT_FINITE, kn_store_set_lane_progress(store, lanes, partly, 2));
        EXPECT(KN_ERR_WRONG_KIND, kn_store_set_lane_progress(store, keys, partly, 1));
        EXPECT(KN_ERR_WRONG_KIND, kn_store_set_progress(store, springs, 1));
        EXPECT(KN_ERR_NOT_FINITE, kn_store_set_progress(store, lanes, NAN));
        OK(kn_store_evaluate(store));
        OK(kn_store_read(store, lanes, all, 16, &count));
        CHECK(all[0] == 6 && all[1] == 7);
    }

    /* The store's lane total is bounded by KN_MAX_COUNT, checked before the arrays are read. */
    OK(kn_store_counts(store, &lane_count, &entry_count));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_group(store, NULL, NULL, KN_MAX_COUNT, 0, &e));
    CHECK(error_mentions("above KN_MAX_COUNT"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_lanes(store, NULL, NULL, NULL, KN_MAX_COUNT - lane_count + 1, &e));
    CHECK(error_mentions("would make the store's lane count"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_springs(store, spring, NULL, NULL, NULL, KN_MAX_COUNT, &e));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, NULL, 1, NULL, KN_MAX_COUNT, NULL, NULL, 0, &e));
    CHECK(error_mentions("track_count"));
    /* At the limit itself the count passes (the NULL array is reported). */
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_group(store, NULL, NULL, KN_MAX_COUNT - lane_count, 0, &e));
    /* Keyframe counts: negative before zero, either way round; a product of KN_MAX_COUNT passes. */
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, NULL, 0, NULL, -1, NULL, NULL, 0, &e));
    CHECK(error_mentions("track_count = -1"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_keyframes(store, NULL, -1, NULL, 0, NULL, NULL, 0, &e));
    CHECK(error_mentions("key_count = -1"));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_keyframes(store, NULL, 1 << 14, NULL, 1 << 14, NULL, NULL, 0, &e));
    CHECK(error_mentions("key_times"));
    /* A keyframe entry of one key (no segment). */
    {
        kn_entry single = KN_ENTRY_NONE;
        const double at_half = 0.5;
        OK(kn_store_add_keyframes(store, &at_half, 1, key_values, 1, NULL, NULL, 0.9, &single));
        OK(kn_store_evaluate(store));
        OK(kn_store_value(store, single, 0, &value));
        CHECK(value == 5);
        OK(kn_store_remove(store, single));
    }
    CHECK(e == 777);
    {
        int64_t lanes_after = 0, entries_after = 0;
        OK(kn_store_counts(store, &lanes_after, &entries_after));
        CHECK(lanes_after == lane_count && entries_after == entry_count);
    }

    /* Output capacities only have to be >= 0 (nothing is allocated for them). */
    OK(kn_store_read(store, lanes, all, INT64_MAX, &count));
    CHECK(count == 2);
    OK(kn_store_read_all(store, all, INT64_MAX, NULL));

    /* Ids are unique across stores (another store's is stale here) and never reused. */
    OK(kn_store_create(&other));
    OK(kn_store_add_group(other, from, to, 1, 0, &foreign));
    CHECK(foreign != group && foreign != lanes && foreign != keys && foreign != springs && foreign != fresh);
    OK(kn_store_contains(store, foreign, &live));
    CHECK(live == 0);
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_value(store, foreign, 0, &value));
    OK(kn_store_contains(store, KN_ENTRY_NONE, &live));
    CHECK(live == 0);
    kn_store_destroy(other);
    OK(kn_store_create(&other));
    OK(kn_store_add_group(other, from, to, 1, 0, &e));
    CHECK(e != foreign && e != group && e != lanes && e != keys && e != springs && e != fresh);
    kn_store_destroy(other);

    kn_spring_destroy(spring);
    kn_store_destroy(store);
}

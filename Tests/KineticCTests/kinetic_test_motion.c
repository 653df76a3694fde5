/*
 * kinetic_test_motion.c: the gesture-motion part of the C test (see kinetic_test.c): the
 * velocity tracker (Android's published linear and parabolic cases, the stop gap, refused
 * samples leaving it unchanged), exponential decay (UIKit's rate per millisecond, Compose's
 * friction, closed forms against libm), Android's spline fling (distance = 0.35 · v ·
 * duration), the rubber band and its inverse, and snapping.
 */
#include "kinetic_test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

static int near(double a, double b, double relative) { return fabs(a - b) <= relative * fabs(b) + 1e-300; }

static void test_motion_tracker(void) {
    kn_velocity_tracker *t = NULL;
    OK(kn_velocity_tracker_create(KN_VELOCITY_LSQ2, 2, &t));
    /* Android's LeastSquaresVelocityTrackerStrategy_Parabolic: (0 ms, 1), (1 ms, 4), (2 ms, 8) -> 4.5e3. */
    const double times[3] = {0, 0.001, 0.002}, xs[3] = {1, 4, 8};
    for (int i = 0; i < 3; i++) {
        const double lanes[2] = {xs[i], -xs[i]};
        OK(kn_velocity_tracker_add(t, times[i], lanes));
    }
    double v[2] = {0, 0};
    OK(kn_velocity_tracker_velocity(t, 0.002, v));
    CHECK(near(v[0], 4.5e3, 1e-12) && near(v[1], -4.5e3, 1e-12));
    OK(kn_velocity_tracker_velocity(t, 0.002 + 0.0401, v));
    CHECK(v[0] == 0 && v[1] == 0); /* more than 40 ms later: stopped */
    /* Refused samples change nothing. */
    const double bad[2] = {NAN, 0}, fine[2] = {9, 9};
    EXPECT(KN_ERR_NOT_FINITE, kn_velocity_tracker_add(t, 0.003, bad));
    CHECK(error_mentions("lanes[0]"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_velocity_tracker_add(t, 0.001, fine));
    CHECK(error_mentions("time cannot go back"));
    OK(kn_velocity_tracker_velocity(t, 0.002, v));
    CHECK(near(v[0], 4.5e3, 1e-12));
    OK(kn_velocity_tracker_reset(t));
    OK(kn_velocity_tracker_velocity(t, 0, v));
    CHECK(v[0] == 0);
    kn_velocity_tracker_destroy(t);
    kn_velocity_tracker_destroy(NULL);

    /* Impulse: Android's ThreePointsLinearVelocityTest, 5 points per 10 ms -> 500. */
    OK(kn_velocity_tracker_create(KN_VELOCITY_IMPULSE, 1, &t));
    for (int i = 0; i < 3; i++) {
        const double x = 5.0 * i;
        OK(kn_velocity_tracker_add(t, 0.01 * i, &x));
    }
    OK(kn_velocity_tracker_velocity(t, 0.02, v));
    CHECK(near(v[0], 500, 1e-12));
    kn_velocity_tracker_destroy(t);
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_velocity_tracker_create(7, 1, &t));
    CHECK(error_mentions("strategy = 7"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_velocity_tracker_create(KN_VELOCITY_LSQ2, 0, &t));
    /* Integers are named as the integers they are, exactly. */
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_velocity_tracker_create(KN_VELOCITY_LSQ2, INT64_MAX, &t));
    CHECK(error_mentions("lane_count = 9223372036854775807 is outside [1, 64]"));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_velocity_tracker_create(KN_VELOCITY_LSQ2, 1, NULL));
}

static void test_motion_decay(void) {
    kn_decay d;
    OK(kn_decay_from_rate(0.998, &d));
    CHECK(near(d.decay_constant, -1000 * log(0.998), 1e-15) && d.velocity_threshold == 0);
    double x = 0, v = 0;
    OK(kn_decay_state(&d, 0.001, 1000, &x, &v));
    CHECK(near(v, 998, 1e-12)); /* one millisecond keeps 0.998 of the velocity */
    OK(kn_decay_state(&d, 0.5, 1000, &x, &v));
    CHECK(near(x, 1000 * -expm1(-d.decay_constant * 0.5) / d.decay_constant, 1e-13));
    double rest = 0;
    OK(kn_decay_resting_offset(&d, 1000, &rest));
    CHECK(near(rest, 1000 / d.decay_constant, 1e-15));
    double duration = 0;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_decay_duration(&d, 1000, &duration));
    CHECK(error_mentions("never stops"));
    /* Compose: friction 4.2; DecayAnimationTest's threshold 2 from 200 at -800 stops at 10. */
    OK(kn_decay_from_friction(1, 2, &d));
    CHECK(d.decay_constant == 4.2 && d.velocity_threshold == 2);
    OK(kn_decay_resting_offset(&d, -800, &rest));
    CHECK(near(200 + rest, 10, 1e-12));
    OK(kn_decay_duration(&d, -800, &duration));
    CHECK(near(duration, log(400) / 4.2, 1e-15));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_decay_from_rate(1, &d));
    EXPECT(KN_ERR_NOT_FINITE, kn_decay_from_friction(NAN, 0.1, &d));
    const kn_decay broken = {-1, 0};
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_decay_state(&broken, 0, 1, &x, &v));
    CHECK(error_mentions("decay->decay_constant"));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_decay_state(NULL, 0, 1, &x, &v));

    /* Android's spline fling: distance = 0.35 · |v| · duration, the full distance after. */
    double distance = 0;
    OK(kn_spline_fling_extent(2.625, 0.015, -4000, &distance, &duration));
    CHECK(distance < 0 && near(-distance, 0.35 * 4000 * duration, 1e-12));
    OK(kn_spline_fling(2.625, 0.015, -4000, duration * 2, &x, &v));
    CHECK(x == distance && v == 0);
    OK(kn_spline_fling(2.625, 0.015, -4000, 0, &x, &v));
    CHECK(x == 0 && near(v, -4000, 1e-9));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spline_fling(0, 0.015, 1, 0, &x, &v));
    CHECK(error_mentions("density"));
}

static void test_motion_rubber_band_and_snap(void) {
    double y = 0, x = 0;
    OK(kn_rubber_band(960, 960, 0.55, &y));
    CHECK(fabs(y - 340.65) < 0.005); /* the published value for d = 960 */
    OK(kn_rubber_band_inverse(y, 960, 0.55, &x));
    CHECK(near(x, 960, 1e-13));
    OK(kn_rubber_band(-100, 960, 0.55, &y));
    CHECK(y < 0);
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_rubber_band_inverse(960, 960, 0.55, &x));
    CHECK(error_mentions("offset"));
    /* |result| < dimension however far the drag (1e300: the largest double below 960), and the
     * inverse takes it back to a finite drag. */
    OK(kn_rubber_band(-1e300, 960, 0.55, &y));
    CHECK(y == -nextafter(960, 0));
    OK(kn_rubber_band_inverse(y, 960, 0.55, &x));
    CHECK(x < -1e16 && isfinite(x));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_rubber_band(1, -1, 0.55, &y));
    EXPECT(KN_ERR_NOT_FINITE, kn_rubber_band(INFINITY, 1, 0.55, &y));

    const double targets[3] = {0, 300, 600};
    int64_t index = -1;
    double normalized = 0;
    OK(kn_snap(100, 1500, targets, 3, NULL, &index, &normalized));
    CHECK(index == 2 && near(normalized, 3, 1e-15)); /* rests near 849: 600, 1500 / 500 */
    OK(kn_snap(100, 50, targets, 3, NULL, &index, &normalized));
    CHECK(index == 0);
    kn_decay fast;
    OK(kn_decay_from_rate(0.99, &fast));
    OK(kn_snap(250, 300, targets, 3, &fast, &index, &normalized));
    CHECK(index == 1 && near(normalized, 6, 1e-15));
    EXPECT(KN_ERR_COUNT_MISMATCH, kn_snap(0, 0, targets, 0, NULL, &index, &normalized));
    const double bad[2] = {0, NAN};
    EXPECT(KN_ERR_NOT_FINITE, kn_snap(0, 0, bad, 2, NULL, &index, &normalized));
    CHECK(error_mentions("targets[1]"));
}

/* Decaying lanes in a store step exactly per tick (libm closed form); running springs
 * retargeted in place keep their values; refusals. */
static void test_motion_store(void) {
    kn_store *store = NULL;
    OK(kn_store_create(&store));
    kn_decay d;
    OK(kn_decay_from_rate(0.99, &d));
    const double x0[2] = {10, -20}, v0[2] = {3000, -500};
    kn_entry decays = 0, springs = 0;
    OK(kn_store_add_decays(store, &d, x0, v0, 2, &decays));
    for (int i = 0; i < 30; i++) OK(kn_store_tick(store, 1.0 / 60));
    double out[3] = {0, 0, 0};
    int64_t n = 0;
    OK(kn_store_read(store, decays, out, 3, &n));
    const double e = exp(-d.decay_constant * 0.5);
    CHECK(n == 2 && near(out[0], 10 + 3000 * (1 - e) / d.decay_constant, 1e-12)
          && near(out[1], -20 - 500 * (1 - e) / d.decay_constant, 1e-12));
    kn_spring *spring = NULL;
    OK(kn_spring_create_damping_ratio(0.8, 0.3, &spring));
    const double targets[2] = {100, 200}, displacements[2] = {-100, -200};
    OK(kn_store_add_springs(store, spring, targets, displacements, NULL, 2, &springs));
    for (int i = 0; i < 5; i++) OK(kn_store_tick(store, 1.0 / 60));
    double before[2] = {0, 0}, after[2] = {0, 0};
    OK(kn_store_read(store, springs, before, 2, &n));
    const double moved[2] = {400, -300};
    OK(kn_store_retarget_springs(store, springs, moved, 2));
    OK(kn_store_evaluate(store));
    OK(kn_store_read(store, springs, after, 2, &n));
    CHECK(near(after[0], before[0], 1e-14) && near(after[1], before[1], 1e-14)); /* position continuous */
    int64_t offset = -1, count = -1;
    OK(kn_store_range(store, decays, &offset, &count));
    CHECK(offset == 2 && count == 2); /* decays follow the springs */
    EXPECT(KN_ERR_WRONG_KIND, kn_store_retarget_springs(store, decays, moved, 2));
    EXPECT(KN_ERR_COUNT_MISMATCH, kn_store_retarget_springs(store, springs, moved, 1));
    const double nan_target[2] = {1, NAN};
    EXPECT(KN_ERR_NOT_FINITE, kn_store_retarget_springs(store, springs, nan_target, 2));
    CHECK(error_mentions("targets[1]"));
    OK(kn_store_read(store, springs, after, 2, &n));
    CHECK(near(after[0], before[0], 1e-14));
    const kn_decay broken = {0, 0};
    kn_entry none = 0;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_store_add_decays(store, &broken, x0, v0, 2, &none));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_store_add_decays(store, NULL, x0, v0, 2, &none));
    kn_spring_destroy(spring);
    kn_store_destroy(store);
}

void test_motion(void) {
    test_motion_store();
    test_motion_tracker();
    test_motion_decay();
    test_motion_rubber_band_and_snap();
}

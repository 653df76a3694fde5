/*
 * kinetic_header_test.c: kinetic.h compiles cleanly and is usable as written, compiled (not
 * run) by `make test-c` as C99 and C11 with gcc and clang (-Wall -Wextra -pedantic -Werror),
 * and, through kinetic_header_test.cpp, as C++11 and C++17 with g++ and clang++ (the same plus
 * -Wold-style-cast). It uses every macro and enum constant of the header and calls every
 * function, handing arrays over as plain arrays: no casts anywhere (this file is C and C++).
 */
#include <kinetic.h>
#include <kinetic.h> /* the include guard */

int kinetic_header_test(void);

int kinetic_header_test(void) {
    kn_bezier *curve = NULL;
    kn_bezier *curves[8] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    kn_spring *spring = NULL;
    kn_store *store = NULL;
    kn_spring_properties properties;
    kn_entry entry = KN_ENTRY_NONE;
    kn_status status = KN_OK;
    char message[64];
    size_t length = 0;
    int32_t major = KN_VERSION_MAJOR, minor = KN_VERSION_MINOR, patch = KN_VERSION_PATCH, contains = 0;
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0, y = 0, m = 0, k = 0, c = 0;
    double xs[4] = {0, 0.25, 0.5, 1}, out[16], matrix[4];
    double displacements[4] = {1, 1, 1, 1}, velocities[4] = {0, 0, 0, 0};
    double from[2] = {0, 0}, to[2] = {1, 1}, progress[2] = {0.5, 0.5};
    double key_times[9] = {0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1};
    double values[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    int32_t interpolations[8] = {KN_INTERPOLATION_HOLD, KN_INTERPOLATION_LINEAR, KN_INTERPOLATION_EASED,
                                 KN_INTERPOLATION_CATMULL_ROM, KN_INTERPOLATION_EASED, KN_INTERPOLATION_EASED,
                                 KN_INTERPOLATION_EASED, KN_INTERPOLATION_EASED};
    int32_t presets[5] = {KN_BEZIER_LINEAR, KN_BEZIER_EASE, KN_BEZIER_EASE_IN, KN_BEZIER_EASE_OUT,
                          KN_BEZIER_EASE_IN_OUT};
    kn_status statuses[11] = {KN_OK, KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE,
                              KN_ERR_COUNT_MISMATCH, KN_ERR_STALE_HANDLE, KN_ERR_WRONG_KIND,
                              KN_ERR_STRUCTURE_MISMATCH, KN_ERR_UNSUPPORTED, KN_ERR_BUFFER_TOO_SMALL,
                              KN_ERR_INTERNAL};
    int64_t lane_count = 0, entry_count = 0, offset = 0, count = 0;
    int i;

    for (i = 0; i < 11; i++) status |= statuses[i] == KN_OK ? KN_OK : 0;
    (void)kn_status_message(KN_ERR_INTERNAL);
    status |= kn_last_error_message(message, sizeof message, &length);
    status |= kn_version(&major, &minor, &patch);
    (void)kn_version_string();

    status |= kn_bezier_create(0.25, 0.1, 0.25, 1, &curve);
    for (i = 0; i < 8; i++) status |= kn_bezier_create_preset(presets[i % 5], &curves[i]);
    status |= kn_bezier_control_points(curve, &x1, &y1, &x2, &y2);
    status |= kn_bezier_value(curve, 0.5, &y);
    status |= kn_bezier_values(curve, xs, out, 4);
    status |= kn_bezier_slope(curve, 0.5, &y);

    status |= kn_spring_create(1, 100, 10, &spring);
    kn_spring_destroy(spring);
    status |= kn_spring_create_duration(0.5, 0.3, &spring);
    kn_spring_destroy(spring);
    status |= kn_spring_create_settling(1, 0.8, 0.001, &spring);
    kn_spring_destroy(spring);
    status |= kn_spring_create_damping_ratio(0.5, 0.4, &spring);
    status |= kn_spring_parameters(spring, &m, &k, &c);
    status |= kn_spring_get_properties(spring, &properties);
    status |= kn_spring_value(spring, 0.1, 0, &y);
    status |= kn_spring_velocity(spring, 0.1, 0, &y);
    status |= kn_spring_settling_duration(spring, 0, 0.001, &y);
    status |= kn_spring_transition(spring, 1.0 / 60, matrix);
    status |= kn_spring_step(spring, 1.0 / 60, displacements, velocities, 4);

    status |= kn_store_create(&store);
    status |= kn_store_add_group(store, from, to, 2, 0.5, &entry);
    status |= kn_store_add_lanes(store, from, to, progress, 2, &entry);
    status |= kn_store_set_lane_progress(store, entry, progress, 2);
    /* A plain array of kn_bezier * for the easings: no cast. */
    status |= kn_store_add_keyframes(store, key_times, 9, values, 1, interpolations, curves, 0.5, &entry);
    status |= kn_store_add_springs(store, spring, to, displacements, velocities, 2, &entry);
    status |= kn_store_contains(store, entry, &contains);
    status |= kn_store_set_progress(store, entry, 0.25);
    status |= kn_store_tick(store, 1.0 / 60);
    status |= kn_store_evaluate(store);
    status |= kn_store_counts(store, &lane_count, &entry_count);
    status |= kn_store_range(store, entry, &offset, &count);
    status |= kn_store_value(store, entry, 0, &y);
    status |= kn_store_read(store, entry, out, 16, &count);
    status |= kn_store_read_all(store, out, 16, &count);
    status |= kn_store_remove(store, entry);
    kn_store_destroy(store);

    kn_spring_destroy(spring);
    for (i = 0; i < 8; i++) kn_bezier_destroy(curves[i]);
    kn_bezier_destroy(curve);
    return status == KN_OK && entry != KN_ENTRY_NONE && contains >= 0 ? 0 : 1;
}

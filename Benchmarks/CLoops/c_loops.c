/* The measured loops: one call per element, from C. */
#include "c_loops.h"

#include <math.h>

#include "../../Sources/KineticC/include/kinetic.h"

double cl_sum_browser(const cl_browser_bezier *curve, const double *xs, size_t mask, size_t start, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; i++) sum += cl_browser_value(curve, xs[(start + i) & mask]);
    return sum;
}

double cl_sum_kn_bezier(const void *curve, const double *xs, size_t mask, size_t start, size_t count) {
    const kn_bezier *c = (const kn_bezier *)curve;
    double sum = 0;
    for (size_t i = 0; i < count; i++) {
        double y;
        if (kn_bezier_value(c, xs[(start + i) & mask], &y) != KN_OK) return NAN;
        sum += y;
    }
    return sum;
}

double cl_sum_kn_bezier_many(const void *const *curves, size_t curve_mask, const double *xs, size_t mask,
                             size_t start, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; i++) {
        double y;
        if (kn_bezier_value((const kn_bezier *)curves[i & curve_mask], xs[(start + i) & mask], &y) != KN_OK) return NAN;
        sum += y;
    }
    return sum;
}

double cl_sum_browser_many(const cl_browser_bezier *curves, size_t curve_mask, const double *xs, size_t mask,
                           size_t start, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; i++) sum += cl_browser_value(&curves[i & curve_mask], xs[(start + i) & mask]);
    return sum;
}

double cl_sum_kn_spring(const void *spring, const double *times, double initial_velocity, size_t mask,
                        size_t start, size_t count) {
    const kn_spring *s = (const kn_spring *)spring;
    double sum = 0;
    for (size_t i = 0; i < count; i++) {
        double y;
        if (kn_spring_value(s, times[(start + i) & mask], initial_velocity, &y) != KN_OK) return NAN;
        sum += y;
    }
    return sum;
}

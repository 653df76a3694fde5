/* A plain C evaluation of a critically damped spring, the same closed form and checks as
 * kn_spring_value, called through a real function call: the cost of a C call around libm's
 * exp, the reference for what kn_spring_value's call boundary can cost. */
#include "c_loops.h"

#include <math.h>

__attribute__((noinline)) int cl_reference_critical_value(const cl_reference_critical *spring, double time,
                                                          double initial_velocity, double *out) {
    if (!spring || !out) return 2;
    if (!(time > 0)) {
        *out = isnan(time) ? time : 0;
        return 0;
    }
    double a = spring->alpha;
    double decay = exp(-a * time);
    double f = decay * time;
    double y = 1 - (decay + a * f) + f * initial_velocity;
    if (!(y - y == 0)) return 3;
    *out = y;
    return 0;
}

double cl_sum_reference_critical(const cl_reference_critical *spring, const double *times, double initial_velocity,
                                 size_t mask, size_t start, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; i++) {
        double y;
        if (cl_reference_critical_value(spring, times[(start + i) & mask], initial_velocity, &y) != 0) return NAN;
        sum += y;
    }
    return sum;
}

/* C side of the C-interface benchmarks (CInterfaceBenchmarks.swift): loops that call
 * kinetic.h's scalar entry points from C, one call per element, and a browser-style
 * cubic-bezier solver compiled into the same program as the baseline. */
#ifndef KINETIC_BENCHMARK_C_LOOPS_H
#define KINETIC_BENCHMARK_C_LOOPS_H

#include <stddef.h>

/* A browser-style cubic-bezier solver (the method of Baseline.swift, written in C): power-form
 * coefficients, an 11-sample table of x(t), a linear scan for the bracket, up to 4 Newton steps
 * stopping on |x(t) - x| < 1e-7, then bisection. */
typedef struct cl_browser_bezier {
    double ax, bx, cx, ay, by, cy;
    double start_gradient, end_gradient;
    double samples[11];
} cl_browser_bezier;

void cl_browser_init(cl_browser_bezier *curve, double x1, double y1, double x2, double y2);
/* One solve (not inlined into the loops: one real call per x, like kn_bezier_value). */
double cl_browser_value(const cl_browser_bezier *curve, double x);

/* Each loop evaluates element (start + i) & mask of `xs` for i in [0, count) and returns the
 * sum of the results (so that nothing is optimised away). `mask` is a power of two minus 1. */
double cl_sum_browser(const cl_browser_bezier *curve, const double *xs, size_t mask, size_t start, size_t count);
/* kn_bezier_value on an opaque kn_bezier handle (passed as void * to keep kinetic.h out of
 * this header, which Swift imports). A non-zero status returns NaN. */
double cl_sum_kn_bezier(const void *curve, const double *xs, size_t mask, size_t start, size_t count);
/* The same over many curves: element i uses curves[i & curve_mask]. */
double cl_sum_kn_bezier_many(const void *const *curves, size_t curve_mask, const double *xs, size_t mask,
                             size_t start, size_t count);
double cl_sum_browser_many(const cl_browser_bezier *curves, size_t curve_mask, const double *xs, size_t mask,
                           size_t start, size_t count);
/* kn_spring_value at the given times, with one initial velocity. */
double cl_sum_kn_spring(const void *spring, const double *times, double initial_velocity, size_t mask,
                        size_t start, size_t count);

/* A critically damped spring (decay rate alpha = damping / 2m, per second) evaluated by plain C
 * code with kn_spring_value's closed form, null checks and finiteness check, through a call
 * that is not inlined (reference_spring.c): the cost of any C function that calls libm's exp. */
typedef struct cl_reference_critical {
    double alpha;
} cl_reference_critical;
int cl_reference_critical_value(const cl_reference_critical *spring, double time, double initial_velocity,
                                double *out);
double cl_sum_reference_critical(const cl_reference_critical *spring, const double *times, double initial_velocity,
                                 size_t mask, size_t start, size_t count);

/* Bytes in use on the C heap: glibc's mallinfo2().uordblks (every allocated chunk, its malloc
 * header and rounding included); -1 where mallinfo2 is unavailable. heap_bytes.c. */
long long cl_heap_bytes_in_use(void);

#endif

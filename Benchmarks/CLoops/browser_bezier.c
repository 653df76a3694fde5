/* The browser-style baseline in C: the method described in Baseline.swift (WebKit's UnitBezier
 * and Chromium's gfx::CubicBezier solve this way); written for this project, no browser code. */
#include "c_loops.h"

#include <math.h>

enum { SAMPLE_COUNT = 11, NEWTON_STEPS = 4 };
static const double EPSILON = 1e-7;

void cl_browser_init(cl_browser_bezier *c, double x1, double y1, double x2, double y2) {
    c->cx = 3 * x1;
    c->bx = 3 * (x2 - x1) - c->cx;
    c->ax = 1 - c->cx - c->bx;
    c->cy = 3 * y1;
    c->by = 3 * (y2 - y1) - c->cy;
    c->ay = 1 - c->cy - c->by;
    if (x1 > 0) c->start_gradient = y1 / x1;
    else if (y1 == 0 && x2 > 0) c->start_gradient = y2 / x2;
    else if (y1 == 0 && y2 == 0) c->start_gradient = 1;
    else c->start_gradient = 0;
    if (x2 < 1) c->end_gradient = (y2 - 1) / (x2 - 1);
    else if (y2 == 1 && x1 < 1) c->end_gradient = (y1 - 1) / (x1 - 1);
    else if (y2 == 1 && y1 == 1) c->end_gradient = 1;
    else c->end_gradient = 0;
    for (int i = 0; i < SAMPLE_COUNT; i++) {
        double t = (double)i / (SAMPLE_COUNT - 1);
        c->samples[i] = ((c->ax * t + c->bx) * t + c->cx) * t;
    }
}

static inline double sample_x(const cl_browser_bezier *c, double t) { return ((c->ax * t + c->bx) * t + c->cx) * t; }
static inline double sample_y(const cl_browser_bezier *c, double t) { return ((c->ay * t + c->by) * t + c->cy) * t; }
static inline double sample_dx(const cl_browser_bezier *c, double t) { return (3 * c->ax * t + 2 * c->bx) * t + c->cx; }

static double parameter(const cl_browser_bezier *c, double target) {
    const double step = 1.0 / (SAMPLE_COUNT - 1);
    double lo = 0, hi = 1, t = target;
    int i = 1;
    while (i < SAMPLE_COUNT && !(target <= c->samples[i])) i++;
    if (i < SAMPLE_COUNT) {
        lo = (i - 1) * step;
        hi = i * step;
        double width = c->samples[i] - c->samples[i - 1];
        t = width > 0 ? lo + (hi - lo) * (target - c->samples[i - 1]) / width : lo;
    }
    for (int k = 0; k < NEWTON_STEPS; k++) {
        double f = sample_x(c, t) - target;
        if (fabs(f) < EPSILON) return t;
        double d = sample_dx(c, t);
        if (fabs(d) < EPSILON) break;
        t -= f / d;
    }
    if (!(t >= lo && t <= hi)) t = 0.5 * (lo + hi);
    while (lo < hi) {
        double f = sample_x(c, t) - target;
        if (fabs(f) < EPSILON) return t;
        if (f < 0) lo = t; else hi = t;
        double mid = 0.5 * (lo + hi);
        if (mid == t) break;
        t = mid;
    }
    return t;
}

__attribute__((noinline)) double cl_browser_value(const cl_browser_bezier *c, double x) {
    if (x < 0) return c->start_gradient * x;
    if (x > 1) return 1 + c->end_gradient * (x - 1);
    return sample_y(c, parameter(c, x));
}

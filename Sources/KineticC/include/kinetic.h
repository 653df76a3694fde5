/*
 * kinetic.h: the C interface of Kinetic (cubic-bezier timing curves, springs, the batch
 * store and the animation engine), for C, C++, Rust, Python (ctypes) and any language with
 * a C FFI.
 *
 * Build and link:   cc app.c $(pkg-config --cflags --libs kinetic)
 *
 * CONVENTIONS
 * - Plain C99 (and valid C++11). Every type is an opaque handle, a double, an int32_t /
 *   int64_t / uint64_t, a plain struct of those (kn_spring_properties, kn_timing, kn_event,
 *   kn_run_info), or a pointer to them; no
 *   Swift type crosses this boundary.
 * - The shared library exports exactly the functions declared here (nothing else).
 * - Every function returns a kn_status (KN_OK on success) and writes its result through
 *   an out-parameter, except the few marked "cannot fail", which say why.
 * - On failure nothing is written to the out-parameters (except the sizes reported with
 *   KN_ERR_BUFFER_TOO_SMALL) and no handle or store changes. The calling
 *   thread's last error message (kn_last_error_message) then names the bad value, e.g.
 *   "x1 = 1.5 is outside [0, 1]".
 * - Counts are int64_t so that a negative count is reported (KN_ERR_OUT_OF_RANGE) rather
 *   than read as a huge size. A pointer to an array may be NULL only when its count is 0.
 * - No input ends the process. Every count (and every product of counts, such as
 *   track_count × key_count) is checked against [0, KN_MAX_COUNT] before anything is
 *   allocated, and a store holds at most KN_MAX_COUNT lanes; a count outside that range is
 *   KN_ERR_OUT_OF_RANGE with a message naming it exactly. Output capacities (kn_store_read)
 *   only have to be >= 0: nothing is allocated for them.
 * - Destroying NULL is a no-op. Destroying a handle twice, or using it after it was
 *   destroyed, is undefined behaviour (as with free()).
 * - Units: progress is unitless (0 = start, 1 = end); time in seconds; spring velocity in
 *   move distances per second (UIKit's normalised initial velocity).
 * - Results are bit for bit those of the Swift API (Kinetic), which this library wraps.
 *
 * THREAD SAFETY
 * - kn_bezier and kn_spring are immutable after creation: one handle may be used from any
 *   number of threads at once (destroy it only when no thread uses it any more).
 * - kn_store is mutable and NOT thread-safe: use each store from one thread at a time
 *   (reads included); different stores may be used on different threads at once.
 * - The last error message is per thread.
 * - kn_status_message, kn_version and kn_version_string may be called from any thread.
 *
 * LOADING
 * - The library carries its own copy of the Swift runtime (no Swift toolchain is needed) and
 *   installs no signal handlers: a host's crash handlers stay as they are. (Only when the
 *   environment explicitly points the Swift runtime at its backtracer, through SWIFT_BACKTRACE
 *   or SWIFT_ROOT, does the runtime install crash handlers on SIGBUS, SIGILL, SIGFPE, SIGTRAP
 *   and SIGABRT where none is installed.)
 * - Loading the library, and calling any function declared here, starts no thread and needs
 *   no environment variable. The library does not link OpenBLAS: a build with BLAS (the
 *   default on Linux) loads it with dlopen only when a BLAS routine first runs, and no function
 *   of this header runs one (the store's kernels run their native paths). Debian's threaded
 *   OpenBLAS starts its worker threads when it is loaded, so they never start on its account.
 */
#ifndef KINETIC_H
#define KINETIC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- status and version */

#define KN_VERSION_MAJOR 0
#define KN_VERSION_MINOR 2
#define KN_VERSION_PATCH 0

/* The largest count accepted for any array, product of counts, or store lane total:
 * 2^28 elements (2 GiB of doubles). Larger counts are KN_ERR_OUT_OF_RANGE. */
#define KN_MAX_COUNT ((int64_t)1 << 28)

/* A status code: KN_OK or one of the KN_ERR_ values below. */
typedef int32_t kn_status;

enum {
    KN_OK = 0,
    KN_ERR_NULL_ARGUMENT = 1,     /* a required handle or pointer was NULL */
    KN_ERR_NOT_FINITE = 2,        /* a parameter was NaN or infinite */
    KN_ERR_OUT_OF_RANGE = 3,      /* a parameter, count, lane or enum value is outside its range */
    KN_ERR_COUNT_MISMATCH = 4,    /* arrays that must have equal lengths do not (or none given) */
    KN_ERR_STALE_HANDLE = 5,      /* the store entry was removed, or never belonged to this store */
    KN_ERR_WRONG_KIND = 6,        /* the operation does not apply to this kind of store entry */
    KN_ERR_STRUCTURE_MISMATCH = 7,/* keyframe tracks of one entry differ in key times or interpolation
                                     (reserved: kn_store_add_keyframes shares one structure by design) */
    KN_ERR_UNSUPPORTED = 8,       /* the interpolation cannot be batched (reserved, as above) */
    KN_ERR_BUFFER_TOO_SMALL = 9,  /* an output buffer has less capacity than the result */
    KN_ERR_INTERNAL = 10,         /* an unexpected error (a bug): see kn_last_error_message */
    KN_ERR_ILLEGAL_STATE = 11     /* the call is not allowed in the run's state (kn_engine_run_*) */
};

/* A static, NUL-terminated English description of `status` ("unknown status" for a value
 * that is not a status). Cannot fail: every int32_t maps to a string; never free it. */
const char *kn_status_message(kn_status status);

/* Copies the calling thread's last error message (set by the last call on this thread that
 * did not return KN_OK; "" if none; UTF-8: a range may print the infinity sign) into `buffer`,
 * NUL-terminated, truncated to at most `capacity` bytes, NUL included, at a character
 * boundary (a truncated message is valid UTF-8, possibly shorter than capacity - 1 bytes).
 * `*length` (if not NULL) receives the full length in bytes, without the NUL.
 * `buffer` may be NULL when `capacity` is 0: a call with capacity 0 asks for the length only
 * (nothing is written, and it returns KN_OK).
 * Returns KN_ERR_BUFFER_TOO_SMALL when the message was truncated (the prefix is still
 * written and NUL-terminated). This function never changes the last error itself. */
kn_status kn_last_error_message(char *buffer, size_t capacity, size_t *length);

/* The library's version (may differ from the KN_VERSION_ macros of the header a program
 * was built with). Any of the pointers may be NULL; fails only if all three are NULL. */
kn_status kn_version(int32_t *major, int32_t *minor, int32_t *patch);

/* The version as a static string, e.g. "0.2.0". Cannot fail (a constant). */
const char *kn_version_string(void);

/* ---------------------------------------------------------------- cubic-bezier curves */

/* A cubic-bezier timing curve from (0, 0) via (x1, y1) and (x2, y2) to (1, 1), with CSS /
 * Core Animation semantics. Immutable: safe to share between threads. */
typedef struct kn_bezier kn_bezier;

/* The presets of kn_bezier_create_preset. */
enum {
    KN_BEZIER_LINEAR = 0,       /* (0, 0, 1, 1) */
    KN_BEZIER_EASE = 1,         /* (0.25, 0.1, 0.25, 1) */
    KN_BEZIER_EASE_IN = 2,      /* (0.42, 0, 1, 1) */
    KN_BEZIER_EASE_OUT = 3,     /* (0, 0, 0.58, 1) */
    KN_BEZIER_EASE_IN_OUT = 4   /* (0.42, 0, 0.58, 1) */
};

/* Creates the curve. x1, x2 in [0, 1]; y1, y2 any finite value (overshoot allowed).
 * Errors: KN_ERR_NULL_ARGUMENT (out), KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (x1, x2). */
kn_status kn_bezier_create(double x1, double y1, double x2, double y2, kn_bezier **out);

/* Creates one of the KN_BEZIER_ presets. Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_OUT_OF_RANGE. */
kn_status kn_bezier_create_preset(int32_t preset, kn_bezier **out);

/* The control points. Any pointer may be NULL (not written). Errors: KN_ERR_NULL_ARGUMENT (curve). */
kn_status kn_bezier_control_points(const kn_bezier *curve, double *x1, double *y1, double *x2, double *y2);

/* The eased progress at linear progress `x` (exact to 1e-12 * max(1, |y1|, |y2|) in [0, 1];
 * outside, extrapolated along the end tangents; NaN only for NaN x). A new curve holds only
 * its constants; its 65th evaluation (each kn_bezier_values element counts; handles with a
 * preset's control points, however created, share one table and one count; threads racing
 * on a new curve may lose a count) builds its solve table, published once, after which a call allocates
 * nothing (while the process's solve tables stay within 8 MB; past that the curve goes on
 * without one and tries again every 64 evaluations). The value is the same with the table or without it, bit for bit.
 * Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_bezier_value(const kn_bezier *curve, double x, double *out);

/* Evaluates `count` values: out[i] = value at xs[i]. Bit for bit as kn_bezier_value until the
 * curve has a batch table (calls of 16 values or more run the same arithmetic vectorised;
 * calls below 16 are kn_bezier_value's, always). The call that takes the handle's batch values
 * (calls of 16 or more; handles with a preset's control points share one count) past 8,192 builds that table
 * (12,576 bytes) and uses it; from then on x in [0, 1] is evaluated from it: within
 * 2e-13 * max(1, |y1|, |y2|) of kn_bezier_value (both within 1e-12 * max(1, |y1|, |y2|) of the
 * exact value), exactly 0 at 0 and 1 at 1. x within 2^-26 of an end, outside [0, 1] and NaN:
 * always bit for bit as kn_bezier_value.
 * `out` may equal `xs` (in place; other overlaps are undefined). xs and out may be NULL
 * when count is 0. Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_OUT_OF_RANGE (count outside [0, KN_MAX_COUNT]). */
kn_status kn_bezier_values(const kn_bezier *curve, const double *xs, double *out, int64_t count);

/* The slope dy/dx at linear progress `x` (±infinity where the tangent is vertical).
 * Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_bezier_slope(const kn_bezier *curve, double x, double *out);

/* Frees the curve. NULL is a no-op. Cannot fail. */
void kn_bezier_destroy(kn_bezier *curve);

/* ---------------------------------------------------------------- springs */

/* A damped spring m·x'' + c·x' + k·(x − target) = 0. Immutable: safe to share between threads.
 * value / velocity describe a unit move from 0 to 1 starting at time 0. */
typedef struct kn_spring kn_spring;

/* From physical parameters: mass > 0, stiffness > 0, damping >= 0, and the rates computable
 * in double precision: stiffness / mass in [1e-300, 1e300], damping / (2·mass) <= 1e150
 * (so a mass of 1e-310 is KN_ERR_OUT_OF_RANGE, naming "stiffness / mass").
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE. */
kn_status kn_spring_create(double mass, double stiffness, double damping, kn_spring **out);

/* Unit mass, from SwiftUI's damping ratio (>= 0; 1 = critical) and response (seconds, > 0).
 * The resulting stiffness and damping must be finite and within kn_spring_create's ranges.
 * Errors: as kn_spring_create. */
kn_status kn_spring_create_damping_ratio(double damping_ratio, double response, kn_spring **out);

/* Unit mass, from SwiftUI's perceptual duration (seconds, > 0) and bounce (in (-1, 1)).
 * Errors: as kn_spring_create_damping_ratio. */
kn_status kn_spring_create_duration(double duration, double bounce, kn_spring **out);

/* Unit mass, settling (from rest, within epsilon of the target) after `settling_duration`
 * seconds (> 0), with damping ratio > 0 and epsilon in (0, 1) (Swift's default is 0.001):
 * kn_spring_settling_duration(spring, 0, epsilon) gives it back to within 1e-12 relative
 * (rounding). Errors: as kn_spring_create_damping_ratio; a duration too short or too long
 * for the ratio (the rates beyond their range) is KN_ERR_OUT_OF_RANGE naming
 * settling_duration and the durations that work for that damping_ratio. */
kn_status kn_spring_create_settling(double settling_duration, double damping_ratio, double epsilon,
                                    kn_spring **out);

/* The physical parameters. Any pointer may be NULL. Errors: KN_ERR_NULL_ARGUMENT (spring). */
kn_status kn_spring_parameters(const kn_spring *spring, double *mass, double *stiffness, double *damping);

/* Every parameterisation of a spring, as the Swift API's Spring reads them back (bit for
 * bit its properties). The derived ones follow from mass m, stiffness k and damping c:
 *   damping_ratio ζ = c / (2·√(k·m))          (1 = critical, below 1 bounces)
 *   response      = 2π·√(m / k) seconds        (SwiftUI's response: the undamped period)
 *   duration      = response                   (SwiftUI's perceptual duration)
 *   bounce        = 1 − ζ for ζ ≤ 1, 1/ζ − 1 for ζ > 1, in (−1, 1]   (SwiftUI's bounce;
 *                   it rounds to −1 for ζ above 2^53)
 * A spring made by kn_spring_create_damping_ratio / _duration gives back its arguments up to
 * rounding. Fields are only ever added at the end, in a new major version. */
typedef struct kn_spring_properties {
    double mass;
    double stiffness;
    double damping;
    double damping_ratio;
    double response;
    double duration;
    double bounce;
} kn_spring_properties;

/* Writes every property of the spring to *out. Errors: KN_ERR_NULL_ARGUMENT (spring, out);
 * KN_ERR_OUT_OF_RANGE when a derived property's true value is beyond the range of double
 * (damping 1e300 on mass and stiffness 1e-300, say): *out is not written then. Every
 * property of a spring whose values are in range is finite. */
kn_status kn_spring_get_properties(const kn_spring *spring, kn_spring_properties *out);

/* Position of the unit move at `time` seconds (0 before time 0; overshoots above 1 when
 * bouncy; 1, the rest position, at time +infinity for a damped spring), with
 * `initial_velocity` in move distances per second. Never NaN for finite input; NaN for NaN
 * time (or NaN initial_velocity after time 0), and where an infinite input has no limit: an
 * undamped spring at time +infinity, or an infinite initial_velocity once the motion has
 * decayed below the range of double (there it is ±infinity before).
 * Errors: KN_ERR_NULL_ARGUMENT; KN_ERR_OUT_OF_RANGE (naming initial_velocity) when a finite
 * initial_velocity (e.g. 1e308 on a soft spring) puts the true position beyond the range of
 * double: finite input never gives an infinite result. */
kn_status kn_spring_value(const kn_spring *spring, double time, double initial_velocity, double *out);

/* Velocity of the unit move at `time` (move distances per second; initial_velocity before
 * time 0, 0 at time +infinity for a damped spring); NaN as kn_spring_value. Errors:
 * KN_ERR_NULL_ARGUMENT; KN_ERR_OUT_OF_RANGE (naming initial_velocity) as kn_spring_value. */
kn_status kn_spring_velocity(const kn_spring *spring, double time, double initial_velocity, double *out);

/* The first time (seconds) after which the unit move stays within `epsilon` of 1 for good
 * (0 when it never leaves that band, e.g. epsilon >= 1 from rest). +infinity for epsilon <= 0,
 * an infinite initial_velocity, an undamped spring (unless its motion never leaves the band:
 * then 0), and where the settling time exceeds the range of double (a damping ratio around
 * 1e-308 or less, or an overdamped slow rate that small); finite for every other finite
 * input, however large initial_velocity is. Bounded cost for every
 * spring (a closed form and a bracketed root solve, no scan over the oscillations).
 * NaN only for NaN input (as the Swift API). Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_spring_settling_duration(const kn_spring *spring, double initial_velocity, double epsilon,
                                      double *out);

/* The exact state-transition matrix Φ(dt), row-major into matrix[4]:
 * (displacement, velocity)(t + dt) = Φ · (displacement, velocity)(t).
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE / KN_ERR_OUT_OF_RANGE (dt < 0). */
kn_status kn_spring_transition(const kn_spring *spring, double dt, double matrix[4]);

/* Steps `count` springs that share this spring's parameters by `dt` seconds, in place:
 * displacements (position − target) and velocities (per second), structure of arrays.
 * Finite in, finite out: a read-only pass bounds the states first; states up to ±1.8e308 are
 * stepped without intermediate overflow, and a spring whose true next displacement or
 * velocity is beyond the range of double is KN_ERR_OUT_OF_RANGE, with the message naming
 * its lane and the quantity ("lane 2: the velocity would be beyond the range of Double ...");
 * nothing is changed then. A NaN or infinite state is not an error: it is stepped as IEEE
 * arithmetic gives (NaN or infinite out), the finite lanes beside it as ever.
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE / KN_ERR_OUT_OF_RANGE (dt < 0, count
 * outside [0, KN_MAX_COUNT], the two arrays overlap, or the overflow above; nothing is
 * changed then). */
kn_status kn_spring_step(const kn_spring *spring, double dt, double *displacements, double *velocities,
                         int64_t count);

/* Frees the spring. NULL is a no-op. Cannot fail. */
void kn_spring_destroy(kn_spring *spring);

/* ---------------------------------------------------------------- gesture motion */

/* Velocity tracking: (time, position) samples in, a release velocity out, as Android's
 * VelocityTracker defines it. Only the samples at most 100 ms older than the newest, at most
 * 20 of them, and none before a gap of more than 40 ms between two samples count. Times are
 * seconds (non-decreasing; a sample at the newest time replaces it), positions any units,
 * velocities units per second. Adding and estimating allocate nothing. Mutable: NOT
 * thread-safe, one thread at a time per tracker. */
typedef struct kn_velocity_tracker kn_velocity_tracker;

/* Strategies (kn_velocity_tracker_create). */
enum {
    KN_VELOCITY_LSQ2 = 0,     /* least squares, degree 2, unweighted (Android's default, Flutter's) */
    KN_VELOCITY_IMPULSE = 1   /* Android's impulse strategy (kinetic energy of the strokes) */
};

/* A tracker of `lane_count` lanes per sample (1 to 64: a point's x and y are 2).
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_OUT_OF_RANGE (strategy, lane_count). */
kn_status kn_velocity_tracker_create(int32_t strategy, int64_t lane_count, kn_velocity_tracker **out);

/* Frees the tracker. NULL is a no-op. Cannot fail. */
void kn_velocity_tracker_destroy(kn_velocity_tracker *tracker);

/* Adds a sample: `lanes` holds lane_count finite positions. Errors: KN_ERR_NULL_ARGUMENT,
 * KN_ERR_NOT_FINITE (time, lanes[i]), KN_ERR_OUT_OF_RANGE (time before the newest sample);
 * the tracker is unchanged then. */
kn_status kn_velocity_tracker_add(kn_velocity_tracker *tracker, double time, const double *lanes);

/* Writes lane_count velocities (units per second) as asked at `time` (seconds): the estimate
 * at the newest sample, or 0 when `time` is more than 40 ms after it (the pointer stopped)
 * or there are fewer than 2 samples. Pass the newest sample's time for the estimate there.
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE (time). */
kn_status kn_velocity_tracker_velocity(const kn_velocity_tracker *tracker, double time, double *out);

/* Forgets every sample (a new gesture). Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_velocity_tracker_reset(kn_velocity_tracker *tracker);

/* Exponential deceleration: released at v0 (units per second), the velocity is
 * v0 * exp(-decay_constant * t) and the content moves v0 * (1 - exp(-decay_constant * t)) /
 * decay_constant, t in seconds. velocity_threshold (units per second, >= 0) is the speed at
 * which it counts as stopped (0: never before rest). A plain value; any thread. */
typedef struct kn_decay {
    double decay_constant;       /* per second, > 0 */
    double velocity_threshold;   /* units per second, >= 0 */
} kn_decay;

/* UIScrollView's deceleration: the velocity keeps `deceleration_rate` of itself every
 * millisecond (UIKit: 0.998 normal, 0.99 fast); threshold 0. Errors: KN_ERR_NULL_ARGUMENT,
 * KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (outside (0, 1)). */
kn_status kn_decay_from_rate(double deceleration_rate, kn_decay *out);

/* Jetpack Compose's exponentialDecay(frictionMultiplier, absVelocityThreshold): decay
 * constant 4.2 * max(0.0001, friction_multiplier), threshold max(1e-7, |abs_velocity_threshold|)
 * (Compose's defaults 1 and 0.1). Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE,
 * KN_ERR_OUT_OF_RANGE (a friction_multiplier whose decay constant is beyond the range of
 * double, above about 4.3e307). */
kn_status kn_decay_from_friction(double friction_multiplier, double abs_velocity_threshold, kn_decay *out);

/* The offset from the release and the velocity `time` seconds after a release at
 * initial_velocity; either output may be NULL. Finite in, finite out (saturating).
 * Errors: KN_ERR_NULL_ARGUMENT (decay), KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (a decay
 * constant <= 0 or a negative threshold). */
kn_status kn_decay_state(const kn_decay *decay, double time, double initial_velocity, double *offset,
                         double *velocity);

/* Where the motion stops, from the release: (v0 - sign(v0) * threshold) / decay_constant
 * (0 when |v0| <= threshold; v0 / decay_constant, the resting point, for threshold 0).
 * Errors: as kn_decay_state. */
kn_status kn_decay_resting_offset(const kn_decay *decay, double initial_velocity, double *out);

/* Seconds until the speed falls to the threshold (0 when it already has). Errors: as
 * kn_decay_state, and KN_ERR_OUT_OF_RANGE for threshold 0 with a moving release (it never
 * stops). */
kn_status kn_decay_duration(const kn_decay *decay, double initial_velocity, double *out);

/* Android's fling (OverScroller, Compose's splineBasedDecay): `density` pixels per dp (> 0),
 * `friction` (> 0; Android's ViewConfiguration.getScrollFriction() is 0.015), a release at
 * initial_velocity (pixels per second). kn_spline_fling writes the offset from the release
 * and the velocity `time` seconds after it (the full distance and 0 after the fling);
 * kn_spline_fling_extent the fling's distance (pixels, signed) and duration (seconds). The
 * spline is evaluated in double precision, not through Android's float table. Outputs may be
 * NULL. Errors: KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (density or friction <= 0). */
kn_status kn_spline_fling(double density, double friction, double initial_velocity, double time, double *offset,
                          double *velocity);
kn_status kn_spline_fling_extent(double density, double friction, double initial_velocity, double *distance,
                                 double *duration);

/* UIScrollView's overscroll resistance: content dragged `overscroll` past an edge moves
 * (1 - 1 / (overscroll * c / dimension + 1)) * dimension (c: `coefficient`, UIKit's 0.55;
 * signed as overscroll; |result| < dimension). kn_rubber_band_inverse gives the drag that
 * shows `offset` (|offset| < dimension). Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE,
 * KN_ERR_OUT_OF_RANGE (dimension or coefficient <= 0, |offset| >= dimension). */
kn_status kn_rubber_band(double overscroll, double dimension, double coefficient, double *out);
kn_status kn_rubber_band_inverse(double offset, double dimension, double coefficient, double *out);

/* Snapping: the target (of `count` >= 1, finite) nearest where content released at
 * `position` with `velocity` would coast to rest under `decay` (NULL: UIScrollView's
 * normal rate), and UIKit's normalised initial velocity for the spring that takes it
 * there, velocity / (target - position) per second (0 when the distance is 0). Outputs may
 * be NULL; ties go to the first target. Errors: KN_ERR_NULL_ARGUMENT (targets with count >
 * 0), KN_ERR_NOT_FINITE (position, velocity, targets[i]), KN_ERR_OUT_OF_RANGE (count,
 * decay), KN_ERR_COUNT_MISMATCH (count 0). */
kn_status kn_snap(double position, double velocity, const double *targets, int64_t count, const kn_decay *decay,
                  int64_t *index, double *normalized_velocity);

/* ---------------------------------------------------------------- batch store */

/* Structure-of-arrays storage for many animated lanes, evaluated in one pass per frame into
 * one output array (Kinetic's BatchStore). Mutable: NOT thread-safe, one thread at a time. */
typedef struct kn_store kn_store;

/* An entry of a store. Ids are unique across all stores of the process and never reused,
 * so a removed entry's id (or another store's) is reported as KN_ERR_STALE_HANDLE. 0 is
 * never an entry (KN_ENTRY_NONE). */
typedef uint64_t kn_entry;
#ifdef __cplusplus
#define KN_ENTRY_NONE (static_cast<kn_entry>(0))
#else
#define KN_ENTRY_NONE ((kn_entry)0)
#endif

/* Keyframe segment interpolations (kn_store_add_keyframes). */
enum {
    KN_INTERPOLATION_HOLD = 0,        /* the start value until the next key time */
    KN_INTERPOLATION_LINEAR = 1,      /* straight line */
    KN_INTERPOLATION_EASED = 2,       /* straight line, local progress eased by a kn_bezier */
    KN_INTERPOLATION_CATMULL_ROM = 3  /* cubic Hermite with Catmull-Rom tangents */
};

/* Creates an empty store. Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_store_create(kn_store **out);

/* Adds `count` lanes sharing one progress: value[i] = from[i] + progress·(to[i] − from[i]).
 * All values finite. Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (count
 * outside [0, KN_MAX_COUNT], the store would hold more than KN_MAX_COUNT lanes, or a
 * to[i] − from[i] beyond the range of double, named as "lane i: the to − from ..."). A value
 * beyond the range at some progress is reported by kn_store_tick / kn_store_evaluate. */
kn_status kn_store_add_group(kn_store *store, const double *from, const double *to, int64_t count,
                             double progress, kn_entry *out);

/* Adds `count` lanes with their own progress each (progress[i], finite). Counts as kn_store_add_group. */
kn_status kn_store_add_lanes(kn_store *store, const double *from, const double *to, const double *progress,
                             int64_t count, kn_entry *out);

/* Adds `track_count` scalar keyframe tracks (one output lane each) that share key times and
 * interpolations, all at one progress.
 * - key_times: key_count (>= 1) unitless times, non-decreasing, in [0, 1];
 * - values: track_count × key_count doubles, row-major (track t's keys at values[t·key_count]);
 * - interpolations: key_count − 1 KN_INTERPOLATION_ values (segment i starts at key i), or
 *   NULL for all linear;
 * - easings: key_count − 1 curves, used where the interpolation is KN_INTERPOLATION_EASED
 *   (others may be NULL); the whole array may be NULL when no segment is eased. The store
 *   copies the curves: they may be destroyed after this call. The curves are only read: the
 *   type is `kn_bezier *const *` so that a plain `kn_bezier *curves[n]` (or a C++
 *   std::vector<kn_bezier *>::data()) passes without a cast, which C does not allow for
 *   `const kn_bezier *const *`.
 * Counts are checked first, in this order, before anything is allocated or read: both
 * >= 0 (else KN_ERR_OUT_OF_RANGE), both >= 1 (else KN_ERR_COUNT_MISMATCH, whatever the
 * other count), each and track_count × key_count <= KN_MAX_COUNT (else KN_ERR_OUT_OF_RANGE);
 * then the arrays (NULL, interpolation codes, easings); then, before the tracks are built, the
 * memory that building the entry takes, at most (768 + 160 × key_count) bytes per track on
 * top of the values, against the memory the process may use (the machine's physical memory,
 * or its control group's lower limit, as in a container) (else KN_ERR_OUT_OF_RANGE, naming
 * both counts and the sizes).
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_OUT_OF_RANGE (counts, memory, times, enum values, or a
 * Catmull-Rom tangent that overflows: key values near ±1e308 whose differences are beyond the
 * range of double; the message names the track as "lane t"), KN_ERR_NOT_FINITE,
 * KN_ERR_COUNT_MISMATCH (track_count or key_count 0). Key values anywhere in the range of
 * double are otherwise accepted: a linear segment from -1.7e308 to 1.7e308 evaluates to
 * finite values (see kn_store_tick). */
kn_status kn_store_add_keyframes(kn_store *store, const double *key_times, int64_t key_count,
                                 const double *values, int64_t track_count, const int32_t *interpolations,
                                 kn_bezier *const *easings, double progress, kn_entry *out);

/* Adds `count` springs sharing `spring`'s parameters: value = target + displacement,
 * advanced by kn_store_tick. displacements / velocities may be NULL (all 0). The store copies
 * the parameters: the spring may be destroyed after this call. All values finite.
 * Counts as kn_store_add_group. */
kn_status kn_store_add_springs(kn_store *store, const kn_spring *spring, const double *targets,
                               const double *displacements, const double *velocities, int64_t count,
                               kn_entry *out);

/* Moves the targets of a springs entry's `count` springs (count must be its lane count) in
 * place: each spring keeps its position and velocity (its displacement changes by the
 * targets' difference), so its motion stays continuous and heads for the new target; no lane
 * is added. The output changes at the next kn_store_tick / _evaluate. Errors:
 * KN_ERR_NULL_ARGUMENT, KN_ERR_STALE_HANDLE, KN_ERR_WRONG_KIND (not springs),
 * KN_ERR_COUNT_MISMATCH, KN_ERR_NOT_FINITE (targets[i]), KN_ERR_OUT_OF_RANGE (a new
 * displacement beyond the range of double, naming its lane); nothing changes then. */
kn_status kn_store_retarget_springs(kn_store *store, kn_entry entry, const double *targets, int64_t count);

/* Adds `count` lanes that coast to rest under `decay` (see kn_decay): value = position,
 * advanced exactly by kn_store_tick (position += velocity * (1 - exp(-k dt)) / k, velocity
 * *= exp(-k dt), k the decay constant); velocities in units per second. The decay is copied.
 * All values finite. Their section follows the springs' in the output, and their output
 * values are their positions from the moment they are added. Counts as kn_store_add_group;
 * errors also KN_ERR_OUT_OF_RANGE for a decay outside its ranges. */
kn_status kn_store_add_decays(kn_store *store, const kn_decay *decay, const double *positions,
                              const double *velocities, int64_t count, kn_entry *out);

/* Removes the entry (later entries' lanes move down). Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_STALE_HANDLE. */
kn_status kn_store_remove(kn_store *store, kn_entry entry);

/* *out = 1 if `entry` is a live entry of the store, else 0. Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_store_contains(const kn_store *store, kn_entry entry, int32_t *out);

/* Sets the progress of a group or keyframe entry (for a lanes entry: of all its lanes).
 * Errors: KN_ERR_STALE_HANDLE, KN_ERR_WRONG_KIND (springs), KN_ERR_NOT_FINITE. */
kn_status kn_store_set_progress(kn_store *store, kn_entry entry, double progress);

/* Sets each lane's progress of a lanes entry (`count` must equal its lane count; every value
 * finite, checked before any is set). Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_STALE_HANDLE,
 * KN_ERR_WRONG_KIND, KN_ERR_COUNT_MISMATCH, KN_ERR_OUT_OF_RANGE (count < 0), KN_ERR_NOT_FINITE. */
kn_status kn_store_set_lane_progress(kn_store *store, kn_entry entry, const double *progress, int64_t count);

/* Advances every spring entry by dt seconds (finite, >= 0), then evaluates every lane.
 * Finite in, finite out: spring states, targets and keyframe values anywhere in the range of
 * double (±1e308 included) give finite values; where a spring's next displacement or
 * velocity, or a lane's value (a spring's target + displacement, a keyframe value past an
 * overshooting easing or extrapolated beyond the last key), would be beyond the range of
 * double, the call is KN_ERR_OUT_OF_RANGE, the message names the output lane (as
 * kn_store_range counts) and the quantity ("lane 5: the value would be beyond the range of
 * Double ..."), and nothing changes: no spring moves, no value is written. The check costs a
 * few scalar operations per entry while no product of a step or value can overflow.
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE. */
kn_status kn_store_tick(kn_store *store, double dt);

/* Evaluates every lane at the current progress and spring states (no time step).
 * Errors: KN_ERR_NULL_ARGUMENT; KN_ERR_OUT_OF_RANGE for a value beyond the range of double,
 * as kn_store_tick (nothing written). */
kn_status kn_store_evaluate(kn_store *store);

/* The total number of lanes (output values) and of live entries. Either pointer may be NULL. */
kn_status kn_store_counts(const kn_store *store, int64_t *lane_count, int64_t *entry_count);

/* The entry's lanes in the output: [*offset, *offset + *count). Changes when an earlier
 * entry is removed. Either pointer may be NULL. Errors: KN_ERR_STALE_HANDLE. */
kn_status kn_store_range(const kn_store *store, kn_entry entry, int64_t *offset, int64_t *count);

/* The value of lane `lane` (0-based within the entry) as of the last tick / evaluate
 * (0 for an entry added since, except a decays entry, whose values are its positions from
 * the start; adding or removing other entries keeps it).
 * Errors: KN_ERR_STALE_HANDLE, KN_ERR_OUT_OF_RANGE (lane). */
kn_status kn_store_value(const kn_store *store, kn_entry entry, int64_t lane, double *out);

/* Copies the entry's values into out[0 ..< capacity]; *count (if not NULL) receives the
 * entry's lane count. Errors: KN_ERR_STALE_HANDLE, KN_ERR_OUT_OF_RANGE (capacity < 0),
 * KN_ERR_BUFFER_TOO_SMALL (capacity < lane count: nothing copied, *count still set). */
kn_status kn_store_read(const kn_store *store, kn_entry entry, double *out, int64_t capacity, int64_t *count);

/* Copies every lane's value (groups, lanes, keyframes, springs, decays, in that order); as kn_store_read. */
kn_status kn_store_read_all(const kn_store *store, double *out, int64_t capacity, int64_t *count);

/* Frees the store and all its entries. NULL is a no-op. Cannot fail. */
void kn_store_destroy(kn_store *store);

/* ---------------------------------------------------------------- animation engine */

/* Kinetic's animation engine: lanes of doubles, and runs (UIKit's property animators) that
 * animate them on a clock the host advances, with UIKit's UIViewAnimating state machine
 * (start, start after a delay, pause, scrub, reverse, continue with other timing, add
 * animations, stop, finish). The same engine runs the Swift UIKit layer (KineticUI): a run
 * driven by the same calls gives the same values bit for bit.
 *
 * Lanes: each lane has a model value (where it rests when its animations have ended) and a
 * presentation value, model + the sum of its animations' offsets (UIKit's additive
 * animation: several runs on one lane add up, and each ends exactly at the model value).
 * An animation sets a lane's model value to its target at once and moves the presentation
 * value there along its run's timing.
 *
 * Events: a run whose time runs out during kn_engine_advance_to / _by ends (its animations
 * end at its end values, or at its start values when it ran reversed) and becomes inactive,
 * where "runs out" means the engine's time is within 1 ns of the run's end time or past it (a
 * frame time and a start time plus a duration, computed differently, may differ by rounding),
 * or, with pauses_on_completion, stays active and paused at its end. Each becomes an event,
 * in the order the runs were (last) started; the engine calls no function of the host. Drain
 * them with kn_engine_next_event. kn_engine_run_stop and kn_engine_run_finish take effect at
 * once and queue no event.
 *
 * Illegal calls (UIKit raises an exception for them) return KN_ERR_ILLEGAL_STATE with
 * UIKit's reason as the last error message (e.g. "stopAnimation: the animator must be in the
 * active state before being stopped (it is inactive)"), and change nothing.
 *
 * Mutable: NOT thread-safe; use each engine from one thread at a time (reads included).
 * Different engines may be used on different threads at once. */
typedef struct kn_engine kn_engine;

/* A run of an engine. Ids are unique across all engines of the process and never reused: a
 * released run's id, or another engine's, is KN_ERR_STALE_HANDLE. 0 is never a run. Ids are
 * opaque (not a count of runs created). */
typedef uint64_t kn_run;

/* Timing kinds (kn_timing.kind). */
enum {
    KN_TIMING_LINEAR = 0,          /* progress = time fraction */
    KN_TIMING_CUBIC = 1,           /* cubic-bezier (x1, y1, x2, y2), x1 and x2 in [0, 1] */
    KN_TIMING_DAMPED_SPRING = 2,   /* UIKit's UISpringTimingParameters(dampingRatio:initialVelocity:):
                                      damping_ratio > 0, scaled in time so that a move from rest
                                      settles (within 0.001) at the run's duration; the velocities
                                      add to that motion */
    KN_TIMING_PHYSICAL_SPRING = 3  /* a kn_spring (damping > 0): the run lasts the spring's own
                                      settling time (within 0.001, the slower velocity), not the
                                      duration given */
};

/* How a run's progress follows its time. Fields a kind does not use are ignored. The
 * velocities (springs) are UIKit's normalised initial velocity: move distances per second,
 * velocity_x for the lanes not marked vertical, velocity_y for the vertical ones. The spring
 * is copied: it may be destroyed after the call. */
typedef struct kn_timing {
    int32_t kind;                 /* KN_TIMING_ */
    double x1, y1, x2, y2;        /* KN_TIMING_CUBIC */
    double damping_ratio;         /* KN_TIMING_DAMPED_SPRING */
    const kn_spring *spring;      /* KN_TIMING_PHYSICAL_SPRING */
    double velocity_x, velocity_y;
} kn_timing;

/* Where a finished run leaves its lanes (UIViewAnimatingPosition). */
enum {
    KN_POSITION_END = 0,
    KN_POSITION_START = 1,
    KN_POSITION_CURRENT = 2
};

/* Run states (UIViewAnimatingState). */
enum {
    KN_RUN_INACTIVE = 0,   /* not started, or ended: no animations, fraction 0 */
    KN_RUN_ACTIVE = 1,     /* running, paused, or waiting for its delay or its first animations */
    KN_RUN_STOPPED = 2     /* stopped: waiting for kn_engine_run_finish */
};

/* Event kinds (kn_event.kind). */
enum {
    KN_EVENT_FINISHED = 0,       /* the run ended at `position` and is inactive */
    KN_EVENT_PAUSED_AT_END = 1   /* the run reached its end and stays active, paused (position 0) */
};

typedef struct kn_event {
    kn_run run;
    int32_t kind;       /* KN_EVENT_ */
    int32_t position;   /* KN_POSITION_ (KN_EVENT_FINISHED) */
} kn_event;

/* A run's state, for kn_engine_run_info. Flags are 0 or 1. */
typedef struct kn_run_info {
    int32_t state;                 /* KN_RUN_ */
    int32_t running;               /* time advances it (also while it waits for its delay) */
    int32_t reversed;
    int32_t interruptible;
    int32_t scrubs_linearly;
    int32_t pauses_on_completion;
    double fraction_complete;      /* of the run's time, [0, 1]; 0 while inactive */
} kn_run_info;

/* Creates an empty engine at time 0. Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_engine_create(kn_engine **out);

/* Frees the engine with its lanes and runs (their ids become stale). NULL is a no-op.
 * Cannot fail. */
void kn_engine_destroy(kn_engine *engine);

/* Adds `count` lanes (at most 65535 at once; the engine holds at most KN_MAX_COUNT) whose
 * model and presentation values are values[0 ..< count] (finite); *first_lane receives the
 * index of the first (the others follow it). Lanes live as long as the engine.
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE (naming values[i]), KN_ERR_OUT_OF_RANGE. */
kn_status kn_engine_add_lanes(kn_engine *engine, const double *values, int64_t count, int64_t *first_lane);

/* The number of lanes. Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_engine_lane_count(const kn_engine *engine, int64_t *out);

/* Copies the presentation values of lanes first_lane ..< first_lane + count into out (the
 * values at the engine's time, including any change made since the last advance).
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_OUT_OF_RANGE (lanes outside the engine's). */
kn_status kn_engine_read(kn_engine *engine, int64_t first_lane, int64_t count, double *out);

/* Copies the model values of those lanes into out. Errors: as kn_engine_read. */
kn_status kn_engine_read_model(const kn_engine *engine, int64_t first_lane, int64_t count, double *out);

/* Copies the velocities of lanes first_lane ..< first_lane + count into out, in the lanes'
 * units per second: the exact time derivative of their presentation values at the engine's
 * time (each animation's span times the rate of its eased progress: a cubic's slope, a
 * spring's velocity, a keyframe step's derivative), not a difference of frames. 0 for a lane
 * that no running run moves (paused, in its delay, ended, or not animated). Always finite:
 * where the true velocity is infinite (a cubic curve with x1 = 0 starts on a vertical
 * tangent) or beyond the range of double, +-DBL_MAX. Just after
 * kn_engine_run_continue with a spring, a lane of an animation over the whole run moves at
 * the spring's initial velocity times the distance it has left (one with a delay that has
 * not begun stays at 0 until its part of the run). Errors: as kn_engine_read. */
kn_status kn_engine_read_velocity(const kn_engine *engine, int64_t first_lane, int64_t count, double *out);

/* Sets a lane's model value outside any animation (finite): the animations on it keep their
 * offsets relative to it (UIKit's model write under an animation).
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (lane; a value on an
 * animated lane whose difference from the model value, or the animations' start shifted by
 * it, is beyond the range of double: nothing changes then). */
kn_status kn_engine_set_model(kn_engine *engine, int64_t lane, double value);

/* Moves time to `time` seconds (finite, >= the current time) and runs one tick: every
 * running run advances, every lane is written, runs whose time ran out end (events).
 * A steady-state tick allocates nothing. Its cost is bounded per run whatever the jump: a
 * repeating run skips whole cycles at once, and one whose cycle is below the rounding of the
 * time (a duration of 1e-300, or 0.5 s at a time of 1e17) begins a cycle at `time`.
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (time going back). */
kn_status kn_engine_advance_to(kn_engine *engine, double time);

/* Moves time forward by dt seconds (finite, >= 0) and runs one tick. Prefer
 * kn_engine_advance_to for a fixed frame rate (no accumulated rounding).
 * Errors: as kn_engine_advance_to. */
kn_status kn_engine_advance_by(kn_engine *engine, double dt);

/* The engine's time, seconds. Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_engine_time(const kn_engine *engine, double *out);

/* Takes the oldest event not yet taken: *has_event = 1 and *out filled, or *has_event = 0
 * when there is none. The engine keeps the events not taken (and only those: taken ones are
 * let go at the next call that collects events), so a host that never takes them holds one
 * 16-byte entry per run that ended. Errors: KN_ERR_NULL_ARGUMENT. */
kn_status kn_engine_next_event(kn_engine *engine, kn_event *out, int32_t *has_event);

/* Creates an inactive run with `timing` (copied) and `duration` seconds (finite, >= 0).
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (an unknown kind,
 * control points, a damping ratio <= 0, a spring that cannot settle: damping <= 0, or so
 * small that its settling time is beyond the range of double, named as "damping_ratio"; a
 * KN_TIMING_DAMPED_SPRING velocity whose product with `duration` is beyond the range of
 * double; or the process has handed out 2^48 ids, run and store entry ids together: ids are
 * never reused). */
kn_status kn_engine_run_create(kn_engine *engine, const kn_timing *timing, double duration, kn_run *out);

/* Releases a run: its animations end where they are (the lanes keep their presentation
 * values as model values) and its id becomes stale. Errors: KN_ERR_NULL_ARGUMENT,
 * KN_ERR_STALE_HANDLE. */
kn_status kn_engine_run_release(kn_engine *engine, kn_run run);

/* The options of UIKit's block-based animations (flags 0 or 1): repeat, autoreverse (go back
 * before repeating or ending; without repeat it then ends at its end values), and
 * begins_from_current_state (animations start from the presentation values, freezing the
 * other animations of their lanes). Only while inactive (else KN_ERR_ILLEGAL_STATE). */
kn_status kn_engine_run_configure(kn_engine *engine, kn_run run, int32_t repeats, int32_t autoreverses,
                                  int32_t begins_from_current_state);

/* Makes a repeating run (kn_engine_run_configure with repeats) end after `cycles` cycles
 * (finite; fractions allowed; 0 or less: once), a cycle being one pass or, with
 * autoreverses, a pass forward and back: the run then ends at KN_POSITION_END with a
 * KN_EVENT_FINISHED event (UIKit's modifyAnimations(withRepeatCount:autoreverses:)). Pausing,
 * scrubbing, reversing, continuing or stopping the run drops the count. Only while inactive
 * (else KN_ERR_ILLEGAL_STATE). Errors: KN_ERR_NOT_FINITE. */
kn_status kn_engine_run_set_repeat_count(kn_engine *engine, kn_run run, double cycles);

/* Adds animations (UIKit's addAnimations(_:delayFactor:)): lane lanes[i] moves to
 * targets[i] (finite); vertical (may be NULL: none) marks the lanes that take a spring's
 * velocity_y. A lane appears once per call. Inactive: kept until the run starts, each lane
 * then moving from its model value at the start, over [delay_factor, 1] of the run. Waiting
 * for its first animations: they start it. Running or paused: they start delay_factor × the
 * duration after the current fraction and end with the run (reversed: they run back from
 * there). delay_factor in [0, 1]. A lane carries at most 65535 animations and keyframe
 * steps at once, and a move's span (target − the lane's model value, or, with
 * begins_from_current_state on an animated lane, target − the value shown) must be within the
 * range of double, which keeps a linear move's values finite (a timing that overshoots, a
 * spring or a cubic with y beyond [0, 1], can still pass the range on a span near its limit,
 * and those values read ±infinity): a running, paused or waiting run
 * refuses an animation beyond either with KN_ERR_OUT_OF_RANGE, naming the lane; targets kept
 * by an inactive run meet the same checks at its start, and a target that fails them then is
 * dropped (the others start). Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_STALE_HANDLE,
 * KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (a lane, a repeated lane, delay_factor, a full lane,
 * a span beyond the range of double), KN_ERR_ILLEGAL_STATE (stopped). Nothing is added on
 * error. */
kn_status kn_engine_run_add_animations(kn_engine *engine, kn_run run, const int64_t *lanes, const double *targets,
                                       const int32_t *vertical, int64_t count, double delay_factor);

/* Keyframe calculation modes (kn_engine_run_add_keyframes): Core Animation's
 * CAKeyframeAnimation.calculationMode. */
enum {
    KN_CALCULATION_LINEAR = 0,       /* straight lines between keyframes at their times */
    KN_CALCULATION_DISCRETE = 1,     /* each keyframe's values hold from its time to the next's */
    KN_CALCULATION_PACED = 2,        /* straight lines at a constant speed over the whole run (times
                                        ignored; distance over all the call's lanes together) */
    KN_CALCULATION_CUBIC = 3,        /* a Catmull-Rom spline through the keyframes at their times */
    KN_CALCULATION_CUBIC_PACED = 4   /* that spline on evenly spaced parameters, at a constant speed
                                        along its arc length (times ignored) */
};

/* Adds a keyframe animation (a CAKeyframeAnimation over the run's whole time, eased by the
 * run's timing): lanes[i] (lane_count distinct lanes) move from their model values, an
 * implicit keyframe at time 0, through key_count keyframes; keyframe k's values are
 * values[k * lane_count + i] (finite), at key_times[k] (non-decreasing, in [0, 1]; NULL: (k + 1)
 * / key_count). A keyframe at time 0 replaces the start there (the lanes jump to it). The
 * lanes' model values become the last keyframe's. It adds to the lanes' other animations,
 * as kn_engine_run_add_animations does (with begins_from_current_state, it starts from the
 * values shown instead, holding them until the first keyframe that moves). Inactive: kept
 * until the run starts (the lanes then move from the model values they have). Waiting for
 * its first animations: they start it. Running or paused: added at once on the run's
 * timeline (the lanes show the keyframes where the run's fraction is). Each step between two
 * keyframes that changes a lane is one of the lane's at most 65535 animations, and its span
 * must be within the range of double, as for kn_engine_run_add_animations (keyframes kept by
 * an inactive run meet those checks at its start, and are dropped there if they fail them).
 * Cost and memory grow linearly with key_count × lane_count in every mode. Errors:
 * KN_ERR_NULL_ARGUMENT, KN_ERR_STALE_HANDLE, KN_ERR_NOT_FINITE (values[j], key_times[k]),
 * KN_ERR_OUT_OF_RANGE (a lane, a repeated lane, a key time, calculation_mode, a count, more
 * changing steps than a lane has room for, a step's span beyond the range of double),
 * KN_ERR_ILLEGAL_STATE (stopped). Nothing is added on error. */
kn_status kn_engine_run_add_keyframes(kn_engine *engine, kn_run run, const int64_t *lanes, int64_t lane_count,
                                      const double *values, const double *key_times, int64_t key_count,
                                      int32_t calculation_mode);

/* Starts the run, or resumes it when paused; a run with no animations waits, active, for
 * its first. A run paused during a kn_engine_run_continue leg, and neither reversed nor
 * scrubbed since, resumes that leg where its time stopped (the lanes go on along the same
 * curve, with no second start); otherwise it resumes from where the lanes are.
 * Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_STALE_HANDLE, KN_ERR_ILLEGAL_STATE (stopped). */
kn_status kn_engine_run_start(kn_engine *engine, kn_run run);

/* Starts an inactive run after `delay` seconds (finite, >= 0); a running run is not
 * affected. A run with no animations waits for its first, which begin `delay` seconds after
 * this call (or at once, when they come later than that). Errors: as kn_engine_run_start, plus KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE,
 * KN_ERR_ILLEGAL_STATE (paused). */
kn_status kn_engine_run_start_after_delay(kn_engine *engine, kn_run run, double delay);

/* Pauses the run; an inactive run becomes active and paused at 0.
 * Errors: KN_ERR_ILLEGAL_STATE (stopped; running and not interruptible). */
kn_status kn_engine_run_pause(kn_engine *engine, kn_run run);

/* Stops the run where it is: its animations end and the lanes' model values become the
 * values last shown. without_finishing != 0: inactive at once; 0: stopped until
 * kn_engine_run_finish. Errors: KN_ERR_ILLEGAL_STATE (inactive; stopped; running and not
 * interruptible). */
kn_status kn_engine_run_stop(kn_engine *engine, kn_run run, int32_t without_finishing);

/* Finishes a stopped run: KN_POSITION_END / _START set the lanes' model values to the
 * animations' end / start values (a lane's start: its value before all of the run's
 * animations of it, except those added while the run ran reversed, which keep their value
 * there and are undone at the end), _CURRENT leaves them; the run becomes inactive.
 * Errors: KN_ERR_OUT_OF_RANGE (position), KN_ERR_ILLEGAL_STATE (not stopped). */
kn_status kn_engine_run_finish(kn_engine *engine, kn_run run, int32_t position);

/* Resumes a paused run with new timing (NULL: the run's own) from where its lanes are: the
 * rest takes duration_factor × the duration given at creation (0: the time the original
 * timing had left; a physical spring its settling time): the run's time moves on, and each
 * animation covers the rest of its own part of the run (its delay factor's window) from its
 * current progress, eased by the new timing, as that time crosses it; one over the whole run
 * moves along the new timing at once; keyframes go on along the new timing from where they
 * are, each step beginning when that eased time reaches its key time. NULL timing with factor 0 resumes the
 * original timing unchanged. Errors: KN_ERR_NOT_FINITE, KN_ERR_OUT_OF_RANGE (factor < 0, a
 * factor whose duration is beyond the range of double, the timing's), KN_ERR_ILLEGAL_STATE
 * (not paused; not interruptible); the run is unchanged then (its repeat count included). */
kn_status kn_engine_run_continue(kn_engine *engine, kn_run run, const kn_timing *timing, double duration_factor);

/* Scrubs: a paused run moves to `fraction` (of its time, in [0, 1]); an inactive one becomes
 * active and paused there; ignored while running or stopped. With scrubs_linearly (the
 * default) the lanes move linearly in the fraction while scrubbed.
 * Errors: KN_ERR_OUT_OF_RANGE (NaN or outside [0, 1]). */
kn_status kn_engine_run_set_fraction(kn_engine *engine, kn_run run, double fraction);

/* Sets the direction: while running it turns the run round at once; while inactive or paused
 * it applies to the next start; while stopped it is ignored (KN_OK, nothing changes).
 * Errors: KN_ERR_ILLEGAL_STATE (running and not interruptible). */
kn_status kn_engine_run_set_reversed(kn_engine *engine, kn_run run, int32_t reversed);

/* Whether the run may be paused, stopped, reversed or continued while running (default 1).
 * Only while inactive (else KN_ERR_ILLEGAL_STATE). */
kn_status kn_engine_run_set_interruptible(kn_engine *engine, kn_run run, int32_t interruptible);

/* Whether scrubbing maps the fraction to progress linearly (default 1). Any state. */
kn_status kn_engine_run_set_scrubs_linearly(kn_engine *engine, kn_run run, int32_t scrubs_linearly);

/* Whether the run stays active, paused at its end, instead of ending (default 0). Any state. */
kn_status kn_engine_run_set_pauses_on_completion(kn_engine *engine, kn_run run, int32_t pauses);

/* The run's state. Errors: KN_ERR_NULL_ARGUMENT, KN_ERR_STALE_HANDLE. */
kn_status kn_engine_run_info(const kn_engine *engine, kn_run run, kn_run_info *out);

#ifdef __cplusplus
}
#endif

#endif /* KINETIC_H */
